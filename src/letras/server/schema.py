"""The web app's tables, and the migrations that make them, once, on any database.

Each migration is a numbered step (tables created, columns added) recorded in
``schema_version`` when it is done. A server that starts runs the steps its database lacks;
on PostgreSQL it holds an advisory lock meanwhile, so servers that start together take turns
and each step runs once. A database from before the version table (the first three tables
only) counts as having none: ``CREATE TABLE IF NOT EXISTS`` makes every step safe to run on
it. A database of a newer letras (a step this one does not know) is refused.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    insert,
    select,
    text,
)
from sqlalchemy.schema import CreateTable

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


windows = Table(
    "windows",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("opened", Float, nullable=False),
    Column("declined", Text, nullable=False),
    UniqueConstraint("game_id", "seq", name="windows_game_seq"),
)

rematches = Table(
    "rematches",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("next_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
)


jobs = Table(
    "jobs",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("owner", String(64), nullable=False),
    Column("lease_until", Float, nullable=False),
)


schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, primary_key=True),
    Column("applied", DateTime(timezone=True), nullable=False),
    Column("what", Text, nullable=False),
)


@dataclass(frozen=True)
class Migration:
    """One step of the schema: its number, what it does, and how (on a connection)."""

    version: int
    what: str
    run: Callable[[Any], None]


def _create(*made: Table) -> Callable[[Any], None]:
    def run(conn: Any) -> None:
        for table in made:
            conn.execute(CreateTable(table, if_not_exists=True))
    return run


MIGRATIONS = (
    Migration(1, "games, seats and moves", _create(games, seats, moves)),
    Migration(2, "challenge windows, rematches and computer jobs",
              _create(windows, rematches, jobs)),
)
"""Every step, in order (a new one goes at the end, with the next number)."""


class NewerSchemaError(Exception):
    """The database was made by a newer letras (its schema ``version``)."""

    def __init__(self, message: str, version: int) -> None:
        super().__init__(message)
        self.version = version


def migrate(conn: Any) -> list[int]:
    """Bring the database of ``conn`` (in a transaction) to the latest schema: the steps run
    now."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
    conn.execute(CreateTable(schema_version, if_not_exists=True))
    done = set(conn.execute(select(schema_version.c.version)).scalars())
    newer = done - {m.version for m in MIGRATIONS}
    if newer:
        raise NewerSchemaError(f"the database has schema version {max(newer)}; this letras "
                               f"knows up to {MIGRATIONS[-1].version}", max(newer))
    ran = []
    for step in MIGRATIONS:
        if step.version not in done:
            step.run(conn)
            conn.execute(insert(schema_version).values(
                version=step.version, applied=dt.datetime.now(dt.UTC), what=step.what))
            ran.append(step.version)
    return ran


__all__ = ["MIGRATIONS", "Migration", "NewerSchemaError", "games", "jobs", "metadata", "migrate",
           "moves", "rematches", "schema_version", "seats", "windows"]
