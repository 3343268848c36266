"""The look-ahead of the simulation: one iteration's deal of the unseen tiles, and the
rollout of a candidate on it, every reply chosen as the equity player would.

See this package's ``README.md`` ("The look-ahead", "The value of a candidate in one
iteration", "Near the end of the game").
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from letras.ai.equity import (
    LEAVE_RAMP_BAG,
    Candidate,
    _pass_ends_game,
    endgame_leaves,
    exchange_bonus,
    ramped,
)
from letras.ai.leaves import LeaveEvaluator
from letras.ai.leaves.klv import LeaveTable
from letras.ai.player import Choice
from letras.ai.sim.first import final_share, first_chance, margin_sd, seat_means
from letras.ai.sim.shuffle import shuffle_tiles
from letras.board import Board, Direction, Square
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.movegen import top_by_equity
from letras.movegen.leaves import LeaveNumbering, RackLeaves, leave_table
from letras.play import Exchange, Pass, Place
from letras.rack import from_counts, without
from letras.scoring import final_count
from letras.tiles import BLANK_BIT

END_BAG = 7
"""With this many tiles in the bag or fewer, rollouts play on to the end of the game (at most
:data:`END_PLIES` plies) instead of stopping after ``plies``."""
END_PLIES = 12
"""The most plies a rollout to the end of the game looks ahead."""

REMAINING_GAME: dict[str, tuple[float, float, float]] = {
    "en": (400.0, 96.0, 17.0),
    "pt-BR": (380.0, 186.0, 22.0),
    "es": (1130.0, 140.0, 21.0),
    "it": (230.0, 201.0, 23.0),
}
"""Per edition: (variance of the final spread left with an empty bag, variance added per tile
in the bag, points the player to move is ahead by at the end on average). Fitted on 300 games
of equity against equity per edition (seeds 1000-1299): the squared change of the spread from
each position to the end of its game, against the tiles in the bag, is close to linear; the
slope is about 0.09 x the mean score of a play squared in every edition."""
DEFAULT_REMAINING = (500.0, 150.0, 20.0)
"""For an edition not measured."""
FIRST = True
"""With several opponents, a rollout is valued by the chance of finishing first among them all
(:func:`letras.ai.sim.first.first_chance`, from the margin to each); else, as before it, by the
two-player model on the margin over the best of them (for comparisons: ``bench/sim_multi.py``).
With one opponent the two are the same."""


@dataclass
class Deal:
    """One iteration's hidden tiles: every seat's rack (ours as it is) and the bag's order."""

    racks: list[list[int]]
    bag: list[int]
    seed: int


class Rollouts:
    """Everything one position's rollouts share, and the rollouts themselves."""

    def __init__(
        self,
        view: PlayerView,
        lexicon: WordGraph,
        leaves: LeaveEvaluator,
        cache: dict[tuple[int, ...], float],
        plies: int,
        inferred: Sequence[tuple[int, ...]] = (),
        *,
        word_map: bool = True,
    ) -> None:
        self.view = view
        self.word_map = word_map
        """Replies are found with the lexicon's word map (:mod:`letras.movegen.wordmap`):
        the same best plays, found faster; a tie for the best may break another way than
        without it (the map lays bingos in another order)."""
        self.inferred = list(inferred)
        """Leaves the opponent who moved last may have kept (with repeats: a sample of what
        they likely kept), dealt to them first; empty when nothing was inferred."""
        self.edition = view.edition
        self.lexicon = lexicon
        self.leaves = leaves
        self.table = leaves if isinstance(leaves, LeaveTable) else None
        """The evaluator when it can value a rack's leaves all at once, else None."""
        self.cache = cache
        self.plies = plies
        self.size = view.board.size
        self.squares = bytes(view.board.squares)
        self.rack_size = view.edition.rack_size
        self.bingo = view.rules.bingo_bonus
        self.join_words = view.may_join_words
        """The ``join_words_from_turn`` rule as it stands now, kept for the look-ahead."""
        self.exchange_min = max(1, view.rules.exchange_min_bag)
        self.values = view.edition.tiles.values
        self.me = view.player
        seats = len(view.scores)
        self.seats = seats
        self.opponents = [(self.me + k) % seats for k in range(1, seats)]
        self.pool = list(from_counts(view.unseen))
        opponent_turns = (plies + 1) // 2
        self.cost = max(1, opponent_turns * len(self.opponents) + plies // 2)
        """Simulated plays per candidate per iteration, before any is measured."""
        self.pass_ends_game = _pass_ends_game(view)
        self.to_end = view.bag_count <= END_BAG
        """Rollouts play on to the end of the game."""
        if self.to_end:
            self.cost = END_PLIES // 2
        self.replies = 0
        """Simulated plays (move generations) so far."""
        remaining = REMAINING_GAME.get(view.edition.name, DEFAULT_REMAINING)
        self.var_base, self.var_per_tile, self.tempo = remaining
        self.first = FIRST and len(self.opponents) > 1
        """Valued by the chance of finishing first among the opponents (:data:`FIRST`)."""
        horizon = END_PLIES if self.to_end else plies
        means = seat_means(self.tempo, seats)
        # After the horizon the opponents move next (in turn order, then us) after an even
        # number of plies, we do after an odd one.
        mine = 0 if horizon % 2 else seats - 1
        self.ahead = [means[mine] - means[k + (1 if horizon % 2 else 0)]
                      for k in range(len(self.opponents))]
        """What we gain on each opponent from the horizon to the end on average: the tempo of
        our place in the order of moving against theirs
        (:func:`~letras.ai.sim.first.seat_means`)."""
        self.tempo_ahead = self.tempo if horizon % 2 else -self.tempo
        """The same in the two-player model: the tempo, for us or against us."""

    def deal(self, rng: random.Random) -> Deal:
        pool = self.pool[:]
        racks: list[list[int]] = [[] for _ in range(self.seats)]
        racks[self.me] = list(self.view.rack)
        last = (self.me - 1) % self.seats
        if self.inferred:
            kept = rng.choice(self.inferred)
            for t in kept:
                pool.remove(t)
            racks[last] = list(kept)
        rng.shuffle(pool)
        at = 0
        for p in self.opponents:
            n = self.view.rack_counts[p] - len(racks[p])
            racks[p] += pool[at:at + n]
            at += n
        bag = pool[at:]
        # A play waiting for a challenge: its player draws once we act.
        for p in self.opponents:
            need = self.rack_size - len(racks[p])
            if need > 0 and bag:
                racks[p].extend(bag[:need])
                del bag[:need]
        return Deal(racks, bag, rng.randrange(2**32))

    def rollout(self, cand: Candidate, deal: Deal) -> tuple[float, float]:
        """(margin over the best opponent, win chance) after the candidate and the plies."""
        squares = bytearray(self.squares)
        racks = [r[:] for r in deal.racks]
        scores = list(self.view.scores)
        kept: list[float] = [0.0] * self.seats
        bag = deal.bag
        drawn = 0
        me = self.me
        choice = cand.choice
        rack = racks[me]
        if isinstance(choice, Place):
            self._lay(squares, rack, choice.square, choice.direction, choice.tiles)
            scores[me] += cand.score
            kept[me] = self._leave_value(tuple(sorted(rack)), len(bag))
            drawn = self._draw(rack, bag, drawn)
            if not rack:
                return self._final(scores, racks, me)
        elif isinstance(choice, Exchange):
            for t in choice.tiles:
                rack.remove(t)
            kept[me] = self._leave_value(tuple(sorted(rack)), len(bag))
            bag, drawn = self._swap(rack, bag, choice.tiles, deal.seed)
        else:
            if self.pass_ends_game:
                return self._final(scores, racks, None)
            kept[me] = self._leave_value(tuple(sorted(rack)), len(bag))

        plies = END_PLIES if self.to_end else self.plies
        passes = 1 if isinstance(choice, Pass) else 0
        for ply in range(plies):
            for p in (self.opponents if ply % 2 == 0 else (me,)):
                bag_left = len(bag) - drawn
                action, points, leave_value = self._reply(squares, racks, p, bag_left)
                self.replies += 1
                kept[p] = leave_value
                rack = racks[p]
                scores[p] += points
                passes = passes + 1 if isinstance(action, Pass) else 0
                if isinstance(action, Place):
                    self._lay(squares, rack, action.square, action.direction, action.tiles)
                    drawn = self._draw(rack, bag, drawn)
                    if not rack:
                        return self._final(scores, racks, p)
                elif isinstance(action, Exchange):
                    for t in action.tiles:
                        rack.remove(t)
                    bag, drawn = self._swap(rack, bag[drawn:], action.tiles, deal.seed + ply)
                elif self.to_end and passes >= self.seats and drawn == len(bag):
                    return self._final(scores, racks, None)  # all passed: nothing will change

        margins = [scores[me] + kept[me] - (scores[p] + kept[p]) for p in self.opponents]
        return self._horizon(margins, len(bag) - drawn)

    def _horizon(self, margins: Sequence[float], bag_left: int) -> tuple[float, float]:
        """(margin over the best opponent, win chance) of a rollout stopped at the horizon,
        ``margins`` over each opponent (in :attr:`opponents`' order), ``bag_left`` tiles in
        the bag (see the README, "The value of a candidate in one iteration")."""
        margin = min(margins)
        if self.first:
            sd = margin_sd(self.var_base, self.var_per_tile, bag_left, self.seats)
            return margin, first_chance(margins, sd, self.ahead)
        # the two-player model on the margin over the best opponent (with one, the same)
        sd = math.sqrt(self.var_base + self.var_per_tile * bag_left)
        return margin, first_chance([margin], sd, [self.tempo_ahead])

    def _ended(self, margins: Sequence[float]) -> tuple[float, float]:
        """(margin over the best opponent, win share) of a rollout that reached the end of the
        game, ``margins`` the final ones over each opponent."""
        margin = min(margins)
        if self.first:
            return margin, final_share(margins)
        return margin, 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0

    def _reply(
        self, squares: bytearray, racks: list[list[int]], p: int, bag_left: int
    ) -> tuple[Choice, int, float]:
        """The equity player's action for seat ``p``: (action, points, value of the leave).

        Every leave the rack can keep is valued once (:meth:`_rack_leaves`): the whole rack is
        the pass, the best of the others the exchange (the first of equals in the order
        :func:`~letras.movegen.leave_table` lists them), and the move generator adds them to
        the plays' scores."""
        rack = racks[p]
        can_exchange = bag_left >= self.exchange_min
        leaves = self._rack_leaves(racks, p, bag_left)
        # the same search as the compiled rollouts (with the word map or without it): a tie
        # for the best breaks the same way in both
        found = top_by_equity(Board(self.edition, squares), rack, self.lexicon, 1, leaves,
                              bingo_bonus=self.bingo, join_words=self.join_words,
                              word_map=self.word_map)
        whole = float(leaves.values[-1])  # every count at its top: the last index
        best_keep: tuple[int, ...] = ()
        best_keep_value = -math.inf
        if can_exchange and len(leaves.values) > 1:
            best_keep, best_keep_value = _best_keep(rack, leaves)
        return self._decide(rack, found, can_exchange, best_keep, best_keep_value, whole)

    def _rack_leaves(self, racks: list[list[int]], p: int, bag_left: int) -> RackLeaves:
        """The leave term of every leave of seat ``p``'s rack, as
        :class:`~letras.ai.equity.EquityPlayer` counts it: the endgame's once the bag is empty,
        else the evaluator's values (all at once from a :class:`~letras.ai.leaves.klv.LeaveTable`,
        else leave by leave through the cache), a good leave's ramped down as the bag runs
        low."""
        rack = racks[p]
        if bag_left == 0:
            others = sum(self.values[t] for q, r in enumerate(racks) if q != p for t in r)
            return endgame_leaves(rack, self.values, others * self.seats / (self.seats - 1))
        weight = min(1.0, bag_left / LEAVE_RAMP_BAG) if LEAVE_RAMP_BAG else 1.0
        raw = (self.table.rack_leaves(rack) if self.table is not None
               else leave_table(rack, self._raw_value))
        return ramped(raw, weight)

    def _raw_value(self, leave: tuple[int, ...]) -> float:
        raw = self.cache.get(leave)
        if raw is None:
            raw = self.cache[leave] = float(self.leaves.value(leave))
        return raw

    def _decide(
        self, rack: list[int], found: list[tuple[Place, int, float]], can_exchange: bool,
        best_keep: tuple[int, ...], best_keep_value: float, whole: float,
    ) -> tuple[Choice, int, float]:
        """The best of the best play, the best exchange and the pass (on a tie, in that
        order), as (action, points, value of the leave)."""
        play_equity = found[0][2] if found else -math.inf
        exchange_equity = best_keep_value + exchange_bonus(self.leaves)
        if found and play_equity >= exchange_equity and play_equity >= whole:
            place, points, equity = found[0]
            return place, points, equity - points
        if can_exchange and exchange_equity >= whole:
            return Exchange(tuple(without(rack, best_keep))), 0, best_keep_value
        return Pass(), 0, whole

    def _leave_value(self, leave: tuple[int, ...], bag_left: int) -> float:
        raw = self._raw_value(leave)
        if raw > 0 and LEAVE_RAMP_BAG:
            return raw * min(1.0, bag_left / LEAVE_RAMP_BAG)
        return raw

    def _face(self, tiles: Sequence[int]) -> int:
        return sum(self.values[t] for t in tiles)

    def _lay(
        self, squares: bytearray, rack: list[int], square: Square, direction: Direction,
        tiles: Sequence[int],
    ) -> None:
        i = square.row * self.size + square.col
        step = 1 if direction is Direction.ACROSS else self.size
        for t in tiles:
            if t:
                squares[i] = t
                rack.remove(0 if t & BLANK_BIT else t)
            i += step

    def _draw(self, rack: list[int], bag: list[int], drawn: int) -> int:
        need = self.rack_size - len(rack)
        if need > 0:
            take = bag[drawn:drawn + need]
            rack.extend(take)
            drawn += len(take)
        return drawn

    def _swap(
        self, rack: list[int], bag: list[int], thrown: Sequence[int], seed: int
    ) -> tuple[list[int], int]:
        """An exchange: draw first, then the thrown tiles go back at random places: the bag
        left and the thrown tiles in tile order, shuffled by
        :func:`~letras.ai.sim.shuffle.shuffle_tiles` (as the compiled rollouts do)."""
        take = bag[:len(thrown)]
        rack.extend(take)
        rest = np.array(bag[len(take):] + sorted(thrown), np.int64)
        shuffle_tiles(rest, len(rest), seed)
        return rest.tolist(), 0

    def _final(
        self, scores: list[int], racks: list[list[int]], out: int | None
    ) -> tuple[float, float]:
        """The game ends: the final count (:func:`letras.scoring.final_count`)."""
        counted = final_count(racks, self.values, out)
        final = [s + c for s, c in zip(scores, counted, strict=True)]
        return self._ended([float(final[self.me] - final[p]) for p in self.opponents])


def _best_keep(rack: Sequence[int], leaves: RackLeaves) -> tuple[tuple[int, ...], float]:
    """The leave of highest value among those smaller than the rack, and its value. Among
    equals, the first in the order :func:`~letras.movegen.leaves.leave_table` meets them (the
    count of the lowest tile code varying slowest), as the leave-by-leave search keeps the
    first."""
    numbering = LeaveNumbering(rack)
    values = leaves.values[:-1]  # the last is the whole rack
    best = values.max()
    hits = np.flatnonzero(values == best).tolist()
    index = hits[0] if len(hits) == 1 else min(hits, key=numbering.kept)
    return numbering.leave(index), float(best)


__all__ = ["DEFAULT_REMAINING", "END_BAG", "END_PLIES", "REMAINING_GAME", "Deal", "Rollouts"]
