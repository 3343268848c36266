"""The columns of the move generator's results.

:attr:`letras.movegen.Plays.meta` holds one ``int32`` row per play, with these columns; the
same row of :attr:`~letras.movegen.Plays.tiles` holds the play's tiles, one per square along
its line from its first square (:data:`~letras.tiles.THROUGH` where it goes through a tile
already on the board). The compiled code indexes the rows by the same names.

>>> from letras.editions import find_edition
>>> from letras.board import Board
>>> from letras.lexicon.kwg import WordGraph
>>> from letras.movegen import generate
>>> en = find_edition("en")
>>> plays = generate(Board(en), en.tiles.parse("AT", rack=True), WordGraph.build(en, ["AT"]))
>>> row = plays.meta[0]
>>> int(row[ROW]), int(row[COL]), int(row[DIRECTION]) == ACROSS, int(row[LENGTH])
(7, 7, True, 2)
>>> int(row[SCORE]), int(row[LAID])
(4, 2)
"""

from __future__ import annotations

ROW = 0
"""The row of the play's first square (0 is row 1)."""
COL = 1
"""The column of the play's first square (0 is column A)."""
DIRECTION = 2
""":data:`ACROSS` or :data:`DOWN`."""
LENGTH = 3
"""Squares from the first to the last, the board's tiles played through included."""
SCORE = 4
"""Points, the bingo bonus included."""
LAID = 5
"""Tiles laid from the rack (a rack's worth is a bingo)."""
COLUMNS = 6
"""How many columns a row has."""

ACROSS = 0
"""The value of :data:`DIRECTION` for a play along a row."""
DOWN = 1
"""The value of :data:`DIRECTION` for a play along a column."""

__all__ = ["ACROSS", "COL", "COLUMNS", "DIRECTION", "DOWN", "LAID", "LENGTH", "ROW", "SCORE"]
