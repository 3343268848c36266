"""Imports go one way: the core never pulls in the command line, formats, a server or the AI."""

from __future__ import annotations

import subprocess
import sys


def loaded(*modules: str) -> set[str]:
    """The modules a fresh interpreter has loaded after importing ``modules``."""
    code = f"import sys, {', '.join(modules)}; print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return set(out.stdout.split())


def none_of(modules: set[str], *forbidden: str) -> list[str]:
    return sorted(m for m in modules if m.startswith(forbidden))


def test_core_imports_no_edges() -> None:
    modules = loaded("letras", "letras.game", "letras.rules", "letras.scoring", "letras.board")
    assert "letras.game" in modules
    assert not none_of(modules, "letras.cli", "letras.formats", "letras.server", "letras.web",
                       "letras.ai", "letras.terminal", "letras.table", "letras.i18n", "rich",
                       "textual", "starlette", "fastapi", "sqlalchemy")


def test_the_ai_imports_no_front_end() -> None:
    modules = loaded("letras.ai", "letras.ai.best", "letras.ai.leaves.training",
                     "letras.ai.leaves.klv")
    assert "letras.ai.sim" in modules and "letras.ai.endgame" in modules
    assert not none_of(modules, "letras.cli", "letras.terminal", "letras.table", "letras.i18n",
                       "letras.server", "letras.web", "rich", "sqlalchemy", "psycopg",
                       "sqlite3")


def test_the_table_imports_no_front_end() -> None:
    modules = loaded("letras.table", "letras.table.table", "letras.table.events", "letras.view")
    assert "letras.table.table" in modules and "letras.game" in modules
    assert not none_of(modules, "letras.cli", "letras.terminal", "letras.server", "letras.web",
                       "rich", "textual", "starlette", "fastapi", "uvicorn", "sqlalchemy",
                       "psycopg", "sqlite3")


def test_the_move_generator_knows_no_game() -> None:
    """The move generator works on boards, racks and word graphs: no import of the game,
    not even for types (``import letras`` loads the game, so the sources are read)."""
    import ast
    from pathlib import Path

    import letras.movegen

    imported = set()
    for path in Path(letras.movegen.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    assert "letras.board" in imported
    assert not imported & {"letras.game", "letras.history", "letras.view", "letras.ai"}
