"""Compiled kernels for the word graph: building it from sorted keys and walking it.

Nodes here are in the one internal layout (that of wolges' big variant, KBWG): tile in bits 0-5,
``accepts`` 0x80, ``is_end`` 0x40, arc index in bits 8-31. Everything is flat numpy arrays and
explicit loops so that numba compiles it (``cache=True``: the compiled code is kept on disk).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

TILE_MASK = 0x3F
ACCEPTS = 0x80
IS_END = 0x40
ARC_SHIFT = 8
MAX_TILES = 16  # a GADDAG string of a 15-tile word has 16 symbols
TILES_IN_HI = 10


@njit(cache=True)
def make_keys(
    flat: Any, offsets: Any, gaddag: bool
) -> tuple[Any, Any]:  # pragma: no cover - compiled
    """Sort keys for the DAWG words, or for every GADDAG string of every word.

    A key is two uint64: the first 10 symbols (6 bits each) in ``hi``, the other 6 and the
    length in ``lo``. The separator is 0, so ordering keys orders strings.
    """
    n = offsets.shape[0] - 1
    total = 0
    for w in range(n):
        total += (offsets[w + 1] - offsets[w]) if gaddag else 1
    hi = np.zeros(total, np.uint64)
    lo = np.zeros(total, np.uint64)
    buf = np.zeros(MAX_TILES, np.uint8)
    k = 0
    for w in range(n):
        start = offsets[w]
        length = offsets[w + 1] - start
        variants = length if gaddag else 1
        for v in range(variants):
            m = 0
            if not gaddag:
                for i in range(length):
                    buf[m] = flat[start + i]
                    m += 1
            elif v == 0:
                for i in range(length - 1, -1, -1):
                    buf[m] = flat[start + i]
                    m += 1
            else:
                # reversed prefix of v tiles, the separator, then the rest forwards
                for i in range(v - 1, -1, -1):
                    buf[m] = flat[start + i]
                    m += 1
                buf[m] = 0
                m += 1
                for i in range(v, length):
                    buf[m] = flat[start + i]
                    m += 1
            h = np.uint64(0)
            lw = np.uint64(0)
            for i in range(MAX_TILES):
                sym = np.uint64(buf[i]) if i < m else np.uint64(0)
                if i < TILES_IN_HI:
                    h = (h << np.uint64(6)) | sym
                else:
                    lw = (lw << np.uint64(6)) | sym
            hi[k] = h
            lo[k] = (lw << np.uint64(5)) | np.uint64(m)
            k += 1
    return hi, lo


ARC_ACCEPTS = 1 << 6
TARGET_SHIFT = 8
LENGTH_MASK = 0xFF


@njit(cache=True)
def add_strings(
    hi: Any, lo: Any, order: Any, accept: Any, separator: Any,
    arcs: Any, narcs: int, states: Any, nstates: int, table: Any,
) -> tuple[Any, ...]:  # pragma: no cover - compiled
    """Add the sorted strings ``order`` (indices into the keys hi/lo of :func:`make_keys`) to
    the minimal automaton held in ``arcs`` and ``states`` (Daciuk's construction from sorted
    input: each state is made when the strings move past it, and shared with an equal one
    already registered in ``table``). Returns the root state and the (possibly grown) arrays.

    An arc is ``tile | accepts << 6 | target state << 8``; a state is ``first arc << 8 |
    number of arcs`` (state 0, the sink, has none); a table entry is ``hash (31 bits) << 32 |
    state``, the table at most half full (it grows here; ``arcs`` and ``states`` do not:
    they need the room of :func:`room`, else the root is -1). String ``i`` ends in an
    accepting arc when ``accept[i]``; when ``separator[i]`` is not 0, the state it reaches
    also gets a first arc, tile 0, to that state (made already): how the GADDAG points from a
    reversed prefix to the
    DAWG's state of the prefix (:func:`prefixes`). Repeated strings are added once.
    """
    depth_arc = np.zeros((MAX_TILES + 1) * 64, np.int64)
    depth_n = np.zeros(MAX_TILES + 1, np.int64)
    prev = np.zeros(MAX_TILES, np.uint8)
    cur = np.zeros(MAX_TILES, np.uint8)
    prev_len = np.int64(0)
    mask = table.shape[0] - 1
    root = 0
    idx = 0
    total = order.shape[0]
    for step in range(total + 1):
        last = step == total
        if not last:
            idx = order[step]
            h = hi[idx]
            rest = lo[idx] >> np.uint64(5)
            cur_len = np.int64(lo[idx] & np.uint64(31))
            for i in range(MAX_TILES):
                if i < TILES_IN_HI:
                    cur[i] = (h >> np.uint64(6 * (TILES_IN_HI - 1 - i))) & np.uint64(63)
                else:
                    cur[i] = (rest >> np.uint64(6 * (MAX_TILES - 1 - i))) & np.uint64(63)
            common = 0
            while common < cur_len and common < prev_len and cur[common] == prev[common]:
                common += 1
            if common == cur_len and cur_len == prev_len:
                continue  # a repeated string
        else:
            cur_len = np.int64(0)
            common = -1  # the root's state too
        # make (or find) the states deeper than the common prefix, deepest first
        d = prev_len
        while d > common:
            n = depth_n[d]
            base = d * 64
            sid = 0
            if n > 0:
                hh = np.uint64(1469598103934665603)
                for i in range(n):
                    hh = (hh ^ np.uint64(depth_arc[base + i])) * np.uint64(1099511628211)
                    hh ^= hh >> np.uint64(29)
                hh ^= hh >> np.uint64(33)  # the low bits pick the slot: mix the high ones in
                hh *= np.uint64(0xFF51AFD7ED558CCD)
                hh ^= hh >> np.uint64(33)
                h31 = np.int64(hh & np.uint64(0x7FFFFFFF))
                slot = h31 & mask
                while True:
                    entry = table[slot]
                    if entry == 0:
                        break
                    if (entry >> 32) == h31:
                        cand = entry & 0xFFFFFFFF
                        state = states[cand]
                        if (state & LENGTH_MASK) == n:
                            s0 = state >> TARGET_SHIFT
                            same = True
                            for i in range(n):
                                if arcs[s0 + i] != depth_arc[base + i]:
                                    same = False
                                    break
                            if same:
                                sid = cand
                                break
                    slot = (slot + 1) & mask
                if sid == 0:
                    if narcs + n > arcs.shape[0] or nstates >= states.shape[0]:
                        return -1, arcs, narcs, states, nstates, table  # no room: see room()
                    for i in range(n):
                        arcs[narcs + i] = depth_arc[base + i]
                    states[nstates] = (narcs << TARGET_SHIFT) | n
                    sid = nstates
                    narcs += n
                    nstates += 1
                    table[slot] = (h31 << 32) | sid
                    if nstates * 2 > table.shape[0]:
                        wider = np.zeros(table.shape[0] * 2, np.int64)
                        mask = wider.shape[0] - 1
                        for old in range(table.shape[0]):
                            entry = table[old]
                            if entry != 0:
                                sl = (entry >> 32) & mask
                                while wider[sl] != 0:
                                    sl = (sl + 1) & mask
                                wider[sl] = entry
                        table = wider
            depth_n[d] = 0
            if d == 0:
                root = sid
            else:
                depth_arc[(d - 1) * 64 + depth_n[d - 1] - 1] |= sid << TARGET_SHIFT
            d -= 1
        if last:
            break
        for i in range(common, cur_len):
            arc = np.int64(cur[i])
            if i == cur_len - 1 and accept[idx] != 0:
                arc |= ARC_ACCEPTS
            depth_arc[i * 64 + depth_n[i]] = arc
            depth_n[i] += 1
        if separator[idx] != 0:  # the separator sorts first: the end state's first arc
            depth_arc[cur_len * 64] = np.int64(separator[idx]) << TARGET_SHIFT
            depth_n[cur_len] = 1
        for i in range(cur_len):
            prev[i] = cur[i]
        prev_len = cur_len
    return root, arcs, narcs, states, nstates, table


def room(lo: Any, separator: Any) -> int:
    """At most how many arcs, and states, :func:`add_strings` makes of these strings: one
    for each of their tiles and separators. (Arrays of zeros are mapped lazily: the room
    not used costs address space, not memory.)"""
    return int((lo & np.uint64(31)).sum()) + int(np.count_nonzero(separator)) + 1


def widened(array: Any, used: int, size: int) -> Any:
    """``array`` with room for ``size`` entries, its first ``used`` kept."""
    if len(array) >= size:
        return array
    wider = np.zeros(size, array.dtype)
    wider[:used] = array[:used]
    return wider


def build_states(
    hi: Any, lo: Any, order: Any,
    arc_tile: Any, arc_acc: Any, arc_target: Any, narcs: int,
    state_start: Any, state_len: Any, nstates: int,
    table: Any,
) -> tuple[Any, ...]:
    """:func:`add_strings` of plain strings, each accepted (a word list, a leave table), with
    the arcs and states as separate arrays (tile, accepts, target; first arc, number of arcs);
    ``table`` is empty or one this returned."""
    arcs = (arc_tile[:narcs].astype(np.int64) | arc_acc[:narcs].astype(np.int64) << 6
            | arc_target[:narcs].astype(np.int64) << TARGET_SHIFT)
    states = (state_start[:nstates].astype(np.int64) << TARGET_SHIFT
              | state_len[:nstates].astype(np.int64))
    if table.dtype != np.int64:
        table = np.zeros(max(len(table), 16), np.int64)
    more = room(lo, np.zeros(0, np.int32))
    root, arcs, narcs, states, nstates, table = add_strings(
        hi, lo, order, np.ones(len(hi), np.uint8), np.zeros(len(hi), np.int32),
        widened(arcs, narcs, narcs + more), narcs, widened(states, nstates, nstates + more),
        nstates, table)
    arcs, states = arcs[:narcs], states[:nstates]
    return (root, (arcs & TILE_MASK).astype(np.uint8), (arcs >> 6 & 1).astype(np.uint8),
            (arcs >> TARGET_SHIFT).astype(np.int32), narcs, states >> TARGET_SHIFT,
            (states & LENGTH_MASK).astype(np.int32), nstates, table)


@njit(cache=True)
def prefixes(
    flat: Any, offsets: Any, order: Any, arcs: Any, states: Any, root: int,
) -> tuple[Any, Any, Any, Any]:  # pragma: no cover - compiled
    """The GADDAG's strings before its separator, from the DAWG just built.

    For every distinct prefix p of the words (``order``: the words sorted), the sort key of p
    reversed (as :func:`make_keys` makes them), whether p is a word and the DAWG's state after
    p (0 when no word goes on from p). The GADDAG holds, for a word w and a split after its
    i-th tile, w[:i] reversed, the separator, then w[i:]: after the separator come exactly the
    words' endings that the DAWG's state after w[:i] accepts, so the GADDAG's arc for the
    separator goes to that state and only the reversed prefixes are new.
    """
    n = order.shape[0]
    total = 0
    prev = -1
    for j in range(n):
        w = order[j]
        length = offsets[w + 1] - offsets[w]
        common = 0
        if prev >= 0:
            plen = offsets[prev + 1] - offsets[prev]
            while (common < length and common < plen
                   and flat[offsets[w] + common] == flat[offsets[prev] + common]):
                common += 1
        total += length - common
        prev = w
    hi = np.zeros(total, np.uint64)
    lo = np.zeros(total, np.uint64)
    accept = np.zeros(total, np.uint8)
    after = np.zeros(total, np.int32)
    path = np.zeros(MAX_TILES + 1, np.int64)
    path[0] = root
    k = 0
    prev = -1
    for j in range(n):
        w = order[j]
        start = offsets[w]
        length = offsets[w + 1] - start
        common = 0
        if prev >= 0:
            plen = offsets[prev + 1] - offsets[prev]
            while (common < length and common < plen
                   and flat[start + common] == flat[offsets[prev] + common]):
                common += 1
        prev = w
        for i in range(common, length):
            state = states[path[i]]
            a = state >> TARGET_SHIFT
            end = a + (state & LENGTH_MASK)
            while a < end and (arcs[a] & TILE_MASK) != flat[start + i]:
                a += 1
            path[i + 1] = arcs[a] >> TARGET_SHIFT
            accept[k] = (arcs[a] >> 6) & 1
            after[k] = path[i + 1]
            h = np.uint64(0)
            lw = np.uint64(0)
            for pos in range(MAX_TILES):
                sym = np.uint64(flat[start + i - pos]) if pos <= i else np.uint64(0)
                if pos < TILES_IN_HI:
                    h = (h << np.uint64(6)) | sym
                else:
                    lw = (lw << np.uint64(6)) | sym
            hi[k] = h
            lo[k] = (lw << np.uint64(5)) | np.uint64(i + 1)
            k += 1
    return hi, lo, accept, after


@njit(cache=True)
def lay_out(
    arcs: Any, states: Any, nstates: int, dawg_root: int, gaddag_root: int,
) -> Any:  # pragma: no cover - compiled
    """The node array: node 0 points at the DAWG, node 1 at the GADDAG, then every state's
    arcs in the order the states were made (the DAWG's first)."""
    pos = np.zeros(nstates, np.int64)
    p = 2
    for s in range(1, nstates):
        pos[s] = p
        p += states[s] & LENGTH_MASK
    nodes = np.zeros(p, np.uint32)
    nodes[0] = np.uint32(IS_END) | (np.uint32(pos[dawg_root]) << np.uint32(ARC_SHIFT))
    nodes[1] = np.uint32(IS_END) | (np.uint32(pos[gaddag_root]) << np.uint32(ARC_SHIFT))
    for s in range(1, nstates):
        s0 = states[s] >> TARGET_SHIFT
        n = states[s] & LENGTH_MASK
        for i in range(n):
            arc = arcs[s0 + i]
            node = np.uint32(arc & TILE_MASK)
            if arc & ARC_ACCEPTS:
                node |= np.uint32(ACCEPTS)
            if i == n - 1:
                node |= np.uint32(IS_END)
            node |= np.uint32(pos[arc >> TARGET_SHIFT]) << np.uint32(ARC_SHIFT)
            nodes[pos[s] + i] = node
    return nodes


@njit(cache=True)
def seek(nodes: Any, p: Any, tile: Any) -> Any:  # pragma: no cover - compiled
    """The node for ``tile`` among the arcs of node ``p``, or -1."""
    p = np.int64(nodes[p] >> np.uint32(ARC_SHIFT))
    if p == 0:
        return -1
    while True:
        node = nodes[p]
        if (node & np.uint32(TILE_MASK)) == tile:
            return p
        if node & np.uint32(IS_END):
            return -1
        p += 1


@njit(cache=True)
def contains(nodes: Any, word: Any) -> bool:  # pragma: no cover - compiled
    """Is ``word`` (tile codes, blank bits ignored) a word of the DAWG?"""
    p = 0
    n = word.shape[0]
    if n == 0:
        return False
    for i in range(n):
        p = seek(nodes, p, word[i] & 0x3F)
        if p < 0:
            return False
    return bool(nodes[p] & np.uint32(ACCEPTS))


@njit(cache=True)
def count_words(nodes: Any, root: int) -> int:  # pragma: no cover - compiled
    """How many words the graph holds from node ``root`` (iteratively, with a stack)."""
    stack = np.zeros(4096, np.int64)
    top = 0
    start = np.int64(nodes[root] >> np.uint32(ARC_SHIFT))
    if start == 0:
        return 0
    stack[0] = start
    top = 1
    total = 0
    while top > 0:
        top -= 1
        p = stack[top]
        while True:
            node = nodes[p]
            if node & np.uint32(ACCEPTS):
                total += 1
            arc = np.int64(node >> np.uint32(ARC_SHIFT))
            if arc != 0:
                stack[top] = arc
                top += 1
            if node & np.uint32(IS_END):
                break
            p += 1
    return total


@njit(cache=True)
def child_masks(nodes: Any) -> Any:  # pragma: no cover - compiled
    """For every node, the tiles of its arc list from it to the list's end, as bits (nodes
    0 and 1, the roots' pointers, get none)."""
    masks = np.zeros(len(nodes), np.uint64)
    for p in range(len(nodes) - 1, 1, -1):
        node = nodes[p]
        bit = np.uint64(1) << np.uint64(node & np.uint32(TILE_MASK))
        if node & np.uint32(IS_END) or p == len(nodes) - 1:
            masks[p] = bit
        else:
            masks[p] = bit | masks[p + 1]
    return masks
