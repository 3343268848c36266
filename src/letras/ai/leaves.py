"""Leave values: what the tiles kept on the rack after a play are worth for the turns to come.

A leave evaluator is any object with ``value(leave) -> float`` (:class:`LeaveEvaluator`), the
leave given as rack tile codes (``0`` = blank) in any order. The equity player adds it to a
play's score. This module has the heuristic one, :class:`HeuristicLeaves`, derived from an
edition's tile table; a table of values learned by self-play (superleaves, a KLV file) can take
its place without changing the player.

The heuristic, in points, relative to an average tile (an empty leave is worth 0), for any
edition, from its tile table alone:

    value = 1.3 x (sum of the tiles' own values - duplicates - vowel/consonant imbalance)

- **each tile's own value** (:meth:`HeuristicLeaves.tile_value`):

  - the blank: half the bingo bonus (25);
  - a vowel: ``2 log2(f) - 1``, where ``f`` is the letter's count over the mean count of a
    letter (common vowels such as E or A are easy to use, U much less);
  - a consonant: ``1.5 log2(f) + 0.5 - 0.6 (value - 2)``, the last term for values above 2
    (common cheap consonants are flexible, rare mid-value ones are clumsy);
  - a scoring tile (value 8 or more, one letter, not Q; the X/Z type): a flat +1.5, since it
    scores well on a letter premium in a short word;
  - the S (the hooking letter of all four editions): +7 on top of its consonant value;
  - the Q: -7, of which a U kept with it gives back 4.

- **duplicates**: each pair of equal tiles costs 3 (vowels), 2 (consonants), 6 (blanks, S),
  so three of a kind cost three times that;
- **vowel/consonant balance**: with ``v`` vowels among ``n`` letters (blanks left out) and
  ``s`` the share of vowels among the letters of a full bag, ``3 (v - s n)^2`` when there are
  too many vowels, ``2.5 (v - s n)^2`` when too few.

The overall factor 1.3 and the balance weights were tuned in self-play of ``equity`` against
``greedy`` (pt-BR and en, 2,000 games a setting).

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
from typing import Protocol, runtime_checkable

from letras.editions import Edition
from letras.tiles import BLANK, fold

VOWELS = frozenset("AEIOU")
"""The vowel letters (after folding accents) in every edition letras ships."""

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


@runtime_checkable
class LeaveEvaluator(Protocol):
    """Anything that values a leave: a heuristic, or a trained table of superleaves."""

    def value(self, leave: Sequence[int]) -> float:
        """Points the tiles kept are worth (rack tile codes, 0 = blank, any order)."""
        ...


class HeuristicLeaves:
    """Leave values from the tile table of an edition (see the module docstring)."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.tile_values = _tile_values(edition)
        """Each tile code's own value (index 0 is the blank)."""
        tiles = edition.tiles
        self._kind = tuple(
            "blank" if code == BLANK
            else "vowel" if is_vowel(tiles.labels[code])
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


def is_vowel(label: str) -> bool:
    """Is this letter (a label such as ``A`` or ``À``) a vowel?"""
    return fold(label) in VOWELS


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
        elif is_vowel(label):
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


@cache
def shipped_leaves(edition: Edition) -> LeaveEvaluator:
    """The edition's trained leave values (``letras/ai/data/<edition>.klv``, made by
    ``letras train-leaves``) when the package ships them, else :func:`heuristic_leaves`.
    Read once, shared.

    >>> from letras.editions import find_edition
    >>> shipped_leaves(find_edition("en")) is shipped_leaves(find_edition("en"))
    True
    """
    from importlib import resources

    from letras.ai.klv import parse_klv

    data = resources.files("letras.ai") / "data" / f"{edition.name}.klv"
    if not data.is_file():
        return heuristic_leaves(edition)
    return parse_klv(data.read_bytes(), edition, f"{edition.name} (shipped)")
