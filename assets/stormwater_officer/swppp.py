"""The stormwater management officer's assets (issue 5).

Woodbury Code ch. 267 and Bellport Code ch. 21 (stormwater article), read as
the data contract (section 4) fixes. The law's arithmetic is in
``outfall/law/swppp.py``; these assets only read the warehouse, call it and
write the results (each asset all its tables in one transaction).

- ``site_classification``: land development activity, exemption, Conditions
  A/B/C, whether inspections are required and who must make them.
- ``swppp_inspection_findings`` (contract table): weekly and storm inspections
  late or overdue as of --as-of.
- ``swppp_other_findings``: more than five acres disturbed without an approved
  SWPPP, sediment traps left half full, milestone notices short of 48 hours,
  uncertified contractors, reports not delivered within the week (Woodbury).
- ``swppp_notices`` (+ ``swppp_stop_work_orders``, ``swppp_letters``): one
  notice of violation per finding with the six contents the law requires,
  the penalty range by prior convictions, and a printable HTML letter in
  ``<dashboards>/letters/stormwater/`` (dashboards = settings.dashboards_dir or a
  ``dashboards`` folder beside the warehouse file).
- ``swppp_upcoming``: per active site, the next weekly inspection and any
  storm inspection due within 24 hours, and milestones of the coming week.

The extra input folders (milestones, contractor_certifications,
swppp_approvals, convictions, report_deliveries) are declared in
``outfall/ingest/stormwater_extra.py`` and loaded by the ingestion engine.
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
    asset,
    asset_check,
    multi_asset,
)
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_STORMWATER, letters_dir, table_result, warehouse
from outfall import vocab
from outfall.ingest.stormwater_extra import STORMWATER_DATASETS
from outfall.law import swppp as law
from outfall.letters import LetterWriter, write_letter
from outfall.resources import OutfallSettings
from outfall.rules import Rules, load_rules
from outfall.warehouse import count, preview_markdown, replace_rows, sql, transaction

# Ingestion assets of the officer's own input folders (asset key = table name).

LETTER_PREFIX = "swppp_"
NOTICE_TEMPLATE = "swppp_notice_of_violation.html"
STOP_WORK_TEMPLATE = "swppp_stop_work_order.html"

CLASSIFICATION_COLUMNS = [
    "site_id", "jurisdiction", "name", "applicant", "disturbed_acres", "construction_start", "final_stabilization",
    "land_development_activity", "exempt", "condition_a", "condition_b", "condition_c", "conditions",
    "inspections_required", "inspector", "reports_to_officer_weekly", "active", "judged_through", "reason", "rule",
]
FINDING_COLUMNS = ["site_id", "requirement", "trigger_date", "due_by", "satisfied_on", "status", "jurisdiction",
                   "rule", "days_late"]
OTHER_COLUMNS = ["site_id", "jurisdiction", "finding", "subject", "detail", "trigger_date", "due_by", "satisfied_on",
                 "status", "days_late", "rule", "section_text"]
UPCOMING_COLUMNS = ["site_id", "jurisdiction", "site_name", "requirement", "trigger_date", "due_by",
                    "days_until_due", "status", "inspector", "detail", "rule"]

FINDING_LABELS = {
    "weekly": "Inspection at least every seven days",
    "storm": "Inspection within 24 hours of a storm event of 0.5 inch or more",
    "disturbance_over_limit": "Not more than five acres disturbed at one time without an approved SWPPP",
    "sediment_not_removed": "Sediment removed when traps have lost 50% of capacity",
    "milestone_notice_late": "48 hours' notice before a construction milestone",
    "contractor_not_certified": "Contractor certification signed before work",
    "report_not_delivered": "Inspection reports delivered to the Stormwater Management Officer weekly",
}


# ---------------------------------------------------------------------------
# reading helpers


def _records(con, query: str, params: Any = None) -> list[dict]:
    cursor = con.execute(query, params or [])
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def _rules(settings: OutfallSettings) -> dict[str, Rules]:
    return {j: load_rules(j, settings.rules_path()) for j in vocab.JURISDICTIONS}


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
    return {" / ".join(str(k) for k in (key if isinstance(key, tuple) else (key,))): int(n)
            for key, n in grouped.items()}


# ---------------------------------------------------------------------------
# site classification


@asset(
    group_name=GROUP_STORMWATER,
    kinds={"duckdb"},
    deps=["sites"],
    description="Per site and jurisdiction: land development activity or not (1 acre or more), exemption, "
                "Conditions A/B/C, whether SWPPP inspections are required and who must make them (Woodbury "
                "ch. 267: the applicant or developer, reports delivered to the officer weekly, every site of "
                "1 acre or more; Bellport ch. 21: a qualified professional, Conditions A/B/C only), with the "
                "sections cited.",
)
def site_classification(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    as_of = settings.as_of_date()
    rules = _rules(settings)
    rows = []
    with warehouse(duckdb) as con:
        for s in _records(con, sql("select_swppp_sites")):
            start, fs = s["construction_start"], s["final_stabilization"]
            row = {k: s.get(k) for k in ("site_id", "jurisdiction", "name", "applicant", "disturbed_acres",
                                         "construction_start", "final_stabilization")}
            r = rules.get(s["jurisdiction"])
            if r is None:
                row.update(inspections_required=False, reason=f"no rules for jurisdiction '{s['jurisdiction']}'")
            else:
                c = law.classify_site(law.SiteFacts(s["disturbed_acres"], s["impaired_water"], s["single_family"],
                                                    s["agricultural"], s["exempt"]), r)
                row.update(land_development_activity=c.land_development_activity, exempt=c.exempt,
                           condition_a=c.condition_a, condition_b=c.condition_b, condition_c=c.condition_c,
                           conditions=c.conditions or None, inspections_required=c.inspections_required,
                           inspector=c.inspector, reports_to_officer_weekly=c.reports_to_officer_weekly,
                           reason=c.reason, rule=c.rule)
            row["active"] = bool(start is not None and law.is_active(start, fs, as_of))
            row["judged_through"] = law.active_through(fs, as_of) if start is not None and start <= as_of else None
            rows.append(row)
        frame = pd.DataFrame(rows, columns=CLASSIFICATION_COLUMNS)
        with transaction(con):
            replace_rows(con, "site_classification", frame)
        return table_result(
            con, "site_classification",
            as_of=str(as_of),
            sites=len(frame),
            inspections_required=int(frame["inspections_required"].fillna(False).astype(bool).sum()),
            active_requiring_inspections=int((frame["inspections_required"].fillna(False).astype(bool)
                                              & frame["active"].astype(bool)).sum()) if len(frame) else 0,
            by_jurisdiction_required=MetadataValue.json(_counts(frame, "jurisdiction", "inspections_required")),
        )


# ---------------------------------------------------------------------------
# inspection findings (contract table)


@asset(
    group_name=GROUP_STORMWATER,
    kinds={"duckdb"},
    deps=["site_classification", "sites", "inspections", "rainfall"],
    description="Contract table: SWPPP inspections due and not made in time, as of --as-of. weekly: every 7 "
                "days from construction start, then from each inspection; storm: within 24 hours (the day or "
                "the next) of any day with 0.5 in of rain or more at the site's gauge (Woodbury ch. 267 "
                "maintenance during construction (2); Bellport ch. 21 maintenance and inspection during "
                "construction (a)(2)). late: made after due_by; overdue: none by --as-of.",
)
def swppp_inspection_findings(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    as_of = settings.as_of_date()
    rules = _rules(settings)
    rows = []
    storm_requirements = 0
    sites_judged = 0
    with warehouse(duckdb) as con:
        sites = [s for s in _classified_sites(con) if s["inspections_required"]]
        inspections = _inspections(con)
        rain = _daily_rain(con)
        for s in sites:
            r = rules[s["jurisdiction"]]
            sw = r.section("swppp")
            start, fs = s["construction_start"], s["final_stabilization"]
            if start is None or start > as_of:
                continue
            sites_judged += 1
            dates = [i["inspected_on"] for i in inspections.get(s["site_id"], [])]
            gauge = rain.get(_gauge_key(s["rain_gauge_id"]), {})
            weekly = law.weekly_findings(start, fs, dates, as_of, r)
            storms = law.storm_requirements(start, fs, dates, gauge, as_of, r)
            storm_requirements += len(storms)
            for req, citation in [(q, sw["citation_weekly"]) for q in weekly] + \
                                 [(q, sw["citation_storm"]) for q in storms if q.is_finding]:
                rows.append({"site_id": s["site_id"], "requirement": req.requirement,
                             "trigger_date": req.trigger_date, "due_by": req.due_by,
                             "satisfied_on": req.satisfied_on, "status": req.status,
                             "jurisdiction": s["jurisdiction"], "rule": citation, "days_late": req.days_late})
        frame = pd.DataFrame(rows, columns=FINDING_COLUMNS)
        if len(frame):
            frame = frame.sort_values(["site_id", "requirement", "trigger_date"], kind="stable")
        with transaction(con):
            replace_rows(con, "swppp_inspection_findings", frame)
        return table_result(
            con, "swppp_inspection_findings",
            as_of=str(as_of),
            sites_judged=sites_judged,
            storm_requirements=storm_requirements,
            by_requirement_and_status=MetadataValue.json(_counts(frame, "requirement", "status")),
        )


# ---------------------------------------------------------------------------
# other findings


def _other_rule(sw: dict, finding: str) -> str:
    return {
        "disturbance_over_limit": sw.get("citation_disturbance"),
        "sediment_not_removed": sw.get("citation_sediment"),
        "milestone_notice_late": (sw.get("milestones") or {}).get("citation") or sw.get("citation_milestone"),
        "contractor_not_certified": (sw.get("contractor_certification") or {}).get("citation"),
        "report_not_delivered": (sw.get("report_delivery") or {}).get("citation"),
    }.get(finding) or ""


@asset(
    group_name=GROUP_STORMWATER,
    kinds={"duckdb"},
    deps=["site_classification", "sites", "inspections", "milestones", "contractor_certifications",
          "swppp_approvals", "report_deliveries"],
    description="Further SWPPP violations as of --as-of: more than 5 acres disturbed at one time without an "
                "approved SWPPP allowing it; sediment traps at or above 50% of capacity lost at one inspection "
                "and still at the next; milestones without 48 hours' notice; contractors working before "
                "signing the SWPPP certification; (Woodbury) inspection reports not delivered to the officer "
                "within the week. Each row names its rule and quotes the section.",
)
def swppp_other_findings(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    as_of = settings.as_of_date()
    rules = _rules(settings)
    rows = []
    with warehouse(duckdb) as con:
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
        deliveries_tracked = (int(_records(con, sql("select_report_delivery_files"))[0]["files"]) > 0
                              or count(con, "report_deliveries") > 0)

        for site_id, s in sites.items():
            r = rules[s["jurisdiction"]]
            sw = r.section("swppp")
            start, fs = s["construction_start"], s["final_stabilization"]
            if start is None:
                continue
            found: list[law.OtherFinding] = []
            d = law.disturbance_finding(s["disturbed_acres"], start, fs, approvals.get(site_id, []), as_of, r)
            if d:
                found.append(d)
            visits = inspections.get(site_id, [])
            found += law.sediment_findings([(i["inspected_on"], i["sediment_capacity_lost_pct"]) for i in visits],
                                           start, as_of, r)
            labels = {m["name"]: f"{m['label']} {m.get('paragraph', '')}".strip()
                      for m in (sw.get("milestones") or {}).get("items", [])}
            for m in milestones.get(site_id, []):
                if m["milestone"] not in labels:
                    continue
                f = law.milestone_notice_finding(m["milestone"], m["occurs_on"], m["notified_at"], as_of, r,
                                                 occurs_at=m["occurs_at"], label=labels[m["milestone"]])
                if f:
                    found.append(f)
            for c in contractors.get(site_id, []):
                f = law.certification_finding(c["contractor"], c["signed_on"], c["first_work_on"], fs, as_of, r)
                if f:
                    found.append(f)
            if deliveries_tracked and s["reports_to_officer_weekly"]:
                reported = [i["inspected_on"] for i in visits if (i["kind"] or "") != "officer"]
                found += law.report_delivery_findings(reported, deliveries.get(site_id, {}), start, fs, as_of, r)
            texts = sw.get("section_text") or {}
            for f in found:
                rows.append({"site_id": site_id, "jurisdiction": s["jurisdiction"], "finding": f.finding,
                             "subject": f.subject, "detail": f.detail, "trigger_date": f.trigger_date,
                             "due_by": f.due_by, "satisfied_on": f.satisfied_on, "status": f.status,
                             "days_late": f.days_late, "rule": _other_rule(sw, f.finding),
                             "section_text": texts.get(f.finding)})
        frame = pd.DataFrame(rows, columns=OTHER_COLUMNS)
        if len(frame):
            frame = frame.sort_values(["site_id", "finding", "trigger_date", "subject"], kind="stable",
                                      na_position="first")
        with transaction(con):
            replace_rows(con, "swppp_other_findings", frame)
        return table_result(
            con, "swppp_other_findings",
            as_of=str(as_of),
            report_deliveries_tracked=deliveries_tracked,
            by_finding_and_status=MetadataValue.json(_counts(frame, "finding", "status")),
        )


# ---------------------------------------------------------------------------
# notices of violation, stop-work orders and their letters


def _letter_context(notice: dict, site: dict, r: Rules, as_of: dt.date) -> dict:
    sw = r.section("swppp")
    nov = sw.get("notice_of_violation") or {}
    texts = sw.get("section_text") or {}
    address = notice["recipient_address"]
    if notice["status"] == "late":
        satisfied = f"{notice['satisfied_on']:%B} {notice['satisfied_on'].day}, {notice['satisfied_on'].year}"
    else:
        satisfied = f"Not as of {as_of:%B} {as_of.day}, {as_of.year}"
    due = notice["remedial_due_by"]
    if due is not None and due > as_of:
        remedial_due = f"{due:%B} {due.day}, {due.year}"
    elif due is not None:
        remedial_due = "Before any further work"
    else:
        remedial_due = "No further action for this occurrence"
    return {
        **notice,
        "authority": r.name,
        "law_name": nov.get("law_name") or r.name,
        "recipient_address_block": address or "[mailing address not on file]",
        "finding_label": FINDING_LABELS.get(notice["finding"], notice["finding"]),
        "satisfied_text": satisfied,
        "section_text": texts.get(notice["finding"], ""),
        "penalty_text": texts.get("penalties", ""),
        "remedial_due_text": remedial_due,
        "site_id_text": f"site {site['site_id']}",
    }


def _not_ready(notice: dict) -> list[str]:
    """Why a notice or order cannot be mailed as it is (plain words)."""
    out = []
    if notice.get("missing_contents"):
        out.append(f"the notice lacks the {notice['missing_contents']}")
    if not notice.get("recipient_address"):
        out.append("the recipient's mailing address is not on file")
    return out


@multi_asset(
    specs=[
        AssetSpec("swppp_notices", group_name=GROUP_STORMWATER, kinds={"duckdb", "html"},
                  deps=["swppp_inspection_findings", "swppp_other_findings", "site_classification", "sites",
                        "convictions", "rainfall"],
                  description="One notice of violation per stormwater finding, with the six contents the law "
                              "requires (names and addresses; the site; the nature of the violation; remedial "
                              "measures and schedule; penalties; the 15-day appeal and where to file it) and "
                              "the fine range by prior convictions within five years (Woodbury ch. 267: "
                              "$250-500 / $500-1,000 / $1,000-5,000 per day; Bellport ch. 21: up to $350 / "
                              "$350-700 / $700-1,000 per week). Each notice is a printable HTML letter."),
        AssetSpec("swppp_stop_work_orders", group_name=GROUP_STORMWATER, kinds={"duckdb", "html"},
                  deps=["swppp_notices"],
                  description="Proposed stop-work orders (ch. 267 / ch. 21 stop-work orders): one per active "
                              "site with uncorrected violations; all work halted except site stabilization and "
                              "the correction of the violations."),
        AssetSpec("swppp_letters", group_name=GROUP_STORMWATER, kinds={"duckdb", "html"},
                  deps=["swppp_notices"],
                  description="The HTML of every notice and stop-work letter, as written to the letters folder."),
    ],
)
def swppp_notices(context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings):
    as_of = settings.as_of_date()
    rules = _rules(settings)
    folder = letters_dir(duckdb, settings, "stormwater")
    writer = LetterWriter(settings.data_path())
    notices, orders, letters = [], [], []
    with warehouse(duckdb) as con:
        sites = {s["site_id"]: s for s in _classified_sites(con)}
        rain = _daily_rain(con)
        convictions = defaultdict(list)
        for c in _records(con, sql("select_stormwater_convictions")):
            convictions[c["applicant_key"]].append(c)
        by_site_id = defaultdict(list)
        for c in (c for cs in convictions.values() for c in cs):
            if c["site_id"]:
                by_site_id[c["site_id"]].append(c)

        for f in _records(con, sql("select_swppp_findings")):
            site = sites.get(f["site_id"])
            r = rules.get(f["jurisdiction"])
            if site is None or r is None:
                continue
            sw = r.section("swppp")
            precip = None
            if f["finding"] == "storm":
                precip = rain.get(_gauge_key(site["rain_gauge_id"]), {}).get(f["trigger_date"])
            v = law.Violation(f["site_id"], f["finding"], f["trigger_date"], f["due_by"], f["status"],
                              f["satisfied_on"], f["days_late"], f["rule"] or "", f["subject"], f["detail"] or "",
                              precip, f["source_table"])
            chapter = str((sw.get("convictions") or {}).get("chapter", ""))
            applicant = _person_key(site["applicant"])
            candidates = convictions.get(applicant, []) if applicant else by_site_id.get(site["site_id"], [])
            dates = [c["convicted_on"] for c in candidates
                     if law.normalize_chapter(c["chapter_number"]) == law.normalize_chapter(chapter)
                     and (c["jurisdiction"] is None or c["jurisdiction"] == f["jurisdiction"])]
            violation_on = v.due_by + dt.timedelta(days=1)
            prior = law.count_prior_convictions(dates, violation_on, r)
            record = law.SiteRecord(site["site_id"], site["jurisdiction"], site["name"], site["address"],
                                    site["applicant"], site["construction_start"], site["final_stabilization"],
                                    site["rain_gauge_id"])
            notice = law.build_notice(v, record, site["inspector"], prior, as_of, r)
            notice["stop_work_order"] = law.stop_work_warranted(v, bool(site["active"]), r)
            file_name = f"{LETTER_PREFIX}{notice['notice_id']}.html"
            notice["letter_file"] = file_name
            html_text = writer.render(NOTICE_TEMPLATE, _letter_context(notice, site, r, as_of),
                                      jurisdiction=site["jurisdiction"], area="stormwater",
                                      missing=_not_ready(notice)).html
            letters.append({"file_name": file_name, "kind": "notice_of_violation", "ref_id": notice["notice_id"],
                            "site_id": site["site_id"], "jurisdiction": site["jurisdiction"], "issued_on": as_of,
                            "sha256": hashlib.sha256(html_text.encode("utf-8")).hexdigest(), "html": html_text})
            notices.append(notice)

        # Stop-work orders: one per active site with uncorrected violations the rules name.
        per_site = defaultdict(list)
        for n in notices:
            if n["stop_work_order"]:
                per_site[n["site_id"]].append(n)
        for site_id, items in sorted(per_site.items()):
            site = sites[site_id]
            r = rules[site["jurisdiction"]]
            sw = r.section("swppp")
            spec = sw.get("stop_work_order") or {}
            order_id = (f"SWO-{site['jurisdiction'][:1].upper()}-"
                        f"{re.sub(r'[^A-Za-z0-9]+', '-', site_id).strip('-')[:24] or 'site'}-{as_of:%Y%m%d}")
            file_name = f"{LETTER_PREFIX}{order_id}.html"
            violations = [f"{n['notice_id']}: {FINDING_LABELS.get(n['finding'], n['finding'])}, due by "
                          f"{n['due_by']:%B} {n['due_by'].day}, {n['due_by'].year} ({n['status']})" for n in items]
            order = {
                "order_id": order_id, "issued_on": as_of, "jurisdiction": site["jurisdiction"], "site_id": site_id,
                "recipient_name": items[0]["recipient_name"], "recipient_address": items[0]["recipient_address"],
                "site_description": items[0]["site_description"],
                "notice_ids": ", ".join(n["notice_id"] for n in items), "violations": len(items),
                "basis": "; ".join(violations), "status": "proposed", "letter_file": file_name,
                "rule": str(spec.get("citation", "")),
            }
            context_ = {**order, "issuer": items[0]["issuer"], "authority": r.name,
                        "law_name": (sw.get("notice_of_violation") or {}).get("law_name") or r.name,
                        "recipient_address_block": order["recipient_address"] or "[mailing address not on file]",
                        "violations": violations, "section_text": (sw.get("section_text") or {}).get(
                            "stop_work_order", ""), "site_id_text": f"site {site_id}"}
            html_text = writer.render(STOP_WORK_TEMPLATE, context_, jurisdiction=site["jurisdiction"],
                                      area="stormwater", missing=_not_ready(order)).html
            letters.append({"file_name": file_name, "kind": "stop_work_order", "ref_id": order_id,
                            "site_id": site_id, "jurisdiction": site["jurisdiction"], "issued_on": as_of,
                            "sha256": hashlib.sha256(html_text.encode("utf-8")).hexdigest(), "html": html_text})
            orders.append(order)

        notice_frame = pd.DataFrame(notices)
        order_frame = pd.DataFrame(orders)
        letter_frame = pd.DataFrame(letters)
        if folder is None:
            if len(notice_frame):
                notice_frame["letter_file"] = None
            if len(order_frame):
                order_frame["letter_file"] = None
            context.log.warning("in-memory warehouse and no dashboards_dir: letters are kept in table "
                                "swppp_letters only")
        else:
            for letter in letters:
                write_letter(folder, letter["file_name"], letter["html"])
        with transaction(con):
            replace_rows(con, "swppp_notices", notice_frame)
            replace_rows(con, "swppp_stop_work_orders", order_frame)
            replace_rows(con, "swppp_letters", letter_frame)
        removed = 0
        if folder is not None and folder.is_dir():
            keep = {letter["file_name"] for letter in letters}
            for stale in folder.glob(f"{LETTER_PREFIX}*.html"):
                if stale.name not in keep:
                    stale.unlink()
                    removed += 1

        notices_md = {
            "dagster/row_count": count(con, "swppp_notices"),
            "as_of": str(as_of),
            "letters_dir": str(folder) if folder else "(none: in-memory warehouse)",
            "letters_written": len(letters) if folder else 0,
            "stale_letters_removed": removed,
            "not_ready_to_send": int((~notice_frame["contents_complete"].astype(bool)).sum())
            if len(notice_frame) else 0,
            "by_jurisdiction_and_offense": MetadataValue.json(
                _counts(notice_frame, "jurisdiction", "offense_number") if len(notice_frame) else {}),
            "preview": MetadataValue.md(preview_markdown(con, "swppp_notices")),
        }
        yield MaterializeResult(asset_key="swppp_notices", metadata=notices_md)
        yield MaterializeResult(asset_key="swppp_stop_work_orders", metadata={
            "dagster/row_count": count(con, "swppp_stop_work_orders"),
            "preview": MetadataValue.md(preview_markdown(con, "swppp_stop_work_orders")),
        })
        yield MaterializeResult(asset_key="swppp_letters", metadata={
            "dagster/row_count": count(con, "swppp_letters"),
            "letters_dir": str(folder) if folder else "(none)",
            "files": MetadataValue.json(sorted(letter["file_name"] for letter in letters)[:50]),
        })


# ---------------------------------------------------------------------------
# upcoming work


def _upcoming_status(due: dt.date, as_of: dt.date) -> str:
    if due < as_of:
        return "overdue"
    if due == as_of:
        return "due_today"
    if due == as_of + dt.timedelta(days=1):
        return "due_tomorrow"
    return "upcoming"


@asset(
    group_name=GROUP_STORMWATER,
    kinds={"duckdb"},
    deps=["site_classification", "sites", "inspections", "rainfall", "milestones"],
    description="The officer's week: per active site needing inspections, the next weekly inspection due "
                "(7 days after the previous one), every storm inspection due within 24 hours (rain of 0.5 in "
                "or more yesterday or today, not yet inspected), and construction milestones of the next 7 "
                "days with whether the 48-hour notice was given.",
)
def swppp_upcoming(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    as_of = settings.as_of_date()
    rules = _rules(settings)
    rows = []
    with warehouse(duckdb) as con:
        sites = {s["site_id"]: s for s in _classified_sites(con) if s["inspections_required"] and s["active"]}
        inspections = _inspections(con)
        rain = _daily_rain(con)
        for site_id, s in sites.items():
            r = rules[s["jurisdiction"]]
            sw = r.section("swppp")
            dates = [i["inspected_on"] for i in inspections.get(site_id, [])]
            gauge = rain.get(_gauge_key(s["rain_gauge_id"]), {})
            start, fs = s["construction_start"], s["final_stabilization"]
            for q in law.upcoming_inspections(start, fs, dates, gauge, as_of, r):
                if q.requirement == "weekly":
                    since = "construction start" if q.trigger_date == start else "the previous inspection"
                    detail = f"weekly inspection: {int(sw['weekly_interval_days'])} days after {since} on " \
                             f"{q.trigger_date.isoformat()}"
                    rule = sw["citation_weekly"]
                else:
                    detail = f"storm inspection: {q.precip_in:.2f} in of rain on {q.trigger_date.isoformat()}"
                    rule = sw["citation_storm"]
                rows.append({"site_id": site_id, "jurisdiction": s["jurisdiction"], "site_name": s["name"],
                             "requirement": q.requirement, "trigger_date": q.trigger_date, "due_by": q.due_by,
                             "days_until_due": (q.due_by - as_of).days, "status": _upcoming_status(q.due_by, as_of),
                             "inspector": s["inspector"], "detail": detail, "rule": rule})
        horizon = {j: int(r.section("swppp")["weekly_interval_days"]) for j, r in rules.items()}
        until = as_of + dt.timedelta(days=max(horizon.values()))
        for m in _records(con, sql("select_upcoming_milestones"), {"as_of": as_of, "until": until}):
            s = sites.get(m["site_id"])
            if s is None or (m["occurs_on"] - as_of).days > horizon[s["jurisdiction"]]:
                continue
            sw = rules[s["jurisdiction"]].section("swppp")
            items = {i["name"]: i["label"] for i in (sw.get("milestones") or {}).get("items", [])}
            notice = (f"notice given {m['notified_at'].astimezone(ZoneInfo(law.LOCAL_TZ)):%Y-%m-%d %H:%M %Z}"
                      if m["notified_at"] is not None else "no notice recorded yet")
            rows.append({"site_id": m["site_id"], "jurisdiction": s["jurisdiction"], "site_name": s["name"],
                         "requirement": "milestone", "trigger_date": m["occurs_on"], "due_by": m["occurs_on"],
                         "days_until_due": (m["occurs_on"] - as_of).days,
                         "status": _upcoming_status(m["occurs_on"], as_of), "inspector": "Stormwater Management Officer",
                         "detail": f"milestone inspection: {items.get(m['milestone'], m['milestone'])}; {notice}",
                         "rule": (sw.get("milestones") or {}).get("citation", "")})
        frame = pd.DataFrame(rows, columns=UPCOMING_COLUMNS)
        if len(frame):
            frame = frame.sort_values(["due_by", "site_id", "requirement"], kind="stable")
        with transaction(con):
            replace_rows(con, "swppp_upcoming", frame)
        return table_result(con, "swppp_upcoming", as_of=str(as_of), active_sites=len(sites),
                            by_requirement_and_status=MetadataValue.json(_counts(frame, "requirement", "status")))


# ---------------------------------------------------------------------------
# asset checks


@asset_check(asset="swppp_inspection_findings", blocking=False,
             description="Every finding is weekly or storm, late (with satisfied_on after due_by) or overdue "
                         "(satisfied_on null, due_by before --as-of), with due_by on or after trigger_date.")
def check_validity_status(duckdb: DuckDBResource, settings: OutfallSettings) -> AssetCheckResult:
    as_of = settings.as_of_date()
    with warehouse(duckdb) as con:
        bad = con.execute(
            "SELECT count(*) FROM swppp_inspection_findings WHERE requirement NOT IN ('weekly', 'storm') "
            "OR status NOT IN ('late', 'overdue') OR due_by < trigger_date "
            "OR (status = 'late' AND (satisfied_on IS NULL OR satisfied_on <= due_by)) "
            "OR (status = 'overdue' AND (satisfied_on IS NOT NULL OR due_by >= ?))", [as_of]).fetchall()[0][0]
        total = count(con, "swppp_inspection_findings")
    return AssetCheckResult(passed=bad == 0, severity=AssetCheckSeverity.ERROR,
                            metadata={"rows": total, "invalid_rows": int(bad), "as_of": str(as_of)})


@asset_check(asset="swppp_inspection_findings", blocking=False,
             description="Every active site needing inspections has rainfall at its gauge during its judged "
                         "period; without it no storm inspection can be required (WARN).")
def check_completeness_rain_gauge(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        rows = con.execute(
            "SELECT c.site_id, s.rain_gauge_id FROM site_classification AS c JOIN sites AS s USING (site_id) "
            "WHERE c.inspections_required AND c.judged_through IS NOT NULL AND NOT EXISTS ("
            "  SELECT 1 FROM rainfall AS r WHERE lower(trim(r.gauge_id)) = lower(trim(s.rain_gauge_id)) "
            "  AND r.date BETWEEN s.construction_start AND c.judged_through) ORDER BY c.site_id").fetchall()
    return AssetCheckResult(passed=not rows, severity=AssetCheckSeverity.WARN,
                            metadata={"sites_without_rainfall": len(rows),
                                      "sites": MetadataValue.json([f"{a} (gauge {b})" for a, b in rows[:50]])})


@asset_check(asset="swppp_notices", blocking=False,
             description="Every notice carries the six contents the law requires; a notice without the "
                         "applicant's name or the site's address is not ready to send (WARN).")
def check_completeness_notice_contents(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        rows = con.execute(
            "SELECT notice_id, missing_contents FROM swppp_notices WHERE NOT contents_complete "
            "OR nature_of_violation IS NULL OR remedial_measures IS NULL OR penalty_statement IS NULL "
            "OR appeal_statement IS NULL ORDER BY notice_id").fetchall()
        total = count(con, "swppp_notices")
    return AssetCheckResult(passed=not rows, severity=AssetCheckSeverity.WARN,
                            metadata={"notices": total, "not_ready_to_send": len(rows),
                                      "examples": MetadataValue.json([f"{a}: {b}" for a, b in rows[:20]])})
