"""The background warm-up: its tiny word graph, its stages, and waiting for a stage."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from letras._compiled import is_cached
from letras.ai.sim import compiled as sim_compiled
from letras.cli import warm
from letras.editions import find_edition
from letras.lexicon.kwg import WordGraph


@pytest.mark.parametrize("name", ["en", "es"])
def test_the_tiny_graph_holds_what_the_builder_makes_of_the_same_words(name: str) -> None:
    edition = find_edition(name)
    tiny = warm.tiny_graph(edition)
    letters = [edition.tiles.label(t) for t in range(1, len(edition.tiles.labels))]
    words = [f"[{a}][{b}]" for a in letters for b in letters]
    built = WordGraph.build(edition, words)
    assert sorted(tiny.words()) == sorted(built.words())
    assert sorted(tiny.gaddag_strings()) == sorted(built.gaddag_strings())
    assert len(tiny) == len(letters) ** 2
    assert tiny.contains_tiles([1, 2]) and not tiny.contains_tiles([1, 2, 3])


def test_warm_up_plays_every_stage_and_says_each() -> None:
    said: list[str] = []
    warm.warm(find_edition("en"), said.append)
    assert said == list(warm.STAGES)
    # the simulation's compiled rollouts among them (what all_cached looks for)
    assert is_cached(sim_compiled, "play_out")
    said.clear()
    warm.warm(find_edition("en"), said.append, until="movegen")
    assert said == ["movegen"]


def child(code: str) -> warm.Warming:
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                               text=True)
    return warm.Warming(process)


def test_waiting_for_a_stage_returns_when_it_is_said_or_the_child_ends() -> None:
    running = child("print('movegen', flush=True); print('equity', flush=True)")
    assert running.wait("movegen") and running.wait("equity")
    assert not running.wait("endgame")  # the child ended without it
    assert running.process.returncode == 0
    failed = child("import sys; sys.exit(3)")
    assert not failed.wait("movegen") and failed.process.returncode == 3


def test_nothing_starts_when_every_kernel_is_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warm, "all_cached", lambda until: True)
    assert warm.start(find_edition("en")) is None


def test_letras_warm_0_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warm, "all_cached", lambda until: False)
    monkeypatch.setenv("LETRAS_WARM", "0")
    assert warm.start(find_edition("en")) is None


@pytest.mark.slow
def test_the_server_warm_up_builds_the_default_graph_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import letras.lexicon

    monkeypatch.setenv("LETRAS_CACHE", str(tmp_path))
    monkeypatch.setattr(letras.lexicon, "_loaded", {})  # as in a new process
    en = find_edition("en")
    assert not warm.graph_cached(en)
    assert warm.main(["en", "movegen", "graph"]) == 0
    assert capsys.readouterr().out.split() == ["graph", "movegen"]
    assert warm.graph_cached(en) and (tmp_path / "warm.lock").exists()
    monkeypatch.setattr(warm, "all_cached", lambda until: True)
    assert warm.start(en, graph=True) is None  # nothing left to do


def test_cached_code_is_looked_for_where_numba_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pickle
    from importlib.metadata import version

    from letras import _compiled
    from letras.movegen import _kernels

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not _compiled.is_cached(_kernels, "generate")
    (tmp_path / "movegen_0123").mkdir()
    index = tmp_path / "movegen_0123" / "_kernels.generate-393.py311.nbi"
    # an index starts with the version of the numba that wrote it (numba ignores another's)
    index.write_bytes(pickle.dumps("0.1.0") + b"the rest")
    assert not _compiled.is_cached(_kernels, "generate")
    index.write_bytes(b"")
    assert not _compiled.is_cached(_kernels, "generate")
    index.write_bytes(pickle.dumps(version("numba")) + b"the rest")
    assert _compiled.is_cached(_kernels, "generate")
    assert not _compiled.is_cached(_kernels, "cross_sets")


def test_with_the_move_generator_compiled_ahead_of_time_it_is_not_compiled_again(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    import letras.movegen
    from letras.movegen import prebuilt

    monkeypatch.setattr(prebuilt, "kernels", lambda: object())

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the move generator was run")

    for name in ("generate", "top_plays", "lane_state"):
        monkeypatch.setattr(letras.movegen, name, never)
    said: list[str] = []
    warm.warm(find_edition("en"), said.append, until="movegen")
    assert said == ["movegen"]
    assert warm.all_cached("movegen")
