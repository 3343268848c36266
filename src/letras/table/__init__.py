"""The game at a table, under every front end: seats, turns, challenges, clocks, undo, hints and
the events to show, with no I/O (the terminal and the web app are thin loops over it).

- :mod:`letras.table.table`: :class:`Table` and what it waits for (:class:`Step`);
- :mod:`letras.table.events`: :class:`Event`, a message key and its facts, and
  :func:`describe` to say one in a language;
- :mod:`letras.table.seats`: who sits at the table (people, computer levels);
- :mod:`letras.table.text`: plays and scores as people read them;
- :mod:`letras.table.errors`: :class:`TableError`.

``import letras.table`` loads no terminal, ``rich``, web or database module.
"""

from __future__ import annotations

from letras.table.errors import TableError
from letras.table.events import Event, describe, describe_all, end_events, turn_events
from letras.table.table import AIRequest, Clock, Hint, Step, Table

__all__ = ["AIRequest", "Clock", "Event", "Hint", "Step", "Table", "TableError", "describe",
           "describe_all", "end_events", "turn_events"]
