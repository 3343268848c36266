"""The ``sim`` level: Monte Carlo look-ahead over the tiles it cannot see.

The equity player's best few actions are the candidates; each iteration deals the unseen tiles
at random and plays every candidate on, a couple of turns of equity replies
(:mod:`letras.ai.sim.rollouts`), the opponent's last leave inferred first
(:mod:`letras.ai.sim.inference`); candidates are ranked by win chance, then spread, and dropped
as soon as the paired statistics allow (:mod:`letras.ai.sim.stopping`). This module is the loop
that drives them. How it all works, and what it approximates, is told in this package's
``README.md``.

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
import time
from dataclasses import dataclass

from letras.ai.equity import Candidate, EquityPlayer
from letras.ai.leaves import LeaveEvaluator, shipped_leaves
from letras.ai.player import NO_LIMIT, Choice, Limit, Player
from letras.ai.sim import stopping
from letras.ai.sim.compiled import make_rollouts
from letras.ai.sim.inference import INFERENCE_SHARE, INFERENCE_TRIES, Inference, infer_leaves
from letras.board import Board, Direction
from letras.errors import LetrasError
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.play import Place

CANDIDATES = 10
"""How many of the equity player's best actions are simulated."""
EQUITY_WINDOW = 25.0
"""Candidates more than this many points of equity below the best are not simulated."""
PLIES = 2
"""Turns looked ahead after a candidate: the opponents' replies, then ours."""
MIN_ITERATIONS = 8
"""Iterations before any candidate may be dropped."""
END_CANDIDATES = 100
"""Candidates simulated when the bag is empty and there is one opponent: every rollout is then
the same (all tiles are known), one iteration says all, and there is time for more of them (as
many as the work limit fits: the best by equity first). 100 rather than 30: +1.3 +- 0.6 points
of final spread a game in English, +1.5 +- 1.0 in Portuguese, on the same positions
(``bench/README.md``, "Why sim gains little in English")."""
DEFAULT_LIMIT = Limit(work=600)
"""The bound used when ``choose`` gets no limit: 600 simulated plays, about 0.5 s of one idle
core a choice in English and 0.4 s in Portuguese on average over a game (``bench/sim_pace.py``;
less when one candidate stands out early). 1 s a choice is about 1,450 in English, 2,000 in
Portuguese."""


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
    """What candidates are ranked by: ``win + SPREAD_WEIGHT x spread``
    (:func:`~letras.ai.sim.stopping.value`)."""
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
    """Monte Carlo simulation over the equity player's best candidates; see this package's
    ``README.md``."""

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
        """Simulate the candidates of the player to move (see this package's ``README.md``)
        and return them best first with their statistics."""
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
        sim = make_rollouts(view, self.lexicon, leaves, self._cache, self.plies,
                            inferred.leaves if inferred else ())
        if inferred is not None and work_limit is not None:
            work_limit -= inferred.tries
        if exact and work_limit is not None:
            # The one iteration must fit the work, or nothing would be simulated: keep the
            # candidates ranked first by equity, as many as fit.
            ranked = ranked[:max(2, int(work_limit // sim.cost))]
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
                    values[i].append(stopping.value(win, margin))
                iterations += 1
                work += sim.replies - before
                rollouts += len(alive)
                if exact:
                    stopped = "exact"  # all tiles known: every iteration would be the same
                    break
                if iterations >= self.min_iterations:
                    dropped = stopping.trailing(alive, values, iterations)
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
                    dropped = stopping.beyond(alive, values, affordable)
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
                *stopping.mean_err(margins[i]), *stopping.mean_err(wins[i]),
                *stopping.mean_err(values[i]),
                pruned=pruned[i],
            ))
        if iterations:
            # The choice first, the other survivors by value, the dropped after them by value.
            chosen = stopping.chosen(alive, values)
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


# ----- helpers ------------------------------------------------------------------------------


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
    "END_CANDIDATES",
    "EQUITY_WINDOW",
    "MIN_ITERATIONS",
    "PLIES",
    "SimCandidate",
    "SimError",
    "SimPlayer",
    "Simulation",
]
