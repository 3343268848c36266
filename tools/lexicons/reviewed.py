"""Reviewed word lists that the build reads: stop lists and the pt-BR degree list.

Both are plain text, one entry a line, ``#`` starting a comment; every entry has a reason.

- ``stop/<list>.txt``: words of 3+ tiles that are left out of the list although the source
  gives them (abbreviations, acronyms, symbols, units, pieces of foreign phrases). A line is
  ``WORD  # reason``. A line ``#+WORD reason`` records a candidate found by a rule (see
  :func:`abbreviation_candidates`) that the review kept as a real word.
- ``degree/<list>.txt``: diminutives and superlatives that go into a strict list although the
  rules that make them are left out. A line holds one family, every form spelled out (singular,
  plural, feminine), then ``# reason``.
- ``strong/<list>.txt``: it: endings of the -ere verbs whose past is strong (mettere: misi,
  mise), so that the regular past the dictionary's rules give them (mettette) is left out. A
  line is ``ENDING  # the strong past``; ``#+VERB reason`` keeps a verb that an ending catches.
- ``added/<list>.txt``: words of 3+ tiles added to a list although its source lacks them (en:
  QIS, ZAS, the plurals of two-tile words that the source predates). Same format as the degree
  lists.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
STOP = HERE / "stop"
DEGREE = HERE / "degree"
ADDED = HERE / "added"
STRONG = HERE / "strong"


def strip_accents(word: str) -> str:
    """Lower case without diacritics (Ç and Ñ too): the key the abbreviation rule compares."""
    nfd = unicodedata.normalize("NFD", word.lower())
    return "".join(ch for ch in nfd if not unicodedata.combining(ch))


@dataclass
class StopList:
    words: dict[str, str] = field(default_factory=dict)  # upper-case word -> reason
    kept: dict[str, str] = field(default_factory=dict)  # reviewed candidates kept -> reason


def read_entries(path: Path, what: str, key: Callable[[str], str] = str
                 ) -> tuple[dict[str, str], dict[str, str]]:
    """The entries of a reviewed list and the candidates it kept, each -> its reason (both
    empty when there is no file). A line is ``ENTRY  # reason`` or ``#+ENTRY reason``; ``what``
    names an entry in the messages, ``key`` makes the entries' keys."""
    entries: dict[str, str] = {}
    kept: dict[str, str] = {}
    if not path.exists():
        return entries, kept
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("#+"):
            entry, _, reason = line[2:].strip().partition(" ")
            kept[key(entry)] = reason.strip()
            continue
        text, _, reason = line.partition("#")
        entry = text.strip()
        if not entry:
            continue
        if " " in entry or not reason.strip():
            sys.exit(f"{path}:{n}: one {what} and a reason (# ...) per line")
        if key(entry) in entries:
            sys.exit(f"{path}:{n}: {entry!r} listed twice")
        entries[key(entry)] = reason.strip()
    return entries, kept


def read_stop(name: str) -> StopList:
    """The reviewed stop list of a word list (empty when there is no file)."""
    return StopList(*read_entries(STOP / f"{name}.txt", "word", str.upper))


@dataclass(frozen=True)
class DegreeFamily:
    forms: tuple[str, ...]  # as spelled in the file (lower case, accented)
    reason: str


@dataclass
class StrongList:
    endings: dict[str, str] = field(default_factory=dict)  # infinitive ending -> strong past
    kept: dict[str, str] = field(default_factory=dict)  # verbs with a regular past -> reason

    def catches(self, verb: str) -> bool:
        """Whether the verb (an infinitive) has a strong past by this list.

        >>> strong = StrongList({"mettere": "misi mise", "ridere": "risi rise"},
        ...                     {"stridere": "regular"})
        >>> [strong.catches(v) for v in ("permettere", "sorridere", "stridere", "credere")]
        [True, True, False, False]
        """
        return verb not in self.kept and any(verb.endswith(e) for e in self.endings)


def read_strong(name: str) -> StrongList:
    """The reviewed strong-past endings of a list (empty when there is no file)."""
    return StrongList(*read_entries(STRONG / f"{name}.txt", "ending"))


def read_degree(name: str) -> list[DegreeFamily]:
    """The reviewed diminutives and superlatives of a list (empty when there is no file)."""
    return read_families(DEGREE / f"{name}.txt")


def read_added(name: str) -> list[DegreeFamily]:
    """The reviewed words added to a list although its source lacks them (empty when there is
    no file)."""
    return read_families(ADDED / f"{name}.txt")


def read_families(path: Path) -> list[DegreeFamily]:
    """Families of forms, one a line with its ``# reason``."""
    if not path.exists():
        return []
    out = []
    seen: set[str] = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text, _, reason = line.partition("#")
        forms = tuple(text.split())
        if not forms:
            continue
        if not reason.strip():
            sys.exit(f"{path}:{n}: a family of forms needs a reason (# ...)")
        for form in forms:
            if form in seen:
                sys.exit(f"{path}:{n}: {form!r} listed twice")
            if not (form.isalpha() and form.islower()):
                sys.exit(f"{path}:{n}: {form!r} is not a lower-case word")
            seen.add(form)
        out.append(DegreeFamily(forms, reason.strip()))
    return out


def abbreviation_candidates(stems: dict[str, set[str]]) -> dict[str, str]:
    """Bare entries (no affix flag) that the dictionary also lists with a full stop or in
    capitals, accents aside: ``jan`` beside ``jan.``, ``min`` beside ``mín.``, ``dpi`` beside
    ``DPI``. Returns the bare entry -> the evidence. Such an entry is an abbreviation unless the
    review says otherwise (``#+WORD`` in the stop list)."""
    marked: dict[str, list[str]] = {}
    for stem in stems:
        if stem.endswith(".") and stem[:-1].isalpha():
            marked.setdefault(strip_accents(stem[:-1]), []).append(stem)
        elif stem.isalpha() and stem.isupper() and len(stem) >= 2:
            marked.setdefault(strip_accents(stem), []).append(stem)
    out = {}
    for stem, flags in stems.items():
        if flags or not (stem.isalpha() and stem.islower()):
            continue
        evidence = marked.get(strip_accents(stem))
        if evidence:
            out[stem] = ", ".join(sorted(evidence))
    return out
