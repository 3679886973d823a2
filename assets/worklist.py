"""What each person must do next, and by when: the table ``worklist`` (contracts 6.4, 7.5).

Each line is an action its person does and records, and it closes when that record arrives in the input
folders (contract 7.5): mail a draft notice (or withdraw it), record the sample of a testing period,
renew a permit (the Superintendent of Sewage); mail a draft notice, see that an inspection is made and
record it, hold an appeal hearing, send a cost notice (the stormwater management officer); complete the
address of a letter or of a bill, confirm a ZIP code, correct rows of a file that could not be read (the
clerk, or whoever keeps the file). A duty of another party (a user's report, 24-hour notice or resample,
an owner's as-built plans) is not a line: it is an item of the draft notice or a line of the record on
the person's page.

Status: ``overdue``, ``due`` within the Town's week, ``undated`` (the law gives no date: draft notices,
oldest first by the day their first item was found), ``upcoming`` (``outfall.law.worklist``). A row of
the to-record workbook filled against the sheet's rules comes first (``first``). Every draft comes from
one statement, ``select_worklist_drafts`` (one branch per kind of document). The words of each action
are built here; the dates and numbers come from the tables and the rules.
"""

import datetime as dt
from typing import Any

import pandas as pd
from dagster import AssetCheckResult, AssetCheckSeverity, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, WAREHOUSE_POOL, table_check, table_result, warehouse
from outfall import notice_words as words
from outfall.law import worklist as law
from outfall.register_export import bills_lacking_address
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.warehouse import replace_rows, sql, transaction

# Whose action a draft is, by the kind its mailing is recorded as (notices_mailed.kind; illicit_nov: the
# case's nov_on). The orders (grease_order, stop_work: contract 7.3) are their people's too.
PERSON_OF_KIND = {
    "sewer": law.SUPERINTENDENT,
    "grease_order": law.SUPERINTENDENT,
    "stormwater": law.STORMWATER_OFFICER,
    "stop_work": law.STORMWATER_OFFICER,
    "illicit_nov": law.STORMWATER_OFFICER,
}
COLUMNS = [
    "person",
    "action",
    "subject_id",
    "due",
    "status",
    "source",
    "ref",
    "subject_name",
    "days_left",
    "link",
    "detail",
    "as_of",
    "found_on",
    "first",
]
# Who keeps each input folder (the person who fixes its rows that could not be read).
DATASET_PERSON = {
    "parcels": law.CLERK,
    "sewer_rates": law.CLERK,
    "sewer_budget": law.CLERK,
    "connection_permits": law.CLERK,
    "notices_mailed": law.CLERK,
    "sites": law.STORMWATER_OFFICER,
    "inspections": law.STORMWATER_OFFICER,
    "rainfall": law.STORMWATER_OFFICER,
    "milestones": law.STORMWATER_OFFICER,
    "contractor_certifications": law.STORMWATER_OFFICER,
    "swppp_approvals": law.STORMWATER_OFFICER,
    "convictions": law.STORMWATER_OFFICER,
    "report_deliveries": law.STORMWATER_OFFICER,
    "illicit_discharges": law.STORMWATER_OFFICER,
    "illicit_payments": law.STORMWATER_OFFICER,
    "smp_practices": law.STORMWATER_OFFICER,
}
INSPECTION_WORDS = {
    "weekly": "the weekly inspection",
    "storm": "the inspection after a storm",
    "milestone": "the milestone inspection",
}


def _records(con, name: str) -> list[dict]:
    cursor = con.execute(sql(name))
    cols = [d[0] for d in cursor.description]
    return [dict(zip(cols, row)) for row in cursor.fetchall()]


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


class Worklist:
    """Collects the rows of one run, each with its status on the day judged; a line repeated for one
    subject and action is kept once."""

    def __init__(self, as_of: dt.date, window_days: int | None):
        self.as_of, self.window = as_of, window_days
        self.rows: list[dict] = []
        self._seen: set[tuple] = set()

    def add(
        self,
        person: str,
        action: str,
        subject_id: Any,
        due: dt.date | None,
        source: str,
        ref: Any,
        name: Any = None,
        link: str | None = None,
        detail: str | None = None,
        found_on: dt.date | None = None,
        first: bool = False,
    ) -> None:
        key = (person, str(subject_id), action)
        if key in self._seen:
            return
        self._seen.add(key)
        self.rows.append(
            {
                "person": person,
                "action": action,
                "subject_id": str(subject_id),
                "due": due,
                "status": law.status(due, self.as_of, self.window),
                "source": source,
                "ref": str(ref),
                "subject_name": None if name is None else str(name),
                "days_left": None if due is None else (due - self.as_of).days,
                "link": link,
                "detail": detail,
                "as_of": self.as_of,
                "found_on": found_on,
                "first": first,
            }
        )

    def frame(self) -> pd.DataFrame:
        rows = sorted(
            self.rows,
            key=lambda r: law.sort_key(
                r["person"],
                r["status"],
                r["due"],
                r["subject_id"],
                r["action"],
                found_on=r["found_on"],
                first=r["first"],
            ),
        )
        return pd.DataFrame(rows, columns=COLUMNS)


def _month(period: str) -> str:
    year, month = (int(x) for x in period.split("-"))
    return words.month_words(dt.date(year, month, 1))


# What each kind of draft document is called in its line (the orders: contract 7.3).
ORDER_WORDS = {"grease_order": "the grease trap pump-out order", "stop_work": "the stop-work order"}


# The table each kind of draft is read from (the worklist's `source`).
DRAFT_SOURCE = {
    "sewer": "notices",
    "stormwater": "notices",
    "grease_order": "grease_orders",
    "stop_work": "swppp_stop_work_orders",
}


def draft_action(d: dict) -> str:
    """What the person does with a draft document, and records."""
    if d["kind"] == "illicit_nov":
        return (
            f"Mail the notice of violation of illicit discharge case {d['recipient_id']} and record the "
            "day it was mailed in the illicit discharges file"
        )
    if d["kind"] in ORDER_WORDS:
        month = f" of {_month(d['period'])}" if d.get("period") else ""
        return f"Mail {ORDER_WORDS[d['kind']]}{month} and record the mailing, or withdraw it"
    count = _plural(int(d["items"] or 0), "violation")
    return (
        f"Mail the notice of violation for {_month(d['period'])} ({count}) by certified mail and record the "
        f"mailing, or withdraw it"
    )


def draft_actions(w: Worklist, drafts: list[dict]) -> None:
    """Every draft document (select_worklist_drafts), undated, oldest first by its first item found."""
    for d in drafts:
        w.add(
            PERSON_OF_KIND.get(d["kind"], law.SUPERINTENDENT),
            draft_action(d),
            d["recipient_id"],
            None,
            DRAFT_SOURCE.get(d["kind"], "letters"),
            d["document_id"],
            name=d["recipient_name"],
            link=d["letter"],
            detail=d["not_ready_reason"],
            found_on=d["found_on"],
        )


def review_actions(w: Worklist, rows: list[dict]) -> None:
    """Mailed notices the data no longer support, or whose month has violations found after the mailing."""
    for n in rows:
        person = PERSON_OF_KIND[n["kind"]]
        where = dict(name=n["recipient_name"], link=n["letter"], found_on=n["issued_on"])
        if n["needs_review"]:
            what = (
                f"the data no longer show {n['items_unsupported']} of the {n['items_in_letter']} violations "
                "it lists"
                if n["items_unsupported"]
                else "it lists no violation known on its mailing day"
            )
            w.add(
                person,
                f"Review notice {n['notice_id']}, mailed {words.day_words(n['issued_on'])}: {what}",
                n["recipient_id"],
                None,
                "notices",
                n["notice_id"],
                **where,
            )
        if n["items_not_in_letter"]:
            k = n["items_not_in_letter"]
            w.add(
                person,
                f"{_plural(k, 'violation')} of {_month(n['period'])} {'were' if k != 1 else 'was'} found "
                f"after notice {n['notice_id']} was mailed and {'are' if k != 1 else 'is'} not in it: decide "
                "how to notify them",
                n["recipient_id"],
                None,
                "notices",
                n["notice_id"],
                **where,
            )


def sewer_actions(w: Worklist, permits: list[dict], testing: list[dict]) -> None:
    """The permits to renew and the samples of the testing periods still open."""
    for o in permits:
        w.add(
            law.SUPERINTENDENT,
            f"Renew permit {o['reference'] or '(no permit number)'} and record its new dates in the "
            "industrial users file",
            o["user_id"],
            o["due"],
            "obligations",
            f"{o['obligation']} {o['reference']}",
            name=o["name"],
            link=f"sewer.html#user-{o['user_id']}",
            detail=o["detail"],
        )
    for t in testing:
        kind = words.SAMPLE_TYPES.get(str(t["sample_type"] or ""), "sample")
        period = words.period_words(t["period_start"], t["period_end"])
        w.add(
            law.SUPERINTENDENT,
            f"Record the {words.parameter_label(t['parameter'])} {kind} the user takes for {period}",
            t["user_id"],
            t["period_end"],
            "required_testing",
            f"{t['parameter']} {t['sample_type'] or ''} {t['period_start']}".replace("  ", " "),
            name=t["name"],
            link="sewer.html#testing",
        )


def stormwater_actions(
    w: Worklist, illicit: list[dict], practices: list[dict], inspections: list[dict]
) -> None:
    """The officer's own acts: appeal hearings, cost notices, one-year and SWPPP inspections."""
    for d in illicit:
        action = (
            "Hold the appeal hearing of case {c} and record its day"
            if d["obligation"] == "appeal_hearing"
            else "Send the owner the notice of the cost of abating case {c} and record the day it was sent"
        ).format(c=d["case_id"])
        w.add(
            law.STORMWATER_OFFICER,
            action,
            d["case_id"],
            d["due"],
            "illicit_discharge_deadlines",
            f"{d['case_id']} {d['obligation']}",
            name=d["premises"],
            link="stormwater.html#illicit",
        )
    for f in practices:
        w.add(
            law.STORMWATER_OFFICER,
            f"Make the one-year inspection of practice {f['practice_id']} (site {f['site_id']}) and "
            "record it",
            f["site_id"],
            f["due"],
            "smp_findings",
            f"{f['practice_id']} {f['finding']}",
            name=f["name"],
            link="stormwater.html#practices",
        )
    for i in inspections:
        what = INSPECTION_WORDS.get(i["requirement"], i["requirement"])
        # who the law names to inspect goes in the detail, so that the action stays one line
        by = f"by {i['inspector']}; " if i.get("inspector") else ""
        w.add(
            law.STORMWATER_OFFICER,
            f"See that {what} is made, and record it",
            i["site_id"],
            i["due_by"],
            "swppp_upcoming",
            f"{i['requirement']} {i['due_by']}",
            name=i["site_name"],
            link=f"stormwater.html#site-{i['site_id']}",
            detail=f"{by}{_without_requirement(i['detail'], i['requirement'])}"
            if i["detail"]
            else by.rstrip("; ") or None,
        )


def _without_requirement(detail: str, requirement: str) -> str:
    """An upcoming inspection's detail without the requirement's name the action already says ('weekly
    inspection: 7 days after ...' -> '7 days after ...')."""
    head, sep, rest = detail.partition(": ")
    return rest if sep and head.lower().startswith(str(requirement).lower()) else detail


def address_actions(w: Worklist, letters: list[dict], conflicts: list[dict], bills: list[dict]) -> None:
    """The clerk's addresses to complete: one line per recipient and what its letters lack; the ZIP codes
    that differ between files; the bills of the last year billed without a full mailing address."""
    waiting: dict[tuple, list[dict]] = {}
    for letter in letters:
        waiting.setdefault((letter["recipient_id"] or letter["document_id"], letter["reason"]), []).append(
            letter
        )
    for (recipient, reason), group in waiting.items():
        numbers = ", ".join(str(g["document_id"]) for g in group)
        many, who = len(group) > 1, group[0]["recipient_name"] or recipient
        w.add(
            law.CLERK,
            f"Complete what the {'letters' if many else 'letter'} to {who} {'lack' if many else 'lacks'} "
            f"before mailing: {reason}",
            recipient,
            None,
            "letters",
            group[0]["letter"],
            name=group[0]["recipient_name"],
            link=group[0]["letter"],
            detail=f"{_plural(len(group), 'letter')} waiting: {numbers}",
        )
    for c in conflicts:
        w.add(
            law.CLERK,
            f"Confirm the ZIP code of {c['recipient_name']}: {c['zip']} in {c['source']}, "
            f"{c['other_zip']} in {c['other_source']}",
            c["recipient_id"],
            None,
            "address_conflicts",
            f"{c['recipient_name']} {c['source']} {c['other_source']}",
            name=c["recipient_name"],
        )
    for b in bills:
        w.add(
            law.CLERK,
            f"Complete the owner's mailing address of parcel {b['parcel_id']} before the {b['year']} sewer "
            f"bills are mailed: {b['lacks']}",
            b["parcel_id"],
            None,
            "sewer_bills",
            f"{b['year']} {b['parcel_id']}",
            name=b["owner"],
            link="billing.html#addresses",
        )


def quarantine_actions(w: Worklist, quarantine: list[dict]) -> None:
    """Rows that could not be read, for whoever keeps the file: a file's rows in one line; a row filled
    in the to-record workbook by itself, first on the list."""
    for q in quarantine:
        person = DATASET_PERSON.get(q["dataset"], law.SUPERINTENDENT)
        n = q["rows"]
        if q["prefilled"]:
            what = f"row {q['row_key']} of {q['source_file']}"
            action = f"Correct {what}, filled in the to-record workbook, and save it again: {q['reason']}"
        else:
            what = "the whole file" if q["first_row"] == 0 and n == 1 else _plural(n, "row")
            action = (
                f"Correct {what} of {q['source_file']} that could not be read, and send the file again: "
                f"{q['reason']}"
            )
        w.add(
            person,
            action,
            q["source_file"],
            None,
            "quarantine",
            f"{q['dataset']} {q['source_file']}" + (f" {q['row_key']}" if q["prefilled"] else ""),
            link="quarantine.html",
            found_on=q["found_on"],
            first=bool(q["prefilled"]),
        )


def build_worklist(con, as_of: dt.date, rules: Rules, year: int | None = None) -> pd.DataFrame:
    """Every person's actions on ``as_of``; ``year``: the billing year whose bills' addresses are listed
    (None: the last year billed, as the billing page shows it)."""
    setting = rules.worklist  # a setting of the pages, not law: undated (None: nothing is "due")
    w = Worklist(as_of, setting.due_within_days if setting is not None else None)
    quarantine_actions(w, _records(con, "select_worklist_quarantine"))
    draft_actions(w, _records(con, "select_worklist_drafts"))
    review_actions(w, _records(con, "select_worklist_notices"))
    sewer_actions(w, _records(con, "select_worklist_obligations"), _records(con, "select_worklist_testing"))
    stormwater_actions(
        w,
        _records(con, "select_worklist_illicit"),
        _records(con, "select_worklist_practices"),
        _records(con, "select_worklist_inspections"),
    )
    address_actions(
        w,
        _records(con, "select_worklist_letters"),
        _records(con, "select_worklist_addresses"),
        bills_lacking_address(con, year),
    )
    return w.frame()


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_DASHBOARDS,
    kinds={"duckdb"},
    deps=[
        "notices",
        "letters",
        "grease_trap_status",
        "swppp_stop_work_orders",
        "obligations",
        "illicit_discharge_deadlines",
        "smp_findings",
        "required_testing",
        "swppp_upcoming",
        "quarantine",
        "illicit_discharges",
        "sewer_bills",
        "parcels",
    ],
    description="What each person must do next, and by when: the Superintendent of Sewage, the stormwater "
    "management officer and the clerk, one row per action its person does and records (mail or withdraw a "
    "draft notice, record a sample or an inspection, renew a permit, hold a hearing, send a cost notice, "
    "complete an address, correct rows that could not be read), closed when that record arrives; with "
    "its due date, whether it is overdue, due within the week, undated (the law gives none) or upcoming, "
    "and a link to the letter or record.",
)
def worklist(duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource) -> MaterializeResult:
    as_of = settings.as_of_date()
    with warehouse(duckdb) as con:
        frame = build_worklist(con, as_of, rules.town_rules(), settings.year or None)
        with transaction(con):
            replace_rows(con, "worklist", frame)
        counts = frame.groupby(["person", "status"]).size().to_dict() if len(frame) else {}
        return table_result(
            con,
            "worklist",
            as_of=str(as_of),
            by_person_and_status=MetadataValue.json(
                {f"{p} {s}": int(n) for (p, s), n in sorted(counts.items())}
            ),
        )


@table_check(
    asset=worklist,
    description="Every row's status agrees with its due date and the day judged: overdue "
    "before it, due within the Town's week, upcoming after it, undated with no due date. Threshold: 0 rows "
    "that do not. Severity ERROR.",
)
def check_validity_worklist_status(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> AssetCheckResult:
    as_of = settings.as_of_date()
    setting = rules.town_rules().worklist
    window = setting.due_within_days if setting is not None else None
    with warehouse(duckdb) as con:
        bad, total = con.execute(
            sql("check_validity_worklist_status"), {"as_of": as_of, "window": window}
        ).fetchall()[0]
    return AssetCheckResult(
        passed=bad == 0,
        severity=AssetCheckSeverity.ERROR,
        metadata={"rows": int(total), "invalid_rows": int(bad), "threshold": "0 rows"},
    )
