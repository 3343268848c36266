"""The move generator compiled ahead of time (letras.movegen.prebuilt, letras.movegen.aot):
used only when built for the sources installed, the same plays as the JIT kernels, and no
numba in a process that runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from letras.ai.leaves import shipped_leaves
from letras.ai.leaves.klv import LeaveTable
from letras.editions import find_edition
from letras.formats.cgp import parse_board, parse_rack
from letras.lexicon.kwg import graph_for_words
from letras.movegen import (
    _kernels,
    generate,
    lane_state,
    leave_table,
    prebuilt,
    top_by_equity,
    top_plays,
)
from letras.movegen.aot import build, main

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "positions"


def test_turned_off_or_not_built_means_the_jit_kernels(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LETRAS_AOT", "0")
    assert prebuilt.directory() is None
    monkeypatch.setenv("LETRAS_AOT", str(tmp_path))
    assert prebuilt.directory() == tmp_path
    assert prebuilt.load(tmp_path) is None  # nothing built there


def test_an_extension_of_other_sources_or_a_broken_one_is_not_used(tmp_path: Path) -> None:
    other = prebuilt.module_path(tmp_path, "0" * 20)
    assert other.name != prebuilt.module_path(tmp_path, prebuilt.stamp()).name
    other.write_bytes(b"not an extension")
    assert prebuilt.load(tmp_path) is None
    prebuilt.module_path(tmp_path, prebuilt.stamp()).write_bytes(b"not an extension")
    assert prebuilt.load(tmp_path) is None  # does not load: the JIT way


def test_status_and_remove_say_what_is_there(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["status", "--dir", str(tmp_path)]) == 1
    assert "not built" in capsys.readouterr().out
    prebuilt.module_path(tmp_path, prebuilt.stamp()).write_bytes(b"not an extension")
    assert main(["status", "--dir", str(tmp_path)]) == 0
    assert "does not load" in capsys.readouterr().out
    assert main(["remove", "--dir", str(tmp_path)]) == 0
    assert "removed 1" in capsys.readouterr().out
    assert not list(tmp_path.iterdir())


def test_the_stamp_is_stable_and_names_the_module() -> None:
    assert prebuilt.stamp() == prebuilt.stamp()
    assert prebuilt.stamp() in prebuilt.module_name(prebuilt.stamp())


def test_the_stamp_follows_numpys_binary_interface_not_its_release(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """pip builds the extension with its build environment's numpy, which may be another
    release of the same major version than the one installed beside letras."""
    major = np.__version__.split(".")[0]
    here = prebuilt.stamp()
    monkeypatch.setattr(np, "__version__", f"{major}.999.0")
    assert prebuilt.stamp() == here
    monkeypatch.setattr(np, "__version__", f"{int(major) + 1}.0.0")
    assert prebuilt.stamp() != here


def test_the_stamp_names_the_processor(monkeypatch: pytest.MonkeyPatch) -> None:
    """The install builds the extension for its machine's processor: a cache shared with a
    machine whose processor differs (other flags) must not load it there."""
    here = prebuilt.stamp()
    assert prebuilt._processor() == prebuilt._processor()
    real = prebuilt._processor()
    monkeypatch.setattr(prebuilt, "_processor", lambda: real + " avx512f")
    assert prebuilt.stamp() != here


def test_arrays_of_other_types_go_to_the_jit_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def compiled(*args: Any) -> str:
        calls.append("compiled")
        return "compiled"

    def jit(*args: Any) -> str:
        calls.append("jit")
        return "jit"

    monkeypatch.setattr(_kernels, "packed_graph", jit)
    kernel = prebuilt.Kernel("packed_graph", compiled)
    nodes = np.zeros(8, np.uint32)
    assert kernel(nodes, False) == "compiled"
    assert kernel(nodes.astype(np.int64), False) == "jit"  # another dtype
    assert kernel(np.zeros(16, np.uint32)[::2], False) == "jit"  # not contiguous
    assert kernel(nodes.reshape(2, 4), False) == "jit"  # another number of dimensions
    assert kernel(list(nodes), False) == "jit"  # not an array
    assert calls == ["compiled", "jit", "jit", "jit", "jit"]


def test_every_exported_kernel_exists_in_the_jit_module() -> None:
    for name, (_, args) in prebuilt.EXPORTS.items():
        kernel = getattr(_kernels, name)
        assert kernel.py_func.__code__.co_argcount == len(args), name


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    where = tmp_path_factory.mktemp("aot")
    build(where)
    yield where


def _rows(name: str, step: int) -> tuple[Path, list[list[str]]]:
    """Every ``step``-th regression position of an edition (the shared ones, else the
    English ones of tests/data)."""
    if (SHARED / f"{name}.tsv").exists():
        words, table = SHARED / f"{name}-words.txt.xz", SHARED / f"{name}.tsv"
    elif name == "en":
        words, table, step = DATA / "en-words.txt.xz", DATA / "en-positions.tsv", 1
    else:
        pytest.skip("../shared/positions is not present")
    rows = [line.split("\t") for line in table.read_text(encoding="utf-8").splitlines()[1:]]
    return words, rows[::step]


def _answers(board: Any, rack: Any, graph: Any, rack_leaves: Any) -> list[Any]:
    """What the move generator answers, all the ways letras uses it."""
    plays = generate(board, rack, graph)
    state = lane_state(board, graph)
    return [
        plays.meta.tolist(), plays.tiles.tolist(), plays.values.tolist(),
        [(str(p), s) for p, s in top_plays(board, rack, graph, 5)],
        [(str(p), s) for p, s in top_plays(board, rack, graph, 5, word_map=False)],
        [(str(p), s, e) for p, s, e in top_by_equity(board, rack, graph, 3, rack_leaves)],
        state.cross_sets.tolist(), state.cross_scores.tolist(),
    ]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["en", "es", "pt-BR"])
def test_the_compiled_extension_finds_what_the_jit_kernels_find(
        built: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = prebuilt.load(built)
    assert compiled is not None
    edition = find_edition(name)
    words, rows = _rows(name, 8)
    graph = graph_for_words(edition, words)
    leaves = shipped_leaves(edition)
    calls: dict[str, int] = {}
    for kernel in (compiled.generate, compiled.generate_mapped, compiled.cross_sets):
        def counted(*args: Any, _name: str = kernel.name, _call: Any = kernel.compiled) -> Any:
            calls[_name] = calls.get(_name, 0) + 1
            return _call(*args)
        monkeypatch.setattr(kernel, "compiled", counted)
    compared = 0
    for _, cgp, rack_text, *_ in rows:
        board, rack = parse_board(cgp, edition), parse_rack(rack_text, edition)
        rack_leaves = (leaves.rack_leaves(rack) if isinstance(leaves, LeaveTable)
                       else leave_table(rack, leaves.value))
        monkeypatch.setattr(prebuilt, "kernels", lambda: None)
        jit = _answers(board, rack, graph, rack_leaves)
        monkeypatch.setattr(prebuilt, "kernels", lambda: compiled)
        assert _answers(board, rack, graph, rack_leaves) == jit, (name, cgp, rack_text)
        compared += 1
    assert compared >= 5
    # the extension's own functions answered, not the JIT kernels behind them
    assert min(calls.get(k, 0) for k in ("generate", "generate_mapped", "cross_sets")) >= compared
    assert compiled.packed_graph(graph.nodes, len(edition.tiles.labels) > 32).tolist() == (
        _kernels.packed_graph(graph.nodes, len(edition.tiles.labels) > 32).tolist())


_CHILD = """
import json, sys
from letras.cli.app import run
code = run(["moves", sys.argv[1], "--json", *sys.argv[2:]])
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("numba", "llvmlite"))),
      file=sys.stderr)
sys.exit(code)
"""


def _fresh_moves(cgp: str, aot: str, *more: str) -> tuple[list[Any], list[str]]:
    """The plays a fresh interpreter's ``letras moves --json`` (and ``more`` options)
    prints, and the modules of numba and llvmlite it imported."""
    env = {**os.environ, "LETRAS_AOT": aot}
    done = subprocess.run([sys.executable, "-c", _CHILD, cgp, *more], env=env, capture_output=True,
                          text=True, check=True)
    plays: list[Any] = json.loads(done.stdout)
    modules: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return plays, modules


@pytest.mark.slow
def test_a_fresh_letras_moves_on_the_extension_never_imports_numba(built: Path) -> None:
    cgp = ("15/15/15/15/5N9/5A9/1IF2T9/2LIAISE7/4GO9/4AN9/4P2D7/2AVENGE7/7L7/7V7/7E7 "
           "?AOSTUW/ 0/0 0 ld en;")
    plays, modules = _fresh_moves(cgp, str(built))
    assert modules == []
    jit_plays, jit_modules = _fresh_moves(cgp, "0")
    assert "numba" in jit_modules  # the JIT way does import it: the check can fail
    assert plays == jit_plays
    assert len(plays) > 1000
    # the best few: the word map is read from its cache file (the JIT run made it) without
    # numba, its kernels being in the extension
    jit_top, jit_modules = _fresh_moves(cgp, "0", "--top", "5")
    top, modules = _fresh_moves(cgp, str(built), "--top", "5")
    assert "numba" in jit_modules
    assert modules == []
    assert top == jit_top
    assert len(top) == 5
