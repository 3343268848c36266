"""Argument parsing and dispatch for ``letras``. Each command group lives in its own module
with ``add_parser(subparsers)`` that registers it and sets ``func`` (``args -> exit code``)."""

from __future__ import annotations

import argparse
import os
import sys

from letras import __version__
from letras.errors import LetrasError

COMMAND_MODULES = (
    "letras.cli.gcg", "letras.cli.moves", "letras.cli.score", "letras.cli.selfplay",
    "letras.cli.train_leaves", "letras.cli.words", "letras.cli.play", "letras.cli.serve",
    "letras.cli.analyze",
)
COMMANDS = {
    "gcg": "letras.cli.gcg", "moves": "letras.cli.moves", "score": "letras.cli.score",
    "selfplay": "letras.cli.selfplay", "train-leaves": "letras.cli.train_leaves",
    "word": "letras.cli.words", "lexicon": "letras.cli.words", "play": "letras.cli.play",
    "serve": "letras.cli.serve", "analyze": "letras.cli.analyze",
}
"""Which module registers each command: running one imports only its own module."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; with ``command`` one of :data:`COMMANDS`, of that one
    alone (what ``letras COMMAND ...`` needs, without importing the other commands)."""
    parser = argparse.ArgumentParser(
        prog="letras",
        description="The crossword tile game: editions, rules, scoring, game records.",
    )
    parser.add_argument("--version", action="version", version=f"letras {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    import importlib

    modules = (COMMANDS[command],) if command in COMMANDS else COMMAND_MODULES
    for name in modules:
        importlib.import_module(name).add_parser(sub)
    return parser


def run(argv: list[str]) -> int:
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    try:
        code: int = func(args)
    except LetrasError as e:
        print(f"letras: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (``letras word pattern ... | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return code
