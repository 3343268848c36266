"""Sealed cache files (letras.lexicon.sealed): mapped unread while unchanged, hashed when their
identity changed, refused when their bytes do not match; the move generator's packed graph
kept beside a cached word graph (letras.movegen.graph)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import pytest

from letras.editions import find_edition
from letras.lexicon.kwg import graph_for_words
from letras.lexicon.sealed import identity_path, open_sealed, seal, seal_path
from letras.movegen import _kernels as k
from letras.movegen.graph import packed, packed_path


def write(path: Path, values: list[int]) -> np.ndarray:
    array = np.array(values, "<u4")
    path.write_bytes(array.tobytes())
    age(path)
    return array


def age(path: Path, seconds: int = 60) -> None:
    """Set the file's time back, as it is for a cache entry written in an earlier process."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - seconds * 1_000_000_000))


def test_a_file_just_written_is_hashed_until_its_time_is_a_few_seconds_old(
    tmp_path: Path,
) -> None:
    path = tmp_path / "entry"
    array = np.array([1, 2, 3], "<u4")
    path.write_bytes(array.tobytes())
    seal(path, ["3"])
    for _ in range(2):  # changed in place within its time's tick, it would keep its identity
        opened = open_sealed(path, "<u4")
        assert opened is not None and opened.array.flags.owndata
        assert np.array_equal(opened.array, array) and not identity_path(path).exists()
    age(path)
    assert open_sealed(path, "<u4") is not None and identity_path(path).exists()
    opened = open_sealed(path, "<u4")
    assert opened is not None and not opened.array.flags.owndata


def test_an_unchanged_file_is_mapped_and_a_touched_one_is_hashed_then_mapped(
    tmp_path: Path,
) -> None:
    path = tmp_path / "entry"
    array = write(path, [1, 2, 3, 70000])
    digest = seal(path, ["4", "words"])
    assert digest == hashlib.sha256(path.read_bytes()).hexdigest()
    assert seal_path(path).read_text() == f"{digest} 4 words\n"  # the format older letras reads
    opened = open_sealed(path, "<u4")
    assert opened is not None and opened.facts == ("4", "words") and opened.digest == digest
    assert np.array_equal(opened.array, array)
    assert not opened.array.flags.owndata  # mapped, not read
    assert opened.array.flags.writeable and opened.array.flags.c_contiguous
    opened.array[0] = 9  # copy on write: the file keeps its bytes
    assert np.array_equal(np.frombuffer(path.read_bytes(), "<u4"), array)
    age(path, 30)  # the same bytes, touched
    again = open_sealed(path, "<u4")
    assert again is not None and again.array.flags.owndata  # read and hashed
    assert np.array_equal(again.array, array)
    third = open_sealed(path, "<u4")  # the new identity was noted
    assert third is not None and not third.array.flags.owndata


def test_changed_bytes_missing_seals_and_old_seals(tmp_path: Path) -> None:
    path = tmp_path / "entry"
    array = write(path, [5, 6, 7])
    seal(path, ["3"])
    path.write_bytes(np.array([5, 6, 8], "<u4").tobytes())  # rewritten in place
    age(path, 60)  # an old time again, but not the one noted: hashed
    assert open_sealed(path, "<u4") is None
    write(path, [5, 6, 7])
    identity_path(path).unlink()  # sealed by an older letras: no identity noted
    opened = open_sealed(path, "<u4")
    assert opened is not None and np.array_equal(opened.array, array)
    assert identity_path(path).exists()
    seal_path(path).unlink()
    assert open_sealed(path, "<u4") is None
    seal(path, ["3"])
    path.write_bytes(b"\x01\x02\x03")  # not whole numbers of the type
    assert open_sealed(path, "<u4") is None


def test_the_packed_graph_is_kept_beside_the_cache_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LETRAS_CACHE", str(tmp_path / "cache"))
    words = tmp_path / "words.txt"
    words.write_text("CASA\nCASAS\nASA\nSACA\n", encoding="utf-8")
    pt = find_edition("pt-BR")
    built = graph_for_words(pt, words)
    assert built.cache_entry is not None
    entry = built.cache_entry[0]
    expected = k.packed_graph(built.nodes, False)
    assert np.array_equal(packed(built), expected)
    assert packed_path(entry).exists()
    age(entry)
    age(packed_path(entry))
    for path in (entry, packed_path(entry)):  # the first loads hash them, the next ones map
        assert open_sealed(path, "<u1") is not None
    loaded = graph_for_words(pt, words)  # another graph object, as in a new process
    assert loaded is not built and not loaded.nodes.flags.owndata  # mapped
    kept = packed(loaded)
    assert np.array_equal(kept, expected) and kept.shape == expected.shape
    assert not kept.flags.owndata and kept.dtype == expected.dtype
    packed_path(entry).write_bytes(b"\x00" * expected.nbytes)  # damaged: made again
    age(packed_path(entry))
    fresh = graph_for_words(pt, words)
    assert np.array_equal(packed(fresh), expected)
    entry.write_bytes(entry.read_bytes())  # the entry rewritten: hashed, still its digest
    assert np.array_equal(packed(graph_for_words(pt, words)), expected)
