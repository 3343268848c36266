"""Move generation benchmark: median microseconds per position and plays per second, by category.

Run by hand: ``.venv/bin/python bench/movegen.py [en|es|pt-BR ...]``. Positions are the shared
regression set (``../shared/positions``: seeded games of top-score plays, empty board and
mid-game, racks with 0, 1 and 2 blanks) on the word lists beside them; without the shared folder
the English positions in ``tests/data`` are used. Each position is generated ``REPEAT`` times and
the best time kept. "all" generates every play (both directions on the empty board); "best"
finds the top-scoring play.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from letras.editions import find_edition
from letras.formats.cgp import parse_board, parse_rack
from letras.lexicon.kwg import graph_for_words
from letras.movegen import best_play, generate

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "positions"
REPEAT = 3


def sources(name: str) -> tuple[Path, Path]:
    if (SHARED / f"{name}.tsv").exists():
        return SHARED / f"{name}-words.txt.xz", SHARED / f"{name}.tsv"
    return ROOT / "tests/data/en-words.txt.xz", ROOT / "tests/data/en-positions.tsv"


def timed(fn: object, *args: object) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(REPEAT):
        start = time.perf_counter()
        result = fn(*args)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    names = sys.argv[1:] or ["en", "pt-BR"]
    print(f"{'edition':<6} {'category':<18} {'n':>4} {'all µs':>9} {'plays/s':>11} "
          f"{'best µs':>9}")
    for name in names:
        edition = find_edition(name)
        words, table = sources(name)
        graph = graph_for_words(edition, words)
        rows = [line.split("\t") for line in table.read_text(encoding="utf-8").splitlines()[1:]]
        by_category: dict[str, list[tuple[float, int, float]]] = {}
        warm = parse_board(rows[0][1], edition), parse_rack(rows[0][2], edition)
        generate(*warm, graph)
        best_play(*warm, graph)
        for category, cgp, rack, *_ in rows:
            board, tiles = parse_board(cgp, edition), parse_rack(rack, edition)
            seconds, plays = timed(generate, board, tiles, graph)
            best_seconds, _ = timed(best_play, board, tiles, graph)
            by_category.setdefault(category, []).append(
                (seconds, len(plays), best_seconds)  # type: ignore[arg-type]
            )
        for category, results in sorted(by_category.items()):
            median = statistics.median(r[0] for r in results) * 1e6
            rate = sum(r[1] for r in results) / sum(r[0] for r in results)
            best = statistics.median(r[2] for r in results) * 1e6
            print(f"{name:<6} {category:<18} {len(results):>4} {median:>9.0f} {rate:>11,.0f} "
                  f"{best:>9.0f}")


if __name__ == "__main__":
    main()
