"""The chance of finishing first against one opponent or several, from the margins to each at the
horizon of a rollout.

The model (this package's ``README.md``, "The value of a candidate in one iteration"): from the
horizon to the end of the game, every seat adds to its score a normal amount of its own,
independent of the others', with the same variance for every seat and a mean that depends on
its place in the order of moving. Our final margin over opponent ``i`` is then

    d_i + (m_me - m_i) + sigma (Z_me - Z_i)

and the chance of finishing first, every final margin above 0, is

    P = integral over z of phi(z) x product over i of Phi((d_i + m_me - m_i) / sigma + z)

(the margins' noises share our own term ``Z_me``, so they are correlated). The integral is
taken by Gauss-Hermite quadrature (:data:`NODES` nodes); with one opponent it is the closed
form ``Phi((d + m_me - m_1) / sd)``, ``sd = sigma sqrt 2`` the standard deviation of a margin's
change: the two-player model exactly, to the last bit.

**The scales, from the two-player model** (``rollouts.REMAINING_GAME``: the variance of the
spread still to come, ``var_base + var_per_tile x bag``, and the tempo, the points the player
to move is ahead by at the end on average, both fitted in two-player games):

- *The variance of one seat's remaining score.* With two seats the spread's variance is the sum
  of the two seats', so each has half of it. The part that grows with the bag comes from the
  turns still to play: with ``n`` seats the same tiles give each seat ``2 / n`` of the turns
  it would have with two, so its variance per tile is ``var_per_tile / n``; the part left with
  an empty bag (each seat's last play or two, and the rack counted against it) stays
  ``var_base / 2``:

      sigma^2 = var_base / 2 + var_per_tile x bag / n
      sd^2 = 2 sigma^2 = var_base + var_per_tile x bag x 2 / n

- *The tempo.* If the game ends at a random point of the last round, the seat ``k``-th to move
  after the horizon (``k = 0`` the next to move) has one more turn than the last with chance
  ``(n - 1 - k) / n``. With two seats the difference is half a turn and worth ``tempo``
  points, so a turn is worth ``2 x tempo``, and seat ``k``'s mean is
  ``2 x tempo x (n - 1 - k) / n`` (two seats: ``tempo`` for the next to move, 0 for the other,
  as today).

At the end of the game nothing is left to chance: a share of first place, ``1 / (1 + ties)``
when no opponent is ahead (the game's winners share a win: ``Game.winners``), else 0.

>>> round(first_chance([0.0], 30.0, [0.0]), 6), round(first_chance([0.0, 0.0], 30.0, [0.0, 0.0]), 6)
(0.5, 0.333333)
>>> final_share([12.0, 0.0, 30.0]), final_share([-1.0, 5.0])
(0.5, 0.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

NODES = 24
"""Gauss-Hermite nodes for two opponents or more: the chance is then right to about 1e-8 (with
one opponent the quadrature's result is checked against the closed form in the tests)."""

_X, _W = np.polynomial.hermite_e.hermegauss(NODES)
_NODES: tuple[tuple[float, float], ...] = tuple(
    (float(x), float(w) / math.sqrt(2.0 * math.pi)) for x, w in zip(_X, _W, strict=True))
"""(node, weight) pairs of the standard normal's Gauss-Hermite rule (the weights sum to 1)."""

_SQRT2 = math.sqrt(2.0)


def first_chance(margins: Sequence[float], sd: float, ahead: Sequence[float]) -> float:
    """The chance that every final margin is above 0: ``margins[i]`` our margin over opponent
    ``i`` at the horizon, ``ahead[i]`` what we add to it on average by the end (our seat's mean
    minus theirs), ``sd`` the standard deviation of a margin's change to the end (two seats'
    noise: one seat's is ``sd / sqrt 2``)."""
    if len(margins) == 1:
        return 0.5 * math.erfc(-(margins[0] + ahead[0]) / (sd * _SQRT2))
    sigma = sd / _SQRT2
    shifted = [(d + a) / sigma for d, a in zip(margins, ahead, strict=True)]
    total = 0.0
    for z, w in _NODES:
        product = w
        for s in shifted:
            product *= 0.5 * math.erfc(-(s + z) / _SQRT2)
        total += product
    return min(1.0, max(0.0, total))


def margin_sd(var_base: float, var_per_tile: float, bag: int, seats: int) -> float:
    """The standard deviation of a margin's change to the end with ``bag`` tiles in the bag
    and ``seats`` seats, from the two-player spread's variance (see the module's docstring):
    ``sqrt(var_base + var_per_tile x bag x 2 / seats)``."""
    return math.sqrt(var_base + var_per_tile * bag * 2 / seats)


def seat_means(tempo: float, seats: int) -> list[float]:
    """The mean remaining score of the seat ``k``-th to move after the horizon (``k = 0``
    the next), relative to the last: ``2 x tempo x (seats - 1 - k) / seats``."""
    return [2.0 * tempo * (seats - 1 - k) / seats for k in range(seats)]


def final_share(margins: Sequence[float]) -> float:
    """Our share of first place at the end of the game, from the final margins: 0 if an
    opponent is ahead, else 1 shared with every opponent level with us."""
    if min(margins) < 0:
        return 0.0
    return 1.0 / (1 + sum(1 for d in margins if d == 0))


__all__ = ["NODES", "final_share", "first_chance", "margin_sd", "seat_means"]
