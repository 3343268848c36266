"""The web app's server: an ASGI app (Starlette) over the UI-free :class:`letras.table.Table`.

The contract it implements is ``docs/web-api.md``. One idea a module:

- :mod:`letras.server.storage`: the database (SQLAlchemy Core): games, seats' token hashes
  and the append-only history of moves;
- :mod:`letras.server.lexicons`: the word graphs, loaded once per process;
- :mod:`letras.server.ai_pool`: computer moves in worker processes;
- :mod:`letras.server.errors`: errors as JSON, in the reader's language, with their status;
- :mod:`letras.server.inputs`: reading request bodies (size, JSON, fields, types) and the
  language of a request;
- :mod:`letras.server.newgame`: a new game's rules and seats, checked;
- :mod:`letras.server.games`: the service: games in memory, actions judged by the table and
  committed before anyone is told, computer seats, challenge windows, subscribers;
- :mod:`letras.server.app`: the routes (:func:`create_app`).

Nothing below the server imports it: ``import letras.table`` loads no web or database module.
"""

from __future__ import annotations
