"""Saving a game as a GCG record that ``letras play --resume`` continues exactly.

The file is ordinary GCG (any GCG reader shows the game) with one more pragma, ``#letras-game``,
holding the whole game as one line of JSON (:meth:`letras.game.Game.to_dict`: edition, rule
options, seats and their kinds, lexicon, seed and every move); GCG readers skip pragmas they do
not know. A word list given as a file is remembered in ``#letras-lexicon-file``. A GCG record
without the ``#letras-game`` pragma (from Quackle, Macondo, Woogles) is read as a record:
:meth:`letras.game.Game.from_gcg` makes the game it tells, with the racks it shows and the rest
of the bag unknown.

>>> from letras.game import Game, Player
>>> game = Game("en", [Player("Ana"), Player("Bot", "ai:greedy")], seed=5)
>>> text = game_text(game)
>>> text.splitlines()[1:3]
['#player1 Ana Ana', '#player2 Bot Bot']
>>> saved = read_saved(text)
>>> saved.data["seed"], [p["kind"] for p in saved.data["players"]]
(5, ['human', 'ai:greedy'])
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from letras.errors import FormatError
from letras.files import OutputError, write_atomic
from letras.formats.game_gcg import game_to_record
from letras.formats.gcg import GcgRecord, read_gcg, write_gcg
from letras.game import Game
from letras.saved import check_document, read_document
from letras.terminal import InputError

PRAGMA = "letras-game"
LEXICON_FILE_PRAGMA = "letras-lexicon-file"


@dataclass(frozen=True)
class SavedGame:
    """What a saved file holds for resuming: the game's data and, if the game used a word
    list from a file, that file."""

    data: dict[str, Any]
    lexicon_file: str | None = None
    record: GcgRecord | None = None
    """A record from another program (no ``#letras-game`` pragma): ``data`` is empty."""
    raw: bytes = b""
    """The file as read, to read the record again with another tile set."""


def game_text(game: Game, lexicon_file: str | None = None) -> str:
    """The game as GCG text with the pragmas that resume it."""
    record = game_to_record(game)
    record.pragmas.append((PRAGMA, json.dumps(game.to_dict(), ensure_ascii=False)))
    if lexicon_file:
        record.pragmas.append((LEXICON_FILE_PRAGMA, lexicon_file))
    return write_gcg(record)


def save_game(game: Game, path: str | os.PathLike[str], lexicon_file: str | None = None) -> Path:
    """Write the game to ``path`` (replacing it whole, never half-written, with the mode the
    umask gives); the path written. Raises :class:`InputError` ``save.failed`` when the file
    cannot be written (its folder missing, say: no folder is made)."""
    target = Path(path).expanduser().absolute()
    text = game_text(game, lexicon_file)
    try:
        return write_atomic(target, text.encode("utf-8"), "saved game")
    except OutputError as e:  # no folder is made: a mistyped folder is said, not created
        reason = e.args[0].split(": ", 1)[-1] if e.args else str(e)
        raise InputError("save.failed", path=str(target), reason=reason) from None


def read_saved(text: str | bytes) -> SavedGame:
    """The game data in a saved GCG record, or the record itself when another program wrote
    it; :class:`InputError` when the game data is damaged."""
    record = read_gcg(text)
    found = dict(record.pragmas)
    raw = found.get(PRAGMA)
    if raw is None:
        as_read = text if isinstance(text, bytes) else text.encode("utf-8")
        return SavedGame({}, record=record, raw=as_read)
    try:
        data = read_document(raw)
        check_document(data)  # before anything reads a value of it
    except FormatError as e:
        raise InputError("resume.damaged", reason=str(e)) from None
    return SavedGame(data, found.get(LEXICON_FILE_PRAGMA) or None)


def load_saved(path: str | os.PathLike[str]) -> SavedGame:
    """Read a saved game file (see :func:`read_saved`)."""
    try:
        data = Path(path).expanduser().read_bytes()
    except OSError as e:
        raise InputError("resume.unreadable", path=str(path), reason=e.strerror or str(e)) from None
    return read_saved(data)


__all__ = ["LEXICON_FILE_PRAGMA", "PRAGMA", "SavedGame", "game_text", "load_saved",
           "read_saved", "save_game"]
