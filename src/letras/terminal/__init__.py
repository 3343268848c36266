"""Playing at the terminal: a whole game for people and AI seats around one screen.

The game at the table (seats, turns, challenges, clocks, undo, hints, events) is
:mod:`letras.table`, shared with the web app; this package only reads what people type and
draws the table:

- :mod:`letras.terminal.commands`: what a player types, read into commands;
- :mod:`letras.terminal.entry`: a typed play or exchange against the rack (blanks, case, accents);
- :mod:`letras.terminal.screen`: the board, racks, scores and scoresheet as lines of text;
- :mod:`letras.terminal.saving`: saving a game as GCG that can be resumed exactly;
- :mod:`letras.terminal.table`: the loop: prompts, drawing, hot-seat hiding.

The words on screen come from :mod:`letras.i18n`, in the table's language.
"""

from __future__ import annotations

from letras.table.errors import TableError

InputError = TableError
"""Something typed at the table that cannot be done (the table's own error).

>>> e = InputError("input.unknown", text="jump")
>>> str(e), e.key
("don't know what 'jump' means: type 'help' for the commands", 'input.unknown')
"""

__all__ = ["InputError"]
