"""letras: the crossword tile game, with exact rules for several national editions.

>>> import letras
>>> letras.find_edition("pt-BR").tiles.total
120
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from letras.board import Board, Direction, Square
    from letras.editions import Edition, RuleOptions, TimeControl, find_edition
    from letras.errors import (
        FormatError,
        IllegalPlayError,
        LetrasError,
        LexiconError,
        NotationError,
        RuleError,
        UnknownEditionError,
    )
    from letras.game import Game, Player, PlayerView
    from letras.lexicon import Lexicon, WordList
    from letras.play import Challenge, Exchange, Pass, Place
    from letras.rules import validate
    from letras.scoring import Score, score

_HOMES = {
    "Board": "board", "Direction": "board", "Square": "board",
    "Edition": "editions", "RuleOptions": "editions", "TimeControl": "editions",
    "find_edition": "editions",
    "FormatError": "errors", "IllegalPlayError": "errors", "LetrasError": "errors",
    "LexiconError": "errors", "NotationError": "errors", "RuleError": "errors",
    "UnknownEditionError": "errors",
    "Game": "game", "Player": "game", "PlayerView": "game",
    "Lexicon": "lexicon", "WordList": "lexicon",
    "Challenge": "play", "Exchange": "play", "Pass": "play", "Place": "play",
    "validate": "rules",
    "Score": "scoring", "score": "scoring",
}
"""The module of each name this package exports, imported on first use: a command imports
only what it needs (``letras moves`` never loads the game and its history)."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'letras' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"letras.{home}"), name)
    globals()[name] = value
    return value


__version__ = "0.1.0"

__all__ = [
    "Board",
    "Challenge",
    "Direction",
    "Edition",
    "Exchange",
    "FormatError",
    "Game",
    "IllegalPlayError",
    "LetrasError",
    "Lexicon",
    "LexiconError",
    "NotationError",
    "Pass",
    "Place",
    "Player",
    "PlayerView",
    "RuleError",
    "RuleOptions",
    "Score",
    "Square",
    "TimeControl",
    "UnknownEditionError",
    "WordList",
    "find_edition",
    "score",
    "validate",
]
