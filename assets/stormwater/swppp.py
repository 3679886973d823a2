"""The stormwater management officer's assets for construction sites and their SWPPPs.

The stormwater law of each jurisdiction (its rules file), read as the data
contract (section 4) fixes. The law's arithmetic is in
``outfall/law/swppp/``; these assets only read the warehouse, call it and
write the results (each asset all its tables in one transaction).

- ``site_classification``: land development activity, exemption, Conditions
  A/B/C, whether inspections are required and who must make them.
- ``swppp_inspection_findings`` (contract table): weekly and storm inspections
  late or overdue as of --as-of.
- ``swppp_other_findings``: more than five acres disturbed without an approved
  SWPPP, sediment traps left half full, milestone notices short of 48 hours,
  uncertified contractors, reports not delivered within the week (where the rules ask for it).
- ``swppp_notices`` (+ ``swppp_stop_work_orders``, ``swppp_letters``; in
  ``notices_of_violation.py``, the orders' own rules in ``stop_work.py``): one
  notice of violation per finding with the six contents the law requires,
  the penalty range by prior convictions, and a printable HTML letter in
  ``<dashboards>/letters/stormwater/`` (dashboards = settings.dashboards_dir or a
  ``dashboards`` folder beside the warehouse file).
- ``swppp_upcoming`` (``upcoming.py``): per active site, the next weekly inspection and any
  storm inspection due within the rules' window, and milestones of the coming week.

The extra input folders (milestones, contractor_certifications,
swppp_approvals, convictions, report_deliveries) are declared in
``outfall/ingest/stormwater.py`` and loaded by the ingestion engine. What these
modules share (the rows they read, counts, statuses) is in ``swppp_shared.py``;
this module names every asset of the SWPPP, those of its neighbours re-exported.
"""

import datetime as dt
from collections import defaultdict
from typing import Any

import pandas as pd
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    MaterializeResult,
    MetadataValue,
)
from dagster_duckdb import DuckDBResource

from assets.common import (
    GROUP_STORMWATER,
    check_rows,
    table_asset,
    table_check,
    table_result,
    warehouse,
)
from assets.run import replace_judged
from assets.stormwater.notices_of_violation import (
    check_completeness_notice_contents as check_completeness_notice_contents,
    swppp_notices as swppp_notices,
)
from assets.stormwater.swppp_shared import (
    _classified_sites,
    _counts,
    _daily_rain,
    _gauge_key,
    _inspections,
    _not_judged,
    _rules,
    _subject_to_chapter,
    _upcoming_status,
)
from assets.stormwater.upcoming import swppp_upcoming as swppp_upcoming
from outfall.law import swppp as law
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules, RulesError
from outfall.rules.models import OPTIONAL_SWPPP_PARTS
from outfall.rules.tables import NotJudged
from outfall.rules.words import DESCRIBE
from outfall.warehouse import count, records, sql, transaction

# The site's own facts, as sites has them (the first columns of site_classification).
SITE_FACTS = (
    "site_id",
    "jurisdiction",
    "name",
    "applicant",
    "disturbed_acres",
    "construction_start",
    "final_stabilization",
)
CLASSIFICATION_COLUMNS = [
    *SITE_FACTS,
    "land_development_activity",
    "exempt",
    "condition_a",
    "condition_b",
    "condition_c",
    "conditions",
    "inspections_required",
    "inspector",
    "reports_to_officer_weekly",
    "active",
    "judged_through",
    "reason",
    "rule",
]
FINDING_COLUMNS = [
    "site_id",
    "requirement",
    "trigger_date",
    "due_by",
    "satisfied_on",
    "status",
    "jurisdiction",
    "rule",
    "days_late",
]
OTHER_COLUMNS = [
    "site_id",
    "jurisdiction",
    "finding",
    "subject",
    "detail",
    "trigger_date",
    "due_by",
    "satisfied_on",
    "status",
    "days_late",
    "rule",
    "section_text",
]
# The inspection reports awaited (table swppp_reports_due): each recorded inspection's report, while its
# period to deliver it to the officer has not passed.
REPORTS_DUE_COLUMNS = ["site_id", "jurisdiction", "site_name", "report_date", "due_by", "status", "rule"]


# ---------------------------------------------------------------------------
# site classification


@table_asset(GROUP_STORMWATER, deps=["sites"], description=DESCRIBE.site_classification())
def site_classification(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    as_of = settings.as_of_date()
    rules = _rules(rules)
    rows, not_judged = [], []
    with warehouse(duckdb, as_of=as_of) as con:
        for s in records(con, "select_swppp_sites"):
            rows.append(_classified(s, rules.get(s["jurisdiction"]), as_of, not_judged))
        frame = pd.DataFrame(rows, columns=CLASSIFICATION_COLUMNS)
        with transaction(con):
            replace_judged(con, not_judged, site_classification=frame)
        required = frame["inspections_required"].fillna(False).astype(bool)
        return table_result(
            con,
            "site_classification",
            as_of=str(as_of),
            sites=len(frame),
            inspections_required=int(required.sum()),
            active_requiring_inspections=int((required & frame["active"].astype(bool)).sum())
            if len(frame)
            else 0,
            by_jurisdiction_required=MetadataValue.json(
                _counts(frame, "jurisdiction", "inspections_required")
            ),
        )


def _classified(s: dict, r: Rules | None, as_of: dt.date, not_judged: list[NotJudged]) -> dict:
    """A site's row of site_classification, classified by the law when its construction started (or on
    ``as_of``, not yet started); a site its rules cannot judge adds its reason to ``not_judged``."""
    start, fs = s["construction_start"], s["final_stabilization"]
    row = {k: s.get(k) for k in SITE_FACTS}
    day = start if start is not None and start <= as_of else as_of  # the law when construction started
    c = None
    if r is None:
        row.update(inspections_required=False, reason=f"no rules for jurisdiction '{s['jurisdiction']}'")
    elif r.swppp is None:  # the jurisdiction's law, as its rules file has it, states none
        not_judged.append(
            NotJudged(
                f"site {s['site_id']}",
                day,
                "swppp",
                f"not judged: the rules of {r.name} state no construction stormwater inspections "
                "(the law they were written from states none)",
            )
        )
        row.update(inspections_required=False, reason=not_judged[-1].reason)
    else:
        try:
            facts = law.SiteFacts(
                s["disturbed_acres"], s["impaired_water"], s["single_family"], s["agricultural"], s["exempt"]
            )
            c = law.classify_site(facts, r, day)
        except RulesError as exc:
            not_judged.append(_not_judged(f"site {s['site_id']}", day, exc))
            row.update(inspections_required=False, reason=not_judged[-1].reason)
    if c is not None:
        row.update(
            land_development_activity=c.land_development_activity,
            exempt=c.exempt,
            condition_a=c.condition_a,
            condition_b=c.condition_b,
            condition_c=c.condition_c,
            conditions=c.conditions or None,
            inspections_required=c.inspections_required,
            inspector=c.inspector,
            reports_to_officer_weekly=c.reports_to_officer_weekly,
            reason=c.reason,
            rule=c.rule,
        )
    row["active"] = bool(start is not None and law.is_active(start, fs, as_of))
    row["judged_through"] = law.active_through(fs, as_of) if start is not None and start <= as_of else None
    return row


# ---------------------------------------------------------------------------
# inspection findings (contract table)


@table_asset(
    GROUP_STORMWATER,
    deps=["site_classification", "sites", "inspections", "rainfall"],
    description=DESCRIBE.swppp_inspection_findings(),
)
def swppp_inspection_findings(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    as_of = settings.as_of_date()
    rules = _rules(rules)
    rows, not_judged = [], []
    storm_requirements = 0
    sites_judged = 0
    with warehouse(duckdb, as_of=as_of) as con:
        sites = [s for s in _classified_sites(con) if s["inspections_required"]]
        inspections = _inspections(con)
        rain = _daily_rain(con)
        for s in sites:
            r = rules[s["jurisdiction"]]
            start, fs = s["construction_start"], s["final_stabilization"]
            if start is None or start > as_of:
                continue
            sites_judged += 1
            dates = [i["inspected_on"] for i in inspections.get(s["site_id"], [])]
            gauge = rain.get(_gauge_key(s["rain_gauge_id"]), {})
            try:  # each requirement by the rules in effect on the day that starts it
                weekly = law.weekly_findings(start, fs, dates, as_of, r)
                storms = law.storm_requirements(start, fs, dates, gauge, as_of, r)
                found = [(q, r.swppp.weekly_inspection.at(q.trigger_date).citation) for q in weekly] + [
                    (q, r.swppp.storm_inspection.at(q.trigger_date).citation) for q in storms if q.is_finding
                ]
            except RulesError as exc:
                not_judged.append(_not_judged(f"inspections of site {s['site_id']}", start, exc))
                continue
            storm_requirements += len(storms)
            for req, citation in found:
                rows.append(
                    {
                        "site_id": s["site_id"],
                        "requirement": req.requirement,
                        "trigger_date": req.trigger_date,
                        "due_by": req.due_by,
                        "satisfied_on": req.satisfied_on,
                        "status": req.status,
                        "jurisdiction": s["jurisdiction"],
                        "rule": citation,
                        "days_late": req.days_late,
                    }
                )
        frame = pd.DataFrame(rows, columns=FINDING_COLUMNS)
        if len(frame):
            frame = frame.sort_values(["site_id", "requirement", "trigger_date"], kind="stable")
        with transaction(con):
            replace_judged(con, not_judged, swppp_inspection_findings=frame)
        return table_result(
            con,
            "swppp_inspection_findings",
            as_of=str(as_of),
            sites_judged=sites_judged,
            storm_requirements=storm_requirements,
            by_requirement_and_status=MetadataValue.json(_counts(frame, "requirement", "status")),
        )


# ---------------------------------------------------------------------------
# other findings


@table_asset(
    GROUP_STORMWATER,
    deps=[
        "site_classification",
        "sites",
        "inspections",
        "milestones",
        "contractor_certifications",
        "swppp_approvals",
        "report_deliveries",
    ],
    description=DESCRIBE.swppp_other_findings(),
)
def swppp_other_findings(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    as_of = settings.as_of_date()
    rules = _rules(rules)
    rows, not_judged, awaited = [], [], []
    with warehouse(duckdb, as_of=as_of) as con:
        sites = {s["site_id"]: s for s in _classified_sites(con) if _subject_to_chapter(s)}
        inspections = _inspections(con)
        facts = _site_facts(con)
        deliveries, tracked = facts["deliveries"], facts["deliveries_tracked"]

        not_judged += _duties_not_stated(rules, sites.values(), as_of)
        for site_id, s in sites.items():
            r = rules[s["jurisdiction"]]
            start, fs = s["construction_start"], s["final_stabilization"]
            if start is None:
                continue
            try:  # each finding by the rules in effect on the day its obligation arose
                if tracked and s["reports_to_officer_weekly"]:
                    awaited += _reports_awaited(
                        r, s, start, fs, as_of, inspections.get(site_id, []), deliveries
                    )
                found = _other_findings(
                    r,
                    s,
                    start,
                    fs,
                    as_of,
                    facts["approvals"].get(site_id, []),
                    inspections.get(site_id, []),
                    facts["milestones"].get(site_id, []),
                    facts["contractors"].get(site_id, []),
                    deliveries.get(site_id, {}) if tracked else None,
                )
                for f in found:  # row by row: a rule missing part-way keeps the rows before it
                    rows.append(_other_row(s, f, r))
            except RulesError as exc:
                not_judged.append(_not_judged(f"site {site_id}", start, exc))
        frame = pd.DataFrame(rows, columns=OTHER_COLUMNS)
        if len(frame):
            frame = frame.sort_values(
                ["site_id", "finding", "trigger_date", "subject"], kind="stable", na_position="first"
            )
        due = pd.DataFrame(awaited, columns=REPORTS_DUE_COLUMNS)
        with transaction(con):
            replace_judged(con, not_judged, swppp_other_findings=frame, swppp_reports_due=due)
        return table_result(
            con,
            "swppp_other_findings",
            as_of=str(as_of),
            report_deliveries_tracked=tracked,
            reports_awaited=len(due),
            by_finding_and_status=MetadataValue.json(_counts(frame, "finding", "status")),
        )


def _site_facts(con) -> dict[str, Any]:
    """What the other findings are judged from, by site: SWPPP approvals, milestones, contractors'
    certifications and report deliveries (and whether deliveries are tracked at all)."""
    approvals: dict[str, list] = defaultdict(list)
    for a in records(con, "select_swppp_approvals"):
        approvals[a["site_id"]].append((a["approved_max_disturbed_acres"], a["approved_on"]))
    milestones = defaultdict(list)
    for m in records(con, "select_swppp_milestones"):
        milestones[m["site_id"]].append(m)
    contractors = defaultdict(list)
    for c in records(con, "select_contractor_certifications"):
        contractors[c["site_id"]].append(c)
    deliveries: dict[str, dict[dt.date, list[dt.date]]] = defaultdict(lambda: defaultdict(list))
    for d in records(con, "select_report_deliveries"):
        deliveries[d["site_id"]][d["report_date"]].append(d["delivered_on"])
    tracked = (
        int(records(con, "select_report_delivery_files")[0]["files"]) > 0
        or count(con, "report_deliveries") > 0
    )
    return {
        "approvals": approvals,
        "milestones": milestones,
        "contractors": contractors,
        "deliveries": deliveries,
        "deliveries_tracked": tracked,
    }


def _other_row(s: dict, f: law.OtherFinding, r: Rules) -> dict:
    """A finding's row of swppp_other_findings, with the section of the rules of its day."""
    rule, text = law.finding_rule(r, f.finding, f.trigger_date)
    return {
        "site_id": s["site_id"],
        "jurisdiction": s["jurisdiction"],
        "finding": f.finding,
        "subject": f.subject,
        "detail": f.detail,
        "trigger_date": f.trigger_date,
        "due_by": f.due_by,
        "satisfied_on": f.satisfied_on,
        "status": f.status,
        "days_late": f.days_late,
        "rule": rule,
        "section_text": text,
    }


def _reports_awaited(
    r: Rules,
    s: dict,
    start: dt.date,
    fs: dt.date | None,
    as_of: dt.date,
    visits: list[dict],
    deliveries: dict,
) -> list[dict]:
    """The reports of a site's recorded inspections (but the officer's own) still awaited on ``as_of``: the
    duty each recorded inspection creates (the law's report delivery), named on the officer's list until the
    report is recorded as delivered; after its period it is a finding instead."""
    reported = [i["inspected_on"] for i in visits if (i["kind"] or "") != "officer"]
    out = []
    for day, due in law.reports_awaited(reported, deliveries.get(s["site_id"], {}), start, fs, as_of, r):
        out.append(
            {
                "site_id": s["site_id"],
                "jurisdiction": s["jurisdiction"],
                "site_name": s["name"],
                "report_date": day,
                "due_by": due,
                "status": _upcoming_status(due, as_of),
                "rule": r.swppp.report_delivery.at(day).citation,
            }
        )
    return out


def _duties_not_stated(rules: dict[str, Rules], sites: Any, as_of: dt.date) -> list[NotJudged]:
    """One row per jurisdiction with sites and duty its rules leave out (a disturbance limit, sediment
    clean-out, milestones ...): that duty is not judged, and says so, never judged by another town's
    number."""
    out = []
    for j in sorted({s["jurisdiction"] for s in sites if s["jurisdiction"] in rules}):
        r = rules[j]
        said: dict[str, list[str]] = defaultdict(list)
        for part in r.swppp.not_stated():
            said[OPTIONAL_SWPPP_PARTS[part]].append(part)
        for words, parts in said.items():
            if "not judged" not in words:
                continue
            out.append(
                NotJudged(
                    f"construction sites of {r.name}",
                    as_of,
                    "swppp." + parts[0],
                    f"{words}: not stated in the rules of {r.name}",
                )
            )
    return out


def _other_findings(
    r: Rules,
    s: dict,
    start: dt.date,
    fs: dt.date | None,
    as_of: dt.date,
    approvals: list,
    visits: list[dict],
    milestones: list[dict],
    contractors: list[dict],
    deliveries: dict | None,
) -> list[law.OtherFinding]:
    """The findings other than missed inspections of one site (law.*: each by the rules of its day)."""
    found: list[law.OtherFinding] = []
    d = law.disturbance_finding(s["disturbed_acres"], start, fs, approvals, as_of, r)
    if d:
        found.append(d)
    found += law.sediment_findings(
        [(i["inspected_on"], i["sediment_capacity_lost_pct"]) for i in visits], start, as_of, r
    )
    sw = r.swppp
    for m in milestones if sw.milestones is not None and sw.milestone_notice is not None else ():
        items = {
            i.name: f"{i.label} {i.paragraph}".strip() for i in r.swppp.milestones.at(m["occurs_on"]).items
        }
        if m["milestone"] not in items:
            continue
        f = law.milestone_notice_finding(
            m["milestone"],
            m["occurs_on"],
            m["notified_at"],
            as_of,
            r,
            occurs_at=m["occurs_at"],
            label=items[m["milestone"]],
        )
        if f:
            found.append(f)
    for c in contractors:
        f = law.certification_finding(c["contractor"], c["signed_on"], c["first_work_on"], fs, as_of, r)
        if f:
            found.append(f)
    if deliveries is not None and s["reports_to_officer_weekly"]:
        reported = [i["inspected_on"] for i in visits if (i["kind"] or "") != "officer"]
        found += law.report_delivery_findings(reported, deliveries, start, fs, as_of, r)
    return found


# ---------------------------------------------------------------------------
# asset checks


@table_check(
    asset="swppp_inspection_findings",
    blocking=False,
    description="Every finding is weekly or storm, late (with satisfied_on after due_by) or overdue "
    "(satisfied_on null, due_by before --as-of), with due_by on or after trigger_date.",
)
def check_validity_status(duckdb: DuckDBResource, settings: OutfallSettings) -> AssetCheckResult:
    as_of = settings.as_of_date()
    rows, total = check_rows(
        duckdb, sql("check_validity_status"), [as_of], table="swppp_inspection_findings", as_of=as_of
    )
    bad = rows[0][0]
    return AssetCheckResult(
        passed=bad == 0,
        severity=AssetCheckSeverity.ERROR,
        metadata={"rows": total, "invalid_rows": int(bad), "as_of": str(as_of)},
    )


@table_check(
    asset="swppp_inspection_findings",
    blocking=False,
    description="Every active site needing inspections has rainfall at its gauge during its judged "
    "period; without it no storm inspection can be required (WARN).",
)
def check_completeness_rain_gauge(duckdb: DuckDBResource, settings: OutfallSettings) -> AssetCheckResult:
    rows, _ = check_rows(duckdb, sql("check_completeness_rain_gauge"), as_of=settings.as_of_date())
    return AssetCheckResult(
        passed=not rows,
        severity=AssetCheckSeverity.WARN,
        metadata={
            "sites_without_rainfall": len(rows),
            "sites": MetadataValue.json([f"{a} (gauge {b})" for a, b in rows[:50]]),
        },
    )
