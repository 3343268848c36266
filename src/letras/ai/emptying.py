"""The pre-endgame with 2 to 6 tiles in the bag as the sim's choice, the plays that empty the bag
valued by the endgame over the draws: a hybrid of :mod:`letras.ai.sim` and
:mod:`letras.ai.endgame.draws`.

The search of :mod:`letras.ai.endgame.draws` alone did worse than the sim there: its lines
that keep tiles back and its lines that empty the bag face opponents of unlike strength (the
equity level's play-out, the exact endgame). Here the sim ranks every candidate as it does (its
rollouts play every line on to the end with equity's replies, like with like), and only the
candidates that **empty the bag** (a tile play laying at least as many tiles as the bag holds)
are valued again, each by the mean over the bag's draws of the exact endgame that follows
(:class:`~letras.ai.endgame.draws.DrawsSearch` on those candidates alone: its draws, rounds and
shared search). Three ways to use those values, :data:`MODES`:

- ``within``: the choice between keeping tiles back and emptying the bag is the sim's; when the
  sim's choice empties the bag, the best of the emptying candidates by the draws (win chance,
  then spread) is played instead. (When it does not, nothing is searched.)
- ``replace``: every emptying candidate's win chance and mean final spread are those of the
  draws (the current spread plus the lines' mean change), the others keep the sim's; all are
  ranked by the sim's value (:func:`letras.ai.sim.stopping.value`).
- ``shift``: as ``replace``, but the draws' values enter as differences: an emptying
  candidate is worth the sim's value of the emptying candidate the sim simulated most (its
  value the surest), plus the difference of the two by the draws. The level of emptying
  against keeping stays the sim's; the draws only move emptying plays against each other.

The limit: with seconds, the sim takes :data:`SIM_SHARE` of them and the draws the rest (they
stop at the deadline, with the values found so far); a work limit is passed to both, each
counting its own work (simulated plays; positions searched); without a limit each takes its
own default. The draws are seeded by the player's seed and the position; the sim by its own
seed: for a fixed seed and work limit the choice is deterministic, and only the view is used.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from letras.ai.endgame import draws as dr
from letras.ai.endgame.draws import DrawsResult, DrawsSearch, DrawsValue
from letras.ai.endgame.position import EndgameError
from letras.ai.equity import EquityPlayer
from letras.ai.player import NO_LIMIT, Choice, Limit
from letras.ai.sim import SimPlayer, Simulation
from letras.ai.sim.stopping import value as sim_value
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.play import Place

MODES = ("within", "replace", "shift")
"""The ways to use the draws' values (see the module docstring)."""
MODE = "within"
"""The mode the ``best`` level uses (``bench/preendgame_ab.py``; ``bench/README.md``, "Issue
18, target 3: the pre-endgame with 2-6 tiles, again")."""
SIM_SHARE = 0.4
"""With a time limit, the share of it the sim may take."""


def empties(choice: Choice, bag_count: int) -> bool:
    """Whether ``choice`` draws the whole bag: a tile play laying ``bag_count`` tiles or more."""
    return isinstance(choice, Place) and sum(1 for t in choice.tiles if t) >= bag_count


class _Given(DrawsSearch):
    """The draws' search over candidates given to it (the sim's that empty the bag)."""

    def __init__(self, view: PlayerView, lexicon: WordGraph, limit: Limit,
                 equity: EquityPlayer | None, seed: int,
                 given: Sequence[tuple[Choice, int]]) -> None:
        super().__init__(view, lexicon, limit, equity, seed)
        self.given = list(given)

    def candidates(self) -> list[dr._Candidate]:
        out: list[dr._Candidate] = []
        for choice, score in self.given:
            cand = dr._Candidate(choice, score, len(out), [])
            cand.lines = [self._line(cand, d) for d in self.draws]
            out.append(cand)
        return out


@dataclass(frozen=True)
class Valued:
    """A candidate as the hybrid values it: its win chance and mean final spread (the sim's,
    or the draws' for an emptying one in ``replace``), the value it is ranked by, and the
    draws' values when it empties the bag and was searched."""

    choice: Choice
    win: float
    spread: float
    value: float
    draws: DrawsValue | None


@dataclass(frozen=True)
class EmptyingResult:
    """The choice of each mode, the candidates as ``replace`` ranks them, the sim's analysis,
    the draws' search (None when nothing was searched), seconds."""

    choices: dict[str, Choice]
    ranked: tuple[Valued, ...]
    simulation: Simulation
    draws: DrawsResult | None
    seconds: float

    @property
    def best(self) -> Choice:
        return self.choices[MODE]


def sim_limit(limit: Limit) -> Limit:
    """The sim's part of ``limit`` (see the module docstring)."""
    if limit.seconds is None:
        return limit
    return Limit(seconds=limit.seconds * SIM_SHARE, work=limit.work)


def solve(view: PlayerView, lexicon: WordGraph, sim: SimPlayer, limit: Limit = NO_LIMIT, *,
          equity: EquityPlayer | None = None, seed: int = 0,
          modes: Sequence[str] = MODES) -> EmptyingResult:
    """The hybrid's choices in ``modes`` (see the module docstring). ``within`` alone searches
    only when the sim's choice empties the bag."""
    if not dr.applies(view):
        raise EndgameError("not a two-player position with 2 to 6 tiles in the bag")
    start = time.perf_counter()
    deadline = limit.deadline(start)
    simulation = sim.analyse(view, sim_limit(limit))
    chosen = simulation.best.choice
    k = view.bag_count
    emptying = [c for c in simulation.candidates if empties(c.choice, k)]
    choices = {m: chosen for m in modes}
    ranked = tuple(Valued(c.choice, c.win, c.spread, c.value, None)
                   for c in simulation.candidates)
    # nothing to search: one candidate, none that empties the bag, or (``within`` alone) the
    # sim's choice keeps tiles back or is the only emptying one
    if set(modes) == {"within"}:
        needed = empties(chosen, k) and len(emptying) > 1
    else:
        needed = bool(emptying) and len(simulation.candidates) > 1
    result: DrawsResult | None = None
    if needed:
        left = None if limit.seconds is None else max(0.0, deadline - time.perf_counter())
        draws_limit = NO_LIMIT if limit.unlimited else Limit(seconds=left, work=limit.work)
        search = _Given(view, lexicon, draws_limit, equity, seed,
                        [(c.choice, c.score) for c in emptying])
        result = search.run()
        by_choice = {d.choice: d for d in result.candidates if d.lines == len(result.draws)}
        if "within" in modes and empties(chosen, k) and by_choice:
            choices["within"] = result.candidates[0].choice
        ranked = _ranked(view, simulation, by_choice, "replace")
        if "replace" in modes:
            choices["replace"] = ranked[0].choice
        if "shift" in modes:
            choices["shift"] = _ranked(view, simulation, by_choice, "shift")[0].choice
    return EmptyingResult(choices, ranked, simulation, result, time.perf_counter() - start)


def _ranked(view: PlayerView, simulation: Simulation, by_choice: dict[Choice, DrawsValue],
            mode: str) -> tuple[Valued, ...]:
    """The sim's candidates valued as ``mode`` says, the best of the sim's choice and the
    emptying candidates first (a tie goes to the sim's choice), the rest in the sim's order."""
    spread_now = view.scores[view.player] - view.scores[1 - view.player]
    simulated = [c for c in simulation.candidates if c.iterations > 0]
    anchor = None
    if mode == "shift":
        known = [c for c in simulated if c.choice in by_choice]
        if known:
            anchor = max(known, key=lambda c: (c.iterations, c.value))
    out = []
    for c in simulation.candidates:
        d = by_choice.get(c.choice)
        if d is None or c.iterations == 0:
            out.append(Valued(c.choice, c.win, c.spread, c.value, d))
        elif mode == "replace":
            win, spread = d.wins, spread_now + d.spread
            out.append(Valued(c.choice, win, spread, sim_value(win, spread), d))
        elif anchor is not None:
            a = by_choice[anchor.choice]
            win = anchor.win + d.wins - a.wins
            spread = anchor.spread + d.spread - a.spread
            out.append(Valued(c.choice, win, spread, sim_value(win, spread), d))
        else:
            out.append(Valued(c.choice, c.win, c.spread, c.value, d))
    # the contenders: the sim's choice and every emptying candidate revalued; the sim's
    # other candidates keep the sim's order behind them (a pruned one does not come back)
    first = out[0]
    contenders = [v for v in out if v is first or v.draws is not None]
    contenders = [v for v in contenders if v.value == v.value] or [first]  # (no NaN)
    best = max(contenders, key=lambda v: (v.value, v is first))
    return (best, *[v for v in out if v is not best])


__all__ = ["MODE", "MODES", "SIM_SHARE", "EmptyingResult", "Valued", "empties", "sim_limit",
           "solve"]
