"""The heuristic leave values of an edition, from its tile table alone.

:class:`HeuristicLeaves` values a leave, in points relative to an average tile (an empty leave
is worth 0), as 1.3 x (the tiles' own values - duplicates - vowel/consonant imbalance); the
terms and how they were tuned are in this package's ``README.md`` ("The heuristic").

>>> from letras.editions import find_edition
>>> en = find_edition("en")
>>> leaves = HeuristicLeaves(en)
>>> t = en.tiles.parse("?SEQVU", rack=True)
>>> [round(leaves.tile_value(x), 1) for x in t]
[25.0, 7.6, 2.3, -7.0, -2.1, -0.8]
>>> leaves.value(en.tiles.parse("ERS", rack=True)) > leaves.value(en.tiles.parse("EEE", rack=True))
True
>>> leaves.value(())
0.0
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import cache

from letras.editions import Edition, editions
from letras.tiles import BLANK, TileSet, fold

BLANK_SHARE = 0.5
"""A blank is worth this share of the bingo bonus."""
VOWEL_SLOPE, VOWEL_BASE = 2.0, -1.0
CONSONANT_SLOPE, CONSONANT_BASE, CONSONANT_VALUE_COST = 1.5, 0.5, 0.6
SCORING_TILE_MIN_VALUE, SCORING_TILE_BONUS = 8, 1.5
HOOK_LETTER, HOOK_BONUS = "S", 7.0
Q_PENALTY, QU_REFUND = -7.0, 4.0
DUPLICATE_COST = {"vowel": 3.0, "consonant": 2.0, "blank": 6.0, "hook": 6.0}
TOO_MANY_VOWELS, TOO_FEW_VOWELS = 3.0, 2.5
SCALE = 1.3
"""Every leave value is multiplied by this."""


class HeuristicLeaves:
    """Leave values from the tile table of an edition (see the module docstring)."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.tile_values = _tile_values(edition)
        """Each tile code's own value (index 0 is the blank)."""
        tiles = edition.tiles
        self._kind = tuple(
            "blank" if code == BLANK
            else "vowel" if tiles.is_vowel(code)
            else "hook" if tiles.labels[code] == HOOK_LETTER
            else "consonant"
            for code in range(len(tiles.labels))
        )
        vowel_tiles = sum(tiles.counts[c] for c in tiles.letters if self._kind[c] == "vowel")
        self.vowel_share = vowel_tiles / (tiles.total - tiles.counts[BLANK])
        """The share of vowels among the letters of a full bag (about 0.44 in every edition)."""
        self._q = _code_of(edition, "Q")
        self._u = _code_of(edition, "U")

    def tile_value(self, tile: int) -> float:
        """A tile's own value (before the factor :data:`SCALE`)."""
        return self.tile_values[tile]

    def value(self, leave: Sequence[int]) -> float:
        if not leave:
            return 0.0
        total = 0.0
        vowels = letters = 0
        for tile, n in Counter(leave).items():
            kind = self._kind[tile]
            total += n * self.tile_values[tile]
            if n > 1:
                total -= DUPLICATE_COST[kind] * n * (n - 1) / 2
            if kind != "blank":
                letters += n
                vowels += n if kind == "vowel" else 0
        if self._q is not None and self._u is not None and self._q in leave and self._u in leave:
            total += QU_REFUND
        excess = vowels - self.vowel_share * letters
        total -= (TOO_MANY_VOWELS if excess > 0 else TOO_FEW_VOWELS) * excess * excess
        return SCALE * total

    def __repr__(self) -> str:
        return f"<HeuristicLeaves {self.edition.name}>"


def is_vowel(label: str, tiles: TileSet | None = None) -> bool:
    """Is this letter (a label such as ``A``, ``À`` or ``ch``) a vowel? As the vowel column of
    the tile table of ``tiles`` says, or without ``tiles``, of the shipped editions that have
    the letter (accents folded: :func:`~letras.tiles.fold`).

    >>> is_vowel("E"), is_vowel("é"), is_vowel("Y"), is_vowel("Ç"), is_vowel("RR")
    (True, True, False, False, False)
    """
    name = fold(label)
    if tiles is not None:
        return tiles.has_letter(name) and tiles.is_vowel(tiles.code(name))
    return name in _shipped_vowels()


@cache
def _shipped_vowels() -> frozenset[str]:
    """The labels that some shipped edition's tile table marks as vowels."""
    return frozenset(
        tiles.labels[code]
        for tiles in (edition.tiles for edition in editions().values())
        for code in tiles.letters if tiles.is_vowel(code)
    )


def _code_of(edition: Edition, label: str) -> int | None:
    tiles = edition.tiles
    return tiles.code(label) if tiles.has_letter(label) else None


@cache
def _tile_values(edition: Edition) -> tuple[float, ...]:
    tiles = edition.tiles
    letters = list(tiles.letters)
    mean = sum(tiles.counts[c] for c in letters) / len(letters)
    out = [BLANK_SHARE * edition.rules.bingo_bonus]
    for code in letters:
        label, value, count = tiles.labels[code], tiles.values[code], tiles.counts[code]
        f = math.log2(count / mean)
        if label == "Q":
            out.append(Q_PENALTY)
        elif tiles.is_vowel(code):
            out.append(VOWEL_SLOPE * f + VOWEL_BASE)
        elif value >= SCORING_TILE_MIN_VALUE and len(label) == 1:
            out.append(SCORING_TILE_BONUS)
        else:
            v = CONSONANT_SLOPE * f + CONSONANT_BASE - CONSONANT_VALUE_COST * max(0, value - 2)
            out.append(v + (HOOK_BONUS if label == HOOK_LETTER else 0.0))
    return tuple(out)


@cache
def heuristic_leaves(edition: Edition) -> HeuristicLeaves:
    """The heuristic evaluator of an edition (made once, shared)."""
    return HeuristicLeaves(edition)


__all__ = ["HeuristicLeaves", "heuristic_leaves", "is_vowel"]
