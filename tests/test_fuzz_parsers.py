"""Bounded fuzzing of every parser that reads what a stranger hands letras (issue 16): notation,
CGP, GCG, word lists, word graphs (.kwg/.kbwg), leave files (.klv) and the command line's
arguments. Whatever the input, only success or a :class:`~letras.errors.LetrasError` comes out
(the GCG reader lists its problems instead of raising). A few seconds each; the long run is
``bench/fuzz.py``."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from letras.ai.leaves.klv import LeaveTable, dawg_nodes, klv_bytes, parse_klv
from letras.board import Board, Square
from letras.cli import main
from letras.editions import find_edition
from letras.errors import FormatError, LetrasError, NotationError
from letras.formats.cgp import Position
from letras.formats.gcg import read_gcg, write_gcg
from letras.lexicon import WordList
from letras.lexicon.kwg import WordGraph, internal_to_kwg, kwg_to_internal
from letras.lexicon.search import anagrams, pattern
from letras.lexicon.structure import _ordered, _shape, graph_shape
from letras.movegen import generate
from letras.play import Place

EN = find_edition("en")
ES = find_edition("es")
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# text that leans on the characters the formats give meaning to
NOTATION = st.lists(
    st.sampled_from([*"AEHRSCLWINDY aehrs.?[]*-+0123456789/:;#>()\t'ÇÑÁ\x00\x7féß\u2028",
                     "9" * 30, "[CH]", "8D ", "H8 "]),
    max_size=30,
).map("".join)
ANY_TEXT = st.text(max_size=60)
GCG_SAMPLE = """#character-encoding UTF-8
#player1 doug Doug
#player2 emely Emely
>doug: DINNVWY 8D WINDY +32 32
>emely: ADEEGIL 7C GALE +16 16
#note a fine start
>doug: ?ABCEFG -ABC +0 32
>emely: AEIOUXZ -  +0 16
>doug: ?ABCEFG --  -32 0
>emely: AEIOUXZ (challenge) +5 21
#rack1 ABC
"""


def mutations(data: bytes) -> st.SearchStrategy[bytes]:
    """Bytes of ``data`` with a few bytes changed, cut or repeated."""

    @st.composite
    def mutate(draw: st.DrawFn) -> bytes:
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 6))):
            kind = draw(st.sampled_from(["set", "cut", "dup", "insert"]))
            if not out:
                break
            i = draw(st.integers(0, len(out) - 1))
            if kind == "set":
                out[i] = draw(st.integers(0, 255))
            elif kind == "cut":
                del out[i : i + draw(st.integers(1, 8))]
            elif kind == "dup":
                out[i:i] = out[i : i + draw(st.integers(1, 64))]
            else:
                out[i:i] = draw(st.binary(min_size=1, max_size=8))
        return bytes(out)

    return mutate()


# ----- notation ------------------------------------------------------------------------------


@FUZZ
@given(NOTATION, st.integers(1, 26))
def test_square_parse_gives_a_square_or_a_notation_error(text: str, size: int) -> None:
    try:
        square = Square.parse(text, size)
    except NotationError:
        return
    assert square.on_board(size)


@FUZZ
@given(NOTATION | ANY_TEXT)
def test_play_notation_gives_a_place_or_a_letras_error(text: str) -> None:
    board = Board(EN)
    for edition in (EN, ES):
        with contextlib.suppress(LetrasError):
            place = Place.parse(text, edition, board)
            assert place.tiles
        with contextlib.suppress(NotationError):
            tiles = edition.tiles.parse(text, rack=True)
            assert all(0 <= t & 0x7F < len(edition.tiles.labels) for t in tiles)


# ----- CGP -----------------------------------------------------------------------------------

CGP = "15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 AEIRST?/ 32/0 0 ld english; bb 35;"


@FUZZ
@given(mutations(CGP.encode()) | NOTATION.map(str.encode))
def test_cgp_gives_a_position_or_a_format_error(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    try:
        position = Position.from_cgp(text)
    except LetrasError:
        return
    assert Position.from_cgp(position.cgp(), position.edition).cgp() == position.cgp()
    with contextlib.suppress(LetrasError):
        position.rules  # noqa: B018 - the opcodes' rule options are read here


# ----- GCG -----------------------------------------------------------------------------------


@FUZZ
@given(mutations(GCG_SAMPLE.encode()) | st.binary(max_size=200))
def test_the_gcg_reader_never_raises(data: bytes) -> None:
    record = read_gcg(data)
    text = write_gcg(record)
    assert isinstance(read_gcg(text).errors, list)


# ----- word lists ----------------------------------------------------------------------------


@FUZZ
@given(st.lists(NOTATION | ANY_TEXT, max_size=20))
def test_word_lists_keep_what_the_edition_spells(lines: list[str]) -> None:
    words = WordList(EN, lines)
    for word in words:
        assert word in words and all(EN.tiles.has_letter(c) for c in word)
    graph = WordGraph.build(EN, lines)
    assert {EN.tiles.word(w) for w in graph.words()} <= set(words)
    assert len(graph) == len(list(graph.words()))


# ----- word graphs ---------------------------------------------------------------------------

SMALL = WordGraph.build(EN, ["CARE", "CARES", "CAR", "BAR", "ACE", "RACE", "SCARE", "ARC"])


def exercise_graph(graph: WordGraph) -> None:
    """What a lexicon is asked: size, words, lookups, patterns, anagrams, moves."""
    if len(graph) <= 5_000:
        assert len(list(graph.words())) == len(graph)
        pattern(graph, "*A*")
        anagrams(graph, "ACERS?", partial=True)
    assert ("CARE" in graph) in (True, False)
    generate(Board(EN), EN.tiles.parse("ACERS?", rack=True), graph)


@FUZZ
@given(mutations(SMALL.nodes.astype("<u4").tobytes()), st.sampled_from([".kbwg", ".kwg"]))
def test_word_graph_files_load_or_give_a_lexicon_error(
    tmp_path: Path, data: bytes, suffix: str
) -> None:
    if suffix == ".kwg":
        whole = len(data) // 4 * 4
        nodes = np.frombuffer(data[:whole], "<u4").astype(np.uint32)
        data = internal_to_kwg(nodes).astype("<u4").tobytes() + data[whole:]
    path = tmp_path / f"g{suffix}"
    path.write_bytes(data)
    try:
        graph = WordGraph.load(path, EN)
    except LetrasError:
        return
    exercise_graph(graph)


@FUZZ
@given(st.lists(st.text(alphabet="ABCDE", min_size=2, max_size=15), min_size=1, max_size=40))
def test_the_one_pass_check_agrees_with_the_search(words: list[str]) -> None:
    nodes = WordGraph.build(EN, words).nodes
    ordered = _ordered(nodes, 2, False)
    searched = _shape(nodes, 2)
    assert ordered[0] == searched[0] == 0
    assert list(ordered[2]) == list(searched[2]) and list(ordered[3]) == list(searched[3])
    assert graph_shape(nodes).words[0] == len(set(words))


# ----- leave files ---------------------------------------------------------------------------

TABLE = LeaveTable.from_values(EN, {"?": 25.0, "?S": 31.5, "Q": -7.25, "EQ": -5.0, "S": 8.0,
                                    "ES": 10.0, "ERS": 12.5})


@FUZZ
@given(mutations(klv_bytes(TABLE)) | mutations(klv_bytes(TABLE, int16=True)))
def test_leave_files_read_or_give_a_format_error(data: bytes) -> None:
    try:
        table = parse_klv(data, EN)
    except LetrasError:
        return
    leaves = table.rack_leaves(EN.tiles.parse("?EQRSS", rack=True))
    assert np.all(np.isfinite(leaves.values))


# ----- command-line arguments ----------------------------------------------------------------

WORDS = "CARE\nCARES\nCAR\nBAR\nACE\nRACE\n"


@pytest.fixture(scope="module")
def word_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fuzz") / "words.txt"
    path.write_text(WORDS, encoding="utf-8")
    return path


COMMANDS = [
    ["word", "check"], ["word", "anagram"], ["word", "pattern"], ["word", "pattern", "*"],
    ["score", CGP], ["moves", CGP], ["gcg", "show"], ["gcg", "check"], ["lexicon", "build"],
]


@FUZZ
@given(st.sampled_from(COMMANDS), st.lists(NOTATION, min_size=1, max_size=3),
       st.booleans())
def test_command_line_arguments_give_an_exit_code(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory,
    word_file: Path, command: list[str], argv: list[str], rack: bool,
) -> None:
    cache = tmp_path_factory.getbasetemp() / "fuzz-cache"
    monkeypatch.setenv("LETRAS_CACHE", str(cache))
    monkeypatch.chdir(tmp_path_factory.getbasetemp())  # relative outputs land in a temp dir
    extra = ["--rack", argv[-1]] if rack and command[:2] == ["word", "pattern"] else []
    lexicon = ["--edition", "en", "--lexicon", str(word_file)]
    if command[0] in ("score", "moves"):
        lexicon = ["--lexicon", str(word_file)]
    elif command[0] in ("gcg",):
        lexicon = []
    elif command[0] == "lexicon":
        lexicon = ["-e", "en", "-o", argv[-1] or "x"]
        argv = [str(word_file)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([*command, *argv, *extra, *lexicon])
        except SystemExit as e:  # argparse refusing the arguments
            code = e.code if isinstance(e.code, int) else 2
    assert code in (0, 1, 2)
    assert "Traceback" not in err.getvalue()


@FUZZ
@given(st.dictionaries(st.text(alphabet="?ABCDEQ", min_size=1, max_size=5), st.floats(-30, 30),
                       min_size=1, max_size=30))
def test_the_one_pass_check_agrees_with_the_search_on_leave_files(
    values: dict[str, float],
) -> None:
    try:
        table = LeaveTable.from_values(EN, values)
    except FormatError:  # the same leave written twice ("AB", "BA")
        return
    nodes = kwg_to_internal(dawg_nodes(table.keys))
    ordered = _ordered(nodes, 1, True)  # leave files are laid out forwards, as wolges does
    searched = _shape(nodes, 1)
    assert ordered[0] == searched[0] == 0
    assert list(ordered[3]) == list(searched[3]) == [len(table)]
