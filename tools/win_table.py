"""Learn the win tables of ``letras.analysis.winchance`` from equity-vs-equity self-play.

Run from the repository root (about two minutes an edition on one shared core)::

    .venv/bin/python tools/win_table.py                      # every edition, 2,000 games each
    .venv/bin/python tools/win_table.py --edition en --games 400 --seed 5

For every action chosen in a game, the position it was chosen from gives one sample: the
spread of the player to move (their score minus the opponent's), the tiles they cannot see
(bag and opponent's rack) and whether they won the game (1, a tie 0.5, 0). The samples are
grouped by unseen-tiles bucket (1-7, 8-14, ...: :data:`~letras.analysis.winchance.TILES_PER_BUCKET`)
and in each bucket a logistic curve ``1 / (1 + exp(-(a + b * spread)))`` is fitted by maximum
likelihood (Newton's method, a small ridge). The slopes ``b`` are then made to fall as more
tiles are unseen (weighted pool-adjacent-violators: the spread means less with more game to
come), the intercepts ``a`` (the worth of having the move) are smoothed over neighbouring
buckets, and the curves are written at spreads -300 to +300 in steps of 10. Every row rises
with the spread. The games are seeded (``letras.ai.selfplay.game_seed``), so a run with the
same arguments writes the same file. See ``src/letras/analysis/data/README.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from letras.ai import get_player
from letras.ai.player import Choice
from letras.ai.selfplay import game_seed, run_game, word_graph
from letras.analysis.winchance import TILES_PER_BUCKET, WinTable
from letras.editions import editions, find_edition
from letras.game import Game, PlayerView

OUT = Path(__file__).resolve().parents[1] / "src" / "letras" / "analysis" / "data"
SPREADS = tuple(float(s) for s in range(-300, 301, 10))
RIDGE = 1e-3
SMOOTH = (0.25, 0.5, 0.25)
MIN_SAMPLES = 20
"""Samples a bucket needs for a curve of its own."""
MIN_SPREAD_STD = 10.0
"""Points of spread a bucket's samples must vary by for its slope to be fitted."""

def samples(edition: str, games: int, seed: int) -> tuple[npt.NDArray[np.float64], int]:
    """Rows of (spread, unseen, result) for every action of ``games`` seeded games."""
    ed = find_edition(edition)
    graph = word_graph(ed, None)
    rows: list[list[float]] = []
    for number in range(games):
        game = Game(ed, ["a", "b"], seed=game_seed(seed, number), lexicon=graph)
        players = [get_player("equity", graph, seed=game_seed(seed, number, f"player {p}"))
                   for p in range(2)]
        seen: list[tuple[int, float, int]] = []

        def record(view: PlayerView, action: Choice, points: int,
                   seen: list[tuple[int, float, int]] = seen) -> None:
            me = view.player
            seen.append((me, float(view.scores[me] - view.scores[1 - me]), sum(view.unseen)))

        run_game(game, players, record=record)
        final = game.scores
        for seat, spread, unseen in seen:
            margin = final[seat] - final[1 - seat]
            rows.append([spread, unseen, 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5])
    return np.array(rows, np.float64), games


def near(good: list[int], k: int) -> int:
    """The bucket of ``good`` nearest to ``k``."""
    return min(good, key=lambda g: abs(g - k))


def fit_logistic(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> tuple[float, float]:
    """Intercept and slope of the logistic curve of ``y`` (0 to 1) on ``x``, by Newton's
    method with a small ridge (x is in hundreds of points inside, for conditioning)."""
    xs = x / 100.0
    design = np.stack([np.ones_like(xs), xs], axis=1)
    w = np.zeros(2)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(design @ w)))
        grad = design.T @ (y - p) - RIDGE * w
        hess = (design * (p * (1 - p))[:, None]).T @ design + RIDGE * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w += step
        if float(np.abs(step).max()) < 1e-9:
            break
    return float(w[0]), float(w[1]) / 100.0


def falling(values: list[float], weights: list[float]) -> list[float]:
    """The closest non-increasing sequence (weighted least squares: pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight, length]
    for v, w in zip(values, weights, strict=True):
        blocks.append([v, w, 1])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            v2, w2, n2 = blocks.pop()
            v1, w1, n1 = blocks.pop()
            total = w1 + w2
            blocks.append([(v1 * w1 + v2 * w2) / total, total, n1 + n2])
    out: list[float] = []
    for v, _, n in blocks:
        out.extend([v] * int(n))
    return out


def smoothed(values: list[float], weights: list[float]) -> list[float]:
    """Each value averaged with its neighbours (kernel :data:`SMOOTH`, weighted by count)."""
    out = []
    for i in range(len(values)):
        num = den = 0.0
        for k, kw in zip((-1, 0, 1), SMOOTH, strict=True):
            j = i + k
            if 0 <= j < len(values):
                num += kw * weights[j] * values[j]
                den += kw * weights[j]
        out.append(num / den if den else values[i])
    return out


def build(edition: str, games: int, seed: int) -> tuple[WinTable, dict[str, float]]:
    start = time.perf_counter()
    data, _ = samples(edition, games, seed)
    played = time.perf_counter() - start
    buckets = ((data[:, 1] - 1) // TILES_PER_BUCKET).astype(int)
    rows = int(buckets.max()) + 1
    fits, counts = [], []
    for k in range(rows):
        sel = buckets == k
        n = int(sel.sum())
        counts.append(float(n))
        if n >= MIN_SAMPLES and float(data[sel, 0].std()) >= MIN_SPREAD_STD:
            fits.append(fit_logistic(data[sel, 0], data[sel, 2]))
        elif n:  # the opening's bucket: every spread near 0, so only the intercept shows
            mean = min(max(float(data[sel, 2].mean()), 0.01), 0.99)
            fits.append((math.log(mean / (1 - mean)), math.nan))
        else:
            fits.append((math.nan, math.nan))
    # Buckets whose slope (or intercept) cannot be fitted borrow the nearest fitted one's.
    good = [k for k in range(rows) if not math.isnan(fits[k][1])]
    fits = [(fits[k][0] if not math.isnan(fits[k][0]) else fits[near(good, k)][0],
             fits[k][1] if not math.isnan(fits[k][1]) else fits[near(good, k)][1])
            for k in range(rows)]
    weights = [max(c, 1.0) for c in counts]
    slopes = [max(b, 1e-4) for b in falling([b for _, b in fits], weights)]
    intercepts = smoothed([a for a, _ in fits], weights)
    win = tuple(
        tuple(round(1.0 / (1.0 + math.exp(-(a + b * s))), 4) for s in SPREADS)
        for a, b in zip(intercepts, slopes, strict=True)
    )
    table = WinTable(edition, SPREADS, win, {})
    predicted = np.array([table.chance(s, int(u)) for s, u, _ in data])
    brier = float(np.mean((predicted - data[:, 2]) ** 2))
    base = float(np.mean((data[:, 2].mean() - data[:, 2]) ** 2))
    info = {
        "tool": "tools/win_table.py", "players": "equity vs equity", "games": games,
        "seed": seed, "positions": len(data), "brier": round(brier, 4),
        "brier_without_table": round(base, 4),
        "positions_per_bucket": [int(c) for c in counts],
    }
    return WinTable(edition, SPREADS, win, info), {"seconds": played, "brier": brier}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edition", action="append", help="edition (repeatable; default all)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--out", type=Path, default=OUT, help="folder to write to")
    args = parser.parse_args(argv)
    names = args.edition or list(editions())
    args.out.mkdir(parents=True, exist_ok=True)
    for name in names:
        table, stats = build(find_edition(name).name, args.games, args.seed)
        path = args.out / f"{table.edition}.win.json"
        path.write_text(json.dumps(table.to_dict(), separators=(",", ":")) + "\n",
                        encoding="utf-8")
        print(f"{path}: {table.info['positions']} positions from {args.games} games in "
              f"{stats['seconds']:.0f} s, Brier {stats['brier']:.4f} "
              f"(without the table {table.info['brier_without_table']:.4f}), "
              f"{path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
