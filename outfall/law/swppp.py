"""Construction-site stormwater law (SWPPP) as pure functions: no I/O.

Sources: the stormwater law of each jurisdiction (the model town's chapter on
stormwater management, whose definitions are in its illicit discharge law, and the village's article on
stormwater. Every number comes from the jurisdiction's rules file
(``rules/<jurisdiction>.yaml``: the ``swppp`` and ``penalties.stormwater``
sections and the ``swppp_*`` readings); the functions take the loaded, typed
``Rules`` and ask each part for the version in effect on the day it applies to:
a site's classification on the day asked (its construction start), a weekly
inspection on the day that starts it, a storm inspection on the storm's day, a
penalty on the violation's day, a notice's remedial schedule and appeal period
on the notice's day. A day no version covers raises ``RulesError`` (naming the
file, the part and the day); the assets report it as not judged.

The contract's reading (section 4) of the inspection schedule:

- A site needs inspections while active: from construction_start through
  final_stabilization (or through --as-of), unless exempt. Under rules ``conditions_abc`` only a
  site meeting Condition A, B or C; under ``min_disturbed_acres``, every site disturbing that much.
- weekly: the first inspection is due by construction_start + 7 days, each
  next one by the previous inspection's date + 7; trigger_date is the start or
  the previous inspection's date.
- storm: every active day D with >= 0.5 in of rain at the site's gauge needs
  an inspection dated D or D + 1 (trigger_date D, due_by D + 1).
- An inspection after due_by makes the finding ``late`` (satisfied_on = the
  first such inspection); none, with due_by before --as-of, makes it
  ``overdue``. A requirement whose due_by falls after final_stabilization is
  not a finding, nor one not yet satisfied whose due_by is on or after --as-of.
- Every inspection kind counts; inspections dated after --as-of or before
  construction_start are ignored; several rainfall rows of one gauge and day
  are summed.

``days_late`` (an extra column): for a late finding satisfied_on - due_by; for
an overdue one the days from due_by to --as-of, or to final_stabilization when
the site was stabilized earlier (a continuing violation ends with the site's
active period).
"""

from __future__ import annotations

import bisect
import datetime as dt
import hashlib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any
from zoneinfo import ZoneInfo

from outfall.rules.words import num

UTC = dt.UTC

REQUIREMENTS = ("weekly", "storm")
FINDING_STATUSES = ("late", "overdue")

OTHER_FINDINGS = (
    "disturbance_over_limit",
    "sediment_not_removed",
    "milestone_notice_late",
    "contractor_not_certified",
    "report_not_delivered",
)

# Rainfall is compared after rounding to a millionth of an inch, so that a
# conversion such as 12.7 mm / 25.4 is not judged below 0.5 in by float noise.
RAIN_DECIMALS = 6


def reading(rules: Any, name: str, day: dt.date) -> Any:
    """The value of the named reading (``readings.<name>``) in effect on ``day``."""
    return rules.reading_at("readings", name, day)


def _days(n: Any) -> dt.timedelta:
    return dt.timedelta(days=int(n))


# --------------------------------------------------------------------------
# Site classification


@dataclass(frozen=True)
class SiteFacts:
    """What the law needs to know about a site (the contract's sites columns)."""

    disturbed_acres: float | None
    impaired_water: bool | None = False
    single_family: bool | None = False
    agricultural: bool | None = False
    exempt: bool | None = False


@dataclass(frozen=True)
class Classification:
    land_development_activity: bool
    exempt: bool
    condition_a: bool
    condition_b: bool
    condition_c: bool
    inspections_required: bool
    inspector: str | None
    reports_to_officer_weekly: bool
    reason: str
    rule: str

    @property
    def conditions(self) -> str:
        met = [
            c
            for c, flag in (("A", self.condition_a), ("B", self.condition_b), ("C", self.condition_c))
            if flag
        ]
        return ", ".join(met)


def _acres(x: float) -> str:
    return f"{x:g} acre{'' if x == 1 else 's'}"


def classify_site(facts: SiteFacts, rules: Any, day: dt.date) -> Classification:
    """Land development activity or not, exemption, Conditions A/B/C and whether
    (and by whom) inspections are required, with the sections that say so, by the
    rules in effect on ``day`` (the site's construction start)."""
    sw = rules.swppp
    acres = float(facts.disturbed_acres or 0.0)
    flags = {
        "impaired_water": bool(facts.impaired_water),
        "single_family": bool(facts.single_family),
        "agricultural": bool(facts.agricultural),
        "exempt": bool(facts.exempt),
    }
    # a code without the land development activity (or Conditions A-C) states no such class: not judged
    lda_rule = sw.land_development_activity.at(day) if sw.land_development_activity is not None else None
    lda_min = float(lda_rule.min_disturbed_acres) if lda_rule is not None else None
    lda = lda_min is not None and acres >= lda_min
    exempt = flags["exempt"]

    app = sw.applicability.at(day)
    specs = (
        app
        if app.rule == "conditions_abc"
        else (sw.conditions.at(day) if sw.conditions is not None else None)
    )
    cond_a = cond_b = cond_c = False
    c_excluded: list[str] = []
    c_min = c_below = 0.0
    spec_a = spec_b = spec_c = None
    if specs is not None:
        spec_a, spec_b, spec_c = specs.condition_a, specs.condition_b, specs.condition_c
        a_alone = bool(reading(rules, "swppp_condition_a_is_impaired_water_flag", day))
        cond_a = flags.get(spec_a.flag, False) and (a_alone or lda)
        cond_b = acres >= float(spec_b.min_disturbed_acres)
        c_min, c_below = float(spec_c.min_disturbed_acres), float(spec_c.below_acres)
        c_excluded = [f for f in spec_c.excluded_flags if flags.get(f, False)]
        cond_c = c_min <= acres < c_below and not c_excluded

    if app.rule == "min_disturbed_acres":
        app_min = float(app.min_disturbed_acres)
        needs = acres >= app_min
        why_needs = (
            f"disturbs {_acres(acres)} (at least {_acres(app_min)}): every such site needs inspections"
            if needs
            else f"inspections are required of sites disturbing {_acres(app_min)} or more"
        )
    else:
        needs = cond_a or cond_b or cond_c
        met = [n for n, f in (("A", cond_a), ("B", cond_b), ("C", cond_c)) if f]
        if needs:
            why_needs = f"meets Condition {' and '.join(met)}"
        else:
            why = []
            if c_excluded and c_min <= acres < c_below:
                why.append(
                    "Condition C excludes "
                    + " and ".join(f.replace("_", "-") for f in c_excluded)
                    + " construction"
                )
            why_needs = "meets none of Conditions A, B and C" + (f" ({'; '.join(why)})" if why else "")

    weekly = sw.weekly_inspection.at(day)
    required = needs and not exempt
    inspector = weekly.inspector if required else None
    weekly_reports = bool(weekly.reports_delivered_weekly) and required

    if lda_min is None:
        lda_text = f"disturbs {_acres(acres)}"
    elif lda:
        lda_text = "a land development activity"
    else:
        lda_text = f"not a land development activity ({_acres(acres)}, less than {_acres(lda_min)})"
    if exempt:
        reason = f"Exempt (site record): {lda_text}; no inspections required"
    elif required:
        reason = (
            f"{lda_text[0].upper()}{lda_text[1:]}; {why_needs}"
            if lda_min is not None
            else f"{why_needs[0].upper()}{why_needs[1:]}"
        )
        if cond_a and not lda and app.rule == "conditions_abc":
            reason += " (Condition A applies whatever the acreage disturbed)"
        reason += f"; inspections required, made by {inspector}"
        if weekly_reports:
            reason += ", reports delivered to the Stormwater Management Officer weekly"
    elif lda_min is None:
        reason = f"{why_needs[0].upper()}{why_needs[1:]}; no inspections required"
    else:
        reason = f"{lda_text[0].upper()}{lda_text[1:]}; {why_needs}; no inspections required"

    cites = [app.citation, lda_rule.citation if lda_rule is not None else ""]
    for flag, spec in ((cond_a, spec_a), (cond_b, spec_b), (cond_c, spec_c)):
        if flag and spec is not None:
            cites.append(spec.citation)
    if exempt and sw.exemptions is not None:
        cites.append(sw.exemptions.at(day).citation)
    if required:
        cites.append(weekly.citation)
    rule = "; ".join(dict.fromkeys(c for c in cites if c))
    return Classification(
        lda, exempt, cond_a, cond_b, cond_c, required, inspector, weekly_reports, reason, rule
    )


# --------------------------------------------------------------------------
# Active period


def active_through(final_stabilization: dt.date | None, as_of: dt.date) -> dt.date:
    """Last day of the judged period: final_stabilization when before --as-of, else --as-of."""
    if final_stabilization is not None and final_stabilization < as_of:
        return final_stabilization
    return as_of


def is_active(start: dt.date, final_stabilization: dt.date | None, as_of: dt.date) -> bool:
    """Under construction on --as-of (started, not yet finally stabilized before that day)."""
    return start <= as_of and (final_stabilization is None or final_stabilization >= as_of)


def _inspections_in_window(dates: Iterable[dt.date | None], start: dt.date, last: dt.date) -> list[dt.date]:
    return sorted({d for d in dates if d is not None and start <= d <= last})


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


# --------------------------------------------------------------------------
# Other findings of the law


@dataclass(frozen=True)
class OtherFinding:
    """A violation other than a missed inspection.

    trigger_date: the day the obligation arose (construction start, the first
    inspection finding the trap half full, the milestone, first work, the
    inspection reported); due_by: the last day to comply; satisfied_on: the
    day it was complied with (late) or None (overdue)."""

    finding: str
    trigger_date: dt.date
    due_by: dt.date
    status: str  # late | overdue
    satisfied_on: dt.date | None
    days_late: int
    subject: str | None = None
    detail: str = ""


def disturbance_finding(
    disturbed_acres: float | None,
    start: dt.date,
    final_stabilization: dt.date | None,
    approvals: Iterable[tuple[float | None, dt.date | None]],
    as_of: dt.date,
    rules: Any,
) -> OtherFinding | None:
    """More than five acres disturbed at one time without an approved SWPPP allowing it.

    approvals: (approved_max_disturbed_acres, approved_on) of the site's SWPPP
    approvals. An approval allowing at least the disturbed acreage, dated on or
    before construction start, means no finding; dated later, the finding is
    ``late`` (satisfied on the approval's date). The limit in effect on construction start applies."""
    if rules.swppp.disturbance_limit is None:  # the law states no limit: not judged
        return None
    limit = float(rules.swppp.disturbance_limit.at(start).max_acres_without_approval)
    acres = float(disturbed_acres or 0.0)
    if acres <= limit or start > as_of:
        return None
    allowing = sorted(
        on for mx, on in approvals if mx is not None and on is not None and float(mx) >= acres and on <= as_of
    )
    if allowing and allowing[0] <= start:
        return None
    base = (
        f"{_acres(acres)} disturbed from {start.isoformat()}, more than the "
        f"{_acres(limit)} allowed at any one time without an approved SWPPP allowing more"
    )
    others = [
        (mx, on)
        for mx, on in approvals
        if on is not None and on <= as_of and mx is not None and float(mx) < acres
    ]
    if others:
        best = max(float(mx) for mx, _ in others)
        base += f" (the approved SWPPP allows {_acres(best)})"
    if allowing:
        sat = allowing[0]
        return OtherFinding(
            "disturbance_over_limit",
            start,
            start,
            "late",
            sat,
            (sat - start).days,
            None,
            base + f"; an approved SWPPP allowing it is dated {sat.isoformat()}",
        )
    end = active_through(final_stabilization, as_of)
    return OtherFinding(
        "disturbance_over_limit",
        start,
        start,
        "overdue",
        None,
        max((end - start).days, 0),
        None,
        base + "; no approved SWPPP allows it",
    )


def sediment_findings(
    readings: Sequence[tuple[dt.date | None, float | None]], start: dt.date, as_of: dt.date, rules: Any
) -> list[OtherFinding]:
    """Sediment traps at or above 50% of design capacity lost at one inspection
    and still at or above it at the next: one finding per episode, corrected
    (``late``) at the first later inspection below the threshold.

    readings: (inspected_on, sediment_capacity_lost_pct) in inspection-time
    order; a day's last reading stands for the day. The threshold is the one in
    effect on the inspection that finds the trap full; the reading of the rules
    on which inspection judges the cleanout, the one in effect on construction start."""
    cleanout = rules.swppp.sediment_cleanout
    if cleanout is None:  # the law states no clean-out: not judged
        return []
    with_reading = bool(reading(rules, "swppp_sediment_next_inspection_with_reading", start))
    per_day: dict[dt.date, float | None] = {}
    for day, pct in readings:
        if day is None or not (start <= day <= as_of):
            continue
        if pct is not None and isinstance(pct, float) and math.isnan(pct):
            pct = None
        if pct is None and with_reading:
            continue
        if pct is None and day in per_day:
            continue
        per_day[day] = pct
    rows = sorted(per_day.items())
    out: list[OtherFinding] = []
    i = 0
    while i < len(rows) - 1:
        (d1, p1), (d2, p2) = rows[i], rows[i + 1]
        threshold = float(cleanout.at(d1).capacity_lost_pct)

        def full(p: float | None, threshold: float = threshold) -> bool:
            return p is not None and float(p) >= threshold

        if not (full(p1) and full(p2)):
            i += 1
            continue
        k = i + 2
        while k < len(rows) and not (rows[k][1] is not None and float(rows[k][1]) < threshold):
            k += 1
        detail = (
            f"sediment traps had lost {float(p1):g}% of design capacity at the inspection of "
            f"{d1.isoformat()} and still {float(p2):g}% at the next, on {d2.isoformat()} (cleanout required "
            f"at {threshold:g}%)"
        )
        if k < len(rows):
            sat = rows[k][0]
            out.append(
                OtherFinding(
                    "sediment_not_removed",
                    d1,
                    d2,
                    "late",
                    sat,
                    (sat - d2).days,
                    None,
                    detail + f"; below {threshold:g}% on {sat.isoformat()}",
                )
            )
            i = k
        else:
            out.append(
                OtherFinding(
                    "sediment_not_removed",
                    d1,
                    d2,
                    "overdue",
                    None,
                    max((as_of - d2).days, 0),
                    None,
                    detail + "; no cleanout recorded since",
                )
            )
            break
    return out


def _local_time(value: Any) -> dt.time:
    if isinstance(value, dt.time):
        return value
    return dt.time.fromisoformat(str(value))


def milestone_notice_finding(
    milestone: str,
    occurs_on: dt.date,
    notified_at: dt.datetime | None,
    as_of: dt.date,
    rules: Any,
    occurs_at: dt.datetime | None = None,
    tz: str | None = None,
    label: str | None = None,
) -> OtherFinding | None:
    """A milestone inspection without the 48 hours' notice the law requires.

    The milestone occurs at ``occurs_at`` when known, else at the time of day
    of the reading ``swppp_milestone_time_when_only_dated`` (00:00) on
    occurs_on. Notice is in time when given at least 48 real hours before
    (computed in UTC, so a daylight-saving change does not shift it). A
    milestone after --as-of is not judged yet; a notice after --as-of is
    treated as not given. The notice period in effect on the milestone's day applies."""
    hours = float(rules.swppp.milestone_notice.at(occurs_on).hours)
    zone = ZoneInfo(tz or rules.timezone)  # local time: the jurisdiction's
    if occurs_at is None:
        at = _local_time(reading(rules, "swppp_milestone_time_when_only_dated", occurs_on))
        occurs_at = dt.datetime.combine(occurs_on, at, tzinfo=zone)
    elif occurs_at.tzinfo is None:
        occurs_at = occurs_at.replace(tzinfo=zone)
    occurs_local = occurs_at.astimezone(zone)
    occurs_day = occurs_local.date()
    if occurs_day > as_of:
        return None
    deadline = (occurs_at.astimezone(UTC) - dt.timedelta(hours=hours)).astimezone(zone)
    due = deadline.date()
    if notified_at is not None and notified_at.tzinfo is None:
        notified_at = notified_at.replace(tzinfo=zone)
    notified_local = notified_at.astimezone(zone) if notified_at is not None else None
    head = f"{label or milestone.replace('_', ' ')} on {occurs_day.isoformat()}"
    if notified_local is not None and notified_local.date() <= as_of:
        if notified_local <= deadline:
            return None
        ahead = (occurs_at - notified_local).total_seconds() / 3600.0
        when = (
            f"only {ahead:.0f} hours before"
            if ahead > 0
            else f"{-ahead:.0f} hours after the milestone"
            if ahead < 0
            else "at the milestone"
        )
        sat = notified_local.date()
        return OtherFinding(
            "milestone_notice_late",
            occurs_day,
            due,
            "late",
            sat,
            max((min(sat, occurs_day) - due).days, 0),
            milestone,
            f"{head}: notice given {notified_local.strftime('%Y-%m-%d %H:%M %Z')}, {when} "
            f"({hours:g} hours required; deadline {deadline.strftime('%Y-%m-%d %H:%M %Z')})",
        )
    return OtherFinding(
        "milestone_notice_late",
        occurs_day,
        due,
        "overdue",
        None,
        max((occurs_day - due).days, 0),
        milestone,
        f"{head}: no notice given ({hours:g} hours required; deadline "
        f"{deadline.strftime('%Y-%m-%d %H:%M %Z')})",
    )


def certification_finding(
    contractor: str,
    signed_on: dt.date | None,
    first_work_on: dt.date,
    final_stabilization: dt.date | None,
    as_of: dt.date,
    rules: Any,
) -> OtherFinding | None:
    """A contractor working before signing the SWPPP certification statement."""
    if first_work_on > as_of or rules.swppp.contractor_certification is None:
        return None
    same_day = bool(reading(rules, "swppp_certification_same_day_counts_as_before", first_work_on))
    due = first_work_on if same_day else first_work_on - dt.timedelta(days=1)
    if signed_on is not None and signed_on <= as_of:
        if signed_on <= due:
            return None
        return OtherFinding(
            "contractor_not_certified",
            first_work_on,
            due,
            "late",
            signed_on,
            (signed_on - due).days,
            contractor,
            f"{contractor} began work on {first_work_on.isoformat()} and signed the SWPPP "
            f"certification on {signed_on.isoformat()}",
        )
    end = active_through(final_stabilization, as_of)
    return OtherFinding(
        "contractor_not_certified",
        first_work_on,
        due,
        "overdue",
        None,
        max((end - due).days, 0),
        contractor,
        f"{contractor} began work on {first_work_on.isoformat()} and has not signed the SWPPP certification",
    )


def _report_days(
    inspection_dates: Iterable[dt.date | None],
    deliveries: Mapping[dt.date, Iterable[dt.date | None]],
    start: dt.date,
    final_stabilization: dt.date | None,
    as_of: dt.date,
    rules: Any,
) -> Iterable[tuple[dt.date, dt.date, list[dt.date]]]:
    """Each inspection report the rules ask to deliver (none without ``report_delivery``): (the
    inspection's day, the last day to deliver its report by the delivery period in effect on the
    inspection's day, the days it was delivered on or before ``as_of``, earliest first)."""
    spec = rules.swppp.report_delivery
    if spec is None:
        return
    for day in _inspections_in_window(inspection_dates, start, active_through(final_stabilization, as_of)):
        due = day + _days(spec.at(day).max_days_after_inspection)
        yield day, due, sorted(d for d in deliveries.get(day, ()) if d is not None and d <= as_of)


def report_delivery_findings(
    inspection_dates: Iterable[dt.date | None],
    deliveries: Mapping[dt.date, Iterable[dt.date | None]],
    start: dt.date,
    final_stabilization: dt.date | None,
    as_of: dt.date,
    rules: Any,
) -> list[OtherFinding]:
    """Inspection reports not delivered to the Stormwater Management Officer
    within the week (none where the rules have no ``report_delivery``).

    deliveries: report (inspection) date -> the dates it was delivered. The
    delivery period in effect on the inspection's day applies."""
    out: list[OtherFinding] = []
    for day, due, got in _report_days(inspection_dates, deliveries, start, final_stabilization, as_of, rules):
        if got and got[0] <= due:
            continue
        if got:
            out.append(
                OtherFinding(
                    "report_not_delivered",
                    day,
                    due,
                    "late",
                    got[0],
                    (got[0] - due).days,
                    None,
                    f"report of the inspection of {day.isoformat()} delivered {got[0].isoformat()}",
                )
            )
        elif due < as_of:
            out.append(
                OtherFinding(
                    "report_not_delivered",
                    day,
                    due,
                    "overdue",
                    None,
                    (as_of - due).days,
                    None,
                    f"report of the inspection of {day.isoformat()} not delivered",
                )
            )
    return out


def reports_awaited(
    inspection_dates: Iterable[dt.date | None],
    deliveries: Mapping[dt.date, Iterable[dt.date | None]],
    start: dt.date,
    final_stabilization: dt.date | None,
    as_of: dt.date,
    rules: Any,
) -> list[tuple[dt.date, dt.date]]:
    """The inspection reports the Stormwater Management Officer is still waiting for on ``as_of``: (the
    inspection's day, the last day to deliver its report) for each inspection whose report is not
    delivered and whose period to deliver it has not passed (none where the rules have no
    ``report_delivery``). Each recorded inspection creates this duty of the applicant's; once its period
    passes undelivered it is a finding of ``report_delivery_findings`` instead."""
    days = _report_days(inspection_dates, deliveries, start, final_stabilization, as_of, rules)
    return [(day, due) for day, due, got in days if not got and due >= as_of]


# --------------------------------------------------------------------------
# Penalties


def years_before(day: dt.date, years: int) -> dt.date:
    """The same calendar day ``years`` earlier (29 February -> 28 February)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


def normalize_chapter(chapter: Any) -> str | None:
    """'ch. 12', 'Chapter 12', '12' -> '12'; None when no number."""
    if chapter is None:
        return None
    m = re.search(r"\d+", str(chapter))
    return (m.group(0).lstrip("0") or "0") if m else None


def count_prior_convictions(
    offense_dates: Iterable[dt.date | None], violation_on: dt.date, rules: Any
) -> int:
    """Prior convictions whose offenses were committed within the look-back before the day the new violation
    began (the penalty in effect on that day says how many years). ``offense_dates``: each conviction's
    day of the offense (convictions.offense_on; its convicted_on when that is blank): "offenses ...
    committed within a period of five years" counts the days the offenses were committed."""
    lookback = int(rules.penalties.stormwater.at(violation_on).lookback_years)
    inclusive = bool(reading(rules, "swppp_conviction_lookback_includes_first_day", violation_on))
    first = years_before(violation_on, lookback)
    return sum(
        1
        for c in offense_dates
        if c is not None and c < violation_on and (c >= first if inclusive else c > first)
    )


@dataclass(frozen=True)
class Penalty:
    offense: int  # 1 = first offense (prior convictions + 1)
    tier: int  # the tier applied: the last one covers "third or subsequent"
    prior_convictions: int
    min_usd: Decimal  # per violation
    max_usd: Decimal
    per: str  # day | week: each one a separate violation
    periods: int  # violations counted through --as-of (days or weeks)
    total_min_usd: Decimal
    total_max_usd: Decimal
    imprisonment_max_months: int | None
    citation: str
    lookback_years: int  # prior convictions counted within this many years


def _usd(value: Any) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def penalty_tier(prior_convictions: int, rules: Any, day: dt.date) -> dict[str, Any]:
    """The fine range of the offense that follows ``prior_convictions`` convictions, by the penalty in
    effect on ``day`` (the violation's)."""
    offense = max(int(prior_convictions), 0) + 1
    chosen = rules.penalties.stormwater.at(day).tier(offense)
    return {
        "offense": offense,
        "tier": int(chosen.offense),
        "min_usd": _usd(chosen.min_usd),
        "max_usd": _usd(chosen.max_usd),
    }


def violation_periods(days: int | None, per: str) -> int:
    """How many separate violations a violation continuing ``days`` days makes:
    each day or each week or part of one (the penalty's ``per``); at least one."""
    n = max(int(days or 0), 1)
    if per == "day":
        return n
    if per == "week":
        return math.ceil(n / 7)
    raise ValueError(f"rules: penalties.stormwater.per '{per}' is not 'day' or 'week'")


def assess_penalty(prior_convictions: int, days: int | None, rules: Any, day: dt.date) -> Penalty:
    """The fines of a violation that began on ``day``, by the penalty in effect that day."""
    spec = rules.penalties.stormwater.at(day)
    tier = penalty_tier(prior_convictions, rules, day)
    periods = violation_periods(days, spec.per)
    months = rules.swppp.convictions.at(day).imprisonment_max_months
    return Penalty(
        tier["offense"],
        tier["tier"],
        int(prior_convictions),
        tier["min_usd"],
        tier["max_usd"],
        spec.per,
        periods,
        _usd(tier["min_usd"] * periods),
        _usd(tier["max_usd"] * periods),
        int(months) if months is not None else None,
        spec.citation,
        int(spec.lookback_years),
    )


# --------------------------------------------------------------------------
# Notices of violation and stop-work orders


@dataclass(frozen=True)
class Violation:
    """A finding of either findings table, as a notice needs it."""

    site_id: str
    finding: str  # weekly | storm | one of OTHER_FINDINGS
    trigger_date: dt.date
    due_by: dt.date
    status: str  # late | overdue
    satisfied_on: dt.date | None
    days_late: int | None
    rule: str
    subject: str | None = None
    detail: str = ""
    precip_in: float | None = None
    source_table: str = "swppp_inspection_findings"


@dataclass(frozen=True)
class SiteRecord:
    site_id: str
    jurisdiction: str
    name: str | None
    address: str | None
    applicant: str | None
    construction_start: dt.date
    final_stabilization: dt.date | None = None
    rain_gauge_id: str | None = None
    owner_name: str | None = None  # the landowner, whom the notice is addressed to
    owner_address: str | None = None  # the landowner's address, in one line


def _d(day: dt.date | None) -> str:
    return f"{day:%B} {day.day}, {day.year}" if day else ""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def _money(x: Decimal) -> str:
    return f"${x:,.2f}"


def notice_id(v: Violation, jurisdiction: str) -> str:
    """A stable, readable identifier of the notice of one violation."""
    codes = {
        "weekly": "WK",
        "storm": "ST",
        "disturbance_over_limit": "DA",
        "sediment_not_removed": "SD",
        "milestone_notice_late": "MN",
        "contractor_not_certified": "CC",
        "report_not_delivered": "RD",
    }
    key = "|".join([jurisdiction, v.site_id, v.finding, v.trigger_date.isoformat(), v.subject or ""])
    digest = hashlib.sha1(key.encode("utf-8")).hexdigest()[:6]
    site = re.sub(r"[^A-Za-z0-9]+", "-", v.site_id).strip("-")[:24] or "site"
    return (
        f"NOV-{jurisdiction[:1].upper()}-{site}-{codes.get(v.finding, 'XX')}-{v.trigger_date:%Y%m%d}-{digest}"
    )


def _hours(days: int) -> str:
    """A window of whole days in the law's words: 1 -> 'within 24 hours'."""
    return f"within {days * 24} hours"


def _storm_precipitation(storm: Any) -> str:
    """'0.5 inch of precipitation or more' (at least) or 'more than 0.5 inch of precipitation'."""
    amount = f"{num(storm.threshold_in)} inch of precipitation"
    return f"more than {amount}" if storm.counts == "more_than" else f"{amount} or more"


def _nature(v: Violation, site: SiteRecord, as_of: dt.date, rules: Any) -> str:
    """The nature of the violation, by the rules in effect on the day that started it."""
    sw = rules.swppp
    if v.finding == "weekly":
        since = (
            "the start of construction on " + _d(v.trigger_date)
            if v.trigger_date == site.construction_start
            else "the previous inspection on " + _d(v.trigger_date)
        )
        interval = sw.weekly_inspection.at(v.trigger_date).interval_days
        if v.status == "late":
            return (
                f"The inspection of the site's erosion and sediment control practices due by {_d(v.due_by)} "
                f"({interval} days after {since}) was not made until {_d(v.satisfied_on)}, "
                f"{_plural(int(v.days_late or 0), 'day')} late."
            )
        return (
            "No inspection of the site's erosion and sediment control practices has been made since "
            f"{since}. An inspection was due by {_d(v.due_by)}; none is recorded as of {_d(as_of)}."
        )
    if v.finding == "storm":
        rain = f"{v.precip_in:.2f} inches of precipitation" if v.precip_in is not None else "A storm event"
        gauge = f" at rain gauge {site.rain_gauge_id}" if site.rain_gauge_id else ""
        storm = sw.storm_inspection.at(v.trigger_date)
        head = (
            f"{rain} fell on {_d(v.trigger_date)}{gauge}, a storm event producing "
            f"{_storm_precipitation(storm)}. An inspection was required {_hours(storm.window_days)} (by "
            f"{_d(v.due_by)})"
        )
        if v.status == "late":
            return head + f" but was not made until {_d(v.satisfied_on)}."
        return head + f"; none is recorded as of {_d(as_of)}."
    texts = {
        "disturbance_over_limit": "More than the permitted area was disturbed at one time: ",
        "sediment_not_removed": "Sediment was not removed from sediment traps or ponds: ",
        "milestone_notice_late": "The required notice before a construction milestone was not given in "
        "time: ",
        "contractor_not_certified": "A contractor undertook land development activity before signing the "
        "SWPPP certification: ",
        "report_not_delivered": "An inspection report was not delivered to the Stormwater Management Officer "
        "within the week: ",
    }
    return texts.get(v.finding, "") + v.detail + "."


def _remedial(v: Violation, as_of: dt.date, rules: Any) -> str:
    """The remedial measures of the finding's kind, in the rules' words with their citation, by the rules
    in effect on the notice's day (``as_of``); the time schedule is the monthly notice's (the days the
    officer gives when it is mailed), never a number of these rules."""
    version = rules.swppp.remedial_measures.get(as_of)
    measure = getattr(version, v.finding, None) if version is not None else None
    text = (
        f"{measure.text} ({measure.citation})"
        if measure is not None
        else "The rules give no remedial measures for this kind of violation: state them before mailing."
    )
    if v.status == "late" and v.satisfied_on is not None:
        return f"The violation was corrected on {_d(v.satisfied_on)}. {text}"
    return text


def penalty_schedule(p: Penalty) -> str:
    """The penalty of the offense a conviction would be (by prior convictions within the look-back), stated
    whole: the fine range and the imprisonment, and each day (week) a separate violation. No amount accrued:
    that is the mailed notice's (``penalty_accrued``)."""
    kind = (
        _ordinal(p.offense)
        if p.offense == p.tier
        else f"{_ordinal(p.offense)} (a {_ordinal(p.tier)} or subsequent)"
    )
    text = (
        f"On conviction of a {kind} offense"
        + (
            f" ({_plural(p.prior_convictions, 'prior offense')} within {p.lookback_years} years on record)"
            if p.prior_convictions
            else f" (no prior offense within {p.lookback_years} years on record)"
        )
        + ", a fine of "
        + (
            f"not more than {_money(p.max_usd)}"
            if p.min_usd == 0
            else f"not less than {_money(p.min_usd)} nor more than {_money(p.max_usd)}"
        )
        + " per violation"
    )
    if p.imprisonment_max_months:
        text += (
            f" or imprisonment for a period not to exceed {_plural(p.imprisonment_max_months, 'month')}, or "
            "both"
        )
    unit = "day" if p.per == "day" else "week"
    return text + f". Each {unit}'s continued violation is a separate additional violation. ({p.citation})"


def penalty_accrued(periods: int, per: str, total_max: Decimal, correct_by: dt.date, as_of: dt.date) -> str:
    """What a mailed notice's violation has accrued: the days (weeks) it continued after the notice's last
    day to correct, and the most those fines can be (the same numbers as violation_periods and
    total_fine_max_usd)."""
    unit = "day" if per == "day" else "week"
    if periods <= 0:
        return f"No {unit} of violation has accrued after the last day to correct, {_d(correct_by)}."
    return (
        f"After the last day to correct, {_d(correct_by)}, this violation continued {_plural(periods, unit)} "
        f"as of {_d(as_of)}, for fines of up to {_money(total_max)}."
    )


def build_notice(
    v: Violation, site: SiteRecord, inspector: str | None, prior_convictions: int, as_of: dt.date, rules: Any
) -> dict[str, Any]:
    """The six contents the law requires of a notice of violation, and the penalty.

    1 the name and address of the landowner, developer or applicant; 2 the
    site; 3 the nature of the violation; 4 the remedial measures and their
    time schedule; 5 the penalties; 6 the right to appeal and where to
    file it. The penalty is the one in effect on the violation's day (the day
    after due_by); the remedial schedule, the appeal period and the issuer those
    in effect on the notice's day (``as_of``)."""
    sw = rules.swppp
    nov = sw.notice_of_violation.at(as_of)
    violation_on = v.due_by + dt.timedelta(days=1)
    penalty = assess_penalty(prior_convictions, v.days_late, rules, violation_on)
    remedial = _remedial(v, as_of, rules)
    appeal_rule = sw.appeal.at(as_of)
    appeal_days = appeal_rule.days
    filed_with = nov.appeal_filed_with
    appeal = (
        f"The determination of violation may be appealed to {filed_with} by filing a written notice of "
        f"appeal within {appeal_days} days of service of this notice of violation. ({appeal_rule.citation})"
    )
    missing = []
    if not (site.owner_name or "").strip():
        missing.append("name of the landowner")
    if not (site.owner_address or "").strip():
        missing.append("address of the landowner")
    if not (site.address or "").strip():
        missing.append("address of the site")
    place = ", ".join(x for x in ((site.name or "").strip(), (site.address or "").strip()) if x)
    site_description = f"{place} (site {site.site_id})" if place else f"Site {site.site_id}"
    return {
        "notice_id": notice_id(v, site.jurisdiction),
        "issued_on": as_of,
        "jurisdiction": site.jurisdiction,
        "site_id": site.site_id,
        "source_table": v.source_table,
        "finding": v.finding,
        "subject": v.subject,
        "trigger_date": v.trigger_date,
        "due_by": v.due_by,
        "satisfied_on": v.satisfied_on,
        "status": v.status,
        "days_late": v.days_late,
        "violation_on": violation_on,
        "recipient_name": (site.owner_name or "").strip() or "Landowner of record",
        "recipient_address": (site.owner_address or "").strip() or None,
        "site_description": site_description,
        "nature_of_violation": _nature(v, site, as_of, rules),
        "remedial_measures": remedial,
        "remedial_due_by": None,  # the monthly notice's last day to correct, once mailed
        "penalty_statement": penalty_schedule(penalty),
        "appeal_statement": appeal,
        "appeal_days": appeal_days,
        "appeal_filed_with": filed_with,
        "prior_convictions": penalty.prior_convictions,
        "offense_number": penalty.offense,
        "fine_min_usd": penalty.min_usd,
        "fine_max_usd": penalty.max_usd,
        "penalty_per": penalty.per,
        "violation_periods": penalty.periods,
        "total_fine_min_usd": penalty.total_min_usd,
        "total_fine_max_usd": penalty.total_max_usd,
        "contents_complete": not missing,
        "missing_contents": "; ".join(missing) or None,
        "issuer": nov.issuer,
        "rule": v.rule,
    }


def stop_work_warranted(v: Violation, site_active: bool, rules: Any, day: dt.date) -> bool:
    """Whether the rules in effect on ``day`` propose a stop-work order for this kind of violation on an
    active site. Whether an order may rest on it is the order's day's question (contract 7.3: a mailed
    notice listing it, its last day to correct passed, the violation not corrected by then:
    ``assets.stormwater.swppp.stop_work_basis``)."""
    if not site_active or rules.swppp.stop_work_order is None:
        return False
    return v.finding in set(rules.swppp.stop_work_order.at(day).for_findings)


def finding_labels(rules: Any, day: dt.date) -> dict[str, str]:
    """Each finding's requirement in words, by the rules in effect on ``day`` (a notice's day)."""
    sw = rules.swppp
    weekly, storm = sw.weekly_inspection.at(day), sw.storm_inspection.at(day)
    labels = {
        "weekly": f"Inspection at least every {weekly.interval_days} days",
        "storm": f"Inspection {_hours(storm.window_days)} of a storm event of {storm_amount_words(storm)}",
    }
    if sw.disturbance_limit is not None:
        labels["disturbance_over_limit"] = (
            f"Not more than {num(sw.disturbance_limit.at(day).max_acres_without_approval)} "
            "acres disturbed at one time without an approved SWPPP"
        )
    if sw.sediment_cleanout is not None:
        labels["sediment_not_removed"] = (
            f"Sediment removed when traps have lost "
            f"{num(sw.sediment_cleanout.at(day).capacity_lost_pct)}% of capacity"
        )
    if sw.milestone_notice is not None:
        labels["milestone_notice_late"] = (
            f"{num(sw.milestone_notice.at(day).hours)} hours' notice before a construction milestone"
        )
    if sw.contractor_certification is not None:
        labels["contractor_not_certified"] = "Contractor certification signed before work"
    if sw.report_delivery is not None:
        labels["report_not_delivered"] = (
            "Inspection reports delivered to the Stormwater Management Officer weekly"
        )
    return labels


def finding_rule(rules: Any, finding: str, day: dt.date) -> tuple[str, str | None]:
    """(citation, the law's words quoted) of a finding other than a missed inspection, by the rules in
    effect on ``day`` (the day the obligation arose)."""
    sw = rules.swppp
    part = {
        "disturbance_over_limit": sw.disturbance_limit,
        "sediment_not_removed": sw.sediment_cleanout,
        "milestone_notice_late": sw.milestones,
        "contractor_not_certified": sw.contractor_certification,
        "report_not_delivered": sw.report_delivery,
    }.get(finding)
    citation = part.at(day).citation if part is not None else ""
    texts = sw.section_text.at(day) if sw.section_text is not None else None
    return citation, getattr(texts, finding, None)
