"""The shape check of a word graph read from a file: no cycles, no dead ends, bounded depth,
list widths and word counts, in one linear pass.

A ``.kwg``/``.kbwg`` file or the DAWG of a leave file comes from anywhere; the walks over it
(counting words, listing them, patterns, the move generator, the leave table's reader) trust
its shape. :func:`graph_shape` checks, over the nodes reachable from the roots, what those walks
need, once at load:

- no cycle (a self-loop or a longer one would make every walk endless);
- no sibling list longer than :data:`MAX_WIDTH` arcs (a real list has one arc per tile);
- no string longer than :data:`MAX_DEPTH` tiles;
- no dead end: a node with no arcs accepts its string (so every path leads to a word, and a
  walk visits at most words x depth nodes);
- at most :data:`MAX_WORDS` strings from each root (counted exactly, so ``len()`` is free).

It is one pass over the nodes in their order when the layout orders the lists (every arc
before its own list, as letras lays graphs out, or every arc after it, as wolges does), else an
iterative depth-first search; compiled, O(nodes) in time and memory either way (its cost on the
shipped graphs is in ``bench/README.md``).

>>> import numpy as np
>>> ok = np.array([0x40 | 2 << 8, 0x40, 0x80 | 0x40 | 1], np.uint32)  # one word "A"
>>> graph_shape(ok)
GraphShape(status=0, node=0, depths=(1, 0), words=(1, 0))
>>> loop = np.array([0x40 | 2 << 8, 0x40, 0x80 | 0x40 | 1 | 2 << 8], np.uint32)  # A, AA, ...
>>> graph_shape(loop).status == CYCLE
True
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from letras.errors import LexiconError
from letras.lexicon._kwg_kernels import ACCEPTS, ARC_SHIFT, IS_END

MAX_WIDTH = 64
"""The most arcs a sibling list may hold: one for each of the 64 tile codes."""
MAX_DEPTH = 64
"""The most tiles a string of the graph may have (a board is at most 21 squares wide)."""
MAX_WORDS = 1 << 29
"""The most strings a graph may hold from one root (real lexicons hold a few million)."""
_CAP = np.int64(1 << 30)  # counts are kept as int32, saturating here (above MAX_WORDS)

OK, CYCLE, WIDTH, DEPTH, DEAD_END, ARC, BAD_END, UNORDERED = range(8)


class GraphShape(NamedTuple):
    """What :func:`graph_shape` found: ``status`` (:data:`OK` or the first problem met),
    ``node`` (where), and for each root the longest string and the number of strings."""

    status: int
    node: int
    depths: tuple[int, ...]
    words: tuple[int, ...]


@njit(cache=True)
def _finish(nodes: Any, p: Any, width: Any, depth: Any, count: Any) -> int:  # pragma: no cover
    """The values of node ``p`` from its successors' (which are done): 0 or a problem."""
    node = nodes[p]
    arc = np.int64(node >> np.uint32(ARC_SHIFT))
    w: Any = 1
    d: Any = 1
    c = np.int64(1) if node & np.uint32(ACCEPTS) else np.int64(0)
    if arc != 0:
        d = 1 + np.int64(depth[arc])
        c += np.int64(count[arc])
    elif not node & np.uint32(ACCEPTS):
        return DEAD_END
    if not node & np.uint32(IS_END):
        w += np.int64(width[p + 1])
        d = max(d, np.int64(depth[p + 1]))
        c += np.int64(count[p + 1])
    if w > MAX_WIDTH:
        return WIDTH
    if d > MAX_DEPTH:
        return DEPTH
    width[p] = w
    depth[p] = d
    count[p] = min(c, _CAP)
    return OK


@njit(cache=True)
def _one_list(
    nodes: Any, s: int, e: int, info: Any, roots: int, forward: bool
) -> Any:  # pragma: no cover - compiled
    """The values of the list ``s .. e`` from its end, each node's kept in ``info`` as
    ``strings | depth << 32``; (status, node): OK, a problem, or UNORDERED for an arc that
    breaks the order :func:`_ordered` counts on."""
    n = nodes.shape[0]
    rest_d = np.int64(0)
    rest_c = np.int64(0)
    if e - s + 1 > MAX_WIDTH:
        return WIDTH, e
    for q in range(e, s - 1, -1):
        node = nodes[q]
        arc = np.int64(node >> np.uint32(ARC_SHIFT))
        d = np.int64(1)
        c = np.int64(1) if node & np.uint32(ACCEPTS) else np.int64(0)
        if arc != 0:
            if (arc <= e if forward else arc >= s) or arc < roots or arc >= n:
                return UNORDERED, q
            v = info[arc]
            d = 1 + (v >> np.int64(32))
            c += v & np.int64(0xFFFFFFFF)
        elif c == 0:
            return DEAD_END, q
        d = max(d, rest_d)
        c = min(c + rest_c, _CAP)
        if d > MAX_DEPTH:
            return DEPTH, q
        info[q] = c | (d << np.int64(32))
        rest_d = d
        rest_c = c
    return OK, 0


@njit(cache=True)
def _ordered(
    nodes: Any, roots: int, forward: bool
) -> Any:  # pragma: no cover - compiled
    """The check in one pass over the nodes, for a layout that orders the lists: every arc
    points before the start of its own list (as letras lays graphs out), or with ``forward``
    past its end (as wolges does). Then the lists taken in that order (or the reverse) each
    come after those they point to, no cycle is possible, and each node's values follow from
    those already made. :data:`UNORDERED` as soon as an arc breaks the order (or the graph
    has no proper last node or roots): then only the search (:func:`_shape`) can say."""
    n = nodes.shape[0]
    info = np.zeros(n, np.int64)
    depths = np.zeros(roots, np.int64)
    words = np.zeros(roots, np.int64)
    if n <= roots or not nodes[n - 1] & np.uint32(IS_END):
        return UNORDERED, 0, depths, words
    for r in range(roots):
        start = np.int64(nodes[r] >> np.uint32(ARC_SHIFT))
        if (0 < start < roots) or start >= n:
            return UNORDERED, r, depths, words
    if forward:
        e = n - 1
        while e >= roots:
            s = e
            while s > roots and not nodes[s - 1] & np.uint32(IS_END):
                s -= 1
            status, bad = _one_list(nodes, s, e, info, roots, True)
            if status != OK:
                return status, bad, depths, words
            e = s - 1
    else:
        s = roots
        while s < n:
            e = s
            while not nodes[e] & np.uint32(IS_END):
                e += 1
            status, bad = _one_list(nodes, s, e, info, roots, False)
            if status != OK:
                return status, bad, depths, words
            s = e + 1
    for r in range(roots):
        start = np.int64(nodes[r] >> np.uint32(ARC_SHIFT))
        if start != 0:
            depths[r] = info[start] >> np.int64(32)
            words[r] = info[start] & np.int64(0xFFFFFFFF)
    return OK, 0, depths, words


@njit(cache=True)
def _shape(nodes: Any, roots: int) -> Any:  # pragma: no cover - compiled
    """The check of any graph: a depth-first search from the roots."""
    n = nodes.shape[0]
    state = np.zeros(n, np.uint8)  # 0 new, 1 next sibling pending, 2 child pending, 3 done
    width = np.zeros(n, np.uint8)
    depth = np.zeros(n, np.uint8)
    count = np.zeros(n, np.int32)
    stack = np.zeros(n + 1, np.int32)
    depths = np.zeros(roots, np.int64)
    words = np.zeros(roots, np.int64)
    for r in range(roots):
        start = np.int64(nodes[r] >> np.uint32(ARC_SHIFT))
        if start == 0:
            continue
        if start >= n:
            return ARC, r, depths, words
        sp = 0
        if state[start] != 3:
            stack[0] = start
            sp = 1
        while sp > 0:
            p = np.int64(stack[sp - 1])
            node = nodes[p]
            s = state[p]
            if s < 2:
                state[p] = s + 1
                if s == 0:
                    if node & np.uint32(IS_END):
                        continue
                    q = p + 1
                    if q >= n:
                        return BAD_END, p, depths, words
                else:
                    q = np.int64(node >> np.uint32(ARC_SHIFT))
                    if q == 0:
                        continue
                    if q >= n:
                        return ARC, p, depths, words
                if state[q] == 0:
                    stack[sp] = q
                    sp += 1
                elif state[q] != 3:
                    return CYCLE, p, depths, words
                continue
            # every successor is done: this node's list from here, and its strings
            sp -= 1
            state[p] = 3
            status = _finish(nodes, p, width, depth, count)
            if status != OK:
                return status, p, depths, words
        depths[r] = depth[start]
        words[r] = count[start]
    return OK, 0, depths, words


def graph_shape(nodes: npt.NDArray[np.uint32], roots: int = 2) -> GraphShape:
    """Check the graph reachable from nodes ``0 .. roots - 1`` (in the internal layout of
    :mod:`letras.lexicon._kwg_kernels`): two roots for a word graph (DAWG and GADDAG), one for
    a leave file's DAWG. Arcs past the end are reported too (:data:`ARC`, :data:`BAD_END`)."""
    status, node, depths, words = _ordered(nodes, roots, False)
    if status == UNORDERED:
        status, node, depths, words = _ordered(nodes, roots, True)
    if status == UNORDERED:
        status, node, depths, words = _shape(nodes, roots)
    return GraphShape(int(status), int(node), tuple(int(d) for d in depths),
                      tuple(int(w) for w in words))


def check_word_graph(nodes: npt.NDArray[np.uint32], name: str) -> GraphShape:
    """:func:`graph_shape` of a word graph's two roots, or :class:`LexiconError` saying what
    is wrong with it."""
    shape = graph_shape(nodes, 2)
    where = f"lexicon {name!r}"
    if shape.status == CYCLE:
        raise LexiconError(f"{where}: its word graph loops back on itself (at node "
                           f"{shape.node})", key="lexicon.cycle", name=name, node=shape.node)
    if shape.status == WIDTH:
        raise LexiconError(f"{where}: a list of its word graph has more than {MAX_WIDTH} arcs",
                           key="lexicon.list_width", name=name, max=MAX_WIDTH)
    if shape.status == DEPTH:
        raise LexiconError(f"{where}: its word graph holds strings longer than {MAX_DEPTH} "
                           "tiles", key="lexicon.depth", name=name, max=MAX_DEPTH)
    if shape.status == DEAD_END:
        raise LexiconError(f"{where}: node {shape.node} of its word graph ends no word and "
                           "leads nowhere", key="lexicon.dead_end", name=name, node=shape.node)
    if shape.status == ARC:
        raise LexiconError(f"lexicon {name!r}: an arc points past the end of the graph",
                           key="lexicon.arc", name=name)
    if shape.status == BAD_END:
        raise LexiconError(f"lexicon {name!r}: the last node does not end its list",
                           key="lexicon.last_node", name=name)
    if max(shape.words) > MAX_WORDS:
        raise LexiconError(f"{where}: its word graph holds more than {MAX_WORDS:,} words",
                           key="lexicon.too_many_words", name=name, max=MAX_WORDS)
    return shape
