"""Files that letras writes: checked before any work starts, then written whole or not at all.

:func:`check_output` says what is wrong with an output path (a directory, a folder that does not
exist, no permission) before hours of play or a long build; :func:`write_atomic` writes the
bytes to a new file beside the target and renames it over the target (``os.replace``), so a
reader sees the old file or the new one, never half of one. The new file gets the mode a plain
``open()`` would give it (``0o666`` less the umask), and no folder is ever created on the way.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = write_atomic(os.path.join(folder, "a.txt"), b"hello")
>>> path.read_bytes(), sorted(os.listdir(folder))
(b'hello', ['a.txt'])
>>> try:
...     check_output(folder, "word graph")
... except OutputError as e:
...     print(e.key, str(e).endswith("it is a directory"))
file.is_dir True
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from letras.errors import LetrasError


class OutputError(LetrasError):
    """An output file that cannot be written (keys ``file.*``: the path and why)."""


def check_output(path: str | os.PathLike[str], what: str = "file") -> Path:
    """The path, if a file can be written there (replacing one that is there); else
    :class:`OutputError` saying why: the path is a directory, its folder does not exist or is
    not a folder, or the folder or the file may not be written."""
    p = _named(path, what)
    shown = str(p)
    folder = p.parent
    if p.is_dir():
        raise OutputError(f"cannot write {what} {shown!r}: it is a directory",
                          key="file.is_dir", path=shown)
    if not folder.is_dir():
        raise OutputError(f"cannot write {what} {shown!r}: no folder {str(folder)!r}",
                          key="file.no_folder", path=shown, folder=str(folder))
    if not os.access(folder, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise OutputError(f"cannot write {what} {shown!r}: permission denied",
                          key="file.denied", path=shown)
    return p


def check_folder(path: str | os.PathLike[str], what: str = "files") -> Path:
    """The path, if it is a folder that files can be written in, or one that can be made
    (its parent is a folder that may be written); else :class:`OutputError`."""
    p = _named(path, what)
    shown = str(p)
    if p.exists() and not p.is_dir():
        raise OutputError(f"cannot write {what} in {shown!r}: it is not a folder",
                          key="file.not_folder", path=shown)
    folder = p if p.is_dir() else p.parent
    if not folder.is_dir():
        raise OutputError(f"cannot write {what} in {shown!r}: no folder {str(folder)!r}",
                          key="file.no_folder", path=shown, folder=str(folder))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {what} in {shown!r}: permission denied",
                          key="file.denied", path=shown)
    return p


def write_atomic(path: str | os.PathLike[str], data: bytes, what: str = "file") -> Path:
    """Write ``data`` to ``path`` at once (see the module docstring); the path written.
    :class:`OutputError` when it cannot be, and then nothing is left behind."""
    p = _named(path, what)
    tmp = p.with_name(f".{p.name}.{secrets.token_hex(4)}.tmp")
    try:
        # O_EXCL: a new file of our own; mode 0o666, which the kernel narrows by the umask
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as e:
        raise _failed(p, what, e) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if p.is_dir():
            raise IsADirectoryError(21, "Is a directory")
        os.replace(tmp, p)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise _failed(p, what, e) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return p


def _named(path: str | os.PathLike[str], what: str) -> Path:
    """The path, unless its name holds a NUL, which no file name can."""
    p = Path(path)
    if "\0" in str(p):
        raise OutputError(f"cannot write {what} {str(p)!r}: a file name has no NUL character",
                          key="file.write", path=str(p), reason="NUL")
    return p


def _failed(path: Path, what: str, error: OSError) -> OutputError:
    reason = error.strerror or str(error)
    return OutputError(f"cannot write {what} {str(path)!r}: {reason}", key="file.write",
                       path=str(path), reason=reason)
