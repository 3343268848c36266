"""The pieces of a simulated ply on flat arrays, for the compiled rollouts
(:mod:`letras.ai.sim.compiled`): a leave's value from a leave table, the leave term of every
leave of a rack, the best exchange, laying a play, drawing, exchanging, the final count. Each
does what the Python rollouts (:class:`~letras.ai.sim.rollouts.Rollouts`) do, named in its
docstring; a rack is its counts per tile code, the bag an array and how many were drawn.
This module reaches into the leave table's private kernel
(:func:`letras.ai.leaves.klv._rack_leave_values`): if it changes, this is what to follow.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from letras.ai.leaves.klv import KEY_TILES, MAX_TILE, TILE_BITS, _rack_leave_values
from letras.ai.sim.shuffle import shuffle_tiles
from letras.movegen.leaves import CODES, kept_count


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
def ramp_value(raw: float, bag_left: int, ramp: int) -> float:  # pragma: no cover - compiled
    """A leave's value as the equity player counts it with ``bag_left`` tiles in the bag: a
    good leave's ramped down (``Rollouts._leave_value``)."""
    if raw > 0 and ramp:
        return raw * min(1.0, bag_left / ramp)
    return raw


@njit(cache=True)
def rack_leaves(
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
def best_keep(leaves: Any, radix: Any, counts: Any) -> tuple[int, float]:  # pragma: no cover
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
def lay(board: Any, rack: Any, r: int, c: int, direction: int, length: int, tiles: Any,
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
def tiles_of(rack: Any) -> int:  # pragma: no cover - compiled
    n = 0
    for t in range(CODES):
        n += rack[t]
    return n


@njit(cache=True)
def draw(rack: Any, bag: Any, n_bag: int, drawn: int,
          rack_size: int) -> int:  # pragma: no cover - compiled
    """Fill the rack from the bag; the new count drawn."""
    need = rack_size - tiles_of(rack)
    while need > 0 and drawn < n_bag:
        rack[bag[drawn]] += 1
        drawn += 1
        need -= 1
    return drawn


@njit(cache=True)
def swap(rack: Any, bag: Any, n_bag: int, drawn: int, thrown: Any, seed: int,
          rest: Any) -> int:  # pragma: no cover - compiled
    """An exchange (``Rollouts._swap``): draw first, then the bag left and the thrown tiles
    (in tile order) are shuffled by :func:`shuffle_tiles`; they become the bag, from its start
    (the new count of tiles in the bag)."""
    n = tiles_of(thrown)
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
def final_margins(scores: Any, racks: Any, values: Any, me: int, out: int,
                  margins: Any) -> None:  # pragma: no cover - compiled
    """Our margin over each seat after the final count (``Rollouts._final``; 0 for our own)
    into ``margins``; ``out`` is the seat that went out (or -1)."""
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
    for q in range(seats):
        margins[q] = float(final[me] - final[q])


__all__ = ["best_keep", "draw", "final_margins", "lay", "leave_value", "rack_leaves",
           "ramp_value", "swap", "tiles_of"]
