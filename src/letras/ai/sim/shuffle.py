"""The shuffle of the bag after an exchange in the look-ahead, the same in Python and in
compiled code: a Fisher-Yates shuffle driven by splitmix64 (Steele, Lea and Flood 2014), so
the Python rollouts (:mod:`letras.ai.sim.rollouts`) and the compiled ones
(:mod:`letras.ai.sim.compiled`) put the thrown tiles back in the same places.

>>> import numpy as np
>>> tiles = np.arange(10, dtype=np.int64)
>>> shuffle_tiles(tiles, 10, 7)
>>> sorted(tiles.tolist()) == list(range(10)), tiles.tolist() != list(range(10))
(True, True)
>>> again = np.arange(10, dtype=np.int64)
>>> shuffle_tiles(again, 10, 7)
>>> again.tolist() == tiles.tolist()
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def shuffle_tiles(tiles: Any, n: int, seed: int) -> None:  # pragma: no cover - compiled
    """Shuffle the first ``n`` of ``tiles`` in place, from ``seed`` (0 to 2**63 - 1): for
    ``i`` from ``n - 1`` down to 1, swap place ``i`` with place ``next() % (i + 1)``, where
    ``next()`` is the splitmix64 sequence from the seed."""
    state = np.uint64(seed)
    for i in range(n - 1, 0, -1):
        state = state + _GAMMA
        z = state
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        z = z ^ (z >> np.uint64(31))
        j = np.int64(z % np.uint64(i + 1))
        t = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = t


__all__ = ["shuffle_tiles"]
