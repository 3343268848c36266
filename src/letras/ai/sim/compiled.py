"""The rollouts of the simulation, compiled end to end: :func:`play_out` plays every ply of one
rollout (the candidate, the equity replies, the draws, the exchanges, the leaves, the final
count) in one call, with no Python per simulated play.

:class:`CompiledRollouts` is :class:`~letras.ai.sim.rollouts.Rollouts` with its
:meth:`~letras.ai.sim.rollouts.Rollouts.rollout` done by :func:`play_out`; the Python rollout
stays as the reference, and the two give the same values for the same deal (tests:
``tests/test_sim_compiled.py``). It takes a :class:`~letras.ai.leaves.klv.LeaveTable` (the
shipped leaves): with another evaluator, :func:`make_rollouts` gives the Python rollouts.

The state of a rollout is flat arrays: the board's squares, each seat's rack as counts per tile
code, the dealt bag and how many have been drawn from it. A reply is the move generator's best
play by equity (:func:`letras.movegen._kernels.generate` asked for the best one alone, with the
values of every leave the rack can keep, from :func:`letras.ai.leaves.klv._rack_leave_values`),
against the best exchange and the pass, exactly as
:meth:`~letras.ai.sim.rollouts.Rollouts._decide` chooses. This module reaches into the
generator's and the leave table's private kernels: if they change, this is what to follow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from letras._compiled import announce_first_compile
from letras.ai.equity import ENDGAME_STUCK_FACTOR, LEAVE_RAMP_BAG, Candidate, exchange_bonus
from letras.ai.leaves import LeaveEvaluator
from letras.ai.leaves.klv import KEY_TILES, MAX_TILE, TILE_BITS, LeaveTable, _rack_leave_values
from letras.ai.sim.rollouts import END_PLIES, Deal, Rollouts
from letras.ai.sim.shuffle import shuffle_tiles
from letras.board import Direction
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.movegen import _edition_arrays, packed
from letras.movegen import _kernels as k
from letras.movegen.columns import COL, DIRECTION, LENGTH, ROW, SCORE
from letras.movegen.leaves import CODES, kept_count
from letras.play import Exchange, Place

COMPILED = True
"""Whether :func:`make_rollouts` gives the compiled rollouts where it can (the Python ones
otherwise: for comparisons, ``bench/sim_ab.py --variants "" "COMPILED=0"``)."""

REUSE = True
"""Whether the first reply is put together lane by lane where it can (:func:`play_out`):
the same replies, found faster."""
REUSE_FROM = 3
"""The rollouts a deal must have had (the candidates still in) for the next deal to work out
the lanes' best plays: with fewer, searching the whole board for each costs less."""

PLACE, EXCHANGE, PASS = 0, 1, 2
"""The kinds of action, as :func:`play_out` takes the candidate's."""

# The settings of a position, in the ``p_int`` array play_out takes.
P_SIZE, P_NLETTERS, P_RACK, P_BINGO, P_JOIN, P_EXCHANGE_MIN, P_ME, P_PLIES, P_TO_END = range(9)
P_PASS_ENDS, P_RAMP, P_COUNT = 9, 10, 11
# ... and in ``p_float``.
F_DEFAULT, F_EXCHANGE_BONUS, F_STUCK, F_COUNT = 0, 1, 2, 3


@njit(cache=True)
def leave_value(keys: Any, table: Any, default: float,
                counts: Any) -> float:  # pragma: no cover - compiled
    """The leave table's value of the leave ``counts`` (per tile code), as
    :meth:`LeaveTable.value` gives it: 0.0 for the empty leave, ``default`` for one the table
    lacks or no key can hold."""
    key = np.uint64(0)
    n = 0
    storable = True
    bits = np.uint64(TILE_BITS)
    for t in range(CODES):
        c = counts[t]
        if c and t > MAX_TILE:
            storable = False
        for _ in range(c):
            if n < KEY_TILES:
                key = (key << bits) | np.uint64(t + 1)
            n += 1
    if n == 0:
        return 0.0
    if n > KEY_TILES or not storable:
        return default
    key = key << np.uint64(TILE_BITS * (KEY_TILES - n))
    i = np.searchsorted(keys, key)
    if i < keys.shape[0] and keys[i] == key:
        return float(table[i])
    return default


@njit(cache=True, inline="always")
def _ramp(raw: float, bag_left: int, ramp: int) -> float:  # pragma: no cover - compiled
    """A leave's value as the equity player counts it with ``bag_left`` tiles in the bag: a
    good leave's ramped down (``Rollouts._leave_value``)."""
    if raw > 0 and ramp:
        return raw * min(1.0, bag_left / ramp)
    return raw


@njit(cache=True)
def _rack_leaves(
    keys: Any, table: Any, default: float, counts: Any, radix: Any, racks: Any, p: int,
    values: Any, bag_left: int, ramp: int, stuck: float,
) -> Any:  # pragma: no cover - compiled
    """The leave term of every leave of the rack ``counts`` of seat ``p``, by index, with the
    radix written into ``radix`` (``Rollouts._rack_leaves``): the endgame's once the bag is
    empty (going out worth the other racks, a kept tile its face value times ``stuck`` as a
    cost), else the table's, a good leave's ramped down."""
    size = 1
    n = 0
    for t in range(CODES):
        radix[t] = 0
        if counts[t]:
            radix[t] = size
            size *= counts[t] + 1
            n += counts[t]
    if bag_left == 0:
        seats = racks.shape[0]
        others = 0
        for q in range(seats):
            if q != p:
                for t in range(CODES):
                    others += racks[q, t] * values[t]
        out = np.zeros(size, np.float64)
        for index in range(size):
            face = 0
            for t in range(CODES):
                if counts[t]:
                    face += kept_count(index, radix, t, counts[t]) * values[t]
            out[index] = face * -stuck
        out[0] = others * seats / (seats - 1)
        return out
    tiles = np.zeros(n, np.int64)
    j = 0
    for t in range(CODES):
        for _ in range(counts[t]):
            tiles[j] = t
            j += 1
    out = _rack_leave_values(keys, table, default, tiles, radix, size)
    weight = min(1.0, bag_left / ramp) if ramp else 1.0
    for index in range(size):
        if out[index] > 0:
            out[index] = out[index] * weight
    return out


@njit(cache=True)
def _best_keep(leaves: Any, radix: Any, counts: Any) -> tuple[int, float]:  # pragma: no cover
    """The index of the leave of highest value among those smaller than the rack, and its
    value; among equals the first in the order the leave-by-leave search meets them (the
    count of the lowest tile code varying slowest: ``rollouts._best_keep``)."""
    weight = np.zeros(CODES, np.int64)  # the place of each code in that order
    w = 1
    for t in range(CODES - 1, -1, -1):
        if counts[t]:
            weight[t] = w
            w *= counts[t] + 1
    best = -np.inf
    best_index = -1
    best_order = 0
    for index in range(leaves.shape[0] - 1):
        v = leaves[index]
        if v < best:
            continue
        order = 0
        for t in range(CODES):
            if counts[t]:
                order += kept_count(index, radix, t, counts[t]) * weight[t]
        if v > best or order < best_order:
            best, best_index, best_order = v, index, order
    return best_index, best


@njit(cache=True)
def _lay(board: Any, rack: Any, r: int, c: int, direction: int, length: int, tiles: Any,
         size: int) -> None:  # pragma: no cover - compiled
    """Put a play's tiles on the board and take them off the rack."""
    i = r * size + c
    step = 1 if direction == 0 else size
    for j in range(length):
        t = tiles[j]
        if t:
            board[i] = t
            rack[0 if t & 0x80 else t] -= 1
        i += step


@njit(cache=True, inline="always")
def _tiles(rack: Any) -> int:  # pragma: no cover - compiled
    n = 0
    for t in range(CODES):
        n += rack[t]
    return n


@njit(cache=True)
def _draw(rack: Any, bag: Any, n_bag: int, drawn: int,
          rack_size: int) -> int:  # pragma: no cover - compiled
    """Fill the rack from the bag; the new count drawn."""
    need = rack_size - _tiles(rack)
    while need > 0 and drawn < n_bag:
        rack[bag[drawn]] += 1
        drawn += 1
        need -= 1
    return drawn


@njit(cache=True)
def _swap(rack: Any, bag: Any, n_bag: int, drawn: int, thrown: Any, seed: int,
          rest: Any) -> int:  # pragma: no cover - compiled
    """An exchange (``Rollouts._swap``): draw first, then the bag left and the thrown tiles
    (in tile order) are shuffled by :func:`shuffle_tiles`; they become the bag, from its start
    (the new count of tiles in the bag)."""
    n = _tiles(thrown)
    take = min(n, n_bag - drawn)
    for i in range(take):
        rack[bag[drawn + i]] += 1
    m = 0
    for i in range(drawn + take, n_bag):
        rest[m] = bag[i]
        m += 1
    for t in range(CODES):
        for _ in range(thrown[t]):
            rest[m] = t
            m += 1
    shuffle_tiles(rest, m, seed)
    for i in range(m):
        bag[i] = rest[i]
    return m


@njit(cache=True)
def _final(scores: Any, racks: Any, values: Any, me: int, out: int) -> float:  # pragma: no cover
    """Our margin over the best opponent after the final count (``Rollouts._final``)."""
    seats = racks.shape[0]
    own = np.zeros(seats, np.int64)
    for q in range(seats):
        for t in range(CODES):
            own[q] += racks[q, t] * values[t]
    final = np.zeros(seats, np.int64)
    others = 0
    for q in range(seats):
        final[q] = scores[q] - own[q]
        if q != out:
            others += own[q]
    if out >= 0:
        final[out] = scores[out] + others
    best = -(1 << 62)
    for q in range(seats):
        if q != me and final[q] > best:
            best = final[q]
    return float(final[me] - best)


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
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """The ``keep`` plays of highest equity of ``rack`` along the ``lanes`` of a board that
    is not empty, given its :func:`board_state`: :func:`letras.movegen._kernels.generate`'s
    search (anchors by bound, best first, with its pruning) on cross-sets made beforehand.
    Exact but for which of equal plays it keeps."""
    grids, sets, cscores, has = state
    meta = np.zeros((keep, k.COLUMNS), np.int32)
    out = np.zeros((keep, size), np.uint8)
    val = np.zeros(keep, np.float64)
    count = 0
    centre = (size // 2) * size + size // 2
    frames = np.zeros((2 * size + 2, k.FIELDS), np.int64)
    todo = np.zeros(2 * size + 2, np.uint64)
    lists = np.zeros(2 * size + 2, np.uint64)
    cur = np.zeros(size, np.uint8)
    anchor = np.zeros(size, np.bool_)
    playable = np.zeros(size, np.uint64)
    rack_mask = np.uint64(0)
    total = 0
    n_codes = 0
    for code in range(CODES):
        total += rack[code]
        if rack[code] > 0:
            n_codes += 1
            if code > 0:
                rack_mask |= np.uint64(1) << np.uint64(code)
    if rack[0] > 0:
        rack_mask = k.ALL
    rv = np.zeros(max(total, 1), np.int64)
    codes = np.zeros(n_codes, np.int64)
    j = 0
    n_codes = 0
    for code in range(CODES):
        if rack[code] > 0:
            codes[n_codes] = code
            n_codes += 1
        for _ in range(rack[code]):
            rv[j] = values[code] if code > 0 else 0
            j += 1
    rv = np.sort(rv)[::-1].copy()
    rem = np.zeros(max(total, 1), np.int64)
    leave_by_placed = np.full(total + 1, -np.inf)
    for index in range(leaves.shape[0]):
        placed = total
        for tile in codes:
            placed -= kept_count(index, radix, tile, rack[tile])
        leave_by_placed[placed] = max(leave_by_placed[placed], leaves[index])
    sides = np.zeros((2, size), np.int64)
    opts = np.zeros((2, size + 1, 4), np.int64)
    coefs = np.zeros(size, np.int64)
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
                an_bound[n_an] = k._shadow(grid[base: base + size], base, a, size, anchor,
                                           playable, has[d], cscores[d], lms[d], wms[d],
                                           values, rv, rack, total, rack_size, bingo,
                                           leave_by_placed)
                n_an += 1
    order = np.argsort(-an_bound[:n_an], kind="mergesort")
    for idx in order:
        if count == keep and an_bound[idx] <= val[k._weakest(val, count)]:
            break
        d = an_dir[idx]
        row = an_row[idx]
        grid = grids[d]
        base = row * size
        k._lane_setup(grid, row, size, False, centre, sets[d], rack_mask, anchor, playable)
        meta, out, val, count = k._dfs(
            pk, grid[base: base + size], base, row, d, an_a[idx], size, anchor, playable,
            has[d], cscores[d], lms[d], wms[d], values, rack, rack_size, bingo, join, keep,
            frames, todo, lists, cur, meta, out, val, count, True, leaves, radix, codes,
            leave_by_placed, rem, sides, opts, coefs)
    return meta, out, val, count


LANE_KEEP = 2
"""Plays kept per lane in the reuse of the first reply (two: to see a tie for the best)."""


@njit(cache=True)
def lane_tops(
    pk: Any, state: Any, lms: Any, wms: Any, values: Any, rack: Any, rack_size: int,
    bingo: int, join: bool, leaves: Any, radix: Any, size: int,
) -> tuple[Any, Any, Any, Any]:  # pragma: no cover - compiled
    """The :data:`LANE_KEEP` plays of highest equity along each lane, lane by lane
    (``(2 * size, LANE_KEEP, ...)``, across rows then down columns), and how many each has."""
    lanes = np.zeros((2, size), np.bool_)
    metas = np.zeros((2 * size, LANE_KEEP, k.COLUMNS), np.int32)
    outs = np.zeros((2 * size, LANE_KEEP, size), np.uint8)
    vals = np.zeros((2 * size, LANE_KEEP), np.float64)
    counts = np.zeros(2 * size, np.int64)
    for d in range(2):
        for row in range(size):
            lanes[d, row] = True
            meta, out, val, count = top_on_lanes(pk, state, lms, wms, values, rack, rack_size,
                                                 bingo, join, lanes, LANE_KEEP, leaves,
                                                 radix, size)
            lanes[d, row] = False
            i = d * size + row
            counts[i] = count
            metas[i, :count] = meta[:count]
            outs[i, :count] = out[:count]
            vals[i, :count] = val[:count]
    return metas, outs, vals, counts


@njit(cache=True)
def _reuse(
    pk: Any, tops: Any, state: Any, changed: Any, lms: Any, wms: Any, values: Any, rack: Any,
    rack_size: int, bingo: int, join: bool, leaves: Any, radix: Any, size: int,
) -> tuple[Any, Any, Any, int, int]:  # pragma: no cover - compiled
    """The best play from ``tops`` on the lanes not ``changed`` and from a search of the
    changed ones (see :func:`play_out`), as ``generate`` returns it, and how many plays share
    the best value (the caller searches the whole board when more than one)."""
    metas, outs, vals, counts = tops
    meta, out, val, count = top_on_lanes(pk, state, lms, wms, values, rack, rack_size, bingo,
                                         join, changed, LANE_KEEP, leaves, radix, size)
    best = -np.inf
    ties = 0
    lane = -1
    row = -1
    for q in range(count):
        if val[q] > best:
            best, ties, lane, row = val[q], 1, -1, q
        elif val[q] == best:
            ties += 1
    for i in range(2 * size):
        if changed[i // size, i % size]:
            continue
        for q in range(counts[i]):
            v = vals[i, q]
            if v > best:
                best, ties, lane, row = v, 1, i, q
            elif v == best:
                ties += 1
    if ties == 0:
        return meta, out, val, 0, 0
    if lane >= 0:
        meta[0] = metas[lane, row]
        out[0] = outs[lane, row]
        val[0] = vals[lane, row]
    else:
        meta[0] = meta[row]
        out[0] = out[row]
        val[0] = val[row]
    return meta, out, val, 1, ties


@njit(cache=True)
def play_out(
    pk: Any, letter: Any, word: Any, values: Any, p_int: Any, p_float: Any, keys: Any,
    table: Any, board0: Any, scores0: Any, racks0: Any, bag0: Any, seed: int, opponents: Any,
    kind: int, cand: Any, cand_tiles: Any, thrown0: Any, reuse: bool, tops: Any,
    state: Any, changed: Any, lms: Any, wms: Any,
) -> tuple[float, bool, int, int]:  # pragma: no cover - compiled
    """One rollout of a candidate on one deal (``Rollouts.rollout``): the candidate of
    ``kind`` (:data:`PLACE`: ``cand`` holds its row, column, direction, length and score,
    ``cand_tiles`` its tiles; :data:`EXCHANGE`: ``thrown0`` the counts it throws; or
    :data:`PASS`), then the plies. ``racks0`` holds every seat's rack as counts per tile code,
    ``bag0`` the dealt bag in order, ``seed`` the deal's seed; ``p_int`` and ``p_float`` the
    position's settings (``P_...``, ``F_...``).

    With ``reuse``, the first opponent's first reply is put together from ``tops`` (the best
    plays of their rack along each lane of the board before the candidate,
    :func:`lane_tops`) on the lanes the candidate leaves as they were, and the search of the
    others (``changed``) on the board after it (``state``, its :func:`board_state`; ``lms``
    and ``wms`` the premiums both ways), when the leaves are not ramped down: the same best
    play, since a unique best is found by either search, and the whole board is searched
    again when two plays tie for the best.

    Returns (margin over the best opponent, whether the game ended, tiles left in the bag,
    replies made): the margin counts leaves at the horizon, or is the final one when the game
    ended."""
    size = p_int[P_SIZE]
    nletters = p_int[P_NLETTERS]
    rack_size = p_int[P_RACK]
    bingo = p_int[P_BINGO]
    join = p_int[P_JOIN] != 0
    exchange_min = p_int[P_EXCHANGE_MIN]
    me = p_int[P_ME]
    plies = p_int[P_PLIES]
    to_end = p_int[P_TO_END] != 0
    ramp = p_int[P_RAMP]
    default = p_float[F_DEFAULT]
    bonus = p_float[F_EXCHANGE_BONUS]
    stuck = p_float[F_STUCK]
    seats = racks0.shape[0]
    board = board0.copy()
    racks = racks0.copy()
    scores = scores0.copy()
    n_bag = bag0.shape[0]
    bag = np.zeros(n_bag + CODES, np.int64)
    bag[:n_bag] = bag0
    rest = np.zeros(n_bag + CODES, np.int64)
    kept = np.zeros(seats, np.float64)
    thrown = np.zeros(CODES, np.int64)
    radix = np.zeros(CODES, np.int64)
    lanes = np.ones((2, size), np.bool_)
    drawn = 0
    replies = 0
    rack = racks[me]
    if kind == PLACE:
        _lay(board, rack, cand[0], cand[1], cand[2], cand[3], cand_tiles, size)
        scores[me] += cand[4]
        kept[me] = _ramp(leave_value(keys, table, default, rack), n_bag, ramp)
        drawn = _draw(rack, bag, n_bag, drawn, rack_size)
        if _tiles(rack) == 0:
            return _final(scores, racks, values, me, me), True, 0, 0
    elif kind == EXCHANGE:
        for t in range(CODES):
            rack[t] -= thrown0[t]
        kept[me] = _ramp(leave_value(keys, table, default, rack), n_bag, ramp)
        n_bag = _swap(rack, bag, n_bag, 0, thrown0, seed, rest)
        drawn = 0
    else:
        if p_int[P_PASS_ENDS]:
            return _final(scores, racks, values, me, -1), True, n_bag, 0
        kept[me] = _ramp(leave_value(keys, table, default, rack), n_bag, ramp)
    passes = 1 if kind == PASS else 0
    for ply in range(plies):
        movers = opponents.shape[0] if ply % 2 == 0 else 1
        for j in range(movers):
            p = opponents[j] if ply % 2 == 0 else me
            rack = racks[p]
            bag_left = n_bag - drawn
            can_exchange = bag_left >= exchange_min
            leaves = _rack_leaves(keys, table, default, rack, radix, racks, p, values,
                                  bag_left, ramp, stuck)
            ties = 2
            if reuse and ply == 0 and j == 0 and bag_left >= ramp:
                meta, out, val, count, ties = _reuse(pk, tops, state, changed, lms, wms,
                                                     values, rack, rack_size, bingo, join,
                                                     leaves, radix, size)
            if ties > 1:
                meta, out, val, count = k.generate(
                    pk, board, size, rack, values, letter, word, nletters, rack_size, bingo,
                    True, join, lanes, 1, True, leaves, radix)
            best = 0
            for i in range(1, count):
                if val[i] > val[best]:
                    best = i
            whole = leaves[leaves.shape[0] - 1]
            keep = -1
            keep_value = -np.inf
            if can_exchange and leaves.shape[0] > 1:
                keep, keep_value = _best_keep(leaves, radix, rack)
            play_equity = val[best] if count else -np.inf
            exchange_equity = keep_value + bonus
            replies += 1
            if count and play_equity >= exchange_equity and play_equity >= whole:
                points = meta[best, SCORE]
                kept[p] = val[best] - points
                scores[p] += points
                passes = 0
                _lay(board, rack, meta[best, ROW], meta[best, COL], meta[best, DIRECTION],
                     meta[best, LENGTH], out[best], size)
                drawn = _draw(rack, bag, n_bag, drawn, rack_size)
                if _tiles(rack) == 0:
                    return _final(scores, racks, values, me, p), True, n_bag - drawn, replies
            elif can_exchange and exchange_equity >= whole:
                kept[p] = keep_value
                passes = 0
                for t in range(CODES):
                    thrown[t] = rack[t] - (kept_count(keep, radix, t, rack[t])
                                           if rack[t] else 0)
                for t in range(CODES):
                    rack[t] -= thrown[t]
                n_bag = _swap(rack, bag, n_bag, drawn, thrown, seed + ply, rest)
                drawn = 0
            else:
                kept[p] = whole
                passes += 1
                if to_end and passes >= seats and drawn == n_bag:
                    return _final(scores, racks, values, me, -1), True, 0, replies
    best_other = -np.inf
    for j in range(opponents.shape[0]):
        p = opponents[j]
        v = scores[p] + kept[p]
        if v > best_other:
            best_other = v
    return scores[me] + kept[me] - best_other, False, n_bag - drawn, replies


class CompiledRollouts(Rollouts):
    """:class:`Rollouts` whose rollouts are :func:`play_out` (the leaves must be a
    :class:`LeaveTable`)."""

    def __init__(
        self,
        view: PlayerView,
        lexicon: WordGraph,
        leaves: LeaveTable,
        cache: dict[tuple[int, ...], float],
        plies: int,
        inferred: Sequence[tuple[int, ...]] = (),
    ) -> None:
        super().__init__(view, lexicon, leaves, cache, plies, inferred)
        announce_first_compile(k, "generate", "compile.movegen")
        edition = view.edition
        letter, word, values = _edition_arrays(edition)
        self._graph = (packed(lexicon), letter, word, values)
        p_int = np.zeros(P_COUNT, np.int64)
        p_int[P_SIZE] = self.size
        p_int[P_NLETTERS] = len(edition.tiles.labels) - 1
        p_int[P_RACK] = self.rack_size
        p_int[P_BINGO] = self.bingo
        p_int[P_JOIN] = int(self.join_words)
        p_int[P_EXCHANGE_MIN] = self.exchange_min
        p_int[P_ME] = self.me
        p_int[P_PLIES] = END_PLIES if self.to_end else self.plies
        p_int[P_TO_END] = int(self.to_end)
        p_int[P_PASS_ENDS] = int(self.pass_ends_game)
        p_int[P_RAMP] = LEAVE_RAMP_BAG
        self._p_int = p_int
        p_float = np.zeros(F_COUNT, np.float64)
        p_float[F_DEFAULT] = leaves.default
        p_float[F_EXCHANGE_BONUS] = exchange_bonus(leaves)
        p_float[F_STUCK] = ENDGAME_STUCK_FACTOR
        self._p_float = p_float
        self._leaves = (leaves.keys, leaves.values)
        self._board = np.frombuffer(self.squares, np.uint8).copy()
        self._scores = np.array(view.scores, np.int64)
        self._opponents = np.array(self.opponents, np.int64)
        size = self.size
        self._premiums = (np.stack([letter, letter.reshape(size, size).T.reshape(-1)]),
                          np.stack([word, word.reshape(size, size).T.reshape(-1)]))
        self._state = board_state(self._graph[0], self._board, size, values,
                                  int(p_int[P_NLETTERS]))
        self._no_change = np.zeros((2, size), np.bool_)
        self._reusable = not view.board.is_empty() and len(self.opponents) >= 1
        """The first reply may be put together lane by lane (see :func:`play_out`)."""
        self._no_tops = (np.zeros((2 * size, LANE_KEEP, k.COLUMNS), np.int32),
                         np.zeros((2 * size, LANE_KEEP, size), np.uint8),
                         np.zeros((2 * size, LANE_KEEP), np.float64),
                         np.zeros(2 * size, np.int64))
        self._tops: Any = None
        self.reused_deals = 0
        """Deals whose first replies were put together lane by lane."""
        self._per_deal = 0
        """Rollouts of the last deal: the lanes' best plays are worked out for a deal only
        when the last one had enough rollouts to repay it."""
        self._deal: Deal | None = None
        self._dealt: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] = (
            np.zeros((self.seats, CODES), np.int64), np.zeros(0, np.int64))
        self._candidates: dict[int, tuple[Any, ...]] = {}

    def _arrays(self, deal: Deal) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The deal's racks (counts) and bag as arrays, made once per deal."""
        if self._deal is not deal:
            racks = np.zeros((self.seats, CODES), np.int64)
            for p, rack in enumerate(deal.racks):
                for t in rack:
                    racks[p, t] += 1
            self._dealt = (racks, np.array(deal.bag, np.int64))
            self._deal = deal
            self._tops = None
            if (REUSE and self._reusable and self._per_deal >= REUSE_FROM
                    and len(deal.bag) >= LEAVE_RAMP_BAG):
                self._tops = self._lane_tops(racks)
                self.reused_deals += 1
            self._per_deal = 0
        self._per_deal += 1
        return self._dealt

    def _lane_tops(self, racks: npt.NDArray[np.int64]) -> Any:
        """The best plays of the first opponent's dealt rack along each lane of the board,
        their leaves valued as with a bag that does not ramp them down."""
        pk, _, _, values = self._graph
        keys, table = self._leaves
        p = self.opponents[0]
        radix = np.zeros(CODES, np.int64)
        leaves = _rack_leaves(keys, table, float(self._p_float[F_DEFAULT]), racks[p], radix,
                              racks, p, values, LEAVE_RAMP_BAG, LEAVE_RAMP_BAG,
                              ENDGAME_STUCK_FACTOR)
        return lane_tops(pk, self._state, *self._premiums, values, racks[p], self.rack_size,
                         self.bingo, self.join_words, leaves, radix, self.size)

    def _candidate(self, cand: Candidate) -> tuple[int, npt.NDArray[np.int64],
                                                   npt.NDArray[np.uint8],
                                                   npt.NDArray[np.int64]]:
        """The candidate as :func:`play_out` takes it, made once per candidate."""
        known = self._candidates.get(id(cand))
        if known is not None and known[0] is cand:
            return known[1:]
        choice = cand.choice
        meta = np.zeros(5, np.int64)
        tiles = np.zeros(self.size, np.uint8)
        thrown = np.zeros(CODES, np.int64)
        state, changed = self._state, self._no_change
        if isinstance(choice, Place):
            kind = PLACE
            meta[:] = (choice.square.row, choice.square.col,
                       0 if choice.direction is Direction.ACROSS else 1, len(choice.tiles),
                       cand.score)
            tiles[: len(choice.tiles)] = choice.tiles
            if self._reusable:
                after = self._board.copy()
                for sq, t in choice.placed():
                    after[sq.row * self.size + sq.col] = t
                pk, _, _, values = self._graph
                state = board_state(pk, after, self.size, values, int(self._p_int[P_NLETTERS]))
                changed = changed_lanes(self._state, state, self.size)
        elif isinstance(choice, Exchange):
            kind = EXCHANGE
            for t in choice.tiles:
                thrown[t] += 1
        else:
            kind = PASS
        self._candidates[id(cand)] = (cand, kind, meta, tiles, thrown, state, changed)
        return kind, meta, tiles, thrown, state, changed

    def rollout(self, cand: Candidate, deal: Deal) -> tuple[float, float]:
        racks, bag = self._arrays(deal)
        kind, meta, tiles, thrown, state, changed = self._candidate(cand)
        pk, letter, word, values = self._graph
        keys, table = self._leaves
        tops = self._tops
        margin, ended, bag_left, replies = play_out(
            pk, letter, word, values, self._p_int, self._p_float, keys, table, self._board,
            self._scores, racks, bag, deal.seed, self._opponents, kind, meta, tiles, thrown,
            tops is not None, self._no_tops if tops is None else tops, state, changed,
            *self._premiums)
        self.replies += replies
        if ended:
            return margin, 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        return margin, self._chance(margin, bag_left)


def make_rollouts(
    view: PlayerView,
    lexicon: WordGraph,
    leaves: LeaveEvaluator,
    cache: dict[tuple[int, ...], float],
    plies: int,
    inferred: Sequence[tuple[int, ...]] = (),
) -> Rollouts:
    """The compiled rollouts with a :class:`LeaveTable` (and :data:`COMPILED`), else the
    Python ones: the same values either way."""
    if COMPILED and isinstance(leaves, LeaveTable):
        return CompiledRollouts(view, lexicon, leaves, cache, plies, inferred)
    return Rollouts(view, lexicon, leaves, cache, plies, inferred)


__all__ = ["COMPILED", "CompiledRollouts", "leave_value", "make_rollouts", "play_out"]
