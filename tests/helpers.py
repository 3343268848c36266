"""Small builders for tests."""

from __future__ import annotations

from letras.board import Board
from letras.editions import Edition
from letras.play import Place


def board_with(edition: Edition, *plays: str) -> Board:
    """A board with the given plays laid as they are written (no legality check)."""
    board = Board(edition)
    for text in plays:
        board.put(Place.parse(text, edition, board).placed())
    return board
