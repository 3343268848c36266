"""The long fuzz run of the saved-game loader (issue 16), by mutation of real saved games.

Saved games are made from random games of every edition (plays, exchanges, passes, challenges,
clocks) and from the GCG records in ../shared/gcg (their moves carry racks and final counts).
Each round changes one to three values of a document (a hostile value: huge or non-finite
numbers, wrong types, nesting, text) or deletes them, and now and then damages the JSON text
itself, then loads it with ``Game.from_dict`` / ``Game.from_json``. Anything but success or a
``LetrasError`` is a finding, and so is a document that loads but does not save and load again
the same, or a load slower than ``--slow`` seconds. Run by hand:

    .venv/bin/python bench/fuzz_saved.py [--seconds S] [--seed N]

It prints the rounds run, how many documents loaded and how many were refused, and each finding.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from letras.editions import TimeControl, find_edition
from letras.errors import LetrasError
from letras.game import Game
from letras.lexicon import WordList, load_lexicon
from letras.lexicon.kwg import WordGraph
from letras.movegen import top_plays

SHARED = Path(__file__).resolve().parents[2] / "shared"
HOSTILE: list[Any] = [None, True, False, 0, -1, 3, 4, 7, 2**64, 10**5000, 1.7, 0.0, 1e400,
                      -math.inf, math.nan, "", "2", "place", "resign", "8H FOND", "move:3m",
                      "?", "x" * 300, [], [0], [[0, "A"]], {}, {"kind": "game"}, [[[[[]]]]]]


def random_game(edition: str, seed: int) -> Game:
    found = find_edition(edition)
    clock = [TimeControl(), TimeControl("game", 60), TimeControl("move", 30)][seed % 3]
    graph = load_lexicon(found)
    assert isinstance(graph, WordGraph)
    game = Game(found, [f"P{i}" for i in range(2 + seed % 3)], seed=seed,
                rules=found.rules.replace(time_control=clock), lexicon=graph)
    rng = random.Random(seed)
    for _ in range(40):
        if game.over:
            break
        if game.pending_goes_out:
            game.accept()
            continue
        roll = rng.random()
        seconds = rng.choice([None, 2.0, 45.0])
        if game.pending_player is not None and roll < 0.15:
            by = next(p for p in range(len(game.players)) if p != game.pending_player)
            game.challenge(by, valid=rng.random() < 0.5)
            continue
        plays = top_plays(game.board, game.rack(game.to_move), graph, 5)
        try:
            if roll < 0.2:
                game.exchange(game.rack(game.to_move)[:2], seconds=seconds)
            elif roll < 0.3 or not plays:
                game.pass_turn(seconds=seconds)
            else:
                game.play(rng.choice(plays)[0], seconds=seconds)
        except LetrasError:  # an exchange with too few tiles in the bag
            game.pass_turn(seconds=seconds)
    return game


def documents() -> list[dict[str, Any]]:
    docs = [random_game(e, s).to_dict() for s in range(6) for e in ("en", "es", "it", "pt-BR")]
    for path in sorted((SHARED / "gcg").glob("*.gcg"))[:12]:
        try:
            docs.append(Game.from_gcg(path.read_bytes(), seed=1).to_dict())
        except LetrasError:
            continue
    return docs


def paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, (*path, i))
    return out


def mutate(rng: random.Random, doc: dict[str, Any]) -> dict[str, Any] | str:
    doc = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths(doc)[1:])
        parent: Any = doc
        try:
            for key in path[:-1]:
                parent = parent[key]
            if rng.random() < 0.3 and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = copy.deepcopy(rng.choice(HOSTILE))
        except (KeyError, IndexError, TypeError):
            continue
    if rng.random() < 0.25:
        try:
            text = json.dumps(doc)
        except ValueError:
            return doc
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(["", "[", "]", "}", '"', "9" * 5000, "-", "[" * 3000]) + text[
            i + rng.randint(0, 3):]
    return doc


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--slow", type=float, default=2.0)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    docs = documents()
    words = WordList(find_edition("en"), [])
    rounds = loaded = refused = 0
    findings: list[str] = []
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        rounds += 1
        doc = mutate(rng, rng.choice(docs))
        start = time.monotonic()
        try:
            game = (Game.from_json(doc, lexicon=words) if isinstance(doc, str)
                    else Game.from_dict(doc, lexicon=words))
            again = Game.from_json(game.to_json(), lexicon=words)
            if again.moves != game.moves or again.scores != game.scores:
                findings.append(f"round {rounds}: loads, but does not save and load the same")
            loaded += 1
        except LetrasError:
            refused += 1
        except Exception:
            findings.append(f"round {rounds}: {traceback.format_exc()}")
        if time.monotonic() - start > args.slow:
            findings.append(f"round {rounds}: {time.monotonic() - start:.1f} s")
    print(f"{rounds} rounds in {args.seconds:.0f} s from {len(docs)} saved games: "
          f"{loaded} loaded, {refused} refused, {len(findings)} findings")
    for finding in findings[:20]:
        print(finding)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
