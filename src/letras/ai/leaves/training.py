"""Leave values learned by self-play: the superleaves of an edition, for every leave of 1-6 tiles.

:func:`train` plays rounds of ``equity`` against ``equity``, records every turn taken while the
bag held tiles (:func:`play_and_record`) and fits the values to the records of all rounds so far
(:func:`~letras.ai.leaves.fit.fit_values`); the next round plays with them. What a leave is
worth and how training and fitting go are told in this package's ``README.md`` ("Training").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from letras.ai.equity import EquityPlayer
from letras.ai.leaves import LeaveEvaluator, heuristic_leaves
from letras.ai.leaves.fit import (
    SWEEPS,
    Fit,
    Floats,
    Ints,
    LeaveSpace,
    Records,
    TrainingError,
    evaluate,
    feature_count,
    fit_values,
)
from letras.ai.leaves.klv import LeaveTable, klv_bytes, leave_key, parse_klv
from letras.ai.player import Choice
from letras.ai.selfplay import game_seed, run_game, word_graph
from letras.ai.workers import Shared, open_workers
from letras.editions import Edition, find_edition
from letras.errors import LetrasError, RuleError
from letras.game import Game, PlayerView
from letras.lexicon.kwg import WordGraph
from letras.rack import kept

GENERATIONS = 4
"""Rounds of self-play, each with the values fitted after the one before."""

Progress = Callable[[int, int, int], None]
"""Called with (games done, games in all, round) as games finish."""


def play_and_record(
    game: Game, player: EquityPlayer, max_tiles: int
) -> tuple[Records, int]:
    """Play ``game`` to its end with ``player`` in every seat, every play accepted, and return
    its records and the number of actions chosen (as :func:`letras.ai.selfplay.run_game`)."""
    log: list[tuple[int, int, tuple[int, ...], int]] = []  # seat, bag, leave, points

    def record(view: PlayerView, action: Choice, points: int) -> None:
        log.append((view.player, view.bag_count, kept(view.rack, action), points))

    turns = run_game(game, [player] * len(game.players), record=record)
    leaves, scores, nexts = [], [], []
    last: dict[int, int] = {}
    for i, (seat, bag, leave, _) in enumerate(log):
        j = last.get(seat)
        last[seat] = i
        if j is None:
            continue
        _, bag_then, kept_then, _ = log[j]
        if bag_then == 0 or len(kept_then) > max_tiles:
            continue
        leaves.append(leave_key(kept_then))
        scores.append(log[i][3])
        nexts.append(leave_key(leave) if bag > 0 and len(leave) <= max_tiles else 0)
    records = Records(np.array(leaves, np.uint64), np.array(scores, np.int64),
                      np.array(nexts, np.uint64))
    return records, turns


# ----- training ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Round:
    """One round of training: its games, the records it added and the fit after it."""

    games: int
    records: int
    prior: float
    spread: float
    seconds: float


@dataclass(frozen=True)
class TrainingResult:
    table: LeaveTable
    """The values of every leave of 1-6 tiles."""
    space: LeaveSpace
    values: Floats
    """``values[i]``: the value of ``space.leave(i)``."""
    seen: Ints
    """How many records kept each leave."""
    rounds: tuple[Round, ...]
    seed: int
    workers: int
    seconds: float

    @property
    def games(self) -> int:
        return sum(r.games for r in self.rounds)

    @property
    def records(self) -> int:
        return sum(r.records for r in self.rounds)

    @property
    def leaves_seen(self) -> int:
        """Distinct leaves of 1-6 tiles that some recorded turn kept."""
        return int(np.count_nonzero(self.seen[1:]))


def train(
    edition: Edition | str,
    games: int,
    *,
    generations: int = GENERATIONS,
    seed: int = 0,
    workers: int | None = None,
    start: LeaveEvaluator | None = None,
    lexicon: WordGraph | str | None = None,
    progress: Progress | None = None,
    sweeps: int = SWEEPS,
    ray: str | None = None,
) -> TrainingResult:
    """Learn the leave values of ``edition`` from ``games`` self-play games split over
    ``generations`` rounds (see the module docstring). ``start`` gives the values the first
    round plays with (default: the heuristic); ``lexicon`` is a word graph, a shipped
    lexicon's name or a word list (default: the edition's own); ``workers`` > 1 plays in that
    many processes, and ``ray`` (``auto`` or a cluster's address) on a Ray cluster, by default
    one worker per CPU (:mod:`letras.ai.workers`): the result is the same with any backend and
    any number of workers. Game ``i`` of round ``g`` is seeded from ``seed``, ``i`` and ``g``
    alone, and the fit takes the records in game order."""
    ed = find_edition(edition) if isinstance(edition, str) else edition
    if games < 1:
        raise TrainingError("training needs at least one game")
    if generations < 1:
        raise TrainingError("training needs at least one generation")
    if workers is not None and workers < 1:
        raise TrainingError("training needs at least one worker")
    began = time.perf_counter()
    graph = word_graph(ed, lexicon)
    space, offset = _prepared(ed)
    generations = min(generations, games)
    first: LeaveEvaluator = start if start is not None else heuristic_leaves(ed)
    values = np.full(len(space), np.nan)
    parts: list[Records] = []
    rounds: list[Round] = []
    done = 0
    fit: Fit | None = None
    table: LeaveTable | None = None
    with open_workers(workers, tasks=games, ray=ray) as pool:
        shipped = lexicon if pool.local_processes and not isinstance(lexicon, WordGraph) \
            else graph
        pool.start(_Worker, _play, _Job(ed, shipped, first, seed, space.max_tiles))
        count_workers = pool.count
        for g in range(generations):
            count = games // generations + (1 if g < games % generations else 0)
            t0 = time.perf_counter()
            # The values of the round go to the workers once (the first round's are in the job).
            shared = pool.share(klv_bytes(table)) if table is not None else None
            new = []
            for number, records in pool.map([_Task(i, g, shared) for i in range(count)]):
                new.append((number, records))
                done += 1
                if progress:
                    progress(done, games, g + 1)
            new.sort(key=lambda r: r[0])
            parts.append(Records.join([r for _, r in new]))
            everything = Records.join(parts)
            if table is None:
                # The values the first targets need: from the values the round played with.
                need = np.unique(space.index(everything.next_leave))
                values[need] = evaluate(first, space, need)
            fit = fit_values(space, everything, np.where(np.isnan(values), 0.0, values),
                             offset=offset, sweeps=sweeps)
            table = _table(ed, space, fit.values)
            # The next round plays with the values as stored (float32), so the targets use those.
            values = np.concatenate(([0.0], table.values.astype(np.float64)))
            rounds.append(Round(count, len(parts[-1]), fit.prior, fit.spread,
                                time.perf_counter() - t0))
    assert fit is not None and table is not None
    return TrainingResult(table, space, values, fit.seen, tuple(rounds), seed,
                          count_workers, time.perf_counter() - began)


@cache
def _prepared(edition: Edition) -> tuple[LeaveSpace, Floats]:
    """The leaves of an edition and their heuristic values (made once, shared)."""
    space = LeaveSpace.of(edition)
    return space, evaluate(heuristic_leaves(edition), space)


def _table(edition: Edition, space: LeaveSpace, values: Floats) -> LeaveTable:
    return LeaveTable(edition, space.keys[1:], values[1:].astype(np.float32),
                      name=f"{edition.name}-trained")


@dataclass(frozen=True)
class _Job:
    """What a worker process needs to play any game of the training."""

    edition: Edition
    lexicon: WordGraph | str | None
    first: LeaveEvaluator
    """The values the first round plays with."""
    seed: int
    max_tiles: int


@dataclass(frozen=True)
class _Task:
    """One game: its number in its round, the round, and the round's values as the bytes of a
    KLV file (None: the first round's, in the job)."""

    number: int
    generation: int
    leaves: Shared | None


class _Worker:
    """A worker's player, remade when a round brings new values."""

    def __init__(self, job: _Job) -> None:
        self.job = job
        self.graph = word_graph(job.edition, job.lexicon)
        self.leaves: str | None = None
        self.player = EquityPlayer(self.graph, leaves=job.first)

    def play(self, task: _Task) -> tuple[int, Records]:
        job = self.job
        key = task.leaves.key if task.leaves is not None else None
        if key != self.leaves:
            values = job.first if task.leaves is None else \
                parse_klv(task.leaves.load(), job.edition, f"round {task.generation + 1}")
            self.player = EquityPlayer(self.graph, leaves=values)
            self.leaves = key
        game = Game(job.edition, ["A", "B"], lexicon=self.graph,
                    seed=game_seed(job.seed, task.number, f"leaves {task.generation}"))
        try:
            records, _ = play_and_record(game, self.player, job.max_tiles)
        except LetrasError as e:
            raise RuleError(
                f"training game {task.number} of round {task.generation + 1}: {e}"
            ) from e
        return task.number, records


def _play(worker: _Worker, task: _Task) -> tuple[int, Records]:
    return worker.play(task)


__all__ = [
    "GENERATIONS",
    "SWEEPS",
    "Fit",
    "LeaveSpace",
    "Records",
    "Round",
    "TrainingError",
    "TrainingResult",
    "evaluate",
    "feature_count",
    "fit_values",
    "play_and_record",
    "train",
]
