"""Racks as multisets of tiles: counts, what a play or an exchange leaves, differences.

A rack is a sequence of rack tile codes (``0`` is the blank, :data:`~letras.tiles.BLANK`) in
any order. A play lays tiles of the board, where a blank carries the letter it stands for
(:data:`~letras.tiles.BLANK_BIT`): the tile it takes from the rack is the blank
(:func:`~letras.tiles.rack_tile`). What the rack keeps after an action is its *leave*.

>>> from letras.editions import find_edition
>>> from letras.play import Exchange, Place
>>> en = find_edition("en")
>>> rack = en.tiles.parse("SATINE?", rack=True)
>>> en.tiles.format(leave(rack, Place.parse("8D SAtIN", en)), rack=True)
'TE'
>>> en.tiles.format(kept(rack, Exchange(en.tiles.parse("ST", rack=True))), rack=True)
'?AEIN'
>>> left, missing = minus(rack, en.tiles.parse("SSE", rack=True))
>>> en.tiles.format(left, rack=True), en.tiles.format(missing, rack=True)
('?AINT', 'S')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from letras.play import Exchange, Pass, Place
from letras.tiles import THROUGH, rack_tile


def counts(tiles: Iterable[int], size: int) -> list[int]:
    """How many of each rack tile code ``0 .. size - 1`` the tiles hold (a blank standing for
    a letter counts as a blank).

    >>> counts([3, 1, 3, 0x81], 4)
    [1, 1, 0, 2]
    """
    out = [0] * size
    for t in tiles:
        out[rack_tile(t)] += 1
    return out


def from_counts(counts: Iterable[int]) -> tuple[int, ...]:
    """The tiles of counts per code (as :func:`counts` gives them), sorted.

    >>> from_counts([1, 0, 2])
    (0, 2, 2)
    """
    return tuple(t for t, n in enumerate(counts) for _ in range(n))


def without(rack: Sequence[int], tiles: Iterable[int]) -> list[int]:
    """The rack less ``tiles`` (rack codes), in the rack's order; :class:`ValueError` if the
    rack lacks one.

    >>> without([5, 0, 5, 2], [5, 2])
    [0, 5]
    """
    left = list(rack)
    for t in tiles:
        left.remove(t)
    return left


def played(place: Place) -> list[int]:
    """The rack tiles a play lays (a blank as the blank), in the order along its line."""
    return [rack_tile(t) for t in place.tiles if t != THROUGH]


def leave(rack: Sequence[int], place: Place) -> list[int]:
    """The rack tiles left after the play, in the rack's order."""
    return without(rack, played(place))


def kept(rack: Sequence[int], action: Place | Exchange | Pass) -> tuple[int, ...]:
    """The tiles left on the rack after ``action``, before drawing, sorted."""
    if isinstance(action, Place):
        return tuple(sorted(leave(rack, action)))
    if isinstance(action, Exchange):
        return tuple(sorted(without(rack, action.tiles)))
    return tuple(sorted(rack))


def minus(have: Iterable[int], take: Iterable[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``have`` less ``take`` as multisets, leniently: (what is left, what ``have`` lacked),
    both sorted."""
    left, missing = Counter(have), Counter(take)
    missing.subtract(left)
    left.subtract(Counter(take))
    return tuple(sorted((+left).elements())), tuple(sorted((+missing).elements()))


__all__ = ["counts", "from_counts", "kept", "leave", "minus", "played", "without"]
