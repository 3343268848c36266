"""The web app's contract as an OpenAPI 3.1 document: ``GET /api/openapi.json``.

Written here beside the routes (``docs/web-api.md`` says the same in prose). The view's
schema is the one the views are tested against (``letras/formats/data/view.schema.json``), its
definitions moved under ``components/schemas``. A test checks that every route of the app is in
the document with its methods, that the document is valid OpenAPI, and that real answers match
its schemas.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from letras.server.inputs import ACTION_KINDS, MAX_BODY
from letras.server.review import MAX_BEST

VERSION = "1"


def _refs(node: Any, prefix: str) -> Any:
    """``node`` with its ``#/$defs/x`` references pointing to ``components/schemas``."""
    if isinstance(node, dict):
        out = {k: _refs(v, prefix) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            out["$ref"] = f"#/components/schemas/{prefix}{ref[len('#/$defs/'):]}"
        return out
    if isinstance(node, list):
        return [_refs(v, prefix) for v in node]
    return node


def _view_schemas() -> dict[str, Any]:
    from letras.formats.views import view_schema

    schema = copy.deepcopy(view_schema())
    defs = schema.pop("$defs", {})
    for key in ("$schema", "$id"):
        schema.pop(key, None)
    out = {"View": _refs(schema, "View_")}
    out.update({f"View_{name}": _refs(d, "View_") for name, d in defs.items()})
    return out


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


ERRORS = {str(code): {"$ref": "#/components/responses/Error"}
          for code in (400, 403, 404, 409, 413, 422, 503)}


def _schemas() -> dict[str, Any]:
    nullable_int = {"type": ["integer", "null"]}
    action = {
        "description": "Exactly one action.",
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "additionalProperties": False,
        "properties": {
            "play": {"type": "string", "minLength": 1, "maxLength": 100,
                     "examples": ["8H CASA"]},
            "exchange": {"type": "string", "minLength": 1, "maxLength": 100},
            **{k: {"const": True} for k in ACTION_KINDS if k not in ("play", "exchange")},
        },
    }
    return {
        **_view_schemas(),
        "Error": {
            "type": "object",
            "required": ["error"],
            "properties": {"error": {
                "type": "object",
                "required": ["key", "message"],
                "description": "A translated message, its catalog key and the facts it "
                               "names (the rest of the object).",
                "properties": {"key": {"type": "string"}, "message": {"type": "string"}},
            }},
        },
        "Action": action,
        "Step": {
            "type": "object",
            "required": ["kind", "seat", "may_challenge"],
            "properties": {
                "kind": {"enum": ["move", "ai", "window", "settle", "over"]},
                "seat": nullable_int,
                "may_challenge": {"type": "array", "items": {"type": "integer"}},
            },
        },
        "Event": {
            "type": "object",
            "required": ["key", "data", "text"],
            "properties": {"key": {"type": "string"}, "data": {"type": "object"},
                           "text": {"type": "string"}},
        },
        "State": {
            "type": "object",
            "required": ["game", "seat", "view", "step", "window", "rematch", "events"],
            "properties": {
                "game": {"type": "string"},
                "seat": nullable_int,
                "view": _ref("View"),
                "step": _ref("Step"),
                "window": {
                    "description": "A challenge window the server closes by itself.",
                    "type": ["object", "null"],
                    "properties": {"seconds": {"type": "number"},
                                   "seconds_left": {"type": "number"}},
                },
                "rematch": {"type": ["string", "null"],
                            "description": "The id of the game that follows this one."},
                "events": {"type": "array", "items": _ref("Event")},
            },
        },
        "NewGame": {
            "type": "object",
            "additionalProperties": False,
            "required": ["seats"],
            "properties": {
                "edition": {"type": "string", "examples": ["pt-BR"]},
                "lexicon": {"type": ["string", "null"]},
                "seats": {"type": "array", "minItems": 2, "maxItems": 4, "items": {
                    "type": "object", "additionalProperties": False,
                    "properties": {"name": {"type": "string"}, "ai": {"type": "string"}}}},
                "rules": {"type": "object"},
                "clock": {"type": ["string", "null"], "examples": ["25m", "move:3m"]},
                "seed": nullable_int,
            },
        },
        "Created": {
            "type": "object",
            "required": ["id", "seats", "spectate"],
            "properties": {
                "id": {"type": "string"},
                "seats": {"type": "array", "items": {
                    "type": "object", "required": ["seat", "name"],
                    "properties": {"seat": {"type": "integer"}, "name": {"type": "string"},
                                   "token": {"type": "string"}, "url": {"type": "string"},
                                   "ai": {"type": "string"}}}},
                "spectate": {"type": "string"},
            },
        },
        "Preview": {
            "type": "object",
            "required": ["legal"],
            "properties": {"legal": {"type": "boolean"}, "score": {"type": "object"},
                           "error": {"type": "object"}},
        },
        "Position": {
            "type": "object",
            "required": ["n", "moves", "positions", "prev", "next", "rack_of", "view"],
            "properties": {
                "n": {"type": "integer"}, "moves": {"type": "integer"},
                "positions": {"type": "array", "items": {"type": "integer"}},
                "prev": nullable_int, "next": nullable_int, "rack_of": nullable_int,
                "view": _ref("View"),
            },
        },
        "Best": {
            "type": "object",
            "required": ["seat", "rack", "plays"],
            "properties": {
                "seat": {"type": "integer"}, "rack": {"type": "string"},
                "plays": {"type": "array", "items": {
                    "type": "object", "required": ["play", "score", "equity"],
                    "properties": {"play": {"type": "string"}, "score": {"type": "integer"},
                                   "equity": {"type": "number"}}}},
            },
        },
    }


def _game_id() -> dict[str, Any]:
    return {"name": "id", "in": "path", "required": True,
            "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"}}


TOKEN = {"name": "token", "in": "query", "required": False, "schema": {"type": "string"},
         "description": "A seat's token (or the Authorization: Bearer header); none: a "
                        "spectator."}
LANG = {"name": "lang", "in": "query", "required": False,
        "schema": {"enum": ["pt-BR", "es", "it", "en"]},
        "description": "The language of messages (else Accept-Language, else the "
                       "edition's)."}


def _op(summary: str, ok: dict[str, Any], *, body: str | None = None, game: bool = True,
        params: tuple[dict[str, Any], ...] = (), status: str = "200") -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary,
                          "parameters": [*([_game_id(), TOKEN] if game else []), LANG, *params],
                          "responses": {status: ok, **ERRORS}}
    if body is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {
            "schema": _ref(body)}}}
    return op


@cache
def openapi() -> dict[str, Any]:
    """The document (the same object each call: do not change it)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        app_version = version("letras")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        app_version = "0"
    n = {"name": "n", "in": "path", "required": True,
         "schema": {"type": "integer", "minimum": 0, "maximum": 999_999},
         "description": "The position after this many moves."}
    state = _json(_ref("State"), "The seat's state (a spectator's without a token).")
    text = {"description": "The game as GCG.", "content": {"text/plain": {
        "schema": {"type": "string"}}}}
    paths = {
        "/api/editions": {"get": _op("The editions, their rules, lexicons and tiles; the "
                                     "computer levels.", _json({"type": "object"}, "Editions"),
                                     game=False)},
        "/api/i18n/{language}": {"get": {
            "summary": "A language's message catalog as a flat object.",
            "parameters": [{"name": "language", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": _json({"type": "object", "additionalProperties":
                                        {"type": "string"}}, "The catalog.")}}},
        "/api/openapi.json": {"get": {"summary": "This document.", "responses": {
            "200": _json({"type": "object"}, "OpenAPI 3.1")}}},
        "/api/games": {"post": _op("Make a game: each person's seat gets its token.",
                                   _json(_ref("Created"), "The game and its links."),
                                   body="NewGame", game=False, status="201")},
        "/api/games/{id}": {"get": _op("The state for a seat, or a spectator.", state)},
        "/api/games/{id}/actions": {"post": _op(
            "One action of the token's seat: " + ", ".join(ACTION_KINDS) + ".", state,
            body="Action")},
        "/api/games/{id}/preview": {"post": {
            **_op("Would this play be legal, and what would it score? Nothing changes.",
                  _json(_ref("Preview"), "Legal with its score, or the reason not.")),
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["play"], "additionalProperties": False,
                "properties": {"play": {"type": "string"}}}}}}}},
        "/api/games/{id}/gcg": {"get": _op("The record as GCG for the seat (every rack once "
                                           "the game is over; never the seed).", text)},
        "/api/games/{id}/examine/{n}": {"get": _op(
            "The position after n moves: the seat's own rack while the game is on, the "
            "mover's once it is over.", _json(_ref("Position"), "The position."),
            params=(n,))},
        "/api/games/{id}/best": {"post": {
            **_op("The best plays of the turn after n moves, once the game is over.",
                  _json(_ref("Best"), "The plays by equity, best first.")),
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["n"], "additionalProperties": False,
                "properties": {"n": {"type": "integer", "minimum": 0},
                               "count": {"type": "integer", "minimum": 1,
                                         "maximum": MAX_BEST}}}}}}}},
        "/api/games/{id}/rematch": {"post": {
            **_op("The game that follows a finished one: the same seats, rules and links.",
                  _json({"type": "object", "required": ["id", "url"], "properties": {
                      "id": {"type": "string"}, "url": {"type": "string"}}},
                      "The new game (the seat's token opens it).")),
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "additionalProperties": False}}}}}},
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "letras",
            "version": f"{app_version} (contract {VERSION})",
            "summary": "The crossword tile game: the server is the referee.",
            "description": "Seats are opened by their secret tokens. A websocket at "
                           "/ws/games/{id} (with a token or none) sends the state after every "
                           'change and takes {"action": ACTION}. Bodies and messages are at '
                           f"most {MAX_BODY} bytes. See docs/web-api.md.",
            "license": {"name": "GPL-3.0-or-later", "identifier": "GPL-3.0-or-later"},
        },
        "paths": paths,
        "components": {
            "schemas": _schemas(),
            "responses": {"Error": _json(_ref("Error"), "Refused: nothing changed.")},
        },
    }


__all__ = ["openapi"]
