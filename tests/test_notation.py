"""Squares, coordinates, tiles and plays: parsing and writing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import board_with
from letras.board import Direction, Square
from letras.editions import find_edition
from letras.errors import IllegalPlayError, NotationError
from letras.play import Place, parse_coordinate
from letras.tiles import BLANK_BIT, THROUGH

EN, ES, PT = find_edition("en"), find_edition("es"), find_edition("pt-BR")


def test_coordinates_row_first_is_across() -> None:
    assert parse_coordinate("8D") == (Square(7, 3), Direction.ACROSS)
    assert parse_coordinate("d8") == (Square(7, 3), Direction.DOWN)
    assert parse_coordinate("15O") == (Square(14, 14), Direction.ACROSS)


@pytest.mark.parametrize("bad", ["", "8", "D", "16A", "A16", "P1", "1P", "8D8", "ZZ"])
def test_bad_coordinates(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_coordinate(bad)


def test_square_names_round_trip() -> None:
    for r in range(15):
        for c in range(15):
            sq = Square(r, c)
            assert Square.parse(sq.name) == sq
            assert eval(repr(sq)) == sq


def test_digraph_tiles_and_blanks() -> None:
    t = ES.tiles
    place = Place.parse("8D [CH]E[rr]O", ES)
    assert place.tiles == (t.code("CH"), t.code("E"), t.code("RR") | BLANK_BIT, t.code("O"))
    assert place.notation(ES) == "8D [CH]E[rr]O"
    # Written without brackets, letters are split greedily into tiles.
    assert Place.parse("8D CHErrO", ES) == place
    # On a rack, unbracketed letters are single tiles.
    assert t.parse("RR", rack=True) == (t.code("R"), t.code("R"))
    assert t.parse("[RR]?", rack=True) == (t.code("RR"), 0)


def test_accents_are_folded() -> None:
    t = PT.tiles
    assert t.word_tiles("LÁ") == t.word_tiles("la") == (t.code("L"), t.code("A"))
    assert t.word_tiles("AÇÃO") == (t.code("A"), t.code("Ç"), t.code("A"), t.code("O"))
    assert ES.tiles.word_tiles("ÑANDÚ")[0] == ES.tiles.code("Ñ")


def test_letters_the_edition_lacks() -> None:
    with pytest.raises(NotationError, match="no tile 'K'"):
        Place.parse("8D KIWI", PT)
    with pytest.raises(NotationError, match="blank may only stand"):
        PT.tiles.parse("ká")
    with pytest.raises(NotationError, match="no tile 'W'"):
        ES.tiles.word_tiles("WEB")


def test_played_through_letters_written_as_letters() -> None:
    board = board_with(EN, "8D WINDY", "7C GALE")
    dotted = Place.parse("E3 JAVE..N", EN, board)
    assert Place.parse("E3 JAVELIN", EN, board) == dotted
    assert dotted.tiles[4] == THROUGH
    with pytest.raises(IllegalPlayError) as e:
        Place.parse("E3 JAVEXNN", EN, board)
    assert e.value.reason == "square-taken"


@pytest.mark.parametrize("bad", ["8D", "WINDY", "8D WIN DY", "8D WI(N)DY", "8D [CH", "8D W1NDY"])
def test_malformed_plays(bad: str) -> None:
    with pytest.raises(NotationError):
        Place.parse(bad, ES)


edition_names = st.sampled_from(["pt-BR", "es", "it", "en"])


@given(edition_names, st.data())
def test_play_notation_round_trip(name: str, data: st.DataObject) -> None:
    edition = find_edition(name)
    letters = list(edition.tiles.letters)
    tile = st.one_of(
        st.sampled_from(letters),
        st.sampled_from(letters).map(lambda t: t | BLANK_BIT),
        st.just(THROUGH),
    )
    tiles = data.draw(st.lists(tile, min_size=1, max_size=15))
    square = Square(data.draw(st.integers(0, 14)), data.draw(st.integers(0, 14)))
    direction = data.draw(st.sampled_from(list(Direction)))
    place = Place(square, direction, tuple(tiles))
    assert Place.parse(place.notation(edition), edition) == place


@given(edition_names, st.data())
def test_rack_notation_round_trip(name: str, data: st.DataObject) -> None:
    tiles = find_edition(name).tiles
    rack = tuple(data.draw(st.lists(st.sampled_from(range(len(tiles.labels))), max_size=7)))
    assert tiles.parse(tiles.format(rack), rack=True) == rack
