"""Computer moves in worker processes, never in the event loop.

The move generator's compiled code holds the interpreter lock, so a computer seat thinks in a
process of its own: a :class:`concurrent.futures.ProcessPoolExecutor` whose workers keep the
word graphs (and the players, with their caches) loaded between jobs. A job is an
:class:`AIJob` (the seat's view, level, seed and time); it returns the action chosen. The
server applies it with :meth:`letras.table.Table.ai_apply`, so the server stays the referee:
a worker can only propose.

The pool starts its workers on the first job (a server that never meets a computer seat never
starts one), bounds the jobs waiting for a worker, and is shut down with the app.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from letras.lexicon.kwg import WordGraph
from letras.server.lexicons import Lexicons
from letras.server.review import ReviewRequest
from letras.view import PlayerView

if TYPE_CHECKING:
    from letras.ai import Choice
    from letras.ai.player import Player

J = TypeVar("J")
R = TypeVar("R")

MAX_PLAYERS_KEPT = 64
"""Players a worker keeps (by lexicon, level and seed) between jobs."""


@dataclass(frozen=True)
class AIJob:
    """What a worker needs to choose a computer seat's move."""

    edition: str
    lexicon: str
    level: str
    seed: int
    view: PlayerView
    seconds: float


# ----- inside a worker ---------------------------------------------------------------------

_lexicons: Lexicons | None = None
_players: OrderedDict[tuple[str, str, str, int], Player] = OrderedDict()


def init_worker(graphs: Mapping[str, WordGraph]) -> None:
    """A worker's start: the graphs the server was given (the shipped ones load on first
    use and stay)."""
    global _lexicons
    _lexicons = Lexicons(graphs)
    _players.clear()


def choose(job: AIJob) -> Choice:
    """Run in a worker: the action the seat's level chooses from its view."""
    from letras.ai import Limit, get_player

    global _lexicons
    if _lexicons is None:
        _lexicons = Lexicons()
    key = (job.edition, job.lexicon, job.level, job.seed)
    player = _players.get(key)
    if player is None:
        graph = _lexicons.graph(job.edition, job.lexicon)
        player = _players[key] = get_player(job.level, graph, seed=job.seed)
        while len(_players) > MAX_PLAYERS_KEPT:
            _players.popitem(last=False)
    else:
        _players.move_to_end(key)
    return player.choose(job.view, Limit(seconds=job.seconds))


def rank(request: ReviewRequest) -> list[tuple[str, float, int]]:
    """Run in a worker: the best actions of a past turn by equity, best first, as
    ``(notation, equity, score)`` (a play as people read it, an exchange as ``-ABC``, a pass
    as ``-``)."""
    from letras.ai import EquityPlayer
    from letras.play import Place
    from letras.table.text import play_text

    global _lexicons
    if _lexicons is None:
        _lexicons = Lexicons()
    graph = _lexicons.graph(request.edition, request.lexicon)
    view = request.view
    out = []
    for c in EquityPlayer(graph, seed=0).ranked(view, request.count):
        text = (play_text(c.choice, view.board) if isinstance(c.choice, Place)
                else c.choice.notation(view.edition))
        out.append((text, float(c.equity), int(c.score)))
    return out


# ----- in the server -----------------------------------------------------------------------


class AIPool:
    """The worker processes of a server (see the module docstring). ``max_pending`` bounds
    the jobs handed to the executor at once; more wait their turn in the event loop."""

    def __init__(self, lexicons: Lexicons, *, workers: int = 1, max_pending: int = 32,
                 start_method: str = "spawn") -> None:
        if workers < 1:
            raise ValueError("the AI pool needs at least one worker")
        self.lexicons = lexicons
        self.workers = workers
        self.start_method = start_method
        self.jobs_done = 0
        """Jobs that workers answered (tests check that computer moves came from here)."""
        self._slots = asyncio.Semaphore(max_pending)
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False

    def _pool(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the AI pool is shut down")
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context(self.start_method),
                initializer=init_worker,
                initargs=(self.lexicons.graphs,),
            )
        return self._executor

    async def choose(self, job: AIJob) -> Choice:
        """The action a worker chose for ``job``. A broken pool (a worker died) is replaced
        and the job tried once more."""
        return await self.run(choose, job)

    async def run(self, work: Callable[[J], R], job: J) -> R:
        """``work(job)`` in a worker (a module-level function, as the pool pickles it)."""
        async with self._slots:
            for attempt in range(2):
                pool = self._pool()
                try:
                    answer = await asyncio.wrap_future(pool.submit(work, job))
                except BrokenProcessPool:
                    if self._executor is pool:
                        self._executor = None
                        pool.shutdown(wait=False, cancel_futures=True)
                    if attempt:
                        raise
                    continue
                self.jobs_done += 1
                return answer
        raise AssertionError("unreachable")

    def shutdown(self) -> None:
        """Stop the workers (waiting jobs are cancelled)."""
        self._closed = True
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


__all__ = ["AIJob", "AIPool", "choose", "init_worker", "rank"]
