"""The packed word graph in memory: its layout and its pages, timed side by side in one process.

Run by hand: ``LETRAS_AOT=0 nice .venv/bin/python bench/graph_memory.py [en|es|pt-BR ...]``.
The same compiled search is handed differently placed copies of the same edition's packed
graph, taking turns position by position on the shared regression positions
(``../shared/positions``): every play (``generate``, one direction on the empty board) and the
best play by equity (``top_by_equity(n=1)``, the shipped leaves). Least thread CPU time of
``--repeat`` runs per position and variant, median per category (µs), then the median of the
per-position ratios to the first variant. The variants:

- ``built``: the lists in the order the builder made them (:func:`_kernels.pack` of the
  graph's nodes: the layout before the lists were renumbered);
- ``bfs``: the packed graph as the move generator has it (:func:`_kernels.packed_graph`: the
  lists breadth first from the roots), the cache file mapped;
- ``dfs``: the lists in depth-first preorder from the roots (:func:`depth_first`);
- ``huge``, ``bfs+huge``: ``built`` / ``bfs`` copied into a buffer of transparent huge pages
  (:func:`huge_copy`; Linux, THP ``always`` or ``madvise``), AnonHugePages printed.

Every variant must give the same plays in the same order: a digest of every play of every
position (all plays in generation order, and the best by equity) is compared with the first
variant's and a mismatch is printed.
"""

from __future__ import annotations

import argparse
import hashlib
import mmap
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from letras.ai.leaves import shipped_leaves
from letras.ai.leaves.klv import LeaveTable
from letras.editions import find_edition
from letras.formats.cgp import parse_board, parse_rack
from letras.lexicon.kwg import graph_for_words
from letras.movegen import generate, layout, leave_table, top_by_equity
from letras.movegen import graph as packed_graphs
from letras.movegen._kernels import pack

SHARED = Path(__file__).resolve().parents[2] / "shared" / "positions"
VARIANTS = ("built", "bfs", "dfs", "huge", "bfs+huge")
HUGE_PAGE = 2 << 20


@njit(cache=True)
def depth_first(nodes: Any) -> Any:  # pragma: no cover - compiled
    """The graph with its arc lists in depth-first preorder from the GADDAG's root list then
    the DAWG's (each list's targets in the order of its arcs)."""
    start, block, lists = layout.arc_lists(nodes)
    order = np.zeros(lists, np.int64)
    seen = np.zeros(lists, np.bool_)
    stack = np.zeros(len(nodes) + 2, np.int64)
    top = 0
    for root in (0, 1):
        arc = np.int64(nodes[root] >> np.uint32(layout.ARC_SHIFT))
        if arc >= 2:
            stack[top] = block[arc]
            top += 1
    laid = 0
    while top > 0:
        top -= 1
        b = stack[top]
        if seen[b]:
            continue
        seen[b] = True
        order[laid] = b
        laid += 1
        for q in range(start[b + 1] - 1, start[b] - 1, -1):
            arc = np.int64(nodes[q] >> np.uint32(layout.ARC_SHIFT))
            if arc >= 2 and not seen[block[arc]]:
                stack[top] = block[arc]
                top += 1
    for b in range(lists):
        if not seen[b]:
            order[laid] = b
            laid += 1
    return layout.moved(nodes, start, order)


def variants(graph: Any, wide: bool, names: list[str]) -> dict[str, Any]:
    made: dict[str, Any] = {}
    built = pack(graph.nodes, wide)
    for name in names:
        if name.startswith("bfs"):
            source = packed_graphs.packed(graph)
        elif name == "dfs":
            source = pack(depth_first(graph.nodes), wide)
        else:
            source = built
        made[name] = huge_copy(source) if name.endswith("huge") else source
    return made


def huge_copy(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A writable, C-ordered copy of ``array`` in anonymous memory that starts on a 2 MB
    boundary and is advised to be backed by transparent huge pages before any of it is
    touched (the pages are then made huge as they are first written, when the system's THP
    setting is ``always`` or ``madvise``). Without ``madvise`` (not Linux) or when the system
    refuses it, the same copy in ordinary pages."""
    size = max(array.nbytes, 1)
    length = -(-size // HUGE_PAGE) * HUGE_PAGE
    buffer = _anonymous(length + HUGE_PAGE)
    address = np.frombuffer(buffer, np.uint8, 1).ctypes.data
    offset = -address % HUGE_PAGE
    _advise_huge(buffer, offset, length)
    copy: npt.NDArray[Any] = np.frombuffer(buffer, array.dtype, array.size, offset)
    copy = copy.reshape(array.shape)
    copy[...] = array
    return copy


def _anonymous(length: int) -> mmap.mmap:
    """``length`` bytes of private anonymous memory (shared anonymous memory, ``mmap``'s
    default, takes huge pages by another setting, ``shmem_enabled``, mostly off)."""
    private: Any = getattr(mmap, "MAP_PRIVATE", None)
    anonymous: Any = getattr(mmap, "MAP_ANONYMOUS", None)
    if private is None or anonymous is None:  # Windows: anonymous memory as it comes
        return mmap.mmap(-1, length)
    return mmap.mmap(-1, length, flags=private | anonymous)


def _advise_huge(buffer: mmap.mmap, offset: int, length: int) -> bool:
    """Ask for huge pages over ``length`` bytes of ``buffer`` from ``offset``; whether the
    system took the advice."""
    advice: Any = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is None or not hasattr(buffer, "madvise"):
        return False
    try:
        buffer.madvise(advice, offset, length)
    except OSError:  # THP compiled out or refused: ordinary pages
        return False
    return True


def huge_pages_kb(array: npt.NDArray[Any]) -> int | None:
    """How many kB of the mapping holding ``array`` are huge pages now (``AnonHugePages`` of
    ``/proc/self/smaps``); None where that is not known (not Linux)."""
    address = array.ctypes.data
    try:
        with open("/proc/self/smaps", encoding="ascii", errors="replace") as smaps:
            inside = False
            for line in smaps:
                head = line.split(" ", 1)[0]
                if "-" in head and ":" not in head:
                    low, high = (int(x, 16) for x in head.split("-"))
                    inside = low <= address < high
                elif inside and line.startswith("AnonHugePages:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


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
            huge = huge_pages_kb(array)
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
        print(f"{'':<6} {'ratio to ' + names[0]:<18} {'':>4} "
              + " ".join(f"{n + ' all':>13}" for n in names) + " "
              + " ".join(f"{n + ' eq':>12}" for n in names), flush=True)
        for category in sorted({key[0] for key in times}):
            cells = [statistics.median(
                t / max(b, 1e-9) for t, b in zip(times[(category, name, kind)],
                                                  times[(category, names[0], kind)],
                                                  strict=True))
                for kind in ("all", "equity") for name in names]
            print(f"{edition_name:<6} {category:<18} {'':>4} "
                  + " ".join(f"{c:>13.3f}" for c in cells[: len(names)]) + " "
                  + " ".join(f"{c:>12.3f}" for c in cells[len(names):]), flush=True)
        first = digests[names[0]].hexdigest()
        for name in names:
            same = digests[name].hexdigest() == first
            print(f"{edition_name} digest {name}: {digests[name].hexdigest()[:16]}"
                  f"{'' if same else '  DIFFERS'}", flush=True)
        packed_graphs._PACKED.pop(graph, None)


if __name__ == "__main__":
    main()
