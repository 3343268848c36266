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
from typing import TYPE_CHECKING, Any

from letras.board import Board
from letras.editions import Edition, RuleOptions
from letras.history import EndReason, Turn
from letras.play import Place
from letras.tiles import rack_tile

if TYPE_CHECKING:
    from letras.game import Game


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
    resigned: int | None = None
    """The player who resigned (rules.md 6.5), else None."""
    winners: tuple[int, ...] = ()
    """Once the game is over, the players who won (several on a tie; never one who
    resigned); empty while it goes on."""
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


def public_facts(game: Game, viewer: int | None) -> dict[str, Any]:
    """The fields of a :class:`TableView` of ``game`` for ``viewer`` (None: a spectator): the
    racks of others count as unseen, their tiles on the scoresheet are hidden."""
    edition = game.edition
    board = game.board
    unseen = list(edition.tiles.counts)
    for _, t in board.tiles():
        unseen[rack_tile(t)] -= 1
    if viewer is not None:
        for t in game.rack(viewer):
            unseen[t] -= 1
    players = range(len(game.players))
    rack_counts = [len(game.rack(p)) for p in players]
    bag_count = game.bag_count
    pending = game.pending_player
    if pending is not None:  # counted as drawn: what the next player faces
        drawn = min(bag_count, edition.rack_size - rack_counts[pending])
        rack_counts[pending] += drawn
        bag_count -= drawn
    return dict(
        player_names=game.player_names,
        edition=edition,
        rules=game.rules,
        board=board,
        scores=game.scores,
        to_move=game.to_move,
        bag_count=bag_count,
        rack_counts=tuple(rack_counts),
        unseen=tuple(unseen),
        turns=tuple(_hide(t, viewer) for t in game.turns),
        challengeable=game.challengeable,
        over=game.over,
        end_reason=game.end_reason,
        resigned=game.resigned,
        winners=tuple(game.winners()) if game.over else (),
        may_join_words=game.may_join_words,
        pending_player=pending,
        passes_in_row=game.passes_in_row,
        scoreless_in_row=game.scoreless_in_row,
        clocks=game.clocks,
        lexicon_name=game.lexicon_name,
    )


def _hide(turn: Turn, viewer: int | None) -> Turn:
    """A scoresheet line as ``viewer`` (None: a spectator) may see it: others' racks and
    exchanged tiles hidden."""
    if turn.player == viewer or (turn.rack is None and turn.kind != "exchange"):
        return turn
    return Turn(turn.player, turn.kind, turn.points, turn.total, rack=None, place=turn.place,
                score=turn.score, tiles=() if turn.kind == "exchange" else turn.tiles,
                count=turn.count)


__all__ = ["PlayerView", "TableView", "public_facts"]
