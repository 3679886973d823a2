"""Weekly and storm inspections, of the construction-site stormwater law (SWPPP).

Pure functions, no I/O; ``outfall.law.swppp`` (which names them all) gives the reading of the law they
follow."""

from __future__ import annotations

import bisect
import datetime as dt
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from outfall.law.swppp.sites import (
    FINDING_STATUSES,
    RAIN_DECIMALS,
    _days,
    _inspections_in_window,
    active_through,
)
from outfall.rules.words import num

# --------------------------------------------------------------------------
# Weekly and storm inspections


@dataclass(frozen=True)
class Requirement:
    """One inspection the law requires, and how it was met."""

    requirement: str  # weekly | storm
    trigger_date: dt.date
    due_by: dt.date
    status: str  # met | late | overdue | pending | after_stabilization
    satisfied_on: dt.date | None = None
    days_late: int | None = None
    precip_in: float | None = None  # storm: the day's rainfall

    @property
    def is_finding(self) -> bool:
        return self.status in FINDING_STATUSES


def weekly_requirements(
    start: dt.date,
    final_stabilization: dt.date | None,
    inspection_dates: Iterable[dt.date | None],
    as_of: dt.date,
    rules: Any,
) -> list[Requirement]:
    """Every weekly requirement from construction_start on, with its status.

    The last one is the next inspection due (``pending``), an ``overdue`` one,
    or the first falling after final stabilization (``after_stabilization``).
    Each is due by the interval in effect on the day that starts it."""
    weekly = rules.swppp.weekly_inspection

    def interval(trigger: dt.date) -> dt.timedelta:
        return _days(weekly.at(trigger).interval_days)

    dates = _inspections_in_window(inspection_dates, start, as_of)
    end = active_through(final_stabilization, as_of)
    out: list[Requirement] = []
    prev = start
    for day in dates:
        if day <= prev:  # an inspection on the start day: the first one is still due by start + 7
            continue
        due = prev + interval(prev)
        if final_stabilization is not None and due > final_stabilization:
            out.append(Requirement("weekly", prev, due, "after_stabilization"))
            return out
        if day <= due:
            out.append(Requirement("weekly", prev, due, "met", day, 0))
        else:
            out.append(Requirement("weekly", prev, due, "late", day, (day - due).days))
        prev = day
    due = prev + interval(prev)
    if final_stabilization is not None and due > final_stabilization:
        out.append(Requirement("weekly", prev, due, "after_stabilization"))
    elif due < as_of:
        out.append(Requirement("weekly", prev, due, "overdue", None, max((end - due).days, 0)))
    else:
        out.append(Requirement("weekly", prev, due, "pending"))
    return out


def weekly_findings(
    start: dt.date,
    final_stabilization: dt.date | None,
    inspection_dates: Iterable[dt.date | None],
    as_of: dt.date,
    rules: Any,
) -> list[Requirement]:
    """The weekly requirements that are findings (late or overdue)."""
    return [
        r
        for r in weekly_requirements(start, final_stabilization, inspection_dates, as_of, rules)
        if r.is_finding
    ]


def daily_totals(
    rainfall: Mapping[dt.date, float | None] | Iterable[tuple[dt.date, float | None]],
) -> dict[dt.date, float]:
    """Rain per day: several rows of one day (sub-daily data) are summed; blanks are skipped."""
    pairs = rainfall.items() if isinstance(rainfall, Mapping) else rainfall
    totals: dict[dt.date, float] = {}
    for day, value in pairs:
        if day is None or value is None or (isinstance(value, float) and math.isnan(value)):
            continue
        totals[day] = totals.get(day, 0.0) + float(value)
    return totals


def is_storm(precip_in: float, rules: Any, day: dt.date) -> bool:
    """A storm event: the day's rain is at least (or, where the law counts so, more than) the threshold in
    effect on that day."""
    storm = rules.swppp.storm_inspection.at(day)
    rain, threshold = round(float(precip_in), RAIN_DECIMALS), float(storm.threshold_in)
    return rain > threshold if storm.counts == "more_than" else rain >= threshold


def storm_amount_words(storm: Any, unit: str = "inch") -> str:
    """The threshold as the law counts it: '0.5 inch or more', or 'more than 0.5 inch'."""
    amount = f"{num(storm.threshold_in)} {unit}"
    return f"more than {amount}" if storm.counts == "more_than" else f"{amount} or more"


def storm_days(
    rainfall: Mapping[dt.date, float | None] | Iterable[tuple[dt.date, float | None]],
    first: dt.date,
    last: dt.date,
    rules: Any,
) -> list[dt.date]:
    """Days from first through last whose (summed) rainfall makes a storm event."""
    totals = daily_totals(rainfall)
    return sorted(d for d, v in totals.items() if first <= d <= last and is_storm(v, rules, d))


def storm_requirements(
    start: dt.date,
    final_stabilization: dt.date | None,
    inspection_dates: Iterable[dt.date | None],
    rainfall: Mapping[dt.date, float | None] | Iterable[tuple[dt.date, float | None]],
    as_of: dt.date,
    rules: Any,
) -> list[Requirement]:
    """One requirement per storm day of the active period, with its status (the window in effect on
    the storm's day)."""
    end = active_through(final_stabilization, as_of)
    dates = _inspections_in_window(inspection_dates, start, as_of)
    totals = daily_totals(rainfall)
    out: list[Requirement] = []
    for day in storm_days(totals, start, end, rules):
        due = day + _days(rules.swppp.storm_inspection.at(day).window_days)
        rain = round(totals[day], RAIN_DECIMALS)
        if final_stabilization is not None and due > final_stabilization:
            out.append(Requirement("storm", day, due, "after_stabilization", precip_in=rain))
            continue
        i = bisect.bisect_left(dates, day)
        first = dates[i] if i < len(dates) else None
        if first is not None and first <= due:
            out.append(Requirement("storm", day, due, "met", first, 0, rain))
        elif first is not None:
            out.append(Requirement("storm", day, due, "late", first, (first - due).days, rain))
        elif due < as_of:
            out.append(Requirement("storm", day, due, "overdue", None, max((end - due).days, 0), rain))
        else:
            out.append(Requirement("storm", day, due, "pending", precip_in=rain))
    return out


def storm_findings(
    start: dt.date,
    final_stabilization: dt.date | None,
    inspection_dates: Iterable[dt.date | None],
    rainfall: Mapping[dt.date, float | None] | Iterable[tuple[dt.date, float | None]],
    as_of: dt.date,
    rules: Any,
) -> list[Requirement]:
    """The storm requirements that are findings (late or overdue)."""
    return [
        r
        for r in storm_requirements(start, final_stabilization, inspection_dates, rainfall, as_of, rules)
        if r.is_finding
    ]


def upcoming_inspections(
    start: dt.date,
    final_stabilization: dt.date | None,
    inspection_dates: Iterable[dt.date | None],
    rainfall: Mapping[dt.date, float | None] | Iterable[tuple[dt.date, float | None]],
    as_of: dt.date,
    rules: Any,
) -> list[Requirement]:
    """For planning: the next weekly inspection (pending or already overdue) and
    every storm inspection not yet made whose due_by is --as-of or the day after."""
    dates = list(inspection_dates)
    out: list[Requirement] = []
    weekly = weekly_requirements(start, final_stabilization, dates, as_of, rules)
    if weekly and weekly[-1].status in ("pending", "overdue"):
        out.append(weekly[-1])
    horizon = as_of + _days(rules.swppp.storm_inspection.at(as_of).window_days)
    out.extend(
        r
        for r in storm_requirements(start, final_stabilization, dates, rainfall, as_of, rules)
        if r.status == "pending" and r.due_by <= horizon
    )
    return out
