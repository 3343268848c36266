"""Self-play and leave training on Ray give exactly what the local process pool gives.

One local Ray instance (2 CPUs, no dashboard, asked for loopback) serves the whole module and
is shut down at the end; Ray takes some 20 s to start, so these tests are few and slow.
Without Ray they skip, except under ``CI=true``, where they fail. The refusal without Ray
runs always (Ray hidden from the import system).
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from letras.ai.leaves.klv import klv_bytes
from letras.ai.leaves.training import train
from letras.ai.selfplay import play_match
from letras.ai.workers import RayError
from letras.cli import main
from letras.editions import find_edition
from letras.i18n import catalog, fields, languages
from letras.lexicon import load_lexicon
from letras.lexicon.kwg import WordGraph

WORDS = str(Path(__file__).parent / "data" / "en-words.txt.xz")
EN = find_edition("en")
ON_CI = os.environ.get("CI") == "true"


def missing(reason: str) -> NoReturn:
    """Skip for want of Ray, but fail under CI=true."""
    if ON_CI:
        pytest.fail(f"{reason} (CI=true: the Ray tests must run)")
    pytest.skip(reason)


def words() -> WordGraph:
    graph = load_lexicon(EN, WORDS)
    assert isinstance(graph, WordGraph)
    return graph


@pytest.fixture(scope="module")
def ray_local() -> Iterator[Any]:
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        missing("Ray is not installed (pip install 'letras[ray]')")
    if ray.is_initialized():
        ray.shutdown()
    # A new local instance, never a cluster that happens to run here; Ray registers the
    # machine's interface address even when asked for loopback, and keeps its own token
    # authentication.
    ray.init(address="local", num_cpus=2, include_dashboard=False,
             _node_ip_address="127.0.0.1", logging_level=logging.WARNING)
    try:
        yield ray
    finally:
        ray.shutdown()


# ----- without Ray ---------------------------------------------------------------------------


def test_without_ray_both_commands_say_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    out = tmp_path / "trained.klv"
    for argv in (["selfplay", "--players", "greedy,random", "--games", "1"],
                 ["train-leaves", "--games", "1", "-o", str(out)]):
        code = main([*argv, "--edition", "en", "--lexicon", WORDS, "--ray", "auto"])
        _, err = capsys.readouterr()
        assert code == 1 and "install letras[ray]" in err and err.count("\n") == 1, argv
    assert not out.exists()
    with pytest.raises(RayError, match=r"install letras\[ray\]") as refused:
        play_match(["greedy", "random"], 1, edition=EN, lexicon=words(), ray="auto")
    assert refused.value.key == "ray.missing"


def test_the_ray_messages_are_in_every_catalog() -> None:
    en = catalog("en")
    for key in ("ray.missing", "ray.connect", "ray.failed"):
        for language in languages():
            text = catalog(language)[key]
            assert fields(text) == fields(en[key]) and (language == "en" or text != en[key])
    assert fields(en["ray.connect"]) == {"address", "reason"}


# ----- on a local Ray instance ---------------------------------------------------------------


@pytest.mark.slow
def test_a_match_on_ray_is_the_match_of_the_local_pool(ray_local: Any) -> None:
    graph = words()
    pool = play_match(["equity", "greedy"], 4, edition=EN, lexicon=graph, seed=11, workers=2,
                      gcg=True)
    seen: list[tuple[int, int]] = []
    on_ray = play_match(["equity", "greedy"], 4, edition=EN, lexicon=graph, seed=11,
                        gcg=True, ray="auto", progress=lambda done, n: seen.append((done, n)))
    assert on_ray.games == pool.games and on_ray.workers == 2  # one per CPU of the instance
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    other = play_match(["equity", "greedy"], 4, edition=EN, lexicon=graph, seed=12, ray="auto",
                       workers=1)
    assert other.workers == 1 and [g.scores for g in other.games] != [g.scores for g in pool.games]
    assert ray_local.is_initialized()  # a batch leaves alone the instance it did not start


@pytest.mark.slow
def test_training_on_ray_is_the_training_of_the_local_pool(
    ray_local: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pool = train(EN, 3, generations=2, seed=5, lexicon=WORDS, workers=2)
    out = tmp_path / "ray.klv"
    code = main(["train-leaves", "--edition", "en", "--lexicon", WORDS, "--games", "3",
                 "--generations", "2", "--seed", "5", "--ray", "auto", "-o", str(out)])
    stdout, stderr = capsys.readouterr()
    assert code == 0 and "2 workers" in stdout
    assert "3/3 games" in stderr and "generation 2/2" in stderr  # the progress bar ran
    assert out.read_bytes() == klv_bytes(pool.table)
