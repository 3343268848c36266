from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture
def shared() -> Path:
    """The read-only shared folder beside the checkout; tests that need it skip without it."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED
