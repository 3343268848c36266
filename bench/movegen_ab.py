"""Two versions of the move generator timed side by side, position by position.

Run by hand::

    LETRAS_AOT=0 nice .venv/bin/python bench/movegen_ab.py en pt-BR \\
        --before /tmp/main/src --after src

Each side is a process of its own (``PYTHONPATH`` set to its source tree, e.g. ``main`` from
``git archive`` into /tmp), answering one position at a time; they take turns on every
shared regression position (``../shared/positions``) of the categories asked: every play
(``generate``, one direction on the empty board), the best by score (``top_plays(n=1)``)
and the best by equity (``top_by_equity(n=1)``, the shipped leaves), least thread CPU time of
``--repeat`` runs. Printed per category: the median µs of each side and the median of the
per-position ratios after / before. Each side also hashes every play it found in generation
order (and the best plays): the two digests must agree (``differ`` counts the positions where
they do not).

A tree whose word map's cache layout differs (``wordmap.VERSION``) rewrites the cache files of
the graphs it reads (and removes the other layout's): set ``LETRAS_CACHE`` to a copy.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SHARED = Path(__file__).resolve().parents[2] / "shared" / "positions"


def worker(edition_name: str, repeat: int) -> None:
    """Answer position numbers on stdin with times and digests on stdout."""
    from letras.ai.leaves import shipped_leaves
    from letras.ai.leaves.klv import LeaveTable
    from letras.editions import find_edition
    from letras.formats.cgp import parse_board, parse_rack
    from letras.lexicon.kwg import graph_for_words
    from letras.movegen import generate, leave_table, top_by_equity, top_plays

    edition = find_edition(edition_name)
    graph = graph_for_words(edition, SHARED / f"{edition_name}-words.txt.xz")
    leaves = shipped_leaves(edition)
    rows = [line.split("\t") for line in
            (SHARED / f"{edition_name}.tsv").read_text(encoding="utf-8").splitlines()[1:]]

    def timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[float, Any]:
        best, result = float("inf"), None
        for _ in range(repeat):
            start = time.thread_time()
            result = fn(*args, **kwargs)
            best = min(best, time.thread_time() - start)
        return best, result

    print("ready", flush=True)
    for line in sys.stdin:
        _, cgp, rack, *_ = rows[int(line)]
        board, tiles = parse_board(cgp, edition), parse_rack(rack, edition)
        rack_leaves = (leaves.rack_leaves(tiles) if isinstance(leaves, LeaveTable)
                       else leave_table(tiles, leaves.value))
        seconds, plays = timed(generate, board, tiles, graph, both_directions=False)
        score_seconds, best = timed(top_plays, board, tiles, graph, 1)
        eq_seconds, top = timed(top_by_equity, board, tiles, graph, 1, rack_leaves)
        digest = hashlib.sha1(plays.meta.tobytes() + plays.tiles.tobytes()
                              + plays.values.tobytes() + repr((best, top)).encode()).hexdigest()
        print(json.dumps([seconds, score_seconds, eq_seconds, digest]), flush=True)


def start(source: str, edition: str, repeat: int) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(Path(source).resolve()))
    process = subprocess.Popen(
        [sys.executable, __file__, "--worker", edition, "--repeat", str(repeat)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    if process.stdout.readline().strip() != "ready":
        raise SystemExit(f"the worker of {source} did not start")
    return process


def ask(process: subprocess.Popen[str], index: int) -> list[Any]:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(f"{index}\n")
    process.stdin.flush()
    answer: list[Any] = json.loads(process.stdout.readline())
    return answer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("editions", nargs="*", default=["en", "pt-BR"])
    parser.add_argument("--before", default="src")
    parser.add_argument("--after", default="src")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--categories", nargs="*", default=None)
    parser.add_argument("--step", type=int, default=1, help="every Nth position only")
    parser.add_argument("--worker", default="")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.repeat)
        return
    print(f"{'edition':<6} {'category':<18} {'n':>4} {'all before':>10} {'all after':>10} "
          f"{'ratio':>6} {'best before':>11} {'best after':>10} {'ratio':>6} "
          f"{'eq before':>10} {'eq after':>10} {'ratio':>6} {'differ':>6}",
          flush=True)
    for edition in args.editions:
        rows = [line.split("\t", 1)[0] for line in
                (SHARED / f"{edition}.tsv").read_text(encoding="utf-8").splitlines()[1:]]
        sides = [start(args.before, edition, args.repeat),
                 start(args.after, edition, args.repeat)]
        results: dict[str, list[tuple[list[Any], list[Any]]]] = {}
        for i, category in enumerate(rows):
            if i % args.step or (args.categories and category not in args.categories):
                continue
            if i % 2:
                after = ask(sides[1], i)
                before = ask(sides[0], i)
            else:
                before = ask(sides[0], i)
                after = ask(sides[1], i)
            results.setdefault(category, []).append((before, after))
        for side in sides:
            assert side.stdin is not None
            side.stdin.close()
            side.wait()
        for category, pairs in sorted(results.items()):
            cells = []
            for k in (0, 1, 2):
                b = statistics.median(p[0][k] for p in pairs) * 1e6
                a = statistics.median(p[1][k] for p in pairs) * 1e6
                r = statistics.median(p[1][k] / max(p[0][k], 1e-9) for p in pairs)
                cells.append(f"{b:>10.1f} {a:>10.1f} {r:>6.3f}")
            differ = sum(p[0][3] != p[1][3] for p in pairs)
            print(f"{edition:<6} {category:<18} {len(pairs):>4} {cells[0]} {cells[1]} {cells[2]} "
                  f"{differ:>6}", flush=True)


if __name__ == "__main__":
    main()
