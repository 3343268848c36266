"""One error hierarchy for everything letras refuses.

Every error is a :class:`ValueError`, carries the offending text in its message, and is raised
before anything changes: a refused play, a malformed GCG line or a wrong turn leave the game as
it was.
"""

from __future__ import annotations


class LetrasError(ValueError):
    """Base class of every error letras raises on bad input."""


class NotationError(LetrasError):
    """Malformed notation: a square, a play, a rack, a word."""


class FormatError(LetrasError):
    """Malformed GCG, CGP or saved-game data."""


class UnknownEditionError(LetrasError):
    """No edition has that name or alias."""


class IllegalPlayError(LetrasError):
    """A play that the rules forbid. ``reason`` is a short machine-readable code.

    Reasons: ``no-tiles``, ``off-board``, ``not-in-line``, ``gap``, ``square-taken``,
    ``through-mismatch``, ``not-connected``, ``first-play-centre``, ``first-play-one-tile``,
    ``not-on-rack``, ``blank-letter``, ``invalid-words``, ``joins-words-early``.
    """

    def __init__(self, reason: str, message: str, invalid_words: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.reason = reason
        self.invalid_words = invalid_words


class RuleError(LetrasError):
    """An action the game does not allow now: a wrong turn, an exchange with too few tiles in
    the bag, a challenge with nothing to challenge, any action after the game has ended."""


class LexiconError(LetrasError):
    """A word list or word graph that cannot be read."""
