"""Small builders for tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from letras.board import Board, Direction, Square
from letras.editions import Edition
from letras.play import Place
from letras.tiles import BLANK, BLANK_BIT, THROUGH


def board_with(edition: Edition, *plays: str) -> Board:
    """A board with the given plays laid as they are written (no legality check)."""
    board = Board(edition)
    for text in plays:
        board.put(Place.parse(text, edition, board).placed())
    return board


def lay_along(
    board: Board, start: Square, direction: Direction, tiles: Sequence[int]
) -> Place | None:
    """The play laying ``tiles`` in order from ``start``, going through board tiles; None if
    they run off the board."""
    out: list[int] = []
    sq, laid = start, 0
    while sq.on_board(board.size) and laid < len(tiles):
        if board[sq]:
            out.append(THROUGH)
        else:
            out.append(tiles[laid])
            laid += 1
        sq = sq.step(direction)
    return Place(start, direction, tuple(out)) if laid == len(tiles) else None


def placements_for(board: Board, rack: Sequence[int], rng: random.Random) -> Place | None:
    """A random play that is legal in shape for ``rack`` (words are not checked): tiles laid
    in a line from a random square, connected to the board (or over the centre)."""
    from letras.errors import IllegalPlayError
    from letras.rules import check_shape

    size = board.size
    tiles = [t if t != BLANK else rng.choice(board.edition.tiles.letters) | BLANK_BIT for t in rack]
    rng.shuffle(tiles)
    if not tiles:
        return None
    for _ in range(400):
        direction = rng.choice([Direction.ACROSS, Direction.DOWN])
        start = Square(rng.randrange(size), rng.randrange(size))
        place = lay_along(board, start, direction, tiles[: rng.randint(1, len(tiles))])
        if place is None:
            continue
        try:
            check_shape(board, place)
        except IllegalPlayError:
            continue
        return place
    return None


class AnyWord:
    """A lexicon that takes every word: for games of random plays under the void rule."""

    name = "any"

    def contains_tiles(self, tiles: Sequence[int]) -> bool:
        return True

    def __contains__(self, word: object) -> bool:
        return True
