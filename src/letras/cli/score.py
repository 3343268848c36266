"""`letras score`: (being written)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("score", help="(not yet available)")
    p.set_defaults(func=lambda args: 2)
