"""The plays a search keeps: rows that grow as plays are found, and, when only the best few are
kept, the weakest of them replaced by a better one (compiled, as :mod:`letras.movegen._kernels`
uses them)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from letras.movegen.columns import COL, COLUMNS, DIRECTION, LAID, LENGTH, ROW, SCORE


@njit(cache=True)
def _grow(meta: Any, tiles: Any, val: Any) -> tuple[Any, Any, Any]:  # pragma: no cover
    m2 = np.zeros((meta.shape[0] * 2, COLUMNS), np.int32)
    m2[: meta.shape[0]] = meta
    t2 = np.zeros((tiles.shape[0] * 2, tiles.shape[1]), np.uint8)
    t2[: tiles.shape[0]] = tiles
    v2 = np.zeros(val.shape[0] * 2, np.float64)
    v2[: val.shape[0]] = val
    return m2, t2, v2


@njit(cache=True)
def _weakest(val: Any, count: int) -> int:  # pragma: no cover - compiled
    """The row of the lowest value among the first ``count`` (the one a better play replaces)."""
    low = 0
    for i in range(1, count):
        if val[i] < val[low]:
            low = i
    return low


@njit(cache=True)
def _record(
    meta: Any, out: Any, val: Any, count: int, keep: int, rank: float, score: int, row: int,
    direction: int, left: int, right: int, placed: int, cur: Any,
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """Keep the play of tiles ``cur[left..right]`` (0 where it takes in a board tile) worth
    ``rank``: a new row, or in place of the weakest when ``keep`` are kept (unless it is no
    better)."""
    slot = count
    if keep and count == keep:
        slot = _weakest(val, count)
        if rank <= val[slot]:
            return meta, out, val, count
    if slot == meta.shape[0]:
        meta, out, val = _grow(meta, out, val)
    val[slot] = rank
    meta[slot, ROW] = row if direction == 0 else left
    meta[slot, COL] = left if direction == 0 else row
    meta[slot, DIRECTION] = direction
    meta[slot, LENGTH] = right - left + 1
    meta[slot, SCORE] = score
    meta[slot, LAID] = placed
    for i in range(left, right + 1):
        out[slot, i - left] = cur[i]
    for i in range(right - left + 1, out.shape[1]):
        out[slot, i] = 0
    if slot == count:
        count += 1
    return meta, out, val, count


@njit(cache=True)
def _with_mirrors(
    meta: Any, out: Any, val: Any, count: int, keep: int
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """The best ``keep`` of plays across and the same plays turned down (see
    :func:`generate`), the plays across first among equals."""
    both = np.zeros((2 * count, COLUMNS), np.int32)
    tiles = np.zeros((2 * count, out.shape[1]), np.uint8)
    values = np.zeros(2 * count, np.float64)
    for i in range(count):
        both[i] = meta[i]
        tiles[i] = out[i]
        values[i] = val[i]
        both[count + i] = meta[i]
        both[count + i, ROW] = meta[i, COL]
        both[count + i, COL] = meta[i, ROW]
        both[count + i, DIRECTION] = 1
        tiles[count + i] = out[i]
        values[count + i] = val[i]
    if 2 * count <= keep:
        return both, tiles, values, 2 * count
    order = np.argsort(-values, kind="mergesort")[:keep]
    return both[order].copy(), tiles[order].copy(), values[order].copy(), keep

