"""Dashboard pages of Outfall: static HTML, one page per user of the data.

Page builders are pure (frames in, HTML out): ``sewer.build_sewer_page``,
``stormwater.build_stormwater_page``, ``billing.build_billing_page``,
``index.build_index_page`` and ``index.build_quarantine_page``. The Dagster
assets in ``assets/pages.py`` read the warehouse, call them and write the
pages (``output.write_atomic``) with plotly.min.js once beside them.
"""

from __future__ import annotations

from outfall.warehouse import sql as query  # the pages' read-only queries live in sql/<area>/ too

__all__ = ["query"]
