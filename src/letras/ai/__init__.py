"""AI players: each chooses an action from what its seat may see.

A player is ``choose(view, limit) -> action`` (:class:`~letras.ai.player.Player`): it gets a
:class:`~letras.game.PlayerView` (never the game, the other racks or the bag order) and a
:class:`~letras.ai.player.Limit`, and answers a :class:`~letras.play.Place`, an
:class:`~letras.play.Exchange` or a :class:`~letras.play.Pass`. Levels are found by name:

- ``random``: a legal play at random (:mod:`letras.ai.simple`);
- ``easy``: short words, and only the plays it happens to notice: for beginners
  (:mod:`letras.ai.casual`);
- ``greedy``: the highest-scoring play (:mod:`letras.ai.simple`);
- ``medium``: equity's judgement, not always its first choice (:mod:`letras.ai.casual`);
- ``equity``: score plus the value of the tiles kept (learned by self-play, shipped per
  edition) plus simple positional terms, with exchanges and passing considered
  (:mod:`letras.ai.equity`, :mod:`letras.ai.leaves`, :mod:`letras.ai.leaves.klv`);
- ``sim``: Monte Carlo look-ahead over the equity player's best candidates, with sampled
  opponent racks and draws, by win chance and spread (:mod:`letras.ai.sim`);
- ``endgame``: once the bag is empty, an exact search of the rest of the game for two
  players, sampled play-outs for more; before that, as ``equity`` (:mod:`letras.ai.endgame`);
- ``best``: equity for the opening, sim in the middle, the pre-endgame with one tile in
  the bag, endgame at the end (:mod:`letras.ai.best`).

The difficulty levels of casual play are ``easy``, ``medium``, ``equity`` (hard) and ``best``
(strongest); :data:`DIFFICULTIES` names them.

Self-play matches between levels are in :mod:`letras.ai.selfplay`.

>>> from letras.editions import find_edition
>>> from letras.game import Game
>>> from letras.lexicon.kwg import WordGraph
>>> en = find_edition("en")
>>> words = WordGraph.build(en, ["FOND", "DO", "NOD", "FAY"])
>>> levels()
('random', 'easy', 'greedy', 'medium', 'equity', 'sim', 'endgame', 'best')
>>> player = get_player("greedy", words)
>>> game = Game(en, ["Ana", "Bruno"], seed=1, lexicon=words)
>>> player.choose(game.view(game.to_move)).notation(en)
'8G FAY'
>>> get_player("grandmaster", words)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
letras.ai.player.UnknownLevelError: unknown AI level 'grandmaster' (known: random, easy, ...)
"""

from __future__ import annotations

from letras.ai.best import BestPlayer
from letras.ai.casual import EasyPlayer, MediumPlayer
from letras.ai.endgame import EndgamePlayer
from letras.ai.equity import Candidate, EquityPlayer
from letras.ai.leaves import HeuristicLeaves, LeaveEvaluator
from letras.ai.player import NO_LIMIT, Choice, Limit, Player, UnknownLevelError
from letras.ai.sim import SimPlayer
from letras.ai.simple import GreedyPlayer, RandomPlayer
from letras.lexicon.kwg import WordGraph

_LEVELS: dict[str, type[Player]] = {}


def register(player: type[Player]) -> type[Player]:
    """Make a player class findable by its ``level`` name (usable as a class decorator)."""
    _LEVELS[player.level] = player
    return player


for _cls in (RandomPlayer, EasyPlayer, GreedyPlayer, MediumPlayer, EquityPlayer, SimPlayer,
             EndgamePlayer, BestPlayer):
    register(_cls)

DIFFICULTIES = {"easy": "easy", "medium": "medium", "hard": "equity", "expert": "best"}
"""Difficulty names for casual play and the level each stands for."""


def levels() -> tuple[str, ...]:
    """The names of the levels, weakest first."""
    return tuple(_LEVELS)


def check_level(name: str) -> str:
    """The level's name, normalised (a difficulty name gives its level); :class:`UnknownLevelError`
    when there is no such level.

    >>> check_level(" Hard "), check_level("expert"), check_level("sim")
    ('equity', 'best', 'sim')
    """
    key = name.strip().lower()
    key = DIFFICULTIES.get(key, key)
    if key not in _LEVELS:
        raise UnknownLevelError(
            f"unknown AI level {name!r} (known: {', '.join(_LEVELS)})",
            key="seat.level", level=name, known=", ".join(_LEVELS),
        )
    return key


def get_player(name: str, lexicon: WordGraph, *, seed: int | None = None) -> Player:
    """A new player of level ``name`` that looks words up in ``lexicon``; ``seed`` fixes the
    choices of levels that draw at random."""
    return _LEVELS[check_level(name)](lexicon, seed=seed)


__all__ = [
    "DIFFICULTIES",
    "NO_LIMIT",
    "BestPlayer",
    "Candidate",
    "Choice",
    "EasyPlayer",
    "EndgamePlayer",
    "EquityPlayer",
    "GreedyPlayer",
    "HeuristicLeaves",
    "LeaveEvaluator",
    "Limit",
    "MediumPlayer",
    "Player",
    "RandomPlayer",
    "SimPlayer",
    "UnknownLevelError",
    "check_level",
    "get_player",
    "levels",
    "register",
]
