"""The two plainest levels: ``random`` and ``greedy``.

- ``random`` lays one of the legal plays, each as likely as the others (a seeded choice
  among every play the generator finds); with none, it passes.
- ``greedy`` lays the highest-scoring play (the first one generated among equals); with none,
  it exchanges its whole rack if the bag allows, else passes.

>>> from letras.editions import find_edition
>>> from letras.game import Game
>>> from letras.lexicon.kwg import WordGraph
>>> en = find_edition("en")
>>> words = WordGraph.build(en, ["FOND", "DO", "NOD", "FAY"])
>>> game = Game(en, ["Ana", "Bruno"], seed=1, lexicon=words)
>>> en.tiles.format(game.rack(game.to_move), rack=True)
'ADFNNOY'
>>> GreedyPlayer(words).choose(game.view(game.to_move)).notation(en)
'8G FAY'
>>> RandomPlayer(words, seed=3).choose(game.view(game.to_move)).notation(en)
'8H NOD'
"""

from __future__ import annotations

import random

from letras.ai.player import NO_LIMIT, Choice, Limit, Player, can_exchange
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.movegen import best_play, generate
from letras.play import Exchange, Pass


class RandomPlayer(Player):
    """A legal play chosen uniformly at random; a pass when there is none."""

    level = "random"

    def __init__(self, lexicon: WordGraph, *, seed: int | None = None) -> None:
        super().__init__(lexicon, seed=seed)
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, limit: Limit = NO_LIMIT) -> Choice:
        plays = generate(view.board, view.rack, self.lexicon, bingo_bonus=view.rules.bingo_bonus,
                         join_words=view.may_join_words)
        if not len(plays):
            return Pass()
        return plays.place(self.rng.randrange(len(plays)))


class GreedyPlayer(Player):
    """The highest-scoring play; without one, an exchange of the whole rack or a pass."""

    level = "greedy"

    def choose(self, view: PlayerView, limit: Limit = NO_LIMIT) -> Choice:
        best = best_play(view.board, view.rack, self.lexicon, bingo_bonus=view.rules.bingo_bonus,
                         join_words=view.may_join_words)
        if best is not None:
            return best[0]
        if can_exchange(view) and view.rack:
            return Exchange(tuple(view.rack))
        return Pass()
