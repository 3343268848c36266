"""What a work limit costs the ``sim`` level in time: the processor seconds a choice.

Run by hand: ``nice .venv/bin/python bench/sim_pace.py en pt-BR --games 4 --work 600 1200``.

The positions are every turn of ``--games`` games of the equity player against itself (seeds
``sim-pace/0``, ``sim-pace/1`` ...) with tiles in the bag, the positions of the game a sim
player meets. Each is analysed once at every work limit, the limits in turn, and the
processor time of the process (``time.process_time``: what the choice would take on an idle
core, less sensitive than the wall clock to other work on a shared machine) is kept. Prints,
per limit, the mean and median seconds a choice over all the positions, the mean over the
mid-game (more than ``END_BAG`` tiles in the bag), and there the median number of iterations
and the number of choices that are not the equity player's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from sim_ab import words

from letras.ai import EquityPlayer, Limit
from letras.ai.sim import SimPlayer, rollouts
from letras.game import Game, PlayerView


def positions(edition: str, games: int) -> list[PlayerView]:
    lexicon = words(edition)
    equity = EquityPlayer(lexicon)
    out = []
    for i in range(games):
        game = Game(edition, ["a", "b"], seed=f"sim-pace/{i}", lexicon=lexicon)
        while not game.over:
            if game.challengeable is not None:
                game.accept()
                continue
            view = game.view(game.to_move)
            if game.bag_count:
                out.append(view)
            game.apply(equity.choose(view))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("editions", nargs="+")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--work", type=int, nargs="+", default=[600, 1200])
    a = parser.parse_args()
    for edition in a.editions:
        views = positions(edition, a.games)
        lexicon = words(edition)
        sim = SimPlayer(lexicon, seed=1)
        sim.analyse(views[0], Limit(work=50))  # compiled kernels loaded
        taken: dict[int, list[float]] = {w: [] for w in a.work}
        switched: dict[int, list[bool]] = {w: [] for w in a.work}
        iterations: dict[int, list[int]] = {w: [] for w in a.work}
        equity = EquityPlayer(lexicon)
        for k, view in enumerate(views):
            for w in a.work[k % len(a.work):] + a.work[:k % len(a.work)]:
                began = time.process_time()
                result = sim.analyse(view, Limit(work=w))
                taken[w].append(time.process_time() - began)
                if view.bag_count > rollouts.END_BAG:
                    switched[w].append(result.best.choice != equity.choose(view))
                    iterations[w].append(result.iterations)
        mid = [k for k, v in enumerate(views) if v.bag_count > rollouts.END_BAG]
        for w in a.work:
            t = taken[w]
            print(f"{edition:6} work {w:5}: {len(t)} positions, mean {statistics.fmean(t):.3f} s, "
                  f"median {statistics.median(t):.3f} s; mid-game ({len(mid)}) mean "
                  f"{statistics.fmean(t[k] for k in mid):.3f} s, median iterations "
                  f"{statistics.median(iterations[w]):.0f}, not the equity player's choice in "
                  f"{sum(switched[w])}", flush=True)


if __name__ == "__main__":
    main()
