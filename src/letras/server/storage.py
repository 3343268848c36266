"""The web app's database: games, seats and the history of moves (SQLAlchemy Core).

Portable SQL only, on SQLite (``sqlite:///FILE``, the default) or PostgreSQL
(``postgresql+psycopg://USER@HOST:PORT/DB``). The only statements of one database are SQLite's
pragmas, set on each new connection, PostgreSQL's advisory lock that lets two servers migrate
the schema at once, and its notices to other servers. JSON is stored as text on both, so both
give back the same games. The tables (:mod:`letras.server.schema`, which makes them):

- ``games``: a random URL-safe id, the time it was created and its settings as JSON text
  (edition, lexicon, rules, players with their kinds, and the seed: the seed never leaves the
  server);
- ``seats``: per person's seat the SHA-256 of its token (never the token), one row a seat;
- ``moves``: the history, one row a :class:`~letras.history.Move` as JSON, numbered from 0,
  append-only. A unique key on (game, seq) makes a second writer of the same number fail: the
  game moved on without it. On PostgreSQL each append also notifies the other servers
  (:mod:`letras.server.fanout`).
- ``windows``: a challenge window the server keeps open, by game and the number of moves when
  it opened: the time it opened and the seats that let the play stand, so that a restart
  neither forgets who accepted nor gives the window its whole time again;
- ``rematches``: the game that follows a game (one at most: a unique key);
- ``jobs``: a computer's turn to play and the server that holds its lease
  (:mod:`letras.server.jobs`).

A game is its settings plus its moves: :meth:`Store.load_game` gives the dict that
:meth:`letras.game.Game.from_dict` reads.

>>> store = Store("sqlite://")
>>> store.create_game("g1", {"format": "letras-game", "seed": 1}, {0: "ab" * 32})
>>> store.append_moves("g1", 0, [{"player": 0, "type": "pass"}])
>>> store.append_moves("g1", 0, [{"player": 1, "type": "pass"}])
Traceback (most recent call last):
...
letras.server.storage.GameMovedOnError: game g1 moved on: move 0 is taken
>>> saved = store.load_game("g1")
>>> saved.data["moves"], saved.seats == {0: "ab" * 32}
([{'player': 0, 'type': 'pass'}], True)
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Engine,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from letras.errors import LetrasError
from letras.server.fanout import CHANNEL, payload
from letras.server.schema import (
    NewerSchemaError,
    games,
    jobs,
    metadata,
    migrate,
    moves,
    rematches,
    seats,
    windows,
)

BUSY_TIMEOUT_MS = 5000
"""How long an SQLite connection waits for another writer before it gives up."""

class StorageError(LetrasError):
    """The database refused or failed: nothing of the change was kept."""

    def __init__(self, message: str, /, *, key: str = "server.storage", **values: Any) -> None:
        super().__init__(message, key=key, **values)


class GameMovedOnError(StorageError):
    """Another writer stored the move of that number first: the game in hand is stale."""

    def __init__(self, game_id: str, seq: int) -> None:
        super().__init__(f"game {game_id} moved on: move {seq} is taken",
                         key="server.moved_on", game=game_id)


class NoSuchGameError(StorageError):
    """No game has that id."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}", key="server.no_game", game=game_id)


@dataclass(frozen=True)
class Window:
    """A challenge window as stored: when it opened (seconds since the epoch) and the seats
    that let the play stand."""

    opened: float
    declined: frozenset[int]


@dataclass(frozen=True)
class SavedGame:
    """A game as stored: ``data`` for :meth:`letras.game.Game.from_dict` (settings and
    moves), the token hash of each person's seat, the challenge window open after the last
    move (if any) and the game that follows it (a rematch, if any)."""

    data: dict[str, Any]
    seats: dict[int, str]
    created: dt.datetime
    window: Window | None = None
    rematch: str | None = None


def data_dir() -> Path:
    """The user's data directory for letras: ``$XDG_DATA_HOME/letras``, else
    ``~/.local/share/letras``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "letras"


def default_url() -> str:
    """The default database: an SQLite file in :func:`data_dir` (the folder is made)."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'letras.db'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``. SQLite connections get WAL, ``synchronous=NORMAL``, a busy
    timeout and foreign keys, set on each new connection."""
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    memory = url in ("sqlite://", "sqlite:///:memory:")
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False},
        **({"poolclass": StaticPool} if memory else {}),
    )

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        try:
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    return engine


class Store:
    """The games of one database (see the module docstring). Every method is one
    transaction and blocking: call them from a thread, not from the event loop."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        self.engine = make_engine(self.url)
        self.create_schema()

    def create_schema(self) -> None:
        """Run the schema's migrations that the database lacks (:mod:`letras.server.schema`:
        once each, servers that start together take turns)."""
        try:
            for attempt in range(5):
                try:
                    with self.engine.begin() as conn:
                        migrate(conn)
                    break
                except IntegrityError:  # SQLite: another server recorded the step first
                    if attempt == 4:
                        raise
        except NewerSchemaError as e:
            raise StorageError(str(e), key="server.schema_newer", version=e.version) from None
        except SQLAlchemyError as e:
            raise StorageError(f"cannot prepare the database: {e}") from None

    def create_game(self, game_id: str, settings: Mapping[str, Any],
                    token_hashes: Mapping[int, str]) -> None:
        """Store a new game: its settings (without moves) and its seats' token hashes."""
        try:
            with self.engine.begin() as conn:
                self._insert_game(conn, game_id, settings, token_hashes)
        except IntegrityError:
            raise StorageError(f"game {game_id} exists already", key="server.storage") from None
        except SQLAlchemyError as e:
            raise StorageError(f"cannot store game {game_id}: {e}") from None

    @staticmethod
    def _insert_game(conn: Any, game_id: str, settings: Mapping[str, Any],
                     token_hashes: Mapping[int, str]) -> None:
        conn.execute(insert(games).values(
            id=game_id, created=dt.datetime.now(dt.UTC),
            settings=json.dumps(dict(settings), ensure_ascii=False)))
        if token_hashes:
            conn.execute(insert(seats), [
                {"game_id": game_id, "seat": seat, "token_hash": digest}
                for seat, digest in sorted(token_hashes.items())])

    def append_moves(self, game_id: str, seq: int, new: Sequence[Mapping[str, Any]], *,
                     end_job: bool = False) -> None:
        """Append moves numbered from ``seq`` (the number of moves the writer knows of), all
        or none; with ``end_job`` the game's job (a computer's turn) ends in the same
        transaction. Raises :class:`GameMovedOnError` when the game holds another number of
        moves (another writer was first)."""
        if not new:
            return
        try:
            with self.engine.begin() as conn:
                count = conn.execute(select(func.count()).select_from(moves)
                                     .where(moves.c.game_id == game_id)).scalar_one()
                if count != seq:
                    raise GameMovedOnError(game_id, seq)
                conn.execute(insert(moves), [
                    {"game_id": game_id, "seq": seq + i,
                     "move": json.dumps(dict(m), ensure_ascii=False)}
                    for i, m in enumerate(new)])
                if end_job:
                    conn.execute(delete(jobs).where(jobs.c.game_id == game_id))
                if conn.dialect.name == "postgresql":  # tell the other servers, on commit
                    conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                                 {"channel": CHANNEL, "payload": payload(game_id,
                                                                         seq + len(new))})
        except IntegrityError:
            raise GameMovedOnError(game_id, seq) from None
        except SQLAlchemyError as e:
            raise StorageError(f"cannot store the moves of game {game_id}: {e}") from None

    def load_game(self, game_id: str) -> SavedGame:
        """The game's settings and moves, and its seats' token hashes; raises
        :class:`NoSuchGameError`."""
        if "\x00" in game_id:  # no id holds it, and PostgreSQL's text refuses it
            raise NoSuchGameError(game_id)
        try:
            with self.engine.connect() as conn:
                row = conn.execute(select(games.c.settings, games.c.created)
                                   .where(games.c.id == game_id)).first()
                if row is None:
                    raise NoSuchGameError(game_id)
                history = conn.execute(select(moves.c.move).where(moves.c.game_id == game_id)
                                       .order_by(moves.c.seq)).scalars().all()
                hashes = conn.execute(select(seats.c.seat, seats.c.token_hash)
                                      .where(seats.c.game_id == game_id)).all()
                window = self._window(conn, game_id, len(history))
                following = self._rematch_of(conn, game_id)
        except SQLAlchemyError as e:
            raise StorageError(f"cannot read game {game_id}: {e}") from None
        data: dict[str, Any] = json.loads(row.settings)
        data["moves"] = [json.loads(m) for m in history]
        created: dt.datetime = row.created  # SQLite gives it back without its zone: UTC
        created = (created.replace(tzinfo=dt.UTC) if created.tzinfo is None
                   else created.astimezone(dt.UTC))
        return SavedGame(data, {int(s): str(h) for s, h in hashes}, created, window, following)

    def open_window(self, game_id: str, seq: int, opened: float) -> Window:
        """The challenge window after move ``seq``: stored as opening at ``opened`` unless
        it is stored already (a window opens once; the stored one is given back)."""
        try:
            with self.engine.begin() as conn:
                found = self._window(conn, game_id, seq)
                if found is not None:
                    return found
                conn.execute(insert(windows).values(game_id=game_id, seq=seq, opened=opened,
                                                    declined="[]"))
        except IntegrityError:  # another writer opened it first
            return self.window(game_id, seq) or Window(opened, frozenset())
        except SQLAlchemyError as e:
            raise StorageError(f"cannot store the window of game {game_id}: {e}") from None
        return Window(opened, frozenset())

    def decline(self, game_id: str, seq: int, seats_: frozenset[int]) -> None:
        """The seats that let the play before the window after move ``seq`` stand."""
        try:
            with self.engine.begin() as conn:
                conn.execute(update(windows)
                             .where(windows.c.game_id == game_id, windows.c.seq == seq)
                             .values(declined=json.dumps(sorted(seats_))))
        except SQLAlchemyError as e:
            raise StorageError(f"cannot store the window of game {game_id}: {e}") from None

    def window(self, game_id: str, seq: int) -> Window | None:
        try:
            with self.engine.connect() as conn:
                return self._window(conn, game_id, seq)
        except SQLAlchemyError as e:
            raise StorageError(f"cannot read game {game_id}: {e}") from None

    @staticmethod
    def _window(conn: Any, game_id: str, seq: int) -> Window | None:
        row = conn.execute(select(windows.c.opened, windows.c.declined)
                           .where(windows.c.game_id == game_id, windows.c.seq == seq)).first()
        if row is None:
            return None
        return Window(float(row.opened), frozenset(int(s) for s in json.loads(row.declined)))

    def create_rematch(self, game_id: str, next_id: str, settings: Mapping[str, Any],
                       token_hashes: Mapping[int, str]) -> str:
        """Store the game that follows ``game_id`` (its seats open with the same tokens) and
        return its id; when another request made one first, that one's id (a game has one
        rematch)."""
        try:
            with self.engine.begin() as conn:
                found = self._rematch_of(conn, game_id)
                if found is not None:
                    return found
                self._insert_game(conn, next_id, settings, token_hashes)
                conn.execute(insert(rematches).values(game_id=game_id, next_id=next_id))
        except IntegrityError:
            with self.engine.connect() as conn:
                found = self._rematch_of(conn, game_id)
            if found is None:
                raise StorageError(f"cannot store the rematch of game {game_id}") from None
            return found
        except SQLAlchemyError as e:
            raise StorageError(f"cannot store the rematch of game {game_id}: {e}") from None
        return next_id

    @staticmethod
    def _rematch_of(conn: Any, game_id: str) -> str | None:
        found = conn.execute(select(rematches.c.next_id)
                             .where(rematches.c.game_id == game_id)).scalar()
        return None if found is None else str(found)

    def exists(self, game_id: str) -> bool:
        if "\x00" in game_id:
            return False
        try:
            with self.engine.connect() as conn:
                return conn.execute(select(games.c.id).where(games.c.id == game_id)).first() \
                    is not None
        except SQLAlchemyError as e:
            raise StorageError(f"cannot read game {game_id}: {e}") from None

    def close(self) -> None:
        self.engine.dispose()


__all__ = ["GameMovedOnError", "NoSuchGameError", "SavedGame", "StorageError", "Store",
           "Window", "data_dir", "default_url", "make_engine", "metadata"]
