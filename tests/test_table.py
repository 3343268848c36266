"""The table under every front end (letras.table): whose turn, challenge windows for every other
person, the computer's moves and challenges, settling a play that goes out, undo, clocks, hints
and the events a front end shows."""

from __future__ import annotations

import json
import random

import pytest

from helpers import phony_first_play
from letras.ai import get_player
from letras.editions import TimeControl, find_edition
from letras.errors import LetrasError, RuleError
from letras.game import Game, Player
from letras.i18n import languages, messages
from letras.lexicon.kwg import WordGraph
from letras.play import Exchange, Pass, Place
from letras.table import Event, Table, TableError, describe, describe_all

EN = find_edition("en")


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def phony(game: Game, graph: WordGraph, seat: int) -> Place:
    return Place.parse(phony_first_play(game, graph, seat), game.edition)


def best(game: Game, graph: WordGraph, seat: int) -> Place | Exchange | Pass:
    return get_player("greedy", graph).choose(game.view(seat))


def test_every_other_person_may_challenge_before_the_computer_moves(en_words: WordGraph) -> None:
    game = Game(EN, [Player("Ana"), Player("Bruno"), Player("Bot", "ai:greedy")], seed=4,
                lexicon=en_words)
    table = Table(game, en_words)
    while game.to_move != 1:  # Bruno to move: the computer moves after him
        step = table.step()
        table.ai_turn() if step.kind == "ai" else table.act(step.seat or 0, Pass())
    events = table.act(1, best(game, en_words, 1))
    assert [e.key for e in events] == ["event.play"]
    step = table.step()
    assert step.kind == "window" and step.seat == 1 and step.may_challenge == (0,)
    with pytest.raises(TableError) as refused:  # the computer waits for Ana
        table.ai_turn()
    assert refused.value.key == "table.not_ai"
    with pytest.raises(RuleError) as wrong:
        table.act(1, Pass())
    assert wrong.value.key == "rule.not_your_turn"
    assert table.accept(0) == []
    assert table.step().kind == "ai"


def test_a_failed_challenge_in_the_window_costs_the_next_turn(en_words: WordGraph) -> None:
    game = Game(EN, [Player("Ana"), Player("Bruno"), Player("Bot", "ai:greedy")], seed=11,
                lexicon=en_words)
    table = Table(game, en_words)
    while game.to_move != 1:
        step = table.step()
        table.ai_turn() if step.kind == "ai" else table.act(step.seat or 0, Pass())
    player, challenger = 1, 0
    table.act(player, best(game, en_words, player))
    events = table.challenge(challenger)
    keys = [e.key for e in events]
    assert keys[:2] == ["challenge.by", "challenge.lost"]
    assert "challenge.lose_next" in keys
    assert events[0].data["challenged"] == player and events[0].data["words"] == []
    assert table.step().kind == "ai"  # the play stands: the computer moves
    table.ai_turn()
    kinds = [t.kind for t in game.turns[-2:]]
    assert kinds == ["play", "lost-turn"] and game.turns[-1].player == challenger


def test_the_computer_challenges_a_persons_phony(en_words: WordGraph) -> None:
    game = Game(EN, [Player("Ana"), Player("Bot", "ai:greedy")], seed=1, lexicon=en_words)
    table = Table(game, en_words)
    seat = game.to_move
    assert seat == 0
    place = phony(game, en_words, 0)
    events = table.act(0, place)
    keys = [e.key for e in events]
    assert keys == ["event.play", "challenge.by_ai", "challenge.won", "event.withdrawn"]
    assert events[1].data["name"] == "Bot" and events[1].data["words"]
    assert game.scores == (0, 0) and game.board.is_empty()
    assert table.step().kind == "ai"
    assert table.log[-4:] == events


def test_refusals_carry_their_key_and_change_nothing(en_words: WordGraph) -> None:
    game = Game(EN, [Player("Ana"), Player("Bruno")], seed=1, lexicon=en_words,
                rules=EN.rules.replace(exchange_min_bag=95))
    table = Table(game, en_words)
    other = 1 - game.to_move
    with pytest.raises(RuleError) as e:
        table.act(other, Pass())
    assert e.value.key == "rule.not_your_turn"
    assert e.value.values == {"name": game.player_names[game.to_move],
                              "player": game.player_names[other]}
    with pytest.raises(RuleError) as bag:
        table.act(game.to_move, Exchange(game.rack(game.to_move)[:1]))
    assert bag.value.key == "exchange.bag" and bag.value.values == {"n": 86, "min": 95}
    with pytest.raises(TableError) as nothing:
        table.challenge(other)
    assert nothing.value.key == "challenge.nothing"
    with pytest.raises(LetrasError) as illegal:
        table.act(game.to_move, "1A " + EN.tiles.format(game.rack(game.to_move)[:2]))
    assert illegal.value.key == "illegal.first-play-centre"
    assert illegal.value.values["square"] == "H8"
    with pytest.raises(LetrasError) as notation:
        table.act(game.to_move, "Z99 CASA")
    assert notation.value.key == "play.bad_coordinate"
    assert notation.value.values == {"coord": "Z99"}
    with pytest.raises(LetrasError) as letter:
        table.act(game.to_move, "8H CAÇA")
    assert letter.value.key == "play.bad_letter" and letter.value.values["letter"] == "Ç"
    assert game.moves == () and table.log == []
    for language in languages():  # every refusal says itself in every language
        t = messages(language)
        for err in (e.value, bag.value, nothing.value, illegal.value, notation.value,
                    letter.value):
            assert t.has(err.key)
            assert t(err.key, **err.values)


def test_a_play_that_goes_out_waits_for_the_people_then_the_count(en_words: WordGraph) -> None:
    # Two computers play to the end; one person watches: the last play waits for them.
    game = Game(EN, [Player("Ana"), Player("Bot", "ai:greedy"), Player("Cy", "ai:greedy")],
                seed=3, lexicon=en_words)
    table = Table(game, en_words)
    settled = False
    for _ in range(200):
        step = table.step()
        if step.kind == "over":
            break
        if step.kind == "settle":
            assert step.may_challenge == (0,) and step.seat != 0
            events = table.accept(0)
            settled = True
            assert events[0].key == "end.reason.out"
        elif step.kind == "ai":
            table.ai_turn()
        elif step.kind == "window":
            table.accept(0)
        else:
            table.act(0, best(game, en_words, 0))
    assert game.over and settled
    end = [e for e in table.log if e.key.startswith(("end.", "count."))]
    lines = [e for e in end if e.key == "count.line"]
    assert [e.data["final"] for e in lines] == list(game.scores)
    for e in lines:
        assert e.data["before"] + sum(c["points"] for c in e.data["changes"]) == e.data["final"]
    assert end[-1].key in ("count.winner", "count.tie")
    text = describe_all(end, messages("pt-BR"))
    assert text[1] == "Contagem final:" and len(text) == 6


def test_a_play_that_goes_out_against_computers_only_is_accepted_by_itself(
    en_words: WordGraph,
) -> None:
    # When Ana goes out nobody may challenge her (the computer judged her words): the play
    # is accepted by itself. When the computer goes out, Ana is asked.
    outs = []
    for seed in range(1, 40):
        game = Game(EN, [Player("Ana"), Player("Bot", "ai:greedy")], seed=seed,
                    lexicon=en_words)
        table = Table(game, en_words)
        while not game.over:
            step = table.step()
            if step.kind == "ai":
                table.ai_turn()
            elif step.kind == "settle":
                assert step.seat == 1 and step.may_challenge == (0,)
                table.accept(0)
            else:
                table.act(0, best(game, en_words, 0))
        assert table.step().kind == "over"
        assert sum(e.key.startswith("end.reason.") for e in table.log) == 1
        if game.end_reason == "out":
            outs.append(next(t.player for t in game.turns if t.kind == "end-rack"))
        if 0 in outs and 1 in outs:
            break
    assert 0 in outs and 1 in outs


def test_undo_takes_back_the_person_and_the_computer_only(en_words: WordGraph) -> None:
    game = Game(EN, [Player("Ana"), Player("Bot", "ai:greedy")], seed=1, lexicon=en_words)
    table = Table(game, en_words)
    rack = game.rack(0)
    table.act(0, best(game, en_words, 0))
    table.ai_turn()
    assert len(table.game.moves) >= 2
    [done] = table.undo(0)
    assert done.key == "undo.done" and done.data["n"] >= 2
    assert describe(done, messages("en")) == f"Taken back ({done.data['n']} moves)."
    assert describe(Event("undo.done", {"player": 0, "n": 1}), messages("pt-BR")) == (
        "Desfeito (1 lance).")
    assert table.game.moves == () and table.game.rack(0) == rack
    with pytest.raises(TableError) as e:
        table.undo(0)
    assert e.value.key == "undo.none"
    people = Game(EN, ["Ana", "Bruno"], seed=1, lexicon=en_words)
    two = Table(people, en_words)
    two.act(people.to_move, Pass())
    with pytest.raises(TableError):
        two.undo(people.to_move)  # the other person's pass came last: not theirs to undo
    clocked = Game(EN, ["Ana", "Bruno"], seed=1, lexicon=en_words,
                   rules=EN.rules.replace(time_control=TimeControl.parse("25m")))
    timed = Table(clocked, en_words)
    timed.act(clocked.to_move, Pass())
    with pytest.raises(TableError) as e:
        timed.undo(1 - clocked.to_move)
    assert e.value.key == "undo.clock"


def test_the_table_keeps_the_clocks(en_words: WordGraph) -> None:
    now = FakeClock()
    game = Game(EN, ["Ana", "Bruno"], seed=1, lexicon=en_words,
                rules=EN.rules.replace(time_control=TimeControl.parse("25m")))
    table = Table(game, en_words, now=now)
    first = game.to_move
    now.t += 90
    clock = table.clock(first)
    assert clock.used == 90 and clock.left == 1500 - 90 and not clock.warning
    assert table.clock(1 - first).used == 0  # only the seat to move runs
    table.act(first, Pass())
    assert game.clocks[first] == 90
    now.t += 1400
    assert table.clock(1 - first).warning and table.clock(1 - first).left == 100
    per_move = Game(EN, ["Ana", "Bruno"], seed=1, lexicon=en_words,
                    rules=EN.rules.replace(time_control=TimeControl.parse("move:60s")))
    moving = Table(per_move, en_words, now=now)
    now.t += 50
    clock = moving.clock(per_move.to_move)
    assert clock.move_left == 10 and clock.warning
    now.t += 20
    moving.act(per_move.to_move, Pass())
    assert per_move.turns[-1].kind == "timeout"  # over the limit: the turn is lost


def test_the_computers_share_of_a_game_clock(en_words: WordGraph) -> None:
    game = Game(EN, [Player("Ana"), Player("Bot", "ai:greedy")], seed=1, lexicon=en_words,
                rules=EN.rules.replace(time_control=TimeControl.parse("2m")))
    table = Table(game, en_words, ai_seconds=30)
    assert table.ai_time(1) < 120 / 10
    no_clock = Table(Game(EN, [Player("Ana"), Player("Bot", "ai:greedy")], seed=1,
                          lexicon=en_words), en_words, ai_seconds=30)
    assert no_clock.ai_time(1) == 30


def test_a_computer_move_the_game_refuses_becomes_a_pass(en_words: WordGraph) -> None:
    game = Game(EN, [Player("Bot", "ai:greedy"), Player("Ana")], seed=2, lexicon=en_words)
    table = Table(game, en_words)
    if table.step().kind != "ai":
        table.act(game.to_move, Pass())
    seat = table.step().seat
    assert seat is not None and table.step().kind == "ai"
    events = table.ai_apply(seat, Place.parse("1A ZZZZZ", EN))
    assert [e.key for e in events] == ["ai.refused", "event.pass"]
    assert set(events[0].data) == {"player", "name", "refused"}  # no English text: no rack
    assert events[0].data["refused"].startswith("illegal.")
    assert game.turns[-1].kind == "pass"
    with pytest.raises(TableError):
        table.ai_apply(seat, Pass())  # not its turn now


def test_hints_are_the_best_plays_with_their_leaves(en_words: WordGraph) -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=1, lexicon=en_words)
    table = Table(game, en_words)
    hints = table.hints(game.to_move, 3)
    assert len(hints) == 3 and hints[0].points >= hints[1].points >= hints[2].points
    rack = list(game.rack(game.to_move))
    for hint in hints:
        assert len(hint.leave) + hint.place.tile_count == len(rack)
    with pytest.raises(TableError):
        table.hints(game.to_move, 0)


def test_confirming_a_word_outside_the_lexicon_against_casual_levels(
    en_words: WordGraph,
) -> None:
    game = Game(EN, [Player("Ana"), Player("Bot", "ai:easy")], seed=1, lexicon=en_words)
    table = Table(game, en_words)
    assert table.confirm_unknown_words
    place = phony(game, en_words, 0)
    assert table.unknown_words(place) == (EN.tiles.word(
        [t for _, t in place.placed()]),)
    assert game.moves == ()
    assert not Table(Game(EN, ["Ana", "Bruno", Player("Bot", "ai:easy")], seed=1,
                          lexicon=en_words), en_words).confirm_unknown_words
    assert not Table(Game(EN, ["Ana", Player("Bot", "ai:best")], seed=1, lexicon=en_words),
                     en_words).confirm_unknown_words


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_events_are_public_data_in_every_language(en_words: WordGraph, seed: int) -> None:
    rng = random.Random(seed)
    seats = [Player("Ana"), Player("Bruno"), Player("Bot", "ai:greedy")][: 2 + seed % 2]
    game = Game(EN, seats, seed=seed, lexicon=en_words,
                rules=EN.rules.replace(challenge_rule=["double", "single", "5pt"][seed - 1]))
    table = Table(game, en_words)
    while not game.over:
        step = table.step()
        if step.kind == "ai":
            table.ai_turn()
        elif step.kind in ("window", "settle"):
            who = step.may_challenge[0]
            table.challenge(who) if rng.random() < 0.2 else table.accept(who)
        else:
            seat = step.seat
            assert seat is not None
            roll = rng.random()
            try:
                if roll < 0.1 and game.bag_count >= 7:
                    table.act(seat, Exchange(game.rack(seat)[:2]))
                elif roll < 0.2 and game.pending_player not in (None, seat):
                    table.challenge(seat)
                else:
                    table.act(seat, best(game, en_words, seat))
            except LetrasError:
                table.act(seat, Pass())
    exchanged = {t for turn in game.turns if turn.kind == "exchange" for t in turn.tiles}
    assert table.log
    for event in table.log:
        assert isinstance(event, Event)
        text = json.dumps(event.to_dict())
        assert json.loads(text) == event.to_dict()
        assert "rack" not in event.data
        if event.key == "event.exchange":
            assert set(event.data) == {"player", "name", "count"}
        for language in languages():
            assert describe(event, messages(language))
    assert exchanged is not None
