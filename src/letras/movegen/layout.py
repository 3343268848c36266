"""Where the packed word graph sits in memory: its arc lists in the order a search meets them,
in a buffer backed by huge pages where the system gives them.

The search reads the graph one node at a time, a few MB in no order it can predict, and
waits on most reads (bench/README.md, "the searches without reference counts": the two
hottest instructions of a search step are loads from the graph). Two things help it:

- :func:`breadth_first`: the graph's arc lists renumbered breadth first from the roots (the
  GADDAG's and the DAWG's, level by level), so that the lists read near the root, read on
  every search, sit together in a few pages and cache lines instead of being spread over the
  whole graph (the builder lays the lists out in the order it made them: leaves first). The
  graph accepts the same words, and its nodes 0 and 1 still point at the DAWG and the GADDAG.
- :func:`huge_copy`: a copy of an array in anonymous memory aligned on 2 MB and advised to be
  backed by transparent huge pages (``madvise(MADV_HUGEPAGE)``, Linux), so that the whole
  graph takes a few entries of the processor's address cache (TLB) instead of one per 4 KB.
  Where huge pages are not available (another system, THP off) it is a plain copy.
"""

from __future__ import annotations

import mmap
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

TILE_MASK = 0x3F
IS_END = 0x40
ARC_SHIFT = 8
HUGE_PAGE = 2 << 20
"""The size of a transparent huge page on x86-64 and most arm64 systems."""


@njit(cache=True)
def arc_lists(nodes: Any) -> tuple[Any, Any, int]:  # pragma: no cover - compiled
    """The arc lists of the graph ``nodes`` past nodes 0 and 1: the first node of each list
    (by list number, then the end of the graph), the list number of each node, and how many
    lists there are. A list is a run of nodes up to one with ``IS_END``."""
    n = len(nodes)
    start = np.zeros(n + 1, np.int64)
    block = np.zeros(n, np.int64)
    lists = 0
    p = 2
    while p < n:
        start[lists] = p
        while True:
            block[p] = lists
            p += 1
            if nodes[p - 1] & np.uint32(IS_END) or p == n:
                break
        lists += 1
    start[lists] = n
    return start, block, lists


@njit(cache=True)
def moved(nodes: Any, start: Any, order: Any) -> Any:  # pragma: no cover - compiled
    """The graph ``nodes`` with its arc lists laid out in ``order`` (list numbers as
    :func:`arc_lists` gives them) after nodes 0 and 1, its arcs pointing where their lists
    went."""
    n = len(nodes)
    to = np.zeros(n, np.int64)  # the new number of each node
    to[1] = 1
    p = 2
    for b in order:
        for q in range(start[b], start[b + 1]):
            to[q] = p
            p += 1
    out = np.zeros(n, np.uint32)
    for q in range(n):
        node = nodes[q]
        arc = np.int64(node >> np.uint32(ARC_SHIFT))
        low = node & np.uint32((1 << ARC_SHIFT) - 1)
        out[to[q]] = low | (np.uint32(to[arc] if arc else 0) << np.uint32(ARC_SHIFT))
    return out


@njit(cache=True)
def breadth_first(nodes: Any) -> Any:  # pragma: no cover - compiled
    """The graph ``nodes`` (see :mod:`letras.lexicon.kwg`) with its arc lists laid out breadth
    first from the roots: the GADDAG's root list, the DAWG's, then the lists they point to in
    the order of their arcs, level by level; a list pointed to from several places is laid
    out where it is first met, lists no arc reaches at the end. An arc may point inside a
    list (lists that share their ends), so lists move whole. Nodes 0 and 1 stay first."""
    start, block, lists = arc_lists(nodes)
    order = np.zeros(lists, np.int64)  # list numbers in their new order
    seen = np.zeros(lists, np.bool_)
    laid = 0
    for root in (1, 0):
        arc = np.int64(nodes[root] >> np.uint32(ARC_SHIFT))
        if arc >= 2 and not seen[block[arc]]:
            seen[block[arc]] = True
            order[laid] = block[arc]
            laid += 1
    head = 0
    while head < laid:
        b = order[head]
        head += 1
        for q in range(start[b], start[b + 1]):
            arc = np.int64(nodes[q] >> np.uint32(ARC_SHIFT))
            if arc >= 2 and not seen[block[arc]]:
                seen[block[arc]] = True
                order[laid] = block[arc]
                laid += 1
    for b in range(lists):
        if not seen[b]:
            order[laid] = b
            laid += 1
    return moved(nodes, start, order)


def huge_copy(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A writable, C-ordered copy of ``array`` in anonymous memory that starts on a 2 MB
    boundary and is advised to be backed by transparent huge pages before any of it is
    touched (the pages are then made huge as they are first written, when the system's THP
    setting is ``always`` or ``madvise``). Without ``madvise`` (not Linux) or when the system
    refuses it, the same copy in ordinary pages."""
    size = max(array.nbytes, 1)
    length = -(-size // HUGE_PAGE) * HUGE_PAGE
    buffer = _anonymous(length + HUGE_PAGE)
    address = np.frombuffer(buffer, np.uint8, 1).ctypes.data
    offset = -address % HUGE_PAGE
    _advise_huge(buffer, offset, length)
    copy: npt.NDArray[Any] = np.frombuffer(buffer, array.dtype, array.size, offset)
    copy = copy.reshape(array.shape)
    copy[...] = array
    return copy


def _anonymous(length: int) -> mmap.mmap:
    """``length`` bytes of private anonymous memory (shared anonymous memory, ``mmap``'s
    default, takes huge pages by another setting, ``shmem_enabled``, mostly off)."""
    private: Any = getattr(mmap, "MAP_PRIVATE", None)
    anonymous: Any = getattr(mmap, "MAP_ANONYMOUS", None)
    if private is None or anonymous is None:  # Windows: anonymous memory as it comes
        return mmap.mmap(-1, length)
    return mmap.mmap(-1, length, flags=private | anonymous)


def _advise_huge(buffer: mmap.mmap, offset: int, length: int) -> bool:
    """Ask for huge pages over ``length`` bytes of ``buffer`` from ``offset``; whether the
    system took the advice."""
    advice: Any = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is None or not hasattr(buffer, "madvise"):
        return False
    try:
        buffer.madvise(advice, offset, length)
    except OSError:  # THP compiled out or refused: ordinary pages
        return False
    return True


def huge_pages_kb(array: npt.NDArray[Any]) -> int | None:
    """How many kB of the mapping holding ``array`` are huge pages now (``AnonHugePages`` of
    ``/proc/self/smaps``); None where that is not known (not Linux)."""
    address = array.ctypes.data
    try:
        with open("/proc/self/smaps", encoding="ascii", errors="replace") as smaps:
            inside = False
            for line in smaps:
                head = line.split(" ", 1)[0]
                if "-" in head and ":" not in head:
                    low, high = (int(x, 16) for x in head.split("-"))
                    inside = low <= address < high
                elif inside and line.startswith("AnonHugePages:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None
