"""The compiled kernels of word maps (:mod:`letras.movegen.wordmap`): building a map from a
word graph, and looking a rack up in it. Kept apart from the map's loader so that a process
that only reads a cached map (``letras moves --top``) does not import numba."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from letras.movegen.wordmap import MAX_BLANKS, MAX_WORD_TILES

TILE_MASK = 0x3F
ACCEPTS = 0x80
IS_END = 0x40
ARC_SHIFT = 8
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def _words_of_length(nodes: Any, shortest: int, longest: int) -> tuple[Any, Any]:
    """The words of ``shortest`` to ``longest`` tiles of the graph (its DAWG part), as rows
    of tile codes (0 past the word's end) and their lengths."""
    rows = np.zeros((1024, longest), np.uint8)
    lengths = np.zeros(1024, np.int64)
    count = 0
    stack = np.zeros(longest, np.int64)
    path = np.zeros(longest, np.uint8)
    stack[0] = np.int64(nodes[0] >> ARC_SHIFT)
    if stack[0] == 0:
        return rows[:0], lengths[:0]
    d = 0
    while d >= 0:
        word = nodes[stack[d]]
        path[d] = word & TILE_MASK
        if word & ACCEPTS and shortest <= d + 1:
            if count == len(lengths):
                bigger = np.zeros((2 * count, longest), np.uint8)
                bigger[:count] = rows
                rows = bigger
                more = np.zeros(2 * count, np.int64)
                more[:count] = lengths
                lengths = more
            rows[count, : d + 1] = path[: d + 1]
            lengths[count] = d + 1
            count += 1
        child = np.int64(word >> ARC_SHIFT)
        if d + 1 < longest and child != 0:
            d += 1
            stack[d] = child
            continue
        while d >= 0:
            if nodes[stack[d]] & IS_END:
                d -= 1
            else:
                stack[d] += 1
                break
    return rows[:count], lengths[:count]


@njit(cache=True)
def _long_keys(nodes: Any, shortest: int, longest: int,
               keys: Any) -> Any:  # pragma: no cover - compiled
    """The keys (blanks none) of the words of ``shortest`` to ``longest`` tiles."""
    out = np.zeros(1024, np.uint64)
    count = 0
    stack = np.zeros(longest, np.int64)
    sums = np.zeros(longest + 1, np.uint64)  # the key of the path's first d tiles
    stack[0] = np.int64(nodes[0] >> ARC_SHIFT)
    if stack[0] == 0:
        return out[:0]
    d = 0
    while d >= 0:
        word = nodes[stack[d]]
        sums[d + 1] = sums[d] + keys[word & TILE_MASK]
        if word & ACCEPTS and shortest <= d + 1:
            if count == len(out):
                more = np.zeros(2 * count, np.uint64)
                more[:count] = out
                out = more
            key = sums[d + 1] + keys[64 + (d + 1) * 4]
            out[count] = key if key != 0 else np.uint64(1)
            count += 1
        child = np.int64(word >> ARC_SHIFT)
        if d + 1 < longest and child != 0:
            d += 1
            stack[d] = child
            continue
        while d >= 0:
            if nodes[stack[d]] & IS_END:
                d -= 1
            else:
                stack[d] += 1
                break
    return out[:count]


@njit(cache=True)
def _set_of(keys: Any) -> Any:  # pragma: no cover - compiled
    """A hash table (as the map's) of the distinct non-zero ``keys``, at most 70% full (its
    misses, the common answer, probe a few neighbouring slots)."""
    table = np.zeros(16, np.uint64)
    n = 0
    for key in keys:
        if 10 * (n + 1) > 7 * len(table):
            table, n = _rehash(table, 2 * len(table))
        s = _slot(table, key)
        if table[s] != key:
            table[s] = key
            n += 1
    return table


@njit(cache=True, inline="always")
def _slot(table: Any, key: Any) -> Any:  # pragma: no cover - compiled
    """Where ``key`` is in ``table`` or would go (linear probing)."""
    mask = np.uint64(len(table) - 1)
    i = np.int64((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32) & mask)
    while table[i] != 0 and table[i] != key:
        i = (i + 1) & np.int64(mask)
    return i


@njit(cache=True)
def _insert(table: Any, key: Any) -> int:  # pragma: no cover - compiled
    """Put ``key`` in ``table``; 1 if it was not there."""
    if key == 0:
        key = np.uint64(1)
    s = _slot(table, key)
    if table[s] == key:
        return 0
    table[s] = key
    return 1


@njit(cache=True)
def _fill(rows: Any, lengths: Any, keys: Any) -> tuple[Any, int]:  # pragma: no cover
    """The table with every word's key and its one- and two-blank keys
    (``rows`` sorted, each word's tiles first)."""
    table = np.zeros(1 << 16, np.uint64)
    n = 0
    for w in range(len(lengths)):
        if 4 * n > len(table):  # grow before a word adds up to 37 keys
            table, n = _rehash(table, 2 * len(table))
        length = lengths[w]
        row = rows[w]
        full = np.uint64(0)
        for i in range(length):
            full += keys[row[i]]
        n += _insert(table, full + keys[64 + length * 4])
        one = keys[64 + length * 4 + 1]
        two = keys[64 + length * 4 + 2]
        # tile i (and j > i) stood for by blanks; a tile equal to the one before it gives the
        # same multiset (rows are sorted)
        for i in range(length):
            if i > 0 and row[i] == row[i - 1]:
                continue
            n += _insert(table, full - keys[row[i]] + one)
            for j in range(i + 1, length):
                if j > i + 1 and row[j] == row[j - 1]:
                    continue
                n += _insert(table, full - keys[row[i]] - keys[row[j]] + two)
    return table, n


@njit(cache=True)
def _rehash(table: Any, size: int) -> tuple[Any, int]:  # pragma: no cover - compiled
    """``table``'s keys in a table of ``size`` slots, and how many."""
    out = np.zeros(size, np.uint64)
    n = 0
    for key in table:
        if key != 0:
            out[_slot(out, key)] = key
            n += 1
    return out, n


@njit(cache=True)
def bingo_fits(table: Any, keys: Any, rack: Any, rack_size: int,
               nletters: int) -> tuple[bool, Any]:  # pragma: no cover - compiled
    """For ``rack`` (counts per tile code, 0 = blanks): can its tiles make a word of
    ``rack_size`` tiles, and the letters X (bit X) with which they make one of
    ``rack_size + 1``. A rack of fewer tiles makes no bingo; one of more than
    :data:`MAX_BLANKS` blanks may make any."""
    total = 0
    for t in range(64):
        total += rack[t]
    if total != rack_size:
        return False, np.uint64(0)
    blanks = rack[0]
    if blanks > MAX_BLANKS:
        return True, ALL
    base = np.uint64(0)
    for t in range(1, 64):
        for _ in range(rack[t]):
            base += keys[t]
    key = base + keys[64 + rack_size * 4 + blanks]
    if key == 0:
        key = np.uint64(1)
    seven = table[_slot(table, key)] == key
    eight = np.uint64(0)
    tag = keys[64 + (rack_size + 1) * 4 + blanks]
    for x in range(1, nletters + 1):
        key = base + keys[x] + tag
        if key == 0:
            key = np.uint64(1)
        if table[_slot(table, key)] == key:
            eight |= np.uint64(1) << np.uint64(x)
    return seven, eight


@njit(cache=True, inline="always")
def _has(table: Any, key: Any) -> bool:  # pragma: no cover - compiled
    if key == 0:
        key = np.uint64(1)
    return bool(table[_slot(table, key)] == key)


@njit(cache=True)
def bingo_words(
    table: Any, word_keys: Any, keys: Any, rack: Any, rack_size: int, through: int,
    nletters: int, found: Any, blanks: Any,
) -> int:  # pragma: no cover - compiled
    """The words a bingo of ``rack`` can make (all its tiles, at most :data:`MAX_BLANKS`
    blanks) alone (``through`` 0) or with a board tile of letter ``through``: their rows in
    ``word_keys`` into ``found``, and the letters the blanks stand for in ``blanks`` (a row
    per word, 0 for none). Returns how many (at most ``len(found)``: the rest are left
    out)."""
    base = np.uint64(0)
    for t in range(1, 64):
        for _ in range(rack[t]):
            base += keys[t]
    length = rack_size
    if through:
        base += keys[through]
        length += 1
    tag = 64 + length * 4
    n = 0
    top = nletters + 1
    b = rack[0]
    # the letters the blanks stand for: none, x, or x <= y (x first where a word with one
    # blank left exists)
    for x in range(0 if b == 0 else 1, top if b > 0 else 1):
        if b == 2 and not _has(table, base + keys[x] + keys[tag + 1]):
            continue
        for y in range(x if b == 2 else 0, top if b == 2 else 1):
            key = base + keys[tag]
            if b >= 1:
                key += keys[x]
            if b == 2:
                key += keys[y]
            if key == 0:
                key = np.uint64(1)
            if not _has(table, key):
                continue
            lo = np.searchsorted(word_keys, key)
            hi = lo
            while hi < len(word_keys) and word_keys[hi] == key:
                if n < len(found):
                    found[n] = hi
                    blanks[n, 0] = x if b >= 1 else 0
                    blanks[n, 1] = y if b == 2 else 0
                    n += 1
                hi += 1
    return n


@njit(cache=True)
def long_bingo(long_table: Any, keys: Any, rack_key: Any, blanks: int, through_key: Any,
               length: int, nletters: int, seen: Any, answers: Any) -> bool:
    # pragma: no cover - compiled
    """Can a rack (``rack_key``, the key of its tiles but blanks; ``blanks`` blanks) make a
    word of ``length`` tiles with board tiles whose keys add up to ``through_key``? (True
    with more than :data:`MAX_BLANKS` blanks, or for a word too long for the map.) With two
    blanks every pair of letters is tried, once per board tiles and length: the answers are
    kept in ``seen`` (a hash table as the map's) and ``answers`` (beside it) while there is
    room."""
    if blanks > MAX_BLANKS or length > MAX_WORD_TILES:
        return True
    key = rack_key + through_key + keys[64 + length * 4]
    if blanks == 0:
        return _has(long_table, key)
    if key == 0:
        key = np.uint64(1)
    slot = _slot(seen, key)
    if seen[slot] == key:
        return bool(answers[slot])
    found = False
    for x in range(1, nletters + 1):
        if blanks == 1:
            if _has(long_table, key + keys[x]):
                found = True
                break
            continue
        for y in range(x, nletters + 1):
            if _has(long_table, key + keys[x] + keys[y]):
                found = True
                break
        if found:
            break
    if answers[len(answers) - 1] < len(seen) // 2:  # the last slot counts the answers kept
        seen[slot] = key
        answers[slot] = found
        answers[len(answers) - 1] += 1
    return found




__all__ = ["bingo_fits", "bingo_words", "long_bingo"]
