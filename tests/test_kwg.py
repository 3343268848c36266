"""The word graph: building, the KWG and KBWG files, lookups, and the DAWG and GADDAG it holds."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from letras.editions import find_edition
from letras.errors import LexiconError
from letras.lexicon import _kwg_kernels as k
from letras.lexicon.kwg import (
    WordGraph,
    build_nodes,
    encode_text,
    encode_words,
    graph_for_words,
    internal_to_kwg,
    kwg_to_internal,
)

EN = find_edition("en")
ES = find_edition("es")


def gaddag_of(word: tuple[int, ...]) -> set[tuple[int, ...]]:
    """The GADDAG strings of one word: the whole word reversed, and for every split point the
    reversed prefix, the separator 0, the rest."""
    out = {tuple(reversed(word))}
    for i in range(1, len(word)):
        out.add((*reversed(word[:i]), 0, *word[i:]))
    return out


words_strategy = st.lists(
    st.text(alphabet="ABCDEFG", min_size=2, max_size=15), min_size=1, max_size=60
)


@settings(max_examples=60, deadline=None)
@given(words_strategy)
def test_dawg_and_gaddag_hold_exactly_the_words(words: list[str]) -> None:
    graph = WordGraph.build(EN, words)
    expected = {EN.tiles.word_tiles(w) for w in words}
    assert set(graph.words()) == expected
    assert len(graph) == len(expected)
    assert list(graph.words()) == sorted(expected)
    gaddag = set().union(*(gaddag_of(w) for w in expected))
    assert set(graph.gaddag_strings()) == gaddag
    for w in words:
        assert w in graph
        assert w + "A" in graph or (w + "A") not in words


def test_contains_agrees_with_a_set_on_words_and_random_non_words(shared: Path) -> None:
    import lzma

    with lzma.open(shared / "positions" / "en-words.txt.xz", "rt", encoding="utf-8") as f:
        words = f.read()
    listed = words.split()
    graph = WordGraph.build(EN, listed)
    assert len(graph) == len(set(listed))
    assert all(w in graph for w in listed)
    known = set(listed)
    rng = random.Random(7)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for _ in range(20000):
        w = "".join(rng.choice(letters) for _ in range(rng.randint(1, 9)))
        assert (w in graph) == (w in known), w
    for w in rng.sample(listed, 2000):  # prefixes and extensions of real words
        for cut in (w[:-1], w + "Q", w[1:]):
            assert (cut in graph) == (cut in known), cut


def test_spanish_digraphs_are_one_tile() -> None:
    graph = WordGraph.build(ES, ["chillar", "perro", "pero", "CARRO"])
    assert "CHILLAR" in graph and "perro" in graph and "carro" in graph
    lengths = sorted(len(w) for w in graph.words())
    assert lengths == [4, 4, 4, 5]  # PE[RR]O, PERO, CA[RR]O, [CH]I[LL]AR
    rr = ES.tiles.code("RR")
    assert any(rr in w for w in graph.words())


def test_words_outside_the_edition_or_length_are_left_out() -> None:
    pt = find_edition("pt-BR")
    graph = WordGraph.build(pt, ["kiwi", "a", "casa", "AÇÚCAR", "x" * 16])
    assert sorted(pt.tiles.word(w) for w in graph.words()) == ["AÇUCAR", "CASA"]


@pytest.mark.parametrize("suffix", [".kwg", ".kbwg"])
def test_write_then_read_gives_the_same_graph(tmp_path: Path, suffix: str) -> None:
    graph = WordGraph.build(EN, ["CARE", "CARES", "SCARE", "RACE", "ACE", "AA"])
    path = tmp_path / f"words{suffix}"
    graph.save(path)
    again = WordGraph.load(path, EN)
    assert np.array_equal(again.nodes, graph.nodes)
    assert list(again.words()) == list(graph.words())


def test_kwg_node_layout_is_that_of_wolges(tmp_path: Path) -> None:
    graph = WordGraph.build(EN, ["AB"])
    graph.save(tmp_path / "ab.kwg")
    raw = np.frombuffer((tmp_path / "ab.kwg").read_bytes(), "<u4")
    # node 0 and 1: tile 0, is_end, pointing at the DAWG and GADDAG roots
    assert raw[0] >> 24 == 0 and raw[0] & 0x400000 and not raw[0] & 0x800000
    dawg = raw[raw[0] & 0x3FFFFF]
    assert dawg >> 24 == EN.tiles.code("A") and dawg & 0x400000 and not dawg & 0x800000
    b = raw[dawg & 0x3FFFFF]
    assert b >> 24 == EN.tiles.code("B") and b & 0x800000 and b & 0x3FFFFF == 0
    assert np.array_equal(kwg_to_internal(internal_to_kwg(graph.nodes)), graph.nodes)


def test_malformed_graph_files_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.kwg"
    bad.write_bytes(b"\x01\x02\x03")
    with pytest.raises(LexiconError, match="whole nodes"):
        WordGraph.load(bad, EN)
    bad.write_bytes(np.array([0x400000 | 99, 0x400000], "<u4").tobytes())
    with pytest.raises(LexiconError, match="past the end"):
        WordGraph.load(bad, EN)
    with pytest.raises(LexiconError, match="cannot read"):
        WordGraph.load(tmp_path / "missing.kwg", EN)
    big = WordGraph.build(ES, ["ÑU", "ÑUS"])
    big.save(tmp_path / "es.kwg")
    with pytest.raises(LexiconError, match="tile"):
        WordGraph.load(tmp_path / "es.kwg", find_edition("it"))


def test_graphs_are_built_once_then_loaded_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LETRAS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr("letras.lexicon.kwg.QUIET_BUILD_BYTES", 0)  # report even small builds
    words = tmp_path / "words.txt"
    words.write_text("CASA\nCASAS\n", encoding="utf-8")
    messages: list[str] = []
    first = graph_for_words(find_edition("pt-BR"), words, progress=messages.append)
    assert messages and len(list((tmp_path / "cache").glob("*.kbwg"))) == 1
    messages.clear()
    again = graph_for_words(find_edition("pt-BR"), words, progress=messages.append)
    assert not messages and np.array_equal(again.nodes, first.nodes)
    words.write_text("CASA\n", encoding="utf-8")
    changed = graph_for_words(find_edition("pt-BR"), words, progress=messages.append)
    assert messages and len(changed) == 1
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe CASA")
    with pytest.raises(LexiconError, match="UTF-8"):
        graph_for_words(find_edition("pt-BR"), tmp_path / "bad.txt")


def test_a_sealed_cache_entry_loads_unchecked_and_a_broken_seal_falls_back_to_the_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import letras.lexicon.kwg as kwg

    monkeypatch.setenv("LETRAS_CACHE", str(tmp_path / "cache"))
    words = tmp_path / "words.txt"
    words.write_text("CASA\nCASAS\nASA\n", encoding="utf-8")
    pt = find_edition("pt-BR")
    built = graph_for_words(pt, words)
    (entry,) = (tmp_path / "cache").glob("*.kbwg")
    seal = entry.with_name(entry.name + ".sha256")
    assert seal.read_text().split()[1] == "3"
    checks: list[str] = []
    from letras.lexicon.structure import check_word_graph as real

    def counted(nodes: np.ndarray, name: str) -> object:
        checks.append(name)
        return real(nodes, name)

    monkeypatch.setattr(kwg, "check_word_graph", counted)
    again = graph_for_words(pt, words)
    assert checks == [] and len(again) == 3 and np.array_equal(again.nodes, built.nodes)
    assert "CASAS" in again and again.name == "words"
    seal.write_text("0" * 64 + " 3\n")  # a seal that does not match: checked as any file
    assert len(graph_for_words(pt, words)) == 3 and len(checks) == 1
    assert len(graph_for_words(pt, words)) == 3 and len(checks) == 1  # and sealed again
    seal.unlink()
    entry.write_bytes(b"\x00" * 12)  # a damaged entry, no seal: built again, and sealed
    assert len(graph_for_words(pt, words)) == 3 and seal.exists()


# ----- the builder: folding a whole text, and the GADDAG from the DAWG's prefixes -----------

PT = find_edition("pt-BR")

line_strategy = st.one_of(
    st.text(alphabet="ABCÇÃÉÍabcçãéíñLLlRRrCHh", min_size=0, max_size=17),
    st.text(alphabet="ABC abc\t#[]?.1@\x7f\u00a0\ue001\u1e00ßΩ", min_size=0, max_size=8),
)
texts_strategy = st.tuples(
    st.lists(line_strategy, max_size=40),
    st.sampled_from(["\n", "\r\n", "\r", "\u2028"]),
    st.booleans(),
)


def folded_words(flat: np.ndarray, offsets: np.ndarray) -> list[bytes]:
    return sorted(flat[offsets[i]:offsets[i + 1]].tobytes() for i in range(len(offsets) - 1))


@settings(max_examples=150, deadline=None)
@given(texts_strategy, st.sampled_from(["en", "es", "pt-BR"]))
def test_folding_a_whole_text_gives_the_words_folding_each_line_gives(
    text_parts: tuple[list[str], str, bool], edition_name: str
) -> None:
    lines, newline, final_newline = text_parts
    text = newline.join(lines) + (newline if final_newline else "")
    edition = find_edition(edition_name)
    by_line: list[str] = []
    by_text: list[str] = []
    expected = encode_words(edition, text.splitlines(), by_line)
    got = encode_text(edition, text, by_text)
    assert folded_words(*got) == folded_words(*expected)
    assert sorted(by_text) == sorted(by_line)


def test_folding_the_shipped_lists_as_texts_gives_their_words_in_order() -> None:
    from letras.lexicon import shipped_lexicons
    from letras.lexicon.kwg import read_word_file

    for entry in shipped_lexicons().values():
        edition = find_edition(entry.edition)
        text = read_word_file(str(entry.words)).decode()[:400_000]  # every edition's letters
        lines: list[str] = []
        flat, offsets = encode_text(edition, text, lines)
        expected, expected_offsets = encode_words(edition, text.splitlines())
        assert np.array_equal(flat, expected) and np.array_equal(offsets, expected_offsets)
        assert len(offsets) > 10_000 and not lines


def nodes_from_every_gaddag_string(flat: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The builder as it was (BUILDER_VERSION 1): the DAWG's strings, then every GADDAG
    string of every word, sorted and merged into the one minimal automaton."""
    arcs, narcs, states, nstates, table = np.zeros(1, np.int64), 0, np.zeros(1, np.int64), 1, \
        np.zeros(16, np.int64)
    roots = []
    for gaddag in (False, True):
        hi, lo = k.make_keys(flat, offsets, gaddag)
        order = np.lexsort((lo, hi))
        more = k.room(lo, np.zeros(0))
        root, arcs, narcs, states, nstates, table = k.add_strings(
            hi, lo, order, np.ones(len(hi), np.uint8), np.zeros(len(hi), np.int32),
            k.widened(arcs, narcs, narcs + more), narcs, k.widened(states, nstates,
                                                                   nstates + more),
            nstates, table)
        roots.append(root)
    nodes: np.ndarray = k.lay_out(arcs, states, nstates, *roots)
    return nodes


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="ABCDE", min_size=2, max_size=15), min_size=1, max_size=80))
def test_the_gaddag_from_the_dawgs_prefixes_is_the_one_from_every_gaddag_string(
    words: list[str],
) -> None:
    flat, offsets = encode_words(EN, words)
    assert np.array_equal(build_nodes(flat, offsets), nodes_from_every_gaddag_string(flat, offsets))


def test_the_english_graph_is_byte_for_byte_the_one_from_every_gaddag_string(
    shared: Path,
) -> None:
    import lzma

    with lzma.open(shared / "positions" / "en-words.txt.xz", "rt", encoding="utf-8") as f:
        flat, offsets = encode_text(EN, f.read())
    nodes = build_nodes(flat, offsets)
    assert np.array_equal(nodes, nodes_from_every_gaddag_string(flat, offsets))
    assert len(nodes) > 100_000


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="ABCDEÇ", min_size=0, max_size=17), max_size=80))
def test_a_built_graph_passes_the_shape_check_it_skips(words: list[str]) -> None:
    from letras.lexicon.structure import OK, check_word_graph

    graph = WordGraph.from_text(PT, "\n".join(words))
    shape = check_word_graph(graph.nodes, "built")
    expected = {PT.tiles.word_tiles(w) for w in words if 2 <= len(w) <= 15}
    assert shape.status == OK and shape.words[0] == len(graph) == len(expected)
    assert shape.words[1] == len(set().union(set(), *(gaddag_of(w) for w in expected)))
