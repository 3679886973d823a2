"""Assets of the sewer administrator's enforcement (issue 6): what the law says
must follow a violation, and by when.

- ingestion of the enforcement input folders (docs/inputs-sewer.md): ``reports``,
  ``accidental_discharges``, ``grease_traps``, ``pumpouts``;
- ``sewer_notices``: a notice of violation per sample result that breaks a
  per-sample limit (ch. 253 Part 2 enforcement: certified mail, the nature of
  the violation, at most 30 days to correct, the § 253-55 A penalty), with its
  follow-up as of --as-of and a printable letter in
  ``<dashboards>/letters/sewer/``;
- ``obligations``: the deadlines engine (periodic reports, accidental-discharge
  statements, 24-hour notices and 30-day resampling after a violation the
  user's own sampling found, 5-day slug reports, expiring permits);
- ``snc_determinations`` (+ ``snc_evaluations``): significant noncompliance per
  40 CFR 403.8(f)(2)(viii) over six-month periods;
- ``snc_publication``: the annual list for newspaper publication (+ HTML page);
- ``surcharges`` (+ ``surcharge_samples``): wastes stronger than the Part 2
  limits, per user and month;
- ``grease_trap_status`` (+ ``grease_orders`` and their letters).

Numbers and citations come from ``rules/woodbury.yaml`` (sections notices, snc,
surcharge, penalties.sewer_use, sewer_enforcement, grease_interceptors and the
named readings in readings_enforcement); the arithmetic is
``outfall/law/enforcement.py``.
"""

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable

import duckdb
import pandas as pd
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    MaterializeResult,
    MetadataValue,
    asset,
    asset_check,
)
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, letters_dir, table_result, warehouse
from outfall.ingest.sewer_extra import ENFORCEMENT_DATASET_NAMES  # importing it registers the datasets
from outfall.law import enforcement as law
from outfall.law.discharge import nondetect_value
from outfall.letters import Letter, LetterWriter, safe_file_name, write_letter
from outfall.resources import OutfallSettings
from outfall.rules import Rules, RulesError, load_rules
from outfall.warehouse import count, replace_rows, sql, transaction

JURISDICTION = "woodbury"

# Readings of the enforcement law this code implements (rules section
# readings_enforcement); a rules file asking for another fails loudly.
IMPLEMENTED_READINGS: dict[str, Any] = {
    "sewer_notice_date": "collected_date",
    "sewer_correction_judged_by": "next_decided_result",
    "sewer_penalty_days": "violation_day_plus_days_past_period",
    "accidental_statement_from": "notification_else_occurrence",
    "self_monitoring_aware_on": "collected_date",
    "resample_by_any_lab": True,
    "late_report_not_received": "days_through_as_of",
    "late_report_counts": "every_report_with_due_date",
    "snc_publication_period": "calendar_year",
    "surcharge_threshold": "part2_limit",
    "surcharge_concentration": "monthly_mean_composites_else_grabs",
    "surcharge_flow": "meter_time_weighted_else_permit",
    "grease_due_from": "later_of_set_on_and_last_pumpout",
}
DEFAULT_TOWN_WORDS = ("town", "potw")

NOTICE_PREFIX = "sewer_nov_"
ORDER_PREFIX = "sewer_grease_order_"
PUBLICATION_PREFIX = "sewer_snc_publication_"

PARAMETER_LABELS = {
    "BOD": "BOD (5-day biochemical oxygen demand)",
    "COD": "COD (chemical oxygen demand)",
    "TSS": "suspended solids (TSS)",
    "chlorine_demand": "chlorine demand",
    "FOG": "fats, oils and grease (FOG)",
    "pH": "pH",
    "temperature": "temperature",
}

STATUS_LABELS = {
    law.CORRECTED: "Corrected in time",
    law.CORRECTED_LATE: "Corrected after the period to correct",
    law.NOT_CORRECTED: "Not corrected",
    law.PENDING: "Pending (the period to correct has not ended)",
    law.OVERDUE: "Overdue (the period to correct has ended with no later analysis)",
}

# The enforcement input folders: ingestion assets (asset key = table name).


# ---------------------------------------------------------------- helpers


def enforcement_rules(settings: OutfallSettings) -> Rules:
    rules = load_rules(JURISDICTION, settings.rules_path())
    readings = rules.raw.get("readings_enforcement") or {}
    for name, value in IMPLEMENTED_READINGS.items():
        if name in readings and readings[name].get("value") != value:
            raise RulesError(f"{rules.source.name}: readings_enforcement.{name} = "
                             f"{readings[name].get('value')!r}; this version implements only {value!r}")
    return rules


def _reading(rules: Rules, name: str, default: Any) -> Any:
    entry = (rules.raw.get("readings_enforcement") or {}).get(name)
    return default if entry is None else entry.get("value", default)


def _reading_citation(rules: Rules, name: str) -> str:
    entry = (rules.raw.get("readings_enforcement") or {}).get(name) or {}
    return str(entry.get("citation", ""))


def letters_folder(duckdb: DuckDBResource, settings: OutfallSettings) -> Path | None:
    """``<dashboards>/letters/sewer`` (None for an in-memory warehouse)."""
    return letters_dir(duckdb, settings, "sewer")


def _records(con: duckdb.DuckDBPyConnection, name: str, params: Any = None) -> list[dict]:
    """Rows of ``sql/<name>.sql`` as dicts of Python values (dates as dt.date)."""
    cursor = con.execute(sql(name), params or {})
    cols = [d[0] for d in cursor.description]
    return [dict(zip(cols, row)) for row in cursor.fetchall()]


def _frame(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows)


def _write_letters(folder: Path | None, letters: dict[str, Letter]) -> None:
    if folder is None:
        return
    for name, html_text in letters.items():
        write_letter(folder, name, html_text)


def _address_missing(address: Any) -> list[str]:
    """Why a letter cannot be mailed for want of an address (plain words), if so."""
    return [] if address and str(address).strip() else ["the recipient's mailing address is not on file"]


def _remove_stale(folder: Path | None, prefix: str, keep: Iterable[str]) -> int:
    if folder is None or not folder.is_dir():
        return 0
    keep = set(keep)
    removed = 0
    for stale in folder.glob(f"{prefix}*.html"):
        if stale.name not in keep:
            stale.unlink()
            removed += 1
    return removed


def _num(value: float | None) -> str:
    if value is None:
        return "(no value)"
    text = f"{float(value):,.4f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _date_text(day: dt.date | None) -> str:
    return "" if day is None else f"{day:%B} {day.day}, {day.year}"


def _counts(rows: list[dict], key: str) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for r in rows:
        out[str(r.get(key))] += 1
    return dict(sorted(out.items()))


# ------------------------------------------------------ notices of violation


def _notice_id(v: dict) -> str:
    parts = [v["user_id"], v["sample_id"], v["parameter"], v["limit_type"]]
    return "NOV-" + safe_file_name("-".join(str(p) for p in parts))


def _follow_up_text(fu: law.FollowUp, v: dict, correct_by: dt.date, as_of: dt.date) -> str:
    nxt = fu.next_result
    label = PARAMETER_LABELS.get(v["parameter"], v["parameter"])
    if fu.status == law.PENDING:
        return (f"No later analysis of {label} yet; the period to correct runs to {_date_text(correct_by)}.")
    if fu.status == law.OVERDUE:
        return (f"No later analysis of {label} by {_date_text(as_of)}; the period to correct ended "
                f"{_date_text(correct_by)}. The administrator may take action under § 253-55.")
    assert nxt is not None
    where = f"sample {nxt.sample_id} collected {_date_text(nxt.collected_date)} ({_num(nxt.value)} {v['unit']})"
    if fu.status == law.CORRECTED:
        return f"The next analysis, {where}, complied with the limit within the period to correct."
    if fu.status == law.CORRECTED_LATE:
        return (f"No analysis within the period to correct (to {_date_text(correct_by)}); the next, {where}, "
                f"complied.")
    return (f"The next analysis, {where}, again broke the limit: the violation was not corrected. The "
            f"administrator may take action under § 253-55.")


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb", "html"},
    deps=["discharge_violations", "industrial_users"],
    description="A notice of violation for every sample result that breaks a per-sample limit (Woodbury "
                "ch. 253 Part 2, enforcement): sent by certified mail, stating the measured value, the limit "
                "and its section, a period to correct of at most 30 days (rules `notices`), the penalty of "
                "§ 253-55 A ($250 fine plus a civil penalty up to $250 per violation, each day a separate "
                "violation), and its follow-up as of --as-of (corrected in time when the next result of the "
                "same user and parameter, within the period, complies). One printable HTML letter each in "
                "<dashboards>/letters/sewer/.",
)
def sewer_notices(context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = enforcement_rules(settings)
    as_of = settings.as_of_date()
    notices_rules = rules.section("notices")
    days = law.correction_period_days(notices_rules)
    penalty = rules.section("penalties")["sewer_use"]
    enforcement = rules.section("sewer_enforcement")
    texts = enforcement.get("section_text") or {}
    fine, civil = Decimal(str(penalty["fine_max_usd"])), Decimal(str(penalty["civil_max_usd"]))
    rule = str(enforcement.get("citation") or notices_rules["citation_sewer_correction"])
    folder = letters_folder(duckdb, settings)
    writer = LetterWriter(settings.data_path())
    notices: list[dict] = []
    letters: dict[str, Letter] = {}
    with warehouse(duckdb) as con:
        for v in _records(con, "select_sewer_notice_violations", {"as_of": as_of}):
            issued_on = v["collected_date"]
            correct_by = law.add_days(issued_on, days)
            nxt = (law.LaterResult(v["next_sample_id"], v["next_collected_date"], v["next_outcome"], v["next_value"])
                   if v["next_sample_id"] is not None else None)
            fu = law.follow_up(correct_by, nxt, v["first_compliant_on"], as_of)
            vdays = law.violation_days(correct_by, fu.corrected_on, as_of)
            notice_id = _notice_id(v)
            file_name = f"{NOTICE_PREFIX}{notice_id}.html"
            notice = {
                "notice_id": notice_id, "user_id": v["user_id"], "name": v["name"], "address": v["address"],
                "permit_no": v["permit_no"], "sample_id": v["sample_id"], "parameter": v["parameter"],
                "collected_at": v["collected_at"], "collected_date": v["collected_date"],
                "sample_type": v["sample_type"], "value": v["value"], "unit": v["unit"],
                "limit_value": v["limit_value"], "limit_type": v["limit_type"], "limit_source": v["limit_source"],
                "violation_rule": v["rule"], "issued_on": issued_on, "mailing": enforcement.get("mailing"),
                "correction_days": days, "correct_by": correct_by,
                "next_sample_id": nxt.sample_id if fu.next_result else None,
                "next_collected_date": nxt.collected_date if fu.next_result else None,
                "next_value": nxt.value if fu.next_result else None,
                "next_outcome": nxt.outcome if fu.next_result else None,
                "corrected_on": fu.corrected_on, "status": fu.status, "corrected_in_time": fu.corrected_in_time,
                "violation_days": vdays, "fine_max_usd": fine, "civil_penalty_max_usd": civil,
                "max_penalty_usd": law.max_penalty(vdays, fine, civil), "as_of": as_of,
                "letter_file": file_name if folder is not None else None, "rule": rule,
                "penalty_rule": penalty["citation"],
            }
            notices.append(notice)
            letters[file_name] = writer.render(
                "sewer_notice_of_violation.html", _notice_context(notice, fu, enforcement, texts, penalty, as_of),
                jurisdiction=JURISDICTION, area="sewer", missing=_address_missing(v["address"]))
        with transaction(con):
            replace_rows(con, "sewer_notices", _frame(notices))
            _write_letters(folder, letters)
        removed = _remove_stale(folder, NOTICE_PREFIX, letters)
        if folder is None:
            context.log.warning("in-memory warehouse and no dashboards_dir: sewer notice letters not written")
        return table_result(con, "sewer_notices", as_of=str(as_of), correction_days=days,
                            letters_folder=str(folder) if folder else "(none)", stale_letters_removed=removed,
                            by_status=MetadataValue.json(_counts(notices, "status")),
                            by_parameter=MetadataValue.json(_counts(notices, "parameter")))


def _notice_context(n: dict, fu: law.FollowUp, enforcement: dict, texts: dict, penalty: dict,
                    as_of: dt.date) -> dict:
    label = PARAMETER_LABELS.get(n["parameter"], n["parameter"])
    limit_word = "maximum" if n["limit_type"] == "max" else "minimum"
    breaks_word = "exceeds" if n["limit_type"] == "max" else "is below"
    value_text = f"{_num(n['value'])} {n['unit']}"
    limit_text = f"{limit_word} {_num(n['limit_value'])} {n['unit']} ({n['limit_source']} limit)"
    fine, civil = n["fine_max_usd"], n["civil_penalty_max_usd"]
    return {
        **n,
        "issuer": enforcement.get("issuer", ""),
        "recipient_name": n["name"] or f"Industrial user {n['user_id']}",
        "recipient_address_block": n["address"] or "[mailing address not on file]",
        "permit_text": f"permit {n['permit_no']}" if n["permit_no"] else f"user {n['user_id']}",
        "parameter_label": label,
        "collected_on": n["collected_date"],
        "value_text": value_text,
        "limit_text": limit_text,
        "nature_of_violation": (f"The {label} of your {n['sample_type'] or ''} sample {n['sample_id']} collected on "
                                f"{_date_text(n['collected_date'])} was {value_text}, which {breaks_word} the "
                                f"{limit_word} of {_num(n['limit_value'])} {n['unit']} that applies to your "
                                f"discharge ({n['violation_rule']})."),
        "enforcement_text": texts.get("enforcement", ""),
        "penalty_text": texts.get("penalties", ""),
        "penalty_statement": (f"Each violation may be punished by a fine not exceeding ${fine:,.2f} and is "
                              f"subject to a civil penalty not exceeding ${civil:,.2f}. Each day the violation "
                              f"continues is a separate violation, subject to a separate fine and civil penalty "
                              f"(at most ${fine + civil:,.2f} a day)."),
        "status_label": STATUS_LABELS.get(n["status"], n["status"]),
        "follow_up_text": _follow_up_text(fu, n, n["correct_by"], as_of),
    }


# ---------------------------------------------------------- obligations


def _covering(reports: list[dict], user_id: str, day: dt.date) -> list[dt.date | None]:
    """received_on of the user's reports that can cover an event of ``day``: a
    report with a period covers the days of that period (period_start alone: that
    day); one without a period covers any event."""
    out = []
    for r in reports:
        if r["user_id"] != user_id:
            continue
        start = r["period_start"]
        end = r["period_end"] or start
        if start is not None and not (start <= day <= end):
            continue
        out.append(r["received_on"])
    return out


def build_obligations(con: duckdb.DuckDBPyConnection, rules: Rules, as_of: dt.date) -> list[dict]:
    """Every obligation of the deadlines engine, judged on ``as_of``."""
    n = rules.section("notices")
    rows: list[dict] = []

    def add(user_id: str, obligation: str, rule: str, d: law.Deadline, reference: str, detail: str) -> None:
        rows.append({"user_id": user_id, "obligation": obligation, "rule": rule, "trigger_date": d.trigger_date,
                     "due": d.due, "satisfied_on": d.satisfied_on, "status": d.status, "days_late": d.days_late,
                     "reference": reference, "detail": detail, "as_of": as_of})

    reports = _records(con, "select_enforcement_reports")
    by_type: dict[str, list[dict]] = defaultdict(list)
    for r in reports:
        by_type[r["report_type"]].append(r)

    # Periodic reports (ch. 253 Part 2: at intervals not exceeding six months).
    months = int(n["periodic_report_max_months"])
    rule = str(n["citation_periodic"])
    periodic: dict[str, list[dict]] = defaultdict(list)
    for r in by_type.get("periodic", []):
        periodic[r["user_id"]].append(r)
    for user_id, items in sorted(periodic.items()):
        items.sort(key=lambda r: (r["due_date"], r["period_end"] or r["due_date"]))
        previous_due = None
        for r in items:
            notes = []
            if r["period_start"] or r["period_end"]:
                notes.append(f"report for {r['period_start'] or '?'} to {r['period_end'] or '?'}")
            if r["period_start"] and r["period_end"] and r["period_end"] >= law.add_months(r["period_start"], months):
                notes.append(f"the period is longer than the {months}-month maximum interval")
            if previous_due is not None and r["due_date"] > law.add_months(previous_due, months):
                notes.append(f"due more than {months} months after the previous report's due date ({previous_due})")
            d = law.dated_deadline(r["period_end"] or r["due_date"], r["due_date"], r["received_on"], as_of)
            add(user_id, "periodic_report", rule, d, f"{r['source_file']}:{r['source_row']}", "; ".join(notes))
            previous_due = r["due_date"]
        last = items[-1]["due_date"]
        d = law.dated_deadline(last, law.add_months(last, months), None, as_of)
        add(user_id, "periodic_report", rule, d, "next report",
            f"the next periodic report is due at the latest {months} months after the last one's due date "
            f"({last}); none is scheduled yet in `reports`")

    # Accidental discharges: written statement within 15 days of the notification.
    days = int(n["accidental_discharge_statement_days"])
    rule = str(n["citation_accidental"])
    for a in _records(con, "select_accidental_discharges"):
        trigger = a["notified_on"] or a["occurred_on"]
        d = law.deadline(trigger, days, a["statement_received_on"], as_of)
        if a["notified_at"] is not None:
            hours = (a["notified_at"] - a["occurred_at"]).total_seconds() / 3600.0
            notice = f"notified {_num(hours)} hours after the discharge"
        else:
            notice = "no notification recorded (Part 2: notify the administrator immediately); counted from the discharge"
        detail = "; ".join(x for x in (a["description"], notice) if x)
        add(a["user_id"], "accidental_statement", rule, d, f"discharge of {a['occurred_at'].isoformat()}", detail)

    # Violations found by the user's own sampling: notice within 24 hours, resample within 30 days.
    words = _reading(rules, "self_monitoring_town_words", list(DEFAULT_TOWN_WORDS))
    words = [words] if isinstance(words, str) else list(words)
    notice_days = law.hours_as_days(n["self_monitoring_notice_hours"])
    resample_days = int(n["resample_days"])
    rule = str(n["citation_self_monitoring"])
    notices = by_type.get("violation_notice", [])
    for v in _records(con, "select_self_monitoring_violations", {"as_of": as_of}):
        if not law.is_self_monitoring(v["lab"], v["method"], words):
            continue
        aware = v["collected_date"]
        what = (f"{v['parameter']} {_num(v['value'])} {v['unit'] or ''} in sample {v['sample_id']} "
                f"(lab: {v['lab'] or 'not given'})").replace("  ", " ")
        received = law.first_on_or_after(aware, _covering(notices, v["user_id"], aware))
        add(v["user_id"], "violation_notice_24h", rule, law.deadline(aware, notice_days, received, as_of),
            v["sample_id"], f"notify the Town of the violation: {what}")
        resample = law.deadline(aware, resample_days, v["resampled_on"], as_of)
        detail = f"repeat the sampling and submit the result: {what}"
        if v["resample_id"] is not None and resample.satisfied_on is not None:
            detail += f"; repeated by sample {v['resample_id']}"
        add(v["user_id"], "resample_30d", rule, resample, v["sample_id"], detail)

    # Slug discharges: written report within 5 days (a `reports` row of type slug).
    days = int(n["slug_report_days"])
    rule = str(n["citation_slug_report"])
    slug_reports = by_type.get("slug", [])
    for e in _records(con, "select_slug_report_events"):
        trigger = e["start_on"]
        received = law.first_on_or_after(trigger, _covering(slug_reports, e["user_id"], trigger))
        d = law.deadline(trigger, days, received, as_of)
        add(e["user_id"], "slug_report", rule, d, f"slug of {e['start_at'].isoformat()}",
            f"{e['constituent']} slug peaking at {_num(e['peak_value'])} {e['unit'] or ''} "
            f"({_num(e['peak_ratio'])} x baseline)".replace("  ", " "))

    # Permits expiring within 90 days (or expired).
    warn = int(n["permit_expiry_warning_days"])
    rule = str(n["citation_permit_expiry"])
    for u in _records(con, "select_permit_expirations"):
        expires = u["permit_expires"]
        trigger = law.add_days(expires, -warn)
        if as_of < trigger:
            continue
        d = law.dated_deadline(trigger, expires, None, as_of)
        state = "expired" if expires < as_of else "expires"
        add(u["user_id"], "permit_renewal", rule, d, u["permit_no"] or "",
            f"permit {u['permit_no'] or '(no number)'} of {u['name']} {state} {expires}")

    rows.sort(key=lambda r: (r["user_id"], r["due"], r["obligation"], r["reference"]))
    return rows


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb"},
    deps=["reports", "accidental_discharges", "discharge_violations", "slug_events", "lab_results",
          "industrial_users"],
    description="The deadlines engine (status met / late / open / overdue as of --as-of, calendar days): periodic "
                "reports at intervals not exceeding six months and the written statement within 15 days of an "
                "accidental discharge (ch. 253 Part 2); for a violation the user's own sampling found, notice "
                "within 24 hours and a repeat result within 30 days (40 CFR 403.12(g)(2)); a written slug "
                "report within 5 days (40 CFR 403.8(f)(2)(vi)); permits expiring within 90 days.",
)
def obligations(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = enforcement_rules(settings)
    as_of = settings.as_of_date()
    with warehouse(duckdb) as con:
        rows = build_obligations(con, rules, as_of)
        with transaction(con):
            replace_rows(con, "obligations", _frame(rows))
        by = defaultdict(int)
        for r in rows:
            by[f"{r['obligation']}:{r['status']}"] += 1
        return table_result(con, "obligations", as_of=str(as_of),
                            by_obligation_and_status=MetadataValue.json(dict(sorted(by.items()))))


# ------------------------------------------------- significant noncompliance


# Contract 5.2: the three sets of measurements of a user, parameter and period, in the order that
# breaks a tie between them (equal pct: the per-sample set, then daily maxima, then monthly averages).
SNC_BASES = ("sample", "daily_max", "monthly_avg")
BASIS_WORDS = {"sample": ("results", "results"),
               "daily_max": ("daily maximums above their limit", "daily maximums judged"),
               "monthly_avg": ("monthly averages above their limit", "monthly averages judged")}


def statistic_counts(parameter: str, values: list[tuple[float, float, bool]], snc: dict) -> tuple[int, int, int | None]:
    """(measurements, breaking, reaching TRC or None) of one set of judged statistics: each
    (value, limit, passes) is one measurement; it breaks its limit when it does not pass (strictly
    above); TRC when value >= limit x the parameter's factor (never for a parameter TRC excludes)."""
    measurements = len(values)
    breaking = sum(1 for _, _, passes in values if not passes)
    if law.trc_excluded(parameter, snc):
        return measurements, breaking, None
    factor = law.trc_factor(parameter, snc)
    return measurements, breaking, sum(1 for v, limit, _ in values if law.trc_reached(v, limit, factor))


def choose_basis(met: dict[str, list[law.Criterion]], criterion: str) -> tuple[str, law.Criterion] | None:
    """The set a criterion is reported on: the highest pct (exact), a tie in SNC_BASES order."""
    best = None
    for basis in SNC_BASES:
        for c in met.get(basis, []):
            if c.criterion != criterion:
                continue
            ratio = Fraction(c.count, c.measurements)
            if best is None or ratio > best[0]:
                best = (ratio, basis, c)
    return None if best is None else (best[1], best[2])


def build_snc(con: duckdb.DuckDBPyConnection, rules: Rules, as_of: dt.date) -> tuple[list[dict], list[dict]]:
    """(snc_determinations rows, snc_evaluations rows)."""
    snc = rules.section("snc")
    months = int(snc.get("period_months", 6))
    citation = str(snc["citation"])
    groups: dict[tuple, dict[str, list[law.Evaluation]]] = defaultdict(lambda: defaultdict(list))
    for r in _records(con, "select_snc_evaluations", {"period_months": months}):
        key = (r["user_id"], r["parameter"], r["period_start"])
        groups[key][r["sample_id"]].append(law.Evaluation(r["sample_id"], r["limit_type"], r["limit_value"],
                                                          r["value"], bool(r["nondetect"]), r["outcome"]))
    statistics: dict[tuple, dict[str, list[tuple[float, float, bool]]]] = defaultdict(lambda: defaultdict(list))
    for r in _records(con, "select_snc_statistics", {"period_months": months}):
        key = (r["user_id"], r["parameter"], r["period_start"])
        statistics[key][r["statistic"]].append((r["value"], r["limit_value"], bool(r["passes"])))
    determinations: list[dict] = []
    evaluations: list[dict] = []

    def rule_chronic(basis: str) -> str:
        breaking, judged = BASIS_WORDS[basis]
        what = "results breaking the limit" if basis == "sample" else breaking
        return (f"{citation}: chronic, {what} are {snc['chronic_pct']}% or more of the "
                f"{'measurements' if basis == 'sample' else judged} in the six-month period")

    def rule_trc(basis: str, factor) -> str:
        what = "results" if basis == "sample" else BASIS_WORDS[basis][1].replace(" judged", "")
        return (f"{citation}: technical review criteria, {what} equal to or above the limit x {factor} "
                f"are {snc['trc_pct']}% or more of the {'measurements' if basis == 'sample' else what} in the "
                f"six-month period")

    keys = sorted(set(groups) | set(statistics), key=lambda k: (k[0], k[2], k[1]))
    for key in keys:
        user_id, parameter, start = key
        period_start, period_end = law.half_year(start, months)
        factor = None if law.trc_excluded(parameter, snc) else law.trc_factor(parameter, snc)
        counts: dict[str, tuple[int, int, int | None]] = {}
        if key in groups:
            counts["sample"] = law.snc_counts(parameter, groups[key], snc)
        for basis in ("daily_max", "monthly_avg"):
            if statistics.get(key, {}).get(basis):
                counts[basis] = statistic_counts(parameter, statistics[key][basis], snc)
        met = {basis: law.criteria_met(m, b, t, snc) for basis, (m, b, t) in counts.items()}
        for basis, (measurements, breaking, trc) in counts.items():
            evaluations.append({
                "user_id": user_id, "period_start": period_start, "period_end": period_end, "parameter": parameter,
                "measurements": measurements, "violations": breaking, "trc_results": trc,
                "chronic_pct_needed": float(snc["chronic_pct"]), "trc_pct_needed": float(snc["trc_pct"]),
                "trc_factor": float(factor) if factor is not None else None,
                "chronic": any(c.criterion == "chronic" for c in met[basis]),
                "trc": any(c.criterion == "trc" for c in met[basis]),
                "period_closed": period_end < as_of, "basis": basis,
                "rule": citation + ("" if factor is not None else f"; {parameter} is never judged by the technical "
                                                                  f"review criteria"),
            })
        for criterion in ("chronic", "trc"):
            chosen = choose_basis(met, criterion)
            if chosen is None:
                continue
            basis, c = chosen
            determinations.append({
                "user_id": user_id, "period_start": period_start, "period_end": period_end,
                "parameter": parameter, "criterion": c.criterion, "measurements": c.measurements,
                "count": c.count, "pct": c.pct, "basis": basis,
                "rule": rule_chronic(basis) if criterion == "chronic" else rule_trc(basis, factor)})

    late_days = int(snc["late_report_days"])
    due: dict[tuple, list[tuple[dt.date, dt.date | None]]] = defaultdict(list)
    for r in _records(con, "select_enforcement_reports"):
        if r["due_date"] is None:
            continue
        period = law.half_year(r["due_date"], months)
        due[(r["user_id"], period)].append((r["due_date"], r["received_on"]))
    rule_late = (f"{citation}: reports received more than {late_days} days after their due date (not received: "
                 f"more than {late_days} days past due as of --as-of)")
    for (user_id, (period_start, period_end)), items in sorted(due.items()):
        c = law.late_report_criterion(items, as_of, late_days)
        if c is not None:
            determinations.append({
                "user_id": user_id, "period_start": period_start, "period_end": period_end, "parameter": None,
                "criterion": c.criterion, "measurements": c.measurements, "count": c.count, "pct": c.pct,
                "basis": None, "rule": rule_late})
    determinations.sort(key=lambda r: (r["user_id"], r["period_start"], r["criterion"], r["parameter"] or ""))
    return determinations, evaluations


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb"},
    deps=["discharge_violations", "statistic_violations", "reports"],
    description="Significant noncompliance (40 CFR 403.8(f)(2)(viii)) per user, parameter and six-month period "
                "(January-June, July-December): chronic (66% or more of the measurements break the limit, pH "
                "included), technical review criteria (33% or more at or above the limit x 1.4 for BOD, TSS and "
                "FOG, x 1.2 for others; pH never; non-detects never) and reports more than 45 days late. "
                "Per-sample results, judged daily maximums and judged monthly averages are three sets of "
                "measurements, each judged on its own; `basis` names the set a criterion was met in (the highest "
                "pct; a tie: sample, daily_max, monthly_avg). Thresholds from rules `snc`, compared in exact "
                "arithmetic. Also writes snc_evaluations (every period's counts per set, met or not).",
)
def snc_determinations(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = enforcement_rules(settings)
    as_of = settings.as_of_date()
    with warehouse(duckdb) as con:
        determinations, evaluations = build_snc(con, rules, as_of)
        with transaction(con):
            replace_rows(con, "snc_determinations", _frame(determinations))
            replace_rows(con, "snc_evaluations", _frame(evaluations))
        return table_result(con, "snc_determinations", as_of=str(as_of),
                            periods_evaluated=len(evaluations),
                            by_criterion=MetadataValue.json(_counts(determinations, "criterion")),
                            users_in_snc=len({d["user_id"] for d in determinations}))


def _criteria_text(snc: dict) -> str:
    """The SNC criteria in words, from the rules (factors grouped by value)."""
    by_factor: dict[str, list[str]] = defaultdict(list)
    for parameter, factor in (snc.get("trc_factor_by_parameter") or {}).items():
        by_factor[str(factor)].append(PARAMETER_LABELS.get(str(parameter), str(parameter)))
    excluded = [PARAMETER_LABELS.get(str(p), str(p)) for p in snc.get("trc_excluded_parameters") or []]
    factors = "; ".join(f"times {f} for {', '.join(ps)}" for f, ps in by_factor.items())
    others = f"times {snc['trc_factor_default']} for other parameters"
    if excluded:
        others += f" except {', '.join(excluded)}"
    return (f"Significant noncompliance: chronic violations ({snc['chronic_pct']}% or more of a parameter's "
            f"measurements in a six-month period exceed the limit); technical review criteria violations "
            f"({snc['trc_pct']}% or more equal or exceed the limit {'; '.join(x for x in (factors, others) if x)}); "
            f"reports more than {snc['late_report_days']} days late.")


CRITERION_TEXT = {
    "chronic": "chronic violations of {parameter}",
    "trc": "technical review criteria violations of {parameter}",
    "late_report": "reports more than {late_days} days late",
}


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb", "html"},
    deps=["snc_determinations", "industrial_users"],
    description="The annual list of industrial users in significant noncompliance at any time during the "
                "year (its two six-month periods), ready for newspaper publication (40 CFR 403.8(f)(2)(viii)): "
                "one row per year and user, and an HTML page per year in <dashboards>/letters/sewer/.",
)
def snc_publication(context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = enforcement_rules(settings)
    as_of = settings.as_of_date()
    snc = rules.section("snc")
    enforcement = rules.section("sewer_enforcement")
    late_days = int(snc["late_report_days"])
    citation = f"{snc['citation']}; {_reading_citation(rules, 'snc_publication_period')}".strip("; ")
    folder = letters_folder(duckdb, settings)
    writer = LetterWriter(settings.data_path())
    with warehouse(duckdb) as con:
        by_year: dict[int, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
        for d in _records(con, "select_snc_publication_users"):
            by_year[d["period_start"].year][d["user_id"]].append(d)
        rows: list[dict] = []
        letters: dict[str, Letter] = {}
        for year, users in sorted(by_year.items()):
            file_name = f"{PUBLICATION_PREFIX}{year}.html"
            closed = dt.date(year, 12, 31) < as_of
            entries = []
            for user_id, items in sorted(users.items(), key=lambda kv: ((kv[1][0]["name"] or kv[0]).lower(), kv[0])):
                first = items[0]
                criteria = []
                for crit in ("chronic", "trc", "late_report"):
                    params = sorted({i["parameter"] for i in items if i["criterion"] == crit and i["parameter"]})
                    if crit == "late_report" and any(i["criterion"] == crit for i in items):
                        criteria.append(CRITERION_TEXT[crit].format(late_days=late_days))
                    elif params:
                        criteria.append(CRITERION_TEXT[crit].format(parameter=", ".join(params)))
                periods = sorted({(i["period_start"], i["period_end"]) for i in items})
                period_text = "; ".join(f"{_date_text(s)} - {_date_text(e)}" for s, e in periods)
                rows.append({
                    "year": year, "user_id": user_id, "name": first["name"], "address": first["address"],
                    "permit_no": first["permit_no"], "criteria": "; ".join(criteria),
                    "parameters": ", ".join(sorted({i["parameter"] for i in items if i["parameter"]})),
                    "periods": period_text, "determinations": len(items), "year_closed": closed,
                    "letter_file": file_name if folder is not None else None, "rule": citation})
                who = first["name"] or f"Industrial user {user_id}"
                where = f", {first['address']}" if first["address"] else ""
                permit = f" (permit {first['permit_no']})" if first["permit_no"] else ""
                entries.append(f"{who}{where}{permit}: {'; '.join(criteria)} ({period_text}).")
            letters[file_name] = writer.render("sewer_snc_publication.html", {
                "year": year, "issuer": enforcement.get("issuer", ""), "as_of": as_of, "entries": entries,
                "period_text": "; ".join(f"{_date_text(s)} - {_date_text(e)}"
                                         for s, e in law.publication_year_periods(year, int(snc.get("period_months", 6)))),
                "intro": (f"As required by 40 CFR 403.8(f)(2)(viii), the Consolidated Sewer District publishes the "
                          f"following industrial users, which at some time during {year} were in significant "
                          f"noncompliance with the pretreatment standards and requirements of the Town of Woodbury "
                          f"Sewer Use Regulations (Woodbury Code ch. 253 Part 2)."),
                "criteria_text": _criteria_text(snc),
                "rule": citation,
                "status_text": ("Final list for the year." if closed else
                                f"Provisional: the year has not ended as of {_date_text(as_of)}."),
            }, jurisdiction=JURISDICTION, area="sewer",
                missing=[] if closed else [f"the year {year} has not ended: the list is provisional"])
        with transaction(con):
            replace_rows(con, "snc_publication", _frame(rows))
            _write_letters(folder, letters)
        removed = _remove_stale(folder, PUBLICATION_PREFIX, letters)
        return table_result(con, "snc_publication", as_of=str(as_of), years=sorted(by_year),
                            pages=sorted(letters), stale_pages_removed=removed)


# ------------------------------------------------------------- surcharges


def _part2_limit(rules: Rules, parameter: str, day: dt.date) -> float | None:
    found = [lim for lim in rules.discharge_limits
             if lim.parameter.lower() == parameter.lower() and lim.limit_type == "max" and lim.in_effect(day)]
    return min(lim.value for lim in found) if found else None


NO_RATE_ADOPTED = ("no rate per pound adopted by the Town Board (ch. 253 Part 2 leaves it to the Board): "
                   "pounds reported, no amount charged")


def build_surcharges(con: duckdb.DuckDBPyConnection, rules: Rules, as_of: dt.date) -> tuple[list[dict], list[dict]]:
    sc = rules.section("surcharge")
    parameters = [str(p) for p in sc["parameters"]]
    lbs = float(sc["lbs_per_mg_per_mgl"])
    nd = rules.section("nondetect_averaging")
    nd_by = {str(k).lower(): str(v) for k, v in (nd.get("by_parameter") or {}).items()}
    tz = str(rules.raw.get("timezone") or "America/New_York")
    flows = {(f["user_id"], f["month"]): f for f in _records(con, "select_monthly_flow", {"as_of": as_of})}
    users = {u["user_id"]: u for u in _records(con, "select_surcharge_users")}
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in _records(con, "select_surcharge_results", {"parameters": parameters, "as_of": as_of}):
        groups[(r["user_id"], r["month"], r["parameter"])].append(r)
    rule = (f"{sc['citation']}; pounds = flow (MG) x {sc['lbs_per_mg_per_mgl']} x (concentration - limit); "
            f"{_reading_citation(rules, 'surcharge_flow')}")
    surcharges, samples = [], []
    for (user_id, month, parameter), results in sorted(groups.items()):
        period_start, period_end = law.month_bounds(month)
        limit = _part2_limit(rules, parameter, period_start)
        if limit is None:
            continue
        # The Town Board's rate in effect in the month; none adopted: pounds without an amount.
        adopted = rules.surcharge.rate(parameter, period_start)
        policy = nd_by.get(parameter.lower(), str(nd["default"]))
        conc, used = law.month_concentration(
            [(r["sample_type"], r["value"], bool(r["nondetect"])) for r in results], policy)
        f = flows.get((user_id, month))
        user = users.get(user_id) or {}
        mean_gpm, readings = None, 0
        if f is not None:
            readings = int(f["readings"])
            mean_gpm = (f["integral_gpm_s"] / f["covered_s"]) if f["covered_s"] else f["mean_gpm"]
            flow_mg, source = law.meter_volume_mg(mean_gpm, law.month_minutes(period_start, tz)), "meter"
        elif user.get("normal_avg_flow_gpd") is not None:
            flow_mg = law.permit_volume_mg(user["normal_avg_flow_gpd"], (period_end - period_start).days + 1)
            source = "permit"
        else:
            flow_mg, source = None, "none"
        pounds = law.surcharge_pounds(flow_mg, conc, limit, lbs)
        used_rows = [results[i] for i in used]
        surcharges.append({
            "user_id": user_id, "name": user.get("name"), "period_start": period_start, "period_end": period_end,
            "parameter": parameter, "samples": len(used_rows),
            "nondetects": sum(1 for r in used_rows if r["nondetect"]),
            "sample_type": ", ".join(sorted({str(r["sample_type"]) for r in used_rows})),
            "concentration_mgl": conc, "limit_mgl": limit,
            "excess_mgl": None if conc is None else max(0.0, conc - limit),
            "flow_mg": flow_mg, "flow_source": source, "flow_readings": readings, "flow_mean_gpm": mean_gpm,
            "pounds": pounds, "rate_usd_per_lb": adopted.usd_per_lb if adopted else None,
            "amount_usd": law.surcharge_amount(pounds, adopted.usd_per_lb) if adopted else None,
            "period_closed": period_end < as_of,
            "rule": f"{rule}; rate per pound adopted by {adopted.adopted_by}" if adopted else f"{rule}; {NO_RATE_ADOPTED}"})
        for r in used_rows:
            value_used = r["value"]
            if r["nondetect"] and r["value"] is not None:
                value_used = nondetect_value(r["value"], policy)
            samples.append({
                "user_id": user_id, "period_start": period_start, "parameter": parameter,
                "sample_id": r["sample_id"], "collected_at": r["collected_at"], "collected_date": r["collected_date"],
                "sample_type": r["sample_type"], "value": r["value"], "nondetect": bool(r["nondetect"]),
                "value_used": value_used, "unit": r["unit"],
                "rule": _reading_citation(rules, "surcharge_concentration")})
    return surcharges, samples


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb"},
    deps=["lab_results", "flow", "industrial_users"],
    description="Surcharges for wastes stronger than the Part 2 limits the Town Board accepts (ch. 253 Part 2: "
                "payment to cover the added cost of treating them): per user, calendar month and parameter "
                "(BOD, TSS), pounds = flow (million gallons) x 8.34 x (concentration - limit), negatives as zero, "
                "x the rate per pound from rules `surcharge`. Flow: the month's time-weighted mean meter flow x "
                "its minutes, else the permit's normal_avg_flow_gpd x its days. Also writes surcharge_samples.",
)
def surcharges(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = enforcement_rules(settings)
    as_of = settings.as_of_date()
    with warehouse(duckdb) as con:
        rows, samples = build_surcharges(con, rules, as_of)
        with transaction(con):
            replace_rows(con, "surcharges", _frame(rows))
            replace_rows(con, "surcharge_samples", _frame(samples))
        total = sum((r["amount_usd"] for r in rows if r["amount_usd"] is not None), Decimal("0"))
        return table_result(con, "surcharges", as_of=str(as_of), total_usd=float(total),
                            by_flow_source=MetadataValue.json(_counts(rows, "flow_source")),
                            samples_used=len(samples))


# ----------------------------------------------------- grease interceptors


def build_grease(con: duckdb.DuckDBPyConnection, rules: Rules, as_of: dt.date) -> tuple[list[dict], list[dict]]:
    g = rules.section("grease_interceptors")
    comply_days = int(g["order_compliance_days"])
    max_days = int(rules.section("notices")["sewer_correction_max_days"])
    if comply_days > max_days:
        raise RulesError(f"{rules.source.name}: grease_interceptors.order_compliance_days {comply_days} is more "
                         f"than the {max_days} days the enforcement section allows")
    traps: dict[str, list[dict]] = defaultdict(list)
    for t in _records(con, "select_grease_traps"):
        traps[t["trap_id"]].append(t)
    pumps: dict[str, list[dict]] = defaultdict(list)
    for p in _records(con, "select_pumpouts"):
        pumps[p["trap_id"]].append(p)
    status_rows, orders = [], []
    for trap_id, settings_rows in sorted(traps.items()):
        current = [t for t in settings_rows if t["set_on"] <= as_of]
        if not current:
            continue
        t = max(current, key=lambda x: x["set_on"])
        interval = int(t["pumpout_interval_days"])
        seen = [p for p in pumps.get(trap_id, []) if p["pumped_on"] <= as_of]
        st = law.pumpout_status(t["set_on"], interval, [p["pumped_on"] for p in seen], as_of)
        address = t["address"] or t["user_address"]
        status_rows.append({
            "trap_id": trap_id, "user_id": t["user_id"], "parcel_id": t["parcel_id"],
            "establishment": t["establishment"], "address": address, "pumpout_interval_days": interval,
            "set_on": t["set_on"], "pumpouts": len(seen), "last_pumped_on": st.last_pumped_on,
            "next_due": st.next_due, "status": st.status, "days_overdue": st.days_overdue,
            "late_pumpouts": st.late_pumpouts,
            "pumpouts_without_invoice": sum(1 for p in seen if not p["invoice_no"]),
            "as_of": as_of, "rule": str(g["citation"])})
        if st.status == "overdue":
            order_id = "GO-" + safe_file_name(f"{trap_id}-{st.next_due:%Y%m%d}")
            comply_by = law.add_days(as_of, comply_days)
            orders.append({
                "order_id": order_id, "trap_id": trap_id, "user_id": t["user_id"], "parcel_id": t["parcel_id"],
                "establishment": t["establishment"], "address": address, "pumpout_interval_days": interval,
                "last_pumped_on": st.last_pumped_on, "missed_due": st.next_due, "days_overdue": st.days_overdue,
                "issued_on": as_of, "comply_by": comply_by,
                "directive": (f"You are directed to have grease trap {trap_id} cleaned and pumped by a scavenger "
                              f"service by {_date_text(comply_by)}, to keep it cleaned and pumped at least once "
                              f"every {interval} days, and to make the receipted invoices of the scavenger "
                              f"service available to the administrator."),
                "letter_file": None,
                "rule": f"{g['citation']}; {g['citation_order_compliance']}"})
    return status_rows, orders


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb", "html"},
    deps=["grease_traps", "pumpouts", "industrial_users"],
    description="Grease interceptors (ch. 253 Part 2): the cleaning and pumping frequency the administrator set "
                "for each establishment, the last pump-out, the next one due and whether it is overdue as of "
                "--as-of; an order directing compliance (with a printable letter) for every overdue trap, "
                "written to grease_orders.",
)
def grease_trap_status(context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = enforcement_rules(settings)
    as_of = settings.as_of_date()
    enforcement = rules.section("sewer_enforcement")
    texts = enforcement.get("section_text") or {}
    folder = letters_folder(duckdb, settings)
    writer = LetterWriter(settings.data_path())
    with warehouse(duckdb) as con:
        status_rows, orders = build_grease(con, rules, as_of)
        letters: dict[str, Letter] = {}
        for o in orders:
            file_name = f"{ORDER_PREFIX}{o['order_id']}.html"
            o["letter_file"] = file_name if folder is not None else None
            last = (f"The last pump-out on file was on {_date_text(o['last_pumped_on'])}."
                    if o["last_pumped_on"] else "No pump-out is on file since the frequency was set.")
            letters[file_name] = writer.render("sewer_grease_order.html", {
                **o, "issuer": enforcement.get("issuer", ""),
                "address_block": o["address"] or "[address not on file]",
                "set_on": next(s["set_on"] for s in status_rows if s["trap_id"] == o["trap_id"]),
                "last_pumped_text": last, "section_text": texts.get("grease", "")},
                jurisdiction=JURISDICTION, area="sewer", missing=_address_missing(o["address"]))
        with transaction(con):
            replace_rows(con, "grease_trap_status", _frame(status_rows))
            replace_rows(con, "grease_orders", _frame(orders))
            _write_letters(folder, letters)
        removed = _remove_stale(folder, ORDER_PREFIX, letters)
        return table_result(con, "grease_trap_status", as_of=str(as_of), orders=len(orders),
                            overdue=sum(1 for s in status_rows if s["status"] == "overdue"),
                            stale_orders_removed=removed)


# ---------------------------------------------------------------- checks


@asset_check(asset=snc_determinations, description="Every SNC determination meets its criterion's threshold in "
             "exact arithmetic (count x 100 >= pct x measurements), with pct = 100 x count / measurements and "
             "no pH row under the technical review criteria.")
def check_validity_snc_determinations_pct(duckdb: DuckDBResource, settings: OutfallSettings) -> AssetCheckResult:
    snc = enforcement_rules(settings).section("snc")
    with warehouse(duckdb) as con:
        rows = con.execute("SELECT user_id, period_start, parameter, criterion, measurements, count, pct "
                           "FROM snc_determinations").fetchall()
    needed = {"chronic": snc["chronic_pct"], "trc": snc["trc_pct"], "late_report": 0}
    bad = []
    for user_id, start, parameter, criterion, measurements, n, pct in rows:
        ok = (criterion in needed and 0 < n <= measurements
              and law.pct_reached(n, measurements, needed[criterion])
              and abs(pct - 100.0 * n / measurements) < 1e-9
              and not (criterion == "trc" and parameter is not None and law.trc_excluded(parameter, snc)))
        if not ok:
            bad.append(f"{user_id} {start} {parameter} {criterion}: {n}/{measurements} ({pct})")
    return AssetCheckResult(passed=not bad, severity=AssetCheckSeverity.ERROR,
                            metadata={"rows": len(rows), "bad_rows": len(bad),
                                      "examples": MetadataValue.md("\n".join(f"- {b}" for b in bad[:20]) or "none")})


@asset_check(asset=sewer_notices, description="Every violation collected by --as-of has exactly one notice of "
             "violation, and every notice's period to correct is within the law's maximum.")
def check_completeness_sewer_notices_violation(duckdb: DuckDBResource, settings: OutfallSettings) -> AssetCheckResult:
    as_of = settings.as_of_date()
    maximum = int(enforcement_rules(settings).section("notices")["sewer_correction_max_days"])
    with warehouse(duckdb) as con:
        violations = con.execute("SELECT count(*) FROM discharge_evaluations WHERE outcome = 'violation' "
                                 "AND collected_date <= ?", [as_of]).fetchall()[0][0]
        notices = count(con, "sewer_notices")
        distinct = con.execute("SELECT count(DISTINCT notice_id) FROM sewer_notices").fetchall()[0][0]
        too_long = con.execute("SELECT count(*) FROM sewer_notices WHERE correction_days > ? "
                               "OR correct_by > issued_on + correction_days", [maximum]).fetchall()[0][0]
    passed = violations == notices == distinct and too_long == 0
    return AssetCheckResult(passed=bool(passed), severity=AssetCheckSeverity.WARN,
                            metadata={"violations": int(violations), "notices": int(notices),
                                      "distinct_notice_ids": int(distinct), "periods_over_maximum": int(too_long)})
