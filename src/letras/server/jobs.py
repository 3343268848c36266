"""Computer turns as jobs in the database, leased by one server at a time.

When a game comes to a computer seat, the server that stored the move writes a job (the game
and its number of moves) and takes its lease; its worker thinks, and the move it stores ends
the job. Several servers on one database never think for the same turn: a lease is taken with
one conditional ``UPDATE`` (the owner, or a lease run out), candidates are found with
``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL. A server that dies mid-job stops renewing
its lease; when the lease runs out, any other server's :class:`JobRunner` takes the job, loads
the game and plays the turn. The move is still made exactly once: the moves table takes one
move of each number (:meth:`letras.server.storage.Store.append_moves`).

On SQLite one process owns the file: there is nobody to share a turn with, so no job is
written (a server that restarts plays the computer's turn when it loads the game).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from letras.server.background import Background
from letras.server.schema import jobs
from letras.server.storage import StorageError, Store

log = logging.getLogger("letras.server")

LEASE_SECONDS = 10.0
"""How long a server holds a computer's turn without renewing it (it renews every third of
that while its worker thinks)."""

@dataclass(frozen=True)
class Job:
    """A computer's turn to play: the game, at ``seq`` moves."""

    game_id: str
    seq: int


class Jobs:
    """The job table of a database, for one server (``owner``: a random id of the process).
    Blocking calls: run them in a thread."""

    def __init__(self, store: Store, *, lease_seconds: float = LEASE_SECONDS,
                 owner: str | None = None, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.lease_seconds = lease_seconds
        self.owner = owner or secrets.token_hex(8)
        self.clock = clock

    @property
    def shared(self) -> bool:
        """May other servers use this database (PostgreSQL)?"""
        return self.store.engine.dialect.name == "postgresql"

    def take(self, game_id: str, seq: int) -> bool:
        """Take (or renew) the lease of the computer's turn of ``game_id`` at ``seq`` moves,
        writing the job if there is none; False when another server holds it (a job of an
        older position is taken over: that server is behind). Always True on SQLite."""
        if not self.shared:
            return True
        now = self.clock()
        until = now + self.lease_seconds
        try:
            with self.store.engine.begin() as conn:
                taken = conn.execute(
                    update(jobs).where(
                        jobs.c.game_id == game_id,
                        (jobs.c.owner == self.owner) | (jobs.c.lease_until < now)
                        | (jobs.c.seq < seq))
                    .values(seq=seq, owner=self.owner, lease_until=until)).rowcount
                if taken:
                    return True
                found = conn.execute(select(jobs.c.game_id)
                                     .where(jobs.c.game_id == game_id)).first()
                if found is not None:
                    return False  # another server's lease
                conn.execute(insert(jobs).values(game_id=game_id, seq=seq, owner=self.owner,
                                                 lease_until=until))
                return True
        except IntegrityError:  # another server wrote it first
            return False
        except SQLAlchemyError as e:
            raise StorageError(f"cannot lease the computer's turn of game {game_id}: {e}") \
                from None

    def done(self, game_id: str) -> None:
        """The game needs no computer now: its job, if any, is gone."""
        if not self.shared:
            return
        try:
            with self.store.engine.begin() as conn:
                conn.execute(delete(jobs).where(jobs.c.game_id == game_id))
        except SQLAlchemyError as e:
            raise StorageError(f"cannot end the job of game {game_id}: {e}") from None

    def free(self, limit: int = 8) -> list[Job]:
        """Jobs whose lease ran out (their server died or let go), oldest first; skipped if
        another server is looking at them right now (none on SQLite)."""
        if not self.shared:
            return []
        try:
            with self.store.engine.begin() as conn:
                query = (select(jobs.c.game_id, jobs.c.seq)
                         .where(jobs.c.lease_until < self.clock())
                         .order_by(jobs.c.lease_until).limit(limit))
                if self.shared:
                    query = query.with_for_update(skip_locked=True)
                return [Job(str(g), int(s)) for g, s in conn.execute(query).all()]
        except SQLAlchemyError as e:
            raise StorageError(f"cannot read the jobs: {e}") from None


class JobRunner(Background):
    """Looks for computer turns that nobody holds, every ``poll_seconds``, and hands each to
    ``play(game_id)`` (which loads the game; the game then takes the lease and plays)."""

    name = "letras-jobs"

    def __init__(self, jobs_: Jobs, play: Callable[[str], Awaitable[None]], *,
                 poll_seconds: float = 1.0) -> None:
        super().__init__()
        self.jobs = jobs_
        self.play = play
        self.poll_seconds = poll_seconds

    async def _run(self) -> None:
        while True:
            try:
                for job in await asyncio.to_thread(self.jobs.free):
                    await self.play(job.game_id)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("looking for computer turns failed: %s", e)
            await asyncio.sleep(self.poll_seconds)


__all__ = ["LEASE_SECONDS", "Job", "JobRunner", "Jobs"]
