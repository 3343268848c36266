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
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="letras",
        description="The crossword tile game: editions, rules, scoring, game records.",
    )
    parser.add_argument("--version", action="version", version=f"letras {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    import importlib

    for name in COMMAND_MODULES:
        importlib.import_module(name).add_parser(sub)
    return parser


def run(argv: list[str]) -> int:
    parser = build_parser()
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
