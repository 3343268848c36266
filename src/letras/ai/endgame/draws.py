"""The pre-endgame with 2 to 6 tiles in the bag, two players: candidates valued over the draws
the bag may give, each line played on to the empty bag and solved by the endgame search.

From the mover's view the unseen tiles are the opponent's rack and the bag together; a
**draw** is which of them are the bag (``k`` tiles), the rest being the opponent's rack. The
draws are every distinct multiset of ``k`` unseen tiles, each weighted by its probability
(how many ways the unseen tiles give it), when there are at most :data:`DRAWS` of them, else
:data:`DRAWS` deals sampled from a random generator seeded by the player's seed and the
position (the same deals for every candidate: their values are compared on the same draws).
Each draw also fixes the order of its bag tiles (a seeded shuffle), for the plays that leave
tiles in it.

For a candidate and a draw, the **line**:

- a play that lays ``k`` tiles or more empties the bag: the mover draws the whole bag and the
  opponent, on move, faces an endgame; the line is worth the play's score less that
  endgame's value to the opponent, as :mod:`letras.ai.endgame.preendgame` values a line with
  one tile in the bag;
- a play that lays fewer (and the pass) leaves tiles in the bag: the mover draws from the
  front of the draw's bag, then each side plays the ``equity`` level's choice from its own
  view (its rack, the board, the unseen counts: never the other rack or the bag order) until
  the bag is empty, and the endgame that follows is solved by the search. The line is worth
  the points scored on the way (the mover's less the opponent's) plus that endgame's value to
  the mover. A run of passes or scoreless turns that ends the game costs each side its rack.

A candidate's value is the weighted mean of its lines (spread) beside the weighted share of
lines that end the game ahead (ties half); candidates are ranked by win chance, then spread,
as with one tile in the bag. Every line is searched by one
:class:`~letras.ai.endgame.compiled.CompiledSearch` (its racks bit sets within the mover's rack
and the unseen tiles), so its transposition table and cache of plays are shared by every line
and round. The rounds are those of the one-tile search: one ply a line first (only to order
the candidates), then :data:`~letras.ai.endgame.preendgame.FIRST_WORK` positions a line,
:data:`~letras.ai.endgame.preendgame.GROWTH` times more each round, the lower half of the
candidates dropped after each round from the second (at least ``KEEP`` stay), until every kept
candidate's lines are exact or the limit (work: positions over every line; seconds) is spent.
For a fixed seed and work limit the choice is deterministic.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from letras.ai.endgame import preendgame as one
from letras.ai.endgame.position import EndgameError, EndgamePosition, unseen_tiles
from letras.ai.endgame.preendgame import _leave, _Lines
from letras.ai.equity import EquityPlayer
from letras.ai.player import NO_LIMIT, Choice, Limit
from letras.board import Board
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.play import Pass, Place

MAX_BAG = 6
"""The most tiles in the bag this search takes (with 7 an exchange is allowed)."""
BY_EQUITY = 8
"""Candidates: the best tile plays by equity ..."""
BY_SCORE = 2
"""... the highest-scoring tile plays, and the pass."""
DRAWS = 16
"""Draws a candidate is valued over: every distinct draw when there are at most this many,
else this many sampled deals."""
ROLLOUT_PLIES = 12
"""Turns a line may take to empty the bag before it is counted as ended (passes back and
forth)."""
DEFAULT_LIMIT = Limit(work=600_000)
"""What the search spends without a limit from its caller (work, so that games replay)."""


def applies(view: PlayerView) -> bool:
    """Whether this view is one this search takes: two players, 2 to :data:`MAX_BAG` tiles in
    the bag, a board with tiles, the viewer to move, the game not over."""
    return (len(view.scores) == 2 and 2 <= view.bag_count <= MAX_BAG and not view.over
            and view.to_move == view.player and bool(view.rack)
            and not view.board.is_empty())


@dataclass(frozen=True)
class Draw:
    """Which unseen tiles are the bag (in the order they are drawn), and the draw's weight."""

    bag: tuple[int, ...]
    weight: float


def draws(unseen: Sequence[int], k: int, rng: random.Random,
          most: int = DRAWS) -> list[Draw]:
    """Every distinct bag of ``k`` of the ``unseen`` tiles weighted by how many ways the tiles
    give it, when there are at most ``most``; else ``most`` sampled deals (weight 1 each). Each
    bag's order is shuffled by ``rng``."""
    counts = Counter(unseen)
    tiles = sorted(counts)
    distinct = sorted(set(itertools.combinations(sorted(unseen), k)))
    out: list[Draw] = []
    if len(distinct) <= most:
        for bag in distinct:
            took = Counter(bag)
            weight = math.prod(math.comb(counts[t], took[t]) for t in tiles)
            order = list(bag)
            rng.shuffle(order)
            out.append(Draw(tuple(order), float(weight)))
    else:
        pool = sorted(unseen)
        for _ in range(most):
            deal = pool[:]
            rng.shuffle(deal)
            out.append(Draw(tuple(deal[:k]), 1.0))
    return out


def _without(tiles: Sequence[int], take: Sequence[int]) -> tuple[int, ...]:
    left = list(tiles)
    for t in take:
        left.remove(t)
    return tuple(sorted(left))


@dataclass
class _Line:
    weight: float
    offset: int
    sign: int
    position: EndgamePosition
    value: int = 0
    exact: bool = False
    searched: bool = False


@dataclass(frozen=True)
class DrawsValue:
    """A candidate: its score, the weighted mean of its lines (``spread``), the weighted
    share that finish ahead (``wins``, ties half), whether every line is exact, the lines
    valued and the last round that valued it."""

    choice: Choice
    score: int
    spread: float
    wins: float
    exact: bool
    lines: int
    round: int


@dataclass(frozen=True)
class DrawsResult:
    """The best candidate, every candidate valued (best first), the draws, rounds, positions
    searched, whether every kept candidate is exact, seconds."""

    best: Choice
    candidates: tuple[DrawsValue, ...]
    draws: tuple[Draw, ...]
    rounds: int
    nodes: int
    exact: bool
    seconds: float


@dataclass
class _Candidate:
    choice: Choice
    score: int
    order: int
    lines: list[_Line]
    round: int = -1


class DrawsSearch:
    """One search (see the module docstring)."""

    def __init__(self, view: PlayerView, lexicon: WordGraph, limit: Limit = NO_LIMIT,
                 equity: EquityPlayer | None = None, seed: int = 0) -> None:
        if not applies(view):
            raise EndgameError("not a two-player position with 2 to 6 tiles in the bag")
        self.view = view
        self.lexicon = lexicon
        self.limit = DEFAULT_LIMIT if limit.unlimited else limit
        self.equity = equity or EquityPlayer(lexicon)
        self.rack = tuple(sorted(view.rack))
        self.unseen = unseen_tiles(view)
        self.lines = _Lines(view, lexicon, self.rack + self.unseen)
        self.spread_now = view.scores[view.player] - view.scores[1 - view.player]
        key = f"{bytes(view.board.squares).hex()}/{self.rack}/{view.scores}/{view.bag_count}"
        self.draws = draws(self.unseen, view.bag_count, random.Random(f"draws/{seed}/{key}"))
        self.total = sum(d.weight for d in self.draws)

    # ----- candidates and their lines -----------------------------------------------------

    def candidates(self) -> list[_Candidate]:
        view = self.view
        pairs: list[tuple[Choice, int]] = [
            *one.candidate_places(view, self.lexicon, self.equity, BY_EQUITY, BY_SCORE),
            (Pass(), 0)]
        out: list[_Candidate] = []
        for choice, score in pairs:
            cand = _Candidate(choice, score, len(out), [])
            cand.lines = [self._line(cand, d) for d in self.draws]
            out.append(cand)
        return out

    def _line(self, c: _Candidate, draw: Draw) -> _Line:
        """The line of ``c`` for ``draw``, played on to the empty bag (see the docstring)."""
        view = self.view
        me = view.player
        racks = [self.rack, _without(self.unseen, draw.bag)]  # [mover, opponent]
        if me:
            racks.reverse()
        board = view.board.copy()
        bag = list(draw.bag)
        scores = list(view.scores)
        passes, scoreless = view.passes_in_row, view.scoreless_in_row
        side, choice, score = me, c.choice, c.score
        for _ in range(ROLLOUT_PLIES):
            if isinstance(choice, Place):
                board.put(choice.placed())
                rack = _leave(racks[side], choice)
                drawn = bag[: sum(1 for t in choice.tiles if t)]
                del bag[: len(drawn)]
                racks[side] = tuple(sorted((*rack, *drawn)))
                passes, scoreless = 0, (0 if score else scoreless + 1)
            else:
                passes, scoreless = passes + 1, scoreless + 1
            scores[side] += score
            side = 1 - side
            position = EndgamePosition(board.copy(), racks[side], racks[1 - side],
                                       view.rules, passes, scoreless, view.may_join_words)
            if not bag or self._ended(position):
                break
            choice, score = self._equity_choice(board, racks, side, bag, scores, passes,
                                                scoreless)
        offset = (scores[me] - scores[1 - me]) - self.spread_now
        line = _Line(draw.weight, offset, 1 if side == me else -1, position)
        if bag:  # still tiles in the bag after ROLLOUT_PLIES turns: counted as ended
            values = self.lines
            line.value = values.rack_value(position.opponent_rack) - values.rack_value(
                position.rack)
            line.exact = line.searched = True
        return line

    def _ended(self, position: EndgamePosition) -> bool:
        lines = self.lines
        return bool((lines.scoreless_end and position.scoreless_in_row >= lines.scoreless_end)
                    or (lines.pass_end and position.passes_in_row >= lines.pass_end))

    def _equity_choice(self, board: Board, racks: list[tuple[int, ...]], side: int,
                       bag: list[int], scores: list[int], passes: int,
                       scoreless: int) -> tuple[Choice, int]:
        """The equity level's choice for ``side`` from its own view of the line."""
        view = self.view
        unseen = [0] * len(view.unseen)
        for t in (*racks[1 - side], *bag):
            unseen[t] += 1
        counts = [0, 0]
        counts[side], counts[1 - side] = len(racks[side]), len(racks[1 - side])
        seen = dataclasses.replace(
            view, board=board, rack=racks[side], player=side, to_move=side,
            bag_count=len(bag), rack_counts=tuple(counts), unseen=tuple(unseen),
            scores=tuple(scores), passes_in_row=passes, scoreless_in_row=scoreless,
            turns=())
        for c in self.equity.ranked(seen, 3):
            if isinstance(c.choice, (Place, Pass)):
                return c.choice, c.score
        return Pass(), 0

    # ----- values and rounds --------------------------------------------------------------

    def _value(self, c: _Candidate, work: int, deadline: float, rnd: int) -> bool:
        for line in c.lines:
            if line.exact:
                continue
            left = self._work_left() if rnd > 0 else 1
            if (left <= 0 or time.perf_counter() > deadline) and (rnd > 0 or c.order > 0):
                return False
            seconds = None if deadline == float("inf") else max(
                0.0, deadline - time.perf_counter())
            value, exact = self.lines.solve(
                line.position, Limit(seconds=seconds, work=max(1, min(work, left))))
            line.value, line.exact, line.searched = value, exact, True
        c.round = rnd
        return True

    def _work_left(self) -> int:
        work = self.limit.work
        return (1 << 62) if work is None else work - self.lines.nodes

    def summary(self, c: _Candidate) -> DrawsValue:
        values = [(line.weight, line.offset + line.sign * line.value) for line in c.lines
                  if line.searched]
        spread = sum(w * v for w, v in values) / self.total
        wins = sum(w * (1.0 if self.spread_now + v > 0 else
                        0.5 if self.spread_now + v == 0 else 0.0)
                   for w, v in values) / self.total
        exact = all(line.exact for line in c.lines)
        return DrawsValue(c.choice, c.score, spread, wins, exact, len(values), c.round)

    def _rank(self, cands: list[_Candidate]) -> list[_Candidate]:
        def key(c: _Candidate) -> tuple[int, float, float, int]:
            s = self.summary(c)
            return (0 if s.lines == len(c.lines) else 1, -s.wins, -s.spread, c.order)
        return sorted(cands, key=key)

    def run(self) -> DrawsResult:
        start = time.perf_counter()
        deadline = self.limit.deadline(start)
        kept = self.candidates()
        dropped: list[_Candidate] = []
        rnd, work = 0, 1
        while True:
            finished = True
            for c in kept:
                if not self._value(c, work, deadline, rnd):
                    finished = False
                    break
            valued = [c for c in kept if c.round >= 0]
            dropped += [c for c in kept if c.round < 0]
            kept = self._rank(valued)
            all_exact = all(self.summary(c).exact for c in kept)
            if not finished or all_exact:
                break
            if rnd > 0:
                cut = max(one.KEEP, (len(kept) + 1) // 2)
                dropped = kept[cut:] + dropped
                kept = kept[:cut]
            rnd += 1
            work = one.FIRST_WORK if rnd == 1 else work * one.GROWTH
        ranked = [self.summary(c) for c in kept + dropped]
        return DrawsResult(ranked[0].choice, tuple(ranked), tuple(self.draws), rnd + 1,
                           self.lines.nodes, all(self.summary(c).exact for c in kept),
                           time.perf_counter() - start)


def solve_draws(view: PlayerView, lexicon: WordGraph, limit: Limit = NO_LIMIT, *,
                equity: EquityPlayer | None = None, seed: int = 0) -> DrawsResult:
    """Search a pre-endgame with 2 to 6 tiles in the bag (see the module docstring) within
    ``limit`` (without one: :data:`DEFAULT_LIMIT`)."""
    return DrawsSearch(view, lexicon, limit, equity, seed).run()


__all__ = [
    "BY_EQUITY",
    "BY_SCORE",
    "DEFAULT_LIMIT",
    "DRAWS",
    "MAX_BAG",
    "ROLLOUT_PLIES",
    "Draw",
    "DrawsResult",
    "DrawsSearch",
    "DrawsValue",
    "applies",
    "draws",
    "solve_draws",
]
