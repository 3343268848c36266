"""Enumerate every word form of a hunspell dictionary (a deterministic "unmunch").

Reads the .aff/.dic pair with spylls (only its parsers are used) and applies the affix rules to
each stem: suffixes, prefixes, prefix x suffix cross products and twofold suffixes (a suffix whose
continuation flags allow a second suffix, as in es_ES ``canción/S`` -> ``canciones``).
Compounding (COMPOUNDRULE, COMPOUNDFLAG) is not expanded: it makes unbounded forms and the four
dictionaries used here only use it for numerals written with digits.

Affix entries that add an apostrophe, hyphen, full stop, digit or space are not applied: every
form they make would be dropped by the filter anyway (it_IT's elided articles l', un', bell'...
and pt_BR's hyphenated verb + pronoun forms are most of the raw forms).

A ``Policy`` says which affix entries to leave out, either for good (``skip``: never applied) or
only from the strict list (``loose``: forms made with them are marked not strict).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from spylls.hunspell import Dictionary
from spylls.hunspell.data.aff import Affix

# (flag, entry) -> True to leave the entry out
EntryTest = Callable[[str, Affix], bool]


def _never(flag: str, entry: Affix) -> bool:
    return False


@dataclass
class Policy:
    skip: EntryTest = _never
    """Entries never applied (their forms are not made at all)."""
    loose: EntryTest = _never
    """Entries whose forms are made but marked as not strict."""
    loose_stem_flags: frozenset[str] = field(default_factory=frozenset)
    """Stems with one of these flags give forms that are not strict (e.g. hunspell WARN)."""


_UNPLAYABLE = re.compile(r"[-'.\d ]")
"""Characters that no playable word has: entries that add them are not applied at all."""

_COND_UNIT = re.compile(r"\[[^\]]*\]|.")


def _cond_len(condition: str) -> int:
    return len(_COND_UNIT.findall(condition)) if condition != "." else 1


@dataclass
class _Rule:
    flag: str
    strip: str
    add: str
    cond: re.Pattern[str]
    cross: bool
    cont: frozenset[str]
    strict: bool


class Expander:
    """Expands the stems of one hunspell dictionary. Iterate with :meth:`forms`."""

    def __init__(self, path: str, policy: Policy | None = None) -> None:
        self.path = path
        self.policy = policy or Policy()
        d = Dictionary.from_files(path)
        self.aff = d.aff
        self.words = d.dic.words
        aff = self.aff
        self.no_bare = {f for f in (aff.NEEDAFFIX, aff.ONLYINCOMPOUND, aff.FORBIDDENWORD) if f}
        self.forbidden_flag = aff.FORBIDDENWORD
        self.skipped_entries = 0
        self.loose_entries = 0
        self.unplayable_entries = 0
        self.sfx = self._rules(aff.SFX, suffix=True)
        self.pfx = self._rules(aff.PFX, suffix=False)
        self.sfx_len = {f: self._key_len(rs) for f, rs in self.sfx.items()}
        self.pfx_len = {f: self._key_len(rs) for f, rs in self.pfx.items()}
        self._cache: dict[tuple[str, str, bool], tuple[_Rule, ...]] = {}

    def _rules(self, table: dict[str, list[Affix]], suffix: bool) -> dict[str, list[_Rule]]:
        out: dict[str, list[_Rule]] = {}
        pol = self.policy
        for flag, entries in table.items():
            rules = []
            for e in entries:
                if _UNPLAYABLE.search(e.add) and (not suffix or not e.flags):
                    # Every form made with this entry keeps that character (a suffix with
                    # continuation flags could have it stripped again, so those stay).
                    self.unplayable_entries += 1
                    continue
                if pol.skip(flag, e):
                    self.skipped_entries += 1
                    continue
                strict = not pol.loose(flag, e)
                if not strict:
                    self.loose_entries += 1
                cond = e.condition.replace("-", "\\-")
                pattern = re.compile(cond + "$" if suffix else "^" + cond)
                rules.append(
                    _Rule(flag, e.strip, e.add, pattern, e.crossproduct, frozenset(e.flags), strict)
                )
            out[flag] = rules
        return out

    @staticmethod
    def _key_len(rules: list[_Rule]) -> int:
        n = 1
        for r in rules:
            n = max(n, _cond_len(r.cond.pattern.strip("^$").replace("\\-", "-")), len(r.strip))
        return n + 1

    def _match_sfx(self, flag: str, word: str) -> tuple[_Rule, ...]:
        rules = self.sfx.get(flag)
        if not rules:
            return ()
        key = word[-self.sfx_len[flag] :]
        ck = (flag, key, True)
        hit = self._cache.get(ck)
        if hit is None:
            hit = tuple(
                r
                for r in rules
                if len(r.strip) < len(key) and key.endswith(r.strip) and r.cond.search(key)
            )
            self._cache[ck] = hit
        return hit

    def _match_pfx(self, flag: str, word: str) -> tuple[_Rule, ...]:
        rules = self.pfx.get(flag)
        if not rules:
            return ()
        key = word[: self.pfx_len[flag]]
        ck = (flag, key, False)
        hit = self._cache.get(ck)
        if hit is None:
            hit = tuple(
                r
                for r in rules
                if len(r.strip) < len(key) and key.startswith(r.strip) and r.cond.search(key)
            )
            self._cache[ck] = hit
        return hit

    def forbidden(self) -> set[str]:
        """Stems marked FORBIDDENWORD: not words, even when affix rules make them."""
        f = self.forbidden_flag
        return {w.stem for w in self.words if f and f in w.flags}

    def forms(self) -> Iterator[tuple[str, bool]]:
        """Yield (form, strict) for every form of every stem (with repeats)."""
        for _stem, _flags, forms in self.stem_forms():
            yield from forms

    def stem_forms(self) -> Iterator[tuple[str, frozenset[str], list[tuple[str, bool]]]]:
        """Yield (stem, flags, [(form, strict), ...]) for every stem of the dictionary."""
        for w in self.words:
            stem = w.stem
            flags = w.flags
            if not stem or (self.forbidden_flag and self.forbidden_flag in flags):
                continue
            yield stem, frozenset(flags), list(self._stem_forms(stem, flags))

    def _stem_forms(self, stem: str, flags: set[str]) -> Iterator[tuple[str, bool]]:
        loose_stem = self.policy.loose_stem_flags
        no_bare = self.no_bare
        base_ok = not (loose_stem and flags & loose_stem)
        if not (flags & no_bare):
            yield stem, base_ok
        suffixed: list[tuple[str, bool, _Rule]] = []
        for flag in flags:
            for r in self._match_sfx(flag, stem):
                form = stem[: len(stem) - len(r.strip)] + r.add
                ok = base_ok and r.strict
                if not (r.cont & no_bare):
                    yield form, ok
                if r.cross:
                    suffixed.append((form, ok, r))
                for flag2 in r.cont:
                    for r2 in self._match_sfx(flag2, form):
                        form2 = form[: len(form) - len(r2.strip)] + r2.add
                        ok2 = ok and r2.strict
                        yield form2, ok2
                        if r.cross and r2.cross:
                            suffixed.append((form2, ok2, r2))
        for flag in flags:
            for p in self._match_pfx(flag, stem):
                ok = base_ok and p.strict
                if not (p.cont & no_bare):
                    yield p.add + stem[len(p.strip) :], ok
                if p.cross:
                    for form, sok, _r in suffixed:
                        if form.startswith(p.strip):
                            yield p.add + form[len(p.strip) :], ok and sok
