"""Errors as the web app sends them: a status code and ``{"error": {"key", "message",
...facts}}``, the message in the reader's language.

Any :class:`~letras.errors.LetrasError` becomes an error body: its ``key``, its message in the
language (from the catalogs of :mod:`letras.i18n` when they have the key, else its English
text) and its facts. The status says what kind of refusal it is (``docs/web-api.md``): 400 a
malformed request, 403 no or a wrong token, 404 no such game, 409 an action the game's state
does not allow now (not your turn, the game is over), 413 a body too large, 422 an illegal
play or exchange, 503 the database failed.

>>> e = ServerError(404, "server.no_game", "no game 'x'", game="x")
>>> status_of(e), error_body(e, "en")["error"]["key"]
(404, 'server.no_game')
>>> from letras.errors import RuleError
>>> status_of(RuleError("the game is over", key="rule.over"))
409
>>> error_body(RuleError("the game is over", key="rule.over"), "pt-BR")["error"]["message"]
'o jogo acabou'
"""

from __future__ import annotations

import json
from typing import Any

from letras.errors import LetrasError
from letras.i18n import messages

CONFLICT_KEYS = frozenset({
    "rule.not_your_turn", "rule.over", "rule.settle_first", "rule.no_play_end",
    "challenge.nothing", "challenge.own", "challenge.void", "table.not_ai", "table.ai_seat",
    "server.moved_on",
})
"""Keys of refusals that depend on the game's state, not on what was asked: 409."""


class ServerError(LetrasError):
    """A refusal of the web layer itself (malformed request, token, size, no such game)."""

    def __init__(self, status: int, key: str, message: str, /, **values: Any) -> None:
        super().__init__(message, key=key, **values)
        self.status = status


def status_of(e: LetrasError) -> int:
    """The HTTP status of a refusal (see the module docstring)."""
    from letras.server.storage import NoSuchGameError, StorageError

    if isinstance(e, ServerError):
        return e.status
    if isinstance(e, NoSuchGameError):
        return 404
    if e.key in CONFLICT_KEYS:
        return 409
    if isinstance(e, StorageError):
        return 503
    return 422


def _json_safe(value: Any) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value


def error_dict(e: LetrasError, language: str) -> dict[str, Any]:
    """The error's key, message in ``language`` and facts."""
    t = messages(language)
    message = str(e)
    if t.has(e.key):
        try:
            message = t(e.key, **e.values)
        except (KeyError, IndexError, ValueError):
            message = str(e)
    facts = {k: _json_safe(v) for k, v in e.values.items() if k not in ("key", "message")}
    return {"key": e.key, "message": message, **facts}


def error_body(e: LetrasError, language: str) -> dict[str, Any]:
    return {"error": error_dict(e, language)}


__all__ = ["CONFLICT_KEYS", "ServerError", "error_body", "error_dict", "status_of"]
