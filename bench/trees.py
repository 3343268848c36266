"""The best plays of two source trees side by side: median µs per category, taking turns.

Run by hand: ``nice .venv/bin/python bench/trees.py OTHER_SRC [THIS_SRC] [--editions en pt-BR]
[--categories mid_1blank ...] [--step N]``. ``OTHER_SRC`` is the ``src`` folder of another
version of letras (``git archive main | tar -x -C /tmp/main`` gives ``/tmp/main/src``);
``THIS_SRC`` defaults to this checkout's. Each tree answers in a process of its own
(``PYTHONPATH`` set to it, ``LETRAS_AOT=0``: the JIT kernels of both), one shared regression
position at a time, the two taking turns (which one goes first alternates). For each position,
``top_plays(n=1)`` and ``top_by_equity(n=1)`` with the shipped leaves, each the least thread
CPU time of :data:`REPEAT` runs. Prints per category the medians, the ratio of the equity
medians (this tree over the other), and counts the positions where the best score, or the
best equity and its score, differ (a value differing is a bug in one of them) and those
where only the play differs (a tie broken another way).

A tree whose word map's cache layout differs (``wordmap.VERSION``) rewrites the cache files
of the graphs it reads (and removes the other layout's): set ``LETRAS_CACHE`` to a copy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "positions"
REPEAT = 3

WORKER = r"""
import sys, time
from pathlib import Path
from letras.ai.leaves import shipped_leaves
from letras.ai.leaves.klv import LeaveTable
from letras.editions import find_edition
from letras.formats.cgp import parse_board, parse_rack
from letras.lexicon.kwg import graph_for_words
from letras.movegen import leave_table, top_by_equity, top_plays

SHARED, REPEAT = Path(sys.argv[1]), int(sys.argv[2])
loaded = {}


def text(edition, found):
    if not found:
        return "-"
    place, score, *rest = found[0]
    return f"{place.notation(edition)}:{score}" + (f":{rest[0]:.3f}" if rest else "")


def timed(fn, *args):
    best, result = float("inf"), None
    for _ in range(REPEAT):
        start = time.thread_time()
        result = fn(*args)
        best = min(best, time.thread_time() - start)
    return best, result


for line in sys.stdin:
    name, index = line.split()
    if name not in loaded:
        edition = find_edition(name)
        graph = graph_for_words(edition, SHARED / f"{name}-words.txt.xz")
        rows = (SHARED / f"{name}.tsv").read_text(encoding="utf-8").splitlines()[1:]
        loaded[name] = edition, graph, shipped_leaves(edition), [r.split("\t") for r in rows]
    edition, graph, leaves, rows = loaded[name]
    board = parse_board(rows[int(index)][1], edition)
    tiles = parse_rack(rows[int(index)][2], edition)
    rack_leaves = (leaves.rack_leaves(tiles) if isinstance(leaves, LeaveTable)
                   else leave_table(tiles, leaves.value))
    by_score, best = timed(top_plays, board, tiles, graph, 1)
    by_equity, top = timed(top_by_equity, board, tiles, graph, 1, rack_leaves)
    print(f"{by_score * 1e6:.1f}\t{by_equity * 1e6:.1f}\t{text(edition, best)}\t"
          f"{text(edition, top)}", flush=True)
"""


class Tree:
    """A worker process answering for one source tree."""

    def __init__(self, src: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(src), "LETRAS_AOT": "0"}
        self.process = subprocess.Popen(
            ["nice", sys.executable, "-c", WORKER, str(SHARED), str(REPEAT)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def ask(self, name: str, index: int) -> list[str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{name} {index}\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().rstrip("\n").split("\t")

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("other", type=Path)
    parser.add_argument("this", type=Path, nargs="?", default=ROOT / "src")
    parser.add_argument("--editions", nargs="+", default=["en", "pt-BR"])
    parser.add_argument("--categories", nargs="+")
    parser.add_argument("--step", type=int, default=1, help="every Nth position")
    args = parser.parse_args()
    if not SHARED.exists():
        sys.exit(f"no shared positions in {SHARED}")
    trees = {"other": Tree(args.other), "this": Tree(args.this)}
    for name in args.editions:
        rows = [line.split("\t") for line in
                (SHARED / f"{name}.tsv").read_text(encoding="utf-8").splitlines()[1:]]
        for tree in trees.values():
            tree.ask(name, 0)  # compile and warm
        times: dict[str, list[tuple[float, ...]]] = {}
        values_differ = plays_differ = 0
        for i, row in enumerate(rows):
            if i % args.step or (args.categories and row[0] not in args.categories):
                continue
            order = ["other", "this"] if i % 2 == 0 else ["this", "other"]
            got = {key: trees[key].ask(name, i) for key in order}
            other, this = got["other"], got["this"]
            times.setdefault(row[0], []).append(
                (float(other[0]), float(this[0]), float(other[1]), float(this[1])))
            if (other[2].rsplit(":", 1)[-1] != this[2].rsplit(":", 1)[-1]
                    or other[3].split(":", 1)[-1] != this[3].split(":", 1)[-1]):
                values_differ += 1
                print(f"differ: {name} {i} {other[2:]} {this[2:]}", flush=True)
            elif other[2:] != this[2:]:
                plays_differ += 1
        print(f"{name}: {sum(len(t) for t in times.values())} positions, best values differ "
              f"{values_differ}, only the play differs {plays_differ}")
        print(f"{'category':<18} {'n':>4} {'score other':>11} {'score this':>10} "
              f"{'equity other':>12} {'equity this':>11} {'ratio':>6}")
        for category, rows_of in sorted(times.items()):
            med = [statistics.median(r[j] for r in rows_of) for j in range(4)]
            print(f"{category:<18} {len(rows_of):>4} {med[0]:>11.0f} {med[1]:>10.0f} "
                  f"{med[2]:>12.0f} {med[3]:>11.0f} {med[3] / med[2]:>6.2f}", flush=True)
    for tree in trees.values():
        tree.close()


if __name__ == "__main__":
    main()
