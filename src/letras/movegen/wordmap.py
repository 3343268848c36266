"""Word maps: can a rack make a bingo at all, alone or with one board tile?

The best-play search bounds each anchor before searching it (``_kernels._shadow``), and a
span where the whole rack goes down gets the bingo bonus in its bound. With blanks on the
rack nearly every anchor has such a span, so nearly every anchor looked worth searching,
though a bingo is possible on few of them. A word map answers, once per rack, whether the
rack's tiles make a word of ``rack_size`` tiles (a bingo through no board tile), and for
which letters X they make a word of ``rack_size + 1`` tiles with X (a bingo through one
board tile): the bound counts the bonus only where one of these can go.

The map is a set of keys of tile multisets (the idea of MAGPIE's word maps, WMP, keyed here
differently): a multiset's key is the sum, wrapping at 2**64, of a fixed random number per
tile, plus a number for the word's length and the count of blanks standing in it. So the key
of a rack with one board tile X is the rack's key plus X's number, with no sorting. For every
word of ``rack_size`` or ``rack_size + 1`` tiles the set holds its multiset's key, and the
keys of the multisets left when one or two of its tiles are taken out (then stood for by
blanks). Two multisets whose keys collide make a false "a bingo may go here": a looser bound,
never a wrong answer (the search still decides). The set is an open-addressing hash table of
``uint64`` keys (0 = empty slot), a power of two long, at most half full.
"""

from __future__ import annotations

import contextlib
import os
import weakref
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from letras.lexicon.kwg import WordGraph

VERSION = 1
"""Part of the cache file's name: a new layout makes new cache files."""
MAX_BLANKS = 2
"""Racks with more blanks than this are not looked up: a bingo is assumed possible."""
TILE_MASK = 0x3F
ACCEPTS = 0x80
IS_END = 0x40
ARC_SHIFT = 8
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def tile_keys() -> npt.NDArray[np.uint64]:
    """The fixed random number of each tile code (64) then of each (length, blanks) pair
    (``64 + length * 4 + blanks``, lengths up to 16): the same on every machine."""
    return np.random.default_rng(0x1E7A5).integers(
        0, 2**64 - 1, 64 + 17 * 4, dtype=np.uint64, endpoint=True)


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


def build(graph: WordGraph, rack_size: int) -> npt.NDArray[np.uint64]:
    """The word map of ``graph`` for racks of ``rack_size`` tiles (see the module
    docstring)."""
    rows, lengths = _words_of_length(graph.nodes, rack_size, rack_size + 1)
    rows = np.where(rows == 0, 255, rows).astype(np.uint8)
    rows.sort(axis=1)  # each word's tiles sorted, first; 255 past its end
    rows[rows == 255] = 0
    keys = tile_keys()
    # dedupe anagrams: one row per multiset
    sums = np.where(rows != 0, keys[rows], np.uint64(0)).sum(axis=1, dtype=np.uint64)
    sums += keys[64 + lengths * 4]
    _, first = np.unique(sums, return_index=True)
    rows, lengths = rows[first].copy(), lengths[first].copy()
    table: npt.NDArray[np.uint64]
    table, n = _fill(rows, lengths, keys)
    small = 1 << max(4, (2 * n - 1).bit_length())  # at most half full
    if small < len(table):
        table, _ = _rehash(table, small)
    return table


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


_MAPS: weakref.WeakKeyDictionary[WordGraph, npt.NDArray[np.uint64]] = (
    weakref.WeakKeyDictionary())
_KEYS = tile_keys()


def word_map(graph: WordGraph) -> npt.NDArray[np.uint64]:
    """The word map of ``graph`` for its edition's racks: kept while the graph lives, and on
    disk beside the graph's cache entry when it has one (built once: about a second for
    pt-BR)."""
    known = _MAPS.get(graph)
    if known is not None:
        return known
    rack_size = graph.edition.rack_size
    entry = graph.cache_entry
    path = (entry.with_name(f"{entry.name}.wmap{VERSION}-{rack_size}.npy")
            if entry is not None else None)
    table: npt.NDArray[np.uint64] | None = None
    if path is not None and path.exists():
        with contextlib.suppress(OSError, ValueError):
            loaded = np.load(path, allow_pickle=False)
            n = len(loaded)
            if loaded.dtype == np.uint64 and loaded.ndim == 1 and n >= 16 and not n & (n - 1):
                table = loaded
    if table is None:
        table = build(graph, rack_size)
        if path is not None:
            with contextlib.suppress(OSError):
                tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npy")
                np.save(tmp, table, allow_pickle=False)
                os.replace(tmp, path)
    _MAPS[graph] = table
    return table


def map_keys() -> npt.NDArray[np.uint64]:
    """The tile keys the maps are made with (:func:`tile_keys`, made once)."""
    return _KEYS


__all__ = ["MAX_BLANKS", "bingo_fits", "build", "map_keys", "word_map"]
