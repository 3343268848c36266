"""The order of the packed word graph's arc lists in memory: the order a search meets them.

The search reads the graph one node at a time, a few MB in no order it can predict, and
waits on most reads (bench/README.md, "the searches without reference counts": the two
hottest instructions of a search step are loads from the graph). The builder lays the lists
out in the order it made them (leaves first), so the lists near the roots, read by every
search, are spread over the whole graph. :func:`breadth_first` renumbers them breadth first
from the roots (the GADDAG's and the DAWG's, level by level), so that those lists sit together
in a few pages and cache lines; the graph accepts the same words, and its nodes 0 and 1 still
point at the DAWG and the GADDAG (bench/README.md, "the graph in memory": pt-BR's every play
with blanks 6-16% faster, English's 2-5%).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

IS_END = 0x40
ARC_SHIFT = 8


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
