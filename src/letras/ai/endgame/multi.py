"""The endgame of three or four players: the opponents' racks are known only together, so
the player's best plays are played out to the end of the game on sampled deals of the unseen
tiles, every seat by a quick policy (see this package's ``README.md``, "Three or four
players").
"""

from __future__ import annotations

import random
import time

import numpy as np
import numpy.typing as npt

from letras.ai.endgame.position import (
    EndgameError,
    EndgameResult,
    check_view,
    turns_in_row,
    unseen_tiles,
    value_table,
)
from letras.ai.player import Choice, Limit
from letras.ai.sim.first import final_share
from letras.ai.sim.stopping import SPREAD_WEIGHT
from letras.board import Board
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.movegen import Plays, generate
from letras.movegen.columns import LAID
from letras.play import Pass, Place
from letras.scoring import final_count
from letras.scoring import score as score_play
from letras.tiles import rack_tile

MULTI_CANDIDATES = 10
"""With three or four players: how many of the player's plays are played out (plus the pass)."""
MULTI_SAMPLES = 16
"""With three or four players and no limit: how many deals of the unseen tiles are tried."""
FIRST = True
"""A candidate's value is its chance of finishing first (a share on a tie, as the game's
winners share a win) plus ``SPREAD_WEIGHT`` x its mean margin change, as the sim ranks its
candidates; else (for comparisons) its mean margin change alone."""


def _ranking(plays: Plays, rack_value: int, rack_size: int, out_bonus: float,
             table: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Endgame equity of each play: score, minus twice the face value of the tiles kept, plus
    ``out_bonus`` for going out."""
    scores = plays.scores().astype(np.float64)
    placed_value = table[plays.tiles].sum(axis=1)
    kept = rack_value - placed_value
    out = plays.meta[:, LAID] == rack_size
    rank: npt.NDArray[np.float64] = scores - 2.0 * kept + np.where(out, out_bonus, 0.0)
    return rank


def solve_multi(
    view: PlayerView, lexicon: WordGraph, limit: Limit, rng: random.Random
) -> EndgameResult:
    """The sampled play-outs of a game of three or four players with the bag empty, for the
    player to move (see this package's ``README.md``, "Three or four players")."""
    check_view(view)
    start = time.perf_counter()
    deadline = limit.deadline(start)
    n = len(view.scores)
    me = view.player
    seats = [(me + k) % n for k in range(n)]
    unseen = list(unseen_tiles(view))
    sizes = [view.rack_counts[s] for s in seats[1:]]
    if len(unseen) != sum(sizes):
        raise EndgameError(
            f"the unseen tiles ({len(unseen)}) are not the other racks ({sum(sizes)} tiles)"
        )
    if not view.rack:
        raise EndgameError("the rack is empty: the game is over")
    edition = view.edition
    values = edition.tiles.values
    table = value_table(values)
    rack = tuple(sorted(view.rack))
    plays = generate(view.board, rack, lexicon, bingo_bonus=view.rules.bingo_bonus,
                     join_words=view.may_join_words)
    rack_value = sum(values[t] for t in rack)
    unseen_value = sum(values[t] for t in unseen)
    candidates: list[Choice] = []
    if len(plays):
        rank = _ranking(plays, rack_value, len(rack), float(unseen_value), table)
        for i in np.argsort(-rank, kind="stable")[:MULTI_CANDIDATES].tolist():
            candidates.append(plays.place(i))
    candidates.append(Pass())
    passes, scoreless = turns_in_row(view.turns, view.rules)
    margin_now = view.scores[me] - max(s for p, s in enumerate(view.scores) if p != me)
    totals = [0.0] * len(candidates)
    playout = _Playout(view, lexicon, table, passes, scoreless)
    samples = 0
    budget = MULTI_SAMPLES if limit.unlimited else None
    while True:
        rng.shuffle(unseen)
        racks: dict[int, list[int]] = {me: list(rack)}
        k = 0
        for seat, size in zip(seats[1:], sizes, strict=True):
            racks[seat] = sorted(unseen[k:k + size])
            k += size
        for c, choice in enumerate(candidates):
            final = playout.run(choice, racks)
            margins = [float(final[me] - s) for p, s in enumerate(final) if p != me]
            change = min(margins) - margin_now
            totals[c] += final_share(margins) + SPREAD_WEIGHT * change if FIRST else change
        samples += 1
        if len(candidates) == 1 or (budget is not None and samples >= budget):
            break
        if time.perf_counter() > deadline or (
            limit.work is not None and playout.plays >= limit.work
        ):
            break
    means = [t / samples for t in totals]
    ranked = sorted(zip(candidates, means, strict=True), key=lambda cm: -cm[1])
    best, value = ranked[0]
    return EndgameResult(best, value, (best,), playout.plays, samples, False,
                         time.perf_counter() - start, tuple(ranked))


class _Playout:
    """Plays a game with an empty bag to its end, every seat by the quick policy of this
    package's ``README.md``, and gives the final scores."""

    def __init__(self, view: PlayerView, lexicon: WordGraph, table: npt.NDArray[np.int64],
                 passes: int, scoreless: int) -> None:
        self.view = view
        self.lexicon = lexicon
        self.table = table
        self.values = view.edition.tiles.values
        self.passes = passes
        self.scoreless = scoreless
        self.plays = 0
        rules = view.rules
        n = len(view.scores)
        self.n = n
        self.pass_end = rules.pass_rounds_to_end * n
        self.scoreless_end = rules.scoreless_turns_to_end
        self.bingo = rules.bingo_bonus
        self.join_words = view.may_join_words

    def run(self, first: Choice, deal: dict[int, list[int]]) -> list[int]:
        view = self.view
        n = self.n
        board = view.board.copy()
        racks = [list(deal[p]) for p in range(n)]
        scores = list(view.scores)
        passes, scoreless, stuck = self.passes, self.scoreless, 0
        seat = view.player
        choice: Choice | None = first
        while True:
            rack = racks[seat]
            if choice is None:
                choice = self.policy(board, rack)
                stuck = stuck + 1 if isinstance(choice, Pass) else 0
            if isinstance(choice, Place):
                points = self.lay(board, choice, rack)
                scores[seat] += points
                self.plays += 1
                passes = 0
                scoreless = 0 if points else scoreless + 1
                if not rack:
                    return self._counted(scores, racks, seat)
            else:
                passes += 1
                scoreless += 1
            if (
                (self.pass_end and passes >= self.pass_end)
                or (self.scoreless_end and scoreless >= self.scoreless_end)
                or stuck >= n
            ):
                # A full round of seats that could not play ends it too: nothing can change.
                return self._counted(scores, racks, None)
            seat = (seat + 1) % n
            choice = None

    def _counted(self, scores: list[int], racks: list[list[int]], out: int | None) -> list[int]:
        """The scores after the final count (:func:`letras.scoring.final_count`)."""
        counted = final_count(racks, self.values, out)
        return [s + c for s, c in zip(scores, counted, strict=True)]

    def policy(self, board: Board, rack: list[int]) -> Choice:
        plays = generate(board, rack, self.lexicon, bingo_bonus=self.bingo,
                         join_words=self.join_words)
        if not len(plays):
            return Pass()
        rack_value = sum(self.values[t] for t in rack)
        rank = _ranking(plays, rack_value, len(rack), 1000.0, self.table)
        return plays.place(int(np.argmax(rank)))

    def lay(self, board: Board, place: Place, rack: list[int]) -> int:
        points = score_play(board, place, self.bingo).total
        for sq, t in place.placed():
            board[sq] = t
            rack.remove(rack_tile(t))
        return points


__all__ = ["MULTI_CANDIDATES", "MULTI_SAMPLES", "solve_multi"]
