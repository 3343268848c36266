"""Compiled move generation over the GADDAG (Gordon 1994), on flat arrays with an explicit stack.

The board is generated one line (a "lane") at a time, across lanes from the board and down lanes
from its transpose. For each lane: the tiles on it, the cross-set of each empty square (bit t set
when tile t makes a valid word with the tiles above and below), the face value of those tiles
(the cross score), whether there are any (``has_cross``), and the premiums. Plays are scored as
they are generated and written into arrays that grow as needed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

TILE_MASK = 0x3F
ACCEPTS = 0x80
IS_END = 0x40
ARC_SHIFT = 8
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
META = 6  # row, col, direction (0 across, 1 down), length, score, tiles placed
# The fields of a search frame: the square, the side of the anchor (0 left, 1 right), the next
# GADDAG node to try there (-1 when done), whether a blank is tried next for it, the leftmost
# square so far, the main word's letter sum and multiplier, the cross words' total, the tiles
# placed so far, and the rack tile the current choice took (-1 for none).
POS = 0
PHASE = 1
NEXT = 2
VARIANT = 3
LEFT = 4
MAIN = 5
MULT = 6
CROSS = 7
PLACED = 8
TAKEN = 9
FIELDS = 10


@njit(cache=True)
def _arc(nodes: Any, q: Any) -> Any:  # pragma: no cover - compiled
    return np.int64(nodes[q] >> np.uint32(ARC_SHIFT))


@njit(cache=True)
def _find(nodes: Any, p: Any, tile: Any) -> Any:  # pragma: no cover - compiled
    """The node for ``tile`` in the arc list starting at ``p`` (0 = no list), or -1."""
    if p == 0:
        return np.int64(-1)
    while True:
        node = nodes[p]
        t = np.int64(node & np.uint32(TILE_MASK))
        if t == tile:
            return np.int64(p)
        if t > tile or node & np.uint32(IS_END):
            return np.int64(-1)
        p += 1


@njit(cache=True)
def cross_sets(
    nodes: Any, board: Any, size: int, values: Any, nletters: int
) -> tuple[Any, Any, Any]:  # pragma: no cover - compiled
    """For plays along rows of ``board`` (flat, row-major): each empty square's cross-set from
    the column through it, the face value of that column's tiles, and whether there are any."""
    n = size * size
    sets = np.zeros(n, np.uint64)
    scores = np.zeros(n, np.int32)
    has = np.zeros(n, np.bool_)
    dawg = _arc(nodes, 0)
    for r in range(size):
        for c in range(size):
            s = r * size + c
            if board[s] != 0:
                continue
            up = r
            while up > 0 and board[(up - 1) * size + c] != 0:
                up -= 1
            down = r
            while down < size - 1 and board[(down + 1) * size + c] != 0:
                down += 1
            if up == r and down == r:
                sets[s] = ALL
                continue
            has[s] = True
            total = 0
            for rr in range(up, down + 1):
                if rr != r:
                    t = board[rr * size + c]
                    if not t & 0x80:
                        total += values[t & TILE_MASK]
            scores[s] = total
            # walk the DAWG through the tiles above, then try each letter and the tiles below
            p = dawg
            ok = True
            for rr in range(up, r):
                q = _find(nodes, p, np.int64(board[rr * size + c] & TILE_MASK))
                if q < 0:
                    ok = False
                    break
                p = _arc(nodes, q)
            if not ok or p == 0:
                continue
            mask = np.uint64(0)
            q = p
            while True:
                node = nodes[q]
                t = np.int64(node & np.uint32(TILE_MASK))
                if 0 < t <= nletters:
                    if down == r:
                        good = bool(node & np.uint32(ACCEPTS))
                    else:
                        pp = _arc(nodes, q)
                        good = True
                        last = -1
                        for rr in range(r + 1, down + 1):
                            last = _find(nodes, pp, np.int64(board[rr * size + c] & TILE_MASK))
                            if last < 0:
                                good = False
                                break
                            pp = _arc(nodes, last)
                        if good:
                            good = bool(nodes[last] & np.uint32(ACCEPTS))
                    if good:
                        mask |= np.uint64(1) << np.uint64(t)
                if node & np.uint32(IS_END):
                    break
                q += 1
            sets[s] = mask
    return sets, scores, has


@njit(cache=True)
def _grow(meta: Any, tiles: Any, val: Any) -> tuple[Any, Any, Any]:  # pragma: no cover
    m2 = np.zeros((meta.shape[0] * 2, META), np.int32)
    m2[: meta.shape[0]] = meta
    t2 = np.zeros((tiles.shape[0] * 2, tiles.shape[1]), np.uint8)
    t2[: tiles.shape[0]] = tiles
    v2 = np.zeros(val.shape[0] * 2, np.float64)
    v2[: val.shape[0]] = val
    return m2, t2, v2


@njit(cache=True, inline="always")
def _push(
    frames: Any, d: int, pos: Any, phase: int, first: Any, left: Any, main: Any, mult: Any,
    cross: Any, placed: Any,
) -> None:  # pragma: no cover - compiled
    """Start frame ``d``: square ``pos``, trying the arc list that starts at node ``first``."""
    frames[d, POS] = pos
    frames[d, PHASE] = phase
    frames[d, NEXT] = first
    frames[d, VARIANT] = 0
    frames[d, LEFT] = left
    frames[d, MAIN] = main
    frames[d, MULT] = mult
    frames[d, CROSS] = cross
    frames[d, PLACED] = placed
    frames[d, TAKEN] = -1


@njit(cache=True)
def _weakest(val: Any, count: int) -> int:  # pragma: no cover - compiled
    """The row of the lowest value among the first ``count`` (the one a better play replaces)."""
    low = 0
    for i in range(1, count):
        if val[i] < val[low]:
            low = i
    return low


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
    rack_size: int, bingo: int,
) -> int:  # pragma: no cover - compiled
    """An upper bound on the score of any play from anchor ``a``: for every span the play could
    cover, the smaller of two bounds that ignore which words the tiles make: the rack's most
    valuable tiles on the squares that multiply them most, and each square's most valuable
    rack tile that its cross-set allows."""
    lmv = np.zeros(size, np.int64)
    hv = np.zeros(size, np.int64)
    mv = np.zeros(size, np.int64)
    coefs = np.zeros(size, np.int64)
    reach = a
    while reach > 0 and (lane[reach - 1] != 0 or (
            not anchor[reach - 1] and playable[reach - 1] != 0)):
        reach -= 1
    best = 0
    for left in range(a, reach - 1, -1):
        if left > 0 and lane[left - 1] != 0:
            continue
        mult = 1
        through = 0
        const = 0
        n = 0
        for i in range(left, size):
            s = base + i
            if lane[i] != 0:
                if not lane[i] & 0x80:
                    through += values[lane[i] & TILE_MASK]
            else:
                if playable[i] == 0 or n == rack_total:
                    break
                mult *= wm[s]
                lmv[n] = lm[s]
                hv[n] = lm[s] * wm[s] if has[s] else 0
                top = 0
                for t in range(1, 64):
                    if (playable[i] >> np.uint64(t)) & np.uint64(1) and values[t] > top and (
                            rack[t] > 0):
                        top = values[t]
                mv[n] = top
                if has[s]:
                    const += cscores[s] * wm[s]
                n += 1
            if i < a or n == 0 or (i + 1 < size and lane[i + 1] != 0):
                continue
            for j in range(n):
                c = lmv[j] * mult + hv[j]
                k = j
                while k > 0 and coefs[k - 1] < c:
                    coefs[k] = coefs[k - 1]
                    k -= 1
                coefs[k] = c
            bound = through * mult + const
            square_bound = bound
            for j in range(n):
                bound += coefs[j] * rv[j]
                square_bound += (lmv[j] * mult + hv[j]) * mv[j]
            bound = min(bound, square_bound)
            if n == rack_size:
                bound += bingo
            if bound > best:
                best = bound
    return best


@njit(cache=True)
def generate(
    nodes: Any, board: Any, size: int, rack: Any, values: Any,
    letter_mult: Any, word_mult: Any, nletters: int, rack_size: int, bingo: int,
    both_on_empty: bool, keep: int, use_leave: bool, leave_table: Any, radix: Any,
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """Every legal play of ``rack`` (counts per tile code, 0 = blanks) on ``board``; with
    ``keep`` above 0, only that many of the highest-scoring ones (in no particular order),
    searching the anchors with the best bounds first and stopping when no bound can do better.

    Returns ``meta`` rows (row, col, direction, length, score, tiles placed), ``tiles`` rows (the
    play's tiles along its line, 0 where it goes through a board tile) and the count.
    """
    meta = np.zeros((4096, META), np.int32)
    out = np.zeros((4096, size), np.uint8)
    val = np.zeros(4096, np.float64)  # what plays are ranked by: score, or score + leave value
    best_leave = leave_table.max() if use_leave else 0.0
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
    # the search stack: one row of FIELDS per square of the play being built
    frames = np.zeros((2 * size + 2, FIELDS), np.int64)
    cur = np.zeros(size, np.uint8)
    anchor = np.zeros(size, np.bool_)
    # the letters the rack can lay: its own, or every letter with a blank
    rack_mask = np.uint64(0)
    rack_total = 0
    for code in range(64):
        rack_total += rack[code]
        if rack[code] > 0 and code > 0:
            rack_mask |= np.uint64(1) << np.uint64(code)
    if rack[0] > 0:
        rack_mask = ALL
    playable = np.zeros(size, np.uint64)
    # for the best play alone: every anchor with a bound, searched best bound first
    rv = np.zeros(max(rack_total, 1), np.int64)
    k = 0
    for code in range(64):
        for _ in range(rack[code]):
            rv[k] = values[code] if code > 0 else 0
            k += 1
    rv = np.sort(rv)[::-1].copy()
    an_dir = np.zeros(2 * size * size, np.int64)
    an_row = np.zeros(2 * size * size, np.int64)
    an_a = np.zeros(2 * size * size, np.int64)
    an_bound = np.zeros(2 * size * size, np.int64)
    n_an = 0
    all_sets = np.zeros((2, size * size), np.uint64)
    all_cscores = np.zeros((2, size * size), np.int32)
    all_has = np.zeros((2, size * size), np.bool_)
    for direction in range(2):
        if empty and direction == 1 and not both_on_empty:
            break
        grid = board if direction == 0 else transposed
        lm = letter_mult if direction == 0 else lm_t
        wm = word_mult if direction == 0 else wm_t
        sets, cscores, has = cross_sets(nodes, grid, size, values, nletters)
        all_sets[direction] = sets
        all_cscores[direction] = cscores
        all_has[direction] = has
        for row in range(size):
            base = row * size
            lane = grid[base: base + size]
            _lane_setup(grid, row, size, empty, centre, sets, rack_mask, anchor, playable)
            for a in range(size):
                if not anchor[a] or playable[a] == 0:
                    continue
                if keep:
                    an_dir[n_an] = direction
                    an_row[n_an] = row
                    an_a[n_an] = a
                    an_bound[n_an] = _shadow(lane, base, a, size, anchor, playable, has,
                                             cscores, lm, wm, values, rv, rack,
                                             rack_total, rack_size, bingo)
                    n_an += 1
                    continue
                meta, out, val, count = _dfs(
                    nodes, lane, base, row, direction, a, size, anchor, playable, has,
                    cscores, lm, wm, values, rack, rack_total, rack_size, bingo, keep,
                    frames, cur, meta, out, val, count, use_leave, leave_table, radix,
                )
    if keep:
        order = np.argsort(-an_bound[:n_an], kind="mergesort")
        for idx in order:
            if count == keep and an_bound[idx] + best_leave <= val[_weakest(val, count)]:
                break
            direction = an_dir[idx]
            row = an_row[idx]
            grid = board if direction == 0 else transposed
            lm = letter_mult if direction == 0 else lm_t
            wm = word_mult if direction == 0 else wm_t
            base = row * size
            _lane_setup(grid, row, size, empty, centre, all_sets[direction], rack_mask,
                        anchor, playable)
            meta, out, val, count = _dfs(
                nodes, grid[base: base + size], base, row, direction, an_a[idx], size,
                anchor, playable, all_has[direction], all_cscores[direction], lm, wm, values,
                rack, rack_total, rack_size, bingo, keep, frames, cur, meta, out, val, count,
                use_leave, leave_table, radix,
            )
    return meta, out, val, count


@njit(cache=True)
def _dfs(
    nodes: Any, lane: Any, base: int, row: int, direction: int, a: int, size: int,
    anchor: Any, playable: Any, has: Any, cscores: Any, lm: Any, wm: Any, values: Any,
    rack: Any, rack_total: int, rack_size: int, bingo: int, keep: int,
    frames: Any, cur: Any,
    meta: Any, out: Any, val: Any, count: int, use_leave: bool, leave_table: Any, radix: Any,
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """Every play whose leftmost anchor is square ``a`` of this lane (see :func:`generate`)."""
    right_clear = a == size - 1 or lane[a + 1] == 0
    # frame 0: the anchor square, going left, in the GADDAG root list
    d = 0
    _push(frames, 0, a, 0, _arc(nodes, 1), a, 0, 1, 0, 0)
    while d >= 0:
        # undo the previous choice of this frame
        if frames[d, TAKEN] >= 0:
            rack[frames[d, TAKEN]] += 1
            frames[d, TAKEN] = -1
        pos = frames[d, POS]
        q = frames[d, NEXT]
        if q <= 0:
            d -= 1
            continue
        node = nodes[q]
        t = np.int64(node & np.uint32(TILE_MASK))
        # choose what this frame tries now, and what it tries next
        placed_tile: Any = 0
        value = 0
        through = lane[pos] != 0
        if through:
            want = np.int64(lane[pos] & TILE_MASK)
            q = _find(nodes, q, want)
            frames[d, NEXT] = -1
            if q < 0:
                d -= 1
                continue
            node = nodes[q]
            t = want
            if not lane[pos] & 0x80:
                value = values[t]
        else:
            if frames[d, VARIANT] == 0:
                # skip, in one tight loop, the siblings this square cannot take
                mask = playable[pos]
                blanks = rack[0] > 0
                while t == 0 or not (mask >> np.uint64(t)) & np.uint64(1) or (
                        rack[t] == 0 and not blanks):
                    if node & np.uint32(IS_END):
                        q = -1
                        break
                    q += 1
                    node = nodes[q]
                    t = np.int64(node & np.uint32(TILE_MASK))
                if q < 0:
                    frames[d, NEXT] = -1
                    continue
                frames[d, NEXT] = q
                frames[d, VARIANT] = 1
                if rack[t] == 0:
                    continue  # only a blank can be this letter: next time round
                rack[t] -= 1
                frames[d, TAKEN] = t
                placed_tile = t
                value = values[t]
            else:
                frames[d, VARIANT] = 0
                frames[d, NEXT] = -1 if node & np.uint32(IS_END) else q + 1
                if rack[0] == 0:
                    continue
                rack[0] -= 1
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
        accepts = node & np.uint32(ACCEPTS)
        arc = _arc(nodes, q)
        phase = frames[d, PHASE]
        left = pos if phase == 0 else frames[d, LEFT]
        right = a if phase == 0 else pos
        # a play ends here?
        if accepts and (left == 0 or lane[left - 1] == 0) and (
                (phase == 0 and right_clear)
                or (phase == 1 and (pos == size - 1 or lane[pos + 1] == 0))):
            skip = False
            if direction == 1 and placed == 1:
                # a one-tile play that also makes a word across was made across
                for i in range(left, right + 1):
                    if cur[i] != 0 and lane[i] == 0 and has[base + i]:
                        skip = True
            score = main * mult + cross
            if placed == rack_size:
                score += bingo
            rank = float(score)
            if use_leave:
                key = 0
                for code in range(64):
                    key += rack[code] * radix[code]
                rank += leave_table[key]
            slot = count
            if keep and count == keep:
                slot = _weakest(val, count)
                skip = skip or rank <= val[slot]
            if not skip:
                if slot == meta.shape[0]:
                    meta, out, val = _grow(meta, out, val)
                val[slot] = rank
                r0 = row if direction == 0 else left
                c0 = left if direction == 0 else row
                meta[slot, 0] = r0
                meta[slot, 1] = c0
                meta[slot, 2] = direction
                meta[slot, 3] = right - left + 1
                meta[slot, 4] = score
                meta[slot, 5] = placed
                out[slot, :] = 0
                for i in range(left, right + 1):
                    out[slot, i - left] = cur[i]
                if slot == count:
                    count += 1
        if arc == 0:
            continue
        # push the continuations: go on leftwards, or switch to the right side
        if phase == 0:
            go_left = pos > 0 and (lane[pos - 1] != 0 or (
                not anchor[pos - 1] and playable[pos - 1] != 0
                and placed < rack_total))
            left_clear = pos == 0 or lane[pos - 1] == 0
            sep_list = 0
            if left_clear and a + 1 < size and (lane[a + 1] != 0 or (
                    playable[a + 1] != 0 and placed < rack_total)):
                sq0 = _find(nodes, arc, np.int64(0))
                if sq0 >= 0:
                    sep_list = _arc(nodes, sq0)
            if sep_list != 0:
                d += 1
                _push(frames, d, a + 1, 1, sep_list, pos, main, mult, cross, placed)
            if go_left:
                d += 1
                _push(frames, d, pos - 1, 0, arc, pos - 1, main, mult, cross, placed)
        elif pos + 1 < size and (lane[pos + 1] != 0 or (
                playable[pos + 1] != 0 and placed < rack_total)):
            d += 1
            _push(frames, d, pos + 1, 1, arc, left, main, mult, cross, placed)
    return meta, out, val, count
