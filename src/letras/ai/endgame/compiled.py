"""The two-player endgame search on its compiled core (:mod:`letras.ai.endgame.core`): Python
sets the position up as flat arrays, runs the iterations of the deepening, and decodes the
answer (the best move, the principal variation from the table). The search is the same as
:class:`letras.ai.endgame.search.Search` (told in this package's ``README.md``); this one
keeps no Python per position searched.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from letras._compiled import announce_first_compile
from letras.ai.endgame import core
from letras.ai.endgame.lanes import all_cross, scratch
from letras.ai.endgame.plays import RackBits
from letras.ai.endgame.position import (
    EndgamePosition,
    EndgameResult,
    Iteration,
    value_table,
)
from letras.ai.endgame.search import DEPTHS
from letras.ai.player import Choice, Limit
from letras.lexicon.kwg import WordGraph
from letras.movegen import Plays, _edition_arrays, generate, packed
from letras.movegen.columns import ACROSS, COL, COLUMNS, DIRECTION, LENGTH, ROW
from letras.play import Pass
from letras.tiles import BLANK_BIT

TABLE_BITS = 21
"""The transposition table holds ``2 ** TABLE_BITS`` entries (about 45 bytes each: 96 MB)."""
CACHE_BITS = 21
"""The cache of plays holds ``2 ** CACHE_BITS`` plays (about 63 bytes each: 130 MB), for
``2 ** (CACHE_BITS - 3)`` racks on boards."""

_SEED = 0x1E77A5


def usable(position: EndgamePosition) -> bool:
    """Whether the compiled search takes this position: the board holds tiles (plays are
    made along lanes next to them), the two racks fit one bit set and the counts of passes
    and scoreless turns in a row fit its hash tables."""
    return (any(position.board.squares)
            and len(position.rack) + len(position.opponent_rack) <= 62
            and max(position.passes_in_row, position.scoreless_in_row) < 200)


class CompiledSearch:
    """The exact search of a two-player endgame, compiled (see this package's
    ``README.md``)."""

    def __init__(self, position: EndgamePosition, lexicon: WordGraph, limit: Limit,
                 table_bits: int = TABLE_BITS, cache_bits: int = CACHE_BITS,
                 tiles: Sequence[int] | None = None) -> None:
        """``tiles``: the multiset the racks are bit sets within (default: the two racks of
        ``position``); a wider one lets :meth:`retarget` search other positions whose racks
        lie within it with the same table and cache of plays."""
        self.position = position
        self.lexicon = lexicon
        self.limit = limit
        board = position.board
        self.edition = board.edition
        size = self.size = board.size
        rules = position.rules
        pass_end = 2 * rules.pass_rounds_to_end if rules.pass_rounds_to_end else 0
        scoreless_end = rules.scoreless_turns_to_end
        if not pass_end and not scoreless_end:
            pass_end = 2  # nothing else would end a game of passes: see the README
        self.pass_end, self.scoreless_end = pass_end, scoreless_end
        no_play_ends = rules.end_when_no_play_possible and rules.exchange_min_bag > 0
        letter, word, values = _edition_arrays(self.edition)
        self.board = np.frombuffer(board.squares, np.uint8).copy()
        self.g = (packed(lexicon), letter, word,
                  letter.reshape(size, size).T.copy().reshape(-1),
                  word.reshape(size, size).T.copy().reshape(-1), values)
        self.nletters = len(self.edition.tiles.labels) - 1
        self.p_int = np.array([size, self.nletters, self.edition.rack_size, rules.bingo_bonus,
                               int(position.may_join_words), pass_end, scoreless_end,
                               int(no_play_ends)], np.int64)
        self.bits = RackBits(position.rack + position.opponent_rack if tiles is None
                             else tuple(tiles))
        self.bit_code = np.zeros(64, np.int64)
        self.bit_value = np.zeros(64, np.int64)
        seg_off, seg_mask = [], []
        tile_values = self.edition.tiles.values
        for code in range(64):
            count = int(self.bits.counts[code])
            if not count:
                continue
            off = int(self.bits.offsets[code])
            seg_off.append(off)
            seg_mask.append(((1 << count) - 1) << off)
            for j in range(count):
                self.bit_code[off + j] = code
                self.bit_value[off + j] = tile_values[code]
        self.seg_off = np.array(seg_off, np.int64)
        self.seg_mask = np.array(seg_mask, np.int64)
        self.code_off = self.bits.offsets.astype(np.int64)
        self.laid_values = value_table(tile_values)
        rng = np.random.default_rng(_SEED)
        self.zb = rng.integers(0, 2**63, (2, size * size * 256), np.uint64, endpoint=False)
        self.zb ^= rng.integers(0, 2**63, (2, size * size * 256), np.uint64) << np.uint64(1)
        self.zr = rng.integers(0, 2**63, (2, 2, 64), np.uint64) << np.uint64(1)
        self.zc = rng.integers(0, 2**63, (2, 2, 256), np.uint64) << np.uint64(1)
        n = 1 << table_bits
        self.tt = (np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.int64),
                   np.zeros(n, np.int64), np.zeros(n, np.int8), np.zeros(n, np.int32),
                   np.zeros(n, np.uint64))
        cap = 1 << 16
        self.arena = (np.zeros((cap, COLUMNS), np.int32), np.zeros((cap, size), np.uint8),
                      np.zeros(cap, np.int64), np.zeros(cap, np.int64),
                      np.zeros(cap, np.int64), np.zeros(cap, np.int64),
                      np.zeros(cap + 1024, np.int64), np.zeros(cap, np.int64))
        self.scratch = scratch(size)
        rows = 1 << cache_bits
        self.cache = (np.zeros(rows >> 3, np.uint64), np.zeros(rows >> 3, np.uint64),
                      np.full(rows >> 3, -(1 << 62), np.int64), np.zeros(rows >> 3, np.int64),
                      np.zeros((rows, COLUMNS), np.int32), np.zeros((rows, size), np.uint8),
                      np.zeros(rows, np.int64), np.zeros(rows, np.int64),
                      np.zeros(rows, np.int64), np.zeros(1, np.int64))
        self.nodes = 0
        self.generated = 0

    def retarget(self, position: EndgamePosition, limit: Limit) -> None:
        """Search ``position`` next, within ``limit``, keeping the transposition table and
        the cache of plays: their keys are whole positions (board, racks, counts), so what
        they hold stays true. The position must share the edition, the rules and the joining
        rule, and its racks must lie within the tiles this search was made for
        (:class:`~letras.ai.endgame.plays.RackBitsError` otherwise)."""
        old = self.position
        if (position.board.edition is not old.board.edition or position.rules != old.rules
                or position.may_join_words != old.may_join_words):
            raise ValueError("a retargeted search keeps its edition, rules and joining rule")
        self.bits.of(position.rack)
        self.bits.of(position.opponent_rack)
        self.position = position
        self.limit = limit
        self.board = np.frombuffer(position.board.squares, np.uint8).copy()
        self.nodes = 0
        self.generated = 0

    def evaluate(self) -> tuple[int, bool, int]:
        """The deepening as :meth:`run` does it, without decoding moves: the value of the
        deepest iteration completed, whether it is exact, and its depth (0: none completed,
        value 0). Positions searched: :attr:`nodes`."""
        deadline = self.limit.deadline()
        value, depth = 0, 0
        full = self.full_depth()
        schedule = [d for d in DEPTHS if d < full] + [full]
        d = schedule.pop(0)
        work = self.limit.work
        while True:
            if depth and work is not None and self.nodes >= work:
                return value, False, depth  # (the next iteration would stop at once)
            result = self._iteration(d, d > 1, deadline)
            if result[core.R_STOPPED]:
                return value, False, depth
            value, depth = int(result[core.R_VALUE]), d
            if result[core.R_COMPLETE]:
                return value, True, depth
            d = schedule.pop(0) if schedule else 2 * d

    def full_depth(self) -> int:
        """Plies that reach the end of the game from the root whatever is played."""
        pos = self.position
        tiles = len(pos.rack) + len(pos.opponent_rack)
        ends = [n for n in (self.pass_end, self.scoreless_end) if n]
        return (tiles + 1) * min(ends)

    def _iteration(self, depth: int, enforce: bool, deadline: float) -> npt.NDArray[np.int64]:
        size = self.size
        board = self.board.copy()
        tboard = board.reshape(size, size).T.copy().reshape(-1)
        g = self.g
        sets, scores, has = all_cross(g[0], board, tboard, size, g[5], self.nletters)
        pos = self.position
        work = -1 if self.limit.work is None else self.limit.work
        result, self.arena, self.scratch = core.search(
            g, board, tboard, sets, scores, has, self.p_int, self.bit_code, self.bit_value,
            self.code_off, self.seg_off, self.seg_mask, self.laid_values, self.zb, self.zr,
            self.zc, self.tt, self.arena, self.scratch, self.cache, self.bits.of(pos.rack),
            self.bits.of(pos.opponent_rack), pos.passes_in_row, pos.scoreless_in_row, depth,
            max(2 * depth, depth + 4), self.nodes, work, deadline, enforce)
        self.nodes = int(result[core.R_NODES])
        self.generated += int(result[core.R_GENERATED])
        out: npt.NDArray[np.int64] = result
        return out

    def run(self) -> EndgameResult:
        announce_first_compile(core, "search", "compile.endgame")
        start = time.perf_counter()
        deadline = self.limit.deadline(start)
        pos = self.position
        root = generate(pos.board, pos.rack, self.lexicon, bingo_bonus=pos.rules.bingo_bonus,
                        join_words=pos.may_join_words)
        best: Choice = Pass()
        value, depth, exact = 0, 0, False
        iterations: list[Iteration] = []
        full = self.full_depth()
        schedule = [d for d in DEPTHS if d < full] + [full]
        d = schedule.pop(0)
        while True:
            result = self._iteration(d, d > 1, deadline)
            if result[core.R_STOPPED]:
                break
            index = int(result[core.R_BEST])
            best = Pass() if index < 0 else root.place(index)
            value, depth = int(result[core.R_VALUE]), d
            iterations.append(Iteration(d, best, value, self.nodes,
                                        time.perf_counter() - start))
            if result[core.R_COMPLETE]:
                exact = True
                break
            d = schedule.pop(0) if schedule else 2 * d
        pv = self.principal_variation()
        if not pv or pv[0] != best:
            pv = (best,)
        return EndgameResult(best, value, pv, self.nodes, depth, exact,
                             time.perf_counter() - start, iterations=tuple(iterations))

    # ----- the principal variation, from the table ---------------------------------------

    def _key(self, zboard: tuple[int, int], me: int, opp: int, passes: int,
             scoreless: int) -> tuple[int, int]:
        out = []
        sl = scoreless if self.scoreless_end else 0
        for h in range(2):
            key = zboard[h] ^ int(self.zc[h, 0, passes]) ^ int(self.zc[h, 1, sl])
            for role, rack in ((0, me), (1, opp)):
                for b in range(64):
                    if rack >> b & 1:
                        key ^= int(self.zr[h, role, b])
            out.append(key)
        return out[0], out[1]

    def _entry(self, key: tuple[int, int]) -> tuple[int, int, int, int] | None:
        """(depth, kind, value, move) of the table's entry for ``key``, or None."""
        tk1, tk2, tval, tdep, tkind, tmove, _ = self.tt
        i0 = (key[0] & (len(tk1) - 1)) & ~1
        for i in (i0, i0 + 1):
            if int(tk1[i]) == key[0] and int(tk2[i]) == key[1] and tdep[i] > 0:
                return int(tdep[i]), int(tkind[i]), int(tval[i]), int(tmove[i])
        return None

    def principal_variation(self) -> tuple[Choice, ...]:
        """The best moves from the root as the table records them, up to the end of the game
        (or where the table has no exact entry)."""
        pos = self.position
        board = pos.board.copy()
        size = self.size
        zb = self.zb
        z = [0, 0]
        for s, t in enumerate(board.squares):
            if t:
                z[0] ^= int(zb[0, s * 256 + t])
                z[1] ^= int(zb[1, s * 256 + t])
        me, opp = self.bits.of(pos.rack), self.bits.of(pos.opponent_rack)
        me_rack, opp_rack = pos.rack, pos.opponent_rack
        passes, scoreless = pos.passes_in_row, pos.scoreless_in_row
        out: list[Choice] = []
        for _ in range(200):
            entry = self._entry(self._key((z[0], z[1]), me, opp, passes, scoreless))
            if entry is None or entry[1] != core.EXACT or entry[3] < core.PASS:
                break
            i = entry[3]
            if i == core.PASS:
                out.append(Pass())
                passes, scoreless = passes + 1, scoreless + 1
                if (self.pass_end and passes >= self.pass_end) or (
                        self.scoreless_end and scoreless >= self.scoreless_end):
                    break
                me, opp, me_rack, opp_rack = opp, me, opp_rack, me_rack
                continue
            plays = generate(board, me_rack, self.lexicon, bingo_bonus=pos.rules.bingo_bonus,
                             join_words=pos.may_join_words)
            if i >= len(plays):
                break
            place = plays.place(i)
            out.append(place)
            leave = list(me_rack)
            for t in place.tiles:
                if t:
                    leave.remove(0 if t & BLANK_BIT else t)
            for s, t in _laid(plays, i, size):
                z[0] ^= int(zb[0, s * 256 + t])
                z[1] ^= int(zb[1, s * 256 + t])
            board.put(place.placed())
            if not leave:
                break
            scoreless = 0 if plays.score(i) else scoreless + 1
            passes = 0
            left = tuple(sorted(leave))
            me, opp, me_rack, opp_rack = opp, self.bits.of(left), opp_rack, left
            if self.scoreless_end and scoreless >= self.scoreless_end:
                break
        return tuple(out)


def _laid(plays: Plays, i: int, size: int) -> list[tuple[int, int]]:
    """The squares and tiles play ``i`` lays."""
    row = plays.meta[i]
    step = 1 if row[DIRECTION] == ACROSS else size
    sq = int(row[ROW]) * size + int(row[COL])
    out = []
    for t in plays.tiles[i, : int(row[LENGTH])].tolist():
        if t:
            out.append((sq, int(t)))
        sq += step
    return out


__all__ = ["CACHE_BITS", "TABLE_BITS", "CompiledSearch", "usable"]
