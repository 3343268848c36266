"""The Italian sheet's late challenge (S4: "Se un giocatore piazza una parola sbagliata senza
essere sfidato, può sfidarla quando un altro giocatore la completa"): a wrong word that stood
is challenged when a later play extends it; the extender takes the tiles back and plays
again, without losing the turn."""

from __future__ import annotations

from letras.editions import find_edition
from letras.game import Game
from letras.history import Move
from letras.lexicon import WordList
from letras.play import Challenge, Place
from letras.rules import extends_wrong_words

IT = find_edition("it")
WORDS = ["CASA", "CASE", "ORA", "ORE", "RE", "AI", "ARE", "TRE"]


def extended(edition_rules: dict[str, object] | None = None) -> tuple[Game, int, int]:
    """Ana's wrong CAS stood; Bruno made it CASI (wrong too): the game before the challenge,
    Ana's seat and Bruno's."""
    rules = IT.rules.replace(**(edition_rules or {}))
    game = Game(IT, ["Ana", "Bruno"], seed=3, lexicon=WordList(IT, WORDS), rules=rules)
    ana = game.to_move
    bruno = 1 - ana
    tiles = IT.tiles
    game.follow(Move(ana, Place.parse("8H CAS", IT), rack=tiles.parse("CASORTE", rack=True)))
    game.follow(Move(bruno, Place.parse("8H CASI", IT, game.board),
                     rack=tiles.parse("IEOURNL", rack=True)))
    return game, ana, bruno


def test_the_extender_takes_the_tiles_back_and_plays_again() -> None:
    game, ana, bruno = extended()
    assert IT.rules.late_challenge
    score_before = game.scores[bruno] - game.turns[-1].points
    rack_before = game.rack(bruno)
    game.apply(Challenge(), ana)
    assert game.turns[-1].kind == "withdrawn" and game.turns[-1].player == bruno
    assert game.to_move == bruno  # Bruno keeps the turn
    assert game.scores[bruno] == score_before
    assert sorted(game.rack(bruno)) == sorted([*rack_before, IT.tiles.parse("I")[0]])
    assert game.board[Place.parse("8K A", IT).square] == 0  # the I is off the board
    assert game.moves[-1].kept is True and game.moves[-1].valid is False
    assert not any(t.kind in ("lost-turn", "challenge-penalty") for t in game.turns)
    # Bruno plays elsewhere (a good word this time), and then it is Ana's turn.
    game.apply(Place.parse("9H ORE", IT, game.board), bruno)
    assert game.pending_player == bruno and game.to_move == ana


def test_the_verdict_is_stored_and_replays_without_the_lexicon() -> None:
    game, ana, _ = extended()
    game.apply(Challenge(), ana)
    saved = game.to_dict()
    assert saved["moves"][-1] == {"player": ana, "type": "challenge", "valid": False,
                                  "kept": True}
    again = Game.from_dict(saved)  # no lexicon: the stored verdict decides
    assert again.to_move == game.to_move and again.scores == game.scores
    assert again.turns == game.turns


def test_without_the_rule_the_extender_loses_the_turn() -> None:
    game, ana, _ = extended({"late_challenge": False})
    game.apply(Challenge(), ana)
    assert game.turns[-1].kind == "withdrawn"
    assert game.to_move == ana and game.moves[-1].kept is None


def test_a_wrong_word_of_ones_own_is_no_extension() -> None:
    game = Game(IT, ["Ana", "Bruno"], seed=3)
    game.follow(Move(game.to_move, Place.parse("8H CAS", IT),
                     rack=IT.tiles.parse("CASORTE", rack=True)))
    board = game.board  # CAS stands; Bruno adds an I
    place = Place.parse("8H CASI", IT, board)
    assert len(place.placed()) == 1
    words = WordList(IT, WORDS)
    assert extends_wrong_words(board, place, words)  # CASI holds the wrong CAS
    fine = WordList(IT, [*WORDS, "CAS"])
    assert not extends_wrong_words(board, place, fine)  # CAS is good: CASI is Bruno's fault
    good = WordList(IT, [*WORDS, "CASI"])
    assert not extends_wrong_words(board, place, good)  # nothing wrong at all


def test_at_the_table_and_in_the_record() -> None:
    from letras.formats.game_gcg import game_to_gcg
    from letras.i18n import messages
    from letras.table import Table, describe_all

    words = WordList(IT, WORDS)
    game = Game(IT, ["Ana", "Bruno"], seed=3, lexicon=words)
    table = Table(game, words)
    ana = game.to_move
    bruno = 1 - ana
    game.follow(Move(ana, Place.parse("8H CAS", IT), rack=IT.tiles.parse("CASORTE", rack=True)))
    game.follow(Move(bruno, Place.parse("8H CASI", IT, game.board),
                     rack=IT.tiles.parse("IEOURNL", rack=True)))
    events = table.challenge(ana)
    keys = [e.key for e in events]
    assert keys[:3] == ["challenge.by", "challenge.won", "challenge.again"]
    said = describe_all(events, messages("it"))
    assert "Bruno riprende le lettere e gioca di nuovo" in said[2]
    assert table.step().kind == "move" and table.step().seat == bruno
    table.act(bruno, "9H ORE")
    text = game_to_gcg(game)
    assert text.count(">Bruno:") == 3  # the phony, its withdrawal, the next play
    again = Game.from_gcg(text, lexicon=words)
    assert again.moves[-2].kept is True  # read back: Bruno kept the turn
    assert again.scores == game.scores and again.to_move == game.to_move
    assert [t.kind for t in again.turns] == [t.kind for t in game.turns]
