"""The game loop of terminal play, driven in-process: a script types the lines and a console
writes to a string. (The real program in a pseudo-terminal is tested in test_cli_play.py.)"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from rich.console import Console

from helpers import phony_first_play
from letras.editions import find_edition
from letras.game import Game, Player
from letras.i18n import messages
from letras.lexicon import load_lexicon
from letras.lexicon.kwg import WordGraph
from letras.terminal.saving import load_saved
from letras.terminal.table import Table, TableOptions

PT = find_edition("pt-BR")


@pytest.fixture(scope="module")
def graph() -> WordGraph:
    lexicon = load_lexicon(PT)
    assert isinstance(lexicon, WordGraph)
    return lexicon


class Script:
    """Types the given lines at the prompts, then ends the input (EOF)."""

    def __init__(self, console: Console, lines: Iterable[str]) -> None:
        self.console = console
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.console.print(prompt, end="")
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        self.console.print(line)
        return line


def table(game: Game, graph: WordGraph, lines: Iterable[str], tmp_path: Path,
          language: str = "pt-BR") -> tuple[Table, io.StringIO, Script]:
    out = io.StringIO()
    console = Console(file=out, color_system=None, width=80, highlight=False, markup=False,
                      emoji=False)
    script = Script(console, lines)
    options = TableOptions(plain=True, ai_seconds=2, save_dir=tmp_path)
    return Table(game, graph, messages(language), console, script, options), out, script


def against_greedy(graph: WordGraph, seed: int = 1, **rules: object) -> Game:
    # Seed 1: Ana draws B, the computer N, so Ana starts.
    game = Game(PT, [Player("Ana"), Player("Computador", "ai:greedy")], seed=seed,
                lexicon=graph, rules=PT.rules.replace(**rules))
    assert game.to_move == 0
    return game


phony = phony_first_play


def test_undo_takes_back_the_person_and_the_computer(graph: WordGraph, tmp_path: Path) -> None:
    game = against_greedy(graph)
    rack = game.rack(0)
    # Ana's best play, then the computer answers; then Ana takes both back.
    hint_table, hint_out, _ = table(against_greedy(graph), graph, ["dica 1"], tmp_path)
    hint_table.run()
    best = hint_out.getvalue().split("1. ", 1)[1].split("  ")[0]
    t, out, _ = table(game, graph, [best, "desfazer", "desfazer"], tmp_path)
    assert t.run() == 0
    text = out.getvalue()
    assert "Desfeito (2 lances)." in text
    assert "nada a desfazer" in text  # the second undo: nothing left to take back
    assert t.game.moves == () and t.game.rack(0) == rack and t.game.scores == (0, 0)
    assert not list(tmp_path.iterdir())  # nothing to lose: no file saved at the end of input


def test_undo_never_takes_back_another_person(graph: WordGraph, tmp_path: Path) -> None:
    game = Game(PT, ["Ana", "Bruno"], seed=1, lexicon=graph)
    t, out, _ = table(game, graph, ["", "passar", "", "desfazer"], tmp_path)
    t.run()
    assert "nada a desfazer" in out.getvalue()
    assert len(t.game.moves) == 1


def test_the_computer_challenges_a_phony(graph: WordGraph, tmp_path: Path) -> None:
    game = against_greedy(graph)
    play = phony(game, graph, 0)
    t, out, _ = table(game, graph, [play], tmp_path)
    t.run()
    text = out.getvalue()
    assert f"Computador contesta {play}: " in text
    assert f"Ana: {play} sai do tabuleiro" in text
    kinds = [turn.kind for turn in t.game.turns]
    assert kinds[:3] == ["play", "withdrawn", "play"]  # then the computer plays
    assert t.game.scores[0] == 0 and t.game.turns[2].player == 1


def test_another_person_may_challenge_by_name(graph: WordGraph, tmp_path: Path) -> None:
    game = Game(PT, ["Ana", "Bruno", "Carla"], seed=1, lexicon=graph)
    first = game.to_move
    play = phony(game, graph, first)
    names = game.player_names
    challenger = names[(first + 2) % 3]
    t, out, _ = table(game, graph, ["", play, "", f"contestar {challenger}",
                                    f"contestar {names[first]}"], tmp_path)
    t.run()
    text = out.getvalue()
    assert f"{challenger} contesta {play}." in text
    assert "A contestação vale" in text
    assert t.game.turns[-1].kind == "withdrawn"
    assert t.game.to_move == (first + 1) % 3  # the next player still has the turn
    assert "não há jogada para contestar" in text  # nothing left to challenge


def test_void_rule_refuses_a_phony_and_the_player_tries_again(
    graph: WordGraph, tmp_path: Path
) -> None:
    game = against_greedy(graph, challenge_rule="void")
    play = phony(game, graph, 0)
    t, out, script = table(game, graph, [play, "contestar"], tmp_path)
    t.run()
    text = out.getvalue()
    assert "✗ fora do léxico: " in text
    assert "✗ nesta regra não há contestação" in text
    assert script.prompts == ["Ana> "] * 3 and t.game.moves == ()


def test_exchange_needs_tiles_in_the_bag(graph: WordGraph, tmp_path: Path) -> None:
    game = against_greedy(graph, exchange_min_bag=107)
    t, out, _ = table(game, graph, ["trocar a"], tmp_path)
    t.run()
    assert "✗ para trocar, o saco precisa ter pelo menos 107 pedras; tem 106" in out.getvalue()
    assert t.game.moves == ()


def test_end_of_input_saves_the_game_and_says_where(graph: WordGraph, tmp_path: Path) -> None:
    game = against_greedy(graph)
    t, out, _ = table(game, graph, ["passar"], tmp_path)
    assert t.run() == 0
    (saved,) = tmp_path.iterdir()
    assert f"letras play --resume {saved}" in out.getvalue()
    again = Game.from_dict(load_saved(saved).data, lexicon=graph)
    assert again.moves == t.game.moves and again.to_move == 0


def test_quit_offers_to_save(graph: WordGraph, tmp_path: Path) -> None:
    game = against_greedy(graph)
    target = tmp_path / "partida.gcg"
    t, out, script = table(game, graph, ["passar", "sair", "s", str(target)], tmp_path)
    assert t.run() == 0
    assert script.prompts[-2] == "Salvar a partida antes de sair? [S/n] "
    assert script.prompts[-1].startswith(f"Nome do arquivo [{tmp_path}{'/'}letras-")
    assert f"Partida salva em {target}." in out.getvalue()
    assert load_saved(target).data["moves"] == t.game.to_dict()["moves"]
    # Nothing new since the save: quitting asks nothing.
    t2, _, script2 = table(t.game, graph, ["sair"], tmp_path)
    t2.run(resumed=str(target))
    assert script2.prompts == ["Ana> "]


def test_messages_follow_the_language(graph: WordGraph, tmp_path: Path) -> None:
    game = against_greedy(graph)
    t, out, _ = table(game, graph, ["jump", "pass"], tmp_path, language="en")
    t.run()
    text = out.getvalue()
    assert "Draw for first play: Ana drew B, Computer drew N. Ana starts." not in text  # names
    assert "Draw for first play: Ana drew B, Computador drew N. Ana starts." in text
    assert "✗ don't know what 'jump' means" in text and "Ana passes." in text


def near_the_end(graph: WordGraph, out_seat: int) -> Game:
    """A game between Ana and the computer, both playing the highest-scoring play, stopped
    when seat ``out_seat`` has just played out with the bag empty (its play not yet
    accepted)."""
    from letras.ai import get_player
    from letras.play import Pass

    for seed in range(40):
        game = Game(PT, [Player("Ana"), Player("Computador", "ai:greedy")], seed=seed,
                    lexicon=graph)
        player = get_player("greedy", graph)
        while not game.over:
            seat = game.to_move
            choice = player.choose(game.view(seat))
            if isinstance(choice, Pass) and game.challengeable is None:
                break
            game.apply(choice, seat)
            if (game.challengeable is not None and not game.bag_count
                    and not game.rack(game.turns[-1].player)):
                if game.turns[-1].player == out_seat:
                    return game
                break
    raise AssertionError("no game found")


def test_a_play_that_goes_out_is_settled_before_the_count(
    graph: WordGraph, tmp_path: Path
) -> None:
    # The computer goes out: Ana is asked whether to challenge; Enter accepts.
    game = near_the_end(graph, out_seat=1)
    t, out, script = table(game, graph, ["passar", "", ""], tmp_path)
    assert t.run() == 0
    text = out.getvalue()
    assert "Computador terminou as pedras com" in text
    assert script.prompts[:2] == ["contestar? ", "contestar? "]  # "passar" is not an answer
    assert "✗ digite 'contestar', ou Enter para aceitar a jogada" in text
    assert t.game.over and t.game.end_reason == "out"
    assert "Fim de jogo: Computador usou todas as pedras e o saco está vazio." in text
    assert "Contagem final:" in text
    # Or Ana challenges it, and loses: the game ends all the same.
    game = near_the_end(graph, out_seat=1)
    t, out, _ = table(game, graph, ["contestar", ""], tmp_path)
    t.run()
    assert "Todas as palavras valem" in out.getvalue() and t.game.over


def test_a_clock_shows_and_forbids_undo(graph: WordGraph, tmp_path: Path) -> None:
    from letras.editions import TimeControl

    game = against_greedy(graph, time_control=TimeControl.parse("25m"))
    t, out, _ = table(game, graph, ["passar", "desfazer"], tmp_path)
    t.run()
    text = out.getvalue()
    assert "✗ não se volta jogada num jogo com relógio" in text
    assert re.search(r"▶ Ana +0  25:00", text)  # before Ana's first move
    assert re.search(r"Computador +\d+  24:\d\d", text)
    assert t.game.clocks[1] > 0  # the computer's thinking time is on its clock


def test_a_challenge_after_a_skipped_turn_is_of_the_last_play(
    graph: WordGraph, tmp_path: Path
) -> None:
    from letras.movegen import best_play

    game = Game(PT, ["Ana", "Bruno", "Carla"], seed=1, lexicon=graph)
    rehearsal = Game(PT, ["Ana", "Bruno", "Carla"], seed=1, lexicon=graph)
    first, second, third = (game.to_move + k for k in range(3))
    names = game.player_names
    plays = []
    for _ in range(2):
        found = best_play(rehearsal.board, rehearsal.rack(rehearsal.to_move), graph)
        assert found is not None
        plays.append(found[0].notation(PT))
        rehearsal.play(found[0])
    # The third player challenges the first play out of turn and loses: under the double
    # rule they lose their next turn, which comes right after the second play.
    t, out, _ = table(game, graph, ["", plays[0], "", f"contestar {names[third % 3]}", plays[1],
                                    "", "contestar"], tmp_path)
    t.run()
    text = out.getvalue()
    assert f"{names[third % 3]} vai perder a próxima vez." in text
    assert f"{names[third % 3]} perde a vez." in text
    # The first player's challenge is of the second play, not of the lost turn after it.
    assert f"{names[first]} contesta {plays[1].split()[0]} " in text
    assert [(turn.kind, turn.player) for turn in t.game.turns] == [
        ("play", first), ("play", second % 3), ("lost-turn", third % 3), ("lost-turn", first)]


def test_every_play_as_shown_reads_back_as_itself(graph: WordGraph) -> None:
    from letras.ai import get_player
    from letras.movegen import generate
    from letras.terminal.entry import read_play
    from letras.terminal.screen import play_text

    game = Game(PT, ["Ana", "Bruno"], seed=4, lexicon=graph)
    player = get_player("greedy", graph)
    for _ in range(6):
        game.apply(player.choose(game.view(game.to_move)))
    board, rack = game.board, list(game.rack(game.to_move))
    rack[0] = 0  # a blank, so that plays with blanks are among them
    plays = generate(board, rack, graph)
    assert len(plays) > 100
    checked = 0
    for i in range(0, len(plays), max(1, len(plays) // 400)):
        place = plays.place(i)
        shown = play_text(place, board)
        choices = read_play(shown, board, rack)
        assert any(c.placed() == place.placed() for c in choices), shown
        checked += 1
    assert checked > 100


# ----- as tried by a new user -----------------------------------------------------------------


def test_the_bag_on_screen_is_the_bag_the_next_player_faces(
    graph: WordGraph, tmp_path: Path
) -> None:
    # The computer's play waits for Ana's challenge, but its draw is counted: the screen and
    # the exchange agree with the bag Ana will face.
    game = against_greedy(graph, exchange_min_bag=100)
    t, out, _ = table(game, graph, ["passar", "trocar a"], tmp_path)
    t.run()
    text = out.getvalue()
    computer = [turn for turn in t.game.turns if turn.player == 1 and turn.kind == "play"]
    assert computer and t.game.pending_player == 1
    bag = 106 - computer[0].place.tile_count if computer[0].place else 0
    shown = [int(n) for n in re.findall(r"Saco: (\d+) pedras", text)]
    unseen = [int(n) for n in re.findall(r"Não vistas (\d+):", text)]
    assert shown[-1] == bag and unseen[-1] == bag + 7
    assert f"✗ para trocar, o saco precisa ter pelo menos 100 pedras; tem {bag}" in text


def test_the_next_person_at_a_hot_seat_sees_what_happened(
    graph: WordGraph, tmp_path: Path
) -> None:
    game = Game(PT, ["Ana", "Bruno"], seed=1, lexicon=graph)
    first = game.player_names[game.to_move]
    t, out, _ = table(game, graph, ["", "passar", "", "passar"], tmp_path)
    t.run()
    text = out.getvalue()
    # Shown when it happens, and again to the next person once the screen is theirs.
    assert text.count(f"{first} passa a vez.") == 2


def seats_with_computer_after(graph: WordGraph, person: int) -> Game:
    """Ana, Bruno and a computer, ``person`` to move first (the computer moves after
    Bruno)."""
    for seed in range(1, 200):
        game = Game(PT, [Player("Ana"), Player("Bruno"), Player("Computador", "ai:greedy")],
                    seed=seed, lexicon=graph)
        if game.to_move == person:
            return game
    raise AssertionError("no seed")


@pytest.mark.parametrize("answer", ["", "Ana"])
def test_other_people_may_challenge_before_the_computer_moves(
    graph: WordGraph, tmp_path: Path, answer: str
) -> None:
    from letras.movegen import best_play

    game = seats_with_computer_after(graph, 1)
    found = best_play(game.board, game.rack(1), graph)
    assert found is not None
    play = found[0].notation(PT)
    t, out, script = table(game, graph, ["", play, answer], tmp_path)
    t.run()
    text = out.getvalue()
    assert "Ana: contestar " in text and "contestar? " in script.prompts
    if answer:  # Ana challenges a good play: under the double rule she loses her next turn
        assert "Ana contesta " in text and "Todas as palavras valem" in text
        assert ("lost-turn", 0) in [(turn.kind, turn.player) for turn in t.game.turns]
    else:  # accepted: the computer moves
        assert t.game.turns[-1].player == 2 or t.game.pending_player == 2


def test_a_word_outside_the_lexicon_is_confirmed_against_a_casual_computer(
    graph: WordGraph, tmp_path: Path
) -> None:
    game = Game(PT, [Player("Ana"), Player("Computador", "ai:easy")], seed=1, lexicon=graph)
    assert game.to_move == 0
    play = phony(game, graph, 0)
    t, out, script = table(game, graph, [play, "n", play, "s"], tmp_path)
    t.run()
    text = out.getvalue()
    asked = [p for p in script.prompts if "não está no léxico: jogar assim mesmo?" in p]
    assert len(asked) == 2
    kinds = [turn.kind for turn in t.game.turns]
    assert kinds[:2] == ["play", "withdrawn"]  # played once, then challenged off
    assert "Computador contesta" in text


def test_a_per_move_clock_shows_at_the_prompt(graph: WordGraph, tmp_path: Path) -> None:
    from letras.editions import TimeControl

    game = against_greedy(graph, time_control=TimeControl.parse("move:3m"))
    t, _, script = table(game, graph, ["passar"], tmp_path)
    t.run()
    assert re.fullmatch(r"Ana (3:00|2:59)> ", script.prompts[0])


def test_the_person_at_the_terminal_is_spoken_to_in_the_second_person(
    graph: WordGraph, tmp_path: Path
) -> None:
    from letras.lexicon import load_lexicon

    en = find_edition("en")
    en_graph = load_lexicon(en)
    assert isinstance(en_graph, WordGraph)
    for seed in range(1, 50):
        game = Game(en, [Player("You"), Player("Computer", "ai:greedy")], seed=seed,
                    lexicon=en_graph)
        if game.to_move == 0:
            break
    t, out, _ = table(game, en_graph, ["pass"], tmp_path, language="en")
    t.run()
    text = out.getvalue()
    assert "You start." in text and "You pass." in text
    assert "You starts" not in text and "You passes" not in text
    it = find_edition("it")
    game = Game(it, [Player("Tu"), Player("Computer", "ai:greedy")], seed=1, lexicon=graph)
    t, out, _ = table(game, graph, [], tmp_path, language="it")
    t.run()
    assert "Tu hai pescato" in out.getvalue() and "Tu ha pescato" not in out.getvalue()


def test_the_clock_warns_while_a_person_thinks(graph: WordGraph, tmp_path: Path) -> None:
    import time

    from letras.editions import TimeControl

    game = against_greedy(graph, time_control=TimeControl.parse("move:2s"))
    t, out, script = table(game, graph, [], tmp_path)
    typed = iter(["passar"])

    def slow(prompt: str) -> str:  # Ana thinks for 1.9 s; the warning comes at 1.6 s
        script.prompts.append(prompt)
        line = next(typed, None)
        if line is None:
            raise EOFError
        time.sleep(1.9)
        return line

    t.ask = slow
    t.run()
    text = out.getvalue()
    assert re.search(r"Ana: só resta 0:0\d!", text)
    assert [turn.kind for turn in t.game.turns][:1] == ["pass"]  # in time: a pass, not a timeout
