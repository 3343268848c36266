"""Lexicons: which words are valid.

A lexicon answers ``word in lexicon`` for text (accents and digraphs folded to the edition's
tiles) and :meth:`Lexicon.contains_tiles` for tile codes (what the rules engine asks).
:class:`WordList` is the plain implementation over a file or any iterable of words.

>>> from letras.editions import find_edition
>>> words = WordList(find_edition("pt-BR"), ["casa", "Lá", "açúcar"])
>>> "CASA" in words, "la" in words, "AÇUCAR" in words, "ACUCAR" in words
(True, True, True, False)
>>> len(words)
3
"""

from __future__ import annotations

import lzma
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from letras.editions import Edition
from letras.errors import LexiconError, NotationError
from letras.tiles import LETTER_MASK


@runtime_checkable
class Lexicon(Protocol):
    """What the rules engine needs of a lexicon."""

    name: str

    def contains_tiles(self, tiles: Sequence[int]) -> bool:
        """Is the word these tiles spell valid? (Designated blanks count as their letter.)"""
        ...

    def __contains__(self, word: object) -> bool: ...


class WordList:
    """A lexicon held as a set of words, each folded to the edition's tiles.

    Words the edition cannot spell (a letter it lacks) are skipped and counted in ``skipped``.
    """

    def __init__(self, edition: Edition, words: Iterable[str], name: str = "custom") -> None:
        self.edition = edition
        self.name = name
        self.skipped = 0
        self._words: set[bytes] = set()
        for raw in words:
            word = raw.strip()
            if not word or word.startswith("#"):
                continue
            try:
                tiles = edition.tiles.word_tiles(word)
            except NotationError:
                self.skipped += 1
                continue
            self._words.add(bytes(tiles))

    @classmethod
    def from_file(cls, edition: Edition, path: str | os.PathLike[str]) -> WordList:
        """Read one word per line from a text file (``.xz`` compressed files too), UTF-8."""
        p = Path(path)
        try:
            if p.suffix == ".xz":
                with lzma.open(p, "rt", encoding="utf-8") as f:
                    return cls(edition, f, name=p.name)
            with p.open(encoding="utf-8") as f:
                return cls(edition, f, name=p.name)
        except (OSError, UnicodeDecodeError, lzma.LZMAError) as e:
            raise LexiconError(f"cannot read word list {str(p)!r}: {e}") from None

    def contains_tiles(self, tiles: Sequence[int]) -> bool:
        return bytes(t & LETTER_MASK for t in tiles) in self._words

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        try:
            return self.contains_tiles(self.edition.tiles.word_tiles(word))
        except NotationError:
            return False

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        tiles = self.edition.tiles
        return iter(sorted(tiles.word(w) for w in self._words))

    def __repr__(self) -> str:
        return f"<WordList {self.name!r} {self.edition.name} {len(self)} words>"
