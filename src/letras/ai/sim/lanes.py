"""The first reply of a rollout put together lane by lane, for the compiled rollouts
(:mod:`letras.ai.sim.compiled`).

In one iteration every candidate meets the same dealt racks, and the first opponent's first
reply is made on the board after the candidate: its plays along the lanes the candidate leaves
as they were (no tile, cross-set or cross score changed: :func:`changed_lanes`) are the plays
of the board before it. So the best few plays of that rack on the board before are worked out
once per deal (:func:`board_tops`), and for each candidate only the lanes it changed are
searched (:func:`top_on_lanes`): the best of the two is the move generator's best play when
it is the only play of that value and known to be the best (:func:`best_from_lanes`); else
the caller searches the whole board as the move generator does, so the reply is the same
either way.

The searches are the move generator's own (:mod:`letras.movegen._kernels`: ``_lane_setup``,
``_shadow``, ``_dfs``, ``cross_sets``), on cross-sets worked out beforehand: if they change,
this is what to follow.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from letras.movegen import _kernels as k
from letras.movegen._views import unowned
from letras.movegen.columns import COL, COLUMNS, DIRECTION, ROW


@njit(cache=True)
def board_state(pk: Any, board: Any, size: int, values: Any,
                nletters: int) -> tuple[Any, Any, Any, Any]:  # pragma: no cover - compiled
    """What the plays along each lane of ``board`` depend on, both ways (``(2, squares)``:
    across from the board, down from its transpose): the grids, the cross-sets, the cross
    scores and whether each square has cross words."""
    n = size * size
    grids = np.zeros((2, n), np.uint8)
    grids[0] = board
    grids[1] = board.reshape((size, size)).T.copy().reshape(n)
    sets = np.zeros((2, n), np.uint64)
    scores = np.zeros((2, n), np.int32)
    has = np.zeros((2, n), np.bool_)
    for d in range(2):
        sets[d], scores[d], has[d] = k.cross_sets(pk, grids[d], size, values, nletters)
    return grids, sets, scores, has


@njit(cache=True)
def changed_lanes(before: Any, after: Any, size: int) -> Any:  # pragma: no cover - compiled
    """The lanes (``(2, size)``) whose plays may differ between two :func:`board_state`
    (as :func:`letras.movegen.changed_lanes`): a tile, a cross-set or a cross score changed
    along them."""
    out = np.zeros((2, size), np.bool_)
    for d in range(2):
        for s in range(size * size):
            if (before[0][d, s] != after[0][d, s] or before[1][d, s] != after[1][d, s]
                    or before[2][d, s] != after[2][d, s]):
                out[d, s // size] = True
    return out


@njit(cache=True)
def top_on_lanes(
    pk: Any, state: Any, lms: Any, wms: Any, values: Any, rack: Any, rack_size: int,
    bingo: int, join: bool, lanes: Any, keep: int, leaves: Any, radix: Any, size: int,
    least: float,
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """The ``keep`` plays of highest equity of ``rack`` along the ``lanes`` of a board that
    is not empty, given its :func:`board_state`: :func:`letras.movegen._kernels.generate`'s
    search (anchors by bound, best first, with its pruning) on cross-sets made beforehand.
    Exact but for which of equal plays it keeps, among the plays worth ``least`` or more
    (anchors whose bound is below it are not searched)."""
    grids, sets, cscores, has = state
    meta = np.zeros((keep, COLUMNS), np.int32)
    out = np.zeros((keep, size), np.uint8)
    val = np.zeros(keep, np.float64)
    count = 0
    centre = (size // 2) * size + size // 2
    (frames, todo, lists, cur, anchor, playable, rack_mask, total, rv, codes, rem,
     leave_by_placed, sides, opts, coefs) = k.search_setup(rack, values, size, True, leaves,
                                                           radix)
    no_map = k.no_bingo_map()  # every anchor searched whole: no bingo laid from a map
    long_table, map_keys, _, seen, answers = no_map
    # the searches are handed views without an owner (:mod:`letras.movegen._views`) of
    # arrays kept alive to the end (``alive`` below)
    u = unowned
    u_map = (u(long_table), u(map_keys), no_map[2], u(seen), u(answers))
    an_dir = np.zeros(2 * size * size, np.int64)
    an_row = np.zeros(2 * size * size, np.int64)
    an_a = np.zeros(2 * size * size, np.int64)
    an_bound = np.zeros(2 * size * size, np.float64)
    n_an = 0
    for d in range(2):
        grid = grids[d]
        for row in range(size):
            if not lanes[d, row]:
                continue
            base = row * size
            k._lane_setup(grid, row, size, False, centre, sets[d], rack_mask, anchor, playable)
            for a in range(size):
                if not anchor[a] or playable[a] == 0:
                    continue
                an_dir[n_an] = d
                an_row[n_an] = row
                an_a[n_an] = a
                an_bound[n_an] = k._shadow(u(grid)[base: base + size], base, a, size,
                                           u(anchor), u(playable), u(has)[d], u(cscores)[d],
                                           u(lms)[d], u(wms)[d], u(values), u(rv), u(rack),
                                           total, rack_size, bingo, u(leave_by_placed),
                                           False, u(long_table), u(map_keys), np.uint64(0),
                                           0, u(seen), u(answers))
                n_an += 1
    order = np.argsort(-an_bound[:n_an], kind="mergesort")
    for idx in order:
        if an_bound[idx] < least or (
                count == keep and an_bound[idx] <= val[k._weakest(val, count)]):
            break
        d = an_dir[idx]
        row = an_row[idx]
        grid = grids[d]
        base = row * size
        k._lane_setup(grid, row, size, False, centre, sets[d], rack_mask, anchor, playable)
        got = k.FULL
        while got == k.FULL:
            got = k._dfs(
                u(pk), u(grid)[base: base + size], base, row, d, an_a[idx], size, u(anchor),
                u(playable), u(has)[d], u(cscores)[d], u(lms)[d], u(wms)[d], u(values),
                u(rack), rack_size, bingo, join, keep, u(frames), u(todo), u(lists), u(cur),
                u(meta), u(out), u(val), count, True, u(leaves), u(radix), u(codes),
                u(leave_by_placed), u(rem), u(sides), u(opts), u(coefs), False, u_map)
            if got == k.FULL:
                meta, out, val = k._grow(meta, out, val)
        count = got
    alive = (frames.size + todo.size + lists.size + cur.size + anchor.size + playable.size
             + rv.size + codes.size + rem.size + leave_by_placed.size + sides.size + opts.size
             + coefs.size + long_table.size + map_keys.size + seen.size + answers.size)
    if alive < 0:
        return meta, out, val, -1
    return meta, out, val, count


TOPS = 8
"""How many of the best plays of the board before the candidate are kept for the first
reply (:func:`board_tops`)."""
PAIR = 2
"""Plays kept from the search of the lanes a candidate changed: two, to see a tie."""


@njit(cache=True)
def board_tops(
    pk: Any, state: Any, lms: Any, wms: Any, values: Any, rack: Any, rack_size: int,
    bingo: int, join: bool, leaves: Any, radix: Any, size: int,
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """The :data:`TOPS` plays of highest equity of ``rack`` on the whole board (every play of
    a higher value than the lowest of them is among them), best first, and how many."""
    lanes = np.ones((2, size), np.bool_)
    meta, out, val, count = top_on_lanes(pk, state, lms, wms, values, rack, rack_size, bingo,
                                         join, lanes, TOPS, leaves, radix, size, -np.inf)
    order = np.argsort(-val[:count], kind="mergesort")
    return meta[order].copy(), out[order].copy(), val[order].copy(), count


@njit(cache=True)
def best_from_lanes(
    pk: Any, tops: Any, state: Any, changed: Any, lms: Any, wms: Any, values: Any, rack: Any,
    rack_size: int, bingo: int, join: bool, leaves: Any, radix: Any, size: int,
) -> tuple[Any, Any, Any, int, int]:  # pragma: no cover - compiled
    """The best play on the board after a candidate, as ``generate`` returns it, from the
    board's :func:`board_tops` before it (``tops``) on the lanes not ``changed`` and a search
    of the changed ones on its :func:`board_state` after it (``state``); and how many plays
    share the best value, 2 when that is not known (then the caller searches the whole
    board).

    The tops hold every play above the lowest of them: the best of them on a lane not
    changed is the best of those lanes if it is above that lowest, and otherwise no play of
    those lanes is above it."""
    metas, outs, vals, n_tops = tops
    floor = vals[n_tops - 1] if n_tops == TOPS else -np.inf
    top = -1  # the first of the tops on a lane not changed
    for i in range(n_tops):
        d = metas[i, DIRECTION]
        lane = metas[i, ROW] if d == 0 else metas[i, COL]
        if not changed[d, lane]:
            top = i
            break
    # Plays of the changed lanes worth less than the best of the others, or than the floor
    # when that best is not known, cannot be the answer: their anchors need no search.
    least = vals[top] if top >= 0 and vals[top] > floor else floor
    meta, out, val, count = top_on_lanes(pk, state, lms, wms, values, rack, rack_size, bingo,
                                         join, changed, PAIR, leaves, radix, size, least)
    best = -np.inf
    ties = 0
    row = -1
    for q in range(count):
        if val[q] > best:
            best, ties, row = val[q], 1, q
        elif val[q] == best:
            ties += 1
    if top < 0 or vals[top] <= floor:
        # no play of the lanes not changed is above the floor
        if ties and best > floor:
            meta[0] = meta[row]
            out[0] = out[row]
            val[0] = val[row]
            return meta, out, val, 1, ties
        if n_tops < TOPS and top < 0:  # the tops are every play: none on those lanes
            if ties:
                meta[0] = meta[row]
                out[0] = out[row]
                val[0] = val[row]
            return meta, out, val, min(ties, 1), ties
        return meta, out, val, 0, 2
    v = vals[top]
    if v > best:
        ties = 0
        for i in range(top, n_tops):
            if vals[i] < v:
                break
            d = metas[i, DIRECTION]
            if not changed[d, metas[i, ROW] if d == 0 else metas[i, COL]]:
                ties += 1
        meta[0] = metas[top]
        out[0] = outs[top]
        val[0] = v
        return meta, out, val, 1, ties
    if v == best:
        return meta, out, val, 1, 2
    meta[0] = meta[row]
    out[0] = out[row]
    val[0] = val[row]
    return meta, out, val, 1, ties


__all__ = ["PAIR", "TOPS", "best_from_lanes", "board_state", "board_tops", "changed_lanes",
           "top_on_lanes"]
