"""Files written whole or not at all: to a temporary name beside them, then renamed into place.

A reader sees the old file or the new one, never half. A run killed in the middle of a write (kill
-9: nothing can clean up) leaves its temporary file behind; the next write of the same file removes
it, so a killed run and the run after it leave the folder as an uninterrupted run does.
"""

from __future__ import annotations

import glob
import os
import tempfile
from pathlib import Path


def _temporary_prefix(path: Path) -> str:
    return f".{path.name}."


def sweep_stale(path: Path) -> int:
    """Remove what killed writes of ``path`` left beside it (``.<name>.<random>.tmp``); how many."""
    removed = 0
    for stale in path.parent.glob(glob.escape(_temporary_prefix(path)) + "*.tmp"):
        try:
            stale.unlink()
            removed += 1
        except FileNotFoundError:
            pass
    return removed


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


__all__ = ["sweep_stale", "write_atomic"]
