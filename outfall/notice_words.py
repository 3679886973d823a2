"""What a notice of violation says of each item, in words, by the rules of the letter's day.

A notice (``outfall.law.notices``) lists items of several kinds; its letter has one section per
kind, each a short sentence, a table (one row per item) and the rules it cites. This module turns
items into those sections. Nothing here decides what is a violation: the items come from the
tables that judged them; this only says them, as the facts stood on the letter's day (``day``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from outfall.law.notices import Item

PARAMETER_LABELS = {
    "BOD": "BOD (5-day biochemical oxygen demand)",
    "COD": "COD (chemical oxygen demand)",
    "TSS": "suspended solids (TSS)",
    "chlorine_demand": "chlorine demand",
    "FOG": "fats, oils and grease (FOG)",
    "pH": "pH",
    "temperature": "temperature",
}
SAMPLE_TYPES = {"composite": "composite sample", "grab": "grab sample"}
FREQUENCY_WORDS = {
    "monthly": "every calendar month",
    "quarterly": "every calendar quarter",
    "semiannual": "every half-year (January-June, July-December)",
    "annual": "every calendar year",
}


def parameter_label(parameter: Any) -> str:
    return PARAMETER_LABELS.get(str(parameter), str(parameter))


def day_words(day: dt.date | None) -> str:
    return "" if day is None else f"{day:%B} {day.day}, {day.year}"


def month_words(day: dt.date) -> str:
    return f"{day:%B} {day.year}"


def number(value: Any, digits: int = 4) -> str:
    if value is None:
        return "(no value)"
    text = f"{float(value):,.{digits}f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def period_words(start: dt.date, end: dt.date) -> str:
    """A calendar period in words: 'October 2026', 'July-September 2026', 'the year 2026'."""
    if start.month == end.month and start.year == end.year:
        return month_words(start)
    if start.year == end.year and start.month == 1 and end.month == 12:
        return f"the year {start.year}"
    if start.year == end.year:
        return f"{start:%B}-{end:%B} {start.year}"
    return f"{day_words(start)} - {day_words(end)}"


@dataclass
class Section:
    """One section of a letter: the items of one kind."""

    item: str
    title: str
    lead: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)

    def add(self, item: Item, cells: list[str]) -> None:
        self.rows.append(cells)
        if item.rule and item.rule not in self.rules:
            self.rules.append(item.rule)


# ------------------------------------------------------------------ each kind of item in words


def _sample(i: Item, day: dt.date, rules: Any) -> list[str]:
    word = "at least" if i.fact("limit_type") == "min" else "at most"
    unit = i.fact("unit") or ""
    kind = SAMPLE_TYPES.get(str(i.fact("sample_type")), "sample")
    return [
        f"{i.ref} ({kind})",
        day_words(i.month_day),
        parameter_label(i.fact("parameter")),
        f"{number(i.fact('value'))} {unit}".strip(),
        f"{word} {number(i.fact('limit_value'))} {unit}".strip(),
    ]


def _minutes_words(minutes: Any) -> str:
    """91 -> '1 hour 31 minutes'; 45 -> '45 minutes'."""
    total = int(round(float(minutes or 0)))
    hours, mins = divmod(total, 60)
    parts = [f"{hours} hour{'s' if hours != 1 else ''}"] if hours else []
    if mins or not parts:
        parts.append(f"{mins} minute{'s' if mins != 1 else ''}")
    return " ".join(parts)


def _clock_words(moment: Any) -> str:
    """A local moment in words: 'March 3, 2026, 14:05'."""
    return f"{day_words(moment.date())}, {moment:%H:%M}" if moment is not None else ""


def _excursion(i: Item, day: dt.date, rules: Any) -> list[str]:
    word = "at least" if i.fact("limit_type") == "min" else "at most"
    unit = i.fact("unit") or ""
    return [
        parameter_label(i.fact("parameter")),
        f"{_clock_words(i.fact('local_start'))} to {_clock_words(i.fact('local_end'))}",
        f"{_minutes_words(i.fact('duration_min'))} "
        f"(the law allows {_minutes_words(i.fact('excursion_minutes'))})",
        f"{number(i.fact('extreme_value'))} {unit}".strip(),
        f"{word} {number(i.fact('limit_value'))} {unit}".strip(),
    ]


def _statistic(i: Item, day: dt.date, rules: Any) -> list[str]:
    start = i.fact("period_start")
    when = day_words(start) if i.item == "daily_max" else month_words(start)
    n = i.fact("samples")
    unit = i.fact("unit") or ""
    value = f"{number(i.fact('value'))} {unit}".strip()
    if n:
        value += f" ({n} sample{'s' if n != 1 else ''})"
    return [
        when,
        parameter_label(i.fact("parameter")),
        value,
        f"{number(i.fact('limit_value'))} {unit}".strip(),
    ]


def _no_permit(i: Item, day: dt.date, rules: Any) -> list[str]:
    days = [d for d in (i.fact("days") or ()) if d <= day]
    samples = sum(int(s) for d, s in zip(i.fact("days") or (), i.fact("samples_by_day") or ()) if d <= day)
    readings = sum(int(r) for d, r in zip(i.fact("days") or (), i.fact("readings_by_day") or ()) if d <= day)
    what = []
    if samples:
        what.append(f"{samples} sample{'s' if samples != 1 else ''}")
    if readings:
        what.append(f"{readings:,} flow reading{'s' if readings != 1 else ''} above zero")
    expires, effective = i.fact("permit_expires"), i.fact("permit_effective")
    if i.fact("finding") == "never_permitted":
        permit = "no permit issued to you"
    elif i.fact("finding") == "permit_not_yet_effective" and effective is not None:
        permit = f"your permit takes effect {day_words(effective)}"
    elif expires is not None:
        permit = f"your permit expired {day_words(expires)}"
    else:
        permit = "no permit in effect"
    span = day_words(days[0]) if len(days) == 1 else f"{day_words(days[0])} to {day_words(days[-1])}"
    return [
        month_words(i.month_day),
        f"{len(days)} day{'s' if len(days) != 1 else ''} ({span})",
        " and ".join(what) or "discharge recorded",
        permit,
    ]


def report_label(obligation: str, rules: Any, on: dt.date) -> str:
    """What the user owed, in words, with the numbers of the rules in effect on ``on``."""
    n = rules.notices
    if obligation == "violation_notice_24h":
        return (
            f"notice to the Town within {n.self_monitoring.at(on).notice_hours} hours of a violation found "
            "by your own sampling"
        )
    if obligation == "resample_30d":
        return (
            f"repeat sampling, with the result submitted, within {n.self_monitoring.at(on).resample_days} "
            "days of a violation found by your own sampling"
        )
    if obligation == "slug_report":
        return f"written report within {n.slug_report.at(on).days} days of a slug discharge"
    if obligation == "accidental_statement":
        return (
            f"written statement within {n.accidental_statement.at(on).days} days of an accidental discharge"
        )
    if obligation == "periodic_report":
        return f"periodic report (at intervals of not more than {n.periodic_report.at(on).max_months} months)"
    return obligation.replace("_", " ")


def _report(i: Item, day: dt.date, rules: Any) -> list[str]:
    due = i.fact("due")
    trigger = i.fact("trigger_date") or due
    label = report_label(str(i.fact("obligation")), rules, trigger)
    detail = str(i.fact("detail") or "").strip()
    if i.resolved_on is not None:
        late = (i.resolved_on - due).days
        got = f"received {day_words(i.resolved_on)}, {late} day{'s' if late != 1 else ''} late"
    else:
        got = f"not received as of {day_words(day)}"
    return [label[:1].upper() + label[1:] + (f": {detail}" if detail else ""), day_words(due), got]


def _testing(i: Item, day: dt.date, rules: Any) -> list[str]:
    kind = SAMPLE_TYPES.get(str(i.fact("sample_type") or ""), "sample of either type")
    basis = str(i.fact("basis") or "").strip()
    required = f"{FREQUENCY_WORDS.get(str(i.fact('frequency')), str(i.fact('frequency')))}, {kind}"
    return [
        parameter_label(i.fact("parameter")),
        period_words(i.fact("period_start"), i.fact("period_end")),
        required + (f" ({basis})" if basis else ""),
        "none received",
    ]


def _inspection(i: Item, day: dt.date, rules: Any, labels: dict[str, str]) -> list[str]:
    made = (
        f"made {day_words(i.resolved_on)}, late"
        if i.resolved_on is not None
        else f"none recorded as of {day_words(day)}"
    )
    requirement = str(i.fact("requirement"))
    return [
        labels.get(requirement, requirement),
        day_words(i.fact("trigger_date")),
        day_words(i.fact("due_by")),
        made,
    ]


def _other(i: Item, day: dt.date, rules: Any, labels: dict[str, str]) -> list[str]:
    finding = str(i.fact("finding"))
    what = labels.get(finding, finding.replace("_", " "))
    subject = str(i.fact("subject") or "").replace("_", " ").strip()
    if subject:
        what += f" ({subject})"
    due = i.fact("due_by")
    ended = i.fact("ended_on")
    if i.resolved_on is not None:
        complied = f"complied with {day_words(i.resolved_on)}, late"
    elif isinstance(ended, dt.date) and ended <= day:  # a continuing violation the inputs end (8.1)
        complied = f"not complied with; it continued to {day_words(ended)}, the site's final stabilization"
    else:
        complied = f"not complied with: continuing on {day_words(day)}"
    return [what, day_words(i.fact("trigger_date")), day_words(due) if due else "", complied]


SEWER_SECTIONS: dict[str, tuple[str, str, list[str], Callable]] = {
    "sample": (
        "Sample results over a limit",
        "Each sample result below broke a limit that applies to your discharge.",
        ["Sample", "Collected", "Parameter", "Measured", "Limit"],
        _sample,
    ),
    "excursion": (
        "Continuous readings outside a limit for longer than allowed",
        "Your continuous monitoring readings below stayed outside a limit for longer than the law allows "
        "an excursion to last; each such excursion is a violation.",
        ["Parameter", "Outside the limit", "Lasted", "Most extreme reading", "Limit"],
        _excursion,
    ),
    "daily_max": (
        "Daily maximums over your permit's limit",
        "The value of each day below (the day's 24-hour composite, or the mean of its grab samples) was "
        "above the daily maximum your permit allows.",
        ["Day", "Parameter", "Daily value", "Daily maximum allowed"],
        _statistic,
    ),
    "monthly_avg": (
        "Monthly averages over your permit's limit",
        "The average of each month below was above the monthly average your permit allows.",
        ["Month", "Parameter", "Monthly average", "Monthly average allowed"],
        _statistic,
    ),
    "no_permit": (
        "Discharging without a permit",
        "Your premises discharged into the public sewers on the days below, when no permit of yours was "
        "in effect.",
        ["Month", "Days", "Discharge shown by", "Permit"],
        _no_permit,
    ),
    "late_report": (
        "Reports late or not received",
        "Each report, notice or statement below was not received by the day it was due.",
        ["Required", "Due", "Received"],
        _report,
    ),
    "missed_testing": (
        "Required testing not done",
        "The administrator requires the testing below; no sample of it was taken in the period.",
        ["Parameter", "Period", "Testing required", "Samples"],
        _testing,
    ),
}


def sewer_sections(items: list[Item], day: dt.date, rules: Any) -> list[Section]:
    """The sections of a sewer notice: one per kind of item present, in the law's order."""
    out: dict[str, Section] = {}
    for i in items:
        title, lead, headers, cells = SEWER_SECTIONS[i.item]
        section = out.setdefault(i.item, Section(i.item, title, lead, headers))
        section.add(i, cells(i, day, rules))
    return list(out.values())


def stormwater_sections(items: list[Item], day: dt.date, rules: Any, labels: dict[str, str]) -> list[Section]:
    """The sections of a stormwater notice: required inspections missed, then the other violations."""
    out: dict[str, Section] = {}
    for i in items:
        if i.item == "inspection":
            section = out.setdefault(
                i.item,
                Section(
                    i.item,
                    "Required inspections not made in time",
                    "Each inspection below was required and was not made by the day it was due.",
                    ["Requirement", "Arose on", "Due by", "Made"],
                ),
            )
            section.add(i, _inspection(i, day, rules, labels))
        else:
            section = out.setdefault(
                i.item,
                Section(
                    i.item,
                    "Other violations",
                    "Each requirement below was not met in time.",
                    ["Requirement", "Arose on", "Due by", "Complied with"],
                ),
            )
            section.add(i, _other(i, day, rules, labels))
    return list(out.values())


def sentence(item: Item, day: dt.date, rules: Any, labels: dict[str, str] | None = None) -> str:
    """One item as a plain sentence, for a line of a person's list (a finding at the municipality's own
    site): "Inspection at least every 7 days was due by April 3, 2026 and was made April 4, 2026, late." A
    sewer item is its line of words (``describe``)."""
    if item.kind == "sewer":
        text = describe(item, day, rules, labels)
        return text[:1].upper() + text[1:] + "."
    labels = labels or {}
    what, arose, due, done = (_inspection if item.item == "inspection" else _other)(item, day, rules, labels)
    when = f" was due by {due}" if due else f" arose {arose}"
    since = ""
    if item.resolved_on is not None:
        status = f"and was {done}"
    elif item.item == "inspection":
        status = f"and {done.replace('none recorded', 'none is recorded')}"
    else:
        status = f"and is {done}"
    return f"{what}{when}{since} {status}."


def describe(item: Item, day: dt.date, rules: Any, labels: dict[str, str] | None = None) -> str:
    """One item in one line of words (the notice_items table and the pages)."""
    if item.kind == "sewer":
        title, _lead, headers, cells = SEWER_SECTIONS[item.item]
        values = cells(item, day, rules)
    else:
        labels = labels or {}
        headers = [
            "Requirement",
            "Arose on",
            "Due by",
            "Made" if item.item == "inspection" else "Complied with",
        ]
        values = (_inspection if item.item == "inspection" else _other)(item, day, rules, labels)
    return "; ".join(f"{h.lower()}: {v}" for h, v in zip(headers, values) if v)
