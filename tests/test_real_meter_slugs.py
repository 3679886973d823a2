"""The real 15-minute sewer flow meter (2008, data/real/sewer_flow_monitor_15min_2008.csv)
through the path: contract flow file -> ingestion -> slug_events. Its storm days
must surface as high-flow runs.

The expected count is computed here, independently of the implementation: a
plain-Python reading of contract section 4 straight over the raw CSV (local
clock America/New_York, Flow_mgd), with the meter's documented 15-minute step as
the usual interval. It finds 7 runs of readings above 5 x the baseline, 6 of
them longer than 15 minutes: on 2008-03-04 (2), 03-19, 04-03 and 04-04 (2), the
storm days (daily means 4.2 to 7.9 MGD against a dry-weather baseline of
1.1 to 1.9 MGD); the 7th is a single reading (15 minutes, not a slug).
"""

import csv
import datetime as dt
import statistics
from pathlib import Path
from zoneinfo import ZoneInfo

import duckdb
import pytest
from dagster_duckdb import DuckDBResource

from outfall.paths import REAL_DATA_DIR
from outfall.resources import OutfallSettings
from outfall.rules import local_timezone
from outfall.warehouse import configure
from tests.conftest import materialize

NY = ZoneInfo("America/New_York")
UTC = dt.UTC
CSV = REAL_DATA_DIR / "sewer_flow_monitor_15min_2008.csv"
EXPECTED_SLUGS = 6
EXPECTED_RUNS = 7
STORM_DAYS = {dt.date(2008, 3, 4), dt.date(2008, 3, 19), dt.date(2008, 4, 3), dt.date(2008, 4, 4)}


def independent_reading(path: Path = CSV):
    """Contract section 4 over the raw CSV, in plain Python (no project code)."""
    readings = []
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            # local clock; the four clock times that do not exist (2008-03-09 02:00-02:45)
            # are read as standard time (zoneinfo fold=0), as the flow adapter reads them
            local = dt.datetime(
                int(r["Year"]), int(r["Month"]), int(r["Day"]), int(r["Hour"]), int(r["Minute"]), tzinfo=NY
            )
            readings.append((local.astimezone(UTC), float(r["Flow_mgd"]) * 1e6 / 1440))  # gpm
    readings.sort()
    by_day: dict = {}
    for t, v in readings:
        by_day.setdefault(t.astimezone(NY).date(), []).append(v)
    means = {day: sum(v) / len(v) for day, v in by_day.items()}
    baseline = {}
    for day in means:
        prior = [means[x] for x in means if day - dt.timedelta(days=30) <= x <= day - dt.timedelta(days=1)]
        baseline[day] = statistics.median(prior) if len(prior) >= 7 else None
    runs, run, prev = [], [], None
    for t, v in readings:
        b = baseline[t.astimezone(NY).date()]
        high = b is not None and v > 5 * b
        if high and prev is not None and prev[1] and (t - prev[0]).total_seconds() <= 1.5 * 900:
            run.append(t)
        else:
            if run:
                runs.append(run)
            run = [t] if high else []
        prev = (t, high)
    if run:
        runs.append(run)
    slugs = [(r[0], r[-1]) for r in runs if (r[-1] - r[0]).total_seconds() + 900 > 15 * 60]
    return runs, slugs


def test_independent_reading_of_the_raw_csv():
    runs, slugs = independent_reading()
    assert len(runs) == EXPECTED_RUNS and len(slugs) == EXPECTED_SLUGS
    assert {a.astimezone(NY).date() for a, _ in slugs} == STORM_DAYS


def flow_frame():
    """Contract flow rows of the meter: the project's adapter when it is there, else read here."""
    try:
        from outfall.demo.real import flow_monitor
    except ImportError:  # pragma: no cover - until outfall/demo/real.py lands
        flow_monitor = None
    if flow_monitor is not None:
        return flow_monitor(None, "IU-METER", 2008)
    import pandas as pd

    rows = []
    with open(CSV, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            local = dt.datetime(
                int(r["Year"]), int(r["Month"]), int(r["Day"]), int(r["Hour"]), int(r["Minute"]), tzinfo=NY
            )
            rows.append(
                {
                    "user_id": "IU-METER",
                    "timestamp": local.astimezone(UTC).isoformat(),
                    "value": float(r["Flow_mgd"]),
                    "unit": "mgd",
                    "constituent": "flow",
                }
            )
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def meter_warehouse(tmp_path_factory) -> Path:
    from assets.ingest import ingest_assets
    from assets.sewer.compliance import slug_events

    root = tmp_path_factory.mktemp("meter")
    data = root / "data"
    (data / "flow").mkdir(parents=True)
    (data / "industrial_users").mkdir(parents=True)
    flow_frame().to_csv(data / "flow" / "meter_2008.csv", index=False)
    (data / "industrial_users" / "users.csv").write_text(
        "user_id,name,district,address,permit_no,permit_effective,permit_expires,normal_avg_flow_gpd\n"
        "IU-METER,Sewer flow monitor,consolidated,,,,,\n",
        encoding="utf-8",
    )
    db = root / "w.duckdb"
    wanted = list(ingest_assets)
    result = materialize(
        [*wanted, slug_events],
        resources={
            "duckdb": DuckDBResource(database=str(db)),
            "settings": OutfallSettings(data_dir=str(data), as_of="2026-06-30"),
        },
    )
    assert result.success
    return db


def test_storm_days_surface_as_slugs(meter_warehouse: Path):
    with duckdb.connect(str(meter_warehouse), read_only=True) as con:
        configure(con, timezone=local_timezone())
        kept = con.execute("SELECT count(*) FROM flow").fetchone()[0]
        events = con.execute(
            "SELECT start_at, end_at, duration_min, baseline, peak_ratio, unit FROM slug_events "
            "ORDER BY start_at"
        ).fetchall()
        gaps = con.execute("SELECT days_lacking, first_day FROM slug_baseline_gaps").fetchall()
    assert kept >= 7191  # 7,195 rows; the adapter's four repeated instants may be merged
    _, slugs = independent_reading()
    assert len(events) == EXPECTED_SLUGS
    assert [(a.astimezone(UTC), b.astimezone(UTC)) for a, b, *_ in events] == slugs
    assert {a.astimezone(NY).date() for a, *_ in events} == STORM_DAYS
    assert all(m > 15 and r > 5 and u == "gpm" for *_, m, _, r, u in events)
    # the meter's first 7 days have no baseline: reported, not silently skipped
    assert gaps == [(7, dt.date(2008, 2, 16))]
