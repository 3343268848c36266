"""``letras play``: a whole game in the terminal, people and AI seats around one screen.

The command only reads its options, loads the lexicon and sets the table; the game loop is
:class:`letras.terminal.table.Table`.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from letras.editions import CHALLENGE_RULES, Edition
from letras.errors import LetrasError

DEFAULT = "pt-BR"
"""The edition of a new game when none is named."""

if TYPE_CHECKING:
    from rich.console import Console

    from letras.cli.warm import Warming
    from letras.game import Game
    from letras.i18n import Messages
    from letras.lexicon.kwg import WordGraph
    from letras.terminal.saving import SavedGame
    from letras.terminal.table import Table


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play a game in the terminal: people and computer players",
        description="Play a whole game in the terminal: 2-4 seats, people (hot seat: each "
        "rack shows only when its owner presses Enter) and computer players. Type plays as "
        "'8D CASA' (row first: across) or 'H8 CASA' (column first: down), or 'help' for the "
        "commands. With no options: Portuguese (Brazil), you against the computer.",
    )
    p.add_argument("--edition", help="the edition (pt-BR, es, it, en; default pt-BR; with "
                   "--resume, the tile set of another program's record)")
    p.add_argument("--lexicon", metavar="LEXICON",
                   help="a shipped lexicon's name, a word list or a .kwg graph "
                        "(default: the edition's own)")
    p.add_argument("--players", metavar="A,B[,C,D]",
                   help='the seats in order, people by name and computers as ai:LEVEL or ai '
                        '(e.g. "Ana,Bruno,ai:greedy"); default: you against the computer')
    p.add_argument("--seed", type=int, metavar="S", help="the bag's seed (a replayable game)")
    p.add_argument("--challenge", choices=CHALLENGE_RULES, metavar="RULE",
                   help=f"what a failed challenge costs: {', '.join(CHALLENGE_RULES)} "
                        "(default: the edition's rule)")
    p.add_argument("--clock", metavar="TIME",
                   help="a game clock per player (25m), or a limit per move (move:3m)")
    p.add_argument("--resume", metavar="FILE.gcg",
                   help="continue a game saved by 'save', or a game record (GCG) from another "
                        "program that is not over")
    p.add_argument("--ai-seconds", type=float, default=2.0, metavar="S",
                   help="how long a computer player may think, in seconds (2)")
    p.add_argument("--language", metavar="LANG",
                   help="the language of the messages (default: the edition's)")
    p.add_argument("--plain", action="store_true",
                   help="no colour and no screen control (also when not a terminal, "
                        "or TERM=dumb)")
    p.set_defaults(func=run)


def _plain(args: argparse.Namespace) -> bool:
    return bool(args.plain or not sys.stdout.isatty() or os.environ.get("TERM") == "dumb")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from letras.editions import find_edition
    from letras.i18n import messages
    from letras.terminal import InputError

    plain = _plain(args)
    console = Console(color_system=None if plain else "auto", highlight=False, emoji=False,
                      markup=False)
    # Resuming, the messages follow the saved game's edition once the file is read.
    t = messages(args.language or find_edition(args.edition or DEFAULT).language)
    try:
        table, resumed = _set_table(args, console, plain, t)
    except InputError as e:
        print(f"letras: {t(e.key, **e.values)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # while loading: no game yet, nothing to save
        return 130
    from rich.text import Text

    from letras import _compiled

    _compiled.set_announcer(lambda key: console.print(Text(table.t(key), style="dim")))
    if sys.stdin.isatty():
        # Ctrl-C saves the game, even when started from a shell that ignores it (in the
        # background, under nohup): the player at this terminal asked for it.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if not plain:
            import readline  # noqa: F401  (line editing and history at the prompt)
    return table.run(resumed=resumed)


def _set_table(
    args: argparse.Namespace, console: Console, plain: bool, t: Messages
) -> tuple[Table, str | None]:
    from letras.editions import TimeControl, find_edition
    from letras.game import Game
    from letras.i18n import messages
    from letras.terminal import InputError
    from letras.terminal.saving import load_saved
    from letras.terminal.seats import read_seats

    if args.ai_seconds <= 0:
        raise InputError("setup.ai_seconds")
    lexicon_file: str | None = None
    if args.resume is not None:
        saved = load_saved(args.resume)
        foreign = saved.record is not None
        given = [name for name, value in (("--edition", args.edition and not foreign),
                                          ("--players", args.players), ("--seed", args.seed),
                                          ("--challenge", args.challenge),
                                          ("--clock", args.clock)) if value]
        if given:
            raise InputError("resume.options", options=", ".join(given))
        if foreign:
            game, graph, t = _foreign(args, saved, console, t)
            return _finish_setup(args, game, graph, console, plain, t, None, args.resume)
        try:
            edition = find_edition(str(saved.data["edition"]))
        except (KeyError, LetrasError) as e:
            raise InputError("resume.damaged", reason=str(e)) from None
        if args.language is None:
            t = messages(edition.language)
        spec = args.lexicon or saved.lexicon_file or str(saved.data.get("lexicon") or "")
        lexicon_file = _file(args.lexicon) if args.lexicon else saved.lexicon_file
        graph = _load_graph(edition, spec or None, console, t)
        try:
            game = Game.from_dict(saved.data, lexicon=graph)
        except LetrasError as e:
            raise InputError("resume.damaged", reason=str(e)) from None
        resumed: str | None = args.resume
    else:
        edition = find_edition(args.edition or DEFAULT)
        rules = edition.rules
        if args.challenge:
            rules = rules.replace(challenge_rule=args.challenge)
        if args.clock:
            try:
                rules = rules.replace(time_control=TimeControl.parse(args.clock))
            except ValueError:
                raise InputError("setup.clock", clock=args.clock) from None
        seats = read_seats(args.players, t, min_seats=rules.min_players,
                           max_seats=rules.max_players)
        lexicon_file = _file(args.lexicon)
        graph = _load_graph(edition, args.lexicon, console, t)
        game = Game(edition, seats, seed=args.seed, lexicon=graph, rules=rules)
        resumed = None
    return _finish_setup(args, game, graph, console, plain, t, lexicon_file, resumed)


def _finish_setup(
    args: argparse.Namespace, game: Game, graph: WordGraph, console: Console, plain: bool,
    t: Messages, lexicon_file: str | None, resumed: str | None,
) -> tuple[Table, str | None]:
    from letras.terminal.table import Table, TableOptions

    options = TableOptions(plain=plain, ai_seconds=args.ai_seconds, lexicon_file=lexicon_file,
                           movegen_ready=_movegen_ready(game.edition, graph, console, t))
    return Table(game, graph, t, console, _ask, options), resumed


def _foreign(
    args: argparse.Namespace, saved: SavedGame, console: Console, t: Messages
) -> tuple[Game, WordGraph, Messages]:
    """The game a record from another program tells, to play on (every seat a person)."""
    from letras.editions import find_edition
    from letras.formats.gcg import read_gcg
    from letras.game import Game
    from letras.i18n import messages
    from letras.terminal import InputError

    record = saved.record
    assert record is not None
    if args.edition:
        record = read_gcg(saved.raw, find_edition(args.edition))
    edition = record.edition
    if args.language is None:
        t = messages(edition.language)
    graph = _load_graph(edition, args.lexicon, console, t)
    try:
        game = Game.from_gcg(record, lexicon=graph, edition=edition)
    except LetrasError as e:
        reason = t(e.key, **e.values) if t.has(e.key) else str(e)
        raise InputError("resume.damaged", reason=reason) from None
    if game.over:
        raise InputError("resume.over", path=args.resume)
    return game, graph, t


def _file(spec: str | None) -> str | None:
    """The word list file a ``--lexicon`` names, in full (None for a shipped lexicon)."""
    return str(Path(spec).resolve()) if spec and Path(spec).exists() else None


def _ask(prompt: str) -> str:
    return input(prompt)


_warming: Warming | None = None
"""The background compile of the kernels (:mod:`letras.cli.warm`), once a process."""


def _load_graph(edition: Edition, spec: str | None, console: Console, t: Messages) -> WordGraph:
    """The word graph, saying on screen when it is built for the first time."""
    from rich.text import Text

    from letras.lexicon import load_lexicon
    from letras.lexicon.kwg import WordGraph
    from letras.terminal import InputError

    global _warming
    if _warming is None:  # the kernels compile on the other core while the graph is built
        from letras.cli.warm import start

        _warming = start(edition)
    said: list[str] = []

    def progress(message: str) -> None:
        if not said:
            console.print(Text(t("setup.building", lexicon=spec or edition.name), style="dim"))
            said.append(message)

    try:
        lexicon = load_lexicon(edition, spec, progress=progress)
    except LetrasError as e:
        raise InputError("setup.lexicon", reason=str(e)) from None
    if not isinstance(lexicon, WordGraph):
        raise InputError("setup.lexicon", reason="not a word graph")
    if said:
        console.print(Text(t("setup.ready"), style="dim"))
    return lexicon


def _movegen_ready(
    edition: Edition, graph: WordGraph, console: Console, t: Messages
) -> Callable[[], None]:
    """What the table calls before the move generator is first used (the computer's first
    turn, a hint, the end-of-game check that nobody can play): :func:`_warm_up`, once. The
    first prompt of a person does not wait for it: the rules engine checks their plays."""
    ready: list[bool] = []

    def wait() -> None:
        if not ready:
            _warm_up(edition, graph, console, t)
            ready.append(True)

    return wait


def _warm_up(edition: Edition, graph: WordGraph, console: Console, t: Messages) -> None:
    """Have the move generator compiled, saying so on a first run: wait for the background
    compile (:data:`_warming`), then load it from its cache; without one (``LETRAS_WARM=0``)
    compile it here. Ctrl-C while waiting reaches the table, which saves the game."""
    from rich.text import Text

    from letras import _compiled
    from letras.board import Board
    from letras.movegen import _kernels, prebuilt, top_plays

    if prebuilt.kernels() is None and not _compiled.is_cached(_kernels, "generate"):
        console.print(Text(t("compile.movegen"), style="dim"))
        _compiled._announced.add(_kernels.__name__)
    if _warming is not None:
        _warming.wait("movegen")  # compiled in the background: then loaded from its cache
    rack = list(edition.tiles.letters)[: edition.rack_size]
    top_plays(Board(edition), rack, graph, 1)
