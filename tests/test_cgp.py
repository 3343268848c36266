"""CGP positions: reading leniently, writing canonically, refusing malformed text."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from letras.board import Board, Square
from letras.editions import CHALLENGE_RULES, Edition, editions, find_edition
from letras.errors import FormatError
from letras.formats.cgp import Position, format_board, format_rack, parse_board, parse_rack
from letras.i18n import languages, messages
from letras.tiles import BLANK, BLANK_BIT

PT = find_edition("pt-BR")
ES = find_edition("es")
EN = find_edition("en")
EMPTY_ROWS = "/".join(["15"] * 15)
CASA_ROWS = "12D2/12E2/12S2/12L2/12I2/12G2/12A2/8CASA3/15/15/15/15/15/15/15"


def rows_with(row8: str) -> str:
    """An empty board but for row 8."""
    return "/".join(["15"] * 7 + [row8] + ["15"] * 7)


# --- the shared move-count positions ---------------------------------------------------------

POSITION_FILES = {"en": "en.tsv", "es": "es.tsv", "pt-BR": "pt-BR.tsv"}


def read_positions(shared: Path, edition: str) -> list[dict[str, str]]:
    with (shared / "positions" / POSITION_FILES[edition]).open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.mark.parametrize("name", list(POSITION_FILES))
def test_every_shared_board_reads_and_writes_back_the_same_text(shared: Path, name: str) -> None:
    edition = find_edition(name)
    rows = read_positions(shared, name)
    assert len(rows) > 400
    for row in rows:
        board = parse_board(row["cgp_board"], edition)
        assert format_board(board) == row["cgp_board"]
        # No tile is used more often than the bag holds (a digraph read as two letters, or a
        # blank read as a letter, would break this somewhere in 400+ boards).
        used = edition.tiles.rack_counts(t for _, t in board.tiles())
        assert all(n <= most for n, most in zip(used, edition.tiles.counts, strict=True)), row


@pytest.mark.parametrize("name", list(POSITION_FILES))
def test_every_shared_rack_reads_and_the_tiles_add_up(shared: Path, name: str) -> None:
    edition = find_edition(name)
    for row in read_positions(shared, name):
        board = parse_board(row["cgp_board"], edition)
        rack = parse_rack(row["rack"], edition)
        assert format_rack(rack, edition) == row["rack"]
        assert len(rack) == edition.rack_size
        # What is neither on the board, on the rack nor in the bag is the opponent's rack:
        # full while the bag has tiles, never more than a rack.
        opponent = edition.tiles.total - board.tile_count() - len(rack) - int(row["bag"])
        assert 0 < opponent <= edition.rack_size, row
        assert opponent == edition.rack_size or row["bag"] == "0", row


def test_shared_boards_hold_spanish_digraphs_and_blanks(shared: Path) -> None:
    rows = read_positions(shared, "es")
    seen: set[str] = set()
    for row in rows:
        board = parse_board(row["cgp_board"], ES)
        seen.update(ES.tiles.label(t) for _, t in board.tiles())
    assert {"CH", "RR"} <= seen
    assert any(label.islower() for label in seen)


def test_spanish_racks_split_unbracketed_letters() -> None:
    rack = parse_rack("CH[LL]MOQU", ES)
    assert [ES.tiles.label(t) for t in rack] == ["C", "H", "LL", "M", "O", "Q", "U"]


# --- reading ---------------------------------------------------------------------------------


def test_a_full_position_reads_every_field() -> None:
    pos = Position.from_cgp(f"{CASA_ROWS} ASDEIOU/?X 100/-20 3 lex LEXPT; ld portuguese; gid x1;")
    assert pos.edition is PT
    assert PT.tiles.label(pos.board[Square.parse("M1")]) == "D"
    assert PT.tiles.word([pos.board[Square.parse(f"{c}8")] for c in "IJKL"]) == "CASA"
    assert PT.tiles.format(pos.racks[0]) == "ASDEIOU"
    assert pos.racks[1] == (BLANK, PT.tiles.code("X"))
    assert pos.scores == (100, -20)
    assert pos.zero_turns == 3
    assert pos.lexicon == "LEXPT"
    assert pos.opcodes == (("gid", "x1"),)


def test_blanks_on_the_board_are_lower_case() -> None:
    pos = Position.from_cgp(f"{rows_with('7aB6')} / 0/0 0 ld english;")
    assert pos.board[Square.parse("H8")] == EN.tiles.code("A") | BLANK_BIT
    assert pos.board[Square.parse("I8")] == EN.tiles.code("B")


def test_spanish_digraphs_are_bracketed_on_the_board() -> None:
    pos = Position.from_cgp(f"{rows_with('5[CH]E[rr]O[LL]5')} [LL]?/ 0/0 0 ld spanish;")
    labels = [ES.tiles.label(t) for _, t in pos.board.tiles()]
    assert labels == ["CH", "E", "rr", "O", "LL"]
    # Unbracketed, C and H are two tiles (multi-letter tiles must be bracketed in CGP).
    two = parse_board(rows_with("5CH8"), ES)
    assert [ES.tiles.label(t) for _, t in two.tiles()] == ["C", "H"]


@pytest.mark.parametrize(
    ("ld", "name"),
    [
        (None, "pt-BR"),
        ("english", "en"),
        ("spanish", "es"),
        ("italian", "it"),
        ("portuguese", "pt-BR"),
        ("en", "en"),
        ("PT_br", "pt-BR"),
        ("español", "es"),
    ],
)
def test_the_edition_comes_from_ld_else_pt_br(ld: str | None, name: str) -> None:
    opcode = f" ld {ld};" if ld else ""
    assert Position.from_cgp(f"{EMPTY_ROWS} / 0/0 0{opcode}").edition.name == name


def test_the_edition_argument_wins_over_ld() -> None:
    text = f"{EMPTY_ROWS} ÑA/ 0/0 0 ld english;"
    assert Position.from_cgp(text, ES).edition is ES
    assert Position.from_cgp(text, "es").edition is ES
    with pytest.raises(FormatError, match="'Ñ'"):
        Position.from_cgp(text)


def test_an_edition_argument_makes_an_unknown_ld_harmless() -> None:
    text = f"{EMPTY_ROWS} / 0/0 0 ld klingon;"
    assert Position.from_cgp(text, EN).edition is EN
    with pytest.raises(FormatError, match="klingon"):
        Position.from_cgp(text)


def test_reading_is_lenient_and_writing_canonical() -> None:
    sloppy = f"  {rows_with('7Á7')}\tAB/CD?   +5/007  0 gid  g 1 ;lex  CSW21  \n"
    pos = Position.from_cgp(sloppy, EN)
    assert pos.cgp() == f"{rows_with('7A7')} AB/CD? 5/7 0 lex CSW21; ld english; gid g 1;"


def test_opcodes_without_operands_and_in_any_order() -> None:
    pos = Position.from_cgp(f"{EMPTY_ROWS} / 0/0 0 ld en; xyz; lex L; bdn CrosswordGame")
    assert pos.lexicon == "L"
    assert pos.opcodes == (("xyz", ""), ("bdn", "CrosswordGame"))
    assert pos.cgp().endswith(" 0 lex L; ld english; xyz; bdn CrosswordGame;")


def test_more_than_two_players() -> None:
    pos = Position.from_cgp(f"{EMPTY_ROWS} A/B/C 1/2/3 0")
    assert pos.scores == (1, 2, 3)
    assert len(pos.racks) == 3


def test_rule_opcodes_set_rule_options() -> None:
    pos = Position.from_cgp(f"{EMPTY_ROWS} / 0/0 0 bb 35; etl 1; mcnz 6; cr 5pt;")
    assert (pos.rules.bingo_bonus, pos.rules.exchange_min_bag) == (35, 1)
    assert (pos.rules.scoreless_turns_to_end, pos.rules.challenge_rule) == (6, "5pt")
    assert pos.edition.rules.bingo_bonus == 50
    # Macondo's "triple" has no letras rule: the edition's own rule stays.
    assert Position.from_cgp(f"{EMPTY_ROWS} / 0/0 0 cr triple;").rules.challenge_rule == "double"


def test_repr_rebuilds_the_position() -> None:
    pos = Position.from_cgp(f"{CASA_ROWS} ASDEIOU/ 100/120 0 lex X;")
    assert eval(repr(pos)) == pos


# --- malformed CGP ---------------------------------------------------------------------------

MALFORMED = [
    ("", "board, racks, scores"),
    ("junk", "'junk'"),
    (f"{EMPTY_ROWS} / 0/0", "board, racks, scores"),
    ("/".join(["15"] * 14) + " / 0/0 0", "15 rows, not 14"),
    ("/".join(["15"] * 16) + " / 0/0 0", "15 rows, not 16"),
    (f"{rows_with('16')} / 0/0 0", "'16' has more than 15 squares"),
    (f"{rows_with('7AB7')} / 0/0 0", "'7AB7' has more than 15 squares"),
    (f"{rows_with('14')} / 0/0 0", "'14' has 14 squares"),
    (f"{rows_with('99999999999')} / 0/0 0", "'99999999999' has more than 15"),
    (f"{rows_with('7K7')} / 0/0 0", "'7K7': no tile 'K'"),
    (f"{rows_with('7k7')} / 0/0 0", "'7k7': a blank may only stand for a letter"),
    (f"{rows_with('7?7')} / 0/0 0", "'7?7': a blank on the board"),
    (f"{rows_with('7.7')} / 0/0 0", "'7.7'"),
    (f"{rows_with('7[CH7')} / 0/0 0 ld es;", "unclosed '['"),
    (f"{rows_with('7[CH]7')} / 0/0 0", "no tile 'CH'"),
    (f"{EMPTY_ROWS} KA/ 0/0 0", "rack 1 'KA': no tile 'K'"),
    (f"{EMPTY_ROWS} /Aa 0/0 0", "rack 2 'Aa': a rack holds letters and '?' blanks"),
    (f"{EMPTY_ROWS} ABCDEFGH/ 0/0 0", "'ABCDEFGH': a rack holds at most 7 tiles"),
    (f"{EMPTY_ROWS} / 1x/0 0", "bad score '1x'"),
    (f"{EMPTY_ROWS} / 0/ 0", "bad score ''"),
    (f"{EMPTY_ROWS} / 1.5/0 0", "bad score '1.5'"),
    (f"{EMPTY_ROWS} / 0/0/0 0", "2 racks, 3 scores"),
    (f"{EMPTY_ROWS} A 0 0", "at least two players"),
    (f"{EMPTY_ROWS} / 0/0 x", "scoreless turns in CGP: 'x'"),
    (f"{EMPTY_ROWS} / 0/0 -1", "scoreless turns in CGP: '-1'"),
    (f"{EMPTY_ROWS} / 0/0 0 ld klingon;", "'ld klingon;'"),
    (f"{EMPTY_ROWS} / 0/0 0 lex;", "'lex' needs a name"),
    (f"{EMPTY_ROWS} / 0/0 0 lex A; lex B;", "'lex' appears more than once"),
    (f"{EMPTY_ROWS} / 0/0 0 bb lots;", "'bb' needs a number, not 'lots'"),
    (f"{EMPTY_ROWS} / 0/0 0 cr whatever;", "'cr whatever;'"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED)
def test_malformed_cgp_raises_format_error_naming_the_text(text: str, message: str) -> None:
    with pytest.raises(FormatError) as info:
        Position.from_cgp(text)
    assert type(info.value) is FormatError
    assert message in str(info.value)


def test_a_malformed_cgp_says_itself_in_portuguese() -> None:
    with pytest.raises(FormatError) as info:
        Position.from_cgp(f"{rows_with('7?7')} / 0/0 0")
    e = info.value
    assert (e.key, e.values["number"], e.values["row"]) == ("cgp.row_blank", 8, "7?7")
    said = messages("pt-BR")(e.key, **e.values)
    assert "'7?7'" in said and "tabuleiro" in said and "minúscula" in said
    for text, _ in MALFORMED:  # every refusal has its own message, in every language
        with pytest.raises(FormatError) as info:
            Position.from_cgp(text)
        assert info.value.key.startswith("cgp."), text
        for language in languages():
            messages(language)(info.value.key, **info.value.values)


def test_a_position_refuses_values_cgp_cannot_write() -> None:
    with pytest.raises(FormatError, match="at most 7 tiles"):
        Position(Board(EN), racks=((1,) * 8, ()))
    with pytest.raises(FormatError, match="bad operands"):
        Position(Board(EN), opcodes=(("gid", "a;b"),))
    with pytest.raises(FormatError, match="field of the position"):
        Position(Board(EN), opcodes=(("lex", "X"),))
    with pytest.raises(FormatError, match="never negative"):
        Position(Board(EN), zero_turns=-1)


VALID = f"{CASA_ROWS} ASDEIOU/?X 100/120 0 lex L; ld portuguese; bb 40;"


@settings(max_examples=300)
@given(st.text(max_size=300))
@example("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 [/ 0/0 0")
@example("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0 ld \x1c;")
def test_junk_raises_format_error_or_reads(text: str) -> None:
    try:
        pos = Position.from_cgp(text)
    except FormatError:
        return
    assert Position.from_cgp(pos.cgp()) == pos


@settings(max_examples=300)
@given(st.integers(0, len(VALID)), st.integers(0, 12), st.text(max_size=3))
def test_a_damaged_cgp_raises_format_error_or_reads(at: int, cut: int, insert: str) -> None:
    text = VALID[:at] + insert + VALID[at + cut :]
    try:
        pos = Position.from_cgp(text)
    except FormatError:
        return
    assert Position.from_cgp(pos.cgp()) == pos


# --- write -> read is the identity -----------------------------------------------------------

NAMES = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcz0123456789_-./+?", min_size=1, max_size=8)
OTHER_OPCODES = st.sampled_from(["gid", "lm", "bdn", "tmr", "ti", "to", "var", "x-y"])


@st.composite
def positions(draw: st.DrawFn, edition: Edition) -> Position:
    tiles = edition.tiles
    letter = st.sampled_from(list(tiles.letters))
    tile = st.tuples(letter, st.booleans()).map(lambda t: t[0] | BLANK_BIT if t[1] else t[0])
    squares = edition.layout.size**2
    placed = draw(st.dictionaries(st.integers(0, squares - 1), tile, max_size=80))
    board = Board(edition)
    for index, t in placed.items():
        board.squares[index] = t
    players = draw(st.integers(2, 4))
    rack_tile = st.sampled_from([BLANK, *tiles.letters])
    racks = tuple(
        tuple(draw(st.lists(rack_tile, max_size=edition.rack_size))) for _ in range(players)
    )
    scores = tuple(draw(st.lists(st.integers(-500, 2000), min_size=players, max_size=players)))
    operands = st.lists(NAMES, max_size=3).map(" ".join)
    others = st.tuples(OTHER_OPCODES, operands)
    rules = st.one_of(
        st.tuples(st.sampled_from(["bb", "etl", "mcnz"]), st.integers(0, 99).map(str)),
        st.tuples(st.just("cr"), st.sampled_from(CHALLENGE_RULES)),
    )
    return Position(
        board,
        racks,
        scores,
        zero_turns=draw(st.integers(0, 20)),
        lexicon=draw(st.none() | st.lists(NAMES, min_size=1, max_size=2).map(" ".join)),
        opcodes=tuple(draw(st.lists(others | rules, max_size=4))),
    )


@pytest.mark.parametrize("name", list(editions()))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_cgp_then_from_cgp_is_the_identity(name: str, data: st.DataObject) -> None:
    edition = find_edition(name)
    pos = data.draw(positions(edition))
    text = pos.cgp()
    again = Position.from_cgp(text)
    assert again == pos
    assert again.edition is edition
    assert again.cgp() == text
    assert format_board(parse_board(format_board(pos.board), edition)) == format_board(pos.board)


def test_spanish_digraph_blanks_survive_the_round_trip() -> None:
    board = Board(ES)
    board[Square.parse("H8")] = ES.tiles.code("CH") | BLANK_BIT
    board[Square.parse("I8")] = ES.tiles.code("RR")
    rack = (BLANK, ES.tiles.code("LL"), ES.tiles.code("C"), ES.tiles.code("H"))
    pos = Position(board, racks=(rack, ()), scores=(3, 4))
    assert pos.cgp() == f"{rows_with('7[ch][RR]6')} ?[LL]CH/ 3/4 0 ld spanish;"
    assert Position.from_cgp(pos.cgp()) == pos
