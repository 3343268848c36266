"""The compiled rollouts against the Python ones (issue 18): iterations per second of the
``sim`` level, side by side on the same positions, interleaved: the Python rollouts and the
compiled ones without the word map (``WORD_MAP = False``), and the compiled ones with it (as
shipped). (The first reply put together lane by lane, once measured here, is gone: it gained
nothing beside the word map; ``bench/README.md``.)

Run by hand: ``nice .venv/bin/python bench/sim_compiled.py [en pt-BR ...] [--work N]
[--positions N] [--only NAME ...]`` (``--only`` picks variants by name, the first of them
the base of the ratios). The positions are ``bench/sim.py``'s (equity self-play until the bag
holds 60 tiles or fewer). Each position is analysed with a work limit by each variant, in
rotating order, :data:`REPEATS` times each. The variants of one search (with the word map or
without it) make the same choices with the same work (checked); with the map a tie for the
best reply may break another way, so the ratio taken is of iterations per second. Prints per
edition the median iterations per second of each, the median (and range) of the per-position
ratios to the first variant, and on how many positions the word map changed the iterations,
work or choice.
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


VARIANTS = (("python", False, False), ("compiled", True, False), ("+ word map", True, True))
"""(name, COMPILED, WORD_MAP)."""


def timed(lexicon: WordGraph, view: PlayerView, seed: int, work: int, compiled: bool,
          word_map: bool) -> tuple[float, int, int, object]:
    sim_compiled.COMPILED = compiled
    sim_compiled.WORD_MAP = word_map
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
    parser.add_argument("--only", nargs="+", choices=[v[0] for v in VARIANTS])
    args = parser.parse_args()
    variants = ([next(v for v in VARIANTS if v[0] == n) for n in args.only] if args.only
                else list(VARIANTS))
    names = [v[0] for v in variants]
    print(f"{'edition':<6} {'n':>3} " + " ".join(f"{n + ' iter/s':>16}" for n in names)
          + " " + " ".join(f"{n + ' speed-up':>24}" for n in names[1:]) + "  map changed")
    for name in args.editions:
        lexicon = load_lexicon(find_edition(name))
        assert isinstance(lexicon, WordGraph)
        views = positions(name, lexicon, args.positions)
        for _, compiled, word_map in variants:  # warm each
            timed(lexicon, views[0], 0, 50, compiled, word_map)
        rates: list[list[float]] = [[] for _ in variants]
        ratios: list[list[float]] = [[] for _ in variants]
        changed = 0
        for i, view in enumerate(views):
            times: list[list[float]] = [[] for _ in variants]
            done: list[int] = [0] * len(variants)
            seen: dict[bool, set[tuple[int, int, str]]] = {False: set(), True: set()}
            for r in range(REPEATS):
                for j in range(len(variants)):
                    v = (i + r + j) % len(variants)
                    _, compiled, word_map = variants[v]
                    took, iterations, work, choice = timed(lexicon, view, i, args.work,
                                                           compiled, word_map)
                    seen[word_map].add((iterations, work, str(choice)))
                    times[v].append(took)
                    done[v] = iterations
            for results in seen.values():
                assert len(results) <= 1, f"position {i}: the rollouts disagree: {results}"
            changed += bool(seen[False]) and bool(seen[True]) and seen[False] != seen[True]
            if not all(done):
                continue
            medians = [statistics.median(t) for t in times]
            per_second = [n / m for n, m in zip(done, medians, strict=True)]
            for v, rate in enumerate(per_second):
                rates[v].append(rate)
                ratios[v].append(rate / per_second[0])
        cells = [f"{statistics.median(r):>16.1f}" for r in rates]
        cells += [f"{statistics.median(q):>14.2f}x ({min(q):.2f}-{max(q):.2f})"
                  for q in ratios[1:]]
        print(f"{name:<6} {len(ratios[0]):>3} " + " ".join(cells) + f"  {changed:>11}",
              flush=True)
    sim_compiled.COMPILED, sim_compiled.WORD_MAP = True, True


if __name__ == "__main__":
    main()
