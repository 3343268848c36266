"""Pre-endgame benchmark: two players, one tile in the bag, from seeded self-play.

Run by hand: ``nice .venv/bin/python bench/preendgame.py [--positions N] [--first SEED]
[--work W] [--seconds S] [--fresh] [edition ...]`` (default: en and pt-BR, 20 positions each
from seed 1, :data:`letras.ai.endgame.preendgame.DEFAULT_LIMIT`). Each position comes from a game of
the equity level against itself on the edition's shipped lexicon, seeded: once the bag holds
2 to 7 tiles, the mover plays the best play by equity among those that leave exactly one tile
in the bag (the game is dropped if there is none, or the bag skips 1). That view is searched
by :func:`letras.ai.endgame.preendgame.solve_preendgame`. One line per position: candidates
and lines, rounds, positions searched, lines solved exactly (of the candidates' lines),
whether every kept candidate was solved, CPU seconds, and the best play with its spread and
win chance; then the median and worst CPU seconds per edition. With ``--fresh`` each position
is searched twice, one after the other: with one table and cache of plays shared by every
line (``shared``, what the pre-endgame does) and with a fresh search per line (``fresh``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from letras.ai import EquityPlayer, Limit
from letras.ai.endgame import preendgame
from letras.ai.endgame.preendgame import DEFAULT_LIMIT, applies, solve_preendgame
from letras.editions import find_edition
from letras.game import Game, PlayerView
from letras.lexicon import load_lexicon
from letras.lexicon.kwg import WordGraph
from letras.play import Place


def preendgame_of(edition_name: str, seed: int, lexicon: WordGraph,
                  player: EquityPlayer) -> PlayerView | None:
    """The view of the player to move once the bag holds one tile, or None."""
    game = Game(find_edition(edition_name), ["a", "b"], seed=seed, lexicon=lexicon)
    while not game.over:
        if game.challengeable is not None:
            game.accept()
            continue
        view = game.view(game.to_move)
        if view.bag_count == 1:
            return view if applies(view) else None
        if view.bag_count == 0:
            return None
        choice = player.choose(view)
        if view.bag_count <= 7:
            need = view.bag_count - 1
            fits = [c.choice for c in player.ranked(view, 200)
                    if isinstance(c.choice, Place)
                    and sum(1 for t in c.choice.tiles if t) == need]
            if not fits:
                return None
            choice = fits[0]
        game.apply(choice)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("editions", nargs="*", default=["en", "pt-BR"])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--work", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--fresh", action="store_true")
    args = parser.parse_args()
    modes = ["shared", "fresh"] if args.fresh else ["shared"]
    limit = Limit(seconds=args.seconds, work=args.work)
    if limit.unlimited:
        limit = DEFAULT_LIMIT
    print(f"load {os.getloadavg()[0]:.2f}; limit {limit}", flush=True)
    print(f"{'edition':<6} {'seed':>4} {'mode':<6} {'rack':<8} {'unseen':<9} {'cands':>5} "
          f"{'rounds':>6} "
          f"{'nodes':>9} {'searches':>8} {'solved':>8} {'exact':<5} {'cpu':>6}  best",
          flush=True)
    for name in args.editions:
        edition = find_edition(name)
        lexicon = load_lexicon(edition)
        assert isinstance(lexicon, WordGraph)
        player = EquityPlayer(lexicon)
        cpus: dict[str, list[float]] = {m: [] for m in modes}
        exact = dict.fromkeys(modes, 0)
        seed = args.first
        while len(cpus["shared"]) < args.positions:
            view = preendgame_of(name, seed, lexicon, player)
            seed += 1
            if view is None:
                continue
            if not cpus["shared"]:  # compile (or load) the search once before the timings
                solve_preendgame(view, lexicon, Limit(work=1), equity=player)
            for mode in modes:
                preendgame.SHARE = mode == "shared"
                cpu0 = time.process_time()
                result = solve_preendgame(view, lexicon, limit, equity=player)
                cpu = time.process_time() - cpu0
                cpus[mode].append(cpu)
                exact[mode] += result.exact
                best = result.candidates[0]
                tiles = edition.tiles
                unseen = tuple(t for t, n in enumerate(view.unseen) for _ in range(n))
                print(
                    f"{name:<6} {seed - 1:>4} {mode:<6} {tiles.format(view.rack, rack=True):<8} "
                    f"{tiles.format(unseen, rack=True):<9} {len(result.candidates):>5} "
                    f"{result.rounds:>6} {result.nodes:>9,} {result.searches:>8} "
                    f"{result.solved:>3}/{result.lines:<4} "
                    f"{'yes' if result.exact else 'no':<5} {cpu:>6.1f}  "
                    f"{best.choice.notation(edition)} {best.spread:+.1f} "
                    f"{100 * best.wins:.0f}%", flush=True)
        for mode in modes:
            times = cpus[mode]
            print(f"{name} {mode}: {len(times)} positions, CPU s median "
                  f"{statistics.median(times):.1f} worst {max(times):.1f}, every kept "
                  f"candidate solved in {exact[mode]}; load {os.getloadavg()[0]:.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
