"""The officer's coming work (``swppp_upcoming``): per active site the next weekly inspection, any storm
inspection due within the rules' window, and the milestones of the coming week."""

import datetime as dt
from zoneinfo import ZoneInfo

import pandas as pd
from dagster import (
    MaterializeResult,
    MetadataValue,
)
from dagster_duckdb import DuckDBResource

from assets.common import (
    GROUP_STORMWATER,
    table_asset,
    table_result,
    warehouse,
)
from assets.run import replace_judged
from assets.stormwater.swppp_shared import (
    _classified_sites,
    _counts,
    _daily_rain,
    _gauge_key,
    _inspections,
    _not_judged,
    _rules,
    _upcoming_status,
)
from outfall.law import swppp as law
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules, RulesError
from outfall.rules.words import DESCRIBE
from outfall.warehouse import records, transaction

UPCOMING_COLUMNS = [
    "site_id",
    "jurisdiction",
    "site_name",
    "requirement",
    "trigger_date",
    "due_by",
    "days_until_due",
    "status",
    "inspector",
    "detail",
    "rule",
    "then_due",
]


def _then_due(r: Rules, s: dict, day: dt.date) -> str | None:
    """The duty an inspection of this site creates once it is recorded (contract 8.5: named where it is
    recorded): its report, to the officer within the rules' days, where the site's reports go to the officer
    weekly; None where they do not."""
    versions = r.swppp.report_delivery
    spec = versions.get(day) if versions is not None and s["reports_to_officer_weekly"] else None
    if spec is None:
        return None
    officer = r.official("stormwater_officer", day, "the stormwater officer")
    return (
        f"its report, delivered to the {officer} within {spec.max_days_after_inspection} days of the "
        f"inspection ({spec.citation})"
    )


@table_asset(
    GROUP_STORMWATER,
    deps=["site_classification", "sites", "inspections", "rainfall", "milestones"],
    description=DESCRIBE.swppp_upcoming(),
)
def swppp_upcoming(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    as_of = settings.as_of_date()
    rules = _rules(rules)
    rows, not_judged = [], []
    with warehouse(duckdb, as_of=as_of) as con:
        sites = {s["site_id"]: s for s in _classified_sites(con) if s["inspections_required"] and s["active"]}
        inspections = _inspections(con)
        rain = _daily_rain(con)
        for site_id, s in sites.items():
            r = rules[s["jurisdiction"]]
            dates = [i["inspected_on"] for i in inspections.get(site_id, [])]
            gauge = rain.get(_gauge_key(s["rain_gauge_id"]), {})
            start, fs = s["construction_start"], s["final_stabilization"]
            try:
                upcoming = law.upcoming_inspections(start, fs, dates, gauge, as_of, r)
            except RulesError as exc:
                not_judged.append(_not_judged(f"upcoming inspections of site {site_id}", as_of, exc))
                continue
            rows += [_inspection_row(q, s, r, as_of) for q in upcoming]
        rows += _milestone_rows(con, sites, rules, as_of)
        frame = pd.DataFrame(rows, columns=UPCOMING_COLUMNS)
        if len(frame):
            frame = frame.sort_values(["due_by", "site_id", "requirement"], kind="stable")
        with transaction(con):
            replace_judged(con, not_judged, swppp_upcoming=frame)
        return table_result(
            con,
            "swppp_upcoming",
            as_of=str(as_of),
            active_sites=len(sites),
            by_requirement_and_status=MetadataValue.json(_counts(frame, "requirement", "status")),
        )


def _inspection_row(q: law.Requirement, s: dict, r: Rules, as_of: dt.date) -> dict:
    """A weekly or storm inspection coming due, by the rules in effect on the day that starts it."""
    if q.requirement == "weekly":
        weekly = r.swppp.weekly_inspection.at(q.trigger_date)
        since = (
            "construction start" if q.trigger_date == s["construction_start"] else "the previous inspection"
        )
        detail = (
            f"weekly inspection: {weekly.interval_days} days after {since} on {q.trigger_date.isoformat()}"
        )
        rule = weekly.citation
    else:
        detail = f"storm inspection: {q.precip_in:.2f} in of rain on {q.trigger_date.isoformat()}"
        rule = r.swppp.storm_inspection.at(q.trigger_date).citation
    return {
        "site_id": s["site_id"],
        "jurisdiction": s["jurisdiction"],
        "site_name": s["name"],
        "requirement": q.requirement,
        "trigger_date": q.trigger_date,
        "due_by": q.due_by,
        "days_until_due": (q.due_by - as_of).days,
        "status": _upcoming_status(q.due_by, as_of),
        "inspector": s["inspector"],
        "detail": detail,
        "rule": rule,
        "then_due": _then_due(r, s, q.due_by),
    }


def _milestone_rows(con, sites: dict, rules: dict[str, Rules], as_of: dt.date) -> list[dict]:
    """The milestones of the week ahead: the weekly interval in effect on the day judged, per jurisdiction."""
    horizon = {
        j: v.interval_days
        for j, r in rules.items()
        if r.swppp is not None and (v := r.swppp.weekly_inspection.get(as_of)) is not None
    }
    until = as_of + dt.timedelta(days=max(horizon.values(), default=0))
    rows = []
    for m in records(con, "select_upcoming_milestones", {"as_of": as_of, "until": until}):
        s = sites.get(m["site_id"])
        if (
            s is None
            or s["jurisdiction"] not in horizon
            or (m["occurs_on"] - as_of).days > horizon[s["jurisdiction"]]
        ):
            continue
        r = rules[s["jurisdiction"]]
        milestones = r.swppp.milestones.get(m["occurs_on"]) if r.swppp.milestones is not None else None
        if milestones is None:
            continue
        items = {i.name: i.label for i in milestones.items}
        notice = (
            f"notice given {m['notified_at'].astimezone(ZoneInfo(r.timezone)):%Y-%m-%d %H:%M %Z}"
            if m["notified_at"] is not None
            else "no notice recorded yet"
        )
        rows.append(
            {
                "site_id": m["site_id"],
                "jurisdiction": s["jurisdiction"],
                "site_name": s["name"],
                "requirement": "milestone",
                "trigger_date": m["occurs_on"],
                "due_by": m["occurs_on"],
                "days_until_due": (m["occurs_on"] - as_of).days,
                "status": _upcoming_status(m["occurs_on"], as_of),
                "inspector": r.official("stormwater_officer", m["occurs_on"], "the stormwater officer"),
                "detail": f"milestone inspection: {items.get(m['milestone'], m['milestone'])}; {notice}",
                "rule": milestones.citation,
                "then_due": _then_due(r, s, m["occurs_on"]),
            }
        )
    return rows
