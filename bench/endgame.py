"""Endgame benchmark: exact two-player endgames from real games, how long they take.

Run by hand: ``.venv/bin/python bench/endgame.py [--seconds S] [--games N] [--first SEED]
[edition ...]`` (default: en and pt-BR, 2 games each from seed 1, 120 s a position). Each game
is the equity level against itself on the edition's shipped lexicon, seeded, played until the
bag is empty; the player to move then has a full rack and the other the tiles left after the
play that emptied the bag. :func:`letras.ai.endgame.solve` searches that position within the
time limit. The table gives the racks, the plays of the root rack, the deepest iteration
completed (``end``: the one that reaches the end of the game), whether the search finished
(the exact value), the positions searched, the seconds, the best play and its value (spread
change to the end; an estimate when the search did not finish). One line per position,
printed as it is done.
"""

from __future__ import annotations

import argparse
import resource
import time

from letras.ai import EquityPlayer, Limit
from letras.ai.endgame import solve, unseen_tiles
from letras.editions import find_edition
from letras.game import Game
from letras.lexicon import load_lexicon
from letras.lexicon.kwg import WordGraph
from letras.movegen import generate


def endgame_of(edition_name: str, seed: int, lexicon: WordGraph) -> Game:
    edition = find_edition(edition_name)
    game = Game(edition, ["a", "b"], seed=seed, lexicon=lexicon)
    player = EquityPlayer(lexicon)
    while game.bag_count and not game.over:
        if game.challengeable is not None:
            game.accept()
            continue
        game.apply(player.choose(game.view(game.to_move)))
    if game.challengeable is not None and not game.over:
        game.accept()
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("editions", nargs="*", default=["en", "pt-BR"])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--first", type=int, default=1)
    args = parser.parse_args()
    print(f"{'edition':<6} {'seed':>4} {'rack':<8} {'other':<8} {'plays':>5} {'depth':>5} "
          f"{'exact':<5} {'nodes':>9} {'seconds':>8} {'value':>6}  best", flush=True)
    for name in args.editions:
        edition = find_edition(name)
        lexicon = load_lexicon(edition)
        assert isinstance(lexicon, WordGraph)
        for seed in range(args.first, args.first + args.games):
            game = endgame_of(name, seed, lexicon)
            if game.over:
                print(f"{name:<6} {seed:>4} (the game ended before the bag was empty)")
                continue
            view = game.view(game.to_move)
            start = time.perf_counter()
            result = solve(view, lexicon, Limit(seconds=args.seconds))
            seconds = time.perf_counter() - start
            tiles = edition.tiles
            plays = len(generate(view.board, view.rack, lexicon))
            print(
                f"{name:<6} {seed:>4} {tiles.format(view.rack, rack=True):<8} "
                f"{tiles.format(unseen_tiles(view), rack=True):<8} {plays:>5} "
                f"{'end' if result.exact else result.depth:>5} "
                f"{'yes' if result.exact else 'no':<5} {result.nodes:>9,} "
                f"{seconds:>8.1f} {result.value:>6}  {result.best.notation(edition)}",
                flush=True,
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
