"""The sim's value with several opponents: the chance of finishing first among them all
(:mod:`letras.ai.sim.first`), and the rollouts that use it."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import play_until_bag_empty, small_lexicon
from letras.ai import EquityPlayer, HeuristicLeaves, Limit
from letras.ai.endgame import multi, solve
from letras.ai.selfplay import GameResult
from letras.ai.sim import SimPlayer, rollouts
from letras.ai.sim.first import final_share, first_chance, margin_sd, seat_means
from letras.ai.sim.rollouts import REMAINING_GAME, Rollouts
from letras.ai.sim.stopping import SPREAD_WEIGHT
from letras.editions import find_edition
from letras.game import Game, PlayerView
from letras.lexicon.kwg import WordGraph

margins = st.floats(-150.0, 150.0, allow_nan=False)
sds = st.floats(5.0, 80.0)
shifts = st.floats(-30.0, 30.0)


@st.composite
def fields(draw: st.DrawFn, least: int = 1) -> tuple[list[float], float, list[float]]:
    """Margins over 1-3 opponents (``least`` or more), a margin's sd, and the shifts."""
    n = draw(st.integers(least, 3))
    return (draw(st.lists(margins, min_size=n, max_size=n)), draw(sds),
            draw(st.lists(shifts, min_size=n, max_size=n)))


@given(fields())
def test_it_is_a_probability(field: tuple[list[float], float, list[float]]) -> None:
    p = first_chance(*field)
    assert 0.0 <= p <= 1.0


@given(fields(), st.data(), st.floats(0.5, 60.0))
def test_it_grows_with_every_margin(field: tuple[list[float], float, list[float]],
                                    data: st.DataObject, more: float) -> None:
    ds, sd, ahead = field
    i = data.draw(st.integers(0, len(ds) - 1))
    raised = ds[:]
    raised[i] += more
    assert first_chance(raised, sd, ahead) >= first_chance(ds, sd, ahead) - 1e-12


@given(fields(least=2), st.randoms(use_true_random=False))
def test_the_opponents_order_does_not_matter(field: tuple[list[float], float, list[float]],
                                             rng: random.Random) -> None:
    ds, sd, ahead = field
    pairs = list(zip(ds, ahead, strict=True))
    rng.shuffle(pairs)
    assert first_chance([d for d, _ in pairs], sd, [a for _, a in pairs]) == pytest.approx(
        first_chance(ds, sd, ahead), abs=1e-12)


@given(fields(), margins, shifts)
def test_one_more_opponent_never_raises_it(field: tuple[list[float], float, list[float]],
                                           d: float, a: float) -> None:
    ds, sd, ahead = field
    assert first_chance([*ds, d], sd, [*ahead, a]) <= first_chance(ds, sd, ahead) + 1e-12


@given(margins, sds, shifts)
def test_one_opponent_is_the_normal_model(d: float, sd: float, a: float) -> None:
    """The two-player model: the final spread normal around the margin plus the tempo."""
    final = NormalDist(d + a, sd)
    assert first_chance([d], sd, [a]) == pytest.approx(1.0 - final.cdf(0.0), abs=1e-12)


@given(margins, sds, shifts)
def test_the_quadrature_agrees_with_the_closed_form(d: float, sd: float, a: float) -> None:
    """A second opponent hopelessly behind changes nothing: the quadrature over our own noise
    gives the one-opponent closed form."""
    assert first_chance([d, 1e6], sd, [a, 0.0]) == pytest.approx(first_chance([d], sd, [a]),
                                                                 abs=1e-7)


@pytest.mark.parametrize("opponents", [1, 2, 3])
def test_level_seats_share_the_chance(opponents: int) -> None:
    """Level at the horizon with no tempo, ``n + 1`` seats alike: each finishes first with
    the same chance, ``1 / (n + 1)``."""
    chance = first_chance([0.0] * opponents, 37.0, [0.0] * opponents)
    assert chance == pytest.approx(1 / (opponents + 1), abs=1e-7)


@pytest.mark.parametrize("ds, ahead", [([10.0, -5.0], [-8.0, 3.0]),
                                       ([40.0, 25.0, -10.0], [0.0, -12.0, 5.0])])
def test_it_is_the_chance_of_the_model(ds: list[float], ahead: list[float]) -> None:
    """Sampled: every seat's remaining score normal with sd ``sd / sqrt 2`` of its own."""
    sd = 45.0
    rng = np.random.default_rng(5)
    n = 400_000
    own = rng.normal(0.0, sd / math.sqrt(2), n)
    ok = np.ones(n, np.bool_)
    for d, a in zip(ds, ahead, strict=True):
        ok &= d + a + own - rng.normal(0.0, sd / math.sqrt(2), n) > 0
    assert first_chance(ds, sd, ahead) == pytest.approx(ok.mean(), abs=0.004)


def test_the_scales_with_two_seats_are_the_two_player_model() -> None:
    var_base, var_per_tile, tempo = REMAINING_GAME["pt-BR"]
    for bag in (0, 1, 17, 86):
        assert margin_sd(var_base, var_per_tile, bag, 2) == math.sqrt(
            var_base + var_per_tile * bag)
    assert seat_means(tempo, 2) == [tempo, 0.0]


def test_more_seats_share_the_turns() -> None:
    """With more seats each gets fewer of the turns the bag holds: less noise per margin; the
    next to move is ahead of the last by less than a turn (``2 x tempo``)."""
    var_base, var_per_tile, tempo = REMAINING_GAME["en"]
    assert margin_sd(var_base, var_per_tile, 50, 3) < margin_sd(var_base, var_per_tile, 50, 2)
    assert margin_sd(var_base, var_per_tile, 0, 4) == margin_sd(var_base, var_per_tile, 0, 2)
    for seats in (3, 4):
        means = seat_means(tempo, seats)
        assert means == sorted(means, reverse=True) and means[-1] == 0.0
        assert tempo < means[0] < 2 * tempo


@given(st.lists(st.integers(0, 60), min_size=2, max_size=4), st.integers(0, 3))
def test_a_tie_at_the_end_shares_first_place_as_the_game_does(scores: list[int],
                                                             seat: int) -> None:
    me = seat % len(scores)
    result = GameResult(0, 0, tuple(range(len(scores))), 0, tuple(scores), 0, "")
    ds = [float(scores[me] - s) for p, s in enumerate(scores) if p != me]
    assert final_share(ds) == result.wins()[me]


# ----- in the rollouts ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def en_words() -> WordGraph:
    return small_lexicon("en")


def view_after(words: WordGraph, seats: int, seed: int, turns: int) -> PlayerView:
    game = Game(find_edition("en"), [f"P{i}" for i in range(seats)], seed=seed, lexicon=words)
    equity = EquityPlayer(words)
    for _ in range(turns):
        if game.challengeable is not None:
            game.accept()
        game.apply(equity.choose(game.view(game.to_move)))
    if game.challengeable is not None:
        game.accept()
    return game.view(game.to_move)


def test_the_order_of_moving_after_the_horizon(en_words: WordGraph) -> None:
    """After one round (the opponents reply, then we play) the opponents move next: we are
    behind the one after us by the most; after the opponents' replies alone, we move next."""
    view = view_after(en_words, 3, 1, 6)
    tempo = REMAINING_GAME["en"][2]
    leaves = HeuristicLeaves(find_edition("en"))
    round_ = Rollouts(view, en_words, leaves, {}, 2)
    half = Rollouts(view, en_words, leaves, {}, 1)
    assert round_.ahead[0] < round_.ahead[1] < 0 < half.ahead[0] < half.ahead[1]
    assert round_.ahead[0] == pytest.approx(-2 * tempo * 2 / 3)
    two = Rollouts(view_after(en_words, 2, 1, 6), en_words, leaves, {}, 2)
    assert two.ahead == [-tempo] and two.tempo_ahead == -tempo


class Seen(Rollouts):
    """The Python rollouts, keeping the margins each rollout ends with at its horizon."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.seen: list[tuple[list[float], int, tuple[float, float]]] = []

    def _horizon(self, margins: Sequence[float], bag_left: int) -> tuple[float, float]:
        out = super()._horizon(margins, bag_left)
        self.seen.append((list(margins), bag_left, out))
        return out


@pytest.mark.parametrize("seats", [3, 4])
def test_a_rollout_s_chance_is_of_finishing_first(en_words: WordGraph, seats: int) -> None:
    """Against several opponents a rollout's chance is of beating them all: at most the
    chance of beating any one of them (with the same noise), below it when another is near."""
    view = view_after(en_words, seats, 3, 2 * seats)
    leaves = HeuristicLeaves(find_edition("en"))
    sim = Seen(view, en_words, leaves, {}, 2)
    assert sim.first and len(sim.ahead) == seats - 1
    rng = random.Random(4)
    cands = EquityPlayer(en_words).ranked(view, 3)
    for _ in range(6):
        deal = sim.deal(rng)
        for cand in cands:
            sim.rollout(cand, deal)
    assert len(sim.seen) == 6 * len(cands)
    below = 0
    for ds, bag_left, (margin, win) in sim.seen:
        assert margin == min(ds) and 0.0 <= win <= 1.0
        sd = margin_sd(*REMAINING_GAME["en"][:2], bag_left, seats)
        alone = [first_chance([d], sd, [a]) for d, a in zip(ds, sim.ahead, strict=True)]
        assert win <= min(alone) + 1e-7
        below += win < min(alone) - 0.01
    assert below > 0


def test_with_one_opponent_the_choices_are_today_s(en_words: WordGraph) -> None:
    """Two players: the same simulation whether or not the value looks for several
    opponents."""
    for seed in (1, 2):
        view = view_after(en_words, 2, seed, 5)
        results = []
        try:
            for first in (True, False):
                rollouts.FIRST = first
                results.append(dataclasses.replace(
                    SimPlayer(en_words, seed=seed).analyse(view, Limit(work=200)), seconds=0.0))
        finally:
            rollouts.FIRST = True
        assert results[0] == results[1] and results[0].iterations > 3


def test_three_players_choose_the_same_for_a_seed(en_words: WordGraph) -> None:
    view = view_after(en_words, 3, 7, 6)
    a = SimPlayer(en_words, seed=5).analyse(view, Limit(work=240))
    b = SimPlayer(en_words, seed=5).analyse(view, Limit(work=240))
    assert dataclasses.replace(a, seconds=0.0) == dataclasses.replace(b, seconds=0.0)
    assert a.iterations >= 2


# ----- the endgame of three or four players ------------------------------------------------------


@pytest.mark.parametrize("seats, seed", [(3, 4), (4, 4)])
def test_the_multi_endgame_values_the_chance_of_finishing_first(
    en_words: WordGraph, seats: int, seed: int,
) -> None:
    """On the same deals, a candidate's value is its share of first place (each deal's share
    a multiple of 1/12 for up to four seats: 1, 1/2, 1/3, 1/4 or 0) plus a thousandth of the
    mean margin change the old value gives, and the best is the highest."""
    en = find_edition("en")
    game = play_until_bag_empty(en, seed, en_words, seats)
    assert not game.over and game.bag_count == 0
    view = game.view(game.to_move)
    try:
        multi.FIRST = False
        margin = solve(view, en_words, seed=3)
    finally:
        multi.FIRST = True
    first = solve(view, en_words, seed=3)
    samples = first.depth
    assert samples == margin.depth == multi.MULTI_SAMPLES
    changes = {c: v for c, v in margin.candidates}
    assert set(changes) == {c for c, _ in first.candidates}
    for choice, value in first.candidates:
        share = value - SPREAD_WEIGHT * changes[choice]
        assert -1e-9 <= share <= 1 + 1e-9
        assert share * samples * 12 == pytest.approx(round(share * samples * 12), abs=1e-6)
    assert first.value == max(v for _, v in first.candidates)
    assert first.best == first.candidates[0][0]
