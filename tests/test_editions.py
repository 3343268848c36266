"""Each edition's tile table against rules.md section 2, and the rule-option defaults of 7."""

from __future__ import annotations

import pytest

from letras.editions import TimeControl, editions, find_edition
from letras.errors import UnknownEditionError
from letras.tiles import BLANK_BIT

# rules.md section 2, written out again here by value group: "value: letter count ...".
TABLES = {
    "pt-BR": (120, 3, "1: A14 E11 I10 O10 S8 U7 M6 R6 T5 · 2: D5 L5 C4 P4 · 3: N4 B3 Ç2 · "
              "4: F2 G2 H2 V2 · 5: J2 · 6: Q1 · 8: X1 Z1"),
    "es": (100, 2, "1: A12 E12 O9 I6 S6 N5 R5 U5 L4 T4 · 2: D5 G2 · 3: C4 B2 M2 P2 · "
           "4: H2 F1 V1 Y1 · 5: CH1 Q1 · 8: J1 LL1 Ñ1 RR1 X1 · 10: Z1"),
    "it": (120, 2, "1: O15 A14 I12 E11 · 2: C6 R6 S6 T6 · 3: L5 M5 N5 U5 · 5: B3 D3 F3 P3 V3 · "
           "8: G2 H2 Z2 · 10: Q1"),
    "en": (100, 2, "1: E12 A9 I9 O8 N6 R6 T6 L4 S4 U4 · 2: D4 G3 · 3: B2 C2 M2 P2 · "
           "4: F2 H2 V2 W2 Y2 · 5: K1 · 8: J1 X1 · 10: Q1 Z1"),
}


def expected_table(text: str) -> dict[str, tuple[int, int]]:
    table = {}
    for group in text.split("·"):
        value, letters = group.split(":")
        for item in letters.split():
            label = item.rstrip("0123456789")
            table[label] = (int(value), int(item[len(label):]))
    return table


@pytest.mark.parametrize("name", list(TABLES))
def test_tile_table(name: str) -> None:
    total, blanks, text = TABLES[name]
    tiles = find_edition(name).tiles
    assert tiles.total == total
    assert tiles.counts[0] == blanks and tiles.values[0] == 0
    got = {tiles.labels[c]: (tiles.values[c], tiles.counts[c]) for c in tiles.letters}
    assert got == expected_table(text)


def test_english_face_points_total_187() -> None:
    tiles = find_edition("en").tiles
    assert sum(v * c for v, c in zip(tiles.values, tiles.counts, strict=True)) == 187


@pytest.mark.parametrize(
    ("name", "missing"), [("pt-BR", "KWY"), ("es", "KW"), ("it", "JKWXY"), ("en", "ÇÑ")]
)
def test_alphabets_lack_letters(name: str, missing: str) -> None:
    tiles = find_edition(name).tiles
    assert not any(tiles.has_letter(c) for c in missing)


@pytest.mark.parametrize(
    ("alias", "name"),
    [("pt-BR", "pt-BR"), ("pt", "pt-BR"), ("Portuguese", "pt-BR"), ("pt_br", "pt-BR"),
     ("es", "es"), ("spanish", "es"), ("it", "it"), ("italian", "it"), ("en", "en"),
     ("English", "en")],
)
def test_found_by_name_or_alias(alias: str, name: str) -> None:
    assert find_edition(alias).name == name


def test_unknown_edition_names_the_known_ones() -> None:
    with pytest.raises(UnknownEditionError, match="pt-BR"):
        find_edition("polish")


def test_primary_edition_is_listed_first() -> None:
    assert next(iter(editions())) == "pt-BR"


@pytest.mark.parametrize(
    ("name", "challenge", "time_kind"),
    [("pt-BR", "double", "none"), ("es", "double", "none"), ("it", "penalty10", "move"),
     ("en", "double", "none")],
)
def test_rule_option_defaults(name: str, challenge: str, time_kind: str) -> None:
    rules = find_edition(name).rules
    assert rules.challenge_rule == challenge
    assert rules.time_control.kind == time_kind
    assert rules.exchange_min_bag == 7
    assert rules.pass_rounds_to_end == 2
    assert rules.exchange_counts_as_pass is False
    assert rules.scoreless_turns_to_end == 0
    assert rules.end_when_no_play_possible is True
    assert rules.bingo_bonus == 50
    assert rules.join_words_from_turn == 0
    assert (rules.min_players, rules.max_players) == (2, 4)


def test_layout_counts_premium_squares() -> None:
    from letras.layout import Premium

    premiums = find_edition("pt-BR").layout.premiums
    count = {p: sum(1 for q in premiums if q is p) for p in Premium}
    assert count[Premium.TRIPLE_WORD] == 8
    assert count[Premium.DOUBLE_WORD] + count[Premium.CENTRE] == 17
    assert count[Premium.TRIPLE_LETTER] == 12
    assert count[Premium.DOUBLE_LETTER] == 24
    # the picture is symmetric under every turn and reflection of the board
    grid = [tuple(premiums[r * 15:(r + 1) * 15]) for r in range(15)]
    assert grid == list(zip(*grid, strict=True))
    assert grid == grid[::-1]


@pytest.mark.parametrize(
    ("text", "kind", "seconds"),
    [("25m", "game", 1500), ("90s", "game", 90), ("move:3m", "move", 180), ("none", "none", 0)],
)
def test_time_control_parse(text: str, kind: str, seconds: int) -> None:
    tc = TimeControl.parse(text)
    assert (tc.kind, tc.seconds) == (kind, seconds)


def test_time_control_parse_rejects_junk() -> None:
    with pytest.raises(ValueError, match="bad time control"):
        TimeControl.parse("soon")


@pytest.mark.parametrize("name", list(TABLES))
def test_the_vowel_column(name: str) -> None:
    tiles = find_edition(name).tiles
    vowels = {tiles.labels[c] for c in tiles.letters if tiles.is_vowel(c)}
    assert vowels == set("AEIOU")  # Y, Ç, Ñ and the digraphs are consonants
    assert not tiles.is_vowel(0)  # the blank on a rack
    assert tiles.is_vowel(tiles.code("E") | BLANK_BIT)  # a blank standing for a vowel


def test_a_table_without_the_vowel_column_folds_to_a_e_i_o_u() -> None:
    from letras.editions import load_edition

    edition = load_edition('name = "xx"\ntiles = """\n? 0 2\nÀ 1 9\nÇ 3 2\nY 4 2\n"""\n')
    assert edition.tiles.vowels == (False, True, False, False)
    with pytest.raises(ValueError, match="bad tile line"):
        load_edition('name = "xx"\ntiles = """\n? 0 2 blank\nA 1 9 vowelish\n"""\n')
    with pytest.raises(ValueError, match="only the blank"):
        load_edition('name = "xx"\ntiles = """\n? 0 2 blank\nA 1 9 blank\n"""\n')
