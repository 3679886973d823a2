"""What each person must do next, and by when: the table ``worklist`` (contract 6.4).

One row per open action, for the superintendent of sewage, the stormwater management officer or the clerk,
each in plain words with its subject's name, its due date (none where the law sets none), its status
(``overdue`` before the day judged, ``due`` within the week the rules give, else ``upcoming``) and a link to
the letter or the page section it concerns. The rows come from the tables that judged the law:

- every draft notice (to mail or withdraw), and every mailed notice the data no longer support, that has
  violations found after its mailing, or that cannot be mailed as it is;
- every open or overdue deadline of the sewer engine (``obligations``: reports owed, permits expiring);
- the Town's own acts under the illicit discharge law (the appeal hearing, the notice of the cost of an
  abatement);
- post-construction practice findings open or overdue (``smp_findings``);
- required testing open or missed (``required_testing``);
- inspections coming due at active sites (``swppp_upcoming``);
- letters that cannot be mailed, recipients whose ZIP code differs between files, files with rows not read.

A withdrawn draft is off the list. The words of each action are built here; the dates and numbers come from
the tables and the rules.
"""

import datetime as dt
from typing import Any

import pandas as pd
from dagster import AssetCheckResult, AssetCheckSeverity, MaterializeResult, MetadataValue, asset, asset_check
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, table_result, warehouse
from outfall import notice_words as words
from outfall.law import worklist as law
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.warehouse import replace_rows, sql, transaction

PERSON_OF_KIND = {"sewer": law.SUPERINTENDENT, "stormwater": law.STORMWATER_OFFICER}
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
OBLIGATION_SUBJECT = {
    "periodic_report": "the periodic report",
    "accidental_statement": "the written statement of an accidental discharge",
    "violation_notice_24h": "the notice of a violation its own sampling found",
    "resample_30d": "the repeat sample after a violation its own sampling found",
    "slug_report": "the written report of a slug discharge",
}
PRACTICE_ACTION = {
    "as_built": "Obtain the as-built plans, certified by a professional engineer, of practice {p}",
    "maintenance_agreement": "Obtain the recorded maintenance agreement of practice {p}",
    "one_year_inspection": "Make the one-year inspection of practice {p}",
    "guarantee_release": "Review the guarantee of practice {p}: it was released before the law allows it to "
    "be (not before {due})",
}


def _records(con, name: str) -> list[dict]:
    cursor = con.execute(sql(name))
    cols = [d[0] for d in cursor.description]
    return [dict(zip(cols, row)) for row in cursor.fetchall()]


class Worklist:
    """Collects the rows of one run, each with its status on the day judged."""

    def __init__(self, as_of: dt.date, window_days: int):
        self.as_of, self.window = as_of, window_days
        self.rows: list[dict] = []

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
    ) -> None:
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
            }
        )

    def frame(self) -> pd.DataFrame:
        rows = sorted(
            self.rows,
            key=lambda r: law.sort_key(r["person"], r["status"], r["due"], r["subject_id"], r["action"]),
        )
        return pd.DataFrame(rows, columns=COLUMNS)


def _month(period: str) -> str:
    year, month = (int(x) for x in period.split("-"))
    return words.month_words(dt.date(year, month, 1))


def notices_actions(w: Worklist, rows: list[dict]) -> None:
    for n in rows:
        person = PERSON_OF_KIND[n["kind"]]
        count = f"{n['violations']} violation{'s' if n['violations'] != 1 else ''}"
        where = dict(name=n["recipient_name"], link=n["letter"])
        if n["status"] == "draft":
            w.add(
                person,
                f"Mail the notice of violation for {_month(n['period'])} ({count}) by certified mail and "
                f"record the mailing, or withdraw it",
                n["recipient_id"],
                None,
                "notices",
                n["notice_id"],
                detail=n["not_ready_reason"],
                **where,
            )
            continue
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
                f"{k} violation{'s' if k != 1 else ''} of {_month(n['period'])} "
                f"{'were' if k != 1 else 'was'} found after notice {n['notice_id']} was mailed and "
                f"{'are' if k != 1 else 'is'} not in it: decide how to notify them",
                n["recipient_id"],
                None,
                "notices",
                n["notice_id"],
                **where,
            )
        if not n["ready_to_send"]:
            w.add(
                law.CLERK,
                f"Complete the mailing of notice {n['notice_id']}: {n['not_ready_reason']}",
                n["recipient_id"],
                None,
                "notices",
                n["notice_id"],
                **where,
            )


def obligation_action(o: dict) -> str:
    if o["obligation"] == "permit_renewal":
        return f"Renew the permit of {o['name'] or o['user_id']} ({o['reference'] or 'no permit number'})"
    subject = OBLIGATION_SUBJECT.get(o["obligation"], o["obligation"].replace("_", " "))
    late = "overdue: follow up on" if o["status"] == "overdue" else "expect"
    return f"{late[:1].upper()}{late[1:]} {subject} from {o['name'] or o['user_id']}"


def sewer_actions(w: Worklist, obligations: list[dict], testing: list[dict]) -> None:
    for o in obligations:
        w.add(
            law.SUPERINTENDENT,
            obligation_action(o),
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
        label = words.parameter_label(t["parameter"])
        action = (
            f"Expect the {label} {kind} of {period}"
            if t["status"] == "open"
            else f"No {label} {kind} was taken in {period}: it is on the notice for "
            f"{words.month_words(t['period_end'])}"
        )
        w.add(
            law.SUPERINTENDENT,
            action,
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
    for d in illicit:
        action = (
            "Hold the appeal hearing of case {c}"
            if d["obligation"] == "appeal_hearing"
            else "Send the owner the notice of the cost of abating case {c}"
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
        action = PRACTICE_ACTION.get(f["finding"], "Follow up practice {p}").format(
            p=f["practice_id"], due=words.day_words(f["due"])
        )
        # an early release has happened already: its date is the earliest the law allowed, not a deadline
        due = None if f["finding"] == "guarantee_release" else f["due"]
        w.add(
            law.STORMWATER_OFFICER,
            f"{action} (site {f['site_id']})",
            f["site_id"],
            due,
            "smp_findings",
            f"{f['practice_id']} {f['finding']}",
            name=f["name"],
            link="stormwater.html#practices",
        )
    for i in inspections:
        what = {
            "weekly": "the weekly inspection",
            "storm": "the inspection after a storm",
            "milestone": "the milestone inspection",
        }.get(i["requirement"], i["requirement"])
        w.add(
            law.STORMWATER_OFFICER,
            f"See that {what} of site {i['site_id']} is made",
            i["site_id"],
            i["due_by"],
            "swppp_upcoming",
            f"{i['requirement']} {i['due_by']}",
            name=i["site_name"],
            link=f"stormwater.html#site-{i['site_id']}",
            detail=i["detail"],
        )


def clerk_actions(w: Worklist, letters: list[dict], conflicts: list[dict], quarantine: list[dict]) -> None:
    for letter in letters:
        w.add(
            law.CLERK,
            f"Complete letter {letter['document_id']} before mailing it: {letter['reason']}",
            letter["recipient_id"] or letter["document_id"],
            None,
            "letters",
            letter["letter"],
            name=letter["recipient_name"],
            link=letter["letter"],
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
    for q in quarantine:
        person = DATASET_PERSON.get(q["dataset"], law.SUPERINTENDENT)
        n = q["rows"]
        what = "the whole file" if q["first_row"] == 0 and n == 1 else f"{n} row{'s' if n != 1 else ''}"
        w.add(
            person,
            f"Correct {what} of {q['source_file']} that could not be read, and send the file again: "
            f"{q['reason']}",
            q["source_file"],
            None,
            "quarantine",
            f"{q['dataset']} {q['source_file']}",
            link="quarantine.html",
        )


def build_worklist(con, as_of: dt.date, rules: Rules) -> pd.DataFrame:
    w = Worklist(as_of, rules.due_within_days(as_of))
    notices_actions(w, _records(con, "select_worklist_notices"))
    sewer_actions(w, _records(con, "select_worklist_obligations"), _records(con, "select_worklist_testing"))
    stormwater_actions(
        w,
        _records(con, "select_worklist_illicit"),
        _records(con, "select_worklist_practices"),
        _records(con, "select_worklist_inspections"),
    )
    clerk_actions(
        w,
        _records(con, "select_worklist_letters"),
        _records(con, "select_worklist_addresses"),
        _records(con, "select_worklist_quarantine"),
    )
    return w.frame()


@asset(
    group_name=GROUP_DASHBOARDS,
    kinds={"duckdb"},
    deps=[
        "notices",
        "letters",
        "obligations",
        "illicit_discharge_deadlines",
        "smp_findings",
        "required_testing",
        "swppp_upcoming",
        "quarantine",
    ],
    description="What each person must do next, and by when: the superintendent of sewage, the stormwater "
    "management officer and the clerk, one row per open action in plain words, with its due date, "
    "whether it is overdue, due within the week or upcoming, and a link to the letter or record.",
)
def worklist(duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource) -> MaterializeResult:
    as_of = settings.as_of_date()
    with warehouse(duckdb) as con:
        frame = build_worklist(con, as_of, rules.town_rules())
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


@asset_check(
    asset=worklist,
    description="Every row's status agrees with its due date and the day judged: overdue "
    "before it, due within the rules' week, upcoming after it or with no due date. Threshold: 0 rows that "
    "do not. Severity ERROR.",
)
def check_validity_worklist_status(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> AssetCheckResult:
    as_of = settings.as_of_date()
    window = rules.town_rules().due_within_days(as_of)
    with warehouse(duckdb) as con:
        bad, total = con.execute(
            sql("check_validity_worklist_status"), {"as_of": as_of, "window": window}
        ).fetchall()[0]
    return AssetCheckResult(
        passed=bad == 0,
        severity=AssetCheckSeverity.ERROR,
        metadata={"rows": int(total), "invalid_rows": int(bad), "threshold": "0 rows"},
    )
