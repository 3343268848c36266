"""The word graph as the move generator reads it, made once per graph and kept in the cache.

:func:`packed` lays the graph out for the search (:func:`_kernels.packed_graph`: its lists
breadth first from the roots, beside each node the tiles of the list it points to). For a
graph from the cache of built word lists
(:attr:`WordGraph.cache_entry <letras.lexicon.kwg.WordGraph.cache_entry>`), the packed form is
kept beside the entry (``<entry>.packed2``, sealed with the entry's digest:
:mod:`letras.lexicon.sealed`) and later processes map it instead of making it again (pt-BR:
36 MB, about 0.4 s to make, microseconds to map, and only the pages a search reads are read).
"""

from __future__ import annotations

import contextlib
import weakref
from pathlib import Path

import numpy as np
import numpy.typing as npt

from letras._compiled import lazy_module, load_cached_without_refresh
from letras.files import OutputError, write_atomic
from letras.lexicon.kwg import WordGraph
from letras.lexicon.sealed import open_sealed, seal
from letras.movegen import prebuilt

k = lazy_module("letras.movegen._kernels")  # with numba, when first used

Packed = npt.NDArray[np.uint64]

_PACKED: weakref.WeakKeyDictionary[WordGraph, Packed] = weakref.WeakKeyDictionary()


def packed(lexicon: WordGraph) -> Packed:
    """The word graph as the compiled search reads it, made (or read from the cache) once per
    graph and kept while the graph lives."""
    known = _PACKED.get(lexicon)
    if known is None:
        known = _PACKED[lexicon] = _cached(lexicon)
    return known


def packed_path(entry: Path) -> Path:
    """Where the packed form of the cache entry ``entry`` is kept: ``.packed2``, its lists
    breadth first (``.packed``, kept by older versions sharing the cache folder, has them in
    the builder's order)."""
    return entry.with_name(entry.name + ".packed2")


def _cached(lexicon: WordGraph) -> Packed:
    wide = len(lexicon.edition.tiles.labels) > 32
    columns = 2 if wide else 1
    entry = lexicon.cache_entry
    if entry is not None:
        path, digest = packed_path(entry[0]), entry[1]
        sealed = open_sealed(path, "<u8")
        if (sealed is not None and sealed.facts == (digest, str(columns))
                and len(sealed.array) == columns * len(lexicon.nodes)):
            return sealed.array.view(np.uint64).reshape(-1, columns)
    args = (lexicon.nodes, wide)
    compiled = prebuilt.kernels()
    if compiled is None:
        load_cached_without_refresh(k.packed_graph, args)
    made: Packed = (k if compiled is None else compiled).packed_graph(*args)
    if entry is not None:
        with contextlib.suppress(OSError, OutputError):  # a read-only cache: made each time
            write_atomic(path, made.astype("<u8").tobytes(), "packed word graph")
            seal(path, [digest, str(columns)])
    return made
