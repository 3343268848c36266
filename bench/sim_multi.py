"""``sim`` against two or three ``equity`` players, one setting of the sim against another on the
same games.

Run by hand::

    nice .venv/bin/python bench/sim_multi.py --players 3 --games 150 --edition pt-BR \\
        --seed 31 --variant first --out runs/p3-first.jsonl
    nice .venv/bin/python bench/sim_multi.py --players 3 ... --variant best --out runs/p3-best.jsonl
    .venv/bin/python bench/sim_multi.py --summary runs/p3-first.jsonl runs/p3-best.jsonl

Game ``i`` is game ``i`` of ``letras selfplay --players sim,equity,... --seed S``
(:func:`letras.ai.selfplay.play_game`: the same deal, the seat that starts rotating), the sim at
its default fixed work a choice, so a game replays exactly and two variants meet the same
deals. A variant is a comma-separated list: ``first`` values a rollout by the chance of
finishing first among the opponents (``rollouts.FIRST``, the default now), ``best`` by the
two-player model on the margin over the best of them (as before), ``plies=N`` looks ``N``
plies ahead (2: one round, every opponent's reply then ours). With ``--level endgame`` (the
equity player until the bag is empty, then :mod:`letras.ai.endgame.multi`),
``endgame-first`` values the endgame's candidates by the chance of finishing first
(``multi.FIRST``, the default now), ``endgame-margin`` by the margin alone. Each game appends
a JSON line to ``--out`` as it ends (a run stopped early keeps what it finished, and a run
started again skips the games already there).

``--summary`` prints, per file, the sim's win rate (ties shared, 95% Wilson interval) and mean
spread over the others; and, for every file after the first, the paired difference of win
share and spread from the first on the games both played (95% normal interval), and how many
of those games differ at all.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from letras.ai import get_player
from letras.ai import selfplay as sp
from letras.ai.endgame import multi
from letras.ai.player import Player
from letras.ai.selfplay import Estimate, play_game, word_graph
from letras.ai.sim import SimPlayer, rollouts
from letras.editions import find_edition
from letras.lexicon.kwg import WordGraph

Z95 = 1.959963984540054


def _variant(text: str) -> int:
    """Set the module switches of ``text``; return the plies."""
    plies = 2
    for part in filter(None, (p.strip() for p in text.split(","))):
        if part == "first":
            rollouts.FIRST = True
        elif part == "best":
            rollouts.FIRST = False
        elif part in ("endgame-first", "endgame-margin"):
            multi.FIRST = part == "endgame-first"
        elif part.startswith("plies="):
            plies = int(part.split("=", 1)[1])
        else:
            raise SystemExit(f"unknown setting {part!r}")
    return plies


def play(args: argparse.Namespace) -> None:
    plies = _variant(args.variant)

    def player(name: str, lexicon: WordGraph, *, seed: int | None = None) -> Player:
        if name == "sim":
            return SimPlayer(lexicon, seed=seed, plies=plies)
        return get_player(name, lexicon, seed=seed)

    sp.get_player = player  # type: ignore[attr-defined]  # the bench's own sim settings
    edition = find_edition(args.edition)
    graph = word_graph(edition, None)
    levels = [args.level] + ["equity"] * (args.players - 1)
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {json.loads(line)["number"] for line in out.read_text().splitlines() if line}
    for number in range(args.start, args.start + args.games):
        if number in done:
            continue
        began = time.perf_counter()
        game = play_game(levels, number, edition=edition, lexicon=graph, seed=args.seed)
        record = {
            "number": number, "variant": args.variant, "level": args.level, "edition": args.edition,
            "players": args.players, "seed": args.seed, "scores": list(game.scores),
            "win": game.wins()[0], "spread": game.spreads()[0], "turns": game.turns,
            "seconds": round(time.perf_counter() - began, 2),
        }
        with out.open("a") as f:
            f.write(json.dumps(record) + "\n")
        print(number, record["win"], record["spread"], record["seconds"], file=sys.stderr,
              flush=True)


def _read(path: str) -> dict[int, dict[str, Any]]:
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line]
    return {r["number"]: r for r in rows}


def _paired(xs: list[float]) -> str:
    mean = statistics.fmean(xs)
    half = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return f"{mean:+.3f} ({mean - half:+.3f} .. {mean + half:+.3f})"


def summary(paths: list[str]) -> None:
    runs = [_read(p) for p in paths]
    for path, run in zip(paths, runs, strict=True):
        games = list(run.values())
        win = Estimate.share([g["win"] for g in games])
        spread = Estimate.of([g["spread"] for g in games])
        level = games[0].get("level", "sim")
        print(f"{path}: {len(games)} games, {level} wins {100 * win.mean:.1f}% "
              f"({100 * win.low:.1f}-{100 * win.high:.1f}), spread {spread.mean:+.1f} "
              f"({spread.low:+.1f} .. {spread.high:+.1f})")
    base = runs[0]
    for path, run in zip(paths[1:], runs[1:], strict=True):
        common = sorted(set(base) & set(run))
        if not common:
            continue
        dwin = [run[n]["win"] - base[n]["win"] for n in common]
        dspread = [run[n]["spread"] - base[n]["spread"] for n in common]
        differ = sum(1 for n in common if run[n]["scores"] != base[n]["scores"])
        print(f"{path} - {paths[0]}: {len(common)} games ({differ} differ), win share "
              f"{_paired(dwin)}, spread {_paired(dspread)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=3, choices=(3, 4))
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--start", type=int, default=0, help="the first game's number")
    ap.add_argument("--edition", default="pt-BR")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--variant", default="first")
    ap.add_argument("--level", default="sim", choices=("sim", "endgame"),
                    help="the level against the equity players (endgame: equity until the "
                         "bag is empty)")
    ap.add_argument("--out")
    ap.add_argument("--summary", nargs="+", metavar="FILE")
    args = ap.parse_args()
    if args.summary:
        summary(args.summary)
    elif args.out:
        play(args)
    else:
        raise SystemExit("--out FILE, or --summary FILE...")


if __name__ == "__main__":
    main()
