"""Opponents for casual play: ``easy`` and ``medium``, weaker on purpose.

The strong levels play the best they can find; a family game wants an opponent that a
beginner can beat. These two make human-looking mistakes rather than random ones:

- ``easy`` sees the plays a beginner sees. It takes the highest-scoring play (never a bingo)
  whose main word has at most :data:`EASY_WORD_LENGTH` letters among a random half of the plays,
  as if it missed the others, and values no leave; with no play it exchanges its whole rack when
  the bag allows, else passes.
- ``medium`` weighs its plays as ``equity`` does but does not always find the best: it picks
  among equity's :data:`MEDIUM_CHOICES` best actions, the best most often, each weighted by
  ``exp((equity - best) / MEDIUM_TEMPERATURE)``.

Both are seeded: the same seed and the same view give the same choice. Their strength against
the other levels is measured with ``letras selfplay`` (figures in ``bench/README.md``).

>>> from letras.editions import find_edition
>>> from letras.game import Game
>>> from letras.lexicon.kwg import WordGraph
>>> en = find_edition("en")
>>> words = WordGraph.build(en, ["FOND", "DO", "NOD", "FAY", "FADO", "FONDA"])
>>> game = Game(en, ["Ana", "Bruno"], seed=1, lexicon=words)
>>> view = game.view(game.to_move)
>>> play = EasyPlayer(words, seed=2).choose(view)
>>> len(play.tiles) <= EASY_WORD_LENGTH
True
>>> MediumPlayer(words, seed=2).choose(view) == MediumPlayer(words, seed=2).choose(view)
True
"""

from __future__ import annotations

import math
import random

import numpy as np

from letras.ai.equity import EquityPlayer
from letras.ai.player import NO_LIMIT, Choice, Limit, Player, can_exchange
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.movegen import generate
from letras.movegen.columns import LAID, LENGTH, SCORE
from letras.play import Exchange, Pass

EASY_WORD_LENGTH = 5
"""The longest main word the ``easy`` level lays."""
EASY_SEEN = 0.5
"""The share of the legal plays the ``easy`` level notices on a turn."""
MEDIUM_CHOICES = 5
"""How many of equity's best actions ``medium`` chooses among."""
MEDIUM_TEMPERATURE = 5.0
"""Points of equity by which a worse action becomes e times less likely for ``medium``."""


class EasyPlayer(Player):
    """A beginner: short words, the best of the plays it happens to notice."""

    level = "easy"

    def __init__(self, lexicon: WordGraph, *, seed: int | None = None) -> None:
        super().__init__(lexicon, seed=seed)
        self.rng = np.random.default_rng(seed)

    def choose(self, view: PlayerView, limit: Limit = NO_LIMIT) -> Choice:
        plays = generate(view.board, view.rack, self.lexicon, bingo_bonus=view.rules.bingo_bonus,
                         join_words=view.may_join_words)
        if len(plays):
            meta = plays.meta
            short = (meta[:, LENGTH] <= EASY_WORD_LENGTH) & (meta[:, LAID] < view.edition.rack_size)
            noticed = short & (self.rng.random(len(plays)) < EASY_SEEN)
            pool = np.flatnonzero(noticed) if noticed.any() else np.flatnonzero(short)
            if len(pool):
                best = pool[np.argmax(meta[pool, SCORE])]
                return plays.place(int(best))
        if can_exchange(view) and view.rack:
            return Exchange(tuple(sorted(view.rack)))
        return Pass()


class MediumPlayer(Player):
    """Equity's judgement with a chance of settling for a close second."""

    level = "medium"

    def __init__(self, lexicon: WordGraph, *, seed: int | None = None) -> None:
        super().__init__(lexicon, seed=seed)
        self.rng = random.Random(seed)
        self.equity = EquityPlayer(lexicon, seed=seed)

    def choose(self, view: PlayerView, limit: Limit = NO_LIMIT) -> Choice:
        ranked = self.equity.ranked(view, MEDIUM_CHOICES)
        best = ranked[0].equity
        weights = [math.exp(max(c.equity - best, -50.0) / MEDIUM_TEMPERATURE) for c in ranked]
        return self.rng.choices(ranked, weights)[0].choice


__all__ = ["EasyPlayer", "MediumPlayer"]
