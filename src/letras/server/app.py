"""The web app: every route of ``docs/web-api.md`` over :class:`~letras.server.games.GameService`.

:func:`create_app` makes the Starlette app; ``letras serve`` runs it with uvicorn. The app
owns its database connection and its worker pool, and stops both when it shuts down (the
lifespan). Bad input (malformed JSON, unknown fields, wrong types, a body or message over
64 KiB) gets a JSON error and changes nothing; the connection and the server go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from letras.errors import LetrasError
from letras.lexicon.kwg import WordGraph
from letras.server.ai_pool import AIPool
from letras.server.errors import ServerError, error_body, error_dict, status_of
from letras.server.fanout import Listener
from letras.server.games import GameService, Subscriber
from letras.server.inputs import (
    MAX_BODY,
    Asked,
    parse_json,
    read_action,
    read_best,
    read_empty,
    read_new_game,
    read_preview,
    too_large,
)
from letras.server.jobs import LEASE_SECONDS, JobRunner, Jobs
from letras.server.lexicons import Lexicons
from letras.server.storage import Store

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>letras</title></head>
<body><h1>letras</h1><p>The page is not installed; the API is at <code>/api/</code>.</p></body>
</html>
"""


def static_dir() -> Path:
    """The page's files, in the package (``letras/server/static``)."""
    return Path(str(resources.files("letras.server") / "static"))


def _asked(conn: Request | WebSocket) -> Asked:
    return Asked(conn.query_params.get("lang") or None, conn.headers.get("accept-language"))


def _token(conn: Request | WebSocket) -> str | None:
    token = conn.query_params.get("token")
    if token:
        return token
    auth = conn.headers.get("authorization", "")
    scheme, _, value = auth.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


def _language(conn: Request | WebSocket) -> str:
    """The language of an answer that has no game to take it from."""
    return _asked(conn).language("en")


def _error(e: LetrasError, conn: Request | WebSocket, language: str | None = None) -> Response:
    return JSONResponse(error_body(e, language or _language(conn)), status_code=status_of(e))


def _whole(text: str) -> int:
    """A move count in a path (digits only, at most six)."""
    if not text.isdigit() or not text.isascii() or len(text) > 6:
        raise ServerError(400, "server.bad_type", "a move count is a whole number",
                          field="n", want="a whole number")
    return int(text)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, at most 64 KiB (read no further)."""
    length = request.headers.get("content-length")
    if length is not None:
        try:
            size = int(length)
        except ValueError:
            raise ServerError(400, "server.bad_length", "a bad Content-Length") from None
        if size > MAX_BODY:
            raise too_large(size)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_large(size)
        chunks.append(chunk)
    return parse_json(b"".join(chunks))


def create_app(
    db_url: str | None = None,
    *,
    ai_workers: int = 1,
    ai_seconds: float = 1.0,
    window_seconds: float = 15.0,
    graphs: Mapping[str, WordGraph] | None = None,
    lease_seconds: float = LEASE_SECONDS,
) -> Starlette:
    """The web app on the database ``db_url`` (default: an SQLite file in the user's data
    directory). ``ai_workers`` processes think for the computer seats, ``ai_seconds`` each
    move; a challenge window nobody answers closes after ``window_seconds``. ``graphs`` maps
    an edition's name to a word graph that is its default lexicon (small word lists for
    tests). A server that stops answering loses a computer's turn to another server after
    ``lease_seconds``."""
    store = Store(db_url)
    lexicons = Lexicons(graphs)
    pool = AIPool(lexicons, workers=ai_workers)
    jobs = Jobs(store, lease_seconds=lease_seconds)
    service = GameService(store, lexicons, pool, ai_seconds=ai_seconds,
                          window_seconds=window_seconds, jobs=jobs)
    runner = JobRunner(jobs, service.resume)

    async def page(request: Request) -> Response:
        index = static_dir() / "index.html"
        if index.is_file():
            return FileResponse(index, media_type="text/html")
        return HTMLResponse(PLACEHOLDER)

    async def editions(request: Request) -> Response:
        from letras.ai import levels
        from letras.editions import editions as all_editions
        from letras.table.seats import default_level

        out = [{"name": ed.name, "title": ed.title, "language": ed.language,
                "rules": ed.rules.to_dict(), "lexicons": lexicons.names(ed),
                "tiles": [{"label": label, "value": value, "count": count,
                           "vowel": ed.tiles.is_vowel(code)}
                          for code, (label, value, count) in enumerate(zip(
                              ed.tiles.labels, ed.tiles.values, ed.tiles.counts, strict=True))]}
               for ed in all_editions().values()]
        return JSONResponse({"editions": out, "levels": list(levels()),
                             "default_level": default_level()})

    async def i18n(request: Request) -> Response:
        from letras.i18n import FALLBACK, catalog, find_language

        language = find_language(request.path_params["language"])
        return JSONResponse({**catalog(FALLBACK), **catalog(language)})

    async def contract(request: Request) -> Response:
        from letras.server.openapi import openapi

        return JSONResponse(openapi())

    async def new_game(request: Request) -> Response:
        try:
            body = read_new_game(await _body(request))
            return JSONResponse(await service.create(body, _asked(request)), status_code=201)
        except LetrasError as e:
            return _error(e, request)

    async def game_state(request: Request) -> Response:
        try:
            return JSONResponse(await service.state(request.path_params["id"], _token(request),
                                                    _asked(request)))
        except LetrasError as e:
            return await _game_error(e, request)

    async def action(request: Request) -> Response:
        try:
            body = read_action(await _body(request))
            return JSONResponse(await service.act(request.path_params["id"], _token(request),
                                                  body, _asked(request)))
        except LetrasError as e:
            return await _game_error(e, request)

    async def preview(request: Request) -> Response:
        try:
            play = read_preview(await _body(request))
            return JSONResponse(await service.preview(request.path_params["id"],
                                                      _token(request), play, _asked(request)))
        except LetrasError as e:
            return await _game_error(e, request)

    async def examine(request: Request) -> Response:
        try:
            n = _whole(request.path_params["n"])
            return JSONResponse(await service.examine(request.path_params["id"],
                                                      _token(request), n))
        except LetrasError as e:
            return await _game_error(e, request)

    async def best(request: Request) -> Response:
        try:
            n, count = read_best(await _body(request))
            return JSONResponse(await service.best(request.path_params["id"], _token(request),
                                                   n, count))
        except LetrasError as e:
            return await _game_error(e, request)

    async def rematch(request: Request) -> Response:
        try:
            read_empty(await _body(request))
            return JSONResponse(await service.rematch(request.path_params["id"],
                                                      _token(request), _asked(request)))
        except LetrasError as e:
            return await _game_error(e, request)

    async def gcg(request: Request) -> Response:
        game_id = request.path_params["id"]
        try:
            text = await service.gcg(game_id, _token(request))
        except LetrasError as e:
            return await _game_error(e, request)
        disposition = f'attachment; filename="letras-{game_id}.gcg"'  # the id is [A-Za-z0-9_-]
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": disposition})

    async def _game_error(e: LetrasError, request: Request) -> Response:
        """An error in the language of the request, else of the game's edition."""
        live = service.live(request.path_params["id"])
        default = live.game.edition.language if live is not None else "en"
        return _error(e, request, _asked(request).language(default))

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        game_id = ws.path_params["id"]
        token = _token(ws)
        asked = _asked(ws)
        try:
            sub = await service.subscribe(game_id, token, asked)
        except LetrasError as e:
            await ws.send_json({"type": "error", "error": error_dict(e, _language(ws))})
            await ws.close(code=4000 + status_of(e))
            return
        sender = asyncio.create_task(_send(ws, sub))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await _message(ws, sub, game_id, token, asked, raw)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            service.unsubscribe(game_id, sub)
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender

    async def _message(ws: WebSocket, sub: Subscriber, game_id: str, token: str | None,
                       asked: Asked, raw: str | bytes) -> None:
        try:
            data = parse_json(raw)
            if set(data) != {"action"}:
                raise ServerError(400, "server.unknown_field",
                                  'a message is {"action": ACTION}', field=",".join(data),
                                  known="action")
            if not isinstance(data["action"], dict):
                raise ServerError(400, "server.bad_type", "field 'action' must be an object",
                                  field="action", want="object")
            await service.act(game_id, token, read_action(data["action"]), asked)
        except LetrasError as e:
            await ws.send_json({"type": "error", "error": error_dict(e, sub.language)})

    async def _send(ws: WebSocket, sub: Subscriber) -> None:
        while True:
            state = await sub.queue.get()
            if sub.overflowed or not state:
                await ws.close(code=1001 if service.closed else 1013)
                return
            await ws.send_text(json.dumps(state, ensure_ascii=False))

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        key = {404: "server.not_found", 405: "server.method"}.get(status, "server.http")
        detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
        e = ServerError(status, key, str(detail))
        return JSONResponse(error_body(e, _language(request)), status_code=status)

    # Several servers on one PostgreSQL: each listens for the others' moves.
    listener = (Listener(store.url, service.moved)
                if store.engine.dialect.name == "postgresql" else None)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if listener is not None:
            listener.start()
        if jobs.shared:
            runner.start()
        try:
            yield
        finally:
            await runner.close()
            if listener is not None:
                await listener.close()
            await service.close()
            store.close()

    routes = [
        Route("/", page),
        Route("/g/{id}", page),
        Mount("/static", StaticFiles(directory=static_dir(), check_dir=False), name="static"),
        Route("/api/editions", editions),
        Route("/api/i18n/{language}", i18n),
        Route("/api/openapi.json", contract),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", game_state, methods=["GET"]),
        Route("/api/games/{id}/actions", action, methods=["POST"]),
        Route("/api/games/{id}/preview", preview, methods=["POST"]),
        Route("/api/games/{id}/gcg", gcg, methods=["GET"]),
        Route("/api/games/{id}/examine/{n}", examine, methods=["GET"]),
        Route("/api/games/{id}/best", best, methods=["POST"]),
        Route("/api/games/{id}/rematch", rematch, methods=["POST"]),
        WebSocketRoute("/ws/games/{id}", socket),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found})
    app.state.service = service
    app.state.store = store
    app.state.listener = listener
    return app


__all__ = ["create_app", "static_dir"]
