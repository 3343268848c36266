"""The move generator's kernels compiled ahead of time, when they are built for the sources
installed: an opt-in extension module that needs numpy but not numba at run time.

``python -m letras.movegen.aot build`` (:mod:`letras.movegen.aot`) compiles the entry kernels
of :mod:`letras.movegen` (:data:`EXPORTS`: those ``letras moves`` calls, with the argument
types the JIT kernels see) with ``numba.pycc`` into a CPython extension in the cache of
letras (``~/.cache/letras/aot``, or ``$LETRAS_AOT`` when that names a directory), outside the
sources. Its name carries a stamp (:func:`stamp`): a hash of the sources of
:mod:`letras.movegen` (every ``.py`` of the package) and of Python's version, and numpy's
major version (its binary interface). :func:`kernels` gives the
extension only when one with the stamp of the sources now installed is there; else (none
built, sources changed since, ``LETRAS_AOT=0``) None, and the move generator goes the JIT
way as before. A process on the compiled path imports neither numba nor llvmlite (the
modules of numba kernels are imported lazily: :func:`letras._compiled.lazy_module`), unless
it asks for what is not compiled in (leave values, the word map, other kernels).

The extension's functions do no checking of their arguments' types (a wrong dtype is a
crash, not an error): :class:`Kernel` checks each call's arrays against :data:`EXPORTS` and
hands a call that does not match to the JIT kernel.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import sys
import sysconfig
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

Signature = tuple[str, tuple[str, ...]]
"""A kernel's return type and argument types, in numba's notation (``uint64[:, ::1]`` a
C-ordered 2-d array)."""

_PLAYS = "Tuple((int32[:, ::1], uint8[:, ::1], float64[::1], int64))"
_GENERATE = (
    "uint64[:, ::1]", "uint8[::1]", "int64", "int64[::1]", "int64[::1]", "int64[::1]",
    "int64[::1]", "int64", "int64", "int64", "boolean", "boolean", "boolean[:, ::1]", "int64",
    "boolean", "float64[::1]", "int64[::1]",
)
EXPORTS: dict[str, Signature] = {
    "generate": (_PLAYS, _GENERATE),
    "generate_mapped": (_PLAYS, (*_GENERATE, "uint64[::1]", "uint64[::1]", "uint8[:, ::1]",
                                 "uint64[::1]", "uint64[::1]")),
    "cross_sets": ("Tuple((uint64[::1], int32[::1], boolean[::1]))",
                   ("uint64[:, ::1]", "uint8[::1]", "int64", "int64[::1]", "int64")),
    "packed_graph": ("uint64[:, ::1]", ("uint32[::1]", "boolean")),
}
"""The kernels of :mod:`letras.movegen._kernels` compiled in, by name, with their types."""

PREFIX = "letras_movegen_"


def stamp() -> str:
    """What the compiled code depends on: a hash of the sources of :mod:`letras.movegen`, of
    Python's version, of the platform and of the processor (:func:`_processor`), then
    numpy's major version (``_np2``).

    numpy's major version, not its full version: the extension is built by ``pip install``
    in an isolated environment whose numpy may be another release than the one installed
    beside letras (hatch_build.py). numpy keeps its binary interface (the array object's
    layout, the C API's table) within a major version, and the extension's import checks the
    rest: loaded into a numpy older than the one it was built with, its ``import_array``
    raises ImportError (:func:`load` then gives None: the JIT way). The compiled code reaches
    numpy only through that C API (to make the arrays it returns): numba compiles its own
    versions of the numpy functions the kernels use."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(f"{sys.version}\0{sysconfig.get_platform()}\0{_processor()}".encode())
    return f"{digest.hexdigest()[:20]}_np{np.__version__.split('.')[0]}"


def _processor() -> str:
    """The processor, as far as the code built for it depends on it (an extension built for
    the host, :func:`letras.movegen.aot.build`, may use instructions another lacks): its model
    and feature flags from ``/proc/cpuinfo`` on Linux, else what :mod:`platform` says."""
    try:
        lines = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    found: dict[str, str] = {}
    for line in lines:
        key, _, value = line.partition(":")
        key = key.strip()
        if key in ("model name", "flags", "Features", "CPU part") and key not in found:
            found[key] = value.strip()
    if found:
        return repr(sorted(found.items()))
    return f"{platform.machine()} {platform.processor()}"


def module_name(source_stamp: str) -> str:
    return PREFIX + source_stamp


def directory() -> Path | None:
    """Where the extension is kept: ``$LETRAS_AOT`` (None when it is ``0``), else ``aot``
    in the cache of letras (:func:`letras.lexicon.kwg.cache_dir`)."""
    env = os.environ.get("LETRAS_AOT", "")
    if env == "0":
        return None
    if env:
        return Path(env)
    from letras.lexicon.kwg import cache_dir

    return cache_dir() / "aot"


def suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def module_path(where: Path, source_stamp: str) -> Path:
    return where / (module_name(source_stamp) + suffix())


def _parse(text: str) -> tuple[np.dtype[Any], int] | None:
    """The dtype and number of dimensions of an array type (``uint8[:, ::1]``); None for a
    scalar."""
    if "[" not in text:
        return None
    name, dims = text.split("[", 1)
    return np.dtype("bool" if name == "boolean" else name), dims.count(",") + 1


class Kernel:
    """An exported function of the extension, called as the JIT kernel ``name`` is: its
    arrays are checked against :data:`EXPORTS` (dtype, dimensions, C order) and a call they
    do not match goes to the JIT kernel."""

    def __init__(self, name: str, compiled: Any) -> None:
        self.name = name
        self.compiled = compiled
        self.arrays = tuple((i, *kind) for i, text in enumerate(EXPORTS[name][1])
                            if (kind := _parse(text)) is not None)
        self.count = len(EXPORTS[name][1])

    def __call__(self, *args: Any) -> Any:
        if len(args) == self.count:
            for i, dtype, ndim in self.arrays:
                a = args[i]
                if (type(a) is not np.ndarray or a.dtype != dtype or a.ndim != ndim
                        or not a.flags.c_contiguous):
                    break
            else:
                return self.compiled(*args)
        from letras.movegen import _kernels  # the call's types are not the compiled ones

        return getattr(_kernels, self.name)(*args)


class Compiled:
    """The extension's kernels, each a :class:`Kernel`."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.generate = Kernel("generate", module.generate)
        self.generate_mapped = Kernel("generate_mapped", module.generate_mapped)
        self.cross_sets = Kernel("cross_sets", module.cross_sets)
        self.packed_graph = Kernel("packed_graph", module.packed_graph)


_LOADED: list[Compiled | None] = []


def kernels() -> Compiled | None:
    """The compiled kernels for the sources installed, loaded once a process; None when
    there are none (see the module docstring)."""
    if not _LOADED:
        where = directory()
        _LOADED.append(load(where) if where is not None else None)
    return _LOADED[0]


def load(where: Path) -> Compiled | None:
    """The extension of the current sources' stamp in ``where``, if it is there and loads."""
    source_stamp = stamp()
    name = module_name(source_stamp)
    path = module_path(where, source_stamp)
    if not path.is_file():
        return None
    try:
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        if spec is None:
            return None
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        return Compiled(module)
    except (ImportError, OSError, AttributeError):  # a broken file: the JIT way
        return None


