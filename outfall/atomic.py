"""Files written whole or not at all: to a temporary name beside them, then renamed into place.

A reader sees the old file or the new one, never half. A run killed in the middle of a write (kill
-9: nothing can clean up) leaves its temporary file behind; the next write of the same file removes
it, so a killed run and the run after it leave the folder as an uninterrupted run does. Finding those
files lists the folder; code that writes many files into one folder in turn (a month's letters) does
it inside ``each_folder_swept_once()``, where a folder is listed once for all of them.
"""

from __future__ import annotations

import contextlib
import glob
import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

_block = threading.local()  # inside each_folder_swept_once(): .folders, those swept in the block


def _temporary_prefix(path: Path) -> str:
    return f".{path.name}."


def sweep_stale(path: Path) -> int:
    """Remove what killed writes of ``path`` left beside it (``.<name>.<random>.tmp``); how many. Inside
    ``each_folder_swept_once()``, the first call for a folder removes what killed writes of any of its
    files left, and later calls for that folder find nothing more to do."""
    folders = getattr(_block, "folders", None)
    if folders is None:
        return _remove(path.parent.glob(glob.escape(_temporary_prefix(path)) + "*.tmp"))
    folder = Path(path).parent
    if folder in folders:
        return 0
    folders.add(folder)
    return _remove(folder.glob(".*.tmp"))


def _remove(paths: Iterator[Path]) -> int:
    removed = 0
    for stale in list(paths):
        try:
            stale.unlink()
            removed += 1
        except FileNotFoundError:
            pass
    return removed


@contextlib.contextmanager
def each_folder_swept_once() -> Iterator[None]:
    """Writes of this thread within the block list each folder once: its first write removes every
    temporary file killed writes left in it, and the next writes into it do not look again (1,355
    letters written into one folder listed it 1,355 times: 1.65 s, growing with the square of the
    letters). Meant for a step that writes its own folder's files one after another while no one else
    writes there (a run holds its warehouse's lock, and its pages' folder is its own): the first sweep
    removes every temporary file in the folder, whoever's."""
    outer = getattr(_block, "folders", None)
    _block.folders = set() if outer is None else outer
    try:
        yield
    finally:
        _block.folders = outer


def write_atomic(path: Path, data: str | bytes, *, durable: bool = True) -> Path:
    """Write ``data`` to ``path`` whole or not at all; ``durable``: on disk (fsync) before the rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    sweep_stale(path)
    fd, tmp = tempfile.mkstemp(prefix=_temporary_prefix(path), suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


__all__ = ["each_folder_swept_once", "sweep_stale", "write_atomic"]
