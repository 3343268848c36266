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
``uint64`` keys (0 = empty slot), a power of two long, at most 60% full. It holds the keys
of the shorter words too (every length from 1 tile, with their blank keys): which spans the
rack's tiles can fill with a word (:mod:`letras.movegen._spanwords`).
"""

from __future__ import annotations

import contextlib
import os
import weakref
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from letras._compiled import lazy_module
from letras.lexicon.kwg import WordGraph

VERSION = 6
"""Part of the cache files' names: a new layout makes new cache files (6: the table holds
the keys of the words of every length up to ``rack_size + 1``; 5 those of ``rack_size`` and
``rack_size + 1`` only, one ``.npy`` file an array, memory-mapped when read; 4 was one
``.npz``, read whole)."""
MAX_BLANKS = 2
"""Racks with more blanks than this are not looked up: a bingo is assumed possible."""
MAX_WORD_TILES = 15
"""The longest words the map knows of (the longest line of a board)."""

# The kernels (building a map, looking a rack up) import numba: loaded when first used, so a
# process that reads a cached map and runs the move generator compiled ahead of time
# (letras.movegen.prebuilt) does without it.
k = lazy_module("letras.movegen._wordkeys")


def tile_keys() -> npt.NDArray[np.uint64]:
    """The fixed random number of each tile code (64) then of each (length, blanks) pair
    (``64 + length * 4 + blanks``, lengths up to 16): the same on every machine."""
    return np.random.default_rng(0x1E7A5).integers(
        0, 2**64 - 1, 64 + 17 * 4, dtype=np.uint64, endpoint=True)


class WordMap(NamedTuple):
    """A word map (see the module docstring): the hash table of keys (of the words of every
    length up to ``rack_size + 1``: :mod:`letras.movegen._spanwords` asks it for the shorter
    ones); and the words of ``rack_size`` and ``rack_size + 1`` tiles (rows of tile codes, 0
    past a word's end) in the order of their multisets' keys, ``word_keys``, to find the
    words of a multiset."""

    table: npt.NDArray[np.uint64]
    word_keys: npt.NDArray[np.uint64]
    words: npt.NDArray[np.uint8]
    long_table: npt.NDArray[np.uint64]
    """The keys (no blanks) of the words of ``rack_size + 2`` tiles or more: can a rack with
    no blank or one make a bingo through given board tiles?"""


def build(graph: WordGraph, rack_size: int) -> WordMap:
    """The word map of ``graph`` for racks of ``rack_size`` tiles (see the module
    docstring)."""
    every, every_length = k._words_of_length(graph.nodes, 1, rack_size + 1)
    keys = tile_keys()
    # a word's key is the sum of its tiles' (0 past its end counts nothing)
    sums = np.where(every != 0, keys[every], np.uint64(0)).sum(axis=1, dtype=np.uint64)
    sums += keys[64 + every_length * 4]
    sums[sums == 0] = 1
    order = np.argsort(sums, kind="stable")
    every, every_length, sums = every[order], every_length[order], sums[order]
    # one row per multiset (anagrams share one), tiles sorted, for the blank keys
    first = np.flatnonzero(np.r_[len(sums) > 0, sums[1:] != sums[:-1]])
    rows = np.where(every[first] == 0, 255, every[first]).astype(np.uint8)
    rows.sort(axis=1)
    rows[rows == 255] = 0
    table: npt.NDArray[np.uint64]
    table, n = k._fill(rows, every_length[first].copy(), keys)
    small = 1 << max(4, (-(-5 * n // 3) - 1).bit_length())  # at most 60% full
    if small < len(table):
        table, _ = k._rehash(table, small)
    # the bingos' words, in key order
    bingos = every_length >= rack_size
    long = k._long_keys(graph.nodes, rack_size + 2, MAX_WORD_TILES, keys)
    return WordMap(table, sums[bingos], every[bingos], k._set_of(long))


_MAPS: weakref.WeakKeyDictionary[WordGraph, WordMap] = (
    weakref.WeakKeyDictionary())
_KEYS = tile_keys()


def word_map(graph: WordGraph) -> WordMap:
    """The word map of ``graph`` for its edition's racks: kept while the graph lives, and on
    disk beside the graph's cache entry when it has one (built once: under half a second
    for pt-BR; then memory-mapped, so a process reads only the pages its lookups touch)."""
    known = _MAPS.get(graph)
    if known is not None:
        return known
    rack_size = graph.edition.rack_size
    entry = graph.cache_entry[0] if graph.cache_entry is not None else None
    paths = map_paths(entry, rack_size) if entry is not None else None
    found: WordMap | None = None
    if paths is not None and all(p.exists() for p in paths):
        with contextlib.suppress(OSError, ValueError):
            found = _checked([_mapped(p) for p in paths], rack_size)
    if found is None:
        found = build(graph, rack_size)
        if paths is not None and entry is not None:
            _save(found, paths, entry, rack_size)
    _MAPS[graph] = found
    return found


def map_paths(entry: Path, rack_size: int) -> list[Path]:
    """The cache files of the word map of the graph cached at ``entry``, one per array of
    :class:`WordMap`, in its order."""
    return [entry.with_name(f"{entry.name}.wmap{VERSION}.{field}-{rack_size}.npy")
            for field in WordMap._fields]


def _mapped(path: Path) -> npt.NDArray[Any]:
    """A cached array, memory-mapped copy-on-write: a plain writable ``ndarray`` to numba
    (a read-only one, or the ``memmap`` subclass, would be compiled for, or checked, as
    another type) whose pages are read from the file as they are touched."""
    return np.asarray(np.load(path, mmap_mode="c", allow_pickle=False))


def _save(found: WordMap, paths: list[Path], entry: Path, rack_size: int) -> None:
    """Write the map's arrays (each whole or not at all) and remove earlier layouts'."""
    with contextlib.suppress(OSError):
        arrays: tuple[npt.NDArray[Any], ...] = tuple(found)
        for path, array in zip(paths, arrays, strict=True):
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npy")
            np.save(tmp, array, allow_pickle=False)
            os.replace(tmp, path)
        for old in path.parent.glob(f"{entry.name}.wmap*-{rack_size}.np[yz]"):
            if old not in paths:  # an earlier layout's
                old.unlink(missing_ok=True)


def _checked(data: list[npt.NDArray[Any]], rack_size: int) -> WordMap | None:
    """A map read from its cache files, if its arrays have the shapes a map has."""
    found = WordMap(*data)
    n = len(found.table)
    m = len(found.long_table)
    if (found.table.dtype != np.uint64 or found.table.ndim != 1 or n < 16 or n & (n - 1)
            or found.long_table.dtype != np.uint64 or found.long_table.ndim != 1 or m < 16
            or m & (m - 1)
            or found.word_keys.dtype != np.uint64 or found.words.dtype != np.uint8
            or found.words.shape != (len(found.word_keys), rack_size + 1)):
        return None
    return found


def map_keys() -> npt.NDArray[np.uint64]:
    """The tile keys the maps are made with (:func:`tile_keys`, made once)."""
    return _KEYS


__all__ = ["MAX_BLANKS", "MAX_WORD_TILES", "WordMap", "build", "map_keys", "map_paths",
           "word_map"]
