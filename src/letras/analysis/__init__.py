"""Analysis of a game: the best plays of every turn of a record, what each play made cost, and
each player's win chance over the game.

- :mod:`letras.analysis.analyze`: :func:`analyze` (a GCG record -> :class:`GameAnalysis`);
- :mod:`letras.analysis.model`: the results as plain data, and their JSON shape
  (``letras/formats/data/analysis.schema.json``);
- :mod:`letras.analysis.winchance`: the win chance by spread and tiles unseen, a table per
  edition learned from self-play (``data/README.md``);
- :mod:`letras.analysis.picture`: the win chance over the game as an SVG (needs matplotlib,
  the ``analysis`` extra).

``letras analyze`` (:mod:`letras.cli.analyze`) is the command line over it. The package sits
above the AI and the formats and below the front ends: nothing here prints, reads files or
knows a language.
"""

from __future__ import annotations

from letras.analysis.analyze import BEST, LEVELS, SIM_WORK, AnalysisError, analyze
from letras.analysis.model import (
    SCHEMA_VERSION,
    GameAnalysis,
    Option,
    PlayerSummary,
    TurnAnalysis,
    WinPoint,
)
from letras.analysis.winchance import WinTable, WinTableError, shipped_win_table

__all__ = [
    "BEST",
    "LEVELS",
    "SCHEMA_VERSION",
    "SIM_WORK",
    "AnalysisError",
    "GameAnalysis",
    "Option",
    "PlayerSummary",
    "TurnAnalysis",
    "WinPoint",
    "WinTable",
    "WinTableError",
    "analyze",
    "shipped_win_table",
]
