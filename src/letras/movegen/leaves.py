"""The numbering of a rack's leaves: every sub-multiset of a rack has one index.

The index is a number in mixed radix over the rack's distinct tile codes in increasing order:
the place of code ``t`` is as big as the rack's count of ``t`` plus one, and its digit is the
number of ``t`` kept. So the empty leave is index 0 and the whole rack (every tile kept) is the
last, ``size - 1``. The radix comes as an array of :data:`CODES` places, one per tile code
(0 for the codes the rack lacks), because that is how compiled code takes it.

Everything that numbers leaves uses this one scheme: the move generator adds
``values[index]`` of a :class:`RackLeaves` to the score of the play that keeps that leave, a
:class:`~letras.ai.leaves.klv.LeaveTable` fills a :class:`RackLeaves` in compiled code, and the
equity player and the simulation read the tiles back from an index.

>>> numbering = LeaveNumbering([5, 0, 5])      # a blank and two of tile 5
>>> numbering.size, int(numbering.radix[0]), int(numbering.radix[5])
(6, 1, 2)
>>> [numbering.leave(i) for i in range(numbering.size)]
[(), (0,), (5,), (0, 5), (5, 5), (0, 5, 5)]
>>> numbering.index((5, 0)), numbering.kept(3)
(3, (1, 1))
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from letras.tiles import BLANK, BLANK_BIT

CODES = 64
"""Rack tile codes are below this: the radix has a place for each."""

LeaveValue = Callable[[tuple[int, ...]], float]
"""A caller's value of the tiles a play keeps (its leave), given as sorted tile codes."""


class RackLeaves(NamedTuple):
    """The value of every leave one rack can keep, by index (see the module docstring): the
    leave keeping ``c`` tiles of code ``t`` is ``values[sum(c * radix[t])]``."""

    values: npt.NDArray[np.float64]
    radix: npt.NDArray[np.int64]


class LeaveNumbering:
    """The leaves of one rack, numbered (see the module docstring)."""

    def __init__(self, rack: Sequence[int]) -> None:
        counts = Counter(rack)
        self.rack = tuple(sorted(rack))
        self.codes = tuple(sorted(counts))
        """The distinct tile codes of the rack, in increasing order."""
        self.counts = tuple(counts[t] for t in self.codes)
        """How many of each of :attr:`codes` the rack holds."""
        self.radix = np.zeros(CODES, np.int64)
        size = 1
        for t, c in zip(self.codes, self.counts, strict=True):
            self.radix[t] = size
            size *= c + 1
        self.size = size
        """How many leaves the rack has (the empty one and the whole rack included)."""

    @property
    def full(self) -> int:
        """The index of the whole rack (every tile kept)."""
        return self.size - 1

    def index(self, leave: Sequence[int]) -> int:
        """The index of a leave (tiles in any order; they must be on the rack)."""
        return sum(int(self.radix[t]) for t in leave)

    def kept(self, index: int) -> tuple[int, ...]:
        """How many of each of :attr:`codes` the leave ``index`` keeps."""
        return tuple(index // int(self.radix[t]) % (c + 1)
                     for t, c in zip(self.codes, self.counts, strict=True))

    def leave(self, index: int) -> tuple[int, ...]:
        """The tiles (sorted) that leave ``index`` keeps."""
        return tuple(t for t, k in zip(self.codes, self.kept(index), strict=True)
                     for _ in range(k))

    def kept_of(self, indices: npt.NDArray[np.int64], code: int) -> npt.NDArray[np.int64]:
        """How many tiles of ``code`` each of the leaves ``indices`` keeps."""
        count = self.counts[self.codes.index(code)]
        kept: npt.NDArray[np.int64] = (indices // self.radix[code]) % (count + 1)
        return kept

    def after(self, tiles: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
        """The index of the leave each play keeps, from the plays' tiles (one row a play, as
        :attr:`~letras.movegen.Plays.tiles`: 0 where it plays through a board tile, a blank's
        tile with :data:`~letras.tiles.BLANK_BIT` set)."""
        played = np.zeros(len(tiles), np.int64)
        for t in self.codes:
            used = (tiles >= BLANK_BIT) if t == BLANK else (tiles == t)
            played += int(self.radix[t]) * used.sum(axis=1, dtype=np.int64)
        indices: npt.NDArray[np.int64] = self.full - played
        return indices

    def __iter__(self) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Every (index, leave), the count of the lowest tile code varying slowest (so the
        leaves come in sorted order of their counts, lowest code first)."""
        for kept in itertools.product(*(range(c + 1) for c in self.counts)):
            leave = tuple(t for t, k in zip(self.codes, kept, strict=True) for _ in range(k))
            index = sum(k * int(self.radix[t]) for t, k in zip(self.codes, kept, strict=True))
            yield index, leave


def leave_radix(rack: Sequence[int]) -> tuple[npt.NDArray[np.int64], int]:
    """The radix of the rack's leaves and how many leaves there are (see the module
    docstring).

    >>> radix, size = leave_radix([5, 0, 5])
    >>> int(radix[0]), int(radix[5]), size
    (1, 2, 6)
    """
    numbering = LeaveNumbering(rack)
    return numbering.radix, numbering.size


def leave_table(rack: Sequence[int], leave_value: LeaveValue) -> RackLeaves:
    """The value of every leave of the rack by index, ``leave_value`` asked once for each, in
    the order of :meth:`LeaveNumbering.__iter__`."""
    numbering = LeaveNumbering(rack)
    table = np.zeros(numbering.size, np.float64)
    for index, leave in numbering:
        table[index] = leave_value(leave)
    return RackLeaves(table, numbering.radix)


@njit(cache=True, inline="always")
def kept_count(index: Any, radix: Any, code: Any, count: Any) -> Any:  # pragma: no cover
    """For compiled code: how many tiles of ``code`` (the rack holds ``count``) the leave
    ``index`` keeps."""
    return (index // radix[code]) % (count + 1)


@njit(cache=True, inline="always")
def index_of_counts(counts: Any, radix: Any) -> Any:  # pragma: no cover - compiled
    """For compiled code: the index of the leave that keeps ``counts[t]`` tiles of each code
    ``t`` (an array of :data:`CODES` counts)."""
    index = 0
    for code in range(CODES):
        index += counts[code] * radix[code]
    return index


__all__ = [
    "CODES",
    "LeaveNumbering",
    "LeaveValue",
    "RackLeaves",
    "index_of_counts",
    "kept_count",
    "leave_radix",
    "leave_table",
]
