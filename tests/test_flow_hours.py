"""Flow is grouped per UTC hour before any local time is taken (the page's bucket means, from the
hourly summaries of flow; the
days a user discharged, the years of the annual report): New York's offsets are whole hours, so
this equals applying the time zone to every reading. Checked against the per-reading queries on
readings that cross both nights the clocks change and local midnights, for buckets of 1, 3 and
24 hours."""

from __future__ import annotations

import duckdb
import pytest

from assets.common import schema_ddl
from outfall.flow_hours import ensure_flow_hours, flow_gap_steps
from outfall.rules import local_timezone
from outfall.slug_context import refresh_slug_context
from outfall.warehouse import configure, ensure_schema, sql

PER_READING_MEANS = """
SELECT user_id, constituent, time_bucket(to_hours(CAST($hours AS BIGINT)), timezone($tz, ts)) AS ts,
       avg(value) AS value
FROM flow WHERE user_id = $user_id AND value IS NOT NULL GROUP BY ALL ORDER BY 1, 2, 3"""
# the days a user discharged (contract 6.5): readings of flow above 0 (the fixture has zeros and NULLs)
PER_READING_DAYS = (
    "SELECT user_id, ts::DATE AS day, count(*) FROM flow WHERE constituent = 'flow' AND value > 0 "
    "GROUP BY ALL ORDER BY ALL"
)
PER_READING_YEARS = "SELECT DISTINCT user_id, year(ts::DATE) FROM flow ORDER BY ALL"


@pytest.fixture(scope="module")
def con():
    con = duckdb.connect()
    configure(con, timezone=local_timezone())
    ensure_schema(con, schema_ddl())
    # 7-minute readings (they straddle hour and bucket edges) from 30 Oct 2026 (the fall-back night
    # is 1 Nov) to 10 Jan 2027, and from 6 to 10 March 2026 (spring forward on 8 March)
    con.execute("""
        INSERT INTO flow (user_id, constituent, ts, value, unit)
        SELECT u, 'flow', start + to_minutes(7 * i),
               CASE WHEN i % 31 = 0 THEN NULL ELSE (i % 17) * 0.25 END, 'gpm'
        FROM (VALUES ('IU-1', TIMESTAMPTZ '2026-10-30 00:00:00-04', 72 * 24 * 60 // 7),
                     ('IU-2', TIMESTAMPTZ '2026-03-06 00:00:00-05', 4 * 24 * 60 // 7)) t(u, start, n),
             range(n) r(i)""").fetchall()
    yield con
    con.close()


def _sql(name: str) -> str:
    return "\n".join(line for line in sql(name).splitlines() if not line.strip().startswith("--"))


@pytest.mark.parametrize("hours", [1, 3, 24])
@pytest.mark.parametrize("user", ["IU-1", "IU-2"])
def test_bucket_means_equal_the_per_reading_means(con, user, hours):
    # the page's means come from the hourly summaries (their value sums and counts, NULLs left out)
    ensure_flow_hours(con)
    drawn = con.execute(
        _sql("select_dashboard_flow"),
        {
            "user_ids": [user],
            "constituents": ["flow"],
            "hours": [hours],
            "tz": local_timezone(),
            "with_readings": False,
            "max_readings": 0,
        },
    ).fetchall()
    new = [(user, "flow", ts, value) for series, kind, ts, value in drawn]
    assert {(series, kind) for series, kind, _, _ in drawn} == {(0, 0)}  # the one series' means
    old = con.execute(PER_READING_MEANS, {"user_id": user, "hours": hours, "tz": local_timezone()}).fetchall()
    assert [r[:3] for r in new] == [r[:3] for r in old] and len(new) >= 5
    assert all(a[3] == pytest.approx(b[3], rel=1e-12, abs=1e-12) for a, b in zip(new, old))


def test_days_with_readings_equal_the_per_reading_days(con):
    ensure_flow_hours(con)
    con.execute(_sql("create_user_activity_days"), {"as_of": "2027-12-31"}).fetchall()
    new = con.execute("SELECT user_id, day, flow_readings FROM _activity ORDER BY ALL").fetchall()
    assert new == con.execute(PER_READING_DAYS).fetchall()
    # the fall-back day has 25 hours of readings, the spring-forward day 23
    days = {(u, str(d)): n for u, d, n in new}
    assert days[("IU-1", "2026-11-01")] > days[("IU-1", "2026-11-02")] > 0
    assert days[("IU-2", "2026-03-08")] < days[("IU-2", "2026-03-07")]


def test_years_with_readings_equal_the_per_reading_years(con):
    ensure_flow_hours(con)
    new = con.execute(
        "SELECT DISTINCT user_id, year(make_timestamptz(h * 3600000000)::DATE) FROM _flow_hours ORDER BY ALL"
    ).fetchall()
    assert (
        new == con.execute(PER_READING_YEARS).fetchall() == [("IU-1", 2026), ("IU-1", 2027), ("IU-2", 2026)]
    )
    assert (
        "year(make_timestamptz(h * 3600000000)::DATE) AS year FROM (SELECT DISTINCT h FROM _flow_hours)"
        in sql("insert_pretreatment_annual_report")
    )


def test_readings_near_a_slug_in_the_fall_back_hour_come_in_the_order_they_were_taken(con):
    """Regression: two readings of the fall-back hour share a local time, and the page listed them
    in whichever order the query's threads gave (a year of readings rendered two different pages).
    The query gives the readings in the order taken; the page's stable sort by local time keeps
    that order between the two readings of each repeated minute."""
    import numpy as np

    from dashboards.sewer_flow import _by_time

    con.execute(
        "INSERT INTO flow (user_id, constituent, ts, value, unit) SELECT 'IU-3', 'flow', "
        "TIMESTAMPTZ '2026-11-01 00:00:00-04' + to_minutes(5 * i), 100 - i, 'gpm' FROM range(48) r(i)"
    ).fetchall()
    con.execute(
        "INSERT INTO slug_events (user_id, constituent, start_at, end_at) VALUES "
        "('IU-3', 'flow', TIMESTAMPTZ '2026-11-01 01:00:00-04', TIMESTAMPTZ '2026-11-01 01:55:00-05')"
    ).fetchall()
    try:
        refresh_slug_context(con, pad_hours=0)
        drawn = con.execute(
            _sql("select_dashboard_flow"),
            {
                "user_ids": ["IU-3"],
                "constituents": ["flow"],
                "hours": [1],
                "tz": local_timezone(),
                "with_readings": True,
                "max_readings": 10_000,
            },
        ).fetchall()
        got = [("IU-3", "flow", ts, value) for series, kind, ts, value in drawn if kind == 1]
        taken = con.execute(
            "SELECT user_id, constituent, timezone($tz, ts), value FROM flow WHERE user_id = 'IU-3' "
            "AND ts BETWEEN TIMESTAMPTZ '2026-11-01 01:00:00-04' AND TIMESTAMPTZ '2026-11-01 01:55:00-05' "
            "ORDER BY ts",
            {"tz": local_timezone()},
        ).fetchall()
    finally:
        con.execute("DELETE FROM slug_events").fetchall()
        con.execute("DELETE FROM _slug_event_readings").fetchall()
        con.execute("DELETE FROM flow WHERE user_id = 'IU-3'").fetchall()
    expected = sorted(taken, key=lambda r: r[2])  # stable: readings of one local time in the order taken
    assert len(taken) == 24 and len({r[2] for r in taken}) == 12  # each local time twice
    assert got == taken
    drawn_order = _by_time(np.array([r[2] for r in got], dtype="datetime64[ns]"))
    assert [got[i] for i in drawn_order] == expected


# ---------------------------------------------------------------------------
# the hourly summaries of flow (outfall/flow_hours.py): the gap check read from them equals the
# query over every reading, and a refresh of the touched hours equals making them all again


# The gap check over every reading (this project's query before the summaries), the oracle.
GAPS_OVER_EVERY_READING = """
WITH steps AS (
    SELECT user_id, constituent, ts, lag(ts) OVER (PARTITION BY user_id, constituent ORDER BY ts) AS prev_ts
    FROM flow WHERE ts IS NOT NULL
), gaps AS (SELECT user_id, constituent, ts, prev_ts, epoch_us(ts) - epoch_us(prev_ts) AS gap_us FROM steps)
SELECT user_id, constituent, count(*), min(ts), max(ts), quantile_cont(gap_us, 0.5) / 1e6, max(gap_us) / 1e6,
       arg_max(prev_ts, [gap_us, -epoch_us(ts)]) FILTER (WHERE gap_us IS NOT NULL),
       arg_max(ts, [gap_us, -epoch_us(ts)]) FILTER (WHERE gap_us IS NOT NULL),
       count(*) FILTER (WHERE gap_us > CAST($max_gap_seconds AS BIGINT) * 1000000)
FROM gaps GROUP BY user_id, constituent
ORDER BY 7 DESC NULLS LAST, user_id, constituent"""


def _summaries(con) -> tuple[list, list]:
    return (
        con.execute("SELECT * FROM _flow_hours ORDER BY ALL").fetchall(),
        con.execute("SELECT * FROM _flow_hour_steps ORDER BY ALL").fetchall(),
    )


def _rebuilt(con) -> tuple[list, list]:
    """The summaries made again from nothing, on the same flow."""
    con.execute("DELETE FROM _flow_hours_state").fetchall()
    con.execute("DELETE FROM _flow_hours").fetchall()
    con.execute("DELETE FROM _flow_hour_steps").fetchall()
    assert ensure_flow_hours(con) == "rebuilt"
    return _summaries(con)


@pytest.fixture
def meters():
    con = duckdb.connect()
    configure(con, timezone=local_timezone())
    ensure_schema(con, schema_ddl())
    # irregular steps (1 to 9 minutes), a reading repeated at one time (a step of 0), a silent
    # day, the fall-back night, a series with one reading, readings without a value
    con.execute("""
        INSERT INTO flow (user_id, constituent, ts, value, unit, loaded_at)
        SELECT 'IU-1', 'flow', TIMESTAMPTZ '2026-10-31 00:00:00-04' + to_minutes(i * 5 + (i * 7) % 4),
               CASE WHEN i % 11 = 0 THEN NULL ELSE 1.0 END, 'gpm', TIMESTAMPTZ '2026-11-03 08:00:00-05'
        FROM range(900) r(i) WHERE i NOT BETWEEN 400 AND 700
        UNION ALL SELECT 'IU-1', 'flow', TIMESTAMPTZ '2026-10-31 00:20:00-04', 2.0, 'gpm',
               TIMESTAMPTZ '2026-11-03 08:00:00-05'
        UNION ALL SELECT 'IU-1', 'pH', TIMESTAMPTZ '2026-10-31 00:00:00-04' + to_minutes(15 * i), 7.0, 's.u.',
               TIMESTAMPTZ '2026-11-03 08:00:00-05' FROM range(300) r(i)
        UNION ALL SELECT 'IU-2', 'flow', TIMESTAMPTZ '2026-11-01 01:30:00-05', 3.0, 'gpm',
               TIMESTAMPTZ '2026-11-03 08:00:00-05'
        """).fetchall()
    yield con
    con.close()


def test_the_gap_check_from_the_summaries_equals_the_query_over_every_reading(meters):
    assert ensure_flow_hours(meters) == "rebuilt"
    assert flow_gap_steps(meters) == "made"
    params = {"max_gap_seconds": 3600}
    got = meters.execute(_sql("check_freshness_flow_gaps"), params).fetchall()
    want = meters.execute(GAPS_OVER_EVERY_READING, params).fetchall()
    assert got == want
    assert [r[:3] for r in got][-1] == ("IU-2", "flow", 1)  # one reading: no step
    assert got[0][0:2] == ("IU-1", "flow") and got[0][9] == 1  # the silent day, over the hour given


def test_a_second_look_with_nothing_new_does_nothing(meters):
    assert ensure_flow_hours(meters) == "rebuilt"
    assert ensure_flow_hours(meters) == "current"


def test_new_readings_and_a_corrected_one_remake_only_their_hours_and_equal_a_rebuild(meters):
    ensure_flow_hours(meters)
    before = meters.execute("SELECT count(*) FROM _flow_hours").fetchall()[0][0]
    # a day more, and one reading of the first day corrected (superseded: same time, a later load)
    meters.execute("""
        INSERT INTO flow (user_id, constituent, ts, value, unit, loaded_at)
        SELECT 'IU-1', 'flow', TIMESTAMPTZ '2026-11-05 00:00:00-05' + to_minutes(3 * i), 1.5, 'gpm',
               TIMESTAMPTZ '2026-11-06 08:00:00-05' FROM range(480) r(i)""").fetchall()
    meters.execute(
        "UPDATE flow SET value = 9.0, loaded_at = TIMESTAMPTZ '2026-11-06 08:00:00-05' "
        "WHERE user_id = 'IU-1' AND constituent = 'pH' AND ts = TIMESTAMPTZ '2026-10-31 03:00:00-04'"
    ).fetchall()
    assert ensure_flow_hours(meters) == "touched"
    touched = _summaries(meters)
    assert len(touched[0]) == before + 24
    assert touched == _rebuilt(meters)


def test_readings_removed_make_every_summary_again(meters):
    ensure_flow_hours(meters)
    # a file re-sent without some of its readings: they are deleted and the rest loaded again
    meters.execute(
        "DELETE FROM flow WHERE user_id = 'IU-1' AND constituent = 'flow' "
        "AND ts < TIMESTAMPTZ '2026-10-31 06:00:00-04'"
    ).fetchall()
    meters.execute(
        "UPDATE flow SET loaded_at = TIMESTAMPTZ '2026-11-07 08:00:00-05' "
        "WHERE user_id = 'IU-1' AND constituent = 'flow' AND ts < TIMESTAMPTZ '2026-10-31 09:00:00-04'"
    ).fetchall()
    assert ensure_flow_hours(meters) == "rebuilt"
    assert _summaries(meters) == _rebuilt(meters)
    assert flow_gap_steps(meters) == "made"
    got = meters.execute(_sql("check_freshness_flow_gaps"), {"max_gap_seconds": 3600}).fetchall()
    assert got == meters.execute(GAPS_OVER_EVERY_READING, {"max_gap_seconds": 3600}).fetchall()


# ---------------------------------------------------------------------------
# the gap check's steps: made once, then only the hours appended since are added


def _gaps(con, hours: int = 1) -> list:
    flow_gap_steps(con)
    return con.execute(_sql("check_freshness_flow_gaps"), {"max_gap_seconds": hours * 3600}).fetchall()


def _load_straight(tmp_path, con, name: str, rows_sql: str) -> None:
    """A Parquet file of flow readings loaded as outfall run loads it (straight in, its hours kept)."""
    import datetime as dt

    from outfall.ingest.datasets import DATASETS
    from outfall.ingest.engine import ingest_dataset
    from outfall.warehouse import transaction
    from tests.ingesting import CTX

    folder = tmp_path / "data" / "flow"
    folder.mkdir(parents=True, exist_ok=True)
    con.execute(f"COPY ({rows_sql}) TO '{folder / name}' (FORMAT parquet)").fetchall()
    with transaction(con):
        report = ingest_dataset(con, DATASETS["flow"], tmp_path / "data", CTX, dt.datetime.now(dt.UTC))
    assert report.files_loaded == 1 and report.rows_quarantined == 0


DAY_OF_READINGS = """SELECT u AS user_id,
       TIMESTAMPTZ '{day} 00:00:00-05' + to_minutes({step} * i) + to_seconds((i * 7) % 30) AS timestamp,
       1.0 + i % 5 AS value, 'gpm' AS unit
FROM (VALUES ('IU-1'), ('IU-2')) t(u), range({n}) r(i)"""


def test_days_appended_add_only_their_steps_and_equal_the_query_over_every_reading(tmp_path):
    """Each day loaded straight adds its hours after every series' last: the gap check's steps get
    only theirs (the step across midnight included), and equal the query over every reading; a
    month sent late (hours before a series' last), a new meter and a re-send make them anew."""
    con = configure(duckdb.connect(str(tmp_path / "w.duckdb")), timezone=local_timezone())
    ensure_schema(con, schema_ddl())
    _load_straight(tmp_path, con, "d1.parquet", DAY_OF_READINGS.format(day="2026-11-02", step=2, n=700))
    assert flow_gap_steps(con) == "made"
    want = lambda: con.execute(GAPS_OVER_EVERY_READING, {"max_gap_seconds": 3600}).fetchall()  # noqa: E731
    assert _gaps(con) == want()
    # the next days: the first ends early (a gap over the hour across midnight), the second is regular
    _load_straight(tmp_path, con, "d2.parquet", DAY_OF_READINGS.format(day="2026-11-03", step=1, n=1440))
    _load_straight(tmp_path, con, "d3.parquet", DAY_OF_READINGS.format(day="2026-11-04", step=3, n=480))
    assert flow_gap_steps(con) == "appended"
    assert _gaps(con) == want() and _gaps(con, hours=24) == want_at(con, 24)
    assert flow_gap_steps(con) == "current"
    # a day before the first: made anew, and the same as over every reading
    _load_straight(tmp_path, con, "d0.parquet", DAY_OF_READINGS.format(day="2026-11-01", step=5, n=200))
    assert flow_gap_steps(con) == "made" and _gaps(con) == want()
    # a new meter
    _load_straight(
        tmp_path,
        con,
        "d5.parquet",
        DAY_OF_READINGS.format(day="2026-11-05", step=4, n=300).replace(
            "('IU-1'), ('IU-2')", "('IU-1'), ('IU-2'), ('IU-3')"
        ),
    )
    assert flow_gap_steps(con) == "made" and _gaps(con) == want()
    _load_straight(
        tmp_path,
        con,
        "d6.parquet",
        DAY_OF_READINGS.format(day="2026-11-06", step=2, n=600).replace(
            "('IU-1'), ('IU-2')", "('IU-1'), ('IU-2'), ('IU-3')"
        ),
    )
    assert flow_gap_steps(con) == "appended" and _gaps(con) == want()
    # a file re-sent with its first readings corrected: their hours made again, the steps anew
    _load_straight(
        tmp_path,
        con,
        "d6.parquet",
        DAY_OF_READINGS.format(day="2026-11-06", step=2, n=100)
        .replace("('IU-1'), ('IU-2')", "('IU-1'), ('IU-2'), ('IU-3')")
        .replace("1.0 + i % 5", "9.0"),
    )
    assert flow_gap_steps(con) == "made" and _gaps(con) == want()
    con.close()


def want_at(con, hours: int) -> list:
    return con.execute(GAPS_OVER_EVERY_READING, {"max_gap_seconds": hours * 3600}).fetchall()


def test_a_flow_table_not_made_by_outfall_is_named():
    con = duckdb.connect()
    con.execute("CREATE VIEW flow AS SELECT 'x' AS reading").fetchall()
    with pytest.raises(RuntimeError, match="the flow table lacks the column"):
        ensure_flow_hours(con)


def test_summaries_of_an_older_layout_are_made_again(tmp_path):
    """Summaries of an older Outfall (fewer columns) are dropped and made again from flow when the
    warehouse is upgraded, not given empty columns that would read as if no step were there."""
    from outfall.warehouse import SCHEMA_MARKER, table_columns

    con = configure(duckdb.connect(str(tmp_path / "w.duckdb")), timezone=local_timezone())
    ensure_schema(con, schema_ddl())
    con.execute(
        "INSERT INTO flow (user_id, constituent, ts, value, unit, loaded_at) SELECT 'IU-1', 'flow', "
        "TIMESTAMPTZ '2026-05-01 00:00:00-04' + to_minutes(15 * i), 2.0, 'gpm', now() FROM range(200) r(i)"
    ).fetchall()
    assert ensure_flow_hours(con) == "rebuilt"
    con.execute("ALTER TABLE _flow_hours DROP COLUMN last_us").fetchall()  # as an older Outfall made it
    con.execute(f"UPDATE {SCHEMA_MARKER} SET digest = 'older'").fetchall()
    ensure_schema(con, schema_ddl())
    assert "last_us" in table_columns(con, "_flow_hours")
    assert ensure_flow_hours(con) == "rebuilt"
    assert con.execute("SELECT sum(readings), count(last_us) FROM _flow_hours").fetchall() == [(200, 50)]
    con.close()


def test_summaries_made_before_the_count_of_readings_above_zero_are_made_again(tmp_path):
    """A warehouse whose summaries were made before they counted the readings above 0 (the days a user
    discharged, contract 6.5) gets them made again, never a NULL count that would read as no discharge."""
    from outfall.warehouse import SCHEMA_MARKER, table_columns

    con = configure(duckdb.connect(str(tmp_path / "w.duckdb")), timezone=local_timezone())
    ensure_schema(con, schema_ddl())
    # 200 readings of 15 minutes from May 1: every fifth is 0
    con.execute(
        "INSERT INTO flow (user_id, constituent, ts, value, unit, loaded_at) SELECT 'IU-1', 'flow', "
        "TIMESTAMPTZ '2026-05-01 00:00:00-04' + to_minutes(15 * i), CASE WHEN i % 5 = 0 THEN 0 ELSE 2.0 END, "
        "'gpm', now() FROM range(200) r(i)"
    ).fetchall()
    assert ensure_flow_hours(con) == "rebuilt"
    con.execute("ALTER TABLE _flow_hours DROP COLUMN positive").fetchall()  # as the previous Outfall made it
    con.execute(f"UPDATE {SCHEMA_MARKER} SET digest = 'older'").fetchall()
    ensure_schema(con, schema_ddl())
    assert "positive" in table_columns(con, "_flow_hours")
    assert ensure_flow_hours(con) == "rebuilt"
    assert con.execute(
        "SELECT sum(readings), sum(positive), count(*) - count(positive) FROM _flow_hours"
    ).fetchall() == [(200, 160, 0)]
    con.close()
