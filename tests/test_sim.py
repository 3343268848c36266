"""The ``sim`` level: look-ahead that sees the reply, the end of the game counted exactly, limits,
determinism, hidden information, 2-4 players and every edition."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter

import pytest

from helpers import assert_legal, hidden_twin, play_until_bag_empty, small_lexicon
from letras.ai import EquityPlayer, Limit, get_player, levels
from letras.ai.endgame import EndgamePosition, solve
from letras.ai.leaves import HeuristicLeaves
from letras.ai.sim import LastPlay, SimError, SimPlayer, Simulation, infer_leaves
from letras.ai.sim.rollouts import Rollouts
from letras.board import Board, Square
from letras.editions import Edition, editions, find_edition
from letras.game import Game, PlayerView
from letras.lexicon.kwg import WordGraph
from letras.movegen import top_plays
from letras.play import Place
from letras.rules import validate


def crafted_view(
    edition: Edition, board: Board, rack: str, opponents: list[str], bag: str,
    scores: tuple[int, ...] | None = None,
) -> PlayerView:
    """Seat 0 to move with ``rack``; the opponents' racks and the bag are only counted in the
    unseen tiles, as a real view has them."""
    tiles = edition.tiles
    unseen = [0] * len(tiles.labels)
    for text in [*opponents, bag]:
        for t in tiles.parse(text, rack=True):
            unseen[t] += 1
    seats = 1 + len(opponents)
    return PlayerView(
        player=0, player_names=tuple(f"P{i}" for i in range(seats)), edition=edition,
        rules=edition.rules, board=board, rack=tiles.parse(rack, rack=True),
        scores=scores or (0,) * seats, to_move=0, bag_count=len(bag),
        rack_counts=(len(rack), *(len(r) for r in opponents)), unseen=tuple(unseen),
        turns=(), challengeable=None, over=False, end_reason=None,
    )


def advanced_game(edition: Edition, lexicon: WordGraph, seats: int, seed: int,
                  turns: int) -> Game:
    """A game after ``turns`` choices of the equity player (every play accepted)."""
    game = Game(edition, [f"P{i}" for i in range(seats)], seed=seed, lexicon=lexicon)
    equity = EquityPlayer(lexicon)
    done = 0
    while not game.over and done < turns:
        if game.challengeable is not None:
            game.accept()
            continue
        game.apply(equity.choose(game.view(game.to_move)))
        done += 1
    if game.challengeable is not None and not game.over:
        game.accept()
    return game


def without_time(result: Simulation) -> Simulation:
    return dataclasses.replace(result, seconds=0.0)


# ----- the look-ahead sees what equity cannot -------------------------------------------------

# The words: AB, BA, and B followed by any seven of E and T. An A stands at N1. With a B we can
# lay AB across onto the triple word at O1 (12 points) or BA down to N2 (8 points). Every unseen
# tile is an E or a T, so whatever the opponent holds, a B with seven free squares after it
# gives them a bingo; our other tiles (V) are in no word, so we cannot make one.
LOOK_AHEAD_WORDS = ["AB", "BA", *("B" + "".join(p) for p in itertools.product("ET", repeat=7))]


@pytest.fixture(scope="module")
def look_ahead() -> tuple[Edition, WordGraph, Board]:
    en = find_edition("en")
    board = Board(en)
    board[Square.parse("N1")] = en.tiles.code("A")
    return en, WordGraph.build(en, LOOK_AHEAD_WORDS), board


def test_the_exposed_play_gives_the_reply_a_bingo(
    look_ahead: tuple[Edition, WordGraph, Board],
) -> None:
    """The facts the next tests rest on, from the rules and the move generator alone."""
    en, words, board = look_ahead
    theirs = en.tiles.parse("EETTEET", rack=True)
    exposed, safe = (Place.parse(p, en, board) for p in ("1N AB", "N1 AB"))
    assert validate(board, exposed, lexicon=words).total == 12
    assert validate(board, safe, lexicon=words).total == 8
    after = board.copy()
    after.put(exposed.placed())
    reply = top_plays(after, theirs, words, 1)
    # Down column O from the B: (3 + 7 x 1, one E or T on the double letter at O4) x the
    # triple word at O8, plus the bingo: (10 + 1) x 3 + 50.
    assert reply and reply[0][0].notation(en).startswith("O1 .") and reply[0][1] == 83
    after = board.copy()
    after.put(safe.placed())
    assert top_plays(after, theirs, words, 1) == []


def test_sim_declines_the_play_that_opens_a_bingo(
    look_ahead: tuple[Edition, WordGraph, Board],
) -> None:
    en, words, board = look_ahead
    view = crafted_view(en, board, "BBVVVVV", ["EETTEET"], "ETETE")
    assert EquityPlayer(words).choose(view).notation(en) == "1N .B"  # 4 points more now
    for seed in range(3):
        result = SimPlayer(words, seed=seed).analyse(view, Limit(work=400))
        assert result.best.choice.notation(en) == "N1 .B"
        by = {c.choice.notation(en): c for c in result.candidates}
        # The reply is worth 83 to the opponent after the exposed play and nothing after the
        # safe one (and we cannot answer it): the margins differ by far more than 4 points.
        assert by["N1 .B"].spread - by["1N .B"].spread > 60
        assert by["N1 .B"].win > by["1N .B"].win
        assert result.stopped == "one left" and by["1N .B"].pruned


def test_an_opponent_going_out_ends_the_rollout_with_the_rack_points(
    look_ahead: tuple[Edition, WordGraph, Board],
) -> None:
    """One B on our rack, one tile in the bag: after 1N AB we draw it, the opponent goes out
    with 83 and takes its point: 12 - 1 against 83 + 1, a sure loss by 73."""
    en, words, board = look_ahead
    view = crafted_view(en, board, "B", ["EETTEET"], "E")
    result = SimPlayer(words, seed=1).analyse(view, Limit(work=200))
    exposed = next(c for c in result.candidates if c.choice.notation(en) == "1N .B")
    assert exposed.iterations >= 2
    assert exposed.spread == -73 and exposed.spread_stderr == 0
    assert exposed.win == 0.0
    assert result.best.choice.notation(en) != "1N .B"


def test_three_players_all_reply(look_ahead: tuple[Edition, WordGraph, Board]) -> None:
    """With two opponents, the margin is over the best of them: still the safe play."""
    en, words, board = look_ahead
    view = crafted_view(en, board, "BBVVVVV", ["EETTEET", "TTEETEE"], "ETETE",
                        scores=(0, 30, 0))
    result = SimPlayer(words, seed=2).analyse(view, Limit(work=600))
    assert result.best.choice.notation(en) == "N1 .B"
    by = {c.choice.notation(en): c for c in result.candidates}
    # Safe: nobody can make a bingo and the leading opponent stays ahead by about 30 - 8 - 12
    # (our next play) give or take the leaves; exposed: the first opponent's bingo.
    assert by["1N .B"].spread < by["N1 .B"].spread - 60


# ----- limits, determinism, statistics --------------------------------------------------------


@pytest.fixture(scope="module")
def midgame(en_words: WordGraph) -> PlayerView:
    game = advanced_game(find_edition("en"), en_words, 2, seed=11, turns=6)
    assert not game.over and game.bag_count > 20
    return game.view(game.to_move)


def test_a_work_limit_bounds_the_iterations(midgame: PlayerView, en_words: WordGraph) -> None:
    # Two candidates and no dropping before 50 iterations: every iteration costs the same,
    # the opponent's reply and ours for each candidate.
    player = SimPlayer(en_words, seed=4, candidates=2, min_iterations=50, inference=False)
    small = player.analyse(midgame, Limit(work=60))
    large = player.analyse(midgame, Limit(work=201))
    assert len(small.candidates) == 2
    assert (small.iterations, small.work) == (15, 60)
    assert (large.iterations, large.work) == (50, 200)
    assert small.stopped == large.stopped == "work"
    assert all(c.iterations == large.iterations for c in large.candidates)
    # Inference takes its share of the work first: a tenth, one equity choice a leave tried.
    player = SimPlayer(en_words, seed=4, candidates=2, min_iterations=50)
    inferred = player.analyse(midgame, Limit(work=60))
    assert inferred.inferred is not None and 1 <= inferred.inferred.tries <= 6
    assert inferred.work + inferred.inferred.tries <= 60
    assert inferred.iterations == (60 - inferred.inferred.tries) // 4


def test_a_short_limit_cuts_the_candidates(midgame: PlayerView, en_words: WordGraph) -> None:
    """Work for 50 simulated plays, ten candidates at two plays each: after the first
    iteration (20), the 30 left give 15 rollouts, enough for two candidates to reach
    ``min_iterations`` (8) and no more: the other eight are dropped."""
    result = SimPlayer(en_words, seed=4, inference=False).analyse(midgame, Limit(work=50))
    assert len(result.candidates) == 10 and result.work <= 50
    assert sorted(c.iterations for c in result.candidates)[:9] == [1] * 8 + [8]
    assert result.iterations == 8 and result.work == 20 + 7 * 4


def test_no_work_at_all_gives_equity_s_choice(midgame: PlayerView, en_words: WordGraph) -> None:
    result = SimPlayer(en_words, seed=4).analyse(midgame, Limit(work=1))
    assert result.iterations == 0 and result.stopped == "work"
    assert result.best.choice == EquityPlayer(en_words).choose(midgame)
    assert math.isnan(result.best.spread)


def test_the_same_seed_and_work_give_the_same_simulation(
    midgame: PlayerView, en_words: WordGraph
) -> None:
    a = SimPlayer(en_words, seed=9).analyse(midgame, Limit(work=300))
    b = SimPlayer(en_words, seed=9).analyse(midgame, Limit(work=300))
    assert a.iterations > 0
    assert without_time(a) == without_time(b)
    # The player keeps nothing between choices that changes the next one.
    player = SimPlayer(en_words, seed=9)
    player.analyse(midgame, Limit(work=100))
    assert without_time(player.analyse(midgame, Limit(work=300))) == without_time(a)


def test_the_statistics(midgame: PlayerView, en_words: WordGraph) -> None:
    result = SimPlayer(en_words, seed=5).analyse(midgame, Limit(work=600))
    assert result.iterations >= 2 and result.work <= 600
    survivors = [c for c in result.candidates if not c.pruned]
    assert survivors and result.candidates[: len(survivors)] == tuple(survivors)
    # The choice first (the leader, or equity's favourite when the leader is not clearly
    # better), then the other survivors by value.
    rest = [c.value for c in survivors[1:]]
    assert rest == sorted(rest, reverse=True)
    for c in result.candidates:
        assert 2 <= c.iterations <= result.iterations
        assert c.pruned or c.iterations == result.iterations
        assert 0.0 <= c.win <= 1.0
        assert c.value == pytest.approx(c.win + 0.001 * c.spread)
        assert math.isfinite(c.spread_stderr) and c.spread_stderr >= 0
    assert result.best.choice == SimPlayer(en_words, seed=5).choose(midgame, Limit(work=600))


def test_a_time_limit_stops_it(midgame: PlayerView, en_words: WordGraph) -> None:
    result = SimPlayer(en_words, seed=6, min_iterations=10**6).analyse(
        midgame, Limit(seconds=0.2))
    assert result.stopped == "time"  # nothing else stops it: no work bound, no dropping


def test_without_a_limit_a_default_amount_of_work(midgame: PlayerView,
                                                 en_words: WordGraph) -> None:
    from letras.ai.sim import DEFAULT_LIMIT

    assert DEFAULT_LIMIT.work is not None and DEFAULT_LIMIT.seconds is None
    result = SimPlayer(en_words, seed=6).analyse(midgame)
    assert 0 < result.work <= DEFAULT_LIMIT.work


def test_with_the_bag_empty_it_plays_each_candidate_out_once() -> None:
    """The opponent's T goes out only through HIT. Equity takes QI for 21 and lets it; sim,
    knowing every tile, plays each candidate to the end once and finds the block (HIS: the T
    is stuck and QI goes out next), the exact search's play and value."""
    en = find_edition("en")
    words = WordGraph.build(en, ["HI", "HIT", "HIS", "QI"])
    board = Board(en)
    board.put(Place.parse("8H HI", en).placed())
    view = crafted_view(en, board, "QS", ["T"], "")
    assert EquityPlayer(words).choose(view).notation(en) == "I7 Q."
    result = SimPlayer(words, seed=1).analyse(view, Limit(work=500))
    assert result.stopped == "exact" and result.iterations == 1
    by = {c.choice.notation(en): c for c in result.candidates}
    # QI 21, HIT goes out for 6 and takes our S: 21 - 1 against 6 + 1.
    assert by["I7 Q."].spread == 13 and by["I7 Q."].win == 1.0
    exact = solve(EndgamePosition(board, view.rack, en.tiles.parse("T"), en.rules), words)
    assert result.best.choice.notation(en) == "8H ..S"
    assert result.best.spread == exact.value == 29
    assert by["-"].spread < 0


def test_with_the_bag_empty_a_small_limit_simulates_the_best_that_fit(
    en_words: WordGraph,
) -> None:
    """With the bag empty the one iteration must fit the work: a limit that cannot pay for
    every candidate's rollout to the end keeps the equity player's best, as many as fit (a
    rollout's cost guessed at END_PLIES / 2 replies), instead of simulating none."""
    from letras.ai.sim.player import END_CANDIDATES
    from letras.ai.sim.rollouts import END_PLIES

    game = play_until_bag_empty(find_edition("en"), 5, en_words)
    assert not game.over and game.bag_count == 0
    view = game.view(game.to_move)
    equity = EquityPlayer(en_words)
    ranked = [c.choice for c in equity.ranked(view, END_CANDIDATES)]
    fit = 10
    assert len(ranked) > fit
    small = SimPlayer(en_words, seed=1).analyse(view, Limit(work=fit * END_PLIES // 2))
    assert small.stopped == "exact" and small.iterations == 1
    assert {c.choice for c in small.candidates} == set(ranked[:fit])
    whole = SimPlayer(en_words, seed=1).analyse(view, Limit(work=END_CANDIDATES * END_PLIES))
    assert len(whole.candidates) == len(ranked)
    # The same deal for both (every tile is known): the larger set can only do better.
    assert whole.best.value >= small.best.value


def test_with_the_bag_empty_and_two_opponents_it_samples_their_racks(
    en_words: WordGraph,
) -> None:
    en = find_edition("en")
    board = Board(en)
    board[Square.parse("H8")] = en.tiles.code("A")
    view = crafted_view(en, board, "BDT", ["EIO", "SRN"], "")
    result = SimPlayer(en_words, seed=1).analyse(view, Limit(work=300))
    assert result.stopped == "work" and result.iterations >= 2
    # Rollouts to the end vary in length: an iteration's cost is a guess from the last ones.
    assert 300 - 30 < result.work < 300 + 30
    assert all(c.iterations >= 2 for c in result.candidates[:2])


# ----- inference -----------------------------------------------------------------------------


def _game_views(en_words: WordGraph, seed: int, turns: int) -> list[tuple[Game, PlayerView]]:
    """Views of an equity self-play game with the game behind each (copies)."""
    game = Game(find_edition("en"), ["P0", "P1"], seed=seed, lexicon=en_words)
    equity = EquityPlayer(en_words)
    out = []
    while not game.over and len(game.turns) < turns:
        if game.challengeable is not None:
            game.accept()
            continue
        view = game.view(game.to_move)
        out.append((game.replay(len(game.moves)), view))
        game.apply(equity.choose(view))
    return out


@pytest.mark.slow
def test_inference_keeps_leaves_the_last_play_agrees_with(en_words: WordGraph) -> None:
    equity = EquityPlayer(en_words)
    inferred = rejected = 0
    for game, view in _game_views(en_words, seed=4, turns=16):
        last = LastPlay.of(view)
        if last is None:
            continue
        # The leave the opponent really kept agrees: they are the equity player.
        before = list(game.turns[-1].rack or ())
        for t in last.played:
            before.remove(t)
        assert last.agrees(before, equity)
        found = infer_leaves(view, equity, random.Random(1), 30, math.inf)
        if found is None:  # no leave tried agreed: possible when few do
            continue
        assert found.seat == last.seat and 1 <= found.tries <= 30
        unseen = Counter({t: n for t, n in enumerate(view.unseen) if n})
        for leave in set(found.leaves):
            assert len(leave) == last.leave_size and not Counter(leave) - unseen
            assert last.agrees(leave, equity)
        inferred += 1
        rejected += found.tries - len(set(found.leaves))
    assert inferred >= 4 and rejected > 0  # leaves were ruled out


def test_nothing_is_inferred_without_a_play_to_learn_from(en_words: WordGraph) -> None:
    en = find_edition("en")
    equity = EquityPlayer(en_words)
    game = next(g for g in (Game(en, ["P0", "P1"], seed=s, lexicon=en_words) for s in range(9))
                if isinstance(equity.choose(g.view(0)), Place))
    game.apply(equity.choose(game.view(0)))
    if game.challengeable is not None:
        game.accept()
    assert LastPlay.of(game.view(1)) is not None
    game.exchange(game.rack(1)[:2])  # an exchange tells what was thrown, not what was kept
    assert LastPlay.of(game.view(0)) is None
    view = crafted_view(en, Board(en), "BDT", ["EIO"], "AEIRSTU")  # no turns yet
    assert LastPlay.of(view) is None
    three = advanced_game(en, en_words, 3, seed=2, turns=4)
    assert LastPlay.of(three.view(three.to_move)) is None  # for two players only
    assert infer_leaves(view, equity, random.Random(1), 30, math.inf) is None


def test_the_deals_give_the_opponent_an_inferred_leave(en_words: WordGraph) -> None:
    for _, view in _game_views(en_words, seed=4, turns=16):
        found = infer_leaves(view, EquityPlayer(en_words), random.Random(2), 30, math.inf)
        if found is None:
            continue
        rollouts = Rollouts(view, en_words, HeuristicLeaves(view.edition), {}, 2,
                            found.leaves)
        rng = random.Random(3)
        for _ in range(20):
            deal = rollouts.deal(rng)
            rack = deal.racks[found.seat]
            assert any(not Counter(leave) - Counter(rack) for leave in found.leaves)
            # Tiles are neither made nor lost: the opponent's rack and the bag are the unseen.
            hidden = Counter(rack) + Counter(deal.bag)
            assert hidden == Counter({t: n for t, n in enumerate(view.unseen) if n})
            assert sorted(deal.racks[view.player]) == sorted(view.rack)
        return
    raise AssertionError("no position to infer from")


# ----- hidden information ---------------------------------------------------------------------


def test_the_choice_depends_only_on_the_view(en_words: WordGraph) -> None:
    game = advanced_game(find_edition("en"), en_words, 2, seed=21, turns=5)
    me = game.to_move
    other = 1 - me
    twin = hidden_twin(game, other, en_words)
    assert twin.rack(other) != game.rack(other) and twin.view(me) == game.view(me)
    a = SimPlayer(en_words, seed=5).analyse(game.view(me), Limit(work=200))
    b = SimPlayer(en_words, seed=5).analyse(twin.view(me), Limit(work=200))
    assert a.iterations > 0 and without_time(a) == without_time(b)


# ----- players and editions -------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_two_to_four_players(seats: int, en_words: WordGraph) -> None:
    en = find_edition("en")
    for seed in range(2):
        game = advanced_game(en, en_words, seats, seed=seed, turns=3 * seats)
        view = game.view(game.to_move)
        result = SimPlayer(en_words, seed=seed).analyse(view, Limit(work=40 * seats))
        assert result.iterations >= 1 or result.stopped == "one candidate"
        assert_legal(view, result.best.choice, en_words)
        game.apply(result.best.choice)  # the game takes it


@pytest.mark.slow
@pytest.mark.parametrize("name", list(editions()))
def test_every_edition(name: str) -> None:
    edition = find_edition(name)
    lexicon = small_lexicon(name)
    player = get_player("sim", lexicon, seed=3)
    assert isinstance(player, SimPlayer) and "sim" in levels()
    for seed in range(2):
        game = advanced_game(edition, lexicon, 2, seed=seed, turns=4 * seed)
        view = game.view(game.to_move)
        action = player.choose(view, Limit(work=60))
        assert_legal(view, action, lexicon)
        game.apply(action)


# ----- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "message"),
    [({"candidates": 0}, "at least one candidate"),
     ({"plies": -1}, "plies"),
     ({"equity_window": -5.0}, "equity window"),
     ({"min_iterations": 1}, "at least 2 iterations")],
)
def test_bad_settings_are_refused(settings: dict[str, float], message: str,
                                  en_words: WordGraph) -> None:
    with pytest.raises(SimError, match=message):
        SimPlayer(en_words, **settings)  # type: ignore[arg-type]


def test_views_that_cannot_be_simulated_are_refused(midgame: PlayerView,
                                                    en_words: WordGraph) -> None:
    player = SimPlayer(en_words, seed=1)
    wrong_turn = dataclasses.replace(midgame, player=1 - midgame.to_move)
    with pytest.raises(SimError, match=r"it is not P\d's turn"):
        player.analyse(wrong_turn, Limit(work=10))
    unseen = list(midgame.unseen)
    unseen[1] += 1
    with pytest.raises(SimError, match="does not add up"):
        player.analyse(dataclasses.replace(midgame, unseen=tuple(unseen)), Limit(work=10))
    with pytest.raises(SimError, match="over"):
        player.analyse(dataclasses.replace(midgame, over=True), Limit(work=10))
