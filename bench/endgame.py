"""Endgame benchmark: exact two-player endgames from real games, how long they take.

Run by hand: ``.venv/bin/python bench/endgame.py [--seconds S] [--work N] [--games N]
[--first SEED] [--search compiled,python] [edition ...]`` (default: en and pt-BR, 2 games
each from seed 1, 120 s a position, the compiled search and the Python one side by side, one
after the other on each position). Each game
is the equity level against itself on the edition's shipped lexicon, seeded, played until the
bag is empty; the player to move then has a full rack and the other the tiles left after the
play that emptied the bag. :func:`letras.ai.endgame.solve` searches that position within the
time limit. The table gives the racks, the plays of the root rack, the search, the deepest
iteration completed (``end``: the one that reaches the end of the game), whether the search
finished (the exact value), the positions searched, the seconds, the peak memory of the
process that ran it (each search runs in a process of its own, forked once the word graph is
loaded: the peak includes the word graph), the best play and its value (spread change to the
end; an estimate when the search did not finish). One line per search, printed as it is
done.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import time
from multiprocessing.connection import Connection

from letras.ai import EquityPlayer, Limit
from letras.ai.endgame import EndgamePosition, EndgameResult, unseen_tiles
from letras.ai.endgame.compiled import CompiledSearch
from letras.ai.endgame.search import Search
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


def search_in(conn: Connection, kind: str, position: EndgamePosition, lexicon: WordGraph,
              limit: Limit) -> None:
    """Run one search (in a process of its own) and send back its result, wall-clock and CPU
    seconds and peak memory."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu_start = usage.ru_utime + usage.ru_stime
    start = time.perf_counter()
    search = CompiledSearch if kind == "compiled" else Search
    result = search(position, lexicon, limit).run()
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime - cpu_start
    conn.send((result, seconds, cpu, usage.ru_maxrss / 1024))
    conn.close()


def run(kind: str, position: EndgamePosition, lexicon: WordGraph,
        limit: Limit) -> tuple[EndgameResult, float, float, float]:
    context = multiprocessing.get_context("fork")
    here, there = context.Pipe()
    process = context.Process(target=search_in, args=(there, kind, position, lexicon, limit))
    process.start()
    out: tuple[EndgameResult, float, float, float] = here.recv()
    process.join()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("editions", nargs="*", default=["en", "pt-BR"])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--work", type=int, default=None)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--search", default="compiled,python")
    args = parser.parse_args()
    kinds = args.search.split(",")
    limit = Limit(seconds=args.seconds, work=args.work)
    print(f"{'edition':<6} {'seed':>4} {'rack':<8} {'other':<8} {'plays':>5} {'search':<8} "
          f"{'depth':>5} {'exact':<5} {'nodes':>10} {'seconds':>8} {'cpu':>6} {'MB':>6} "
          f"{'value':>6}  "
          f"best", flush=True)
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
            position = EndgamePosition.from_view(view)
            tiles = edition.tiles
            plays = len(generate(view.board, view.rack, lexicon))
            # load the compiled code before the processes fork (each would load it again)
            small = EndgamePosition(position.board, position.rack[:1],
                                    position.opponent_rack[:1], position.rules)
            CompiledSearch(small, lexicon, limit).run()
            Search(small, lexicon, limit).run()
            for kind in kinds:
                result, seconds, cpu, peak = run(kind, position, lexicon, limit)
                print(
                    f"{name:<6} {seed:>4} {tiles.format(view.rack, rack=True):<8} "
                    f"{tiles.format(unseen_tiles(view), rack=True):<8} {plays:>5} {kind:<8} "
                    f"{'end' if result.exact else result.depth:>5} "
                    f"{'yes' if result.exact else 'no':<5} {result.nodes:>10,} "
                    f"{seconds:>8.1f} {cpu:>6.1f} {peak:>6.0f} {result.value:>6}  "
                    f"{result.best.notation(edition)}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
