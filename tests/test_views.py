"""Views that can leave the process: a seat's and a spectator's view as JSON, checked against
the schema shipped in the package, over many random games; never another seat's rack nor the
game's seed."""

from __future__ import annotations

import json
import random

import jsonschema
import pytest

from helpers import placements_for
from letras.editions import find_edition
from letras.formats.views import view_schema
from letras.game import Game
from letras.tiles import rack_tile

EDITIONS = ("pt-BR", "es", "it", "en")


def random_game(edition_name: str, seats: int, seed: int, turns: int) -> Game:
    """A game of random plays (words not checked), exchanges, passes and challenges."""
    edition = find_edition(edition_name)
    rules = edition.rules.replace(challenge_rule=("double", "single", "5pt")[seed % 3])
    game = Game(edition, [f"P{i}" for i in range(seats)], seed=seed, rules=rules)
    rng = random.Random(seed)
    for _ in range(turns):
        if game.over:
            break
        if game.pending_goes_out:
            game.accept()
            continue
        roll = rng.random()
        if game.pending_player is not None and roll < 0.15:
            by = next(p for p in range(seats) if p != game.pending_player)
            game.challenge(by, valid=rng.random() < 0.5)
            continue
        seat = game.to_move
        place = placements_for(game.board, game.rack(seat), rng)
        if roll < 0.25 and game.bag_count >= 7:
            game.exchange(game.rack(seat)[:3])
        elif place is None or roll < 0.3:
            game.pass_turn()
        else:
            game.play(place)
    return game


def hidden_racks(game: Game, viewer: int | None) -> list[tuple[int, ...]]:
    return [game.rack(p) for p in range(len(game.players)) if p != viewer]


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_view_matches_the_schema_and_hides_what_it_must(edition: str) -> None:
    schema = view_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for seed in range(6):
        seats = 2 + seed % 3
        game = random_game(edition, seats, seed=10_000_019 * (seed + 1), turns=12 + 7 * seed)
        for k in range(0, len(game.moves) + 1, 3):
            position = game.replay(k)
            views = [position.view(p) for p in range(seats)] + [position.spectator_view()]
            for view in views:
                data = view.to_dict()
                validator.validate(data)
                text = json.dumps(data, ensure_ascii=False)
                assert str(game.seed) not in text
                assert json.loads(text) == data
                seat = data["seat"]
                for turn in data["turns"]:
                    if turn["player"] != seat and turn["kind"] not in (
                            "end-rack", "rack-penalty"):
                        assert "rack" not in turn
                        if turn["kind"] == "exchange":
                            assert "tiles" not in turn and turn["count"] > 0
                if seat is None:
                    assert "rack" not in data
                else:
                    assert data["rack"] == [view.edition.tiles.label(t)
                                            for t in position.rack(seat)]
                # The unseen tiles: the bag and every rack the view does not hold.
                unseen = sum(data["unseen"]["tiles"].values())
                assert unseen == data["unseen"]["count"] == position.bag_count + sum(
                    len(r) for r in hidden_racks(position, seat))
                counts = data["unseen"]
                assert counts["vowels"] + counts["consonants"] + counts["blanks"] == unseen
                # The counts the next player faces: a waiting play counted as drawn.
                assert data["bag"] + sum(p["rack_count"] for p in data["players"]) == (
                    position.bag_count + sum(len(position.rack(p)) for p in range(seats)))


def test_a_spectator_sees_no_rack() -> None:
    game = random_game("pt-BR", 3, seed=5, turns=10)
    view = game.spectator_view()
    assert not hasattr(view, "rack")
    unseen = list(game.edition.tiles.counts)
    for _, t in game.board.tiles():
        unseen[rack_tile(t)] -= 1
    assert list(view.unseen) == unseen  # the bag and every rack
    assert all(t.rack is None for t in view.turns)
    assert view.to_dict()["seat"] is None


def test_the_view_of_a_waiting_play_and_its_position() -> None:
    game = Game("pt-BR", ["Ana", "Bruno"], seed=2026)
    game.play("8G MUDO")
    data = game.view(1).to_dict()
    assert data["pending"] == {"player": 0, "play": "8G MUDO"}
    assert data["turns"][0]["words"] == [{"word": "MUDO", "score": 10}]
    assert data["turns"][0]["text"] == "MUDO 10 = 10"
    assert "rack" not in data["turns"][0]  # Ana's rack, in Bruno's view
    assert "rack" in game.view(0).to_dict()["turns"][0]
    assert data["bag"] == 120 - 14 - 4 and data["players"][0]["rack_count"] == 7
    assert data["board"][7] == "......MUDO....."
    assert data["premiums"][7][7] == "*"
    cgp = data["cgp"].split()
    assert cgp[1] == "".join(data["rack"]) + "/"  # Bruno's rack only, Bruno to move first
    assert cgp[2] == "0/10"


def test_spanish_boards_are_lists_of_labels() -> None:
    game = Game("es", ["Ana", "Bruno"], seed=1)
    rows = game.view(0).to_dict()["board"]
    assert isinstance(rows[0], list) and len(rows[0]) == 15 and rows[0][0] == "."


@pytest.mark.parametrize("edition", EDITIONS)
def test_public_records_hold_no_other_rack_and_no_seed(edition: str) -> None:
    from letras.formats.gcg import EventKind, read_gcg
    from letras.formats.public import public_dict, public_gcg

    for seed in range(4):
        seats = 2 + seed % 3
        game = random_game(edition, seats, seed=20_000_003 * (seed + 1), turns=30)
        for k in range(1, len(game.moves) + 1, 4):
            position = game.replay(k)
            for seat in [*range(seats), None]:
                text = public_gcg(position, seat)
                data = public_dict(position, seat)
                for shown in (text, json.dumps(data)):
                    assert str(game.seed) not in shown and "letras-game" not in shown
                record = read_gcg(text, position.edition)
                nicks = [p.nickname for p in record.players]
                own = nicks[seat] if seat is not None else None
                assert len(record.events) == len([e for e in record.events])
                for event in record.events:
                    if event.player != own and not position.over:
                        assert event.rack is None
                        if event.kind is EventKind.EXCHANGE:
                            assert event.action is not None
                            assert not getattr(event.action, "tiles", ())
                for turn in data["turns"]:
                    if turn["player"] != seat and not position.over and turn["kind"] in (
                            "play", "exchange", "pass"):
                        assert "rack" not in turn and "tiles" not in turn
                # The public record says the same as the view: its plays, scores, totals.
                assert [t["total"] for t in data["turns"]] == [t.total for t in position.turns]
