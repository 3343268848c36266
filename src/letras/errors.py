"""One error hierarchy for everything letras refuses.

Every error is a :class:`ValueError`, carries the offending text in its English message, and is
raised before anything changes: a refused play, a malformed GCG line or a wrong turn leave the
game as it was. Every error also carries its facts as data: ``key`` names the message that
explains it (a key of the catalogs in :mod:`letras.i18n`, so a front end can say it in the
player's language) and ``values`` holds the facts that message needs (a square, a letter, the
words, counts, names).

>>> e = RuleError("exchanges need at least 7 tiles in the bag; it holds 3",
...               key="exchange.bag", min=7, n=3)
>>> e.key, e.values
('exchange.bag', {'min': 7, 'n': 3})
>>> e = IllegalPlayError("gap", "square H9 between the tiles is empty", square="H9")
>>> e.key, e.values["square"], e.values["words"]
('illegal.gap', 'H9', '')
"""

from __future__ import annotations

from typing import Any


class LetrasError(ValueError):
    """Base class of every error letras raises on bad input. ``key`` and ``values`` say it
    as data (see the module docstring); ``key`` defaults to ``error.<ClassName>``."""

    def __init__(self, message: str = "", /, *, key: str | None = None, **values: Any) -> None:
        super().__init__(message)
        self.key: str = key or f"error.{type(self).__name__}"
        self.values: dict[str, Any] = values


class NotationError(LetrasError):
    """Malformed notation: a square, a play, a rack, a word."""


class FormatError(LetrasError):
    """Malformed GCG, CGP or saved-game data."""


class UnknownEditionError(LetrasError):
    """No edition has that name or alias."""


class IllegalPlayError(LetrasError):
    """A play that the rules forbid. ``reason`` is a short machine-readable code; the key is
    ``illegal.<reason>`` and the values ``square`` (the square concerned, or ``""``) and
    ``words`` (the invalid words joined with commas, or ``""``).

    Reasons: ``no-tiles``, ``off-board``, ``not-in-line``, ``gap``, ``square-taken``,
    ``through-mismatch``, ``not-connected``, ``first-play-centre``, ``first-play-one-tile``,
    ``not-on-rack``, ``blank-letter``, ``unknown-tile``, ``invalid-words``,
    ``joins-words-early``.
    """

    def __init__(self, reason: str, message: str, invalid_words: tuple[str, ...] = (), *,
                 square: object = None, **values: Any) -> None:
        super().__init__(message, key=f"illegal.{reason}",
                         square="" if square is None else str(square),
                         words=", ".join(invalid_words), **values)
        self.reason = reason
        self.invalid_words = invalid_words


class RuleError(LetrasError):
    """An action the game does not allow now: a wrong turn, an exchange with too few tiles in
    the bag, a challenge with nothing to challenge, any action after the game has ended."""


class LexiconError(LetrasError):
    """A word list or word graph that cannot be read."""


def inner_facts(error: BaseException) -> dict[str, Any]:
    """The facts of an error that another error wraps: ``reason`` (its English message) and,
    when it is a :class:`LetrasError`, ``inner_key`` and ``inner_values`` (else ``""`` and
    ``{}``), so a front end can say the inner error in the player's language too.

    >>> e = FormatError("CGP rack 1 'KA': no tile 'K'", key="cgp.rack_notation", number=1,
    ...                 **inner_facts(NotationError("no tile 'K'", key="play.bad_letter",
    ...                                             letter="K")))
    >>> e.values["reason"], e.values["inner_key"], e.values["inner_values"]
    ("no tile 'K'", 'play.bad_letter', {'letter': 'K'})
    """
    if isinstance(error, LetrasError):
        return {"reason": str(error), "inner_key": error.key, "inner_values": dict(error.values)}
    return {"reason": str(error), "inner_key": "", "inner_values": {}}
