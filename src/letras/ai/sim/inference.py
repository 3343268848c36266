"""Inference: what the opponent kept at their last play, if they choose as the equity player.

Leaves are drawn at random from the unseen tiles and kept when the play the opponent made is
among the equity player's best with that leave (:func:`infer_leaves`, :class:`LastPlay`); the
simulation then deals the opponent one of the kept leaves first. See this package's
``README.md`` ("Inference").
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from letras.ai.equity import EquityPlayer
from letras.board import Square
from letras.game import PlayerView
from letras.play import Place
from letras.rack import from_counts
from letras.tiles import EMPTY, rack_tile

INFERENCE_WINDOW = 3.0
"""Inference keeps a leave the opponent may have kept if their play was within this many
points of equity of the equity player's best action with it."""
INFERENCE_SHARE = 0.1
"""The share of the limit (time or work) inference may take."""
INFERENCE_TRIES = 100
"""The most leaves inference tries."""


@dataclass(frozen=True)
class Inference:
    """Leaves the opponent may have kept at their last play, as :func:`infer_leaves` found."""

    seat: int
    tries: int
    """Leaves tried (one equity choice each)."""
    leaves: tuple[tuple[int, ...], ...]
    """The leaves tried that the play agrees with, each as often as it was drawn."""


def infer_leaves(
    view: PlayerView, equity: EquityPlayer, rng: random.Random, tries: int, deadline: float,
) -> Inference | None:
    """What the opponent kept at their last play, if they choose as ``equity`` does.

    Rejection sampling: leaves of the right size are drawn at random from the unseen tiles
    (as the opponent's tiles were drawn), and a leave is kept when the play they made agrees
    with it (:meth:`LastPlay.agrees`). The kept leaves are a sample of what they likely kept.
    At most ``tries`` distinct leaves are tried (of at most four times as many drawn), until
    ``deadline``. None when there is nothing to infer (:meth:`LastPlay.of`) or no leave tried
    agrees (an opponent who does not play like the model)."""
    last = LastPlay.of(view)
    if last is None or tries < 1:
        return None
    pool = list(from_counts(view.unseen))
    agrees: dict[tuple[int, ...], bool] = {}
    kept: list[tuple[int, ...]] = []
    for _ in range(4 * tries):  # few distinct leaves may exist: draws are bounded too
        if len(agrees) >= tries or time.perf_counter() >= deadline:
            break
        leave = tuple(sorted(rng.sample(pool, last.leave_size)))
        if leave not in agrees:
            agrees[leave] = last.agrees(leave, equity)
        if agrees[leave]:
            kept.append(leave)
    if not kept:
        return None
    return Inference(last.seat, len(agrees), tuple(kept))


@dataclass(frozen=True)
class LastPlay:
    """The opponent's play just before our turn, and the position they made it from."""

    seat: int
    before: PlayerView
    """Their view before the play, but for their rack (set by :meth:`agrees`) and the unseen
    tiles, which still count the leave they kept."""
    played: tuple[int, ...]
    """The rack tiles it took (a blank as the blank)."""
    placed: tuple[tuple[Square, int], ...]
    leave_size: int

    @classmethod
    def of(cls, view: PlayerView) -> LastPlay | None:
        """The last play of the opponent, if it is what we move after: two players, tiles in
        the bag (so their rack was full), a play that kept tiles (not a bingo)."""
        if len(view.scores) != 2 or view.bag_count == 0 or not view.turns:
            return None
        last = view.turns[-1]
        seat = 1 - view.player
        if last.player != seat or last.kind != "play" or last.place is None:
            return None
        placed = tuple(sorted(last.place.placed()))
        played = tuple(rack_tile(t) for _, t in placed)
        size = view.edition.rack_size - len(played)
        if size <= 0 or view.rack_counts[seat] < size:
            return None
        board = view.board.copy()
        for square, _ in placed:
            board[square] = EMPTY
        scores = list(view.scores)
        scores[seat] -= last.points
        unseen = list(view.unseen)
        for t in view.rack:  # our rack: unseen to them
            unseen[t] += 1
        before = replace(
            view, player=seat, to_move=seat, board=board, scores=tuple(scores),
            bag_count=view.bag_count + len(played), turns=view.turns[:-1],
            challengeable=None, rack_counts=(view.edition.rack_size,) * 2,
            unseen=tuple(unseen),
        )
        return cls(seat, before, played, placed, size)

    def agrees(self, leave: Sequence[int], equity: EquityPlayer) -> bool:
        """Whether, holding the play's tiles and ``leave``, ``equity`` would rank the play
        among its best five actions and within :data:`INFERENCE_WINDOW` points of the
        best."""
        unseen = list(self.before.unseen)
        for t in leave:
            unseen[t] -= 1
        ranked = equity.ranked(
            replace(self.before, rack=self.played + tuple(leave), unseen=tuple(unseen)), 5)
        best = ranked[0].equity
        return any(
            isinstance(c.choice, Place) and tuple(sorted(c.choice.placed())) == self.placed
            and c.equity >= best - INFERENCE_WINDOW for c in ranked
        )


__all__ = ["INFERENCE_SHARE", "INFERENCE_TRIES", "INFERENCE_WINDOW", "Inference", "LastPlay",
           "infer_leaves"]
