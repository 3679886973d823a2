"""What each person must do next, and by when: the table ``worklist`` (contracts 6.4, 7.5).

Each line is an action its person does and records, and it closes when that record arrives in the input
folders (contract 7.5): mail a draft notice (or withdraw it), record the sample of a testing period,
renew a permit, confirm or withdraw a permit no input gives any longer (the Superintendent of Sewage);
mail a draft notice, see that an inspection is made and record it, record the delivery of the report a
recorded inspection calls for, hold an appeal hearing, send a cost notice (the stormwater management
officer); complete the address of a letter or of a bill, confirm a ZIP
code, correct rows of a file that could not be read (the clerk, or whoever keeps the file). A duty of
another party (a user's report, 24-hour notice or resample, an owner's as-built plans) is not a line: it
is an item of the draft notice or a line of the record on the person's page.

Status: ``overdue``, ``due`` within the Town's week, ``undated`` (the law gives no date: draft notices,
oldest first by the day their first item was found), ``upcoming`` (``outfall.law.worklist``). A row of
the to-record workbook filled against the sheet's rules comes first (``first``). Every document comes
from the one table of letters: its drafts (``select_worklist_drafts``), its mailings whose record lacks
something (``select_worklist_reviews``, contract 8.3) and the addresses its letters lack, each kind's
person and words from the registry of kinds (``outfall.document_kinds``). The findings at the town's own
sites are lines of their own (``own_findings``, contract 8.4). The words of each action are built here; the
dates and numbers come from the tables and the rules.
"""

import datetime as dt
from typing import Any

import pandas as pd
from dagster import AssetCheckResult, AssetCheckSeverity, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, WAREHOUSE_POOL, table_check, table_result, warehouse
from outfall import notice_words as words
from outfall.document_kinds import KINDS, writers
from outfall.ingest.registry import all_datasets
from outfall.law import worklist as law
from outfall.register_export import bills_lacking_address
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.warehouse import records, replace_rows, sql, transaction

# Whose action a monthly notice is, by its kind (the notices table's; every other document's person is the
# registry's, outfall.document_kinds).
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
    "found_on",
    "first",
]


def dataset_person(name: str) -> str:
    """The person who keeps input folder ``name``: its spec's keeper, from its area (a folder no spec names:
    the Superintendent)."""
    ds = all_datasets().get(name)
    return ds.keeper if ds is not None else law.SUPERINTENDENT


INSPECTION_WORDS = {
    "weekly": "the weekly inspection",
    "storm": "the inspection after a storm",
    "milestone": "the milestone inspection",
}


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


def served_by(kind: str, rules: Rules | None) -> str:
    """How the rules of a document's jurisdiction have it served ("certified mail"; "" where they do not
    say): the sewer law's enforcement for the sewer area's documents, the stormwater notice of violation's
    for the stormwater area's (contract 8.7)."""
    if rules is None:
        return ""
    spec = KINDS[kind]
    if spec.area == "sewer":
        version = rules.versions_of("sewer_enforcement")
    else:
        version = rules.versions_of("swppp.notice_of_violation")
    latest = sorted(version, key=lambda v: v.starts)[-1] if version else None
    return (getattr(latest, "mailing", None) or "") if latest is not None else ""


def draft_action(d: dict, rules: Rules | None = None) -> str | None:
    """What the person does with a draft document, and records: its kind's words (the registry's
    ``draft_action``; None: the kind's drafts have no line of their own), served as ``rules`` (its
    jurisdiction's) say."""
    words_ = KINDS[d["letter_kind"]].draft_action
    if words_ is None:
        return None
    period = d.get("period")
    by = served_by(d["letter_kind"], rules)
    return words_.format(
        month=_month(period) if period else "",
        of_month=f" of {_month(period)}" if period else "",
        count=_plural(int(d["items"] or 0), "violation"),
        recipient_id=d["recipient_id"],
        by=f" by {by}" if by else "",
    )


def draft_actions(
    w: Worklist, drafts: list[dict], rules: dict[str, Rules] | None = None, town: Rules | None = None
) -> None:
    """Every draft document (select_worklist_drafts), undated, oldest first by its first item found; each
    served as the rules of its jurisdiction say (``rules``: by jurisdiction; ``town``'s where it names
    none)."""
    for d in drafts:
        action = draft_action(d, (rules or {}).get(d.get("jurisdiction") or "", town))
        if action is None:
            continue
        w.add(
            KINDS[d["letter_kind"]].person,
            action,
            d["recipient_id"],
            None,
            KINDS[d["letter_kind"]].table,
            d["document_id"],
            name=d["recipient_name"],
            link=d["letter"],
            detail=d["not_ready_reason"],
            found_on=d["found_on"],
        )


def record_reviews(w: Worklist, rows: list[dict]) -> None:
    """Mailed documents whose mailing's record lacks something or gets something wrong (contract 8.3): the
    mailing stands; its person reviews the row, whose column the line names."""
    for d in rows:
        spec = KINDS[d["letter_kind"]]
        w.add(
            spec.person,
            f"Review the record of {spec.title} {d['document_id']}, mailed {words.day_words(d['dated'])}: "
            f"{d['review']}",
            d["recipient_id"],
            None,
            "letters",
            d["document_id"],
            name=d["recipient_name"],
            link=d["letter"],
            found_on=d["dated"],
        )


#: The notices_mailed kind that records a month of a municipality's own findings seen to (its notice's).
OWN_RECORDED_AS = {"sewer": "sewer", "stormwater": "stormwater"}


def own_actions(w: Worklist, rows: list[dict]) -> None:
    """The findings at the municipality's own sites and premises (contract 8.4): it does not serve itself a
    notice or an order; its person sees each corrected. Each line is plain sentences: where, what was found,
    what to do and the record that closes it (contract 7.5: the correction; for a month's violations found
    corrected already, such as an inspection made late, the month recorded as seen to)."""
    for f in rows:
        where = f"{f['subject_name']} ({f['subject_id']})" if f["subject_name"] else str(f["subject_id"])
        found = f.get("finding") or _sentence(f["description"])
        kind = OWN_RECORDED_AS.get(f["kind"])
        if f["resolved_on"] is None:
            what = f"Correct at the {f['municipality']}'s own site {where}: {found}"
            why = (
                f"No notice goes to the {f['municipality']} itself: {f['owner']}, of record here, is one "
                "of its names."
            )
            close = "The line closes when the correction is recorded."
        else:
            what = f"See that it does not recur at the {f['municipality']}'s own site {where}: {found}"
            why = f"No notice goes to the {f['municipality']} itself ({f['owner']})."
            close = (
                f"Close a month's lines: a notices mailed row of kind {kind}, recipient {f['subject_id']}, "
                "that month, a withdrawn reason, no mailing day."
                if kind
                else ""
            )
        w.add(
            f["person"],
            what,
            f["subject_id"],
            None,
            "own_findings",
            f"{f['item']} {f['ref']} {f['item_on']}",
            name=f["subject_name"],
            detail=f"{why} {close}".strip(),
            found_on=f["known_on"],
        )


def _sentence(text: str) -> str:
    """``text`` as a sentence: its first letter capital, a full stop at its end."""
    text = str(text or "").strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else ""


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


def _term(start: dt.date | None, end: dt.date | None) -> str:
    """A permit's term in words: "October 1, 2021 to September 30, 2026"."""
    first = words.day_words(start) if start else "an unknown day"
    return f"{first} to {words.day_words(end) if end else 'no end'}"


def sewer_actions(
    w: Worklist, permits: list[dict], testing: list[dict], dropped: list[dict] | None = None
) -> None:
    """The permits to renew (recorded by a row of the permits folder: the permits sheet of the to-record
    workbook), the permits no input gives any longer (to confirm or withdraw, contract 8.2) and the samples
    of the testing periods still open."""
    for o in permits:
        w.add(
            law.SUPERINTENDENT,
            f"Renew permit {o['reference'] or '(no permit number)'} and record the new permit in the permits "
            "folder (the permits sheet of the to-record workbook)",
            o["user_id"],
            o["due"],
            "obligations",
            f"{o['obligation']} {o['reference']}",
            name=o["name"],
            link=f"sewer.html#user-{o['user_id']}",
            detail=o["detail"],
        )
    for p in dropped or ():
        number = p["permit_no"] or "(no permit number)"
        w.add(
            law.SUPERINTENDENT,
            f"Confirm permit {number}: permit {number} is no longer in the inputs. It stays in force for "
            f"its own days ({_term(p['effective_on'], p['expires_on'])}): record it in the permits folder "
            "to keep it, or withdraw it there with the reason",
            p["user_id"],
            None,
            "user_permits",
            f"permit {p['permit_no'] or ''}".strip(),
            name=p["name"],
            link=f"sewer.html#user-{p['user_id']}",
            detail=f"last given by {p['source_file']}" if p["source_file"] else None,
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
    w: Worklist,
    illicit: list[dict],
    practices: list[dict],
    inspections: list[dict],
    reports: list[dict] | None = None,
) -> None:
    """The officer's own acts: appeal hearings, cost notices, one-year and SWPPP inspections, and the record
    of each awaited inspection report when it is delivered (the duty a recorded inspection creates,
    contract 8.5)."""
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

    for r in reports or ():
        w.add(
            law.STORMWATER_OFFICER,
            f"Record the delivery of the report of the inspection of {words.day_words(r['report_date'])} "
            "when it arrives (the report_deliveries sheet of the to-record workbook)",
            r["site_id"],
            r["due_by"],
            "swppp_reports_due",
            f"report {r['report_date']}",
            name=r["site_name"],
            link=f"stormwater.html#site-{r['site_id']}",
            detail=f"the applicant's duty, created by recording that inspection ({r['rule']}); not delivered "
            "by then, it is a violation on the site's next notice",
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
        person = dataset_person(q["dataset"])
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


def build_worklist(
    con, as_of: dt.date, rules: Rules, year: int | None = None, every: dict[str, Rules] | None = None
) -> pd.DataFrame:
    """Every person's actions on ``as_of``; ``year``: the billing year whose bills' addresses are listed
    (None: the last year billed, as the billing page shows it); ``every``: every jurisdiction's rules (how
    its documents are served; None: the town's alone)."""
    setting = rules.worklist  # a setting of the pages, not law: undated (None: nothing is "due")
    w = Worklist(as_of, setting.due_within_days if setting is not None else None)
    quarantine_actions(w, records(con, "select_worklist_quarantine"))
    draft_actions(w, records(con, "select_worklist_drafts"), every or {rules.jurisdiction: rules}, rules)
    review_actions(w, records(con, "select_worklist_notices"))
    record_reviews(w, records(con, "select_worklist_reviews"))
    own_actions(w, records(con, "select_worklist_own"))
    sewer_actions(
        w,
        records(con, "select_worklist_obligations"),
        records(con, "select_worklist_testing"),
        records(con, "select_worklist_permits"),
    )
    stormwater_actions(
        w,
        records(con, "select_worklist_illicit"),
        records(con, "select_worklist_practices"),
        records(con, "select_worklist_inspections"),
        records(con, "select_worklist_reports"),
    )
    address_actions(
        w,
        records(con, "select_worklist_letters"),
        records(con, "select_worklist_addresses"),
        bills_lacking_address(con, year),
    )
    return w.frame()


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_DASHBOARDS,
    kinds={"duckdb"},
    deps=[
        *writers(),
        "letters",
        "obligations",
        "user_permits",
        "illicit_discharge_deadlines",
        "smp_findings",
        "required_testing",
        "swppp_upcoming",
        "swppp_other_findings",
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
    with warehouse(duckdb, as_of=as_of) as con:
        frame = build_worklist(con, as_of, rules.town_rules(), settings.year or None, rules.all_rules())
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
    with warehouse(duckdb, as_of=as_of) as con:
        bad, total = con.execute(
            sql("check_validity_worklist_status"), {"as_of": as_of, "window": window}
        ).fetchall()[0]
    return AssetCheckResult(
        passed=bad == 0,
        severity=AssetCheckSeverity.ERROR,
        metadata={"rows": int(total), "invalid_rows": int(bad), "threshold": "0 rows"},
    )
