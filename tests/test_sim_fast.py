"""The sim and equity levels with a leave table valued all at once in compiled code make the
same choices, with the same values, as with the same leaves asked for one by one."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from helpers import equity_game_views
from letras.ai.equity import EquityPlayer, _LeaveTerm
from letras.ai.leaves import shipped_leaves
from letras.ai.leaves.klv import LeaveTable
from letras.ai.player import Limit
from letras.ai.sim import SimPlayer
from letras.ai.sim.rollouts import Rollouts
from letras.editions import find_edition
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph, graph_for_words
from letras.play import Exchange, Place

DATA = Path(__file__).parent / "data"
EN = find_edition("en")


class OneByOne:
    """The values of a leave table, but not a :class:`LeaveTable`: the players ask it leave by
    leave, as they ask any other evaluator."""

    def __init__(self, table: LeaveTable) -> None:
        self.table = table

    def value(self, leave: Sequence[int]) -> float:
        return self.table.value(leave)


@pytest.fixture(scope="module")
def words() -> WordGraph:
    return graph_for_words(EN, DATA / "en-words.txt.xz")


@pytest.fixture(scope="module")
def trained() -> LeaveTable:
    leaves = shipped_leaves(EN)
    if not isinstance(leaves, LeaveTable):
        pytest.skip("no shipped English leave file")
    return leaves


@pytest.fixture(scope="module")
def coarse(trained: LeaveTable) -> LeaveTable:
    """The trained values rounded to 4 points, a missing leave worth -3: many leaves of a rack
    are worth the same, so the first of equals must be found as the search met it."""
    return LeaveTable(EN, trained.keys, np.round(trained.values / 4) * 4, default=-3.0)


@pytest.fixture(scope="module")
def views(words: WordGraph, trained: LeaveTable) -> list[PlayerView]:
    """Every position of three games of the equity player, from the opening to the last move:
    two of two players, one of three."""
    out = []
    for seed, seats in ((3, 2), (4, 2), (5, 3)):
        out += equity_game_views(EN, words, trained, seats, seed)
    return out


def kind(action: object) -> str:
    return "play" if isinstance(action, Place) else type(action).__name__.lower()


def test_the_views_cover_the_game(views: list[PlayerView]) -> None:
    """What the comparisons below rest on: the opening, the middle, the last tiles in the bag
    (no exchange then), the empty bag (the endgame), and three seats."""
    assert views[0].board.is_empty()
    bags = [v.bag_count for v in views]
    assert max(bags) > 60 and any(0 < b < 7 for b in bags) and 0 in bags
    assert {len(v.scores) for v in views} == {2, 3}


# ----- the equity level --------------------------------------------------------------------


@pytest.mark.parametrize("table", ["trained", "coarse"])
def test_equity_ranks_the_same_with_the_compiled_table(
    table: str, words: WordGraph, views: list[PlayerView], request: pytest.FixtureRequest,
) -> None:
    leaves: LeaveTable = request.getfixturevalue(table)
    fast = EquityPlayer(words, leaves=leaves)
    slow = EquityPlayer(words, leaves=OneByOne(leaves))
    kinds: Counter[str] = Counter()
    for view in views:
        a, b = fast.ranked(view, 12), slow.ranked(view, 12)
        assert [(c.choice, c.score, c.equity) for c in a] == [
            (c.choice, c.score, c.equity) for c in b]
        kinds.update(kind(c.choice) for c in a)
    assert kinds["play"] and kinds["exchange"] and kinds["pass"]


def test_the_leave_terms_agree_whichever_way_they_are_made(
    views: list[PlayerView], trained: LeaveTable,
) -> None:
    for view in views:
        fast = _LeaveTerm(view, trained, {}).table
        slow = _LeaveTerm(view, OneByOne(trained), {}).table
        assert fast.values.tolist() == slow.values.tolist()
        assert fast.radix.tolist() == slow.radix.tolist()


# ----- one reply in the look-ahead ---------------------------------------------------------


@pytest.mark.parametrize("table", ["trained", "coarse"])
def test_a_reply_is_the_same_with_the_compiled_table(
    table: str, words: WordGraph, views: list[PlayerView], request: pytest.FixtureRequest,
) -> None:
    """Replies for dealt racks on many boards, with the bag full, ramping down, too small to
    exchange from, and empty."""
    leaves: LeaveTable = request.getfixturevalue(table)
    kinds: Counter[str] = Counter()
    ties = 0
    rng = random.Random(table)
    for view in views[1::3]:
        if not view.bag_count:
            continue
        fast = Rollouts(view, words, leaves, {}, 2)
        slow = Rollouts(view, words, OneByOne(leaves), {}, 2)
        assert fast.table is leaves and slow.table is None
        deal = fast.deal(rng)
        squares = bytearray(fast.squares)
        for bag_left in (0, 1, 6, 7, 10, 40):
            for p in range(fast.seats):
                racks = [r[:] for r in deal.racks]
                if bag_left > 0 and rng.random() < 0.3:
                    # A clumsy rack, to be exchanged or passed.
                    racks[p] = rng.choice([[9] * 4 + [21] * 3, [17] * 7, [1, 1, 5, 5, 9, 9, 15]])
                a = fast._reply(squares, racks, p, bag_left)
                b = slow._reply(squares, [r[:] for r in racks], p, bag_left)
                assert a == b, (view.bag_count, racks[p], bag_left)
                kinds[kind(a[0])] += 1
                if bag_left >= 7:
                    head = fast._rack_leaves(racks, p, bag_left).values[:-1]
                    ties += int(np.count_nonzero(head == head.max()) > 1)
    assert kinds["play"] > 50 and kinds["exchange"] and kinds["pass"]
    if table == "coarse":
        assert ties > 10  # the first of equals was put to the test


def test_the_best_exchange_among_equals_is_the_first_met(views: list[PlayerView]) -> None:
    """Leaves worth the same: the leave-by-leave search keeps the first it is asked about, in
    the order of :func:`letras.movegen.leave_table` (the count of A varying slowest, then E, I,
    O), which is not the order of the leaves' indexes."""
    nothing = WordGraph.build(EN, ["ZZZ"])  # no play for the rack below: exchange or pass
    table = LeaveTable.from_values(EN, {"AI": 9.0, "E": 9.0, "OO": 9.0}, default=-1.0)
    rack = EN.tiles.parse("AAEIOOO", rack=True)
    view = views[0]
    racks = [list(rack)] + [list(EN.tiles.parse("ZZZZZZZ", rack=True))] * (len(view.scores) - 1)
    replies = [
        rollouts._reply(bytearray(rollouts.squares), [r[:] for r in racks], 0, 30)
        for rollouts in (Rollouts(view, nothing, leaves, {}, 2)
                        for leaves in (table, OneByOne(table)))
    ]
    # Counts of (A, E, I, O) kept: AI (1, 0, 1, 0), E (0, 1, 0, 0) and OO (0, 0, 0, 2); OO
    # comes first, though E has the lowest index (3, against 7 and 24).
    assert replies[0] == replies[1] == (Exchange(EN.tiles.parse("AAEIO", rack=True)), 0, 9.0)


# ----- whole simulations -------------------------------------------------------------------


@pytest.mark.slow
def test_sim_chooses_the_same_with_the_compiled_table(
    words: WordGraph, views: list[PlayerView], trained: LeaveTable, coarse: LeaveTable,
) -> None:
    """Two dozen positions, the pre-endgame among them (replies with the bag run dry)."""
    chosen = [v for v in views if v.bag_count][::3]
    assert len(chosen) >= 20 and any(v.bag_count < 7 for v in chosen)
    iterations = 0
    for i, view in enumerate(chosen):
        leaves = coarse if i % 3 == 0 else trained
        a = SimPlayer(words, seed=i, leaves=leaves).analyse(view, Limit(work=120))
        b = SimPlayer(words, seed=i, leaves=OneByOne(leaves)).analyse(view, Limit(work=120))
        assert (a.iterations, a.work, a.stopped) == (b.iterations, b.work, b.stopped)
        for x, y in zip(a.candidates, b.candidates, strict=True):
            assert (x.choice, x.iterations, x.pruned) == (y.choice, y.iterations, y.pruned)
            if x.iterations:
                assert (x.spread, x.win, x.value) == pytest.approx((y.spread, y.win, y.value),
                                                                   rel=1e-12, abs=1e-12)
        iterations += a.iterations
    assert iterations > 50
