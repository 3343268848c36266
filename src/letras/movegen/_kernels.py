"""Compiled move generation over the GADDAG (Gordon 1994), on flat arrays with an explicit stack.

The board is generated one line (a "lane") at a time, across lanes from the board and down lanes
from its transpose. For each lane: the tiles on it, the cross-set of each empty square (bit t set
when tile t makes a valid word with the tiles above and below), the face value of those tiles
(the cross score), whether there are any (``has_cross``), and the premiums. Plays are scored as
they are generated and written into arrays that grow as needed.

The search reads the graph as :func:`packed_graph` lays it out: its arc lists in breadth-first
order from the roots, and beside each node's word the set of tiles of the arc list it points to
(one bit per tile code), in the same 8 bytes while the edition's tile codes are below 32. One
read of a node gives what the next step needs: whether a word ends there, where its list
starts, and the tiles of that list. A list's child for a tile is
then found at once, by counting the set bits below it, and a square is only entered when some
child fits it: its cross-set, and the rack's tiles (all letters while a blank is left).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros
from numba.extending import intrinsic

from letras.movegen._kept import _grow as _grow  # the lane searches grow their arrays with it
from letras.movegen._kept import _weakest as _weakest  # the sim's lane search uses it here
from letras.movegen._kept import _with_mirrors
from letras.movegen._mapped import _map_bingos, map_setup
from letras.movegen._spanwords import can_beat_any, no_spans, span_setup
from letras.movegen._views import prefetch, unowned
from letras.movegen._wordkeys import long_bingo
from letras.movegen.columns import COL, COLUMNS, DIRECTION, LAID, LENGTH, ROW, SCORE
from letras.movegen.layout import breadth_first
from letras.movegen.leaves import index_of_counts, kept_count
from letras.movegen.wordmap import MAX_BLANKS

TILE_MASK = 0x3F
ACCEPTS = 0x80
IS_END = 0x40
ARC_SHIFT = 8
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
# The fields of a search frame: the square, the side of the anchor (0 left, 1 right), the
# GADDAG arc list tried there, whether a blank is tried next for the current tile, the leftmost
# square so far, the main word's letter sum and multiplier, the cross words' total, the tiles
# placed so far, the rack tile the current choice took (-1 for none), and a bound on the
# plays that go on from a blank on the square (UNKNOWN until a blank is tried there). The
# tiles still to try there are a bit set beside the frames. The last fields are not reset
# when a frame starts: the last bound made on a state after a blank on this frame's square
# (the state: its squares, the leave and the score so far; see :func:`_state_bound`).
POS = 0
PHASE = 1
LIST = 2
VARIANT = 3
LEFT = 4
MAIN = 5
MULT = 6
CROSS = 7
PLACED = 8
TAKEN = 9
BLANK_BOUND = 10
KEY_SQUARES = 11
KEY_LEAVE = 12
KEY_MAIN = 13
KEY_MULT = 14
KEY_CROSS = 15
KEY_BOUND = 16
FIELDS = 17
UNKNOWN = 1 << 62
KEY_LIMIT = 1 << 20
"""The scores and multipliers of a state kept with its bound are below this (they are,
on any board of the game: else the bound is made again)."""
PRUNE_DEPTH = 2
"""A partial play is bounded (for the best few plays) only while it goes left, has at most
this many tiles and a blank is left: elsewhere the bound costs more time than it saves."""
FULL = -1
"""What :func:`_dfs` returns when the arrays it writes plays into have no row left."""
ONE = np.uint64(1)
trailing_zeros: Any = _trailing_zeros  # an LLVM intrinsic, untyped for mypy


LOW = np.uint64(0xFFFFFFFF)


@njit(cache=True)
def packed_graph(nodes: Any, wide: bool) -> Any:  # pragma: no cover - compiled
    """The word graph as the search reads it: its arc lists laid out breadth first from the
    roots (:func:`letras.movegen.layout.breadth_first`: the lists near the roots, read by
    every search, together in a few pages), then packed (:func:`pack`)."""
    return pack(breadth_first(nodes), wide)


@njit(cache=True)
def pack(nodes: Any, wide: bool) -> Any:  # pragma: no cover - compiled
    """The word graph ``nodes`` packed in its own node order: for every node, its word (tile,
    flags, arc) and the tiles of the arc list it points to (bit t for tile t), so that one
    read of a node gives all the next step needs. With 64 tile codes or fewer below 32 (not
    ``wide``) both fit one ``uint64`` (the word low, the tiles high), a row of ``(n, 1)``;
    else a row of ``(n, 2)``."""
    n = len(nodes)
    tail = np.zeros(n, np.uint64)  # the tiles of a node's arc list from that node on
    for p in range(n - 1, 1, -1):
        node = nodes[p]
        bit = ONE << np.uint64(node & np.uint32(TILE_MASK))
        if node & np.uint32(IS_END) or p == n - 1:
            tail[p] = bit
        else:
            tail[p] = bit | tail[p + 1]
    packed = np.zeros((n, 2 if wide else 1), np.uint64)
    for p in range(n):
        node = nodes[p]
        below = tail[np.int64(node >> np.uint32(ARC_SHIFT))]
        if wide:
            packed[p, 0] = np.uint64(node)
            packed[p, 1] = below
        else:
            packed[p, 0] = np.uint64(node) | (below << np.uint64(32))
    return packed


@njit(cache=True, inline="always")
def _word(pk: Any, q: Any) -> Any:  # pragma: no cover - compiled
    """Node ``q``'s word: its tile, flags and arc, as in the graph's ``nodes``."""
    return pk[q, 0] & LOW


@njit(cache=True, inline="always")
def _next(pk: Any, q: Any) -> Any:  # pragma: no cover - compiled
    """The first node of the arc list node ``q`` points to (0 for none)."""
    return np.int64((pk[q, 0] & LOW) >> np.uint64(ARC_SHIFT))


@njit(cache=True, inline="always")
def _below(pk: Any, q: Any) -> Any:  # pragma: no cover - compiled
    """The tiles of the arc list node ``q`` points to, as bits."""
    if pk.shape[1] == 2:
        return pk[q, 1]
    return pk[q, 0] >> np.uint64(32)


@njit(cache=True, inline="always")
def _at(p: Any, tiles: Any, tile: Any) -> Any:  # pragma: no cover - compiled
    """The node for ``tile`` in the arc list starting at ``p`` whose tiles are ``tiles``."""
    return np.int64(p + np.int64(_popcount(tiles & ((ONE << np.uint64(tile)) - ONE))))


def _popcount_intrinsic(typingctx: Any, x: Any) -> Any:  # pragma: no cover - compiled
    """The number of set bits of an unsigned 64-bit integer (one machine instruction)."""
    if x != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


_popcount: Any = intrinsic(_popcount_intrinsic)


@njit(cache=True, inline="always")
def cross_square(
    pk: Any, board: Any, size: int, values: Any, nletters: int, r: int, c: int,
) -> tuple[Any, Any, bool]:  # pragma: no cover - compiled
    """For plays along rows of ``board`` (flat, row-major): the cross-set of the empty square
    (``r``, ``c``) from the column through it, the face value of that column's tiles next to
    it, and whether there are any. ``pk`` is the word graph as :func:`packed_graph` makes
    it."""
    up = r
    while up > 0 and board[(up - 1) * size + c] != 0:
        up -= 1
    down = r
    while down < size - 1 and board[(down + 1) * size + c] != 0:
        down += 1
    if up == r and down == r:
        return ALL, np.int32(0), False
    total = 0
    for rr in range(up, down + 1):
        if rr != r:
            t = board[rr * size + c]
            if not t & 0x80:
                total += values[t & TILE_MASK]
    # walk the DAWG through the tiles above, then try each letter and the tiles below
    p = _next(pk, 0)
    tiles = _below(pk, 0)
    for rr in range(up, r):
        t = np.int64(board[rr * size + c] & TILE_MASK)
        if not (tiles >> np.uint64(t)) & ONE:
            return np.uint64(0), np.int32(total), True
        q = _at(p, tiles, t)
        p = _next(pk, q)
        tiles = _below(pk, q)
    letters = ((ONE << np.uint64(nletters + 1)) - ONE) ^ ONE
    todo = tiles & letters
    mask = np.uint64(0)
    while todo:
        t = np.int64(trailing_zeros(todo))
        todo &= todo - ONE
        q = _at(p, tiles, t)
        for rr in range(r + 1, down + 1):
            want = np.int64(board[rr * size + c] & TILE_MASK)
            below = _below(pk, q)
            if not (below >> np.uint64(want)) & ONE:
                q = -1
                break
            q = _at(_next(pk, q), below, want)
        if q >= 0 and _word(pk, q) & np.uint64(ACCEPTS):
            mask |= ONE << np.uint64(t)
    return mask, np.int32(total), True


@njit(cache=True)
def cross_sets(
    pk: Any, board: Any, size: int, values: Any, nletters: int
) -> tuple[Any, Any, Any]:  # pragma: no cover - compiled
    """:func:`cross_square` of every empty square of ``board``: the cross-sets, the cross
    scores and whether each square has any tiles next to it along the column."""
    n = size * size
    sets = np.zeros(n, np.uint64)
    scores = np.zeros(n, np.int32)
    has = np.zeros(n, np.bool_)
    for r in range(size):
        for c in range(size):
            s = r * size + c
            if board[s] == 0:
                sets[s], scores[s], has[s] = cross_square(pk, board, size, values, nletters,
                                                          r, c)
    return sets, scores, has

@njit(cache=True, inline="always")
def _push(
    frames: Any, d: int, pos: Any, phase: int, first: Any, left: Any, main: Any, mult: Any,
    cross: Any, placed: Any,
) -> None:  # pragma: no cover - compiled
    """Start frame ``d``: square ``pos``, trying the arc list that starts at node ``first``."""
    frames[d, POS] = pos
    frames[d, PHASE] = phase
    frames[d, LIST] = first
    frames[d, VARIANT] = 0
    frames[d, LEFT] = left
    frames[d, MAIN] = main
    frames[d, MULT] = mult
    frames[d, CROSS] = cross
    frames[d, PLACED] = placed
    frames[d, TAKEN] = -1
    frames[d, BLANK_BOUND] = UNKNOWN


@njit(cache=True, inline="always")
def _fits(
    tiles: Any, lane: Any, pos: Any, playable: Any, have: Any, blanks: bool
) -> Any:  # pragma: no cover - compiled
    """Which of an arc list's ``tiles`` can go on square ``pos`` now: the board's tile there,
    or the letters its cross-set allows that the rack has (any, with a blank)."""
    if lane[pos] != 0:
        return tiles & (ONE << np.uint64(lane[pos] & TILE_MASK))
    fits = tiles & playable[pos] & ~ONE
    return fits if blanks else fits & have


@njit(cache=True, inline="always")
def _insert(values: Any, n: int, v: Any) -> None:  # pragma: no cover - compiled
    """Put ``v`` into the first ``n`` of ``values``, kept highest first."""
    k = n
    while k > 0 and values[k - 1] < v:
        values[k] = values[k - 1]
        k -= 1
    values[k] = v

@njit(cache=True)
def _lane_setup(
    grid: Any, row: int, size: int, empty: bool, centre: int, sets: Any, rack_mask: Any,
    anchor: Any, playable: Any,
) -> None:  # pragma: no cover - compiled
    """Mark the lane's anchors and the letters the rack can lay on each of its squares."""
    base = row * size
    for i in range(size):
        anchor[i] = False
        playable[i] = ALL
        if grid[base + i] != 0:
            continue
        playable[i] = sets[base + i] & rack_mask
        if empty:
            anchor[i] = base + i == centre
        else:
            anchor[i] = (
                (i > 0 and grid[base + i - 1] != 0)
                or (i < size - 1 and grid[base + i + 1] != 0)
                or (row > 0 and grid[base - size + i] != 0)
                or (row < size - 1 and grid[base + size + i] != 0)
            )


@njit(cache=True)
def _shadow(
    lane: Any, base: int, a: int, size: int, anchor: Any, playable: Any, has: Any,
    cscores: Any, lm: Any, wm: Any, values: Any, rv: Any, rack: Any, rack_total: int,
    rack_size: int, bingo: int, leave_by_placed: Any, direct: bool, long_table: Any,
    map_keys: Any, rack_key: Any, nletters: int, seen: Any, answers: Any, scratch: Any,
    used: int = 0, spans: Any = None,
) -> float:  # pragma: no cover - compiled
    """An upper bound on the value of any play from anchor ``a``: for every span the play
    could cover, the smaller of two bounds that ignore which words the tiles make (the rack's
    most valuable tiles on the squares that multiply them most, and each square's most
    valuable rack tile that its cross-set allows), plus the best leave of a play of that many
    tiles (``leave_by_placed``, zeros when plays are ranked by score), and the bingo bonus
    where the whole rack goes down. With ``direct``, the bingos that take in at most one
    board tile are not searched (:func:`_map_bingos` lays them): their spans are left out;
    through more board tiles, the bonus counts only if the map's longer words allow it
    (:func:`letras.movegen._wordkeys.long_bingo`, ``rack_key`` the key of the rack's tiles but
    blanks; ``seen`` and ``answers`` its answers so far). With ``used`` above 0, a bound on
    the plays that lay at least that many blanks: their leaves keep fewer. ``scratch`` is
    ``(5, size)`` of space to work in (every entry read is written first).

    With ``spans`` (:func:`letras.movegen._spanwords.span_setup`'s), every span is also
    written down (its tiles laid, board tiles, their key and its bound) for
    :func:`letras.movegen._spanwords.can_beat_any` to ask later."""
    if spans is not None:
        rec = spans[8]
        rec_bound = spans[9]
        rec_count = spans[10]
    lmv = scratch[0]
    hv = scratch[1]
    mv = scratch[2]
    coefs = scratch[3]
    tops = scratch[4]
    reach = a
    while reach > 0 and (lane[reach - 1] != 0 or (
            not anchor[reach - 1] and playable[reach - 1] != 0)):
        reach -= 1
    letters = np.uint64(0)  # the letters of the rack's tiles but blanks
    for t in range(1, 64):
        if rack[t] > 0:
            letters |= ONE << np.uint64(t)
    for i in range(reach, size):  # each empty square's most valuable rack tile that fits
        if lane[i] == 0:
            top = 0
            fits = playable[i] & letters
            while fits:
                code = np.int64(trailing_zeros(fits))
                fits &= fits - ONE
                top = max(top, values[code])
            tops[i] = top
    best = -np.inf
    for left in range(a, reach - 1, -1):
        if left > 0 and lane[left - 1] != 0:
            continue
        mult = 1
        through = 0
        const = 0
        n = 0
        n_through = 0
        through_key = np.uint64(0)
        for i in range(left, size):
            s = base + i
            if lane[i] != 0:
                n_through += 1
                through_key += map_keys[lane[i] & TILE_MASK]
                if not lane[i] & 0x80:
                    through += values[lane[i] & TILE_MASK]
            else:
                if playable[i] == 0 or n == rack_total:
                    break
                mult *= wm[s]
                lmv[n] = lm[s]
                hv[n] = lm[s] * wm[s] if has[s] else 0
                mv[n] = tops[i]
                if has[s]:
                    const += cscores[s] * wm[s]
                n += 1
            if i < a or n == 0 or (i + 1 < size and lane[i + 1] != 0):
                continue
            for j in range(n):
                _insert(coefs, j, lmv[j] * mult + hv[j])
            bound = through * mult + const
            square_bound = bound
            for j in range(n):
                bound += coefs[j] * rv[j]
                square_bound += (lmv[j] * mult + hv[j]) * mv[j]
            bound = min(bound, square_bound)
            if n == rack_size:
                if direct and n_through <= 1:
                    continue
                if not direct or long_bingo(long_table, map_keys, rack_key, rack[0],
                                            through_key, n + n_through, nletters, seen,
                                            answers):
                    bound += bingo
            bound += leave_by_placed[used * (rack_total + 1) + n]
            if spans is not None and bound > -np.inf:
                at = rec_count[0]
                if at < len(rec):
                    rec[at, 0] = n
                    rec[at, 1] = n_through
                    rec[at, 2] = np.int64(through_key)
                    rec_bound[at] = bound
                rec_count[0] = at + 1
            if bound > best:
                best = bound
    return best


@njit(cache=True)
def _sides(
    lane: Any, base: int, start: int, step: int, size: int, playable: Any, has: Any,
    cscores: Any, lm: Any, wm: Any, values: Any, n_rem: int, squares: Any, opts: Any,
    map_keys: Any,
) -> int:  # pragma: no cover - compiled
    """The places a partial play could stop on one side, walking from square ``start`` by
    ``step`` (-1 left, +1 right): for each, a row of ``opts`` with the empty squares it covers
    (the first ones of ``squares``), their word multiplier, the face value of the board's tiles
    it takes in, its cross words' fixed part, how many board tiles it takes in and the sum of
    their ``map_keys`` (the bits of a ``uint64``). Returns how many rows."""
    n_opts = 0
    k = 0
    w = 1
    through = 0
    const = 0
    n_through = 0
    through_key = np.uint64(0)
    if start < 0 or start >= size or lane[start] == 0:
        # not extending is a place to stop
        opts[0, 0] = 0
        opts[0, 1] = 1
        opts[0, 2] = 0
        opts[0, 3] = 0
        opts[0, 4] = 0
        opts[0, 5] = 0
        n_opts = 1
    i = start
    while 0 <= i < size:
        if lane[i] != 0:
            n_through += 1
            through_key += map_keys[lane[i] & TILE_MASK]
            if not lane[i] & 0x80:
                through += values[lane[i] & TILE_MASK]
        else:
            if k == n_rem or playable[i] == 0:
                break
            sq = base + i
            squares[k] = sq
            w *= wm[sq]
            if has[sq]:
                const += cscores[sq] * wm[sq]
            k += 1
        nxt = i + step
        if nxt < 0 or nxt >= size or lane[nxt] == 0:
            opts[n_opts, 0] = k
            opts[n_opts, 1] = w
            opts[n_opts, 2] = through
            opts[n_opts, 3] = const
            opts[n_opts, 4] = n_through
            opts[n_opts, 5] = np.int64(through_key)
            n_opts += 1
        i = nxt
    return n_opts


@njit(cache=True)
def _bound(
    lane: Any, base: int, lo: int, hi: int, size: int, playable: Any,
    has: Any, cscores: Any, lm: Any, wm: Any, values: Any, rack: Any, codes: Any, main: Any,
    mult: Any, cross: Any, placed: Any, rack_size: int, bingo: int, leave_by_placed: Any,
    rem: Any, left: Any, right: Any, left_opts: Any, right_opts: Any, coefs: Any,
    direct: bool, bingo_map: Any, rack_key: Any, blanks: int, left_open: bool,
) -> float:  # pragma: no cover - compiled
    """An upper bound on the score of any play that extends a partial play covering squares
    ``lo``..``hi`` of the lane (``main``, ``mult``, ``cross``, ``placed`` as in a search frame;
    ``rack`` the tiles left, whose codes are among ``codes``), leftwards or rightwards: for
    every pair of places it could stop, the rack's most valuable tiles on the squares that
    multiply them most, ignoring which words they make, plus the best leave of a play of that
    many tiles, and the bingo bonus (``direct`` as in :func:`_shadow`; ``bingo_map`` its
    ``long_table``, ``map_keys``, ``nletters``, ``seen`` and ``answers``; ``rack_key`` and
    ``blanks`` those of the whole rack); the leave is the best of those that keep no more
    blanks than ``rack`` has left. Without ``left_open`` the play goes on rightwards only.
    ``rem`` to ``coefs`` are scratch space."""
    n_rem = 0
    for code in codes:
        for _ in range(rack[code]):
            _insert(rem, n_rem, values[code] if code > 0 else 0)
            n_rem += 1
    long_table, map_keys, nletters, seen, answers = bingo_map
    if left_open:
        n_left = _sides(lane, base, lo - 1, -1, size, playable, has, cscores, lm, wm, values,
                        n_rem, left, left_opts, map_keys)
    else:  # the play goes on rightwards only
        n_left = _sides(lane, base, -1, -1, size, playable, has, cscores, lm, wm, values,
                        n_rem, left, left_opts, map_keys)
    n_right = _sides(lane, base, hi + 1, 1, size, playable, has, cscores, lm, wm, values,
                     n_rem, right, right_opts, map_keys)
    # the best leaves of the plays that keep no more blanks than are left
    row = len(leave_by_placed) // (blanks + 1)
    used = blanks - rack[0]
    n_through = 0  # the board tiles the partial play takes in
    through_key = np.uint64(0)
    for i in range(lo, hi + 1):
        if lane[i] != 0:
            n_through += 1
            through_key += map_keys[lane[i] & TILE_MASK]
    best = -np.inf
    for x in range(n_left):
        kl = left_opts[x, 0]
        for y in range(n_right):
            kr = right_opts[y, 0]
            if kl + kr > n_rem:
                break
            w = mult * left_opts[x, 1] * right_opts[y, 1]
            m = 0
            for j in range(kl + kr):
                sq = left[j] if j < kl else right[j - kl]
                _insert(coefs, m, lm[sq] * w + (lm[sq] * wm[sq] if has[sq] else 0))
                m += 1
            bound = (main + left_opts[x, 2] + right_opts[y, 2]) * w + cross + (
                left_opts[x, 3] + right_opts[y, 3])
            for j in range(m):
                bound += coefs[j] * rem[j]
            if placed + m == rack_size:
                taken_in = n_through + left_opts[x, 4] + right_opts[y, 4]
                if direct and taken_in <= 1:
                    continue
                if not direct or long_bingo(
                        long_table, map_keys, rack_key, blanks,
                        through_key + np.uint64(left_opts[x, 5]) + np.uint64(right_opts[y, 5]),
                        rack_size + taken_in, nletters, seen, answers):
                    bound += bingo
            bound += leave_by_placed[used * row + placed + m]
            if bound > best:
                best = bound
    return best


@njit(cache=True)
def no_bingo_map() -> tuple[Any, Any, int, Any, Any]:  # pragma: no cover - compiled
    """A ``bingo_map`` for :func:`_dfs` with no word map (its set of long words' keys empty):
    the searches that keep every play (the endgame's, the sim's lanes) pass it."""
    return (np.zeros(16, np.uint64), np.zeros(64 + 17 * 4, np.uint64), 0,
            np.zeros(16, np.uint64), np.zeros(17, np.int64))


@njit(cache=True, inline="always")
def rack_setup(
    rack: Any, values: Any, rv: Any, codes: Any,
) -> tuple[Any, int, int]:  # pragma: no cover - compiled
    """The rack's part of :func:`search_setup` (the endgame's lane search fills its own
    arrays with it): the rack ``rack`` (counts per tile code, 0 = blanks) writes its tiles'
    values best first into ``rv`` (a blank is worth 0) and the tile codes it holds into
    ``codes``; returns the letters it can lay (its own, or every letter with a blank), its
    tile count and the number of codes."""
    rack_mask = np.uint64(0)
    rack_total = 0
    n_codes = 0
    for code in range(64):
        for _ in range(rack[code]):
            x = values[code] if code > 0 else 0
            i = rack_total  # insert, best first
            while i > 0 and rv[i - 1] < x:
                rv[i] = rv[i - 1]
                i -= 1
            rv[i] = x
            rack_total += 1
        if rack[code] > 0:
            codes[n_codes] = code
            n_codes += 1
            if code > 0:
                rack_mask |= ONE << np.uint64(code)
    if rack[0] > 0:
        rack_mask = ALL
    return rack_mask, rack_total, n_codes


@njit(cache=True)
def search_setup(
    rack: Any, values: Any, size: int, use_leave: bool, leave_table: Any, radix: Any,
) -> tuple[Any, ...]:  # pragma: no cover - compiled
    """What a search of the rack ``rack`` (counts per tile code, 0 = blanks) on a board of
    ``size`` needs, made once a call (by :func:`generate` and by the endgame's and the sim's
    lane searches): the search stack (``frames``, ``todo``, ``lists``: one row a square of
    the play being built; ``cur``), a lane's ``anchor`` and ``playable`` rows, the letters the
    rack can lay (its own, or every letter with a blank) and its tile count, its tiles' values
    best first (``rv``), the tile codes it holds, the best leave a play of each number of tiles
    can keep (with ``use_leave``, from ``leave_table`` by ``radix``; else 0), the bounds'
    scratch space (``rem``, ``sides``, ``opts``, ``coefs``; ``shadow`` for :func:`_shadow`),
    and room for :func:`_dfs`'s bounds by blanks laid (``caps``): made here once, not on
    every call."""
    frames = np.zeros((2 * size + 2, FIELDS), np.int64)
    todo = np.zeros(2 * size + 2, np.uint64)
    lists = np.zeros(2 * size + 2, np.uint64)  # the tiles of each frame's arc list
    cur = np.zeros(size, np.uint8)
    anchor = np.zeros(size, np.bool_)
    playable = np.zeros(size, np.uint64)
    rv = np.zeros(max(rack[:64].sum(), 1), np.int64)
    codes = np.zeros(64, np.int64)
    rack_mask, rack_total, n_codes = rack_setup(rack, values, rv, codes)
    codes = codes[:n_codes]
    rem = np.zeros(max(rack_total, 1), np.int64)
    # row u (from index u * (rack_total + 1)): the leaves that keep at most rack[0] - u blanks
    leave_by_placed = np.zeros((rack[0] + 1) * (rack_total + 1), np.float64)
    if use_leave:
        leave_by_placed[:] = -np.inf
        for index in range(len(leave_table)):
            placed = rack_total
            for tile in codes:
                placed -= kept_count(index, radix, tile, rack[tile])
            kept_blanks = kept_count(index, radix, 0, rack[0]) if rack[0] > 0 else 0
            for used in range(rack[0] - kept_blanks + 1):
                at = used * (rack_total + 1) + placed
                leave_by_placed[at] = max(leave_by_placed[at], leave_table[index])
    sides = np.zeros((2, size), np.int64)
    opts = np.zeros((2, size + 1, 6), np.int64)
    coefs = np.zeros(size, np.int64)
    shadow = np.zeros((5, size), np.int64)
    caps = np.zeros(rack[0] + 2, np.float64)
    return (frames, todo, lists, cur, anchor, playable, rack_mask, rack_total, rv, codes, rem,
            leave_by_placed, sides, opts, coefs, shadow, caps)


@njit(cache=True)
def generate(
    pk: Any, board: Any, size: int, rack: Any, values: Any,
    letter_mult: Any, word_mult: Any, nletters: int, rack_size: int, bingo: int,
    both_on_empty: bool, join_words: bool, lanes: Any, keep: int, use_leave: bool,
    leave_table: Any, radix: Any,
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """:func:`_generate` with no word map: every play is searched."""
    long_table, map_keys, _, seen, answers = no_bingo_map()
    return _generate(pk, board, size, rack, values, letter_mult, word_mult, nletters,
                     rack_size, bingo, both_on_empty, join_words, lanes, keep, use_leave,
                     leave_table, radix, False, np.zeros((1, rack_size + 1), np.uint8),
                     np.zeros(1, np.int64), np.zeros((1, 2), np.int64), 0,
                     np.zeros(65, np.int64), long_table, map_keys, np.uint64(0), seen,
                     answers, False, no_spans(long_table, map_keys))


@njit(cache=True)
def generate_mapped(
    pk: Any, board: Any, size: int, rack: Any, values: Any,
    letter_mult: Any, word_mult: Any, nletters: int, rack_size: int, bingo: int,
    both_on_empty: bool, join_words: bool, lanes: Any, keep: int, use_leave: bool,
    leave_table: Any, radix: Any, table: Any, word_keys: Any, words: Any, long_table: Any,
    map_keys: Any,
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """:func:`_generate` with the word map of ``pk``'s words (:mod:`letras.movegen.wordmap`:
    ``table``, ``word_keys``, ``words``): with ``keep``, the bingos that take in at most one
    board tile are laid from the map's words (:mod:`letras.movegen._mapped`), not searched;
    and with a blank on the rack an anchor is searched only if some of the rack's tiles can
    make a word on one of its spans that beats the weakest play kept
    (:mod:`letras.movegen._spanwords`)."""
    direct, found, blanks, n7, by_letter, rack_key = map_setup(
        board, size, rack, nletters, rack_size, keep, table, word_keys, map_keys)
    # (on the empty board there is one anchor: nothing to leave out)
    words_on = keep > 0 and 0 < rack[0] <= MAX_BLANKS and bool(np.any(board != 0))
    return _generate(pk, board, size, rack, values, letter_mult, word_mult, nletters,
                     rack_size, bingo, both_on_empty, join_words, lanes, keep, use_leave,
                     leave_table, radix, direct, words, found, blanks, n7, by_letter,
                     long_table, map_keys, rack_key, np.zeros(4096, np.uint64),
                     np.zeros(4097, np.int64), words_on,
                     span_setup(rack, rack_size, table, long_table, map_keys, nletters, radix)
                     if words_on else no_spans(table, map_keys))

@njit(cache=True)
def _generate(
    pk: Any, board: Any, size: int, rack: Any, values: Any,
    letter_mult: Any, word_mult: Any, nletters: int, rack_size: int, bingo: int,
    both_on_empty: bool, join_words: bool, lanes: Any, keep: int, use_leave: bool,
    leave_table: Any, radix: Any, direct: bool, words: Any, found: Any, blanks: Any, n7: int,
    by_letter: Any, long_table: Any, map_keys: Any, rack_key: Any, seen: Any, answers: Any,
    words_on: bool, spans: Any,
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """Every legal play of ``rack`` (counts per tile code, 0 = blanks) on ``board``; with
    ``keep`` above 0, only that many of the highest-scoring ones (in no particular order),
    searching the anchors with the best bounds first and stopping when no bound can do better.
    Without ``join_words``, a play whose main word takes in two or more separate runs of board
    tiles (joins words) is not legal. Only the lanes set in ``lanes`` (direction, row) are
    searched.

    Returns ``meta`` rows (the columns of :mod:`letras.movegen.columns`), ``tiles`` rows (the
    play's tiles along its line, 0 where it goes through a board tile), the value each play is
    ranked by, and the count. With ``direct``, the bingos that take in at most one board tile
    are laid from ``words`` (the other arguments as :func:`_map_bingos` and :func:`_shadow`
    take them) instead of searched. With ``words_on``, an anchor is searched only if some of
    the rack's tiles can make a word on one of its spans that beats the weakest play kept
    (``spans``: see :mod:`letras.movegen._spanwords`).
    """
    room = keep if keep else 1024
    meta = np.zeros((room, COLUMNS), np.int32)
    out = np.zeros((room, size), np.uint8)
    val = np.zeros(room, np.float64)  # what plays are ranked by: score, or score + leave value
    count = 0
    empty = True
    for s in range(size * size):
        if board[s] != 0:
            empty = False
            break
    centre = (size // 2) * size + size // 2
    transposed = board.reshape((size, size)).T.copy().reshape(size * size)
    lm_t = letter_mult.reshape((size, size)).T.copy().reshape(size * size)
    wm_t = word_mult.reshape((size, size)).T.copy().reshape(size * size)
    (frames, todo, lists, cur, anchor, playable, rack_mask, rack_total, rv, codes, rem,
     leave_by_placed, sides, opts, coefs, shadow, caps) = search_setup(
         rack, values, size, use_leave, leave_table, radix)
    # The searches are handed views without an owner (see :mod:`letras.movegen._views`): the
    # arrays themselves are kept alive to the end (``alive`` below).
    u = unowned
    u_pk, u_values, u_rack, u_leave_table, u_radix = u(pk), u(values), u(rack), u(
        leave_table), u(radix)
    u_frames, u_todo, u_lists, u_cur = u(frames), u(todo), u(lists), u(cur)
    u_anchor, u_playable, u_codes, u_rem = u(anchor), u(playable), u(codes), u(rem)
    u_leave_by_placed, u_sides, u_opts, u_coefs = u(leave_by_placed), u(sides), u(opts), u(
        coefs)
    u_rv, u_shadow, u_caps = u(rv), u(shadow), u(caps)
    u_map = (u(long_table), u(map_keys), nletters, u(seen), u(answers))
    u_spans = (u(spans[0]), u(spans[1]), u(spans[2]), u(spans[3]), u(spans[4]), u(spans[5]),
               u(spans[6]), u(spans[7]), u(spans[8]), u(spans[9]), u(spans[10]), spans[11],
               spans[12], spans[13], spans[14], spans[15], spans[16])
    an_dir = np.zeros(2 * size * size, np.int64)
    an_row = np.zeros(2 * size * size, np.int64)
    an_a = np.zeros(2 * size * size, np.int64)
    an_bound = np.zeros(2 * size * size, np.float64)
    an_first = np.zeros(2 * size * size, np.int64)  # the rows of its spans written down
    an_last = np.zeros(2 * size * size, np.int64)
    n_an = 0
    all_sets = np.zeros((2, size * size), np.uint64)
    all_cscores = np.zeros((2, size * size), np.int32)
    all_has = np.zeros((2, size * size), np.bool_)
    # On the empty board of a layout symmetric about its diagonal, every play down is a play
    # across turned over, with the same score and leave: the best few are searched across only
    # and turned over afterwards.
    mirror = empty and keep > 0 and both_on_empty and np.array_equal(lm_t, letter_mult) and (
        np.array_equal(wm_t, word_mult))
    for direction in range(2):
        if empty and direction == 1 and (mirror or not both_on_empty):
            break
        grid = board if direction == 0 else transposed
        lm = letter_mult if direction == 0 else lm_t
        wm = word_mult if direction == 0 else wm_t
        sets, cscores, has = cross_sets(pk, grid, size, values, nletters)
        all_sets[direction] = sets
        all_cscores[direction] = cscores
        all_has[direction] = has
        for row in range(size):
            if not lanes[direction, row]:
                continue
            base = row * size
            lane = grid[base: base + size]
            _lane_setup(grid, row, size, empty, centre, sets, rack_mask, anchor, playable)
            if direct:
                meta, out, val, count = _map_bingos(
                    lane, base, row, direction, size, anchor, sets, has, cscores, lm, wm,
                    values, rack_size, bingo, leave_table[0] if use_leave else 0.0, words,
                    found, blanks, n7, by_letter, keep, meta, out, val, count, cur)
            for a in range(size):
                if not anchor[a] or playable[a] == 0:
                    continue
                if keep:
                    an_dir[n_an] = direction
                    an_row[n_an] = row
                    an_a[n_an] = a
                    if words_on:
                        an_first[n_an] = spans[10][0]
                        an_bound[n_an] = _shadow(
                            u(lane), base, a, size, u_anchor, u_playable, u(has), u(cscores),
                            u(lm), u(wm), u_values, u_rv, u_rack, rack_total, rack_size,
                            bingo, u_leave_by_placed, direct, u_map[0], u_map[1], rack_key,
                            nletters, u_map[3], u_map[4], u_shadow, 0, u_spans)
                        an_last[n_an] = spans[10][0]
                    else:
                        an_bound[n_an] = _shadow(
                            u(lane), base, a, size, u_anchor, u_playable, u(has), u(cscores),
                            u(lm), u(wm), u_values, u_rv, u_rack, rack_total, rack_size,
                            bingo, u_leave_by_placed, direct, u_map[0], u_map[1], rack_key,
                            nletters, u_map[3], u_map[4], u_shadow)
                    n_an += 1
                    continue
                got = FULL
                while got == FULL:
                    got = _dfs(
                        u_pk, u(lane), base, row, direction, a, size, u_anchor, u_playable,
                        u(has), u(cscores), u(lm), u(wm), u_values, u_rack, rack_size, bingo,
                        join_words, keep, u_frames, u_todo, u_lists, u_cur, u(meta), u(out),
                        u(val), count, use_leave, u_leave_table, u_radix, u_codes,
                        u_leave_by_placed, u_rem, u_sides, u_opts, u_coefs, u_rv, u_shadow,
                        u_caps, direct, u_map,
                    )
                    if got == FULL:
                        meta, out, val = _grow(meta, out, val)
                count = got
    if keep:
        order = np.argsort(-an_bound[:n_an], kind="mergesort")
        for idx in order:
            if count == keep and an_bound[idx] <= val[_weakest(val, count)]:
                break
            direction = an_dir[idx]
            row = an_row[idx]
            grid = board if direction == 0 else transposed
            lm = letter_mult if direction == 0 else lm_t
            wm = word_mult if direction == 0 else wm_t
            base = row * size
            _lane_setup(grid, row, size, empty, centre, all_sets[direction], rack_mask,
                        anchor, playable)
            if words_on and not can_beat_any(
                    u_spans, u_leave_table, u_leave_by_placed, an_first[idx], an_last[idx],
                    val[_weakest(val, count)] if count == keep else -np.inf):
                continue  # no word on a span of the anchor can beat the weakest play kept
            got = FULL
            while got == FULL:
                got = _dfs(
                    u_pk, u(grid)[base: base + size], base, row, direction, an_a[idx], size,
                    u_anchor, u_playable, u(all_has)[direction], u(all_cscores)[direction],
                    u(lm), u(wm), u_values, u_rack, rack_size, bingo, join_words, keep,
                    u_frames, u_todo, u_lists, u_cur, u(meta), u(out), u(val), count,
                    use_leave, u_leave_table, u_radix, u_codes, u_leave_by_placed, u_rem,
                    u_sides, u_opts, u_coefs, u_rv, u_shadow, u_caps, direct, u_map,
                )
                if got == FULL:
                    meta, out, val = _grow(meta, out, val)
            count = got
    # the arrays made here stay alive until the views of them are no longer used
    alive = (frames.size + todo.size + lists.size + cur.size + anchor.size + playable.size
             + codes.size + rem.size + leave_by_placed.size + sides.size + opts.size
             + coefs.size + rv.size + shadow.size + caps.size + transposed.size + lm_t.size
             + wm_t.size + all_has.size + all_cscores.size + spans[3].size + spans[4].size
             + spans[5].size + spans[6].size + spans[7].size + spans[8].size
             + spans[9].size + spans[10].size)
    if mirror and alive >= 0:
        return _with_mirrors(meta, out, val, count, keep)
    return meta, out, val, count


@njit(cache=True)
def _state_bound(
    frames: Any, d: int, pos: Any, phase: Any, left: Any, right: Any, placed: Any,
    leave: Any, main: Any, mult: Any, cross: Any, keyed: bool, lane: Any, base: int,
    size: int, playable: Any, has: Any, cscores: Any, lm: Any, wm: Any, values: Any,
    rack: Any, codes: Any, rack_size: int, bingo: int, leave_by_placed: Any, rem: Any,
    sides: Any, opts: Any, coefs: Any, direct: bool, bingo_map: Any, rack_key: Any,
    blanks_total: int,
) -> Any:  # pragma: no cover - compiled
    """:func:`_bound` of the state after a blank on frame ``d``'s square, rounded up to an
    integer; with ``keyed`` (the leave index ``leave`` tells the rack's tiles apart), the last
    one made there is reused when the state is the same: after a blank on an earlier square,
    the state is the same whatever letter that blank stands for."""
    squares = pos | (left << 8) | (right << 16) | (phase << 24) | (placed << 32)
    keyed = keyed and 0 <= main < KEY_LIMIT and 0 < mult < KEY_LIMIT and 0 <= cross < KEY_LIMIT
    if keyed and frames[d, KEY_SQUARES] == squares and frames[d, KEY_LEAVE] == leave and (
            frames[d, KEY_MAIN] == main and frames[d, KEY_MULT] == mult
            and frames[d, KEY_CROSS] == cross):
        return frames[d, KEY_BOUND]
    bound = _bound(lane, base, left, right, size, playable, has, cscores, lm, wm, values,
                   rack, codes, main, mult, cross, placed, rack_size, bingo, leave_by_placed,
                   rem, sides[0], sides[1], opts[0], opts[1], coefs, direct, bingo_map,
                   rack_key, blanks_total, phase == 0)
    rounded = -UNKNOWN if bound == -np.inf else np.int64(np.ceil(bound))
    if keyed:
        frames[d, KEY_SQUARES] = squares
        frames[d, KEY_LEAVE] = leave
        frames[d, KEY_MAIN] = main
        frames[d, KEY_MULT] = mult
        frames[d, KEY_CROSS] = cross
        frames[d, KEY_BOUND] = rounded
    return rounded


@njit(cache=True)
def _dfs(
    pk: Any, lane: Any, base: int, row: int, direction: int, a: int, size: int,
    anchor: Any, playable: Any, has: Any, cscores: Any, lm: Any, wm: Any, values: Any,
    rack: Any, rack_size: int, bingo: int, join_words: bool, keep: int, frames: Any,
    todo: Any, lists: Any, cur: Any, meta: Any, out: Any, val: Any, count: int,
    use_leave: bool, leave_table: Any, radix: Any, codes: Any, leave_by_placed: Any, rem: Any,
    sides: Any, opts: Any, coefs: Any, rv: Any, shadow: Any, caps: Any, direct: bool,
    bingo_map: Any,
) -> int:  # pragma: no cover - compiled
    """Every play whose leftmost anchor is square ``a`` of this lane (see :func:`generate`),
    but with ``direct`` the bingos that take in at most one board tile (see :func:`_shadow`;
    ``bingo_map`` as :func:`_bound` takes it), written into ``meta``, ``out``, ``val`` from row
    ``count``; returns the new count, or :data:`FULL` when the arrays ran out of rows (the rack
    given back as it was): the caller grows them (``_grow``) and calls again with the same
    ``count``, which finds the same plays in the same order. The
    arrays are never replaced here, so numba counts no references to them in the loop.
    ``rv``, ``shadow`` and ``caps`` are :func:`search_setup`'s, for the rack as it is here.

    When only the best ``keep`` are kept and that many are found, a partial play is not
    extended if its bound (:func:`_bound`, plus the best leave value) cannot beat the weakest
    of them (only going left with a blank on the rack, up to :data:`PRUNE_DEPTH` tiles)."""
    right_clear = a == size - 1 or lane[a + 1] == 0
    threshold = -np.inf
    if keep and count == keep:
        threshold = val[_weakest(val, count)]
    have = np.uint64(0)  # the letters the rack holds a tile of
    leave = 0  # the index of the leave (the tiles not laid yet)
    for code in range(1, 64):
        if rack[code] > 0:
            have |= ONE << np.uint64(code)
    if use_leave:
        leave = index_of_counts(rack, radix)
    map_keys = bingo_map[1]
    rack_key = np.uint64(0)  # of the whole rack, but blanks
    for code in range(1, 64):
        for _ in range(rack[code]):
            rack_key += map_keys[code]
    blanks_total = rack[0]
    frames[:, KEY_SQUARES] = -1  # no bound kept from another search
    # by equity, a bound on the plays from this anchor that lay at least u blanks (u > 0):
    # a blank is tried only while the bound of one more blank than laid beats the weakest kept
    caps[: blanks_total + 1] = np.inf
    caps[blanks_total + 1] = -np.inf
    if use_leave and keep and blanks_total > 0:
        rack_total = 0
        for code in range(64):
            rack_total += rack[code]
        for u in range(1, blanks_total + 1):
            caps[u] = _shadow(lane, base, a, size, anchor, playable, has, cscores, lm, wm,
                              values, rv, rack, rack_total, rack_size, bingo, leave_by_placed,
                              direct, bingo_map[0], map_keys, rack_key, bingo_map[2],
                              bingo_map[3], bingo_map[4], shadow, u)
    # frame 0: the anchor square, going left, in the GADDAG root list
    root = _next(pk, 1)
    root_tiles = _below(pk, 1)
    first = _fits(root_tiles, lane, a, playable, have, rack[0] > 0 and caps[1] > threshold)
    if first == 0:
        return count
    d = 0
    _push(frames, 0, a, 0, root, a, 0, 1, 0, 0)
    todo[0] = first
    lists[0] = root_tiles
    while d >= 0:
        # undo the previous choice of this frame
        taken = frames[d, TAKEN]
        if taken >= 0:
            if taken > 0 and rack[taken] == 0:
                have |= ONE << np.uint64(taken)
            rack[taken] += 1
            leave += radix[taken]
            frames[d, TAKEN] = -1
        bits = todo[d]
        if bits == 0:
            d -= 1
            continue
        pos = frames[d, POS]
        t = np.int64(trailing_zeros(bits))
        q = _at(frames[d, LIST], lists[d], t)
        # choose what this frame tries now: the board's tile, the rack's tile, or a blank as
        # the same letter (next time round)
        placed_tile: Any = 0
        value = 0
        through = lane[pos] != 0
        if through:
            todo[d] = 0
            if not lane[pos] & 0x80:
                value = values[t]
        elif frames[d, VARIANT] == 0 and rack[t] > 0:
            if rack[0] > 0 and frames[d, BLANK_BOUND] > threshold and (
                    caps[blanks_total - rack[0] + 1] > threshold):
                frames[d, VARIANT] = 1
            else:
                todo[d] = bits & (bits - ONE)
            rack[t] -= 1
            leave -= radix[t]
            if rack[t] == 0:
                have &= ~(ONE << np.uint64(t))
            frames[d, TAKEN] = t
            placed_tile = t
            value = values[t]
        else:
            frames[d, VARIANT] = 0
            todo[d] = bits & (bits - ONE)
            if caps[blanks_total - rack[0] + 1] <= threshold:
                todo[d] &= have  # no play with one more blank can do better now
                continue
            rack[0] -= 1
            leave -= radix[0]
            frames[d, TAKEN] = 0
            placed_tile = t | 0x80
        # the state after this square
        main = frames[d, MAIN]
        mult = frames[d, MULT]
        cross = frames[d, CROSS]
        placed = frames[d, PLACED]
        if through:
            main += value
            cur[pos] = 0
        else:
            sq = base + pos
            main += value * lm[sq]
            mult *= wm[sq]
            if has[sq]:
                cross += (cscores[sq] + value * lm[sq]) * wm[sq]
            placed += 1
            cur[pos] = placed_tile
        node = pk[q, 0]
        arc = np.int64((node & LOW) >> np.uint64(ARC_SHIFT))
        prefetch(pk, arc)  # the list a step from here reads, on its way while this one ends
        phase = frames[d, PHASE]
        left = pos if phase == 0 else frames[d, LEFT]
        right = a if phase == 0 else pos
        if use_leave and placed_tile & 0x80 and threshold > -np.inf:
            # a blank on this square (ranked by equity, where a blank kept is worth much): its
            # bound does not depend on the letter it stands for (worth nothing), so it is made
            # once a square, and when it cannot do better no more blanks are tried there
            if frames[d, BLANK_BOUND] == UNKNOWN:
                frames[d, BLANK_BOUND] = _state_bound(
                    frames, d, pos, phase, left, right, placed, leave, main, mult, cross,
                    True, lane, base, size, playable, has, cscores, lm, wm, values, rack,
                    codes, rack_size, bingo, leave_by_placed, rem, sides, opts, coefs, direct,
                    bingo_map, rack_key, blanks_total)
            if frames[d, BLANK_BOUND] <= threshold:
                todo[d] &= have  # the letters left to try with the rack's own tiles
                continue
        # a play ends here?
        if node & np.uint64(ACCEPTS) and (left == 0 or lane[left - 1] == 0) and (
                (phase == 0 and right_clear)
                or (phase == 1 and (pos == size - 1 or lane[pos + 1] == 0))):
            skip = False
            if direction == 1 and placed == 1:
                # a one-tile play that also makes a word across was made across
                for i in range(left, right + 1):
                    if cur[i] != 0 and lane[i] == 0 and has[base + i]:
                        skip = True
            if direct and placed == rack_size:
                taken_in = 0
                for i in range(left, right + 1):
                    if lane[i] != 0:
                        taken_in += 1
                skip = skip or taken_in <= 1
            if not join_words:
                runs = 0
                for i in range(left, right + 1):
                    if lane[i] != 0 and (i == left or lane[i - 1] == 0):
                        runs += 1
                skip = skip or runs > 1
            score = main * mult + cross
            if placed == rack_size:
                score += bingo
            rank = float(score)
            if use_leave:
                rank += leave_table[leave]
            slot = count
            if keep and count == keep:
                slot = _weakest(val, count)
                skip = skip or rank <= val[slot]
            if not skip:
                if slot == meta.shape[0]:
                    # full: give back the rack's tiles laid so far and say so (the caller
                    # grows the arrays and searches this anchor again from ``count``)
                    for i in range(d + 1):
                        taken = frames[i, TAKEN]
                        if taken >= 0:
                            rack[taken] += 1
                            frames[i, TAKEN] = -1
                    return FULL
                val[slot] = rank
                r0 = row if direction == 0 else left
                c0 = left if direction == 0 else row
                meta[slot, ROW] = r0
                meta[slot, COL] = c0
                meta[slot, DIRECTION] = direction
                meta[slot, LENGTH] = right - left + 1
                meta[slot, SCORE] = score
                meta[slot, LAID] = placed
                for i in range(left, right + 1):
                    out[slot, i - left] = cur[i]
                for i in range(right - left + 1, size):
                    out[slot, i] = 0
                if slot == count:
                    count += 1
                if keep and count == keep:
                    threshold = val[_weakest(val, count)]
        if arc == 0:
            continue
        if phase == 0 and placed <= PRUNE_DEPTH and rack[0] > 0 and threshold > -np.inf and (
                _bound(lane, base, left, right, size, playable, has, cscores, lm, wm,
                       values, rack, codes, main, mult, cross, placed, rack_size, bingo,
                       leave_by_placed, rem, sides[0], sides[1], opts[0], opts[1], coefs,
                       direct, bingo_map, rack_key, blanks_total, True)
                <= threshold):
            continue
        # push the continuations that some tile fits: go on leftwards, or switch to the right
        # side (the left one is tried first)
        blanks = rack[0] > 0 and caps[blanks_total - rack[0] + 1] > threshold
        below = _below(pk, q)
        if phase == 0:
            if (pos == 0 or lane[pos - 1] == 0) and a + 1 < size and below & ONE:
                # the separator is the lowest tile: the first node of the list
                right_list = _next(pk, arc)
                right_tiles = _below(pk, arc)
                fits = _fits(right_tiles, lane, a + 1, playable, have, blanks)
                if fits:
                    d += 1
                    _push(frames, d, a + 1, 1, right_list, pos, main, mult, cross, placed)
                    todo[d] = fits
                    lists[d] = right_tiles
            if pos > 0 and (lane[pos - 1] != 0 or not anchor[pos - 1]):
                fits = _fits(below, lane, pos - 1, playable, have, blanks)
                if fits:
                    d += 1
                    _push(frames, d, pos - 1, 0, arc, pos - 1, main, mult, cross, placed)
                    todo[d] = fits
                    lists[d] = below
        elif pos + 1 < size:
            fits = _fits(below, lane, pos + 1, playable, have, blanks)
            if fits:
                d += 1
                _push(frames, d, pos + 1, 1, arc, left, main, mult, cross, placed)
                todo[d] = fits
                lists[d] = below
    return count
