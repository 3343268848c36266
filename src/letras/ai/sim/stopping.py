"""The stopping rule of the simulation: which candidates to drop, and which one to choose.

Candidates are compared on the same iterations (paired differences, which the common random
numbers of the deals make tight); see this package's ``README.md`` ("Stopping early", "The
choice"). ``values[i]`` holds candidate ``i``'s value in each iteration so far, ``alive`` the
candidates still simulated; candidate 0 is the equity player's favourite, and a lower number
ranks before a higher one among equals.

>>> values = [[0.50, 0.52, 0.51], [0.10, 0.12, 0.11], [0.50, 0.52, 0.51]]
>>> leader([0, 1, 2], values), trailing([0, 1, 2], values, 3)
(0, [1, 2])
"""

from __future__ import annotations

import math
import statistics

Z_PRUNE = 2.0
"""Standard errors by which a candidate must trail the leader to be dropped (more for few
iterations, see :func:`prune_z`)."""
EQUAL_VALUE = 0.002
"""A candidate that cannot be better than the leader by more than this (in value: a fifth of
a percent of win chance, about half a point early in a game) is dropped as no better."""
SWITCH_Z = 1.0
"""Standard errors by which the leader must beat the equity player's favourite to be chosen
over it."""
SPREAD_WEIGHT = 0.001
"""A point of mean margin is worth this share of a win in a candidate's value."""


def value(win: float, margin: float) -> float:
    """What candidates are ranked by in one iteration: ``win + SPREAD_WEIGHT x margin``."""
    return win + SPREAD_WEIGHT * margin


def prune_z(iterations: int) -> float:
    """The pruning threshold in standard errors, widened for few iterations (a first-order
    Student t correction)."""
    return Z_PRUNE * (1.0 + (Z_PRUNE * Z_PRUNE + 1.0) / (4.0 * (iterations - 1)))


def leader(alive: list[int], values: list[list[float]]) -> int:
    """The candidate of highest mean value (the one ranked first by equity among equals)."""
    return max(alive, key=lambda i: (statistics.fmean(values[i]), -i))


def paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` over the same iterations."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def trailing(alive: list[int], values: list[list[float]], iterations: int) -> list[int]:
    """The candidates to drop: those that trail the leader with confidence on the same
    iterations, and those that cannot be more than :data:`EQUAL_VALUE` better than it (the
    same outcome in every iteration, or a near tie measured precisely)."""
    best = leader(alive, values)
    z = prune_z(iterations)
    out = []
    for i in alive:
        if i == best:
            continue
        mean, err = paired(values[best], values[i])  # mean >= 0: the leader is ahead
        if mean > z * err or mean + z * err < EQUAL_VALUE:
            out.append(i)
    return out


def beyond(alive: list[int], values: list[list[float]], keep: int) -> list[int]:
    """All but the ``keep`` candidates of highest mean value so far (at least two stay)."""
    keep = max(2, keep)
    if len(alive) <= keep:
        return []
    ranked = sorted(alive, key=lambda i: (-statistics.fmean(values[i]), i))
    return ranked[keep:]


def chosen(alive: list[int], values: list[list[float]]) -> int:
    """The leader, unless it does not beat the equity player's favourite among the candidates
    left by more than :data:`SWITCH_Z` standard errors: the simulation's own noise and the
    approximations of its model should not overturn the static ranking without evidence."""
    best = leader(alive, values)
    favourite = min(alive)
    if best == favourite or len(values[best]) < 2:
        return best
    mean, err = paired(values[best], values[favourite])
    return best if mean > SWITCH_Z * err else favourite


def mean_err(xs: list[float]) -> tuple[float, float]:
    """Mean and standard error (NaN for no values, an infinite error for one)."""
    if not xs:
        return math.nan, math.nan
    if len(xs) == 1:
        return xs[0], math.inf
    return statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))


__all__ = [
    "EQUAL_VALUE",
    "SPREAD_WEIGHT",
    "SWITCH_Z",
    "Z_PRUNE",
    "beyond",
    "chosen",
    "leader",
    "mean_err",
    "paired",
    "prune_z",
    "trailing",
    "value",
]
