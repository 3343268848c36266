"""Board layouts: the premium squares, kept as a picture.

>>> from letras.editions import find_edition
>>> layout = find_edition("pt-BR").layout
>>> layout.size, layout.centre
(15, 112)
>>> sum(1 for p in layout.premiums if p is Premium.TRIPLE_WORD)
8
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Premium(enum.Enum):
    """What a square does to a tile placed on it this turn: ``(letter, word)`` multipliers."""

    NONE = (".", 1, 1)
    DOUBLE_LETTER = ("'", 2, 1)
    TRIPLE_LETTER = ('"', 3, 1)
    DOUBLE_WORD = ("-", 1, 2)
    TRIPLE_WORD = ("=", 1, 3)
    CENTRE = ("*", 1, 2)

    def __init__(self, symbol: str, letter_multiplier: int, word_multiplier: int) -> None:
        self.symbol = symbol
        self.letter_multiplier = letter_multiplier
        self.word_multiplier = word_multiplier


_BY_SYMBOL = {p.symbol: p for p in Premium}


@dataclass(frozen=True)
class Layout:
    """A square board's premiums, row by row, and its centre square (an index)."""

    name: str
    size: int
    premiums: tuple[Premium, ...]
    centre: int

    @classmethod
    def from_picture(cls, name: str, picture: str) -> Layout:
        """Read a layout drawn one row per line, squares separated by spaces; ``#`` comments.

        ``=`` triple word, ``-`` double word, ``"`` triple letter, ``'`` double letter,
        ``*`` the centre (a double word where the first play must go), ``.`` plain.
        """
        rows = []
        for line in picture.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                rows.append(line.split())
        size = len(rows)
        if size == 0 or any(len(r) != size for r in rows):
            raise ValueError(f"layout {name!r} is not square")
        try:
            premiums = tuple(_BY_SYMBOL[s] for row in rows for s in row)
        except KeyError as e:
            raise ValueError(f"layout {name!r}: unknown square symbol {e.args[0]!r}") from None
        centres = [i for i, p in enumerate(premiums) if p is Premium.CENTRE]
        if len(centres) != 1:
            raise ValueError(f"layout {name!r} needs exactly one centre square '*'")
        return cls(name, size, premiums, centres[0])

    def picture(self) -> str:
        """The layout as the picture it was read from (without comments)."""
        n = self.size
        return "\n".join(
            " ".join(p.symbol for p in self.premiums[r * n : (r + 1) * n]) for r in range(n)
        )
