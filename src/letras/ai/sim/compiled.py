"""The rollouts of the simulation, compiled end to end: :func:`play_out` plays every ply of one
rollout (the candidate, the equity replies, the draws, the exchanges, the leaves, the final
count) in one call, with no Python per simulated play.

:class:`CompiledRollouts` is :class:`~letras.ai.sim.rollouts.Rollouts` with its
:meth:`~letras.ai.sim.rollouts.Rollouts.rollout` done by :func:`play_out`; the Python rollout
stays as the reference, and the two give the same values for the same deal (tests:
``tests/test_sim_compiled.py``). It takes a :class:`~letras.ai.leaves.klv.LeaveTable` (the
shipped leaves): with another evaluator, :func:`make_rollouts` gives the Python rollouts.

The state of a rollout is flat arrays: the board's squares, each seat's rack as counts per tile
code, the dealt bag and how many have been drawn from it. A reply is the move generator's best
play by equity (:func:`letras.movegen._kernels.generate_mapped`, with the lexicon's word map,
or :func:`letras.movegen._kernels.generate` without it, asked for the best one alone, with the
values of every leave the rack can keep, from :func:`letras.ai.leaves.klv._rack_leave_values`),
against the best exchange and the pass, exactly as
:meth:`~letras.ai.sim.rollouts.Rollouts._decide` chooses. This module reaches into the
generator's private kernels: if they change, this is what to follow. The pieces of a ply are
in :mod:`letras.ai.sim.plies`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from letras._compiled import announce_first_compile
from letras.ai.equity import ENDGAME_STUCK_FACTOR, LEAVE_RAMP_BAG, Candidate, exchange_bonus
from letras.ai.leaves import LeaveEvaluator
from letras.ai.leaves.klv import LeaveTable
from letras.ai.sim.plies import (
    best_keep,
    draw,
    final_margins,
    lay,
    leave_value,
    rack_leaves,
    ramp_value,
    swap,
    tiles_of,
)
from letras.ai.sim.rollouts import END_PLIES, Deal, Rollouts
from letras.board import Direction
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph
from letras.movegen import _edition_arrays, packed, wordmap
from letras.movegen import _kernels as k
from letras.movegen.columns import COL, DIRECTION, LENGTH, ROW, SCORE
from letras.movegen.leaves import CODES, kept_count
from letras.play import Exchange, Place

# (numba caches this module's code with the kernels it calls compiled in, and knows of no
# change to them: a change to one of them must change this file too; last: the searches'
# unowned views, no first reply lane by lane, scratch made once, 2026-12-03)
COMPILED = True
"""Whether :func:`make_rollouts` gives the compiled rollouts where it can (the Python ones
otherwise: for comparisons, as ``bench/sim_compiled.py`` makes them)."""

WORD_MAP = True
"""Whether the replies are found with the lexicon's word map (``movegen._kernels.generate_mapped``,
:mod:`letras.movegen.wordmap`), in the compiled rollouts and in the Python ones that
:func:`make_rollouts` gives alike: the same best plays, found faster, a tie for the best
broken the same way by both (for comparisons, as ``bench/sim_compiled.py`` makes them)."""

PLACE, EXCHANGE, PASS = 0, 1, 2
"""The kinds of action, as :func:`play_out` takes the candidate's."""

# The settings of a position, in the ``p_int`` array play_out takes.
P_SIZE, P_NLETTERS, P_RACK, P_BINGO, P_JOIN, P_EXCHANGE_MIN, P_ME, P_PLIES, P_TO_END = range(9)
P_PASS_ENDS, P_RAMP, P_COUNT = 9, 10, 11
# ... and in ``p_float``.
F_DEFAULT, F_EXCHANGE_BONUS, F_STUCK, F_COUNT = 0, 1, 2, 3


@njit(cache=True)
def play_out(
    pk: Any, letter: Any, word: Any, values: Any, p_int: Any, p_float: Any, keys: Any,
    table: Any, board0: Any, scores0: Any, racks0: Any, bag0: Any, seed: int, opponents: Any,
    kind: int, cand: Any, cand_tiles: Any, thrown0: Any, mapped: bool, wm_table: Any,
    wm_word_keys: Any, wm_words: Any, wm_long: Any, wm_keys: Any, margins: Any,
) -> tuple[bool, int, int]:  # pragma: no cover - compiled
    """One rollout of a candidate on one deal (``Rollouts.rollout``): the candidate of
    ``kind`` (:data:`PLACE`: ``cand`` holds its row, column, direction, length and score,
    ``cand_tiles`` its tiles; :data:`EXCHANGE`: ``thrown0`` the counts it throws; or
    :data:`PASS`), then the plies. ``racks0`` holds every seat's rack as counts per tile code,
    ``bag0`` the dealt bag in order, ``seed`` the deal's seed; ``p_int`` and ``p_float`` the
    position's settings (``P_...``, ``F_...``).

    With ``mapped``, a reply is
    :func:`letras.movegen._kernels.generate_mapped`'s, with the word map of ``pk``'s words
    (``wm_...``: :class:`letras.movegen.wordmap.WordMap`'s arrays and
    :func:`letras.movegen.wordmap.map_keys`); else :func:`letras.movegen._kernels.generate`'s.
    Either finds the best play; they may keep different ones of equal value.

    Returns (whether the game ended, tiles left in the bag, replies made); our margin over
    each seat goes in ``margins`` (by seat, 0 for ours): counting the leaves at the horizon,
    or the final one when the game ended."""
    size = p_int[P_SIZE]
    nletters = p_int[P_NLETTERS]
    rack_size = p_int[P_RACK]
    bingo = p_int[P_BINGO]
    join = p_int[P_JOIN] != 0
    exchange_min = p_int[P_EXCHANGE_MIN]
    me = p_int[P_ME]
    plies = p_int[P_PLIES]
    to_end = p_int[P_TO_END] != 0
    ramp = p_int[P_RAMP]
    default = p_float[F_DEFAULT]
    bonus = p_float[F_EXCHANGE_BONUS]
    stuck = p_float[F_STUCK]
    seats = racks0.shape[0]
    board = board0.copy()
    racks = racks0.copy()
    scores = scores0.copy()
    n_bag = bag0.shape[0]
    bag = np.zeros(n_bag + CODES, np.int64)
    bag[:n_bag] = bag0
    rest = np.zeros(n_bag + CODES, np.int64)
    kept = np.zeros(seats, np.float64)
    thrown = np.zeros(CODES, np.int64)
    radix = np.zeros(CODES, np.int64)
    lanes = np.ones((2, size), np.bool_)
    drawn = 0
    replies = 0
    rack = racks[me]
    if kind == PLACE:
        lay(board, rack, cand[0], cand[1], cand[2], cand[3], cand_tiles, size)
        scores[me] += cand[4]
        kept[me] = ramp_value(leave_value(keys, table, default, rack), n_bag, ramp)
        drawn = draw(rack, bag, n_bag, drawn, rack_size)
        if tiles_of(rack) == 0:
            final_margins(scores, racks, values, me, me, margins)
            return True, 0, 0
    elif kind == EXCHANGE:
        for t in range(CODES):
            rack[t] -= thrown0[t]
        kept[me] = ramp_value(leave_value(keys, table, default, rack), n_bag, ramp)
        n_bag = swap(rack, bag, n_bag, 0, thrown0, seed, rest)
        drawn = 0
    else:
        if p_int[P_PASS_ENDS]:
            final_margins(scores, racks, values, me, -1, margins)
            return True, n_bag, 0
        kept[me] = ramp_value(leave_value(keys, table, default, rack), n_bag, ramp)
    passes = 1 if kind == PASS else 0
    for ply in range(plies):
        movers = opponents.shape[0] if ply % 2 == 0 else 1
        for j in range(movers):
            p = opponents[j] if ply % 2 == 0 else me
            rack = racks[p]
            bag_left = n_bag - drawn
            can_exchange = bag_left >= exchange_min
            leaves = rack_leaves(keys, table, default, rack, radix, racks, p, values,
                                  bag_left, ramp, stuck)
            if mapped:
                meta, out, val, count = k.generate_mapped(
                    pk, board, size, rack, values, letter, word, nletters, rack_size, bingo,
                    True, join, lanes, 1, True, leaves, radix, wm_table, wm_word_keys,
                    wm_words, wm_long, wm_keys)
            else:
                meta, out, val, count = k.generate(
                    pk, board, size, rack, values, letter, word, nletters, rack_size, bingo,
                    True, join, lanes, 1, True, leaves, radix)
            best = 0
            for i in range(1, count):
                if val[i] > val[best]:
                    best = i
            whole = leaves[leaves.shape[0] - 1]
            keep = -1
            keep_value = -np.inf
            if can_exchange and leaves.shape[0] > 1:
                keep, keep_value = best_keep(leaves, radix, rack)
            play_equity = val[best] if count else -np.inf
            exchange_equity = keep_value + bonus
            replies += 1
            if count and play_equity >= exchange_equity and play_equity >= whole:
                points = meta[best, SCORE]
                kept[p] = val[best] - points
                scores[p] += points
                passes = 0
                lay(board, rack, meta[best, ROW], meta[best, COL], meta[best, DIRECTION],
                     meta[best, LENGTH], out[best], size)
                drawn = draw(rack, bag, n_bag, drawn, rack_size)
                if tiles_of(rack) == 0:
                    final_margins(scores, racks, values, me, p, margins)
                    return True, n_bag - drawn, replies
            elif can_exchange and exchange_equity >= whole:
                kept[p] = keep_value
                passes = 0
                for t in range(CODES):
                    thrown[t] = rack[t] - (kept_count(keep, radix, t, rack[t])
                                           if rack[t] else 0)
                for t in range(CODES):
                    rack[t] -= thrown[t]
                n_bag = swap(rack, bag, n_bag, drawn, thrown, seed + ply, rest)
                drawn = 0
            else:
                kept[p] = whole
                passes += 1
                if to_end and passes >= seats and drawn == n_bag:
                    final_margins(scores, racks, values, me, -1, margins)
                    return True, 0, replies
    for p in range(seats):
        margins[p] = scores[me] + kept[me] - (scores[p] + kept[p])
    return False, n_bag - drawn, replies


class CompiledRollouts(Rollouts):
    """:class:`Rollouts` whose rollouts are :func:`play_out` (the leaves must be a
    :class:`LeaveTable`)."""

    def __init__(
        self,
        view: PlayerView,
        lexicon: WordGraph,
        leaves: LeaveTable,
        cache: dict[tuple[int, ...], float],
        plies: int,
        inferred: Sequence[tuple[int, ...]] = (),
        *,
        word_map: bool = True,
    ) -> None:
        super().__init__(view, lexicon, leaves, cache, plies, inferred, word_map=word_map)
        announce_first_compile(k, "generate", "compile.movegen")
        self._word_map: tuple[Any, Any, Any, Any, Any] = (*wordmap.word_map(lexicon),
                                                          wordmap.map_keys())
        edition = view.edition
        letter, word, values = _edition_arrays(edition)
        self._graph = (packed(lexicon), letter, word, values)
        p_int = np.zeros(P_COUNT, np.int64)
        p_int[P_SIZE] = self.size
        p_int[P_NLETTERS] = len(edition.tiles.labels) - 1
        p_int[P_RACK] = self.rack_size
        p_int[P_BINGO] = self.bingo
        p_int[P_JOIN] = int(self.join_words)
        p_int[P_EXCHANGE_MIN] = self.exchange_min
        p_int[P_ME] = self.me
        p_int[P_PLIES] = END_PLIES if self.to_end else self.plies
        p_int[P_TO_END] = int(self.to_end)
        p_int[P_PASS_ENDS] = int(self.pass_ends_game)
        p_int[P_RAMP] = LEAVE_RAMP_BAG
        self._p_int = p_int
        p_float = np.zeros(F_COUNT, np.float64)
        p_float[F_DEFAULT] = leaves.default
        p_float[F_EXCHANGE_BONUS] = exchange_bonus(leaves)
        p_float[F_STUCK] = ENDGAME_STUCK_FACTOR
        self._p_float = p_float
        self._leaves = (leaves.keys, leaves.values)
        self._board = np.frombuffer(self.squares, np.uint8).copy()
        self._scores = np.array(view.scores, np.int64)
        self._opponents = np.array(self.opponents, np.int64)
        self._margins = np.zeros(self.seats, np.float64)
        """:func:`play_out`'s margins over each seat."""
        self._deal: Deal | None = None
        self._dealt: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] = (
            np.zeros((self.seats, CODES), np.int64), np.zeros(0, np.int64))
        self._candidates: dict[int, tuple[Any, ...]] = {}

    def _arrays(self, deal: Deal) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The deal's racks (counts) and bag as arrays, made once per deal."""
        if self._deal is not deal:
            racks = np.zeros((self.seats, CODES), np.int64)
            for p, rack in enumerate(deal.racks):
                for t in rack:
                    racks[p, t] += 1
            self._dealt = (racks, np.array(deal.bag, np.int64))
            self._deal = deal
        return self._dealt

    def _candidate(self, cand: Candidate) -> tuple[Any, ...]:
        """The candidate as :func:`play_out` takes it (its kind, place, tiles and the tiles it
        throws), made once per candidate."""
        known = self._candidates.get(id(cand))
        if known is not None and known[0] is cand:
            return known[1:]
        choice = cand.choice
        meta = np.zeros(5, np.int64)
        tiles = np.zeros(self.size, np.uint8)
        thrown = np.zeros(CODES, np.int64)
        if isinstance(choice, Place):
            kind = PLACE
            meta[:] = (choice.square.row, choice.square.col,
                       0 if choice.direction is Direction.ACROSS else 1, len(choice.tiles),
                       cand.score)
            tiles[: len(choice.tiles)] = choice.tiles
        elif isinstance(choice, Exchange):
            kind = EXCHANGE
            for t in choice.tiles:
                thrown[t] += 1
        else:
            kind = PASS
        self._candidates[id(cand)] = (cand, kind, meta, tiles, thrown)
        return kind, meta, tiles, thrown

    def rollout(self, cand: Candidate, deal: Deal) -> tuple[float, float]:
        racks, bag = self._arrays(deal)
        kind, meta, tiles, thrown = self._candidate(cand)
        pk, letter, word, values = self._graph
        keys, table = self._leaves
        ended, bag_left, replies = play_out(
            pk, letter, word, values, self._p_int, self._p_float, keys, table, self._board,
            self._scores, racks, bag, deal.seed, self._opponents, kind, meta, tiles, thrown,
            self.word_map, *self._word_map, self._margins)
        self.replies += replies
        margins = [float(self._margins[p]) for p in self.opponents]
        if ended:
            return self._ended(margins)
        return self._horizon(margins, bag_left)


def make_rollouts(
    view: PlayerView,
    lexicon: WordGraph,
    leaves: LeaveEvaluator,
    cache: dict[tuple[int, ...], float],
    plies: int,
    inferred: Sequence[tuple[int, ...]] = (),
) -> Rollouts:
    """The compiled rollouts with a :class:`LeaveTable` (and :data:`COMPILED`), else the
    Python ones: the same values either way. Both search with the word map if
    :data:`WORD_MAP`."""
    if COMPILED and isinstance(leaves, LeaveTable):
        return CompiledRollouts(view, lexicon, leaves, cache, plies, inferred,
                                word_map=WORD_MAP)
    return Rollouts(view, lexicon, leaves, cache, plies, inferred, word_map=WORD_MAP)


__all__ = ["COMPILED", "WORD_MAP", "CompiledRollouts", "make_rollouts", "play_out"]
