#!/usr/bin/env python3
"""Candidates for the reviewed degree lists (``degree/pt-BR.txt``, ``degree/it.txt``), by word
frequency.

The strict pt-BR list leaves out the diminutives and superlatives that VERO's rules make from
almost any noun or adjective. This script lists the common ones to bring back: every form that
only those rules make (in -inho, -inha, -zinho, -zinha, -íssimo, -íssima, with plurals), grouped
in families (the forms sharing the stem before the final -o/-a/-os/-as), kept when one form of
the family has a Zipf frequency of at least ``--zipf`` in the ``wordfreq`` package (Portuguese,
PyPI, MIT licence for the code, CC BY-SA 4.0 for the data). The output is reviewed by hand and
committed; the build never runs this script nor needs wordfreq.

With ``--list it``: the superlatives that it_IT's flags y and v make of every past participle
(PULITISSIMO, AFFOLLATISSIMA), which the it list leaves out (``IT_PARTICIPLE_SUPERLATIVE_FLAGS``
in build.py), grouped the same way (the forms sharing the stem before -o/-a/-i/-e).

    python3 -m venv /tmp/wf && /tmp/wf/bin/pip install wordfreq==3.1.1
    .venv/bin/python tools/lexicons/degree_candidates.py --wordfreq /tmp/wf > /tmp/cand.txt
    .venv/bin/python tools/lexicons/degree_candidates.py --wordfreq /tmp/wf --list it --zipf 2
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build
from build import LISTS, read_source

DEGREE = re.compile(r"(?:z?inh|[ií]ssim)(?:[oa]s?)$")
PARTICIPLE_SUPERLATIVE = re.compile(r"[ai]d[ií]ssim[oa]s?$")
IT_SUPERLATIVE = re.compile(r"issim[oaie]$")
IT_FAMILY = re.compile(r"[oaie]$")


def family_key(form: str) -> str:
    return re.sub(r"(?:os|as|o|a)$", "", form)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--wordfreq", type=Path, required=True, help="a venv with wordfreq")
    ap.add_argument("--zipf", type=float, default=2.5)
    ap.add_argument("--list", choices=("pt-BR", "it"), default="pt-BR")
    args = ap.parse_args()
    families: dict[str, set[str]] = defaultdict(set)
    lang = "pt" if args.list == "pt-BR" else "it"
    if args.list == "pt-BR":
        raw = read_source(LISTS["pt-BR"])
        for form, strict in raw.forms.items():
            if not strict and form.isalpha() and form.islower() and DEGREE.search(form):
                families[family_key(form)].add(form)
    else:
        shipped = read_source(LISTS["it"]).forms.keys()
        build._RAW_CACHE.clear()
        build.IT_PARTICIPLE_SUPERLATIVE_FLAGS = frozenset()  # make them, to list them
        for form in read_source(LISTS["it"]).forms.keys() - shipped:
            if form.isalpha() and form.islower() and IT_SUPERLATIVE.search(form):
                families[IT_FAMILY.sub("", form)].add(form)
    forms = sorted(f for fs in families.values() for f in fs)
    code = (
        "import sys\nfrom wordfreq import zipf_frequency as z\n"
        f"for w in sys.stdin.read().split():\n    print(w, z(w, {lang!r}))\n"
    )
    out = subprocess.run(
        [str(args.wordfreq / "bin" / "python"), "-c", code],
        input="\n".join(forms),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    zipf = {w: float(v) for w, v in (line.split() for line in out.splitlines())}
    for key in sorted(families):
        members = sorted(families[key])
        best = max(members, key=lambda w: (zipf.get(w, 0.0), w))
        if zipf.get(best, 0.0) < args.zipf:
            continue
        participle = lang == "pt" and PARTICIPLE_SUPERLATIVE.search(best)
        kind = "participle superlative" if participle else ""
        print(
            f"{' '.join(members)}  # wordfreq zipf {zipf[best]:.2f} ({best})"
            + (f"; {kind}" if kind else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
