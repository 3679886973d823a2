"""The sewer page's flow traces are read in SQL for all meters at once (the spans and means from the
hourly summaries of flow, one join for the readings near slugs): the same frame as the former
queries of flow itself, per meter."""

from __future__ import annotations

import base64

import duckdb
import numpy as np
import pandas as pd

from assets.pages import Reader
from assets.sewer_administrator import page
from dashboards.sewer import choose_bucket_hours
from outfall.slug_context import SLUG_CONTEXT_HOURS
from outfall.warehouse import LOCAL_TZ, configure, ensure_schema

# The former per-meter queries, kept here as the oracle.
MEANS_OF_ONE_SERIES = """
SELECT time_bucket(to_hours(CAST($hours AS BIGINT)), timezone($tz, ts)) AS ts, avg(value) AS value
FROM flow WHERE user_id = $user_id AND constituent = $constituent AND value IS NOT NULL
GROUP BY 1 ORDER BY 1"""
SLUG_READINGS_OF_ONE_SERIES = """
SELECT DISTINCT timezone($tz, f.ts) AS ts, f.value
FROM flow f JOIN slug_events s
  ON f.user_id = s.user_id AND f.constituent = s.constituent
 AND f.ts BETWEEN s.start_at - to_hours(CAST($pad_hours AS BIGINT)) AND s.end_at + to_hours(CAST($pad_hours AS BIGINT))
WHERE f.user_id = $user_id AND f.constituent = $constituent AND f.value IS NOT NULL
ORDER BY 1"""


SPANS_OF_EVERY_SERIES = """
SELECT user_id, constituent, min(ts) AS first_ts, max(ts) AS last_ts, count(*) AS readings,
       any_value(unit) AS unit
FROM flow WHERE ts IS NOT NULL AND value IS NOT NULL
GROUP BY user_id, constituent ORDER BY user_id, constituent"""


def per_series(con, r) -> pd.DataFrame:
    spans = con.execute(SPANS_OF_EVERY_SERIES).df()
    frames = []
    for _, s in spans.iterrows():
        span_h = (pd.Timestamp(s["last_ts"]) - pd.Timestamp(s["first_ts"])).total_seconds() / 3600.0
        hours = choose_bucket_hours(span_h, page.MAX_FLOW_POINTS)
        series = {"tz": LOCAL_TZ, "user_id": s["user_id"], "constituent": s["constituent"]}
        means = con.execute(MEANS_OF_ONE_SERIES, {**series, "hours": hours}).df()
        means["kind"] = "mean"
        raw = con.execute(SLUG_READINGS_OF_ONE_SERIES, {**series, "pad_hours": SLUG_CONTEXT_HOURS}).df()
        if len(raw) > page.MAX_SLUG_READINGS:
            raw = con.execute(SLUG_READINGS_OF_ONE_SERIES, {**series, "pad_hours": 0}).df()
        raw["kind"] = "slug"
        part = pd.concat([means, raw], ignore_index=True)
        part["user_id"], part["constituent"], part["unit"], part["bucket_hours"] = (
            s["user_id"], s["constituent"], s["unit"], hours)
        frames.append(part)
    return pd.concat(frames, ignore_index=True)


def warehouse_with_flow() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    configure(con)
    ensure_schema(con)
    # Three meters of 5-minute readings over different spans (a day, 20 days, 200 days: different
    # bucket widths), a pH probe, and slugs: a short one with context, and on IU-3 a long one
    # whose padded readings pass the cap (then only the readings inside it are kept).
    con.execute("""
        INSERT INTO flow (user_id, constituent, ts, value, unit)
        SELECT u, c, TIMESTAMPTZ '2026-01-01 00:00:00-05' + to_minutes(5 * i),
               CASE WHEN i % 97 = 0 THEN NULL ELSE (i % 13) + 1.5 END, unit
        FROM (VALUES ('IU-1', 'flow', 288, 'gpm'), ('IU-1', 'pH', 288, 's.u.'),
                     ('IU-2', 'flow', 20 * 288, 'gpm'), ('IU-3', 'flow', 200 * 288, 'gpm')) t(u, c, n, unit),
             range(n) r(i)""").fetchall()
    con.execute("""
        INSERT INTO slug_events (user_id, constituent, start_at, end_at)
        VALUES ('IU-1', 'flow', TIMESTAMPTZ '2026-01-01 10:00:00-05', TIMESTAMPTZ '2026-01-01 10:20:00-05'),
               ('IU-2', 'flow', TIMESTAMPTZ '2026-01-05 03:00:00-05', TIMESTAMPTZ '2026-01-05 03:30:00-05'),
               ('IU-2', 'flow', TIMESTAMPTZ '2026-01-05 03:50:00-05', TIMESTAMPTZ '2026-01-05 04:10:00-05'),
               ('IU-3', 'flow', TIMESTAMPTZ '2026-02-01 00:00:00-05', TIMESTAMPTZ '2026-04-15 00:00:00-04')
        """).fetchall()
    return con


def test_flow_of_every_meter_in_one_pass_equals_the_query_per_meter():
    con = warehouse_with_flow()
    new = page.read_flow(con, Reader(con))
    old = per_series(con, Reader(con))[new.columns]
    assert set(new["bucket_hours"]) == {1, 4} and len(new[new["kind"] == "slug"]) > 0
    capped = new[(new["user_id"] == "IU-3") & (new["kind"] == "slug")]
    assert len(capped) > page.MAX_SLUG_READINGS     # over the cap: only the readings inside the long slug
    assert capped["ts"].min() == pd.Timestamp("2026-02-01") and capped["ts"].max() == pd.Timestamp("2026-04-15")
    pd.testing.assert_frame_equal(new.reset_index(drop=True), old.reset_index(drop=True), check_dtype=False)


def test_no_flow_is_an_empty_frame():
    con = duckdb.connect()
    configure(con)
    ensure_schema(con)
    assert page.read_flow(con, Reader(con)).empty


def test_readings_of_the_fall_back_hour_are_drawn_earlier_instant_first():
    """On 2025-11-02 01:00-01:59 occurs twice. Near a slug then, the chart draws each local minute's
    two readings in the order of their instants, as the query gives them (the former sort of the
    chart's times, not a stable one, swapped some of the pairs)."""
    import json

    from dashboards.sewer import SewerData, flow_chart

    con = duckdb.connect()
    configure(con)
    ensure_schema(con)
    # one reading a minute from 00:00 EDT to 03:00 EST; the value is the minute's number, so the
    # order of the instants is the order of the values
    con.execute("""
        INSERT INTO flow (user_id, constituent, ts, value, unit)
        SELECT 'IU-1', 'flow', TIMESTAMPTZ '2025-11-02 00:00:00-04' + to_minutes(i), i, 'gpm' FROM range(240) r(i)
        """).fetchall()
    con.execute("""
        INSERT INTO slug_events (user_id, constituent, start_at, end_at, duration_min, baseline, peak_value, peak_ratio)
        VALUES ('IU-1', 'flow', TIMESTAMPTZ '2025-11-02 01:10:00-04', TIMESTAMPTZ '2025-11-02 01:40:00-05',
                90, 10, 200, 20)""").fetchall()
    flow = page.read_flow(con, Reader(con))
    chart = flow_chart("IU-1", SewerData(as_of=pd.Timestamp("2025-11-03").date()), flow,
                       con.execute("SELECT * FROM slug_events").df(), pd.DataFrame(), pd.DataFrame())
    trace = next(t for t in chart.figure["data"] if t.get("name") == "every reading near a slug")
    # typed arrays: the local minute in ms since 1970 (as a date axis reads it), and the value
    xs = np.frombuffer(base64.b64decode(trace["x"]["bdata"]), dtype=np.float64)
    ys = np.frombuffer(base64.b64decode(trace["y"]["bdata"]), dtype=np.float64)
    minutes = np.datetime_as_string(xs.astype(np.int64).astype("datetime64[ms]"), unit="m")
    pairs = {}
    for x, y in zip(minutes, ys):
        if not np.isnan(y) and x.startswith("2025-11-02T01:"):
            pairs.setdefault(x, []).append(y)
    assert len(pairs) == 60 and all(len(v) == 2 for v in pairs.values())
    assert all(a < b for a, b in pairs.values()), "the earlier instant first"
    json.dumps(chart.figure)  # the chart is plain data
