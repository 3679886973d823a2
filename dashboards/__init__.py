"""Dashboard pages of Outfall: static HTML, one page per user of the data.

Page builders are pure (frames in, HTML out): ``sewer.build_sewer_page``,
``stormwater.build_stormwater_page``, ``billing.build_billing_page``,
``index.build_index_page`` and ``index.build_quarantine_page``. The Dagster
assets in ``assets/dashboards.py`` read the warehouse, call them and write the
pages (``output.write_atomic``) with plotly.min.js once beside them.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

SQL_DIR = Path(__file__).resolve().parent / "sql"


@lru_cache(maxsize=None)
def query(name: str) -> str:
    """Text of ``dashboards/sql/<name>.sql`` (the dashboards' read-only queries)."""
    return (SQL_DIR / f"{name}.sql").read_text(encoding="utf-8")
