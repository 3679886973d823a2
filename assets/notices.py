"""Notices of violation, one per recipient and month (contract section 5.1).

``notices``: one row per kind (``sewer``, ``stormwater``), recipient and month that has at least
one violation (sewer: rows of ``discharge_violations`` collected in that local month; stormwater:
rows of ``swppp_inspection_findings`` whose due_by is in that month), with one letter each in
``<dashboards>/letters/<kind>/notice_<recipient>_<YYYY-MM>.html`` listing every violation of
the month. A notice is a ``draft`` (undated, no deadline, no penalty) until the clerk records its
mailing in ``notices_mailed``; the earliest mailing counts, dates the notice (issued_on) and sets
its last day to correct (correct_by = issued_on + the days given; sewer: blank = the maximum of
``rules/woodbury.yaml`` notices.sewer_correction in effect on the mailing day).

A notice needs a full mailing address (name, street, city, state, ZIP code) and a configured
letterhead; otherwise it is listed as not ready to send, with why (``ready_to_send``,
``not_ready_reason``). The per-violation tables (``sewer_notices``, ``swppp_notices``) stay as the
detail behind each notice and follow each violation up from its notice's mailing. The arithmetic
is ``outfall/law/notices.py``; the letters are ``templates/letters/sewer_notice.html`` and
``stormwater_notice.html``.
"""

import datetime as dt
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pandas as pd
from dagster import AssetCheckResult, AssetCheckSeverity, AssetExecutionContext, MaterializeResult, MetadataValue, asset, asset_check
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, check_rows, outputs, table_result, warehouse
from outfall.law import notices as law
from outfall.law import swppp as swppp_law
from outfall.letters import LetterWriter, safe_file_name, write_letter
from outfall.resources import OutfallSettings
from outfall.rules import Rules, load_rules
from outfall.rules.words import tiers_words
from outfall.warehouse import replace_rows, sql, transaction

LETTER_PREFIX = "notice_"
TEMPLATES = {"sewer": "sewer_notice.html", "stormwater": "stormwater_notice.html"}
ZIP = re.compile(r"^\d{5}(-\d{4})?$")
STATE = re.compile(r"^[A-Za-z]{2}$")

PARAMETER_LABELS = {
    "BOD": "BOD (5-day biochemical oxygen demand)", "COD": "COD (chemical oxygen demand)",
    "TSS": "suspended solids (TSS)", "chlorine_demand": "chlorine demand",
    "FOG": "fats, oils and grease (FOG)", "pH": "pH", "temperature": "temperature",
}
INPUT_FILE = {"sewer": "the industrial users' file", "stormwater": "the construction sites' file"}


def letter_path(kind: str, recipient_id: str, period: str) -> str:
    """The letter's file, relative to the dashboards folder (contract 5.1: never null)."""
    return f"letters/{kind}/{LETTER_PREFIX}{safe_file_name(recipient_id)}_{period}.html"


def address_problems(kind: str, recipient: dict | None) -> list[str]:
    """Why a notice cannot be mailed to this recipient as the records stand (plain words)."""
    if recipient is None:
        what = "industrial user" if kind == "sewer" else "construction site"
        return [f"the {what} is not on file, so there is no name or mailing address to send it to"]
    lacks = [label for label, key in (("the name", "recipient_name"), ("the street address", "street"),
                                       ("the city", "city"), ("the state", "state"), ("the ZIP code", "zip"))
             if not str(recipient.get(key) or "").strip()]
    out = []
    if lacks:
        listed = lacks[0] if len(lacks) == 1 else ", ".join(lacks[:-1]) + " and " + lacks[-1]
        out.append(f"the mailing address on file lacks {listed} (add it to {INPUT_FILE[kind]})")
    state, zip_code = str(recipient.get("state") or "").strip(), str(recipient.get("zip") or "").strip()
    if state and not STATE.match(state):
        out.append(f"the state '{state}' is not a two-letter postal abbreviation (for example NY)")
    if zip_code and not ZIP.match(zip_code):
        out.append(f"the ZIP code '{zip_code}' is not five digits (or five and four)")
    return out


def address_lines(recipient: dict | None) -> list[str]:
    if recipient is None:
        return []
    street = str(recipient.get("street") or "").strip()
    place = " ".join(x for x in (
        ", ".join(x for x in (str(recipient.get("city") or "").strip(), str(recipient.get("state") or "").strip()) if x),
        str(recipient.get("zip") or "").strip()) if x)
    return [line for line in (street, place) if line]


def _records(con, name: str, params: Any = None) -> list[dict]:
    cursor = con.execute(sql(name), params or {})
    cols = [d[0] for d in cursor.description]
    return [dict(zip(cols, row)) for row in cursor.fetchall()]


def _num(value: Any) -> str:
    if value is None:
        return "(no value)"
    text = f"{float(value):,.4f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _month_words(period: str) -> str:
    year, month = (int(x) for x in period.split("-"))
    return f"{dt.date(year, month, 1):%B} {year}"


def _d(day: dt.date) -> str:
    return f"{day:%B} {day.day}, {day.year}"


# ------------------------------------------------------------------ letters


def _sewer_context(n: dict, items: list[dict], rules: Rules, day: dt.date) -> dict:
    enforcement = rules.sewer_enforcement.at(day)
    penalty = rules.penalties.sewer_use.at(day)
    fine, civil = penalty.fine_max_usd, penalty.civil_max_usd
    rows = []
    for v in items:
        label = PARAMETER_LABELS.get(v["parameter"], v["parameter"])
        limit_word = "maximum" if v["limit_type"] == "max" else "minimum"
        rows.append({"sample_id": v["sample_id"], "collected_on": v["violation_on"], "parameter": label,
                     "value": f"{_num(v['value'])} {v['unit']}",
                     "limit": f"{limit_word} {_num(v['limit_value'])} {v['unit']}", "rule": v["rule"]})
    return {
        "issuer": enforcement.issuer, "mailing": enforcement.mailing,
        "enforcement_text": enforcement.section_text.enforcement, "rule": enforcement.citation,
        "penalty_text": enforcement.section_text.penalties, "penalty_rule": penalty.citation,
        "penalty_statement": (f"Each violation may be punished by a fine not exceeding ${fine:,.2f} and is subject "
                              f"to a civil penalty not exceeding ${civil:,.2f} (Woodbury Code ch. 253 § 253-55 A). "
                              f"Each {penalty.per} a violation continues after the last day to correct is a separate "
                              f"violation, subject to a separate fine and civil penalty."),
        "violation_rows": rows,
        "permit_text": f"permit {n['permit_no']}" if n.get("permit_no") else f"industrial user {n['recipient_id']}",
    }


def _stormwater_context(n: dict, items: list[dict], r: Rules, day: dt.date) -> dict:
    sw = r.swppp
    nov = sw.notice_of_violation.at(day)
    appeal = sw.appeal.at(day)
    labels = swppp_law.finding_labels(r, day)
    texts = sw.section_text.at(day)
    penalty = r.penalties.stormwater.at(day)
    weekly, storm = sw.weekly_inspection.at(day), sw.storm_inspection.at(day)
    rows = []
    for v in items:
        done = (f"inspected {_d(v['satisfied_on'])}, late" if v["finding_status"] == "late"
                else f"no inspection recorded as of {_d(n['as_of'])}")
        rows.append({"requirement": labels.get(v["requirement"], v["requirement"]), "arose_on": v["trigger_date"],
                     "due_by": v["due_by"], "done": done, "rule": v["rule"]})
    place = ", ".join(x for x in (str(n.get("site_name") or "").strip(), str(n.get("premises") or "").strip()) if x)
    return {
        "issuer": nov.issuer, "authority": r.name, "law_name": nov.law_name,
        "site_description": f"{place} (site {n['recipient_id']})" if place else f"Site {n['recipient_id']}",
        "violation_rows": rows,
        "schedule_text": (f"an inspection at least every {weekly.interval_days} days and within "
                          f"{storm.window_days * 24} hours of any storm event producing "
                          f"{swppp_law.num(storm.threshold_in)} inch of precipitation or more"),
        # each requirement's text once, in one order whatever the hash seed (a set's order changed the
        # letter from run to run: the fault drill found it)
        "section_text": " ".join(t for t in (getattr(texts, req, None) or ""
                                             for req in sorted({v["requirement"] for v in items})) if t),
        "penalty_statement": (f"Fines on conviction: {tiers_words(penalty)}, by the number of prior convictions "
                              f"within {penalty.lookback_years} years. ({penalty.citation})"),
        "penalty_text": texts.penalties or "",
        "appeal_statement": (f"The determination of violation may be appealed to {nov.appeal_filed_with} by filing a "
                             f"written notice of appeal within {appeal.days} days of service of this notice of "
                             f"violation. ({appeal.citation})"),
    }


# ------------------------------------------------------------------ the asset


def build_notices(con, settings: OutfallSettings, rules: dict[str, Rules], writer: LetterWriter
                  ) -> tuple[list[dict], dict[str, str]]:
    """Every notice (rows of table ``notices``) and its letter (file relative to the dashboards folder ->
    HTML)."""
    as_of = settings.as_of_date()
    woodbury = rules["woodbury"]
    by_notice: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for v in _records(con, "select_notice_violations", {"tz": woodbury.timezone}):
        by_notice[(v["kind"], v["recipient_id"], v["period"])].append(v)
    recipients = {(r["kind"], r["recipient_id"]): r for r in _records(con, "select_notice_recipients")}
    mailings: dict[tuple[str, str, str], list[law.Mailing]] = defaultdict(list)
    for m in _records(con, "select_notices_mailed"):
        mailings[(m["kind"], m["recipient_id"], m["period"])].append(
            law.Mailing(m["mailed_on"], m["correct_within_days"], m["certified_mail_no"]))
    rows, letters = [], {}
    for (kind, recipient_id, period), items in sorted(by_notice.items()):
        recipient = recipients.get((kind, recipient_id))
        jurisdiction = (recipient or {}).get("jurisdiction") or (items[0]["jurisdiction"] if kind == "stormwater"
                                                                 else "woodbury")
        r = rules.get(jurisdiction, woodbury)
        mailing = law.earliest_mailing(mailings.get((kind, recipient_id, period), ()))
        issued_on = mailing.mailed_on if mailing else None
        days = None
        if mailing is not None:
            maximum = None
            if kind == "sewer":
                version = woodbury.notices.sewer_correction.get(issued_on)
                maximum = version.max_days if version is not None else None
            days = law.correction_days(kind, mailing.correct_within_days, maximum)
        correct_by = law.correct_by(issued_on, days)
        day = issued_on or as_of            # a notice is worded by the rules of its mailing day (draft: today)
        problems = address_problems(kind, recipient)
        lines = address_lines(recipient)
        letter = letter_path(kind, recipient_id, period)
        n = {
            "kind": kind, "recipient_id": recipient_id, "period": period, "violations": len(items),
            "status": law.status(mailing), "issued_on": issued_on, "correct_by": correct_by, "letter": letter,
            "jurisdiction": jurisdiction, "certified_mail_no": mailing.certified_mail_no if mailing else None,
            "correct_within_days": days, "mailings": len(mailings.get((kind, recipient_id, period), ())),
            "recipient_name": (recipient or {}).get("recipient_name"),
            "mailing_address": "; ".join(lines) or None,
            "first_violation_on": min(v["violation_on"] for v in items),
            "last_violation_on": max(v["violation_on"] for v in items), "as_of": as_of,
        }
        base = {**n, "permit_no": (recipient or {}).get("permit_no"), "site_name": (recipient or {}).get("record_name"),
                "premises": (recipient or {}).get("premises")}
        if kind == "sewer":
            context = _sewer_context(base, items, r, day)
            n["rule"] = context["rule"]
        else:
            context = _stormwater_context(base, items, r, day)
            n["rule"] = r.swppp.notice_of_violation.at(day).law_name
        what = "industrial user" if kind == "sewer" else "site"
        context.update({
            "notice_id": f"NOV-{kind[:2].upper()}-{recipient_id}-{period}", "period_words": _month_words(period),
            "draft": mailing is None, "issued_on": issued_on, "correct_by": correct_by, "correction_days": days,
            "certified_mail_no": n["certified_mail_no"], "violation_count": len(items),
            "recipient_name": n["recipient_name"] or f"Recipient of record, {what} {recipient_id}",
            "recipient_address_block": lines or ["[mailing address not on file]"],
        })
        draft_reason = ["this notice is a draft: it has not been mailed, so it sets no deadline; record its mailing "
                        "in the notices mailed file and run again"] if mailing is None else []
        rendered = writer.render(TEMPLATES[kind], context, jurisdiction=jurisdiction, area=kind,
                                 missing=[*draft_reason, *problems])
        reasons = [x for x in rendered.not_ready if x not in draft_reason]
        n["ready_to_send"] = not reasons
        n["not_ready_reason"] = "; ".join(reasons) or None
        rows.append(n)
        letters[letter] = rendered.html
    return rows, letters


def notice_rules(settings: OutfallSettings) -> dict[str, Rules]:
    return {j: load_rules(j, settings.rules_path()) for j in ("woodbury", "bellport")}


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb", "html"},
    deps=["discharge_violations", "swppp_inspection_findings", "notices_mailed", "industrial_users", "sites"],
    description="Notices of violation, one per recipient and month (sewer: the per-sample limit violations "
                "collected in the month, Woodbury Code ch. 253 Part 2 enforcement; stormwater: the inspections "
                "due in the month and missed, Woodbury Code ch. 267 and Bellport Code ch. 21), each with one "
                "letter listing every violation of the month. A draft until its mailing is recorded in "
                "notices_mailed (the earliest counts); then dated the mailing day, with its last day to correct. "
                "A notice without a full mailing address is listed as not ready to send, with why.",
)
def notices(context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = notice_rules(settings)
    paths = outputs(duckdb, settings)
    writer = LetterWriter(settings.data_path())
    with warehouse(duckdb) as con:
        rows, letters = build_notices(con, settings, rules, writer)
        with transaction(con):
            replace_rows(con, "notices", pd.DataFrame(rows))
            if paths.dashboards is not None:
                for rel, html_text in letters.items():
                    target = paths.dashboards / rel
                    write_letter(target.parent, target.name, html_text)
        removed = _remove_stale(paths.dashboards, set(letters))
        if paths.dashboards is None:
            context.log.warning("in-memory warehouse and no dashboards folder: notice letters not written")
        counts = defaultdict(int)
        for n in rows:
            counts[f"{n['kind']} {n['status']}"] += 1
        return table_result(con, "notices", letters_written=len(letters) if paths.dashboards else 0,
                            stale_letters_removed=removed,
                            not_ready_to_send=sum(1 for n in rows if not n["ready_to_send"]),
                            by_kind_and_status=MetadataValue.json(dict(sorted(counts.items()))))


def _remove_stale(dashboards: Path | None, keep: set[str]) -> int:
    if dashboards is None:
        return 0
    removed = 0
    for kind in law.KINDS:
        folder = dashboards / "letters" / kind
        for stale in folder.glob(f"{LETTER_PREFIX}*.html") if folder.is_dir() else []:
            if f"letters/{kind}/{stale.name}" not in keep:
                stale.unlink()
                removed += 1
    return removed


@asset_check(asset=notices, description="One notice per kind, recipient and month with a violation; a mailed "
             "notice has its mailing day and last day to correct, a draft neither; every notice names its letter.")
def check_validity_notices_status(duckdb: DuckDBResource) -> AssetCheckResult:
    rows, _ = check_rows(
        duckdb, sql("check_validity_notices_status"))
    bad = rows[0]
    names = ("without a letter", "mailed without dates", "drafts with dates", "duplicates", "without violations")
    found = {k: int(v) for k, v in zip(names, bad)}
    return AssetCheckResult(passed=not any(found.values()), severity=AssetCheckSeverity.ERROR,
                            metadata={k.replace(" ", "_"): v for k, v in found.items()})
