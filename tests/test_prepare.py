"""The slow one-time work done by the install (letras.cli.prepare, run by hatch_build.py):
skipped when done, failing alone, and what a real ``pip install`` builds is what the programs
then use."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from letras.cli import prepare
from letras.editions import find_edition
from letras.lexicon import shipped_lexicons
from letras.lexicon.kwg import cache_key
from letras.movegen import prebuilt
from letras.movegen.graph import packed_path
from letras.movegen.wordmap import map_paths

REPO = Path(__file__).resolve().parents[1]


def _graph_entry(cache: Path) -> Path:
    """Where the default edition's graph is cached, worked out here from the shipped list."""
    edition = find_edition("pt-BR")
    words = shipped_lexicons()["pt-BR"].words
    return cache / f"{cache_key(edition, words.name, words.read_bytes())}.kbwg"


@pytest.fixture
def caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LETRAS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("LETRAS_AOT", str(tmp_path / "aot"))
    return tmp_path


def _pretend_done(caches: Path) -> list[Path]:
    """Empty files where every result is looked for: what the checks see."""
    entry = _graph_entry(caches / "cache")
    files = [prebuilt.module_path(caches / "aot", prebuilt.stamp()), entry,
             packed_path(entry), *map_paths(entry, 7)]
    for f in files:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b"")
    return files


def test_nothing_is_ready_in_empty_caches(caches: Path) -> None:
    assert not prepare.aot_ready()
    assert not prepare.graph_ready()


def test_each_result_is_looked_for_where_the_programs_read_it(caches: Path) -> None:
    files = _pretend_done(caches)
    assert prepare.aot_ready() and prepare.graph_ready()
    for f in files[1:]:  # any of the graph's files missing: the graph step is not done
        f.rename(f.with_name(f.name + ".away"))
        assert not prepare.graph_ready()
        f.with_name(f.name + ".away").rename(f)
    files[0].unlink()
    assert not prepare.aot_ready() and prepare.graph_ready()


def test_done_means_nothing_run(caches: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _pretend_done(caches)

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("ran a step that was done")

    monkeypatch.setattr(prepare, "_run", never)
    monkeypatch.setattr(prepare, "jit_ready", lambda: True)
    monkeypatch.setattr(subprocess, "Popen", never)
    assert prepare.prepare() and prepare.prepare(jit=True)
    assert prepare.main([]) == 0 and prepare.main(["--jit"]) == 0


def test_the_extension_turned_off_is_not_built(caches: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LETRAS_AOT", "0")
    assert prepare.aot_ready()
    prepare.prepare_aot()  # nothing to do, nothing written
    assert not (caches / "aot").exists()


def test_a_failing_step_fails_alone_and_says_so(
        caches: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def broken() -> None:
        raise RuntimeError("no C compiler")

    monkeypatch.setattr(prepare, "prepare_aot", broken)
    assert prepare.main(["aot"]) == 1
    err = capsys.readouterr().err
    assert "could not prepare aot" in err and "no C compiler" in err
    assert prepare.main(["nonsense"]) == 2


@pytest.mark.slow
def test_a_real_install_prepares_what_the_programs_use(tmp_path: Path) -> None:
    """``pip install -e`` of a fresh copy (no numba cache) into a fresh venv, with empty
    caches: the build hook compiles the extension in pip's build environment (its own numpy),
    and the venv's letras takes it (the stamps agree) and the cached graph; a second install
    rebuilds nothing; ``LETRAS_PREPARE=0`` prepares nothing. Uses pip's cache for wheels."""
    tree = tmp_path / "letras"
    shutil.copytree(REPO / "src", tree / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md", "LICENSE", "hatch_build.py"):
        shutil.copy2(REPO / name, tree / name)
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "VIRTUAL_ENV", "PYTHONPATH", "LETRAS_AOT",
                        "LETRAS_PREPARE")}
    env["LETRAS_CACHE"] = str(tmp_path / "cache")
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True)
    python = str(tmp_path / "venv" / "bin" / "python")
    install = [python, "-m", "pip", "install", "-q", "-e", str(tree)]
    subprocess.run(install, check=True, env=env)

    aot = tmp_path / "cache" / "aot"
    built = sorted(aot.iterdir())
    assert len(built) == 1 and built[0].name.startswith(prebuilt.PREFIX)
    entry = _graph_entry(tmp_path / "cache")
    graph_files = [entry, packed_path(entry), *map_paths(entry, 7)]
    assert all(f.is_file() for f in graph_files)
    check = (
        "import sys\n"
        "from letras.movegen import prebuilt\n"
        "from letras.cli import prepare\n"
        "print(prebuilt.kernels() is not None, prepare.graph_ready(),"
        " 'numba' in sys.modules, prebuilt.module_path(prebuilt.directory(),"
        " prebuilt.stamp()).name)\n")
    out = subprocess.run([python, "-c", check], check=True, env=env, capture_output=True,
                         text=True).stdout.split()
    assert out == ["True", "True", "False", built[0].name]
    moves = subprocess.run([python, "-m", "letras", "moves", "--json",
                            f"{'/'.join(['15'] * 15)} AEIORST/ 0/0 0 ld pt-BR;"],
                           check=True, env=env, capture_output=True, text=True)
    assert "compiling" not in moves.stderr and moves.stdout.count("score") > 1000

    stamps = {f: f.stat().st_mtime_ns for f in [built[0], *graph_files]}
    subprocess.run(install, check=True, env=env)
    assert {f: f.stat().st_mtime_ns for f in stamps} == stamps
    assert sorted(aot.iterdir()) == built

    shutil.rmtree(tmp_path / "cache")
    subprocess.run(install, check=True, env={**env, "LETRAS_PREPARE": "0"})
    assert not (tmp_path / "cache").exists()
