"""The position a game's history makes, and the steps that change it.

A :class:`Position` holds what the moves so far have made: the board, the bag, the racks, the
scores, whose turn it is, the play waiting for a challenge, the turns still to be lost, the runs
of passes and scoreless turns, the clocks and the scoresheet. Its methods are the steps the
rules are made of (draw after a play, take a phony back, lose a turn, pass the turn on, the
final count); :class:`letras.game.Game` decides which steps a move takes (rules.md).

>>> from letras.editions import find_edition
>>> position, draws = Position.start(find_edition("en"), 2, seed=1)
>>> position.to_move, [len(r) for r in position.racks], len(position.bag)
(0, [7, 7], 86)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from letras.bag import Bag
from letras.board import Board
from letras.editions import Edition, TimeControl
from letras.history import EndReason, Turn
from letras.play import Place
from letras.scoring import Score, final_count
from letras.tiles import rack_tile

Draws = list[list[tuple[int, int]]]
"""The rounds of the draw for first play: ``(player, tile)``, the winner first in the last."""


@dataclass
class Pending:
    """A play on the board that may still be challenged; its player has not drawn yet."""

    player: int
    place: Place
    score: Score
    scoreless_before: int


@dataclass
class Position:
    board: Board
    bag: Bag
    racks: list[list[int]]
    scores: list[int]
    to_move: int
    turns: list[Turn] = field(default_factory=list)
    pending: Pending | None = None
    lose_turn: dict[int, Place] = field(default_factory=dict)
    """Players who lost a challenge and must still lose their turn, with the play they
    challenged."""
    passes_in_row: int = 0
    scoreless_in_row: int = 0
    plays_made: int = 0
    clocks: list[float] = field(default_factory=list)
    end_reason: EndReason | None = None
    resigned: int | None = None
    known: list[list[int]] = field(default_factory=list)
    """Per player, the rack tiles a record has named and that have not left the rack since
    (see :func:`letras.holding.hold`)."""

    @classmethod
    def start(cls, edition: Edition, n: int, seed: int | str,
              starter: int | None = None) -> tuple[Position, Draws]:
        """The position before the first move: ``starter`` (default: the draw for first play,
        rules.md 3.1, whose rounds come back too) and then the others draw their racks."""
        bag = Bag(edition.tiles, seed)
        draws: Draws = []
        if starter is None:
            draws = draw_for_first(bag, n)
            starter = draws[-1][0][0]
        racks: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            racks[(starter + i) % n] = sorted(bag.draw(edition.rack_size))
        position = cls(Board(edition), bag, racks, [0] * n, starter, clocks=[0.0] * n,
                       known=[[] for _ in range(n)])
        return position, draws

    def record(self, turn: Turn) -> None:
        self.turns.append(turn)

    def goes_out(self, player: int) -> bool:
        return not self.racks[player] and not self.bag

    def accept_pending(self, rack_size: int) -> int | None:
        """The play waiting for a challenge stands: its player draws. Returns that player when
        their rack stays empty (they went out), else None."""
        pend = self.pending
        if pend is None:
            return None
        self.pending = None
        rack = self.racks[pend.player]
        rack.extend(self.bag.draw(rack_size - len(rack)))
        rack.sort()
        return pend.player if not rack else None

    def withdraw(self, *, kept: bool = False) -> None:
        """The play waiting for a challenge comes off the board (rules.md 5); ``kept``: its
        player plays again (the ``late_challenge`` rule: it only extended a wrong word that
        had stood), and the turn counts for nothing."""
        pend = self.pending
        assert pend is not None
        self.board.put((sq, 0) for sq, _ in pend.place.placed())
        back = [rack_tile(t) for _, t in pend.place.placed()]
        self.racks[pend.player] = sorted(self.racks[pend.player] + back)
        self.known[pend.player].extend(back)
        self.scores[pend.player] -= pend.score.total
        self.plays_made -= 1
        self.pending = None
        self.scoreless_in_row = pend.scoreless_before + (0 if kept else 1)
        self.record(Turn(pend.player, "withdrawn", -pend.score.total, self.scores[pend.player],
                         place=pend.place, kept=kept))
        if kept:
            self.to_move = pend.player

    def lose_this_turn(self, player: int, challenged: Place) -> None:
        """``player`` challenged a play that stood (``challenged``) and loses this turn."""
        self.scoreless_in_row += 1
        self.record(Turn(player, "lost-turn", 0, self.scores[player], place=challenged))

    def advance(self) -> None:
        """The turn passes on, over the players who must lose theirs."""
        n = len(self.racks)
        self.to_move = (self.to_move + 1) % n
        while self.to_move in self.lose_turn:
            self.lose_this_turn(self.to_move, self.lose_turn.pop(self.to_move))
            self.to_move = (self.to_move + 1) % n

    def count_end(self, values: tuple[int, ...], out: int | None, tc: TimeControl) -> None:
        """The final count (rules.md 6): each rack left, the racks to the player who went out
        (``out``), then the time penalties of a game clock."""
        counted = final_count(self.racks, values, out)
        for p, rack in enumerate(self.racks):
            if p != out and rack:
                self.scores[p] += counted[p]
                self.record(Turn(p, "rack-penalty", counted[p], self.scores[p],
                                 tiles=tuple(rack)))
        if out is not None:
            others = tuple(t for p, r in enumerate(self.racks) if p != out for t in r)
            self.scores[out] += counted[out]
            self.record(Turn(out, "end-rack", counted[out], self.scores[out],
                             tiles=tuple(sorted(others))))
        if tc.kind == "game":
            for p, used in enumerate(self.clocks):
                if used > tc.seconds:
                    lost = math.ceil((used - tc.seconds) / 60) * tc.penalty_per_minute
                    self.scores[p] -= lost
                    self.record(Turn(p, "time-penalty", -lost, self.scores[p]))


def draw_for_first(bag: Bag, n: int) -> Draws:
    """Each player draws a tile; the lowest (the blank beats A) starts; ties draw again.
    The tiles go back in the bag."""
    rounds = []
    contenders = list(range(n))
    while True:
        drawn = bag.draw(len(contenders))
        bag.put_back(drawn)
        draws = list(zip(contenders, drawn, strict=True))
        best = min(drawn)
        winners = [p for p, t in draws if t == best]
        rounds.append(sorted(draws, key=lambda d: (d[1] != best, d[0])))
        if len(winners) == 1:
            return rounds
        contenders = winners


__all__ = ["Draws", "Pending", "Position", "draw_for_first"]
