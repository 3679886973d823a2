"""Notices of violation and stop-work orders, of the construction-site stormwater law (SWPPP).

Pure functions, no I/O; ``outfall.law.swppp`` (which names them all) gives the reading of the law they
follow."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from outfall.law.swppp.inspections import (
    storm_amount_words,
)
from outfall.law.swppp.penalties import (
    Penalty,
    assess_penalty,
)
from outfall.rules.words import num

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
    ``assets.stormwater.stop_work.stop_work_basis``)."""
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
