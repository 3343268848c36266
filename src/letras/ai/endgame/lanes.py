"""Compiled plays along chosen lanes, with cross-sets kept up to date play by play: the move
generator's own lane search (:mod:`letras.movegen._kernels`) driven from the compiled endgame
search (:mod:`letras.ai.endgame.core`).

The move generator works out every square's cross-set afresh on each call; over a search the
board changes by one play at a time, and a play changes the cross-sets of a few squares only
(the empty squares at both ends of each run of tiles through a new tile, across it). So the
search keeps the cross-sets, the cross scores and whether a square has cross words, both ways,
and after each play works out again only those squares (:func:`refresh`), saving the old
values on an undo list (:func:`undo`). The plays along a lane are then found by the
generator's own compiled lane search, in its order.

This module is the one place the endgame reaches into the generator's private kernels
(``_lane_setup``, ``_dfs``, and ``cross_square``, the cross-set of one square, on the packed
graph of :func:`letras.movegen.packed`); if they change, this is what to follow.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from letras.movegen import _kernels as k
from letras.movegen._views import unowned
from letras.movegen.columns import COLUMNS


@njit(cache=True)
def refresh(
    pk: Any, grid: Any, size: int, values: Any, nletters: int, r: int, c: int,
    sets: Any, scores: Any, has: Any, direction: int, undo: Any, n_undo: int,
) -> int:  # pragma: no cover - compiled
    """After a tile is laid on (``r``, ``c``) of ``grid``: work the cross-sets out again for
    the empty squares just above and below the run of tiles through it (along the column),
    in the ``direction`` rows of ``sets``, ``scores``, ``has`` (``grid`` is the board for
    direction 0, its transpose for 1), saving the old values on ``undo`` (rows of direction,
    square, set, score, has) from row ``n_undo``; the new count of rows."""
    up = r
    while up > 0 and grid[(up - 1) * size + c] != 0:
        up -= 1
    down = r
    while down < size - 1 and grid[(down + 1) * size + c] != 0:
        down += 1
    for rr in (up - 1, down + 1):
        if rr < 0 or rr >= size:
            continue
        s = rr * size + c
        undo[n_undo, 0] = direction
        undo[n_undo, 1] = s
        undo[n_undo, 2] = np.int64(sets[direction, s])
        undo[n_undo, 3] = scores[direction, s]
        undo[n_undo, 4] = has[direction, s]
        n_undo += 1
        (sets[direction, s], scores[direction, s],
         has[direction, s]) = k.cross_square(pk, grid, size, values, nletters, rr, c)
    return n_undo


@njit(cache=True)
def undo_to(sets: Any, scores: Any, has: Any, undo: Any, n_undo: int,
            down_to: int) -> None:  # pragma: no cover - compiled
    """Put back the cross-sets saved on ``undo`` from row ``n_undo - 1`` down to
    ``down_to`` (``sets``, ``scores``, ``has``: both directions, ``(2, squares)``)."""
    for j in range(n_undo - 1, down_to - 1, -1):
        d = undo[j, 0]
        s = undo[j, 1]
        sets[d, s] = np.uint64(undo[j, 2])
        scores[d, s] = undo[j, 3]
        has[d, s] = undo[j, 4] != 0


@njit(cache=True)
def all_cross(pk: Any, board: Any, tboard: Any, size: int, values: Any,
              nletters: int) -> tuple[Any, Any, Any]:  # pragma: no cover - compiled
    """The cross-sets, cross scores and cross flags of every square, both ways (across from
    ``board``, down from its transpose ``tboard``), as ``(2, squares)`` arrays."""
    n = size * size
    sets = np.zeros((2, n), np.uint64)
    scores = np.zeros((2, n), np.int32)
    has = np.zeros((2, n), np.bool_)
    for d in range(2):
        s, sc, h = k.cross_sets(pk, board if d == 0 else tboard, size, values, nletters)
        sets[d] = s
        scores[d] = sc
        has[d] = h
    return sets, scores, has


@njit(cache=True)
def lane_plays(
    pk: Any, board: Any, tboard: Any, size: int, sets: Any, scores: Any,
    has: Any, letter: Any, word: Any, tletter: Any, tword: Any, values: Any, counts: Any,
    rack_size: int, bingo: int, join_words: bool, lanes: int, meta: Any, out: Any, val: Any,
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """:func:`lane_plays_in` with its setup made for this call."""
    setup = lane_setup(size)
    return lane_plays_in(pk, board, tboard, size, sets, scores, has, letter, word, tletter,
                         tword, values, counts, rack_size, bingo, join_words, lanes, meta,
                         out, val, setup)


RACK_MAX = 64
"""The most tiles a rack may hold for :func:`lane_setup`'s arrays."""


@njit(cache=True)
def lane_setup(size: int) -> tuple[Any, ...]:  # pragma: no cover - compiled
    """The arrays :func:`lane_plays_in` fills for each rack, as the move generator's
    ``search_setup`` makes them, made once for many calls (the largest sizes), and the
    empty word map ``_dfs`` is handed."""
    bm0, bm1, _, bm3, bm4 = k.no_bingo_map()
    return (np.zeros((2 * size + 2, k.FIELDS), np.int64), np.zeros(2 * size + 2, np.uint64),
            np.zeros(2 * size + 2, np.uint64), np.zeros(size, np.uint8),
            np.zeros(size, np.bool_), np.zeros(size, np.uint64), np.zeros(RACK_MAX, np.int64),
            np.zeros(RACK_MAX, np.int64), np.zeros(RACK_MAX, np.int64),
            np.zeros((RACK_MAX + 1) * (RACK_MAX + 1), np.float64),
            np.zeros((2, size), np.int64), np.zeros((2, size + 1, 6), np.int64),
            np.zeros(size, np.int64), np.zeros((5, size), np.int64),
            np.zeros(RACK_MAX + 2, np.float64), np.zeros(1, np.float64),
            np.zeros(64, np.int64), bm0, bm1, bm3, bm4)


@njit(cache=True)
def lane_plays_in(
    pk: Any, board: Any, tboard: Any, size: int, sets: Any, scores: Any,
    has: Any, letter: Any, word: Any, tletter: Any, tword: Any, values: Any, counts: Any,
    rack_size: int, bingo: int, join_words: bool, lanes: int, meta: Any, out: Any, val: Any,
    setup: Any,
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """The plays of the rack ``counts`` (per tile code, 0 = blanks) along the lanes set in
    ``lanes`` (bit ``row`` across, ``size + column`` down), in the move generator's order,
    into ``meta``, ``out`` (grown as needed; returned) from row 0; and their count. The board
    must not be empty.

    ``setup``: :func:`lane_setup`'s arrays (``rack`` above 64 tiles is not taken).

    Numba counts the references of each of the generator's lane search's (``_dfs``) ~30
    array arguments, with atomic operations, on entry to each call (one per anchor): measured,
    a third of this function's time (``bench/README.md``, "``_dfs`` without replacing its
    arrays"). So it is handed views without an owner (:mod:`letras.movegen._views`), whose
    counts cost nothing: of the arguments (their caller keeps them) and of the arrays made
    here (kept alive to the end: see ``alive``). When they are full, ``_dfs`` says so and
    they are grown here: a grown copy of ``meta``, ``out`` or ``val`` is owned as usual, and
    returned instead."""
    count = 0
    u = unowned
    m_view, o_view, v_view = u(meta), u(out), u(val)
    (frames, todo, lists, cur, anchor, playable, rv_all, codes_all, rem_all, leave_all, sides,
     opts, coefs, shadow, caps_all, table, radix, bm0, bm1, bm3, bm4) = setup
    no_map = (bm0, bm1, 0, bm3, bm4)
    # the rack's part of the generator's search_setup (without leaves), into `setup`
    rv_all[0] = 0
    rack_mask, rack_total, n_codes = k.rack_setup(counts, values, rv_all, codes_all)
    rv = rv_all[: max(rack_total, 1)]
    codes = codes_all[:n_codes]
    rem = rem_all[: max(rack_total, 1)]
    rem[:] = 0
    leave_by_placed = leave_all[: (counts[0] + 1) * (rack_total + 1)]
    leave_by_placed[:] = 0
    caps = caps_all[: counts[0] + 2]
    caps[:] = 0
    frames[:] = 0
    todo[:] = 0
    lists[:] = 0
    cur[:] = 0
    anchor[:] = False
    playable[:] = 0
    sides[:] = 0
    opts[:] = 0
    coefs[:] = 0
    shadow[:] = 0
    pk_u, values_u, counts_u = u(pk), u(values), u(counts)
    has_u, scores_u = u(has), u(scores)
    frames_u, todo_u, lists_u, cur_u = u(frames), u(todo), u(lists), u(cur)
    anchor_u, playable_u, table_u, radix_u = u(anchor), u(playable), u(table), u(radix)
    codes_u, rem_u, leave_u = u(codes), u(rem), u(leave_by_placed)
    sides_u, opts_u, coefs_u = u(sides), u(opts), u(coefs)
    rv_u, shadow_u, caps_u = u(rv), u(shadow), u(caps)
    centre = (size // 2) * size + size // 2
    for bit in range(2 * size):
        if not (lanes >> bit) & 1:
            continue
        direction = 0 if bit < size else 1
        row = bit if bit < size else bit - size
        grid = u(board) if direction == 0 else u(tboard)
        lm = u(letter) if direction == 0 else u(tletter)
        wm = u(word) if direction == 0 else u(tword)
        base = row * size
        k._lane_setup(grid, row, size, False, centre, sets[direction], rack_mask, anchor,
                      playable)
        for a in range(size):
            if not anchor[a] or playable[a] == 0:
                continue
            got = k.FULL
            while got == k.FULL:
                got = k._dfs(
                    pk_u, grid[base: base + size], base, row, direction, a, size, anchor_u,
                    playable_u, has_u[direction], scores_u[direction], lm, wm, values_u,
                    counts_u, rack_size, bingo, join_words, 0, frames_u, todo_u, lists_u,
                    cur_u, m_view, o_view, v_view, count, False, table_u, radix_u, codes_u,
                    leave_u, rem_u, sides_u, opts_u, coefs_u, rv_u, shadow_u, caps_u, False,
                    no_map,
                )
                if got == k.FULL:  # grown: owned copies
                    m_view, o_view, v_view = k._grow(m_view, o_view, v_view)
            count = got
    # the arrays made here stay alive until the views of them are no longer used
    alive = (frames.size + todo.size + lists.size + cur.size + anchor.size + playable.size
             + table.size + radix.size + codes.size + rem.size + leave_by_placed.size
             + sides.size + opts.size + coefs.size + rv.size + shadow.size + caps.size
             + bm0.size + bm1.size + bm3.size + bm4.size)
    if alive < 0 or m_view.shape[0] != meta.shape[0]:
        return m_view, o_view, v_view, count  # grown: owned copies
    return meta, out, val, count


def scratch(size: int, rows: int = 1024) -> tuple[Any, Any, Any]:
    """Arrays for :func:`lane_plays` to write into."""
    return (np.zeros((rows, COLUMNS), np.int32), np.zeros((rows, size), np.uint8),
            np.zeros(rows, np.float64))


__all__ = ["all_cross", "lane_plays", "lane_plays_in", "lane_setup", "refresh", "scratch",
           "undo_to"]
