"""How the spread still to come between two seats behaves with 2, 3 and 4 seats: a check of the
scales :mod:`letras.ai.sim.first` derives from the two-player model (``REMAINING_GAME``).

Run by hand::

    nice .venv/bin/python bench/multi_remaining.py --edition pt-BR --games 100 --seats 2 3 4

Plays seeded games of the equity player against itself. At every turn, the seat that has just
moved is "us" (the sim's horizon after a round: the opponents move next), and for the opponent
``k`` seats after us the change of our margin over them from there to the end of the game is
noted with the tiles in the bag. Prints, per number of seats and opponent ``k``, the mean change
(the model: ``-2 x tempo x (seats - k) / seats``), and the least-squares line of its variance
against the tiles in the bag (the model: ``var_base + var_per_tile x bag x 2 / seats``).
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from letras.ai import EquityPlayer
from letras.ai.player import Choice
from letras.ai.selfplay import game_seed, run_game, word_graph
from letras.ai.sim.first import margin_sd, seat_means
from letras.ai.sim.rollouts import REMAINING_GAME
from letras.editions import find_edition
from letras.game import Game, PlayerView


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edition", default="pt-BR")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    args = ap.parse_args()
    edition = find_edition(args.edition)
    graph = word_graph(edition, None)
    var_base, var_per_tile, tempo = REMAINING_GAME[edition.name]
    for seats in args.seats:
        rows: list[tuple[int, int, int, list[int]]] = []  # (game, us, bag, scores)
        finals: list[tuple[int, ...]] = []
        for g in range(args.games):
            game = Game(edition, [f"P{i}" for i in range(seats)],
                        seed=game_seed(1000 + seats, g), lexicon=graph)
            players = [EquityPlayer(graph) for _ in range(seats)]
            first = len(rows)

            def record(view: PlayerView, _: Choice, points: int, g: int = g,
                       rows: list[tuple[int, int, int, list[int]]] = rows,
                       seats: int = seats) -> None:
                # before this seat moves: the seat before it has just moved, and drawn
                rows.append((g, (view.player - 1) % seats, view.bag_count, list(view.scores)))

            run_game(game, players, record=record)
            del rows[first]  # the first turn: nobody has moved yet
            finals.append(tuple(game.scores))
        print(f"{seats} seats, {args.games} games, {len(rows)} positions:")
        for k in range(1, seats):
            deltas, bags = [], []
            for g, me, bag, now in rows:
                o = (me + k) % seats
                final = finals[g]
                deltas.append((final[me] - final[o]) - (now[me] - now[o]))
                bags.append(bag)
            d = np.array(deltas, float)
            b = np.array(bags, float)
            sq = (d - d.mean()) ** 2
            slope, base = np.polyfit(b, sq, 1)
            model_mean = -(seat_means(tempo, seats)[k - 1])
            print(f"  opponent {k} after us: mean {statistics.fmean(deltas):+.1f} "
                  f"(model {model_mean:+.1f}); variance {base:.0f} + {slope:.1f} x bag "
                  f"(model {var_base:.0f} + {var_per_tile * 2 / seats:.1f} x bag; "
                  f"sd at 50 tiles {margin_sd(var_base, var_per_tile, 50, seats):.1f})")


if __name__ == "__main__":
    main()
