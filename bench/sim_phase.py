"""Where the simulation's gain over the equity player comes from, by phase of the game.

Run by hand::

    nice .venv/bin/python bench/sim_phase.py --edition en --games 100 --seed 1 --out en.jsonl
    .venv/bin/python bench/sim_phase.py --summary en.jsonl

Game ``i`` (seed ``sim-phase/SEED/i``, the sim seat the one that starts in even games) is
played twice up to the first turn with ``--switch`` tiles or fewer in the bag (default
:data:`letras.ai.sim.rollouts.END_BAG`, where the sim's rollouts start to play to the end):
once with the sim seat played by ``sim``, once by ``equity``, the other seat by ``equity``
throughout. Each is then played on to the end from that same position in several ways:

- ``full``: sim before, sim after (sim against equity, as in a match);
- ``mid``: sim before, equity after;
- ``end``: equity before, sim after;
- ``empty``: equity before, equity after but for the turns with the bag empty, sim there;
- ``eq``: equity before and after (the control).

Every player is deterministic (the sim has a work limit), so ``full`` and ``mid`` share their
games up to the switch, and ``end``, ``empty`` and ``eq`` theirs: ``full - mid`` is the end
phase's gain after the sim's mid-game, ``end - eq`` after the equity player's, measured on the
same positions (paired), and ``mid - eq`` the mid-game's gain (paired only by the seeds).

``--variant`` sets the sim as :mod:`bench/sim_ab.py` does (``SWITCH_Z=0,work=1200``...). One JSON
line a game goes to ``--out`` as games finish (a run stopped early keeps what it finished);
``--summary`` prints win rates (ties half; Wilson 95% intervals), mean spreads of the sim seat
and the paired differences with 95% intervals, from one file or several (their games
together; a game written twice to one file counts once).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from sim_ab import configured, words

from letras.ai import EquityPlayer, Limit
from letras.ai.player import Player
from letras.ai.selfplay import Estimate, run_game
from letras.ai.sim import rollouts
from letras.game import Game

BRANCHES = ("full", "mid", "end", "empty", "eq")


class Timed:
    """A player whose choices are timed (the seconds and the count kept)."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.level = inner.level
        self.seconds = 0.0
        self.choices = 0

    def choose(self, view: Any, limit: Limit) -> Any:
        began = time.perf_counter()
        out = self.inner.choose(view, limit)
        self.seconds += time.perf_counter() - began
        self.choices += 1
        return out


class Phased:
    """``inner`` where ``use(bag)`` says so, the equity player elsewhere."""

    def __init__(self, inner: Any, equity: Player, use: Callable[[int], bool]) -> None:
        self.inner, self.equity, self.use = inner, equity, use
        self.level = "phased"

    def choose(self, view: Any, limit: Limit) -> Any:
        return (self.inner if self.use(view.bag_count) else self.equity).choose(view, limit)


def until(game: Game, players: list[Any], limit: Limit, switch: int) -> None:
    """Play ``game`` up to the first turn with ``switch`` tiles or fewer in the bag."""
    while not game.over:
        if game.challengeable is not None:
            game.accept()
            continue
        if game.bag_count <= switch:
            return
        seat = game.to_move
        game.apply(players[seat].choose(game.view(seat), limit), seat)


def spread(game: Game, seat: int) -> int:
    return game.scores[seat] - game.scores[1 - seat]


def one(args: tuple[str, int, int, str, int, int]) -> dict[str, Any]:
    edition, seed, i, variant, work, switch = args
    lexicon = words(edition)
    memo: dict[int, Any] = {id(lexicon): lexicon}  # shared, never copied; a new memo a copy
    fresh = Game(edition, ["a", "b"], seed=f"sim-phase/{seed}/{i}", lexicon=lexicon)
    memo[id(fresh.edition)] = fresh.edition
    seat = fresh.to_move if i % 2 == 0 else 1 - fresh.to_move
    equity = EquityPlayer(lexicon)
    out: dict[str, Any] = {"game": i, "seat": seat}
    with configured(variant, work) as (module, kwargs, limit):
        sim = Timed(module.SimPlayer(lexicon, seed=i, **kwargs))

        def seats(mine: Any) -> list[Any]:
            players: list[Any] = [equity, equity]
            players[seat] = mine
            return players

        for prefix, first in (("sim", sim), ("eq", equity)):
            game = copy.deepcopy(fresh, dict(memo))
            before = sim.seconds, sim.choices
            until(game, seats(first), limit, switch)
            out[f"bag_{prefix}"] = game.bag_count
            out[f"mid_{prefix}"] = [sim.seconds - before[0], sim.choices - before[1]]
            afters = ({"full": sim, "mid": equity} if prefix == "sim" else
                      {"end": sim, "empty": Phased(sim, equity, lambda bag: bag == 0),
                       "eq": equity})
            for name, after in afters.items():
                branch = copy.deepcopy(game, dict(memo))
                before = sim.seconds, sim.choices
                run_game(branch, seats(after), limit)
                out[name] = spread(branch, seat)
                out[f"t_{name}"] = [sim.seconds - before[0], sim.choices - before[1]]
    return out


def win(x: float) -> float:
    return 1.0 if x > 0 else 0.5 if x == 0 else 0.0


def summary(rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    lines = [f"{n} games"]
    for b in BRANCHES:
        w = Estimate.share([win(r[b]) for r in rows])
        s = Estimate.of([r[b] for r in rows])
        lines.append(f"{b:6} win {w.mean:6.1%} ({w.low:.1%}-{w.high:.1%})  spread "
                     f"{s.mean:+6.1f} ({s.low:+.1f} .. {s.high:+.1f})")
    for a, b in (("full", "mid"), ("end", "eq"), ("empty", "eq"), ("end", "empty"),
                 ("mid", "eq"), ("full", "eq")):
        d = [r[a] - r[b] for r in rows]
        half = 1.96 * statistics.stdev(d) / math.sqrt(n) if n > 1 else math.inf
        wins = sum(win(r[a]) - win(r[b]) for r in rows)
        changed = sum(1 for x in d if x)
        lines.append(f"{a} - {b}: spread {statistics.fmean(d):+.2f} +- {half:.2f}, "
                     f"net wins {wins:+g} ({wins / n:+.1%}), games changed {changed}")
    for label, key in (("mid-game", "mid_sim"), ("end", "t_full")):
        seconds = sum(r[key][0] for r in rows)
        choices = sum(r[key][1] for r in rows)
        lines.append(f"sim seconds a choice, {label}: {seconds / max(1, choices):.2f} "
                     f"({choices} choices)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", default="en")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="number of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="")
    parser.add_argument("--work", type=int, default=600)
    parser.add_argument("--switch", type=int, default=rollouts.END_BAG)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--summary", type=Path, nargs="+")
    a = parser.parse_args()
    if a.summary:
        rows = {}
        for path in a.summary:
            for line in path.read_text().splitlines():
                r = json.loads(line)
                rows[(str(path), r["game"])] = r
        print(summary(list(rows.values())))
        return
    jobs = [(a.edition, a.seed, i, a.variant, a.work, a.switch)
            for i in range(a.first, a.first + a.games)]
    rows_done = []
    began = time.perf_counter()
    with multiprocessing.Pool(a.workers) as pool:
        for r in pool.imap_unordered(one, jobs):
            rows_done.append(r)
            print(json.dumps(r), file=sys.stderr, flush=True)
            if a.out:
                with a.out.open("a") as f:
                    f.write(json.dumps(r) + "\n")
    print(summary(rows_done))
    print(f"{time.perf_counter() - began:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
