"""Who sits at the table: people by name, AI seats by level.

``--players "Ana,Bruno,ai:greedy"`` seats Ana and Bruno and one computer player of level
``greedy``, in that order around the table (who starts is drawn). ``ai`` alone is the default
level: ``best`` when that level exists, else ``equity``. Computer seats are named in the
table's language (``Computador``; numbered when there are several).

>>> from letras.i18n import messages
>>> pt = messages("pt-BR")
>>> [(p.name, p.kind) for p in read_seats("Ana, ai:greedy", pt)]
[('Ana', 'human'), ('Computador', 'ai:greedy')]
>>> [p.name for p in read_seats("ai:greedy,Ana,ai:random", pt)]
['Computador 1', 'Ana', 'Computador 2']
>>> read_seats("Ana,Ana", pt)
Traceback (most recent call last):
...
letras.table.errors.TableError: two seats are named 'Ana': give each player their own name
"""

from __future__ import annotations

import hashlib

from letras.game import Player
from letras.i18n import Messages
from letras.table.errors import TableError

AI_PREFIX = "ai:"


def default_level() -> str:
    """The strongest level that answers quickly: ``best`` if it exists, else ``equity``."""
    from letras.ai import UnknownLevelError, check_level

    try:
        return check_level("best")
    except UnknownLevelError:
        return check_level("equity")


def is_ai(player: Player) -> bool:
    return player.kind.startswith(AI_PREFIX)


def level_of(player: Player) -> str:
    """The AI level of a computer seat."""
    return player.kind[len(AI_PREFIX):]


def read_seats(text: str | None, language: Messages, *, min_seats: int = 2,
               max_seats: int = 4) -> list[Player]:
    """The seats of ``--players`` (None: one person, named ``You`` in the table's language,
    against the default AI level). Raises :class:`TableError` for an unknown level, a
    repeated or empty name, or too few or too many seats."""
    from letras.ai import UnknownLevelError, check_level

    entries = [e.strip() for e in (text or f"{language('seat.you')},ai").split(",")]
    if any(not e for e in entries):
        raise TableError("seat.empty")
    if not min_seats <= len(entries) <= max_seats:
        raise TableError("seat.count", n=len(entries), low=min_seats, high=max_seats)
    kinds = []
    for entry in entries:
        low = entry.lower()
        if low == "ai" or low.startswith(AI_PREFIX):
            level = low[len(AI_PREFIX):].strip() if low != "ai" else ""
            try:
                kinds.append(AI_PREFIX + (check_level(level) if level else default_level()))
            except UnknownLevelError as e:
                raise TableError("seat.level", level=level, known=e.values["known"]) from None
        else:
            kinds.append("human")
    computers = sum(1 for k in kinds if k != "human")
    seats: list[Player] = []
    number = 0
    for entry, kind in zip(entries, kinds, strict=True):
        if kind == "human":
            name = " ".join(entry.split())
        else:
            number += 1
            name = language("seat.computer") + (f" {number}" if computers > 1 else "")
        if any(s.name.casefold() == name.casefold() for s in seats):
            raise TableError("seat.twice", name=name)
        seats.append(Player(name, kind))
    return seats


def ai_seed(game_seed: int | str, seat: int) -> int:
    """The seed of the AI in ``seat``: fixed by the game's seed, so a resumed game goes on as
    it would have."""
    digest = hashlib.sha256(f"letras-play/{game_seed}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


__all__ = ["AI_PREFIX", "ai_seed", "default_level", "is_ai", "level_of", "read_seats"]
