"""GCG records: reading, writing, round trips, and replaying real games (formats.gcg, gcg_check)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from letras.board import Direction, Square
from letras.editions import Edition, find_edition
from letras.errors import FormatError
from letras.formats.gcg import (
    EventKind,
    GcgEvent,
    GcgPlayer,
    GcgRecord,
    decode_gcg,
    edition_for_lexicon,
    read_gcg,
    write_gcg,
)
from letras.formats.gcg_check import check_gcg, replay_gcg
from letras.play import Exchange, Pass, Place
from letras.tiles import BLANK_BIT, THROUGH

EN = find_edition("en")
ES = find_edition("es")

_GCG = Path(__file__).resolve().parents[2] / "shared" / "gcg"
ALL_FILES = sorted(p.name for p in _GCG.glob("*.gcg")) or ["(shared is absent)"]
POLISH = "gcgio_testdata_polish_endgame.gcg"
GAMES = [name for name in ALL_FILES if name != POLISH]

# Final recorded totals of the finished games, in #player order.
FINALS = {
    "gcgio_testdata_doug_v_emely.gcg": (451, 345),
    "gcgio_testdata_doug_v_emely_double_challenge.gcg": (451, 345),
    "gcgio_testdata_guy_vs_bot.gcg": (454, 424),
    "gcgio_testdata_josh2.gcg": (397, 291),
    "gcgio_testdata_noah_vs_mishu.gcg": (377, 388),
    "gcgio_testdata_noah_vs_peter.gcg": (471, 407),
    "gcgio_testdata_some_isc_game.gcg": (364, 409),
    "gcgio_testdata_utf8_dos.gcg": (375, 488),
    "gcgio_testdata_vs_andy.gcg": (423, 363),
    "gcgio_testdata_vs_frentz.gcg": (439, 550),
    "preendgame_testdata_issue_476.gcg": (422, 443),
    "puzzles_testdata_bingo_nine_or_above.gcg": (601, 486),
    "puzzles_testdata_cel_only.gcg": (417, 368),
    "puzzles_testdata_equity.gcg": (454, 460),
    "puzzles_testdata_only_bingo.gcg": (461, 501),
    "puzzles_testdata_phony_tiles_returned.gcg": (512, 352),
    "puzzles_testdata_well_played_game.gcg": (470, 427),
}


def read_shared(shared: Path, name: str) -> GcgRecord:
    return read_gcg((shared / "gcg" / name).read_bytes())


def problems(record: GcgRecord) -> list[str]:
    return [str(e) for e in record.errors if not e.is_notice]


# --- the shared games ---------------------------------------------------------------------


def test_the_shared_folder_holds_the_expected_games(shared: Path) -> None:
    names = {p.name for p in (shared / "gcg").glob("*.gcg")}
    assert set(FINALS) <= names
    assert POLISH in names
    assert len(names) >= 27


@pytest.mark.parametrize("name", GAMES)
def test_every_english_game_replays_with_all_scores_agreeing(shared: Path, name: str) -> None:
    record = read_shared(shared, name)
    assert record.edition.name == "en"
    assert problems(record) == []
    assert record.events
    replay = replay_gcg(record)
    assert [str(d) for d in replay.disagreements] == []
    assert replay.totals == record.totals()
    if name in FINALS:
        assert replay.finished
        assert tuple(replay.totals.values()) == FINALS[name]
    else:
        assert not replay.finished


@pytest.mark.parametrize("name", ALL_FILES)
def test_read_write_read_is_the_identity_on_every_shared_file(shared: Path, name: str) -> None:
    record = read_shared(shared, name)
    text = write_gcg(record)
    again = read_gcg(text.encode("utf-8"))
    assert again == record
    assert write_gcg(again) == text
    assert text.startswith("#character-encoding UTF-8\n")


@pytest.mark.parametrize(
    ("name", "encoding", "players", "notice"),
    [
        ("gcgio_testdata_name_iso8859-1.gcg", "ISO-8859-1", ["césar", "hércules"], False),
        ("gcgio_testdata_name_utf8_noheader.gcg", "UTF-8", ["césar", "doug"], False),
        ("gcgio_testdata_name_utf8_with_header.gcg", "UTF-8", ["césar", "doug"], False),
        ("gcgio_testdata_name_weird_encoding_with_header.gcg", "UTF-8", ["césar", "doug"], True),
        ("gcgio_testdata_some_isc_game.gcg", "UTF-8", ["arcadio", "úrsula"], False),
    ],
)
def test_player_names_are_decoded_right_in_each_encoding(
    shared: Path, name: str, encoding: str, players: list[str], notice: bool
) -> None:
    record = read_shared(shared, name)
    assert record.encoding == encoding
    assert [p.nickname for p in record.players] == players
    assert record.events[0].player == players[0]
    assert [e.reason for e in record.errors] == (["encoding"] if notice else [])
    if notice:
        assert "ISO8859-6" in record.errors[0].message
        assert record.errors[0].line == 1


def test_full_names_with_accents_and_spaces(shared: Path) -> None:
    record = read_shared(shared, "gcgio_testdata_some_isc_game.gcg")
    assert record.players[0] == GcgPlayer("arcadio", "José Arcadio Buendía")
    assert record.players[1].name == "Úrsula Iguarán Buendía"
    assert record.id == "org.aerolith RfqTieg8s6eg4J9TXp5n7R"
    assert record.description == "Created with Macondo"


def test_the_polish_file_is_refused_with_a_clear_message(shared: Path) -> None:
    record = read_shared(shared, POLISH)
    reasons = {e.reason for e in record.errors}
    assert reasons == {"unknown-tile"}
    assert record.errors[0].line == 6
    with pytest.raises(FormatError, match=r"edition en lacks: .*Ł.*Ź") as info:
        replay_gcg(record)
    assert "no shipped edition" in str(info.value)


def test_dos_line_ends_and_notes_over_several_lines(shared: Path) -> None:
    record = read_shared(shared, "gcgio_testdata_utf8_dos.gcg")
    assert problems(record) == []
    assert record.events[0].notes == [
        "quack not fan of blonde at 8d. he prefers better bolden bodle dobla blonde "
        "( for 22 ) doable boned"
    ]
    tennises = next(e for e in record.events if any("tennises" in n for n in e.notes))
    assert tennises.notes[0].split("\n") == [
        "tennises dentines way more points",
        "since ive been behind  and the board is not open, ive made decision to do that risky "
        "play. win or lose. will it work?",
    ]
    assert all("\r" not in n for e in record.events for n in e.notes)


def test_every_kind_of_event_is_read(shared: Path) -> None:
    doug = read_shared(shared, "gcgio_testdata_doug_v_emely.gcg")
    withdrawn = doug.events[6]
    assert (withdrawn.kind, withdrawn.score, withdrawn.total, withdrawn.line) == (
        EventKind.WITHDRAWN, -24, 55, 9,
    )
    end = doug.events[-1]
    assert (end.kind, end.rack, end.score) == (EventKind.END_POINTS, None, 14)
    assert EN.tiles.format(end.counted) == "EGOP"
    josh = read_shared(shared, "gcgio_testdata_josh2.gcg")
    bonus = josh.events[1]
    assert (bonus.kind, bonus.player, bonus.score) == (EventKind.CHALLENGE_BONUS, "jvc", 5)
    assert EN.tiles.format(bonus.rack or ()) == "DIMSTTW"
    woogles = read_shared(shared, "preendgame_testdata_issue_476.gcg")
    time = woogles.events[-1]
    assert (time.kind, time.score, time.total) == (EventKind.TIME_PENALTY, -10, 422)
    assert woogles.lexicon == "NWL23"
    assert woogles.pragmas == [("game-type", "classic")]
    assert woogles.events[0].action == Exchange(EN.tiles.parse("EQ"))
    bot = read_shared(shared, "gcgio_testdata_guy_vs_bot.gcg")
    blank_play = bot.events[2].action
    assert isinstance(blank_play, Place)
    assert blank_play.tiles[1] == EN.tiles.code("L") | BLANK_BIT
    assert bot.events[2].rack == EN.tiles.parse("?AEFPRU", rack=True)


def test_notes_are_attached_to_the_event_they_follow(shared: Path) -> None:
    record = read_shared(shared, "puzzles_testdata_well_played_game.gcg")
    assert record.notes == []
    assert record.events[0].notes == [
        "C: this was a table 1 game, yay!",
        "A: definitely a mistake. I should have played it at H4. #mindgameslarge",
    ]
    assert record.events[1].notes == []


def test_elise_writes_board_letters_instead_of_dots(shared: Path) -> None:
    record = read_shared(shared, "gcgio_testdata_incomplete_elise.gcg")
    malthas = record.events[5].action
    assert isinstance(malthas, Place)
    assert EN.tiles.format(malthas.tiles, through=".") == "MALTHA"
    assert record.final_racks == {
        1: EN.tiles.parse("AEEIILZ", rack=True), 2: EN.tiles.parse("AAAELQS", rack=True),
    }
    replay = replay_gcg(record)
    assert replay.disagreements == []
    assert replay.totals == {"Player_1": 336, "Player_2": 298}


# --- reading leniently --------------------------------------------------------------------

HEADER = "#player1 a Ann\n#player2 b Bob\n"


@pytest.mark.parametrize(
    ("line", "reason", "text"),
    [
        ("what is this", "junk", "not a pragma"),
        (">a: DINNVWY 8Z WINDY +32 32", "bad-event", "bad coordinate '8Z'"),
        (">a: DINNVWY Q8Q WINDY +32 32", "bad-event", "bad coordinate"),
        (">a: DINNVWY 8D WINDY +3x 32", "bad-event", "bad score"),
        (">a: DINNVWY 8D WINDY 32", "bad-event", "bad score"),
        (">a: DINNVWY 8D WINDY +32", "bad-event", "bad score"),
        (">a DINNVWY 8D WINDY +32 32", "bad-event", "an event is"),
        (">a: +32 32", "bad-event", "needs a move"),
        (">a: X Y 8D WINDY +32 32", "bad-event", "too many fields"),
        (">a: WINDY +32 32", "bad-event", "coordinate and tiles"),
        (">a: DINNVWY WINDY +32 32", "bad-event", "bad coordinate 'DINNVWY'"),
        (">a: DINNVWY 8D WIN?DY +32 32", "bad-event", "unexpected '?'"),
        (">a: DINNVWY 8D W[XX]Y +32 32", "bad-event", "no tile 'XX'"),
        (">a: DINNVWY 8D WİNDY +32 32", "unknown-tile", "no tile İ"),
        (">a: DIN!VWY 8D WINDY +32 32", "bad-event", "unexpected '!'"),
        (">a: ABC -A²B +0 0", "bad-event", "unexpected '²'"),
        ("#", "bad-pragma", "not a pragma"),
        ("#player1", "bad-pragma", "needs a nickname"),
        ("#rack1 AB!", "bad-pragma", "#rack1: unexpected '!'"),
        ("#rack2 ABź", "unknown-tile", "#rack2: no tile Ź in edition en"),
        (">a: ı 8D ıs +2 2", "unknown-tile", "no tile ı in edition en"),
    ],
)
def test_malformed_lines_become_errors_and_are_skipped(line: str, reason: str, text: str) -> None:
    record = read_gcg(HEADER + line + "\n>b: ADEEGIL 7C GALE +16 16\n")
    assert [(e.line, e.reason) for e in record.errors] == [(3, reason)]
    assert text in record.errors[0].message
    assert [e.player for e in record.events] == ["b"]
    assert record.events[0].line == 4


@given(st.text(max_size=400))
@settings(max_examples=300)
def test_reading_any_text_never_raises(text: str) -> None:
    record = read_gcg(text)
    assert all(e.line >= 1 for e in record.errors)
    if not any(e.reason in ("unknown-tile", "unknown-edition") for e in record.errors):
        assert all(d.line >= 1 for d in check_gcg(record))


@given(st.lists(st.sampled_from([
    "#player1 a Ann", "#note x", ">a: ", ">a: ?AB 8D ", "AB", "+3", "-2", "(challenge)",
    "(time)", "--", "-", "(AB)", "8D", "H8", "WINDY", ".A", "#rack1 ", "-AB", " 10", "\n",
    "\r\n", "é", "[CH]", "#lexicon FILE", "#tile-distribution it", "\ufeff",
]), max_size=40).map("".join))
@settings(max_examples=300)
def test_reading_jumbled_gcg_pieces_never_raises(text: str) -> None:
    record = read_gcg(text.encode("utf-8"))
    again = read_gcg(write_gcg(record))
    assert again == record


@given(st.binary(max_size=200))
def test_reading_any_bytes_never_raises(data: bytes) -> None:
    assert read_gcg(data).encoding in ("UTF-8", "ISO-8859-1")


def test_encoding_pragma_that_lies_is_noted_and_latin1_used() -> None:
    data = "#character-encoding UTF-8\n#player1 c césar\n".encode("latin-1")
    record = read_gcg(data)
    assert record.players == [GcgPlayer("c", "césar")]
    assert record.encoding == "ISO-8859-1"
    assert [e.reason for e in record.errors] == ["encoding"]


def test_iso_8859_1_pragma_and_byte_order_mark() -> None:
    latin = "#character-encoding ISO-8859-1\n#player1 h hércules\n".encode("latin-1")
    assert read_gcg(latin).players[0].name == "hércules"
    assert decode_gcg(b"\xef\xbb\xbf#character-encoding latin1\n", [])[1] == "ISO-8859-1"
    bom = "\ufeff#player1 é é\r\n>é: AB 8G AB +8 8\r\n".encode()
    record = read_gcg(bom)
    assert record.players[0].nickname == "é" and record.errors == []


def test_the_edition_comes_from_the_pragmas() -> None:
    assert read_gcg("#lexicon FILE2017\n").edition.name == "es"
    assert read_gcg("#lexicon CSW21\n").edition.name == "en"
    assert read_gcg("#lexicon NWL18\n#tile-distribution italian\n").edition.name == "it"
    assert read_gcg("#player1 a a\n").edition.name == "en"
    assert read_gcg("#lexicon FILE2017\n", edition=EN).edition.name == "en"
    odd = read_gcg("#lexicon OSPS44\n")
    assert odd.edition.name == "en" and [e.reason for e in odd.errors] == ["lexicon"]
    polish = read_gcg("#tile-distribution polish\n")
    assert [e.reason for e in polish.errors] == ["unknown-edition"]
    with pytest.raises(FormatError, match="polish"):
        replay_gcg(polish)
    assert edition_for_lexicon(None) is None


def test_spanish_digraphs_read_and_write() -> None:
    record = read_gcg("#lexicon FILE2017\n>a: [CH]AO? 8G [CH]Ao +10 10\n")
    assert record.errors == []
    event = record.events[0]
    assert isinstance(event.action, Place)
    assert len(event.action.tiles) == 3 and event.action.tiles[0] == ES.tiles.code("CH")
    assert event.rack == ES.tiles.parse("?A[CH]O", rack=True)
    assert ">a: ?A[CH]O 8G [CH]Ao +10 10" in write_gcg(record)
    # C then H as two tiles must not read back as the single tile CH.
    two = Place(Square(7, 7), Direction.ACROSS, ES.tiles.parse("[C]H", through=True))
    assert len(two.tiles) == 2
    record.events[0].action = two
    assert "8H [C]H " in write_gcg(record)
    assert read_gcg(write_gcg(record)) == record


def test_a_spanish_record_without_lexicon_names_its_tile_distribution() -> None:
    record = GcgRecord(edition=ES, players=[GcgPlayer("a")])
    text = write_gcg(record)
    assert "#tile-distribution es\n" in text
    assert read_gcg(text) == record
    assert "#tile-distribution" not in write_gcg(GcgRecord(edition=EN))


# --- writing canonically; hypothesis round trip --------------------------------------------

EDITIONS = [find_edition(name) for name in ("en", "es", "pt-BR", "it")]
_KNOWN = {"note", "title", "description", "id", "lexicon", "character-encoding",
          "tile-distribution"}
_text = st.text(
    alphabet=st.characters(categories=("L", "N", "P", "S")) | st.just(" "), max_size=20
).map(str.strip)
_nickname = st.from_regex(r"[A-Za-z0-9_.'-]{1,10}", fullmatch=True)
_note_line = _text.filter(lambda s: s != "" and s[0] not in "#>")
_note = st.lists(_note_line, min_size=1, max_size=3).map("\n".join)
_pragma_name = st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True).filter(
    lambda s: s not in _KNOWN and not s.startswith(("player", "rack"))
)
_score = st.integers(-999, 999)


def _racks(edition: Edition, min_size: int = 1) -> st.SearchStrategy[tuple[int, ...]]:
    # In any order, designated blanks too: records keep racks in one order (as_rack).
    codes = st.integers(0, len(edition.tiles.labels) - 1)
    codes |= st.integers(1, len(edition.tiles.labels) - 1).map(lambda t: t | BLANK_BIT)
    return st.lists(codes, min_size=min_size, max_size=7).map(tuple)


@st.composite
def _events(draw: st.DrawFn, edition: Edition, nicknames: list[str]) -> GcgEvent:
    kind = draw(st.sampled_from(list(EventKind)))
    letters = st.integers(1, len(edition.tiles.labels) - 1)
    tile = letters | letters.map(lambda t: t | BLANK_BIT) | st.just(THROUGH)
    action: Place | Exchange | Pass | None = None
    counted: tuple[int, ...] = ()
    score = draw(_score)
    if kind is EventKind.PLAY:
        square = Square(draw(st.integers(0, 14)), draw(st.integers(0, 14)))
        tiles = tuple(draw(st.lists(tile, min_size=1, max_size=15)))
        action = Place(square, draw(st.sampled_from(list(Direction))), tiles)
    elif kind is EventKind.EXCHANGE:
        action = draw(st.one_of(
            _racks(edition).map(Exchange),
            st.integers(0, 7).map(lambda n: Exchange(count=n)),
        ))
    elif kind is EventKind.PASS:
        action = Pass()
    elif kind in (EventKind.END_POINTS, EventKind.END_PENALTY):
        counted = draw(_racks(edition, min_size=0))
        score = abs(score) if kind is EventKind.END_POINTS else -abs(score)
    return GcgEvent(
        player=draw(st.sampled_from(nicknames)), kind=kind, score=score,
        total=draw(st.integers(-999, 9999)), rack=draw(st.none() | _racks(edition)),
        action=action, counted=counted, notes=draw(st.lists(_note, max_size=2)),
    )


@st.composite
def records(draw: st.DrawFn) -> GcgRecord:
    edition = draw(st.sampled_from(EDITIONS))
    nicknames = draw(st.lists(_nickname, min_size=1, max_size=3, unique=True))
    players = [GcgPlayer(n, draw(_text.filter(bool))) for n in nicknames]
    optional = st.none() | _text
    return GcgRecord(
        edition=edition,
        players=players,
        lexicon=draw(st.none() | st.sampled_from(["NWL23", "CSW21", "FILE2017", "OSPS44"])),
        title=draw(optional),
        description=draw(optional),
        id=draw(optional),
        pragmas=draw(st.lists(st.tuples(_pragma_name, _text), max_size=3)),
        notes=draw(st.lists(_note, max_size=2)),
        events=draw(st.lists(_events(edition, nicknames), max_size=12)),
        final_racks=draw(st.dictionaries(st.integers(1, 2), _racks(edition, min_size=0))),
    )


@given(records())
@settings(max_examples=300, deadline=None)
def test_write_then_read_is_the_identity(record: GcgRecord) -> None:
    text = write_gcg(record)
    again = read_gcg(text.encode("utf-8"))
    assert problems(again) == []
    assert again == record
    assert write_gcg(again) == text


def test_writer_sorts_racks_and_writes_signs() -> None:
    record = read_gcg(">a: YX? 8G XY +9 9\n>a: ZQ -- -9 0\n>a: (QZ) -20 -20\n>a: -3 +0 -20")
    lines = write_gcg(record).splitlines()
    assert lines[1:] == [
        ">a: ?XY 8G XY +9 9", ">a: QZ -- -9 0", ">a: (QZ) -20 -20", ">a: -3 +0 -20",
    ]
    assert record.events[3].action == Exchange(count=3)


def test_events_refuse_inconsistent_fields() -> None:
    with pytest.raises(ValueError, match="needs a Place"):
        GcgEvent("a", EventKind.PLAY, 0, 0)
    with pytest.raises(ValueError, match="cannot score"):
        GcgEvent("a", EventKind.END_POINTS, -4, 0)
    assert GcgEvent("a", EventKind.PASS, 0, 0, rack=(), action=Pass()).rack is None


# --- replaying: each check can fail -------------------------------------------------------

GAME = """#player1 doug doug
#player2 emely emely
>doug: DINNVWY 8D WINDY +32 32
>emely: ADEEGIL 7C GALE +16 16
>doug: AEJNOSV E3 JAVE..N +34 66
"""


def disagreements(text: str) -> list[str]:
    return [str(d) for d in check_gcg(read_gcg(text))]


def test_a_good_opening_agrees() -> None:
    replay = replay_gcg(read_gcg(GAME))
    assert replay.disagreements == []
    assert replay.totals == {"doug": 66, "emely": 16}
    assert not replay.finished
    assert replay.board.tile_count() == 5 + 4 + 5


def test_a_wrong_score_and_a_wrong_total_are_reported_once_each() -> None:
    found = disagreements(GAME.replace("+34 66", "+35 66"))
    assert found == [
        "line 5: E3 JAVE..N scores +34 (JAVELIN 34 = 34), recorded +35",
        "line 5: running total 66, expected 32 +35 = 67",
    ]
    assert disagreements(GAME.replace("+16 16", "+16 17")) == [
        "line 4: running total 17, expected 0 +16 = 16"
    ]


def test_bingo_bonus_and_tiles_not_on_the_rack() -> None:
    assert disagreements(">a: ADEINST 8D DETAINS +20 20\n") == [
        "line 1: 8D DETAINS scores +70 (DETAINS 20 + bingo 50 = 70), recorded +20"
    ]
    assert disagreements(">a: ADEINST 8D DETAINS +70 70\n") == []
    found = disagreements(GAME.replace("AEJNOSV E3", "AENOSVX E3"))
    assert found == ["line 5: E3 JAVE..N: tiles not on the rack AENOSVX: J"]


def test_plays_that_cannot_be_laid_are_reported_not_raised() -> None:
    taken = disagreements(GAME + ">emely: AEEIL 8D FIE +6 22\n")
    assert len(taken) == 1 and "square D8 is taken by W" in taken[0]
    off = disagreements(GAME + ">emely: AEEIL 8M FIERY +6 22\n")
    assert len(off) == 1 and "off the board" in off[0]
    hole = disagreements(GAME + ">emely: AEEIL 12A F.E +6 22\n")
    assert len(hole) == 1 and "empty: nothing to play through" in hole[0]


def test_withdrawn_phony() -> None:
    phony = GAME + ">emely: DEIILTZ 9F ZIT +35 51\n>emely: DEIILTZ -- -35 16\n"
    replay = replay_gcg(read_gcg(phony))
    assert replay.disagreements == []
    assert replay.board.tile_count() == 14
    wrong = phony.replace("-- -35 16", "-- -30 21")
    assert disagreements(wrong) == ["line 7: withdrawing 9F ZIT scores -35, recorded -30"]
    rack = phony.replace("DEIILTZ --", "DEIILTX --")
    assert disagreements(rack) == [
        "line 7: rack DEIILTX is not the rack DEIILTZ of the withdrawn play"
    ]
    stray = GAME + ">emely: DEIILTZ -- -24 -8\n"
    assert disagreements(stray) == ["line 6: a withdrawn phony (--) must follow a play by emely"]


def test_challenge_bonus() -> None:
    good = GAME + ">doug: ADENOST (challenge) +5 71\n"
    assert disagreements(good) == []
    assert disagreements(GAME + ">doug: (challenge) +7 73\n") == [
        "line 6: a challenge bonus is 5 or 10 points, recorded +7"
    ]
    assert disagreements(GAME + ">emely: (challenge) +10 26\n") == [
        "line 6: a challenge bonus goes to the player whose play stood: it must follow a play "
        "by emely"
    ]


END = "#player1 a a\n#player2 b b\n>a: AB 8G AB +8 8\n>b: - +0 0\n"
# Once a goes out, b holds every tile that is not on the board: all but one A and one B.
UNSEEN = EN.tiles.format(
    sorted(t for t, n in enumerate(EN.tiles.counts) for _ in range(n - (t in (1, 2))))
)


def test_end_of_game_rack_points() -> None:
    assert len(UNSEEN) == 98
    assert disagreements(END + f">a: ({UNSEEN}) +366 374\n") == []
    assert disagreements(END + f">a: ({UNSEEN}) +364 372\n") == [
        f"line 5: ({UNSEEN}), worth 183, scores +366, recorded +364"
    ]
    short = disagreements(END + ">a: (QZ) +40 48\n")
    assert len(short) == 1 and short[0].startswith("line 5: counts (QZ), but the tiles not")
    holding = END.replace(">a: AB 8G AB", ">a: ABC 8G AB")
    assert disagreements(holding + ">a: (QZ) +40 48\n")[0] == (
        "line 5: a still holds C: only a player who went out gains the others' racks"
    )


def test_own_rack_penalty_and_time_penalty() -> None:
    game = GAME + ">doug: AEJNOSV (OS) -2 64\n"
    assert disagreements(game) == []
    assert disagreements(GAME + ">doug: (OS) -3 63\n") == [
        "line 6: a rack penalty for (OS) scores -2, recorded -3"
    ]
    assert disagreements(GAME + ">doug: (J) -8 58\n") == [
        "line 6: counts (J), but J is on the board",
        "line 6: counts (J), but the player kept OS too",
    ]
    assert disagreements(GAME + ">doug: (time) -10 56\n") == []
    assert disagreements(GAME + ">doug: (time) -7 59\n") == [
        "line 6: a time penalty is a loss of 10 points per minute, recorded -7"
    ]


def test_passes_exchanges_and_unknown_players() -> None:
    assert disagreements(GAME + ">emely: ABC - +0 16\n>emely: ABC -AB +0 16\n") == []
    assert disagreements(GAME + ">emely: ABC - +3 19\n") == [
        "line 6: a pass scores +0, recorded +3"
    ]
    assert disagreements(GAME + ">emely: ABC -AD +0 16\n") == [
        "line 6: exchanges D, not on the rack ABC"
    ]
    assert disagreements(GAME + ">emely: ABC -4 +0 16\n") == [
        "line 6: exchanges 4 tiles from a rack of 3"
    ]
    assert disagreements(GAME + ">zed: - +0 0\n") == [
        "line 6: 'zed' is not a player of this game (doug, emely)"
    ]


@pytest.mark.parametrize("name", [
    "gcgio_testdata_josh2.gcg",
    "gcgio_testdata_doug_v_emely_double_challenge.gcg",
    "preendgame_testdata_issue_476.gcg",
])
def test_every_recorded_score_is_checked(shared: Path, name: str) -> None:
    # Change one score by one point, and every later total of that player to match: the
    # replay must point at that line, whatever the kind of event.
    record = read_shared(shared, name)
    kinds = set()
    for i, event in enumerate(record.events):
        events = list(record.events)
        for j in range(i, len(events)):
            if events[j].player == event.player:
                events[j] = dataclasses.replace(events[j], total=events[j].total + 1)
        events[i] = dataclasses.replace(events[i], score=event.score + 1)
        found = check_gcg(dataclasses.replace(record, events=events))
        assert event.line in [d.line for d in found], str(event)
        kinds.add(event.kind)
    assert EventKind.PLAY in kinds and len(kinds) >= 4
