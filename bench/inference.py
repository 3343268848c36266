"""How close sim's inferred leaves come to what the opponent really kept.

Run by hand: ``.venv/bin/python bench/inference.py EDITION GAMES`` (games of the equity player
against itself, seeds 100, 101, ...). At every turn after a play the opponent kept tiles from,
:func:`letras.ai.sim.infer_leaves` tries 50 leaves; the kept leaves are compared with the
leave the opponent really kept, and with as many leaves drawn uniformly from the same unseen
tiles: how often a dealt leave is exactly the true one, and the share of the true leave's
tiles a dealt leave holds.
"""

from __future__ import annotations

import random
import sys
from collections import Counter

from letras.ai import EquityPlayer
from letras.ai.selfplay import word_graph
from letras.ai.sim import LastPlay, infer_leaves
from letras.editions import find_edition
from letras.game import Game

TRIES = 50


def main() -> None:
    edition = sys.argv[1] if len(sys.argv) > 1 else "pt-BR"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    lexicon = word_graph(find_edition(edition), None)
    equity = EquityPlayer(lexicon)
    positions = 0
    exact = {"inferred": 0.0, "uniform": 0.0}
    tiles = {"inferred": 0.0, "uniform": 0.0}
    for seed in range(games):
        game = Game(edition, ["a", "b"], seed=100 + seed, lexicon=lexicon)
        while not game.over:
            if game.challengeable is not None:
                game.accept()
                continue
            view = game.view(game.to_move)
            last = LastPlay.of(view)
            found = (infer_leaves(view, equity, random.Random(seed), TRIES, float("inf"))
                     if last is not None else None)
            if last is not None and found is not None:
                kept = list(game.turns[-1].rack or ())
                for t in last.played:
                    kept.remove(t)
                true = Counter(kept)
                rng = random.Random(seed)
                pool = [t for t, c in enumerate(view.unseen) for _ in range(c)]
                uniform = [tuple(rng.sample(pool, last.leave_size)) for _ in found.leaves]
                positions += 1
                for name, dealt in (("inferred", found.leaves), ("uniform", uniform)):
                    exact[name] += sum(Counter(d) == true for d in dealt) / len(dealt)
                    tiles[name] += sum(sum((Counter(d) & true).values()) for d in dealt) / (
                        len(dealt) * last.leave_size)
            game.apply(equity.choose(view))
    print(f"{edition}: {positions} positions")
    for name in ("inferred", "uniform"):
        print(f"  {name:<8} exact leave {exact[name] / positions:.3f}  "
              f"tiles of the true leave {tiles[name] / positions:.3f}")


if __name__ == "__main__":
    main()
