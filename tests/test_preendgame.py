"""The pre-endgame (two players, one tile in the bag): its values agree with a brute force
that tries every play and every bag tile and solves each line with the Python reference
search (:class:`letras.ai.endgame.search.Search`); it is deterministic for a work limit, and
looks only at the view (the result does not change when the hidden tiles are swapped)."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from helpers import PRE_WORDS, brute_force, exact_value, note_board, pre_view, without
from letras.ai import BestPlayer
from letras.ai.endgame import EndgamePosition
from letras.ai.endgame import preendgame as pe
from letras.ai.equity import EquityPlayer
from letras.ai.player import NO_LIMIT, Limit
from letras.editions import find_edition
from letras.game import Game
from letras.lexicon.kwg import WordGraph
from letras.movegen import generate
from letras.play import Pass, Place
from letras.tiles import BLANK_BIT

EN = find_edition("en")


@pytest.fixture
def every_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every play a candidate, every reply considered after a pass."""
    monkeypatch.setattr(pe, "BY_EQUITY", 1000)
    monkeypatch.setattr(pe, "BY_SCORE", 1000)
    monkeypatch.setattr(pe, "PASS_REPLIES", 1000)


@pytest.mark.parametrize(("rack", "opponent", "bag", "scores"), [
    ("AS", "ET", "O", (0, 0)),
    ("TE", "AS", "N", (5, 0)),
    ("OS", "TAE", "E", (0, 12)),
    ("NAT", "ES", "O", (0, 0)),
])
def test_values_agree_with_a_brute_force_over_every_bag_tile(
    every_play: None, rack: str, opponent: str, bag: str, scores: tuple[int, int]
) -> None:
    words = WordGraph.build(EN, PRE_WORDS)
    view = pre_view(note_board(), rack, opponent, bag, scores)
    expected = brute_force(view, words)
    result = pe.solve_preendgame(view, words)
    assert result.exact
    # every tile play is a candidate, solved exactly, with one line per distinct unseen tile
    # weighted by its count; its values are the brute force's
    tiles = Counter(t for t, n in enumerate(view.unseen) for _ in range(n))
    got = {c.choice: c for c in result.candidates}
    assert set(expected) <= set(got)
    for place, (wins, spread) in expected.items():
        c = got[place]
        assert c.exact
        assert {line.tile: line.weight for line in c.lines} == dict(tiles)
        assert (c.wins, c.spread) == pytest.approx((wins, spread))
    # the choice is the best by win chance, then spread (the pass may beat every play)
    best = result.candidates[0]
    top = max(expected.values())
    if isinstance(best.choice, Pass):
        assert (best.wins, best.spread) >= top
    else:
        assert isinstance(best.choice, Place)
        assert expected[best.choice] == pytest.approx(top)


def test_the_pass_counts_the_opponents_best_reply(every_play: None) -> None:
    """After a pass the opponent, holding the bag tile's complement, plays its best reply
    (then the mover faces an exact endgame) or passes back; checked against the same
    construction with the reference search."""
    words = WordGraph.build(EN, PRE_WORDS)
    view = pre_view(note_board(), "TE", "AS", "O")
    result = pe.solve_preendgame(view, words)
    passed = next(c for c in result.candidates if isinstance(c.choice, Pass))
    plays = brute_force(view, words)
    unseen = tuple(t for t, n in enumerate(view.unseen) for _ in range(n))
    best_play = next(c for c in result.candidates if not isinstance(c.choice, Pass))
    for line in passed.lines:
        opponent = without(unseen, [line.tile])
        replies = generate(view.board, opponent, words, bingo_bonus=EN.rules.bingo_bonus)
        back = next(b.value for b in best_play.lines if b.tile == line.tile)
        worst = back
        for i in range(len(replies)):
            place = replies.place(i)
            board = view.board.copy()
            board.put(place.placed())
            kept = without(opponent, [0 if t & BLANK_BIT else t for t in place.tiles if t])
            position = EndgamePosition(board, view.rack, (*kept, line.tile), EN.rules, 0,
                                       0 if replies.score(i) else 2)
            worst = min(worst, exact_value(position, words) - replies.score(i))
        assert line.value == worst
    assert plays  # (the rack has plays: the pass was compared with them)


def test_a_pass_that_ends_the_game_counts_both_racks() -> None:
    words = WordGraph.build(EN, PRE_WORDS)
    # three passes in a row already: a fourth ends the game (two rounds of passes)
    view = pre_view(note_board(), "QZ", "ET", "O", passes=3)
    result = pe.solve_preendgame(view, words)
    passed = next(c for c in result.candidates if isinstance(c.choice, Pass))
    values = EN.tiles.values
    rack_value = sum(values[t] for t in view.rack)
    for line in passed.lines:
        opponent = [t for t, n in enumerate(view.unseen) for _ in range(n)]
        opponent.remove(line.tile)
        assert line.value == sum(values[t] for t in opponent) - rack_value
        assert line.exact


def preendgame_game(seed: int, words: WordGraph) -> Game | None:
    """A seeded game of equity plays, steered to leave exactly one tile in the bag."""
    game = Game(EN, ["a", "b"], seed=seed, lexicon=words)
    player = EquityPlayer(words)
    while not game.over and game.bag_count > 1:
        if game.challengeable is not None:
            game.accept()
            continue
        view = game.view(game.to_move)
        choice = player.choose(view)
        if view.bag_count <= 7:
            fits = [c.choice for c in player.ranked(view, 200) if isinstance(c.choice, Place)
                    and sum(1 for t in c.choice.tiles if t) == view.bag_count - 1]
            if not fits:
                return None
            choice = fits[0]
        game.apply(choice)
    if game.challengeable is not None and not game.over:
        game.accept()
    if game.over or game.bag_count != 1:
        return None
    return game


def real_position(words: WordGraph) -> Game:
    for seed in range(1, 20):
        game = preendgame_game(seed, words)
        if game is not None:
            return game
    raise AssertionError("no seeded game reached one tile in the bag")


@pytest.mark.slow
def test_deterministic_and_blind_to_the_hidden_tiles(en_words: WordGraph) -> None:
    game = real_position(en_words)
    mover = game.to_move
    view = game.view(mover)
    assert pe.applies(view)
    limit = Limit(work=30_000)
    first = pe.solve_preendgame(view, en_words, limit)
    again = pe.solve_preendgame(view, en_words, limit)
    assert first.candidates == again.candidates
    assert first.best == again.best
    # every unseen tile is tried as the bag tile, weighted by its count
    unseen = Counter(t for t, n in enumerate(view.unseen) for _ in range(n))
    for c in first.candidates[:3]:
        assert {line.tile: line.weight for line in c.lines} == dict(unseen)
    # swap the bag tile with a different tile of the opponent's rack: the mover's view, and
    # so the search, do not change
    swapped = copy.deepcopy(game)
    state = swapped._s  # the table's hidden state, for this test only
    bag_tile = state.bag._tiles[0]
    rack = state.racks[1 - mover]
    k = next((i for i, t in enumerate(rack) if t != bag_tile), None)
    if k is not None:
        state.bag._tiles[0], rack[k] = rack[k], bag_tile
        assert swapped.rack(1 - mover) != game.rack(1 - mover)
    other = pe.solve_preendgame(swapped.view(mover), en_words, limit)
    assert other.candidates == first.candidates
    # and the best level uses it there
    best = BestPlayer(en_words)
    assert best.stage(view) == "preendgame"
    assert best.choose(view, limit) == first.best


@pytest.mark.slow
def test_a_retargeted_search_finds_what_fresh_searches_find(en_words: WordGraph) -> None:
    """One compiled search retargeted from line to line, its table and cache of plays kept,
    finds the exact values that a fresh search per position finds (on real boards, racks of
    a few tiles drawn from one multiset, every way of dealing it)."""
    from itertools import combinations

    from helpers import play_until_bag_empty
    from letras.ai.endgame.compiled import CompiledSearch

    checked = 0
    for seed in range(3):
        game = play_until_bag_empty(EN, seed, en_words)
        if game.over:
            continue
        tiles = tuple(sorted(game.rack(game.to_move)[:3] + game.rack(1 - game.to_move)[:2]))
        shared: CompiledSearch | None = None
        deals = sorted({tuple(sorted(c)) for c in combinations(tiles, 2)})
        for other in deals:
            mine = without(tiles, other)
            for rack, opponent in ((mine, other), (other, mine)):
                position = EndgamePosition(game.board, rack, opponent, EN.rules)
                fresh = CompiledSearch(position, en_words, NO_LIMIT).run()
                if shared is None:
                    shared = CompiledSearch(position, en_words, NO_LIMIT, tiles=tiles)
                shared.retarget(position, NO_LIMIT)
                value, exact, _ = shared.evaluate()
                assert fresh.exact and exact
                assert value == fresh.value
                checked += 1
    assert checked >= 10
