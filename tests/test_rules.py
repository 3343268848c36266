"""Legality: every reason a play is refused, with the board left as it was."""

from __future__ import annotations

import pytest

from helpers import board_with
from letras.board import Board, Direction, Square
from letras.editions import find_edition
from letras.errors import IllegalPlayError
from letras.lexicon import WordList
from letras.play import Place
from letras.rules import full_place, leave, place_from_tiles, validate
from letras.tiles import BLANK, BLANK_BIT

EN = find_edition("en")
T = EN.tiles
WORDS = WordList(
    EN, ["AA", "AI", "WINDY", "GALE", "JAVELIN", "AW", "WE", "AWE", "QI", "IT", "AT", "TI"]
)


def sq(name: str) -> Square:
    return Square.parse(name)


def refused(board: Board, place: Place, reason: str, **kw: object) -> IllegalPlayError:
    before = board.copy()
    with pytest.raises(IllegalPlayError) as e:
        validate(board, place, **kw)  # type: ignore[arg-type]
    assert e.value.reason == reason, str(e.value)
    assert board == before
    return e.value


def test_first_play_must_cover_the_centre() -> None:
    err = refused(Board(EN), Place.parse("1A WINDY", EN), "first-play-centre")
    assert "H8" in str(err)


def test_first_play_needs_two_tiles() -> None:
    refused(Board(EN), Place.parse("8H A", EN), "first-play-one-tile")


def test_play_must_touch_the_board() -> None:
    board = board_with(EN, "8D WINDY")
    refused(board, Place.parse("1A GALE", EN), "not-connected")


def test_square_taken() -> None:
    board = board_with(EN, "8D WINDY")
    refused(board, Place(sq("E7"), Direction.DOWN, (T.code("A"), T.code("X"))), "square-taken")


def test_dot_on_an_empty_square() -> None:
    board = board_with(EN, "8D WINDY")
    refused(board, Place.parse("9C A.", EN), "through-mismatch")


def test_off_the_board() -> None:
    board = board_with(EN, "8D WINDY")
    refused(board, Place.parse("8N AAAA", EN), "off-board")


def test_tiles_not_on_the_rack() -> None:
    rack = T.parse("WINDXYZ", rack=True)
    err = refused(Board(EN), Place.parse("8D WINDY", EN), "not-on-rack", rack=T.parse("WINDXQZ",
                                                                                    rack=True))
    assert "Y" in str(err)
    assert validate(Board(EN), Place.parse("8D WINDY", EN), rack=rack).total == 32
    # A blank on the board needs a blank on the rack.
    refused(Board(EN), Place.parse("8D WINDy", EN), "not-on-rack", rack=rack)
    with_blank = T.parse("WIND?", rack=True)
    assert validate(Board(EN), Place.parse("8D WINDy", EN), rack=with_blank).total == 24


def test_a_blank_must_stand_for_a_letter_of_the_edition() -> None:
    pt = find_edition("pt-BR")
    too_far = len(pt.tiles.labels) | BLANK_BIT
    place = Place(sq("H8"), Direction.ACROSS, (pt.tiles.code("A"), too_far))
    refused(Board(pt), place, "blank-letter")
    refused(Board(pt), Place(sq("H8"), Direction.ACROSS, (1, BLANK_BIT)), "blank-letter")


def test_every_invalid_word_is_named() -> None:
    board = board_with(EN, "8D WINDY")
    # Across at 9C: "AX" under "WI" makes AX (main), WA? no: cross words W/A and I/X.
    place = Place.parse("9D AX", EN)
    err = refused(board, place, "invalid-words", lexicon=WORDS)
    assert err.invalid_words == ("AX", "WA", "IX")
    assert "AX, WA, IX" in str(err)


def test_valid_play_with_cross_words_scores_each() -> None:
    board = board_with(EN, "8D WINDY")
    s = validate(board, Place.parse("7C AW", EN), lexicon=WordList(EN, ["AW", "WW"]), rack=None)
    assert [w.word for w in s.words] == ["AW", "WW"]


def test_one_tile_making_words_both_ways_scores_both() -> None:
    board = board_with(EN, "8G IT", "H7 A.")
    place = place_from_tiles(board, [(sq("G7"), T.code("A"))])
    s = validate(board, place, lexicon=WORDS)
    assert sorted(w.word for w in s.words) == ["AA", "AI"]


def test_from_tiles_not_in_line_and_gap() -> None:
    board = board_with(EN, "8D WINDY")
    e = T.code("E")
    with pytest.raises(IllegalPlayError) as err:
        place_from_tiles(board, [(sq("A1"), e), (sq("B2"), e)])
    assert err.value.reason == "not-in-line"
    with pytest.raises(IllegalPlayError) as err:
        place_from_tiles(board, [(sq("D9"), e), (sq("D11"), e)])
    assert err.value.reason == "gap"
    with pytest.raises(IllegalPlayError) as err:
        place_from_tiles(board, [(sq("D8"), e)])
    assert err.value.reason == "square-taken"
    # A line through board tiles is no gap.
    place = place_from_tiles(board, [(sq("C8"), e), (sq("I8"), e)])
    assert place.notation(EN) == "8C E.....E"


def test_joining_words_only_from_a_given_turn() -> None:
    board = board_with(EN, "8D AT", "8H AT")
    rules = EN.rules.replace(join_words_from_turn=4)
    place = Place.parse("8F EA", EN, board)
    refused(board, place, "joins-words-early", rules=rules, turn=3)
    assert validate(board, place, rules=rules, turn=4).total > 0


def test_full_place_includes_board_tiles_at_both_ends() -> None:
    board = board_with(EN, "8H IG")
    place = full_place(board, Place.parse("8G L", EN))
    assert place.notation(EN) == "8G L.."


def test_leave() -> None:
    rack = T.parse("AEIN?ST", rack=True)
    assert leave(rack, Place.parse("8D SAtIN", EN)) == list(T.parse("ET", rack=True))
    assert BLANK not in leave(rack, Place.parse("8D SAtIN", EN))
