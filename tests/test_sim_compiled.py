"""The compiled rollouts (:mod:`letras.ai.sim.compiled`) give the same values as the Python
ones (:class:`letras.ai.sim.rollouts.Rollouts`, the reference) for the same deal: every ply,
draw, exchange, leave and final count alike, in English and Portuguese, two and three seats,
with blanks, near the end of the bag and after it."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import equity_game_views, small_lexicon
from letras.ai.equity import Candidate, EquityPlayer
from letras.ai.leaves import shipped_leaves
from letras.ai.leaves.klv import LeaveTable
from letras.ai.player import Limit
from letras.ai.sim import SimPlayer
from letras.ai.sim import compiled as sim_compiled
from letras.ai.sim.compiled import CompiledRollouts, make_rollouts
from letras.ai.sim.plies import leave_value
from letras.ai.sim.rollouts import Deal, Rollouts
from letras.ai.sim.shuffle import shuffle_tiles
from letras.editions import find_edition
from letras.game import Game, PlayerView
from letras.lexicon.kwg import WordGraph
from letras.play import Exchange, Pass

EN = find_edition("en")


def table_for(name: str) -> LeaveTable:
    leaves = shipped_leaves(find_edition(name))
    if not isinstance(leaves, LeaveTable):
        pytest.skip(f"no shipped {name} leave file")
    return leaves


class Counted(Rollouts):
    """The Python rollouts, counting the exchanges and the game ends they meet."""

    swaps = 0
    finals = 0

    def _swap(self, rack: list[int], bag: list[int], thrown: Sequence[int],
              seed: int) -> tuple[list[int], int]:
        Counted.swaps += 1
        return super()._swap(rack, bag, thrown, seed)

    def _final(self, scores: list[int], racks: list[list[int]],
               out: int | None) -> tuple[float, float]:
        Counted.finals += 1
        return super()._final(scores, racks, out)


def game_views(name: str, words: WordGraph, leaves: LeaveTable, seats: int,
               seed: int) -> list[PlayerView]:
    """Every position of a game of the equity player against itself."""
    return equity_game_views(find_edition(name), words, leaves, seats, seed)


def clumsy(deal: Deal, seat: int, rack_size: int) -> Deal:
    """The same tiles, but seat ``seat`` holds the most repeated of its rack and the bag (a
    rack to exchange or pass): the tiles stay those of the deal."""
    pool = deal.racks[seat] + deal.bag
    counts = Counter(pool)
    ranked = sorted(pool, key=lambda t: (-counts[t], t))
    rack = ranked[:len(deal.racks[seat])]
    bag = list(pool)
    for t in rack:
        bag.remove(t)
    racks = [r[:] for r in deal.racks]
    racks[seat] = rack
    return Deal(racks, bag, deal.seed)


def extra_candidates(view: PlayerView) -> list[Candidate]:
    """An exchange of the first three tiles and a pass, whatever their equity."""
    out = [Candidate(Pass(), 0.0, 0)]
    if view.bag_count >= max(1, view.rules.exchange_min_bag):
        out.append(Candidate(Exchange(tuple(view.rack[:3])), 0.0, 0))
    return out


def compare(views: list[PlayerView], words: WordGraph, leaves: LeaveTable, seed: int,
            deals: int = 2, word_map: bool = True) -> Counter[str]:
    """Every candidate of every view on a few deals, both ways (both with the word map or
    both without it): the same values and the same number of replies. Returns what the
    rollouts met."""
    met: Counter[str] = Counter()
    rng = random.Random(seed)
    equity = EquityPlayer(words, leaves=leaves)
    for view in views:
        if view.over:
            continue
        slow = Counted(view, words, leaves, {}, 2, word_map=word_map)
        fast = CompiledRollouts(view, words, leaves, {}, 2, word_map=word_map)
        assert (slow.word_map, fast.word_map) == (word_map, word_map)
        candidates = equity.ranked(view, 6) + extra_candidates(view)
        for d in range(deals):
            deal = slow.deal(rng)
            if d == 1 and deal.bag:
                deal = clumsy(deal, fast.opponents[0], view.edition.rack_size)
            if any(0 in rack for rack in deal.racks):
                met["blank on a rack"] += 1
            for cand in candidates:
                swaps, finals = Counted.swaps, Counted.finals
                a = slow.rollout(cand, deal)
                b = fast.rollout(cand, deal)
                assert a == b, (view.bag_count, cand.choice, a, b)
                met[type(cand.choice).__name__] += 1
                met["exchange in the rollout"] += Counted.swaps > swaps
                met["game over"] += Counted.finals > finals
        assert slow.replies == fast.replies
        met["to the end"] += slow.to_end
    return met


@pytest.fixture(scope="module")
def en_words() -> WordGraph:
    return small_lexicon("en")


def test_the_compiled_rollouts_give_the_python_values_in_english(en_words: WordGraph) -> None:
    leaves = table_for("en")
    views = game_views("en", en_words, leaves, 2, 11)
    met = compare(views[::2], en_words, leaves, 1)
    assert met["Place"] > 100 and met["Exchange"] > 10 and met["Pass"] > 10
    assert met["exchange in the rollout"] > 10 and met["game over"] > 5
    assert met["to the end"] >= 2 and met["blank on a rack"] > 3


def test_the_compiled_rollouts_give_the_python_values_without_the_word_map(
    en_words: WordGraph,
) -> None:
    leaves = table_for("en")
    views = game_views("en", en_words, leaves, 2, 11)
    met = compare(views[1::3], en_words, leaves, 5, word_map=False)
    assert met["Place"] > 50 and met["blank on a rack"] > 1


def test_the_compiled_rollouts_give_the_python_values_with_three_seats(
    en_words: WordGraph,
) -> None:
    leaves = table_for("en")
    views = game_views("en", en_words, leaves, 3, 12)
    met = compare(views[1::3], en_words, leaves, 2)
    assert met["Place"] > 50 and met["exchange in the rollout"] > 3


def test_ties_between_leaves_are_broken_alike(en_words: WordGraph) -> None:
    """Leaves rounded to 4 points and a missing leave worth -3: many leaves of a rack are
    worth the same, so the best exchange must be the first of equals both ways."""
    trained = table_for("en")
    coarse = LeaveTable(EN, trained.keys, np.round(trained.values / 4) * 4, default=-3.0)
    views = game_views("en", en_words, coarse, 2, 13)
    met = compare(views[::3], en_words, coarse, 3)
    assert met["exchange in the rollout"] > 5


@pytest.mark.slow
def test_the_compiled_rollouts_give_the_python_values_in_portuguese() -> None:
    words = small_lexicon("pt-BR")
    leaves = table_for("pt-BR")
    views = game_views("pt-BR", words, leaves, 2, 14)
    met = compare(views[::2], words, leaves, 4)
    assert met["Place"] > 100 and met["exchange in the rollout"] > 5
    assert met["game over"] > 5 and met["blank on a rack"] > 3


def test_sim_chooses_the_same_with_either_rollouts(en_words: WordGraph) -> None:
    """Python and compiled: the same simulation, with the word map or without it."""
    leaves = table_for("en")
    views = game_views("en", en_words, leaves, 2, 15)[3::6]
    iterations = 0
    try:
        for i, view in enumerate(views):
            results = []
            for compiled, mapped in ((False, True), (True, True), (False, False),
                                     (True, False)):
                sim_compiled.COMPILED, sim_compiled.WORD_MAP = compiled, mapped
                results.append(SimPlayer(en_words, seed=i, leaves=leaves).analyse(
                    view, Limit(work=150)))
            for a, b in itertools.pairwise(results):
                if b is results[2]:  # without the map: a tie may break another way
                    continue
                assert (a.iterations, a.work, a.stopped) == (b.iterations, b.work, b.stopped)
                assert [(c.choice, c.iterations, c.spread, c.win, c.pruned)
                        for c in a.candidates] == [
                    (c.choice, c.iterations, c.spread, c.win, c.pruned) for c in b.candidates]
            iterations += results[0].iterations
    finally:
        sim_compiled.COMPILED, sim_compiled.WORD_MAP = True, True
    assert iterations > 30


def test_the_python_rollouts_serve_other_leaves(en_words: WordGraph) -> None:
    from letras.ai.leaves import HeuristicLeaves

    view = Game(EN, ["a", "b"], seed=1, lexicon=en_words).view(0)
    assert type(make_rollouts(view, en_words, HeuristicLeaves(EN), {}, 2)) is Rollouts
    assert isinstance(make_rollouts(view, en_words, table_for("en"), {}, 2), CompiledRollouts)


# ----- the pieces ----------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=90), st.integers(0, 2**63 - 1))
def test_the_shuffle_is_a_permutation_fixed_by_the_seed(tiles: list[int], seed: int) -> None:
    a = np.array(tiles, np.int64)
    b = np.array(tiles, np.int64)
    shuffle_tiles(a, len(a), seed)
    shuffle_tiles(b, len(b), seed)
    assert sorted(a.tolist()) == sorted(tiles)
    assert a.tolist() == b.tolist()


def test_the_shuffle_moves_every_tile_anywhere() -> None:
    """Over many seeds, every tile of ten lands in every place, about equally often."""
    seen = np.zeros((10, 10), np.int64)
    for seed in range(4000):
        a = np.arange(10, dtype=np.int64)
        shuffle_tiles(a, 10, seed)
        seen[a, np.arange(10)] += 1
    assert seen.min() > 300 and seen.max() < 500  # 400 expected in each


def test_the_shuffle_leaves_the_tail_alone() -> None:
    a = np.arange(20, dtype=np.int64)
    shuffle_tiles(a, 8, 5)
    assert a[8:].tolist() == list(range(8, 20)) and sorted(a[:8].tolist()) == list(range(8))


@pytest.fixture(scope="module")
def odd_default() -> LeaveTable:
    """The English table, a leave it lacks worth -5.5."""
    table = table_for("en")
    return LeaveTable(EN, table.keys, table.values, default=-5.5)


@settings(max_examples=300, deadline=None)
@given(leave=st.lists(st.integers(0, 26), max_size=12))
def test_a_leave_is_valued_as_the_table_values_it(
    odd_default: LeaveTable, leave: list[int],
) -> None:
    table = odd_default
    counts = np.zeros(64, np.int64)
    for t in leave:
        counts[t] += 1
    assert leave_value(table.keys, table.values, table.default, counts) == table.value(leave)
