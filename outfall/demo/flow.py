"""``flow``: 15-minute readings of every user's meter for the 365 days to the as-of day, the slugs and spikes
planted in them, the plating shop's month of a continuous pH probe, and the real 2008 meter with the slugs in
its record (the plan the slug reports of :mod:`outfall.demo.sewer` follow)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from outfall.demo import real, slugs as slug_law
from outfall.demo.common import LOCAL_TZ, window
from outfall.demo.real import write_csv
from outfall.demo.users import PH_PROBE_USER, REAL_METER_USER, User
from outfall.rules import load_rules

_HOURLY = {
    "restaurant": [0.15] * 7 + [0.6] * 4 + [1.8] * 4 + [1.0] * 2 + [2.0] * 5 + [0.6] * 2,
    "day_shift": [0.2] * 6 + [0.8] + [1.8] * 10 + [0.8] * 2 + [0.25] * 5,
    "two_shift": [0.5] * 5 + [1.4] * 17 + [0.8] * 2,
    "institution": [0.6] * 6 + [1.4] * 4 + [1.2] * 12 + [0.8] * 2,
}
_WEEKLY = {  # Monday .. Sunday
    "restaurant": [0.8, 0.85, 0.9, 1.0, 1.2, 1.3, 1.0],
    "day_shift": [1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.2],
    "two_shift": [1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.5],
    "institution": [1.0] * 7,
}


def _window_grid(as_of: date) -> pd.DatetimeIndex:
    """Every 15 minutes from local midnight of the window's first day to local midnight after ``as_of``, in
    UTC."""
    first, last = window(as_of)
    start = pd.Timestamp(first, tz=LOCAL_TZ).tz_convert("UTC")
    end = pd.Timestamp(last + timedelta(days=1), tz=LOCAL_TZ).tz_convert("UTC")
    return pd.date_range(start, end, freq="15min", inclusive="left").as_unit("us")


#: Slugs and spikes fall at least this many days inside the window: a slug has
#: a data-derived baseline (7 days needed) and its 5-day report is due by as-of.
EVENT_MARGIN_DAYS = 10


def _event_days(rng: np.random.Generator, n_days: int, count: int) -> np.ndarray:
    days = np.arange(EVENT_MARGIN_DAYS, n_days - EVENT_MARGIN_DAYS)
    return np.sort(rng.choice(days, size=count, replace=False))


@dataclass(frozen=True)
class Slug:
    """A slug the generator planted (or, for the real meter, that the record holds)."""

    user_id: str
    start: pd.Timestamp  # UTC instant of the first high reading
    readings: int

    @property
    def local_day(self) -> date:
        return self.start.tz_convert(LOCAL_TZ).date()


def _synthetic_flow(
    u: User, grid: pd.DatetimeIndex, rng: np.random.Generator
) -> tuple[pd.DataFrame, list[Slug]]:
    local = grid.tz_convert(LOCAL_TZ)
    hourly = np.asarray(_HOURLY[u.kind])
    weekly = np.asarray(_WEEKLY[u.kind])
    shape = hourly[local.hour.to_numpy()] * weekly[local.dayofweek.to_numpy()]
    shape /= hourly.mean() * weekly.mean()
    doy = local.dayofyear.to_numpy()
    season = 1.0 + 0.08 * np.sin(2 * np.pi * (doy - 100) / 365.0)
    noise = np.clip(rng.lognormal(0.0, 0.08, size=len(grid)), 0.75, 1.3)
    level = u.avg_gpd * rng.uniform(0.8, 0.95)
    gpd = np.maximum(level * shape * season * noise, 0.02 * u.avg_gpd)

    # Slugs (45-90 min at 6.5-10x the design average) and lone 15-minute spikes,
    # each on its own day, in working hours.
    n_days = len(grid) // 96
    days = _event_days(rng, n_days, u.slugs + u.spikes)
    kinds = rng.permutation(np.array([True] * u.slugs + [False] * u.spikes, dtype=bool))
    slugs: list[Slug] = []
    for day, is_slug in zip(days, kinds):
        first = int(day) * 96 + int(rng.integers(8 * 4, 16 * 4))
        length = int(rng.integers(3, 7)) if is_slug else 1
        gpd[first : first + length] = u.avg_gpd * rng.uniform(6.5, 10.0, size=length)
        if is_slug:
            slugs.append(Slug(u.user_id, grid[first], length))

    keep = np.ones(len(grid), dtype=bool)
    if u.user_id == "IU-011":  # a meter outage of six hours in May
        first_day = grid[0].tz_convert(LOCAL_TZ).date()
        may_12 = date(local[-1].year, 5, 12)
        start = (may_12 - first_day).days * 96 + 40
        keep[start : start + 24] = False

    if u.flow_unit == "gpm":
        value = np.round(gpd / 1440.0, 3)
    else:
        value = np.round(gpd, 1)
    return pd.DataFrame(
        {
            "user_id": u.user_id,
            "timestamp": grid[keep],
            "value": value[keep],
            "unit": u.flow_unit,
            "constituent": "flow",
        }
    ), slugs


def _ph_probe(u: User, grid: pd.DatetimeIndex, year: int, rng: np.random.Generator) -> pd.DataFrame:
    """June of a continuous pH probe: near-neutral with a diurnal swing and two excursions."""
    local = grid.tz_convert(LOCAL_TZ)
    june = local.month == 6
    ts = grid[june]
    hours = local[june].hour.to_numpy() + local[june].minute.to_numpy() / 60.0
    ph = 7.1 + 0.35 * np.sin(2 * np.pi * (hours - 9) / 24) + rng.normal(0, 0.08, size=len(ts))
    day_start = (date(year, 6, 9) - date(year, 6, 1)).days * 96 + 10 * 4
    ph[day_start : day_start + 3] = [5.6, 4.9, 5.3]  # acid rinse dump, 45 minutes
    day_start = (date(year, 6, 23) - date(year, 6, 1)).days * 96 + 14 * 4
    ph[day_start : day_start + 2] = [10.1, 9.8]  # caustic cleaner, 30 minutes
    return pd.DataFrame(
        {
            "user_id": u.user_id,
            "timestamp": ts,
            "value": np.round(np.clip(ph, 0, 14), 2),
            "unit": "s.u.",
            "constituent": "pH",
        }
    )


def _write_parquet(df: pd.DataFrame, path: Path) -> int:
    table = pa.Table.from_pandas(df, preserve_index=False)
    pq.write_table(table, path, compression="snappy")
    return len(df)


def _real_meter_slugs(frame: pd.DataFrame) -> list[Slug]:
    """The slugs in the real meter's record, found by the project's reference reading
    of the law (outfall.demo.slugs; data-derived baseline: the meter has no permit flow).
    A repeated instant (the 2008 spring-forward hour) keeps its first reading, as the
    ingestion does."""
    rules = load_rules("woodbury")  # each reading judged by the slug definition of its day
    ts = pd.to_datetime(frame["timestamp"], utc=True)
    first = ~ts.duplicated(keep="first")
    readings = list(zip((t.to_pydatetime() for t in ts[first]), frame.loc[first, "value"].astype(float)))
    events, _ = slug_law.detect(readings, slug_law.params_on(rules.slug), rules.timezone)
    return [
        Slug(str(frame["user_id"].iloc[0]), pd.Timestamp(e.start_at).tz_convert("UTC"), e.readings)
        for e in events
    ]


def write_flow(
    users: list[User], out: Path, year: int, as_of: date, rng: np.random.Generator
) -> tuple[int, list[Slug]]:
    """Write the flow files; return the rows written and the slugs in them (the plan)."""
    grid = _window_grid(as_of)
    first, last = window(as_of)
    span = f"{first:%Y-%m-%d}_{last:%Y-%m-%d}"
    rows = 0
    slugs: list[Slug] = []
    for u in users:
        if u.user_id == REAL_METER_USER:
            frame = real.flow_monitor(None, u.user_id, year)
            rows += write_csv(frame, out / f"{u.user_id}_flow_monitor_2008_real.csv")
            slugs += _real_meter_slugs(frame)
            continue
        frame, planted = _synthetic_flow(u, grid, rng)
        rows += _write_parquet(frame, out / f"{u.user_id}_flow_{span}.parquet")
        slugs += planted
        if u.user_id == PH_PROBE_USER:
            rows += _write_parquet(
                _ph_probe(u, grid, year, rng), out / f"{u.user_id}_ph_probe_{year}-06.parquet"
            )
    return rows, sorted(slugs, key=lambda e: (e.user_id, e.start))
