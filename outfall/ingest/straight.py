"""A Parquet or CSV file loaded on its own, judged straight into its table (outfall/ingest/engine.py):
its kept rows inserted as they are judged, then checked; when a check fails they are deleted again and
the file is loaded the careful way (``judging.judge``, ``judging.finish_file``)."""

from __future__ import annotations

from outfall import flow_hours
from outfall.ingest import compile as cq
from outfall.ingest.datasets import Dataset
from outfall.ingest.judging import FileReport, fall_back, key_match_sql, stored_overlap
from outfall.ingest.parse import ident

# The rows of the file being loaded, in its table as t: those of its name stored at this run's time.
NEW = "t.source_file = $source_file AND t.loaded_at = $now"


def load_straight(
    con, ds: Dataset, ctx, source: str, present: dict[str, str], params: dict, rel: str, now, rows: int | None
) -> FileReport | None:
    """A file of ``rows`` rows (a Parquet file's footer says how many; a CSV file's rows are those
    read into _csv_rows, when none of its lines was unreadable) judged straight into the table: the
    kept rows are inserted as they are judged, without the scratch copy judge makes (writing that
    copy costs as much as the insert itself: half the time of a year of meter readings).

    Then the new rows are checked, as finish_file would have: no two of them share a natural key,
    none shares one with a row already in the table, no local time among them occurs twice (the
    fall-back hour), and every row of the file is either kept or quarantined. When one of these
    fails (rare: a corrected re-send, repeated rows), the rows just written are deleted again and
    None is returned: the file is then loaded the careful way, which knows what to do with each."""
    if not rows:
        return None
    blank = cq.left_blank_sql(ds, source, present)
    left_blank = int(con.execute(blank, params).fetchall()[0][0]) if blank else 0
    mine = {"source_file": rel, "now": now}
    # rows of this file stored at this very time already: the new ones would not be told apart
    if con.execute(f"SELECT EXISTS (SELECT 1 FROM {ident(ds.name)} AS t WHERE {NEW})", mine).fetchall()[0][0]:
        return None
    args = {**params, **mine}
    kept = _insert_judged(con, ds, ctx, source, present, args)
    quarantined = 0
    if kept < rows:
        more, quarantined = _insert_left_out(con, ds, ctx, source, present, args, rows)
        kept += more
    ok, summarised = (True, False) if kept == 0 else _straight_rows_fit(con, ds, NEW, mine, kept)
    if not ok or kept + quarantined + left_blank != rows:
        _undo(con, ds, mine, quarantined)
        return None
    return FileReport(
        rel,
        rows_read=rows - left_blank,
        rows_kept=kept,
        rows_quarantined=quarantined,
        rows_new=kept,
        rows_left_blank=left_blank,
        prefilled=blank is not None,
        straight=True,
        hours_summarised=summarised,
    )


def _insert_judged(con, ds: Dataset, ctx, source: str, present: dict[str, str], args: dict) -> int:
    """Insert the rows of ``source`` the judging keeps, but those with a local time that may occur
    twice (the fall-back hour); returns how many."""
    query = cq.judge_sql(ds, ctx, source, present)
    flags = [
        f"coalesce({ident('_amb_' + c.name)}, false)"
        for c in ds.columns
        if c.kind == "timestamp" and c.name in present
    ]
    ambiguous = " OR ".join(flags) or "false"
    judged = f"SELECT *, CAST($source_file AS VARCHAR) AS source_file FROM ({query})"
    con.execute("SET preserve_insertion_order = true").fetchall()  # rows in the file's order
    return int(
        con.execute(
            f"INSERT INTO {ident(ds.name)} BY NAME SELECT {_columns(ds)}, source_file, source_row, "
            f"CAST($now AS TIMESTAMPTZ) AS loaded_at, row_hash FROM ({judged}) "
            f"WHERE reason IS NULL AND NOT ({ambiguous})",
            args,
        ).fetchall()[0][0]
    )


def _insert_left_out(
    con, ds: Dataset, ctx, source: str, present: dict[str, str], args: dict, rows: int
) -> tuple[int, int]:
    """The rows not inserted (quarantined, or a local time that may occur twice) judged again alone,
    found by their numbers: a local time of the fall-back night is placed as judge places it, and
    inserted, instead of the whole file going the careful way (a year of local times always has that
    night); the quarantined rows go to quarantine. Returns (rows inserted, rows quarantined)."""
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE _left_out AS SELECT r AS source_row "
        f"FROM range(1, $rows + 1) AS n(r) ANTI JOIN (SELECT source_row FROM {ident(ds.name)} AS t "
        f"WHERE {NEW}) AS k ON k.source_row = n.r",
        {"rows": int(rows), "source_file": args["source_file"], "now": args["now"]},
    ).fetchall()
    # (the rows are picked from the source, before the judging: only they are judged again)
    left = cq.judge_sql(
        ds,
        ctx,
        f"SELECT * FROM ({source}) AS s WHERE s.source_row IN (SELECT source_row FROM _left_out)",
        present,
    )
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _judged AS SELECT *, CAST($source_file AS VARCHAR) "
        f"AS source_file, CAST($now AS TIMESTAMPTZ) AS loaded_at FROM ({left})",
        args,
    ).fetchall()
    fall_back(con, ds)
    kept = int(
        con.execute(
            f"INSERT INTO {ident(ds.name)} BY NAME SELECT {_columns(ds)}, source_file, source_row, "
            "loaded_at, row_hash FROM _judged WHERE reason IS NULL ORDER BY source_row"
        ).fetchall()[0][0]
    )
    quarantined = int(
        con.execute(
            "INSERT INTO quarantine (dataset, source_file, row_number, reason, raw, quarantined_at) "
            "SELECT $dataset, source_file, source_row, reason, raw, $now FROM _judged "
            "WHERE reason IS NOT NULL ORDER BY source_row",
            {"dataset": ds.name, "now": args["now"]},
        ).fetchall()[0][0]
    )
    con.execute("DROP TABLE IF EXISTS _judged").fetchall()
    con.execute("DROP TABLE IF EXISTS _left_out").fetchall()
    return kept, quarantined


def _undo(con, ds: Dataset, mine: dict, quarantined: int) -> None:
    """Delete the rows just written of the file (``mine``: its name and this run's time), and its
    quarantine rows and staged hourly summaries."""
    if ds.hourly_summaries:
        flow_hours.drop_staged(con)
    con.execute(f"DELETE FROM {ident(ds.name)} AS t WHERE {NEW}", mine).fetchall()
    if quarantined:
        con.execute(
            "DELETE FROM quarantine WHERE dataset = $dataset AND source_file = $source_file "
            "AND quarantined_at = $now",
            {"dataset": ds.name, **mine},
        ).fetchall()


def _columns(ds: Dataset) -> str:
    """The table's own columns, quoted, as a SELECT lists them."""
    return ", ".join(ident(c) for c, _ in ds.table_columns())


def _straight_rows_fit(con, ds: Dataset, new: str, params: dict, kept: int) -> tuple[bool, bool]:
    """Whether the ``kept`` rows just inserted (``new``: a filter on the table as t) can stay as they
    are: no two share a natural key, none has a key column empty, none shares its key with an older
    row; and whether an hour of them is summarised already. A dataset with hourly summaries learns
    the first two from its new rows' summaries, made (and staged) here; they are kept once the file
    is (_record_file), unless an hour of them was summarised already."""
    table = ident(ds.name)
    keys = [ident(k) for k in ds.key]
    summarised = False
    if ds.hourly_summaries:
        repeated, empty, summarised, *bounds = flow_hours.stage_new_rows(
            con, params["source_file"], params["now"], kept
        )
    else:
        # Keys are told apart by their hash, one number (half the time of grouping by the key's
        # columns): two keys with one hash would read as a repeat, and the careful way would sort
        # them out.
        repeated, empty, *bounds = con.execute(
            f"SELECT count(*) - count(DISTINCT hash({', '.join(keys)})), count(*) FILTER (WHERE "
            + " OR ".join(f"{k} IS NULL" for k in keys)
            + "), "
            + ", ".join(f"min({k}), max({k})" for k in keys)
            + f" FROM {table} AS t WHERE {new}",
            params,
        ).fetchall()[0]
    if repeated or empty:
        return False, summarised
    t_filter, range_params, overlap = stored_overlap(con, ds, tuple(bounds), exclude=(new, params))
    if not overlap:
        return True, summarised
    shared = con.execute(
        f"SELECT count(*) FROM {table} AS t JOIN (SELECT {', '.join(keys)} FROM {table} AS t WHERE {new}) "
        f"AS i ON {key_match_sql(ds)} WHERE {t_filter} AND NOT ({new})",
        {**params, **range_params},
    ).fetchall()[0][0]
    return not shared, summarised
