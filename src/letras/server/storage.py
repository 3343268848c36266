"""The web app's database: games, seats and the history of moves (SQLAlchemy Core).

Three tables, portable SQL only, on SQLite (``sqlite:///FILE``, the default) or PostgreSQL
(``postgresql+psycopg://USER@HOST:PORT/DB``). The only statements of one database are SQLite's
pragmas, set on each new connection, and PostgreSQL's advisory lock that lets two servers
create the schema at once. JSON is stored as text on both, so both give back the same games.

- ``games``: a random URL-safe id, the time it was created and its settings as JSON text
  (edition, lexicon, rules, players with their kinds, and the seed: the seed never leaves the
  server);
- ``seats``: per person's seat the SHA-256 of its token (never the token), one row a seat;
- ``moves``: the history, one row a :class:`~letras.history.Move` as JSON, numbered from 0,
  append-only. A unique key on (game, seq) makes a second writer of the same number fail: the
  game moved on without it.

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
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool
from sqlalchemy.schema import CreateTable

from letras.errors import LetrasError

BUSY_TIMEOUT_MS = 5000
"""How long an SQLite connection waits for another writer before it gives up."""

SCHEMA_LOCK = 0x6C6574726173  # "letras"
"""The key of PostgreSQL's advisory lock held while the schema is created."""

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("settings", Text, nullable=False),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("token_hash", String(64), nullable=False),
    UniqueConstraint("game_id", "seat", name="seats_game_seat"),
)

moves = Table(
    "moves",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("move", Text, nullable=False),
    UniqueConstraint("game_id", "seq", name="moves_game_seq"),
)


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
class SavedGame:
    """A game as stored: ``data`` for :meth:`letras.game.Game.from_dict` (settings and
    moves) and the token hash of each person's seat."""

    data: dict[str, Any]
    seats: dict[int, str]
    created: dt.datetime


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
        """Create the tables that are missing (idempotent, ``CREATE TABLE IF NOT EXISTS``).
        On PostgreSQL a transaction-wide advisory lock makes servers that start together
        take turns (two ``IF NOT EXISTS`` can still collide there)."""
        try:
            with self.engine.begin() as conn:
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                 {"key": SCHEMA_LOCK})
                for table in metadata.sorted_tables:
                    conn.execute(CreateTable(table, if_not_exists=True))
        except SQLAlchemyError as e:
            raise StorageError(f"cannot prepare the database: {e}") from None

    def create_game(self, game_id: str, settings: Mapping[str, Any],
                    token_hashes: Mapping[int, str]) -> None:
        """Store a new game: its settings (without moves) and its seats' token hashes."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(games).values(
                    id=game_id, created=dt.datetime.now(dt.UTC),
                    settings=json.dumps(dict(settings), ensure_ascii=False)))
                if token_hashes:
                    conn.execute(insert(seats), [
                        {"game_id": game_id, "seat": seat, "token_hash": digest}
                        for seat, digest in sorted(token_hashes.items())])
        except IntegrityError:
            raise StorageError(f"game {game_id} exists already", key="server.storage") from None
        except SQLAlchemyError as e:
            raise StorageError(f"cannot store game {game_id}: {e}") from None

    def append_moves(self, game_id: str, seq: int, new: Sequence[Mapping[str, Any]]) -> None:
        """Append moves numbered from ``seq`` (the number of moves the writer knows of), all
        or none. Raises :class:`GameMovedOnError` when the game holds another number of moves
        (another writer was first)."""
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
        except SQLAlchemyError as e:
            raise StorageError(f"cannot read game {game_id}: {e}") from None
        data: dict[str, Any] = json.loads(row.settings)
        data["moves"] = [json.loads(m) for m in history]
        created: dt.datetime = row.created  # SQLite gives it back without its zone: UTC
        created = (created.replace(tzinfo=dt.UTC) if created.tzinfo is None
                   else created.astimezone(dt.UTC))
        return SavedGame(data, {int(s): str(h) for s, h in hashes}, created)

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
           "data_dir", "default_url", "make_engine", "metadata"]
