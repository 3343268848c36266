"""letras._compiled.lazy_module: a module's code runs at its first use, once, whatever the
threads."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from letras._compiled import lazy_module


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    sys.path.insert(0, str(tmp_path))
    yield tmp_path
    sys.path.remove(str(tmp_path))
    for name in [n for n in sys.modules if n.startswith("lazy_probe")]:
        del sys.modules[name]


def test_the_code_runs_at_the_first_use_and_once(folder: Path) -> None:
    ran = folder / "ran.txt"
    (folder / "lazy_probe_once.py").write_text(
        f"from pathlib import Path\np = Path({str(ran)!r})\n"
        "p.write_text(p.read_text() + 'x' if p.exists() else 'x')\nVALUE = 7\n")
    module = lazy_module("lazy_probe_once")
    assert not ran.exists()
    assert module.VALUE == 7
    assert module.VALUE == 7
    assert ran.read_text() == "x"
    assert type(module) is ModuleType  # a plain module once run
    assert sys.modules["lazy_probe_once"] is module


def test_threads_asking_at_once_all_see_the_whole_module(folder: Path) -> None:
    # the module's code takes a while: a thread that saw it half made would miss VALUE
    (folder / "lazy_probe_slow.py").write_text("import time\ntime.sleep(0.3)\nVALUE = 42\n")
    module = lazy_module("lazy_probe_slow")
    seen: list[object] = []

    def ask() -> None:
        try:
            seen.append(module.VALUE)
        except AttributeError as error:
            seen.append(error)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [42, 42, 42, 42]


def test_an_unknown_module_is_an_import_error() -> None:
    with pytest.raises(ImportError):
        lazy_module("lazy_probe_no_such_module")
