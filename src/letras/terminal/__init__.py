"""Playing at the terminal: a whole game for people and AI seats around one screen.

- :mod:`letras.terminal.commands`: what a player types, read into commands;
- :mod:`letras.terminal.entry`: a typed play or exchange against the rack (blanks, case, accents);
- :mod:`letras.terminal.screen`: the board, racks, scores and scoresheet as lines of text;
- :mod:`letras.terminal.seats`: who sits at the table (people, AI levels);
- :mod:`letras.terminal.saving`: saving a game as GCG that can be resumed exactly;
- :mod:`letras.terminal.table`: the game loop.

The words on screen come from :mod:`letras.i18n`, in the edition's language.
"""

from __future__ import annotations

from letras.errors import LetrasError
from letras.i18n import messages


class InputError(LetrasError):
    """Something typed at the table that cannot be done. ``key`` and ``values`` name the
    message that explains why (see :mod:`letras.i18n`); ``str()`` gives it in English.

    >>> e = InputError("input.unknown", text="jump")
    >>> str(e), e.key
    ("don't know what 'jump' means: type 'help' for the commands", 'input.unknown')
    """

    def __init__(self, key: str, /, **values: object) -> None:
        self.key = key
        self.values = values
        super().__init__(messages("en")(key, **values))


__all__ = ["InputError"]
