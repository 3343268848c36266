"""Win chance: the probability that the player to move wins, from the spread and the tiles
unseen.

A :class:`WinTable` is learned per edition from self-play (``tools/win_table.py``; how, and
how big, in ``data/README.md``): for each bucket of tiles unseen by the player to move (the bag
and the opponent's rack; bucket ``k`` holds 7k+1 to 7k+7 tiles, so bucket 0 is the empty
bag), the chance of winning at each spread of a grid (the player to move's score minus the
opponent's). The tables are for two players. A lookup interpolates linearly in the spread
and between the centres of the unseen buckets; spreads beyond the grid take its last column.
Every row rises with the spread (the tool fits a logistic curve per bucket).

>>> table = WinTable("xx", spreads=(-10.0, 0.0, 10.0), win=((0.1, 0.5, 0.9),))
>>> table.chance(5, 3), table.chance(-40, 3), table.chance(0, 0)
(0.7, 0.1, 0.5)
>>> round(table.after(spread=0, score=5, unseen=3), 3)  # the opponent moves next, 5 behind
0.7
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from letras.errors import LetrasError

TILES_PER_BUCKET = 7
"""Unseen tiles per bucket of the table's rows: 1-7 (the bag is empty), 8-14, ..."""


class WinTableError(LetrasError):
    """A win table that cannot be read, or no table for an edition."""


@dataclass(frozen=True)
class WinTable:
    """Win chance by unseen-tiles bucket (rows) and spread (columns); see the module docstring.
    ``info`` says how the table was made."""

    edition: str
    spreads: tuple[float, ...]
    win: tuple[tuple[float, ...], ...]
    info: dict[str, Any] = field(default_factory=dict, compare=False)

    def chance(self, spread: float, unseen: int) -> float:
        """The chance that the player to move wins, ``spread`` points ahead with ``unseen``
        tiles unseen (0 to 1). With nothing unseen the game is as good as over: the spread
        decides."""
        if unseen <= 0:
            return 1.0 if spread > 0 else 0.0 if spread < 0 else 0.5
        centre = (unseen - 1) / TILES_PER_BUCKET - 0.5  # in rows: row k's centre is k
        centre = min(max(centre, 0.0), len(self.win) - 1.0)
        low = int(centre)
        high = min(low + 1, len(self.win) - 1)
        t = centre - low
        return (1 - t) * self._row(low, spread) + t * self._row(high, spread)

    def after(self, *, spread: float, score: float, unseen: int) -> float:
        """The mover's chance once they have scored (or gained in equity) ``score`` from
        ``spread`` ahead, when the opponent, then facing ``unseen`` tiles, moves next."""
        return 1.0 - self.chance(-(spread + score), unseen)

    def _row(self, row: int, spread: float) -> float:
        xs, ys = self.spreads, self.win[row]
        if spread <= xs[0]:
            return ys[0]
        if spread >= xs[-1]:
            return ys[-1]
        i = bisect.bisect_right(xs, spread)
        x0, x1 = xs[i - 1], xs[i]
        t = (spread - x0) / (x1 - x0)
        return (1 - t) * ys[i - 1] + t * ys[i]

    def to_dict(self) -> dict[str, Any]:
        return {"edition": self.edition, "tiles_per_bucket": TILES_PER_BUCKET,
                "spreads": list(self.spreads), "win": [list(r) for r in self.win],
                "info": self.info}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WinTable:
        """A table from :meth:`to_dict`'s shape; :class:`WinTableError` when it is not one."""
        try:
            spreads = tuple(float(x) for x in data["spreads"])
            win = tuple(tuple(float(p) for p in row) for row in data["win"])
            edition = str(data["edition"])
            if data.get("tiles_per_bucket", TILES_PER_BUCKET) != TILES_PER_BUCKET:
                raise ValueError("another bucket size")
        except (KeyError, TypeError, ValueError) as e:
            raise WinTableError(f"not a win table: {e}", key="analysis.bad_table",
                                reason=str(e)) from None
        good = (len(spreads) >= 2 and list(spreads) == sorted(set(spreads)) and win
                and all(len(r) == len(spreads) and all(0 <= p <= 1 for p in r) for r in win))
        if not good:
            why = "the rows must be chances (0 to 1) over a rising grid of spreads"
            raise WinTableError(f"not a win table: {why}", key="analysis.bad_table", reason=why)
        return cls(edition, spreads, win, dict(data.get("info", {})))


@cache
def shipped_win_table(edition: str) -> WinTable | None:
    """The win table that letras ships for ``edition`` (by name), or None."""
    path = resources.files("letras.analysis") / "data" / f"{edition}.win.json"
    if not path.is_file():
        return None
    return WinTable.from_dict(json.loads(path.read_text(encoding="utf-8")))


__all__ = ["TILES_PER_BUCKET", "WinTable", "WinTableError", "shipped_win_table"]
