"""Leave training with 1 and 2 workers, on the local process pool and on a local Ray instance.

Run by hand: ``.venv/bin/python bench/ray_train.py [--edition pt-BR] [--games 200]
[--generations 2] [--runs 3]`` (Ray needs ``letras[ray]``). Each run is a whole
:func:`letras.ai.leaves.training.train` call, start-up of the workers included (the time to
the first game's result is shown too); the configurations take turns. The fit, which
runs in the calling process between rounds, is timed on its own (the part that more workers do
not shorten), and so is the CPU time of this process and of the pool's processes (all of a
run's work on the local pool; on Ray only the caller's share). Ray is started once, before
the runs (its start-up is printed apart), as a cluster would be. Prints the medians, and
checks that every run gave the same values.

``--fit-scale`` instead times the fit alone as the records grow: the records of 50 games,
repeated 1, 10, 100 and 1,000 times (as many records as 50 to 50,000 games give).
"""

from __future__ import annotations

import argparse
import logging
import os
import resource
import statistics
import time
from typing import Any

import numpy as np

from letras.ai.leaves import training
from letras.editions import Edition, find_edition
from letras.lexicon import load_lexicon


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edition", default="pt-BR")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--generations", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--fit-scale", action="store_true")
    args = parser.parse_args()
    edition = find_edition(args.edition)
    load_lexicon(edition)  # built and cached before any timing
    if args.fit_scale:
        fit_scale(edition)
        return

    fits: list[float] = []
    real_fit = training.fit_values

    def timed_fit(*a: Any, **k: Any) -> Any:
        t = time.perf_counter()
        try:
            return real_fit(*a, **k)
        finally:
            fits.append(time.perf_counter() - t)

    training.fit_values = timed_fit  # type: ignore[assignment]

    import ray

    t = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False,
             _node_ip_address="127.0.0.1", logging_level=logging.WARNING)
    print(f"ray.init: {time.perf_counter() - t:.1f} s; load {os.getloadavg()[0]:.1f}")
    configs = [("pool", 1), ("pool", 2), ("ray", 1), ("ray", 2)]
    runs: dict[tuple[str, int], list[tuple[float, float, float, float, float]]] = {
        c: [] for c in configs}
    reference: np.ndarray[Any, Any] | None = None
    for _ in range(args.runs):  # the configurations in turn, so that the load hits them alike
        for backend, workers in configs:
            fits.clear()
            load = os.getloadavg()[0]
            cpu = _cpu()
            first: list[float] = []
            t = time.perf_counter()

            def progress(done: int, total: int, generation: int, t: float = t,
                         first: list[float] = first) -> None:
                if not first:
                    first.append(time.perf_counter() - t)

            result = training.train(edition, args.games, generations=args.generations,
                                    seed=1, workers=workers, progress=progress,
                                    ray="auto" if backend == "ray" else None)
            seconds = time.perf_counter() - t
            runs[backend, workers].append((seconds, sum(fits), first[0], _cpu() - cpu, load))
            print(backend, workers, [round(x, 2) for x in runs[backend, workers][-1]],
                  flush=True)
            if reference is None:
                reference = result.values
            assert np.array_equal(result.values, reference), "the runs differ"
    ray.shutdown()
    print(f"\n{args.edition}, {args.games} games in {args.generations} generations, "
          f"{args.runs} runs each (medians); every run gave the same values")
    print("| backend | workers | seconds | games/s | first game s | fit s | CPU s here "
          "| load (1 min) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for backend, workers in configs:
        columns = zip(*runs[backend, workers], strict=True)
        secs, fit_s, first_s, cpu_s, load = (statistics.median(c) for c in columns)
        print(f"| {backend} | {workers} | {secs:.1f} | {args.games / secs:.2f} | {first_s:.1f} "
              f"| {fit_s:.2f} | {cpu_s:.1f} | {load:.1f} |")

def _cpu() -> float:
    """CPU seconds of this process and of its children that ended (the local pool's workers;
    not Ray's, which are not its children)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def fit_scale(edition: Edition) -> None:
    from letras.ai.equity import EquityPlayer
    from letras.ai.selfplay import word_graph
    from letras.game import Game

    graph = word_graph(edition, None)
    player = EquityPlayer(graph)
    parts = [training.play_and_record(Game(edition, ["A", "B"], seed=i, lexicon=graph), player,
                                      edition.rack_size - 1)[0] for i in range(50)]
    records = training.Records.join(parts)
    space = training.LeaveSpace.of(edition)
    start = np.zeros(len(space))
    print(f"{edition.name}: {len(space):,} leaves; load {os.getloadavg()[0]:.1f}")
    print("| games' worth | records | fit s (3 sweeps, median of 3) |")
    print("|---:|---:|---:|")
    for times in (1, 10, 100, 1000):
        many = training.Records.join([records] * times)
        seconds = []
        for _ in range(3):
            t = time.perf_counter()
            training.fit_values(space, many, start)
            seconds.append(time.perf_counter() - t)
        print(f"| {50 * times:,} | {len(many):,} | {statistics.median(seconds):.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
