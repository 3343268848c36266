"""Invariants over random games: tiles are never created or lost, scores add up, saves replay."""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import AnyWord, placements_for
from letras.editions import CHALLENGE_RULES, find_edition
from letras.errors import LetrasError
from letras.game import Game
from letras.tiles import rack_tile


def tile_counts(game: Game) -> list[int]:
    """Every tile accounted for: board + racks + the bag's real contents."""
    counts = game._s.bag.counts(len(game.edition.tiles.labels))
    for _, t in game.board.tiles():
        counts[rack_tile(t)] += 1
    for p in range(len(game.players)):
        for t in game.rack(p):
            counts[t] += 1
    return counts


def test_unseen_tiles_are_the_bag_and_the_other_racks() -> None:
    game = Game("en", ["A", "B", "C"], seed=1)
    bag = game._s.bag.counts(len(game.edition.tiles.labels))
    for p in (1, 2):
        for t in game.rack(p):
            bag[t] += 1
    assert list(game.view(0).unseen) == bag


@settings(max_examples=60, deadline=None)
@given(
    edition=st.sampled_from(["pt-BR", "es", "it", "en"]),
    players=st.integers(2, 4),
    rule=st.sampled_from(CHALLENGE_RULES),
    seed=st.integers(0, 2**32),
    steps=st.integers(1, 60),
)
def test_random_games_keep_every_tile_and_add_up(
    edition: str, players: int, rule: str, seed: int, steps: int
) -> None:
    ed = find_edition(edition)
    game = Game(ed, [f"P{i}" for i in range(players)], seed=seed,
                rules=ed.rules.replace(challenge_rule=rule), lexicon=AnyWord())
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        roll = rng.random()
        try:
            if game.challengeable and roll < 0.25:
                challenger = rng.choice([p for p in range(players)
                                         if p != (game.to_move - 1) % players])
                game.challenge(by=challenger, valid=rng.random() < 0.5)
            elif roll < 0.1:
                game.pass_turn()
            elif roll < 0.2:
                rack = list(game.rack(game.to_move))
                game.exchange(rng.sample(rack, rng.randint(1, len(rack))) if rack else [])
            else:
                place = placements_for(game.board, game.rack(game.to_move), rng)
                if place is None:
                    game.pass_turn()
                else:
                    game.play(place)
        except LetrasError:
            pass  # a refused action (exchange with a short bag, an out-play awaiting accept)
        assert tile_counts(game) == list(ed.tiles.counts)
        assert all(len(game.rack(p)) <= ed.rack_size for p in range(players))
        for p in range(players):
            events = [t.points for t in game.turns if t.player == p]
            assert sum(events) == game.scores[p]
            lines = [t.total for t in game.turns if t.player == p]
            if lines:
                assert lines[-1] == game.scores[p]
    loaded = Game.from_json(game.to_json())
    assert loaded.scores == game.scores and loaded.turns == game.turns
    assert loaded.board == game.board and loaded.to_move == game.to_move
    assert all(loaded.rack(p) == game.rack(p) for p in range(players))


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=20), seed=st.integers(0, 50))
def test_malformed_input_raises_our_error_and_changes_nothing(text: str, seed: int) -> None:
    game = Game("es", ["Ana", "Bruno"], seed=seed)
    game.pass_turn()
    before = (game.to_json(), game.board.squares, game.scores, game.rack(0), game.rack(1))
    for action in (game.play, game.exchange):
        try:
            action(text)
        except LetrasError:
            pass
        else:  # a text that happens to be a legal action: undo it for the next check
            game = game.replay(1)
        assert (game.to_json(), game.board.squares, game.scores, game.rack(0),
                game.rack(1)) == before
    with contextlib.suppress(LetrasError):
        Game.from_json(text)
