"""The ``sim`` level: Monte Carlo look-ahead over the tiles it cannot see.

- :mod:`letras.ai.sim.player`: :class:`SimPlayer` and the loop over iterations;
- :mod:`letras.ai.sim.rollouts`: one iteration's deal and the rollout of a candidate on it;
- :mod:`letras.ai.sim.compiled`: the same rollouts compiled end to end (with
  :mod:`letras.ai.sim.plies` and :mod:`letras.ai.sim.shuffle`);
- :mod:`letras.ai.sim.inference`: what the opponent kept at their last play;
- :mod:`letras.ai.sim.stopping`: which candidates to drop, and which to choose.

How it works is told in this package's ``README.md``.
"""

from __future__ import annotations

from letras.ai.sim.inference import Inference, LastPlay, infer_leaves
from letras.ai.sim.player import (
    CANDIDATES,
    DEFAULT_LIMIT,
    PLIES,
    SimCandidate,
    SimError,
    SimPlayer,
    Simulation,
)
from letras.ai.sim.rollouts import REMAINING_GAME

__all__ = [
    "CANDIDATES",
    "DEFAULT_LIMIT",
    "PLIES",
    "REMAINING_GAME",
    "Inference",
    "LastPlay",
    "SimCandidate",
    "SimError",
    "SimPlayer",
    "Simulation",
    "infer_leaves",
]
