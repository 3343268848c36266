"""letras: the crossword tile game, with exact rules for several national editions.

>>> import letras
>>> letras.find_edition("pt-BR").tiles.total
120
"""

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
