"""The slow one-time work of a first run, done ahead: what ``pip install`` runs
(``hatch_build.py``, a build hook), and ``python -m letras.cli.prepare`` by hand.

Into the caches the programs read (nothing else is written):

- ``aot``: the move generator compiled ahead of time for the sources installed and this
  machine's processor (:mod:`letras.movegen.aot`, into
  :func:`letras.movegen.prebuilt.directory`), about a minute of CPU when numba's cache is cold;
- ``graph``: the word graph of the default edition's shipped lexicon (pt-BR: about 16 s of
  CPU), its packed form and its word map, beside it in the cache of word graphs;
- ``jit`` (with ``--jit``: for ``pip install -e``, whose sources stay where they are): the
  kernels of a game that stay JIT-compiled (the leave tables, the simulation's rollouts, the
  endgame search: :func:`letras.cli.warm.warm`, which leaves out the move generator when its
  extension is there), into numba's cache beside the sources, where the programs' numba finds
  them when it is the build's version (the same index serves both; another version compiles
  again at first use, as without this step). About 100 s of CPU, most of it the rollouts,
  which compile the move generator's functions into themselves.

The graph is built in a child process beside the extension's build and then the JIT kernels,
as the two cores of a small machine allow. Each step is skipped when its result is there and
current, so a second install costs only the checks (about a second); each fails alone, said on
stderr, and the programs then do that work at first use as before (the background compile of
:mod:`letras.cli.warm`). ``LETRAS_AOT=0`` leaves the extension out.
"""

from __future__ import annotations

import subprocess
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

from letras.editions import DEFAULT_EDITION

STEPS = ("aot", "graph", "jit")


def _say(message: str) -> None:
    print(f"letras: {message}", file=sys.stderr, flush=True)


def aot_ready() -> bool:
    """Is the extension of the sources installed there (or turned off)?"""
    from letras.movegen import prebuilt

    where = prebuilt.directory()
    return where is None or prebuilt.module_path(where, prebuilt.stamp()).is_file()


def prepare_aot() -> None:
    """Build the move generator's extension unless it is there and loads."""
    from letras.movegen import prebuilt
    from letras.movegen.aot import build

    where = prebuilt.directory()
    if where is None or prebuilt.load(where) is not None:
        return
    start = time.perf_counter()
    # for this machine's processor: generic x86-64 code (no popcnt) ran 15-20% slower than
    # the JIT's; the stamp names the processor, so another one sharing the cache passes it by
    path = build(where, host=True)
    if prebuilt.load(where) is None:
        raise RuntimeError(f"{path} was built but does not load")
    _say(f"compiled the move generator into {path} ({time.perf_counter() - start:.0f} s)")


def graph_ready(edition_name: str = DEFAULT_EDITION) -> bool:
    """Are the word graph of the edition's shipped lexicon, its packed form and its word map
    in the cache? (Their names only: whoever reads them checks them.)"""
    from letras.editions import find_edition
    from letras.lexicon import shipped_lexicons
    from letras.lexicon.kwg import cache_dir, cache_key
    from letras.movegen.graph import packed_path
    from letras.movegen.wordmap import map_paths

    edition = find_edition(edition_name)
    entry = shipped_lexicons().get(edition.name)
    if entry is None:
        return True
    key = cache_key(edition, entry.words.name, entry.words.read_bytes())
    graph = cache_dir() / f"{key}.kbwg"
    return (graph.is_file() and packed_path(graph).is_file()
            and all(p.is_file() for p in map_paths(graph, edition.rack_size)))


def prepare_graph(edition_name: str = DEFAULT_EDITION) -> None:
    """Build the word graph of the edition's shipped lexicon, its packed form and its word
    map into the cache, unless they are there."""
    from letras.editions import find_edition
    from letras.lexicon import load_lexicon
    from letras.lexicon.kwg import WordGraph
    from letras.movegen.graph import packed
    from letras.movegen.wordmap import word_map

    if graph_ready(edition_name):
        return
    start = time.perf_counter()
    graph = load_lexicon(find_edition(edition_name), progress=lambda message: None)
    if isinstance(graph, WordGraph):
        packed(graph)
        word_map(graph)
    _say(f"built the {edition_name} word graph ({time.perf_counter() - start:.0f} s)")


def jit_ready() -> bool:
    """Are the kernels of a game in numba's cache, compiled by this numba?"""
    from letras.cli.warm import all_cached

    return all_cached()


def prepare_jit() -> None:
    """Compile the kernels of a game that the extension leaves to the JIT, unless cached."""
    from letras.cli.warm import warm
    from letras.editions import find_edition

    if jit_ready():
        return
    start = time.perf_counter()
    warm(find_edition(DEFAULT_EDITION))
    _say(f"compiled the kernels of a game ({time.perf_counter() - start:.0f} s)")


def _run(step: str) -> bool:
    """Run one step here; False (said on stderr) when it failed."""
    try:
        {"aot": prepare_aot, "graph": prepare_graph, "jit": prepare_jit}[step]()
        return True
    except Exception:  # any failure: the programs do this work at first use instead
        _say(f"could not prepare {step} (done at first use instead):\n"
             + traceback.format_exc(limit=3))
        return False


def prepare(jit: bool = False) -> bool:
    """Every step not done yet (``jit`` too with ``jit``), the graph in a child process
    beside the extension's build, then the JIT kernels; True when all are done."""
    if aot_ready() and graph_ready() and not (jit and not jit_ready()):
        return True
    child = None
    if not graph_ready():
        # these sources first on the child's path, as they are on this one's (pip's build
        # environment drops PYTHONPATH entries that a former editable install also adds)
        src = str(Path(__file__).resolve().parents[2])
        code = (f"import sys; sys.path.insert(0, {src!r}); "
                "from letras.cli.prepare import main; sys.exit(main(['graph']))")
        child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL)
    ok = _run("aot")
    if jit:  # after the extension: then the move generator is not compiled again here
        ok = _run("jit") and ok
    if child is not None:
        ok = child.wait() == 0 and ok
    return ok


def main(argv: Sequence[str]) -> int:
    """``python -m letras.cli.prepare [--jit | aot | graph | jit]``: every step (``jit``
    with ``--jit``), or one."""
    if argv and argv[0] not in (*STEPS, "--jit"):
        _say(f"usage: python -m letras.cli.prepare [--jit | {' | '.join(STEPS)}]")
        return 2
    ok = _run(argv[0]) if argv and argv[0] in STEPS else prepare(jit=bool(argv))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
