"""Writing pages: atomically (temp name, then os.replace), with plotly.js once beside them."""

from __future__ import annotations

import functools
from pathlib import Path

from dashboards.html import PLOTLY_JS
from outfall.atomic import sweep_stale, write_atomic  # write_atomic: the pages' writer too


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
            sweep_stale(target)  # what a run killed while writing it left beside it
            return target
    except FileNotFoundError:
        pass
    return write_atomic(target, text)
