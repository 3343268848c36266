"""Resigning (rules.md 6.5): any seat, at any moment of a game that is not over; the game ends at
once, with no final count, and the player who resigned loses whatever their score. It survives
saving and loading, GCG export and re-import, views and the table."""

from __future__ import annotations

import io
import random
from pathlib import Path

import jsonschema
import pytest

from helpers import placements_for
from letras.editions import find_edition
from letras.errors import LetrasError
from letras.formats.game_gcg import game_to_gcg
from letras.formats.gcg import read_gcg
from letras.formats.gcg_follow import follow_gcg
from letras.formats.views import view_schema
from letras.game import Game, Player
from letras.history import Move, Resign
from letras.i18n import messages
from letras.lexicon import WordList
from letras.table import Table
from letras.table.events import describe_all

EN = find_edition("en")
WORDS = WordList(EN, ["FOND", "FONDA", "QI"])


def two(seed: int = 1) -> Game:
    return Game(EN, ["Ana", "Bruno"], seed=seed, lexicon=WORDS)


def test_resigning_ends_the_game_and_the_resigner_loses_though_ahead() -> None:
    game = two()
    game.play("8H FOND")
    game.pass_turn()
    turn = game.resign(0)  # Ana leads 16 to 0, resigns while it is her turn
    assert (turn.kind, turn.player, turn.points, turn.total) == ("resign", 0, 0, 16)
    assert game.over and game.end_reason == "resigned" and game.resigned == 0
    assert game.scores == (16, 0)  # no rack penalties, no final count
    assert not any(t.kind in ("rack-penalty", "end-rack") for t in game.turns)
    assert game.winners() == [1] and game.ranking() == [1, 0]
    with pytest.raises(LetrasError) as e:
        game.pass_turn()
    assert e.value.key == "rule.over"
    with pytest.raises(LetrasError) as e:
        game.resign(1)
    assert e.value.key == "rule.over"


def test_any_seat_may_resign_when_another_is_to_move() -> None:
    game = two()
    assert game.to_move == 0
    game.resign(1)
    assert game.resigned == 1 and game.winners() == [0]
    assert [m.action for m in game.moves] == [Resign()] and game.moves[0].player == 1


def test_resigning_in_a_challenge_window_lets_the_play_stand_without_drawing() -> None:
    game = two()
    rack_before = len(game.rack(0))
    game.play("8H FOND")
    assert game.pending_player == 0
    game.resign(1)
    assert game.challengeable is None and game.pending_player is None
    assert game.scores == (16, 0) and game.board.get(7, 7)
    assert len(game.rack(0)) == rack_before - 4  # nobody draws: the game is over


def test_with_four_seats_the_others_rank_by_score_and_the_resigner_last() -> None:
    game = Game(EN, ["A", "B", "C", "D"], seed=3, lexicon=WORDS, starter=0)
    rng = random.Random(3)
    for _ in range(3):  # A, B and C play (words are judged only by a challenge)
        place = placements_for(game.board, game.rack(game.to_move), rng)
        assert place is not None
        game.play(place)
    scores = game.scores
    assert scores[3] == 0 and min(scores[:3]) > 0
    leader = max(range(3), key=lambda p: scores[p])
    game.resign(leader)
    others = sorted((p for p in range(4) if p != leader), key=lambda p: -scores[p])
    assert game.ranking() == [*others, leader]
    best = max(scores[p] for p in others)
    assert game.winners() == [p for p in others if scores[p] == best]
    assert leader not in game.winners()


def test_a_resigned_game_saves_and_loads_and_replays() -> None:
    game = two()
    game.play("8H FOND")
    game.resign(1, seconds=None)
    data = game.to_dict()
    assert data["moves"][-1] == {"player": 1, "type": "resign"}
    loaded = Game.from_json(game.to_json(), lexicon=WORDS)
    assert (loaded.over, loaded.end_reason, loaded.resigned) == (True, "resigned", 1)
    assert loaded.scores == game.scores and loaded.winners() == [0]
    assert loaded.turns == game.turns
    before = game.replay(1)
    assert not before.over and before.resigned is None
    assert Move.from_dict({"player": 0, "type": "resign"}, EN).action == Resign()


def test_a_resigned_game_goes_through_gcg_and_back() -> None:
    game = two()
    game.play("8H FOND")
    game.accept()
    game.pass_turn()
    game.resign(0)
    text = game_to_gcg(game)
    assert "#letras-resigned Ana" in text.splitlines()
    again = Game.from_gcg(text, lexicon=WORDS, seed=5)
    assert (again.end_reason, again.resigned, again.scores) == ("resigned", 0, (16, 0))
    assert [t.kind for t in again.turns] == [t.kind for t in game.turns]
    assert game_to_gcg(again) == text


def test_a_resigned_pragma_naming_nobody_is_a_problem() -> None:
    text = "#player1 a a\n#player2 b b\n#letras-resigned zed\n>a: DINNVWY 8D WINDY +32 32\n"
    followed = follow_gcg(read_gcg(text))
    assert any("zed" in p for p in followed.problems)
    assert not followed.game.over
    with pytest.raises(LetrasError):
        Game.from_gcg(text, seed=1)


def test_resigning_while_a_play_waits_survives_gcg() -> None:
    game = two()
    game.play("8H FOND")
    game.resign(0)  # her own play waits for a challenge: it stands
    again = Game.from_gcg(game_to_gcg(game), lexicon=WORDS, seed=9)
    assert again.resigned == 0 and again.scores == (16, 0) and again.pending_player is None


def test_views_say_who_resigned_and_who_won() -> None:
    schema = jsonschema.Draft202012Validator(view_schema())
    game = two()
    on = game.view(0).to_dict()
    assert on["resigned"] is None and on["winners"] == []
    schema.validate(on)
    game.play("8H FOND")
    game.resign(0)
    for data in (game.view(0).to_dict(), game.view(1).to_dict(), game.spectator_view().to_dict()):
        schema.validate(data)
        assert data["over"] and data["end_reason"] == "resigned"
        assert data["resigned"] == 0 and data["winners"] == [1]
        assert data["turns"][-1]["kind"] == "resign"


def test_the_table_resigns_a_person_and_ends_with_the_winner() -> None:
    game = Game(EN, [Player("Ana"), Player("Bruno")], seed=1, lexicon=WORDS)
    table = Table(game, WORDS)
    table.act(0, "8H FOND")
    events = table.resign(1)  # Bruno resigns while Ana's play may still be challenged
    keys = [e.key for e in events]
    assert keys[:2] == ["event.resigned", "end.reason.resigned"]
    assert keys[-1] == "count.winner_resigned" and events[-1].data["player"] == 0
    assert table.step().kind == "over"
    for language in ("en", "pt-BR", "es", "it"):
        lines = describe_all(events, messages(language))
        assert "Bruno" in lines[0] and "Ana" in lines[-1] and "16" in lines[-1]
    with pytest.raises(LetrasError) as e:
        table.resign(0)
    assert e.value.key == "rule.over"


def test_the_table_refuses_a_computer_seat_resigning() -> None:
    game = Game(EN, [Player("Ana"), Player("Bot", "ai:greedy")], seed=1, lexicon=WORDS)
    table = Table(game, WORDS)
    with pytest.raises(LetrasError) as e:
        table.resign(1)
    assert e.value.key == "table.ai_seat" and not table.game.over


def test_the_terminal_resign_command(tmp_path: Path) -> None:
    from rich.console import Console

    from letras.lexicon.kwg import WordGraph
    from letras.terminal.commands import Command, read_command
    from letras.terminal.table import Table as Terminal
    from letras.terminal.table import TableOptions

    pt = messages("pt-BR")
    assert read_command("desistir", pt) == Command("resign")
    assert read_command("resign", messages("it")) == Command("resign")
    graph = WordGraph.build(EN, ["FOND", "FONDA", "QI"])
    game = Game(EN, [Player("Ana"), Player("Bot", "ai:greedy")], seed=1, lexicon=graph,
                starter=0)
    out = io.StringIO()
    console = Console(file=out, color_system=None, width=80, highlight=False, markup=False,
                      emoji=False)
    lines = ["desistir", ""]  # resign, then do not save the record
    terminal = Terminal(game, graph, pt, console, lambda prompt: lines.pop(0),
                        TableOptions(plain=True, save_dir=tmp_path))
    assert terminal.run() == 0
    assert terminal.game.resigned == 0 and terminal.game.winners() == [1]
    assert "Fim de jogo: Ana desistiu." in out.getvalue()


def test_gcg_check_takes_a_resigned_record_as_finished() -> None:
    from letras.formats.gcg_check import replay_gcg

    game = two()
    game.play("8H FOND")
    game.accept()
    game.resign(1)
    replay = replay_gcg(read_gcg(game_to_gcg(game)))
    assert replay.finished and not replay.disagreements
    assert replay.game.resigned == 1 and replay.game.winners() == [0]
