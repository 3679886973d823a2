"""Adapters from the bundled real records (``data/real/``) to the contract's input format.

Each function reads one real file, unchanged, and returns a pandas DataFrame
whose columns are exactly the contract's (section 2 of the data contract),
lower case, with dates and timestamps already written as ISO 8601 text, so
``write_csv(df, path)`` produces a file the pipeline ingests like any other.

The real records are from other years (1990-91, 2008, 2017), so every adapter
re-dates them into the demo window, always by a whole number of years (daily
records) or of 7-day weeks (15-minute records): the values are never touched,
only the calendar label moves.

- :func:`noaa_rainfall`: NOAA GHCN-Daily precipitation at Albany airport, mm to
  inches, real year ``Y`` relabelled ``Y + source_year_offset``.
- :func:`flow_monitor`: a real 15-minute sewer flow meter (2008, local clock
  time) as UTC instants shifted by whole weeks.
- :func:`rain_gauge_daily`: the meter's paired rain gauge summed to local days,
  re-dated with the same shift as :func:`flow_monitor` so the storms line up.
- :func:`uci_lab_results`: influent pH, BOD, COD and suspended solids from the
  UCI "Water Treatment Plant" record, as lab results of one user.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import numpy as np
import pandas as pd

from outfall.paths import REAL_DATA_DIR

REAL_DIR = REAL_DATA_DIR
NOAA_FILE = "ghcnd_USW00014735_albany_ny_daily.csv"
FLOW_FILE = "sewer_flow_monitor_15min_2008.csv"
RAIN_FILE = "rain_gauge_15min_2008.csv"
UCI_FILE = "uci_water-treatment.data"

LOCAL_TZ = "America/New_York"
MM_PER_INCH = 25.4
NOAA_MISSING = -9999.0

#: First local day of the 2008 flow meter record. Both 2008 adapters shift
#: from this one anchor so the flow storms and the rain storms stay together.
MONITOR_ANCHOR = date(2008, 2, 16)

#: Last calendar year of the UCI plant record (1990-01-01 to 1991-10-30).
UCI_LAST_YEAR = 1991
UCI_LAB = "UCI Water Treatment Plant record (Bejar, Cortes, Poch)"
#: 0-based column positions in ``uci_water-treatment.data``: column 0 is the
#: DAY label, then the 38 attributes in the order of the ``.names`` file
#: (1 Q-E, 2 ZN-E, 3 PH-E, 4 DBO-E, 5 DQO-E, 6 SS-E, ...).
UCI_INFLUENT = (
    # (column, field name, parameter, unit, sample type)
    (3, "PH-E", "pH", "s.u.", "grab"),
    (4, "DBO-E", "BOD", "mg/L", "composite"),
    (5, "DQO-E", "COD", "mg/L", "composite"),
    (6, "SS-E", "TSS", "mg/L", "composite"),
)

RAINFALL_COLUMNS = ["gauge_id", "date", "precip_in"]
FLOW_COLUMNS = ["user_id", "timestamp", "value", "unit", "constituent"]
LAB_COLUMNS = [
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


def _real(path: Path | str | None, name: str) -> Path:
    return REAL_DIR / name if path is None else Path(path)


def write_csv(df: pd.DataFrame, path: Path | str) -> int:
    """Write ``df`` as a contract CSV (UTF-8, header, ``\\n`` line ends); return its row count."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False, lineterminator="\n")
    return len(df)


# ---------------------------------------------------------------- NOAA rainfall


def noaa_source_year(target_year: int, last_full_year: int = 2017) -> int:
    """The latest complete year of the Albany record with the target's leap-ness.

    Matching leap years means no day is lost or missing after re-dating
    (2026 <- 2017, 2028 <- 2016).
    """
    leap = pd.Timestamp(year=target_year, month=1, day=1).is_leap_year
    year = last_full_year
    while pd.Timestamp(year=year, month=1, day=1).is_leap_year != leap:
        year -= 1
    return year


def noaa_rainfall(
    path: Path | str | None,
    gauge_id: str,
    start: date,
    end: date,
    source_year_offset: int,
) -> pd.DataFrame:
    """Daily precipitation of the NOAA Albany record, re-dated, as contract ``rainfall`` rows.

    Every real day ``Y-MM-DD`` is relabelled ``(Y + source_year_offset)-MM-DD``
    and kept when that demo date lies in ``[start, end]``. PRCP is in mm and is
    converted to inches, rounded to 2 decimals. A missing value (-9999) drops
    the day (no 0 is invented). A real 29 February has no counterpart in a
    non-leap demo year and is dropped rather than merged into a neighbour; a
    demo 29 February with no real counterpart is simply absent. Use
    :func:`noaa_source_year` to pick an offset that avoids both.
    """
    raw = pd.read_csv(_real(path, NOAA_FILE), skipinitialspace=True, usecols=["YYYY", "MM", "DD", "PRCP"])
    raw = raw[raw["PRCP"].notna() & (raw["PRCP"] != NOAA_MISSING)]
    demo = pd.to_datetime(
        pd.DataFrame({"year": raw["YYYY"] + source_year_offset, "month": raw["MM"], "day": raw["DD"]}),
        errors="coerce",  # 29 Feb into a non-leap year -> NaT -> dropped
    )
    keep = demo.notna() & (demo >= pd.Timestamp(start)) & (demo <= pd.Timestamp(end))
    out = pd.DataFrame(
        {
            "gauge_id": gauge_id,
            "date": demo[keep].dt.strftime("%Y-%m-%d"),
            "precip_in": (raw.loc[keep, "PRCP"] / MM_PER_INCH).round(2),
        }
    )
    return out.sort_values("date", kind="stable").reset_index(drop=True)[RAINFALL_COLUMNS]


# ------------------------------------------------------- 2008 flow monitor + rain


def monitor_shift(target_start_year: int) -> timedelta:
    """Whole 7-day weeks from :data:`MONITOR_ANCHOR` to the same season of ``target_start_year``.

    The nearest whole number of weeks to the anchor's calendar day in the target
    year, so weekdays (and the weekday/weekend pattern of sewer flow) are kept.
    For 2026 it is 939 weeks (6,573 days): 2008-02-16 (Sat) -> 2026-02-14 (Sat),
    and the second Sunday of March (the DST change) maps onto itself.
    """
    days = (date(target_start_year, MONITOR_ANCHOR.month, MONITOR_ANCHOR.day) - MONITOR_ANCHOR).days
    return timedelta(weeks=round(days / 7))


def _read_clock_times(path: Path) -> pd.DataFrame:
    raw = pd.read_csv(path, skipinitialspace=True)
    raw.columns = [c.strip() for c in raw.columns]
    raw["local"] = pd.to_datetime(
        pd.DataFrame(
            {
                "year": raw["Year"],
                "month": raw["Month"],
                "day": raw["Day"],
                "hour": raw["Hour"],
                "minute": raw["Minute"],
            }
        )
    )
    return raw


def local_to_utc(local: pd.Series) -> pd.Series:
    """Naive America/New_York clock times -> UTC instants, with DST made explicit.

    - Nonexistent times (the spring-forward hour, e.g. 2008-03-09 02:00-02:45)
      are read as standard time, i.e. the logger's clock had not yet sprung
      forward: 02:15 -> 02:15 EST = 07:15 UTC (pandas ``nonexistent=1 hour``).
    - Ambiguous times (the repeated fall-back hour): the first occurrence in
      file order is daylight time, a repeat of the same clock time is standard
      time.
    """
    first_seen = ~local.duplicated(keep="first").to_numpy()
    aware = local.dt.tz_localize(LOCAL_TZ, ambiguous=first_seen, nonexistent=pd.Timedelta(hours=1))
    return aware.dt.tz_convert("UTC")


def flow_monitor(
    path: Path | str | None,
    user_id: str,
    target_start_year: int,
) -> pd.DataFrame:
    """The real 15-minute sewer flow meter (2008) as contract ``flow`` rows of one user.

    Each local clock time is turned into a UTC instant with 2008's DST rules
    (:func:`local_to_utc`), then shifted by :func:`monitor_shift` whole weeks.
    ``timestamp`` is ISO 8601 with an explicit ``+00:00`` offset; ``value`` is
    Flow_mgd, ``unit`` ``mgd``, ``constituent`` ``flow``. Every row is kept
    (7,195), in file order. Note: the record holds four readings at clock times
    that did not exist (2008-03-09 02:00-02:45); read as standard time they
    fall on the same instants as the 03:00-03:45 readings, so four instants
    appear twice.
    """
    raw = _read_clock_times(_real(path, FLOW_FILE))
    instants = local_to_utc(raw["local"]) + monitor_shift(target_start_year)
    return pd.DataFrame(
        {
            "user_id": user_id,
            "timestamp": instants.dt.strftime("%Y-%m-%dT%H:%M:%S+00:00"),
            "value": raw["Flow_mgd"].astype(float),
            "unit": "mgd",
            "constituent": "flow",
        }
    )[FLOW_COLUMNS]


def rain_gauge_daily(
    path: Path | str | None,
    gauge_id: str,
    target_start_year: int,
    min_readings: int = 92,
) -> pd.DataFrame:
    """The 2008 rain gauge's 15-minute depths summed to local days, as contract ``rainfall`` rows.

    A reading belongs to the local day of its clock time. Days with fewer than
    ``min_readings`` readings (92 = a full 23-hour DST day) are partial, at the
    two ends of the record, and are dropped rather than reported as a too-small
    total. Days are re-dated by the same whole-week shift as
    :func:`flow_monitor` (2008-04-03 -> 2026-04-02), so the gauge's storm days
    fall on the flow meter's storm days.
    """
    raw = _read_clock_times(_real(path, RAIN_FILE))
    depth = [c for c in raw.columns if c.lower().startswith("rain")][0]
    day = raw["local"].dt.normalize()
    daily = raw.groupby(day)[depth].agg(["sum", "size"])
    daily = daily[daily["size"] >= min_readings]
    dates = daily.index + monitor_shift(target_start_year)
    return pd.DataFrame(
        {
            "gauge_id": gauge_id,
            "date": dates.strftime("%Y-%m-%d"),
            "precip_in": daily["sum"].round(2).to_numpy(),
        }
    )[RAINFALL_COLUMNS].reset_index(drop=True)


# ---------------------------------------------------------------- UCI lab data


def parse_uci_day(labels: pd.Series) -> pd.Series:
    """``D-1/3/90`` (day/month/two-digit year, 19xx) -> Timestamp 1990-03-01."""
    parts = labels.str.strip().str.removeprefix("D-").str.split("/", expand=True).astype(int)
    return pd.to_datetime(
        pd.DataFrame(
            {
                "year": 1900 + parts[2],
                "month": parts[1],
                "day": parts[0],
            }
        )
    )


def uci_lab_results(
    path: Path | str | None,
    user_id: str,
    target_year: int = 2026,
) -> pd.DataFrame:
    """Influent pH, BOD, COD and SS of the UCI plant record as contract ``lab_results`` rows.

    One grab sample (pH) and one 24-hour composite (BOD, COD, TSS) per plant
    day. ``?`` means not measured: that parameter is skipped for that day, the
    rest of the day is kept. Days are re-dated by whole years so the record's
    last year (1991) becomes ``target_year`` (1990 -> target_year - 1); both
    source years are non-leap, as are 2025/2026. ``sample_id`` keeps the real
    date (``UCI-1990-03-01-C`` / ``-G``) so every row traces back to the file;
    ``result`` is the file's own text; ``method`` names the source field.
    Rows come out sorted by date (the file is not in date order).
    """
    raw = pd.read_csv(_real(path, UCI_FILE), header=None, dtype=str, skip_blank_lines=True)
    real_day = parse_uci_day(raw[0])
    offset = target_year - UCI_LAST_YEAR
    demo_day = pd.to_datetime(
        pd.DataFrame(
            {
                "year": real_day.dt.year + offset,
                "month": real_day.dt.month,
                "day": real_day.dt.day,
            }
        )
    )
    frames = []
    for order, (col, field, parameter, unit, sample_type) in enumerate(UCI_INFLUENT):
        text = raw[col].str.strip()
        present = text.notna() & (text != "?") & (text != "")
        suffix = "G" if sample_type == "grab" else "C"
        frames.append(
            pd.DataFrame(
                {
                    "sample_id": "UCI-" + real_day[present].dt.strftime("%Y-%m-%d") + f"-{suffix}",
                    "user_id": user_id,
                    "collected_at": demo_day[present].dt.strftime("%Y-%m-%d"),
                    "sample_type": sample_type,
                    "parameter": parameter,
                    "result": text[present],
                    "unit": unit,
                    "mdl": np.nan,
                    "lab": UCI_LAB,
                    "method": f"plant daily record, field {field}",
                    "_day": real_day[present],
                    "_order": order,
                }
            )
        )
    out = pd.concat(frames, ignore_index=True)
    out = out.sort_values(["_day", "_order"], kind="stable")
    return out[LAB_COLUMNS].reset_index(drop=True)
