"""Message catalogs: what players read, in their language.

Code, names and errors inside the library stay English; the words a player reads at the table
(prompts, the scoresheet, reasons for refusing a play, the final count) come from a catalog per
language, one TOML file in ``i18n/data``. Sections are flattened with dots (``[play]
refused = ...`` is the key ``play.refused``); values are :meth:`str.format` templates. A key
missing from a catalog falls back to English, and a language without a catalog is English.

>>> pt = messages("pt-BR")
>>> pt("turn.prompt", name="Ana")
'Ana> '
>>> pt.count("tiles", 1), pt.count("tiles", 45)
('1 pedra', '45 pedras')
>>> messages("portuguese").language, messages("fr").language
('pt-BR', 'en')
>>> messages("en")("no.such.key")
Traceback (most recent call last):
...
KeyError: 'no message no.such.key'
"""

from __future__ import annotations

import string
import tomllib
from functools import cache
from importlib import resources
from typing import Any

FALLBACK = "en"
"""The language of every key that a catalog lacks."""

_ALIASES = {
    "pt": "pt-BR", "pt_br": "pt-BR", "ptbr": "pt-BR", "portuguese": "pt-BR", "português": "pt-BR",
    "english": "en", "en_us": "en", "en_gb": "en",
    "spanish": "es", "español": "es", "es_es": "es",
    "italian": "it", "italiano": "it", "it_it": "it",
}


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, name + "."))
        else:
            out[name] = str(value)
    return out


@cache
def languages() -> tuple[str, ...]:
    """The languages with a catalog, English first."""
    data = resources.files("letras.i18n") / "data"
    names = sorted(e.name[: -len(".toml")] for e in data.iterdir() if e.name.endswith(".toml"))
    return tuple(sorted(names, key=lambda n: n != FALLBACK))


@cache
def catalog(language: str) -> dict[str, str]:
    """The raw catalog of one language (no fallback): key -> template."""
    path = resources.files("letras.i18n") / "data" / f"{language}.toml"
    return _flatten(tomllib.loads(path.read_text(encoding="utf-8")))


def find_language(name: str) -> str:
    """The catalog's language for a language or locale name, English when there is none.

    >>> find_language("pt_BR.UTF-8"), find_language("es"), find_language("de")
    ('pt-BR', 'es', 'en')
    """
    key = name.strip().split(".")[0].lower().replace("-", "_")
    for lang in languages():
        if key == lang.lower().replace("-", "_"):
            return lang
    if key in _ALIASES:
        return _ALIASES[key]
    base = key.split("_")[0]
    return _ALIASES.get(base, base if base in languages() else FALLBACK)


def fields(template: str) -> set[str]:
    """The names a template fills in (``{name}`` and ``{n:>3}`` give ``name``, ``n``)."""
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


class Messages:
    """The messages of one language, English where it has none."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._table = {**catalog(FALLBACK), **catalog(language)}

    def __call__(self, key: str, /, **values: object) -> str:
        """The message ``key`` with ``values`` filled in."""
        try:
            template = self._table[key]
        except KeyError:
            raise KeyError(f"no message {key}") from None
        return template.format(**values)

    def has(self, key: str) -> bool:
        return key in self._table

    def count(self, key: str, n: int, /, **values: object) -> str:
        """``key.one`` for one, ``key.other`` otherwise, with ``n`` filled in."""
        return self(f"{key}.{'one' if n == 1 else 'other'}", n=n, **values)

    def words(self, key: str) -> tuple[str, ...]:
        """A message that lists words (separated by spaces), as a tuple."""
        return tuple(self(key).split())

    def __repr__(self) -> str:
        return f"messages({self.language!r})"


@cache
def messages(language: str) -> Messages:
    """The messages for a language or locale name (see :func:`find_language`)."""
    return Messages(find_language(language))


__all__ = ["FALLBACK", "Messages", "catalog", "fields", "find_language", "languages", "messages"]
