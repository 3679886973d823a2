"""The index and quarantine pages' data: what their reader hands over (``IndexData``), and the span of
the data observed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from dashboards.html import (
    PageData,
    as_frame,
    fmt_date,
    is_missing,
)


@dataclass
class PageCard:
    file: str
    title: str
    who: str
    what: str
    exists: bool = True
    numbers: list[tuple[str, str, str]] = field(default_factory=list)  # (value, label, tone)


@dataclass
class IndexData(PageData):
    """ingested: dataset, files, rows_read, rows_kept, rows_quarantined, rows_left_blank (rows of the
    to-record workbook saved back with nothing filled in), last_loaded
    ranges: dataset, what (the column), first, last, rows
    quarantine_counts: dataset, reason, rows
    quarantine: the quarantined rows shown (the first ``quarantine_per_reason`` of each dataset and reason,
    with ``reason_rows``: how many share the reason, and ``prefilled``: a row of a sheet Outfall prefilled,
    listed first); quarantine_total: all of them."""

    cards: list[PageCard] = field(default_factory=list)
    ingested: pd.DataFrame | None = None
    ranges: pd.DataFrame | None = None
    quarantine_counts: pd.DataFrame | None = None
    quarantine: pd.DataFrame | None = None
    quarantine_total: int = 0
    quarantine_per_reason: int = 50
    set_aside: pd.DataFrame | None = None  # rows kept but not judged by an asset (table set_aside)
    # what an asset could not judge for want of a rule in effect on its day (table not_judged): asset,
    # section, reason, items, first_day, last_day, examples (the first few things by name)
    not_judged: pd.DataFrame | None = None
    reports: list[tuple[str, str]] = field(
        default_factory=list
    )  # (file, label) of the annual reports written
    worklist: pd.DataFrame | None = None  # what each person must do next (table worklist)
    # the input rows the run did not judge, dated after its day (table held_back): dataset, rows_after,
    # later_facts_after
    held_back: pd.DataFrame | None = None
    # the steps of this run that failed, and why in plain words (step, why): none when the run finished
    failures: list[tuple[str, str]] = field(default_factory=list)


def _range_text(first: Any, last: Any) -> str:
    if is_missing(first) and is_missing(last):
        return ""
    return f"{fmt_date(first)} to {fmt_date(last)}"


def _observed(data: IndexData) -> pd.DataFrame:
    """The date ranges of the datasets observed (samples, readings, rain, inspections, tests)."""
    ranges = as_frame(data.ranges)
    return ranges[ranges["observed"].fillna(True).astype(bool)] if "observed" in ranges else ranges


def _span(data: IndexData) -> tuple[Any, Any]:
    observed = _observed(data)
    if observed.empty:
        return None, None
    first, last = pd.to_datetime(observed["first"]).min(), pd.to_datetime(observed["last"]).max()
    return (None if pd.isna(first) else first), (None if pd.isna(last) else last)
