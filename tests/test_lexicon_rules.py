"""The reviewed rules of the word-list build (tools/lexicons, issue 15) on their own: the Italian
strong pasts, the English additions. The build itself needs Debian's dictionaries; these tests
only read the reviewed data files and the pure functions beside them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOLS = Path(__file__).resolve().parents[1] / "tools" / "lexicons"


def load(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def reviewed() -> ModuleType:
    return load("reviewed")


@pytest.mark.parametrize(
    "verb",
    # mettere misi, ridere risi, conoscere conobbi, prendere presi, scrivere scrissi, vincere
    # vinsi, essere fui, bere bevvi, chiudere chiusi, giungere giunsi, cogliere colsi
    [
        "permettere",
        "sorridere",
        "conoscere",
        "prendere",
        "sottoscrivere",
        "convincere",
        "essere",
        "bere",
        "racchiudere",
        "raggiungere",
        "accogliere",
    ],
)
def test_strong_verbs_are_caught(reviewed: ModuleType, verb: str) -> None:
    assert reviewed.read_strong("it").catches(verb)


@pytest.mark.parametrize(
    "verb",
    # regular (credetti, battei, temetti), doublets left alone (perdetti/persi,
    # concedetti/concessi), and the verbs an ending would catch by mistake
    [
        "credere",
        "battere",
        "temere",
        "vendere",
        "perdere",
        "concedere",
        "stridere",
        "prescindere",
        "soccombere",
        "divergere",
        "tessere",
    ],
)
def test_regular_verbs_are_not_caught(reviewed: ModuleType, verb: str) -> None:
    assert not reviewed.read_strong("it").catches(verb)


def test_the_regular_past_of_a_strong_verb() -> None:
    build = load("build")
    assert build.it_regular_past("permettere") == {
        "permettei",
        "permettetti",
        "permetté",
        "permettette",
        "permettettero",
        "permetterono",
    }


def test_every_reviewed_line_has_a_reason(reviewed: ModuleType) -> None:
    strong = reviewed.read_strong("it")
    assert len(strong.endings) > 50
    assert all(strong.endings.values()) and all(strong.kept.values())
    for family in (*reviewed.read_added("en"), *reviewed.read_degree("it")):
        assert family.reason


def test_the_english_additions_are_plurals_of_two_letter_words(reviewed: ModuleType) -> None:
    two = {
        line.partition("#")[0].strip().lower()
        for line in (TOOLS / "two-letter" / "en.txt").read_text(encoding="utf-8").splitlines()
    }
    added = [form for family in reviewed.read_added("en") for form in family.forms]
    assert {"qis", "zas", "kis"} <= set(added)
    assert all(form.endswith("s") and form[:-1] in two for form in added)
