"""Incremental move generation for the endgame search: along random endgame lines, the plays
made from the plays two plies up are exactly the move generator's, in its order, with the
same scores; the lanes a play changes cover those the move generator names."""

from __future__ import annotations

import random

import numpy as np
import pytest

from helpers import play_until_bag_empty
from letras.ai.endgame import EndgamePosition, horizon_value, solve
from letras.ai.endgame.plays import (
    LanePlays,
    RackBits,
    RackBitsError,
    annotate,
    best_at_horizon,
    derive,
    play_lanes,
    ply_values,
)
from letras.ai.endgame.position import value_table
from letras.ai.endgame.search import Search
from letras.ai.player import NO_LIMIT
from letras.board import Board
from letras.editions import find_edition
from letras.lexicon.kwg import WordGraph
from letras.movegen import changed_lanes, generate, lane_state
from letras.tiles import BLANK_BIT

EN = find_edition("en")


def as_rows(plays: LanePlays) -> list[tuple[int, ...]]:
    """Each play as its meta (square, direction, length, score, tiles laid) and its tiles."""
    return [(*m.tolist(), *t.tolist()) for m, t in zip(plays.meta, plays.tiles, strict=True)]


def lane_mask(lanes: int, size: int) -> np.ndarray:
    return np.array([(lanes >> i) & 1 for i in range(2 * size)], np.bool_).reshape(2, size)


def leave_of(rack: tuple[int, ...], tiles: list[int]) -> tuple[int, ...]:
    left = list(rack)
    for t in tiles:
        left.remove(0 if t & BLANK_BIT else t)
    return tuple(left)


@pytest.mark.parametrize("seed", range(6))
def test_plays_made_from_two_plies_up_are_the_generators(
    en_words: WordGraph, seed: int
) -> None:
    game = play_until_bag_empty(EN, seed, en_words)
    if game.over:
        pytest.skip("the game ended before the bag was empty")
    board = game.board.copy()
    size = board.size
    racks = [tuple(sorted(game.rack(game.to_move))), tuple(sorted(game.rack(1 - game.to_move)))]
    bits = RackBits(racks[0] + racks[1])
    values = value_table(EN.tiles.values)
    rng = random.Random(seed)
    # known[p]: player p's plays when last to move, and the lanes changed since then
    known: list[tuple[LanePlays, tuple[int, ...], int] | None] = [None, None]
    checked = 0
    for ply in range(30):
        side = ply % 2
        rack = racks[side]
        if not rack:
            break
        full = generate(board, rack, en_words)
        entry = known[side]
        if entry is None:
            plays = annotate(full, bits, values)
        else:
            source, source_rack, lanes = entry
            new = generate(board, rack, en_words, lanes=lane_mask(lanes, size))
            plays = derive(source, lanes, bits.of(source_rack) & ~bits.of(rack), new, bits,
                           values)
            checked += 1
        assert as_rows(plays) == as_rows(annotate(full, bits, values))
        # the bits and laid values of each play, worked out again here
        for m, t, used, laid in zip(plays.meta, plays.tiles, plays.used, plays.laid_value,
                                    strict=True):
            laid_tiles = [int(x) for x in t[: m[3]] if x]
            assert int(laid) == sum(EN.tiles.values[x] for x in laid_tiles if not x & BLANK_BIT)
            assert int(used) == bits.of([0 if x & BLANK_BIT else x for x in laid_tiles])
        if not len(full) or rng.random() < 0.15:
            lanes = 0  # a pass
        else:
            k = rng.randrange(len(full))
            place = full.place(k)
            before = lane_state(board, en_words)
            lanes = int(play_lanes(full.meta[k:k + 1], full.tiles[k:k + 1],
                                   np.frombuffer(board.squares, np.uint8), size)[0])
            laid = place.placed()
            board.put(laid)
            named = changed_lanes(before, lane_state(board, en_words))
            assert not (named & ~lane_mask(lanes, size)).any()
            racks[side] = leave_of(rack, [t for _, t in laid])
        known[side] = (plays, rack, lanes)
        other = known[1 - side]
        if other is not None:
            known[1 - side] = (other[0], other[1], other[2] | lanes)
    assert checked >= 2


def test_rack_bits_refuse_tiles_outside_the_multiset() -> None:
    bits = RackBits([1, 2])
    with pytest.raises(RackBitsError, match=r"\(1, 1\) is not within the tiles \(1, 2\)"):
        bits.of([1, 1])
    with pytest.raises(RackBitsError, match="too many tiles"):
        RackBits([1] * 63)


def test_the_lanes_a_play_changes() -> None:
    board = Board(EN)
    size = board.size
    # a down play of two tiles at column H (index 7), rows 3-4 (2-3) on an empty board:
    # columns G-I (their tiles and cross-sets), rows 2-5 (the tiles, and the squares above
    # and below the word)
    meta = np.array([[2, 7, 1, 2, 0, 2]], np.int32)
    tiles = np.zeros((1, size), np.uint8)
    tiles[0, :2] = (1, 20)
    lanes = int(play_lanes(meta, tiles, np.frombuffer(board.squares, np.uint8), size)[0])
    rows = [i for i in range(size) if lanes >> i & 1]
    cols = [i for i in range(size) if lanes >> (size + i) & 1]
    assert rows == [1, 2, 3, 4]
    assert cols == [6, 7, 8]
    # a tile at row 3 column G: the new tile beside it makes a run across G-H, so the
    # cross-sets of column F change too
    board.squares[2 * size + 6] = 5
    lanes = int(play_lanes(meta, tiles, np.frombuffer(board.squares, np.uint8), size)[0])
    assert [i for i in range(size) if lanes >> (size + i) & 1] == [5, 6, 7, 8]
    assert [i for i in range(size) if lanes >> i & 1] == [1, 2, 3, 4]


def test_ply_values_are_score_less_the_replys_horizon_value(en_words: WordGraph) -> None:
    game = play_until_bag_empty(EN, 1, en_words)
    rack = tuple(sorted(game.rack(game.to_move)))
    opp = game.rack(1 - game.to_move)
    bits = RackBits(rack)
    values = value_table(EN.tiles.values)
    plays = annotate(generate(game.board, rack, en_words), bits, values)
    assert len(plays.meta)
    face = EN.tiles.values
    rack_value, opp_value = sum(face[t] for t in rack), sum(face[t] for t in opp)
    for stop in (False, True):
        got, ends = ply_values(plays.meta, plays.laid_value, len(rack), rack_value, len(opp),
                               opp_value, stop)
        for m, t, v, end in zip(plays.meta, plays.tiles, got, ends, strict=True):
            kept = leave_of(rack, [int(x) for x in t[: m[3]] if x])
            kept_value = sum(face[x] for x in kept)
            score = int(m[4])
            if not kept:
                want, terminal = score + 2 * opp_value, True
            elif stop and score == 0:
                want, terminal = opp_value - kept_value, True
            else:
                want = score - horizon_value(opp_value, len(opp), kept_value, len(kept))
                terminal = False
            assert (int(v), bool(end)) == (want, terminal)
        best, i, every = best_at_horizon(plays.meta, plays.laid_value, len(rack), rack_value,
                                         len(opp), opp_value, stop)
        assert (best, i) == (int(got.max()), int(np.argmax(got)))
        assert every == bool(ends.all())


@pytest.mark.parametrize(("seed", "changes"), [
    (0, {}),
    (1, {}),
    (2, {}),
    (3, {}),
    (4, {"pass_rounds_to_end": 1}),
    (5, {"pass_rounds_to_end": 0, "scoreless_turns_to_end": 3}),
    (6, {"end_when_no_play_possible": False}),
    (7, {"pass_rounds_to_end": 0, "end_when_no_play_possible": False}),
])
def test_the_search_finds_the_same_values_with_plays_made_from_scratch(
    en_words: WordGraph, seed: int, changes: dict[str, object]
) -> None:
    """Real boards, racks cut to four to seven tiles between the two: the exact value is the
    same whether plays are made incrementally (with the cuts made before plays are) or each
    time from scratch with no such cuts."""
    game = play_until_bag_empty(EN, seed, en_words)
    if game.over:
        pytest.skip("the game ended before the bag was empty")
    rules = EN.rules.replace(**changes)
    rng = random.Random(seed)
    mine, theirs = game.rack(game.to_move), game.rack(1 - game.to_move)
    for _ in range(3):
        a = rng.randint(2, min(4, len(mine)))
        b = rng.randint(2, min(3, len(theirs)))
        position = EndgamePosition(game.board, tuple(rng.sample(mine, a)),
                                   tuple(rng.sample(theirs, b)), rules)
        fast = solve(position, en_words)
        plain = Search(position, en_words, NO_LIMIT)
        plain.incremental = False
        slow = plain.run()
        assert fast.exact and slow.exact
        assert fast.value == slow.value
