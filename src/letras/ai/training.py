"""Leave values learned by self-play: the superleaves of an edition, for every leave of 1-6 tiles.

**What a leave is worth.** After a play the player keeps a leave ``L`` and draws. Counted
from there, the points still to come are the next play's score plus what that play keeps, so

    V(L) = E[ next score + V(next leave) | L ]  -  E[ next score + V(next leave) | empty leave ]

(temporal difference, in the spirit of Quackle's and Macondo's leave fitting). The second
term is that of a player who kept nothing and draws a fresh rack, so ``V(empty) = 0``: values
are points better or worse than a fresh rack, the convention of :mod:`letras.ai.leaves` and
of KLV files. (Quackle and Macondo subtract the mean over all turns instead, which puts every
kept leave a few points above a bingo's empty one.) A next turn played with the bag empty
counts its score only (no leave value there), and a turn with no next turn of the same player
(the game ended first) is not recorded.

**Training** (:func:`train`) runs ``generations`` rounds. Each round plays its share of the
games, ``equity`` against ``equity`` with the current values (the first round with the
edition's heuristic :class:`~letras.ai.leaves.HeuristicLeaves`, or a ``start`` table), and
records every turn taken while the bag still held tiles: the leave kept (1-6 tiles, or none
after a bingo), the same player's next score and next leave. Then the values are fitted to
the records of all rounds so far (:func:`fit_values`), and the next round plays with them.
Worker processes, kept for the whole training, read each round's values from a KLV file.

**Fitting** (:func:`fit_values`) repeats :data:`SWEEPS` times (batch TD: each sweep's targets
use the values of the sweep before); the target of a record is
``t = next score + V(next leave)``, and

1. each leave seen ``n`` times has a raw mean ``mean(L)`` of its targets;
2. a smooth model ``m(L)`` is fitted to the records by weighted least squares, on top of the
   heuristic's values: one term per tile, one per pair of equal tiles (duplicates), one per
   pair of different tiles (synergies such as QU or ?S), and one per size and number of
   vowels (balance and size; these act as intercepts). A ridge penalty (:data:`RIDGE`,
   :data:`SHAPE_RIDGE`) keeps a term that few records show near 0, so a rare combination
   keeps the heuristic's shape;
3. the two are blended by how often the leave was seen (empirical Bayes):
   ``e(L) = (n mean(L) + k m(L)) / (n + k)``, with ``k = sigma^2 / tau^2``: the spread of a
   single target around its leave's mean over the spread of the leaves' true means around the
   model, both measured on the records (clamped to :data:`PRIOR_RANGE`);
4. ``V(L) = e(L) - e(empty)``.

So a leave seen thousands of times keeps its own mean, a rare one leans on the model, and the
~650,000 leaves of pt-BR (915,000 in en) that the tile counts allow (:class:`LeaveSpace`: every
multiset of 1-6 tiles within the counts, blanks included) all get a value.

The values say what a leave was worth *in these games*: a leave's mean also carries the
positions it tends to be kept in (five tiles are kept when the board is closed), as in every
fit of this kind. Game ``i`` of round ``g`` is seeded from the training seed, ``g`` and ``i``
alone, and the records are fitted in game order, so a training run gives the same table with
any number of worker processes.

>>> space = LeaveSpace.from_counts([2, 3, 1], max_tiles=2)   # 2 blanks, 3 A, 1 B
>>> [space.leave(i) for i in range(len(space))]
[(), (0,), (0, 0), (0, 1), (0, 2), (1,), (1, 1), (1, 2), (2,)]
"""

from __future__ import annotations

import multiprocessing
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from letras.ai.equity import EquityPlayer
from letras.ai.klv import (
    KEY_TILES,
    MAX_TILE,
    TILE_BITS,
    Keys,
    LeaveTable,
    leave_key,
    read_klv,
    write_klv,
)
from letras.ai.leaves import LeaveEvaluator, heuristic_leaves, is_vowel
from letras.ai.player import Choice
from letras.ai.selfplay import game_seed, run_game, word_graph
from letras.editions import Edition, find_edition
from letras.errors import LetrasError, RuleError
from letras.game import Game, PlayerView
from letras.lexicon.kwg import WordGraph
from letras.play import Exchange, Pass, Place
from letras.tiles import rack_tile

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

SWEEPS = 3
"""Fits per round, each with targets from the values of the one before."""
RIDGE = 50.0
"""Ridge penalty of the smooth model, in records: a term that few records show stays near the
offset (in training, the heuristic). About the noise of one record over the spread of a term:
``(25 points)^2 / (3.5 points)^2``."""
SHAPE_RIDGE = 1.0
"""The same for the terms of a leave's size and vowels, the intercepts of the model: each is
as good as its records (the empty leave's is the zero of every value)."""
PRIOR_RANGE = (5.0, 2000.0)
"""Bounds of ``k``, the weight (in records) of the smooth model against a leave's own mean."""
DEFAULT_PRIOR = 200.0
"""``k`` when too few leaves were seen often enough to measure it."""
PRIOR_MIN_SEEN = 20
"""Leaves seen at least this often measure how far true means lie from the model."""
GENERATIONS = 4

Progress = Callable[[int, int, int], None]
"""Called with (games done, games in all, round) as games finish."""


class TrainingError(RuleError):
    """Training cannot run with these settings."""


# ----- every leave an edition allows ---------------------------------------------------------


@dataclass(frozen=True)
class LeaveSpace:
    """Every leave of 0 to ``max_tiles`` tiles that the tile counts allow, in sorted order (the
    order of a KLV file; the empty leave is index 0), with each tile's vowel flag."""

    counts: tuple[int, ...]
    vowels: tuple[bool, ...]
    max_tiles: int
    keys: Keys = field(repr=False, compare=False)
    tiles: npt.NDArray[np.uint8] = field(repr=False, compare=False)
    """``tiles[i]``: the sorted tiles of leave ``i``, padded with 255."""
    sizes: npt.NDArray[np.int64] = field(repr=False, compare=False)

    @classmethod
    def of(cls, edition: Edition) -> LeaveSpace:
        """The leaves of an edition: up to one tile fewer than a rack."""
        tiles = edition.tiles
        vowels = [code != 0 and is_vowel(tiles.labels[code]) for code in range(len(tiles.labels))]
        return cls.from_counts(tiles.counts, edition.rack_size - 1, vowels)

    @classmethod
    def from_counts(
        cls, counts: Sequence[int], max_tiles: int, vowels: Sequence[bool] | None = None
    ) -> LeaveSpace:
        """The leaves of a tile distribution (``counts[t]`` tiles of code ``t``, 0 = blank)."""
        if not 0 <= max_tiles <= KEY_TILES:
            raise TrainingError(f"leaves of up to {max_tiles} tiles: 0 to {KEY_TILES} only")
        if len(counts) - 1 > MAX_TILE or min(counts, default=0) < 0:
            raise TrainingError("a tile distribution needs 1 to 63 tiles, none counted below 0")
        flags = tuple(bool(v) for v in vowels) if vowels is not None else (False,) * len(counts)
        if len(flags) != len(counts):
            raise TrainingError("one vowel flag per tile code")
        keys, tiles, sizes = _enumerate(np.array(counts, np.int64), max_tiles)
        return cls(tuple(counts), flags, max_tiles, keys, tiles, sizes)

    def __len__(self) -> int:
        return len(self.keys)

    def leave(self, i: int) -> tuple[int, ...]:
        return tuple(int(t) for t in self.tiles[i, : self.sizes[i]])

    def index(self, keys: Keys) -> Ints:
        """The index of each key; :class:`TrainingError` if one is not a leave of the space."""
        at = np.searchsorted(self.keys, keys)
        at = np.minimum(at, len(self.keys) - 1)
        if np.any(self.keys[at] != keys):
            raise TrainingError("a recorded leave is not one the tile counts allow")
        return at.astype(np.int64)


def _enumerate(counts: Ints, max_tiles: int) -> tuple[Keys, npt.NDArray[np.uint8], Ints]:
    """Leaves grown one tile at a time, each new tile no lower than the last one."""
    width = max(max_tiles, 1)
    level_keys = [np.zeros(1, np.uint64)]
    level_tiles = [np.full((1, width), 255, np.uint8)]
    level_last = np.array([0], np.int64)
    level_counts = np.zeros((1, len(counts)), np.int64)
    all_keys, all_tiles, all_sizes = [level_keys[0]], [level_tiles[0]], [np.zeros(1, np.int64)]
    for size in range(1, max_tiles + 1):
        shift = np.uint64(TILE_BITS * (KEY_TILES - size))
        new_keys, new_tiles, new_last, new_counts = [], [], [], []
        for t in range(len(counts)):
            ok = (level_last <= t) & (level_counts[:, t] < counts[t])
            if not ok.any():
                continue
            new_keys.append(level_keys[-1][ok] | (np.uint64(t + 1) << shift))
            grown = level_tiles[-1][ok].copy()
            grown[:, size - 1] = t
            new_tiles.append(grown)
            new_last.append(np.full(int(ok.sum()), t, np.int64))
            c = level_counts[ok].copy()
            c[:, t] += 1
            new_counts.append(c)
        if not new_keys:
            break
        level_keys.append(np.concatenate(new_keys))
        level_tiles.append(np.concatenate(new_tiles))
        level_last = np.concatenate(new_last)
        level_counts = np.concatenate(new_counts)
        all_keys.append(level_keys[-1])
        all_tiles.append(level_tiles[-1])
        all_sizes.append(np.full(len(level_keys[-1]), size, np.int64))
    keys = np.concatenate(all_keys)
    order = np.argsort(keys, kind="stable")
    return keys[order], np.concatenate(all_tiles)[order], np.concatenate(all_sizes)[order]


# ----- the records of self-play --------------------------------------------------------------


@dataclass(frozen=True)
class Records:
    """Turns taken with tiles in the bag: the leave kept, the same player's next score, and the
    leave kept then (key 0: none that has a value, the bag being empty by then)."""

    leave: Keys
    score: Ints
    next_leave: Keys

    @classmethod
    def empty(cls) -> Records:
        return cls(np.zeros(0, np.uint64), np.zeros(0, np.int64), np.zeros(0, np.uint64))

    @classmethod
    def join(cls, parts: Sequence[Records]) -> Records:
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([p.leave for p in parts]),
            np.concatenate([p.score for p in parts]),
            np.concatenate([p.next_leave for p in parts]),
        )

    def __len__(self) -> int:
        return len(self.leave)


def play_and_record(
    game: Game, player: EquityPlayer, max_tiles: int
) -> tuple[Records, int]:
    """Play ``game`` to its end with ``player`` in every seat, every play accepted, and return
    its records and the number of actions chosen (as :func:`letras.ai.selfplay.run_game`)."""
    log: list[tuple[int, int, tuple[int, ...], int]] = []  # seat, bag, leave, points

    def record(view: PlayerView, action: Choice, points: int) -> None:
        log.append((view.player, view.bag_count, _kept(view.rack, action), points))

    turns = run_game(game, [player] * len(game.players), record=record)
    leaves, scores, nexts = [], [], []
    last: dict[int, int] = {}
    for i, (seat, bag, leave, _) in enumerate(log):
        j = last.get(seat)
        last[seat] = i
        if j is None:
            continue
        _, bag_then, kept, _ = log[j]
        if bag_then == 0 or len(kept) > max_tiles:
            continue
        leaves.append(leave_key(kept))
        scores.append(log[i][3])
        nexts.append(leave_key(leave) if bag > 0 and len(leave) <= max_tiles else 0)
    records = Records(np.array(leaves, np.uint64), np.array(scores, np.int64),
                      np.array(nexts, np.uint64))
    return records, turns


def _kept(rack: Sequence[int], action: Place | Exchange | Pass) -> tuple[int, ...]:
    """The tiles left on the rack after ``action`` (before drawing)."""
    out = list(rack)
    if isinstance(action, Place):
        gone: Sequence[int] = [rack_tile(t) for t in action.tiles if t]
    elif isinstance(action, Exchange):
        gone = action.tiles
    else:
        gone = ()
    for t in gone:
        out.remove(t)
    return tuple(sorted(out))


# ----- fitting -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fit:
    """Fitted values over a :class:`LeaveSpace` (``values[0]``, the empty leave, is 0)."""

    values: Floats
    seen: Ints
    """How many records kept each leave."""
    prior: float
    """``k``: the records' weight of the smooth model."""
    spread: float
    """``sigma``: the spread of one record's target around its leave's mean, in points."""


def fit_values(
    space: LeaveSpace,
    records: Records,
    start: Floats,
    *,
    offset: Floats | None = None,
    sweeps: int = SWEEPS,
) -> Fit:
    """Fit leave values to ``records`` (see the module docstring). ``start`` holds the values
    the first targets use; only the entries of the records' next leaves are read. The smooth
    model fits its terms on top of ``offset`` (one value per leave; default 0), so terms the
    records say little about keep the offset's shape."""
    if not len(records):
        raise TrainingError("no turns were recorded: nothing to fit leave values to")
    leave = space.index(records.leave)
    nxt = space.index(records.next_leave)
    score = records.score.astype(np.float64)
    values = np.array(start, np.float64)
    values[0] = 0.0
    n = np.bincount(leave, minlength=len(space)).astype(np.float64)
    seen = np.flatnonzero(n)
    vowels = np.array(space.vowels, np.bool_)
    tiles = len(space.counts)
    width = space.tiles.shape[1]
    base = np.zeros(len(space)) if offset is None else np.asarray(offset, np.float64)
    ridge = np.full(feature_count(tiles, width), RIDGE)
    ridge[2 * tiles + tiles * tiles:] = SHAPE_RIDGE
    prior = DEFAULT_PRIOR
    sigma = 0.0
    for _ in range(max(1, sweeps)):
        target = score + values[nxt]
        total = np.bincount(leave, target, minlength=len(space))
        squares = np.bincount(leave, target * target, minlength=len(space))
        mean = total[seen] / n[seen]
        # Terms are fitted to what the offset leaves unexplained, around its mean, so that
        # the ridge pulls a little-used term towards the offset plus the mean.
        residual = mean - base[seen]
        centre = float(np.average(residual, weights=n[seen]))
        a, b = _normal_equations(space.tiles, space.sizes, seen, n[seen], residual - centre,
                                 vowels, tiles, width)
        a[np.diag_indices_from(a)] += ridge
        beta = np.linalg.solve(a, b)
        model = base + centre + _predict(space.tiles, space.sizes, beta, vowels, tiles, width)
        within = float(np.sum(squares[seen] - total[seen] ** 2 / n[seen]))
        sigma2 = within / max(1.0, len(leave) - len(seen))
        prior = _prior(sigma2, n[seen], mean, model[seen])
        blended = (total + prior * model) / (n + prior)
        values = blended - blended[0]
        sigma = float(np.sqrt(sigma2))
    return Fit(values, n.astype(np.int64), prior, sigma)


def _prior(sigma2: float, n: Floats, mean: Floats, model: Floats) -> float:
    """``k = sigma^2 / tau^2``, ``tau^2`` from the leaves seen often (empirical Bayes)."""
    often = n >= PRIOR_MIN_SEEN
    if often.sum() < 10 or sigma2 <= 0:
        return DEFAULT_PRIOR
    tau2 = float(np.mean((mean[often] - model[often]) ** 2 - sigma2 / n[often]))
    low, high = PRIOR_RANGE
    if tau2 <= sigma2 / high:
        return high
    return float(min(high, max(low, sigma2 / tau2)))


def feature_count(tiles: int, width: int) -> int:
    """Terms of the smooth model: tiles, duplicates, pairs, and (size, vowels) cells."""
    return 2 * tiles + tiles * tiles + (width + 1) * (width + 1)


@njit(cache=True)
def _features(
    row: Any, size: int, vowels: Any, tiles: int, width: int, idx: Any, val: Any
) -> int:  # pragma: no cover - compiled
    """The nonzero terms of one leave's smooth model into ``idx``/``val``; returns how many."""
    distinct = np.zeros(KEY_TILES, np.int64)
    count = np.zeros(KEY_TILES, np.int64)
    d = 0
    for i in range(size):
        t = np.int64(row[i])
        if d > 0 and distinct[d - 1] == t:
            count[d - 1] += 1
        else:
            distinct[d] = t
            count[d] = 1
            d += 1
    m = 0
    v = 0
    for a in range(d):
        t, c = distinct[a], count[a]
        idx[m] = t
        val[m] = c
        m += 1
        if c > 1:
            idx[m] = tiles + t
            val[m] = c * (c - 1) / 2
            m += 1
        if vowels[t]:
            v += c
        for b in range(a + 1, d):
            idx[m] = 2 * tiles + t * tiles + distinct[b]
            val[m] = c * count[b]
            m += 1
    idx[m] = 2 * tiles + tiles * tiles + size * (width + 1) + v
    val[m] = 1.0
    return m + 1


@njit(cache=True)
def _normal_equations(
    space_tiles: Any, sizes: Any, rows: Any, weights: Any, targets: Any, vowels: Any,
    tiles: int, width: int,
) -> tuple[Any, Any]:  # pragma: no cover - compiled
    """``X^T W X`` and ``X^T W y`` of the smooth model over the leaves ``rows``."""
    nf = 2 * tiles + tiles * tiles + (width + 1) * (width + 1)
    a = np.zeros((nf, nf))
    b = np.zeros(nf)
    idx = np.zeros(64, np.int64)
    val = np.zeros(64)
    for r in range(rows.shape[0]):
        i = rows[r]
        m = _features(space_tiles[i], sizes[i], vowels, tiles, width, idx, val)
        w = weights[r]
        for p in range(m):
            wp = w * val[p]
            b[idx[p]] += wp * targets[r]
            for q in range(m):
                a[idx[p], idx[q]] += wp * val[q]
    return a, b


@njit(cache=True)
def _predict(
    space_tiles: Any, sizes: Any, beta: Any, vowels: Any, tiles: int, width: int
) -> Any:  # pragma: no cover - compiled
    out = np.zeros(space_tiles.shape[0])
    idx = np.zeros(64, np.int64)
    val = np.zeros(64)
    for i in range(space_tiles.shape[0]):
        m = _features(space_tiles[i], sizes[i], vowels, tiles, width, idx, val)
        s = 0.0
        for p in range(m):
            s += beta[idx[p]] * val[p]
        out[i] = s
    return out


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
    workers: int = 1,
    start: LeaveEvaluator | None = None,
    lexicon: WordGraph | str | None = None,
    progress: Progress | None = None,
    sweeps: int = SWEEPS,
) -> TrainingResult:
    """Learn the leave values of ``edition`` from ``games`` self-play games split over
    ``generations`` rounds (see the module docstring). ``start`` gives the values the first
    round plays with (default: the heuristic); ``lexicon`` is a word graph, a shipped
    lexicon's name or a word list (default: the edition's own); ``workers`` > 1 plays in that
    many processes, with the same result."""
    ed = find_edition(edition) if isinstance(edition, str) else edition
    if games < 1:
        raise TrainingError("training needs at least one game")
    if generations < 1:
        raise TrainingError("training needs at least one generation")
    if workers < 1:
        raise TrainingError("training needs at least one worker")
    began = time.perf_counter()
    graph = word_graph(ed, lexicon)
    space, offset = _prepared(ed)
    generations = min(generations, games)
    first: LeaveEvaluator = start if start is not None else heuristic_leaves(ed)
    job = _Job(ed, graph if isinstance(lexicon, WordGraph) else lexicon, first, seed,
               space.max_tiles)
    values = np.full(len(space), np.nan)
    parts: list[Records] = []
    rounds: list[Round] = []
    done = 0
    fit: Fit | None = None
    table: LeaveTable | None = None
    with tempfile.TemporaryDirectory(prefix="letras-leaves-") as folder, \
            _Players(job, graph, min(workers, games)) as players:
        for g in range(generations):
            count = games // generations + (1 if g < games % generations else 0)
            t0 = time.perf_counter()
            # Workers read the values of the round from a file (the first from the job).
            path = None
            if table is not None:
                path = str(Path(folder) / f"round-{g + 1}.klv")
                write_klv(path, table)
            new = []
            for number, records in players.play([_Task(i, g, path) for i in range(count)]):
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
                          min(workers, games), time.perf_counter() - began)


def evaluate(evaluator: LeaveEvaluator, space: LeaveSpace, rows: Ints | None = None) -> Floats:
    """The evaluator's value of each leave of ``space`` (or of the leaves ``rows``)."""
    rows = np.arange(len(space)) if rows is None else rows
    out = np.zeros(len(rows))
    step = 1 << 15
    for s in range(0, len(rows), step):
        part = rows[s:s + step]
        tiles, sizes = space.tiles[part].tolist(), space.sizes[part].tolist()
        out[s:s + step] = [evaluator.value(t[:n]) for t, n in zip(tiles, sizes, strict=True)]
    return out


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
    """One game: its number in its round, the round, and the KLV file of the round's values
    (None: the first round's)."""

    number: int
    generation: int
    leaves: str | None


class _Worker:
    """A process's player, remade when a round brings new values."""

    current: _Worker | None = None

    def __init__(self, job: _Job, graph: WordGraph) -> None:
        self.job = job
        self.graph = graph
        self.leaves: str | None = None
        self.player = EquityPlayer(graph, leaves=job.first)

    def play(self, task: _Task) -> tuple[int, Records]:
        job = self.job
        if task.leaves != self.leaves:
            values = job.first if task.leaves is None else read_klv(task.leaves, job.edition)
            self.player = EquityPlayer(self.graph, leaves=values)
            self.leaves = task.leaves
        game = Game(job.edition, ["A", "B"], lexicon=self.graph,
                    seed=game_seed(job.seed, task.number, f"leaves {task.generation}"))
        try:
            records, _ = play_and_record(game, self.player, job.max_tiles)
        except LetrasError as e:
            raise RuleError(
                f"training game {task.number} of round {task.generation + 1}: {e}"
            ) from e
        return task.number, records


def _start_worker(job: _Job) -> None:
    _Worker.current = _Worker(job, word_graph(job.edition, job.lexicon))


def _play(task: _Task) -> tuple[int, Records]:
    assert _Worker.current is not None
    return _Worker.current.play(task)


class _Players:
    """Plays tasks in this process, or in a pool of worker processes kept for every round."""

    def __init__(self, job: _Job, graph: WordGraph, workers: int) -> None:
        self.job = job
        self.graph = graph
        self.workers = workers
        self.pool: Any = None
        self.local: _Worker | None = None

    def __enter__(self) -> _Players:
        if self.workers > 1:
            context = multiprocessing.get_context("spawn")
            self.pool = context.Pool(self.workers, initializer=_start_worker,
                                     initargs=(self.job,))
        else:
            self.local = _Worker(self.job, self.graph)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()

    def play(self, tasks: list[_Task]) -> Iterator[tuple[int, Records]]:
        if self.local is not None:
            local = self.local
            return (local.play(task) for task in tasks)
        return iter(self.pool.imap_unordered(_play, tasks))


__all__ = [
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
