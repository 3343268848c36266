"""Several servers on one PostgreSQL: each is told when another stored a move.

Every append of moves on PostgreSQL sends ``NOTIFY letras_moves, 'GAME SEQ'`` in its own
transaction (:meth:`letras.server.storage.Store.append_moves`), so the notice is delivered
only once the moves are committed, and only ids travel (a payload must stay under 8,000
bytes; views are never sent). Each server process listens on a connection of its own
(:class:`Listener`) and hands every notice to its :class:`~letras.server.games.GameService`,
which reads a game it holds again when another process moved it on and tells its own
websockets. The listener reconnects by itself (with backoff) when the database restarts; a
notice missed while it was down only delays a page: the next action there finds the game
moved on and reads it again.

SQLite has no notices and needs none: one process owns the file.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import make_url

from letras.server.background import Background

log = logging.getLogger("letras.server")

CHANNEL = "letras_moves"
"""The channel of the notices (``LISTEN letras_moves``)."""

Handler = Callable[[str, int], Awaitable[None]]


def payload(game_id: str, seq: int) -> str:
    """A notice's text: the game and how many moves it holds now."""
    return f"{game_id} {seq}"


def parse(text: str) -> tuple[str, int] | None:
    """The game and its number of moves, or None for a payload that is not ours.

    >>> parse("g1 12"), parse("nonsense"), parse("g1 x")
    (('g1', 12), None, None)
    """
    game_id, _, seq = text.partition(" ")
    if not game_id or not seq.isdigit():
        return None
    return game_id, int(seq)


def conninfo(url: str) -> str:
    """A libpq connection string for SQLAlchemy's ``postgresql+psycopg://`` URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Listener(Background):
    """Listens for the notices of other processes and calls ``handler(game, seq)`` for each
    (see the module docstring). :meth:`start` in the app's event loop, :meth:`close` when it
    stops."""

    name = "letras-listener"

    def __init__(self, url: str, handler: Handler, *, retry_seconds: float = 0.5,
                 max_retry_seconds: float = 10.0) -> None:
        super().__init__()
        self.url = url
        self.handler = handler
        self.retry_seconds = retry_seconds
        self.max_retry_seconds = max_retry_seconds
        self.connected = asyncio.Event()
        """Set while the listening connection is up (tests wait for it)."""
        self.connections = 0
        """How many times it connected (a reconnection counts)."""

    async def _run(self) -> None:
        import psycopg

        delay = self.retry_seconds
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        conninfo(self.url), autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.connections += 1
                    self.connected.set()
                    delay = self.retry_seconds
                    async for notice in conn.notifies():
                        found = parse(notice.payload)
                        if found is not None:
                            await self._handle(*found)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database went away: try again, a little later
                log.warning("listening for other servers' moves failed (%s); again in %.1f s",
                            e, delay)
            self.connected.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.max_retry_seconds)

    async def _handle(self, game_id: str, seq: int) -> None:
        try:
            await self.handler(game_id, seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: a notice of move %d was not handled", game_id, seq)


__all__ = ["CHANNEL", "Listener", "conninfo", "parse", "payload"]
