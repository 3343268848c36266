"""The plays of the endgame search, made incrementally from plays already known, and the
compiled helpers that value them near the horizon.

A node's plays are those of the same player two plies up along the lanes (rows, columns) no
play has changed since and whose tiles the rack still holds (:class:`RackBits`), merged lane
by lane with the plays the move generator finds along the changed lanes (:func:`derive`): the
very list :func:`~letras.movegen.generate` gives, in its order. See this package's
``README.md`` ("Plays, made incrementally").
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from letras.errors import LetrasError
from letras.movegen import Plays
from letras.movegen.columns import ACROSS, COL, COLUMNS, DIRECTION, LAID, LENGTH, ROW, SCORE
from letras.tiles import BLANK_BIT


class RackBitsError(LetrasError):
    """A rack that is not within the tiles :class:`RackBits` was made for, or too many tiles
    for one bit set."""


class RackBits:
    """Sub-multisets of one multiset of tiles (the two racks at the root of a search) as bit
    sets: each tile code gets as many bits as the multiset has tiles of it, and a rack that
    holds ``k`` of them sets the first ``k``. Tiles a play takes are a sub-multiset of a rack
    exactly when the play's bits lie within the rack's.

    >>> bits = RackBits([1, 1, 5, 0])
    >>> bits.of([1, 5]), bits.of([1, 1]), bits.of([0, 1, 1, 5])
    (10, 6, 15)
    >>> bits.of([1, 5]) & ~bits.of([1, 1, 5]) == 0  # AE is within AAE
    True
    """

    def __init__(self, tiles: Sequence[int]) -> None:
        self.tiles = tuple(sorted(tiles))
        self.offsets = np.zeros(64, np.int64)
        """The first bit of each tile code (blanks: code 0)."""
        self.counts = np.zeros(64, np.int64)
        bit = 0
        for code, count in sorted(Counter(tiles).items()):
            self.offsets[code] = bit
            self.counts[code] = count
            bit += count
        if bit > 62:
            raise RackBitsError(f"too many tiles for a bit set: {bit} (at most 62)")
        self._racks: dict[tuple[int, ...], int] = {}

    def of(self, rack: Sequence[int]) -> int:
        """The bits of a rack (tile codes, 0 = blank) within the multiset."""
        key = tuple(sorted(rack))
        bits = self._racks.get(key)
        if bits is None:
            bits = 0
            seen: dict[int, int] = {}
            for t in key:
                k = seen.get(t, 0)
                if k >= self.counts[t]:
                    raise RackBitsError(f"the rack {key} is not within the tiles {self.tiles}")
                bits |= 1 << (int(self.offsets[t]) + k)
                seen[t] = k + 1
            self._racks[key] = bits
        return bits


class LanePlays(NamedTuple):
    """Plays in the order the move generator gives them, with what incremental generation
    needs: ``meta`` and ``tiles`` as in :class:`~letras.movegen.Plays`; the lane each was
    found along (``direction * size + row`` across, ``size + column`` down); the rack tiles
    it takes (:class:`RackBits`); the face value of the tiles it lays (blanks 0)."""

    meta: npt.NDArray[np.int32]
    tiles: npt.NDArray[np.uint8]
    lane: npt.NDArray[np.int64]
    used: npt.NDArray[np.int64]
    laid_value: npt.NDArray[np.int64]


def annotate(plays: Plays, bits: RackBits, values: npt.NDArray[np.int64]) -> LanePlays:
    """All the plays of a rack, as :class:`LanePlays` (``values``: points of each board tile
    code, 256 of them)."""
    return derive(None, 0, 0, plays, bits, values)


def derive(
    source: LanePlays | None, changed: int, outside: int, new: Plays, bits: RackBits,
    values: npt.NDArray[np.int64],
) -> LanePlays:
    """The plays of a rack from the plays of a rack that holds it (``source``): those along
    lanes not in ``changed`` (a bit per lane) that take no tile in ``outside`` (the bits of
    the bigger rack the smaller one lacks), merged lane by lane with ``new``, the plays
    generated along the changed lanes."""
    size = new.tiles.shape[1]
    if source is None:
        source = _NONE.get(size)
        if source is None:
            source = _NONE[size] = LanePlays(np.zeros((0, COLUMNS), np.int32),
                                             np.zeros((0, size), np.uint8),
                                             np.zeros(0, np.int64), np.zeros(0, np.int64),
                                             np.zeros(0, np.int64))
    meta, tiles, lane, used, laid = _merge(
        source.meta, source.tiles, source.lane, source.used, source.laid_value, changed,
        outside, new.meta, new.tiles, size, bits.offsets, values,
    )
    return LanePlays(meta, tiles, lane, used, laid)


_NONE: dict[int, LanePlays] = {}


@njit(cache=True)
def play_lanes(meta: Any, tiles: Any, board: Any, size: int) -> Any:  # pragma: no cover
    """For each play (``meta`` and ``tiles`` as the move generator gives them, on ``board``:
    its squares, 0 = empty) the lanes, a bit per lane as :attr:`LanePlays.lane` numbers them,
    whose plays may differ once it is made: :func:`lanes_of` of each."""
    n = meta.shape[0]
    out = np.zeros(n, np.int64)
    for i in range(n):
        out[i] = lanes_of(meta, tiles, i, board, size)
    return out


@njit(cache=True)
def lanes_of(meta: Any, tiles: Any, i: int, board: Any, size: int) -> Any:  # pragma: no cover
    """The lanes of play ``i`` whose plays may differ once it is made: the lanes through its
    new tiles, and those of the empty squares that end the runs of tiles through a new tile,
    along the play (just before and after its word) and across it (their cross-sets and cross
    scores change). The same lanes or more as :func:`~letras.movegen.changed_lanes` names."""
    last = size - 1
    row, col = meta[i, ROW], meta[i, COL]
    direction, length = meta[i, DIRECTION], meta[i, LENGTH]
    # along the play: its row (across) or column (down), and the squares just past it
    if direction == ACROSS:
        lanes = np.int64(1) << row
        if col > 0:
            lanes |= np.int64(1) << (size + col - 1)
        if col + length <= last:
            lanes |= np.int64(1) << (size + col + length)
    else:
        lanes = np.int64(1) << (size + col)
        if row > 0:
            lanes |= np.int64(1) << (row - 1)
        if row + length <= last:
            lanes |= np.int64(1) << (row + length)
    for k in range(length):
        if tiles[i, k] == 0:
            continue
        r = row if direction == ACROSS else row + k
        c = col + k if direction == ACROSS else col
        # across the play: the run of board tiles through the new tile, and past it
        if direction == ACROSS:
            lanes |= np.int64(1) << (size + c)
            up = r
            while up > 0 and board[(up - 1) * size + c] != 0:
                up -= 1
            down = r
            while down < last and board[(down + 1) * size + c] != 0:
                down += 1
            if up > 0:
                lanes |= np.int64(1) << (up - 1)
            if down < last:
                lanes |= np.int64(1) << (down + 1)
        else:
            lanes |= np.int64(1) << r
            left = c
            while left > 0 and board[r * size + left - 1] != 0:
                left -= 1
            right = c
            while right < last and board[r * size + right + 1] != 0:
                right += 1
            if left > 0:
                lanes |= np.int64(1) << (size + left - 1)
            if right < last:
                lanes |= np.int64(1) << (size + right + 1)
    return lanes


@njit(cache=True)
def _merge(
    s_meta: Any, s_tiles: Any, s_lane: Any, s_used: Any, s_laid: Any, changed: int,
    outside: int, n_meta: Any, n_tiles: Any, size: int, offsets: Any, values: Any,
) -> tuple[Any, Any, Any, Any, Any]:  # pragma: no cover - compiled
    """The source's plays kept (lane not changed, no tile outside the rack) and the new
    plays, merged by lane; the new plays' lanes, rack bits and laid value worked out."""
    n_src = s_meta.shape[0]
    n_new = n_meta.shape[0]
    keep = np.zeros(n_src, np.bool_)
    total = n_new
    for i in range(n_src):
        if not (changed >> s_lane[i]) & 1 and not s_used[i] & outside:
            keep[i] = True
            total += 1
    new_lane = np.zeros(n_new, np.int64)
    new_used = np.zeros(n_new, np.int64)
    new_laid = np.zeros(n_new, np.int64)
    taken = np.zeros(64, np.int64)
    for j in range(n_new):
        new_lane[j] = (n_meta[j, ROW] if n_meta[j, DIRECTION] == ACROSS
                       else size + n_meta[j, COL])
        taken[:] = 0
        bits = 0
        laid = 0
        for k in range(n_meta[j, LENGTH]):
            t = n_tiles[j, k]
            if t == 0:
                continue
            code = 0 if t & BLANK_BIT else t
            bits |= 1 << (offsets[code] + taken[code])
            taken[code] += 1
            laid += values[t]
        new_used[j] = bits
        new_laid[j] = laid
    meta = np.empty((total, COLUMNS), np.int32)
    tiles = np.empty((total, size), np.uint8)
    lane = np.empty(total, np.int64)
    used = np.empty(total, np.int64)
    laid_value = np.empty(total, np.int64)
    i = 0
    j = 0
    for out in range(total):
        while i < n_src and not keep[i]:
            i += 1
        # the lanes of the two lists are disjoint: take the lower lane first
        if j >= n_new or (i < n_src and s_lane[i] < new_lane[j]):
            meta[out] = s_meta[i]
            tiles[out] = s_tiles[i]
            lane[out] = s_lane[i]
            used[out] = s_used[i]
            laid_value[out] = s_laid[i]
            i += 1
        else:
            meta[out] = n_meta[j]
            tiles[out] = n_tiles[j]
            lane[out] = new_lane[j]
            used[out] = new_used[j]
            laid_value[out] = new_laid[j]
            j += 1
    return meta, tiles, lane, used, laid_value


@njit(cache=True, inline="always")
def _ply_value(
    score: Any, kept: Any, kept_value: Any, opp_size: int, opp_value: int, scoreless_stop: bool,
) -> tuple[Any, bool]:  # pragma: no cover - compiled
    """See :func:`ply_values`."""
    if kept == 0:
        return score + 2 * opp_value, True
    if scoreless_stop and score == 0:
        return opp_value - kept_value, True
    return score - (2 * kept * kept_value - 2 * opp_size * opp_value) // (opp_size + kept), False


@njit(cache=True)
def ply_values(
    meta: Any, laid_value: Any, rack_size: int, rack_value: int, opp_size: int,
    opp_value: int, scoreless_stop: bool,
) -> tuple[Any, Any]:  # pragma: no cover - compiled
    """Each play's value one ply above the horizon, for the side that makes it: going out
    gains its score and twice the other rack; else its score less the reply's
    :func:`~letras.ai.endgame.position.horizon_value` (the same formula, written here once more for
    the compiled code), or with ``scoreless_stop`` a scoreless play ends the game (each side
    loses their own rack). Also whether each play ends the game."""
    n = meta.shape[0]
    values = np.empty(n, np.int64)
    terminal = np.empty(n, np.bool_)
    for i in range(n):
        values[i], terminal[i] = _ply_value(
            np.int64(meta[i, SCORE]), rack_size - np.int64(meta[i, LAID]),
            rack_value - laid_value[i], opp_size, opp_value, scoreless_stop)
    return values, terminal


@njit(cache=True)
def best_at_horizon(
    meta: Any, laid_value: Any, rack_size: int, rack_value: int, opp_size: int,
    opp_value: int, scoreless_stop: bool,
) -> tuple[Any, int, bool]:  # pragma: no cover - compiled
    """The highest of :func:`ply_values` (-1 and index -1 without plays), the first play
    that has it, and whether every play ends the game."""
    values, terminal = ply_values(meta, laid_value, rack_size, rack_value, opp_size,
                                  opp_value, scoreless_stop)
    best = np.int64(-1)
    best_i = -1
    every = True
    for i in range(values.shape[0]):
        if best_i < 0 or values[i] > best:
            best = values[i]
            best_i = i
        every = every and terminal[i]
    return best, best_i, every


@njit(cache=True)
def play_order(
    meta: Any, laid_value: Any, rack_size: int, rack_value: int, opp_size: int, opp_value: int,
) -> Any:  # pragma: no cover - compiled
    """Plays best first: those that go out (highest first), then by :func:`ply_values`
    (without another rack, by score); among equals, in the order given."""
    n = meta.shape[0]
    if opp_size:
        values, _ = ply_values(meta, laid_value, rack_size, rack_value, opp_size, opp_value,
                               False)
    else:
        values = np.empty(n, np.int64)
        for i in range(n):
            values[i] = meta[i, SCORE]
    key = np.empty(n, np.int64)
    for i in range(n):
        key[i] = -(values[i] + (1 << 20)) if meta[i, LAID] == rack_size else -values[i]
    return np.argsort(key, kind="mergesort")


@njit(cache=True)
def best_kept(
    meta: Any, lane: Any, used: Any, laid_value: Any, changed: int, outside: int,
    rack_size: int, rack_value: int, opp_size: int, opp_value: int, scoreless_stop: bool,
    only_out: bool,
) -> tuple[Any, int, bool]:  # pragma: no cover - compiled
    """Among a source's plays that :func:`derive` would keep (lane not in ``changed``, no
    tile in ``outside``), the highest :func:`ply_values` for the smaller rack (``rack_size``
    and ``rack_value`` are its own), the first play that has it (-1 if none is kept) and
    whether that play ends the game: a lower bound of the value one ply above the horizon
    without generating the changed lanes. With ``only_out``, among the plays that go out
    (their value is exact at any depth)."""
    best = np.int64(-1)
    best_i = -1
    ends = False
    for i in range(meta.shape[0]):
        if (changed >> lane[i]) & 1 or used[i] & outside or (
                only_out and meta[i, LAID] != rack_size):
            continue
        value, terminal = _ply_value(
            np.int64(meta[i, SCORE]), rack_size - np.int64(meta[i, LAID]),
            rack_value - laid_value[i], opp_size, opp_value, scoreless_stop)
        if best_i < 0 or value > best:
            best = value
            best_i = i
            ends = terminal
    return best, best_i, ends


@njit(cache=True)
def child_bounds(
    which: Any, meta: Any, laid_value: Any, lanes: Any, rack_size: int, rack_value: int,
    s_meta: Any, s_lane: Any, s_used: Any, s_laid: Any, parent_changed: int, outside: int,
    opp_size: int, opp_value: int, scoreless: int, pass_end: int, scoreless_end: int,
    no_play_ends: bool, horizon: bool,
) -> tuple[Any, Any, Any]:  # pragma: no cover - compiled
    """Two plies above the horizon, for the plays ``which`` (indices into ``meta``,
    ``laid_value``, ``lanes`` from :func:`play_lanes`) of the side to move (``rack_size``
    tiles worth ``rack_value``): what the reply one ply above the horizon is worth at least
    to the other side, from its plays two plies up (``s_*``: those :func:`best_kept` keeps
    with the lanes ``parent_changed`` since then and the play's) and its pass; whether the
    move that gives it ends the game; and whether it is known (not for plays that end the
    game themselves, nor when the other side keeps no play and the game could end with
    neither side able to play). Without ``horizon`` (further above it) only a reply that
    goes out counts, and not the pass."""
    n = which.shape[0]
    bound = np.zeros(n, np.int64)
    ends = np.zeros(n, np.bool_)
    known = np.zeros(n, np.bool_)
    for w in range(n):
        i = which[w]
        score = np.int64(meta[i, SCORE])
        kept = rack_size - int(meta[i, LAID])
        kept_value = rack_value - laid_value[i]
        if kept == 0:
            continue
        turns = 0 if score else scoreless + 1
        if scoreless_end and turns >= scoreless_end:
            continue
        stop = bool(scoreless_end) and turns + 1 >= scoreless_end
        best, best_i, terminal = best_kept(s_meta, s_lane, s_used, s_laid,
                                           parent_changed | lanes[i], outside, opp_size,
                                           opp_value, kept, kept_value, stop, not horizon)
        if best_i < 0 and (no_play_ends or not horizon):
            continue
        if not horizon:
            bound[w] = best
            ends[w] = True
            known[w] = True
            continue
        # the reply's pass (the passes in a row start again from this play)
        if (pass_end and pass_end <= 1) or stop:
            value = kept_value - opp_value
            pass_ends = True
        else:
            value = -((2 * opp_size * opp_value - 2 * kept * kept_value) // (kept + opp_size))
            pass_ends = False
        if best_i < 0 or value > best:
            best, terminal = value, pass_ends
        bound[w] = best
        ends[w] = terminal
        known[w] = True
    return bound, ends, known
