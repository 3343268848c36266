"""The packed word graph in memory: its layout and its pages, timed side by side in one process.

Run by hand: ``LETRAS_AOT=0 nice .venv/bin/python bench/graph_memory.py [en|es|pt-BR ...]``.
The same compiled search is handed differently placed copies of the same edition's packed
graph (:mod:`letras.movegen.layout`), taking turns position by position on the shared
regression positions (``../shared/positions``): every play (``generate``, one direction on
the empty board) and the best play by equity (``top_by_equity(n=1)``, the shipped leaves).
Least thread CPU time of ``--repeat`` runs per position and variant, median per category, µs.
The variants:

- ``file``: the packed graph as the move generator has it (the cache file, mapped);
- ``copy``: a copy in ordinary anonymous memory (4 KB pages);
- ``huge``: a copy in a buffer of transparent huge pages (:func:`layout.huge_copy`);
- ``bfs``: the graph renumbered breadth first (:func:`layout.breadth_first`), ordinary pages;
- ``bfs+huge``: both.

Every variant must give the same plays in the same order: a digest of every play of every
position (all plays in generation order, and the best by equity) is compared with ``file``'s
and a mismatch is printed.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from letras.ai.leaves import shipped_leaves
from letras.ai.leaves.klv import LeaveTable
from letras.editions import find_edition
from letras.formats.cgp import parse_board, parse_rack
from letras.lexicon.kwg import graph_for_words
from letras.movegen import generate, leave_table, top_by_equity
from letras.movegen import graph as packed_graphs
from letras.movegen import layout
from letras.movegen._kernels import packed_graph

SHARED = Path(__file__).resolve().parents[2] / "shared" / "positions"
VARIANTS = ("file", "copy", "huge", "bfs", "bfs+huge")


def variants(graph: Any, wide: bool, names: list[str]) -> dict[str, Any]:
    base = packed_graphs.packed(graph)
    renumbered = None
    made: dict[str, Any] = {}
    for name in names:
        if name.startswith("bfs") and renumbered is None:
            renumbered = packed_graph(layout.breadth_first(graph.nodes), wide)
        source = renumbered if name.startswith("bfs") else base
        if name == "file":
            made[name] = base
        elif name.endswith("huge"):
            made[name] = layout.huge_copy(source)
        else:
            made[name] = np.array(source, copy=True)
    return made


def timed(repeat: int, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.thread_time()
        result = fn(*args, **kwargs)
        best = min(best, time.thread_time() - start)
    return best, result


def digest_plays(plays: Any) -> bytes:
    return hashlib.sha1(plays.meta.tobytes() + plays.tiles.tobytes()
                        + plays.values.tobytes()).digest()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("editions", nargs="*", default=["en", "pt-BR"])
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--categories", nargs="*", default=None)
    args = parser.parse_args()
    names: list[str] = args.variants
    for edition_name in args.editions:
        edition = find_edition(edition_name)
        graph = graph_for_words(edition, SHARED / f"{edition_name}-words.txt.xz")
        wide = len(edition.tiles.labels) > 32
        made = variants(graph, wide, names)
        for name, array in made.items():
            huge = layout.huge_pages_kb(array)
            print(f"{edition_name} {name}: {array.nbytes / 1e6:.1f} MB, "
                  f"AnonHugePages {huge} kB", flush=True)
        leaves = shipped_leaves(edition)
        rows = [line.split("\t") for line in
                (SHARED / f"{edition_name}.tsv").read_text(encoding="utf-8").splitlines()[1:]]
        if args.categories:
            rows = [r for r in rows if r[0] in args.categories]
        times: dict[tuple[str, str, str], list[float]] = {}
        digests = {name: hashlib.sha1() for name in names}
        for i, (category, cgp, rack, *_) in enumerate(rows):
            board, tiles = parse_board(cgp, edition), parse_rack(rack, edition)
            rack_leaves = (leaves.rack_leaves(tiles) if isinstance(leaves, LeaveTable)
                           else leave_table(tiles, leaves.value))
            turn = names[i % len(names):] + names[: i % len(names)]
            for name in turn:
                packed_graphs._PACKED[graph] = made[name]
                seconds, plays = timed(args.repeat, generate, board, tiles, graph,
                                       both_directions=False)
                times.setdefault((category, name, "all"), []).append(seconds)
                eq_seconds, top = timed(args.repeat, top_by_equity, board, tiles, graph, 1,
                                        rack_leaves)
                times.setdefault((category, name, "equity"), []).append(eq_seconds)
                digests[name].update(digest_plays(plays) + repr(top).encode())
        print(f"{'edition':<6} {'category':<18} {'n':>4} "
              + " ".join(f"{n + ' all':>13}" for n in names) + " "
              + " ".join(f"{n + ' eq':>12}" for n in names), flush=True)
        for category in sorted({key[0] for key in times}):
            n = len(times[(category, names[0], "all")])
            cells = [statistics.median(times[(category, name, kind)]) * 1e6
                     for kind in ("all", "equity") for name in names]
            print(f"{edition_name:<6} {category:<18} {n:>4} "
                  + " ".join(f"{c:>13.1f}" for c in cells[: len(names)]) + " "
                  + " ".join(f"{c:>12.1f}" for c in cells[len(names):]), flush=True)
        first = digests[names[0]].hexdigest()
        for name in names:
            same = digests[name].hexdigest() == first
            print(f"{edition_name} digest {name}: {digests[name].hexdigest()[:16]}"
                  f"{'' if same else '  DIFFERS'}", flush=True)
        packed_graphs._PACKED.pop(graph, None)


if __name__ == "__main__":
    main()
