"""The slow one-time work of a first run, done ahead: what ``pip install`` runs
(``hatch_build.py``, a build hook), and ``python -m letras.cli.prepare`` by hand.

Into the caches the programs read (nothing else is written):

- ``aot``: the move generator compiled ahead of time for the sources installed
  (:mod:`letras.movegen.aot`, into :func:`letras.movegen.prebuilt.directory`), about a minute
  of CPU when numba's cache is cold;
- ``graph``: the word graph of the default edition's shipped lexicon (pt-BR: about 16 s of
  CPU), its packed form and its word map, beside it in the cache of word graphs.

The two run side by side (the graph in a child process), as the two cores of a small machine
allow. Each is skipped when its result is there and current, so a second install costs only
the checks (well under a second); each fails alone, said on stderr, and the programs then do
that work at first use as before. ``LETRAS_AOT=0`` leaves the extension out.
"""

from __future__ import annotations

import subprocess
import sys
import time
import traceback
from collections.abc import Sequence

DEFAULT_EDITION = "pt-BR"
"""The edition whose word graph is built (``letras play``'s and ``letras serve``'s default)."""

STEPS = ("aot", "graph")


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
    path = build(where)
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


def _run(step: str) -> bool:
    """Run one step here; False (said on stderr) when it failed."""
    try:
        (prepare_aot if step == "aot" else prepare_graph)()
        return True
    except Exception:  # any failure: the programs do this work at first use instead
        _say(f"could not prepare {step} (done at first use instead):\n"
             + traceback.format_exc(limit=3))
        return False


def prepare() -> bool:
    """Every step not done yet, the graph in a child process beside the extension's build;
    True when all are done."""
    if aot_ready() and graph_ready():
        return True
    child = None
    if not graph_ready():
        child = subprocess.Popen([sys.executable, "-m", "letras.cli.prepare", "graph"],
                                 stdin=subprocess.DEVNULL)
    ok = _run("aot")
    if child is not None:
        ok = child.wait() == 0 and ok
    return ok


def main(argv: Sequence[str]) -> int:
    """``python -m letras.cli.prepare [aot|graph]``: every step, or one."""
    if argv and argv[0] not in STEPS:
        _say(f"usage: python -m letras.cli.prepare [{'|'.join(STEPS)}]")
        return 2
    ok = _run(argv[0]) if argv else prepare()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
