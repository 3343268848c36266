"""Tiles as small integers, and the tile set of an edition (labels, values, counts).

Inside the engine a tile is an ``int``:

- ``0`` is an empty square on a board and an undesignated blank (``?``) on a rack;
- ``1 .. n`` are the edition's letters in table order;
- a letter with :data:`BLANK_BIT` set is a blank standing for that letter.

Labels (``A``, ``Ç``, ``[CH]``, ``?``) exist only at the edges, where text is read and written.

>>> from letras.editions import find_edition
>>> es = find_edition("es")
>>> es.tiles.word_tiles("perro") == es.tiles.parse("PE[RR]O")
True
>>> es.tiles.format(es.tiles.parse("[CH]a"))
'[CH]a'
>>> len(es.tiles.word_tiles("CHILLAR"))
5
>>> r = es.tiles.code("R")
>>> es.tiles.format((r, r, r))
'[R][R]R'
>>> es.tiles.is_vowel(es.tiles.code("E")), es.tiles.is_vowel(es.tiles.code("LL"))
(True, False)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from letras.errors import NotationError

EMPTY = 0
"""An empty square on a board."""
BLANK = 0
"""An undesignated blank on a rack (written ``?``)."""
THROUGH = 0
"""In a play's tiles: a square already on the board that the play goes through (written ``.``)."""
BLANK_BIT = 0x80
"""Set on a letter to say that a blank stands for it."""
LETTER_MASK = 0x7F


def is_designated_blank(tile: int) -> bool:
    """True for a blank standing for a letter."""
    return bool(tile & BLANK_BIT)


def letter(tile: int) -> int:
    """The letter a tile shows: itself, or the letter a blank stands for."""
    return tile & LETTER_MASK


def rack_tile(tile: int) -> int:
    """The tile that leaves the rack to place ``tile``: a designated blank comes from ``?``."""
    return BLANK if tile & BLANK_BIT else tile


_NOT_A_CODE = re.compile("[^\x01-\x3f]")
_RAW_CODE = re.compile("[\x00-\x3f]")
"""Characters below ``@`` (digits, space, apostrophe, hyphen, tab, control characters) are never
letters: in a word they must not pass through the fast path as raw tile codes."""

# Letters that stay letters of their own when folding accents, where the edition has them.
_NO_FOLD = frozenset("ÇÑ")

PLAIN_VOWELS = frozenset("AEIOU")
"""The letters a tile table without a vowel column counts as vowels, after folding accents
(:func:`fold`): A E I O U with or without accents; Y, Ç, Ñ and digraphs are consonants."""


def fold(text: str) -> str:
    """Upper-case ``text`` and remove accents, keeping Ç and Ñ.

    >>> fold("Lá açúcar ñandú")
    'LA AÇUCAR ÑANDU'
    """
    out = []
    for ch in text.upper():
        if ch in _NO_FOLD or ord(ch) < 128:
            out.append(ch)
            continue
        base = unicodedata.normalize("NFD", ch)
        out.append("".join(c for c in base if not unicodedata.combining(c)))
    return "".join(out)


@dataclass(frozen=True)
class TileSet:
    """An edition's tiles: ``labels[i]``, ``values[i]``, ``counts[i]`` and ``vowels[i]`` of
    tile code ``i``.

    Index 0 is the blank: label ``?``, value 0, count = number of blanks, not a vowel. Without
    ``vowels`` (an empty tuple) the letters that fold to A E I O U are the vowels
    (:data:`PLAIN_VOWELS`).
    """

    labels: tuple[str, ...]
    values: tuple[int, ...]
    counts: tuple[int, ...]
    vowels: tuple[bool, ...] = ()
    """Is tile code ``i`` a vowel? (For the AI's judgement of a rack and the unseen tiles.)"""
    _codes: dict[str, int] = field(init=False, repr=False, compare=False)
    _by_length: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _word_table: dict[int, str] = field(init=False, repr=False, compare=False)
    _join: re.Pattern[str] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (len(self.labels) == len(self.values) == len(self.counts)):
            raise ValueError("labels, values and counts differ in length")
        if self.labels[0] != "?":
            raise ValueError("tile 0 must be the blank '?'")
        if len(self.labels) > 64:
            raise ValueError("at most 63 letters")
        if not self.vowels:
            vowels = tuple(i > 0 and fold(label) in PLAIN_VOWELS
                           for i, label in enumerate(self.labels))
            object.__setattr__(self, "vowels", vowels)
        elif len(self.vowels) != len(self.labels):
            raise ValueError("labels and vowel flags differ in length")
        elif self.vowels[0]:
            raise ValueError("the blank is not a vowel")
        codes = {label: i for i, label in enumerate(self.labels) if i}
        object.__setattr__(self, "_codes", codes)
        object.__setattr__(self, "_by_length", tuple(sorted(codes, key=len, reverse=True)))
        # Fast word encoding: every character that folds to a one-letter label maps to the
        # character whose code point is the tile code; multi-letter labels are joined first.
        table = {}
        for cp in range(32, 0x250):
            ch = chr(cp)
            code = codes.get(fold(ch))
            if code is not None and len(fold(ch)) == 1:
                table[cp] = chr(code)
        multi = [label for label in self._by_length if len(label) > 1]
        join = re.compile("|".join(map(re.escape, multi))) if multi else None
        object.__setattr__(self, "_word_table", table)
        object.__setattr__(self, "_join", join)

    @property
    def word_table(self) -> Mapping[int, str]:
        """What :meth:`encode_word` translates a word's characters with (``str.translate``):
        each character that folds to a one-letter label, to the character whose code point is
        that tile's code. Multi-letter labels are not in it: :meth:`join_labels` first."""
        return MappingProxyType(self._word_table)

    @property
    def has_multi_letter(self) -> bool:
        """Does a label have more than one letter (Spanish CH, LL, RR)?"""
        return self._join is not None

    def join_labels(self, text: str, mark: int = 0) -> str:
        """``text`` (in capitals) with each multi-letter label, longest first, replaced by the
        character ``chr(mark + code)``.

        >>> tiles = TileSet(("?", "A", "CH"), (0, 1, 5), (2, 9, 1))
        >>> tiles.join_labels("CHA") == chr(2) + "A", tiles.join_labels("CHA", 0xE000) == "\ue002A"
        (True, True)
        """
        if self._join is None:
            return text
        codes = self._codes
        return self._join.sub(lambda m: chr(mark + codes[m.group(0)]), text)

    @property
    def letters(self) -> range:
        """The codes of the letters (not the blank)."""
        return range(1, len(self.labels))

    @property
    def total(self) -> int:
        """Number of tiles in a full bag, blanks included."""
        return sum(self.counts)

    def code(self, label: str) -> int:
        """The code of a letter's label (``"A"``, ``"CH"``); :class:`NotationError` if unknown."""
        try:
            return self._codes[label.upper()]
        except KeyError:
            raise NotationError(f"no tile {label!r} in this edition", key="play.bad_letter",
                                letter=label) from None

    def has_letter(self, label: str) -> bool:
        return label.upper() in self._codes

    def is_vowel(self, tile: int) -> bool:
        """Is the tile a vowel? A blank standing for a vowel is one; the blank on a rack is
        not."""
        return self.vowels[tile & LETTER_MASK]

    def value(self, tile: int) -> int:
        """Points of a tile on the board: 0 for a blank, whatever it stands for."""
        return 0 if tile & BLANK_BIT else self.values[tile]

    def label(self, tile: int) -> str:
        """A tile's label: ``A``, ``CH``; lowercase for a designated blank; ``?`` for a blank."""
        if tile & BLANK_BIT:
            return self.labels[tile & LETTER_MASK].lower()
        return self.labels[tile]

    def notation(self, tile: int) -> str:
        """A tile as written in notation: multi-letter tiles bracketed (``[CH]``, ``[ch]``)."""
        text = self.label(tile)
        return f"[{text}]" if len(text) > 1 else text

    def format(self, tiles: Iterable[int], through: str | None = None, rack: bool = False) -> str:
        """Tiles as notation. With ``through`` set, :data:`THROUGH` is written as that text.

        Written as a word (the default), a single tile that would read back as the start of a
        multi-letter tile is bracketed (Spanish R, R is ``[R]R``); ``rack=True`` writes a rack,
        whose letters read back one tile each (``RR``).
        """
        out = []
        for t in tiles:
            if t == THROUGH and through is not None:
                out.append(through)
            else:
                out.append(self.notation(t))
        # Two single tiles that read as one digraph (Spanish R R, C H): bracket the first,
        # so that the text reads back as the same tiles.
        for i in range(0 if rack else len(out) - 1):
            pair = out[i] + out[i + 1]
            if len(pair) == 2 and (pair.isupper() or pair.islower()) and fold(pair) in self._codes:
                out[i] = f"[{out[i]}]"
        return "".join(out)

    def parse(self, text: str, *, through: bool = False, rack: bool = False) -> tuple[int, ...]:
        """Read tiles written in notation.

        Upper case is a letter, lower case a blank standing for it, ``[CH]`` a multi-letter tile.
        Accents are folded (``LÁ`` is L, A). With ``rack=True`` the text is a rack: ``?`` is a
        blank and unbracketed letters are single tiles (Spanish ``RR`` on a rack is two R tiles).
        Otherwise the text spells tiles on the board: unbracketed letters are split greedily into
        the edition's tiles (Spanish ``PERRO`` is P E RR O) and, with ``through=True``, ``.`` is
        a square already on the board (:data:`THROUGH`).
        """
        tiles: list[int] = []
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "?" and rack:
                tiles.append(BLANK)
                i += 1
            elif ch == "." and through:
                tiles.append(THROUGH)
                i += 1
            elif ch == "[":
                end = text.find("]", i)
                if end < 0:
                    raise NotationError(f"unclosed '[' in {text!r}", key="notation.bracket",
                                        text=text)
                tiles.append(self._tile(text[i + 1 : end], text))
                i = end + 1
            else:
                n = self._match(text, i, greedy=not rack)
                tiles.append(self._tile(text[i : i + n], text))
                i += n
        return tuple(tiles)

    def _match(self, text: str, i: int, greedy: bool) -> int:
        """Length of the raw text at ``i`` that makes one tile."""
        if greedy:
            for label in self._by_length:
                if len(label) > 1:
                    chunk = text[i : i + len(label)]
                    if fold(chunk) == label and (chunk.isupper() or chunk.islower()):
                        return len(label)
        return 1

    def _tile(self, raw: str, context: str) -> int:
        folded = fold(raw)
        code = self._codes.get(folded)
        if code is None:
            if raw.islower() and raw != folded:
                raise NotationError(
                    f"a blank may only stand for a letter of this edition, not {folded!r}"
                    f" (in {context!r})", key="illegal.blank-letter", square="", words="",
                )
            raise NotationError(f"no tile {folded!r} in this edition (in {context!r})",
                                key="play.bad_letter", letter=folded)
        return code | BLANK_BIT if raw.islower() else code

    def word_tiles(self, word: str) -> tuple[int, ...]:
        """A word as tiles, case-insensitive, accents folded, digraphs split greedily.

        Raises :class:`NotationError` if the word needs a letter the edition lacks.
        """
        return tuple(self.encode_word(word))

    def encode_word(self, word: str) -> bytes:
        """:meth:`word_tiles` as bytes, one byte a tile (the fast path for word lists)."""
        text = word.strip().upper()
        if _RAW_CODE.search(text):
            return bytes(self.parse(fold(word.strip())))  # raises, naming the character
        out = self.join_labels(text).translate(self._word_table)
        if _NOT_A_CODE.search(out) or not out:
            return bytes(self.parse(fold(word.strip())))  # raises, naming the letter
        return out.encode("latin-1")

    def word(self, tiles: Sequence[int]) -> str:
        """The word that tiles spell, in capitals (``CHILLAR``)."""
        return "".join(self.labels[t & LETTER_MASK] for t in tiles)

    def rack_counts(self, tiles: Iterable[int]) -> list[int]:
        """Counts per code of rack tiles (designated blanks count as blanks):
        :func:`letras.rack.counts` over this tile set's codes."""
        from letras.rack import counts  # the rack module builds on this one

        return counts(tiles, len(self.labels))
