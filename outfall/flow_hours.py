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

A file loaded straight into flow makes the summaries of its own new readings as it checks them
(``stage_new_rows``, ``keep_staged``); after a load whose every file did so, there is nothing
left for ``ensure_flow_hours`` to do.
"""

from __future__ import annotations

import duckdb

from outfall.warehouse import DERIVED_TABLES, as_loaded, run_script, sql, table_columns, transaction

CHUNK_HOURS = 31 * 24
# The summaries a run as of a day reads as they stood at its end (outfall/ingest/as_of.py): the hours
# before it. (The gap check's steps are the input check's, of the readings as loaded.)
AS_OF_HOURS = ("_flow_hours", "_flow_hour_steps")


def ensure_flow_hours(con: duckdb.DuckDBPyConnection) -> str:
    """Bring the summaries up to date with flow as loaded (whatever day ``con`` judges by); returns what
    was done: 'current', 'touched' or 'rebuilt'."""
    with as_loaded(con):
        return _ensure_flow_hours(con)


def _ensure_flow_hours(con: duckdb.DuckDBPyConnection) -> str:
    missing = [
        c for c in ("user_id", "constituent", "ts", "loaded_at") if c not in table_columns(con, "flow")
    ]
    if missing:
        raise RuntimeError(
            f"the flow table lacks the column(s) {', '.join(missing)}: it was not made by Outfall; "
            "remove it (or the warehouse) and run again"
        )
    rows, loaded_at, summarised_at, states, current = _version(con)
    if current:
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
        if not complete or done != "touched":  # no record of what they were made from: made again
            con.execute("DELETE FROM _flow_hours").fetchall()
            con.execute("DELETE FROM _flow_hour_steps").fetchall()
            if lo is not None:
                _make(con, lo, hi, every=True)
            done = "rebuilt"
        _record(con, rows, loaded_at)
        # hours made again may differ anywhere: the gap check's steps are made anew when next read
        con.execute("DELETE FROM _flow_gap_state").fetchall()
    return done


def _version(con: duckdb.DuckDBPyConnection) -> tuple:
    """(flow's row count, its latest load, the load the summaries were made from, how many records
    of that there are, whether the summaries describe flow as it is); the tables made if missing."""
    _tables(con)
    rows, loaded_at, summarised, summarised_at, states = con.execute(sql("select_flow_version")).fetchall()[0]
    return (
        rows,
        loaded_at,
        summarised_at,
        states,
        states == 1 and summarised == rows and summarised_at == loaded_at,
    )


def _record(con: duckdb.DuckDBPyConnection, rows: int, loaded_at) -> None:
    """Record what the summaries were made from: flow's row count and latest load."""
    con.execute("DELETE FROM _flow_hours_state").fetchall()
    con.execute("INSERT INTO _flow_hours_state VALUES (?, ?)", [rows, loaded_at]).fetchall()


def _tables(con: duckdb.DuckDBPyConnection) -> None:
    """The summaries' tables, made when missing (a warehouse of the contract's tables only)."""
    if any(not table_columns(con, t) for t in DERIVED_TABLES):
        run_script(con, sql("create_flow_hours_tables"), {})


def _make(con: duckdb.DuckDBPyConnection, lo: int, hi: int, every: bool) -> None:
    """The summaries of hours lo..hi (all of them, or only the touched ones), a chunk at a time."""
    touched = (
        ""
        if every
        else "\n"
        + "\n".join(
            line for line in sql("flow_hours_touched_filter").splitlines() if not line.startswith("--")
        )
    )
    text = sql("insert_flow_hours").format(
        readings="f.ts >= make_timestamptz($lo * 3600000000) AND f.ts < make_timestamptz($hi * "
        f"3600000000){touched}",
        hours="_flow_hours",
        steps="_flow_hour_steps",
    )
    for start in range(int(lo), int(hi) + 1, CHUNK_HOURS):
        run_script(con, text, {"lo": start, "hi": start + CHUNK_HOURS})


# ---------------------------------------------------------------------------
# summaries made by ingestion, file by file (outfall/ingest/engine.py, straight loads)
#
# A file loaded straight into flow has its new rows checked (no two share a key ...). For flow
# that check is made from the new rows' hourly summaries (a time repeated is a step of length 0),
# which are then kept: the summaries of a year of readings come with the check, instead of a
# second pass over the readings after the load. They are kept only while they describe flow
# exactly: when they did before the load, and every file of the load that changed flow added its
# own summaries of hours not summarised yet. Otherwise nothing is lost: the next
# ensure_flow_hours makes the touched hours again (or all of them) as always.

_NEW_ROWS = "f.source_file = $source_file AND f.loaded_at = $now AND f.ts IS NOT NULL"


def summaries_current(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the summaries describe flow as it is (or both are empty)."""
    rows, _, _, _, current = _version(con)
    if current:
        return True
    return (
        rows == 0
        and not con.execute(
            "SELECT EXISTS (SELECT 1 FROM _flow_hours) OR EXISTS (SELECT 1 FROM _flow_hour_steps)"
        ).fetchall()[0][0]
    )


def stage_new_rows(con: duckdb.DuckDBPyConnection, source_file: str, now, kept: int) -> tuple:
    """Summarise the ``kept`` rows a file just added to flow (staged, not yet kept); returns what the
    load's check needs: (keys repeated, rows lacking a key, whether an hour of them is summarised
    already, then the min and max of each column of flow's natural key: user_id, constituent, ts)."""
    params = {"source_file": source_file, "now": now}
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _new_flow_hours AS SELECT * FROM _flow_hours LIMIT 0"
    ).fetchall()
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _new_flow_hour_steps AS SELECT * FROM _flow_hour_steps LIMIT 0"
    ).fetchall()
    run_script(
        con,
        sql("insert_flow_hours").format(
            readings=_NEW_ROWS, hours="_new_flow_hours", steps="_new_flow_hour_steps"
        ),
        params,
    )
    repeated, with_time, without_series, summarised, *bounds = con.execute(
        sql("select_flow_hours_of_new_rows_facts")
    ).fetchall()[0]
    return (int(repeated), int(without_series) + int(kept) - int(with_time), bool(summarised), *bounds)


def keep_staged(con: duckdb.DuckDBPyConnection, summarised: bool) -> bool:
    """Add the staged summaries of a file's new rows; False (nothing added) when an hour of them is
    summarised already (``summarised``, as stage_new_rows found: the steps across the old and new
    readings are not known here)."""
    if not table_columns(con, "_new_flow_hours"):
        return True  # the file added no rows
    try:
        if summarised:
            return False
        con.execute(sql("forget_flow_gap_steps_before_staged")).fetchall()
        con.execute("INSERT INTO _flow_hours SELECT * FROM _new_flow_hours").fetchall()
        con.execute("INSERT INTO _flow_hour_steps SELECT * FROM _new_flow_hour_steps").fetchall()
        return True
    finally:
        drop_staged(con)


def drop_staged(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("DROP TABLE IF EXISTS _new_flow_hours").fetchall()
    con.execute("DROP TABLE IF EXISTS _new_flow_hour_steps").fetchall()


def mark_current(con: duckdb.DuckDBPyConnection) -> None:
    """Record that the summaries describe flow as it is now (after a load that kept them so)."""
    rows, loaded_at, *_ = _version(con)
    _record(con, rows, loaded_at)


# ---------------------------------------------------------------------------
# the gap check's steps (check_freshness_flow_gaps): every step of every series by length
#
# Made from the summaries, then kept; when hours are only added after each series' last
# described hour (a day appended, loaded straight), only the steps of those hours are added. Any
# other change forgets them (ensure_flow_hours making hours again, a file's hours before a series'
# last, a new meter), and they are made anew from all the summaries when next read.


def flow_gap_steps(con: duckdb.DuckDBPyConnection) -> str:
    """Bring the summaries and the gap check's steps up to date; returns what was done to the steps:
    'current', 'appended' or 'made'."""
    ensure_flow_hours(con)
    with as_loaded(con), transaction(con):
        state, after = con.execute(sql("select_flow_gap_version")).fetchall()[0]
        if state == "current":
            return state
        if state == "appended" and after is not None:
            run_script(con, sql("append_flow_gap_steps"), {"after": int(after)})
            return state
        run_script(con, sql("forget_flow_gap_steps"), {})  # then every hour is one after none described
        run_script(con, sql("append_flow_gap_steps"), {"after": -(2**62)})
        return "made"


__all__ = [
    "ensure_flow_hours",
    "flow_gap_steps",
    "CHUNK_HOURS",
    "AS_OF_HOURS",
    "summaries_current",
    "stage_new_rows",
    "keep_staged",
    "drop_staged",
    "mark_current",
]
