"""Writing pages: atomically (temp name, then os.replace), with plotly.js once beside them."""

from __future__ import annotations

import functools
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


@functools.lru_cache(maxsize=1)
def _plotly_js_bytes() -> bytes:
    """plotly.js as written beside the pages, read once per process (4.6 MB; three pages a run)."""
    return plotly_js_text().encode("utf-8")


def ensure_plotly_js(folder: Path) -> Path:
    """plotly.min.js beside the pages, written once (rewritten only when plotly's differs):
    the layout of Plotly's include_plotlyjs="directory", shared by every page."""
    target = Path(folder) / PLOTLY_JS
    text = _plotly_js_bytes()
    try:
        if target.stat().st_size == len(text) and target.read_bytes() == text:
            return target
    except FileNotFoundError:
        pass
    return write_atomic(target, text)
