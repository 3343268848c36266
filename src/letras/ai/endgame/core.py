"""The compiled core of the two-player endgame search: negamax with alpha-beta pruning
(principal variation search), a transposition table in preallocated arrays, move ordering and
the incremental plays, all in one compiled loop over an explicit stack. Python sets the
position up and decodes the answer (:mod:`letras.ai.endgame.compiled`); the search itself, the
same as :class:`letras.ai.endgame.search.Search`, is told in this package's ``README.md``.

The state of the search, flat:

- the board and its transpose (``uint8``), with the cross-sets both ways kept up to date
  (:mod:`letras.ai.endgame.lanes`), two 64-bit Zobrist hashes of the board;
- racks as bit sets (:class:`~letras.ai.endgame.plays.RackBits`: a rack holding ``k`` tiles
  of a code sets the first ``k`` bits of that code's run);
- an arena of plays: the plays of the node at ply ``p`` are in *slot* ``p + 1`` (slot 0: the
  other side's plays on the root board), made from slot ``p - 1`` (the same side two plies
  up) along the lanes unchanged since, merged with the plays generated along the changed
  lanes; each slot's move order beside it;
- the table: buckets of two entries (the deeper kept, the other always replaced), keyed by
  both hashes of board, racks and the counts of passes and scoreless turns in a row.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit, objmode

# (numba caches this module's code with the code of the functions it calls compiled in, and
# knows of no change to them: a change to one of them must change this file too, or this
# module's cached code keeps the old one; last: the lane search's arrays made once an
# iteration, 2026-12-03)
from letras.ai.endgame.lanes import lane_plays_in, lane_setup, refresh, undo_to
from letras.ai.endgame.plays import (
    _ply_value,
    best_at_horizon,
    best_kept,
    lanes_of,
)
from letras.movegen import _kernels as k
from letras.movegen._views import unowned
from letras.movegen.columns import ACROSS, COL, DIRECTION, LAID, LENGTH, ROW, SCORE

COMPLETE = 1 << 30
"""The depth of a table entry whose subtree never reached the horizon."""
EXACT, LOWER, UPPER = 0, 1, 2
PASS = -1
NO_MOVE = -2
INF = 1 << 40
ORDER_BITS = 24
ORDER_MASK = (1 << ORDER_BITS) - 1

# the fields of the integer parameters
P_SIZE, P_NLETTERS, P_RACK_SIZE, P_BINGO, P_JOIN, P_PASS_END, P_SCORELESS_END, P_NO_PLAY_ENDS = (
    range(8))
# the fields of the result
R_VALUE, R_COMPLETE, R_STOPPED, R_NODES, R_BEST, R_GENERATED = range(6)


@njit(cache=True, inline="always")
def _count(bits: Any) -> Any:  # pragma: no cover - compiled
    return np.int64(k._popcount(np.uint64(bits)))


@njit(cache=True)
def _value(bits: Any, bit_value: Any) -> Any:  # pragma: no cover - compiled
    total = np.int64(0)
    b = np.uint64(bits)
    while b:
        i = np.int64(k.trailing_zeros(b))
        b &= b - np.uint64(1)
        total += bit_value[i]
    return total


@njit(cache=True)
def _canon(bits: Any, seg_off: Any, seg_mask: Any) -> Any:  # pragma: no cover - compiled
    """The rack of the tiles in ``bits`` in its own form: each code's first bits set."""
    out = np.int64(0)
    for s in range(seg_off.shape[0]):
        c = _count(bits & seg_mask[s])
        out |= ((np.int64(1) << c) - 1) << seg_off[s]
    return out


@njit(cache=True)
def _rack_hash(bits: Any, table: Any, h0: int, role: int) -> Any:  # pragma: no cover
    h = np.uint64(0)
    b = np.uint64(bits)
    while b:
        i = np.int64(k.trailing_zeros(b))
        b &= b - np.uint64(1)
        h ^= table[h0, role, i]
    return h


@njit(cache=True, inline="always")
def _horizon(rack_value: Any, rack_size: Any, other_value: Any,
             other_size: Any) -> Any:  # pragma: no cover - compiled
    """:func:`letras.ai.endgame.position.horizon_value`, for the compiled code."""
    return (2 * other_size * other_value - 2 * rack_size * rack_value) // (rack_size + other_size)


@njit(cache=True)
def _sig(meta: Any, tiles: Any, i: int, size: int, zb: Any) -> Any:  # pragma: no cover
    """A play's own hash: its tiles on their squares."""
    step = 1 if meta[i, DIRECTION] == ACROSS else size
    sq = meta[i, ROW] * size + meta[i, COL]
    h = np.uint64(meta[i, DIRECTION] + 1)
    for j in range(meta[i, LENGTH]):
        t = tiles[i, j]
        if t:
            h ^= zb[0, sq * 256 + t]
        sq += step
    return h


@njit(cache=True)
def _delta(meta: Any, tiles: Any, i: int, size: int,
           zb: Any) -> tuple[Any, Any]:  # pragma: no cover - compiled
    """The change of both board hashes that play ``i`` makes (as :func:`_make` works it out)."""
    step = 1 if meta[i, DIRECTION] == ACROSS else size
    sq = meta[i, ROW] * size + meta[i, COL]
    z1 = np.uint64(0)
    z2 = np.uint64(0)
    for j in range(meta[i, LENGTH]):
        t = tiles[i, j]
        if t:
            z1 ^= zb[0, sq * 256 + t]
            z2 ^= zb[1, sq * 256 + t]
        sq += step
    return z1, z2


@njit(cache=True)
def _known(tt: Any, k1: Any, k2: Any, depth: int, alpha: Any,
           beta: Any) -> tuple[bool, Any, bool, bool]:  # pragma: no cover - compiled
    """What entering the node of key (``k1``, ``k2``) with ``depth`` plies and the window
    (``alpha``, ``beta``) would answer from the table alone, without making its move:
    whether it would, its value, whether that is complete, whether the entry is exact."""
    row = _probe(tt, k1, k2)
    if row < 0:
        return False, np.int64(0), False, False
    edepth, kind, evalue = tt[3][row], tt[4][row], tt[2][row]
    if edepth >= depth and (kind == EXACT or (kind == LOWER and evalue >= beta)
                            or (kind == UPPER and evalue <= alpha)):
        return True, evalue, edepth == COMPLETE, kind == EXACT
    return False, np.int64(0), False, False


@njit(cache=True)
def _shortcut(tt: Any, k1: Any, k2: Any, depth: int, score: Any, alpha: Any, beta: Any,
              first: bool) -> tuple[Any, bool, int]:  # pragma: no cover - compiled
    """A move's value (``score`` less its child's) when the child, of key (``k1``, ``k2``),
    would answer from the table at once, and the search at this node would take it as it is
    (no search again after a null window): the value, whether it is complete, and the
    positions the search would have counted (1, or 2 with the search again; 0: not known)."""
    if first:
        ok, ev, comp, _ = _known(tt, k1, k2, depth, score - beta, score - alpha)
        return score - ev, comp, 1 if ok else 0
    ok, ev, comp, exact = _known(tt, k1, k2, depth, score - alpha - 1, score - alpha)
    if not ok:
        return np.int64(0), False, 0
    v = score - ev
    if alpha < v < beta:
        if not exact:
            return np.int64(0), False, 0
        return v, comp, 2
    return v, comp, 1


@njit(cache=True)
def _order(meta: Any, laid: Any, s0: int, n: int, rack_size: int, rack_value: int,
           opp_size: int, opp_value: int, keys: Any) -> None:  # pragma: no cover - compiled
    """The order of :func:`~letras.ai.endgame.plays.play_order` of the plays in rows ``s0``
    to ``s0 + n``, without allocating: ``keys[s0 + j] & ORDER_MASK`` is the ``j``-th play's
    index (its key above those bits, the index below: the same order, ties by index)."""
    for i in range(n):
        r = s0 + i
        if opp_size:
            v, _ = _ply_value(np.int64(meta[r, SCORE]), rack_size - np.int64(meta[r, LAID]),
                              rack_value - laid[r], opp_size, opp_value, False)
        else:
            v = np.int64(meta[r, SCORE])
        key = -(v + (1 << 20)) if meta[r, LAID] == rack_size else -v
        keys[r] = ((key + (1 << 30)) << ORDER_BITS) | i
    if n <= 32:
        for i in range(s0 + 1, s0 + n):
            x = keys[i]
            j = i - 1
            while j >= s0 and keys[j] > x:
                keys[j + 1] = keys[j]
                j -= 1
            keys[j + 1] = x
    else:
        keys[s0: s0 + n].sort()


@njit(cache=True)
def _grow(arena: Any, need: int) -> Any:  # pragma: no cover - compiled
    meta, tiles, lane, used, laid, plane, seq, cand = arena
    cap = meta.shape[0]
    if need <= cap:
        return arena
    new = max(need, 2 * cap)
    m2 = np.zeros((new, meta.shape[1]), np.int32)
    m2[:cap] = meta
    t2 = np.zeros((new, tiles.shape[1]), np.uint8)
    t2[:cap] = tiles
    out = [lane, used, laid, plane, cand]
    grown = []
    for a in out:
        a2 = np.zeros(new, np.int64)
        a2[:cap] = a
        grown.append(a2)
    s2 = np.zeros(new + seq.shape[0] - cap, np.int64)
    s2[: seq.shape[0]] = seq
    return m2, t2, grown[0], grown[1], grown[2], grown[3], s2, grown[4]


@njit(cache=True, inline="always")
def _views(arena: Any) -> Any:  # pragma: no cover - compiled
    """The arena's arrays as views without an owner (the arena itself stays alive in the
    search's own variable, which is used to its end)."""
    meta, tiles, lane, used, laid, plane, seq, cand = arena
    u = unowned
    return u(meta), u(tiles), u(lane), u(used), u(laid), u(plane), u(seq), u(cand)


@njit(cache=True)
def _setup_views(setup: Any) -> Any:  # pragma: no cover - compiled
    """:func:`~letras.ai.endgame.lanes.lane_setup`'s arrays as views without an owner (the
    caller keeps the arrays alive)."""
    u = unowned
    (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
     a19, a20) = setup
    return (u(a0), u(a1), u(a2), u(a3), u(a4), u(a5), u(a6), u(a7), u(a8), u(a9), u(a10),
            u(a11), u(a12), u(a13), u(a14), u(a15), u(a16), u(a17), u(a18), u(a19), u(a20))


@njit(cache=True)
def _build(
    g: Any, board: Any, tboard: Any, sets: Any, scores: Any, has: Any, p_int: Any,
    bit_code: Any, code_off: Any, laid_values: Any, arena: Any, scratch: Any, setup: Any,
    top: int, src: int, n_src: int, src_rack: int, changed: int, rack: int,
) -> tuple[Any, Any, int]:  # pragma: no cover - compiled
    """The plays of ``rack`` on the board now, written into the arena from row ``top``: the
    plays of the source (rows ``src`` to ``src + n_src``, of the rack ``src_rack``) kept
    along the lanes not in ``changed`` whose tiles the rack holds, merged lane by lane with
    the plays generated along the changed lanes. Returns the arena (perhaps grown), the
    scratch arrays and the count."""
    pk, letter, word, tletter, tword, values = g
    size = p_int[P_SIZE]
    counts = np.zeros(64, np.int64)
    b = np.uint64(rack)
    while b:
        counts[bit_code[np.int64(k.trailing_zeros(b))]] += 1
        b &= b - np.uint64(1)
    smeta, sout, sval = scratch
    n_new = 0
    if changed:
        smeta, sout, sval, n_new = lane_plays_in(
            pk, board, tboard, size, sets, scores, has, letter, word, tletter,
            tword, values, counts, p_int[P_RACK_SIZE], p_int[P_BINGO], p_int[P_JOIN] != 0,
            changed, smeta, sout, sval, setup)
    arena = _grow(arena, top + n_src + n_new + 1)
    meta, tiles, lane, used, laid = arena[0], arena[1], arena[2], arena[3], arena[4]
    outside = src_rack & ~rack
    taken = np.zeros(64, np.int64)
    i = src
    end = src + n_src
    j = 0
    out = top
    new_lane = np.int64(0)
    if n_new:
        new_lane = (smeta[0, ROW] if smeta[0, DIRECTION] == ACROSS
                    else size + smeta[0, COL])
    while True:
        while i < end and ((changed >> lane[i]) & 1 or used[i] & outside):
            i += 1
        if i >= end and j >= n_new:
            break
        if j >= n_new or (i < end and lane[i] < new_lane):
            for q in range(meta.shape[1]):
                meta[out, q] = meta[i, q]
            for q in range(size):
                tiles[out, q] = tiles[i, q]
            lane[out] = lane[i]
            used[out] = used[i]
            laid[out] = laid[i]
            i += 1
        else:
            for q in range(meta.shape[1]):
                meta[out, q] = smeta[j, q]
            for q in range(size):
                tiles[out, q] = sout[j, q]
            lane[out] = new_lane
            taken[:] = 0
            bits = np.int64(0)
            total = np.int64(0)
            for q in range(smeta[j, LENGTH]):
                t = sout[j, q]
                if t == 0:
                    continue
                code = 0 if t & 0x80 else np.int64(t)
                bits |= np.int64(1) << (code_off[code] + taken[code])
                taken[code] += 1
                total += laid_values[t]
            used[out] = bits
            laid[out] = total
            j += 1
            if j < n_new:
                new_lane = (smeta[j, ROW] if smeta[j, DIRECTION] == ACROSS
                            else size + smeta[j, COL])
        out += 1
    return arena, (smeta, sout, sval), out - top


@njit(cache=True)
def _candidates(meta: Any, lane: Any, used: Any, s0: int, s1: int, changed: int,
                outside: int, only_out: bool, rack_size: int, cand: Any) -> int:  # pragma: no cover
    """The plays of rows ``s0`` to ``s1`` that :func:`~letras.ai.endgame.plays.best_kept`
    would keep (lane not in ``changed``, no tile in ``outside``; with ``only_out``, those
    that go out), their rows into ``cand`` from row ``s0``; their count."""
    n = 0
    for i in range(s0, s1):
        if (changed >> lane[i]) & 1 or used[i] & outside or (
                only_out and meta[i, LAID] != rack_size):
            continue
        cand[s0 + n] = i
        n += 1
    return n


@njit(cache=True)
def _reply_bound(
    meta: Any, lane: Any, laid: Any, cand: Any, c0: int, nc: int, lanes: int, opp_size: int,
    opp_value: int, kept: int, kept_value: int, stop: bool, horizon: bool,
    no_play_ends: bool, pass_end: int,
) -> tuple[bool, Any, bool]:  # pragma: no cover - compiled
    """What :func:`~letras.ai.endgame.plays.child_bounds` tells of one play (whether it is
    known, the bound, whether its move ends the game), from the candidates
    :func:`_candidates` picked (``nc`` rows of ``cand`` from ``c0``) less those along the
    play's ``lanes``."""
    best = np.int64(-1)
    found = False
    terminal = False
    for q in range(c0, c0 + nc):
        i = cand[q]
        if (lanes >> lane[i]) & 1:
            continue
        value, ends = _ply_value(np.int64(meta[i, SCORE]), opp_size - np.int64(meta[i, LAID]),
                                 opp_value - laid[i], kept, kept_value, stop)
        if not found or value > best:
            best = value
            found = True
            terminal = ends
    if not found and (no_play_ends or not horizon):
        return False, best, False
    if not horizon:
        return True, best, True
    if (pass_end and pass_end <= 1) or stop:
        pass_value = np.int64(kept_value - opp_value)
        pass_ends = True
    else:
        pass_value = -np.int64((2 * opp_size * opp_value - 2 * kept * kept_value)
                               // (kept + opp_size))
        pass_ends = False
    if not found or pass_value > best:
        best, terminal = pass_value, pass_ends
    return True, best, terminal


@njit(cache=True)
def _cache_find(cache: Any, ck1: Any, ck2: Any) -> tuple[int, int]:  # pragma: no cover
    """Where the cache of plays keeps the plays of the key: their first row and count, or
    count -1 if it does not keep them."""
    ck1s, ck2s, cstart, ccount, cmeta, wabs = cache[0], cache[1], cache[2], cache[3], \
        cache[4], cache[9]
    ci = np.int64(ck1 & np.uint64(ck1s.shape[0] - 1))
    cap = cmeta.shape[0]
    if ck1s[ci] != ck1 or ck2s[ci] != ck2 or cstart[ci] < wabs[0] - cap:
        return 0, -1
    return cstart[ci] % cap, ccount[ci]


@njit(cache=True)
def _cache_copy(cache: Any, meta: Any, tiles: Any, lane: Any, used: Any, laid: Any, top: int,
                c0: int, n: int) -> None:  # pragma: no cover - compiled
    """Copy ``n`` plays of the cache of plays from its row ``c0`` into the arena's rows
    from ``top`` (the arena holds them: the caller made sure)."""
    cmeta, ctiles, clane, cused, claid = cache[4], cache[5], cache[6], cache[7], cache[8]
    meta[top: top + n] = cmeta[c0: c0 + n]
    tiles[top: top + n] = ctiles[c0: c0 + n]
    lane[top: top + n] = clane[c0: c0 + n]
    used[top: top + n] = cused[c0: c0 + n]
    laid[top: top + n] = claid[c0: c0 + n]


@njit(cache=True)
def _cache_get(cache: Any, arena: Any, top: int, ck1: Any,
               ck2: Any) -> tuple[Any, int]:  # pragma: no cover - compiled
    """The plays kept in the cache of plays for the key, copied into the arena from row
    ``top``: the arena (perhaps grown) and their count, or -1 if not kept."""
    c0, n = _cache_find(cache, ck1, ck2)
    if n < 0:
        return arena, -1
    arena = _grow(arena, top + n + 1)
    _cache_copy(cache, arena[0], arena[1], arena[2], arena[3], arena[4], top, c0, n)
    return arena, n


@njit(cache=True)
def _cache_put(cache: Any, meta: Any, tiles: Any, lane: Any, used: Any, laid: Any, top: int,
               n: int, ck1: Any, ck2: Any) -> None:  # pragma: no cover - compiled
    """Keep the arena's rows ``top`` to ``top + n`` in the cache of plays (a ring: the
    oldest plays make room)."""
    ck1s, ck2s, cstart, ccount, cmeta, ctiles, clane, cused, claid, wabs = cache
    cap = cmeta.shape[0]
    if n > cap // 4:
        return
    start = wabs[0]
    if start % cap + n > cap:
        start += cap - start % cap
    c0 = start % cap
    cmeta[c0: c0 + n] = meta[top: top + n]
    ctiles[c0: c0 + n] = tiles[top: top + n]
    clane[c0: c0 + n] = lane[top: top + n]
    cused[c0: c0 + n] = used[top: top + n]
    claid[c0: c0 + n] = laid[top: top + n]
    wabs[0] = start + n
    ci = np.int64(ck1 & np.uint64(ck1s.shape[0] - 1))
    ck1s[ci] = ck1
    ck2s[ci] = ck2
    cstart[ci] = start
    ccount[ci] = n


@njit(cache=True)
def _store(tt: Any, k1: Any, k2: Any, depth: int, kind: int, value: Any, move: int,
           sig: Any) -> None:  # pragma: no cover - compiled
    tk1, tk2, tval, tdep, tkind, tmove, tsig = tt
    i0 = np.int64(k1 & np.uint64(tk1.shape[0] - 1)) & ~np.int64(1)
    i1 = i0 + 1
    if tk1[i0] == k1 and tk2[i0] == k2:
        slot = i0
    elif tk1[i1] == k1 and tk2[i1] == k2:
        slot = i1
    elif depth >= tdep[i0]:
        tk1[i1], tk2[i1], tval[i1], tdep[i1] = tk1[i0], tk2[i0], tval[i0], tdep[i0]
        tkind[i1], tmove[i1], tsig[i1] = tkind[i0], tmove[i0], tsig[i0]
        slot = i0
    else:
        slot = i1
    tk1[slot] = k1
    tk2[slot] = k2
    tval[slot] = value
    tdep[slot] = depth
    tkind[slot] = kind
    tmove[slot] = move
    tsig[slot] = sig


@njit(cache=True)
def _probe(tt: Any, k1: Any, k2: Any) -> Any:  # pragma: no cover - compiled
    """The table's row for the key, or -1."""
    tk1, tk2, tdep = tt[0], tt[1], tt[3]
    i0 = np.int64(k1 & np.uint64(tk1.shape[0] - 1)) & ~np.int64(1)
    if tk1[i0] == k1 and tk2[i0] == k2 and tdep[i0] > 0:
        return i0
    if tk1[i0 + 1] == k1 and tk2[i0 + 1] == k2 and tdep[i0 + 1] > 0:
        return i0 + 1
    return -1


@njit(cache=True)
def _make(g: Any, board: Any, tboard: Any, sets: Any, scores: Any, has: Any, size: int,
          nletters: int, meta: Any, tiles: Any, i: int, zb: Any, undo: Any,
          n_undo: int) -> tuple[Any, Any, int]:  # pragma: no cover - compiled
    """Lay play ``i``: its tiles on both boards, the cross-sets worked out again where they
    change (old values onto ``undo``). Returns the change of both board hashes and the new
    count of undo rows."""
    pk, values = g[0], g[5]
    step = 1 if meta[i, DIRECTION] == ACROSS else size
    r0, c0 = meta[i, ROW], meta[i, COL]
    length = meta[i, LENGTH]
    z1 = np.uint64(0)
    z2 = np.uint64(0)
    sq = r0 * size + c0
    for j in range(length):
        t = tiles[i, j]
        if t:
            board[sq] = t
            r, c = sq // size, sq % size
            tboard[c * size + r] = t
            z1 ^= zb[0, sq * 256 + t]
            z2 ^= zb[1, sq * 256 + t]
        sq += step
    sq = r0 * size + c0
    for j in range(length):
        if tiles[i, j]:
            r, c = sq // size, sq % size
            n_undo = refresh(pk, board, size, values, nletters, r, c, sets,
                             scores, has, 0, undo, n_undo)
            n_undo = refresh(pk, tboard, size, values, nletters, c, r, sets,
                             scores, has, 1, undo, n_undo)
        sq += step
    return z1, z2, n_undo


@njit(cache=True)
def _unmake(board: Any, tboard: Any, sets: Any, scores: Any, has: Any, size: int, meta: Any,
            tiles: Any, i: int, undo: Any, n_undo: int,
            down_to: int) -> None:  # pragma: no cover - compiled
    undo_to(sets, scores, has, undo, n_undo, down_to)
    step = 1 if meta[i, DIRECTION] == ACROSS else size
    sq = meta[i, ROW] * size + meta[i, COL]
    for j in range(meta[i, LENGTH]):
        if tiles[i, j]:
            board[sq] = 0
            tboard[(sq % size) * size + sq // size] = 0
        sq += step


@njit(cache=True)
def full_plays(g: Any, board: Any, tboard: Any, sets: Any, scores: Any, has: Any,
               p_int: Any, bit_code: Any, code_off: Any, laid_values: Any, arena: Any,
               scratch: Any, setup: Any, rack: int) -> tuple[Any, Any, int]:  # pragma: no cover
    """Every play of ``rack`` on the board, into the arena from row 0."""
    size = p_int[P_SIZE]
    return _build(g, board, tboard, sets, scores, has, p_int, bit_code, code_off,
                  laid_values, arena, scratch, setup, 0, 0, 0, 0,
                  (np.int64(1) << (2 * size)) - 1, rack)


@njit(cache=True)
def search(
    g: Any, board: Any, tboard: Any, sets: Any, scores: Any, has: Any, p_int: Any,
    bit_code: Any, bit_value: Any, code_off: Any, seg_off: Any, seg_mask: Any,
    laid_values: Any, zb: Any, zr: Any, zc: Any, tt: Any, arena: Any, scratch: Any,
    cache: Any, me0: int, opp0: int, passes0: int, scoreless0: int, depth0: int, max_ply: int,
    nodes0: int, work: int, deadline: float, enforce: bool,
) -> tuple[Any, Any, Any]:  # pragma: no cover - compiled
    """One iteration of the deepening from the root (racks ``me0``, ``opp0``) to
    ``depth0`` plies. Returns the result fields (``R_*``), the arena and the scratch arrays
    (perhaps grown). ``work`` below 0: no bound on positions; ``deadline`` on
    ``time.perf_counter``; the limits are only enforced with ``enforce``."""
    size = p_int[P_SIZE]
    nletters = p_int[P_NLETTERS]
    pass_end = p_int[P_PASS_END]
    scoreless_end = p_int[P_SCORELESS_END]
    no_play_ends = p_int[P_NO_PLAY_ENDS] != 0
    result = np.zeros(6, np.int64)
    # the arrays the caller holds, as views without an owner: numba counts no references
    # to them in the loop's calls (see the package's README, "What it costs")
    u = unowned
    g = (u(g[0]), u(g[1]), u(g[2]), u(g[3]), u(g[4]), u(g[5]))
    board, tboard, sets, scores, has = u(board), u(tboard), u(sets), u(scores), u(has)
    p_int, bit_code, bit_value, code_off = u(p_int), u(bit_code), u(bit_value), u(code_off)
    seg_off, seg_mask, laid_values = u(seg_off), u(seg_mask), u(laid_values)
    zb, zr, zc = u(zb), u(zr), u(zc)
    tt = (u(tt[0]), u(tt[1]), u(tt[2]), u(tt[3]), u(tt[4]), u(tt[5]), u(tt[6]))
    cache = (u(cache[0]), u(cache[1]), u(cache[2]), u(cache[3]), u(cache[4]), u(cache[5]),
             u(cache[6]), u(cache[7]), u(cache[8]), u(cache[9]))
    # the lane search's arrays, made once an iteration (views: see above)
    setup_owned = lane_setup(size)
    setup = _setup_views(setup_owned)
    z1 = np.uint64(0)
    z2 = np.uint64(0)
    for s in range(size * size):
        if board[s]:
            z1 ^= zb[0, s * 256 + board[s]]
            z2 ^= zb[1, s * 256 + board[s]]
    # slot 0: the other side's plays on the root board; slot 1: the root's
    L_start = np.zeros(max_ply + 3, np.int64)
    L_count = np.zeros(max_ply + 3, np.int64)
    L_rack = np.zeros(max_ply + 3, np.int64)
    # (from the cache of plays when an earlier iteration, or search, made them)
    generated = 0
    ck1 = z1 ^ _rack_hash(opp0, zr, 0, 0)
    ck2 = z2 ^ _rack_hash(opp0, zr, 1, 0)
    arena, n0 = _cache_get(cache, arena, 0, ck1, ck2)
    if n0 < 0:
        arena, scratch, n0 = full_plays(g, board, tboard, sets, scores, has, p_int, bit_code,
                                        code_off, laid_values, arena, scratch, setup, opp0)
        generated += 1
        _cache_put(cache, arena[0], arena[1], arena[2], arena[3], arena[4], 0, n0, ck1, ck2)
    L_count[0], L_rack[0] = n0, opp0
    ck1 = z1 ^ _rack_hash(me0, zr, 0, 0)
    ck2 = z2 ^ _rack_hash(me0, zr, 1, 0)
    arena, n1 = _cache_get(cache, arena, n0, ck1, ck2)
    if n1 < 0:
        arena, scratch, n1 = _build(g, board, tboard, sets, scores, has, p_int, bit_code,
                                    code_off, laid_values, arena, scratch, setup, n0, 0, 0, 0,
                                    (np.int64(1) << (2 * size)) - 1, me0)
        generated += 1
        _cache_put(cache, arena[0], arena[1], arena[2], arena[3], arena[4], n0, n1,
                   ck1, ck2)
    L_start[1], L_count[1], L_rack[1] = n0, n1, me0
    undo_owned = np.zeros((max_ply * 4 * 2 * size + 8, 5), np.int64)
    undo = unowned(undo_owned)
    n_undo = 0
    # the frames
    f_me = np.zeros(max_ply + 1, np.int64)
    f_opp = np.zeros(max_ply + 1, np.int64)
    f_pas = np.zeros(max_ply + 1, np.int64)
    f_sl = np.zeros(max_ply + 1, np.int64)
    f_dep = np.zeros(max_ply + 1, np.int64)
    f_alpha = np.zeros(max_ply + 1, np.int64)
    f_beta = np.zeros(max_ply + 1, np.int64)
    f_a0 = np.zeros(max_ply + 1, np.int64)
    f_best = np.zeros(max_ply + 1, np.int64)
    f_bi = np.zeros(max_ply + 1, np.int64)
    f_comp = np.zeros(max_ply + 1, np.bool_)
    f_first = np.zeros(max_ply + 1, np.bool_)
    f_k = np.zeros(max_ply + 1, np.int64)
    f_n = np.zeros(max_ply + 1, np.int64)
    f_chg = np.zeros(max_ply + 1, np.int64)
    f_last = np.zeros(max_ply + 1, np.int64)
    f_k1 = np.zeros(max_ply + 1, np.uint64)
    f_k2 = np.zeros(max_ply + 1, np.uint64)
    f_mv = np.zeros(max_ply + 1, np.int64)
    f_score = np.zeros(max_ply + 1, np.int64)
    f_phase = np.zeros(max_ply + 1, np.int64)
    f_undo = np.zeros(max_ply + 1, np.int64)
    f_z1 = np.zeros(max_ply + 1, np.uint64)
    f_z2 = np.zeros(max_ply + 1, np.uint64)
    f_mev = np.zeros(max_ply + 1, np.int64)
    f_oev = np.zeros(max_ply + 1, np.int64)
    f_nc = np.zeros(max_ply + 1, np.int64)

    f_me[0], f_opp[0], f_pas[0], f_sl[0], f_dep[0] = me0, opp0, passes0, scoreless0, depth0
    f_alpha[0], f_beta[0] = -INF, INF
    nodes = nodes0
    next_check = nodes0
    p = 0
    state = 0  # 0: enter the node at ply p; 1: its next move; 2: return (rv, rc) from ply p
    rv = np.int64(0)
    rc = False
    stopped = False
    root_best = np.int64(NO_MOVE)
    meta, tiles, lane, used, laid, plane, seq, cand = _views(arena)
    tval, tdep, tkind, tmove, tsig = tt[2], tt[3], tt[4], tt[5], tt[6]
    while True:
        if state == 0:
            nodes += 1
            if enforce:
                if work >= 0 and nodes > work:
                    stopped = True
                    break
                if nodes >= next_check and deadline < np.inf:
                    next_check = nodes + 256
                    with objmode(now="float64"):
                        now = time.perf_counter()
                    if now > deadline:
                        stopped = True
                        break
            me, opp = f_me[p], f_opp[p]
            passes, sl = f_pas[p], f_sl[p]
            depth = f_dep[p]
            alpha, beta = f_alpha[p], f_beta[p]
            slk = sl if scoreless_end else 0
            k1 = (z1 ^ _rack_hash(me, zr, 0, 0) ^ _rack_hash(opp, zr, 0, 1)
                  ^ zc[0, 0, passes] ^ zc[0, 1, slk])
            k2 = (z2 ^ _rack_hash(me, zr, 1, 0) ^ _rack_hash(opp, zr, 1, 1)
                  ^ zc[1, 0, passes] ^ zc[1, 1, slk])
            f_k1[p], f_k2[p] = k1, k2
            row = _probe(tt, k1, k2)
            hint = NO_MOVE
            hint_sig = np.uint64(0)
            if row >= 0:
                edepth, kind, evalue = tdep[row], tkind[row], tval[row]
                hint, hint_sig = tmove[row], tsig[row]
                if edepth >= depth and (
                        kind == EXACT or (kind == LOWER and evalue >= beta)
                        or (kind == UPPER and evalue <= alpha)):
                    rv, rc = evalue, edepth == COMPLETE
                    if p == 0:
                        root_best = np.int64(hint)
                    state = 2
                    continue
            mev, oev = _value(me, bit_value), _value(opp, bit_value)
            nme, nop = _count(me), _count(opp)
            f_mev[p], f_oev[p] = mev, oev
            if depth == 0:
                rv, rc = _horizon(mev, nme, oev, nop), False
                state = 2
                continue
            stop = scoreless_end > 0 and sl + 1 >= scoreless_end
            if (pass_end and passes + 1 >= pass_end) or stop:
                pass_v, pass_ends = oev - mev, True
            else:
                pass_v, pass_ends = -_horizon(oev, nop, mev, nme), False
            if depth == 1 and p >= 1:
                # one ply above the horizon: a play kept from two plies up, or the pass,
                # may reach beta before any play is generated
                src = p - 1
                s0 = L_start[src]
                s1 = s0 + L_count[src]
                best, bi, comp = best_kept(meta[s0:s1], lane[s0:s1], used[s0:s1],
                                           laid[s0:s1], f_chg[p], L_rack[src] & ~me, nme,
                                           mev, nop, oev, stop, False)
                if not (bi < 0 and no_play_ends):
                    move = NO_MOVE
                    if bi < 0 or pass_v > best:
                        best, comp, move = pass_v, pass_ends, PASS
                    if best >= beta:
                        _store(tt, k1, k2, COMPLETE if comp else 1, LOWER, best, move,
                               np.uint64(0))
                        rv, rc = best, comp
                        state = 2
                        continue
            slot = p + 1
            if p > 0:
                top = L_start[slot - 1] + L_count[slot - 1]
                ck1 = z1 ^ _rack_hash(me, zr, 0, 0)
                ck2 = z2 ^ _rack_hash(me, zr, 1, 0)
                c0, n = _cache_find(cache, ck1, ck2)
                if n >= 0:
                    if top + n + 1 > meta.shape[0]:
                        arena = _grow(arena, top + n + 1)
                        meta, tiles, lane, used, laid, plane, seq, cand = _views(arena)
                    _cache_copy(cache, meta, tiles, lane, used, laid, top, c0, n)
                else:
                    arena, scratch, n = _build(g, board, tboard, sets, scores, has, p_int,
                                               bit_code, code_off, laid_values, arena,
                                               scratch, setup, top, L_start[slot - 2],
                                               L_count[slot - 2], L_rack[slot - 2],
                                               f_chg[p], me)
                    generated += 1
                    meta, tiles, lane, used, laid, plane, seq, cand = _views(arena)
                    _cache_put(cache, meta, tiles, lane, used, laid, top, n, ck1, ck2)
                L_start[slot], L_count[slot], L_rack[slot] = top, n, me
            n = L_count[slot]
            s0 = L_start[slot]
            s1 = s0 + n
            if n == 0 and no_play_ends:
                if p == 0:
                    n_opp = L_count[0]
                else:
                    arena, scratch, n_opp = _build(
                        g, board, tboard, sets, scores, has, p_int, bit_code, code_off,
                        laid_values, arena, scratch, setup, s1, L_start[slot - 1],
                        L_count[slot - 1], L_rack[slot - 1], f_last[p], opp)
                    generated += 1
                    meta, tiles, lane, used, laid, plane, seq, cand = _views(arena)
                if n_opp == 0:
                    rv, rc = oev - mev, True
                    state = 2
                    continue
            if depth == 1:
                best, bi, comp = -INF, PASS, True
                if n:
                    best, bi, comp = best_at_horizon(meta[s0:s1], laid[s0:s1], nme, mev,
                                                     nop, oev, stop)
                    bi += s0
                if not pass_ends:
                    comp = False
                if pass_v > best:
                    best, bi = pass_v, PASS
                sig = np.uint64(0) if bi < 0 else _sig(meta, tiles, bi, size, zb)
                rel = bi - s0 if bi >= 0 else bi
                if p == 0:
                    root_best = np.int64(rel)
                _store(tt, k1, k2, COMPLETE if comp else 1, EXACT, best, rel, sig)
                rv, rc = best, comp
                state = 2
                continue
            # expand: the move order, the table's move first, the pass last
            q0 = s0 + slot
            # the move order (play_order's), sorted in place in the slot's rows of `plane`
            # (each play's lanes are worked out there later, when it is tried)
            _order(meta, laid, s0, n, nme, mev, nop, oev, plane)
            h = -3
            if hint == PASS:
                h = PASS
            elif 0 <= hint < n and _sig(meta, tiles, s0 + hint, size, zb) == hint_sig:
                h = hint
            q = q0
            if h != -3:
                seq[q] = h
                q += 1
            for j in range(n):
                oj = plane[s0 + j] & ORDER_MASK
                if oj != h:
                    seq[q] = oj
                    q += 1
            if h != PASS:
                seq[q] = PASS
                q += 1
            # the other side's plays two plies up that may bound each move's reply
            f_nc[p] = _candidates(meta, lane, used, L_start[p], L_start[p] + L_count[p],
                                  f_last[p], L_rack[p] & ~opp, depth > 2, nop, cand)
            f_n[p] = q - q0
            f_k[p] = 0
            f_a0[p] = alpha
            f_best[p] = -INF
            f_bi[p] = PASS
            f_comp[p] = True
            f_first[p] = True
            state = 1
            continue

        if state == 1:
            slot = p + 1
            if f_k[p] >= f_n[p] or f_alpha[p] >= f_beta[p]:
                best = f_best[p]
                kind = (UPPER if best <= f_a0[p] else LOWER if best >= f_beta[p] else EXACT)
                bi = f_bi[p]
                sig = (np.uint64(0) if bi < 0
                       else _sig(meta, tiles, L_start[slot] + bi, size, zb))
                _store(tt, f_k1[p], f_k2[p], COMPLETE if f_comp[p] else f_dep[p], kind,
                       best, bi, sig)
                if p == 0:
                    root_best = bi
                rv, rc = best, f_comp[p]
                state = 2
                continue
            i = seq[L_start[slot] + slot + f_k[p]]
            f_k[p] += 1
            f_mv[p] = i
            me, opp = f_me[p], f_opp[p]
            mev, oev = f_mev[p], f_oev[p]
            alpha, beta = f_alpha[p], f_beta[p]
            if i == PASS:
                np_, ns = f_pas[p] + 1, f_sl[p] + 1
                if (pass_end and np_ >= pass_end) or (scoreless_end and ns >= scoreless_end):
                    v, cv = oev - mev, True
                else:
                    slk = ns if scoreless_end else 0
                    v, cv, ok = _shortcut(
                        tt, z1 ^ _rack_hash(opp, zr, 0, 0) ^ _rack_hash(me, zr, 0, 1)
                        ^ zc[0, 0, np_] ^ zc[0, 1, slk],
                        z2 ^ _rack_hash(opp, zr, 1, 0) ^ _rack_hash(me, zr, 1, 1)
                        ^ zc[1, 0, np_] ^ zc[1, 1, slk],
                        f_dep[p] - 1, np.int64(0), alpha, beta, f_first[p])
                    if ok:
                        nodes += ok
                        if enforce and 0 <= work < nodes:
                            stopped = True
                            break
                    else:
                        f_score[p] = 0
                        c_me, c_opp, c_pas, c_sl = opp, me, np_, ns
                        c_chg, c_last = f_last[p], np.int64(0)
                        v = -INF - 1
            else:
                row = L_start[slot] + i
                score = np.int64(meta[row, SCORE])
                leave = _canon(me & ~used[row], seg_off, seg_mask)
                if leave == 0:
                    v, cv = score + 2 * oev, True
                else:
                    ns = 0 if score else f_sl[p] + 1
                    v = -INF - 1
                    if scoreless_end and ns >= scoreless_end:
                        v, cv = score + oev - _value(leave, bit_value), True
                    else:
                        # what the reply is worth at least, from the other side's plays two
                        # plies up: a move its reply already refutes is not made
                        turns = ns
                        stop_r = scoreless_end > 0 and turns + 1 >= scoreless_end
                        plane[row] = lanes_of(meta, tiles, row, board, size)
                        known, bound, ends = _reply_bound(
                            meta, lane, laid, cand, L_start[p], f_nc[p], plane[row],
                            _count(opp), oev, _count(leave), _value(leave, bit_value),
                            stop_r, f_dep[p] == 2, no_play_ends, pass_end)
                        if known and score - bound <= alpha:
                            nodes += 1
                            v, cv = score - bound, ends
                        else:
                            # the child's entry in the table, read without making the move
                            d1, d2 = _delta(meta, tiles, row, size, zb)
                            slk = ns if scoreless_end else 0
                            v, cv, ok = _shortcut(
                                tt, z1 ^ d1 ^ _rack_hash(opp, zr, 0, 0)
                                ^ _rack_hash(leave, zr, 0, 1) ^ zc[0, 0, 0] ^ zc[0, 1, slk],
                                z2 ^ d2 ^ _rack_hash(opp, zr, 1, 0)
                                ^ _rack_hash(leave, zr, 1, 1) ^ zc[1, 0, 0] ^ zc[1, 1, slk],
                                f_dep[p] - 1, score, alpha, beta, f_first[p])
                            if ok:
                                nodes += ok
                                if enforce and 0 <= work < nodes:
                                    stopped = True
                                    break
                            else:
                                v = -INF - 1
                    if v == -INF - 1:
                        f_score[p] = score
                        f_undo[p] = n_undo
                        f_z1[p], f_z2[p] = z1, z2
                        d1, d2, n_undo = _make(g, board, tboard, sets, scores, has, size,
                                               nletters, meta, tiles, row, zb, undo, n_undo)
                        z1 ^= d1
                        z2 ^= d2
                        c_me, c_opp, c_pas, c_sl = opp, leave, 0, ns
                        c_chg, c_last = f_last[p] | plane[row], plane[row]
            if v > -INF - 1:
                # a move that ends the game, or one its reply refutes: no child
                f_first[p] = False
                f_comp[p] = f_comp[p] and cv
                if v > f_best[p]:
                    f_best[p], f_bi[p] = v, i
                    if v > f_alpha[p]:
                        f_alpha[p] = v
                continue
            score = f_score[p]
            ch = p + 1
            f_me[ch], f_opp[ch], f_pas[ch], f_sl[ch] = c_me, c_opp, c_pas, c_sl
            f_dep[ch] = f_dep[p] - 1
            f_chg[ch], f_last[ch] = c_chg, c_last
            if f_first[p]:
                f_alpha[ch], f_beta[ch] = score - beta, score - alpha
                f_phase[p] = 0
            else:
                f_alpha[ch], f_beta[ch] = score - alpha - 1, score - alpha
                f_phase[p] = 1
            p = ch
            state = 0
            continue

        # state 2: return (rv, rc) from the node at ply p
        if p == 0:
            break
        p -= 1
        slot = p + 1
        i = f_mv[p]
        if i >= 0:
            row = L_start[slot] + i
            _unmake(board, tboard, sets, scores, has, size, meta, tiles, row, undo, n_undo,
                    f_undo[p])
            n_undo = f_undo[p]
            z1, z2 = f_z1[p], f_z2[p]
        v = f_score[p] - rv
        alpha, beta = f_alpha[p], f_beta[p]
        if f_phase[p] == 1 and alpha < v < beta:
            # the null window failed high: search again with the whole window
            f_phase[p] = 2
            if i >= 0:
                row = L_start[slot] + i
                f_undo[p] = n_undo
                d1, d2, n_undo = _make(g, board, tboard, sets, scores, has, size, nletters,
                                       meta, tiles, row, zb, undo, n_undo)
                z1 ^= d1
                z2 ^= d2
            # (the child's frame still holds its racks, counts and lanes)
            ch = p + 1
            f_alpha[ch], f_beta[ch] = f_score[p] - beta, f_score[p] - alpha
            p = ch
            state = 0
            continue
        f_first[p] = False
        f_comp[p] = f_comp[p] and rc
        if v > f_best[p]:
            f_best[p], f_bi[p] = v, i
            if v > alpha:
                f_alpha[p] = v
        state = 1

    result[R_VALUE] = rv
    result[R_COMPLETE] = rc
    result[R_STOPPED] = stopped
    result[R_NODES] = nodes
    result[R_GENERATED] = generated
    # no move known: neither side can play, and the pass is all there is
    result[R_BEST] = root_best if root_best >= PASS else PASS
    if undo_owned.shape[0] < 0 or setup_owned[0].shape[0] < 0:
        # (keeps the arrays of the views ``undo`` and ``setup`` alive to here)
        result[R_BEST] = NO_MOVE
    return result, arena, scratch


__all__ = ["COMPLETE", "EXACT", "INF", "LOWER", "NO_MOVE", "PASS", "UPPER", "search"]
