"""The sewer page's flow traces are read in SQL for all meters at once (the spans and means from the
hourly summaries of flow, one join for the readings near slugs): the same frame as the former
queries of flow itself, per meter. The page splits every meter's rows at once: the same charts as
one meter's frames give."""

from __future__ import annotations

import base64
import datetime as dt

import duckdb
import numpy as np
import pandas as pd

from assets.common import schema_ddl
from assets.pages import Reader
from assets.sewer import page
from dashboards.sewer_flow import choose_bucket_hours
from outfall.rules import local_timezone
from outfall.slug_context import SLUG_CONTEXT_HOURS
from outfall.warehouse import configure, ensure_schema

# The former per-meter queries, kept here as the oracle.
MEANS_OF_ONE_SERIES = """
SELECT time_bucket(to_hours(CAST($hours AS BIGINT)), timezone($tz, ts)) AS ts, avg(value) AS value
FROM flow WHERE user_id = $user_id AND constituent = $constituent AND value IS NOT NULL
GROUP BY 1 ORDER BY 1"""
SLUG_READINGS_OF_ONE_SERIES = """
SELECT DISTINCT timezone($tz, f.ts) AS ts, f.value
FROM flow f JOIN slug_events s
  ON f.user_id = s.user_id AND f.constituent = s.constituent
 AND f.ts BETWEEN s.start_at - to_hours(CAST($pad_hours AS BIGINT))
              AND s.end_at + to_hours(CAST($pad_hours AS BIGINT))
WHERE f.user_id = $user_id AND f.constituent = $constituent AND f.value IS NOT NULL
ORDER BY 1"""


SPANS_OF_EVERY_SERIES = """
SELECT user_id, constituent, min(ts) AS first_ts, max(ts) AS last_ts, count(*) AS readings,
       any_value(unit) AS unit
FROM flow WHERE ts IS NOT NULL AND value IS NOT NULL
GROUP BY user_id, constituent ORDER BY user_id, constituent"""


def per_series(con, r, budget: int) -> pd.DataFrame:
    """The oracle: each series on its own, its bucket the finest within its user's share of ``budget``
    (every user charted), split among the user's series."""
    spans = con.execute(SPANS_OF_EVERY_SERIES).df()
    users = spans["user_id"].nunique()
    frames = []
    for _, s in spans.iterrows():
        span_h = (pd.Timestamp(s["last_ts"]) - pd.Timestamp(s["first_ts"])).total_seconds() / 3600.0
        series = int((spans["user_id"] == s["user_id"]).sum())
        hours = choose_bucket_hours(span_h, (budget // users) // series)
        series = {"tz": local_timezone(), "user_id": s["user_id"], "constituent": s["constituent"]}
        means = con.execute(MEANS_OF_ONE_SERIES, {**series, "hours": hours}).df()
        means["kind"] = "mean"
        raw = con.execute(SLUG_READINGS_OF_ONE_SERIES, {**series, "pad_hours": SLUG_CONTEXT_HOURS}).df()
        if len(raw) > page.MAX_SLUG_READINGS:
            raw = con.execute(SLUG_READINGS_OF_ONE_SERIES, {**series, "pad_hours": 0}).df()
        raw["kind"] = "slug"
        part = pd.concat([means, raw], ignore_index=True)
        part["user_id"], part["constituent"], part["unit"], part["bucket_hours"] = (
            s["user_id"],
            s["constituent"],
            s["unit"],
            hours,
        )
        frames.append(part)
    return pd.concat(frames, ignore_index=True)


def warehouse_with_flow() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    configure(con, timezone=local_timezone())
    ensure_schema(con, schema_ddl())
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
    # 3,000 points for 3 users: IU-1's day of flow and pH hourly (500 each), IU-2's 20 days hourly (480 of
    # 1,000), IU-3's 200 days in 6-hour means (800 of 1,000)
    new = page.read_flow(con, Reader(con), local_timezone(), budget=3000)
    old = per_series(con, Reader(con), 3000)[new.columns]
    assert set(new["bucket_hours"]) == {1, 6} and len(new[new["kind"] == "slug"]) > 0
    assert len(new[(new["user_id"] == "IU-3") & (new["kind"] == "mean")]) <= 1000
    capped = new[(new["user_id"] == "IU-3") & (new["kind"] == "slug")]
    assert len(capped) > page.MAX_SLUG_READINGS  # over the cap: only the readings inside the long slug
    assert capped["ts"].min() == pd.Timestamp("2026-02-01") and capped["ts"].max() == pd.Timestamp(
        "2026-04-15"
    )
    pd.testing.assert_frame_equal(new.reset_index(drop=True), old.reset_index(drop=True), check_dtype=False)


def test_no_flow_is_an_empty_frame():
    con = duckdb.connect()
    configure(con, timezone=local_timezone())
    ensure_schema(con, schema_ddl())
    assert page.read_flow(con, Reader(con), local_timezone()).empty


def test_readings_of_the_fall_back_hour_are_drawn_earlier_instant_first():
    """On 2025-11-02 01:00-01:59 occurs twice. Near a slug then, the chart draws each local minute's
    two readings in the order of their instants, as the query gives them (the former sort of the
    chart's times, not a stable one, swapped some of the pairs)."""
    import json

    from dashboards.sewer import SewerData, flow_chart

    con = duckdb.connect()
    configure(con, timezone=local_timezone())
    ensure_schema(con, schema_ddl())
    # one reading a minute from 00:00 EDT to 03:00 EST; the value is the minute's number, so the
    # order of the instants is the order of the values
    con.execute("""
        INSERT INTO flow (user_id, constituent, ts, value, unit)
        SELECT 'IU-1', 'flow', TIMESTAMPTZ '2025-11-02 00:00:00-04' + to_minutes(i), i, 'gpm'
        FROM range(240) r(i)
        """).fetchall()
    con.execute("""
        INSERT INTO slug_events
            (user_id, constituent, start_at, end_at, duration_min, baseline, peak_value, peak_ratio)
        VALUES ('IU-1', 'flow', TIMESTAMPTZ '2025-11-02 01:10:00-04', TIMESTAMPTZ '2025-11-02 01:40:00-05',
                90, 10, 200, 20)""").fetchall()
    flow = page.read_flow(con, Reader(con), local_timezone())
    chart = flow_chart(
        "IU-1",
        SewerData(as_of=pd.Timestamp("2025-11-03").date()),
        flow,
        con.execute("SELECT * FROM slug_events").df(),
        pd.DataFrame(),
        pd.DataFrame(),
    )
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


def _interleaved_page_frames():
    """Three users' rows interleaved (not grouped by user, as a test or an older caller may give
    them): IU-B with a flow meter and a pH probe, slugs on two constituents, baselines out of day
    order with a day without a threshold and two sources, and a gap."""
    t = pd.date_range("2026-03-01", periods=30, freq="6h")
    rows = []
    for i, ts in enumerate(t):
        for user, constituent, unit in (
            ("IU-C", "flow", "gpm"),
            ("IU-A", "flow", "gpm"),
            ("IU-B", "pH", "s.u."),
            ("IU-B", "flow", "gpm"),
        ):
            rows.append(
                {
                    "user_id": user,
                    "constituent": constituent,
                    "ts": ts,
                    "value": float(i % 7) + 1,
                    "unit": unit,
                    "kind": "mean",
                    "bucket_hours": 6,
                }
            )
    for j, ts in enumerate(pd.date_range("2026-03-03 10:00", periods=12, freq="15min")):
        rows.append(
            {
                "user_id": "IU-B",
                "constituent": "flow",
                "ts": ts,
                "value": 40.0 + j,
                "unit": "gpm",
                "kind": "slug",
                "bucket_hours": 6,
            }
        )
    flow = pd.DataFrame(rows).sample(frac=1.0, random_state=7).reset_index(drop=True)
    utc = lambda s: pd.Timestamp(s, tz="America/New_York").tz_convert("UTC")  # noqa: E731
    slugs = pd.DataFrame(
        [
            {
                "user_id": u,
                "constituent": c,
                "start_at": utc(a),
                "end_at": utc(b),
                "duration_min": 45,
                "baseline": 8.0,
                "peak_value": 52.0,
                "peak_ratio": 6.5,
            }
            for u, c, a, b in (
                ("IU-B", "flow", "2026-03-03 10:30", "2026-03-03 11:15"),
                ("IU-A", "flow", "2026-03-04 01:00", "2026-03-04 01:45"),
                ("IU-B", "pH", "2026-03-05 09:00", "2026-03-05 09:30"),
            )
        ]
    )
    days = pd.to_datetime(["2026-03-04", "2026-03-02", "2026-03-03", "2026-03-05"])
    baselines = pd.concat(
        [
            pd.DataFrame(
                {
                    "user_id": u,
                    "constituent": c,
                    "local_day": days,
                    "baseline": [8.0, 8.0, 9.0, 10.0],
                    "threshold": [40.0, None, 45.0, 50.0],
                    "baseline_source": [
                        "median of the prior days",
                        "the permit's normal average flow",
                        "the permit's normal average flow",
                        "median of the prior days",
                    ],
                }
            )
            for u, c in (("IU-C", "flow"), ("IU-B", "flow"), ("IU-A", "flow"))
        ],
        ignore_index=True,
    )
    gaps = pd.DataFrame(
        [
            {
                "user_id": "IU-A",
                "constituent": "flow",
                "first_day": dt.date(2026, 3, 1),
                "last_day": dt.date(2026, 3, 1),
            }
        ]
    )
    return flow, slugs, baselines, gaps


def test_the_page_splits_every_meter_at_once_as_one_meter_is_drawn():
    """The page splits all meters' rows by position once (flow_inputs); a chart drawn from one user's
    frames (flow_chart) is the same chart, for users whose rows come interleaved."""
    import json

    from dashboards.sewer import SewerData, flow_chart
    from dashboards.sewer_flow import draw_flow_chart, flow_inputs, slug_words

    flow, slugs, baselines, gaps = _interleaved_page_frames()
    words = slug_words(None)
    split = flow_inputs(flow, slugs, baselines, gaps)
    assert sorted(split) == ["IU-A", "IU-B", "IU-C"]
    data = SewerData(as_of=dt.date(2026, 3, 31))
    for user in split:

        def mine(f, user=user):
            return f[f["user_id"] == user] if not f.empty else f

        alone = flow_chart(user, data, mine(flow), mine(slugs), mine(baselines), mine(gaps), words)
        together = draw_flow_chart(user, split[user], words)
        assert json.dumps(together.figure, sort_keys=True) == json.dumps(alone.figure, sort_keys=True)
        assert together.caption == alone.caption and together.height == alone.height
    figure = draw_flow_chart("IU-B", split["IU-B"], words).figure
    # two panels (flow first), the slug of each constituent on its own, the readings near it in time order
    assert [a["text"] for a in figure["layout"]["annotations"][:2]] == ["<b>flow</b>", "<b>pH</b>"]
    marks = [t for t in figure["data"] if t.get("name") == "slug event (peak, × baseline)"]
    assert [(t["yaxis"], t["x"]) for t in marks] == [
        ("y", ["2026-03-03 10:30"]),
        ("y2", ["2026-03-05 09:00"]),
    ]
    near = next(t for t in figure["data"] if t.get("name") == "every reading near a slug")
    ys = np.frombuffer(base64.b64decode(near["y"]["bdata"]), dtype=np.float64)
    assert ys.tolist() == [40.0 + j for j in range(12)]
    # the baseline in day order, the day without a threshold left out; the source most of its days name
    base = next(t for t in figure["data"] if str(t.get("name", "")).startswith("baseline"))
    assert base["x"] == ["2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"] and base["y"] == [
        9.0,
        8.0,
        10.0,
        10.0,
    ]
    assert base["name"] == "baseline (median of the prior days)"
    gap_shapes = [
        s
        for s in draw_flow_chart("IU-A", split["IU-A"], words).figure["layout"]["shapes"]
        if s["x0"] == "2026-03-01"
    ]
    assert len(gap_shapes) == 1 and gap_shapes[0]["x1"] == "2026-03-02"


def test_the_most_frequent_source_is_pandas_mode():
    from dashboards.sewer_flow import _mode

    cases = [["b", "a", "b", None], ["b", "a"], [None, np.nan], ["x"], ["c", "c", "a", "a", np.nan, "b"]]
    for values in cases:
        expected = pd.Series(values, dtype=object).dropna().mode()
        got = _mode(np.array(values, dtype=object))
        assert got == (expected.iloc[0] if not expected.empty else None), values


def test_the_page_budget_of_flow_points_is_shared_by_the_users_charted():
    """A user not charted is read as weekly means (only its presence is shown); the users charted share the
    budget, each user's share split among its series."""
    con = warehouse_with_flow()
    flow = page.read_flow(con, Reader(con), local_timezone(), charted={"IU-3"}, budget=4800)
    hours = flow[flow["kind"] == "mean"].groupby("user_id")["bucket_hours"].first().to_dict()
    assert hours == {"IU-1": 168, "IU-2": 168, "IU-3": 1}  # 4,800 hours of IU-3 in its 4,800 points
    flow = page.read_flow(con, Reader(con), local_timezone(), charted={"IU-3"}, budget=4799)
    assert flow[flow["user_id"] == "IU-3"]["bucket_hours"].iloc[0] == 2  # one point fewer: 2-hour means


def test_the_default_budget_keeps_a_region_with_every_meter_charted_light():
    """2,000 meters charted, a year each: 250 points a meter, two-day means (183), not 1,460 six-hour ones."""
    from dashboards.sewer_flow import flow_points_per_user

    assert page.FLOW_POINTS == 500_000
    share = flow_points_per_user(page.FLOW_POINTS, 2000)
    assert share == 250 and choose_bucket_hours(365 * 24, share) == 48
    # the demo's dozen users with findings: hourly means of a year (8,760 points each)
    assert choose_bucket_hours(365 * 24, flow_points_per_user(page.FLOW_POINTS, 14)) == 1
