"""The ``endgame`` level: once the bag is empty, search the rest of the game.

- :mod:`letras.ai.endgame.player`: :class:`EndgamePlayer` and :func:`solve`;
- :mod:`letras.ai.endgame.position`: what a search takes and gives;
- :mod:`letras.ai.endgame.compiled`: the exact search for two players, on the compiled core
  of :mod:`letras.ai.endgame.core` (plays along lanes: :mod:`letras.ai.endgame.lanes`);
- :mod:`letras.ai.endgame.search`: the same search in Python, the reference;
- :mod:`letras.ai.endgame.plays`: its plays, made incrementally, and the compiled helpers that
  value them near the horizon;
- :mod:`letras.ai.endgame.multi`: sampled play-outs for three or four players.

How the searches work is told in this package's ``README.md``.
"""

from __future__ import annotations

from letras.ai.endgame.multi import MULTI_CANDIDATES, MULTI_SAMPLES
from letras.ai.endgame.player import DEFAULT_LIMIT, EndgamePlayer, solve
from letras.ai.endgame.position import (
    EndgameError,
    EndgamePosition,
    EndgameResult,
    Iteration,
    horizon_value,
    turns_in_row,
    unseen_tiles,
)
from letras.ai.endgame.search import DEPTHS

__all__ = [
    "DEFAULT_LIMIT",
    "DEPTHS",
    "MULTI_CANDIDATES",
    "MULTI_SAMPLES",
    "EndgameError",
    "EndgamePlayer",
    "EndgamePosition",
    "EndgameResult",
    "Iteration",
    "horizon_value",
    "solve",
    "turns_in_row",
    "unseen_tiles",
]
