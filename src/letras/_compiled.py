"""Telling the user when the compiled kernels are being compiled for the first time, and
loading them quickly when they are not (:func:`load_cached_without_refresh`).

numba keeps compiled code beside the module (``__pycache__/<module>.<function>-<line>...nbi``);
when none is there yet, the first call compiles, which takes a while: say so once. What is
compiled is named by a message key (``compile.movegen``, ``compile.word_graph``,
``compile.endgame``); a front end that speaks the player's language installs its own
announcer with :func:`set_announcer`, else one English line goes to stderr.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

_announced: set[str] = set()

ENGLISH = {
    "compile.movegen": "the move generator",
    "compile.word_graph": "the word graph builder",
    "compile.endgame": "the endgame search",
}
"""What each key names, for the default announcer."""

Announcer = Callable[[str], None]


def _to_stderr(key: str) -> None:
    print(f"letras: compiling {ENGLISH.get(key, key)} (first run only, this takes a minute)...",
          file=sys.stderr, flush=True)


_announcer: Announcer = _to_stderr


def set_announcer(announcer: Announcer | None) -> None:
    """Say first compiles with ``announcer(key)`` (None: the English line on stderr)."""
    global _announcer
    _announcer = announcer or _to_stderr


def announce_first_compile(module: ModuleType, function: str, key: str) -> None:
    """Announce ``key`` once if ``module.function`` has no compiled code cached yet."""
    if module.__name__ in _announced or module.__file__ is None:
        return
    _announced.add(module.__name__)
    if not is_cached(module, function):
        _announcer(key)


_tried: set[int] = set()


def load_cached_without_refresh(kernel: Any, args: Sequence[Any]) -> bool:
    """Load the compiled code of ``kernel`` (a numba ``@njit(cache=True)`` dispatcher) for
    the types of ``args`` from numba's cache, without numba's target refresh; True when the
    kernel has code for those types afterwards.

    Each first call of a kernel in a process loads its code from the cache after
    ``target_context.refresh()``, which imports and installs every lowering and typing
    registry numba has (0.1-0.2 s of a fresh ``letras moves``), though code already compiled
    needs none of them: only numba's runtime (NRT), whose functions it calls. This does what
    numba's ``Dispatcher.compile`` does for a cache hit, less the refresh. It leans on numba's
    internals (written for numba 0.68): anything unexpected (another numba, nothing cached,
    stale code, an error) returns False and changes nothing, and the call then goes numba's
    usual way (load with the refresh, or compile). Tried once per kernel and process (False
    the next times: the kernel's first arguments are the ones that count).
    """
    if id(kernel) in _tried:
        return False
    _tried.add(id(kernel))
    try:
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.runtime import nrt
        from numba.core.typing import typeof as typing

        typeof: Any = typing.typeof
        types = tuple(typeof(a, typing.Purpose.argument) for a in args)
        if types in kernel.overloads:
            return True
        with global_compiler_lock:  # as numba's own loads and compiles are
            context = kernel.targetctx
            nrt.rtsys.initialize(context)  # what the refresh does that loaded code needs
            result = kernel._cache._load_overload(types, context)
            if result is None or result.objectmode or tuple(result.signature.args) != types:
                return False
            context.insert_user_function(result.entry_point, result.fndesc, [result.library])
            kernel.add_overload(result)
            kernel._cache_hits[types] += 1
            return True
    except Exception:  # whatever numba's internals do: numba's own way then
        return False


def is_cached(module: ModuleType, function: str) -> bool:
    """Has this numba cached compiled code of ``module.function`` (an index file written by
    the numba installed), beside the module or under ``NUMBA_CACHE_DIR`` when that is set?
    (Code stale for other reasons counts: numba compiles it again without asking.)"""
    if module.__file__ is None:
        return False
    source = Path(module.__file__)
    pattern = f"{source.stem}.{function}-*.nbi"
    root = os.environ.get("NUMBA_CACHE_DIR")
    found = Path(root).rglob(pattern) if root else (source.parent / "__pycache__").glob(pattern)
    return any(_of_this_numba(index) for index in found)


def _of_this_numba(index: Path) -> bool:
    """Was numba's index file written by the numba installed? (Its first record is numba's
    version: another version's index is ignored by numba, as if absent. An install can
    leave one, compiled with its build environment's numba: ``letras.cli.prepare``.)"""
    import pickle
    from importlib.metadata import PackageNotFoundError, version

    try:
        with index.open("rb") as f:
            written = pickle.load(f)  # numba's own file, that numba unpickles whole
        return bool(written == version("numba"))
    except (OSError, pickle.UnpicklingError, EOFError, PackageNotFoundError, ValueError):
        return False



class _LazyModule(ModuleType):
    """A module whose code runs when one of its attributes is first asked for, once, whatever
    the threads: the standard library's ``importlib.util.LazyLoader`` lets a second thread see
    the module half made before Python 3.12. The thread that runs the module's code holds the
    module's lock; the others wait on it; then the module becomes a plain module."""

    def __getattribute__(self, attr: str) -> Any:
        name = object.__getattribute__(self, "__name__")
        lock = _LAZY_LOCKS[name]
        with lock:
            if type(self) is _LazyModule and name not in _LAZY_RUNNING:
                _LAZY_RUNNING.add(name)  # this thread's own asks while the code runs: as is
                try:
                    spec = object.__getattribute__(self, "__spec__")
                    spec.loader.exec_module(self)
                    object.__setattr__(self, "__class__", ModuleType)
                finally:
                    _LAZY_RUNNING.discard(name)
        return object.__getattribute__(self, attr)


_LAZY_LOCKS: dict[str, threading.RLock] = {}
_LAZY_RUNNING: set[str] = set()


def lazy_module(name: str) -> ModuleType:
    """The module ``name``, its code run when one of its attributes is first used: a module
    of compiled kernels, imported with numba only by a process that calls them (not by one
    that runs the move generator compiled ahead of time, :mod:`letras.movegen.prebuilt`)."""
    known = sys.modules.get(name)
    if known is not None:
        return known
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}", name=name)
    module = importlib.util.module_from_spec(spec)
    _LAZY_LOCKS[name] = threading.RLock()
    module.__class__ = _LazyModule
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    return module
