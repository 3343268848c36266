from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from letras.editions import find_edition
from letras.lexicon.kwg import WordGraph, graph_for_words

# The background compile that `letras play` and `letras serve` start (letras.cli.warm) would
# outlive the test that started it and compete for the machine's cores with the rest of the
# suite; tests/test_warm.py tests it by itself.
os.environ.setdefault("LETRAS_WARM", "0")

# No test is timed (speed is measured by the benchmarks in bench/): hypothesis' per-example
# deadline would fail a property test whose first example loads or compiles a kernel on a
# loaded machine.
settings.register_profile("letras", deadline=None)
settings.load_profile("letras")

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture
def shared() -> Path:
    """The read-only shared folder beside the checkout; tests that need it skip without it."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED


@pytest.fixture(scope="session")
def en_words() -> WordGraph:
    """The English test word list (63,612 words) as a word graph, built once a session."""
    return graph_for_words(find_edition("en"), DATA / "en-words.txt.xz")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A private PostgreSQL cluster for the session (Debian's initdb and pg_ctl, a free port
    on 127.0.0.1) with an empty database ``letras``: its URL. Without initdb the tests that
    need it skip, or fail under CI=true."""
    from server_helpers import postgres_cluster, postgres_tools

    tools = postgres_tools()
    if tools is None:
        reason = "PostgreSQL's initdb and pg_ctl are missing (apt-get install postgresql)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    with postgres_cluster(*tools) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh empty database for one test: an SQLite file in ``tmp_path``, then a new
    database on the session's PostgreSQL cluster."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'letras.db'}"
        return
    from server_helpers import fresh_database

    with fresh_database(request.getfixturevalue("postgres_url")) as url:
        yield url
