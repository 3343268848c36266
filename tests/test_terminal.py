"""The pure parts of terminal play: typed plays and exchanges, commands, seats, messages in every
language, the screen and saved games (the game loop itself is in test_terminal_table.py, the
real program in a pseudo-terminal in test_cli_play.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console

from helpers import board_with
from letras.board import Board
from letras.editions import Edition, find_edition
from letras.errors import IllegalPlayError
from letras.game import Game, Player
from letras.i18n import FALLBACK, catalog, fields, find_language, languages, messages
from letras.lexicon import WordList
from letras.play import Place
from letras.terminal import InputError
from letras.terminal.commands import COMMANDS, Command, command_words, read_command
from letras.terminal.entry import looks_like_play, rank_by_score, read_exchange, read_play
from letras.terminal.saving import game_text, read_saved
from letras.terminal.screen import (
    board_lines,
    final_count,
    last_play,
    play_text,
    screen_lines,
    sheet_lines,
)
from letras.terminal.seats import ai_seed, read_seats
from letras.tiles import BLANK_BIT

PT = find_edition("pt-BR")
ES = find_edition("es")


def rack(text: str, edition: Edition = PT) -> tuple[int, ...]:
    return edition.tiles.parse(text, rack=True)


def notations(places: list[Place], edition: Edition = PT) -> list[str]:
    return [p.notation(edition) for p in places]


# ----- typed plays ---------------------------------------------------------------------------


def test_case_and_accents_do_not_matter() -> None:
    board = Board(PT)
    for typed in ("8g casa", "8G CASA", "8g CaSá", "  8g   casa "):
        assert notations(read_play(typed, board, rack("ACSAEIO"))) == ["8G CASA"], typed
    assert notations(read_play("h8 coração", board, rack("ÇÃOCROA"))) == ["H8 CORAÇAO"]


def test_a_letter_the_rack_lacks_comes_from_a_blank() -> None:
    (place,) = read_play("8g casa", Board(PT), rack("?ASAEIO"))  # no C: the blank is the C
    assert place.notation(PT) == "8G cASA"
    assert place.tiles[0] == PT.tiles.code("C") | BLANK_BIT


def test_a_letter_needed_more_often_than_the_rack_holds_it_is_asked() -> None:
    board = Board(PT)
    # One A and one blank: either A of CASA may be the blank.
    choices = read_play("8g casa", board, rack("ACS?EIO"))
    assert sorted(notations(choices)) == ["8G CASa", "8G CaSA"]
    # With two A tiles there is nothing to ask: a blank is kept for later.
    assert notations(read_play("8g casa", board, rack("ACSA?IO"))) == ["8G CASA"]
    # Ranked by score: 8G CASA puts its last A on J8, a plain square, and its first on H8
    # (the centre, a double word): the blank is better on H8?  Both double the word, so the
    # real A on either square scores the same (C 2 + S 1 + A 1 = 4, x2 = 8).
    ranked = rank_by_score(board, choices, 50)
    assert [points for _, points in ranked] == [8, 8]


def test_a_blank_on_a_letter_premium_scores_less() -> None:
    board = board_with(PT, "8H CASA")
    # L6 ZAZ down: L8 is a double letter beside the last A of CASA (words are not looked up
    # here, only shape and score). One Z and a blank: which Z is the blank?
    choices = read_play("l6 zaz", board, rack("ZA?EIOU"))
    best, worst = rank_by_score(board, choices, 50)
    # Real Z on L8: ZAZ 0 + 1 + 8x2 = 17, CASAZ 2 + 1 + 1 + 1 + 16 = 21.
    assert best[0].notation(PT) == "L6 zAZ" and best[1] == 17 + 21
    # Blank on L8: ZAZ 8 + 1 + 0 = 9, CASAZ 5 + 0 = 5.
    assert worst[0].notation(PT) == "L6 ZAz" and worst[1] == 9 + 5


def test_mixed_case_is_read_as_gcg_when_the_rack_allows() -> None:
    board = Board(PT)
    assert notations(read_play("8G CASa", board, rack("ACS?EIO"))) == ["8G CASa"]
    # "Casa" typed with a capital would need three blanks: read without caring about case.
    assert notations(read_play("8G Casa", board, rack("ACSAEIO"))) == ["8G CASA"]


def test_tiles_on_the_board_as_dots_letters_or_parentheses() -> None:
    board = board_with(PT, "8G CASA")
    for typed in ("h8 .oja", "H8 AOJA", "h8 (a)oja", "H7 S.OJA"):
        places = read_play(typed, board, rack("OJASIEU"))
        assert len(places) == 1
        new = [(sq.name, PT.tiles.label(t)) for sq, t in places[0].placed()]
        assert new[:2] == ([("H7", "S"), ("H9", "O")] if typed.startswith("H7")
                           else [("H9", "O"), ("H10", "J")]), typed
    with pytest.raises(IllegalPlayError) as taken:
        read_play("8g mesa", board, rack("MESAIOU"))
    assert taken.value.reason == "square-taken"


def test_spanish_digraphs_typed_plainly_or_bracketed() -> None:
    board = Board(ES)
    r = rack("[CH]A[LL]ORIE", ES)
    for typed in ("8g challo", "8G [CH]A[LL]O", "8g ChAlLo"):
        (place,) = read_play(typed, board, r)
        assert ES.tiles.format(place.tiles) == "[CH]A[LL]O", typed


def test_bad_plays_say_why() -> None:
    board = Board(PT)
    r = rack("ACSEIOU")
    cases = {
        "8g": "play.form",
        "8g casa x": "play.form",
        "Z9 casa": "play.bad_coordinate",
        "8g cwsa": "play.bad_letter",
        "8g cocos": "play.not_on_rack",
        "8g ccc?": "play.bad_letter",
    }
    for typed, key in cases.items():
        with pytest.raises(InputError) as e:
            read_play(typed, board, r)
        assert e.value.key == key, typed
    with pytest.raises(InputError) as e:
        read_play("8g cocos", board, rack("ACSEIO?"))
    assert e.value.key == "play.not_on_rack_blanks"
    assert e.value.values["tiles"] == "C O"
    with pytest.raises(IllegalPlayError) as shape:
        read_play("8a casa", board, r)
    assert shape.value.reason == "first-play-centre"
    assert looks_like_play("h8 x") and looks_like_play("15O a") and not looks_like_play("passar")


def test_exchanges_name_rack_tiles() -> None:
    r = rack("?AACEIO")
    assert read_exchange("a?c", r, PT) == rack("A?C")
    assert read_exchange("A A", r, PT) == rack("AA")
    with pytest.raises(InputError) as e:
        read_exchange("aaa", r, PT)
    assert e.value.key == "play.not_on_rack" and e.value.values["tiles"] == "A"
    with pytest.raises(InputError) as e:
        read_exchange("  ", r, PT)
    assert e.value.key == "exchange.which"
    # Spanish: RR on a rack is two R tiles unless the rack holds the RR tile.
    assert read_exchange("rr", rack("RRAEIOU", ES), ES) == rack("RR", ES)
    assert read_exchange("rr", rack("[RR]AEIOU", ES), ES) == rack("[RR]", ES)


# ----- commands ------------------------------------------------------------------------------


@pytest.mark.parametrize("language", languages())
def test_each_command_has_words_that_name_only_it(language: str) -> None:
    t = messages(language)
    seen: dict[str, str] = {}
    for table in {messages(FALLBACK), t}:
        for name in COMMANDS:
            for word in table.words(f"command.{name}"):
                assert not looks_like_play(word), word
                key = word.upper()
                assert seen.setdefault(key, name) == name, (language, word)
    words = command_words(t)
    assert set(words.values()) == set(COMMANDS)
    for name in COMMANDS:
        first = t.words(f"command.{name}")[0]
        assert read_command(first, t) == Command(name)


def test_commands_in_portuguese_and_english() -> None:
    pt = messages("pt-BR")
    assert read_command("passar", pt) == read_command("PASS", pt) == Command("pass")
    assert read_command("trocar ?ab", pt) == Command("exchange", "?ab")
    assert read_command("-", pt) == Command("pass")
    assert read_command("-QV", pt) == Command("exchange", "QV")
    assert read_command("contestar Bruno", pt) == Command("challenge", "Bruno")
    assert read_command("salvar jogo 1.gcg", pt) == Command("save", "jogo 1.gcg")
    assert read_command("Súmula", pt) == read_command("sumula", pt) == Command("sheet")
    assert read_command("h8 casa", pt) == Command("play", "h8 casa")
    for line, key in (("", "input.empty"), ("pular", "input.unknown"),
                      ("passar agora", "input.no_argument")):
        with pytest.raises(InputError) as e:
            read_command(line, pt)
        assert e.value.key == key


# ----- seats ---------------------------------------------------------------------------------


def test_seats_people_and_computers() -> None:
    pt = messages("pt-BR")
    default = read_seats(None, pt)
    assert default[0] == Player("Você", "human")
    assert default[1].name == "Computador" and default[1].kind.startswith("ai:")
    seats = read_seats("Ana, Bruno ,ai:GREEDY, ai:equity", pt)
    assert [(s.name, s.kind) for s in seats] == [
        ("Ana", "human"), ("Bruno", "human"), ("Computador 1", "ai:greedy"),
        ("Computador 2", "ai:equity"),
    ]
    assert read_seats("Ann,ai:greedy", messages("en"))[1].name == "Computer"
    for text, key in (("Ana", "seat.count"), ("a,b,c,d,e", "seat.count"), ("Ana,,ai", "seat.empty"),
                      ("Ana,ai:wizard", "seat.level"), ("Ana,ANA", "seat.twice")):
        with pytest.raises(InputError) as e:
            read_seats(text, pt)
        assert e.value.key == key, text
    assert ai_seed(7, 1) == ai_seed(7, 1) != ai_seed(7, 2)


# ----- messages ------------------------------------------------------------------------------


def test_every_language_has_every_message_with_the_same_fields() -> None:
    english = catalog(FALLBACK)
    assert {"pt-BR", "es", "it"} <= set(languages())
    for language in languages():
        table = catalog(language)
        assert set(table) == set(english), language
        for key, template in table.items():
            assert fields(template) == fields(english[key]), (language, key)
            template.format(**{f: "x" for f in fields(template)})  # well-formed


def test_every_message_the_code_names_exists() -> None:
    from pathlib import Path

    import letras.terminal as package

    source = "\n".join(p.read_text(encoding="utf-8")
                       for p in Path(package.__file__).parent.glob("*.py"))
    named = set(re.findall(r'["\']([a-z_]+(?:\.[a-z0-9_-]+)+)["\']', source))
    english = catalog(FALLBACK)
    keys = {k for k in named if k.split(".")[0] in {k2.split(".")[0] for k2 in english}}
    missing = sorted(k for k in keys if k not in english
                     and f"{k}.one" not in english and not k.startswith("letras."))
    assert len(keys) > 40 and not missing


def test_languages_by_edition_and_locale() -> None:
    assert find_language(PT.language) == "pt-BR"
    assert find_language("es_ES.UTF-8") == "es" and find_language("it") == "it"
    assert find_language("fr") == "en"
    pt = messages("pt-BR")
    assert pt.count("tiles", 0) == "0 pedras" and pt.count("points", 1) == "1 ponto"
    assert messages("xx")("seat.you") == "You"


# ----- the screen ----------------------------------------------------------------------------


def played(*plays: str, seed: int = 2026) -> Game:
    game = Game(PT, ["Ana", "Bruno"], seed=seed, lexicon=WordList(PT, []),
                rules=PT.rules.replace(challenge_rule="single"))
    for play in plays:
        game.play(play)
    return game


def test_the_board_shows_premiums_coordinates_and_the_last_play() -> None:
    game = Game(PT, ["Ana", "Bruno"], seed=2026)
    game.play("8G MUDO")
    lines = [line.plain for line in board_lines(game.board, last_play(game.view(1)), plain=True)]
    assert lines[0].split() == list("ABCDEFGHIJKLMNO")
    assert [line[:2].strip() for line in lines[1:]] == [str(r) for r in range(1, 16)]
    assert lines[1].split()[1:] == list("=..'...=...'..=")
    assert "[M U D O]" in lines[8]
    assert len({len(line) for line in lines[1:]}) == 1  # every row as wide
    # In colour: no brackets, styles instead (the premium squares have a background).
    coloured = board_lines(game.board, last_play(game.view(1)))
    console = Console(color_system="truecolor", force_terminal=True, width=80)
    with console.capture() as capture:
        console.print(coloured[8])
    ansi = capture.get()
    assert "[" not in coloured[8].plain and "\x1b[" in ansi and "M" in ansi


def test_a_withdrawn_play_is_not_the_last_play() -> None:
    game = Game(PT, ["Ana", "Bruno"], seed=2026, lexicon=WordList(PT, ["MUDO"]))
    game.play("8G MUDO")
    game.challenge(valid=False)
    assert last_play(game.view(0)) is None


def test_the_screen_fits_80_columns_in_every_edition() -> None:
    for name in ("pt-BR", "es", "it", "en"):
        edition = find_edition(name)
        game = Game(edition, ["Ana Maria Longname", "Bruno", "Carla", "Davi"], seed=3,
                    rules=edition.rules.replace(time_control=edition.rules.time_control))
        view = game.view(game.to_move)
        t = messages(edition.language)
        lines = screen_lines(view, t, plain=True)
        assert all(line.cell_len <= 80 for line in lines), name
        rack_line = lines[-1].plain
        assert rack_line.startswith(t("rack.line", name=game.player_names[game.to_move]))
        shown = re.sub("[₀-₉]", "", rack_line.split(":", 1)[1]).split()
        assert shown == [edition.tiles.label(tile) for tile in view.rack]
        assert not any("Ana Maria Longname"[:15] in line.plain for line in lines)  # cut to 14
        assert any("Ana Maria Longname"[:14] in line.plain for line in lines)


def test_unseen_tiles_and_vowel_counts() -> None:
    game = Game(PT, ["Ana", "Bruno"], seed=2026)
    view = game.view(0)
    text = "\n".join(line.plain for line in screen_lines(view, messages("pt-BR"), plain=True))
    unseen = 120 - 7
    # pt-BR vowels: A14 E11 I10 O10 U7 = 52 in the bag, less those on Ana's rack.
    on_rack = sum(1 for tile in view.rack if PT.tiles.labels[tile] in "AEIOU")
    blanks = view.unseen[0]
    consonants = unseen - (52 - on_rack) - blanks
    assert f"Não vistas {unseen}: {52 - on_rack} vogais, {consonants} consoantes" in text
    assert "Saco: 106 pedras" in text


def test_plays_are_shown_with_the_tiles_played_through() -> None:
    game = played("8G MUDO", "G6 SOMO")
    board = game.board
    place = game.turns[-1].place
    assert place is not None
    assert play_text(place, board) == "G6 SO(M)O"
    sheet = sheet_lines(game.view(0), messages("pt-BR"))
    names = game.player_names
    assert [line.split()[1:4] for line in sheet] == [[names[game.turns[0].player], "8G", "MUDO"],
                                                      [names[game.turns[1].player], "G6", "SO(M)O"]]


def test_final_count_as_the_rule_sheets_do_it() -> None:
    # Passing out the game: each player loses the value of their own rack.
    game = played("8G MUDO")
    for _ in range(4):
        game.pass_turn()
    assert game.over
    lines = [line.plain for line in final_count(game, messages("pt-BR"))]
    assert lines[0].startswith("Fim de jogo: todos passaram")
    assert lines[1] == "Contagem final:"
    values = PT.tiles.values
    for p, name in enumerate(game.player_names):
        row = next(line for line in lines if line.strip().startswith(name))
        numbers = [int(n) for n in re.findall(r"-?\d+", row.split("(")[0])]
        left = sum(values[tile] for tile in game.rack(p))
        before = 10 if p == game.turns[0].player else 0  # MUDO: M1 U1 D2 O1 = 5, x2 on H8
        assert numbers == [before, -left], row
        assert row.endswith(f"= {before - left}")
    winner = max(range(2), key=lambda p: game.scores[p])
    assert lines[-1].startswith(f"Vencedor: {game.player_names[winner]}")


# ----- saved games ---------------------------------------------------------------------------


def test_saving_makes_no_folder_and_follows_the_umask(tmp_path: Path) -> None:
    import os

    from letras.terminal.saving import save_game

    game = Game(PT, [Player("Ana"), Player("Bruno")], seed=11)
    with pytest.raises(InputError) as refused:
        save_game(game, tmp_path / "no" / "such" / "jogo.gcg")
    assert refused.value.key == "save.failed" and not (tmp_path / "no").exists()
    old = os.umask(0o027)
    try:
        written = save_game(game, tmp_path / "jogo.gcg")
    finally:
        os.umask(old)
    assert written.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jogo.gcg"]  # no temporary file


def test_a_saved_game_reads_back_exactly_and_is_plain_gcg() -> None:
    from letras.formats.gcg import read_gcg

    game = Game(PT, [Player("Ana"), Player("Computador", "ai:greedy")], seed=11,
                lexicon=WordList(PT, ["MUDO"]), rules=PT.rules.replace(challenge_rule="single"))
    first = game.to_move
    game.exchange(PT.tiles.format(game.rack(first)[:2], rack=True))
    text = game_text(game, lexicon_file="/somewhere/words.txt")
    record = read_gcg(text)
    assert not [e for e in record.errors if not e.is_notice]
    assert [e.kind.value for e in record.events] == ["exchange"]
    saved = read_saved(text)
    assert saved.lexicon_file == "/somewhere/words.txt"
    again = Game.from_dict(saved.data, lexicon=WordList(PT, ["MUDO"]))
    assert again.moves == game.moves and again.rack(first) == game.rack(first)
    assert again.players == game.players and again.rules == game.rules
    foreign = read_saved(">Ana: AB 8H AB +4 4\n")  # another program's record
    assert foreign.data == {} and foreign.record is not None
    assert [e.player for e in foreign.record.events] == ["Ana"]


def test_messages_for_every_rule_turn_and_reason() -> None:
    from letras.editions import CHALLENGE_RULES
    from letras.errors import IllegalPlayError as Illegal
    from letras.history import TURN_KINDS

    english = catalog(FALLBACK)
    assert all(f"rule.{rule}" in english for rule in CHALLENGE_RULES)
    assert all(f"sheet.{kind}" in english for kind in TURN_KINDS if kind != "play")
    assert all(f"end.reason.{r}" in english for r in ("out", "passes", "scoreless", "no-play"))
    assert all(f"count.{k}" in english for k in ("end-rack", "rack-penalty", "time-penalty"))
    documented = re.findall(r"``([a-z-]+)``", (Illegal.__doc__ or "").split("Reasons:")[1])
    assert len(documented) > 10
    assert all(f"illegal.{reason}" in english for reason in documented)


def test_the_default_person_reads_their_own_rack() -> None:
    pt = messages("pt-BR")
    game = Game(PT, read_seats(None, pt), seed=1)
    seat = next(p for p, player in enumerate(game.players) if player.kind == "human")
    lines = screen_lines(game.view(seat), pt, plain=True)
    assert lines[-1].plain.startswith("Seu suporte: ")


def test_every_refusal_the_library_names_is_in_every_catalog() -> None:
    from pathlib import Path

    import letras

    root = Path(letras.__file__).parent
    sources = sorted(root.rglob("*.py"))  # every module of the package
    text = "\n".join(p.read_text(encoding="utf-8") for p in sources)
    keys = set(re.findall(r'key="([a-z_]+\.[a-z0-9_.-]+)"', text))
    keys |= set(re.findall(r'TableError\(\s*"([a-z_]+\.[a-z0-9_.-]+)"', text))
    keys |= {f"illegal.{r}" for r in re.findall(r'IllegalPlayError\(\s*"([a-z-]+)"', text)}
    keys |= set(re.findall(r'ServerError\(\s*\d+,\s*"(server\.[a-z_]+)"', text))
    assert "server.bad_token" in keys
    assert len(keys) > 30
    assert {"cgp.rows", "saved.json", "record.rules", "lexicon.unknown"} <= keys
    for language in languages():
        table = catalog(language) | catalog(FALLBACK)
        assert not sorted(k for k in keys if k not in table), language
        assert set(catalog(language)) == set(catalog(FALLBACK))
