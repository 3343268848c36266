"""The compiled endgame search: its cross-sets kept play by play are the move generator's, its
plays along lanes are the generator's, and on many small real endgames it finds the same exact
value as the Python search (:class:`letras.ai.endgame.search.Search`), under several rule
options; the same position and work limit give the same answer twice."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from helpers import cut_racks, play_until_bag_empty
from letras.ai.endgame import EndgamePosition, solve
from letras.ai.endgame.compiled import CompiledSearch, usable
from letras.ai.endgame.lanes import all_cross, lane_plays, refresh, scratch, undo_to
from letras.ai.endgame.search import Search
from letras.ai.player import NO_LIMIT, Limit
from letras.board import Board
from letras.editions import find_edition
from letras.game import Game
from letras.lexicon.kwg import WordGraph
from letras.movegen import _edition_arrays, generate, packed
from letras.play import Place

EN = find_edition("en")


def flat(board: Board) -> tuple[np.ndarray, np.ndarray]:
    size = board.size
    squares = np.frombuffer(board.squares, np.uint8).copy()
    return squares, squares.reshape(size, size).T.copy().reshape(-1)


def positions(lexicon: WordGraph, seeds: range, per_game: int, tiles: int) -> list[
        tuple[Game, tuple[int, ...], tuple[int, ...]]]:
    """Real boards from seeded games, racks cut to a few of the real tiles (at most ``tiles``
    between the two)."""
    out: list[tuple[Game, tuple[int, ...], tuple[int, ...]]] = []
    for seed in seeds:
        game = play_until_bag_empty(EN, seed, lexicon)
        if game.over:
            continue
        out.extend((game, *racks) for racks in cut_racks(game, seed, per_game, tiles, (4, 4)))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_cross_sets_kept_play_by_play_are_the_generators(en_words: WordGraph,
                                                          seed: int) -> None:
    """Along a line of plays: the cross-sets refreshed around each play's tiles equal those
    worked out afresh, the plays along every lane equal :func:`generate`'s, and undoing the
    refreshes puts the old cross-sets back."""
    game = play_until_bag_empty(EN, seed, en_words)
    board = game.board.copy()
    size = board.size
    letter, word, values = _edition_arrays(EN)
    nletters = len(EN.tiles.labels) - 1
    tl = letter.reshape(size, size).T.copy().reshape(-1)
    tw = word.reshape(size, size).T.copy().reshape(-1)
    squares, transposed = flat(board)
    graph = packed(en_words)
    sets, scores, has = all_cross(graph, squares, transposed, size, values, nletters)
    rng = random.Random(seed)
    racks = [game.rack(0), game.rack(1)]
    undo = np.zeros((400, 5), np.int64)
    n_undo = 0
    checked = 0
    for turn in range(4):
        rack = racks[turn % 2]
        plays = generate(board, rack, en_words)
        counts = np.zeros(64, np.int64)
        for t in rack:
            counts[t] += 1
        meta, out, val = scratch(size)
        meta, out, _, n = lane_plays(
            graph, squares, transposed, size, sets, scores, has, letter, word, tl, tw, values,
            counts, EN.rack_size, EN.rules.bingo_bonus, True, (1 << (2 * size)) - 1, meta, out,
            val)
        assert n == len(plays)
        assert (meta[:n] == plays.meta).all() and (out[:n] == plays.tiles).all()
        if not len(plays):
            break
        place: Place = plays.place(rng.randrange(len(plays)))
        before = (sets.copy(), scores.copy(), has.copy())
        start = n_undo
        placed = place.placed()
        board.put(placed)
        for square, tile in placed:
            squares[square.row * size + square.col] = tile
            transposed[square.col * size + square.row] = tile
        for square, _tile in placed:
            n_undo = refresh(graph, squares, size, values, nletters, square.row, square.col,
                             sets, scores, has, 0, undo, n_undo)
            n_undo = refresh(graph, transposed, size, values, nletters, square.col,
                             square.row, sets, scores, has, 1, undo, n_undo)
        fresh = all_cross(graph, squares, transposed, size, values, nletters)
        empty = np.stack([squares == 0, transposed == 0])
        for mine, theirs in zip((sets, scores, has), fresh, strict=True):
            assert (mine[empty] == theirs[empty]).all()
        checked += 1
        if turn == 3:
            # undo the last play's refreshes: the cross-sets before it are back
            undo_to(sets, scores, has, undo, n_undo, start)
            for mine, old in zip((sets, scores, has), before, strict=True):
                assert (mine == old).all()
    assert checked >= 2


def _on_every_lane(game: Game, en_words: WordGraph, rack: Sequence[int],
                   given: tuple[Any, ...]) -> tuple[Any, Any, Any, int]:
    """:func:`lane_plays` of ``rack`` along every lane of the board of ``game`` (English),
    into the arrays ``given``."""
    size = game.board.size
    letter, word, values = _edition_arrays(EN)
    squares, transposed = flat(game.board)
    graph = packed(en_words)
    sets, scores, has = all_cross(graph, squares, transposed, size, values,
                                  len(EN.tiles.labels) - 1)
    counts = np.zeros(64, np.int64)
    for t in rack:
        counts[t] += 1
    meta, out, val, n = lane_plays(
        graph, squares, transposed, size, sets, scores, has, letter, word,
        letter.reshape(size, size).T.copy().reshape(-1),
        word.reshape(size, size).T.copy().reshape(-1), values, counts, EN.rack_size,
        EN.rules.bingo_bonus, True, (1 << (2 * size)) - 1, *given)
    return meta, out, val, int(n)


@pytest.mark.parametrize("rows", [1, 4096])
def test_lane_plays_into_arrays_too_small_or_big_enough(en_words: WordGraph, rows: int) -> None:
    """The plays along every lane are :func:`generate`'s whether the arrays given hold them
    (then those very arrays come back, written) or must grow (the generator's lane search
    stops when they are full, and the anchor is searched again into grown copies, which come
    back): with one row, they fill on the first play and again and again."""
    game = play_until_bag_empty(EN, 1, en_words)
    checked = 0
    for rack in (game.rack(0), game.rack(1), (0, 0, 1, 5, 9)):
        plays = generate(game.board, rack, en_words)
        given = scratch(game.board.size, rows)
        meta, out, val, n = _on_every_lane(game, en_words, rack, given)
        assert n == len(plays) > 0
        assert (meta[:n] == plays.meta).all() and (out[:n] == plays.tiles).all()
        assert (meta is given[0]) == (val is given[2]) == (n <= rows)
        checked += n > rows
    assert rows > 1 or checked == 3


def test_generate_growing_its_arrays_finds_the_plays_of_arrays_big_enough(
        en_words: WordGraph) -> None:
    """With two blanks, :func:`generate` finds more plays than the rows it starts with (1024),
    so its lane search fills them and an anchor is searched again into grown ones: the plays,
    in order, are those of the lane search into arrays that never fill, all different."""
    game = play_until_bag_empty(EN, 2, en_words)
    rack = (0, 0, *game.rack(0)[:5])
    plays = generate(game.board, rack, en_words)
    rows = 1 << 16
    given = scratch(game.board.size, rows)
    meta, out, _, n = _on_every_lane(game, en_words, rack, given)
    assert meta is given[0]  # never full
    assert 1024 < len(plays) == n < rows
    assert (meta[:n] == plays.meta).all() and (out[:n] == plays.tiles).all()
    keys = {(tuple(m), bytes(o)) for m, o in zip(plays.meta, plays.tiles, strict=True)}
    assert len(keys) == n


@pytest.mark.parametrize("changes", [
    {},
    {"pass_rounds_to_end": 1},
    {"pass_rounds_to_end": 0, "scoreless_turns_to_end": 3},
    {"end_when_no_play_possible": False},
    {"pass_rounds_to_end": 0, "end_when_no_play_possible": False},
])
def test_the_compiled_search_finds_the_python_searchs_values(
    en_words: WordGraph, changes: dict[str, object]
) -> None:
    """On real boards with up to six tiles between the two racks, the exact value (and
    whether it is exact) is the Python search's, and the best move reaches it."""
    rules = EN.rules.replace(**changes)
    cases = positions(en_words, range(4), 3, 6)
    assert len(cases) >= 9
    for game, mine, theirs in cases:
        position = EndgamePosition(game.board, mine, theirs, rules)
        assert usable(position)
        fast = CompiledSearch(position, en_words, NO_LIMIT).run()
        slow = Search(position, en_words, NO_LIMIT).run()
        assert fast.exact and slow.exact
        assert fast.value == slow.value
        assert fast.principal_variation[0] == fast.best


def test_the_compiled_search_is_deterministic_for_a_work_limit(en_words: WordGraph) -> None:
    game = play_until_bag_empty(EN, 1, en_words)
    position = EndgamePosition(game.board, game.rack(game.to_move),
                               game.rack(1 - game.to_move), EN.rules)
    first = solve(position, en_words, Limit(work=3000))
    again = solve(position, en_words, Limit(work=3000))
    assert (first.best, first.value, first.nodes, first.depth) == (
        again.best, again.value, again.nodes, again.depth)
    assert not first.exact and first.depth >= 1


@pytest.mark.slow
def test_the_compiled_search_agrees_on_bigger_endgames(en_words: WordGraph) -> None:
    """Up to eight tiles between the racks, on more boards."""
    cases = positions(en_words, range(4, 12), 2, 8)
    assert len(cases) >= 10
    for game, mine, theirs in cases:
        position = EndgamePosition(game.board, mine, theirs, EN.rules)
        fast = CompiledSearch(position, en_words, NO_LIMIT).run()
        slow = Search(position, en_words, NO_LIMIT).run()
        assert fast.exact and slow.exact and fast.value == slow.value
