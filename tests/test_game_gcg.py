"""A game written as GCG replays, through the independent GCG checker, with every score agreeing."""

from __future__ import annotations

import random

import pytest

from helpers import AnyWord, placements_for
from letras.editions import find_edition
from letras.formats.game_gcg import game_to_gcg
from letras.formats.gcg import EventKind, read_gcg
from letras.formats.gcg_check import check_gcg, replay_gcg
from letras.game import Game


def random_game(edition: str, rule: str, seed: int, players: int = 2) -> Game:
    ed = find_edition(edition)
    game = Game(ed, [f"Player {i}" for i in range(players)], seed=seed,
                rules=ed.rules.replace(challenge_rule=rule), lexicon=AnyWord())
    rng = random.Random(seed)
    while not game.over:
        if game.challengeable and rng.random() < 0.3:
            game.challenge(valid=rng.random() < 0.5)
            continue
        last = (game.to_move - 1) % players
        if game.challengeable and not game.bag_count and not game.rack(last):
            game.accept()
            continue
        roll = rng.random()
        if roll < 0.05:
            game.pass_turn()
        elif roll < 0.1 and game.bag_count >= 7:
            game.exchange(game.rack(game.to_move)[:3])
        else:
            place = placements_for(game.board, game.rack(game.to_move), rng)
            game.play(place) if place else game.pass_turn()
    return game


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
