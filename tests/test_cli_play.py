"""``letras play``: the real program, driven through a pseudo-terminal (pexpect) as a person
would type, in Portuguese (the default edition), without colour (``NO_COLOR``, ``TERM=dumb``)."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect  # type: ignore[import-untyped]
import pytest

from letras.cli import main
from letras.editions import find_edition
from letras.game import Game
from letras.lexicon import load_lexicon
from letras.lexicon.kwg import WordGraph
from letras.terminal.saving import load_saved

PT = find_edition("pt-BR")
PROMPT = r"(Ana|Bruno|Carla)> "
SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"


@pytest.fixture(scope="module")
def graph() -> WordGraph:
    lexicon = load_lexicon(PT)
    assert isinstance(lexicon, WordGraph)
    return lexicon


def spawn(cwd: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
    child = pexpect.spawn(sys.executable, ["-m", "letras", "play", *args], env=env, cwd=str(cwd),
                          encoding="utf-8", timeout=60, dimensions=(24, 80))
    return child


@pytest.fixture
def children() -> Iterator[list[pexpect.spawn]]:
    started: list[pexpect.spawn] = []
    yield started
    for child in started:
        if child.isalive():
            child.terminate(force=True)


def rack_of(text: str, name: str) -> list[str]:
    """The tiles of the rack line ``Suporte de NAME: A₁ C₃ ?₀`` (the last one in ``text``)."""
    line = re.findall(rf"Suporte de {name}: ([^\r\n]*)", text)[-1]
    return [tile.rstrip(SUBSCRIPTS) for tile in line.split()]


def phony(rack: list[str], graph: WordGraph) -> str:
    """A first play of two rack tiles across H8 that is not a word."""
    letters = [t for t in rack if t != "?"]
    for i, a in enumerate(letters):
        for j, b in enumerate(letters):
            if i != j and not graph.contains_tiles(PT.tiles.word_tiles(a + b)):
                return f"8H {a}{b}"
    raise AssertionError(f"every pair of {rack} is a word")


def hint(child: pexpect.spawn) -> str | None:
    """Ask for the best play at the prompt; the play, or None when there is none."""
    child.sendline("dica 1")
    child.expect(PROMPT)
    found = re.search(r"1\. (\S+ \S+)  ", child.before)
    return found.group(1) if found else None


def test_a_whole_game_against_the_computer(children: list[pexpect.spawn], tmp_path: Path,
                                           graph: WordGraph) -> None:
    child = spawn(tmp_path, "--players", "Ana,ai:greedy", "--seed", "7")
    children.append(child)
    child.expect(r"Sorteio de quem começa: [^\n]*\.")
    assert "Ana tirou" in child.after and "Computador tirou" in child.after
    typed = 0
    while True:
        i = child.expect([PROMPT, r"contestar\? ", r"escolha 1-\d+",
                          r"Nome do arquivo \(Enter: não\) "])
        assert "✗" not in child.before  # every hinted play is taken
        if i == 0:
            play = hint(child)
            child.sendline(play or "passar")
            typed += 1
            assert typed < 60
        elif i in (1, 2):
            child.sendline("")  # accept the computer's last play / the first way for a blank
        else:
            end = child.before
            child.sendline("fim.gcg")
            break
    child.expect(r"Partida salva em .*fim\.gcg\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Fim de jogo:" in end and "Contagem final:" in end
    # The final count: each player's score before it, the rack points, the final score.
    rows = re.findall(r"^  (Ana|Computador)\s+(-?\d+)  (.*)  = (-?\d+)\r?$", end, re.M)
    assert [r[0] for r in rows] == ["Ana", "Computador"]
    game = Game.from_dict(load_saved(tmp_path / "fim.gcg").data, lexicon=graph)
    assert game.over
    for p, (_, before, changes, final) in enumerate(rows):
        moved = sum(int(n) for n in re.findall(r"([+-]\d+) \(", changes))
        assert int(before) + moved == int(final) == game.scores[p]
    winner = "Ana" if game.scores[0] > game.scores[1] else "Computador"
    if game.scores[0] != game.scores[1]:
        assert re.search(rf"Vencedor: {winner}, com {max(game.scores)} pontos", end)
    # The record checks clean: every score and total agrees with the rules.
    assert main(["gcg", "check", str(tmp_path / "fim.gcg")]) == 0


def test_a_hot_seat_game_of_three(children: list[pexpect.spawn], tmp_path: Path,
                                  graph: WordGraph) -> None:
    child = spawn(tmp_path, "--players", "Ana,Bruno,Carla", "--seed", "3")
    children.append(child)
    order: list[str] = []
    for turn in range(9):
        child.expect(r"Vez de (\w+): \w+, pressione Enter para ver o seu suporte")
        name = child.match.group(1)
        order.append(name)
        assert "Suporte de" not in child.before  # the last rack is not on screen any more
        child.sendline("")
        child.expect(PROMPT)
        assert child.match.group(1) == name
        assert f"▶ {name}" in child.before and f"Suporte de {name}:" in child.before
        if turn == 0:
            # A phony, which the next player challenges, and wins.
            child.sendline(phony(rack_of(child.before, name), graph))
        elif turn == 1:
            child.sendline("contestar")
            child.expect("A contestação vale: .* não está no léxico.")
            child.expect(rf"{order[0]}: [^\n]* sai do tabuleiro")
            child.expect(PROMPT)
            assert child.match.group(1) == name  # the challenger plays on
            child.sendline(hint(child) or "passar")
        elif turn == 2:
            child.sendline(hint(child) or "passar")
        else:
            child.sendline("passar")  # two rounds of passes end the game
    assert order[:3] == order[3:6] == order[6:9] and sorted(order[:3]) == ["Ana", "Bruno", "Carla"]
    child.expect("Fim de jogo: todos passaram a vez duas rodadas seguidas.")
    child.expect(r"Nome do arquivo \(Enter: não\) ")
    count = child.before
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    for name in ("Ana", "Bruno", "Carla"):
        assert re.search(rf"^  {name} .*sobraram no suporte: .* = -?\d+", count, re.M)


def test_an_illegal_play_then_a_legal_one(children: list[pexpect.spawn], tmp_path: Path) -> None:
    child = spawn(tmp_path, "--players", "Ana,ai:greedy", "--seed", "1")
    children.append(child)
    child.expect(PROMPT)
    for typed, reason in (
        ("8a casa", "a primeira jogada precisa cobrir a casa central H8"),
        ("z9 casa", "casa 'z9' inválida: linha primeiro é horizontal (8D), coluna primeiro é"
                    " vertical (D8)"),
        ("pular", "não entendi 'pular': digite 'ajuda' para ver os comandos"),
        ("8h kiwi", "não há pedra 'K' nesta edição"),
        ("8h zzz", "falta no seu suporte A A E L S S T: Z Z Z"),
    ):
        child.sendline(typed)
        child.expect(PROMPT)
        lines = [line for line in child.before.splitlines() if line.strip()]
        assert lines[-1] == f"✗ {reason}", typed  # one line, and the same player again
        assert child.match.group(1) == "Ana"
    play = hint(child)
    assert play is not None
    child.sendline(play.lower())  # typed without caring about case
    child.expect(rf"Ana: {re.escape(play)}   [^\n]* = (\d+)   \(total \1\)")
    child.expect("Computador está pensando…")
    child.expect(PROMPT)
    child.sendline("sair")
    child.expect_exact("Salvar a partida antes de sair? [S/n] ")
    child.sendline("n")
    child.expect("Saiu sem salvar.")
    child.expect(pexpect.EOF)


def test_exchange_pass_and_challenges_won_and_lost(
    children: list[pexpect.spawn], tmp_path: Path, graph: WordGraph
) -> None:
    child = spawn(tmp_path, "--players", "Ana,ai:greedy", "--seed", "1")
    children.append(child)
    child.expect(PROMPT)
    rack = rack_of(child.before, "Ana")
    # Challenge won (by the computer): Ana's phony comes off the board.
    play = phony(rack, graph)
    child.sendline(play)
    child.expect(f"Computador contesta {play}: .* não está no léxico.")
    child.expect(f"Ana: {play} sai do tabuleiro")
    child.expect(r"Computador: (\S+ \S+) ")
    computer_play = child.match.group(1)
    child.expect(PROMPT)
    assert "(você pode 'contestar' a última jogada antes de jogar)" in child.before
    # Challenge lost: the play is good, and under the double rule Ana loses her turn.
    child.sendline("contestar")
    child.expect(f"Ana contesta {re.escape(computer_play)}.")
    child.expect("Todas as palavras valem: a contestação falha.")
    child.expect("Ana perde a vez.")
    child.expect("Computador: ")
    child.expect(PROMPT)
    # Exchange three tiles.
    rack = rack_of(child.before, "Ana")
    child.sendline("trocar " + "".join(rack[:3]).lower())
    child.expect("Ana troca 3 pedras.")
    child.expect(r"Seu suporte agora: ([^\r\n]*)")
    left = list(rack[3:])
    new = child.match.group(1).split()
    assert all(new.count(t) >= left.count(t) for t in left)
    child.expect(PROMPT)
    # Pass.
    child.sendline("passar")
    child.expect("Ana passa a vez.")
    child.expect(PROMPT)
    child.sendline("súmula")
    child.expect(PROMPT)
    sheet = [line.split()[1:] for line in child.before.splitlines()
             if re.match(r"\s+\d+ (Ana|Computador) ", line)]
    kinds = [" ".join(row[1:-2]) for row in sheet if row[0] == "Ana"]
    assert kinds[0] == play and kinds[1].endswith("retirada")
    assert kinds[2:] == ["perdeu a vez", "troca " + "".join(rack[:3]), "passou"]
    child.sendeof()
    child.expect(pexpect.EOF)


def test_save_quit_and_resume(children: list[pexpect.spawn], tmp_path: Path) -> None:
    child = spawn(tmp_path, "--players", "Ana,ai:greedy", "--seed", "1")
    children.append(child)
    child.expect(PROMPT)
    child.sendline(hint(child) or "passar")
    child.expect("Computador: ")
    child.expect(PROMPT)
    screen = child.before
    scores = re.findall(r"(Ana|Computador)\s+(\d+)\s*$", screen, re.M)
    child.sendline("salvar jogo.gcg")
    child.expect(r"Partida salva em (\S+)\.\r\n")
    assert Path(child.match.group(1)) == tmp_path / "jogo.gcg"
    child.expect(PROMPT)
    child.sendline("sair")  # saved just now: nothing to ask
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = load_saved(tmp_path / "jogo.gcg")
    assert len(saved.data["moves"]) == 2

    child = spawn(tmp_path, "--resume", "jogo.gcg")
    children.append(child)
    child.expect(r"Partida retomada de jogo\.gcg \(2 linhas na súmula\)\.")
    child.expect(PROMPT)
    assert re.findall(r"(Ana|Computador)\s+(\d+)\s*$", child.before, re.M) == scores
    last = re.findall(r"\d+ Computador\s+\S+ (\S+) ", child.before)[-1]  # on the scoresheet
    marked = re.findall(r"\[([^]]+)\]", child.before)  # the last play, framed on the board
    laid = re.sub(r"\(.*?\)", "", last)  # not the tiles it played through
    assert "".join("".join(m.split()) for m in marked) == laid, (marked, last)
    child.sendline("passar")
    child.expect("Computador: ")
    child.expect(PROMPT)
    child.sendintr()  # Ctrl-C: the game is saved, and the program says where
    child.expect(r"Partida salva em (\S+)\.\r\n")
    saved_to = Path(child.match.group(1))
    child.expect(r"Para continuar: letras play --resume (\S+)\r\n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert saved_to == tmp_path / "jogo.gcg"  # the file it came from
    assert len(load_saved(saved_to).data["moves"]) == 4

    child = spawn(tmp_path, "--resume", str(saved_to))
    children.append(child)
    child.expect(PROMPT)
    child.sendeof()  # end of input: nothing new, nothing to save
    child.expect(pexpect.EOF)


def test_refusals_before_the_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    foreign = tmp_path / "other.gcg"
    foreign.write_text("#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n",
                       encoding="utf-8")
    broken = tmp_path / "broken.gcg"
    broken.write_text("#player1 a A\n#player2 b B\n>a: ZZZZZZZ 8D ZZZZZZZ +80 80\n",
                      encoding="utf-8")
    for argv, message in (
        (["--resume", str(broken), "--edition", "en"], "A cannot hold ZZZZZZZ"),
        (["--resume", str(tmp_path / "none.gcg")], "não foi possível ler"),
        (["--players", "Ana,ai:wizard"], "não há o nível de computador 'wizard'"),
        (["--players", "Ana"], "o jogo precisa de 2 a 4 jogadores, não 1"),
        (["--clock", "soon"], "relógio 'soon' inválido"),
        (["--resume", str(foreign), "--seed", "3"], "tire --seed"),
    ):
        assert main(["play", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("letras: ") and message in err, (argv, err)
    assert main(["play", "--edition", "en", "--players", "Ann"]) == 2
    assert "a game needs 2 to 4 players, not 1" in capsys.readouterr().err


def test_a_word_list_file_is_remembered_for_resuming(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    words = Path(__file__).parent / "data" / "en-words.txt.xz"
    typed = iter(["pass", f"save {tmp_path / 'g.gcg'}", "quit"])
    monkeypatch.setattr("letras.cli.play._ask", lambda prompt: next(typed))
    argv = ["play", "--edition", "en", "--lexicon", str(words), "--players", "Ann,ai:greedy",
            "--seed", "2", "--ai-seconds", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "letras: English, lexicon en-words" in out and "Ann passes." in out
    saved = load_saved(tmp_path / "g.gcg")
    assert saved.lexicon_file == str(words.resolve())
    typed = iter(["quit"])
    assert main(["play", "--resume", str(tmp_path / "g.gcg")]) == 0
    out = capsys.readouterr().out
    assert "Game resumed from" in out and "lexicon" not in out  # no intro again
    assert re.search(r" 1 Ann +pass +\+0 +0\n", out)  # the scoresheet goes on


def test_a_record_from_another_program_is_resumed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    foreign = tmp_path / "woogles.gcg"
    foreign.write_text("#player1 ana Ana\n#player2 bob Bob\n#lexicon NWL20\n"
                       ">ana: AEINRST 8D RETAINS +66 66\n", encoding="utf-8")
    typed = iter(["sheet"])

    def answer(prompt: str) -> str:
        print(prompt)
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", answer)
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--resume", str(foreign), "--plain"]) == 0
    out = capsys.readouterr().out
    assert f"Game resumed from {foreign} (1 line on the scoresheet)" in out
    assert "Bob> " in out  # Bob to move, as the record stops after Ana's play
    assert "8D RETAINS" in out and "+66" in out
    saved = list(tmp_path.glob("letras-*.gcg"))
    assert not saved  # nothing new was played: nothing to save


FAKE_WARMING = '''\
"""A stand-in for the background compile of ``letras play`` (tests/test_cli_play.py): the
child says what the test writes into the named pipe, and the move generator counts as not
compiled, so the program says when it waits."""
import os
import subprocess

from letras import _compiled
from letras.cli import warm
from letras.movegen import prebuilt

_is_cached = _compiled.is_cached


def _start(edition, until="endgame", *, graph=False):
    child = subprocess.Popen(["cat", os.environ["LETRAS_TEST_WARMING"]],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    return warm.Warming(child)


warm.start = _start
_compiled.is_cached = lambda module, function: (
    module.__name__ != "letras.movegen._kernels" and _is_cached(module, function))
prebuilt.kernels = lambda: None  # nor compiled ahead of time (by the install)
'''
PREPARING = "Preparando o gerador de jogadas"


@pytest.fixture
def slow_warming(tmp_path: Path) -> Iterator[tuple[dict[str, str], Path]]:
    """An environment whose background compile says ``movegen`` only when the test writes
    it into the pipe (its path)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(FAKE_WARMING, encoding="utf-8")
    pipe = tmp_path / "warming"
    os.mkfifo(pipe)
    path = os.environ.get("PYTHONPATH")
    yield {"PYTHONPATH": str(site) + (os.pathsep + path if path else ""),
           "LETRAS_TEST_WARMING": str(pipe)}, pipe
    with contextlib.suppress(OSError):  # a child still waiting for the pipe: let it end
        os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))


def compiled(pipe: Path) -> None:
    with open(pipe, "w", encoding="utf-8") as f:
        f.write("movegen\n")


def spawn_with(cwd: Path, env: dict[str, str], *args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "letras", "play", *args],
                         env={**os.environ, "NO_COLOR": "1", "TERM": "dumb", **env},
                         cwd=str(cwd), encoding="utf-8", timeout=60, dimensions=(24, 80))


def test_a_person_moves_first_while_the_move_generator_compiles(
    children: list[pexpect.spawn], tmp_path: Path, slow_warming: tuple[dict[str, str], Path]
) -> None:
    env, pipe = slow_warming
    child = spawn_with(tmp_path, env, "--players", "Ana,ai:greedy", "--seed", "1")
    children.append(child)
    child.expect(PROMPT)  # the compile has not ended: the person is asked at once
    assert PREPARING not in child.before
    child.sendline("dica 1")  # a hint needs the move generator: it waits, saying so
    child.expect(PREPARING)
    compiled(pipe)
    child.expect(r"1\. (\S+ \S+)  ")
    child.expect(PROMPT)
    child.sendline("passar")
    i = child.expect([PREPARING, "Computador: "])  # waited once only
    assert i == 1
    child.expect(PROMPT)
    child.sendline("sair")
    child.expect(r"Salvar a partida")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_computer_waits_for_the_compile_and_ctrl_c_still_saves(
    children: list[pexpect.spawn], tmp_path: Path, slow_warming: tuple[dict[str, str], Path]
) -> None:
    env, _ = slow_warming
    child = spawn_with(tmp_path, env, "--players", "Ana,ai:greedy", "--seed", "1")
    children.append(child)
    child.expect(PROMPT)
    assert PREPARING not in child.before
    child.sendline("passar")
    i = child.expect([PREPARING, "Computador: "])  # the computer's turn waits, saying so
    assert i == 0
    child.sendintr()  # the compile never ends: Ctrl-C saves the game at once
    child.expect(r"Partida salva em (\S+)\.\r\n")
    saved = Path(child.match.group(1))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert len(load_saved(saved).data["moves"]) == 1  # the person's pass; the computer's none


def test_quit_while_the_move_generator_compiles(
    children: list[pexpect.spawn], tmp_path: Path, slow_warming: tuple[dict[str, str], Path]
) -> None:
    env, _ = slow_warming
    child = spawn_with(tmp_path, env, "--players", "Ana,ai:greedy", "--seed", "1")
    children.append(child)
    child.expect(PROMPT)
    child.sendline("sair")  # nothing played: nothing to save, nothing to wait for
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert PREPARING not in (child.before or "")
