"""Game.from_gcg: any game record becomes a game (formats.gcg_follow, gcg_game); the racks a
record shows (Move.rack and the bag); the starting player; the final count."""

from __future__ import annotations

from pathlib import Path

import pytest

from letras.bag import Bag
from letras.editions import find_edition
from letras.errors import FormatError
from letras.formats.gcg import EventKind, read_gcg
from letras.formats.gcg_check import replay_gcg
from letras.formats.gcg_game import game_after_turn, game_from_gcg
from letras.game import Game
from letras.history import Move
from letras.play import Challenge, Pass, Place
from letras.scoring import final_count

EN = find_edition("en")
DOUG = "gcgio_testdata_doug_v_emely.gcg"
FINISHED = [
    DOUG, "gcgio_testdata_doug_v_emely_double_challenge.gcg", "gcgio_testdata_josh2.gcg",
    "gcgio_testdata_some_isc_game.gcg", "gcgio_testdata_vs_frentz.gcg",
    "preendgame_testdata_issue_476.gcg", "puzzles_testdata_phony_tiles_returned.gcg",
    "gcgio_testdata_noah_vs_peter.gcg",
]

OPENING = """#player1 doug Doug
#player2 emely Emely
>doug: DINNVWY 8D WINDY +32 32
>emely: ADEEGIL 7C GALE +16 16
>doug: AEJNOSV E3 JAVE..N +34 66
"""


def shared_text(shared: Path, name: str) -> bytes:
    return (shared / "gcg" / name).read_bytes()


# --- real records ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", FINISHED)
def test_a_finished_record_is_a_finished_game_with_its_spread(shared: Path, name: str) -> None:
    data = shared_text(shared, name)
    record = read_gcg(data)
    game = Game.from_gcg(data, seed=2)
    assert game.over and game.end_reason == "out"
    totals = list(record.totals().values())
    # Other programs write the two-player end as twice the loser's rack: the same spread.
    assert game.scores[0] - game.scores[1] == totals[0] - totals[1]
    assert game.board == replay_gcg(record).board
    assert game.player_names == tuple(p.name for p in record.players)
    # Every play of the record is a play of the game, with its score.
    plays = [e.score for e in record.events if e.kind is EventKind.PLAY]
    scored = [t.points for t in game.turns if t.kind == "play"]
    assert scored == plays


def test_the_racks_are_those_of_the_record(shared: Path) -> None:
    data = shared_text(shared, DOUG)
    record = read_gcg(data)
    for k, event in enumerate(record.events[:12]):
        if event.kind is not EventKind.PLAY or event.rack is None:
            continue
        before = game_after_turn(data, k, seed=k)  # the position the event was made in
        seat = [p.nickname for p in record.players].index(event.player)
        assert before.player_names[before.to_move] == event.player
        assert before.rack(seat) == event.rack  # full racks in this record
        game = Game.from_gcg(data, seed=k)
        move = game.moves[len(before.moves)]
        assert (move.player, move.rack) == (seat, event.rack)
        assert game.replay(len(before.moves)).rack(seat) == event.rack


def test_a_record_from_its_second_player_starts_with_them() -> None:
    text = OPENING.replace(">doug: DINNVWY 8D WINDY +32 32\n>emely: ADEEGIL 7C GALE +16 16\n",
                           ">emely: DINNVWY 8D WINDY +32 32\n>doug: ADEEGIL 7C GALE +16 16\n")
    text = text.replace(">doug: AEJNOSV E3 JAVE..N +34 66", ">emely: AEJNOSV E3 JAVE..N +34 66")
    game = Game.from_gcg(text, seed=1)
    assert game.starter == 1 and game.moves[0].player == 1
    assert game.scores == (16, 66)
    again = Game.from_dict(game.to_dict())
    assert again.starter == 1 and again.scores == game.scores and again.rack(0) == game.rack(0)


def test_an_unfinished_record_is_a_game_to_play_on(shared: Path) -> None:
    data = shared_text(shared, "gcgio_testdata_incomplete_elise.gcg")
    record = read_gcg(data)
    game = Game.from_gcg(data, seed=4)
    assert not game.over
    assert game.scores == tuple(record.totals().values())
    # Player 2's last play waits for a challenge; player 1 holds the rack #rack1 shows.
    assert game.player_names[game.pending_player or 0] == "Player 2"
    assert game.rack(0) == record.final_racks[1] and game.to_move == 0
    saved = Game.from_dict(game.to_dict())
    assert saved.rack(0) == game.rack(0) and saved.moves == game.moves
    game.pass_turn()  # play on: the held racks become part of the history
    assert Game.from_dict(game.to_dict()).rack(0) == game.rack(0)
    assert game.replay(len(game.moves) - 1).rack(0) == record.final_racks[1]


def test_a_double_challenge_lost_at_the_end_is_a_failed_challenge(shared: Path) -> None:
    data = shared_text(shared, "gcgio_testdata_doug_v_emely_double_challenge.gcg")
    game = Game.from_gcg(data, seed=1)
    last = [m for m in game.moves if isinstance(m.action, Challenge)][-1]
    assert last.valid is True and game.player_names[last.player] == "doug"
    assert [t.kind for t in game.turns[-2:]] == ["rack-penalty", "end-rack"]


def test_a_time_penalty_is_the_clock_run_over(shared: Path) -> None:
    data = shared_text(shared, "preendgame_testdata_issue_476.gcg")
    game = Game.from_gcg(data, seed=1)
    assert game.rules.time_control.kind == "game"
    penalty = [t for t in game.turns if t.kind == "time-penalty"]
    late = next(p.name for p in read_gcg(data).players if p.nickname == "whatnoloan")
    assert [(game.player_names[t.player], t.points) for t in penalty] == [(late, -10)]


def test_challenge_bonuses_set_the_rule(shared: Path) -> None:
    game = Game.from_gcg(shared_text(shared, "gcgio_testdata_josh2.gcg"), seed=1)
    assert game.rules.challenge_rule == "5pt"
    assert sum(t.kind == "challenge-bonus" for t in game.turns) == 4


# --- refusals ---------------------------------------------------------------------------------


def test_a_tile_found_nowhere_is_refused_naming_the_line() -> None:
    # English has one Z: a rack of two cannot be.
    text = OPENING + ">emely: ZZEEIIL 9F ZIZ +0 16\n"
    with pytest.raises(FormatError, match=r"^line 6: Emely cannot hold EEIILZZ: .* lack Z"):
        Game.from_gcg(text, seed=1)
    # The check replays around it and says so.
    found = [str(d) for d in replay_gcg(read_gcg(text)).disagreements]
    assert found and found[0].startswith("line 6: Emely cannot hold")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (">emely: AEEIL 8D FIE +6 22", r"^line 6: 8D FIE: square D8 is taken by W"),
        (">zed: - +0 0", r"^line 6: 'zed' is not a player of this game"),
        (">emely: DEIILTZ -- -24 -8", r"^line 6: a withdrawn phony \(--\) must follow"),
        (">emely: ABC -AD +0 16", r"^line 6: exchanges D, not on the rack ABC"),
        (">doug: (OS) -2 64", r"^line 6: the record ends the game here, but under its rules"),
        ("what is this", r"^line 6: not a pragma"),
    ],
)
def test_a_record_that_cannot_be_followed_is_refused(line: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        Game.from_gcg(OPENING + line + "\n", seed=1)


def test_other_refusals() -> None:
    with pytest.raises(FormatError, match="at least two players"):
        Game.from_gcg(">a: DINNVWY 8D WINDY +32 32\n")
    with pytest.raises(FormatError, match=r"lacks: .*Ł"):
        Game.from_gcg("#player1 a a\n#player2 b b\n>a: ŁA 8G ŁA +4 4\n")
    with pytest.raises(FormatError, match="bad #letras-rules"):
        Game.from_gcg("#letras-rules [1]\n" + OPENING)
    with pytest.raises(FormatError, match="no turn 9"):
        game_after_turn(OPENING, 9)
    with pytest.raises(FormatError, match="read with edition en, not it"):
        game_from_gcg(read_gcg(OPENING), edition=find_edition("it"))


def test_words_are_not_looked_up() -> None:
    text = OPENING.replace("8D WINDY", "8D WNIDY").replace("+32 32", "+32 32")
    game = Game.from_gcg(text, seed=1)
    assert game.scores == (66, 16)


# --- racks a record shows: Move.rack, the bag, the starting player ------------------------------


def test_a_move_makes_the_rack_hold_what_the_record_shows() -> None:
    game = Game(EN, ["a", "b"], seed=3)
    p = game.to_move
    total = sum(len(game.rack(q)) for q in range(2)) + game.bag_count
    want = EN.tiles.parse("QZ?", rack=True)
    game.follow(Move(p, Pass(), rack=tuple(sorted(want))))
    rack = list(game.rack(p))
    for t in want:
        rack.remove(t)  # raises if the rack lacks it
    assert sum(len(game.rack(q)) for q in range(2)) + game.bag_count == total
    assert len(game.rack(p)) == 7
    # The history says so: a replay and a saved game hold the same racks.
    again = Game.from_dict(game.to_dict())
    assert again.moves == game.moves and again.rack(p) == game.rack(p)


def test_a_tile_on_another_rack_is_swapped_from_it() -> None:
    # The only Q is on the other rack: the record says this player holds it.
    seed, p, q = next((s, g.to_move, 1 - g.to_move) for s in range(200)
                      if EN.tiles.code("Q") in (g := Game(EN, ["a", "b"], seed=s)).rack(
                          1 - g.to_move))
    game = Game(EN, ["a", "b"], seed=seed)
    other = game.rack(q)
    game.follow(Move(p, Pass(), rack=(EN.tiles.code("Q"),)))
    assert EN.tiles.code("Q") in game.rack(p)
    assert EN.tiles.code("Q") not in game.rack(q)
    assert len(game.rack(q)) == len(other) == 7


def test_a_rack_too_big_for_the_position_is_a_format_error() -> None:
    game = Game(EN, ["a", "b"], seed=3)
    with pytest.raises(FormatError, match="rack holds 7 tiles here, not the 8"):
        eight = sorted([*EN.tiles.parse("AEIOUST", rack=True), EN.tiles.code("A")])
        game.follow(Move(game.to_move, Pass(), rack=tuple(eight)))
    assert game.moves == () and len(game.rack(game.to_move)) == 7


def test_moves_keep_their_racks_through_a_saved_game() -> None:
    es = find_edition("es")
    rack = tuple(sorted(es.tiles.parse("?E[CH]RR", rack=True)))
    move = Move(1, Place.parse("8G [CH]E", es), rack=rack,
                others=((0, es.tiles.parse("A", rack=True)),),
                final=((0, ()), (1, es.tiles.parse("[LL]", rack=True))))
    data = move.to_dict(es)
    assert (data["rack"], data["others"], data["final"]) == (
        "?[CH]ERR", [[0, "A"]], [[0, ""], [1, "[LL]"]])
    assert Move.from_dict(data, es) == move
    assert Move.from_dict(Move(0, Pass()).to_dict(es), es) == Move(0, Pass())
    assert not {"rack", "others", "final"} & set(Move(0, Pass()).to_dict(es))
    with pytest.raises(FormatError, match="bad move"):
        Move.from_dict({**data, "rack": "?!"}, es)


def test_old_saved_games_load_as_before() -> None:
    game = Game(EN, ["a", "b"], seed=9)
    game.pass_turn()
    data = game.to_dict()
    assert "starter" not in data and "held" not in data
    again = Game.from_dict(data)
    assert again.starter is None and again.first_draw == game.first_draw
    assert again.to_move == game.to_move and again.rack(0) == game.rack(0)


def test_a_starter_is_refused_when_there_is_no_such_seat() -> None:
    from letras.errors import RuleError

    with pytest.raises(RuleError, match="no player 2 to start"):
        Game(EN, ["a", "b"], starter=2)
    assert Game(EN, ["a", "b"], seed=1, starter=1).to_move == 1


def test_the_bag_gives_a_tile_asked_for() -> None:
    bag = Bag(EN.tiles, seed=1)
    assert bag.take(EN.tiles.code("Z")) and len(bag) == 99
    assert not bag.take(EN.tiles.code("Z")) and len(bag) == 99


# --- the final count ----------------------------------------------------------------------------


def test_the_final_count() -> None:
    values = EN.tiles.values
    q, z, a = EN.tiles.code("Q"), EN.tiles.code("Z"), EN.tiles.code("A")
    assert final_count([[], [q], [z, a]], values, out=0) == (21, -10, -11)
    assert final_count([[a], [0]], values) == (-1, 0)
    assert sum(final_count([[], [q, z]], values, out=0)) == 0
