"""Looking back at a game: its positions one by one (examine) and the best plays of a turn.

A position is the game after its first ``n`` moves (:meth:`letras.game.Game.replay`). Moves
that change nothing on the board or the scoresheet (a play let stand, the end found) are not
positions of their own: :func:`positions` skips them, so stepping back and forth goes turn by
turn.

Who may see what follows the public record (:mod:`letras.formats.public`): while the game is
on, a seat sees its own rack in each position and a spectator none; once it is over every rack
is public, and a position shows the rack of the seat to move there, whose best plays may then
be asked for (:func:`review_request`; the search runs in a worker process, see
:func:`letras.server.ai_pool.rank`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from letras.game import Game
from letras.history import Accept, NoPlayEnd
from letras.server.errors import ServerError
from letras.view import PlayerView

MAX_BEST = 20
"""The most plays a request for a turn's best plays gets."""


def positions(game: Game) -> list[int]:
    """The move counts that are positions worth showing, from 0 (the empty board) to every
    move of the game."""
    out = [0]
    for n, move in enumerate(game.moves, start=1):
        if not isinstance(move.action, (Accept, NoPlayEnd)):
            out.append(n)
    if out[-1] != len(game.moves):
        out.append(len(game.moves))
    return out


def _position(game: Game, n: int) -> tuple[Game, list[int]]:
    shown = positions(game)
    if n not in shown:
        raise ServerError(400, "server.no_position", f"no position after {n} moves",
                          n=n, moves=len(game.moves))
    return game.replay(n), shown


def examine(game: Game, seat: int | None, n: int) -> dict[str, Any]:
    """The position after ``n`` moves as ``seat`` (None: a spectator) may see it, with the
    neighbouring positions: ``GET /api/games/{id}/examine/{n}``."""
    then, shown = _position(game, n)
    index = shown.index(n)
    if game.over:
        viewer: int | None = then.to_move
    else:
        viewer = seat
    view = then.view(viewer) if viewer is not None else then.spectator_view()
    return {
        "n": n,
        "moves": len(game.moves),
        "positions": shown,
        "prev": shown[index - 1] if index else None,
        "next": shown[index + 1] if index + 1 < len(shown) else None,
        "rack_of": viewer,
        "view": view.to_dict(),
    }


@dataclass(frozen=True)
class ReviewRequest:
    """What a worker needs to rank the plays of a past turn."""

    edition: str
    lexicon: str
    view: PlayerView
    count: int


def review_request(game: Game, lexicon: str, n: int, count: int) -> ReviewRequest:
    """The request for the ``count`` best plays in the position after ``n`` moves, for the
    seat to move there. Only for a game that is over (before, it would be help)."""
    if not game.over:
        raise ServerError(409, "server.not_over", "the best plays are shown after the game")
    if not 1 <= count <= MAX_BEST:
        raise ServerError(400, "server.bad_count", f"between 1 and {MAX_BEST} plays",
                          max=MAX_BEST)
    then, _ = _position(game, n)
    if then.over:
        raise ServerError(400, "server.no_position", f"no turn after {n} moves",
                          n=n, moves=len(game.moves))
    return ReviewRequest(game.edition.name, lexicon, then.view(then.to_move), count)


def best_dicts(request: ReviewRequest, ranked: list[tuple[str, float, int]]) -> dict[str, Any]:
    """The answer of ``POST /api/games/{id}/best``: the seat, its rack and the plays, best
    first, each as notation with its score and equity."""
    view = request.view
    return {
        "seat": view.player,
        "rack": view.edition.tiles.format(view.rack, rack=True),
        "plays": [{"play": text, "score": score, "equity": round(equity, 2)}
                  for text, equity, score in ranked],
    }


__all__ = ["MAX_BEST", "ReviewRequest", "best_dicts", "examine", "positions", "review_request"]
