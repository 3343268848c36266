"""What clients send, read strictly: size, JSON, fields and types; and the request's language.

Every reader raises :class:`~letras.server.errors.ServerError` (400 or 413) before anything
changes. A new game's body is checked field by field (:func:`read_new_game`); an action is
one of ``play``, ``exchange``, ``pass``, ``challenge``, ``accept``, ``resign``
(:func:`read_action`).

>>> read_action({"play": "8H CASA"})
Action(kind='play', text='8H CASA')
>>> read_action({"pass": True, "play": "8H CASA"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
letras.server.errors.ServerError: an action is one of play, exchange, pass, challenge, ...
>>> choose_language("es", None, "pt-BR"), choose_language(None, "it-IT,en;q=0.5", "pt-BR")
('es', 'it')
>>> choose_language(None, "de-DE,fr;q=0.8", "pt-BR"), choose_language(None, "en-GB", "es")
('pt-BR', 'en')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from letras.i18n import find_language, languages
from letras.server.errors import ServerError

MAX_BODY = 64 * 1024
"""The largest request body or websocket message, in bytes."""
MAX_NAME = 40
"""The longest seat name, in characters."""
MAX_SEED = 2**63

ActionKind = Literal["play", "exchange", "pass", "challenge", "accept", "resign"]
ACTION_KINDS: tuple[ActionKind, ...] = ("play", "exchange", "pass", "challenge", "accept",
                                        "resign")


def too_large(size: int) -> ServerError:
    return ServerError(413, "server.too_large",
                       f"the request is too large: {size} bytes (at most {MAX_BODY})",
                       size=size, max=MAX_BODY)


def parse_json(raw: bytes | str) -> dict[str, Any]:
    """A JSON object from a body or message, at most :data:`MAX_BODY` bytes."""
    size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
    if size > MAX_BODY:
        raise too_large(size)
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise ServerError(400, "server.bad_json", f"the body is not JSON: {e}",
                          reason=str(e)) from None
    if not isinstance(data, dict):
        raise ServerError(400, "server.not_object", "the body must be a JSON object")
    return data


def _unknown(data: Mapping[str, Any], known: tuple[str, ...]) -> None:
    extra = sorted(set(data) - set(known))
    if extra:
        raise ServerError(400, "server.unknown_field",
                          f"unknown field {extra[0]!r} (known: {', '.join(known)})",
                          field=extra[0], known=", ".join(known))


def _wrong(field: str, want: str) -> ServerError:
    return ServerError(400, "server.bad_type", f"field {field!r} must be {want}",
                       field=field, want=want)


def _text(data: Mapping[str, Any], field: str, *, optional: bool = False,
          limit: int = 200) -> str | None:
    value = data.get(field)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _wrong(field, "a string")
    if len(value) > limit:
        raise ServerError(400, "server.too_long", f"field {field!r} is too long",
                          field=field, max=limit)
    return value


@dataclass(frozen=True)
class SeatRequest:
    """One seat of a new game: a person (``ai`` None) or a computer level."""

    name: str | None
    ai: str | None


@dataclass(frozen=True)
class NewGame:
    """The body of ``POST /api/games``, checked for form (the service checks the meaning:
    edition, lexicon, levels, rules)."""

    edition: str
    lexicon: str | None
    seats: tuple[SeatRequest, ...]
    rules: dict[str, Any]
    clock: str | None
    seed: int | None


NEW_GAME_FIELDS = ("edition", "lexicon", "seats", "rules", "clock", "seed")
SEAT_FIELDS = ("name", "ai")


def read_new_game(data: Mapping[str, Any]) -> NewGame:
    _unknown(data, NEW_GAME_FIELDS)
    edition = _text(data, "edition", optional=True, limit=20) or "pt-BR"
    lexicon = _text(data, "lexicon", optional=True, limit=60)
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not raw_seats:
        raise _wrong("seats", "a list of seats")
    if len(raw_seats) > 8:
        raise ServerError(400, "server.too_long", "too many seats", field="seats", max=8)
    seats = []
    for entry in raw_seats:
        if not isinstance(entry, dict):
            raise _wrong("seats", "a list of objects")
        _unknown(entry, SEAT_FIELDS)
        name = _text(entry, "name", optional=True, limit=MAX_NAME)
        ai = _text(entry, "ai", optional=True, limit=20)
        seats.append(SeatRequest(" ".join(name.split()) if name is not None else None, ai))
    rules = data.get("rules")
    if rules is None:
        rules = {}
    if not isinstance(rules, dict):
        raise _wrong("rules", "an object")
    clock = _text(data, "clock", optional=True, limit=20)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                             or not 0 <= seed < MAX_SEED):
        raise _wrong("seed", f"a whole number from 0 to {MAX_SEED - 1}")
    return NewGame(edition, lexicon, tuple(seats), dict(rules), clock, seed)


@dataclass(frozen=True)
class Action:
    """One action of a seat: ``text`` is the play's notation or the tiles to exchange."""

    kind: ActionKind
    text: str = ""


def read_action(data: Mapping[str, Any]) -> Action:
    """An action body: exactly one of ``{"play": "8H CASA"}``, ``{"exchange": "ABC"}``,
    ``{"pass": true}``, ``{"challenge": true}``, ``{"accept": true}``, ``{"resign": true}``."""
    _unknown(data, ACTION_KINDS)
    if len(data) != 1:
        raise ServerError(400, "server.one_action",
                          f"an action is one of {', '.join(ACTION_KINDS)}",
                          known=", ".join(ACTION_KINDS))
    ((name, value),) = data.items()
    kind = next(k for k in ACTION_KINDS if k == name)
    if kind in ("play", "exchange"):
        if not isinstance(value, str) or not value.strip():
            raise _wrong(kind, "a non-empty string")
        if len(value) > 100:
            raise ServerError(400, "server.too_long", f"field {kind!r} is too long",
                              field=kind, max=100)
        return Action(kind, value.strip())
    if value is not True:
        raise _wrong(kind, "true")
    return Action(kind)


def read_preview(data: Mapping[str, Any]) -> str:
    """A preview body: ``{"play": "8H CASA"}``."""
    _unknown(data, ("play",))
    action = read_action(data) if data else None
    if action is None:
        raise _wrong("play", "a non-empty string")
    return action.text


def read_best(data: Mapping[str, Any]) -> tuple[int, int]:
    """A request for a past turn's best plays: ``{"n": 12, "count": 5}`` (the position after
    ``n`` moves; ``count`` optional, 10 by default)."""
    _unknown(data, ("n", "count"))
    n, count = data.get("n"), data.get("count", 10)
    if type(n) is not int or not 0 <= n <= 100_000:
        raise _wrong("n", "a whole number of moves")
    if type(count) is not int:
        raise _wrong("count", "a whole number")
    return n, count


def read_empty(data: Mapping[str, Any]) -> None:
    """A body that must hold nothing: ``{}`` (a rematch)."""
    _unknown(data, ())


@dataclass(frozen=True)
class Asked:
    """The languages a request asks for: ``?lang=`` and the ``Accept-Language`` header."""

    lang: str | None = None
    accept: str | None = None

    def language(self, default: str) -> str:
        """The language to answer in (``default``: the edition's)."""
        return choose_language(self.lang, self.accept, default)


def choose_language(asked: str | None, accept: str | None, default: str) -> str:
    """The language of a request: ``?lang=``, else the first language of the
    ``Accept-Language`` header that has a catalog, else ``default`` (the edition's)."""
    if asked:
        return find_language(asked)
    if accept:
        tags = []
        for i, part in enumerate(accept.split(",")):
            tag, _, params = part.strip().partition(";")
            q = 1.0
            if params.strip().startswith("q="):
                try:
                    q = float(params.strip()[2:])
                except ValueError:
                    q = 0.0
            if tag and tag != "*" and q > 0:
                tags.append((-q, i, tag))
        for _, _, tag in sorted(tags):
            lang = find_language(tag)
            base = tag.split("-")[0].split("_")[0].lower()
            if lang != "en" or base == "en":
                return lang
    return default if default in languages() else find_language(default)


__all__ = ["ACTION_KINDS", "MAX_BODY", "Action", "ActionKind", "Asked", "NewGame", "SeatRequest",
           "choose_language", "parse_json", "read_action", "read_best", "read_empty",
           "read_new_game", "read_preview", "too_large"]
