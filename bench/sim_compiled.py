"""The compiled rollouts against the Python ones (issue 18): iterations per second of the
``sim`` level, side by side on the same positions, interleaved.

Run by hand: ``nice .venv/bin/python bench/sim_compiled.py [en pt-BR ...] [--work N]
[--positions N]``. The positions are ``bench/sim.py``'s (equity self-play until the bag holds
60 tiles or fewer). Each position is analysed with a work limit, once with the Python
rollouts (``letras.ai.sim.compiled.COMPILED = False``) and once with the compiled ones, in
alternating order, :data:`REPEATS` times each; both make the same choices with the same work
(checked), so the ratio of their times is the speed-up. Prints per edition the median
iterations per second of each and the median of the per-position ratios.
"""

from __future__ import annotations

import argparse
import statistics
import time

from letras.ai.player import Limit
from letras.ai.sim import SimPlayer
from letras.ai.sim import compiled as sim_compiled
from letras.editions import find_edition
from letras.game import PlayerView
from letras.lexicon import load_lexicon
from letras.lexicon.kwg import WordGraph

REPEATS = 2


def timed(lexicon: WordGraph, view: PlayerView, seed: int, work: int,
          compiled: bool) -> tuple[float, int, int, object]:
    sim_compiled.COMPILED = compiled
    start = time.perf_counter()
    result = SimPlayer(lexicon, seed=seed).analyse(view, Limit(work=work))
    took = time.perf_counter() - start
    return took, result.iterations, result.work, result.best.choice


def main() -> None:
    from sim import positions  # bench/sim.py, beside this one

    parser = argparse.ArgumentParser()
    parser.add_argument("editions", nargs="*", default=["en", "pt-BR"])
    parser.add_argument("--work", type=int, default=400)
    parser.add_argument("--positions", type=int, default=12)
    args = parser.parse_args()
    print(f"{'edition':<6} {'n':>3} {'python iter/s':>14} {'compiled iter/s':>16} "
          f"{'speed-up (median, min-max)':>28}")
    for name in args.editions:
        lexicon = load_lexicon(find_edition(name))
        assert isinstance(lexicon, WordGraph)
        views = positions(name, lexicon, args.positions)
        for compiled in (False, True):  # warm both
            timed(lexicon, views[0], 0, 50, compiled)
        py_rates, c_rates, ratios = [], [], []
        for i, view in enumerate(views):
            py_t: list[float] = []
            c_t: list[float] = []
            seen = set()
            for r in range(REPEATS):
                for compiled in ((False, True) if (i + r) % 2 == 0 else (True, False)):
                    took, iterations, work, choice = timed(lexicon, view, i, args.work,
                                                           compiled)
                    seen.add((iterations, work, str(choice)))
                    (c_t if compiled else py_t).append(took)
            assert len(seen) == 1, f"position {i}: the two rollouts disagree: {seen}"
            if not iterations:
                continue
            py, c = statistics.median(py_t), statistics.median(c_t)
            py_rates.append(iterations / py)
            c_rates.append(iterations / c)
            ratios.append(py / c)
        print(f"{name:<6} {len(ratios):>3} {statistics.median(py_rates):>14.1f} "
              f"{statistics.median(c_rates):>16.1f} {statistics.median(ratios):>13.2f}x "
              f"({min(ratios):.2f}-{max(ratios):.2f})", flush=True)


if __name__ == "__main__":
    main()
