"""The cost of the shape check of a word graph at load (``letras.lexicon.structure``).

For each shipped lexicon (built into the cache first if need be): the median wall time and the
least CPU time of 9 runs of the check alone, and of a whole load of the graph from a .kbwg file
(read, every check). Run by hand:

    .venv/bin/python bench/graph_check.py [LEXICON ...]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from functools import partial
from importlib import resources
from pathlib import Path

from letras.editions import find_edition
from letras.lexicon import shipped_lexicons
from letras.lexicon.kwg import WordGraph, graph_for_words
from letras.lexicon.structure import graph_shape

RUNS = 9


def seconds(call: object) -> tuple[float, float]:
    """The median wall time of RUNS calls, and their least CPU time (the check is one thread:
    its CPU time is its work, which a busy machine does not stretch as it does the wall)."""
    assert callable(call)
    wall, cpu = [], []
    for _ in range(RUNS):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), min(cpu)


def main(names: list[str]) -> None:
    shipped = shipped_lexicons()
    graph_shape(WordGraph.build(find_edition("en"), ["AB"]).nodes)  # compile or load the kernel
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| lexicon | nodes | words | depth (DAWG/GADDAG) | check ms wall (CPU) "
          "| whole load ms wall (CPU) | check ns/node (CPU) |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for name in names or list(shipped):
        entry = shipped[name]
        edition = find_edition(entry.edition)
        with resources.as_file(entry.words) as path:
            graph = graph_for_words(edition, path, name=name)
        cached = Path(tempfile.mkdtemp()) / f"{name}.kbwg"
        graph.save(cached)
        shape = graph_shape(graph.nodes)
        check = seconds(partial(graph_shape, graph.nodes))
        load = seconds(partial(WordGraph.load, cached, edition))
        print(f"| {name} | {len(graph.nodes):,} | {shape.words[0]:,} | "
              f"{shape.depths[0]}/{shape.depths[1]} | {check[0] * 1e3:.0f} ({check[1] * 1e3:.0f}) "
              f"| {load[0] * 1e3:.0f} ({load[1] * 1e3:.0f}) "
              f"| {check[1] / len(graph.nodes) * 1e9:.0f} |")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
