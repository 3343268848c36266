"""Squares, directions and the board: the placed tiles over an edition's premium layout.

Columns are letters A-O left to right, rows numbers 1-15 top to bottom; a square is named column
first (``H8`` is the centre).

>>> from letras.editions import find_edition
>>> board = Board(find_edition("en"))
>>> sq = Square.parse("h8")
>>> sq, sq.index, board.premium(sq).name
(Square.parse('H8'), 112, 'CENTRE')
>>> board.is_empty()
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from letras.editions import Edition
from letras.errors import NotationError
from letras.layout import Premium
from letras.tiles import EMPTY

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Direction(enum.Enum):
    """The line a play lies on."""

    ACROSS = (0, 1)
    DOWN = (1, 0)

    def __init__(self, drow: int, dcol: int) -> None:
        self.drow = drow
        self.dcol = dcol

    @property
    def other(self) -> Direction:
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


@dataclass(frozen=True, order=True)
class Square:
    """A square by row and column, both counted from 0 (``H8`` is row 7, column 7)."""

    row: int
    col: int

    @classmethod
    def parse(cls, name: str, size: int = 15) -> Square:
        """Read a square name such as ``H8`` (case-insensitive)."""
        text = name.strip().upper()
        digits = text[1:]
        # a row has at most 3 digits (and longer text would not even convert to an int)
        if 2 <= len(text) <= 4 and text[0].isalpha() and digits.isascii() and digits.isdecimal():
            col = COLUMNS.find(text[0])
            row = int(digits) - 1
            if 0 <= col < size and 0 <= row < size:
                return cls(row, col)
        raise NotationError(f"no square {name!r} on a {size}x{size} board",
                            key="notation.square", square=name, size=size)

    @classmethod
    def from_index(cls, index: int, size: int = 15) -> Square:
        return cls(*divmod(index, size))

    @property
    def name(self) -> str:
        return f"{COLUMNS[self.col]}{self.row + 1}"

    @property
    def index(self) -> int:
        """The square's place in a 15x15 board's flat array (row * 15 + column)."""
        return self.row * 15 + self.col

    def step(self, direction: Direction, n: int = 1) -> Square:
        return Square(self.row + n * direction.drow, self.col + n * direction.dcol)

    def on_board(self, size: int = 15) -> bool:
        return 0 <= self.row < size and 0 <= self.col < size

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Square.parse({self.name!r})"


class Board:
    """The tiles on the board, as one flat array of tile codes (0 = empty), and their layout.

    Copying a board copies one small array.
    """

    __slots__ = ("edition", "size", "squares")

    def __init__(self, edition: Edition, squares: bytes | bytearray | None = None) -> None:
        self.edition = edition
        self.size = edition.layout.size
        n = self.size * self.size
        self.squares = bytearray(squares) if squares is not None else bytearray(n)
        if len(self.squares) != n:
            raise ValueError(f"a board of this edition has {n} squares, not {len(self.squares)}")

    def copy(self) -> Board:
        return Board(self.edition, self.squares)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.edition.name == other.edition.name and self.squares == other.squares

    __hash__ = None  # type: ignore[assignment]

    def index(self, square: Square) -> int:
        return square.row * self.size + square.col

    def __getitem__(self, square: Square) -> int:
        """The tile on a square (0 if empty)."""
        return self.squares[square.row * self.size + square.col]

    def __setitem__(self, square: Square, tile: int) -> None:
        self.squares[square.row * self.size + square.col] = tile

    def put(self, placements: Iterable[tuple[Square, int]]) -> None:
        """Lay tiles on squares, without any check (the rules live in :mod:`letras.rules`)."""
        for square, tile in placements:
            self.squares[square.row * self.size + square.col] = tile

    def get(self, row: int, col: int) -> int:
        """The tile at (row, col); 0 off the board, so edges need no special case."""
        if 0 <= row < self.size and 0 <= col < self.size:
            return self.squares[row * self.size + col]
        return EMPTY

    def premium(self, square: Square) -> Premium:
        return self.edition.layout.premiums[square.row * self.size + square.col]

    def is_empty(self) -> bool:
        return not any(self.squares)

    def tiles(self) -> Iterator[tuple[Square, int]]:
        """Every occupied square with its tile, row by row."""
        for i, t in enumerate(self.squares):
            if t:
                yield Square(*divmod(i, self.size)), t

    def tile_count(self) -> int:
        return sum(1 for t in self.squares if t)

    def __str__(self) -> str:
        """A plain-text picture: tiles by label, premiums by their layout symbol."""
        tiles = self.edition.tiles
        head = "    " + " ".join(f"{c:<2}" for c in COLUMNS[: self.size])
        lines = [head.rstrip()]
        for r in range(self.size):
            cells = []
            for c in range(self.size):
                t = self.squares[r * self.size + c]
                if t:
                    cells.append(f"{tiles.label(t):<2}")
                else:
                    symbol = self.edition.layout.premiums[r * self.size + c].symbol
                    cells.append(f"{symbol:<2}")
            lines.append(f"{r + 1:>2}  " + " ".join(cells).rstrip())
        return "\n".join(lines)
