"""Assets of the sewer administrator's enforcement: what the law says must follow a
violation, and by when.

- ingestion of the enforcement input folders (docs/inputs-sewer.md): ``reports``,
  ``accidental_discharges``, ``grease_traps``, ``pumpouts``;
- ``sewer_notices``: a notice of violation per sample result that breaks a
  per-sample limit (the sewer use law's enforcement: certified mail, the nature of
  the violation, the period to correct and the penalty in effect on its day), with its
  follow-up as of --as-of and a printable letter in
  ``<dashboards>/letters/sewer/``;
- ``obligations``: the deadlines engine (periodic reports, accidental-discharge
  statements, 24-hour notices and 30-day resampling after a violation the
  user's own sampling found, 5-day slug reports, expiring permits), each with the
  law it rests on (``law``) and whether the town's notices may count it
  (``adopted``: a duty of the town's own code, or of another law the rules adopt;
  the federal duties the demo's rules do not adopt stay on the user's record);
  a period the user must act within that ends on a weekend or holiday ends on
  the next business day (General Construction Law § 25-a, ``deadline_extension``);
- ``snc_determinations`` (+ ``snc_evaluations``): significant noncompliance per
  40 CFR 403.8(f)(2)(viii) over six-month periods;
- ``snc_publication``: the annual list for newspaper publication (+ HTML page);
- the surcharges of wastes stronger than the limits are in ``surcharges.py``;
- ``grease_trap_status`` (+ ``grease_orders`` and their letters).

Numbers and citations come from the town's rules file (sections notices, snc,
surcharge, penalties.sewer_use, sewer_enforcement, grease_interceptors and the
named readings in readings_enforcement), each in the version in effect on the
day it applies to: the violation's day for a notice, the day that starts a
deadline, the period for significant noncompliance, the month for a surcharge,
the day judged for a grease order. What no version covers is written to
``not_judged``, never guessed. The arithmetic is ``outfall/law/enforcement.py``
(production: no SQL re-implements it).
"""

import contextlib
import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import duckdb
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    MaterializeResult,
    MetadataValue,
    asset,
)
from dagster_duckdb import DuckDBResource

from assets.common import (
    GROUP_SEWER,
    WAREHOUSE_POOL,
    letters_dir,
    outputs,
    table_asset,
    table_check,
    table_result,
    warehouse,
)
from assets.run import replace_judged
from dashboards.html import fmt_measure
from outfall.document_kinds import FOR_PUBLICATION, KINDS, SUPERINTENDENT
from outfall.documents import Document, Documents, Written, is_own, period_given, save_own_findings
from outfall.law import enforcement as law, notices as notice_law
from outfall.law.calendar import BusinessCalendar, extended_due, extension_law
from outfall.letters import LetterWriter, Recipient, safe_file_name
from outfall.records import files_on_record
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules, Versions
from outfall.rules.implemented import IMPLEMENTED
from outfall.rules.tables import NotJudged, check_implemented, not_in_effect
from outfall.rules.words import DESCRIBE
from outfall.vocab import parameter_label
from outfall.warehouse import records, sql, transaction

# Readings of the enforcement law this code implements (rules section
# readings_enforcement); a rules file asking for another fails loudly.
IMPLEMENTED_READINGS: dict[str, Any] = IMPLEMENTED["readings_enforcement"]

NOTICE_PREFIX = "sewer_nov_"
PUBLICATION = KINDS["snc_publication"]


# The enforcement input folders: ingestion assets (asset key = table name).


# ---------------------------------------------------------------- helpers


def enforcement_rules(resource: RulesResource) -> Rules:
    """The town's rules, once checked to ask only for readings this code implements."""
    rules = resource.town_rules()
    check_implemented(rules, "readings_enforcement", IMPLEMENTED_READINGS)
    return rules


class Dated:
    """The rules of one day, asked by name (``on.get("snc")``, ``on.get("notices.slug_report")``,
    ``on.get("readings_enforcement.surcharge_flow")``); a part with no version in effect on the day is
    None, and ``missing`` lists it as something not judged, with the section and why."""

    WORDS = {
        "notices.sewer_correction": "period to correct a sewer violation",
        "penalties.sewer_use": "sewer use penalty",
        "sewer_enforcement": "sewer enforcement texts",
        "notices.periodic_report": "periodic report interval",
        "notices.accidental_statement": "accidental discharge statement period",
        "notices.self_monitoring": "self-monitoring notice and resampling periods",
        "notices.slug_report": "slug report period",
        "notices.permit_expiry_warning": "permit expiry policy",
        "snc": "significant noncompliance criteria",
        "surcharge.method": "surcharge method",
        "nondetect_averaging": "non-detect averaging policy",
        "grease_interceptors": "grease interceptor rules",
    }

    def __init__(self, rules: Rules):
        self.rules = rules
        self.missing: list[NotJudged] = []

    def versions(self, section: str) -> Any:
        value: Any = self.rules
        for name in section.split("."):
            value = getattr(value, name, None) if value is not None else None
        return Versions(()) if value is None else value  # a section the rules do not state: no version

    def get(self, section: str, day: dt.date, subject: str = "") -> Any:
        versions = self.versions(section)
        found = versions.get(day)
        if found is None and subject:
            what = self.WORDS.get(section, section.rsplit(".", 1)[-1].replace("_", " "))
            self.missing.append(NotJudged(subject, day, section, not_in_effect(what, day, versions)))
        return found

    def each(self, sections: tuple[str, ...], day: dt.date, subject: str) -> list[Any] | None:
        """The versions of ``sections`` in effect on ``day``; None (one thing not judged, for the first
        section missing) when any has none."""
        found = []
        for section in sections:
            version = self.get(section, day, subject)
            if version is None:
                return None
            found.append(version)
        return found


def letters_folder(duckdb: DuckDBResource, settings: OutfallSettings) -> Path | None:
    """``<dashboards>/letters/sewer`` (None for an in-memory warehouse)."""
    return letters_dir(duckdb, settings, "sewer")


@contextlib.contextmanager
def _built(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource, build: Callable, *tables: str
) -> Iterator[tuple]:
    """(connection, as-of day, what ``build(con, on, as_of)`` returned) once its rows (one list per table, the
    asset's own table first) have replaced the tables' rows, with what was not judged, in one transaction."""
    on = Dated(enforcement_rules(rules))
    as_of = settings.as_of_date()
    with warehouse(duckdb, as_of=as_of) as con:
        built = build(con, on, as_of)
        with transaction(con):
            replace_judged(con, on.missing, **dict(zip(tables, built if len(tables) > 1 else (built,))))
        yield con, as_of, built


def _on_record(con) -> set[str]:
    """The names of the files of the record, whatever day this run judges by (``files_on_record``)."""
    return {Path(f).name for f in files_on_record(con)}


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


def _ratio(value: float | None) -> str:
    """A peak over its baseline as a reader writes it: one decimal ('9.9')."""
    return "(no value)" if value is None else f"{float(value):.1f}"


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


def _follow_up_text(
    fu: law.FollowUp, v: dict, correct_by: dt.date, as_of: dt.date, penalty_section: str
) -> str:
    """The follow-up in words; ``penalty_section``: where the law says what the administrator may do next."""
    nxt = fu.next_result
    label = parameter_label(v["parameter"])
    if fu.status == law.PENDING:
        return f"No later analysis of {label} yet; the period to correct runs to {_date_text(correct_by)}."
    if fu.status == law.OVERDUE:
        return (
            f"No later analysis of {label} by {_date_text(as_of)}; the period to correct ended "
            f"{_date_text(correct_by)}. The administrator may take action under {penalty_section}."
        )
    assert nxt is not None
    where = (
        f"sample {nxt.sample_id} collected {_date_text(nxt.collected_date)} ({_num(nxt.value)} {v['unit']})"
    )
    if fu.status == law.CORRECTED:
        return f"The next analysis, {where}, complied with the limit within the period to correct."
    if fu.status == law.CORRECTED_LATE:
        return (
            f"No analysis within the period to correct (to {_date_text(correct_by)}); the next, {where}, "
            f"complied."
        )
    return (
        f"The next analysis, {where}, again broke the limit: the violation was not corrected. The "
        f"administrator may take action under {penalty_section}."
    )


@table_asset(
    GROUP_SEWER,
    deps=["discharge_violations", "industrial_users", "user_permits", "notices"],
    description=DESCRIBE.sewer_notices(),
)
def sewer_notices(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    """The follow-up of each violation from the monthly notice that lists it (table ``notices``): dated
    the notice's mailing day; a draft sets no deadline and accrues no penalty."""
    town = enforcement_rules(rules)
    as_of = settings.as_of_date()
    on = Dated(town)
    folder = letters_folder(duckdb, settings)
    rows: list[dict] = []
    with warehouse(duckdb, as_of=as_of) as con:
        monthly = {
            (n["recipient_id"], n["period"]): n
            for n in records(con, "select_notices_of_kind", {"kind": "sewer"})
        }
        for v in records(con, "select_sewer_notice_violations", {"as_of": as_of}):
            n = monthly.get((v["user_id"], notice_law.period_of(v["collected_date"])))
            issued_on = n["issued_on"] if n is not None else None
            # A mailed notice is worded and priced by the rules of its mailing day; a draft by today's.
            day = issued_on or as_of
            subject = f"notice of violation: sample {v['sample_id']} of {v['user_id']}, {v['parameter']}"
            parts = on.each(
                ("notices.sewer_correction", "penalties.sewer_use", "sewer_enforcement"), day, subject
            )
            if parts is None:
                continue
            _correction, penalty, enforcement = parts
            days = n["correct_within_days"] if issued_on is not None else None
            correct_by = n["correct_by"] if issued_on is not None else None
            nxt = (
                law.LaterResult(
                    v["next_sample_id"], v["next_collected_date"], v["next_outcome"], v["next_value"]
                )
                if v["next_sample_id"] is not None
                else None
            )
            if correct_by is not None:
                fu = law.follow_up(correct_by, nxt, v["first_compliant_on"], as_of)
                status, in_time = fu.status, fu.corrected_in_time
            else:  # a draft: no period to correct has started
                seen_next = nxt if nxt is not None and nxt.collected_date <= as_of else None
                fu = law.FollowUp(notice_law.DRAFT, None, seen_next, law.seen(v["first_compliant_on"], as_of))
                status, in_time = notice_law.DRAFT, None
            vdays = notice_law.penalty_days(correct_by, fu.corrected_on, as_of)
            fine, civil = penalty.fine_max_usd, penalty.civil_max_usd
            rows.append(
                {
                    "notice_id": _notice_id(v),
                    "user_id": v["user_id"],
                    "name": v["name"],
                    "address": v["address"],
                    "permit_no": v["permit_no"],
                    "sample_id": v["sample_id"],
                    "parameter": v["parameter"],
                    "collected_at": v["collected_at"],
                    "collected_date": v["collected_date"],
                    "sample_type": v["sample_type"],
                    "value": v["value"],
                    "unit": v["unit"],
                    "limit_value": v["limit_value"],
                    "limit_type": v["limit_type"],
                    "limit_source": v["limit_source"],
                    "violation_rule": v["rule"],
                    "issued_on": issued_on,
                    "mailing": enforcement.mailing,
                    "correction_days": days,
                    "correct_by": correct_by,
                    "next_sample_id": fu.next_result.sample_id if fu.next_result else None,
                    "next_collected_date": fu.next_result.collected_date if fu.next_result else None,
                    "next_value": fu.next_result.value if fu.next_result else None,
                    "next_outcome": fu.next_result.outcome if fu.next_result else None,
                    "corrected_on": fu.corrected_on,
                    "status": status,
                    "corrected_in_time": in_time,
                    "violation_days": vdays,
                    "fine_max_usd": fine,
                    "civil_penalty_max_usd": civil,
                    "max_penalty_usd": law.max_penalty(vdays, fine, civil),
                    "as_of": as_of,
                    "letter_file": n["letter"] if n is not None else None,
                    "rule": enforcement.citation,
                    "penalty_rule": penalty.citation,
                    "notice_period": n["period"] if n is not None else None,
                    "notice_status": n["status"] if n is not None else None,
                    "follow_up": _follow_up_text(
                        fu, v, correct_by, as_of, town.law("sewer_penalty", day).short
                    )
                    if correct_by is not None
                    else (
                        "The notice listing this violation is a draft, not mailed: no period to correct has "
                        "started and no penalty accrues."
                    ),
                }
            )
        with transaction(con):
            replace_judged(con, on.missing, sewer_notices=rows)
        # One letter per notice now (assets/notices.py): the one-per-sample letters of old go.
        removed = _remove_stale(folder, NOTICE_PREFIX, _on_record(con))
        return table_result(
            con,
            "sewer_notices",
            as_of=str(as_of),
            not_judged=len(on.missing),
            old_letters_removed=removed,
            by_status=MetadataValue.json(_counts(rows, "status")),
            by_parameter=MetadataValue.json(_counts(rows, "parameter")),
        )


# ---------------------------------------------------------- obligations

#: The kinds of obligation (the obligations table's ``obligation``).
OBLIGATIONS = (
    "periodic_report",
    "accidental_statement",
    "violation_notice_24h",
    "resample_30d",
    "slug_report",
    "permit_renewal",
)


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


def obligation_period_end(rules: Rules, obligation: str, table: str = "obligations") -> law.PeriodEnd | None:
    """General Construction Law § 25-a for one kind of obligation (``table.obligation`` of the rules'
    deadline_extension periods), as the rules give it: a period that would end on a weekend or holiday ends
    on the next business day (None: the rules extend no such period)."""
    if rules.business_days is None or rules.deadline_extension is None:
        return None
    calendar = BusinessCalendar(rules.business_days)
    period = f"{table}.{obligation}"

    def end(day: dt.date) -> dt.date:
        if calendar.starts is None or day < calendar.starts:
            return day  # before the holiday rules begin, nothing is moved
        return extended_due(day, period, calendar, rules.deadline_extension)[0]  # type: ignore[arg-type]

    return end


def build_obligations(con: duckdb.DuckDBPyConnection, on: Dated, as_of: dt.date) -> list[dict]:
    """Every obligation of the deadlines engine, judged on ``as_of``, each by the rules in effect on the
    day that starts it (what no rule covers goes to ``on.missing``), with the law it rests on."""
    rows: list[dict] = []
    ends = {o: obligation_period_end(on.rules, o) for o in OBLIGATIONS}

    def add(user_id: str, obligation: str, duty: Any, d: law.Deadline, reference: str, detail: str) -> None:
        name, adopted = on.rules.duty_law(duty, d.trigger_date)
        rows.append(
            {
                "user_id": user_id,
                "obligation": obligation,
                "rule": duty.citation,
                "law": name,
                "adopted": adopted,
                "adopted_by": duty.adopted_by,
                "trigger_date": d.trigger_date,
                "due": d.due,
                "satisfied_on": d.satisfied_on,
                "status": d.status,
                "days_late": d.days_late,
                "reference": reference,
                "detail": detail,
                "as_of": as_of,
            }
        )

    reports = records(con, "select_enforcement_reports")
    by_type: dict[str, list[dict]] = defaultdict(list)
    for r in reports:
        by_type[r["report_type"]].append(r)

    # Periodic reports (the sewer use law: at intervals not exceeding the rules' maximum).
    periodic: dict[str, list[dict]] = defaultdict(list)
    for r in by_type.get("periodic", []):
        periodic[r["user_id"]].append(r)
    for user_id, items in sorted(periodic.items()):
        items.sort(key=lambda r: (r["due_date"], r["period_end"] or r["due_date"]))
        previous_due = None
        for r in items:
            reference = f"{r['source_file']}:{r['source_row']}"
            rule = on.get(
                "notices.periodic_report", r["due_date"], f"periodic report {reference} of {user_id}"
            )
            if rule is None:
                continue
            months = rule.max_months
            notes = []
            if r["period_start"] or r["period_end"]:
                notes.append(f"report for {r['period_start'] or '?'} to {r['period_end'] or '?'}")
            if (
                r["period_start"]
                and r["period_end"]
                and r["period_end"] >= law.add_months(r["period_start"], months)
            ):
                notes.append(f"the period is longer than the {months}-month maximum interval")
            if previous_due is not None and r["due_date"] > law.add_months(previous_due, months):
                notes.append(
                    f"due more than {months} months after the previous report's due date ({previous_due})"
                )
            d = law.dated_deadline(
                r["period_end"] or r["due_date"],
                r["due_date"],
                r["received_on"],
                as_of,
                ends["periodic_report"],
            )
            add(user_id, "periodic_report", rule, d, reference, "; ".join(notes))
            previous_due = r["due_date"]
        last = items[-1]["due_date"]
        rule = on.get("notices.periodic_report", last, f"next periodic report of {user_id}")
        if rule is not None:
            months = rule.max_months
            d = law.dated_deadline(last, law.add_months(last, months), None, as_of, ends["periodic_report"])
            add(
                user_id,
                "periodic_report",
                rule,
                d,
                "next report",
                f"the next periodic report is due at the latest {months} months after the last one's due "
                f"date ({last}); none is scheduled yet in the reports on file",
            )

    # Accidental discharges: a written statement within the rules' days of the notification.
    for a in records(con, "select_accidental_discharges"):
        trigger = a["notified_on"] or a["occurred_on"]
        rule = on.get(
            "notices.accidental_statement",
            trigger,
            f"accidental discharge of {a['user_id']} on {a['occurred_at'].isoformat()}",
        )
        if rule is None:
            continue
        d = law.deadline(trigger, rule.days, a["statement_received_on"], as_of, ends["accidental_statement"])
        if a["notified_at"] is not None:
            hours = (a["notified_at"] - a["occurred_at"]).total_seconds() / 3600.0
            notice = f"notified {_num(hours)} hours after the discharge"
        else:
            notice = "no notification recorded: the period is counted from the discharge"
        detail = "; ".join(x for x in (a["description"], notice) if x)
        add(
            a["user_id"],
            "accidental_statement",
            rule,
            d,
            f"discharge of {a['occurred_at'].isoformat()}",
            detail,
        )

    # Violations found by the user's own sampling: notice, then a repeat result, within the rules' periods.
    notices = by_type.get("violation_notice", [])
    for v in records(con, "select_self_monitoring_violations", {"as_of": as_of}):
        if not law.is_users_own(v["sampled_by"]):
            continue  # found by the Town's sampling: no 24-hour notice or repeat sampling of the user's
        aware = v["collected_date"]
        subject = f"self-monitoring deadlines of sample {v['sample_id']} of {v['user_id']}"
        rule = on.get("notices.self_monitoring", aware, subject)
        if rule is None:
            continue
        what = (
            f"{v['parameter']} {_num(v['value'])} {v['unit'] or ''} in sample {v['sample_id']} "
            f"(lab: {v['lab'] or 'not given'})"
        ).replace("  ", " ")
        received = law.first_on_or_after(aware, _covering(notices, v["user_id"], aware))
        add(
            v["user_id"],
            "violation_notice_24h",
            rule,
            law.deadline(
                aware, law.hours_as_days(rule.notice_hours), received, as_of, ends["violation_notice_24h"]
            ),
            v["sample_id"],
            f"notify the Town of the violation: {what}",
        )
        resample = law.deadline(aware, rule.resample_days, v["resampled_on"], as_of, ends["resample_30d"])
        detail = f"repeat the sampling and submit the result: {what}"
        if v["resample_id"] is not None and resample.satisfied_on is not None:
            detail += f"; repeated by sample {v['resample_id']}"
        add(v["user_id"], "resample_30d", rule, resample, v["sample_id"], detail)

    # Slug discharges: a written report within the rules' days (a `reports` row of type slug).
    slug_reports = by_type.get("slug", [])
    for e in records(con, "select_slug_report_events"):
        trigger = e["start_on"]
        rule = on.get(
            "notices.slug_report", trigger, f"slug report of {e['user_id']} for the slug of {trigger}"
        )
        if rule is None:
            continue
        received = law.first_on_or_after(trigger, _covering(slug_reports, e["user_id"], trigger))
        d = law.deadline(trigger, rule.days, received, as_of, ends["slug_report"])
        add(
            e["user_id"],
            "slug_report",
            rule,
            d,
            f"slug of {e['start_at'].isoformat()}",
            f"{e['constituent']} slug peaking at {fmt_measure(e['peak_value'], e['unit'] or '')}, "
            f"{_ratio(e['peak_ratio'])} times the baseline",
        )

    # Permits expiring soon (or expired), by the policy in effect on the day judged; renewed by a later
    # permit of the user (contract 8.2: a renewal adds a permit).
    rule = on.get("notices.permit_expiry_warning", as_of, "permits expiring soon")
    for u in records(con, "select_permit_expirations") if rule is not None else ():
        expires = u["permit_expires"]
        trigger = law.add_days(expires, -rule.days)
        if as_of < trigger:
            continue
        d = law.dated_deadline(trigger, expires, u["renewed_on"], as_of)
        state = "expired" if expires < as_of else "expires"
        detail = f"permit {u['permit_no'] or '(no number)'} of {u['name'] or u['user_id']} {state} {expires}"
        if u["renewed_by"] is not None:
            detail += f"; renewed by permit {u['renewed_by']} on {u['renewed_on']}"
        add(u["user_id"], "permit_renewal", rule, d, u["permit_no"] or "", detail)

    rows.sort(key=lambda r: (r["user_id"], r["due"], r["obligation"], r["reference"]))
    return rows


@table_asset(
    GROUP_SEWER,
    deps=[
        "reports",
        "accidental_discharges",
        "discharge_violations",
        "slug_events",
        "lab_results",
        "industrial_users",
        "user_permits",
    ],
    description=DESCRIBE.obligations(),
)
def obligations(duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource) -> MaterializeResult:
    with _built(duckdb, settings, rules, build_obligations, "obligations") as (con, as_of, rows):
        by = defaultdict(int)
        for r in rows:
            by[f"{r['obligation']}:{r['status']}"] += 1
        return table_result(
            con,
            "obligations",
            as_of=str(as_of),
            by_obligation_and_status=MetadataValue.json(dict(sorted(by.items()))),
        )


# ------------------------------------------------- significant noncompliance


# The three sets of measurements of a user, parameter and period, in the order that breaks a tie
# between them (equal pct: the per-sample set, then daily maximums, then monthly averages).
SNC_BASES = ("sample", "daily_max", "monthly_avg")
BASIS_WORDS = {
    "sample": ("results breaking the limit", "measurements", "results"),
    "daily_max": ("daily maximums above their limit", "daily maximums judged", "daily maximums"),
    "monthly_avg": ("monthly averages above their limit", "monthly averages judged", "monthly averages"),
}


def _period(on: Dated, day: dt.date, subject: str) -> tuple[dt.date, dt.date] | None:
    """The period of the rules in effect on ``day`` that holds it (January-June, July-December for six
    months); None (and a thing not judged) when no criteria are in effect that day."""
    snc = on.get("snc", day, subject)
    return None if snc is None else law.half_year(day, snc.period_months)


def statistic_counts(
    parameter: str, values: list[tuple[float, float, bool]], snc
) -> tuple[int, int, int | None]:
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


def build_snc(con: duckdb.DuckDBPyConnection, on: Dated, as_of: dt.date) -> tuple[list[dict], list[dict]]:
    """(snc_determinations rows, snc_evaluations rows). A result, daily maximum or monthly average belongs
    to the period the criteria in effect on its (first) day define; a period is judged by the criteria in
    effect on its last day. Per-sample results, judged daily maximums and judged monthly averages are three
    sets of measurements, each judged on its own."""
    groups: dict[tuple, dict[str, list[law.Evaluation]]] = defaultdict(lambda: defaultdict(list))
    unjudged: dict[tuple, list[dt.date]] = defaultdict(list)
    for r in records(con, "select_snc_evaluations"):
        period = _period(on, r["collected_date"], "")
        if period is None:
            unjudged[(r["user_id"], r["parameter"], r["collected_date"].year)].append(r["collected_date"])
            continue
        key = (r["user_id"], r["parameter"], *period)
        groups[key][r["sample_id"]].append(
            law.Evaluation(
                r["sample_id"],
                r["limit_type"],
                r["limit_value"],
                r["value"],
                bool(r["nondetect"]),
                r["outcome"],
            )
        )
    statistics: dict[tuple, dict[str, list[tuple[float, float, bool]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for r in records(con, "select_snc_statistics"):
        period = _period(on, r["statistic_start"], "")
        if period is None:
            unjudged[(r["user_id"], r["parameter"], r["statistic_start"].year)].append(r["statistic_start"])
            continue
        key = (r["user_id"], r["parameter"], *period)
        statistics[key][r["statistic"]].append((r["value"], r["limit_value"], bool(r["passes"])))
    for (user_id, parameter, year), days in sorted(unjudged.items()):
        on.get(
            "snc",
            min(days),
            f"{parameter} results of {user_id} in {year} ({len(days)} comparisons with a limit)",
        )
    determinations: list[dict] = []
    evaluations: list[dict] = []
    keys = sorted(set(groups) | set(statistics), key=lambda k: (k[0], k[2], k[1]))
    for key in keys:
        user_id, parameter, period_start, period_end = key
        snc = on.get("snc", period_end, f"{parameter} results of {user_id}, {period_start} to {period_end}")
        if snc is None:
            continue
        span = f"the {snc.period_months}-month period"
        factor = None if law.trc_excluded(parameter, snc) else law.trc_factor(parameter, snc)
        counts: dict[str, tuple[int, int, int | None]] = {}
        if key in groups:
            counts["sample"] = law.snc_counts(parameter, groups[key], snc)
        for basis in ("daily_max", "monthly_avg"):
            if statistics.get(key, {}).get(basis):
                counts[basis] = statistic_counts(parameter, statistics[key][basis], snc)
        met = {basis: law.criteria_met(m, b, t, snc) for basis, (m, b, t) in counts.items()}
        for basis, (measurements, breaking, trc) in counts.items():
            evaluations.append(
                {
                    "user_id": user_id,
                    "period_start": period_start,
                    "period_end": period_end,
                    "parameter": parameter,
                    "measurements": measurements,
                    "violations": breaking,
                    "trc_results": trc,
                    "chronic_pct_needed": float(snc.chronic_pct),
                    "trc_pct_needed": float(snc.trc_pct),
                    "trc_factor": float(factor) if factor is not None else None,
                    "chronic": any(c.criterion == "chronic" for c in met[basis]),
                    "trc": any(c.criterion == "trc" for c in met[basis]),
                    "period_closed": period_end < as_of,
                    "basis": basis,
                    "rule": snc.citation
                    + (
                        ""
                        if factor is not None
                        else f"; {parameter} is never judged by the technical review criteria"
                    ),
                }
            )
        for criterion in ("chronic", "trc"):
            chosen = choose_basis(met, criterion)
            if chosen is None:
                continue
            basis, c = chosen
            breaking_words, judged_words, plural = BASIS_WORDS[basis]
            rule = (
                f"{snc.citation}: chronic, {breaking_words} are {snc.chronic_pct}% or more of the "
                f"{judged_words} in {span}"
                if criterion == "chronic"
                else f"{snc.citation}: technical review criteria, {plural} equal to or above the limit x "
                f"{factor} are {snc.trc_pct}% or more of the "
                f"{'measurements' if basis == 'sample' else plural} in {span}"
            )
            determinations.append(
                {
                    "user_id": user_id,
                    "period_start": period_start,
                    "period_end": period_end,
                    "parameter": parameter,
                    "criterion": c.criterion,
                    "measurements": c.measurements,
                    "count": c.count,
                    "pct": c.pct,
                    "basis": basis,
                    "rule": rule,
                }
            )

    due: dict[tuple, list[tuple[dt.date, dt.date | None]]] = defaultdict(list)
    for r in records(con, "select_enforcement_reports"):
        if r["due_date"] is None:
            continue
        period = _period(on, r["due_date"], f"report of {r['user_id']} due {r['due_date']}")
        if period is not None:
            due[(r["user_id"], period)].append((r["due_date"], r["received_on"]))
    for (user_id, (period_start, period_end)), items in sorted(due.items()):
        snc = on.get("snc", period_end, f"reports of {user_id} due {period_start} to {period_end}")
        if snc is None:
            continue
        c = law.late_report_criterion(items, as_of, snc.late_report_days)
        if c is not None:
            determinations.append(
                {
                    "user_id": user_id,
                    "period_start": period_start,
                    "period_end": period_end,
                    "parameter": None,
                    "criterion": c.criterion,
                    "measurements": c.measurements,
                    "count": c.count,
                    "pct": c.pct,
                    "basis": None,
                    "rule": (
                        f"{snc.citation}: reports received more than {snc.late_report_days} days after "
                        f"their due date (not received: more than {snc.late_report_days} days past due on "
                        "the day judged)"
                    ),
                }
            )
    determinations.sort(key=lambda r: (r["user_id"], r["period_start"], r["criterion"], r["parameter"] or ""))
    return determinations, evaluations


@table_asset(
    GROUP_SEWER,
    deps=["discharge_violations", "statistic_violations", "reports"],
    description=DESCRIBE.snc_determinations(),
)
def snc_determinations(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    with _built(duckdb, settings, rules, build_snc, "snc_determinations", "snc_evaluations") as (
        con,
        as_of,
        built,
    ):
        determinations, evaluations = built
        return table_result(
            con,
            "snc_determinations",
            as_of=str(as_of),
            periods_evaluated=len(evaluations),
            by_criterion=MetadataValue.json(_counts(determinations, "criterion")),
            users_in_snc=len({d["user_id"] for d in determinations}),
        )


def _criteria_text(snc: Any) -> str:
    """The SNC criteria in words, from a version of the rules (factors grouped by value)."""
    by_factor: dict[str, list[str]] = defaultdict(list)
    for parameter, factor in snc.trc_factor_by_parameter.items():
        by_factor[str(factor)].append(parameter_label(parameter))
    excluded = [parameter_label(p) for p in snc.trc_excluded_parameters]
    factors = "; ".join(f"times {f} for {', '.join(ps)}" for f, ps in by_factor.items())
    others = f"times {snc.trc_factor_default} for other parameters"
    if excluded:
        others += f" except {', '.join(excluded)}"
    return (
        f"Significant noncompliance: chronic violations ({snc.chronic_pct}% or more of a parameter's "
        f"measurements in a {snc.period_months}-month period exceed the limit); technical review criteria "
        f"violations ({snc.trc_pct}% or more equal or exceed the limit "
        f"{'; '.join(x for x in (factors, others) if x)}); reports more than {snc.late_report_days} days "
        "late."
    )


def _publish(
    docs: Documents,
    context: dict,
    *,
    jurisdiction: str,
    number: str,
    file_name: str,
    dated: dt.date,
    entries: int,
    missing: list[str],
) -> Written:
    """The year's list for publication, through the one helper of documents: never mailed, ready once the
    year has ended."""
    return docs.add(
        Document(
            PUBLICATION.name,
            number,
            file_name,
            None,
            jurisdiction,
            context,
            addressed=False,
            status=FOR_PUBLICATION,
            dated=dated,
            missing=missing,
            items=entries,
        )
    )


CRITERION_TEXT = {
    "chronic": "chronic violations of {parameter}",
    "trc": "technical review criteria violations of {parameter}",
    "late_report": "reports more than {late_days} days late",
}


def _periods_text(periods: Iterable[tuple[dt.date, dt.date]]) -> str:
    return "; ".join(f"{_date_text(s)} - {_date_text(e)}" for s, e in sorted(periods))


def criteria_statements(items: list[dict], late_days: int) -> list[str]:
    """What one user's determinations of a year say, each criterion with exactly the periods in which
    ``snc_determinations`` has it (contract 8.5): "chronic violations of BOD (January 1, 2026 - June 30,
    2026; July 1, 2026 - December 31, 2026)"; parameters met in the same periods are named together."""
    out = []
    for crit in ("chronic", "trc", "late_report"):
        mine = [i for i in items if i["criterion"] == crit]
        if crit == "late_report":
            if mine:
                periods = {(i["period_start"], i["period_end"]) for i in mine}
                out.append(f"{CRITERION_TEXT[crit].format(late_days=late_days)} ({_periods_text(periods)})")
            continue
        by_parameter: dict[str, set] = defaultdict(set)
        for i in mine:
            if i["parameter"]:
                by_parameter[i["parameter"]].add((i["period_start"], i["period_end"]))
        by_periods: dict[tuple, list[str]] = defaultdict(list)
        for parameter, periods in by_parameter.items():
            by_periods[tuple(sorted(periods))].append(parameter)
        for periods, parameters in sorted(by_periods.items()):
            text = CRITERION_TEXT[crit].format(parameter=", ".join(sorted(parameters)))
            out.append(f"{text} ({_periods_text(periods)})")
    return out


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_SEWER,
    kinds={"duckdb", "html"},
    deps=["snc_determinations", "industrial_users", "user_permits"],
    description="The annual list of industrial users in significant noncompliance at any time during the "
    "year (its two six-month periods), ready for newspaper publication (40 CFR 403.8(f)(2)(viii)): "
    "one row per year and user, and an HTML page per year in <dashboards>/letters/sewer/.",
)
def snc_publication(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    town = enforcement_rules(rules)
    on = Dated(town)
    as_of = settings.as_of_date()
    folder = letters_folder(duckdb, settings)
    writer = LetterWriter(settings.data_path(), rules.all_rules())
    with warehouse(duckdb, as_of=as_of) as con:
        docs = Documents(con, writer, outputs(duckdb, settings).dashboards, (PUBLICATION.name,), as_of)
        by_year: dict[int, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
        for d in records(con, "select_snc_publication_users"):
            by_year[d["period_start"].year][d["user_id"]].append(d)
        rows: list[dict] = []
        letters: list[str] = []
        for year, users in sorted(by_year.items()):
            # The list of a year is worded by the rules in effect on its last day.
            end = dt.date(year, 12, 31)
            subject = f"list of users in significant noncompliance in {year}"
            found = on.each(
                ("snc", "sewer_enforcement", "readings_enforcement.snc_publication_period"), end, subject
            )
            if found is None:
                continue
            snc, enforcement, period = found
            late_days = snc.late_report_days
            citation = f"{snc.citation}; {period.citation}"
            file_name = PUBLICATION.make_file(year=year)
            closed = dt.date(year, 12, 31) < as_of
            entries = []
            for user_id, items in sorted(
                users.items(), key=lambda kv: ((kv[1][0]["name"] or kv[0]).lower(), kv[0])
            ):
                first = items[0]
                criteria = criteria_statements(items, late_days)
                period_text = _periods_text({(i["period_start"], i["period_end"]) for i in items})
                rows.append(
                    {
                        "year": year,
                        "user_id": user_id,
                        "name": first["name"],
                        "address": first["address"],
                        "permit_no": first["permit_no"],
                        "criteria": "; ".join(criteria),
                        "parameters": ", ".join(sorted({i["parameter"] for i in items if i["parameter"]})),
                        "periods": period_text,
                        "determinations": len(items),
                        "year_closed": closed,
                        "letter_file": file_name if folder is not None else None,
                        "rule": citation,
                    }
                )
                who = first["name"] or f"Industrial user {user_id}"
                where = f", {first['address']}" if first["address"] else ""
                permit = f" (permit {first['permit_no']})" if first["permit_no"] else ""
                entries.append(f"{who}{where}{permit}: {'; '.join(criteria)}.")
            letters.append(file_name)
            _publish(
                docs,
                {
                    "year": year,
                    "issuer": enforcement.issuer,
                    "as_of": as_of,
                    "entries": entries,
                    "period_text": "; ".join(
                        f"{_date_text(s)} - {_date_text(e)}"
                        for s, e in law.publication_year_periods(year, snc.period_months)
                    ),
                    "intro": (
                        "As required by 40 CFR 403.8(f)(2)(viii), the "
                        f"{town.law('sewer_district', end).name} publishes the following industrial users, "
                        f"which at some time during {year} were in significant noncompliance with the "
                        f"pretreatment standards and requirements of the {town.name} "
                        f"{town.law('sewer_use', end).name}."
                    ),
                    "criteria_text": _criteria_text(snc),
                    "rule": citation,
                    "status_text": (
                        "Final list for the year."
                        if closed
                        else f"Provisional: the year has not ended as of {_date_text(as_of)}."
                    ),
                },
                jurisdiction=rules.jurisdiction(),
                number=PUBLICATION.make_number(year=year),
                file_name=file_name,
                dated=min(end, as_of),
                entries=len(users),
                missing=[] if closed else [f"the year {year} has not ended: the list is provisional"],
            )
        with transaction(con):
            replace_judged(con, on.missing, snc_publication=rows)
            docs.save(con)
            removed = docs.write()
        return table_result(
            con,
            "snc_publication",
            as_of=str(as_of),
            years=sorted(by_year),
            pages=sorted(letters),
            stale_pages_removed=removed,
        )


# ----------------------------------------------------- grease interceptors


def grease_recipient(t: dict) -> Recipient | None:
    """The owner an order goes to, as the inputs name it (contract 8.4): the trap's owner_name at its
    owner's mailing address, else the owner of the trap's parcel (select_grease_traps); None when neither
    names one (the order is then not ready). Never a name no input gives."""
    if not str(t.get("owner_name") or "").strip():
        return None
    return Recipient(
        t["owner_name"], t.get("owner_address"), t.get("owner_city"), t.get("owner_state"), t.get("owner_zip")
    )


OWNER_FIX = (
    "the grease traps file: owner_name and the owner's mailing address, or the trap's parcel_id with the "
    "parcel's owner in the parcels file"
)
GREASE_ORDER = KINDS["grease_order"]


def _trap_on(settings_rows: list[dict], day: dt.date) -> dict | None:
    """The frequency set for a trap in effect on ``day`` (the latest set on or before it)."""
    current = [t for t in settings_rows if t["set_on"] <= day]
    return max(current, key=lambda x: x["set_on"]) if current else None


def grease_order(
    trap_id: str,
    t: dict,
    pumps: list[dict],
    day: dt.date,
    g: Any,
    comply_days: int | None,
    end: Any,
    mailed: bool = False,
) -> dict | None:
    """The order directing compliance for a trap overdue on ``day`` (None when it is not): ``mailed``, dated
    ``day``, with the days the administrator gave (``comply_days``; its comply-by day moved off a weekend or
    holiday by ``end``), or a draft with no date and no days. Numbered by the trap and the missed pump-out's
    due day, so the draft keeps its number between runs. The law's "not to exceed" is a ceiling, never a
    default (contract 8.4): a draft says the administrator sets the days."""
    interval = int(t["pumpout_interval_days"])
    seen = [p for p in pumps if p["pumped_on"] <= day]
    st = law.pumpout_status(t["set_on"], interval, [p["pumped_on"] for p in seen], day)
    if st.status != "overdue":
        return None
    recipient = grease_recipient(t)
    comply_by = None
    if mailed and comply_days is not None:
        comply_by = law.add_days(day, comply_days)
        comply_by = end(comply_by) if end is not None else comply_by
    if comply_by is not None:
        by = f"by {_date_text(comply_by)}, {comply_days} days from the date of this order"
    elif mailed:
        by = "within the period the administrator sets"
    else:
        by = (
            f"within the number of days the administrator sets in this order (not more than "
            f"{g.order_compliance_days})"
        )
    return {
        "order_id": GREASE_ORDER.make_number(
            trap=safe_file_name(trap_id), missed_due=f"{st.next_due:%Y%m%d}"
        ),
        **_trap_fields(trap_id, t),
        "last_pumped_on": st.last_pumped_on,
        "missed_due": st.next_due,
        "days_overdue": st.days_overdue,
        "issued_on": day if mailed else None,
        "comply_by": comply_by,
        "directive": (
            f"You are directed to have grease trap {trap_id} cleaned and pumped by a scavenger service {by}, "
            f"to keep it cleaned and pumped at least once every {interval} days, and to make the receipted "
            f"invoices of the scavenger service available to the administrator."
        ),
        "letter_file": None,
        "rule": f"{g.citation}; {g.citation_order_compliance}",
        "recipient_name": recipient.name if recipient is not None else None,
        "mailing_address": ("; ".join(recipient.lines()) or None) if recipient is not None else None,
        "recipient": recipient,
        "ready_to_mail": None,
        "not_ready_reason": None,
        "status": "mailed" if mailed else "draft",
        "period": notice_law.period_of(st.next_due),
        "certified_mail_no": None,
        "correct_within_days": comply_days if mailed else None,
        "owner_from": t.get("owner_from"),
        "review": None,
        "set_on": t["set_on"],
        "mailings": (),
    }


def _trap_fields(trap_id: str, t: dict) -> dict:
    """What names a trap in its status row and its order: the trap, its user or parcel, the establishment,
    its address (the trap's, else its user's) and the pump-out interval set for it."""
    return {
        "trap_id": trap_id,
        "user_id": t["user_id"],
        "parcel_id": t["parcel_id"],
        "establishment": t["establishment"],
        "address": t["address"] or t["user_address"],
        "pumpout_interval_days": int(t["pumpout_interval_days"]),
    }


def _grease_status_row(trap_id: str, t: dict, pumps: list[dict], as_of: dt.date, g: Any) -> dict:
    interval = int(t["pumpout_interval_days"])
    seen = [p for p in pumps if p["pumped_on"] <= as_of]
    st = law.pumpout_status(t["set_on"], interval, [p["pumped_on"] for p in seen], as_of)
    return {
        **_trap_fields(trap_id, t),
        "set_on": t["set_on"],
        "pumpouts": len(seen),
        "last_pumped_on": st.last_pumped_on,
        "next_due": st.next_due,
        "status": st.status,
        "days_overdue": st.days_overdue,
        "late_pumpouts": st.late_pumpouts,
        "pumpouts_without_invoice": sum(1 for p in seen if not p["invoice_no"]),
        "as_of": as_of,
        "rule": g.citation,
        "owner_name": t.get("owner_name"),
        "own_owner": None,
    }


def build_grease(
    con: duckdb.DuckDBPyConnection, on: Dated, as_of: dt.date, docs: Documents | None = None
) -> tuple[list[dict], list[dict]]:
    """Pump-out status of every grease trap, and its orders directing compliance (contracts 7.3, 8.3, 8.4):
    each mailed order as the facts stood on its mailing day (notices_mailed, kind grease_order), whatever its
    mailing's row lacks (listed for review), and a draft for a trap overdue now whose order is not mailed,
    by the rules in effect on the order's day. A trap whose owner is the town's own (the rules' own_names)
    gets no order: its status row names the owner (the worklist's line)."""
    g = on.get("grease_interceptors", as_of, "grease interceptors")
    if g is None or on.get("notices.sewer_correction", as_of, "grease interceptors") is None:
        return [], []
    docs = docs if docs is not None else Documents(con, None, None, (GREASE_ORDER.name,), as_of)
    traps: dict[str, list[dict]] = defaultdict(list)
    for t in records(con, "select_grease_traps"):
        traps[t["trap_id"]].append(t)
    pumps: dict[str, list[dict]] = defaultdict(list)
    for p in records(con, "select_pumpouts"):
        pumps[p["trap_id"]].append(p)
    end = obligation_period_end(on.rules, "comply_by", "grease_orders")
    own = on.rules.own_names
    status_rows, orders, numbers = [], [], set()
    for trap_id, period in docs.mailed_keys(GREASE_ORDER.mailed_as or ""):
        found = docs.mailings(GREASE_ORDER.mailed_as or "", trap_id, period)
        mailing = notice_law.earliest_mailing(found)
        t = _trap_on(traps.get(trap_id, []), mailing.mailed_on) if mailing is not None else None
        if t is None or mailing is None:
            continue
        terms = on.get("grease_interceptors", mailing.mailed_on, "grease interceptor order")
        if terms is None:
            continue
        given = period_given(
            GREASE_ORDER,
            mailing.correct_within_days,
            terms.order_compliance_days,
            terms.citation_order_compliance,
        )
        o = grease_order(trap_id, t, pumps.get(trap_id, []), mailing.mailed_on, terms, given.days, end, True)
        if o is not None and o["period"] == period:
            o["certified_mail_no"] = mailing.certified_mail_no
            o["mailings"] = tuple(found)
            o["review"] = "; ".join(given.review) or None
            o["period_problem"] = given.problem
            orders.append(o)
            numbers.add((trap_id, period))
    for trap_id, settings_rows in sorted(traps.items()):
        t = _trap_on(settings_rows, as_of)
        if t is None:
            continue
        row = _grease_status_row(trap_id, t, pumps.get(trap_id, []), as_of, g)
        status_rows.append(row)
        o = grease_order(trap_id, t, pumps.get(trap_id, []), as_of, g, None, None)
        if o is None or (trap_id, o["period"]) in numbers:
            continue
        if is_own(t.get("owner_name"), own):  # the municipality does not serve itself (contract 8.4)
            row["own_owner"] = t["owner_name"]
            continue
        withdrawn = notice_law.withdrawal(docs.mailings(GREASE_ORDER.mailed_as or "", trap_id, o["period"]))
        o["status"] = "withdrawn" if withdrawn else "draft"
        o["not_ready_reason"] = f"this draft was withdrawn ({withdrawn})" if withdrawn else None
        o["withdrawn_reason"] = withdrawn
        orders.append(o)
    return status_rows, orders


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_SEWER,
    kinds={"duckdb", "html"},
    deps=["grease_traps", "pumpouts", "industrial_users", "parcels", "notices_mailed"],
    description="Grease interceptors (the sewer use law): the cleaning and pumping frequency the "
    "administrator set for each establishment, the last pump-out, the next one due and whether it is "
    "overdue as of --as-of; an order directing compliance (with a printable letter) for every overdue trap, "
    "addressed to the owner the inputs name, written to grease_orders: a draft, numbered by the trap and "
    "the missed pump-out, until its mailing is recorded in notices_mailed (kind grease_order) with the days "
    "the administrator gives, then dated that day with its comply-by day, written once and kept as a "
    "record.",
)
def grease_trap_status(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    on = Dated(enforcement_rules(rules))
    as_of = settings.as_of_date()
    writer = LetterWriter(settings.data_path(), rules.all_rules())
    with warehouse(duckdb, as_of=as_of) as con:
        docs = Documents(con, writer, outputs(duckdb, settings).dashboards, (GREASE_ORDER.name,), as_of)
        status_rows, orders = build_grease(con, on, as_of, docs)
        for o in orders:
            o["letter_file"] = GREASE_ORDER.make_file(number=o["order_id"])
            recipient = o.pop("recipient")
            set_on = o.pop("set_on")
            mailings = o.pop("mailings")
            withdrawn = o.pop("withdrawn_reason", None)
            period_problem = o.pop("period_problem", None)
            record = docs.on_record(o["order_id"])
            if record is not None:  # on record: its letter stands as written, its mailing as recorded
                o.update(
                    issued_on=record["issued_on"],
                    comply_by=record["correct_by"] or o["comply_by"],
                    correct_within_days=record["correct_within_days"]
                    if record["correct_within_days"] is not None
                    else o["correct_within_days"],
                    certified_mail_no=record["certified_mail_no"],
                    status="mailed",
                )
            letter = _grease_letter(
                docs,
                rules.jurisdiction(),
                on,
                o,
                recipient,
                set_on,
                as_of,
                mailings,
                withdrawn,
                period_problem,
            )
            o["ready_to_mail"] = letter.ready
            o["not_ready_reason"] = "; ".join(letter.reasons) or None
        with transaction(con):
            replace_judged(con, on.missing, grease_trap_status=status_rows, grease_orders=orders)
            save_own_findings(con, "grease_trap_status", own_traps(status_rows, on.rules))
            docs.save(con)
            removed = docs.write()
        return table_result(
            con,
            "grease_trap_status",
            as_of=str(as_of),
            orders=len(orders),
            overdue=sum(1 for s in status_rows if s["status"] == "overdue"),
            own_premises=sum(1 for s in status_rows if s["own_owner"]),
            stale_orders_removed=removed,
        )


def own_traps(status_rows: list[dict], rules: Rules) -> list[dict]:
    """The overdue traps whose owner is the town's own (contract 8.4): no order, a line of the
    superintendent's worklist each."""
    return [
        {
            "person": SUPERINTENDENT,
            "kind": "grease_trap",
            "subject_id": r["trap_id"],
            "subject_name": r["establishment"],
            "owner": r["own_owner"],
            "municipality": rules.name,
            "period": notice_law.period_of(r["next_due"]),
            "item": "pumpout",
            "ref": r["next_due"].isoformat(),
            "item_on": r["next_due"],
            "known_on": r["next_due"] + dt.timedelta(days=1),
            "resolved_on": None,
            "description": f"have grease trap {r['trap_id']} cleaned and pumped: the pump-out due "
            f"{_date_text(r['next_due'])} was not made (every {r['pumpout_interval_days']} days)",
            "rule": r["rule"],
            "law": rules.law("sewer_use", r["next_due"]).short if rules.law_names else "",
        }
        for r in status_rows
        if r["own_owner"] and r["next_due"] is not None
    ]


def _grease_letter(
    docs: Documents,
    town: str,
    on: Dated,
    o: dict,
    recipient: Recipient | None,
    set_on: dt.date,
    as_of: dt.date,
    mailings: tuple,
    withdrawn: str | None,
    period_problem: str | None = None,
) -> Written:
    """The order's letter through the one helper of documents, worded by the rules of its day (its mailing
    day; a draft's: the day judged)."""
    day = o["issued_on"] or as_of
    enforcement = on.get("sewer_enforcement", day, "grease interceptor order")
    penalty = on.get("penalties.sewer_use", day, "grease interceptor order")
    last = (
        f"The last pump-out on file was on {_date_text(o['last_pumped_on'])}."
        if o["last_pumped_on"]
        else "No pump-out is on file since the frequency was set."
    )
    mailed = o["status"] == "mailed"
    missing = []
    if mailed and o["comply_by"] is None:
        missing.append(
            "the days to comply are not recorded: the administrator sets them (the law gives only the most "
            "allowed); record them in the notices mailed file (correct_within_days)"
        )
    if period_problem:
        missing.append(period_problem)
    review = [o["review"]] if o.get("review") else []
    return docs.add(
        Document(
            GREASE_ORDER.name,
            o["order_id"],
            o["letter_file"],
            o["trap_id"],
            town,
            {
                **o,
                "draft": not mailed,
                "as_of": day,
                "issuer": enforcement.issuer if enforcement else "",
                "recipient_name": recipient.name if recipient else "[owner not on file]",
                "address_block": (recipient.lines() if recipient else []) or ["[address not on file]"],
                "set_on": set_on,
                "last_pumped_text": last,
                "section_text": (enforcement.section_text.grease or "") if enforcement else "",
                "penalty_text": (enforcement.section_text.penalties or "") if enforcement else "",
                "penalty_rule": penalty.citation if penalty else "",
                "period_end_rule": extension_law(on.rules.deadline_extension, day, "grease_orders.comply_by"),
            },
            recipient=recipient,
            fix=OWNER_FIX,
            status=o["status"],
            dated=o["issued_on"],
            period=o["period"],
            mailings=mailings,
            correct_within_days=o["correct_within_days"],
            correct_by=o["comply_by"],
            missing=missing,
            review=review,
            found_on=o["missed_due"] + dt.timedelta(days=1),
            withdrawn_reason=withdrawn,
            recipient_name=o["recipient_name"],
        )
    )


# ---------------------------------------------------------------- checks


@table_check(
    asset=snc_determinations,
    description="Every SNC determination meets its criterion's threshold in "
    "exact arithmetic (count x 100 >= pct x measurements), with pct = 100 x count / measurements and "
    "no pH row under the technical review criteria.",
)
def check_validity_snc_determinations_pct(duckdb: DuckDBResource, rules: RulesResource) -> AssetCheckResult:
    versions = Dated(enforcement_rules(rules)).versions("snc")
    with warehouse(duckdb) as con:
        rows = con.execute(sql("select_snc_determination_counts")).fetchall()
    bad = []
    for user_id, start, end, parameter, criterion, measurements, n, pct in rows:
        snc = versions.get(end)  # a period is judged by the criteria in effect on its last day
        needed = {} if snc is None else {"chronic": snc.chronic_pct, "trc": snc.trc_pct, "late_report": 0}
        ok = (
            criterion in needed
            and 0 < n <= measurements
            and law.pct_reached(n, measurements, needed[criterion])
            and abs(pct - 100.0 * n / measurements) < 1e-9
            and not (criterion == "trc" and parameter is not None and law.trc_excluded(parameter, snc))
        )
        if not ok:
            bad.append(f"{user_id} {start} {parameter} {criterion}: {n}/{measurements} ({pct})")
    return AssetCheckResult(
        passed=not bad,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "rows": len(rows),
            "bad_rows": len(bad),
            "examples": MetadataValue.md("\n".join(f"- {b}" for b in bad[:20]) or "none"),
        },
    )


@table_check(
    asset=sewer_notices,
    description="Every violation collected by the day judged has exactly one notice "
    "of violation (or is listed as not judged for want of a rule of its day), and every notice's period "
    "to correct is within the maximum in effect on the violation's day.",
)
def check_completeness_sewer_notices_violation(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> AssetCheckResult:
    as_of = settings.as_of_date()
    versions = Dated(enforcement_rules(rules)).versions("notices.sewer_correction")
    with warehouse(duckdb, as_of=as_of) as con:
        violations, notices, distinct, not_judged = con.execute(
            sql("select_sewer_notice_completeness"), {"as_of": as_of}
        ).fetchall()[0]
        periods = con.execute(sql("select_sewer_notice_periods")).fetchall()
    too_long = sum(
        1
        for issued_on, days, correct_by in periods
        if versions.get(issued_on) is None
        or (versions.get(issued_on).max_days is not None and days > versions.get(issued_on).max_days)
        or correct_by > law.add_days(issued_on, days)
    )
    passed = violations == notices + not_judged and notices == distinct and too_long == 0
    return AssetCheckResult(
        passed=bool(passed),
        severity=AssetCheckSeverity.WARN,
        metadata={
            "violations": int(violations),
            "notices": int(notices),
            "not_judged": int(not_judged),
            "distinct_notice_ids": int(distinct),
            "periods_over_maximum": int(too_long),
        },
    )
