"""The game loop at the terminal: people type their moves, AI seats choose theirs.

A :class:`Table` holds a :class:`~letras.game.Game`, the word graph, the messages of the table's
language, a rich console to write to and an ``ask`` function to read a line (``input`` at a real
terminal; a script in tests). :meth:`Table.run` plays until the game ends or a player quits, and
returns the exit code.

- Whose turn it is shows in the prompt (``Ana> ``) and in the panel. With more than one person
  at the table (hot seat) the rack stays hidden until its owner presses Enter.
- Anything that cannot be done gets a one-line reason and the same player types again.
- A person may ``challenge`` the last play before their own move; an AI seat challenges a play
  of a person when a word is not in its lexicon. A play that goes out is settled (challenged
  or accepted) before the final count.
- ``undo`` takes back the person's last action and the computer's replies (never another
  person's move, never in a game with a clock).
- ``quit`` offers to save; Ctrl-C and the end of input save the game to a file and say where.
"""

from __future__ import annotations

import enum
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.text import Text

from letras.ai import Limit, get_player
from letras.ai.player import Player as AIPlayer
from letras.errors import IllegalPlayError, LetrasError
from letras.game import Game
from letras.history import Accept, NoPlayEnd
from letras.i18n import Messages
from letras.lexicon.kwg import WordGraph
from letras.movegen import top_plays
from letras.play import Challenge, Exchange, Pass, Place
from letras.rules import invalid_words, leave
from letras.terminal import InputError
from letras.terminal.commands import COMMANDS, Command, read_command
from letras.terminal.entry import rank_by_score, read_exchange, read_play, show_tiles
from letras.terminal.saving import save_game
from letras.terminal.screen import (
    final_count,
    play_text,
    score_text,
    screen_lines,
    sheet_lines,
)
from letras.terminal.seats import ai_seed, is_ai, level_of

Ask = Callable[[str], str]

MAX_HINTS = 20
_SQUARE = re.compile(r"\b([A-Z]\d{1,2})\b")


class _Next(enum.Enum):
    """What the loop does after a person's command."""

    AGAIN = "again"  # the same person types again
    REDRAW = "redraw"  # the same person again, after drawing the table anew
    DONE = "done"  # the turn is over
    QUIT = "quit"


@dataclass
class TableOptions:
    """How the table behaves: ``plain`` output, seconds an AI may think, hints listed."""

    plain: bool = False
    ai_seconds: float = 2.0
    hint_count: int = 5
    lexicon_file: str | None = None
    """The word list file the game uses, if not a shipped lexicon (written when saving)."""
    save_dir: Path | None = None
    """Where a game is saved when interrupted (default: the current directory)."""


class Table:
    """A game at the terminal (see the module docstring)."""

    def __init__(self, game: Game, lexicon: WordGraph, t: Messages, console: Console,
                 ask: Ask = input, options: TableOptions | None = None) -> None:
        self.game = game
        self.lexicon = lexicon
        self.t = t
        self.console = console
        self.ask = ask
        self.options = options or TableOptions()
        self.ai: dict[int, AIPlayer] = {
            seat: get_player(level_of(p), lexicon, seed=ai_seed(game.seed, seat))
            for seat, p in enumerate(game.players) if is_ai(p)
        }
        self.people = [seat for seat, p in enumerate(game.players) if not is_ai(p)]
        self.shown_to: int | None = None
        self.save_path: Path | None = None
        self.saved_moves = -1

    # ----- output -----------------------------------------------------------------------------

    def say(self, text: str | Text, style: str = "", *, wrap: bool = True) -> None:
        """Print a line; ``wrap=False`` leaves it whole (a file name to copy)."""
        self.console.print(text if isinstance(text, Text) else Text(text, style=style),
                           soft_wrap=not wrap)

    def refuse(self, message: str) -> None:
        """The one-line reason for refusing what was typed."""
        self.say(f"✗ {message}", style="bold red", wrap=False)

    def name(self, seat: int) -> str:
        return self.game.player_names[seat]

    def draw(self, seat: int, *, show_rack: bool = True) -> None:
        game = self.game
        tc = game.rules.time_control
        lines = screen_lines(
            game.view(seat), self.t, plain=self.options.plain, width=self.console.width,
            clocks=game.clocks, time_control=tc if tc.kind != "none" else None,
            show_rack=show_rack,
        )
        self.say("")
        for line in lines:
            self.say(line)

    def report(self, before: int) -> None:
        """Say what the scoresheet lines since ``before`` did."""
        t = self.t
        board = self.game.board
        for turn in self.game.turns[before:]:
            name = self.name(turn.player)
            if turn.kind == "play" and turn.place is not None and turn.score is not None:
                self.say(t("event.play", name=name, play=play_text(turn.place, board),
                           score=score_text(turn.score, t), total=turn.total), style="bold")
            elif turn.kind == "exchange":
                self.say(t("event.exchange", name=name,
                           tiles=t.count("tiles", turn.count or len(turn.tiles))))
            elif turn.kind == "withdrawn" and turn.place is not None:
                self.say(t("event.withdrawn", name=name, play=play_text(turn.place, board),
                           points=-turn.points))
            elif turn.kind in ("pass", "lost-turn", "timeout"):
                self.say(t(f"event.{turn.kind}", name=name))
            elif turn.kind in ("challenge-bonus", "challenge-penalty"):
                self.say(t(f"event.{turn.kind}", name=name, points=abs(turn.points)))

    def illegal(self, e: IllegalPlayError) -> str:
        """The reason a play was refused, in the table's language."""
        key = f"illegal.{e.reason}"
        if not self.t.has(key):
            return str(e)
        found = _SQUARE.search(str(e))
        return self.t(key, square=found.group(1) if found else "",
                      words=", ".join(e.invalid_words))

    # ----- the game ---------------------------------------------------------------------------

    def run(self, *, resumed: str | None = None) -> int:
        """Play to the end (or until a player quits); the exit code."""
        try:
            if resumed is None:
                self.intro()
            else:
                self.say(self.t("resume.done", path=resumed, n=len(self.game.turns)), wrap=False)
                self.save_path = Path(resumed)
                self.saved_moves = len(self.game.moves)
            while not self.game.over:
                if self.settle_out_play():
                    continue
                seat = self.game.to_move
                if seat in self.ai:
                    self.ai_turn(seat)
                elif self.person_turn(seat) is _Next.QUIT:
                    return 0
            self.finish()
            return 0
        except KeyboardInterrupt:
            self.say("")
            self.rescue()
            return 130
        except EOFError:
            self.say("")
            self.rescue()
            return 0
        except Exception:
            self.rescue()  # a bug must not cost the players their game either
            raise

    def intro(self) -> None:
        t, game = self.t, self.game
        rule = game.rules.challenge_rule
        self.say(t("intro.title", edition=game.edition.title, lexicon=game.lexicon_name),
                 style="bold")
        self.say(t("intro.rule", rule=t(f"rule.{rule}")))
        seats = [f"{p.name} ({level_of(p)})" if is_ai(p) else p.name for p in game.players]
        self.say(t("intro.players", players=", ".join(seats)))
        for number, draw in enumerate(game.first_draw):
            drawn = ", ".join(
                t("intro.drew", name=self.name(p), tile=game.edition.tiles.label(tile))
                for p, tile in sorted(draw)
            )
            last = number == len(game.first_draw) - 1
            self.say(t("intro.draw", draws=drawn) + " " +
                     (t("intro.starts", name=self.name(game.to_move)) if last else t("intro.tie")))
        self.say(t("intro.help"))

    def settle_out_play(self) -> bool:
        """A play that would end the game must be challenged or accepted before anything
        else: ask the people who may challenge it. True if there was one to settle."""
        game = self.game
        player = self.pending_player()
        if player is None or game.rack(player) or game.bag_count:
            return False
        if game.rules.challenge_rule == "void":
            game.accept()
            return True
        if self.ai_challenge(player):
            return True
        people = [p for p in self.people if p != player]
        if not people:
            game.accept()
            return True
        first = min(people, key=lambda p: (p - player) % len(game.players))
        place = game.challengeable
        assert place is not None
        self.say(self.t("out.ask", name=self.name(player), play=play_text(place, game.board)))
        while True:
            line = self.ask(self.t("out.prompt"))
            if not line.strip():
                game.accept()
                return True
            try:
                command = read_command(line, self.t)
                if command.name != "challenge":
                    raise InputError("out.only_challenge")
                self.challenge(first, command.arg)
                return True
            except InputError as e:
                self.refuse(self.t(e.key, **e.values))

    def pending_player(self) -> int | None:
        """Who made the play awaiting a challenge (None when there is none). Not always the
        last line of the scoresheet: a player who loses a turn is recorded after it."""
        place = self.game.challengeable
        if place is None:
            return None
        return next(turn.player for turn in reversed(self.game.turns)
                    if turn.kind == "play" and turn.place is place)

    def pending_invalid(self) -> list[str]:
        """The words of the play awaiting a challenge that the lexicon lacks."""
        game = self.game
        place = game.challengeable
        assert place is not None
        board = game.board
        board.put((sq, 0) for sq, _ in place.placed())
        return invalid_words(board, place, self.lexicon)

    def ai_challenge(self, player: int) -> bool:
        """After a person's play: the first AI seat after them challenges it if it forms a
        word outside the lexicon. True if it did."""
        game = self.game
        if game.challengeable is None or game.rules.challenge_rule == "void" or not self.ai:
            return False
        bad = self.pending_invalid()
        if not bad:
            return False
        n = len(game.players)
        by = next((s for k in range(1, n) if (s := (player + k) % n) in self.ai), None)
        if by is None:
            return False
        place = game.challengeable
        assert place is not None
        self.say(self.t("challenge.by_ai", name=self.name(by), play=play_text(place, game.board),
                        words=", ".join(bad)), style="bold")
        before = len(game.turns)
        game.challenge(by)
        self.report(before)
        return True

    def ai_turn(self, seat: int) -> None:
        game = self.game
        self.say(self.t("ai.thinking", name=self.name(seat)), style="dim")
        seconds = self.options.ai_seconds
        tc = game.rules.time_control
        if tc.kind == "move":
            seconds = min(seconds, tc.seconds * 0.8)
        start = time.monotonic()
        choice = self.ai[seat].choose(game.view(seat), Limit(seconds=seconds))
        used = time.monotonic() - start
        before = len(game.turns)
        try:
            game.apply(choice, seat, seconds=used if tc.kind != "none" else None)
        except LetrasError as e:  # a level that chose badly: pass rather than stop the game
            self.refuse(str(e))
            game.apply(Pass(), seat)
        self.report(before)

    # ----- a person's turn --------------------------------------------------------------------

    def person_turn(self, seat: int) -> _Next:
        t = self.t
        if len(self.people) > 1 and self.shown_to != seat:
            self.hide()
            self.ask(t("hotseat.prompt", name=self.name(seat)))
        self.shown_to = seat
        self.draw(seat)
        if self.pending_player() not in (None, seat):
            self.say(t("turn.may_challenge"), style="dim")
        start = time.monotonic()
        while True:
            line = self.ask(t("turn.prompt", name=self.name(seat)))
            try:
                command = read_command(line, t)
                after = self.do(seat, command, start)
            except InputError as e:
                if e.key != "input.empty":
                    self.refuse(t(e.key, **e.values))
                continue
            except IllegalPlayError as e:
                self.refuse(self.illegal(e))
                continue
            except LetrasError as e:
                self.refuse(str(e))
                continue
            if after is _Next.REDRAW:
                if self.game.to_move != seat or self.game.over:
                    return _Next.DONE
                self.draw(seat)
            elif after is not _Next.AGAIN:
                return after

    def hide(self) -> None:
        """Take the last rack off the screen before the next person sits down."""
        if not self.options.plain:
            self.console.clear()
        elif self.console.is_terminal:  # no screen control: scroll it out of sight
            self.console.print("\n" * self.console.height, end="")

    def seconds(self, start: float) -> float | None:
        return time.monotonic() - start if self.game.rules.time_control.kind != "none" else None

    def do(self, seat: int, command: Command, start: float) -> _Next:
        name = command.name
        if name == "play":
            return self.play(seat, command.arg, start)
        if name == "exchange":
            return self.exchange(seat, command.arg, start)
        if name == "pass":
            before = len(self.game.turns)
            self.game.apply(Pass(), seat, seconds=self.seconds(start))
            self.report(before)
            return _Next.DONE
        if name == "challenge":
            self.challenge(seat, command.arg)
            return _Next.REDRAW
        if name == "hint":
            self.hint(seat, command.arg)
            return _Next.AGAIN
        if name == "undo":
            self.undo(seat)
            return _Next.REDRAW
        if name == "save":
            self.save(command.arg)
            return _Next.AGAIN
        if name == "quit":
            return _Next.QUIT if self.quit() else _Next.AGAIN
        if name == "board":
            return _Next.REDRAW
        if name == "sheet":
            view = self.game.view(seat)
            for line in sheet_lines(view, self.t):
                self.say(line)
            return _Next.AGAIN
        self.help()
        return _Next.AGAIN

    def play(self, seat: int, text: str, start: float) -> _Next:
        game = self.game
        board = game.board
        choices = read_play(text, board, game.rack(seat))
        place = choices[0] if len(choices) == 1 else self.choose_blanks(choices)
        if place is None:
            return _Next.AGAIN
        before = len(game.turns)
        game.apply(place, seat, seconds=self.seconds(start))
        self.report(before)
        self.ai_challenge(seat)
        return _Next.DONE

    def choose_blanks(self, choices: list[Place]) -> Place | None:
        """Ask which letters the blanks stand in for; None if the player gives up."""
        game, t = self.game, self.t
        ranked = rank_by_score(game.board, choices, game.rules.bingo_bonus)
        self.say(t("blank.which"))
        for i, (place, points) in enumerate(ranked, 1):
            self.say(f"  {i}. {play_text(place, game.board)}  {t.count('points', points)}")
        while True:
            answer = self.ask(t("blank.prompt", n=len(ranked))).strip()
            if not answer:
                return ranked[0][0]
            if answer.isdecimal() and 1 <= int(answer) <= len(ranked):
                return ranked[int(answer) - 1][0]
            if answer.lower() in ("0", "-", "x"):
                return None
            self.refuse(t("blank.bad", n=len(ranked)))

    def exchange(self, seat: int, text: str, start: float) -> _Next:
        game = self.game
        need = game.rules.exchange_min_bag
        if game.bag_count < max(need, 1):
            raise InputError("exchange.bag", n=game.bag_count, min=need)
        tiles = read_exchange(text, game.rack(seat), game.edition)
        before = len(game.turns)
        game.apply(Exchange(tiles), seat, seconds=self.seconds(start))
        self.report(before)
        if len(self.people) == 1:
            self.say(self.t("exchange.new_rack",
                            tiles=show_tiles(game.rack(seat), game.edition)))
        return _Next.DONE

    def challenge(self, seat: int, who: str) -> None:
        """``seat`` (or the person named ``who``) challenges the play awaiting a challenge."""
        game, t = self.game, self.t
        if game.rules.challenge_rule == "void":
            raise InputError("challenge.void")
        place = game.challengeable
        player = self.pending_player()
        if place is None or player is None:
            raise InputError("challenge.nothing")
        by = seat
        if who:
            found = [p for p in range(len(game.players))
                     if self.name(p).casefold() == " ".join(who.split()).casefold()]
            if not found or found[0] in self.ai:
                raise InputError("challenge.who", name=who)
            by = found[0]
        if by == player:
            raise InputError("challenge.own")
        bad = self.pending_invalid()
        self.say(t("challenge.by", name=self.name(by), play=play_text(place, game.board)),
                 style="bold")
        before = len(game.turns)
        to_move = game.to_move
        game.challenge(by)
        if bad:
            self.say(t("challenge.won", words=", ".join(bad)))
        else:
            self.say(t("challenge.lost"))
            if game.rules.challenge_rule == "double" and by != to_move:
                self.say(t("challenge.lose_next", name=self.name(by)))
        self.report(before)

    def hint(self, seat: int, arg: str) -> None:
        n = self.options.hint_count
        if arg:
            if not arg.isdecimal() or not 1 <= int(arg) <= MAX_HINTS:
                raise InputError("hint.count", max=MAX_HINTS)
            n = int(arg)
        game = self.game
        board, rack = game.board, game.rack(seat)
        found = top_plays(board, rack, self.lexicon, n, bingo_bonus=game.rules.bingo_bonus,
                          join_words=game.may_join_words)
        if not found:
            self.say(self.t("hint.none"))
            return
        self.say(self.t("hint.head"))
        for i, (place, points) in enumerate(found, 1):
            kept = show_tiles(sorted(leave(rack, place)), game.edition)
            self.say(f"  {i}. {play_text(place, board)}  {self.t.count('points', points)}  "
                     f"{self.t('hint.leave', leave=kept)}")

    def undo_point(self, seat: int) -> int | None:
        """How many moves to keep to take back ``seat``'s last action and the computer's
        replies; None when another person moved since (or nothing to take back)."""
        moves = self.game.moves
        for i in range(len(moves) - 1, -1, -1):
            move = moves[i]
            if isinstance(move.action, (Accept, NoPlayEnd)):
                continue
            if move.player == seat and isinstance(move.action, (Place, Exchange, Pass, Challenge)):
                return i
            if move.player not in self.ai:
                return None
        return None

    def undo(self, seat: int) -> None:
        if self.game.rules.time_control.kind != "none":
            raise InputError("undo.clock")
        keep = self.undo_point(seat)
        if keep is None:
            raise InputError("undo.none")
        taken = len(self.game.moves) - keep
        self.game = self.game.replay(keep)
        self.say(self.t("undo.done", n=taken))

    # ----- saving and leaving -----------------------------------------------------------------

    def default_path(self) -> Path:
        if self.save_path is not None:
            return self.save_path
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        return (self.options.save_dir or Path.cwd()) / f"letras-{stamp}.gcg"

    def save(self, arg: str) -> Path:
        path = Path(arg).expanduser() if arg else self.default_path()
        written = save_game(self.game, path, self.options.lexicon_file)
        self.save_path = written
        self.saved_moves = len(self.game.moves)
        self.say(self.t("save.done", path=str(written)), wrap=False)
        return written

    def unsaved(self) -> bool:
        return bool(self.game.moves) and self.saved_moves != len(self.game.moves)

    def quit(self) -> bool:
        """Offer to save, then leave (True). Saving may fail: then stay (False)."""
        t = self.t
        if not self.unsaved() or self.game.over:
            return True
        answer = self.ask(t("quit.ask")).strip().lower()
        if answer.startswith("n"):
            self.say(t("quit.unsaved"))
            return True
        path = self.default_path()
        name = self.ask(t("quit.file", path=str(path))).strip()
        try:
            self.save(name)
        except InputError as e:
            self.refuse(t(e.key, **e.values))
            return False
        self.say(t("resume.how", path=str(self.save_path)), wrap=False)
        return True

    def rescue(self) -> None:
        """Interrupted (Ctrl-C, end of input): save an unfinished game, and say where."""
        if not self.unsaved() or self.game.over:
            return
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        folders = [self.options.save_dir or Path.cwd(), Path.home(), Path(tempfile.gettempdir())]
        paths = [self.save_path] if self.save_path else []
        paths += [folder / f"letras-{stamp}.gcg" for folder in folders]
        for path in paths:
            try:
                written = self.save(str(path))
            except InputError:
                continue
            self.say(self.t("resume.how", path=str(written)), wrap=False)
            return
        self.refuse(self.t("save.lost"))

    def finish(self) -> None:
        """The end: the last board, the final count and the winner; offer to save."""
        game = self.game
        seat = self.people[0] if self.people else 0
        self.draw(seat, show_rack=False)
        for line in final_count(game, self.t):
            self.say(line)
        if not self.people:
            return
        try:
            name = self.ask(self.t("end.save")).strip()
        except EOFError:
            return
        if name:
            try:
                self.save(name)
            except InputError as e:
                self.refuse(self.t(e.key, **e.values))

    def help(self) -> None:
        t = self.t
        self.say(t("help.head"), style="bold")
        self.say(t("help.play_across"))
        self.say(t("help.play_down"))
        for name in COMMANDS:
            usage = t.words(f"command.{name}")[0]
            if t.has(f"help.arg.{name}"):
                usage += " " + t(f"help.arg.{name}")
            self.say(f"  {usage:<12} {t('help.' + name)}")


__all__ = ["Table", "TableOptions"]
