"""The exact endgame search for two players: negamax with alpha-beta pruning, iterative
deepening on plies and a transposition table, over plays made incrementally
(:mod:`letras.ai.endgame.plays`). How it goes, and why, is told in this package's
``README.md`` ("Two players").

:func:`~letras.ai.endgame.player.solve` runs the same search on its compiled core
(:mod:`letras.ai.endgame.compiled`) wherever that applies; this one is the reference the
compiled one is tested against, and the search of the positions it does not take.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from letras._compiled import announce_first_compile
from letras.ai.endgame import plays as endgame_plays
from letras.ai.endgame.plays import (
    LanePlays,
    RackBits,
    annotate,
    best_at_horizon,
    best_kept,
    child_bounds,
    derive,
    play_lanes,
    play_order,
)
from letras.ai.endgame.position import (
    EndgamePosition,
    EndgameResult,
    Iteration,
    horizon_value,
    value_table,
)
from letras.ai.player import Choice, Limit
from letras.board import Direction, Square
from letras.lexicon.kwg import WordGraph
from letras.movegen import generate
from letras.movegen.columns import ACROSS, COL, DIRECTION, LENGTH, ROW, SCORE
from letras.play import Pass, Place
from letras.tiles import BLANK_BIT

TABLE_SIZE = 1_000_000
"""Transposition-table entries kept; past this the older half is dropped."""
CACHED_PLAYS = 2_000_000
"""Plays kept in the move cache (a play made ready to make and unmake counts twice); past this
the older half of the racks is dropped."""
_COMPLETE = 1 << 30
"""The depth recorded for a table entry whose subtree never reached the horizon."""
_EXACT, _LOWER, _UPPER = 0, 1, 2
_PASS = -1
"""The index that stands for the pass in move lists."""
_NO_MOVE = -2
"""A table entry's best move when it is not known (a cut before the plays were made)."""
DEPTHS = (1, 2, 3, 4)
"""The depths of the first iterations; the next one goes to the end of the game."""
_INF = 1 << 40
"""Beyond any spread: the open ends of the search window."""


class _Stop(Exception):
    """The limit is reached: abandon the iteration."""


@dataclass(slots=True)
class _Move:
    """A play ready to make and unmake: squares and tiles laid, the rack it leaves."""

    squares: tuple[int, ...]
    tiles: tuple[int, ...]
    leave: tuple[int, ...]
    zobrist: int


class _Moves:
    """The plays of one rack on one board (in the order generated, with what incremental
    generation needs: :class:`~letras.ai.endgame.plays.LanePlays`), turned into
    :class:`_Move` on demand. Their order, best first, and scores as lists are made the first
    time a node searches them: a node one ply above the horizon values them all at once
    (:func:`~letras.ai.endgame.plays.best_at_horizon`) and needs neither. Kept small: a
    search holds hundreds of thousands of these."""

    __slots__ = ("_order", "_scores", "lanes", "made", "meta", "opp_size", "opp_value",
                 "plays", "rack", "rack_value", "tiles")

    def __init__(self, plays: LanePlays, rack: tuple[int, ...], rack_value: int,
                 opp_size: int, opp_value: int) -> None:
        self.plays = plays
        self.rack = rack
        self.rack_value = rack_value
        self.opp_size = opp_size
        self.opp_value = opp_value
        self.meta = plays.meta
        self.tiles = plays.tiles
        self._order: list[int] | None = None
        self._scores: list[int] | None = None
        self.lanes: npt.NDArray[np.int64] | None = None
        self.made: dict[int, _Move] | None = None

    def lanes_on(self, board: npt.NDArray[np.uint8], size: int) -> npt.NDArray[np.int64]:
        """The lanes each play changes (:func:`~letras.ai.endgame.plays.play_lanes`);
        ``board`` must be the board these plays are for."""
        if self.lanes is None:
            self.lanes = play_lanes(self.meta, self.tiles, board, size)
        return self.lanes

    @property
    def order(self) -> list[int]:
        """Indices best first: plays that go out (highest first), then by their value one
        ply above the horizon (score less the reply's horizon value); among equals, the
        order generated."""
        if self._order is None:
            self._order = play_order(self.meta, self.plays.laid_value, len(self.rack),
                                     self.rack_value, self.opp_size, self.opp_value).tolist()
        return self._order

    @property
    def scores(self) -> list[int]:
        if self._scores is None:
            self._scores = self.meta[:, SCORE].tolist()
        return self._scores

    def __len__(self) -> int:
        return len(self.meta)

    def place(self, i: int) -> Place:
        row = self.meta[i].tolist()
        return Place(Square(row[ROW], row[COL]),
                     Direction.ACROSS if row[DIRECTION] == ACROSS else Direction.DOWN,
                     tuple(int(t) for t in self.tiles[i, : row[LENGTH]]))


class Search:
    """The exact search of a two-player endgame (see this package's ``README.md``)."""

    def __init__(self, position: EndgamePosition, lexicon: WordGraph, limit: Limit) -> None:
        self.position = position
        self.lexicon = lexicon
        self.limit = limit
        board = position.board
        self.size = board.size
        self.board = board.copy()
        self.squares = self.board.squares
        self.board_array = np.frombuffer(self.squares, np.uint8)
        self.zobrist = _zobrist_table(len(self.squares))
        self.zboard = 0
        for i, t in enumerate(self.squares):
            if t:
                self.zboard ^= self.zobrist[i * 256 + t]
        rules = position.rules
        self.rules = rules
        self.bingo = rules.bingo_bonus
        self.join_words = position.may_join_words
        self.values = board.edition.tiles.values
        self.tile_points = value_table(self.values)
        self.pass_end = 2 * rules.pass_rounds_to_end if rules.pass_rounds_to_end else 0
        self.scoreless_end = rules.scoreless_turns_to_end
        if not self.pass_end and not self.scoreless_end:
            self.pass_end = 2  # nothing else would end a game of passes: see the docstring
        self.no_play_ends = rules.end_when_no_play_possible and rules.exchange_min_bag > 0
        self.table: dict[tuple[int, tuple[int, ...], tuple[int, ...], int, int],
                         tuple[int, int, int, int]] = {}
        self.moves: dict[tuple[int, tuple[int, ...]], _Moves] = {}
        self.rack_bits = RackBits(position.rack + position.opponent_rack)
        # On the empty board the first play changes every lane (the centre is the anchor).
        self.incremental = any(self.squares)
        self.lane_masks: dict[int, npt.NDArray[np.bool_]] = {}
        self.cached_plays = 0
        self.rack_values: dict[tuple[int, ...], int] = {}
        self.nodes = 0
        self.generated = 0
        self.enforce = False
        self.deadline = float("inf")
        self.work = limit.work

    # ----- helpers ----------------------------------------------------------------------------

    def value_of(self, rack: tuple[int, ...]) -> int:
        v = self.rack_values.get(rack)
        if v is None:
            v = self.rack_values[rack] = sum(self.values[t] for t in rack)
        return v

    def plays_for(self, rack: tuple[int, ...], opp: tuple[int, ...] = (),
                  source: _Moves | None = None, changed: int = 0) -> _Moves:
        """The plays of ``rack`` on the board now (``opp``: the other rack, for their order):
        from the table of plays, else made from ``source`` (the plays of a rack that holds
        this one, on a board that differs from this one along the ``changed`` lanes only),
        else generated."""
        key = (self.zboard, rack)
        moves = self.moves.get(key)
        if moves is None:
            bits = self.rack_bits
            if source is None:
                plays = annotate(generate(self.board, rack, self.lexicon,
                                          bingo_bonus=self.bingo, join_words=self.join_words),
                                 bits, self.tile_points)
            else:
                lanes = self.lane_masks.get(changed)
                if lanes is None:
                    if len(self.lane_masks) >= 1 << 16:
                        self.lane_masks.clear()
                    lanes = self.lane_masks[changed] = (
                        (changed >> np.arange(2 * self.size)) & 1
                    ).astype(np.bool_).reshape(2, self.size)
                new = generate(self.board, rack, self.lexicon, bingo_bonus=self.bingo,
                               join_words=self.join_words, lanes=lanes)
                plays = derive(source.plays, changed, bits.of(source.rack) & ~bits.of(rack),
                               new, bits, self.tile_points)
            self.generated += 1
            moves = _Moves(plays, rack, self.value_of(rack), len(opp), self.value_of(opp))
            self.cached_plays += len(moves) + 1
            if self.cached_plays > CACHED_PLAYS:
                self._trim_moves()
            self.moves[key] = moves
        return moves

    def _trim_moves(self) -> None:
        keys = list(self.moves)
        for key in keys[: len(keys) // 2]:
            moves = self.moves.pop(key)
            self.cached_plays -= len(moves) + 1 + len(moves.made or ())

    def move(self, moves: _Moves, i: int, rack: tuple[int, ...]) -> _Move:
        m = moves.made.get(i) if moves.made is not None else None
        if m is None:
            if moves.made is None:
                moves.made = {}
            meta = moves.meta[i].tolist()
            row, col, length = meta[ROW], meta[COL], meta[LENGTH]
            step = 1 if meta[DIRECTION] == ACROSS else self.size
            sq = row * self.size + col
            squares, tiles = [], []
            left = list(rack)
            z = 0
            zobrist = self.zobrist
            for t in moves.tiles[i, :length].tolist():
                if t:
                    squares.append(sq)
                    tiles.append(t)
                    left.remove(0 if t & BLANK_BIT else t)
                    z ^= zobrist[sq * 256 + t]
                sq += step
            m = _Move(tuple(squares), tuple(tiles), tuple(left), z)
            assert moves.made is not None
            moves.made[i] = m
            self.cached_plays += 1
        return m

    def choice(self, moves: _Moves, i: int) -> Choice:
        return Pass() if i == _PASS else moves.place(i)

    def store(self, key: tuple[int, tuple[int, ...], tuple[int, ...], int, int],
              entry: tuple[int, int, int, int]) -> None:
        table = self.table
        if len(table) >= TABLE_SIZE and key not in table:
            keys = list(table)
            for old in keys[: len(keys) // 2]:
                del table[old]
        table[key] = entry

    def counters_key(self, passes: int, scoreless: int) -> tuple[int, int]:
        # Without a scoreless rule that count cannot matter: left out, so more positions meet.
        return passes, scoreless if self.scoreless_end else 0

    # ----- the search ---------------------------------------------------------------------

    def full_depth(self) -> int:
        """Plies that reach the end of the game from the root whatever is played: each play
        lays a tile, and fewer passes (or scoreless turns) than end the game come between."""
        pos = self.position
        tiles = len(pos.rack) + len(pos.opponent_rack)
        ends = [n for n in (self.pass_end, self.scoreless_end) if n]
        return (tiles + 1) * min(ends)

    def run(self) -> EndgameResult:
        announce_first_compile(endgame_plays, "_merge", "compile.endgame")
        start = time.perf_counter()
        self.deadline = self.limit.deadline(start)
        pos = self.position
        me, opp = pos.rack, pos.opponent_rack
        passes, scoreless = pos.passes_in_row, pos.scoreless_in_row
        best, value, depth, exact = _PASS, 0, 0, False
        iterations: list[Iteration] = []
        schedule = [d for d in DEPTHS if d < self.full_depth()] + [self.full_depth()]
        d = schedule.pop(0)
        while True:
            self.enforce = d > 1
            try:
                # The other side's plays on this board are the source of its plays after
                # each move of ours (as if it had just passed).
                other = self.plays_for(opp, me) if self.incremental else None
                v, complete = self.negamax(me, opp, passes, scoreless, d, -_INF, _INF,
                                           None, 0, other, 0)
            except _Stop:
                break
            root = self.table.get((self.zboard, me, opp, *self.counters_key(passes, scoreless)))
            # No entry: neither side can play, so the game is over and the pass is all there is.
            best, value, depth = root[3] if root is not None else _PASS, v, d
            iterations.append(Iteration(d, self.choice(self.plays_for(me), best), v, self.nodes,
                                        time.perf_counter() - start))
            if complete:
                exact = True
                break
            # The deepest iteration reaches every end: it is complete. (Twice as deep again
            # is a guard that costs nothing when the bound holds.)
            d = schedule.pop(0) if schedule else 2 * d
        moves = self.plays_for(me)
        pv = self.principal_variation(me, opp, passes, scoreless)
        if not pv or pv[0] != self.choice(moves, best):
            pv = (self.choice(moves, best),)
        return EndgameResult(self.choice(moves, best), value, pv, self.nodes, depth, exact,
                             time.perf_counter() - start, iterations=tuple(iterations))

    def negamax(
        self, me: tuple[int, ...], opp: tuple[int, ...], passes: int, scoreless: int,
        depth: int, alpha: int, beta: int, source: _Moves | None = None, changed: int = 0,
        parent: _Moves | None = None, parent_changed: int = 0,
    ) -> tuple[int, bool]:
        """The value for the side to move (rack ``me``), and whether it is complete (no
        horizon below): then it is a true bound of the game's value, exact inside the window.

        Principal variation search: the first move with the whole window, the others with a
        null window, searched again only when they beat the best so far.

        ``source``: this side's plays two plies up, and the lanes ``changed`` since then;
        ``parent``: the other side's plays one ply up, and the lanes ``parent_changed``
        changed by its move (the plays here are made from them: :meth:`plays_for`)."""
        self.nodes += 1
        if self.enforce and (
            (self.work is not None and self.nodes > self.work)
            or time.perf_counter() > self.deadline
        ):
            raise _Stop
        key = (self.zboard, me, opp, passes, scoreless if self.scoreless_end else 0)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            edepth, kind, evalue, hint = entry
            if edepth >= depth and (
                kind == _EXACT
                or (kind == _LOWER and evalue >= beta)
                or (kind == _UPPER and evalue <= alpha)
            ):
                return evalue, edepth == _COMPLETE
        values = self.rack_values
        me_value = values.get(me)
        if me_value is None:
            me_value = self.value_of(me)
        opp_value = values.get(opp)
        if opp_value is None:
            opp_value = self.value_of(opp)
        if depth == 0:
            return horizon_value(me_value, len(me), opp_value, len(opp)), False
        if not self.incremental:
            source = parent = None
        elif depth == 1 and source is not None and (self.zboard, me) not in self.moves:
            cut = self.cut_at_horizon(key, me, opp, passes, scoreless, beta, source, changed)
            if cut is not None:
                return cut
        moves = self.plays_for(me, opp, source, changed)
        if not len(moves) and self.no_play_ends and not len(self.plays_for(
            opp, (), parent, parent_changed
        )):
            # Neither side can play: the game ends, each losing their own rack.
            return opp_value - me_value, True
        if depth == 1:
            return self.last_ply(key, me, opp, passes, scoreless, moves)

        alpha0 = alpha
        best, best_i, complete = -_INF, _PASS, True
        order = moves.order
        if hint is not None and hint >= 0:
            order = order.copy()
            order.remove(hint)
            order.insert(0, hint)
        sequence = [_PASS, *order] if hint == _PASS else [*order, _PASS]
        squares, zobrist_board = self.squares, self.zboard
        made, scores = moves.made, moves.scores
        lanes_of = moves.lanes_on(self.board_array, self.size)
        # What each move's reply is worth at least (from the other side's plays two plies up,
        # in compiled code, a few moves at a time as the loop reaches them): a move whose
        # reply already refutes it is not made (the reply would cut at once).
        bounds: dict[int, tuple[int, bool]] = {}
        bounded = 0 if parent is not None and len(moves) else len(sequence)
        chunk = 4
        k = -1
        first = True
        for i in sequence:
            k += 1
            if k >= bounded:
                which = np.array([j for j in sequence[k:k + chunk] if j >= 0], np.int64)
                bounded, chunk = k + chunk, 4 * chunk
                assert parent is not None
                bound, ends, known = child_bounds(
                    which, moves.meta, moves.plays.laid_value, moves.lanes, len(me), me_value,
                    parent.meta, parent.plays.lane, parent.plays.used,
                    parent.plays.laid_value, parent_changed,
                    self.rack_bits.of(parent.rack) & ~self.rack_bits.of(opp), len(opp),
                    opp_value, scoreless, self.pass_end, self.scoreless_end,
                    self.no_play_ends, depth == 2)
                for j, b, e, kn in zip(which.tolist(), bound.tolist(), ends.tolist(),
                                       known.tolist(), strict=True):
                    if kn:
                        bounds[j] = (scores[j] - b, e)
            upper = bounds.get(i)
            if upper is not None and upper[0] <= alpha:
                self.nodes += 1
                v, c = upper
            elif i == _PASS:
                np_, ns = passes + 1, scoreless + 1
                if (self.pass_end and np_ >= self.pass_end) or (
                    self.scoreless_end and ns >= self.scoreless_end
                ):
                    v, c = opp_value - me_value, True
                else:
                    if first:
                        cv, c = self.negamax(opp, me, np_, ns, depth - 1, -beta, -alpha,
                                             parent, parent_changed, moves, 0)
                    else:
                        cv, c = self.negamax(opp, me, np_, ns, depth - 1, -alpha - 1, -alpha,
                                             parent, parent_changed, moves, 0)
                        if alpha < -cv < beta:
                            cv, c = self.negamax(opp, me, np_, ns, depth - 1, -beta, -alpha,
                                                 parent, parent_changed, moves, 0)
                    v = -cv
            else:
                m = made.get(i) if made is not None else None
                if m is None:
                    m = self.move(moves, i, me)
                    made = moves.made
                score = scores[i]
                if not m.leave:
                    v, c = score + 2 * opp_value, True
                else:
                    ns = 0 if score else scoreless + 1
                    if self.scoreless_end and ns >= self.scoreless_end:
                        v, c = score + opp_value - self.value_of(m.leave), True
                    else:
                        for sq, t in zip(m.squares, m.tiles, strict=True):
                            squares[sq] = t
                        self.zboard = zobrist_board ^ m.zobrist
                        lanes = int(lanes_of[i])
                        since = parent_changed | lanes
                        try:
                            if first:
                                cv, c = self.negamax(opp, m.leave, 0, ns, depth - 1,
                                                     score - beta, score - alpha,
                                                     parent, since, moves, lanes)
                            else:
                                cv, c = self.negamax(opp, m.leave, 0, ns, depth - 1,
                                                     score - alpha - 1, score - alpha,
                                                     parent, since, moves, lanes)
                                if alpha < score - cv < beta:
                                    cv, c = self.negamax(opp, m.leave, 0, ns, depth - 1,
                                                         score - beta, score - alpha,
                                                         parent, since, moves, lanes)
                        finally:
                            for sq in m.squares:
                                squares[sq] = 0
                            self.zboard = zobrist_board
                        v = score - cv
            first = False
            complete = complete and c
            if v > best:
                best, best_i = v, i
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        kind = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        self.store(key, (_COMPLETE if complete else depth, kind, best, best_i))
        return best, complete

    def pass_at_horizon(self, me: tuple[int, ...], opp: tuple[int, ...], passes: int,
                        scoreless: int) -> tuple[int, bool]:
        """The value of passing one ply above the horizon, and whether it ends the game."""
        if (self.pass_end and passes + 1 >= self.pass_end) or (
            self.scoreless_end and scoreless + 1 >= self.scoreless_end
        ):
            return self.value_of(opp) - self.value_of(me), True
        return -horizon_value(self.value_of(opp), len(opp), self.value_of(me), len(me)), False

    def cut_at_horizon(
        self, key: tuple[int, tuple[int, ...], tuple[int, ...], int, int],
        me: tuple[int, ...], opp: tuple[int, ...], passes: int, scoreless: int, beta: int,
        source: _Moves, changed: int,
    ) -> tuple[int, bool] | None:
        """One ply above the horizon, before any play is generated: if the pass or a play
        known from ``source`` (along a lane not changed since) already reaches ``beta``, that
        lower bound (and whether its move ends the game); else None. The plays along the
        changed lanes could only raise the value."""
        me_value = self.value_of(me)
        stop = bool(self.scoreless_end and scoreless + 1 >= self.scoreless_end)
        outside = self.rack_bits.of(source.rack) & ~self.rack_bits.of(me)
        best, i, complete = best_kept(source.meta, source.plays.lane, source.plays.used,
                                      source.plays.laid_value, changed, outside, len(me),
                                      me_value, len(opp), self.value_of(opp), stop, False)
        if i < 0 and self.no_play_ends:
            return None  # perhaps neither side can play: plays_for must know
        value, ends = self.pass_at_horizon(me, opp, passes, scoreless)
        move = _NO_MOVE
        if i < 0 or value > best:
            best, complete, move = value, ends, _PASS
        if best < beta:
            return None
        self.store(key, (_COMPLETE if complete else 1, _LOWER, best, move))
        return best, complete

    def last_ply(
        self, key: tuple[int, tuple[int, ...], tuple[int, ...], int, int],
        me: tuple[int, ...], opp: tuple[int, ...], passes: int, scoreless: int, moves: _Moves,
    ) -> tuple[int, bool]:
        """A node one ply above the horizon, every move valued at once (the replies are
        valued by :func:`horizon_value`, which needs only the tiles each play keeps)."""
        me_value, opp_value, n_opp = self.value_of(me), self.value_of(opp), len(opp)
        best, best_i, complete = -_INF, _PASS, True
        if len(moves.meta):
            stop = bool(self.scoreless_end and scoreless + 1 >= self.scoreless_end)
            best, best_i, complete = best_at_horizon(moves.meta, moves.plays.laid_value,
                                                     len(me), me_value, n_opp, opp_value, stop)
        np_, ns = passes + 1, scoreless + 1
        if (self.pass_end and np_ >= self.pass_end) or (
            self.scoreless_end and ns >= self.scoreless_end
        ):
            v = opp_value - me_value
        else:
            v = -horizon_value(opp_value, n_opp, me_value, len(me))
            complete = False
        if v > best:
            best, best_i = v, _PASS
        self.store(key, (_COMPLETE if complete else 1, _EXACT, best, best_i))
        return best, complete

    def principal_variation(
        self, me: tuple[int, ...], opp: tuple[int, ...], passes: int, scoreless: int
    ) -> tuple[Choice, ...]:
        """The best moves from the root as the table records them, up to the end of the game
        (or where the table has no exact entry)."""
        out: list[Choice] = []
        made: list[_Move] = []
        zboard = self.zboard
        try:
            for _ in range(200):
                key = (self.zboard, me, opp, *self.counters_key(passes, scoreless))
                entry = self.table.get(key)
                if entry is None or entry[1] != _EXACT:
                    break
                i = entry[3]
                moves = self.plays_for(me)
                out.append(self.choice(moves, i))
                if i == _PASS:
                    passes, scoreless = passes + 1, scoreless + 1
                    if (self.pass_end and passes >= self.pass_end) or (
                        self.scoreless_end and scoreless >= self.scoreless_end
                    ):
                        break
                    me, opp = opp, me
                    continue
                m = self.move(moves, i, me)
                if not m.leave:
                    break
                for sq, t in zip(m.squares, m.tiles, strict=True):
                    self.squares[sq] = t
                self.zboard ^= m.zobrist
                made.append(m)
                scoreless = 0 if moves.scores[i] else scoreless + 1
                passes = 0
                me, opp = opp, m.leave
                if self.scoreless_end and scoreless >= self.scoreless_end:
                    break
        finally:
            for m in made:
                for sq in m.squares:
                    self.squares[sq] = 0
            self.zboard = zboard
        return tuple(out)


_ZOBRIST: dict[int, list[int]] = {}


def _zobrist_table(squares: int) -> list[int]:
    """A random 128-bit number per (square, tile code), at ``square * 256 + code``; fixed."""
    table = _ZOBRIST.get(squares)
    if table is None:
        rng = random.Random(0x1E77A5)
        table = _ZOBRIST[squares] = [rng.getrandbits(128) for _ in range(squares * 256)]
    return table


__all__ = ["CACHED_PLAYS", "DEPTHS", "TABLE_SIZE", "Search"]
