"""The OpenAPI document of the web app: valid, complete (every route with its methods), and
true (real answers match its schemas)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from openapi_spec_validator import validate
from starlette.routing import Route

from letras.lexicon.kwg import WordGraph
from letras.server.openapi import openapi
from server_helpers import get_state, new_game, play_out, serving


def check(answer: Any, name: str) -> None:
    spec = openapi()
    schema = {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
    jsonschema.Draft202012Validator(schema).validate(answer)


def test_the_document_is_valid_openapi() -> None:
    validate(openapi())


def test_every_route_is_in_the_document(en_words: WordGraph, tmp_path: Any) -> None:
    with serving(f"sqlite:///{tmp_path / 'x.db'}", en_words) as client:
        routes = {r.path: set(r.methods or ()) - {"HEAD"}
                  for r in client.app.routes  # type: ignore[attr-defined]
                  if isinstance(r, Route) and r.path.startswith("/api/")}
        served = client.get("/api/openapi.json")
    assert served.status_code == 200 and served.json() == openapi()
    paths = openapi()["paths"]
    assert set(routes) == set(paths)
    for path, methods in routes.items():
        assert {m.lower() for m in methods} == set(paths[path]), path


def test_answers_match_the_schemas(en_words: WordGraph, tmp_path: Any) -> None:
    with serving(f"sqlite:///{tmp_path / 'x.db'}", en_words) as client:
        created = new_game(client, [{"name": "Ana"}, {"name": "Bot", "ai": "greedy"}], seed=4)
        check(created, "Created")
        game, token = created["id"], created["seats"][0]["token"]
        check(get_state(client, game, token), "State")
        check(get_state(client, game), "State")
        preview = client.post(f"/api/games/{game}/preview", params={"token": token},
                              json={"play": "8H ZZZZ"})
        check(preview.json(), "Preview")
        refused = client.post(f"/api/games/{game}/actions", params={"token": token},
                              json={"jump": True})
        assert refused.status_code == 400
        check(refused.json(), "Error")
        final = play_out(client, game, {0: token}, en_words)
        check(final, "State")
        check(client.get(f"/api/games/{game}/examine/1", params={"token": token}).json(),
              "Position")
        best = client.post(f"/api/games/{game}/best", params={"token": token}, json={"n": 1})
        check(best.json(), "Best")
        with pytest.raises(jsonschema.ValidationError):
            check({**final, "step": {"kind": "dancing"}}, "State")  # the schemas do check
