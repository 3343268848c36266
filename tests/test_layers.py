"""Imports go one way: the core never pulls in the command line, formats, a server or the AI."""

from __future__ import annotations

import subprocess
import sys


def test_core_imports_no_edges() -> None:
    code = (
        "import sys, letras, letras.game, letras.rules, letras.scoring, letras.board;"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    modules = set(out.stdout.split())
    assert "letras.game" in modules
    forbidden = ("letras.cli", "letras.formats", "letras.server", "letras.web", "letras.ai",
                 "letras.terminal", "letras.i18n", "rich", "textual", "starlette", "fastapi",
                 "sqlalchemy")
    assert not [m for m in modules if m.startswith(forbidden)]


def test_the_ai_imports_no_front_end() -> None:
    code = (
        "import sys, letras.ai, letras.ai.best, letras.ai.leaves.training,"
        " letras.ai.leaves.klv;"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    modules = set(out.stdout.split())
    assert "letras.ai.sim" in modules and "letras.ai.endgame" in modules
    forbidden = ("letras.cli", "letras.terminal", "letras.i18n", "letras.server", "rich")
    assert not [m for m in modules if m.startswith(forbidden)]


def test_the_table_imports_no_front_end() -> None:
    code = (
        "import sys, letras.table, letras.table.table, letras.table.events, letras.view;"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    modules = set(out.stdout.split())
    assert "letras.table.table" in modules and "letras.game" in modules
    forbidden = ("letras.cli", "letras.terminal", "letras.server", "letras.web", "rich",
                 "textual", "starlette", "fastapi", "uvicorn", "sqlalchemy", "psycopg",
                 "sqlite3")
    assert not [m for m in modules if m.startswith(forbidden)]


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
