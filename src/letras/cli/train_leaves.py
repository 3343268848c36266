"""``letras train-leaves --edition E --games N -o FILE.klv``: learn leave values by self-play.

Plays ``N`` games of ``equity`` against itself over a few rounds, fits a value to every leave
of 1-6 tiles the edition's tiles allow (:mod:`letras.ai.leaves.training`), and writes them as a
KLV2 leave file (:mod:`letras.ai.leaves.klv`; with ``--int16`` the older KLV, half the size). A
progress bar runs on stderr; the summary goes to stdout. ``--workers K`` plays in K local
processes and ``--ray auto|ADDRESS`` on a Ray cluster (:mod:`letras.ai.workers`); the values
written do not change.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from letras.cli.progress import ProgressBar
from letras.cli.selfplay import add_backend_arguments
from letras.errors import RuleError
from letras.files import check_output

if TYPE_CHECKING:
    from letras.ai.leaves.training import TrainingResult

SAMPLES = 3
"""How many of the best and of the worst 2-tile leaves the summary shows."""


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "train-leaves",
        help="learn leave values by self-play and write a KLV leave file",
        description="Play games of the equity player against itself, fit a value to every "
        "leave of 1-6 tiles (superleaves) and write them as a KLV2 file, the leave format of "
        "wolges. The games are split over --generations rounds; each round plays with the "
        "values fitted after the one before (the first with the heuristic, or --start).",
    )
    p.add_argument("--edition", default="pt-BR", help="the edition (pt-BR, es, it, en)")
    p.add_argument("--games", type=int, required=True, metavar="N",
                   help="games to play in all")
    p.add_argument("--generations", type=int, default=4, metavar="G",
                   help="rounds of play and fit (4)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the training seed (0)")
    add_backend_arguments(p)
    p.add_argument("--start", type=Path, metavar="FILE.klv",
                   help="play the first round with these leave values")
    p.add_argument("--lexicon", metavar="LEXICON",
                   help="a shipped lexicon's name, a word list or a .kwg graph "
                        "(default: the edition's own)")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="FILE.klv",
                   help="the leave file to write")
    p.add_argument("--int16", action="store_true",
                   help="write the older KLV format: values in 1/256 of a point, half the size")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from letras.ai.leaves.klv import read_klv, write_klv
    from letras.ai.leaves.training import train
    from letras.ai.workers import import_ray
    from letras.editions import find_edition

    if args.games < 1:
        raise RuleError(f"--games needs a number, 1 or more (not {args.games})")
    if args.generations < 1 or (args.workers is not None and args.workers < 1):
        raise RuleError("--generations and --workers need a number, 1 or more")
    edition = find_edition(args.edition)
    out: Path = args.output
    check_output(out, "leave file")  # before hours of play
    if args.ray is not None:
        import_ray()  # refused now if Ray is missing
    start = read_klv(args.start, edition) if args.start is not None else None
    bar = ProgressBar()
    rounds = min(args.generations, args.games)

    def progress(done: int, total: int, generation: int) -> None:
        bar(done, total, f"generation {generation}/{rounds}")

    result = train(edition, args.games, generations=args.generations, seed=args.seed,
                   workers=args.workers, start=start, lexicon=args.lexicon, progress=progress,
                   ray=args.ray)
    bar.close()
    write_klv(out, result.table, int16=args.int16)
    print(_summary(result, out, args.int16))
    return 0


def _summary(result: TrainingResult, out: Path, int16: bool = False) -> str:
    import numpy as np

    table, space = result.table, result.space
    tiles = table.edition.tiles
    last = result.rounds[-1]
    lines = [
        f"{table.edition.name}: {result.games} games in {len(result.rounds)} generations, "
        f"seed {result.seed}, {result.workers} worker{'s' if result.workers > 1 else ''}, "
        f"{result.seconds:.1f} s ({result.games / max(result.seconds, 1e-9):.2f} games/s)",
        f"turns recorded: {result.records:,}; leaves seen: {result.leaves_seen:,} of "
        f"{len(space) - 1:,}",
        f"fit: a record's spread {last.spread:.1f} points; a leave's own mean outweighs the "
        f"model after {last.prior:.0f} records",
        f"wrote {len(table):,} leave values to {out}"
        f"{' (KLV, 16-bit values)' if int16 else ''}",
    ]
    twos = np.flatnonzero(space.sizes == 2)
    twos = twos[np.argsort(-result.values[twos], kind="stable")].tolist()

    def show(rows: list[int]) -> str:
        return ", ".join(
            f"{tiles.format(space.leave(i), rack=True)} {result.values[i]:+.1f}" for i in rows
        )

    lines.append(f"best 2-tile leaves: {show(twos[:SAMPLES])}")
    lines.append(f"worst 2-tile leaves: {show(twos[-SAMPLES:][::-1])}")
    return "\n".join(lines)
