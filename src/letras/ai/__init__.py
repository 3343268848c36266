"""AI players: each chooses an action from what its seat may see.

A player is ``choose(view, limit) -> action`` (:class:`~letras.ai.player.Player`): it gets a
:class:`~letras.game.PlayerView` (never the game, the other racks or the bag order) and a
:class:`~letras.ai.player.Limit`, and answers a :class:`~letras.play.Place`, an
:class:`~letras.play.Exchange` or a :class:`~letras.play.Pass`. Levels are found by name:

- ``random``: a legal play at random (:mod:`letras.ai.simple`);
- ``greedy``: the highest-scoring play (:mod:`letras.ai.simple`);
- ``equity``: score plus the value of the tiles kept plus simple positional terms, with
  exchanges and passing considered (:mod:`letras.ai.equity`, :mod:`letras.ai.leaves`).

Self-play matches between levels are in :mod:`letras.ai.selfplay`.

>>> from letras.editions import find_edition
>>> from letras.game import Game
>>> from letras.lexicon.kwg import WordGraph
>>> en = find_edition("en")
>>> words = WordGraph.build(en, ["FOND", "DO", "NOD", "FAY"])
>>> levels()
('random', 'greedy', 'equity')
>>> player = get_player("greedy", words)
>>> game = Game(en, ["Ana", "Bruno"], seed=1, lexicon=words)
>>> player.choose(game.view(game.to_move)).notation(en)
'8G FAY'
>>> get_player("grandmaster", words)
Traceback (most recent call last):
...
letras.ai.player.UnknownLevelError: unknown AI level 'grandmaster' (known: random, greedy, equity)
"""

from __future__ import annotations

from letras.ai.equity import Candidate, EquityPlayer
from letras.ai.leaves import HeuristicLeaves, LeaveEvaluator
from letras.ai.player import NO_LIMIT, Choice, Limit, Player, UnknownLevelError
from letras.ai.simple import GreedyPlayer, RandomPlayer
from letras.lexicon.kwg import WordGraph

_LEVELS: dict[str, type[Player]] = {}


def register(player: type[Player]) -> type[Player]:
    """Make a player class findable by its ``level`` name (usable as a class decorator)."""
    _LEVELS[player.level] = player
    return player


for _cls in (RandomPlayer, GreedyPlayer, EquityPlayer):
    register(_cls)


def levels() -> tuple[str, ...]:
    """The names of the levels, weakest first."""
    return tuple(_LEVELS)


def check_level(name: str) -> str:
    """The level's name, normalised; :class:`UnknownLevelError` when there is no such level."""
    key = name.strip().lower()
    if key not in _LEVELS:
        raise UnknownLevelError(
            f"unknown AI level {name!r} (known: {', '.join(_LEVELS)})"
        )
    return key


def get_player(name: str, lexicon: WordGraph, *, seed: int | None = None) -> Player:
    """A new player of level ``name`` that looks words up in ``lexicon``; ``seed`` fixes the
    choices of levels that draw at random."""
    return _LEVELS[check_level(name)](lexicon, seed=seed)


__all__ = [
    "NO_LIMIT",
    "Candidate",
    "Choice",
    "EquityPlayer",
    "GreedyPlayer",
    "HeuristicLeaves",
    "LeaveEvaluator",
    "Limit",
    "Player",
    "RandomPlayer",
    "UnknownLevelError",
    "check_level",
    "get_player",
    "levels",
    "register",
]
