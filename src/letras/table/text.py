"""Plays, scores and tiles as people read them, in any front end.

>>> from letras.game import Game
>>> game = Game("pt-BR", ["Ana", "Bruno"], seed=2026)
>>> turn = game.play("8G MUDO")
>>> play_text(turn.place, game.board), score_text(turn.score.words, turn.score.bingo)
('8G MUDO', 'MUDO 10 = 10')
"""

from __future__ import annotations

from collections.abc import Sequence

from letras.board import Board
from letras.editions import Edition
from letras.play import Place
from letras.scoring import score_text
from letras.tiles import THROUGH


def play_text(place: Place, board: Board) -> str:
    """A play as people read it: its coordinate and whole word, the tiles already on the
    board in parentheses (``8A R(OLHANDO)``); :func:`letras.terminal.entry.read_play` reads it
    back. ``board`` holds the tiles played through (the board before or after the play)."""
    tiles = board.edition.tiles
    out = []
    run: list[int] = []
    for sq, t in place.squares():
        if t == THROUGH and sq.on_board(board.size) and board[sq]:
            run.append(board[sq])
            continue
        if run:
            out.append(f"({tiles.format(run)})")
            run = []
        out.append(tiles.format([t], through="."))
    if run:
        out.append(f"({tiles.format(run)})")
    return f"{place.coordinate()} {''.join(out)}"


def tile_labels(tiles: Sequence[int], edition: Edition) -> list[str]:
    """Tiles as their labels (``?`` a blank on a rack, a small letter a blank on the board)."""
    return [edition.tiles.label(t) for t in tiles]


def show_labels(labels: Sequence[str]) -> str:
    """Labels for people to read: separated by spaces, ``-`` for none."""
    return " ".join(labels) or "-"


__all__ = ["play_text", "score_text", "show_labels", "tile_labels"]
