"""Cache files sealed by what made them, and mapped into memory unread while they stay the same.

A cache entry that letras wrote (a word graph it built, the move generator's packed form of
it) gets a seal beside it, ``<file>.sha256``: one line with the sha256 of the file's bytes
and facts about it (its word count, its shape). Beside the seal, ``<file>.identity`` holds
the file's identity when its bytes were last found to match the seal (its size, modification
time in nanoseconds and inode) and that digest. Opening it:

- while the file's identity is the one noted for the seal's digest, it is the same file,
  bytes unchanged: it is mapped into memory (copy on write) and nothing is read until used,
  in microseconds whatever its size (hashing 30 MB would cost 50 ms of a 0.5 s command);
- else (copied, touched, rewritten, just written, or sealed by an older letras, whose seals
  had no identity) its bytes are read and hashed, and if they match the seal, the identity is
  noted (once the file's time is a few seconds old: :data:`QUIET_NS`);
- without a seal, or when the bytes do not match it, it is not opened (None): the caller
  checks the file as any file of that kind, or makes it again.

The seal keeps the format older versions read and write, so that they share a cache folder.
Someone able to write the cache folder can set a file's time back after changing it in place,
as they can change numba's cache of compiled code beside the sources: the seal guards against
accidents (a file cut short, rewritten, copied from elsewhere), not against its owner. A mapped
file cut short while mapped would fault when the missing part is read: letras only replaces
cache files whole (:func:`letras.files.write_atomic`), which leaves the mapped one intact.
"""

from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

from letras.files import OutputError, write_atomic


@dataclass(frozen=True)
class Sealed:
    """A sealed file's content as an array, the sha256 of its bytes, and the facts sealed."""

    array: npt.NDArray[np.generic]
    digest: str
    facts: tuple[str, ...]


def seal_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def identity_path(path: Path) -> Path:
    return path.with_name(path.name + ".identity")


def seal(path: Path, facts: Sequence[str], digest: str | None = None) -> str:
    """Seal ``path`` with ``facts`` (words without spaces) and return the sha256 of its bytes
    (hashed unless given: a caller that just wrote them may know it). Raises ``OSError`` or
    :class:`~letras.files.OutputError` when the seal cannot be written."""
    st = os.stat(path)
    if digest is None:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    line = " ".join((digest, *facts))
    write_atomic(seal_path(path), f"{line}\n".encode("ascii"), "cache seal")
    _note_identity(path, st, digest)
    return digest


def _identity(st: os.stat_result, digest: str) -> str:
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino} {digest}"


QUIET_NS = 2_000_000_000
"""A file's identity is noted only once its modification time is this far behind the clock
(2 s): a file's time is coarse (a few milliseconds on most file systems, 2 s on FAT), and a
file changed in place, to the same size, within the tick of its last change would keep its
time (git's "racily clean" entries): hashed until then."""


def _note_identity(path: Path, st: os.stat_result, digest: str) -> None:
    if time.time_ns() - st.st_mtime_ns < QUIET_NS:
        return
    with contextlib.suppress(OSError, OutputError):  # a read-only cache: hashed each time
        write_atomic(identity_path(path), f"{_identity(st, digest)}\n".encode("ascii"),
                     "cache seal")


def open_sealed(path: Path, dtype: str) -> Sealed | None:
    """The sealed file ``path`` as an array of ``dtype`` (a little-endian numpy type such as
    ``"<u4"``), mapped while its identity is the one noted, else read and checked against
    its seal (see the module docstring); None without a seal that its bytes match."""
    try:
        fields = seal_path(path).read_text(encoding="ascii").split()
    except (OSError, UnicodeDecodeError):
        return None
    if len(fields) < 2 or len(fields[0]) != 64:
        return None
    digest, facts = fields[0], tuple(fields[1:])
    try:
        noted = identity_path(path).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        noted = None
    try:
        with path.open("rb") as f:
            st = os.fstat(f.fileno())
            if st.st_size % np.dtype(dtype).itemsize or st.st_size == 0:
                return None
            if noted == _identity(st, digest):
                return Sealed(_mapped(f, dtype), digest, facts)
            data = f.read()
    except (OSError, ValueError):
        return None
    if hashlib.sha256(data).hexdigest() != digest:
        return None
    _note_identity(path, st, digest)
    return Sealed(_native(np.frombuffer(data, dtype).copy()), digest, facts)


def _mapped(f: BinaryIO, dtype: str) -> npt.NDArray[np.generic]:
    """The whole open file mapped copy-on-write (a writable array, as numba's kernels are
    compiled for, whose writes would stay in this process)."""
    return _native(np.frombuffer(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY), dtype))


def _native(array: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
    """The array in the machine's byte order (a copy on a big-endian machine)."""
    return array if array.dtype.isnative else array.astype(array.dtype.newbyteorder("="))
