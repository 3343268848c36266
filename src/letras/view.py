"""What a seat, or a spectator, may see of a game: never a rack that is not theirs, the order of
the bag or the game's seed.

A :class:`TableView` holds the public facts of a position: the board, the scores, the clocks,
the scoresheet with other racks hidden, how many tiles each rack and the bag hold, and the
tiles not in sight. A :class:`PlayerView` adds one seat's own rack, and counts that rack as
seen. Views are plain frozen data made by :meth:`letras.game.Game.view` and
:meth:`letras.game.Game.spectator_view`; the AI players choose from a ``PlayerView`` only, and
:mod:`letras.formats.views` writes either as JSON for a client.

The bag and rack counts are the ones the next player faces: while a play waits for a
challenge its player has not drawn yet, and the view counts the tiles as drawn (withdrawn or
accepted, the counts come out the same unless the bag runs short).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from letras.board import Board
from letras.editions import Edition, RuleOptions
from letras.history import EndReason, Turn
from letras.play import Place


@dataclass(frozen=True, kw_only=True)
class TableView:
    """What everyone at the table may see (a spectator's view)."""

    player_names: tuple[str, ...]
    edition: Edition
    rules: RuleOptions
    board: Board
    scores: tuple[int, ...]
    to_move: int
    bag_count: int
    rack_counts: tuple[int, ...]
    unseen: tuple[int, ...]
    """Count per tile code of the tiles not in sight of this view: the bag and the racks it
    does not hold."""
    turns: tuple[Turn, ...]
    challengeable: Place | None
    over: bool
    end_reason: EndReason | None
    may_join_words: bool = True
    """May a play now join words already on the board (the ``join_words_from_turn`` rule)?"""
    pending_player: int | None = None
    """Who made the play that waits for a challenge (None when none does)."""
    passes_in_row: int = 0
    scoreless_in_row: int = 0
    clocks: tuple[float, ...] = ()
    """Seconds each player has used."""
    lexicon_name: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data (the shape is documented in
        ``letras/formats/data/view.schema.json``)."""
        from letras.formats.views import view_to_dict

        return view_to_dict(self)


@dataclass(frozen=True, kw_only=True)
class PlayerView(TableView):
    """What one player may see: the table's public facts and their own rack."""

    player: int
    rack: tuple[int, ...]


__all__ = ["PlayerView", "TableView"]
