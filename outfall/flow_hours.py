"""Hourly summaries of flow, made again only for the hours that new readings touch.

A year of 1-minute readings of 190 meters is 100M rows. The checks that need every reading
in time order (the gaps between readings, the natural key) read instead, per user,
constituent and UTC hour: how many readings, the first and last, and how many steps of each
length lie between consecutive readings within the hour; and the pages' hourly means read
the hour's unit and the sum and number of its values
(``sql/ingest/create_flow_hours_tables.sql``). The steps across hours follow from the last
reading of one hour and the first of the next, so the summaries hold every step exactly.

``ensure_flow_hours`` brings them up to date before they are read: nothing to do when
flow has the row count and latest load they were made from; otherwise the hours with a
reading loaded since are made again from flow; and when the summaries then do not count
every reading (readings removed, as when a file is re-sent without them, or written without
a load time), all of them are made again. Each call is one transaction. Hours are made in
chunks of about a month, so that memory stays bounded.
"""

from __future__ import annotations

import duckdb

from outfall.ingest.engine import run_script
from outfall.warehouse import DERIVED_TABLES, sql, table_columns, transaction

CHUNK_HOURS = 31 * 24


def ensure_flow_hours(con: duckdb.DuckDBPyConnection) -> str:
    """Bring the summaries up to date; returns what was done: 'current', 'touched' or 'rebuilt'."""
    missing = [c for c in ("user_id", "constituent", "ts", "loaded_at") if c not in table_columns(con, "flow")]
    if missing:
        raise RuntimeError(f"the flow table lacks the column(s) {', '.join(missing)}: it was not made by Outfall; "
                           "remove it (or the warehouse) and run again")
    if any(not table_columns(con, t) for t in DERIVED_TABLES):   # a warehouse of the contract's tables only
        run_script(con, sql("create_flow_hours_tables"), {})
    rows, loaded_at, summarised, summarised_at, states = con.execute(sql("select_flow_version")).fetchall()[0]
    if states == 1 and summarised == rows and summarised_at == loaded_at:
        return "current"
    with transaction(con):
        done = "rebuilt"
        if states == 1 and summarised_at is not None:
            run_script(con, sql("create_flow_hours_touched"), {"since": summarised_at})
            lo, hi = con.execute("SELECT min(h), max(h) FROM _touched_hours").fetchall()[0]
            if lo is not None:
                run_script(con, sql("delete_flow_hours_touched"), {})
                _make(con, lo, hi, every=False)
            con.execute("DROP TABLE IF EXISTS _touched_hours").fetchall()
            done = "touched"
        complete, lo, hi = con.execute(sql("select_flow_hours_complete")).fetchall()[0]
        if not complete or done != "touched":   # no record of what they were made from: made again
            con.execute("DELETE FROM _flow_hours").fetchall()
            con.execute("DELETE FROM _flow_hour_steps").fetchall()
            if lo is not None:
                _make(con, lo, hi, every=True)
            done = "rebuilt"
        con.execute("DELETE FROM _flow_hours_state").fetchall()
        con.execute("INSERT INTO _flow_hours_state VALUES (?, ?)", [rows, loaded_at]).fetchall()
    return done


def _make(con: duckdb.DuckDBPyConnection, lo: int, hi: int, every: bool) -> None:
    """The summaries of hours lo..hi (all of them, or only the touched ones), a chunk at a time."""
    touched = "" if every else "\n" + "\n".join(
        line for line in sql("flow_hours_touched_filter").splitlines() if not line.startswith("--"))
    text = sql("insert_flow_hours").format(touched=touched)
    for start in range(int(lo), int(hi) + 1, CHUNK_HOURS):
        run_script(con, text, {"lo": start, "hi": start + CHUNK_HOURS})


__all__ = ["ensure_flow_hours", "CHUNK_HOURS"]
