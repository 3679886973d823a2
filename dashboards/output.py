"""Writing pages: atomically (temp name, then os.replace), with plotly.js once beside them."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from dashboards.html import PLOTLY_JS


def write_atomic(path: Path, data: str | bytes) -> Path:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one, never half."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
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


def plotly_js_text() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


def ensure_plotly_js(folder: Path) -> Path:
    """plotly.min.js beside the pages, written once (rewritten only when plotly's differs):
    the layout of Plotly's include_plotlyjs="directory", shared by every page."""
    target = Path(folder) / PLOTLY_JS
    text = plotly_js_text().encode("utf-8")
    if target.exists() and target.stat().st_size == len(text):
        if hashlib.sha256(target.read_bytes()).digest() == hashlib.sha256(text).digest():
            return target
    return write_atomic(target, text)
