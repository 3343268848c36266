from __future__ import annotations

from pathlib import Path

import pytest

from letras.editions import find_edition
from letras.lexicon.kwg import WordGraph, graph_for_words

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
