"""The pre-endgame: two players, one tile in the bag. Every tile the bag may hold is tried (from
the mover's view the unseen tiles are the opponent's rack and the bag tile, so each of them
may be the bag tile), and each line this makes is an endgame that the exact search solves.

For a tile play ``c`` (score ``s``, leave ``L``) and a bag tile ``t`` the mover draws ``t``,
the opponent holds the other unseen tiles, the bag is empty and the opponent is to move: the
line is worth ``s`` less that endgame's value to the opponent (:mod:`letras.ai.endgame`,
spread change to the end of the game, final count included). A candidate's value is the mean
of its lines, each weighted by how many of its tile are unseen, as spread; its win chance
counts the lines that end the game ahead (a tie half).

The pass (exchanges need :attr:`~letras.editions.RuleOptions.exchange_min_bag` tiles in the
bag, 7 in every edition, so there are none here) leaves the draw to the opponent: for each
bag tile the opponent, knowing it, answers with the best of its :data:`PASS_REPLIES`
highest-scoring plays (it draws ``t``, then the mover faces an exact endgame), or passes back,
after which the mover plays the best tile play found (its line for that tile). An opponent who
sees the bag tile and a short list of replies: the pass's value is an estimate even when its
lines are solved.

The search goes in rounds of growing work per line: one ply in the first, ``FIRST_WORK``
positions in the second, then ``GROWTH`` times more each round. Every line and round runs on
one :class:`~letras.ai.endgame.compiled.CompiledSearch` (its racks are bit sets within the
mover's rack and the unseen tiles), so its transposition table and cache of plays carry over:
a line searched again starts from what the last round found, and a line solved exactly is not
searched again. The first round only orders the candidates (the best searched first); after
each later round they are ranked (win chance, then spread) and the lower half is dropped (at
least ``KEEP`` stay). It ends when every kept candidate's lines are solved, or the limit is
spent: the answer is the best candidate of the values found so far (at least the first
candidate's one-ply values are always found). Only the view is used, never the hidden tiles;
for a fixed work limit the choice is deterministic.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from letras.ai.endgame.position import EndgameError, EndgamePosition, unseen_tiles
from letras.ai.equity import EquityPlayer
from letras.ai.player import NO_LIMIT, Choice, Limit
from letras.board import Board
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.movegen import generate
from letras.play import Pass, Place
from letras.tiles import BLANK_BIT

BY_EQUITY = 12
"""Candidates: the best tile plays by equity (``equity`` level's ranking) ..."""
BY_SCORE = 4
"""... the highest-scoring tile plays ..."""
PASS_REPLIES = 6
"""... and the pass, valued over the opponent's highest-scoring replies."""
KEEP = 3
"""Candidates that are never dropped between rounds."""
FIRST_WORK = 2_000
"""Positions a line may search in the second round (the first searches one ply: the side to
move's plays valued by the horizon's guess); each round allows ``GROWTH`` times more. A line
may go over: the search checks its limit as it enters a position, and every iteration that
is begun searches its root's moves."""
GROWTH = 4
DEFAULT_LIMIT = Limit(work=600_000)
"""What a pre-endgame spends without a limit from its caller: positions searched over every
line and round (work, not seconds, so that games replay exactly). A few seconds of CPU on
this machine (``bench/preendgame.py``); 30 s buy about 3 M."""
SHARE = True
"""Whether the lines share one search's table and cache of plays (False: a fresh search per
line, as ``bench/preendgame.py --fresh`` compares)."""


@dataclass(frozen=True)
class Line:
    """One bag tile for one candidate: how many such tiles are unseen (the line's weight), the
    spread change to the end of the game for the mover, and whether it is exact."""

    tile: int
    weight: int
    value: int
    exact: bool


@dataclass(frozen=True)
class CandidateValue:
    """A candidate with its lines (one per distinct unseen tile), the weighted mean of their
    values (``spread``), the weighted share of lines that finish ahead (``wins``, ties
    half), whether every line is exact, and the last round that valued it."""

    choice: Choice
    score: int
    lines: tuple[Line, ...]
    spread: float
    wins: float
    exact: bool
    round: int


@dataclass(frozen=True)
class PreendgameResult:
    """The best candidate and every candidate valued, best first (dropped ones after the
    kept ones); the rounds completed or begun, positions searched over all lines, endgame
    searches run, the candidates' lines and how many of them are solved exactly (the pass's
    replies not counted), whether every kept candidate is exact, seconds."""

    best: Choice
    candidates: tuple[CandidateValue, ...]
    rounds: int
    nodes: int
    searches: int
    lines: int
    solved: int
    exact: bool
    seconds: float


def applies(view: PlayerView) -> bool:
    """Whether this view is a pre-endgame: two players, one tile in the bag, a board with
    tiles, the viewer to move, the game not over."""
    return (len(view.scores) == 2 and view.bag_count == 1 and not view.over
            and view.to_move == view.player and bool(view.rack)
            and not view.board.is_empty())


def _leave(rack: Sequence[int], place: Place) -> tuple[int, ...]:
    left = list(rack)
    for t in place.tiles:
        if t:
            left.remove(0 if t & BLANK_BIT else t)
    return tuple(sorted(left))


def _without(tiles: Sequence[int], tile: int) -> tuple[int, ...]:
    left = list(tiles)
    left.remove(tile)
    return tuple(left)


def top_by_score(view: PlayerView, rack: Sequence[int], lexicon: WordGraph,
                 n: int) -> list[tuple[Place, int]]:
    """The ``n`` highest-scoring plays of ``rack`` on the view's board, with their scores."""
    plays = generate(view.board, rack, lexicon, bingo_bonus=view.rules.bingo_bonus,
                     join_words=view.may_join_words)
    scores = plays.scores()
    order = sorted(range(len(plays)), key=lambda i: (-int(scores[i]), i))
    return [(plays.place(i), int(scores[i])) for i in order[:n]]


def candidate_places(view: PlayerView, lexicon: WordGraph, equity: EquityPlayer,
                     by_equity: int, by_score: int) -> list[tuple[Place, int]]:
    """The mover's ``by_equity`` best tile plays by equity, then its ``by_score``
    highest-scoring ones, without repeats, with their scores: the pre-endgames' candidates
    (the pass aside)."""
    ranked = [(c.choice, c.score) for c in equity.ranked(view, by_equity + 1)
              if isinstance(c.choice, Place)][:by_equity]
    out: list[tuple[Place, int]] = []
    for place, score in ranked + top_by_score(view, view.rack, lexicon, by_score):
        if place not in [p for p, _ in out]:
            out.append((place, score))
    return out


class _Lines:
    """The endgames of the lines, over one compiled search (its table and cache shared)."""

    def __init__(self, view: PlayerView, lexicon: WordGraph, tiles: Sequence[int]) -> None:
        self.view = view
        self.lexicon = lexicon
        self.tiles = tuple(tiles)
        self.search: object | None = None
        self.nodes = 0
        self.values = view.edition.tiles.values
        rules = view.rules
        self.pass_end = 2 * rules.pass_rounds_to_end if rules.pass_rounds_to_end else 0
        self.scoreless_end = rules.scoreless_turns_to_end

    def rack_value(self, rack: Sequence[int]) -> int:
        return sum(self.values[t] for t in rack)

    def solve(self, position: EndgamePosition, limit: Limit) -> tuple[int, bool]:
        """The endgame's value for its player to move, and whether it is exact."""
        if (self.scoreless_end and position.scoreless_in_row >= self.scoreless_end) or (
                self.pass_end and position.passes_in_row >= self.pass_end):
            # the last turn ended the game: each player loses their own rack
            return (self.rack_value(position.opponent_rack)
                    - self.rack_value(position.rack)), True
        from letras.ai.endgame.compiled import CompiledSearch, usable

        if not usable(position):
            raise EndgameError("the pre-endgame needs the compiled endgame search")
        if self.search is None or not SHARE:
            self.search = CompiledSearch(position, self.lexicon, limit, tiles=self.tiles)
        search = self.search
        assert isinstance(search, CompiledSearch)
        search.retarget(position, limit)
        value, exact, _ = search.evaluate()
        self.nodes += search.nodes
        return value, exact


@dataclass
class _Candidate:
    choice: Choice
    score: int
    leave: tuple[int, ...]
    board: Board | None
    order: int
    lines: dict[int, Line]
    replies: dict[tuple[int, int], tuple[int, bool]]
    round: int = -1

    @property
    def is_pass(self) -> bool:
        return self.board is None


class Preendgame:
    """One pre-endgame search (see the module docstring)."""

    def __init__(self, view: PlayerView, lexicon: WordGraph, limit: Limit = NO_LIMIT,
                 equity: EquityPlayer | None = None) -> None:
        if not applies(view):
            raise EndgameError("not a two-player position with one tile in the bag")
        self.view = view
        self.lexicon = lexicon
        self.limit = DEFAULT_LIMIT if limit.unlimited else limit
        self.equity = equity or EquityPlayer(lexicon)
        self.rack = tuple(sorted(view.rack))
        self.unseen = unseen_tiles(view)
        self.weights = sorted(Counter(self.unseen).items())
        self.total = len(self.unseen)
        self.lines = _Lines(view, lexicon, self.rack + self.unseen)
        self.spread_now = view.scores[view.player] - view.scores[1 - view.player]
        self.searches = 0
        self._reply_cache: dict[int, list[tuple[Place, int]]] = {}

    # ----- candidates ---------------------------------------------------------------------

    def candidates(self) -> list[_Candidate]:
        """The best tile plays by equity, the highest-scoring ones, and the pass; in that
        order, without repeats."""
        view = self.view
        out: list[_Candidate] = []
        for choice, score in candidate_places(view, self.lexicon, self.equity, BY_EQUITY,
                                              BY_SCORE):
            board = view.board.copy()
            board.put(choice.placed())
            out.append(_Candidate(choice, score, _leave(self.rack, choice), board, len(out),
                                  {}, {}))
        out.append(_Candidate(Pass(), 0, self.rack, None, len(out), {}, {}))
        return out

    # ----- values -------------------------------------------------------------------------

    def _play_line(self, c: _Candidate, tile: int, limit: Limit) -> tuple[int, bool]:
        view = self.view
        assert c.board is not None
        scoreless = 0 if c.score else view.scoreless_in_row + 1
        position = EndgamePosition(c.board, _without(self.unseen, tile), (*c.leave, tile),
                                   view.rules, 0, scoreless, view.may_join_words)
        value, exact = self.lines.solve(position, limit)
        return c.score - value, exact

    def _replies(self, tile: int) -> list[tuple[Place, int]]:
        """The opponent's highest-scoring plays if ``tile`` is in the bag."""
        known = self._reply_cache.get(tile)
        if known is None:
            known = top_by_score(self.view, _without(self.unseen, tile), self.lexicon,
                                 PASS_REPLIES)
            self._reply_cache[tile] = known
        return known

    def _pass_line(self, c: _Candidate, tile: int, limit: Limit,
                   back: Line | None) -> tuple[int, bool]:
        """The pass: the opponent's best reply (or its pass back, worth ``back``)."""
        view = self.view
        opponent = _without(self.unseen, tile)
        passes, scoreless = view.passes_in_row + 1, view.scoreless_in_row + 1
        lines = self.lines
        if (lines.pass_end and passes >= lines.pass_end) or (
                lines.scoreless_end and scoreless >= lines.scoreless_end):
            return lines.rack_value(opponent) - lines.rack_value(self.rack), True
        worst, exact = (back.value, back.exact) if back is not None else (None, True)
        for k, (place, score) in enumerate(self._replies(tile)):
            known = c.replies.get((tile, k))
            if known is None or not known[1]:
                board = view.board.copy()
                board.put(place.placed())
                kept = (*_leave(opponent, place), tile)
                position = EndgamePosition(board, self.rack, kept, view.rules, 0,
                                           0 if score else scoreless + 1, view.may_join_words)
                value, solved = lines.solve(position, limit)
                self.searches += 1
                known = (value - score, solved)
                c.replies[(tile, k)] = known
            if worst is None or known[0] < worst:
                worst = known[0]
            exact = exact and known[1]
        if worst is None:  # no reply and nothing to compare: the opponent passes back
            worst = 0
        return worst, exact

    def _value(self, c: _Candidate, work: int, deadline: float, best: _Candidate | None,
               rnd: int) -> bool:
        """Value the candidate's lines not yet exact with up to ``work`` positions each.
        False if the limit ran out first."""
        for tile, weight in self.weights:
            line = c.lines.get(tile)
            if line is not None and line.exact and not c.is_pass:
                continue  # (the pass's lines depend on the best play's: valued again)
            left = self._work_left() if rnd > 0 else 1
            if (left <= 0 or time.perf_counter() > deadline) and (rnd > 0 or c.order > 0):
                return False  # (the first candidate's first values are always found)
            seconds = None if deadline == float("inf") else max(
                0.0, deadline - time.perf_counter())
            limit = Limit(seconds=seconds, work=max(1, min(work, left)))
            if c.is_pass:
                back = best.lines.get(tile) if best is not None else None
                value, exact = self._pass_line(c, tile, limit, back)
            else:
                value, exact = self._play_line(c, tile, limit)
                self.searches += 1
            c.lines[tile] = Line(tile, weight, value, exact)
        c.round = rnd
        return True

    def _work_left(self) -> int:
        work = self.limit.work
        return (1 << 62) if work is None else work - self.lines.nodes

    def summary(self, c: _Candidate) -> CandidateValue:
        lines = tuple(c.lines[t] for t, _ in self.weights if t in c.lines)
        spread = sum(line.weight * line.value for line in lines) / self.total
        wins = sum(line.weight * (1.0 if self.spread_now + line.value > 0 else
                                  0.5 if self.spread_now + line.value == 0 else 0.0)
                   for line in lines) / self.total
        exact = len(lines) == len(self.weights) and all(line.exact for line in lines)
        return CandidateValue(c.choice, c.score, lines, spread, wins, exact, c.round)

    def _rank(self, cands: list[_Candidate]) -> list[_Candidate]:
        """Complete candidates first, by win chance, then spread, then their first order."""
        def key(c: _Candidate) -> tuple[int, float, float, int]:
            s = self.summary(c)
            return (0 if len(s.lines) == len(self.weights) else 1, -s.wins, -s.spread,
                    c.order)
        return sorted(cands, key=key)

    # ----- the rounds ---------------------------------------------------------------------

    def run(self) -> PreendgameResult:
        start = time.perf_counter()
        deadline = self.limit.deadline(start)
        kept = self.candidates()
        dropped: list[_Candidate] = []
        rnd, work = 0, 1
        while True:
            best: _Candidate | None = None
            finished = True
            for c in kept:
                if c.is_pass:
                    continue  # valued last: it needs the best tile play's lines
                if not self._value(c, work, deadline, None, rnd):
                    finished = False
                    break
                if best is None or self._rank([c, best])[0] is c:
                    best = c
            if finished:
                for c in kept:
                    if c.is_pass and not self._value(c, work, deadline, best, rnd):
                        finished = False
            # candidates the limit left without a value are dropped
            valued = [c for c in kept if c.round >= 0]
            dropped += [c for c in kept if c.round < 0]
            kept = self._rank(valued)
            all_exact = all(self.summary(c).exact for c in kept)
            if not finished or all_exact:
                break
            if rnd > 0:  # (the first round's one-ply values only order the candidates)
                cut = max(KEEP, (len(kept) + 1) // 2)
                dropped = kept[cut:] + dropped
                kept = kept[:cut]
            rnd += 1
            work = FIRST_WORK if rnd == 1 else work * GROWTH
        ranked = [self.summary(c) for c in kept + dropped]
        lines = sum(len(s.lines) for s in ranked)
        solved = sum(1 for s in ranked for line in s.lines if line.exact)
        return PreendgameResult(
            ranked[0].choice, tuple(ranked), rnd + 1, self.lines.nodes, self.searches, lines,
            solved, all(self.summary(c).exact for c in kept),
            time.perf_counter() - start)


def solve_preendgame(view: PlayerView, lexicon: WordGraph, limit: Limit = NO_LIMIT, *,
                     equity: EquityPlayer | None = None) -> PreendgameResult:
    """Search a pre-endgame (see the module docstring) within ``limit`` (without one:
    :data:`DEFAULT_LIMIT`)."""
    return Preendgame(view, lexicon, limit, equity).run()


__all__ = [
    "BY_EQUITY",
    "BY_SCORE",
    "DEFAULT_LIMIT",
    "FIRST_WORK",
    "GROWTH",
    "KEEP",
    "PASS_REPLIES",
    "CandidateValue",
    "Line",
    "Preendgame",
    "PreendgameResult",
    "applies",
    "solve_preendgame",
]
