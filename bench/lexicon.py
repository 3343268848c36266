"""Lexicon benchmark: building each shipped word graph, loading it from the cache, checking words.

Run by hand: ``.venv/bin/python bench/lexicon.py [EDITION ...]``. Builds go to a fresh cache
directory so that every build is measured; peak memory is the build process's own (each build
runs in a child process). Results go into bench/README.md.
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import json, resource, sys, time
from letras.editions import find_edition
from letras.lexicon import shipped_lexicons
from letras.lexicon.kwg import graph_for_words
from importlib import resources
name = sys.argv[1]
entry = shipped_lexicons()[name]
edition = find_edition(entry.edition)
start, cpu = time.perf_counter(), time.process_time()
with resources.as_file(entry.words) as path:
    graph = graph_for_words(edition, path, name=name)
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "cpu": time.process_time() - cpu,
                  "nodes": int(len(graph.nodes)), "words": len(graph),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_child(name: str, cache: str) -> dict[str, float]:
    env = dict(os.environ, LETRAS_CACHE=cache)
    out = subprocess.run([sys.executable, "-c", CHILD, name], env=env, check=True,
                         capture_output=True, text=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    from letras.editions import find_edition
    from letras.lexicon import shipped_lexicons
    from letras.lexicon.kwg import WordGraph

    names = sys.argv[1:] or list(shipped_lexicons())
    print(f"{'lexicon':<11} {'words':>10} {'nodes':>10} {'build s':>8} {'CPU s':>6} "
          f"{'build MB':>9} {'load s':>7} {'check µs':>9}")
    with tempfile.TemporaryDirectory() as cache:
        run_child(names[0], cache)  # warm numba's compile cache, not measured
        for f in os.listdir(cache):
            os.remove(os.path.join(cache, f))
        for name in names:
            built = run_child(name, cache)
            entry = shipped_lexicons()[name]
            edition = find_edition(entry.edition)
            (path,) = [os.path.join(cache, f) for f in os.listdir(cache)
                       if f.startswith(entry.edition + "-") and f.endswith(".kbwg")
                       and os.path.getmtime(os.path.join(cache, f)) >= time.time() - 600][-1:]
            start = time.perf_counter()
            graph = WordGraph.load(path, edition)
            load = time.perf_counter() - start
            words = [edition.tiles.word(w) for _, w in zip(range(200000), graph.words(),
                                                           strict=False)]
            sample = random.Random(1).sample(words, min(20000, len(words)))
            assert "X" not in graph  # compiles/warms the lookup
            start = time.perf_counter()
            hits = sum(1 for w in sample if w in graph)
            check = (time.perf_counter() - start) / len(sample) * 1e6
            assert hits == len(sample)
            print(f"{name:<11} {built['words']:>10,} {built['nodes']:>10,} "
                  f"{built['seconds']:>8.1f} {built['cpu']:>6.1f} {built['peak_mb']:>9.0f} "
                  f"{load:>7.3f} {check:>9.2f}",
                  flush=True)
            os.remove(path)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"(this process: peak {peak:.0f} MB)")


if __name__ == "__main__":
    main()
