"""The bag: the tiles not yet drawn, in an order fixed by the game's seed.

The seed is part of the game: the same seed and the same sequence of draws and returns give the
same tiles, so a game replays exactly. Nothing outside the game ever sees the order.

>>> from letras.editions import find_edition
>>> a, b = Bag(find_edition("en").tiles, seed=7), Bag(find_edition("en").tiles, seed=7)
>>> a.draw(7) == b.draw(7), len(a)
(True, 93)
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from letras.tiles import TileSet


class Bag:
    """A seeded bag of tile codes (``0`` = blank)."""

    __slots__ = ("_rng", "_tiles")

    def __init__(self, tiles: TileSet, seed: int | str) -> None:
        self._tiles = [code for code, n in enumerate(tiles.counts) for _ in range(n)]
        self._rng = random.Random(seed)

    def __len__(self) -> int:
        return len(self._tiles)

    def draw(self, n: int) -> list[int]:
        """Draw up to ``n`` tiles at random (fewer when the bag runs short)."""
        out = []
        for _ in range(min(n, len(self._tiles))):
            i = self._rng.randrange(len(self._tiles))
            self._tiles[i], self._tiles[-1] = self._tiles[-1], self._tiles[i]
            out.append(self._tiles.pop())
        return out

    def put_back(self, tiles: Iterable[int]) -> None:
        """Return tiles to the bag (their place is random at the next draw)."""
        self._tiles.extend(tiles)

    def take(self, tile: int) -> bool:
        """Take out one ``tile`` chosen by the caller (a record says a player drew it);
        False, and nothing changes, when the bag holds none."""
        try:
            self._tiles.remove(tile)
        except ValueError:
            return False
        return True

    def counts(self, size: int) -> list[int]:
        """How many of each tile code the bag holds (for unseen-tile counts, never the order)."""
        counts = [0] * size
        for t in self._tiles:
            counts[t] += 1
        return counts
