"""Slug discharges (Woodbury ch. 253 Part 2, definition of SLUG): a plain-Python
reference of the contract's reading, for small inputs.

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
rules' ``slug`` section.

The production path is SQL (``sql/*slug*.sql``, run by ``assets/sewer_administrator/compliance.py``);
tests run both on the same inputs and compare.
"""

from __future__ import annotations

import datetime as dt
import math
import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Sequence
from zoneinfo import ZoneInfo

UTC = dt.timezone.utc


@dataclass(frozen=True)
class SlugParams:
    ratio: float = 5.0
    min_duration_min: float = 15.0
    baseline_days: int = 30
    min_baseline_days: int = 7
    gap_factor: float = 1.5
    timezone: str = "America/New_York"

    @classmethod
    def from_rules(cls, rules: Any) -> "SlugParams":
        s = rules.section("slug")
        return cls(float(s["ratio"]), float(s["min_duration_min"]), int(s["baseline_days"]),
                   int(s["min_baseline_days"]), float(s["gap_factor"]),
                   str(rules.raw.get("timezone", "America/New_York")))


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


def is_high(value: float, baseline: float | None, ratio: float = 5.0) -> bool:
    """More than ``ratio`` times the baseline (strictly)."""
    return baseline is not None and value > ratio * baseline


def run_duration_s(first: dt.datetime, last: dt.datetime, interval_s: float) -> float:
    """Duration of a run: last - first + one usual interval, in seconds."""
    return (last - first).total_seconds() + interval_s


def is_slug(duration_s: float, min_duration_min: float = 15.0) -> bool:
    """Longer than the minimum duration (strictly): 15 min is not a slug, 16 is."""
    return duration_s > min_duration_min * 60.0


def splits(gap_s: float, interval_s: float, gap_factor: float = 1.5) -> bool:
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


def usual_interval_s(timestamps: Iterable[dt.datetime], timezone: str = "America/New_York") -> float | None:
    """The usual reading interval in seconds: per local day with at least two
    readings, (last - first) / (readings - 1); the median over the days. None
    when no day has two readings."""
    tz = ZoneInfo(timezone)
    days: dict[dt.date, list[dt.datetime]] = defaultdict(list)
    for ts in timestamps:
        ts = _utc(ts)
        days[ts.astimezone(tz).date()].append(ts)
    spacings = [sp for stamps in days.values() if (sp := _spacing(min(stamps), max(stamps), len(stamps))) is not None]
    return statistics.median(spacings) if spacings else None


def daily_baselines(readings: Sequence[tuple[dt.datetime, float]], params: SlugParams,
                    fixed_baseline: float | None = None) -> dict[dt.date, float | None]:
    """Baseline of every local day that has readings (None: not judged)."""
    tz = ZoneInfo(params.timezone)
    sums: dict[dt.date, list[float]] = defaultdict(list)
    for ts, value in readings:
        sums[_utc(ts).astimezone(tz).date()].append(value)
    means = {day: math.fsum(vals) / len(vals) for day, vals in sums.items()}
    out: dict[dt.date, float | None] = {}
    for day in means:
        if fixed_baseline is not None:
            out[day] = fixed_baseline
            continue
        prior = [means[d] for d in means
                 if day - dt.timedelta(days=params.baseline_days) <= d <= day - dt.timedelta(days=1)]
        out[day] = statistics.median(prior) if len(prior) >= params.min_baseline_days else None
    return out


def detect(readings: Sequence[tuple[dt.datetime, float]], params: SlugParams = SlugParams(),
           fixed_baseline: float | None = None) -> tuple[list[SlugEvent], list[dt.date]]:
    """Slug events of one user and constituent, and the local days lacking a baseline.

    ``readings``: (timezone-aware instant, value in canonical unit);
    ``fixed_baseline``: the permit baseline in the same unit (flow: gpm), if any.
    """
    tz = ZoneInfo(params.timezone)
    rows = sorted(((_utc(ts), float(v)) for ts, v in readings), key=lambda r: (r[0], r[1]))
    if not rows:
        return [], []
    baselines = daily_baselines(rows, params, fixed_baseline)
    interval = usual_interval_s([ts for ts, _ in rows], params.timezone)
    lacking = sorted(d for d, b in baselines.items() if b is None or interval is None)
    if interval is None:
        return [], lacking

    events: list[SlugEvent] = []
    run: list[tuple[dt.datetime, float, float]] = []  # (ts, value, baseline)
    prev: tuple[dt.datetime, bool] | None = None

    def close() -> None:
        if run:
            duration = run_duration_s(run[0][0], run[-1][0], interval)
            if is_slug(duration, params.min_duration_min):
                peak = max(run, key=lambda r: r[1] / r[2])
                events.append(SlugEvent(run[0][0], run[-1][0], duration, peak[2], peak[1],
                                        peak[1] / peak[2], len(run)))
            run.clear()

    for ts, value in rows:
        baseline = baselines[ts.astimezone(tz).date()]
        high = is_high(value, baseline, params.ratio)
        if high:
            continues = (prev is not None and prev[1]
                         and not splits((ts - prev[0]).total_seconds(), interval, params.gap_factor))
            if not continues:
                close()
            run.append((ts, value, baseline))  # type: ignore[arg-type]
        else:
            close()
        prev = (ts, high)
    close()
    return events, lacking
