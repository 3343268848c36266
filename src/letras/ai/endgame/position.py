"""What the endgame search takes and gives: a position with the bag empty, and its result;
the facts of a scoresheet the search needs, and the static guess at its horizon.

See this package's ``README.md`` for how the search goes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from letras.ai.player import Choice
from letras.board import Board
from letras.editions import RuleOptions
from letras.errors import LetrasError
from letras.game import PlayerView
from letras.history import Turn
from letras.rack import from_counts
from letras.tiles import BLANK_BIT


class EndgameError(LetrasError):
    """A position the endgame search cannot take: the bag is not empty, the game is over,
    it is not the viewer's turn, or the racks do not fit the position."""


@dataclass(frozen=True)
class EndgamePosition:
    """A two-player position with the bag empty: the board, the rack of the player to move,
    the other player's rack, the rules, and the passes and scoreless turns in a row so far
    (they decide when passing ends the game); whether plays may join words on the board
    (the ``join_words_from_turn`` rule, kept as it stands now for the whole search)."""

    board: Board
    rack: tuple[int, ...]
    opponent_rack: tuple[int, ...]
    rules: RuleOptions
    passes_in_row: int = 0
    scoreless_in_row: int = 0
    may_join_words: bool = True

    def __post_init__(self) -> None:
        labels = self.board.edition.tiles.labels
        for name, rack in (("rack", self.rack), ("opponent's rack", self.opponent_rack)):
            if not rack:
                raise EndgameError(f"the {name} is empty: the game is over")
            bad = [t for t in rack if not 0 <= t < len(labels)]
            if bad:
                raise EndgameError(f"the {name} holds tile codes not in the edition: {bad}")
        object.__setattr__(self, "rack", tuple(sorted(self.rack)))
        object.__setattr__(self, "opponent_rack", tuple(sorted(self.opponent_rack)))
        if self.passes_in_row < 0 or self.scoreless_in_row < 0:
            raise EndgameError("passes and scoreless turns in a row cannot be negative")

    @classmethod
    def from_view(cls, view: PlayerView) -> EndgamePosition:
        """The position of a two-player game whose bag is empty, for the player to move; the
        opponent's rack is the unseen tiles."""
        check_view(view)
        if len(view.scores) != 2:
            raise EndgameError(
                f"an exact endgame is for two players; this game has {len(view.scores)}"
            )
        opponent = 1 - view.player
        tiles = unseen_tiles(view)
        if len(tiles) != view.rack_counts[opponent]:
            raise EndgameError(
                f"the unseen tiles ({len(tiles)}) are not the opponent's rack "
                f"({view.rack_counts[opponent]} tiles)"
            )
        passes, scoreless = turns_in_row(view.turns, view.rules)
        return cls(view.board, tuple(view.rack), tiles, view.rules, passes, scoreless,
                   view.may_join_words)


@dataclass(frozen=True)
class EndgameResult:
    """What a search found.

    ``value``: two players, the spread change from now to the end of the game for the player
    to move if both play the principal variation (exact when ``exact``, else the deepest
    iteration's estimate); three or four players, the share of first place over the samples
    plus a thousandth of the mean change of the final margin over the best opponent
    (:data:`letras.ai.endgame.multi.FIRST`). ``depth`` is the plies of the deepest completed
    iteration (with more players: the samples played out). ``nodes`` counts positions searched
    (with more players: plays made in the play-outs).
    """

    best: Choice
    value: float
    principal_variation: tuple[Choice, ...]
    nodes: int
    depth: int
    exact: bool
    seconds: float
    candidates: tuple[tuple[Choice, float], ...] = field(default=(), repr=False)
    """With three or four players: every candidate with its value, best first."""
    iterations: tuple[Iteration, ...] = field(default=(), repr=False)
    """Two players: each completed iteration of the deepening."""


@dataclass(frozen=True)
class Iteration:
    """One completed iteration of the deepening: its depth, best move and value, and the
    positions searched and seconds spent since the search began."""

    depth: int
    best: Choice
    value: float
    nodes: int
    seconds: float


def unseen_tiles(view: PlayerView) -> tuple[int, ...]:
    """The unseen tiles (bag and other racks) as sorted tile codes."""
    return from_counts(view.unseen)


def turns_in_row(turns: Sequence[Turn], rules: RuleOptions) -> tuple[int, int]:
    """The passes and the scoreless turns in a row at the end of a scoresheet, counted as
    :class:`~letras.game.Game` counts them (a lost turn is scoreless but not a pass; a turn
    run out of time is a pass, rules.md 6.3; a withdrawn play counts as one scoreless turn)."""
    passes = 0
    for turn in reversed(turns):
        if turn.kind in ("pass", "timeout") or (
                turn.kind == "exchange" and rules.exchange_counts_as_pass):
            passes += 1
        elif turn.kind not in ("lost-turn", "challenge-bonus", "challenge-penalty"):
            break
    scoreless, withdrawn = 0, False
    for turn in reversed(turns):
        if turn.kind == "play" and withdrawn:
            withdrawn = False
        elif turn.kind == "withdrawn":
            scoreless += 1
            withdrawn = True
        elif turn.kind in ("pass", "exchange", "timeout", "lost-turn") or (
            turn.kind == "play" and not turn.points
        ):
            scoreless += 1
        elif turn.kind not in ("challenge-bonus", "challenge-penalty"):
            break
    return passes, scoreless


def horizon_value(rack_value: int, rack_size: int, other_value: int, other_size: int) -> int:
    """The static guess at the horizon, for the side to move: one of the two will go out,
    the side with fewer tiles more likely (chance ``other_size / (rack_size + other_size)``
    for the side to move), and going out gains twice the tiles left on the other rack. Whole
    points (rounded down), so that the search can use null windows.

    >>> horizon_value(10, 1, 10, 1)
    0
    >>> horizon_value(1, 1, 10, 3)
    14
    """
    return (2 * other_size * other_value - 2 * rack_size * rack_value) // (rack_size + other_size)


def check_view(view: PlayerView) -> None:
    """:class:`EndgameError` unless the view is of the player to move, in a game not over,
    with the bag empty."""
    if view.over:
        raise EndgameError("the game is over")
    if view.bag_count:
        raise EndgameError(f"the bag is not empty ({view.bag_count} tiles): not an endgame")
    if view.to_move != view.player:
        names = view.player_names
        raise EndgameError(f"it is {names[view.to_move]}'s turn, not {names[view.player]}'s")


def value_table(values: Sequence[int]) -> npt.NDArray[np.int64]:
    """Points of each board tile code (blanks, whatever they stand for, are 0)."""
    table = np.zeros(256, np.int64)
    table[: len(values)] = values
    table[BLANK_BIT:] = 0
    return table


__all__ = [
    "EndgameError",
    "EndgamePosition",
    "EndgameResult",
    "Iteration",
    "check_view",
    "horizon_value",
    "turns_in_row",
    "unseen_tiles",
    "value_table",
]
