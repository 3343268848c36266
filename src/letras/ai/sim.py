"""The ``sim`` level: Monte Carlo look-ahead over the tiles it cannot see.

The equity player's best few actions (:meth:`~letras.ai.equity.EquityPlayer.ranked`: plays,
exchanges, the pass; ``candidates`` of them, default 10, within ``equity_window`` points of the
best; on the empty board a play and its mirror image count once) are the candidates. Each
**iteration** deals the unseen tiles at random
(a seeded shuffle of :attr:`~letras.game.PlayerView.unseen`): the opponents' racks, then the
bag's order. Then, for every candidate still in the running, on a copy of the board:

1. the candidate is made and we draw from the dealt bag;
2. ``plies`` turns follow (default 2): the odd ones are the opponents' replies, each opponent in
   turn order, the even ones ours. Every reply is what the equity player would choose from the
   dealt rack (score plus leave, exchange or pass; :func:`~letras.movegen.top_by_equity`), and
   each player draws after it. When a rack empties with the bag empty, the game ends there and
   the end-of-game rack points are counted. With a :class:`~letras.ai.klv.LeaveTable` (the
   shipped leaves), the values of all the leaves a rack can keep come at once from compiled
   code; with another evaluator, leave by leave through a cache. The choices are the same.

All candidates of one iteration see the same dealt racks and bag (common random numbers), so
the differences between them are measured far more precisely than their values.

**The value of a candidate in one iteration** is its margin at the horizon,

    margin = (our score + our leave) - max over the opponents of (their score + their leave),

where a player's leave is the value of the tiles kept by their last action in the look-ahead
(the equity player's leave evaluator, as the replies themselves are chosen). Both sides' leaves
count: a candidate that leaves the opponent only clumsy replies is better for it. **With more
than one opponent**, the margin is over the best of them (by score plus leave) in each
iteration, so sim maximises its final margin over the strongest rival, not over their mean.
From the margin comes a **win chance**: the remaining game's spread is taken as normal, with
a mean of the margin shifted by the tempo of whoever moves next (the player to move scores
first) and a variance that grows with the tiles left in the bag (:data:`REMAINING_GAME`,
measured in equity self-play). An iteration that reaches the end of the game counts a win as
1, a tie as 1/2, a loss as 0.

**Pick by win chance, then spread**: candidates are ranked by

    value = win chance + SPREAD_WEIGHT x margin

a point of mean margin being worth a thousandth of a win. In a close game the win chance
decides; when the game is all but won or lost (every win chance near 1 or 0) the margin does.

**Stopping early**: after ``min_iterations``, each candidate is compared with the leader on
the same iterations (paired differences, which common random numbers make tight). One stops
being simulated when it trails with confidence (the mean difference is more than about two
standard errors, a little more for few iterations), or when it cannot be better than the
leader by more than :data:`EQUAL_VALUE` (a near tie, measured precisely: more iterations would
not matter). Before ``min_iterations``, if the limit left cannot give every candidate that
many iterations (a slow position, a short time: the clock's share is estimated from the pace
so far), the candidates are cut to the best so far by mean value, as many as it can (at least
two). The simulation ends when one candidate is left, or at the
:class:`~letras.ai.player.Limit`: ``seconds`` of wall-clock time, or ``work`` simulated plays
(one move generation each; an iteration is started only if it fits in the work left, so the
number of iterations is bounded by it; where rollouts play on to the end of the game their
cost varies, is guessed from those made so far, and the work may pass the limit by a little).
Without a limit, :data:`DEFAULT_LIMIT` applies (a work bound: a choice is then deterministic).
An iteration cut short by the clock is not counted.

**The choice** is the leader by value, except that the equity player's favourite among the
candidates left keeps its place unless the leader beats it by more than :data:`SWITCH_Z`
standard errors of their paired difference: the static ranking is overturned on evidence, not
on noise. With no iteration at all (a tiny limit), the choice is the equity player's.

**Deterministic**: the deals come from a generator seeded by the player's seed and the view
(board, rack, scores), so one seed and a ``work`` limit give the same choice every time.

**Near the end of the game** (:data:`END_BAG` tiles in the bag or fewer), rollouts do not
stop after ``plies``: they play on until a rack empties with the bag empty, or every seat
passes in a row with the bag empty (each player then loses their own rack), or
:data:`END_PLIES` plies; the replies use the equity player's endgame terms once the dealt bag
runs dry. **With the bag empty and one opponent** every tile is known, so every iteration
would be the same: the simulation makes one, with more candidates (:data:`END_CANDIDATES`,
whatever their equity) and stops (``exact``). This is a look-ahead along the equity player's
lines, not a search of every line: the ``endgame`` level is that.

**Inference** (two players, ``inference=True``, the default): what the opponent kept at
their last play is inferred first, with up to :data:`INFERENCE_SHARE` of the limit
(:func:`infer_leaves`): leaves are drawn at random from the unseen tiles and kept when the
play they made is among the equity player's best with that leave (within
:data:`INFERENCE_WINDOW` points). Each deal then gives them one of the kept leaves, drawn at
random, and the rest of their rack at random. Against an opponent the model does not fit, no
leave may agree, and the deals stay uniform; one it fits badly may still be misread.

Approximations: the opponents' racks are dealt uniformly from the unseen tiles but for the
inferred leave; replies on the empty board (after an opening exchange or pass) leave out the
equity player's positional term; passes in the look-ahead end the game only when every seat
passes with the bag empty (and a candidate pass, when the view says it would); the remaining
game's variance does not depend on the number of opponents.

>>> from letras.editions import find_edition
>>> from letras.game import Game
>>> from letras.lexicon.kwg import WordGraph
>>> en = find_edition("en")
>>> words = WordGraph.build(en, ["DAUNTS", "TUNED", "TUNA", "NUDE", "DUNE", "STAND"])
>>> view = Game(en, ["Ana", "Bruno"], seed=22, lexicon=words).view(0)
>>> from letras.ai.leaves import HeuristicLeaves
>>> player = SimPlayer(words, seed=1, leaves=HeuristicLeaves(en))
>>> result = player.analyse(view, Limit(work=300))
>>> result.iterations, result.work, result.stopped
(8, 160, 'one left')
>>> [(c.choice.notation(en), c.iterations, c.pruned) for c in result.candidates[:3]]
[('8H TUNED', 8, False), ('8D TUNED', 8, True), ('8E TUNED', 8, True)]
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from letras.ai.equity import (
    LEAVE_RAMP_BAG,
    Candidate,
    EquityPlayer,
    _pass_ends_game,
    endgame_leaves,
    exchange_bonus,
    ramped,
)
from letras.ai.klv import LeaveTable
from letras.ai.leaves import LeaveEvaluator, shipped_leaves
from letras.ai.player import NO_LIMIT, Choice, Limit, Player
from letras.board import Board, Direction, Square
from letras.errors import LetrasError
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.movegen import RackLeaves, leave_table, top_by_equity
from letras.play import Exchange, Pass, Place
from letras.tiles import BLANK_BIT, EMPTY, rack_tile

CANDIDATES = 10
"""How many of the equity player's best actions are simulated."""
EQUITY_WINDOW = 25.0
"""Candidates more than this many points of equity below the best are not simulated."""
PLIES = 2
"""Turns looked ahead after a candidate: the opponents' replies, then ours."""
MIN_ITERATIONS = 8
"""Iterations before any candidate may be dropped."""
Z_PRUNE = 2.0
"""Standard errors by which a candidate must trail the leader to be dropped (more for few
iterations, see :func:`_z`)."""
EQUAL_VALUE = 0.002
"""A candidate that cannot be better than the leader by more than this (in value: a fifth of
a percent of win chance, about half a point early in a game) is dropped as no better."""
SWITCH_Z = 1.0
"""Standard errors by which the leader must beat the equity player's favourite to be chosen
over it."""
END_BAG = 7
"""With this many tiles in the bag or fewer, rollouts play on to the end of the game (at most
:data:`END_PLIES` plies) instead of stopping after ``plies``."""
END_PLIES = 12
"""The most plies a rollout to the end of the game looks ahead."""
END_CANDIDATES = 30
"""Candidates simulated when the bag is empty and there is one opponent: every rollout is then
the same (all tiles are known), one iteration says all, and there is time for more of them."""
INFERENCE_WINDOW = 3.0
"""Inference keeps a leave the opponent may have kept if their play was within this many
points of equity of the equity player's best action with it."""
INFERENCE_SHARE = 0.1
"""The share of the limit (time or work) inference may take."""
INFERENCE_TRIES = 100
"""The most leaves inference tries."""
SPREAD_WEIGHT = 0.001
"""A point of mean margin is worth this share of a win in a candidate's value."""
DEFAULT_LIMIT = Limit(work=600)
"""The bound used when ``choose`` gets no limit: 600 simulated plays, about 0.7 s in English
and 1 s in Portuguese on the project's machine (less when one candidate stands out early)."""

REMAINING_GAME: dict[str, tuple[float, float, float]] = {
    "en": (400.0, 96.0, 17.0),
    "pt-BR": (380.0, 186.0, 22.0),
    "es": (1130.0, 140.0, 21.0),
    "it": (230.0, 201.0, 23.0),
}
"""Per edition: (variance of the final spread left with an empty bag, variance added per tile
in the bag, points the player to move is ahead by at the end on average). Fitted on 300 games
of equity against equity per edition (seeds 1000-1299): the squared change of the spread from
each position to the end of its game, against the tiles in the bag, is close to linear; the
slope is about 0.09 x the mean score of a play squared in every edition."""
DEFAULT_REMAINING = (500.0, 150.0, 20.0)
"""For an edition not measured."""


class SimError(LetrasError):
    """A simulation asked for with settings it cannot run with, or a view that does not add up."""


@dataclass(frozen=True)
class SimCandidate:
    """One candidate's results. Means are over the iterations it was simulated for."""

    choice: Choice
    equity: float
    """The equity player's static value of it."""
    score: int
    iterations: int
    spread: float
    """Mean margin over the best opponent at the horizon (points, leaves counted)."""
    spread_stderr: float
    win: float
    """Mean win chance (0 to 1)."""
    win_stderr: float
    value: float
    """What candidates are ranked by: ``win + SPREAD_WEIGHT x spread``."""
    value_stderr: float
    pruned: bool
    """Dropped before the end of the simulation: clearly worse than the leader, or no
    better than it."""


@dataclass(frozen=True)
class Simulation:
    """What :meth:`SimPlayer.analyse` found: the candidates, best first, and the effort."""

    candidates: tuple[SimCandidate, ...]
    iterations: int
    """Complete iterations (deals) simulated."""
    work: int
    """Simulated plays (move generations) of those iterations (the leaves inference tried
    are counted in :attr:`inferred`)."""
    seconds: float
    stopped: str
    """Why it stopped: ``one left``, ``work``, ``time``, ``exact`` (the bag is empty and
    there is one opponent: one iteration is exact), ``one candidate``."""
    inferred: Inference | None = None
    """What was inferred of the opponent's rack from their last play, if anything."""

    @property
    def best(self) -> SimCandidate:
        return self.candidates[0]


class SimPlayer(Player):
    """Monte Carlo simulation over the equity player's best candidates; see the module
    docstring."""

    level = "sim"

    def __init__(
        self,
        lexicon: WordGraph,
        *,
        seed: int | None = None,
        leaves: LeaveEvaluator | None = None,
        candidates: int = CANDIDATES,
        plies: int = PLIES,
        equity_window: float = EQUITY_WINDOW,
        min_iterations: int = MIN_ITERATIONS,
        inference: bool = True,
    ) -> None:
        super().__init__(lexicon, seed=seed)
        if candidates < 1:
            raise SimError(f"a simulation needs at least one candidate, not {candidates}")
        if plies < 0:
            raise SimError(f"plies to look ahead must be 0 or more, not {plies}")
        if not equity_window >= 0:
            raise SimError(f"the equity window must be 0 or more points, not {equity_window}")
        if min_iterations < 2:
            raise SimError(f"at least 2 iterations before dropping candidates, not "
                           f"{min_iterations}")
        self.leaves = leaves
        self.candidates = candidates
        self.plies = plies
        self.equity_window = equity_window
        self.min_iterations = min_iterations
        self.inference = inference
        self.equity_player = EquityPlayer(lexicon, leaves=leaves)
        """Ranks the candidates."""
        self._base_seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._cache: dict[tuple[int, ...], float] = {}
        self._cached_for: LeaveEvaluator | None = None

    def choose(self, view: PlayerView, limit: Limit = NO_LIMIT) -> Choice:
        return self.analyse(view, limit).best.choice

    def analyse(self, view: PlayerView, limit: Limit = NO_LIMIT) -> Simulation:
        """Simulate the candidates of the player to move (see the module docstring) and
        return them best first with their statistics."""
        start = time.perf_counter()
        _check_view(view)
        if limit.unlimited:
            limit = DEFAULT_LIMIT
        exact = view.bag_count == 0 and len(view.scores) == 2
        candidates, window = self.candidates, self.equity_window
        if exact:
            candidates, window = max(candidates, END_CANDIDATES), math.inf
        # On the empty board half the plays are mirror images: ask for twice as many.
        wanted = candidates * (2 if view.board.is_empty() else 1)
        ranked = _distinct(view.board, self.equity_player.ranked(view, wanted))[:candidates]
        top = ranked[0].equity
        ranked = [c for c in ranked if c.equity >= top - window]
        if len(ranked) == 1:
            return _unsimulated(ranked, "one candidate", start)

        leaves = self.leaves or shipped_leaves(view.edition)
        if leaves is not self._cached_for or len(self._cache) > 200_000:
            self._cache.clear()
            self._cached_for = leaves
        rng = random.Random(f"letras-sim/{self._base_seed}/{_position_key(view)}")
        deadline = limit.deadline(start)
        work_limit = limit.work
        inferred = None
        if self.inference:
            share = (start + INFERENCE_SHARE * (deadline - start) if math.isfinite(deadline)
                     else deadline)
            tries = INFERENCE_TRIES
            if work_limit is not None:
                tries = min(tries, int(INFERENCE_SHARE * work_limit))
            inferred = infer_leaves(view, self.equity_player, rng, tries, share)
        sim = _Rollouts(view, self.lexicon, leaves, self._cache, self.plies,
                        inferred.leaves if inferred else ())
        if inferred is not None and work_limit is not None:
            work_limit -= inferred.tries
        n = len(ranked)
        alive = list(range(n))
        pruned = [False] * n
        margins: list[list[float]] = [[] for _ in range(n)]
        wins: list[list[float]] = [[] for _ in range(n)]
        values: list[list[float]] = [[] for _ in range(n)]
        iterations = work = rollouts = 0
        stopped = "one left"
        began = time.perf_counter()
        while len(alive) > 1:
            # Simulated plays a rollout costs: at first a guess, then the mean so far.
            per_rollout = sim.replies / rollouts if rollouts else sim.cost
            if work_limit is not None and work + len(alive) * per_rollout > work_limit:
                stopped = "work"
                break
            deal = sim.deal(rng)
            results = []
            before = sim.replies
            for i in alive:
                if time.perf_counter() >= deadline:
                    break
                results.append(sim.rollout(ranked[i], deal))
            else:
                for i, (margin, win) in zip(alive, results, strict=True):
                    margins[i].append(margin)
                    wins[i].append(win)
                    values[i].append(win + SPREAD_WEIGHT * margin)
                iterations += 1
                work += sim.replies - before
                rollouts += len(alive)
                if exact:
                    stopped = "exact"  # all tiles known: every iteration would be the same
                    break
                if iterations >= self.min_iterations:
                    dropped = _trailing(alive, values, iterations)
                else:
                    # Too many candidates to reach min_iterations in what is left of the
                    # limit: keep the best so far, as many as can get there.
                    affordable = self._affordable(
                        int((work_limit - work) / max(per_rollout, 1.0))
                        if work_limit is not None else None,
                        (deadline - time.perf_counter()) * rollouts
                        / max(time.perf_counter() - began, 1e-9),
                        iterations,
                    )
                    dropped = _beyond(alive, values, affordable)
                for i in dropped:
                    alive.remove(i)
                    pruned[i] = True
                continue
            stopped = "time"  # the iteration cut short by the clock is not counted
            break

        out = []
        for i, cand in enumerate(ranked):
            out.append(SimCandidate(
                cand.choice, cand.equity, cand.score, len(values[i]),
                *_mean_err(margins[i]), *_mean_err(wins[i]), *_mean_err(values[i]),
                pruned=pruned[i],
            ))
        if iterations:
            # The choice first, the other survivors by value, the dropped after them by value.
            chosen = _choice(alive, values)
            order = sorted(range(n), key=lambda i: (i != chosen, pruned[i], -out[i].value, i))
            out = [out[i] for i in order]
        return Simulation(tuple(out), iterations, work, time.perf_counter() - start, stopped,
                          inferred)


    def _affordable(self, work_left: int | None, rollouts_left: float, done: int) -> int:
        """How many candidates can still get ``min_iterations`` iterations, given the rollouts
        that the work limit and the clock leave (the clock's estimated from the pace so far)."""
        need = self.min_iterations - done
        out = math.inf if work_left is None else work_left // need
        if math.isfinite(rollouts_left):
            out = min(out, rollouts_left / need)
        return 1_000_000 if math.isinf(out) else int(out)


# ----- the look-ahead -------------------------------------------------------------------------


@dataclass
class _Deal:
    """One iteration's hidden tiles: every seat's rack (ours as it is) and the bag's order."""

    racks: list[list[int]]
    bag: list[int]
    seed: int


class _Rollouts:
    """Everything one position's rollouts share, and the rollouts themselves."""

    def __init__(
        self,
        view: PlayerView,
        lexicon: WordGraph,
        leaves: LeaveEvaluator,
        cache: dict[tuple[int, ...], float],
        plies: int,
        inferred: Sequence[tuple[int, ...]] = (),
    ) -> None:
        self.view = view
        self.inferred = list(inferred)
        """Leaves the opponent who moved last may have kept (with repeats: a sample of what
        they likely kept), dealt to them first; empty when nothing was inferred."""
        self.edition = view.edition
        self.lexicon = lexicon
        self.leaves = leaves
        self.table = leaves if isinstance(leaves, LeaveTable) else None
        """The evaluator when it can value a rack's leaves all at once, else None."""
        self.cache = cache
        self.plies = plies
        self.size = view.board.size
        self.squares = bytes(view.board.squares)
        self.rack_size = view.edition.rack_size
        self.bingo = view.rules.bingo_bonus
        self.join_words = view.may_join_words
        """The ``join_words_from_turn`` rule as it stands now, kept for the look-ahead."""
        self.exchange_min = max(1, view.rules.exchange_min_bag)
        self.values = view.edition.tiles.values
        self.me = view.player
        seats = len(view.scores)
        self.seats = seats
        self.opponents = [(self.me + k) % seats for k in range(1, seats)]
        self.pool = [t for t, c in enumerate(view.unseen) for _ in range(c)]
        opponent_turns = (plies + 1) // 2
        self.cost = max(1, opponent_turns * len(self.opponents) + plies // 2)
        """Simulated plays per candidate per iteration, before any is measured."""
        self.pass_ends_game = _pass_ends_game(view)
        self.to_end = view.bag_count <= END_BAG
        """Rollouts play on to the end of the game."""
        if self.to_end:
            self.cost = END_PLIES // 2
        self.replies = 0
        """Simulated plays (move generations) so far."""
        remaining = REMAINING_GAME.get(view.edition.name, DEFAULT_REMAINING)
        self.var_base, self.var_per_tile, self.tempo = remaining

    def deal(self, rng: random.Random) -> _Deal:
        pool = self.pool[:]
        racks: list[list[int]] = [[] for _ in range(self.seats)]
        racks[self.me] = list(self.view.rack)
        last = (self.me - 1) % self.seats
        if self.inferred:
            kept = rng.choice(self.inferred)
            for t in kept:
                pool.remove(t)
            racks[last] = list(kept)
        rng.shuffle(pool)
        at = 0
        for p in self.opponents:
            n = self.view.rack_counts[p] - len(racks[p])
            racks[p] += pool[at:at + n]
            at += n
        bag = pool[at:]
        # A play waiting for a challenge: its player draws once we act.
        for p in self.opponents:
            need = self.rack_size - len(racks[p])
            if need > 0 and bag:
                racks[p].extend(bag[:need])
                del bag[:need]
        return _Deal(racks, bag, rng.randrange(2**32))

    def rollout(self, cand: Candidate, deal: _Deal) -> tuple[float, float]:
        """(margin over the best opponent, win chance) after the candidate and the plies."""
        squares = bytearray(self.squares)
        racks = [r[:] for r in deal.racks]
        scores = list(self.view.scores)
        kept: list[float] = [0.0] * self.seats
        bag = deal.bag
        drawn = 0
        me = self.me
        choice = cand.choice
        rack = racks[me]
        if isinstance(choice, Place):
            self._lay(squares, rack, choice.square, choice.direction, choice.tiles)
            scores[me] += cand.score
            kept[me] = self._leave_value(tuple(sorted(rack)), len(bag))
            drawn = self._draw(rack, bag, drawn)
            if not rack:
                return self._final(scores, racks, me)
        elif isinstance(choice, Exchange):
            for t in choice.tiles:
                rack.remove(t)
            kept[me] = self._leave_value(tuple(sorted(rack)), len(bag))
            bag, drawn = self._swap(rack, bag, choice.tiles, deal.seed)
        else:
            if self.pass_ends_game:
                return self._final(scores, racks, None)
            kept[me] = self._leave_value(tuple(sorted(rack)), len(bag))

        plies = END_PLIES if self.to_end else self.plies
        passes = 1 if isinstance(choice, Pass) else 0
        for ply in range(plies):
            for p in (self.opponents if ply % 2 == 0 else (me,)):
                bag_left = len(bag) - drawn
                action, points, leave_value = self._reply(squares, racks, p, bag_left)
                self.replies += 1
                kept[p] = leave_value
                rack = racks[p]
                scores[p] += points
                passes = passes + 1 if isinstance(action, Pass) else 0
                if isinstance(action, Place):
                    self._lay(squares, rack, action.square, action.direction, action.tiles)
                    drawn = self._draw(rack, bag, drawn)
                    if not rack:
                        return self._final(scores, racks, p)
                elif isinstance(action, Exchange):
                    for t in action.tiles:
                        rack.remove(t)
                    bag, drawn = self._swap(rack, bag[drawn:], action.tiles, deal.seed + ply)
                elif self.to_end and passes >= self.seats and drawn == len(bag):
                    return self._final(scores, racks, None)  # all passed: nothing will change

        best = max(scores[p] + kept[p] for p in self.opponents)
        margin = scores[me] + kept[me] - best
        bag_left = len(bag) - drawn
        ahead = margin + (self.tempo if plies % 2 == 1 else -self.tempo)
        sd = math.sqrt(self.var_base + self.var_per_tile * bag_left)
        return margin, 0.5 * math.erfc(-ahead / (sd * math.sqrt(2.0)))

    def _reply(
        self, squares: bytearray, racks: list[list[int]], p: int, bag_left: int
    ) -> tuple[Choice, int, float]:
        """The equity player's action for seat ``p``: (action, points, value of the leave).

        Every leave the rack can keep is valued once (:meth:`_rack_leaves`): the whole rack is
        the pass, the best of the others the exchange (the first of equals in the order
        :func:`~letras.movegen.leave_table` lists them), and the move generator adds them to
        the plays' scores."""
        rack = racks[p]
        can_exchange = bag_left >= self.exchange_min
        leaves = self._rack_leaves(racks, p, bag_left)
        found = top_by_equity(Board(self.edition, squares), rack, self.lexicon, 1, leaves,
                              bingo_bonus=self.bingo, join_words=self.join_words)
        whole = float(leaves.values[-1])  # every count at its top: the last index
        best_keep: tuple[int, ...] = ()
        best_keep_value = -math.inf
        if can_exchange and len(leaves.values) > 1:
            best_keep, best_keep_value = _best_keep(rack, leaves)
        return self._decide(rack, found, can_exchange, best_keep, best_keep_value, whole)

    def _rack_leaves(self, racks: list[list[int]], p: int, bag_left: int) -> RackLeaves:
        """The leave term of every leave of seat ``p``'s rack, as
        :class:`~letras.ai.equity.EquityPlayer` counts it: the endgame's once the bag is empty,
        else the evaluator's values (all at once from a :class:`~letras.ai.klv.LeaveTable`,
        else leave by leave through the cache), a good leave's ramped down as the bag runs
        low."""
        rack = racks[p]
        if bag_left == 0:
            others = sum(self.values[t] for q, r in enumerate(racks) if q != p for t in r)
            return endgame_leaves(rack, self.values, others * self.seats / (self.seats - 1))
        weight = min(1.0, bag_left / LEAVE_RAMP_BAG) if LEAVE_RAMP_BAG else 1.0
        raw = (self.table.rack_leaves(rack) if self.table is not None
               else leave_table(rack, self._raw_value))
        return ramped(raw, weight)

    def _raw_value(self, leave: tuple[int, ...]) -> float:
        raw = self.cache.get(leave)
        if raw is None:
            raw = self.cache[leave] = float(self.leaves.value(leave))
        return raw

    def _decide(
        self, rack: list[int], found: list[tuple[Place, int, float]], can_exchange: bool,
        best_keep: tuple[int, ...], best_keep_value: float, whole: float,
    ) -> tuple[Choice, int, float]:
        """The best of the best play, the best exchange and the pass (on a tie, in that
        order), as (action, points, value of the leave)."""
        play_equity = found[0][2] if found else -math.inf
        exchange_equity = best_keep_value + exchange_bonus(self.leaves)
        if found and play_equity >= exchange_equity and play_equity >= whole:
            place, points, equity = found[0]
            return place, points, equity - points
        if can_exchange and exchange_equity >= whole:
            thrown = list(rack)
            for t in best_keep:
                thrown.remove(t)
            return Exchange(tuple(thrown)), 0, best_keep_value
        return Pass(), 0, whole

    def _leave_value(self, leave: tuple[int, ...], bag_left: int) -> float:
        raw = self._raw_value(leave)
        if raw > 0 and LEAVE_RAMP_BAG:
            return raw * min(1.0, bag_left / LEAVE_RAMP_BAG)
        return raw

    def _face(self, tiles: Sequence[int]) -> int:
        return sum(self.values[t] for t in tiles)

    def _lay(
        self, squares: bytearray, rack: list[int], square: Square, direction: Direction,
        tiles: Sequence[int],
    ) -> None:
        i = square.row * self.size + square.col
        step = 1 if direction is Direction.ACROSS else self.size
        for t in tiles:
            if t:
                squares[i] = t
                rack.remove(0 if t & BLANK_BIT else t)
            i += step

    def _draw(self, rack: list[int], bag: list[int], drawn: int) -> int:
        need = self.rack_size - len(rack)
        if need > 0:
            take = bag[drawn:drawn + need]
            rack.extend(take)
            drawn += len(take)
        return drawn

    def _swap(
        self, rack: list[int], bag: list[int], thrown: Sequence[int], seed: int
    ) -> tuple[list[int], int]:
        """An exchange: draw first, then the thrown tiles go back at random places."""
        take = bag[:len(thrown)]
        rack.extend(take)
        rest = bag[len(take):] + list(thrown)
        random.Random(seed).shuffle(rest)
        return rest, 0

    def _final(
        self, scores: list[int], racks: list[list[int]], out: int | None
    ) -> tuple[float, float]:
        """The game ends: rack points off each rack's owner, to the player who went out."""
        final = list(scores)
        for p, rack in enumerate(racks):
            face = self._face(rack)
            final[p] -= face
            if out is not None:
                final[out] += face
        margin = final[self.me] - max(final[p] for p in self.opponents)
        return float(margin), 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def _best_keep(rack: Sequence[int], leaves: RackLeaves) -> tuple[tuple[int, ...], float]:
    """The leave of highest value among those smaller than the rack, and its value. Among
    equals, the first in the order :func:`~letras.movegen.leave_table` meets them (the count
    of the lowest tile code varying slowest), as the leave-by-leave search keeps the first."""
    counts = sorted(Counter(rack).items())
    values = leaves.values[:-1]  # the last is the whole rack
    best = values.max()
    hits = np.flatnonzero(values == best).tolist()

    def kept(index: int) -> tuple[int, ...]:
        return tuple(index // int(leaves.radix[t]) % (c + 1) for t, c in counts)

    index = hits[0] if len(hits) == 1 else min(hits, key=kept)
    keep = tuple(t for (t, _), c in zip(counts, kept(index), strict=True) for _ in range(c))
    return keep, float(best)


# ----- inference ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Inference:
    """Leaves the opponent may have kept at their last play, as :func:`infer_leaves` found."""

    seat: int
    tries: int
    """Leaves tried (one equity choice each)."""
    leaves: tuple[tuple[int, ...], ...]
    """The leaves tried that the play agrees with, each as often as it was drawn."""


def infer_leaves(
    view: PlayerView, equity: EquityPlayer, rng: random.Random, tries: int, deadline: float,
) -> Inference | None:
    """What the opponent kept at their last play, if they choose as ``equity`` does.

    Rejection sampling: leaves of the right size are drawn at random from the unseen tiles
    (as the opponent's tiles were drawn), and a leave is kept when the play they made agrees
    with it (:meth:`LastPlay.agrees`). The kept leaves are a sample of what they likely kept.
    At most ``tries`` distinct leaves are tried (of at most four times as many drawn), until
    ``deadline``. None when there is nothing to infer (:meth:`LastPlay.of`) or no leave tried
    agrees (an opponent who does not play like the model)."""
    last = LastPlay.of(view)
    if last is None or tries < 1:
        return None
    pool = [t for t, c in enumerate(view.unseen) for _ in range(c)]
    agrees: dict[tuple[int, ...], bool] = {}
    kept: list[tuple[int, ...]] = []
    for _ in range(4 * tries):  # few distinct leaves may exist: draws are bounded too
        if len(agrees) >= tries or time.perf_counter() >= deadline:
            break
        leave = tuple(sorted(rng.sample(pool, last.leave_size)))
        if leave not in agrees:
            agrees[leave] = last.agrees(leave, equity)
        if agrees[leave]:
            kept.append(leave)
    if not kept:
        return None
    return Inference(last.seat, len(agrees), tuple(kept))


@dataclass(frozen=True)
class LastPlay:
    """The opponent's play just before our turn, and the position they made it from."""

    seat: int
    before: PlayerView
    """Their view before the play, but for their rack (set by :meth:`agrees`) and the unseen
    tiles, which still count the leave they kept."""
    played: tuple[int, ...]
    """The rack tiles it took (a blank as the blank)."""
    placed: tuple[tuple[Square, int], ...]
    leave_size: int

    @classmethod
    def of(cls, view: PlayerView) -> LastPlay | None:
        """The last play of the opponent, if it is what we move after: two players, tiles in
        the bag (so their rack was full), a play that kept tiles (not a bingo)."""
        if len(view.scores) != 2 or view.bag_count == 0 or not view.turns:
            return None
        last = view.turns[-1]
        seat = 1 - view.player
        if last.player != seat or last.kind != "play" or last.place is None:
            return None
        placed = tuple(sorted(last.place.placed()))
        played = tuple(rack_tile(t) for _, t in placed)
        size = view.edition.rack_size - len(played)
        if size <= 0 or view.rack_counts[seat] < size:
            return None
        board = view.board.copy()
        for square, _ in placed:
            board[square] = EMPTY
        scores = list(view.scores)
        scores[seat] -= last.points
        unseen = list(view.unseen)
        for t in view.rack:  # our rack: unseen to them
            unseen[t] += 1
        before = replace(
            view, player=seat, to_move=seat, board=board, scores=tuple(scores),
            bag_count=view.bag_count + len(played), turns=view.turns[:-1],
            challengeable=None, rack_counts=(view.edition.rack_size,) * 2,
            unseen=tuple(unseen),
        )
        return cls(seat, before, played, placed, size)

    def agrees(self, leave: Sequence[int], equity: EquityPlayer) -> bool:
        """Whether, holding the play's tiles and ``leave``, ``equity`` would rank the play
        among its best five actions and within :data:`INFERENCE_WINDOW` points of the
        best."""
        unseen = list(self.before.unseen)
        for t in leave:
            unseen[t] -= 1
        ranked = equity.ranked(
            replace(self.before, rack=self.played + tuple(leave), unseen=tuple(unseen)), 5)
        best = ranked[0].equity
        return any(
            isinstance(c.choice, Place) and tuple(sorted(c.choice.placed())) == self.placed
            and c.equity >= best - INFERENCE_WINDOW for c in ranked
        )


# ----- helpers --------------------------------------------------------------------------------


def _check_view(view: PlayerView) -> None:
    if view.over:
        raise SimError("the game is over: there is nothing to choose")
    if len(view.scores) < 2:
        raise SimError("a simulation needs at least one opponent")
    if view.to_move != view.player:
        name = view.player_names[view.player]
        raise SimError(f"it is not {name}'s turn: a simulation is for the player to move")
    hidden = sum(view.unseen)
    others = sum(n for p, n in enumerate(view.rack_counts) if p != view.player)
    if hidden != view.bag_count + others:
        raise SimError(
            f"the view does not add up: {hidden} unseen tiles, but {view.bag_count} in the bag "
            f"and {others} on the other racks"
        )


def _position_key(view: PlayerView) -> str:
    return (f"{bytes(view.board.squares).hex()}/{view.rack}/{view.scores}/{view.bag_count}/"
            f"{view.player}")


def _distinct(board: Board, ranked: list[Candidate]) -> list[Candidate]:
    """On the empty board a play down is the mirror of the same play across (the layouts are
    symmetric): keep only the one ranked first."""
    if not board.is_empty():
        return ranked
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    out = []
    for c in ranked:
        p = c.choice
        if isinstance(p, Place):
            key = ((p.square.row, p.square.col) if p.direction is Direction.ACROSS
                   else (p.square.col, p.square.row))
            full = (*key, p.tiles)
            if full in seen:
                continue
            seen.add(full)
        out.append(c)
    return out


def _z(iterations: int) -> float:
    """The pruning threshold in standard errors, widened for few iterations (a first-order
    Student t correction)."""
    return Z_PRUNE * (1.0 + (Z_PRUNE * Z_PRUNE + 1.0) / (4.0 * (iterations - 1)))


def _leader(alive: list[int], values: list[list[float]]) -> int:
    """The candidate of highest mean value (the one ranked first by equity among equals)."""
    return max(alive, key=lambda i: (statistics.fmean(values[i]), -i))


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` over the same iterations."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def _trailing(alive: list[int], values: list[list[float]], iterations: int) -> list[int]:
    """The candidates to drop: those that trail the leader with confidence on the same
    iterations, and those that cannot be more than :data:`EQUAL_VALUE` better than it (the
    same outcome in every iteration, or a near tie measured precisely)."""
    leader = _leader(alive, values)
    z = _z(iterations)
    out = []
    for i in alive:
        if i == leader:
            continue
        mean, err = _paired(values[leader], values[i])  # mean >= 0: the leader is ahead
        if mean > z * err or mean + z * err < EQUAL_VALUE:
            out.append(i)
    return out


def _beyond(alive: list[int], values: list[list[float]], keep: int) -> list[int]:
    """All but the ``keep`` candidates of highest mean value so far (at least two stay)."""
    keep = max(2, keep)
    if len(alive) <= keep:
        return []
    ranked = sorted(alive, key=lambda i: (-statistics.fmean(values[i]), i))
    return ranked[keep:]


def _choice(alive: list[int], values: list[list[float]]) -> int:
    """The leader, unless it does not beat the equity player's favourite among the candidates
    left by more than :data:`SWITCH_Z` standard errors: the simulation's own noise and the
    approximations of its model should not overturn the static ranking without evidence."""
    leader = _leader(alive, values)
    favourite = min(alive)
    if leader == favourite or len(values[leader]) < 2:
        return leader
    mean, err = _paired(values[leader], values[favourite])
    return leader if mean > SWITCH_Z * err else favourite


def _mean_err(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return math.nan, math.nan
    if len(xs) == 1:
        return xs[0], math.inf
    return statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))


def _unsimulated(ranked: list[Candidate], why: str, start: float) -> Simulation:
    """The equity player's ranking, with no simulation (an empty bag, a single candidate)."""
    out = tuple(
        SimCandidate(c.choice, c.equity, c.score, 0, math.nan, math.nan, math.nan, math.nan,
                     math.nan, math.nan, pruned=False)
        for c in ranked
    )
    return Simulation(out, 0, 0, time.perf_counter() - start, why)


__all__ = [
    "CANDIDATES",
    "DEFAULT_LIMIT",
    "PLIES",
    "REMAINING_GAME",
    "SimCandidate",
    "SimError",
    "SimPlayer",
    "Simulation",
]
