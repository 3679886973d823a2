"""Slug discharges (Woodbury ch. 253 Part 2, definition of SLUG): a plain-Python
reading of the contract's definition, for small inputs. The demo town finds with it the
slugs in its real meter's record, to plan the slug reports its users sent; the tests use it
as the independent oracle of the SQL.

"Any discharge ... which in concentration of any given constituent or in
quantity of flow exceeds for any period of duration longer than 15 minutes more
than five times the average twenty-four-hour concentration or flow during
normal operation."

Contract section 4, per user and constituent:
- baseline: the permit's ``normal_avg_flow_gpd`` / 1440 (gpm, constituent flow)
  when given; otherwise the median of the daily means of the 30 local days
  (America/New_York) before the reading's day, needing at least 7 such days
  with readings; with fewer the reading is not judged (and the day is reported
  as lacking a baseline);
- a reading is high when value > 5 x baseline (strictly);
- a run is a sequence of consecutive high readings (any reading that is not
  high, including one not judged, ends it) with no gap longer than 1.5 x the
  user's usual reading interval; its duration is last - first + one interval;
- a slug is a run whose duration is longer than 15 minutes (strictly).

The usual reading interval (rules reading ``slug_usual_interval``): for each
local day with at least two readings, (last - first) / (readings - 1); the
usual interval is the median over the days. Every number comes from the
rules' ``slug`` section, in its version of the day it applies to: a day's
baseline, and whether a reading is high, by the version in effect on the
reading's local day; whether a gap splits a run, by the version of the reading
after the gap; whether a run lasted long enough, by the version of its first
reading's day. A day no version covers has no baseline: its readings are not
judged (and the day is reported as lacking one).

The production path is SQL (``sql/sewer/*slug*.sql``, run by
``assets/sewer/compliance.py``), not this module; the tests check the SQL
against it (tests/test_assets_sewer.py, tests/test_oracles.py, tests/test_oracle_slug.py).
"""

from __future__ import annotations

import datetime as dt
import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

UTC = dt.UTC


@dataclass(frozen=True)
class SlugParams:
    """The slug definition of one day: a version of the rules' ``slug`` section (no defaults: every
    number comes from the rules)."""

    ratio: float
    min_duration_min: float
    baseline_days: int
    min_baseline_days: int
    gap_factor: float

    @classmethod
    def of(cls, version: Any) -> SlugParams:
        """From a version of the rules' slug section (``rules.slug.at(day)``)."""
        return cls(
            float(version.ratio),
            float(version.min_duration_min),
            int(version.baseline_days),
            int(version.min_baseline_days),
            float(version.gap_factor),
        )


ParamsOn = Callable[[dt.date], "SlugParams | None"]


def params_on(versions: Any) -> ParamsOn:
    """The slug definition in effect on a day (None: none is), from the rules' dated ``slug`` versions."""

    def on(day: dt.date) -> SlugParams | None:
        version = versions.get(day)
        return None if version is None else SlugParams.of(version)

    return on


def _on(params: SlugParams | ParamsOn) -> ParamsOn:
    return (lambda day: params) if isinstance(params, SlugParams) else params


@dataclass(frozen=True)
class SlugEvent:
    start_at: dt.datetime
    end_at: dt.datetime
    duration_s: float
    baseline: float
    peak_value: float
    peak_ratio: float
    readings: int

    @property
    def duration_min(self) -> int:
        return duration_minutes(self.duration_s)


# ---------------------------------------------------------------- small rules


def is_high(value: float, baseline: float | None, ratio: float) -> bool:
    """More than ``ratio`` times the baseline (strictly)."""
    return baseline is not None and value > ratio * baseline


def run_duration_s(first: dt.datetime, last: dt.datetime, interval_s: float) -> float:
    """Duration of a run: last - first + one usual interval, in seconds."""
    return (last - first).total_seconds() + interval_s


def is_slug(duration_s: float, min_duration_min: float) -> bool:
    """Longer than the minimum duration (strictly): 15 min is not a slug, 16 is."""
    return duration_s > min_duration_min * 60.0


def splits(gap_s: float, interval_s: float, gap_factor: float) -> bool:
    """A gap longer than gap_factor x the usual interval splits a run (equal does not)."""
    return gap_s > gap_factor * interval_s


def duration_minutes(duration_s: float) -> int:
    """Whole minutes for display, rounded up (rules reading ``slug_duration_display``)."""
    return int(math.ceil(duration_s / 60.0 - 1e-9))


def baseline_from_permit(normal_avg_flow_gpd: float | None) -> float | None:
    """The permit's average 24-hour flow in gpm (gpd / 1440); None when not given."""
    if normal_avg_flow_gpd is None or not normal_avg_flow_gpd > 0:
        return None
    return normal_avg_flow_gpd / 1440.0


# ------------------------------------------------------------- the reference


def _utc(ts: dt.datetime) -> dt.datetime:
    if ts.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware instants")
    return ts.astimezone(UTC)


def _spacing(first: dt.datetime, last: dt.datetime, n: int) -> float | None:
    return (last - first).total_seconds() / (n - 1) if n >= 2 else None


def usual_interval_s(timestamps: Iterable[dt.datetime], timezone: str) -> float | None:
    """The usual reading interval in seconds: per local day with at least two
    readings, (last - first) / (readings - 1); the median over the days. None
    when no day has two readings."""
    tz = ZoneInfo(timezone)
    days: dict[dt.date, list[dt.datetime]] = defaultdict(list)
    for ts in timestamps:
        ts = _utc(ts)
        days[ts.astimezone(tz).date()].append(ts)
    spacings = [
        sp for stamps in days.values() if (sp := _spacing(min(stamps), max(stamps), len(stamps))) is not None
    ]
    return statistics.median(spacings) if spacings else None


def daily_baselines(
    readings: Sequence[tuple[dt.datetime, float]],
    params: SlugParams | ParamsOn,
    timezone: str,
    fixed_baseline: float | None = None,
) -> dict[dt.date, float | None]:
    """Baseline of every local day that has readings (None: not judged), each by the slug
    definition in effect on that day."""
    tz = ZoneInfo(timezone)
    on = _on(params)
    sums: dict[dt.date, list[float]] = defaultdict(list)
    for ts, value in readings:
        sums[_utc(ts).astimezone(tz).date()].append(value)
    means = {day: math.fsum(vals) / len(vals) for day, vals in sums.items()}
    out: dict[dt.date, float | None] = {}
    for day in means:
        p = on(day)
        if p is None:
            out[day] = None
            continue
        if fixed_baseline is not None:
            out[day] = fixed_baseline
            continue
        prior = [
            means[d]
            for d in means
            if day - dt.timedelta(days=p.baseline_days) <= d <= day - dt.timedelta(days=1)
        ]
        out[day] = statistics.median(prior) if len(prior) >= p.min_baseline_days else None
    return out


def _slug_event(
    run: list[tuple[dt.datetime, float, float]], p: SlugParams, interval: float
) -> list[SlugEvent]:
    """The slug a run of high readings (ts, value, baseline) makes under the definition ``p`` it began
    under: none if it is too short, else one, its peak the reading furthest above its baseline."""
    duration = run_duration_s(run[0][0], run[-1][0], interval)
    if not is_slug(duration, p.min_duration_min):
        return []
    peak = max(run, key=lambda r: r[1] / r[2])
    return [SlugEvent(run[0][0], run[-1][0], duration, peak[2], peak[1], peak[1] / peak[2], len(run))]


def detect(
    readings: Sequence[tuple[dt.datetime, float]],
    params: SlugParams | ParamsOn,
    timezone: str,
    fixed_baseline: float | None = None,
) -> tuple[list[SlugEvent], list[dt.date]]:
    """Slug events of one user and constituent, and the local days lacking a baseline.

    ``readings``: (timezone-aware instant, value in canonical unit); ``params``: the slug
    definition, or the function giving the one in effect on a day (``params_on(rules.slug)``);
    ``timezone``: the rules' (local days); ``fixed_baseline``: the permit baseline in the same
    unit (flow: gpm), if any.
    """
    tz = ZoneInfo(timezone)
    on = _on(params)
    rows = sorted(((_utc(ts), float(v)) for ts, v in readings), key=lambda r: (r[0], r[1]))
    if not rows:
        return [], []
    baselines = daily_baselines(rows, on, timezone, fixed_baseline)
    interval = usual_interval_s([ts for ts, _ in rows], timezone)
    lacking = sorted(d for d, b in baselines.items() if b is None or interval is None)
    if interval is None:
        return [], lacking

    events: list[SlugEvent] = []
    run: list[tuple[dt.datetime, float, float]] = []  # (ts, value, baseline)
    run_params: list[SlugParams] = []  # the definition in effect when the run began
    prev: tuple[dt.datetime, bool] | None = None

    def close() -> None:
        if run:
            events.extend(_slug_event(run, run_params[0], interval))
            run.clear()
            run_params.clear()

    for ts, value in rows:
        day = ts.astimezone(tz).date()
        p = on(day)
        baseline = baselines[day]
        high = p is not None and is_high(value, baseline, p.ratio)
        if high:
            continues = (
                prev is not None
                and prev[1]
                and not splits((ts - prev[0]).total_seconds(), interval, p.gap_factor)
            )
            if not continues:
                close()
            if not run:
                run_params.append(p)
            run.append((ts, value, baseline))  # type: ignore[arg-type]
        else:
            close()
        prev = (ts, high)
    close()
    return events, lacking
