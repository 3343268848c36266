"""A new game's settings as a client asks for them, checked: the rules (the edition's, with
the options changed, strictly typed) and the seats (people by name, computers by level).

Every refusal is a 400 :class:`~letras.server.errors.ServerError` naming the field.

>>> from letras.editions import find_edition
>>> game_rules(find_edition("en"), {"bingo_bonus": 35}, "move:3m").bingo_bonus
35
>>> game_rules(find_edition("en"), {"bingo_bonus": "35"}, None)
Traceback (most recent call last):
...
letras.server.errors.ServerError: rule option 'bingo_bonus' must be like 50
"""

from __future__ import annotations

from typing import Any

from letras.editions import Edition, RuleOptions, TimeControl
from letras.game import Player
from letras.i18n import messages
from letras.server.errors import ServerError
from letras.server.inputs import NewGame


def _bad(key: str, /, **values: Any) -> ServerError:
    """A 400 with a message of the catalogs."""
    return ServerError(400, key, messages("en")(key, **values), **values)


def game_rules(edition: Edition, given: dict[str, Any], clock: str | None) -> RuleOptions:
    """The edition's rules with the options a new game changes (strictly typed)."""
    defaults = edition.rules.to_dict()
    for key, value in given.items():
        if key not in defaults:
            raise ServerError(400, "server.unknown_field",
                              f"unknown rule option {key!r} (known: {', '.join(defaults)})",
                              field=f"rules.{key}", known=", ".join(defaults))
        want = defaults[key]
        if key == "time_control":
            ok = isinstance(value, (str, dict))
        elif isinstance(want, bool):
            ok = isinstance(value, bool)
        elif isinstance(want, int):
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 1000
        else:
            ok = isinstance(value, type(want))
        if not ok:
            raise ServerError(400, "server.bad_type",
                              f"rule option {key!r} must be like {want!r}",
                              field=f"rules.{key}", want=type(want).__name__)
    try:
        rules = RuleOptions.from_dict({**defaults, **given})
        if clock is not None:
            rules = rules.replace(time_control=TimeControl.parse(clock))
    except (TypeError, ValueError) as e:
        raise ServerError(400, "server.rules", f"bad rules: {e}", reason=str(e)) from None
    if not 2 <= rules.min_players <= rules.max_players <= 4:
        raise ServerError(400, "server.rules", "bad rules: 2 to 4 players",
                          reason="min_players and max_players lie from 2 to 4")
    return rules


def game_players(new: NewGame, rules: RuleOptions, language: str) -> list[Player]:
    """The seats of a new game: people by name, computers by level (named in the language
    when they have no name)."""
    from letras.ai import UnknownLevelError, check_level
    from letras.table.seats import AI_PREFIX

    n = len(new.seats)
    if not rules.min_players <= n <= rules.max_players:
        raise _bad("seat.count", n=n, low=rules.min_players, high=rules.max_players)
    t = messages(language)
    computers = sum(1 for s in new.seats if s.ai is not None)
    players: list[Player] = []
    number = 0
    for seat in new.seats:
        if seat.ai is None:
            if not seat.name:
                raise ServerError(400, "server.seat_name", "every person's seat needs a name")
            name, kind = seat.name, "human"
        else:
            try:
                level = check_level(seat.ai)
            except UnknownLevelError as e:
                raise _bad("seat.level", level=seat.ai, known=e.values["known"]) from None
            number += 1
            name = seat.name or t("seat.computer") + (f" {number}" if computers > 1 else "")
            kind = AI_PREFIX + level
        if any(p.name.casefold() == name.casefold() for p in players):
            raise _bad("seat.twice", name=name)
        players.append(Player(name, kind))
    return players


__all__ = ["game_players", "game_rules"]
