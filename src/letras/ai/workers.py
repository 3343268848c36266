"""Where the games of a batch are played: in this process, in local processes, or on Ray.

Self-play matches and leave training split their work into tasks (a game number and its round),
each a pure function of the job, the same for every task, and of the task itself: whichever
worker plays a task, on whichever machine, it gives the same result. A backend plays the tasks
in any order and yields their results as they finish (so a progress bar can follow them); the
caller puts them back in order, by game number, so that nothing depends on the backend or on
how many workers there are.

Each worker builds its state once from the job with ``setup(job)`` (a word graph, a player)
and plays tasks with ``work(state, task)``; both are module-level functions, which travel to
other processes by name. Data that changes between rounds (the leave values a round plays
with) goes to the workers once, through :meth:`Workers.share`, not with every task.

The backends:

- :class:`InProcess`, one worker: this process plays everything.
- :class:`ProcessPool`, several workers: processes started on this machine (``spawn``).
- :class:`RayActors`, ``--ray auto|ADDRESS``: one Ray actor per worker, on a Ray cluster (Ray
  is an optional extra, ``letras[ray]``). ``auto`` joins the cluster that ``RAY_ADDRESS`` names
  or that ``ray start`` started on this machine, and else starts a local instance for the
  batch; any other address is passed to :func:`ray.init` as it is. Every node of a cluster
  needs letras installed, in the same version.

>>> import operator
>>> with open_workers(1, tasks=3) as pool:
...     pool.start(abs, operator.add, -10)  # state abs(-10); task t gives 10 + t
...     sorted(pool.map([1, 2, 3]))
[11, 12, 13]
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import tempfile
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from letras.errors import LetrasError

J = TypeVar("J")
S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")

AUTO = "auto"
"""``--ray auto``: the cluster Ray finds by itself, or a local instance (see the docstring)."""


IN_FLIGHT = 2
"""Chunks of tasks sent ahead to each Ray actor (one playing, the next queued)."""
CHUNKS = 8
"""Chunks each Ray worker gets of a batch (see :func:`chunk_size`)."""


class RayError(LetrasError):
    """Ray is not installed, cannot be reached, or lost a worker."""


@dataclass(frozen=True)
class Shared:
    """Bytes every worker may need (a round's leave values), sent once: kept here, in a file
    the local processes read, or in Ray's object store. ``key`` tells one share from
    another, so a worker can keep what it made of the last one."""

    key: str
    data: bytes | None = None
    path: str | None = None
    ref: Any = None

    def load(self) -> bytes:
        if self.data is not None:
            return self.data
        if self.path is not None:
            return Path(self.path).read_bytes()
        ray: Any = importlib.import_module("ray")
        data: bytes = ray.get(self.ref)
        return data


class Workers(Generic[T, R]):
    """Plays tasks with ``work(state, task)`` after :meth:`start`; a context manager that stops
    its workers on exit."""

    count: int = 1
    """How many workers play."""
    local_processes: bool = False
    """The workers are fresh processes of this machine: the job may name files and shipped
    lexicons rather than carry their contents."""

    def start(self, setup: Callable[[J], S], work: Callable[[S, T], R], job: J) -> None:
        raise NotImplementedError

    def map(self, tasks: Sequence[T]) -> Iterator[R]:
        """The tasks' results, as they finish (in any order)."""
        raise NotImplementedError

    def share(self, data: bytes) -> Shared:
        return Shared(uuid.uuid4().hex, data=data)

    def close(self) -> None:
        """Stop the workers (the ones already stopped stay so)."""

    def __enter__(self) -> Workers[T, R]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_workers(workers: int | None, *, tasks: int, ray: str | None = None) -> Workers[Any, Any]:
    """The backend for ``workers`` workers (None: one, or with Ray one per CPU of the
    cluster), never more than ``tasks``; on Ray at ``ray`` when it is given (``auto`` or an
    address, see the module docstring)."""
    if ray is not None:
        return RayActors(ray, workers, tasks)
    count = min(workers or 1, max(tasks, 1))
    return ProcessPool(count) if count > 1 else InProcess()


# ----- in this process -----------------------------------------------------------------------


class InProcess(Workers[T, R]):
    def __init__(self) -> None:
        self.state: Any = None
        self.work: Callable[[Any, T], R] | None = None

    def start(self, setup: Callable[[J], S], work: Callable[[S, T], R], job: J) -> None:
        self.state, self.work = setup(job), work

    def map(self, tasks: Sequence[T]) -> Iterator[R]:
        work, state = self.work, self.state
        assert work is not None, "start the workers first"
        return (work(state, task) for task in tasks)


# ----- local processes -----------------------------------------------------------------------


_STATE: list[tuple[Callable[[Any, Any], Any], Any]] = []
"""A pool process's ``work`` and state."""


def _start_process(setup: Callable[[Any], Any], work: Callable[[Any, Any], Any],
                   job: Any) -> None:
    _STATE.append((work, setup(job)))


def _play_in_process(task: Any) -> Any:
    work, state = _STATE[0]
    return work(state, task)


class ProcessPool(Workers[T, R]):
    local_processes = True

    def __init__(self, count: int) -> None:
        self.count = count
        self.pool: Any = None
        self.folder: tempfile.TemporaryDirectory[str] | None = None

    def start(self, setup: Callable[[J], S], work: Callable[[S, T], R], job: J) -> None:
        context = multiprocessing.get_context("spawn")
        self.pool = context.Pool(self.count, initializer=_start_process,
                                 initargs=(setup, work, job))

    def map(self, tasks: Sequence[T]) -> Iterator[R]:
        assert self.pool is not None, "start the workers first"
        return iter(self.pool.imap_unordered(_play_in_process, tasks))

    def share(self, data: bytes) -> Shared:
        if self.folder is None:
            self.folder = tempfile.TemporaryDirectory(prefix="letras-workers-")
        key = uuid.uuid4().hex
        path = os.path.join(self.folder.name, key)
        Path(path).write_bytes(data)
        return Shared(key, path=path)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None
        if self.folder is not None:
            self.folder.cleanup()
            self.folder = None


# ----- Ray -----------------------------------------------------------------------------------


def import_ray() -> Any:
    """The ``ray`` module, or :class:`RayError` saying how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RayError("Ray is not installed: install letras[ray] (pip install 'letras[ray]') "
                       "to play on Ray", key="ray.missing") from None


class _Actor:
    """A Ray worker: the state the job gives, and the tasks it plays."""

    def __init__(self, setup: Callable[[Any], Any], work: Callable[[Any, Any], Any],
                 job: Any) -> None:
        self.work = work
        self.state = setup(job)

    def play_all(self, tasks: Sequence[Any]) -> list[Any]:
        return [self.work(self.state, task) for task in tasks]


def chunk_size(tasks: int, workers: int) -> int:
    """Tasks sent to a Ray actor at once: enough that a big batch does not make one round trip
    per game (a cluster's caller would spend its time on them), few enough that every worker
    gets :data:`CHUNKS` of them to keep the load even.

    >>> chunk_size(200, 2), chunk_size(10, 2), chunk_size(1_000_000, 1000)
    (12, 1, 125)
    """
    return max(1, tasks // (workers * CHUNKS))


class RayActors(Workers[T, R]):
    """One actor (one CPU) per worker on a Ray cluster; Ray is started here, and stopped at the
    end, only when this process is not already connected to one."""

    def __init__(self, address: str, workers: int | None, tasks: int) -> None:
        self.ray = import_ray()
        self.started = False
        self.actors: list[Any] = []
        if not self.ray.is_initialized():
            import logging

            try:
                self.ray.init(address=None if address == AUTO else address,
                              logging_level=logging.WARNING)
            except (ConnectionError, ValueError, RuntimeError) as e:
                raise RayError(f"cannot reach Ray at {address!r}: {e}", key="ray.connect",
                               address=address, reason=str(e)) from None
            self.started = True
        cpus = max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        self.count = max(1, min(workers or cpus, cpus, max(tasks, 1)))

    def start(self, setup: Callable[[J], S], work: Callable[[S, T], R], job: J) -> None:
        actor = self.ray.remote(num_cpus=1)(_Actor)
        job_ref = self.ray.put(job)  # once in the object store, not once per actor
        self.actors = [actor.remote(setup, work, job_ref) for _ in range(self.count)]

    def map(self, tasks: Sequence[T]) -> Iterator[R]:
        assert self.actors, "start the workers first"
        size = chunk_size(len(tasks), self.count)
        chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
        # Each actor twice: a second chunk waits in the actor's queue while the results of the
        # first travel back, so the actor does not idle for a round trip between chunks.
        pool = self.ray.util.ActorPool(self.actors * IN_FLIGHT)
        results = pool.map_unordered(lambda actor, chunk: actor.play_all.remote(chunk), chunks)
        return self._unwrapped(results)

    def _unwrapped(self, results: Iterator[list[R]]) -> Iterator[R]:
        """The results, a refusal in a worker raised here as itself."""
        exceptions = self.ray.exceptions
        try:
            for chunk in results:
                yield from chunk
        except exceptions.RayTaskError as e:
            if isinstance(e.cause, LetrasError):
                raise e.cause from None
            raise RayError(f"a Ray worker failed: {e}", key="ray.failed",
                           reason=str(e)) from None
        except exceptions.RayError as e:
            raise RayError(f"a Ray worker failed: {e}", key="ray.failed",
                           reason=str(e)) from None

    def share(self, data: bytes) -> Shared:
        return Shared(uuid.uuid4().hex, ref=self.ray.put(data))

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []
        if self.started:
            self.ray.shutdown()
            self.started = False
