"""The game loop at the terminal: a thin loop over :class:`letras.table.Table`.

The table decides (turns, challenges, the computer's moves, clocks, undo, the final count);
this loop reads what people type, draws the table, shows the table's events in the table's
language, and hides racks in a hot-seat game. :meth:`Table.run` plays until the game ends or a
player quits, and returns the exit code.

- Whose turn it is shows in the prompt (``Ana> ``) and in the panel. With more than one person
  at the table (hot seat) the rack stays hidden until its owner presses Enter, and then the
  events that person missed are shown again.
- Anything that cannot be done gets a one-line reason and the same player types again.
- After a person's play, when a computer moves next, the other people are asked whether to
  challenge; the person to move may ``challenge`` the last play before their own move.
- ``undo`` takes back the person's last action and the computer's replies.
- ``quit`` offers to save; Ctrl-C and the end of input save the game to a file and say where.
"""

from __future__ import annotations

import enum
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.text import Text

from letras.errors import LetrasError
from letras.game import Game
from letras.i18n import Messages
from letras.lexicon.kwg import WordGraph
from letras.play import Exchange, Pass, Place
from letras.table import Event, Step, describe, describe_all
from letras.table import Table as GameTable
from letras.table.events import you_key
from letras.table.seats import is_ai, level_of
from letras.table.table import MAX_HINTS
from letras.terminal import InputError
from letras.terminal.commands import COMMANDS, Command, read_command
from letras.terminal.entry import rank_by_score, read_exchange, read_play, show_tiles
from letras.terminal.saving import save_game
from letras.terminal.screen import clock_text, play_text, screen_lines, sheet_lines

Ask = Callable[[str], str]

MISSED_EVENTS = 12
"""Events shown again to a person who sits down at a hot seat (the last ones they missed)."""
BOLD_EVENTS = frozenset({"event.play", "challenge.by", "challenge.by_ai", "end.reason.out",
                         "count.winner", "count.tie"})


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
    confirm_unknown_words: bool | None = None
    """Ask before a word outside the lexicon is played (default: the table's rule)."""
    movegen_ready: Callable[[], None] | None = None
    """Called before each use of the move generator (the computer's turn, a hint, the check
    at the end that nobody can play): ``letras play`` waits there, once, for its compile, so
    that a person's first prompt does not."""


class Table:
    """A game at the terminal (see the module docstring)."""

    def __init__(self, game: Game, lexicon: WordGraph, t: Messages, console: Console,
                 ask: Ask = input, options: TableOptions | None = None) -> None:
        self.options = options or TableOptions()
        self.table = GameTable(game, lexicon, ai_seconds=self.options.ai_seconds,
                               confirm_unknown_words=self.options.confirm_unknown_words)
        self.lexicon = lexicon
        self.t = t
        self.console = console
        self.ask = ask
        self.people = list(self.table.people)
        self.shown_to: int | None = None
        self.seen: dict[int, int] = {}
        """How much of the table's event log each person has seen at their seat."""
        self.held: list[Event] = []
        """The end of the game's events, shown after the last board."""
        self.save_path: Path | None = None
        self.saved_moves = -1
        if self.options.movegen_ready is not None:
            no_play_possible = game.no_play_possible

            def no_play_possible_ready(g: Game) -> bool:
                self.movegen_ready()
                return no_play_possible(g)

            game.no_play_possible = no_play_possible_ready

    @property
    def game(self) -> Game:
        return self.table.game

    # ----- output -----------------------------------------------------------------------------

    def say(self, text: str | Text, style: str = "", *, wrap: bool = True) -> None:
        """Print a line; ``wrap=False`` leaves it whole (a file name to copy)."""
        self.console.print(text if isinstance(text, Text) else Text(text, style=style),
                           soft_wrap=not wrap)

    def refuse(self, message: str) -> None:
        """The one-line reason for refusing what was typed."""
        self.say(f"✗ {message}", style="bold red", wrap=False)

    def reason(self, e: LetrasError) -> str:
        """Why something was refused, in the table's language."""
        if self.t.has(e.key):
            try:
                return self.t(e.key, **e.values)
            except (KeyError, IndexError):
                pass
        return str(e)

    def name(self, seat: int) -> str:
        return self.game.player_names[seat]

    def show(self, events: Sequence[Event]) -> None:
        """Say what happened; the end of the game waits for the last board."""
        for event in events:
            if event.key.startswith(("end.reason.", "count.")):
                self.held.append(event)
            else:
                self.say(describe(event, self.t),
                         style="bold" if event.key in BOLD_EVENTS else "")

    def draw(self, seat: int, *, show_rack: bool = True) -> None:
        game = self.game
        tc = game.rules.time_control
        lines = screen_lines(
            game.view(seat), self.t, plain=self.options.plain, width=self.console.width,
            clocks=self.clocks_shown(),
            time_control=tc if tc.kind != "none" else None, show_rack=show_rack,
        )
        self.say("")
        for line in lines:
            self.say(line)

    def clocks_shown(self) -> list[float]:
        """Seconds used as the clocks show them: a running turn counts in whole seconds."""
        return [used + int(clock.used - used)
                for used, clock in zip(self.game.clocks, self.table.clocks(), strict=True)]

    # ----- the game ---------------------------------------------------------------------------

    def run(self, *, resumed: str | None = None) -> int:
        """Play to the end (or until a player quits); the exit code."""
        try:
            if resumed is None:
                self.intro()
            else:
                self.say(self.t("resume.done", path=resumed,
                                lines=self.t.count("lines", len(self.game.turns))), wrap=False)
                self.save_path = Path(resumed)
                self.saved_moves = len(self.game.moves)
            self.show(self.table.log)
            while True:
                step = self.table.step()
                if step.kind == "over":
                    break
                if step.kind in ("settle", "window"):
                    self.ask_challengers(step)
                elif step.kind == "ai":
                    self.ai_turn()
                elif step.seat is not None and self.person_turn(step.seat) is _Next.QUIT:
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
                t(you_key("intro.drew", self.name(p), t), name=self.name(p),
                  tile=game.edition.tiles.label(tile))
                for p, tile in sorted(draw)
            )
            starter = self.name(game.to_move)
            last = number == len(game.first_draw) - 1
            self.say(t("intro.draw", draws=drawn) + " " + (
                t(you_key("intro.starts", starter, t), name=starter) if last
                else t("intro.tie")))
        self.say(t("intro.help"))

    def ask_challengers(self, step: Step) -> None:
        """A play waits for the other people: to go out (``settle``), or before a computer
        moves (``window``). Enter lets it stand for all of them; ``challenge`` (or ``challenge
        NAME``, or a name alone) challenges."""
        game, t = self.game, self.t
        player, place = step.seat, game.challengeable
        if not step.may_challenge or player is None or place is None:
            self.table.close_window()
            return
        play = play_text(place, game.board)
        names = [self.name(p) for p in step.may_challenge]
        if step.kind == "settle":
            self.say(t("out.ask", name=self.name(player), play=play))
            prompt = t("out.prompt")
        else:
            self.say(t("window.ask", names=", ".join(names), play=play))
            prompt = t("window.prompt")
        while True:
            line = " ".join(self.ask(prompt).split())
            if not line:
                self.show(self.table.close_window())
                return
            try:
                by = self.challenger(line, step)
                self.show(self.table.challenge(by))
                return
            except LetrasError as e:
                self.refuse(self.reason(e))

    def challenger(self, line: str, step: Step) -> int:
        """Who a line names to challenge: ``challenge`` (the first who may), ``challenge NAME``
        or a name alone."""
        named = line
        try:
            command = read_command(line, self.t)
        except InputError:
            command = None
        if command is not None and command.name == "challenge":
            if not command.arg:
                return step.may_challenge[0]
            named = command.arg
        elif command is not None or step.kind == "settle":
            raise InputError("out.only_challenge" if step.kind == "settle" else "window.who",
                             name=line, names=", ".join(self.name(p) for p in step.may_challenge))
        found = [p for p in step.may_challenge if self.name(p).casefold() == named.casefold()]
        if not found:
            raise InputError("window.who", name=named,
                             names=", ".join(self.name(p) for p in step.may_challenge))
        return found[0]

    def movegen_ready(self) -> bool:
        """Wait, once, until the move generator may be used (:attr:`TableOptions.movegen_ready`);
        True if this call waited."""
        ready, self.options.movegen_ready = self.options.movegen_ready, None
        if ready is None:
            return False
        ready()
        return True

    def ai_turn(self) -> None:
        step = self.table.step()
        assert step.seat is not None
        if self.movegen_ready():
            self.table.restart_clock()  # the wait is not the computer's thinking time
        self.say(self.t("ai.thinking", name=self.name(step.seat)), style="dim")
        self.show(self.table.ai_turn())

    # ----- a person's turn --------------------------------------------------------------------

    def person_turn(self, seat: int) -> _Next:
        t = self.t
        if len(self.people) > 1 and self.shown_to != seat:
            self.hide()
            self.ask(t("hotseat.prompt", name=self.name(seat)))
            self.table.restart_clock()
            missed = self.table.log[self.seen.get(seat, 0):]
            for line in describe_all([e for e in missed if not e.key.startswith(
                    ("end.reason.", "count."))][-MISSED_EVENTS:], t):
                self.say(line, style="dim")
        self.shown_to = seat
        self.draw(seat)
        if self.game.pending_player not in (None, seat):
            self.say(t("turn.may_challenge"), style="dim")
        while True:
            self.seen[seat] = len(self.table.log)
            prompt = self.prompt(seat)
            warning = self.warn_later(seat)
            try:
                line = self.ask(prompt)
            finally:
                if warning is not None:
                    warning.cancel()
            try:
                command = read_command(line, t)
                after = self.do(seat, command)
            except LetrasError as e:
                if e.key != "input.empty":
                    self.refuse(self.reason(e))
                continue
            if after is _Next.REDRAW:
                if self.game.to_move != seat or self.game.over:
                    return _Next.DONE
                self.draw(seat)
            elif after is not _Next.AGAIN:
                self.seen[seat] = len(self.table.log)
                return after

    def prompt(self, seat: int) -> str:
        """``Ana> ``; with a clock, the time left (``Ana 24:05> ``), warned when it runs low."""
        t = self.t
        clock = self.table.clock(seat)
        left = clock.move_left if clock.move_left is not None else clock.left
        if left is None:
            return t("turn.prompt", name=self.name(seat))
        if clock.warning:
            self.say(t("clock.warning", name=self.name(seat), time=clock_text(left)),
                     style="bold red")
        return t("turn.prompt_clock", name=self.name(seat), time=clock_text(left))

    def warn_later(self, seat: int) -> threading.Timer | None:
        """While a person thinks, say when their clock runs low (once, at the moment it
        does)."""
        clock = self.table.clock(seat)
        wait = clock.warns_in(self.game.rules.time_control.seconds)
        if not wait:  # no clock, or the prompt already warned
            return None

        def warn() -> None:
            now = self.table.clock(seat)
            left = now.move_left if now.move_left is not None else now.left
            self.say("")
            self.say(self.t("clock.warning", name=self.name(seat), time=clock_text(left or 0)),
                     style="bold red")

        timer = threading.Timer(wait, warn)
        timer.daemon = True
        timer.start()
        return timer

    def hide(self) -> None:
        """Take the last rack off the screen before the next person sits down."""
        if not self.options.plain:
            self.console.clear()
        elif self.console.is_terminal:  # no screen control: scroll it out of sight
            self.console.print("\n" * self.console.height, end="")

    def do(self, seat: int, command: Command) -> _Next:
        name = command.name
        if name == "play":
            return self.play(seat, command.arg)
        if name == "exchange":
            return self.exchange(seat, command.arg)
        if name == "pass":
            self.show(self.table.act(seat, Pass()))
            return _Next.DONE
        if name == "challenge":
            self.challenge(seat, command.arg)
            return _Next.REDRAW
        if name == "hint":
            self.hint(seat, command.arg)
            return _Next.AGAIN
        if name == "undo":
            self.show(self.table.undo(seat))
            return _Next.REDRAW
        if name == "resign":
            self.show(self.table.resign(seat))
            return _Next.DONE
        if name == "save":
            self.save(command.arg)
            return _Next.AGAIN
        if name == "quit":
            return _Next.QUIT if self.quit() else _Next.AGAIN
        if name == "board":
            return _Next.REDRAW
        if name == "sheet":
            for line in sheet_lines(self.game.view(seat), self.t):
                self.say(line)
            return _Next.AGAIN
        self.help()
        return _Next.AGAIN

    def play(self, seat: int, text: str) -> _Next:
        game = self.game
        choices = read_play(text, game.board, game.rack(seat))
        place = choices[0] if len(choices) == 1 else self.choose_blanks(choices)
        if place is None:
            return _Next.AGAIN
        if self.table.confirm_unknown_words and game.rules.challenge_rule != "void":
            unknown = self.table.unknown_words(place)
            if unknown:
                answer = self.ask(self.t("word.confirm", words=", ".join(unknown)))
                if not answer.strip().lower().startswith(("y", "s")):
                    return _Next.AGAIN
        self.show(self.table.act(seat, place))
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

    def exchange(self, seat: int, text: str) -> _Next:
        game = self.game
        tiles = read_exchange(text, game.rack(seat), game.edition)
        self.show(self.table.act(seat, Exchange(tiles)))
        if len(self.people) == 1:
            self.say(self.t("exchange.new_rack",
                            tiles=show_tiles(self.game.rack(seat), game.edition)))
        return _Next.DONE

    def challenge(self, seat: int, who: str) -> None:
        """``seat`` (or the person named ``who``) challenges the play awaiting a challenge."""
        game = self.game
        by = seat
        if who:
            found = [p for p in range(len(game.players))
                     if self.name(p).casefold() == " ".join(who.split()).casefold()]
            if not found or self.table.is_ai(found[0]):
                raise InputError("challenge.who", name=who)
            by = found[0]
        self.show(self.table.challenge(by))

    def hint(self, seat: int, arg: str) -> None:
        n = self.options.hint_count
        if arg:
            if not arg.isdecimal():
                raise InputError("hint.count", max=MAX_HINTS)
            n = int(arg)
        self.movegen_ready()
        found = self.table.hints(seat, n)
        if not found:
            self.say(self.t("hint.none"))
            return
        board = self.game.board
        self.say(self.t("hint.head"))
        for i, hint in enumerate(found, 1):
            kept = show_tiles(hint.leave, self.game.edition)
            self.say(f"  {i}. {play_text(hint.place, board)}  "
                     f"{self.t.count('points', hint.points)}  {self.t('hint.leave', leave=kept)}")

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
            self.refuse(self.reason(e))
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
        seat = self.people[0] if self.people else 0
        self.draw(seat, show_rack=False)
        for event, line in zip(self.held, describe_all(self.held, self.t), strict=True):
            self.say(line, style="bold" if event.key in BOLD_EVENTS
                     or event.key.startswith("end.reason.") else "")
        self.held = []
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
                self.refuse(self.reason(e))

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
