"""The readings beside each slug event, kept with the events for the sewer page.

The page draws every reading from SLUG_CONTEXT_HOURS before each slug to as long after it. Read
from flow on every run, they would cost a join of a year's readings on every run. They are kept
instead in ``_slug_event_readings``, one row per slug and reading, and only a slug's own are
read: when it is first found, and when the slug detection judged its stretch again.

``refresh_slug_context`` is called by the slug detection after it wrote slug_events (``stale_from``:
the readings of slugs ending on or after it may have changed; ``everything``: all judged again),
and by the page before it reads them (nothing stale: the slugs it has no readings of are read,
as when slug_events was written by a test or an older Outfall). Call inside a transaction.
"""

from __future__ import annotations

import datetime as dt

import duckdb

from outfall.warehouse import sql

SLUG_CONTEXT_HOURS = 1  # every reading from an hour before each slug to an hour after it


def refresh_slug_context(
    con: duckdb.DuckDBPyConnection,
    stale_from: dt.datetime | None = None,
    everything: bool = False,
    pad_hours: int = SLUG_CONTEXT_HOURS,
) -> int:
    """Forget the readings of slugs no longer found, of slugs ending on or after ``stale_from`` (all
    when ``everything``) and of another padding than ``pad_hours``; read those of every slug that has
    none. Returns how many slugs were read."""
    params = {"pad_hours": pad_hours}
    if everything:
        con.execute("DELETE FROM _slug_event_readings").fetchall()
    else:
        con.execute(sql("delete_slug_event_readings_stale"), {**params, "stale_from": stale_from}).fetchall()
    con.execute(sql("create_slug_context_todo")).fetchall()
    try:
        slugs, first = con.execute("SELECT count(*), min(start_at) FROM _slug_context_todo").fetchall()[0]
        if slugs:
            # the readings of the slugs to read lie from the earliest one's padded start on: a bound
            # on time, which DuckDB checks against each row group's range and so skips the older ones
            con.execute(
                sql("insert_slug_event_readings"),
                {**params, "scan_from": first - dt.timedelta(hours=pad_hours)},
            ).fetchall()
    finally:
        con.execute("DROP TABLE IF EXISTS _slug_context_todo").fetchall()
    return int(slugs)
