"""The pre-endgame with 2 to 6 tiles in the bag (:mod:`letras.ai.endgame.draws`): the draws
cover every way the unseen tiles may be split between the bag and the opponent's rack; a play
that empties the bag is valued as a brute force over every split, each endgame solved by the
Python reference search, values it; the search is deterministic for a seed and a work limit,
looks only at the view, and the ``best`` level uses it at the counts it is told to."""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import PRE_WORDS, brute_force, note_board, pre_view
from letras.ai import BestPlayer
from letras.ai.endgame import draws as dr
from letras.ai.equity import EquityPlayer
from letras.ai.player import Limit
from letras.editions import find_edition
from letras.game import Game
from letras.lexicon.kwg import WordGraph
from letras.play import Pass, Place

EN = find_edition("en")
@given(st.lists(st.integers(1, 6), min_size=3, max_size=12), st.integers(2, 6),
       st.integers(0, 1000))
@settings(max_examples=60, deadline=None)
def test_the_draws_cover_every_split_weighted_by_its_ways(
    unseen: list[int], k: int, seed: int
) -> None:
    k = min(k, len(unseen) - 1)
    out = dr.draws(unseen, k, random.Random(seed), most=10)
    pool = Counter(unseen)
    for d in out:
        assert len(d.bag) == k
        assert not Counter(d.bag) - pool  # the bag is drawn from the unseen tiles
    distinct = {tuple(sorted(c)) for c in combinations(unseen, k)}
    if len(distinct) <= 10:
        # every distinct bag once, the weights counting the ways of choosing k of the tiles
        assert sorted(tuple(sorted(d.bag)) for d in out) == sorted(distinct)
        assert sum(d.weight for d in out) == math.comb(len(unseen), k)
    else:
        assert len(out) == 10 and all(d.weight == 1 for d in out)


@pytest.mark.parametrize(("rack", "opponent", "bag", "scores"), [
    ("AST", "E", "ON", (0, 0)),
    ("TEA", "OS", "NE", (3, 0)),
    ("NOTS", "A", "ETO", (0, 9)),
])
def test_plays_that_empty_the_bag_agree_with_a_brute_force_over_every_split(
    monkeypatch: pytest.MonkeyPatch, rack: str, opponent: str, bag: str,
    scores: tuple[int, int]
) -> None:
    monkeypatch.setattr(dr, "BY_EQUITY", 1000)
    monkeypatch.setattr(dr, "BY_SCORE", 1000)
    words = WordGraph.build(EN, PRE_WORDS)
    view = pre_view(note_board(), rack, opponent, bag, scores)
    assert dr.applies(view)
    expected = brute_force(view, words)
    assert expected  # (the rack has plays that empty the bag)
    result = dr.solve_draws(view, words, seed=3)
    assert result.exact
    got = {c.choice: c for c in result.candidates}
    for place, (wins, spread) in expected.items():
        c = got[place]
        assert c.exact and c.lines == len(result.draws)
        assert (c.wins, c.spread) == pytest.approx((wins, spread))
    # every candidate is valued, the pass among them; the first is the best by win chance,
    # then spread
    assert any(isinstance(c.choice, Pass) for c in result.candidates)
    first = result.candidates[0]
    assert all((first.wins, first.spread) >= (c.wins, c.spread) for c in result.candidates)


def draws_game(words: WordGraph, bag: int) -> Game:
    """A seeded game of equity plays, steered to leave exactly ``bag`` tiles in the bag."""
    player = EquityPlayer(words)
    for seed in range(1, 30):
        game = Game(EN, ["a", "b"], seed=seed, lexicon=words)
        while not game.over and game.bag_count > bag:
            if game.challengeable is not None:
                game.accept()
                continue
            view = game.view(game.to_move)
            choice = player.choose(view)
            if view.bag_count <= bag + 7:
                fits = [c.choice for c in player.ranked(view, 200)
                        if isinstance(c.choice, Place)
                        and sum(1 for t in c.choice.tiles if t) == view.bag_count - bag]
                if not fits:
                    break
                choice = fits[0]
            game.apply(choice)
        if game.challengeable is not None and not game.over:
            game.accept()
        if not game.over and game.bag_count == bag:
            return game
    raise AssertionError(f"no seeded game reached {bag} tiles in the bag")


@pytest.mark.slow
def test_deterministic_blind_to_the_hidden_tiles_and_used_by_best(en_words: WordGraph) -> None:
    game = draws_game(en_words, 3)
    mover = game.to_move
    view = game.view(mover)
    assert dr.applies(view)
    limit = Limit(work=20_000)
    first = dr.solve_draws(view, en_words, limit, seed=5)
    again = dr.solve_draws(view, en_words, limit, seed=5)
    assert first.candidates == again.candidates and first.draws == again.draws
    assert len(first.candidates) >= 3
    # swap a bag tile with a different tile of the opponent's rack: the mover's view, and so
    # the search, do not change
    swapped = copy.deepcopy(game)
    state = swapped._s  # the table's hidden state, for this test only
    rack = state.racks[1 - mover]
    bag_tile = state.bag._tiles[0]
    k = next(i for i, t in enumerate(rack) if t != bag_tile)
    state.bag._tiles[0], rack[k] = rack[k], bag_tile
    assert swapped.rack(1 - mover) != game.rack(1 - mover)
    other = dr.solve_draws(swapped.view(mover), en_words, limit, seed=5)
    assert other.candidates == first.candidates
    # the best level: the sim at 3 tiles by default, this search when told to use it there
    assert BestPlayer(en_words, seed=5).stage(view) == "middle"
    told = BestPlayer(en_words, seed=5, preendgame_bags={1, 3}, draws_search="draws")
    assert told.stage(view) == "preendgame"
    assert told.choose(view, limit) == first.best


def test_best_takes_the_preendgame_only_at_its_counts() -> None:
    words = WordGraph.build(EN, PRE_WORDS)
    one = pre_view(note_board(), "AST", "EO", "N")
    two = pre_view(note_board(), "AST", "E", "ON")
    default = BestPlayer(words, seed=1)
    assert default.stage(one) == "preendgame"
    assert default.stage(two) == "middle"
    told = BestPlayer(words, seed=1, preendgame_bags={2}, draws_search="draws")
    assert told.stage(one) == "middle"
    assert told.stage(two) == "preendgame"
    assert told.choose(two) == dr.solve_draws(two, words, seed=1).best
