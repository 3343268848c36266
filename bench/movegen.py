"""Move generation benchmark: median microseconds per position and plays per second, by category.

Run by hand: ``.venv/bin/python bench/movegen.py [en|es|pt-BR ...]``. Positions are the shared
regression set (``../shared/positions``: seeded games of top-score plays, empty board and
mid-game, racks with 0, 1 and 2 blanks) on the word lists beside them; without the shared folder
the English positions in ``tests/data`` are used. Each position is generated ``REPEAT`` times and
the least CPU time of the thread kept (less moved by other work on the machine than the wall
clock). "all" generates every play (both directions on the empty board); "best" finds the
top-scoring play; "equity" the play of highest equity with the edition's shipped leave values
(:func:`letras.movegen.top_by_equity`, the table of the rack's leaves made beforehand).

``--across`` counts the empty board's plays one way only, as the reference counts do;
``--check FILE`` writes every play found (sorted text, one position a line) so that two versions
of the generator can be compared (with ``--repeat 1``, quicker); with ``--best-only``, the best
play by score and by equity instead. ``--best-only`` skips generating every play.
``--compare`` times the best plays without the word map (:mod:`letras.movegen.wordmap`) and
with it, interleaved position by position, and counts the positions where the two disagree.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from letras.ai.leaves import shipped_leaves
from letras.ai.leaves.klv import LeaveTable
from letras.editions import Edition, find_edition
from letras.formats.cgp import parse_board, parse_rack
from letras.lexicon.kwg import graph_for_words
from letras.movegen import best_play, generate, leave_table, top_by_equity, top_plays
from letras.play import Place

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "positions"
REPEAT = 3
_REPEAT = [REPEAT]


def sources(name: str) -> tuple[Path, Path]:
    if (SHARED / f"{name}.tsv").exists():
        return SHARED / f"{name}-words.txt.xz", SHARED / f"{name}.tsv"
    return ROOT / "tests/data/en-words.txt.xz", ROOT / "tests/data/en-positions.tsv"


def timed(fn: Callable[..., object], *args: object, **kwargs: object) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(_REPEAT[0]):
        start = time.thread_time()
        result = fn(*args, **kwargs)
        best = min(best, time.thread_time() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("editions", nargs="*", default=["en", "pt-BR"])
    parser.add_argument("--across", action="store_true")
    parser.add_argument("--check", type=Path)
    parser.add_argument("--repeat", type=int, default=REPEAT)
    parser.add_argument("--best-only", action="store_true")
    parser.add_argument("--compare", action="store_true")
    args = parser.parse_args()
    if args.compare:
        compare(args.editions)
        return
    _REPEAT[0] = args.repeat
    check = args.check.open("w", encoding="utf-8") if args.check else None
    both = not args.across
    print(f"{'edition':<6} {'category':<18} {'n':>4} {'all µs':>9} {'plays/s':>11} "
          f"{'best µs':>9} {'equity µs':>9}")
    for name in args.editions:
        edition = find_edition(name)
        words, table = sources(name)
        graph = graph_for_words(edition, words)
        leaves = shipped_leaves(edition)
        rows = [line.split("\t") for line in table.read_text(encoding="utf-8").splitlines()[1:]]
        by_category: dict[str, list[tuple[float, int, float, float]]] = {}
        warm = parse_board(rows[0][1], edition), parse_rack(rows[0][2], edition)
        generate(*warm, graph)
        best_play(*warm, graph)
        for category, cgp, rack, *_ in rows:
            board, tiles = parse_board(cgp, edition), parse_rack(rack, edition)
            rack_leaves = (leaves.rack_leaves(tiles) if isinstance(leaves, LeaveTable)
                           else leave_table(tiles, leaves.value))
            seconds, plays = (0.0, []) if args.best_only else timed(
                generate, board, tiles, graph, both_directions=both)
            best_seconds, best = timed(best_play, board, tiles, graph)
            equity_seconds, top = timed(top_by_equity, board, tiles, graph, 1, rack_leaves)
            by_category.setdefault(category, []).append(
                (seconds, len(plays), best_seconds, equity_seconds)  # type: ignore[arg-type]
            )
            if check is not None and args.best_only:
                check.write(f"{name}\t{rack}\t{cgp}\t{_text(edition, best)}\t"
                            f"{_text(edition, top)}\n")
            elif check is not None:
                texts = sorted(f"{p.notation(edition)}:{s}" for p, s in plays)  # type: ignore
                digest = hashlib.sha1("\n".join(texts).encode()).hexdigest()
                check.write(f"{name}\t{rack}\t{cgp}\t{len(texts)}\t{digest}\n")
        for category, results in sorted(by_category.items()):
            median = statistics.median(r[0] for r in results) * 1e6
            rate = sum(r[1] for r in results) / max(sum(r[0] for r in results), 1e-9)
            best = statistics.median(r[2] for r in results) * 1e6
            equity = statistics.median(r[3] for r in results) * 1e6
            print(f"{name:<6} {category:<18} {len(results):>4} {median:>9.0f} {rate:>11,.0f} "
                  f"{best:>9.0f} {equity:>9.0f}", flush=True)
    if check is not None:
        check.close()


def _text(edition: Edition, found: object) -> str:
    """A best play (from :func:`best_play` or :func:`top_by_equity`) as text."""
    if isinstance(found, list):
        found = found[0] if found else None
    if not isinstance(found, tuple):
        return "-"
    place: Place = found[0]
    score: int = found[1]
    rest: tuple[float, ...] = found[2:]
    equity = f":{rest[0]:.3f}" if rest else ""
    return f"{place.notation(edition)}:{score}{equity}"


def compare(editions: list[str]) -> None:
    """Median µs per category of the best play by score and by equity, without the word map
    (before) and with it (after), each position timed both ways in turn."""
    print(f"{'edition':<6} {'category':<18} {'n':>4} {'best before':>11} {'best after':>10} "
          f"{'equity before':>13} {'equity after':>12} {'differ':>6}")
    for name in editions:
        edition = find_edition(name)
        words, table = sources(name)
        graph = graph_for_words(edition, words)
        leaves = shipped_leaves(edition)
        rows = [line.split("\t") for line in table.read_text(encoding="utf-8").splitlines()[1:]]
        by_category: dict[str, list[tuple[float, float, float, float, int]]] = {}
        warm = parse_board(rows[0][1], edition), parse_rack(rows[0][2], edition)
        top_plays(*warm, graph, 1, word_map=False)
        top_plays(*warm, graph, 1)
        for category, cgp, rack, *_ in rows:
            board, tiles = parse_board(cgp, edition), parse_rack(rack, edition)
            rack_leaves = (leaves.rack_leaves(tiles) if isinstance(leaves, LeaveTable)
                           else leave_table(tiles, leaves.value))
            times = []
            found = []
            for mapped in (False, True):
                seconds, best = timed(top_plays, board, tiles, graph, 1, word_map=mapped)
                times.append(seconds)
                found.append(_text(edition, best).rsplit(":", 1)[-1])  # the score
            for mapped in (False, True):
                seconds, top = timed(top_by_equity, board, tiles, graph, 1, rack_leaves,
                                     word_map=mapped)
                times.append(seconds)
                found.append(_text(edition, top).split(":", 1)[-1])  # score and equity
            differ = int(found[0] != found[1] or found[2] != found[3])
            by_category.setdefault(category, []).append(
                (times[0], times[1], times[2], times[3], differ))
        for category, results in sorted(by_category.items()):
            med = [statistics.median(r[i] for r in results) * 1e6 for i in range(4)]
            print(f"{name:<6} {category:<18} {len(results):>4} {med[0]:>11.0f} {med[1]:>10.0f} "
                  f"{med[2]:>13.0f} {med[3]:>12.0f} {sum(r[4] for r in results):>6}",
                  flush=True)


if __name__ == "__main__":
    main()
