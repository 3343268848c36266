"""Fitting leave values to the records of self-play: every leave an edition allows
(:class:`LeaveSpace`), the records (:class:`Records`) and the fit (:func:`fit_values`).

How the fit works (temporal-difference targets, a smooth model blended with each leave's own
mean by empirical Bayes) is told in this package's ``README.md`` ("Training").

>>> space = LeaveSpace.from_counts([2, 3, 1], max_tiles=2)   # 2 blanks, 3 A, 1 B
>>> [space.leave(i) for i in range(len(space))]
[(), (0,), (0, 0), (0, 1), (0, 2), (1,), (1, 1), (1, 2), (2,)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from letras.ai.leaves import LeaveEvaluator
from letras.ai.leaves.klv import KEY_TILES, MAX_TILE, TILE_BITS, Keys
from letras.editions import Edition
from letras.errors import RuleError

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
        vowels = [tiles.is_vowel(code) for code in range(len(tiles.labels))]
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


__all__ = [
    "DEFAULT_PRIOR",
    "PRIOR_MIN_SEEN",
    "PRIOR_RANGE",
    "RIDGE",
    "SHAPE_RIDGE",
    "SWEEPS",
    "Fit",
    "Floats",
    "Ints",
    "LeaveSpace",
    "Records",
    "TrainingError",
    "evaluate",
    "feature_count",
    "fit_values",
]
