"""``letras gcg``: check game records against the rules, or print them canonically.

``letras gcg check FILE...`` replays each record as a game (:meth:`letras.game.Game.from_gcg`'s
replay), compares every recorded score and running total with the game's scoresheet
(:mod:`letras.formats.gcg_check`), prints each disagreement as ``FILE:LINE: message`` and one
summary line per file, and exits 0 only when every file agrees.
``letras gcg show FILE`` prints a record as canonical GCG; ``--cgp TURN`` prints the position
after its first TURN events as CGP, for ``letras moves``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from letras.editions import Edition, find_edition
from letras.errors import FormatError
from letras.formats.gcg import MAX_GCG_BYTES, GcgRecord, read_gcg, write_gcg
from letras.formats.gcg_check import replay_gcg


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "gcg", help="check game records (GCG) or print them canonically",
        description="Game records in GCG, the format of Quackle, Macondo and Woogles.",
    )
    actions = p.add_subparsers(dest="gcg_action", metavar="ACTION")
    check = actions.add_parser(
        "check", help="replay records and recompute every score and running total",
        description="Replay each record as a game, recompute every score, and report where "
        "the record and the rules disagree. Exit status 0 only when every file agrees.",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="GCG files")
    check.add_argument("--edition", help="tile set to read with (default: from #lexicon, else en)")
    check.set_defaults(func=run_check)
    show = actions.add_parser("show", help="print a record as canonical GCG (UTF-8)")
    show.add_argument("file", metavar="FILE", help="a GCG file")
    show.add_argument("--edition", help="tile set to read with (default: from #lexicon, else en)")
    show.add_argument("--cgp", type=int, metavar="TURN",
                      help="print the position after the record's first TURN events as CGP "
                           "(0: the start), the rack of the player to move as the record shows "
                           "it: the input of 'letras moves'")
    show.set_defaults(func=run_show)

    def usage(args: argparse.Namespace) -> int:
        p.print_usage(sys.stderr)
        print("letras gcg: choose an action: check or show", file=sys.stderr)
        return 2

    p.set_defaults(func=usage)


def _edition(args: argparse.Namespace) -> Edition | None:
    name: str | None = args.edition
    return find_edition(name) if name else None


def _read(name: str, edition: Edition | None) -> GcgRecord | None:
    try:
        with Path(name).open("rb") as f:
            data = f.read(MAX_GCG_BYTES + 1)  # more is too long: read_gcg says so
    except (OSError, ValueError) as e:  # ValueError: a NUL in the name
        print(f"{name}: cannot read: {getattr(e, 'strerror', None) or e}")
        return None
    return read_gcg(data, edition)


def check_file(name: str, edition: Edition | None = None) -> bool:
    """Check one file, printing its report; True when it agrees with the rules."""
    record = _read(name, edition)
    if record is None:
        return False
    try:
        replay = replay_gcg(record)
    except FormatError as e:
        print(f"{name}: cannot replay: {e}")
        return False
    problems = 0
    for error in record.errors:
        if error.is_notice:
            print(f"{name}:{error.line}: note: {error.message}")
        else:
            print(f"{name}:{error.line}: {error.message}")
            problems += 1
    for d in replay.disagreements:
        print(f"{name}:{d.line}: {d.message}")
    problems += len(replay.disagreements)
    scores = "-".join(str(t) for t in replay.totals.values())
    where = f"final {scores}" if replay.finished else f"unfinished, {scores} so far"
    count = len(record.events)
    summary = f"{count} {'event' if count == 1 else 'events'}, {where}"
    if problems:
        noun = "problem" if problems == 1 else "problems"
        print(f"{name}: {problems} {noun} ({summary})")
    else:
        print(f"{name}: ok ({summary})")
    return not problems


def run_check(args: argparse.Namespace) -> int:
    edition = _edition(args)
    results = [check_file(name, edition) for name in args.files]
    return 0 if all(results) else 1


def run_show(args: argparse.Namespace) -> int:
    record = _read(args.file, _edition(args))
    if record is None:
        return 1
    for error in record.errors:
        print(f"{args.file}:{error.line}: {error.message}", file=sys.stderr)
    if args.cgp is not None:
        from letras.formats.gcg_game import game_after_turn
        from letras.formats.views import view_cgp

        game = game_after_turn(record, args.cgp, edition=record.edition)
        print(view_cgp(game.view(game.to_move)))
        return 0
    sys.stdout.write(write_gcg(record))
    return 0 if all(e.is_notice for e in record.errors) else 1
