"""Loading cached kernels without numba's target refresh (letras._compiled), and the way back
to numba's own path when that cannot be done. Each case runs in a fresh interpreter, as the
refresh happens once per process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from letras._compiled import load_cached_without_refresh

KERNEL = textwrap.dedent("""
    import numpy as np
    from numba import njit

    @njit(cache=True)
    def running_sums(values):
        out = np.empty_like(values)
        total = 0
        for i in range(len(values)):
            total += values[i]
            out[i] = total
        return out
    """)

REFRESH_ONLY = "numba.np.polynomial.polynomial_functions"
"""A module that only numba's target refresh imports (its lowering registries)."""

PROBE = textwrap.dedent(f"""
    import json, sys
    import numpy as np
    import kernel
    from letras._compiled import load_cached_without_refresh
    if sys.argv[1] == "broken":  # numba's internals not as expected: typeof fails on this path
        import numba.core.typing.typeof as t
        def broken(*args):
            raise AttributeError("not this numba")
        t.typeof = broken
    values = np.arange(1, 6, dtype=np.int64)
    loaded = load_cached_without_refresh(kernel.running_sums, (values,))
    sums = kernel.running_sums(values).tolist()
    refreshed = {REFRESH_ONLY!r} in sys.modules  # by the load or the call
    print(json.dumps({{"loaded": loaded, "refreshed": refreshed, "sums": sums,
                      "again": load_cached_without_refresh(kernel.running_sums, (values,))}}))
    """)


def probe(folder: Path, mode: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), *sys.path])}
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, str(folder / "probe.py"), mode], env=env,
                          capture_output=True, text=True, check=True, cwd=folder)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_a_cached_kernel_loads_without_the_refresh_and_anything_else_goes_numbas_way(
    tmp_path: Path,
) -> None:
    (tmp_path / "kernel.py").write_text(KERNEL)
    (tmp_path / "probe.py").write_text(PROBE)
    sums = [1, 3, 6, 10, 15]
    # nothing cached yet: not loaded, and the call compiles it (with the refresh) and caches it
    first = probe(tmp_path, "plain")
    assert first == {"loaded": False, "refreshed": True, "sums": sums, "again": False}
    assert list((tmp_path / "__pycache__").glob("kernel.running_sums-*.nbi"))
    # cached: loaded without the refresh, and the loaded code gives the same sums
    second = probe(tmp_path, "plain")
    assert second == {"loaded": True, "refreshed": False, "sums": sums, "again": False}
    # numba's internals not as expected: nothing loaded, numba's own path loads it, same sums
    broken = probe(tmp_path, "broken")
    assert broken == {"loaded": False, "refreshed": True, "sums": sums, "again": False}


def test_anything_but_a_numba_kernel_is_left_to_the_call() -> None:
    class NotAKernel:
        def __init__(self) -> None:
            self.overloads: dict[object, object] = {}

    assert load_cached_without_refresh(NotAKernel(), (1, 2)) is False
    assert load_cached_without_refresh(len, ([1],)) is False
