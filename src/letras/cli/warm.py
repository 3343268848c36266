"""Compiling the kernels of a game before the game needs them, in a background process.

The first game on a machine compiles (numba, once: the machine code is then cached beside each
module) the move generator, the leave tables and the endgame search. Done when first needed,
that work lands in the first turns of the computer and, at the first empty bag, as a pause of
ten seconds or more. :func:`start` runs :func:`warm` in a child process instead, on the other
core, while this one builds the word graph or the person thinks; :meth:`Warming.wait` blocks
until a stage is compiled, after which this process loads it from the cache in a fraction of a
second. ``letras play`` starts it as it loads the word graph, ``letras serve`` with the
default edition's word graph built first (``until="movegen"`` stops after the move generator);
``LETRAS_WARM=0`` turns it off. Figures: ``bench/README.md``, "Start-up". The install runs
it too (:mod:`letras.cli.prepare`), and with the move generator compiled ahead of time
(:mod:`letras.movegen.prebuilt`) its first stage has nothing to compile.

:func:`warm` plays each stage of the ``best`` level on a tiny word graph (every two-letter
string of the edition's letters) laid out in plain Python, so the background process compiles
nothing of the graph builder: the kernels are specialised on the types of their arguments,
never on the data, so the real graph then finds them compiled.

>>> from letras.editions import find_edition
>>> graph = tiny_graph(find_edition("en"))
>>> len(graph), "AB" in graph, "ABC" in graph
(676, True, False)
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING

import numpy as np

from letras._compiled import is_cached
from letras.board import Board, Direction, Square
from letras.editions import Edition, find_edition
from letras.lexicon.kwg import WordGraph
from letras.play import Place

if TYPE_CHECKING:
    from letras.game import PlayerView

STAGES = ("movegen", "equity", "sim", "endgame")
"""What :func:`warm` compiles, in order: each name is said once it is done."""

_ACCEPTS, _IS_END, _ARC_SHIFT = 0x80, 0x40, 8  # the internal node layout (letras.lexicon.kwg)
_SEPARATOR = 0

Trie = dict[int, tuple[list[bool], "Trie"]]


def _trie(strings: Sequence[Sequence[int]]) -> Trie:
    root: Trie = {}
    for s in strings:
        node = root
        for i, t in enumerate(s):
            accepts, node_below = node.setdefault(t, ([False], {}))
            if i == len(s) - 1:
                accepts[0] = True
            node = node_below
    return root


def _lay_out(trie: Trie, nodes: list[int]) -> int:
    """Append the arc list of ``trie`` (tiles in order, as the graph keeps them) and those
    below it to ``nodes``; where the list starts (0 for no arcs)."""
    if not trie:
        return 0
    start = len(nodes)
    items = sorted(trie.items())
    nodes.extend([0] * len(items))
    for i, (tile, (accepts, below)) in enumerate(items):
        arc = _lay_out(below, nodes)
        nodes[start + i] = (tile | (_ACCEPTS if accepts[0] else 0)
                            | (_IS_END if i == len(items) - 1 else 0) | arc << _ARC_SHIFT)
    return start


def tiny_graph(edition: Edition) -> WordGraph:
    """A word graph whose words are every two-letter string of the edition's letters, made
    without the compiled builder (a trie: unminimised, which does not matter at this size)."""
    letters = range(1, len(edition.tiles.labels))
    words = [(a, b) for a in letters for b in letters]
    gaddag = []
    for w in words:
        for i in range(len(w), 0, -1):
            gaddag.append((*reversed(w[:i]), *((_SEPARATOR, *w[i:]) if i < len(w) else ())))
    nodes = [0, 0]
    nodes[0] = _IS_END | _lay_out(_trie(words), nodes) << _ARC_SHIFT
    nodes[1] = _IS_END | _lay_out(_trie(gaddag), nodes) << _ARC_SHIFT
    return WordGraph(np.array(nodes, np.uint32), edition, "warm-up")


def warm(edition: Edition, say: Callable[[str], None] = lambda stage: None,
         until: str = STAGES[-1]) -> None:
    """Play each stage of the ``best`` level once on :func:`tiny_graph`, saying each of
    :data:`STAGES` when it is compiled, up to ``until``."""
    from letras.ai import BestPlayer, Limit
    from letras.ai.endgame import EndgamePosition, solve
    from letras.game import Game
    from letras.movegen import generate, lane_state, prebuilt, top_plays

    graph = tiny_graph(edition)
    game = Game(edition, ["a", "b"], seed=1, lexicon=graph)
    view = game.view(game.to_move)
    if prebuilt.kernels() is None:  # else compiled at install (letras.cli.prepare)
        generate(view.board, view.rack, graph)
        top_plays(view.board, view.rack, graph, 1)
        lane_state(view.board, graph)
    say("movegen")
    if until == "movegen":
        return
    player = BestPlayer(graph, seed=1)
    game.apply(player.choose(view, Limit(work=50)))
    if game.challengeable is not None:
        game.accept()
    say("equity")
    view = game.view(game.to_move)
    player.choose(view, Limit(work=20))
    _roll_out(view, graph)
    say("sim")
    board = Board(edition)
    board.put(Place(Square(7, 7), Direction.ACROSS, (1, 2)).placed())
    solve(EndgamePosition(board, (1, 2, 3), (3, 4), edition.rules), graph, Limit(work=2000))
    say("endgame")


def _roll_out(view: PlayerView, graph: WordGraph) -> None:
    """One compiled rollout of the simulation, with an empty leave table (the editions
    without a leave file would not compile it otherwise)."""
    import random

    from letras.ai.equity import EquityPlayer
    from letras.ai.leaves.klv import LeaveTable
    from letras.ai.sim.compiled import CompiledRollouts

    table = LeaveTable.from_values(view.edition, {})
    rollouts = CompiledRollouts(view, graph, table, {}, 2)
    best = EquityPlayer(graph, leaves=table).ranked(view, 1)[0]
    rollouts.rollout(best, rollouts.deal(random.Random(1)))


def all_cached(until: str = STAGES[-1]) -> bool:
    """Are the kernels of the stages up to ``until`` cached already (then there is nothing
    to warm)?"""
    from letras.movegen import prebuilt

    movegen = prebuilt.kernels() is not None or _jit_cached()
    if until == "movegen":
        return movegen
    from letras.ai.endgame import core as endgame_core
    from letras.ai.endgame import plays as endgame_plays
    from letras.ai.sim import compiled as sim_compiled

    return (movegen and is_cached(endgame_plays, "_merge")
            and is_cached(sim_compiled, "play_out") and is_cached(endgame_core, "search"))


def _jit_cached() -> bool:
    from letras.movegen import _kernels

    return is_cached(_kernels, "generate")


class Warming:
    """A running :func:`warm` in a child process (see :func:`start`)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.done: set[str] = set()

    def wait(self, stage: str) -> bool:
        """Block until ``stage`` is compiled (True) or the child ended without it (False)."""
        out: IO[str] | None = self.process.stdout
        while stage not in self.done and out is not None:
            line = out.readline()
            if not line:
                self.process.wait()
                return False
            self.done.add(line.strip())
        return stage in self.done


def start(edition: Edition, until: str = STAGES[-1], *, graph: bool = False) -> Warming | None:
    """Start :func:`warm` for ``edition`` (up to stage ``until``) in a child process,
    unless everything is cached already, or ``LETRAS_WARM=0`` is set (then None). With
    ``graph`` (``letras serve``, whose games load their word graphs later) the child first
    builds the word graph of the edition's shipped lexicon into the cache, unless it is there.
    The child goes on after this process ends, and ends by itself."""
    if os.environ.get("LETRAS_WARM") == "0":
        return None
    graph = graph and not graph_cached(edition)
    if not graph and all_cached(until):
        return None
    argv = [edition.name, until, *(["graph"] if graph else [])]
    process = subprocess.Popen(
        [sys.executable, "-m", "letras.cli.warm", *argv], stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True,
    )
    return Warming(process)


def _say(stage: str) -> None:
    with contextlib.suppress(OSError):  # nobody waits any more: compile on, for next time
        print(stage, flush=True)


def graph_cached(edition: Edition) -> bool:
    """Is the word graph of the edition's shipped lexicon in the cache (or none ships)?"""
    from letras.lexicon import shipped_lexicons
    from letras.lexicon.kwg import cache_dir, cache_key

    entry = shipped_lexicons().get(edition.name)
    if entry is None:
        return True
    key = cache_key(edition, entry.words.name, entry.words.read_bytes())
    return (cache_dir() / f"{key}.kbwg").exists()


def _one_at_a_time() -> None:
    """Wait for any other warm-up of the same cache to end (then this one finds its work
    done and ends at once): several programs started together compile and build once."""
    from letras.lexicon.kwg import cache_dir

    try:
        import fcntl

        cache_dir().mkdir(parents=True, exist_ok=True)
        fd = os.open(cache_dir() / "warm.lock", os.O_CREAT | os.O_RDWR, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)  # held until this process ends
    except (ImportError, OSError):
        pass  # no locks here: each warms on its own, which is only slower


def main(argv: Sequence[str]) -> int:
    """``python -m letras.cli.warm EDITION [UNTIL] [graph]`` (what :func:`start` runs)."""
    edition = find_edition(argv[0] if argv else "pt-BR")
    _one_at_a_time()
    if "graph" in argv[2:]:
        from letras.lexicon import load_lexicon

        load_lexicon(edition, progress=lambda message: None)
        _say("graph")
    warm(edition, _say, *argv[1:2])
    return 0


if __name__ == "__main__":
    import signal

    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    sys.exit(main(sys.argv[1:]))


__all__: list[str] = ["STAGES", "Warming", "all_cached", "start", "tiny_graph", "warm"]
