"""The game: the draw, turns, exchanges, passes, challenges, the end, time, saving, views."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from helpers import AnyWord, placements_for
from letras.board import Direction, Square
from letras.editions import TOURNAMENT, RuleOptions, TimeControl, find_edition
from letras.errors import FormatError, IllegalPlayError, NotationError, RuleError
from letras.game import Game
from letras.lexicon import WordList
from letras.play import Exchange, Pass, Place
from letras.tiles import BLANK, BLANK_BIT

EN = find_edition("en")
PT = find_edition("pt-BR")


def first_play(game: Game) -> Place:
    """Two tiles of the mover's rack across from H8 (a blank stands for A)."""
    rack = game.rack(game.to_move)
    tiles = tuple(t if t != BLANK else 1 | BLANK_BIT for t in rack[:2])
    return Place(Square(7, 7), Direction.ACROSS, tiles)


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.to_json(),
        game.scores,
        game.to_move,
        game.bag_count,
        tuple(game.rack(p) for p in range(len(game.players))),
        game.board.squares,
        game.turns,
    )


def test_first_player_draw_lowest_tile_starts() -> None:
    for seed in range(40):
        game = Game(EN, ["A", "B", "C", "D"], seed=seed)
        last = game.first_draw[-1]
        winner, tile = last[0]
        assert tile == min(t for _, t in last)
        assert [t for _, t in last].count(tile) == 1
        assert game.to_move == winner
        for earlier in game.first_draw[:-1]:
            low = min(t for _, t in earlier)
            assert sum(1 for _, t in earlier if t == low) >= 2
            tied = {p for p, t in earlier if t == low}
            assert tied >= {p for p, _ in game.first_draw[game.first_draw.index(earlier) + 1]}


def test_a_tie_draws_again_and_blank_beats_a() -> None:
    seen_tie = seen_blank = False
    for seed in range(300):
        game = Game(PT, ["A", "B", "C", "D"], seed=seed)
        seen_tie |= len(game.first_draw) > 1
        if game.first_draw[-1][0][1] == BLANK:
            seen_blank = True
            assert game.to_move == game.first_draw[-1][0][0]
    assert seen_tie and seen_blank


def test_deal_gives_seven_each_and_the_same_seed_the_same_game() -> None:
    a = Game(PT, ["Ana", "Bruno", "Caio"], seed="x")
    b = Game(PT, ["Ana", "Bruno", "Caio"], seed="x")
    assert [len(a.rack(p)) for p in range(3)] == [7, 7, 7]
    assert a.bag_count == 120 - 21
    assert [a.rack(p) for p in range(3)] == [b.rack(p) for p in range(3)]
    assert a.to_move == b.to_move


@pytest.mark.parametrize("n", [1, 5])
def test_player_count_is_checked(n: int) -> None:
    with pytest.raises(RuleError, match="2 to 4"):
        Game(EN, [f"P{i}" for i in range(n)])


def test_wrong_turn_is_refused_and_changes_nothing() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=3)
    before = snapshot(game)
    other = 1 - game.to_move
    with pytest.raises(RuleError, match="turn"):
        game.apply(Pass(), other)
    assert snapshot(game) == before


def test_illegal_plays_change_nothing() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=3, lexicon=WordList(EN, []))
    before = snapshot(game)
    rack = game.rack(game.to_move)
    with pytest.raises(IllegalPlayError) as e:
        game.play(Place(Square(0, 0), Direction.ACROSS, rack[:2]))
    assert e.value.reason == "first-play-centre"
    missing = next(t for t in EN.tiles.letters if t not in rack)
    with pytest.raises(IllegalPlayError) as e:
        game.play(Place(Square(7, 7), Direction.ACROSS, (missing, missing)))
    assert e.value.reason == "not-on-rack"
    with pytest.raises(NotationError):
        game.play("8H QQ1")
    assert snapshot(game) == before


def test_exchange_draws_then_returns_and_keeps_tile_count() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=5)
    mover = game.to_move
    rack = game.rack(mover)
    turn = game.exchange(rack[:3])
    assert turn.kind == "exchange" and turn.count == 3
    assert len(game.rack(mover)) == 7
    assert game.bag_count == 100 - 14
    assert game.to_move != mover


def test_exchange_needs_enough_tiles_in_the_bag() -> None:
    rules = EN.rules.replace(exchange_min_bag=87)
    game = Game(EN, ["Ana", "Bruno"], seed=5, rules=rules)
    before = snapshot(game)
    with pytest.raises(RuleError, match="at least 87"):
        game.exchange(game.rack(game.to_move)[:1])
    assert snapshot(game) == before
    with pytest.raises(RuleError, match="cannot exchange"):
        Game(EN, ["Ana", "Bruno"], seed=5).apply(Exchange((BLANK,) * 3))


def play_phony(rule: str, players: int = 2) -> Game:
    rules = EN.rules.replace(challenge_rule=rule)
    game = Game(EN, [f"P{i}" for i in range(players)], seed=11, rules=rules, lexicon=AnyWord())
    game.play(first_play(game))
    return game


def test_successful_challenge_withdraws_the_play() -> None:
    for rule in ("single", "double", "5pt", "10pt", "penalty10"):
        game = play_phony(rule)
        mover = 1 - game.to_move
        rack = game.rack(mover)
        bag = game.bag_count
        assert len(rack) == 5  # no draw while the play may be challenged
        turn = game.challenge(valid=False)
        assert turn is not None and turn.kind == "withdrawn"
        assert game.scores == (0, 0)
        assert game.board.is_empty()
        assert len(game.rack(mover)) == 7 and game.bag_count == bag
        assert game.to_move == 1 - mover


@pytest.mark.parametrize(
    ("rule", "mover_gain", "challenger_loss", "challenger_moves_next"),
    [("single", 0, 0, True), ("double", 0, 0, False), ("5pt", 5, 0, True),
     ("10pt", 10, 0, True), ("penalty10", 0, 10, True)],
)
def test_failed_challenge_costs_by_rule(
    rule: str, mover_gain: int, challenger_loss: int, challenger_moves_next: bool
) -> None:
    game = play_phony(rule)
    challenger = game.to_move
    mover = 1 - challenger
    points = game.scores[mover]
    game.challenge(valid=True)
    assert game.scores[mover] == points + mover_gain
    assert game.scores[challenger] == -challenger_loss
    assert len(game.rack(mover)) == 7  # the play stands and its player draws
    assert (game.to_move == challenger) is challenger_moves_next


def test_challenge_judged_by_the_lexicon() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=11)
    place = first_play(game)
    word = EN.tiles.word(place.tiles)
    good = Game(EN, ["Ana", "Bruno"], seed=11, lexicon=WordList(EN, [word]))
    good.play(place)
    assert good.challenge() is not None and good.turns[-1].kind == "lost-turn"
    bad = Game(EN, ["Ana", "Bruno"], seed=11, lexicon=WordList(EN, ["ZZZ"]))
    bad.play(place)
    assert bad.challenge() is not None and bad.turns[-1].kind == "withdrawn"
    assert bad.moves[-1].valid is False  # the verdict is kept in the history


def test_who_may_challenge() -> None:
    game = play_phony("double")
    mover = 1 - game.to_move
    with pytest.raises(RuleError, match="own play"):
        game.challenge(by=mover)
    game.accept()
    with pytest.raises(RuleError, match="no play"):
        game.challenge()
    void = play_phony("void")
    with pytest.raises(RuleError, match="void"):
        void.challenge()


def test_any_other_player_may_challenge_and_the_double_penalty_waits_for_their_turn() -> None:
    game = play_phony("double", players=3)
    mover = (game.to_move - 1) % 3
    third = (game.to_move + 1) % 3
    game.challenge(by=third, valid=True)
    nxt = game.to_move
    assert nxt == (mover + 1) % 3
    game.pass_turn()
    # the third player's turn is lost: play goes round to the mover
    assert game.to_move == mover
    assert game.turns[-1].kind == "lost-turn" and game.turns[-1].player == third


def test_void_rule_refuses_invalid_words_and_names_them() -> None:
    rules = EN.rules.replace(challenge_rule="void")
    game = Game(EN, ["Ana", "Bruno"], seed=11, rules=rules, lexicon=WordList(EN, []))
    before = snapshot(game)
    with pytest.raises(IllegalPlayError) as e:
        game.play(first_play(game))
    assert e.value.reason == "invalid-words" and len(e.value.invalid_words) == 1
    assert snapshot(game) == before
    word = EN.tiles.word(first_play(game).tiles)
    game = Game(EN, ["Ana", "Bruno"], seed=11, rules=rules, lexicon=WordList(EN, [word]))
    mover = game.to_move
    game.play(first_play(game))
    assert len(game.rack(mover)) == 7 and game.challengeable is None


def test_game_ends_after_two_rounds_of_passes_with_rack_penalties() -> None:
    game = Game(EN, ["Ana", "Bruno", "Caio"], seed=2)
    for _ in range(5):
        game.pass_turn()
    assert not game.over
    racks = [game.rack(p) for p in range(3)]
    game.pass_turn()
    assert game.over and game.end_reason == "passes"
    assert game.scores == tuple(-sum(EN.tiles.values[t] for t in r) for r in racks)
    with pytest.raises(RuleError, match="over"):
        game.pass_turn()


def test_exchanges_do_not_count_as_passes_unless_the_option_says_so() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=2)
    game.pass_turn()
    game.pass_turn()
    game.exchange(game.rack(game.to_move)[:1])
    game.pass_turn()
    game.pass_turn()
    assert not game.over
    rules = EN.rules.replace(exchange_counts_as_pass=True)
    game = Game(EN, ["Ana", "Bruno"], seed=2, rules=rules)
    for _ in range(3):
        game.exchange(game.rack(game.to_move)[:1])
    game.pass_turn()
    assert game.end_reason == "passes"


def test_scoreless_turns_option() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=2, rules=TOURNAMENT)
    for i in range(6):
        assert not game.over
        if i % 2:
            game.exchange(game.rack(game.to_move)[:2])
        else:
            game.pass_turn()
    assert game.end_reason == "scoreless"


def test_no_play_possible_hook() -> None:
    calls: list[int] = []

    def nobody_can_play(game: Game) -> bool:
        calls.append(game.bag_count)
        return True

    game = Game(EN, ["Ana", "Bruno"], seed=2, no_play_possible=nobody_can_play)
    game.pass_turn()
    assert not game.over and not calls  # exchanges are still possible
    rules = EN.rules.replace(exchange_min_bag=100)
    game = Game(EN, ["Ana", "Bruno"], seed=2, rules=rules, no_play_possible=nobody_can_play)
    game.pass_turn()
    assert game.end_reason == "no-play" and calls


def play_to_the_end(game: Game, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not game.over:
        place = placements_for(game.board, game.rack(game.to_move), rng)
        if place is None:
            game.pass_turn()
        else:
            game.play(place)


def test_a_player_goes_out_and_gains_the_other_racks() -> None:
    for seed in range(3):
        game = Game(EN, ["Ana", "Bruno"], seed=seed, rules=EN.rules.replace(challenge_rule="void"),
                    lexicon=AnyWord())
        play_to_the_end(game, seed)
        if game.end_reason != "out":
            continue
        out = next(t for t in game.turns if t.kind == "end-rack")
        other = 1 - out.player
        assert game.rack(out.player) == ()
        assert out.points == sum(EN.tiles.values[t] for t in game.rack(other))
        penalty = next(t for t in game.turns if t.kind == "rack-penalty")
        assert penalty.player == other and penalty.points == -out.points
        return
    pytest.fail("no game went out")


def test_an_out_play_waits_for_a_challenge_then_ends() -> None:
    for seed in range(10):
        game = Game(EN, ["Ana", "Bruno"], seed=seed)
        rng = random.Random(seed)
        while not game.over:
            if game.challengeable and not game.rack(1 - game.to_move) and not game.bag_count:
                with pytest.raises(RuleError, match="challenge it or accept"):
                    game.pass_turn()
                assert not game.over
                game.accept()
                assert game.end_reason == "out"
                return
            place = placements_for(game.board, game.rack(game.to_move), rng)
            game.play(place) if place else game.pass_turn()
    pytest.fail("no game went out")


def test_per_move_time_limit_loses_the_turn() -> None:
    rules = EN.rules.replace(time_control=TimeControl("move", 60))
    game = Game(EN, ["Ana", "Bruno"], seed=2, rules=rules)
    mover = game.to_move
    turn = game.play(first_play(game), seconds=61)
    assert turn.kind == "timeout"
    assert game.board.is_empty() and game.to_move != mover and len(game.rack(mover)) == 7


def test_game_clock_penalty_per_started_minute() -> None:
    rules = EN.rules.replace(time_control=TimeControl("game", 60))
    game = Game(EN, ["Ana", "Bruno"], seed=2, rules=rules)
    first = game.to_move
    game.pass_turn(seconds=121)  # 61 s over: two started minutes
    for _ in range(3):
        game.pass_turn(seconds=1)
    assert game.over
    penalty = [t for t in game.turns if t.kind == "time-penalty"]
    assert [(t.player, t.points) for t in penalty] == [(first, -20)]


def test_json_save_and_load_round_trip() -> None:
    game = Game(PT, ["Ana", "Bruno", "Caio"], seed=9)
    rng = random.Random(1)
    for _ in range(12):
        place = placements_for(game.board, game.rack(game.to_move), rng)
        game.play(place) if place else game.pass_turn()
        if rng.random() < 0.3 and game.challengeable:
            game.challenge(valid=rng.random() < 0.5)
    loaded = Game.from_json(game.to_json())
    assert snapshot(loaded) == snapshot(game)


@pytest.mark.parametrize(
    "text",
    ["", "[]", "{}", '{"format": "letras-game"}', '{"format": "other"}',
     '{"format": "letras-game", "version": 1, "edition": "xx", "rules": {}, "players": [],'
     ' "seed": 1, "moves": []}'],
)
def test_bad_saved_games_are_refused(text: str) -> None:
    with pytest.raises(FormatError):
        Game.from_json(text)


def test_a_saved_game_with_an_impossible_move_is_refused() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=9)
    data = game.to_dict()
    data["moves"] = [{"player": 1 - game.to_move, "type": "pass"}]
    with pytest.raises(FormatError, match="move 1"):
        Game.from_dict(data)


def test_replay_gives_each_earlier_position() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=4)
    positions = [snapshot(game)[1:]]
    rng = random.Random(4)
    for _ in range(8):
        place = placements_for(game.board, game.rack(game.to_move), rng)
        game.play(place) if place else game.pass_turn()
        positions.append(snapshot(game)[1:])
    for n, position in enumerate(positions):
        assert snapshot(game.replay(n))[1:] == position


def test_a_view_shows_only_what_the_player_may_see() -> None:
    game = Game(EN, ["Ana", "Bruno", "Caio"], seed=6)
    rng = random.Random(6)
    for _ in range(6):
        place = placements_for(game.board, game.rack(game.to_move), rng)
        game.play(place) if place else game.exchange(game.rack(game.to_move)[:2])
    for p in range(3):
        view = game.view(p)
        assert view.rack == game.rack(p)
        # The last play waits for a challenge: its player has not drawn yet, and the view
        # counts the tiles as drawn (what the next player faces).
        waiting = game.pending_player
        assert waiting is not None
        draw = min(game.bag_count, 7 - len(game.rack(waiting)))
        assert draw > 0
        assert view.rack_counts == tuple(len(game.rack(q)) + (draw if q == waiting else 0)
                                         for q in range(3))
        assert view.bag_count == game.bag_count - draw
        others = [t for q in range(3) if q != p for t in game.rack(q)]
        assert sum(view.unseen) == game.bag_count + len(others)
        own_draw = view.rack_counts[p] - len(view.rack)  # the waiting player's own draw
        assert sum(view.unseen) == view.bag_count + own_draw + sum(
            n for q, n in enumerate(view.rack_counts) if q != p)
        for t in view.turns:
            if t.player != p:
                assert t.rack is None
                if t.kind == "exchange":
                    assert t.tiles == () and t.count > 0
        assert not hasattr(view, "bag")
        assert not any(isinstance(v, list) for v in vars(view).values())


def test_rule_options_reject_unknown_challenge_rules() -> None:
    with pytest.raises(ValueError, match="challenge_rule"):
        RuleOptions(challenge_rule=cast(Any, "triple"))  # a value from outside the types


def test_no_play_possible_by_default_uses_the_move_generator() -> None:
    from letras.lexicon.kwg import WordGraph

    graph = WordGraph.build(EN, ["QI", "ZA"])
    rules = EN.rules.replace(exchange_min_bag=100)  # exchanges impossible from the start
    for seed in range(20):
        game = Game(EN, ["Ana", "Bruno"], seed=seed, lexicon=graph, rules=rules)
        racks = [set(EN.tiles.format(game.rack(p), rack=True)) for p in (0, 1)]
        someone_can = any({"Q", "I"} <= r or {"Z", "A"} <= r or ("?" in r and r & set("QIZA"))
                          for r in racks)
        game.pass_turn()
        assert (game.end_reason == "no-play") is (not someone_can)
        if game.over:
            loaded = Game.from_json(game.to_json(), lexicon=AnyWord())  # replay needs no lookup
            assert loaded.end_reason == "no-play" and loaded.scores == game.scores
            return
    pytest.fail("every seed dealt a playable rack")


def test_asking_for_a_seat_that_does_not_exist_is_refused() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=1)
    for bad in (-1, 2):
        with pytest.raises(RuleError, match="no player"):
            game.view(bad)
        with pytest.raises(RuleError, match="no player"):
            game.rack(bad)
        with pytest.raises(RuleError, match="no player"):
            game.apply(Pass(), bad)


def test_an_exchange_never_takes_more_tiles_than_the_bag_holds() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=3, rules=EN.rules.replace(exchange_min_bag=0))
    rng = random.Random(3)
    while game.bag_count >= 7 and not game.over:
        place = placements_for(game.board, game.rack(game.to_move), rng)
        game.play(place) if place else game.pass_turn()
    if game.challengeable is not None:
        game.accept()
    assert not game.over and 0 < game.bag_count < 7
    rack, bag = game.rack(game.to_move), game.bag_count
    with pytest.raises(RuleError) as e:
        game.exchange(rack[: bag + 1])
    assert e.value.key == "exchange.bag" and e.value.values == {"min": bag + 1, "n": bag}
    assert game.rack(game.to_move) == rack and game.bag_count == bag
    game.exchange(rack[:bag])  # as many as the bag holds: allowed under this rule
    assert game.bag_count == bag
