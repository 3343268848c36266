"""A game written as GCG replays, through the GCG check, with every score agreeing, and reads
back as the same game (Game.from_gcg)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from helpers import AnyWord, placements_for
from letras.editions import CHALLENGE_RULES, TimeControl, find_edition
from letras.formats.game_gcg import game_to_gcg, game_to_record
from letras.formats.gcg import EventKind, read_gcg, write_gcg
from letras.formats.gcg_check import check_gcg, replay_gcg
from letras.formats.gcg_rules import LOST_TURN_NOTE
from letras.game import Game
from letras.play import Place


def random_game(edition: str, rule: str, seed: int, players: int = 2,
                **options: Any) -> Game:
    """A game of random plays (words not checked): challenges by any other player that find
    the play a phony or let it stand, passes, exchanges; in some games everyone passes once
    the bag is empty, so that the game ends by passes instead of by going out. ``options``
    change rule options; a ``seconds`` option gives each turn a random thinking time up to
    that."""
    ed = find_edition(edition)
    seconds = options.pop("seconds", 0)
    game = Game(ed, [f"Player {i}" for i in range(players)], seed=seed,
                rules=ed.rules.replace(challenge_rule=rule, **options), lexicon=AnyWord())
    rng = random.Random(seed)
    idle = rng.random() < 0.4
    while not game.over:
        used = rng.uniform(0, seconds) if seconds else None
        if game.challengeable and rng.random() < 0.3:
            by = rng.choice([p for p in range(players) if p != game.pending_player])
            game.challenge(by, valid=rng.random() < 0.5)
            continue
        if game.pending_goes_out:
            game.accept()
            continue
        roll = rng.random()
        if roll < 0.05 or (idle and not game.bag_count):
            game.pass_turn(seconds=used)
        elif roll < 0.1 and game.bag_count >= 14:
            game.exchange(game.rack(game.to_move)[:3], seconds=used)
        else:
            place = placements_for(game.board, game.rack(game.to_move), rng)
            if place:
                game.play(place, seconds=used)
            else:
                game.pass_turn(seconds=used)
    return game


def assert_reads_back(game: Game) -> None:
    """The record checks clean and reads back as the same game."""
    text = game_to_gcg(game)
    record = read_gcg(text)
    assert not [e for e in record.errors if not e.is_notice]
    assert [str(d) for d in check_gcg(record)] == []
    assert list(record.totals().values()) == list(game.scores)
    again = Game.from_gcg(text, lexicon=AnyWord())
    assert again.scores == game.scores
    assert again.board == game.board
    assert (again.over, again.end_reason) == (game.over, game.end_reason)
    assert [(t.player, t.kind, t.points) for t in again.turns] == [
        (t.player, t.kind, t.points) for t in game.turns
    ]


@pytest.mark.parametrize("rule", ["void", "single", "double", "5pt", "10pt"])
@pytest.mark.parametrize("edition", ["en", "pt-BR", "es"])
def test_finished_games_check_clean(edition: str, rule: str) -> None:
    for seed in range(3):
        game = random_game(edition, rule, seed)
        record = read_gcg(game_to_gcg(game))
        assert not [e for e in record.errors if not e.is_notice]
        assert record.edition.name == edition
        assert check_gcg(record) == []
        replay = replay_gcg(record)
        assert replay.board == game.board
        spread = game.scores[0] - game.scores[1]
        totals = list(record.totals().values())
        assert totals[0] - totals[1] == spread
        kinds = {e.kind for e in record.events}
        assert EventKind.PLAY in kinds


def test_three_players_write_each_rack_penalty() -> None:
    game = random_game("en", "void", 1, players=3)
    record = read_gcg(game_to_gcg(game))
    assert list(record.totals().values()) == list(game.scores)
    if game.end_reason == "out":
        assert sum(e.kind is EventKind.END_PENALTY for e in record.events) >= 1


# --- what the record says, and that it replays --------------------------------------------


def test_the_end_is_the_final_count_of_the_rule_sheets() -> None:
    # Two players: the one who went out gains the other's rack once, and the other loses it.
    game = next(g for seed in range(40)
                if (g := random_game("en", "void", seed)).end_reason == "out")
    record = read_gcg(game_to_gcg(game))
    out = [e for e in record.events if e.kind is EventKind.END_POINTS]
    penalty = [e for e in record.events if e.kind is EventKind.END_PENALTY]
    assert len(out) == 1 and len(penalty) == 1
    assert out[0].score == -penalty[0].score > 0
    assert list(record.totals().values()) == list(game.scores)
    assert check_gcg(record) == []


def test_the_two_player_convention_of_other_programs_checks_too() -> None:
    game = next(g for seed in range(40)
                if (g := random_game("en", "double", seed)).end_reason == "out")
    record = game_to_record(game)
    penalty = next(e for e in record.events if e.kind is EventKind.END_PENALTY)
    out = next(e for e in record.events if e.kind is EventKind.END_POINTS)
    winner = [p.nickname for p in record.players].index(out.player)
    # As Quackle writes it: no line for the loser, twice the loser's rack to the winner.
    record.events.remove(penalty)
    out.score *= 2
    out.total = game.scores[winner] - penalty.score
    doubled = read_gcg(write_gcg(record))
    assert check_gcg(doubled) == []
    again = Game.from_gcg(write_gcg(record), lexicon=AnyWord())
    assert again.scores == game.scores  # the game counts the rule sheets' way
    # Both conventions at once count the rack three times.
    record.events.insert(record.events.index(out), penalty)
    found = [str(d) for d in check_gcg(read_gcg(write_gcg(record)))]
    assert any("scores" in d for d in found), found


def test_the_italian_challenge_penalty_checks() -> None:
    games = [random_game("it", "penalty10", seed, players) for seed in range(6)
             for players in (2, 3)]
    records = [read_gcg(game_to_gcg(g)) for g in games]
    penalties = [e for r in records for e in r.events
                 if e.kind is EventKind.CHALLENGE_BONUS and e.score == -10]
    assert len(penalties) >= 3
    for game, record in zip(games, records, strict=True):
        assert check_gcg(record) == []
        assert Game.from_gcg(write_gcg(record), lexicon=AnyWord()).scores == game.scores


def test_a_withdrawn_phony_follows_its_play_and_lost_turns_say_what_was_challenged() -> None:
    lost = withdrawn = 0
    for seed in range(12):
        game = random_game("pt-BR", "double", seed, 3 + seed % 2)
        record = read_gcg(game_to_gcg(game))
        for i, event in enumerate(record.events):
            if event.kind is EventKind.WITHDRAWN:
                withdrawn += 1
                before = record.events[i - 1]
                assert (before.kind, before.player) == (EventKind.PLAY, event.player)
            notes = [n for n in event.notes if n.startswith(LOST_TURN_NOTE)]
            if notes:
                lost += 1
                assert event.kind is EventKind.PASS
                challenged = notes[0][len(LOST_TURN_NOTE):]
                assert any(
                    isinstance(e.action, Place) and f"{e.action.coordinate()} " in challenged
                    for e in record.events[:i] if e.player != event.player
                )
        assert_reads_back(game)
    assert lost >= 5 and withdrawn >= 5


def test_the_rules_and_the_clock_travel_with_the_record() -> None:
    # A game clock of 20 seconds runs over: time penalties; Italian 3 minutes a move: timeouts.
    clock = [random_game("en", "5pt", seed, 2, seconds=2.0,
                         time_control=TimeControl("game", 20, 10)) for seed in range(4)]
    limit = [random_game("it", "penalty10", seed, 3, seconds=200.0) for seed in range(2)]
    ended = [random_game("es", "single", seed, 2, pass_rounds_to_end=0,
                         scoreless_turns_to_end=6) for seed in range(3)]
    kinds = Counter(t.kind for g in clock + limit + ended for t in g.turns)
    assert kinds["time-penalty"] and kinds["timeout"]
    assert any(g.end_reason == "scoreless" for g in ended)
    for game in clock + limit + ended:
        assert_reads_back(game)


@pytest.mark.slow
def test_many_random_games_check_clean_and_read_back() -> None:
    # Every edition, 2 to 4 players, every challenge rule: phonies challenged off, failed
    # challenges, exchanges, passes, games that end by going out and by passes.
    kinds: Counter[str] = Counter()
    ends: Counter[str | None] = Counter()
    for edition in ("pt-BR", "es", "it", "en"):
        for rule in CHALLENGE_RULES:
            for players in (2, 3, 4):
                for seed in range(4):
                    game = random_game(edition, rule, 100 * seed + players, players)
                    kinds.update(t.kind for t in game.turns)
                    ends[game.end_reason] += 1
                    assert_reads_back(game)
    assert ends["out"] and ends["passes"]
    for kind in ("withdrawn", "challenge-bonus", "challenge-penalty", "lost-turn",
                 "exchange", "pass", "end-rack", "rack-penalty"):
        assert kinds[kind] >= 10, kind


def test_a_few_random_games_of_each_size_read_back() -> None:
    for players, rule in ((2, "double"), (3, "5pt"), (4, "single")):
        for seed in range(2):
            assert_reads_back(random_game("en", rule, seed, players))
