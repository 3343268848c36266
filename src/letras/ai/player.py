"""What every AI player is: ``choose(view, limit) -> action``, from what its seat may see.

A player is built with a lexicon (a word graph, for the move generator) and an optional seed,
and is then asked for one action at a time with a :class:`~letras.game.PlayerView`: the board,
its own rack, the scores and the counts of the unseen tiles. It is never given the game, the
other racks or the order of the bag, so it cannot cheat, and it keeps no state between turns
that it could not rebuild from the view.

>>> limit = Limit(seconds=0.5)
>>> limit.seconds, limit.work, Limit().unlimited
(0.5, None, True)
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from letras.errors import LetrasError
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.play import Exchange, Pass, Place

Choice = Place | Exchange | Pass
"""What a player may answer: lay tiles, exchange tiles or pass."""


class UnknownLevelError(LetrasError):
    """No AI level has that name."""


@dataclass(frozen=True)
class Limit:
    """How much a player may spend on one choice: wall-clock ``seconds``, or ``work`` in units
    the level defines (simulated plays, searched positions). None is no bound.

    The one-look levels (``random``, ``greedy``, ``equity``) do a small fixed amount of work,
    far under any sensible limit, and ignore it; the searching levels stop at whichever bound
    comes first.
    """

    seconds: float | None = None
    work: int | None = None

    @property
    def unlimited(self) -> bool:
        return self.seconds is None and self.work is None

    def deadline(self, start: float | None = None) -> float:
        """The ``time.perf_counter()`` value to stop at (infinity without ``seconds``)."""
        if self.seconds is None:
            return float("inf")
        return (time.perf_counter() if start is None else start) + self.seconds


NO_LIMIT = Limit()


class Player(ABC):
    """An AI seat. Subclasses set :attr:`level` and implement :meth:`choose`."""

    level: ClassVar[str]
    """The name that :func:`letras.ai.get_player` finds this player by."""

    def __init__(self, lexicon: WordGraph, *, seed: int | None = None) -> None:
        self.lexicon = lexicon
        self.seed = seed

    @abstractmethod
    def choose(self, view: PlayerView, limit: Limit = NO_LIMIT) -> Choice:
        """The action to take for the seat whose view this is (the player to move)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.level!r} {self.lexicon.name}>"


def can_exchange(view: PlayerView) -> bool:
    """May the player to move exchange now (enough tiles in the bag)?"""
    return view.bag_count >= view.rules.exchange_min_bag and view.bag_count > 0
