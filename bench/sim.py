"""Simulation benchmark: iterations and simulated plays per second of the ``sim`` level.

Run by hand: ``.venv/bin/python bench/sim.py [en pt-BR ...]``. The positions are fixed: for each
edition, games of the equity player against itself (seeds 0, 1, 2 ...) are played until the bag
holds 60 tiles or fewer; the player to move there is analysed twice, with a work limit of
:data:`WORK` simulated plays (rate of simulation, deterministic work) and with
:data:`SECONDS` seconds (iterations a one-second turn gets, and how often it stops early
because one candidate is clearly best). Timings include the equity player's ranking of the
candidates. Shipped lexicons are loaded from the cache (built first if needed).
"""

from __future__ import annotations

import statistics
import sys
import time

from letras.ai.equity import EquityPlayer
from letras.ai.player import Limit
from letras.ai.sim import SimPlayer
from letras.editions import find_edition
from letras.game import Game, PlayerView
from letras.lexicon import load_lexicon
from letras.lexicon.kwg import WordGraph

POSITIONS = 12
WORK = 400
SECONDS = 1.0
BAG = 60


def positions(name: str, lexicon: WordGraph, count: int) -> list[PlayerView]:
    edition = find_edition(name)
    equity = EquityPlayer(lexicon)
    out = []
    seed = 0
    while len(out) < count:
        game = Game(edition, ["a", "b"], seed=seed, lexicon=lexicon)
        seed += 1
        while not game.over and game.bag_count > BAG:
            if game.challengeable is not None:
                game.accept()
                continue
            game.apply(equity.choose(game.view(game.to_move)))
        if game.challengeable is not None and not game.over:
            game.accept()
        if not game.over and game.bag_count:
            out.append(game.view(game.to_move))
    return out


def main() -> None:
    names = sys.argv[1:] or ["en", "pt-BR"]
    print(f"{'edition':<6} {'n':>3} {'work: iter/s':>13} {'plays/s':>8} "
          f"{'1 s: iterations':>16} {'(min-max)':>10} {'stopped early':>14} {'s/turn':>7}")
    for name in names:
        edition = find_edition(name)
        lexicon = load_lexicon(edition)
        assert isinstance(lexicon, WordGraph)
        views = positions(name, lexicon, POSITIONS)
        SimPlayer(lexicon, seed=0).analyse(views[0], Limit(work=50))  # warm
        rates, play_rates, iterations, early, seconds = [], [], [], 0, []
        for i, view in enumerate(views):
            player = SimPlayer(lexicon, seed=i)
            start = time.perf_counter()
            result = player.analyse(view, Limit(work=WORK))
            took = time.perf_counter() - start
            if result.iterations:
                rates.append(result.iterations / took)
                play_rates.append(result.work / took)
            timed = SimPlayer(lexicon, seed=i).analyse(view, Limit(seconds=SECONDS))
            iterations.append(timed.iterations)
            seconds.append(timed.seconds)
            early += timed.stopped == "one left"
        print(f"{name:<6} {len(views):>3} {statistics.median(rates):>13.1f} "
              f"{statistics.median(play_rates):>8.0f} {statistics.median(iterations):>16.0f} "
              f"{min(iterations):>4}-{max(iterations):<5} {early:>11}/{len(views):<2} "
              f"{statistics.fmean(seconds):>7.2f}")


if __name__ == "__main__":
    main()
