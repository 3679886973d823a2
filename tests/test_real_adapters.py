"""The adapters from the bundled real records to the contract's input format (outfall.demo.real)."""

from __future__ import annotations

import csv
from datetime import date, timedelta

import pandas as pd
import pytest

from outfall.demo import real

RAINFALL = ["gauge_id", "date", "precip_in"]
FLOW = ["user_id", "timestamp", "value", "unit", "constituent"]
LAB = [
    "sample_id",
    "user_id",
    "collected_at",
    "sample_type",
    "parameter",
    "result",
    "unit",
    "mdl",
    "lab",
    "method",
]


def _noaa_rows(year: int) -> list[dict]:
    with open(real.REAL_DIR / real.NOAA_FILE, newline="") as fh:
        return [r for r in csv.DictReader(fh, skipinitialspace=True) if int(r["YYYY"]) == year]


# ------------------------------------------------------------------ NOAA


def test_noaa_every_day_of_the_source_year_in_inches():
    df = real.noaa_rainfall(None, "ALB-1", date(2026, 1, 1), date(2026, 12, 31), 2026 - 2017)
    source = _noaa_rows(2017)
    present = [r for r in source if float(r["PRCP"]) != -9999.0]
    assert list(df.columns) == RAINFALL
    assert len(df) == len(present) == 365
    assert df["date"].iloc[0] == "2026-01-01" and df["date"].iloc[-1] == "2026-12-31"
    assert df["date"].is_unique and (df["gauge_id"] == "ALB-1").all()
    # every value is the real day's mm / 25.4, rounded to hundredths
    expected = {f"2026-{r['MM']}-{r['DD']}": round(float(r["PRCP"]) / 25.4, 2) for r in present}
    assert dict(zip(df["date"], df["precip_in"])) == pytest.approx(expected)


def test_noaa_12_7_mm_is_half_an_inch():
    # 2015-06-09 has PRCP 12.7 mm in the Albany record
    df = real.noaa_rainfall(None, "ALB-1", date(2026, 6, 9), date(2026, 6, 9), 11)
    assert df.to_dict("records") == [{"gauge_id": "ALB-1", "date": "2026-06-09", "precip_in": 0.5}]


def test_noaa_missing_day_is_dropped_not_zero():
    # 1942-01-15 has PRCP -9999 (the only missing PRCP in the file)
    df = real.noaa_rainfall(None, "G", date(2026, 1, 1), date(2026, 12, 31), 2026 - 1942)
    assert "2026-01-15" not in set(df["date"])
    assert {"2026-01-14", "2026-01-16"} <= set(df["date"])
    assert len(df) == 364


def test_noaa_29_february(tmp_path):
    path = tmp_path / "noaa.csv"
    path.write_text(
        "YYYY,MM,DD,TMAX,TMIN,PRCP,SNOW,SNWD\n"
        "2016,02,28,   1.0,   0.0,    12.7,    0.0,    0.0\n"
        "2016,02,29,   1.0,   0.0,    25.4,    0.0,    0.0\n"
        "2016,03,01,   1.0,   0.0,-9999.0,    0.0,    0.0\n"
    )
    into_leap = real.noaa_rainfall(path, "G", date(2028, 1, 1), date(2028, 12, 31), 12)
    assert into_leap["date"].tolist() == ["2028-02-28", "2028-02-29"]
    assert into_leap["precip_in"].tolist() == [0.5, 1.0]
    into_common = real.noaa_rainfall(path, "G", date(2026, 1, 1), date(2026, 12, 31), 10)
    assert into_common["date"].tolist() == ["2026-02-28"]  # 29 Feb dropped, not merged
    assert real.noaa_source_year(2026) == 2017 and real.noaa_source_year(2028) == 2016


# ------------------------------------------------------------ flow monitor


@pytest.fixture(scope="module")
def flow() -> pd.DataFrame:
    return real.flow_monitor(None, "IU-019", 2026)


def test_flow_monitor_keeps_every_row_in_contract_form(flow):
    assert list(flow.columns) == FLOW
    assert len(flow) == 7195
    assert (flow["unit"] == "mgd").all() and (flow["constituent"] == "flow").all()
    assert (flow["user_id"] == "IU-019").all()
    assert flow["timestamp"].str.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:00\+00:00").all()
    raw = pd.read_csv(real.REAL_DIR / real.FLOW_FILE)
    assert flow["value"].tolist() == raw["Flow_mgd"].tolist()


def test_flow_monitor_whole_week_shift_into_2026():
    shift = real.monitor_shift(2026)
    assert shift == timedelta(weeks=939)
    assert (date(2008, 2, 16) + shift) == date(2026, 2, 14)
    assert (date(2008, 2, 16) + shift).weekday() == date(2008, 2, 16).weekday()


def test_flow_monitor_dst(flow):
    ts = dict(zip(range(len(flow)), flow["timestamp"]))
    raw = pd.read_csv(real.REAL_DIR / real.FLOW_FILE)

    def at(month, day, hour, minute):
        i = raw.index[(raw.Month == month) & (raw.Day == day) & (raw.Hour == hour) & (raw.Minute == minute)]
        assert len(i) == 1
        return ts[int(i[0])]

    # 2008-02-16 00:00 EST (UTC-5) -> 05:00Z, moved 939 weeks
    assert at(2, 16, 0, 0) == "2026-02-14T05:00:00+00:00"
    # 2008-03-09 01:45 EST is the last standard-time reading; 03:00 is EDT (UTC-4)
    assert at(3, 9, 1, 45) == "2026-03-08T06:45:00+00:00"
    assert at(3, 9, 3, 0) == "2026-03-08T07:00:00+00:00"
    # 2008-04-03 12:00 EDT -> 16:00Z
    assert at(4, 3, 12, 0) == "2026-04-02T16:00:00+00:00"
    # nonexistent 02:15 is read as standard time (02:15 EST = 07:15Z)
    assert at(3, 9, 2, 15) == "2026-03-08T07:15:00+00:00"
    # ... so the four nonexistent readings share instants with 03:00-03:45
    assert flow["timestamp"].duplicated().sum() == 4
    # local clock time in 2026 is the same as in 2008 (DST changes on the same Sunday)
    local = pd.to_datetime(flow["timestamp"]).dt.tz_convert("America/New_York")
    same = (local.dt.hour == raw["Hour"]) & (local.dt.minute == raw["Minute"])
    assert (~same).sum() == 4


def test_local_to_utc_ambiguous_hour_first_is_daylight():
    local = pd.Series(
        pd.to_datetime(["2008-11-02 00:45", "2008-11-02 01:30", "2008-11-02 01:30", "2008-11-02 02:00"])
    )
    utc = real.local_to_utc(local).dt.strftime("%H:%M").tolist()
    assert utc == ["04:45", "05:30", "06:30", "07:00"]


# ---------------------------------------------------------------- rain gauge


def test_rain_gauge_daily_lines_up_with_the_flow_storms(flow):
    rain = real.rain_gauge_daily(None, "RG-2008", 2026)
    assert list(rain.columns) == RAINFALL
    by_day = dict(zip(rain["date"], rain["precip_in"]))
    # 2.03 in on each of 2008-04-03 and 04-04, moved 939 weeks
    assert by_day["2026-04-02"] == pytest.approx(2.03)
    assert by_day["2026-04-03"] == pytest.approx(2.03)
    # part-days at the ends of the record (2008-02-16 from 21:15, 2008-04-20 00:00) are dropped
    assert rain["date"].iloc[0] == "2026-02-15" and rain["date"].iloc[-1] == "2026-04-18"
    assert len(rain) == 63 and rain["date"].is_unique
    # the flow's local days carry the same storm: wettest day's mean flow well above dry weather
    local_day = pd.to_datetime(flow["timestamp"]).dt.tz_convert("America/New_York").dt.strftime("%Y-%m-%d")
    daily_flow = flow.groupby(local_day)["value"].mean()
    assert daily_flow["2026-04-03"] > 3 * daily_flow.median()


# ----------------------------------------------------------------------- UCI


def test_parse_uci_day():
    parsed = real.parse_uci_day(pd.Series(["D-1/3/90", "D-30/10/91", " D-12/1/90"]))
    assert parsed.dt.date.tolist() == [date(1990, 3, 1), date(1991, 10, 30), date(1990, 1, 12)]


def test_uci_lab_results():
    df = real.uci_lab_results(None, "IU-020", target_year=2026)
    assert list(df.columns) == LAB
    # 527 days x 4 influent fields, minus the '?' the .names file counts (0 + 23 + 6 + 1)
    assert len(df) == 527 * 4 - 30
    assert df.groupby("parameter").size().to_dict() == {"BOD": 504, "COD": 521, "TSS": 526, "pH": 527}
    assert not df["result"].eq("?").any()
    assert df["result"].astype(float).gt(0).all()
    # first line of the file: D-1/3/90, PH-E 7.8, DBO-E ?, DQO-E 407, SS-E 166
    day = df[df["sample_id"].str.startswith("UCI-1990-03-01")]
    assert dict(zip(day["parameter"], day["result"])) == {"pH": "7.8", "COD": "407", "TSS": "166"}
    assert set(day["collected_at"]) == {"2025-03-01"}
    assert dict(zip(day["parameter"], day["sample_id"])) == {
        "pH": "UCI-1990-03-01-G",
        "COD": "UCI-1990-03-01-C",
        "TSS": "UCI-1990-03-01-C",
    }
    assert dict(zip(day["parameter"], day["sample_type"])) == {
        "pH": "grab",
        "COD": "composite",
        "TSS": "composite",
    }
    assert dict(zip(day["parameter"], day["unit"])) == {"pH": "s.u.", "COD": "mg/L", "TSS": "mg/L"}
    # one sample per day and type; re-dated by whole years, sorted by date
    assert df.groupby("sample_id")["collected_at"].nunique().eq(1).all()
    assert df["collected_at"].min() == "2025-01-01" and df["collected_at"].max() == "2026-10-30"
    assert df["collected_at"].is_monotonic_increasing
    assert (df["lab"] == real.UCI_LAB).all() and df["mdl"].isna().all()
