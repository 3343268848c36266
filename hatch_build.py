"""A hatchling build hook: the install does the slow one-time work of a first run.

``pip install`` (``-e`` too) builds a wheel, and hatchling runs :class:`PrepareHook` first: it
runs ``python -m letras.cli.prepare`` from these sources, which compiles the move generator
ahead of time and builds the default edition's word graph into the user's cache, where the
programs look for them, and for an editable install compiles the other kernels of a game into
numba's cache beside the sources (see that module). Quick when all are there and current;
never fails the build (a failure is a warning, and the programs do that work at first use, as
without it). ``LETRAS_PREPARE=0`` turns it off. The build environment has numba, numpy and
setuptools for it (``[build-system] requires`` in pyproject.toml).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

TIMEOUT = 1800
"""Seconds the preparation may take (a cold compile on a busy machine takes a few minutes)."""


class PrepareHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if os.environ.get("LETRAS_PREPARE") == "0":
            return
        # The sources go first on the path from within: pip's build environment drops from
        # sys.path whatever the target environment's .pth files add (a former editable
        # install's adds these very sources), PYTHONPATH included.
        src = str(Path(self.root) / "src")
        # the JIT kernels' cache lies beside the sources: of use when they stay there
        jit = ["--jit"] if version == "editable" else []
        code = (f"import sys; sys.path.insert(0, {src!r}); "
                f"from letras.cli.prepare import main; sys.exit(main({jit!r}))")
        try:
            done = subprocess.run([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                                  timeout=TIMEOUT, check=False)
            failed = f"exit status {done.returncode}" if done.returncode else ""
        except Exception as e:  # never fail the install
            failed = repr(e)
        if failed:
            print(f"letras: warning: preparing the first run failed ({failed}); the move "
                  "generator and the word graph are made at first use instead",
                  file=sys.stderr, flush=True)
