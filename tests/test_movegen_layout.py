"""The packed graph's lists laid out breadth first (letras.movegen.layout): the same words, the
lists in breadth-first order, and the search finds the same plays in the same order."""

from __future__ import annotations

import hashlib
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from letras.board import Board
from letras.editions import find_edition
from letras.formats.cgp import parse_board, parse_rack
from letras.lexicon.kwg import WordGraph, graph_for_words
from letras.movegen import _kernels, generate, top_plays
from letras.movegen.layout import ARC_SHIFT, IS_END, breadth_first

DATA = Path(__file__).parent / "data"
EN = find_edition("en")


def arc(nodes: np.ndarray, p: int) -> int:
    return int(nodes[p]) >> ARC_SHIFT


def list_starts_by_depth(nodes: np.ndarray) -> list[tuple[int, int]]:
    """(depth, first node) of every list the roots reach, found by a breadth-first walk in
    Python, in the order the walk meets them."""
    seen: set[int] = set()
    found = []
    queue: deque[tuple[int, int]] = deque()
    for root in (1, 0):
        if arc(nodes, root):
            queue.append((arc(nodes, root), 0))
    while queue:
        p, depth = queue.popleft()
        start = p
        while start > 2 and not int(nodes[start - 1]) & IS_END:
            start -= 1  # an arc into a list's middle: the list starts earlier
        if start in seen:
            continue
        seen.add(start)
        found.append((depth, start))
        q = start
        while True:
            if arc(nodes, q):
                queue.append((arc(nodes, q), depth + 1))
            if int(nodes[q]) & IS_END:
                break
            q += 1
    return found


def check_same_graph(before: WordGraph, nodes: np.ndarray) -> WordGraph:
    after = WordGraph(nodes, before.edition, "renumbered")  # its shape checked again
    assert len(nodes) == len(before.nodes)
    assert sorted(after.words()) == sorted(before.words())
    assert sorted(after.gaddag_strings()) == sorted(before.gaddag_strings())
    return after


words_strategy = st.lists(st.text(alphabet="ABCDEIST", min_size=2, max_size=8), min_size=1,
                          max_size=40)


@settings(max_examples=40, deadline=None)
@given(words_strategy, st.lists(st.text(alphabet="ABCDEIST", min_size=1, max_size=8),
                                max_size=20))
def test_the_renumbered_graph_accepts_the_same_words(words: list[str],
                                                      others: list[str]) -> None:
    before = WordGraph.build(EN, words)
    after = check_same_graph(before, breadth_first(before.nodes))
    for text in [*words, *others]:
        assert (text in after) == (text in before) == (text in words)


@settings(max_examples=40, deadline=None)
@given(words_strategy)
def test_the_lists_are_laid_out_breadth_first(words: list[str]) -> None:
    nodes = breadth_first(WordGraph.build(EN, words).nodes)
    found = list_starts_by_depth(nodes)
    assert found[0] == (0, 2)  # the GADDAG's root list first, right after nodes 0 and 1
    starts = [start for _, start in found]
    assert starts == sorted(starts)  # laid out in the order a breadth-first walk meets them
    depths = [depth for depth, _ in found]
    assert depths == sorted(depths)
    reached = sum(1 for p in range(2, len(nodes)) if int(nodes[p]) & IS_END)
    assert len(found) == reached  # every list is reached from a root


def node(tile: int, target: int, *, accepts: bool = False, end: bool = False) -> int:
    return tile | (0x80 if accepts else 0) | (IS_END if end else 0) | (target << ARC_SHIFT)


def test_lists_sharing_their_ends_move_whole() -> None:
    """Another builder may point an arc into the middle of a list (lists sharing their last
    nodes): the list moves whole and the arc follows it. A hand-made DAWG of A, AB, AC, BC,
    C (tiles A=1, B=2, C=3; GADDAG left empty but for its root)."""
    nodes = np.array([
        node(0, 6, end=True),  # 0: the DAWG's root list at 6
        node(0, 9, end=True),  # 1: the GADDAG's "root" list at 9
        node(2, 0, accepts=True),  # 2: B (ends words), then C: the list [B, C] from 2
        node(3, 0, accepts=True, end=True),  # 3: C
        node(3, 0, accepts=True, end=True),  # 4: the list [C]
        node(9, 0, end=True),  # 5: a list nothing reaches
        node(1, 2, accepts=True),  # 6: A, then B, C from node 2
        node(2, 3),  # 7: B, then C: an arc into the middle of the list at 2
        node(3, 0, accepts=True, end=True),  # 8: C
        node(1, 0, accepts=True, end=True),  # 9: the GADDAG's root list: A
    ], np.uint32)
    before = WordGraph(nodes, EN, "hand-made", checked_words=5)
    after = breadth_first(nodes)
    spelled = {EN.tiles.word(w) for w in before.words()}
    assert spelled == {"A", "AB", "AC", "BC", "C"}
    assert {EN.tiles.word(w) for w in WordGraph(after, EN, "x", checked_words=5).words()} == (
        spelled)
    assert arc(after, 1) == 2 and arc(after, 0) == 3  # GADDAG's root list, then the DAWG's
    assert int(after[-1]) & 0x3F == 9  # the unreached list last


@pytest.mark.parametrize("wide", [False, True])
def test_the_search_finds_the_same_plays_in_the_same_order(
    monkeypatch: pytest.MonkeyPatch, wide: bool
) -> None:
    """The move generator over the lists in the builder's order and breadth first: every
    play in the order generated, and the best few by score, the same."""
    import letras.movegen.graph

    graph = graph_for_words(EN, DATA / "en-words.txt.xz")
    lines = (DATA / "en-positions.tsv").read_text(encoding="utf-8").splitlines()[1:]
    positions = [line.split("\t") for line in lines if line.strip()][::3]
    found = []
    for layout in (_kernels.pack(graph.nodes, wide), _kernels.packed_graph(graph.nodes, wide)):
        monkeypatch.setitem(letras.movegen.graph._PACKED, graph, layout)
        digest = hashlib.sha256()
        for _, cgp, rack, *_ in positions:
            board, tiles = parse_board(cgp, EN), parse_rack(rack, EN)
            plays = generate(board, tiles, graph)
            digest.update(plays.meta.tobytes() + plays.tiles.tobytes())
            digest.update(repr(top_plays(board, tiles, graph, 5)).encode())
        found.append(digest.hexdigest())
    assert found[0] == found[1]
    assert not np.array_equal(_kernels.pack(graph.nodes, wide),
                              _kernels.packed_graph(graph.nodes, wide))  # not the same layout
    assert len(generate(Board(EN), EN.tiles.parse("AEIRST?", rack=True), graph)) > 0
