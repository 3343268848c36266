"""The pre-endgame search against the sim at the same positions, played on to the end (paired).

Run by hand::

    nice .venv/bin/python bench/preendgame_ab.py --edition en pt-BR --bag 1 --out b1.jsonl
    .venv/bin/python bench/preendgame_ab.py --summary b1.jsonl

Position ``i`` comes from a seeded game of the equity level against itself on the edition's
shipped lexicon (seed ``preendgame-ab/SEED/i``): once the bag holds ``bag + 1`` to ``bag + 7``
tiles, the mover plays the best play by equity among those that leave exactly ``bag`` tiles in
the bag (the game is skipped if there is none, or the bag skips ``bag``), as
``bench/preendgame.py`` does. At that position the mover's seat chooses in two ways:

- ``pre``: the ``best`` level as it is (the pre-endgame search at this count of tiles, if it
  has one; the multi-tile search of :mod:`letras.ai.endgame.draws` with ``--bag`` 2-6);
- ``sim``: the ``sim`` level (its default limit), as ``best`` did before.

Everything after that first choice is the ``best`` level for both seats in both branches (the
same seeds), so the two games differ only by the choice at the position; when both choose the
same play the games are the same and the second is not played. One JSON line a position: the
mover's final spread in each branch, the two choices' seconds, whether they differed.
``--summary`` prints the paired difference of spreads (95% interval), the net wins and the win
rates (ties half).

``--hybrid`` (2-6 tiles): instead of ``pre``, every mode of :mod:`letras.ai.emptying` (the
sim's choice, its candidates that empty the bag valued over the draws), from one
``emptying.solve`` whose simulation is the sim's own choice; each distinct choice is played on
once. ``--seconds S``: no games, only the wall time of ``best``'s choice within ``S`` seconds
in every mode.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from sim_ab import words

from letras.ai import EquityPlayer, emptying
from letras.ai.best import BestPlayer
from letras.ai.endgame import draws
from letras.ai.player import NO_LIMIT, Choice, Limit
from letras.ai.selfplay import Estimate, run_game
from letras.game import Game
from letras.play import Place


def position(edition: str, seed: int, i: int, bag: int) -> Game | None:
    lexicon = words(edition)
    player = EquityPlayer(lexicon)
    game = Game(edition, ["a", "b"], seed=f"preendgame-ab/{seed}/{i}", lexicon=lexicon)
    while not game.over:
        if game.challengeable is not None:
            game.accept()
            continue
        view = game.view(game.to_move)
        if view.bag_count == bag:
            return game
        if view.bag_count < bag:
            return None
        choice = player.choose(view)
        if view.bag_count <= bag + 7:
            need = view.bag_count - bag
            fits = [c.choice for c in player.ranked(view, 200)
                    if isinstance(c.choice, Place)
                    and sum(1 for t in c.choice.tiles if t) == need]
            if not fits:
                return None
            choice = fits[0]
        game.apply(choice)
    return None


def spread(game: Game, seat: int) -> int:
    return game.scores[seat] - game.scores[1 - seat]


def one(args: tuple[str, int, int, int, bool]) -> dict[str, Any] | None:
    edition, seed, i, bag, hybrid = args
    game = position(edition, seed, i, bag)
    if game is None:
        return None
    lexicon = words(edition)
    seat = game.to_move
    view = game.view(seat)
    best = BestPlayer(lexicon, seed=i, preendgame_bags=range(1, draws.MAX_BAG + 1),
                      draws_search="draws")
    out: dict[str, Any] = {"game": i, "edition": edition, "bag": bag,
                           "stage": best.stage(view),
                           "load": os.getloadavg()[0]}
    choices: dict[str, Choice] = {}
    if hybrid and bag >= 2:
        # the sim's analysis is the sim's choice (the same player, seed and position); the
        # draws' search of its emptying candidates gives every mode's choice at once
        began = time.perf_counter()
        result = emptying.solve(view, lexicon, best.sim, NO_LIMIT, equity=best.equity, seed=i)
        out["t_all"] = round(time.perf_counter() - began, 2)
        out["t_sim"] = round(result.simulation.seconds, 2)
        out["searched"] = result.draws is not None
        out["sim_empties"] = emptying.empties(result.simulation.best.choice, bag)
        choices["sim"] = result.simulation.best.choice
        for mode in emptying.MODES:
            choices[mode] = result.choices[mode]
            out[f"empties_{mode}"] = emptying.empties(choices[mode], bag)
        out["t_within"] = out["t_all"] if out["sim_empties"] else out["t_sim"]
    else:
        for name, chooser in (("pre", best), ("sim", best.sim)):
            began = time.perf_counter()
            choices[name] = chooser.choose(view, NO_LIMIT)
            out[f"t_{name}"] = round(time.perf_counter() - began, 2)
    out["same"] = all(c == choices["sim"] for c in choices.values())
    print(f"game {i}: choices made {out}", file=sys.stderr, flush=True)
    played: dict[Choice, int] = {}
    for name, choice in choices.items():
        if choice not in played:
            memo: dict[int, Any] = {id(lexicon): lexicon, id(game.edition): game.edition}
            branch = copy.deepcopy(game, memo)  # (the lexicon and edition shared, not copied)
            branch.apply(choice, seat)
            run_game(branch, [BestPlayer(lexicon, seed=i), BestPlayer(lexicon, seed=i)])
            played[choice] = spread(branch, seat)
        out[name] = played[choice]
        out[f"choice_{name}"] = choice.notation(game.edition)
    return out


def timed(edition: str, seed: int, i: int, bag: int, seconds: float) -> dict[str, Any] | None:
    """Only the choice of ``best`` (its pre-endgame at every count, each mode of
    :mod:`letras.ai.emptying` with 2 or more tiles) within ``seconds``: the wall time each
    took."""
    game = position(edition, seed, i, bag)
    if game is None:
        return None
    lexicon = words(edition)
    view = game.view(game.to_move)
    out: dict[str, Any] = {"game": i, "edition": edition, "bag": bag,
                           "load": os.getloadavg()[0], "limit": seconds}
    for mode in emptying.MODES if bag >= 2 else ("pre",):
        best = BestPlayer(lexicon, seed=i, preendgame_bags=range(1, draws.MAX_BAG + 1),
                          draws_search=mode if bag >= 2 else "within")
        began = time.perf_counter()
        best.choose(view, Limit(seconds=seconds))
        out[f"t_{mode}"] = round(time.perf_counter() - began, 3)
    return out


def win(x: float) -> float:
    return 1.0 if x > 0 else 0.5 if x == 0 else 0.0


def summary(rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    names = [b for b in ("pre", *emptying.MODES) if all(b in r for r in rows)]
    lines = [f"{n} positions"]
    for b in names:
        d = [r[b] - r["sim"] for r in rows]
        differ = sum(1 for r in rows if r[f"choice_{b}"] != r["choice_sim"])
        half = 1.96 * statistics.stdev(d) / math.sqrt(n) if n > 1 else math.inf
        net = sum(win(r[b]) - win(r["sim"]) for r in rows)
        lines.append(f"{b} - sim: spread {statistics.fmean(d):+.2f} +- {half:.2f} a game, net "
                     f"wins {net:+g} ({net / n:+.1%}), {differ} choices differ")
    for b in (*names, "sim"):
        w = Estimate.share([win(r[b]) for r in rows])
        lines.append(f"{b}: mover wins {w.mean:.1%} ({w.low:.1%}-{w.high:.1%}), mean spread "
                     f"{statistics.fmean(r[b] for r in rows):+.1f}")
        if f"empties_{b}" in rows[0] or (b == "sim" and "sim_empties" in rows[0]):
            key = "sim_empties" if b == "sim" else f"empties_{b}"
            lines.append(f"{b}: empties the bag in {sum(1 for r in rows if r[key])} of {n}")
    for b in (*names, "sim", "all"):
        t = [r[f"t_{b}"] for r in rows if f"t_{b}" in r]
        if t:
            lines.append(f"{b} choice seconds (wall): median {statistics.median(t):.1f}, "
                         f"worst {max(t):.1f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", nargs="+", default=["en"],
                        help="position i is of the i-th edition in turn")
    parser.add_argument("--bag", type=int, nargs="+", default=[1],
                        help="tiles in the bag (several: each edition's positions take them "
                             "in turn)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stop", type=float, default=0.0,
                        help="unix time after which no new position is begun")
    parser.add_argument("--hybrid", action="store_true",
                        help="with 2-6 tiles: the modes of letras.ai.emptying against the sim "
                             "(else: the draws' search)")
    parser.add_argument("--seconds", type=float,
                        help="only time best's choice within this many seconds (no games)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--summary", type=Path, nargs="+")
    a = parser.parse_args()
    if a.summary:
        rows = {}
        for path in a.summary:
            for line in path.read_text().splitlines():
                r = json.loads(line)
                rows[(str(path), r["edition"], r["game"])] = r
        groups: dict[str, list[dict[str, Any]]] = {}
        for r in rows.values():
            groups.setdefault(r["edition"], []).append(r)
            groups.setdefault(f"{r['edition']} bag {r['bag']}", []).append(r)
            groups.setdefault(f"bag {r['bag']}", []).append(r)
        groups["all"] = list(rows.values())
        for name, group in sorted(groups.items()):
            if len(group) > 1:
                print(f"== {name}\n{summary(group)}")
        return
    done = []
    for i in range(a.first, a.first + a.games):
        if a.stop and time.time() > a.stop:
            break
        editions, bags = a.edition, a.bag
        bag = bags[(i // len(editions)) % len(bags)]
        edition = editions[i % len(editions)]
        if a.seconds is not None:
            r = timed(edition, a.seed, i, bag, a.seconds)
            if r is not None:
                print(json.dumps(r), flush=True)
            continue
        r = one((edition, a.seed, i, bag, a.hybrid))
        if r is None:
            continue
        done.append(r)
        print(json.dumps(r), file=sys.stderr, flush=True)
        if a.out:
            with a.out.open("a") as f:
                f.write(json.dumps(r) + "\n")
    if len(done) > 1:
        print(summary(done))


if __name__ == "__main__":
    main()
