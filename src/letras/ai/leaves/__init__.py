"""Leave values: what the tiles kept on the rack after a play are worth for the turns to come.

A leave evaluator is any object with ``value(leave) -> float`` (:class:`LeaveEvaluator`), the
leave given as rack tile codes (``0`` = blank) in any order; the equity player adds it to a
play's score. This package has the heuristic one, derived from an edition's tile table
(:mod:`letras.ai.leaves.heuristic`), tables of values in the KLV format of wolges
(:mod:`letras.ai.leaves.klv`), and the self-play that learns such a table
(:mod:`letras.ai.leaves.training`, with its fit in :mod:`letras.ai.leaves.fit`). How the
heuristic and the training work is told in this package's ``README.md``.

>>> from letras.editions import find_edition
>>> en = find_edition("en")
>>> isinstance(shipped_leaves(en), LeaveEvaluator), isinstance(heuristic_leaves(en), LeaveTable)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Protocol, runtime_checkable

from letras.ai.leaves.heuristic import HeuristicLeaves, heuristic_leaves, is_vowel
from letras.ai.leaves.klv import LeaveTable, klv_bytes, parse_klv, read_klv, write_klv
from letras.editions import Edition


@runtime_checkable
class LeaveEvaluator(Protocol):
    """Anything that values a leave: a heuristic, or a trained table of superleaves."""

    def value(self, leave: Sequence[int]) -> float:
        """Points the tiles kept are worth (rack tile codes, 0 = blank, any order)."""
        ...


@cache
def shipped_leaves(edition: Edition) -> LeaveEvaluator:
    """The edition's trained leave values (``letras/ai/data/<edition>.klv``, made by
    ``letras train-leaves``) when the package ships them, else :func:`heuristic_leaves`.
    Read once, shared.

    >>> from letras.editions import find_edition
    >>> shipped_leaves(find_edition("en")) is shipped_leaves(find_edition("en"))
    True
    """
    from importlib import resources

    data = resources.files("letras.ai") / "data" / f"{edition.name}.klv"
    if not data.is_file():
        return heuristic_leaves(edition)
    return parse_klv(data.read_bytes(), edition, f"{edition.name} (shipped)")


__all__ = [
    "HeuristicLeaves",
    "LeaveEvaluator",
    "LeaveTable",
    "heuristic_leaves",
    "is_vowel",
    "klv_bytes",
    "parse_klv",
    "read_klv",
    "shipped_leaves",
    "write_klv",
]
