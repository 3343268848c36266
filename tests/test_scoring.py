"""Scoring, with every worked example of S1 (pt-BR values) as a test."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from helpers import board_with
from letras.board import Board, Square
from letras.editions import find_edition
from letras.layout import Premium
from letras.play import Place
from letras.scoring import score

PT = find_edition("pt-BR")
EN = find_edition("en")


def words(s: object) -> list[tuple[str, int]]:
    return [(w.word, w.score) for w in s.words]  # type: ignore[attr-defined]


def test_desligar_from_liga_scores_14() -> None:
    board = board_with(PT, "8H LIGA")
    s = score(board, Place.parse("8E DESLIGAR", PT, board))
    # 13 at face value; the new R sits on the double letter at L8.
    assert board.premium(Square.parse("L8")) is Premium.DOUBLE_LETTER
    assert words(s) == [("DESLIGAR", 14)]
    assert s.total == 14


def test_soja_through_an_s_scores_8() -> None:
    board = board_with(PT, "8H SOL")
    s = score(board, Place.parse("H8 .OJA", PT, board))
    assert words(s) == [("SOJA", 8)]


def test_parallel_play_ar_la_ir_scores_7() -> None:
    board = board_with(PT, "11B LI")
    s = score(board, Place.parse("12B AR", PT, board))
    assert words(s) == [("AR", 2), ("LA", 3), ("IR", 2)]
    assert s.total == 7


def test_parallel_play_accepts_accented_notation() -> None:
    board = board_with(PT, "11B LI")
    assert score(board, Place.parse("12B ÁR", PT, board)).total == 7


def test_casas_premium_under_an_old_tile_counts_at_face_value() -> None:
    # S1 says 7 + 13 = 20, counting the DL under CASA's second A (placed on an earlier turn);
    # the same sheet says premiums count only on the turn they are covered: the rule wins.
    board = board_with(PT, "8I CASA", "M1 DESLIGA")
    assert board.premium(Square.parse("L8")) is Premium.DOUBLE_LETTER
    s = score(board, Place.parse("8I ....S", PT, board))
    assert sorted(words(s)) == [("CASAS", 6), ("DESLIGAS", 13)]
    assert s.total == 19


def test_trancar_doubled_by_a_new_r_on_a_double_word() -> None:
    board = board_with(PT, "6E ACEITAR", "9D CASAS")
    s = score(board, Place.parse("E4 TR.NC.R", PT, board))
    assert board.premium(Square.parse("E5")) is Premium.DOUBLE_WORD
    assert words(s) == [("TRANCAR", 20)]


def face(text: str) -> int:
    return sum(EN.tiles.values[EN.tiles.code(c)] for c in text)


def test_two_double_words_multiply_by_four() -> None:
    # B2 and N2 are double words; F2 and J2 triple letters (F and J of the alphabet run).
    s = score(Board(EN), Place.parse("2B ABCDEFGHIJKLM", EN))
    extra = 2 * face("E") + 2 * face("I")
    assert s.total == (face("ABCDEFGHIJKLM") + extra) * 4 + 50


def test_two_triple_words_multiply_by_nine() -> None:
    # A1 and H1 triple words, D1 a double letter.
    s = score(Board(EN), Place.parse("1A QUIZZERS", EN))
    assert s.total == (face("QUIZZERS") + face("Z")) * 9 + 50


def test_double_and_triple_word_multiply_by_six() -> None:
    # A8 triple word, D8 and L8 double letters, H8 the centre (double word).
    s = score(Board(EN), Place.parse("8A FORMULATE", EN))
    assert s.total == (face("FORMULATE") + face("M")) * 6 + 50


def test_blank_scores_zero_but_triggers_word_premium() -> None:
    s = score(Board(EN), Place.parse("8G qI", EN))
    assert s.total == (0 + 1) * 2


def test_bingo_bonus_after_multipliers() -> None:
    s = score(Board(EN), Place.parse("8D DONATES", EN))
    face = 2 + 1 + 1 + 1 + 1 + 1 + 1
    assert s.bingo == 50
    # D8 is a double letter (D on it), H8 the centre (double word).
    assert s.total == (face + 2) * 2 + 50


@given(st.lists(st.integers(0, 26), max_size=7), st.lists(st.integers(0, 26), min_size=1,
                                                          max_size=7), st.integers(0, 200))
def test_the_endgame_kernels_count_the_end_as_final_count(
    opp_rack: list[int], my_rack: list[int], score: int
) -> None:
    """The endgame search keeps a fast copy of the final count in compiled code (as a spread):
    it agrees with :func:`letras.scoring.final_count`."""
    from letras.ai.endgame.plays import _ply_value
    from letras.scoring import final_count

    values = find_edition("en").tiles.values
    opp_value = sum(values[t] for t in opp_rack)
    my_value = sum(values[t] for t in my_rack)
    went_out = final_count([[], opp_rack], values, out=0)
    value, ends = _ply_value(score, 0, 0, len(opp_rack), opp_value, False)
    assert ends and value == score + went_out[0] - went_out[1]
    stopped = final_count([my_rack, opp_rack], values)
    value, ends = _ply_value(0, len(my_rack), my_value, len(opp_rack), opp_value, True)
    assert ends and value == stopped[0] - stopped[1]
