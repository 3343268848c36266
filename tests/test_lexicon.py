"""Shipped lexicons, loading by name or file, searches checked against brute force, the CLI."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from pathlib import Path

import pytest

from letras.cli import main
from letras.editions import find_edition
from letras.errors import LexiconError
from letras.lexicon import load_lexicon, shipped_lexicons
from letras.lexicon.kwg import WordGraph
from letras.lexicon.search import anagrams, pattern

SEEDS = {
    "pt-BR": "LIGA DESLIGA DESLIGAR DESLIGAS SOJA CASA CASAS TRANCAR ACEITAR LÁ IR AR",
    "es": "CASAS PERROS COMERÍAMOS CHALECO LLAVE CARRO",
    "it": "MANGIAVAMO CASE GATTI BELLE",
    "en": "WINDY JAVELIN CARES QUOTH",
}
NON_WORDS = {
    "pt-BR": "XQZT CASAZ DESLIGAO AAAA",
    "es": "CASAZ PERROX XQZT",
    "it": "GATTIX XQZT CASAZ",
    "en": "XQZT WINDYX QUOTHS",
}


def shipped(name: str) -> None:
    if name not in shipped_lexicons():
        pytest.skip(f"no shipped {name} lexicon")


@pytest.mark.parametrize("edition", list(SEEDS))
def test_seed_words_valid_and_non_words_invalid(edition: str) -> None:
    shipped(edition)
    lexicon = load_lexicon(edition)
    for word in SEEDS[edition].split():
        assert word in lexicon, word
    for word in NON_WORDS[edition].split():
        assert word not in lexicon, word


def test_every_edition_has_a_default_lexicon_with_licence_and_report() -> None:
    found = shipped_lexicons()
    for edition in SEEDS:
        assert edition in found and found[edition].is_default
        assert found[edition].licence.read_text(encoding="utf-8").strip()
        assert "words" in found[edition].report.read_text(encoding="utf-8")
    # one list per edition since pt-BR-full was dropped (issue 15): each is its default
    assert sorted(found) == sorted(SEEDS) and all(f.is_default for f in found.values())


def test_lexicons_are_found_by_name_or_file(tmp_path: Path) -> None:
    words = tmp_path / "mine.txt"
    words.write_text("casa\ncasas\n", encoding="utf-8")
    mine = load_lexicon("pt-BR", words)
    assert "CASAS" in mine and "DESLIGA" not in mine
    graph = tmp_path / "mine.kwg"
    assert isinstance(mine, WordGraph)
    mine.save(graph)
    assert "casa" in load_lexicon("pt-BR", graph)
    with pytest.raises(LexiconError, match="not a file"):
        load_lexicon("pt-BR", tmp_path / "none.txt")
    shipped("en")
    with pytest.raises(LexiconError, match="for edition en"):
        load_lexicon("pt-BR", "en")


SMALL = ["CASA", "CASAS", "ASA", "SACA", "CAÇA", "AÇAS", "SALA", "ASAS", "CA", "AS", "SAL",
         "LAÇA", "CALAS", "ALAS"]


def brute_anagrams(rack: str, words: list[str], partial: bool) -> set[str]:
    """Every word spelled by the rack's tiles, ? standing for any letter (brute force)."""
    pt = find_edition("pt-BR")
    have = Counter(pt.tiles.parse(rack, rack=True))
    out = set()
    for w in words:
        tiles = pt.tiles.word_tiles(w)
        need = Counter(tiles)
        missing = sum(max(0, n - have[t]) for t, n in need.items())
        if missing <= have[0] and (partial or len(tiles) == sum(have.values())):
            out.add(pt.tiles.word(tiles))
    return out


@pytest.mark.parametrize("rack", ["ASAC", "CASAS", "ASA?", "??", "SALA?", "LAÇA", "Z"])
@pytest.mark.parametrize("partial", [False, True])
def test_anagrams_against_brute_force(rack: str, partial: bool) -> None:
    graph = WordGraph.build(find_edition("pt-BR"), SMALL)
    found = {w.upper() for w in anagrams(graph, rack, partial=partial)}
    assert found == brute_anagrams(rack, SMALL, partial)


@pytest.mark.parametrize("text", ["C?SA*", "*AS", "?A?A", "*Ç*", "*", "SA?", "CASA*"])
def test_patterns_against_brute_force(text: str) -> None:
    graph = WordGraph.build(find_edition("pt-BR"), SMALL)
    regex = re.compile("^" + text.replace("?", ".").replace("*", ".*") + "$")
    assert set(pattern(graph, text)) == {w for w in SMALL if regex.match(w)}


def test_pattern_with_a_rack_uses_only_rack_tiles() -> None:
    graph = WordGraph.build(find_edition("pt-BR"), SMALL)
    # Words through a C on the board, the other tiles from the rack A A S
    found = set(pattern(graph, "*C*", rack="AAS"))
    expected = set()
    for w in SMALL:
        for i, ch in enumerate(w):
            if ch == "C" and sorted(w[:i] + w[i + 1:]) in (
                sorted(c) for n in range(4) for c in itertools.combinations("AAS", n)
            ):
                expected.add(w)
    assert found == expected


def test_word_check_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    words = tmp_path / "w.txt"
    words.write_text("CASA\nCASAS\n", encoding="utf-8")
    assert main(["word", "check", "casa", "Casas", "--lexicon", str(words)]) == 0
    assert main(["word", "check", "casa", "cazas", "--lexicon", str(words)]) == 1
    captured = capsys.readouterr()
    assert "cazas: invalid" in captured.out and "cazas" in captured.err


def test_word_anagram_and_pattern_commands(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    words = tmp_path / "w.txt"
    words.write_text("\n".join(SMALL), encoding="utf-8")
    assert main(["word", "anagram", "SACA", "--lexicon", str(words)]) == 0
    assert capsys.readouterr().out.split() == ["CASA", "SACA"]
    assert main(["word", "pattern", "?ASA*", "--lexicon", str(words)]) == 0
    assert capsys.readouterr().out.split() == ["CASA", "CASAS"]
    assert main(["word", "pattern", "QQ*", "--lexicon", str(words)]) == 1


def test_lexicon_build_and_list_commands(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    words = tmp_path / "w.txt"
    words.write_text("\n".join(SMALL), encoding="utf-8")
    out = tmp_path / "w.kwg"
    assert main(["lexicon", "build", str(words), "-o", str(out)]) == 0
    assert f"{len(SMALL)} words" in capsys.readouterr().out
    assert len(WordGraph.load(out, find_edition("pt-BR"))) == len(SMALL)
    assert main(["lexicon", "list"]) == 0
    listing = capsys.readouterr().out
    for name in shipped_lexicons():
        assert name in listing
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe")
    assert main(["lexicon", "build", str(tmp_path / "bad.txt"), "-o", str(out)]) == 1
