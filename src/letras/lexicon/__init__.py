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

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Protocol, runtime_checkable

from letras.editions import Edition, editions, find_edition
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
        """Read one word per line from a text file (``.xz`` compressed files too), UTF-8, of
        at most :data:`~letras.lexicon.kwg.MAX_WORD_LIST_BYTES` (uncompressed)."""
        from letras.lexicon.kwg import read_word_file

        p = Path(path)
        try:
            text = read_word_file(p).decode("utf-8")
        except UnicodeDecodeError as e:
            raise LexiconError(f"cannot read word list {str(p)!r}: {e}", key="lexicon.read_list",
                               path=str(p), reason=str(e)) from None
        return cls(edition, text.splitlines(), name=p.name)

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


@dataclass(frozen=True)
class ShippedLexicon:
    """A word list that ships inside letras, with its licence and build report."""

    name: str
    edition: str
    words: Traversable
    licence: Traversable
    report: Traversable

    @property
    def is_default(self) -> bool:
        """The edition's default lexicon has the edition's own name."""
        return self.name == self.edition


@cache
def shipped_lexicons() -> dict[str, ShippedLexicon]:
    """The shipped word lists by name (``pt-BR``, ``es``, ``it``, ``en``)."""
    data = resources.files("letras.lexicon") / "data"
    found = {}
    names = sorted(editions(), key=len, reverse=True)
    entries = sorted(data.iterdir(), key=lambda e: e.name) if data.is_dir() else []
    for entry in entries:
        if not entry.name.endswith(".txt.xz"):
            continue
        name = entry.name[: -len(".txt.xz")]
        edition = next((e for e in names if name == e or name.startswith(e + "-")), None)
        if edition is None:
            continue
        found[name] = ShippedLexicon(
            name, edition, entry, data / f"{name}.LICENSE", data / f"{name}.md"
        )
    return found


Progress = Callable[[str], None]


def _stderr(message: str) -> None:
    import sys

    print(f"letras: {message}", file=sys.stderr, flush=True)


_loaded: dict[str, Lexicon] = {}


def load_lexicon(
    edition: Edition | str,
    spec: str | os.PathLike[str] | None = None,
    progress: Progress = _stderr,
) -> Lexicon:
    """A lexicon for ``edition``: ``spec`` is a shipped lexicon's name, a word list file (one
    word per line, plain or ``.xz``) or a ``.kwg``/``.kbwg`` word graph; None is the edition's
    default shipped lexicon. Word lists are compiled to a word graph once and then loaded from
    the cache; the first build reports its progress through ``progress``."""
    from letras.lexicon.kwg import WordGraph, graph_for_words

    ed = find_edition(edition) if isinstance(edition, str) else edition
    shipped = shipped_lexicons()
    name = ed.name if spec is None else str(spec)
    if name in shipped:
        entry = shipped[name]
        if entry.edition != ed.name:
            raise LexiconError(f"lexicon {name!r} is for edition {entry.edition}, not {ed.name}",
                               key="lexicon.edition", name=name, edition=entry.edition,
                               wanted=ed.name)
        if name not in _loaded:  # shipped lists never change: load each once per process
            with resources.as_file(entry.words) as path:
                _loaded[name] = graph_for_words(ed, path, name=name, progress=progress)
        return _loaded[name]
    if spec is None:
        raise LexiconError(f"no lexicon ships for edition {ed.name}", key="lexicon.none_shipped",
                           edition=ed.name)
    path = Path(spec)
    if "\0" in name or not path.exists():  # (a NUL would make exists() raise)
        known = ", ".join(shipped) or "none"
        raise LexiconError(f"no lexicon {name!r}: not a file, nor a shipped lexicon ({known})",
                           key="lexicon.unknown", name=name, known=known)
    if path.suffix.lower() in (".kwg", ".kbwg"):
        return WordGraph.load(path, ed)
    return graph_for_words(ed, path, progress=progress)
