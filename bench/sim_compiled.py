"""The compiled rollouts against the Python ones (issue 18): iterations per second of the
``sim`` level, side by side on the same positions, interleaved: the Python rollouts, the
compiled ones searching the whole board for every reply (``REUSE = False``), and the compiled
ones putting the first reply together lane by lane (as shipped).

Run by hand: ``nice .venv/bin/python bench/sim_compiled.py [en pt-BR ...] [--work N]
[--positions N]``. The positions are ``bench/sim.py``'s (equity self-play until the bag holds
60 tiles or fewer). Each position is analysed with a work limit by each variant, in rotating order,
:data:`REPEATS` times each; all make the same choices with the same work (checked), so the
ratio of their times is the speed-up. Prints per edition the median iterations per second of
each and the median (and range) of the per-position ratios to the Python rollouts.
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


VARIANTS = (("python", False, False), ("compiled", True, False), ("+ reuse", True, True))
"""(name, COMPILED, REUSE)."""


def timed(lexicon: WordGraph, view: PlayerView, seed: int, work: int, compiled: bool,
          reuse: bool) -> tuple[float, int, int, object]:
    sim_compiled.COMPILED = compiled
    sim_compiled.REUSE = reuse
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
    names = [v[0] for v in VARIANTS]
    print(f"{'edition':<6} {'n':>3} " + " ".join(f"{n + ' iter/s':>16}" for n in names)
          + " " + " ".join(f"{n + ' speed-up':>24}" for n in names[1:]))
    for name in args.editions:
        lexicon = load_lexicon(find_edition(name))
        assert isinstance(lexicon, WordGraph)
        views = positions(name, lexicon, args.positions)
        for _, compiled, reuse in VARIANTS:  # warm each
            timed(lexicon, views[0], 0, 50, compiled, reuse)
        rates: list[list[float]] = [[] for _ in VARIANTS]
        ratios: list[list[float]] = [[] for _ in VARIANTS]
        for i, view in enumerate(views):
            times: list[list[float]] = [[] for _ in VARIANTS]
            seen = set()
            iterations = 0
            for r in range(REPEATS):
                for j in range(len(VARIANTS)):
                    v = (i + r + j) % len(VARIANTS)
                    _, compiled, reuse = VARIANTS[v]
                    took, iterations, work, choice = timed(lexicon, view, i, args.work,
                                                           compiled, reuse)
                    seen.add((iterations, work, str(choice)))
                    times[v].append(took)
            assert len(seen) == 1, f"position {i}: the rollouts disagree: {seen}"
            if not iterations:
                continue
            medians = [statistics.median(t) for t in times]
            for v, m in enumerate(medians):
                rates[v].append(iterations / m)
                ratios[v].append(medians[0] / m)
        cells = [f"{statistics.median(r):>16.1f}" for r in rates]
        cells += [f"{statistics.median(q):>14.2f}x ({min(q):.2f}-{max(q):.2f})"
                  for q in ratios[1:]]
        print(f"{name:<6} {len(ratios[0]):>3} " + " ".join(cells), flush=True)
    sim_compiled.COMPILED, sim_compiled.REUSE = True, True


if __name__ == "__main__":
    main()
