"""``obligations``: the deadlines engine (periodic reports, accidental-discharge statements, 24-hour
notices and 30-day resampling after a violation the user's own sampling found, 5-day slug reports,
expiring permits), each with the law it rests on."""

import datetime as dt
from collections import defaultdict
from typing import Any

import duckdb
from dagster import MaterializeResult, MetadataValue
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, table_asset, table_result
from assets.sewer.dated import Dated, _built, _num, _ratio, obligation_period_end
from dashboards.html import fmt_measure
from outfall.law import enforcement as law
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules.words import DESCRIBE
from outfall.warehouse import records

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


class _Rows:
    """The obligations found so far, each row with the law its duty rests on on the day that starts it."""

    def __init__(self, on: Dated, as_of: dt.date):
        self.on, self.as_of = on, as_of
        self.ends = {o: obligation_period_end(on.rules, o) for o in OBLIGATIONS}
        self.rows: list[dict] = []

    def add(
        self, user_id: str, obligation: str, duty: Any, d: law.Deadline, reference: str, detail: str
    ) -> None:
        name, adopted = self.on.rules.duty_law(duty, d.trigger_date)
        self.rows.append(
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
                "as_of": self.as_of,
            }
        )


def build_obligations(con: duckdb.DuckDBPyConnection, on: Dated, as_of: dt.date) -> list[dict]:
    """Every obligation of the deadlines engine, judged on ``as_of``, each by the rules in effect on the
    day that starts it (what no rule covers goes to ``on.missing``), with the law it rests on."""
    out = _Rows(on, as_of)
    by_type: dict[str, list[dict]] = defaultdict(list)
    for r in records(con, "select_enforcement_reports"):
        by_type[r["report_type"]].append(r)
    _periodic_reports(out, by_type.get("periodic", []))
    _accidental_statements(out, records(con, "select_accidental_discharges"))
    _self_monitoring(out, con, by_type.get("violation_notice", []))
    _slug_reports(out, con, by_type.get("slug", []))
    _permit_renewals(out, con)
    out.rows.sort(key=lambda r: (r["user_id"], r["due"], r["obligation"], r["reference"]))
    return out.rows


def _periodic_reports(out: _Rows, reports: list[dict]) -> None:
    """Periodic reports (the sewer use law: at intervals not exceeding the rules' maximum), and the next
    one due after each user's last."""
    periodic: dict[str, list[dict]] = defaultdict(list)
    for r in reports:
        periodic[r["user_id"]].append(r)
    for user_id, items in sorted(periodic.items()):
        items.sort(key=lambda r: (r["due_date"], r["period_end"] or r["due_date"]))
        previous_due = None
        for r in items:
            _periodic_report(out, user_id, r, previous_due)
            previous_due = r["due_date"]
        last = items[-1]["due_date"]
        rule = out.on.get("notices.periodic_report", last, f"next periodic report of {user_id}")
        if rule is not None:
            months = rule.max_months
            d = law.dated_deadline(
                last, law.add_months(last, months), None, out.as_of, out.ends["periodic_report"]
            )
            out.add(
                user_id,
                "periodic_report",
                rule,
                d,
                "next report",
                f"the next periodic report is due at the latest {months} months after the last one's due "
                f"date ({last}); none is scheduled yet in the reports on file",
            )


def _periodic_report(out: _Rows, user_id: str, r: dict, previous_due: dt.date | None) -> None:
    reference = f"{r['source_file']}:{r['source_row']}"
    rule = out.on.get("notices.periodic_report", r["due_date"], f"periodic report {reference} of {user_id}")
    if rule is None:
        return
    months = rule.max_months
    notes = []
    if r["period_start"] or r["period_end"]:
        notes.append(f"report for {r['period_start'] or '?'} to {r['period_end'] or '?'}")
    if r["period_start"] and r["period_end"] and r["period_end"] >= law.add_months(r["period_start"], months):
        notes.append(f"the period is longer than the {months}-month maximum interval")
    if previous_due is not None and r["due_date"] > law.add_months(previous_due, months):
        notes.append(f"due more than {months} months after the previous report's due date ({previous_due})")
    d = law.dated_deadline(
        r["period_end"] or r["due_date"],
        r["due_date"],
        r["received_on"],
        out.as_of,
        out.ends["periodic_report"],
    )
    out.add(user_id, "periodic_report", rule, d, reference, "; ".join(notes))


def _accidental_statements(out: _Rows, discharges: list[dict]) -> None:
    """Accidental discharges: a written statement within the rules' days of the notification."""
    for a in discharges:
        trigger = a["notified_on"] or a["occurred_on"]
        rule = out.on.get(
            "notices.accidental_statement",
            trigger,
            f"accidental discharge of {a['user_id']} on {a['occurred_at'].isoformat()}",
        )
        if rule is None:
            continue
        d = law.deadline(
            trigger, rule.days, a["statement_received_on"], out.as_of, out.ends["accidental_statement"]
        )
        if a["notified_at"] is not None:
            hours = (a["notified_at"] - a["occurred_at"]).total_seconds() / 3600.0
            notice = f"notified {_num(hours)} hours after the discharge"
        else:
            notice = "no notification recorded: the period is counted from the discharge"
        detail = "; ".join(x for x in (a["description"], notice) if x)
        out.add(
            a["user_id"],
            "accidental_statement",
            rule,
            d,
            f"discharge of {a['occurred_at'].isoformat()}",
            detail,
        )


def _self_monitoring(out: _Rows, con: duckdb.DuckDBPyConnection, notices: list[dict]) -> None:
    """Violations found by the user's own sampling: notice, then a repeat result, in the rules' periods."""
    as_of = out.as_of
    for v in records(con, "select_self_monitoring_violations", {"as_of": as_of}):
        if not law.is_users_own(v["sampled_by"]):
            continue  # found by the Town's sampling: no 24-hour notice or repeat sampling of the user's
        aware = v["collected_date"]
        subject = f"self-monitoring deadlines of sample {v['sample_id']} of {v['user_id']}"
        rule = out.on.get("notices.self_monitoring", aware, subject)
        if rule is None:
            continue
        what = (
            f"{v['parameter']} {_num(v['value'])} {v['unit'] or ''} in sample {v['sample_id']} "
            f"(lab: {v['lab'] or 'not given'})"
        ).replace("  ", " ")
        received = law.first_on_or_after(aware, _covering(notices, v["user_id"], aware))
        notice_by = law.hours_as_days(rule.notice_hours)
        notice = law.deadline(aware, notice_by, received, as_of, out.ends["violation_notice_24h"])
        out.add(
            v["user_id"],
            "violation_notice_24h",
            rule,
            notice,
            v["sample_id"],
            f"notify the Town of the violation: {what}",
        )
        resample = law.deadline(aware, rule.resample_days, v["resampled_on"], as_of, out.ends["resample_30d"])
        detail = f"repeat the sampling and submit the result: {what}"
        if v["resample_id"] is not None and resample.satisfied_on is not None:
            detail += f"; repeated by sample {v['resample_id']}"
        out.add(v["user_id"], "resample_30d", rule, resample, v["sample_id"], detail)


def _slug_reports(out: _Rows, con: duckdb.DuckDBPyConnection, slug_reports: list[dict]) -> None:
    """Slug discharges: a written report within the rules' days (a `reports` row of type slug)."""
    for e in records(con, "select_slug_report_events"):
        trigger = e["start_on"]
        rule = out.on.get(
            "notices.slug_report", trigger, f"slug report of {e['user_id']} for the slug of {trigger}"
        )
        if rule is None:
            continue
        received = law.first_on_or_after(trigger, _covering(slug_reports, e["user_id"], trigger))
        d = law.deadline(trigger, rule.days, received, out.as_of, out.ends["slug_report"])
        out.add(
            e["user_id"],
            "slug_report",
            rule,
            d,
            f"slug of {e['start_at'].isoformat()}",
            f"{e['constituent']} slug peaking at {fmt_measure(e['peak_value'], e['unit'] or '')}, "
            f"{_ratio(e['peak_ratio'])} times the baseline",
        )


def _permit_renewals(out: _Rows, con: duckdb.DuckDBPyConnection) -> None:
    """Permits expiring soon (or expired), by the policy in effect on the day judged; renewed by a later
    permit of the user (contract 8.2: a renewal adds a permit)."""
    as_of = out.as_of
    rule = out.on.get("notices.permit_expiry_warning", as_of, "permits expiring soon")
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
        out.add(u["user_id"], "permit_renewal", rule, d, u["permit_no"] or "", detail)


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
