"""Saved games and actions that a stranger hands the game (issue 16): each is refused with a
:class:`~letras.errors.LetrasError` and a key, never another exception, and changes nothing; a
turn run out of time counts as a pass; a bounded fuzz test of the saved-game loader over
mutated real saved games, whose schema verdicts must agree with ``jsonschema``'s."""

from __future__ import annotations

import copy
import json
import math
import random
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import placements_for
from letras.board import Direction, Square
from letras.editions import RuleOptions, TimeControl, find_edition
from letras.errors import LetrasError
from letras.formats.game_gcg import game_to_gcg
from letras.game import Game
from letras.history import Move
from letras.lexicon import WordList
from letras.play import Exchange, Pass, Place
from letras.saved import game_schema
from letras.schema import problem
from letras.terminal import InputError
from letras.terminal.saving import read_saved

EN = find_edition("en")
IT = find_edition("it")
NO_WORDS = WordList(EN, [])
SHARED_GCG = Path(__file__).resolve().parents[2] / "shared" / "gcg"


def played(edition: str, seed: int, turns: int = 24, **rules: Any) -> Game:
    """A game of random plays (words judged only by challenges), exchanges, passes and
    challenges, with a clock when ``rules`` give one."""
    found = find_edition(edition)
    game = Game(found, ["Ana", "Bruno", "Caio"][: 2 + seed % 2], seed=seed,
                rules=found.rules.replace(**rules), lexicon=WordList(found, []))
    rng = random.Random(seed)
    for _ in range(turns):
        if game.over:
            break
        if game.pending_goes_out:
            game.accept()
            continue
        roll = rng.random()
        if game.pending_player is not None and roll < 0.15:
            by = next(p for p in range(len(game.players)) if p != game.pending_player)
            game.challenge(by, valid=rng.random() < 0.5)
            continue
        place = placements_for(game.board, game.rack(game.to_move), rng)
        seconds = rng.choice([None, 1.5, 30.0])
        if roll < 0.25 and game.bag_count >= 7:
            game.exchange(game.rack(game.to_move)[:2], seconds=seconds)
        elif place is None or roll < 0.3:
            game.pass_turn(seconds=seconds)
        else:
            game.play(place, seconds=seconds)
    return game


@cache
def saved_games() -> tuple[dict[str, Any], ...]:
    """Real saved games: random games (with clocks), and games taken from GCG records (their
    moves carry racks and final counts)."""
    docs = [played("en", 1).to_dict(), played("it", 2).to_dict(),
            played("pt-BR", 3, time_control=TimeControl("game", 60)).to_dict()]
    for name in ("gcgio_testdata_doug_v_emely.gcg", "gcgio_testdata_incomplete.gcg"):
        path = SHARED_GCG / name
        if path.is_file():
            docs.append(Game.from_gcg(path.read_bytes(), seed=1).to_dict())
    return tuple(docs)


def base() -> dict[str, Any]:
    game = Game(IT, ["Ana", "Bruno"], seed=3)  # Italian: 3 minutes a move
    game.pass_turn(seconds=20)
    game.pass_turn(seconds=200)  # out of time
    return copy.deepcopy(game.to_dict())


def refused(data: dict[str, Any] | str, key: str) -> LetrasError:
    with pytest.raises(LetrasError) as e:
        if isinstance(data, str):
            Game.from_json(data, lexicon=NO_WORDS)
        else:
            Game.from_dict(data, lexicon=NO_WORDS)
    assert e.value.key == key, (e.value.key, str(e.value))
    return e.value


# ----- saved games ---------------------------------------------------------------------------


def test_a_real_saved_game_loads_and_its_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(game_schema())
    for doc in saved_games():
        jsonschema.validate(doc, game_schema())
        again = Game.from_dict(doc, lexicon=NO_WORDS)
        assert again.to_dict() == doc


def test_a_moves_player_out_of_range_is_refused() -> None:
    data = base()
    data["moves"][0]["player"] = 2  # a two-player game: seats 0 and 1
    e = refused(data, "saved.replay")
    assert e.values["n"] == 1 and e.values["inner_key"] == "rule.no_player"
    data["moves"][0]["player"] = 7
    assert refused(data, "saved.schema").values["where"] == "moves[0].player"
    data["moves"][0]["player"] = -1
    refused(data, "saved.schema")


def test_infinite_or_huge_thinking_times_are_refused() -> None:
    data = base()
    data["rules"]["time_control"] = {"kind": "game", "seconds": 60, "penalty_per_minute": 10}
    data["moves"][0]["seconds"] = math.inf
    assert refused(data, "saved.schema").values["where"] == "moves[0].seconds"
    data["moves"][0]["seconds"] = math.nan
    refused(data, "saved.schema")
    text = json.dumps(base()).replace('"seconds": 20', '"seconds": 1e400')
    assert '1e400' in text
    refused(text, "saved.schema")
    refused(json.dumps(base()).replace('"seconds": 20', '"seconds": Infinity'), "saved.bad")
    refused(json.dumps(base()).replace('"seconds": 20', '"seconds": NaN'), "saved.bad")


@pytest.mark.parametrize("value", ["2", [2], 2.5, True, None, -1, 10**5000, {"n": 2}],
                         ids=["text", "list", "fraction", "bool", "null", "negative", "huge",
                              "object"])
def test_rule_options_of_the_wrong_type_are_refused(value: object) -> None:
    data = base()
    data["rules"]["pass_rounds_to_end"] = value
    e = refused(data, "saved.schema")
    assert e.values["where"] == "rules.pass_rounds_to_end"


@pytest.mark.parametrize("value", [[], "soon", {"kind": "game"}, {"kind": "game", "seconds": -5},
                                   {"kind": "move", "seconds": 60, "extra": 1}, 5])
def test_a_bad_time_control_is_refused(value: object) -> None:
    data = base()
    data["rules"]["time_control"] = value
    with pytest.raises(LetrasError) as e:
        Game.from_dict(data, lexicon=NO_WORDS)
    assert e.value.key in ("saved.schema", "saved.bad")


def test_integers_of_more_than_4300_digits_are_refused() -> None:
    digits = "9" * 5000
    refused(json.dumps(base()).replace('"seed": 3', f'"seed": {digits}'), "saved.bad")
    data = base()
    data["seed"] = 10**5000  # a dict handed in directly
    assert refused(data, "saved.schema").values["where"] == "seed"
    data = base()
    data["moves"][0]["player"] = 10**5000
    refused(data, "saved.schema")


def test_deep_nesting_is_refused() -> None:
    refused("[" * 100000, "saved.deep")
    refused('{"format": "letras-game", "moves": ' + "[" * 5000 + "]" * 5000 + "}", "saved.deep")


def test_a_verdict_must_be_a_boolean_and_a_player_a_whole_number() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=1, lexicon=WordList(EN, ["FOND"]))
    game.play("8H FOND")
    game.challenge(valid=False)  # withdrawn
    data = game.to_dict()
    assert data["moves"][1]["valid"] is False
    data["moves"][1]["valid"] = "false"
    assert refused(data, "saved.schema").values["where"] == "moves[1].valid"
    data["moves"][1]["valid"] = False
    data["moves"][0]["player"] = 1.7
    assert refused(data, "saved.schema").values["where"] == "moves[0].player"
    data["moves"][0]["player"] = 0.0  # a whole number written as a float is the number
    assert Game.from_dict(data, lexicon=NO_WORDS).moves == game.moves


def test_the_seat_limits_of_a_file_are_not_trusted() -> None:
    data = base()
    data["rules"].update(min_players=2, max_players=30)
    data["players"] = [{"name": f"P{i}", "kind": "human"} for i in range(30)]
    e = refused(data, "saved.schema")
    assert e.values["where"] in ("players", "rules.max_players")
    data["players"] = data["players"][:5]
    data["rules"]["max_players"] = 4
    refused(data, "saved.schema")
    with pytest.raises(ValueError):
        RuleOptions(max_players=30)
    with pytest.raises(TypeError):
        RuleOptions.from_dict({"pass_rounds_to_end": "2"})


def test_a_bad_rules_pragma_of_a_gcg_record_is_a_letras_error() -> None:
    text = ('#player1 a a\n#player2 b b\n#letras-rules {"pass_rounds_to_end": "2"}\n'
            ">a: DINNVWY 8D WINDY +32 32\n")
    with pytest.raises(LetrasError) as e:
        Game.from_gcg(text, seed=1)
    assert "pass_rounds_to_end" in str(e.value)


def test_unknown_fields_and_wrong_documents_are_refused() -> None:
    data = base()
    data["moves"][0]["secret"] = 1
    refused(data, "saved.schema")
    refused({"format": "something else"}, "saved.not_letras")
    refused("[1, 2]", "saved.not_object")
    refused("{", "saved.json")
    refused("x" * 20_000_001, "saved.too_long")
    data = base()
    data["moves"][0]["type"] = "place"  # a play with no notation
    assert refused(data, "saved.schema").values["where"] == "moves[0]"


def test_resuming_a_damaged_file_is_an_input_error() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=1)
    for payload in ("[" * 5000, json.dumps({**game.to_dict(), "players": []}),
                    '{"a": ' + "1" * 5000 + "}"):
        with pytest.raises(InputError) as e:
            read_saved(f"#player1 Ana Ana\n#player2 Bruno Bruno\n#letras-game {payload}\n")
        assert e.value.key == "resume.damaged"


# ----- actions -------------------------------------------------------------------------------


def test_anything_but_an_action_is_refused_and_changes_nothing() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=1, lexicon=WordList(EN, ["FOND"]))
    game.play("8H FOND")
    before = game.to_dict()
    for thing in ("8H FOND", None, 3, Move(0, Pass())):
        with pytest.raises(LetrasError) as e:
            game.apply(thing)  # type: ignore[arg-type]
        assert e.value.key == "rule.not_action"
    assert game.to_dict() == before and game.pending_player == 0
    assert Game.from_json(game.to_json(), lexicon=NO_WORDS).moves == game.moves


@pytest.mark.parametrize("action", [
    Place(Square(7, 7), Direction.DOWN, (300,)),
    Place(Square(7, 7), Direction.DOWN, (256, 1)),
    Place(Square(7, 7), Direction.DOWN, (0x80 | 40,)),  # a blank for a letter English lacks
    Place(Square(7, 7), Direction.DOWN, (-1,)),
    Place(Square(7, 7), Direction.DOWN, (True,)),
    Exchange((27,)),
    Exchange((1000, 1)),
])
def test_tile_codes_the_edition_lacks_are_refused_before_the_pending_play_is_accepted(
        action: Place | Exchange) -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=1, lexicon=WordList(EN, ["FOND"]))
    game.play("8H FOND")
    before = (game.to_dict(), game.rack(0), game.bag_count)
    with pytest.raises(LetrasError) as e:
        game.apply(action)
    assert e.value.key == "rule.bad_tile"
    assert (game.to_dict(), game.rack(0), game.bag_count) == before
    assert game.pending_player == 0  # still waiting for a challenge: nobody drew
    assert Game.from_json(game.to_json(), lexicon=NO_WORDS).to_dict() == before[0]


@pytest.mark.parametrize(("seconds", "valid", "key"), [
    (math.inf, None, "rule.seconds"), (math.nan, None, "rule.seconds"),
    (-1.0, None, "rule.seconds"), (True, None, "rule.seconds"), ("5", None, "rule.seconds"),
    (None, "false", "rule.verdict"), (None, 1, "rule.verdict"),
])
def test_bad_thinking_times_and_verdicts_are_refused(seconds: object, valid: object,
                                                     key: str) -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=1,
                rules=EN.rules.replace(time_control=TimeControl("game", 60)))
    with pytest.raises(LetrasError) as e:
        game.apply(Pass(), seconds=seconds, valid=valid)  # type: ignore[arg-type]
    assert e.value.key == key and not game.moves
    with pytest.raises(LetrasError) as e:
        game.follow(Move(0, Pass(), seconds, valid))  # type: ignore[arg-type]
    assert e.value.key == key and not game.moves


def test_follow_refuses_a_seat_out_of_range() -> None:
    game = Game(EN, ["Ana", "Bruno"], seed=1)
    for seat in (2, -1, 10**5000):
        with pytest.raises(LetrasError) as e:
            game.follow(Move(seat, Pass()))
        assert e.value.key == "rule.no_player"
    assert not game.moves


# ----- timeouts count as passes (rules.md 6.3) -------------------------------------------------


def test_a_game_of_timeouts_ends_like_a_game_of_passes() -> None:
    game = Game(IT, ["Ana", "Bruno"], seed=4)
    assert IT.rules.time_control.kind == "move"
    over = IT.rules.time_control.seconds + 1.0
    for i in range(4):
        assert not game.over
        game.pass_turn(seconds=over)
        assert game.passes_in_row == i + 1
    assert game.over and game.end_reason == "passes"
    assert [t.kind for t in game.turns[:4]] == ["timeout"] * 4
    again = Game.from_gcg(game_to_gcg(game), seed=9)
    assert again.over and again.end_reason == "passes" and again.scores == game.scores
    assert Game.from_json(game.to_json()).end_reason == "passes"


def test_a_timeout_and_a_pass_mix_in_one_run() -> None:
    game = Game(IT, ["Ana", "Bruno"], seed=4)
    over = IT.rules.time_control.seconds + 1.0
    game.pass_turn(seconds=over)
    game.pass_turn()
    game.pass_turn(seconds=over)
    assert game.passes_in_row == 3 and not game.over
    game.pass_turn()
    assert game.end_reason == "passes"


# ----- fuzzing -----------------------------------------------------------------------------------

HOSTILE = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 40),
    st.sampled_from([10**5000, 2**64, -(2**63), 1e400, -1e400, math.nan, 1.7, 0.0, 3.0]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["place", "pass", "resign", "8H FOND", "?", "move:3m", "game", "en", "it"]),
    st.lists(st.integers(-2, 5), max_size=3), st.dictionaries(st.text(max_size=5),
                                                              st.integers(), max_size=2),
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):  # the first moves are enough
            out += _paths(v, (*path, i))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any] | str:
    doc: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(saved_games())))
    paths = _paths(doc)[1:]
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        parent: Any = doc
        try:
            for key in path[:-1]:
                parent = parent[key]
            if draw(st.booleans()) and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = draw(HOSTILE)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change took the path away
    if draw(st.integers(0, 3)) == 0:  # now and then, damage the text itself
        try:
            text = json.dumps(doc)
        except ValueError:
            return doc
        i = draw(st.integers(0, len(text)))
        return text[:i] + draw(st.sampled_from(["", "[", "]", "}", '"', "9" * 5000, "-"])) + text[
            i + draw(st.integers(0, 3)):]
    return doc


def _plain(value: Any) -> bool:
    """No infinite number (our validator refuses them, jsonschema does not) and no integer
    too long to print (jsonschema raises ValueError on one: another reason not to use it)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, int):
        return value.bit_length() < 10_000
    if isinstance(value, dict):
        return all(_plain(v) for v in value.values())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return True


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_fuzzed_saved_games_load_or_are_refused(doc: dict[str, Any] | str) -> None:
    if isinstance(doc, dict) and _plain(doc):  # our schema verdicts are jsonschema's
        ours = problem(game_schema(), doc) is None
        theirs = jsonschema.Draft202012Validator(game_schema()).is_valid(doc)
        assert ours == theirs
    try:
        game = (Game.from_json(doc, lexicon=NO_WORDS) if isinstance(doc, str)
                else Game.from_dict(doc, lexicon=NO_WORDS))
    except LetrasError as e:
        assert e.key and str(e)
        return
    again = Game.from_json(game.to_json(), lexicon=NO_WORDS)  # what loads saves and reloads
    assert again.moves == game.moves and again.scores == game.scores


def test_held_racks_of_a_document_are_checked_like_moves() -> None:
    # found by bench/fuzz_saved.py: a rack written in small letters reads as designated blanks
    data = base()
    data["held"] = [[0, "place"]]
    assert refused(data, "saved.bad").values["inner_key"] == "rule.bad_tile"
    data["held"] = [[3, "AB"]]  # a two-player game
    assert refused(data, "saved.bad").values["inner_key"] == "rule.no_player"
    data["held"] = [[1.0, "AB"]]
    game = Game.from_dict(data, lexicon=NO_WORDS)
    assert game.held and game.held[0][0] == 1 and isinstance(game.held[0][0], int)
    with pytest.raises(LetrasError) as e:
        game.take_up(((0, (200,)),))
    assert e.value.key == "rule.bad_tile"


def test_the_endgame_counts_a_timeout_as_a_pass_as_the_game_does() -> None:
    from letras.ai.endgame.position import turns_in_row

    game = Game(IT, ["Ana", "Bruno"], seed=4)
    over = IT.rules.time_control.seconds + 1.0
    game.pass_turn()
    game.pass_turn(seconds=over)
    game.pass_turn(seconds=over)
    assert turns_in_row(game.turns, game.rules) == (game.passes_in_row,
                                                    game.scoreless_in_row) == (3, 3)
