"""Hostile input (issue 16): word lists, word graphs, leave files, numbers, long lines and the
files the command line writes. Each case gives letras' own error, in bounded time, and changes
nothing."""

from __future__ import annotations

import os
import struct
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from letras.ai.leaves.klv import LeaveTable, klv_bytes, parse_klv
from letras.board import Square
from letras.cli import main
from letras.editions import find_edition
from letras.errors import FormatError, LetrasError, LexiconError, NotationError
from letras.files import OutputError, check_folder, check_output, write_atomic
from letras.formats.gcg import MAX_GCG_BYTES, MAX_GCG_LINE, read_gcg
from letras.lexicon import WordList, load_lexicon
from letras.lexicon._kwg_kernels import ACCEPTS, IS_END
from letras.lexicon.kwg import WordGraph, graph_for_words, internal_to_kwg
from letras.lexicon.search import pattern
from letras.lexicon.structure import MAX_DEPTH, MAX_WIDTH

EN = find_edition("en")
A, B = EN.tiles.code("A"), EN.tiles.code("B")
EMPTY_BOARD = "/".join(["15"] * 15)


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LETRAS_CACHE", str(tmp_path / "cache"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ----- word lists ----------------------------------------------------------------------------


def test_a_word_with_an_apostrophe_is_left_out_and_counted() -> None:
    words = WordList(EN, ["don't", "cat", "dog"])
    assert list(words) == ["CAT", "DOG"] and words.skipped == 1
    assert list(WordList(EN, ["don't"])) == []


def test_a_tab_inside_a_line_does_not_make_a_word() -> None:
    words = WordList(EN, ["cat\tn", "cat"])
    assert "CATIN" not in words and "CAT" in words and words.skipped == 1
    graph = WordGraph.build(EN, ["cat\tn", "cat"])
    assert "CATIN" not in graph and len(graph) == 1 and graph.skipped == 1


@pytest.mark.parametrize("code", range(0x00, 0x40))
def test_no_character_below_at_sign_spells_a_tile(code: int) -> None:
    with pytest.raises(NotationError):
        EN.tiles.word_tiles(f"ca{chr(code)}t")


def test_one_bad_line_does_not_fail_the_whole_list(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("don't\ncasa\nx-ray\n1st\ncat\n", encoding="utf-8")
    graph = graph_for_words(EN, words)
    assert sorted(EN.tiles.word(w) for w in graph.words()) == ["CASA", "CAT"]
    assert graph.skipped == 3
    lexicon = load_lexicon(EN, words)
    assert "cat" in lexicon and "dont" not in lexicon


# ----- word graphs ---------------------------------------------------------------------------


def kbwg(tmp_path: Path, nodes: list[int], name: str = "bad.kbwg") -> Path:
    path = tmp_path / name
    path.write_bytes(np.array(nodes, "<u4").tobytes())
    return path


def node(tile: int, arc: int = 0, *, accepts: bool = False, end: bool = False) -> int:
    return tile | (ACCEPTS if accepts else 0) | (IS_END if end else 0) | arc << 8


def roots(dawg: int, gaddag: int = 0) -> list[int]:
    return [node(0, dawg, end=True), node(0, gaddag, end=True)]


def refused(path: Path) -> LexiconError:
    with pytest.raises(LexiconError) as info:
        WordGraph.load(path, EN)
    return info.value


def test_a_self_loop_is_refused_at_load(tmp_path: Path) -> None:
    e = refused(kbwg(tmp_path, [*roots(2), node(A, 2, accepts=True, end=True)]))
    assert e.key == "lexicon.cycle"


def test_a_two_node_cycle_is_refused_at_load(tmp_path: Path) -> None:
    nodes = [*roots(2), node(A, 3, end=True), node(B, 2, accepts=True, end=True)]
    e = refused(kbwg(tmp_path, nodes))
    assert e.key == "lexicon.cycle"
    # the same in the .kwg layout of wolges
    kwg = tmp_path / "bad.kwg"
    kwg.write_bytes(internal_to_kwg(np.array(nodes, np.uint32)).astype("<u4").tobytes())
    assert refused(kwg).key == "lexicon.cycle"


def test_a_cycle_through_the_gaddag_root_is_refused(tmp_path: Path) -> None:
    nodes = [*roots(2, 3), node(A, accepts=True, end=True), node(B, 1, end=True)]
    assert refused(kbwg(tmp_path, nodes)).key == "lexicon.cycle"


def test_a_6000_wide_sibling_list_is_refused_at_load(tmp_path: Path) -> None:
    wide = [node(A, accepts=True) for _ in range(6000)]
    wide[-1] |= IS_END
    e = refused(kbwg(tmp_path, [*roots(2), *wide]))
    assert e.key == "lexicon.list_width" and e.values["max"] == MAX_WIDTH


def test_a_list_as_wide_as_the_limit_loads(tmp_path: Path) -> None:
    wide = [node(A, accepts=True) for _ in range(MAX_WIDTH)]
    wide[-1] |= IS_END
    assert len(WordGraph.load(kbwg(tmp_path, [*roots(2), *wide]), EN)) == MAX_WIDTH


def test_a_chain_deeper_than_the_limit_is_refused(tmp_path: Path) -> None:
    chain = [node(A, 3 + i, end=True) for i in range(MAX_DEPTH)]
    chain.append(node(A, accepts=True, end=True))
    e = refused(kbwg(tmp_path, [*roots(2), *chain]))
    assert e.key == "lexicon.depth"


def test_a_chain_as_deep_as_the_limit_loads_and_pattern_walks_it(tmp_path: Path) -> None:
    chain = [node(A, 3 + i, end=True) for i in range(MAX_DEPTH - 1)]
    chain.append(node(A, accepts=True, end=True))
    graph = WordGraph.load(kbwg(tmp_path, [*roots(2), *chain]), EN)
    assert len(graph) == 1 and pattern(graph, "*") == ["A" * MAX_DEPTH]


def test_a_dead_end_is_refused(tmp_path: Path) -> None:
    nodes = [*roots(2), node(A, 3, end=True), node(B, end=True)]
    e = refused(kbwg(tmp_path, nodes))
    assert e.key == "lexicon.dead_end" and e.values["node"] == 3


def test_a_kwg_tile_that_would_spill_into_the_flags_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.kwg"
    raw = [0x400000 | 2, 0x400000, (0x80 + A) << 24 | 0x400000]
    path.write_bytes(np.array(raw, "<u4").tobytes())
    assert refused(path).key == "lexicon.tile"


def test_a_hostile_graph_on_the_command_line_is_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = kbwg(tmp_path, [*roots(2), node(A, 2, accepts=True, end=True)])
    for argv in (["word", "check", "aa"], ["word", "pattern", "a*"], ["word", "anagram", "aa"]):
        code, out, err = run(capsys, *argv, "-e", "en", "-l", str(path))
        assert code == 1 and out == "" and err.startswith("letras: ") and "loops" in err


def test_a_real_graph_still_loads_and_counts(tmp_path: Path) -> None:
    graph = WordGraph.build(EN, ["CARE", "CARES", "CAR", "BAR", "ACE"])
    for suffix in (".kwg", ".kbwg"):
        graph.save(tmp_path / f"g{suffix}")
        again = WordGraph.load(tmp_path / f"g{suffix}", EN)
        assert len(again) == 5 and sorted(again.words()) == sorted(graph.words())


# ----- leave files ---------------------------------------------------------------------------


def klv(nodes: list[int], values: int) -> bytes:
    """A KLV2 file of these (file-layout) nodes and ``values`` f32 values."""
    return b"".join((struct.pack("<I", len(nodes)), np.array(nodes, "<u4").tobytes(),
                     struct.pack("<I", values), np.zeros(values, "<f4").tobytes()))


def kwg_node(tile: int, arc: int = 0, *, accepts: bool = False, end: bool = False) -> int:
    return tile << 24 | (0x800000 if accepts else 0) | (0x400000 if end else 0) | arc


def test_a_leave_file_with_a_two_node_cycle_is_refused() -> None:
    data = klv([kwg_node(0, 1, end=True), kwg_node(A, 2, end=True),
                kwg_node(B, 1, accepts=True, end=True)], 4)
    with pytest.raises(FormatError, match="loops"):
        parse_klv(data, EN)


def test_a_leave_file_whose_lists_end_nowhere_is_refused() -> None:
    # ten levels of 40 arcs, none accepting, the last pointing nowhere: walking every path of
    # it would take 40**10 steps
    nodes = [kwg_node(0, 1, end=True)]
    for level in range(10):
        nxt = 1 + 40 * (level + 1) if level < 9 else 0
        nodes += [kwg_node(1 + i, nxt, end=i == 39) for i in range(40)]
    with pytest.raises(FormatError, match="leads nowhere"):
        parse_klv(klv(nodes, 1), EN)


def test_a_leave_file_with_an_over_wide_list_is_refused() -> None:
    nodes = [kwg_node(0, 1, end=True)] + [kwg_node(A, accepts=True) for _ in range(100)]
    nodes[-1] |= 0x400000
    with pytest.raises(FormatError, match="more than 64 arcs"):
        parse_klv(klv(nodes, 100), EN)


def test_a_real_leave_file_still_reads() -> None:
    table = LeaveTable.from_values(EN, {"?S": 31.5, "Q": -7.25, "EQ": -5.0})
    again = parse_klv(klv_bytes(table), EN)
    assert list(again.items()) == list(table.items())


# ----- numbers and text ----------------------------------------------------------------------

HUGE = "9" * 5000


def test_a_square_with_thousands_of_digits_is_a_notation_error() -> None:
    with pytest.raises(NotationError) as info:
        Square.parse("H" + HUGE)
    assert info.value.key == "notation.square"
    assert Square.parse("h8") == Square(7, 7)


@pytest.mark.parametrize("line", [
    f">a: ABC 8D CAB +{HUGE} 10", f">a: ABC 8D CAB +1 {HUGE}", f">a: ABC H{HUGE} CAB +1 1",
    f">a: ABC {HUGE}H CAB +1 1", f">a: ABC -{HUGE} +0 0", f"#player{HUGE} a A", f"#rack{HUGE} A",
])
def test_huge_numbers_in_a_gcg_record_are_errors_not_exceptions(line: str) -> None:
    record = read_gcg(f"#player1 a A\n{line}\n>a: ABC 8D CAB +14 14\n")
    assert len(record.errors) == 1 and record.errors[0].line == 2
    assert [e.total for e in record.events] == [14]


def test_an_event_line_of_spaces_is_read_without_backtracking() -> None:
    record = read_gcg(">a" + " " * (MAX_GCG_LINE - 10) + "b\n>a: ABC 8D CAB +14 14")
    assert [e.reason for e in record.errors] == ["bad-event"] and len(record.events) == 1


def test_an_over_long_line_is_skipped_with_an_error() -> None:
    record = read_gcg(">a:" + " " * 80_000 + "x\n>a: ABC 8D CAB +14 14\n")
    assert [(e.line, e.reason) for e in record.errors] == [(1, "too-long")]
    assert len(record.events) == 1


def test_an_over_large_record_is_not_read() -> None:
    record = read_gcg(b"#note " + b"x" * MAX_GCG_BYTES)
    assert [e.reason for e in record.errors] == ["too-long"] and not record.notes


def test_gcg_check_of_huge_numbers_and_huge_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    numbers = tmp_path / "numbers.gcg"
    numbers.write_text(f"#player1 a A\n>a: ABC H{HUGE} CAB +1 1\n", encoding="utf-8")
    big = tmp_path / "big.gcg"
    big.write_bytes(b"#note " + b"x" * (2 * MAX_GCG_BYTES))
    code, out, err = run(capsys, "gcg", "check", str(numbers), str(big))
    assert code == 1 and err == ""
    assert f"{numbers}:2: bad coordinate" in out and f"{big}:1: the record is longer" in out


def test_score_with_a_huge_square_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", f"{EMPTY_BOARD} CAB/ 0/0 0 ld english;",
                         f"H{HUGE} CAB", "--no-lexicon")
    assert code == 1 and out == "" and err.startswith("letras: ") and err.count("\n") == 1


def test_score_refuses_a_huge_cgp_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "big.cgp"
    path.write_text("x" * 100_000, encoding="utf-8")
    code, out, err = run(capsys, "score", str(path), "8D CAB", "--no-lexicon")
    assert code == 1 and out == "" and "longer than 65,536 bytes" in err


@pytest.fixture
def en_list(tmp_path: Path) -> Path:
    path = tmp_path / "en.txt"
    path.write_text("CASA\nCAAS\nAS\nSA\nCAS\n", encoding="utf-8")
    return path


def test_word_anagram_takes_lower_case(capsys: pytest.CaptureFixture[str], en_list: Path) -> None:
    code, out, _ = run(capsys, "word", "anagram", "casa", "-e", "en", "-l", str(en_list))
    assert code == 0 and out.split() == ["CAAS", "CASA"]


def test_word_pattern_takes_a_lower_case_rack(
    capsys: pytest.CaptureFixture[str], en_list: Path
) -> None:
    code, out, _ = run(capsys, "word", "pattern", "?*", "--rack", "as", "-e", "en",
                       "-l", str(en_list))
    assert code == 0 and out.split() == ["AS", "SA"]


# ----- files the command line writes ---------------------------------------------------------


@pytest.fixture
def umask() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_selfplay_refuses_an_existing_file_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_match(*args: object, **kwargs: object) -> object:
        raise AssertionError("the match was played")

    monkeypatch.setattr("letras.ai.selfplay.play_match", no_match)
    existing = tmp_path / "games"
    existing.write_text("mine", encoding="utf-8")
    code, _, err = run(capsys, "selfplay", "--players", "greedy,greedy", "--games", "1",
                       "--gcg", str(existing))
    assert code == 1 and "not a folder" in err and existing.read_text() == "mine"
    code, _, err = run(capsys, "selfplay", "--players", "greedy,greedy", "--games", "1",
                       "--gcg", str(tmp_path / "no" / "such"))
    assert code == 1 and "no folder" in err and not (tmp_path / "no").exists()


@pytest.mark.parametrize("where", [".", "missing/dir/x.kwg"])
def test_lexicon_build_refuses_an_output_it_cannot_write(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, en_list: Path, where: str
) -> None:
    code, out, err = run(capsys, "lexicon", "build", str(en_list), "-e", "en",
                         "-o", str(tmp_path / where))
    assert code == 1 and out == "" and err.startswith("letras: cannot write word graph")
    assert "DAWG" not in err  # refused before the build
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_the_kwg_is_written_with_the_umask_mode(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, en_list: Path, umask: None, mask: int
) -> None:
    os.umask(mask)
    out = tmp_path / "x.kwg"
    code, _, _ = run(capsys, "lexicon", "build", str(en_list), "-e", "en", "-o", str(out))
    assert code == 0 and out.stat().st_mode & 0o777 == 0o666 & ~mask
    assert len(WordGraph.load(out, EN)) == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["en.txt", "x.kwg"]  # no temp file


def test_write_atomic_replaces_whole_and_leaves_nothing_on_failure(
    tmp_path: Path, umask: None
) -> None:
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new" and target.stat().st_mode & 0o777 == 0o644
    with pytest.raises(OutputError) as info:
        write_atomic(tmp_path / "no" / "x.bin", b"data")
    assert info.value.key == "file.write" and not (tmp_path / "no").exists()
    (tmp_path / "dir").mkdir()
    with pytest.raises(OutputError):
        write_atomic(tmp_path / "dir", b"data")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "out.bin"]


def test_check_output_and_check_folder_say_what_is_wrong(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    cases: list[tuple[Callable[[], Path], str]] = [
        (lambda: check_output(tmp_path), "file.is_dir"),
        (lambda: check_output(tmp_path / "no" / "x"), "file.no_folder"),
        (lambda: check_output(tmp_path / "file" / "x"), "file.no_folder"),
        (lambda: check_folder(tmp_path / "file"), "file.not_folder"),
        (lambda: check_folder(tmp_path / "no" / "x"), "file.no_folder"),
    ]
    for call, key in cases:
        with pytest.raises(LetrasError) as info:
            call()
        assert info.value.key == key
    assert check_output(tmp_path / "new.kwg") == tmp_path / "new.kwg"
    assert check_folder(tmp_path / "new") == tmp_path / "new"
    assert not (tmp_path / "new").exists()


def test_a_nul_in_a_file_name_is_an_error_not_a_crash(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    calls: list[Callable[[], Path]] = [lambda: check_output("a\0b"),
                                       lambda: check_folder("a\0b"),
                                       lambda: write_atomic(tmp_path / "a\0b", b"x")]
    for call in calls:
        with pytest.raises(OutputError):
            call()
    with pytest.raises(LexiconError) as info:
        load_lexicon(EN, "words\0.txt")
    assert info.value.key == "lexicon.unknown"
    code, out, _ = run(capsys, "gcg", "check", "a\0b")
    assert code == 1 and "cannot read" in out


def test_a_word_list_that_unpacks_past_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lzma

    monkeypatch.setattr("letras.lexicon.kwg.MAX_WORD_LIST_BYTES", 10_000)
    bomb = tmp_path / "bomb.txt.xz"
    bomb.write_bytes(lzma.compress(b"CASA\n" * 100_000))  # 500 kB from about 200 bytes
    with pytest.raises(LexiconError) as info:
        graph_for_words(EN, bomb)
    assert info.value.key == "lexicon.list_size"
    plain = tmp_path / "big.txt"
    plain.write_bytes(b"CASA\n" * 3_000)
    with pytest.raises(LexiconError) as info:
        graph_for_words(EN, plain)
    assert info.value.key == "lexicon.list_size"
    cut = tmp_path / "cut.txt.xz"
    cut.write_bytes(lzma.compress(b"CASA\nCAT\n" * 100)[:-20])
    with pytest.raises(LexiconError) as info:
        graph_for_words(EN, cut)
    assert info.value.key == "lexicon.read_list"


def test_an_over_large_leave_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from letras.ai.leaves.klv import read_klv

    monkeypatch.setattr("letras.ai.leaves.klv.MAX_KLV_BYTES", 100)
    path = tmp_path / "big.klv"
    path.write_bytes(b"\0" * 1000)
    with pytest.raises(FormatError, match="longer than 100 bytes"):
        read_klv(path, EN)


def test_word_list_from_file_reads_within_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "words.txt"
    path.write_text("don't\ncat\ndog\n", encoding="utf-8")
    words = WordList.from_file(EN, path)
    assert list(words) == ["CAT", "DOG"] and words.skipped == 1
    monkeypatch.setattr("letras.lexicon.kwg.MAX_WORD_LIST_BYTES", 8)
    with pytest.raises(LexiconError) as info:
        WordList.from_file(EN, path)
    assert info.value.key == "lexicon.list_size"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(LexiconError):
        WordList.from_file(EN, path)
