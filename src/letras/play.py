"""Plays: placing tiles, exchanging, passing, challenging; and their notation.

A :class:`Place` is named by its first square: row number first is across (``8D WINDY``), column
letter first is down (``E3 JAVE..N``). In its tiles, :data:`~letras.tiles.THROUGH` (written ``.``)
is a square already on the board.

>>> from letras.editions import find_edition
>>> en = find_edition("en")
>>> p = Place.parse("E3 JAVE..N", en)
>>> p.square, p.direction.name, len(p.tiles)
(Square.parse('E3'), 'DOWN', 7)
>>> p.notation(en)
'E3 JAVE..N'
>>> Place.parse("8d windY", en).notation(en)
'8D windY'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from letras.board import COLUMNS, Board, Direction, Square
from letras.editions import Edition
from letras.errors import IllegalPlayError, NotationError
from letras.tiles import THROUGH, letter


@dataclass(frozen=True)
class Place:
    """Tiles laid in one line from ``square`` in ``direction``; THROUGH marks board tiles."""

    square: Square
    direction: Direction
    tiles: tuple[int, ...]

    @classmethod
    def parse(cls, text: str, edition: Edition, board: Board | None = None) -> Place:
        """Read ``8D WINDY`` or ``E3 JAVE..N``.

        With a board, a letter written on a square that already holds that letter is read as
        played through (``8D WINDY`` over an existing ``I`` is ``8D W.NDY``); a different letter
        there raises :class:`~letras.errors.IllegalPlayError` (``square-taken``).
        """
        parts = text.split()
        if len(parts) != 2:
            raise NotationError(f"a play is a square and tiles, like '8D WINDY': not {text!r}",
                                key="play.form", text=text)
        coord, word = parts
        square, direction = parse_coordinate(coord, edition.layout.size)
        tiles = edition.tiles.parse(word, through=True)
        if not tiles:
            raise NotationError(f"no tiles in {text!r}", key="play.no_new_tiles", text=text)
        place = cls(square, direction, tiles)
        if board is not None:
            place = place.resolve_through(board)
        return place

    def resolve_through(self, board: Board) -> Place:
        """Mark as THROUGH each written letter that lies on that same letter on the board."""
        out = list(self.tiles)
        for i, (sq, t) in enumerate(self.squares()):
            if t == THROUGH or not sq.on_board(board.size):
                continue
            on_board = board[sq]
            if on_board and letter(on_board) == letter(t):
                out[i] = THROUGH
            elif on_board:
                label = board.edition.tiles.label(on_board)
                raise IllegalPlayError(
                    "square-taken", f"square {sq} is taken by {label}: cannot place a tile there",
                    square=sq, letter=label,
                )
        return Place(self.square, self.direction, tuple(out))

    def squares(self) -> Iterator[tuple[Square, int]]:
        """Each square of the play with its tile (THROUGH for board tiles)."""
        sq = self.square
        for t in self.tiles:
            yield sq, t
            sq = sq.step(self.direction)

    def placed(self) -> list[tuple[Square, int]]:
        """The squares that get a new tile, with the tile."""
        return [(sq, t) for sq, t in self.squares() if t != THROUGH]

    @property
    def tile_count(self) -> int:
        """How many tiles leave the rack."""
        return sum(1 for t in self.tiles if t != THROUGH)

    def coordinate(self) -> str:
        return format_coordinate(self.square, self.direction)

    def notation(self, edition: Edition) -> str:
        return f"{self.coordinate()} {edition.tiles.format(self.tiles, through='.')}"


@dataclass(frozen=True)
class Exchange:
    """Put tiles back in the bag and draw as many. ``tiles`` may be unknown (only ``count``),
    as in a record of an opponent's exchange."""

    tiles: tuple[int, ...] = ()
    count: int = 0

    def __post_init__(self) -> None:
        if self.tiles and self.count not in (0, len(self.tiles)):
            raise ValueError("exchange count differs from its tiles")
        if self.tiles and not self.count:
            object.__setattr__(self, "count", len(self.tiles))

    def notation(self, edition: Edition) -> str:
        if self.tiles:
            return "-" + edition.tiles.format(self.tiles)
        return f"-{self.count}"


@dataclass(frozen=True)
class Pass:
    """Give up the turn."""

    def notation(self, edition: Edition) -> str:
        return "-"


@dataclass(frozen=True)
class Challenge:
    """Challenge the last play (by the player who makes it)."""

    def notation(self, edition: Edition) -> str:
        return "challenge"


Action = Place | Exchange | Pass | Challenge


def parse_coordinate(text: str, size: int = 15) -> tuple[Square, Direction]:
    """``8D`` is across from D8, ``D8`` is down from D8.

    >>> parse_coordinate("8d")
    (Square.parse('D8'), <Direction.ACROSS: (0, 1)>)
    """
    t = text.strip().upper()
    if t[:1].isascii() and t[:1].isdecimal():
        digits = len(t) - len(t.lstrip("0123456789"))
        name, direction = t[digits:] + t[:digits], Direction.ACROSS
    else:
        name, direction = t, Direction.DOWN
    try:
        return Square.parse(name, size), direction
    except NotationError:
        raise NotationError(
            f"bad coordinate {text!r}: write row first for across (8D), column first for down (D8)",
            key="play.bad_coordinate", coord=text,
        ) from None


def format_coordinate(square: Square, direction: Direction) -> str:
    col, row = COLUMNS[square.col], square.row + 1
    return f"{row}{col}" if direction is Direction.ACROSS else f"{col}{row}"
