"""Real rainfall drives a season of storm inspections.

NOAA GHCN-Daily, Albany International Airport (USW00014735): PRCP in mm,
values padded with blanks (skipinitialspace), -9999 = missing; 0.5 in = 12.7 mm.
The number of storm requirements must equal the number of days with
PRCP >= 12.7 mm in the active window, counted here straight from the file.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest
from dagster_duckdb import DuckDBResource

from assets import ingest as ingest_assets
from assets.stormwater import swppp as sw
from outfall.law import swppp as law
from outfall.paths import REAL_DATA_DIR
from outfall.resources import OutfallSettings
from outfall.rules import RulesError, load_rules
from tests.conftest import materialize

NOAA = REAL_DATA_DIR / "ghcnd_USW00014735_albany_ny_daily.csv"
GAUGE_15MIN = REAL_DATA_DIR / "rain_gauge_15min_2008.csv"
W = load_rules("woodbury")
B = load_rules("bellport")
MM_PER_IN = 25.4
START = dt.date(2014, 4, 1)  # the 2014 season holds a day of exactly 12.7 mm (2014-10-21)
AS_OF = dt.date(2014, 11, 30)


@pytest.fixture(scope="module")
def noaa() -> pd.DataFrame:
    frame = pd.read_csv(NOAA, skipinitialspace=True)
    frame["date"] = pd.to_datetime(dict(year=frame.YYYY, month=frame.MM, day=frame.DD)).dt.date
    return frame


def season(noaa: pd.DataFrame, first: dt.date, last: dt.date) -> pd.DataFrame:
    window = noaa[(noaa.date >= first) & (noaa.date <= last)]
    return window[window.PRCP != -9999]


def weekly_visits(first: dt.date, last: dt.date, every: int = 7) -> list[dt.date]:
    out, d = [], first + dt.timedelta(days=every)
    while d <= last:
        out.append(d)
        d += dt.timedelta(days=every)
    return out


def test_storm_requirements_equal_days_of_127_mm_or_more(noaa):
    window = season(noaa, START, AS_OF)
    expected_days = sorted(window.loc[window.PRCP >= 12.7, "date"])
    assert dt.date(2014, 10, 21) in expected_days  # exactly 12.7 mm is a storm
    assert len(expected_days) == int((window.PRCP >= 12.7).sum()) > 10
    rainfall = dict(zip(window.date, window.PRCP / MM_PER_IN))
    visits = weekly_visits(START, AS_OF)
    for rules in (W, B):
        reqs = law.storm_requirements(START, None, visits, rainfall, AS_OF, rules)
        assert len(reqs) == len(expected_days)
        assert [r.trigger_date for r in reqs] == expected_days
        # Independently: a storm is met when a weekly visit falls on D or D + 1.
        visit_set = set(visits)
        met = [d for d in expected_days if d in visit_set or d + dt.timedelta(days=1) in visit_set]
        assert sum(r.status == "met" for r in reqs) == len(met)
        assert len(law.storm_findings(START, None, visits, rainfall, AS_OF, rules)) == len(
            expected_days
        ) - len(met)
        # weekly visits exactly 7 days apart: never a weekly finding
        assert law.weekly_findings(START, None, visits, AS_OF, rules) == []


def test_missing_values_are_not_rain(noaa):
    window = noaa[(noaa.date >= dt.date(1942, 1, 1)) & (noaa.date <= dt.date(1942, 1, 31))]
    assert (window.PRCP == -9999).sum() == 1
    kept = window[window.PRCP != -9999]
    # Judged by the storm threshold of today's rules (the 1942 days lie before any version of them:
    # the law functions refuse to judge those, see the next lines), on the same days of January 2024.
    in_2024 = [d.replace(year=2024) for d in kept.date]
    days = law.storm_days(zip(in_2024, kept.PRCP / MM_PER_IN), dt.date(2024, 1, 1), dt.date(2024, 1, 31), W)
    assert len(days) == int((kept.PRCP >= 12.7).sum())
    with pytest.raises(RulesError, match="no entry in effect on 1942-01-01"):
        law.storm_days(zip(kept.date, kept.PRCP / MM_PER_IN), dt.date(1942, 1, 1), dt.date(1942, 1, 31), W)


def test_fifteen_minute_gauge_summed_to_local_days():
    frame = pd.read_csv(GAUGE_15MIN, skipinitialspace=True)
    frame["date"] = pd.to_datetime(dict(year=frame.Year, month=frame.Month, day=frame.Day)).dt.date
    rain = "Rain (inch)"
    hundredths = (frame[rain] * 100).round().astype(int).groupby(frame["date"]).sum()
    expected = sorted(hundredths[hundredths >= 50].index)  # exact: in hundredths of an inch
    got = law.storm_days(zip(frame["date"], frame[rain]), frame["date"].min(), frame["date"].max(), W)
    assert got == expected
    assert dt.date(2008, 4, 3) in got and dt.date(2008, 4, 4) in got


def _write_inputs(root: Path, window: pd.DataFrame, visits: list[dt.date], sub_daily: bool) -> Path:
    data = root / "data"
    for folder in ("sites", "inspections", "rainfall"):
        (data / folder).mkdir(parents=True)
    (data / "sites" / "sites.csv").write_text(
        "site_id,jurisdiction,disturbed_acres,construction_start,rain_gauge_id,name,applicant\n"
        f"W-ALB,woodbury,3,{START},USW00014735,Albany Woodbury,Builder\n"
        f"B-ALB,bellport,3,{START},usw00014735 ,Albany Bellport,Builder\n"
    )
    (data / "inspections" / "inspections.csv").write_text(
        "site_id,inspected_at,inspector,kind\n"
        + "".join(f"{s},{d}T10:00,QP,routine\n" for s in ("W-ALB", "B-ALB") for d in visits)
    )
    lines = ["gauge_id,date,precip_in"]
    for d, mm in zip(window.date, window.PRCP):
        inches = mm / MM_PER_IN
        if sub_daily:  # two readings a day, local clock time, summed back to the day
            lines += [f"USW00014735,{d}T06:00,{inches / 2!r}", f"USW00014735,{d}T18:00,{inches / 2!r}"]
        else:
            lines.append(f"USW00014735,{d},{inches!r}")
    (data / "rainfall" / "noaa.csv").write_text("\n".join(lines) + "\n")
    return data


@pytest.mark.parametrize("sub_daily", [False, True])
def test_a_season_of_inspections_through_the_assets(noaa, tmp_path, sub_daily):
    window = season(noaa, START, AS_OF)
    storm_days = sorted(window.loc[window.PRCP >= 12.7, "date"])
    # Visits every 9 days: weekly findings too, and many storms missed.
    visits = weekly_visits(START, AS_OF, every=9)
    data = _write_inputs(tmp_path, window, visits, sub_daily)
    selected = list(ingest_assets.ingest_assets)
    result = materialize(
        selected + [sw.site_classification, sw.swppp_inspection_findings],
        resources={
            "duckdb": DuckDBResource(database=str(tmp_path / "w.duckdb")),
            "settings": OutfallSettings(data_dir=str(data), as_of=str(AS_OF)),
        },
    )
    assert result.success
    meta = result.asset_materializations_for_node("swppp_inspection_findings")[0].metadata
    # Condition C (3 acres) in Bellport, 1 acre or more in Woodbury: both sites judged.
    assert meta["sites_judged"].value == 2
    assert meta["storm_requirements"].value == 2 * len(storm_days)

    import duckdb

    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    storms = con.execute(
        "SELECT site_id, trigger_date, status, satisfied_on FROM swppp_inspection_findings "
        "WHERE requirement = 'storm' ORDER BY site_id, trigger_date"
    ).fetchall()
    weekly = con.execute(
        "SELECT count(*) FROM swppp_inspection_findings WHERE requirement = 'weekly'"
    ).fetchall()
    con.close()

    visit_set = set(visits)
    missed = [d for d in storm_days if d not in visit_set and d + dt.timedelta(days=1) not in visit_set]
    assert [(s, d) for s, d, _, _ in storms] == [(s, d) for s in ("B-ALB", "W-ALB") for d in missed]
    for _, d, status, satisfied in storms:
        later = [v for v in visits if v > d + dt.timedelta(days=1)]
        if later:
            assert (status, satisfied) == ("late", later[0])
        else:
            assert (status, satisfied) == ("overdue", None)
    # every 9-day gap is one late weekly inspection per site
    assert weekly[0][0] == 2 * len(visits) + 2 * (AS_OF > visits[-1] + dt.timedelta(days=7))
