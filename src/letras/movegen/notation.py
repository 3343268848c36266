"""The notation of many generated plays at once (what ``letras moves`` prints).

:meth:`letras.play.Place.notation` writes one play; listing thousands that way costs tens of
microseconds a play, more than generating them. :func:`play_notations` writes the same text
from the generator's arrays with tables made once per edition: each tile code's text, each
square's coordinate both ways, and (only in editions with multi-letter tiles such as Spanish
``CH``) the pairs of single tiles that would read back as one tile and so are bracketed.

>>> from letras.editions import find_edition
>>> from letras.board import Board
>>> from letras.lexicon.kwg import WordGraph
>>> from letras.movegen import generate
>>> es = find_edition("es")
>>> words = WordGraph.build(es, ["[C]HAR"])  # C and H as two tiles, not the tile CH
>>> plays = generate(Board(es), es.tiles.parse("CHAR", rack=True), words)
>>> play_notations(plays.edition, plays.meta, plays.tiles, [0, 1])
['8F [C]HAR', '8H [C]HAR']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from letras.board import Direction, Square
from letras.editions import Edition
from letras.movegen.columns import ACROSS, COL, DIRECTION, LENGTH, ROW
from letras.play import format_coordinate
from letras.tiles import BLANK_BIT, THROUGH, TileSet

_CODES = 256


class _Tables:
    """What :func:`play_notations` looks up, for one tile set and board size."""

    def __init__(self, tiles: TileSet, size: int) -> None:
        self.text = ["" for _ in range(_CODES)]
        letters = range(1, len(tiles.labels))
        for t in (*letters, *(t | BLANK_BIT for t in letters)):
            self.text[t] = tiles.notation(t)
        self.text[THROUGH] = "."
        self.coordinates = [
            [format_coordinate(Square(r, c), d) for r in range(size) for c in range(size)]
            for d in (Direction.ACROSS, Direction.DOWN)
        ]
        self.size = size
        # a single tile followed by another that together read as a multi-letter tile: the
        # first is written bracketed (tiles.format decides; asked once per such pair)
        firsts = {label[0] for label in tiles.labels if len(label) > 1}
        self.bracketed: dict[tuple[int, int], str] = {}
        codes = [t for t in range(_CODES) if len(self.text[t]) == 1 and t != THROUGH]
        for a in codes:
            if self.text[a].upper() not in firsts:
                continue
            for b in codes:
                written = tiles.format([a, b])
                if written.startswith("["):
                    self.bracketed[a, b] = f"[{self.text[a]}]"


@lru_cache(maxsize=16)
def _tables(tiles: TileSet, size: int) -> _Tables:
    return _Tables(tiles, size)


def play_notations(
    edition: Edition,
    meta: npt.NDArray[np.int32],
    tiles: npt.NDArray[np.uint8],
    rows: Sequence[int] | npt.NDArray[np.intp] | None = None,
) -> list[str]:
    """The notation (``8D WINDY``) of the plays at ``rows`` (all, in order, without it) of the
    generator's ``meta`` and ``tiles`` (see :mod:`letras.movegen.columns`), exactly as
    :meth:`letras.play.Place.notation` writes each."""
    if rows is not None:
        index = np.asarray(rows, np.intp)
        meta, tiles = meta[index], tiles[index]
    table = _tables(edition.tiles, edition.layout.size)
    text, size, bracketed = table.text, table.size, table.bracketed
    across, down = table.coordinates
    out = []
    for m, row in zip(meta.tolist(), tiles.tolist(), strict=True):
        coordinates = across if m[DIRECTION] == ACROSS else down
        laid = row[: m[LENGTH]]
        words = [text[t] for t in laid]
        if bracketed:
            for i in range(len(laid) - 1):
                pair = bracketed.get((laid[i], laid[i + 1]))
                if pair is not None:
                    words[i] = pair
        out.append(f"{coordinates[m[ROW] * size + m[COL]]} {''.join(words)}")
    return out
