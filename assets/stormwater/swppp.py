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
- ``swppp_notices`` (+ ``swppp_stop_work_orders``, ``swppp_letters``): one
  notice of violation per finding with the six contents the law requires,
  the penalty range by prior convictions, and a printable HTML letter in
  ``<dashboards>/letters/stormwater/`` (dashboards = settings.dashboards_dir or a
  ``dashboards`` folder beside the warehouse file).
- ``swppp_upcoming``: per active site, the next weekly inspection and any
  storm inspection due within the rules' window, and milestones of the coming week.

The extra input folders (milestones, contractor_certifications,
swppp_approvals, convictions, report_deliveries) are declared in
``outfall/ingest/stormwater.py`` and loaded by the ingestion engine.
"""

import datetime as dt
import hashlib
import re
from collections import defaultdict
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pandas as pd
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    AssetSpec,
    MaterializeResult,
    MetadataValue,
    multi_asset,
)
from dagster_duckdb import DuckDBResource

from assets.common import (
    GROUP_STORMWATER,
    WAREHOUSE_POOL,
    check_rows,
    letters_dir,
    outputs,
    table_asset,
    table_check,
    table_result,
    warehouse,
)
from assets.notices import INPUT_FILE, copy_lines, notice_number, recipients
from assets.run import replace_judged
from outfall.document_kinds import KINDS
from outfall.documents import Document, Documents, is_own, period_given
from outfall.law import notices as notice_law, swppp as law
from outfall.law.notices import Mailing
from outfall.letters import LetterWriter, write_letter
from outfall.records import files_on_record
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules, RulesError
from outfall.rules.models import OPTIONAL_SWPPP_PARTS
from outfall.rules.tables import NotJudged, not_in_effect
from outfall.rules.words import DESCRIBE
from outfall.warehouse import count, preview_markdown, sql, transaction

# Ingestion assets of the officer's own input folders (asset key = table name).


CLASSIFICATION_COLUMNS = [
    "site_id",
    "jurisdiction",
    "name",
    "applicant",
    "disturbed_acres",
    "construction_start",
    "final_stabilization",
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


def _not_judged(subject: str, day: dt.date, exc: RulesError) -> NotJudged:
    """A site or finding no version of the stormwater rules covers (the RulesError names the part and day),
    with the reason in words: 'not judged: the rules give no stormwater rule of weekly inspection in effect
    on 1986-06-02 (they give one from 2007-05-03)'."""
    section = getattr(exc, "section", None)
    if section is None:
        message = str(exc).split(": ", 1)[-1]
        return NotJudged(subject, day, message.split(":", 1)[0], f"not judged: {message}")
    what = "stormwater rule of " + section.rsplit(".", 1)[-1].replace("_", " ")
    return NotJudged(subject, day, section, not_in_effect(what, exc.day, exc.entries))


# ---------------------------------------------------------------------------
# reading helpers


def _records(con, query: str, params: Any = None) -> list[dict]:
    """Rows of a statement (the text of ``sql(name)``) as dicts."""
    cursor = con.execute(query, params or [])
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def _rules(resource: RulesResource) -> dict[str, Rules]:
    """Every jurisdiction's rules, by name (a site is judged by its own jurisdiction's)."""
    return resource.all_rules()


def _gauge_key(gauge: Any) -> str:
    return str(gauge or "").strip().lower()


def _person_key(name: Any) -> str:
    return re.sub(r"\s+", " ", str(name or "").strip().lower())


def _daily_rain(con) -> dict[str, dict[dt.date, float]]:
    rain: dict[str, dict[dt.date, float]] = defaultdict(dict)
    for r in _records(con, sql("select_gauge_daily_rainfall")):
        rain[r["gauge_key"]][r["date"]] = float(r["precip_in"])
    return rain


def _inspections(con) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = defaultdict(list)
    for r in _records(con, sql("select_swppp_inspections")):
        out[r["site_id"]].append(r)
    return out


def _classified_sites(con) -> list[dict]:
    return _records(con, sql("select_site_classification"))


def _subject_to_chapter(site: dict) -> bool:
    """A land development activity (or a site needing inspections) that is not exempt."""
    return bool((site["land_development_activity"] or site["inspections_required"]) and not site["exempt"])


def _counts(frame: pd.DataFrame, *cols: str) -> dict[str, int]:
    if frame.empty:
        return {}
    grouped = frame.groupby(list(cols), dropna=False).size()
    return {
        " / ".join(str(k) for k in (key if isinstance(key, tuple) else (key,))): int(n)
        for key, n in grouped.items()
    }


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
        for s in _records(con, sql("select_swppp_sites")):
            start, fs = s["construction_start"], s["final_stabilization"]
            row = {
                k: s.get(k)
                for k in (
                    "site_id",
                    "jurisdiction",
                    "name",
                    "applicant",
                    "disturbed_acres",
                    "construction_start",
                    "final_stabilization",
                )
            }
            r = rules.get(s["jurisdiction"])
            day = (
                start if start is not None and start <= as_of else as_of
            )  # the law when construction started
            c = None
            if r is None:
                row.update(
                    inspections_required=False, reason=f"no rules for jurisdiction '{s['jurisdiction']}'"
                )
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
                    c = law.classify_site(
                        law.SiteFacts(
                            s["disturbed_acres"],
                            s["impaired_water"],
                            s["single_family"],
                            s["agricultural"],
                            s["exempt"],
                        ),
                        r,
                        day,
                    )
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
            row["judged_through"] = (
                law.active_through(fs, as_of) if start is not None and start <= as_of else None
            )
            rows.append(row)
        frame = pd.DataFrame(rows, columns=CLASSIFICATION_COLUMNS)
        with transaction(con):
            replace_judged(con, not_judged, site_classification=frame)
        return table_result(
            con,
            "site_classification",
            as_of=str(as_of),
            sites=len(frame),
            inspections_required=int(frame["inspections_required"].fillna(False).astype(bool).sum()),
            active_requiring_inspections=int(
                (
                    frame["inspections_required"].fillna(False).astype(bool) & frame["active"].astype(bool)
                ).sum()
            )
            if len(frame)
            else 0,
            by_jurisdiction_required=MetadataValue.json(
                _counts(frame, "jurisdiction", "inspections_required")
            ),
        )


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
        approvals: dict[str, list] = defaultdict(list)
        for a in _records(con, sql("select_swppp_approvals")):
            approvals[a["site_id"]].append((a["approved_max_disturbed_acres"], a["approved_on"]))
        milestones = defaultdict(list)
        for m in _records(con, sql("select_swppp_milestones")):
            milestones[m["site_id"]].append(m)
        contractors = defaultdict(list)
        for c in _records(con, sql("select_contractor_certifications")):
            contractors[c["site_id"]].append(c)
        deliveries: dict[str, dict[dt.date, list[dt.date]]] = defaultdict(lambda: defaultdict(list))
        for d in _records(con, sql("select_report_deliveries")):
            deliveries[d["site_id"]][d["report_date"]].append(d["delivered_on"])
        deliveries_tracked = (
            int(_records(con, sql("select_report_delivery_files"))[0]["files"]) > 0
            or count(con, "report_deliveries") > 0
        )

        not_judged += _duties_not_stated(rules, sites.values(), as_of)
        for site_id, s in sites.items():
            r = rules[s["jurisdiction"]]
            start, fs = s["construction_start"], s["final_stabilization"]
            if start is None:
                continue
            try:  # each finding by the rules in effect on the day its obligation arose
                if deliveries_tracked and s["reports_to_officer_weekly"]:
                    awaited += _reports_awaited(
                        r, s, start, fs, as_of, inspections.get(site_id, []), deliveries
                    )
                found = _other_findings(
                    r,
                    s,
                    start,
                    fs,
                    as_of,
                    approvals.get(site_id, []),
                    inspections.get(site_id, []),
                    milestones.get(site_id, []),
                    contractors.get(site_id, []),
                    deliveries.get(site_id, {}) if deliveries_tracked else None,
                )
                for f in found:
                    rule, text = law.finding_rule(r, f.finding, f.trigger_date)
                    rows.append(
                        {
                            "site_id": site_id,
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
                    )
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
            report_deliveries_tracked=deliveries_tracked,
            reports_awaited=len(due),
            by_finding_and_status=MetadataValue.json(_counts(frame, "finding", "status")),
        )


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
# notices of violation, stop-work orders and their letters


STATUS_WORDS = {"late": "made late", "overdue": "not made"}


def _follow_monthly_notice(
    notice: dict, monthly: dict | None, in_letter: bool, r: Rules, as_of: dt.date
) -> None:
    """A finding's notice is its site's monthly notice: dated its mailing day, corrected by its last day to
    correct. A penalty accrues only through a mailed notice whose letter lists the finding (contract 6.1): a
    draft, a withdrawn draft, or a finding found after its month's notice was mailed accrues none, and
    states no amount (contract 7.2: the schedule only). Once mailed, each period (day or week, by the
    penalty in effect on the violation's day) the violation continues after the last day to correct is a
    separate violation; the statement's periods and amount are the row's own."""
    monthly = monthly or {
        "period": None,
        "status": None,
        "letter": None,
        "issued_on": None,
        "correct_by": None,
    }
    notice["notice_period"], notice["notice_status"] = monthly["period"], monthly["status"]
    notice["letter_file"] = monthly["letter"]
    counted = monthly["issued_on"] is not None and in_letter
    notice["issued_on"] = monthly["issued_on"] if counted else None
    notice["remedial_due_by"] = monthly["correct_by"] if counted else None
    if counted:
        days = notice_law.penalty_days(notice["remedial_due_by"], notice["satisfied_on"], as_of)
        periods = law.violation_periods(days, notice["penalty_per"]) if days > 0 else 0
        notice["violation_periods"] = periods
        notice["total_fine_min_usd"] = law._usd(notice["fine_min_usd"] * periods)
        notice["total_fine_max_usd"] = law._usd(notice["fine_max_usd"] * periods)
        accrued = law.penalty_accrued(
            periods, notice["penalty_per"], notice["total_fine_max_usd"], notice["remedial_due_by"], as_of
        )
        notice["penalty_statement"] = f"{notice['penalty_statement']} {accrued}"
        return
    notice["violation_periods"] = None
    notice["total_fine_min_usd"] = None
    notice["total_fine_max_usd"] = None
    if monthly["issued_on"] is None:
        why = (
            "The monthly notice listing this violation is a draft, not mailed: it sets no time schedule and "
            "no penalty accrues until it is mailed."
            if monthly["status"]
            else "No mailed notice lists this violation yet: no penalty accrues until one does."
        )
    else:
        why = (
            "This violation was found after its month's notice was mailed and is not in that letter: no "
            "penalty accrues until a mailed notice lists it."
        )
    notice["penalty_statement"] = f"{notice['penalty_statement']} {why}"


ORDER_COLUMNS = [
    "order_id",
    "issued_on",
    "jurisdiction",
    "site_id",
    "recipient_name",
    "recipient_address",
    "site_description",
    "notice_ids",
    "violations",
    "basis",
    "status",
    "letter_file",
    "rule",
    "ready_to_mail",
    "not_ready_reason",
    "period",
    "certified_mail_no",
]
STOP_WORK = KINDS["stop_work_order"]


def stop_work_basis(items: list[dict], day: dt.date) -> list[dict]:
    """The violations a stop-work order dated ``day`` may rest on (contract 7.3): each listed in a mailed
    notice (issued on or before ``day``) whose last day to correct is before ``day``, and not corrected by
    then. Never a draft's."""
    return [
        n
        for n in items
        if n["issued_on"] is not None
        and n["issued_on"] <= day
        and n["remedial_due_by"] is not None
        and n["remedial_due_by"] < day
        and (n["satisfied_on"] is None or n["satisfied_on"] > day)
    ]


def stop_work_period(basis: list[dict]) -> str:
    """An order's period, which numbers it and keeps its number between runs: the month of the first day
    it was warranted (the day after the earliest last day to correct among its violations)."""
    first = min(n["remedial_due_by"] for n in basis) + dt.timedelta(days=1)
    return notice_law.period_of(first)


class StopWorkOrders:
    """The stop-work orders of every site: mailed ones (as of their mailing day) and the draft of what is
    warranted now and not yet in a mailed order. A recorded order's letter is never written again."""

    def __init__(self, sites: dict, rules: dict[str, Rules], people: dict, docs: Documents, folder, as_of):
        self.sites, self.rules, self.people, self.docs = sites, rules, people, docs
        self.folder, self.as_of = folder, as_of
        self.mailed: dict[str, list[dict]] = defaultdict(list)
        kind = STOP_WORK.mailed_as or ""
        for site_id, period in docs.mailed_keys(kind):
            for m in docs.mailings(kind, site_id, period):
                self.mailed[site_id].append(
                    {
                        "period": period,
                        "mailed_on": m.mailed_on,
                        "certified_mail_no": m.certified_mail_no,
                        "correct_within_days": m.correct_within_days,
                        "withdrawn_reason": m.withdrawn_reason,
                    }
                )
        self.records = {number: r for number, r in docs.records.items() if r["letter_kind"] == STOP_WORK.name}

    def build(self, notices: list[dict]) -> tuple[list[dict], list[dict]]:
        per_site: dict[str, list[dict]] = defaultdict(list)
        for n in notices:
            if n["stop_work_order"]:
                per_site[n["site_id"]].append(n)
        orders, letters = [], []
        for site_id in sorted(
            set(per_site) | set(self.mailed) | {r["recipient_id"] for r in self.records.values()}
        ):
            for order, letter in self.of_site(site_id, per_site.get(site_id, [])):
                orders.append(order)
                if letter is not None:
                    letters.append(letter)
        return orders, letters

    def of_site(self, site_id: str, items: list[dict]) -> list[tuple[dict, dict | None]]:
        site = self.sites.get(site_id)
        if site is None:
            return []
        out, covered, numbers = [], set(), set()
        mailings = sorted(
            (m for m in self.mailed.get(site_id, []) if m["mailed_on"] is not None),
            key=lambda m: (m["mailed_on"], m["certified_mail_no"] or ""),
        )
        for m in mailings:
            basis = [n for n in stop_work_basis(items, m["mailed_on"]) if id(n) not in covered]
            if not basis or stop_work_period(basis) != m["period"] or m["period"] in numbers:
                continue  # a mailing that matches no order as the data stood that day
            covered |= {id(n) for n in basis}
            numbers.add(m["period"])
            out.append(self.order(site, basis, m["period"], m))
        for _number, record in sorted(self.records.items()):
            if record["recipient_id"] == site_id and record["period"] not in numbers:
                numbers.add(record["period"])
                out.append(self.recorded(site, record))
        basis = [n for n in stop_work_basis(items, self.as_of) if id(n) not in covered]
        if basis and stop_work_period(basis) not in numbers:
            period = stop_work_period(basis)
            withdrawn = [
                m["withdrawn_reason"]
                for m in self.mailed.get(site_id, [])
                if m["mailed_on"] is None and m["period"] == period and m["withdrawn_reason"]
            ]
            out.append(self.order(site, basis, period, None, "; ".join(withdrawn) or None))
        return out

    def order_id(self, site: dict, period: str) -> str:
        site_part = re.sub(r"[^A-Za-z0-9]+", "-", site["site_id"]).strip("-")[:24] or "site"
        return STOP_WORK.make_number(
            jurisdiction=site["jurisdiction"][:1].upper(), site=site_part, period=period
        )

    def recorded(self, site: dict, record: dict) -> tuple[dict, dict | None]:
        """A mailed order on record: its row as recorded; its letter, the file on record, never rewritten."""
        person = self.people.get(("stormwater", site["site_id"]))
        recipient = person["recipient"] if person else None
        file_name = Path(record["html_file"] or record["file"]).name
        order = dict.fromkeys(ORDER_COLUMNS)
        order.update(
            order_id=record["document_id"],
            issued_on=record["issued_on"],
            jurisdiction=site["jurisdiction"],
            site_id=site["site_id"],
            recipient_name=recipient.name if recipient else None,
            status="mailed",
            letter_file=file_name,
            period=record["period"],
            certified_mail_no=record["certified_mail_no"],
            ready_to_mail=record["ready"],
            not_ready_reason=record["not_ready_reason"],
            rule=self.rules[site["jurisdiction"]].swppp.stop_work_order.at(record["issued_on"]).citation,
        )
        mailings = tuple(
            Mailing(m["mailed_on"], m["correct_within_days"], m["certified_mail_no"])
            for m in self.mailed.get(site["site_id"], [])
            if m["period"] == record["period"]
        ) or (Mailing(record["issued_on"], None, record["certified_mail_no"]),)
        self.docs.add(
            Document(
                STOP_WORK.name,
                record["document_id"],
                file_name,
                site["site_id"],
                site["jurisdiction"],
                {},
                recipient=recipient,
                status="mailed",
                period=record["period"],
                mailings=mailings,
                items=0,
                recipient_name=order["recipient_name"],
            )
        )
        return order, self._kept_letter(order)

    def _kept_letter(self, order: dict) -> dict | None:
        path = self.folder / order["letter_file"] if self.folder is not None else None
        if path is None or not path.is_file():
            return None
        html_text = path.read_text(encoding="utf-8")
        return {
            "file_name": order["letter_file"],
            "kind": "stop_work_order",
            "ref_id": order["order_id"],
            "site_id": order["site_id"],
            "jurisdiction": order["jurisdiction"],
            "issued_on": order["issued_on"],
            "sha256": hashlib.sha256(html_text.encode("utf-8")).hexdigest(),
            "html": html_text,
            "write": False,
        }

    def order(
        self, site: dict, basis: list[dict], period: str, mailing: dict | None, withdrawn: str | None = None
    ) -> tuple[dict, dict | None]:
        """The order of ``period`` resting on ``basis``: mailed (dated its mailing day) or a draft."""
        site_id = site["site_id"]
        day = mailing["mailed_on"] if mailing is not None else self.as_of
        r = self.rules[site["jurisdiction"]]
        spec = r.swppp.stop_work_order.at(day)  # an order is issued by the rules of its day
        labels = law.finding_labels(r, day)
        order_id = self.order_id(site, period)
        numbers = sorted({notice_number("stormwater", site_id, n["notice_period"]) for n in basis})
        violations = [
            f"{labels.get(n['finding'], n['finding'])}, due by {law._d(n['due_by'])}: notice "
            f"{notice_number('stormwater', site_id, n['notice_period'])} mailed {law._d(n['issued_on'])}, "
            f"to be corrected by {law._d(n['remedial_due_by'])}, not corrected"
            for n in sorted(basis, key=lambda n: (n["due_by"], n["finding"]))
        ]
        person = self.people.get(("stormwater", site_id))
        recipient = person["recipient"] if person else None
        status = "mailed" if mailing is not None else ("withdrawn" if withdrawn else "draft")
        file_name = STOP_WORK.make_file(number=order_id)
        order = {
            "order_id": order_id,
            "issued_on": mailing["mailed_on"] if mailing is not None else None,
            "jurisdiction": site["jurisdiction"],
            "site_id": site_id,
            "recipient_name": recipient.name if recipient else None,
            "recipient_address": "; ".join(recipient.lines()) if recipient else None,
            "site_description": basis[0]["site_description"],
            "notice_ids": ", ".join(numbers),
            "violations": len(basis),
            "basis": "; ".join(violations),
            "status": status,
            "letter_file": file_name,
            "rule": spec.citation,
            "period": period,
            "certified_mail_no": mailing["certified_mail_no"] if mailing is not None else None,
        }
        context_ = {
            **order,
            "draft": mailing is None,
            "issuer": basis[0]["issuer"],
            "authority": r.name,
            "law_name": r.swppp.notice_of_violation.at(day).law_name,
            "recipient_name": order["recipient_name"] or f"Landowner of record, site {site_id}",
            "recipient_address_block": (recipient.lines() if recipient else None)
            or ["[mailing address not on file]"],
            "copy_to": copy_lines(person.get("applicant") if person else None, recipient),
            "violations": violations,
            "section_text": r.swppp.section_text.at(day).stop_work_order or "",
            "site_id_text": f"site {site_id}",
            "as_of": day,
        }
        mailings = tuple(
            Mailing(m["mailed_on"], m["correct_within_days"], m["certified_mail_no"])
            for m in self.mailed.get(site_id, [])
            if m["period"] == period
        )
        given = period_given(STOP_WORK, mailing["correct_within_days"]) if mailing is not None else None
        letter = self.docs.add(
            Document(
                STOP_WORK.name,
                order_id,
                file_name,
                site_id,
                site["jurisdiction"],
                context_,
                recipient=recipient,
                fix=INPUT_FILE["stormwater"],
                status=status,
                dated=order["issued_on"],
                period=period,
                mailings=mailings,
                review=list(given.review) if given is not None else [],
                items=len(basis),
                found_on=order["issued_on"] or dt.date.fromisoformat(f"{period}-01"),
                withdrawn_reason=withdrawn,
                recipient_name=order["recipient_name"],
            )
        )
        order["ready_to_mail"] = letter.ready
        order["not_ready_reason"] = "; ".join(letter.reasons) or None
        if letter.html is None:  # mailed and on record: its row as the data show it, its file as written
            return order, self._kept_letter(order)
        return order, {
            "file_name": file_name,
            "kind": "stop_work_order",
            "ref_id": order_id,
            "site_id": site_id,
            "jurisdiction": site["jurisdiction"],
            "issued_on": order["issued_on"],
            "sha256": hashlib.sha256(letter.html.encode("utf-8")).hexdigest(),
            "html": letter.html,
            "write": False,  # written by the helper of documents
        }


@multi_asset(
    pool=WAREHOUSE_POOL,
    specs=[
        AssetSpec(
            "swppp_notices",
            group_name=GROUP_STORMWATER,
            kinds={"duckdb", "html"},
            deps=[
                "swppp_inspection_findings",
                "swppp_other_findings",
                "site_classification",
                "sites",
                "convictions",
                "rainfall",
                "notices",
            ],
            description=DESCRIBE.swppp_notices(),
        ),
        AssetSpec(
            "swppp_stop_work_orders",
            group_name=GROUP_STORMWATER,
            kinds={"duckdb", "html"},
            deps=["swppp_notices"],
            description="Stop-work orders (the stormwater law of the site's jurisdiction): for an "
            "active site, an order resting only on mailed notices of violation whose last day to correct "
            "has passed with the violation uncorrected; all work halted except site stabilization and the "
            "correction of the violations. A draft (numbered by the month it was first warranted, the "
            "number kept between runs) until its mailing is recorded in notices_mailed (kind stop_work); "
            "then written once and kept as a record.",
        ),
        AssetSpec(
            "swppp_letters",
            group_name=GROUP_STORMWATER,
            kinds={"duckdb", "html"},
            deps=["swppp_notices"],
            description="The HTML of every notice and stop-work letter, as written to the letters folder.",
        ),
    ],
)
def swppp_notices(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
):
    as_of = settings.as_of_date()
    town = rules.jurisdiction()
    rules = _rules(rules)
    folder = letters_dir(duckdb, settings, "stormwater")
    writer = LetterWriter(settings.data_path(), rules)
    notices, orders, letters, not_judged = [], [], [], []
    with warehouse(duckdb, as_of=as_of) as con:
        sites = {s["site_id"]: s for s in _classified_sites(con)}
        rain = _daily_rain(con)
        convictions = defaultdict(list)
        for c in _records(con, sql("select_stormwater_convictions")):
            convictions[c["applicant_key"]].append(c)
        by_site_id = defaultdict(list)
        for c in (c for cs in convictions.values() for c in cs):
            if c["site_id"]:
                by_site_id[c["site_id"]].append(c)

        people = recipients(con, town)
        monthly = {
            (n["recipient_id"], n["period"]): n
            for n in _records(con, sql("select_notices_of_kind"), {"kind": "stormwater"})
        }
        listed = {
            (i["recipient_id"], i["item"], i["ref"], i["item_on"])
            for i in _records(con, sql("select_notice_items_in_letters"), {"kind": "stormwater"})
        }
        unstated: set[str] = set()
        for f in _records(con, sql("select_swppp_findings")):
            site = sites.get(f["site_id"])
            r = rules.get(f["jurisdiction"])
            if site is None or r is None:
                continue
            if is_own(site["owner_name"], r.own_names) or is_own(site["applicant"], r.own_names):
                continue  # the municipality does not serve itself: the worklist has the finding (8.4)
            if not r.stormwater_notices_stated():  # findings listed; no notice without the law's terms
                if f["site_id"] not in unstated:
                    unstated.add(f["site_id"])
                    not_judged.append(
                        NotJudged(
                            f"notices of violation of site {f['site_id']}",
                            as_of,
                            "swppp.notice_of_violation",
                            r.stormwater_notices_reason(),
                        )
                    )
                continue
            precip = None
            if f["finding"] == "storm":
                precip = rain.get(_gauge_key(site["rain_gauge_id"]), {}).get(f["trigger_date"])
            v = law.Violation(
                f["site_id"],
                f["finding"],
                f["trigger_date"],
                f["due_by"],
                f["status"],
                f["satisfied_on"],
                f["days_late"],
                f["rule"] or "",
                f["subject"],
                f["detail"] or "",
                precip,
                f["source_table"],
            )
            violation_on = v.due_by + dt.timedelta(days=1)
            record = law.SiteRecord(
                site["site_id"],
                site["jurisdiction"],
                site["name"],
                site["address"],
                site["applicant"],
                site["construction_start"],
                site["final_stabilization"],
                site["rain_gauge_id"],
                site["owner_name"],
                site["owner_address"],
            )
            try:  # priced by the penalty of the violation's day; worded by the rules of the notice's day
                chapter = r.swppp.convictions.at(violation_on).chapter
                applicant = _person_key(site["applicant"])
                candidates = (
                    convictions.get(applicant, []) if applicant else by_site_id.get(site["site_id"], [])
                )
                dates = [
                    c["offense_on"]
                    for c in candidates
                    if law.normalize_chapter(c["chapter_number"]) == law.normalize_chapter(chapter)
                    and (c["jurisdiction"] is None or c["jurisdiction"] == f["jurisdiction"])
                ]
                prior = law.count_prior_convictions(dates, violation_on, r)
                notice = law.build_notice(v, record, site["inspector"], prior, as_of, r)
                notice["stop_work_order"] = law.stop_work_warranted(v, bool(site["active"]), r, as_of)
            except RulesError as exc:
                not_judged.append(
                    _not_judged(
                        f"notice of violation: {f['finding']} at site {f['site_id']} due {f['due_by']}",
                        violation_on,
                        exc,
                    )
                )
                continue
            # Every finding is noticed in its site's monthly notice (assets/notices.py): no
            # letter of its own; its deadline and penalty run from that notice's mailing,
            # and only when the mailed letter lists it.
            inspection = f["source_table"] == "swppp_inspection_findings"
            month_day = f["due_by"] if f["due_by"] is not None else f["trigger_date"]
            ref = f"{f['finding']} {f['due_by']:%Y-%m-%d}" if inspection else f["finding"]
            key = (f["site_id"], "inspection" if inspection else "other", ref, month_day)
            monthly_notice = monthly.get((f["site_id"], notice_law.period_of(month_day)))
            _follow_monthly_notice(notice, monthly_notice, key in listed, r, as_of)
            notices.append(notice)

        # Stop-work orders (contract 7.3): each rests only on mailed notices past their last day to
        # correct with the finding uncorrected; a draft until notices_mailed records it (kind stop_work),
        # then written once and kept.
        docs = Documents(con, writer, outputs(duckdb, settings).dashboards, (STOP_WORK.name,), as_of)
        orders, letters = StopWorkOrders(sites, rules, people, docs, folder, as_of).build(notices)

        notice_frame = pd.DataFrame(notices)
        order_frame = pd.DataFrame(orders, columns=ORDER_COLUMNS)
        letter_frame = pd.DataFrame([{k: v for k, v in x.items() if k != "write"} for x in letters])
        if folder is None:
            if len(notice_frame):
                notice_frame["letter_file"] = None
            if len(order_frame):
                order_frame["letter_file"] = None
            context.log.warning(
                "in-memory warehouse and no dashboards_dir: letters are kept in table swppp_letters only"
            )
        # the files of the record, whatever day this run judges by: never written again nor removed
        on_record = {Path(f).name for f in files_on_record(con)}
        if folder is not None:
            for letter in letters:
                if letter.get("write", True) and letter["file_name"] not in on_record:
                    write_letter(folder, letter["file_name"], letter["html"])
        with transaction(con):
            replace_judged(
                con,
                not_judged,
                swppp_notices=notice_frame,
                swppp_stop_work_orders=order_frame,
                swppp_letters=letter_frame,
            )
            docs.save(con)
            removed = docs.write()

        notices_md = {
            "dagster/row_count": count(con, "swppp_notices"),
            "as_of": str(as_of),
            "letters_dir": str(folder) if folder else "(none: in-memory warehouse)",
            "letters_written": len(letters) if folder else 0,
            "stale_letters_removed": removed,
            "not_ready_to_send": int((~notice_frame["contents_complete"].astype(bool)).sum())
            if len(notice_frame)
            else 0,
            "by_jurisdiction_and_offense": MetadataValue.json(
                _counts(notice_frame, "jurisdiction", "offense_number") if len(notice_frame) else {}
            ),
            "preview": MetadataValue.md(preview_markdown(con, "swppp_notices")),
        }
        yield MaterializeResult(asset_key="swppp_notices", metadata=notices_md)
        yield MaterializeResult(
            asset_key="swppp_stop_work_orders",
            metadata={
                "dagster/row_count": count(con, "swppp_stop_work_orders"),
                "preview": MetadataValue.md(preview_markdown(con, "swppp_stop_work_orders")),
            },
        )
        yield MaterializeResult(
            asset_key="swppp_letters",
            metadata={
                "dagster/row_count": count(con, "swppp_letters"),
                "letters_dir": str(folder) if folder else "(none)",
                "files": MetadataValue.json(sorted(letter["file_name"] for letter in letters)[:50]),
            },
        )


# ---------------------------------------------------------------------------
# upcoming work


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


def _upcoming_status(due: dt.date, as_of: dt.date) -> str:
    if due < as_of:
        return "overdue"
    if due == as_of:
        return "due_today"
    if due == as_of + dt.timedelta(days=1):
        return "due_tomorrow"
    return "upcoming"


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
            for q in upcoming:  # each by the rules in effect on the day that starts it
                if q.requirement == "weekly":
                    weekly = r.swppp.weekly_inspection.at(q.trigger_date)
                    since = "construction start" if q.trigger_date == start else "the previous inspection"
                    detail = (
                        f"weekly inspection: {weekly.interval_days} days after {since} on "
                        f"{q.trigger_date.isoformat()}"
                    )
                    rule = weekly.citation
                else:
                    detail = f"storm inspection: {q.precip_in:.2f} in of rain on {q.trigger_date.isoformat()}"
                    rule = r.swppp.storm_inspection.at(q.trigger_date).citation
                rows.append(
                    {
                        "site_id": site_id,
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
                )
        # The week ahead: the weekly interval in effect on the day judged, per jurisdiction.
        horizon = {
            j: v.interval_days
            for j, r in rules.items()
            if r.swppp is not None and (v := r.swppp.weekly_inspection.get(as_of)) is not None
        }
        until = as_of + dt.timedelta(days=max(horizon.values(), default=0))
        for m in _records(con, sql("select_upcoming_milestones"), {"as_of": as_of, "until": until}):
            s = sites.get(m["site_id"])
            if (
                s is None
                or s["jurisdiction"] not in horizon
                or (m["occurs_on"] - as_of).days > horizon[s["jurisdiction"]]
            ):
                continue
            stated = rules[s["jurisdiction"]].swppp.milestones
            milestones = stated.get(m["occurs_on"]) if stated is not None else None
            if milestones is None:
                continue
            items = {i.name: i.label for i in milestones.items}
            tz = ZoneInfo(rules[s["jurisdiction"]].timezone)
            notice = (
                f"notice given {m['notified_at'].astimezone(tz):%Y-%m-%d %H:%M %Z}"
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
                    "inspector": rules[s["jurisdiction"]].official(
                        "stormwater_officer", m["occurs_on"], "the stormwater officer"
                    ),
                    "detail": f"milestone inspection: {items.get(m['milestone'], m['milestone'])}; {notice}",
                    "rule": milestones.citation,
                    "then_due": _then_due(rules[s["jurisdiction"]], s, m["occurs_on"]),
                }
            )
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


@table_check(
    asset="swppp_notices",
    blocking=False,
    description="Every notice carries the six contents the law requires; a notice without the "
    "applicant's name or the site's address is not ready to send (WARN).",
)
def check_completeness_notice_contents(duckdb: DuckDBResource) -> AssetCheckResult:
    rows, total = check_rows(duckdb, sql("check_completeness_notice_contents"), table="swppp_notices")
    return AssetCheckResult(
        passed=not rows,
        severity=AssetCheckSeverity.WARN,
        metadata={
            "notices": total,
            "not_ready_to_send": len(rows),
            "examples": MetadataValue.json([f"{a}: {b}" for a, b in rows[:20]]),
        },
    )
