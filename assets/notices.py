"""Notices of violation: every violation found, noticed once, one notice per recipient and month.

``notices``: one row per kind (``sewer``, ``stormwater``), recipient and month that has at least one
item (``notice_items``: per-sample results, excursions of continuous readings, daily maximums, monthly
averages, discharging without a permit, late reports and missed testing for a sewer user; missed
inspections and other findings for a construction site), each with one letter in
``<dashboards>/letters/<kind>/notice_<recipient>_<YYYY-MM>.html``
with a section per kind of item.

- A notice is a ``draft`` (undated, no deadline, no penalty) until the clerk records its mailing in
  ``notices_mailed``; the earliest mailing counts, dates the notice (issued_on) and sets its last day
  to correct (correct_by = issued_on + the days given, moved to the next business day when it ends on
  a weekend or holiday: General Construction Law § 25-a). A row with ``withdrawn_reason`` and no
  mailing day withdraws a draft.
- A mailed notice is a record: its letter is written once, from the facts as they stood on its
  issued_on (``outfall.law.notices.letter_items``), and never rewritten or deleted; the items it
  lists are kept in ``notice_items_issued``, the file's hash in ``documents_issued``
  (``assets/records.py``). Items of its month found later are listed in ``notice_items`` as not in
  its letter; items of its letter the data no longer show make it ``needs_review``.

The words of each item are ``outfall/notice_words.py``; the letters
``templates/letters/sewer_notice.html`` and ``stormwater_notice.html``.
"""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field, replace

import pandas as pd
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
    check_rows,
    outputs,
    table_check,
    table_result,
    warehouse,
)
from assets.notice_items import (
    collect_items,
    issued_items_by_document,
    item_parameter,
    violation_counts,
    with_law,
)
from assets.run import record_not_judged
from outfall import notice_words as words
from outfall.document_kinds import DAYS_GIVEN, KINDS, STORMWATER_OFFICER, SUPERINTENDENT
from outfall.documents import Document, Documents, is_own, mailing_days, period_given, save_own_findings
from outfall.law import notices as law, swppp as swppp_law
from outfall.law.calendar import BusinessCalendar, extended_due, extension_law
from outfall.letters import LetterWriter, Recipient, format_money, safe_file_name
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.rules.tables import NotJudged
from outfall.rules.words import stormwater_penalty_words
from outfall.warehouse import records, replace_rows, sql, transaction

#: The kind of document (outfall.document_kinds) of each kind of notice.
DOCUMENT_KIND = {"sewer": "sewer_notice", "stormwater": "stormwater_notice"}
#: Whose worklist a finding at the municipality's own site or premises is on (contract 8.4).
OWN_PERSON = {"sewer": SUPERINTENDENT, "stormwater": STORMWATER_OFFICER}
#: The notice_status of a violation whose month has no notice because the rules do not say how to issue one.
NOT_DRAFTED = "not_drafted"
INPUT_FILE = {
    "sewer": "the industrial users' file",
    "stormwater": "the construction sites' file: the landowner's name and mailing address",
}


def letter_file(kind: str, recipient_id: str, period: str) -> str:
    """The letter's file name in letters/<kind>/ (the registry's format)."""
    return KINDS[DOCUMENT_KIND[kind]].make_file(recipient=safe_file_name(recipient_id), period=period)


def letter_path(kind: str, recipient_id: str, period: str) -> str:
    """The letter's file, relative to the dashboards folder (never null)."""
    return f"letters/{KINDS[DOCUMENT_KIND[kind]].area}/{letter_file(kind, recipient_id, period)}"


def notice_number(kind: str, recipient_id: str, period: str) -> str:
    return KINDS[DOCUMENT_KIND[kind]].make_number(recipient_id=recipient_id, period=period)


# ------------------------------------------------------------------ recipients and mailings


def recipients(con, town: str) -> dict[tuple[str, str], dict]:
    """(kind, recipient_id) -> who a notice goes to: name, address, the record's own name and premises, the
    jurisdiction (an industrial user's: ``town``, the town running Outfall)."""
    out = {}
    for r in records(con, "select_notice_recipients", {"town": town}):
        r["recipient"] = Recipient(r["recipient_name"], r["street"], r["city"], r["state"], r["zip"])
        r["applicant"] = (
            Recipient(
                r["applicant_name"],
                r["applicant_street"],
                r["applicant_city"],
                r["applicant_state"],
                r["applicant_zip"],
            )
            if r["applicant_name"]
            else None
        )
        out[(r["kind"], r["recipient_id"])] = r
    return out


# ------------------------------------------------------------------ letters


def _period_words(period: str) -> str:
    year, month = (int(x) for x in period.split("-"))
    return words.month_words(dt.date(year, month, 1))


def _sewer_context(n: dict, items: list[law.Item], rules: Rules, day: dt.date) -> dict:
    """A sewer notice's words, each from the rules of ``day`` (contract 8.7): who found the violations and how
    the notice is served, the period to correct as the rules state it (none written where they state none,
    contract 8.8) and the penalty as its section states it."""
    enforcement = rules.sewer_enforcement.at(day)
    penalty = rules.penalties.sewer_use.at(day)
    correction = rules.versions_of("notices.sewer_correction").get(day)
    practice = rules.readings_enforcement is not None and bool(rules.readings_enforcement.sewer_penalty_days)
    return {
        "issuer": enforcement.issuer,
        "found_by": enforcement.found_by or enforcement.issuer,
        "mailing": enforcement.mailing,
        "enforcement_text": enforcement.section_text.enforcement,
        "rule": enforcement.citation,
        "correction": correction.model_dump() if correction is not None else None,
        "penalty_text": enforcement.section_text.penalties,
        "penalty_rule": penalty.citation,
        "penalty_statement": penalty.statement(format_money),
        "practice_days": practice
        and penalty.per is not None
        and (correction is not None or n.get("correct_within_days") is not None),
        "sections": words.sewer_sections(items, day, rules),
        "permit_text": f"permit {n['permit_no']}"
        if n.get("permit_no")
        else f"industrial user {n['recipient_id']}",
    }


def finding_kinds(items: list[law.Item]) -> list[str]:
    """The kinds of finding among a stormwater notice's items (weekly, storm, sediment_not_removed, ...), each
    once, in the order of the letter."""
    return list(dict.fromkeys(str(i.fact("requirement") or i.fact("finding")) for i in items))


def remedial_measures(items: list[law.Item], r: Rules, day: dt.date) -> tuple[list[dict], list[str]]:
    """The remedial measures of each kind of finding a stormwater notice lists (the notice's content (4)),
    from the rules' text for that kind with its citation; and what the rules lack, in words."""
    version = r.swppp.remedial_measures.get(day)
    labels = swppp_law.finding_labels(r, day)
    out, missing = [], []
    for kind in finding_kinds(items):
        measure = getattr(version, kind, None) if version is not None else None
        if measure is None:
            missing.append(f"the rules give no remedial measures for {labels.get(kind, kind).lower()}")
            continue
        out.append({"label": labels.get(kind, kind), "text": measure.text, "citation": measure.citation})
    return out, missing


def _stormwater_context(n: dict, items: list[law.Item], r: Rules, day: dt.date) -> dict:
    sw = r.swppp
    nov = sw.notice_of_violation.at(day)
    appeal = sw.appeal.at(day)
    texts = sw.section_text.at(day)
    penalty = r.penalties.stormwater.at(day)
    place = ", ".join(
        x for x in (str(n.get("site_name") or "").strip(), str(n.get("premises") or "").strip()) if x
    )
    # each requirement's text once, in one order whatever the hash seed (a set's order changed the letter
    # from run to run: the fault drill found it)
    subjects = sorted(finding_kinds(items))
    measures, _missing = remedial_measures(items, r, day)
    return {
        "issuer": nov.issuer,
        "authority": r.name,
        "law_name": nov.law_name,
        "site_description": f"{place} (site {n['recipient_id']})" if place else f"Site {n['recipient_id']}",
        "sections": words.stormwater_sections(items, day, r, swppp_law.finding_labels(r, day)),
        "remedial_measures": measures,
        "section_text": " ".join(t for t in (getattr(texts, s, None) or "" for s in subjects) if t),
        "penalty_statement": (
            f"{stormwater_penalty_words(penalty, sw.convictions.at(day).imprisonment_max_months)} "
            f"({penalty.citation})"
        ),
        "penalty_text": texts.penalties or "",
        "appeal_statement": (
            f"The determination of violation may be appealed to {nov.appeal_filed_with} by filing a "
            f"written notice of appeal within {appeal.days} days of service of this notice of "
            f"violation. ({appeal.citation})"
        ),
    }


@dataclass
class Notice:
    """One notice as this run sees it."""

    kind: str
    recipient_id: str
    period: str
    row: dict
    items: list[dict] = field(default_factory=list)  # rows of notice_items
    written: bool = False  # its letter was written this run (not on record)
    period_problem: str | None = None  # its mailing's days are more than the law allows (contract 8.3)
    issued_items: list[dict] = field(default_factory=list)  # rows of notice_items_issued to record


@dataclass
class NoticeRun:
    """What the notices asset computed: the notices, and the findings at the municipality's own sites."""

    notices: list[Notice]
    own: list[dict] = field(default_factory=list)  # rows of own_findings
    undrafted: list[dict] = field(default_factory=list)  # rows of notice_items with no notice drafted

    def rows(self) -> list[dict]:
        return [n.row for n in self.notices]

    def item_rows(self) -> list[dict]:
        return [i for n in self.notices for i in n.items] + self.undrafted

    def written(self) -> int:
        return sum(1 for n in self.notices if n.written)


class NoticeBuilder:
    """Builds every notice of a run from the items, the mailings and the records already kept."""

    def __init__(self, con, settings: OutfallSettings, rules: RulesResource, docs: Documents):
        self.as_of = settings.as_of_date()
        self.rules = rules.all_rules()
        self.town = rules.jurisdiction()
        self.sewer_rules = rules.town_rules()
        self.docs = docs
        self.items: dict[tuple[str, str, str], list[law.Item]] = defaultdict(list)
        for i in collect_items(con, self.sewer_rules.timezone):
            if i.known_on <= self.as_of:
                self.items[(i.kind, i.recipient_id, i.period)].append(i)
        self.recipients = recipients(con, self.town)
        self.records = {
            number: r for number, r in docs.records.items() if r["letter_kind"] in DOCUMENT_KIND.values()
        }
        self.issued = issued_items_by_document(con)

    def keys(self) -> list[tuple[str, str, str]]:
        recorded = {(r["area"], r["recipient_id"], r["period"]) for r in self.records.values()}
        return sorted(
            k
            for k in set(self.items) | recorded
            if k in recorded or (self.drafts(k[0], k[1]) and self.own_name(k[0], k[1]) is None)
        )

    def own_name(self, kind: str, recipient_id: str) -> str | None:
        """The municipality's own name the recipient's record gives, if any (contract 8.4: a site whose
        landowner or applicant, or premises whose user, is the municipality gets no notice)."""
        found = self.recipients.get((kind, recipient_id)) or {}
        names = self._rules_of(kind, recipient_id).own_names
        for key in ("recipient_name", "record_name", "applicant_name"):
            if is_own(found.get(key), names):
                return str(found.get(key))
        return None

    def own_findings(self) -> list[dict]:
        """Each finding at the municipality's own site or premises, for its person's worklist: no notice
        (contract 8.4)."""
        out = []
        for (kind, recipient_id, period), items in sorted(self.items.items()):
            owner = self.own_name(kind, recipient_id)
            if owner is None or (kind, recipient_id, period) in self._recorded_keys():
                continue
            r = self._rules_of(kind, recipient_id)
            found = self.recipients.get((kind, recipient_id)) or {}
            # the month seen to: a notices_mailed row of its kind, subject and month with a withdrawn_reason
            # and no mailing day (no notice goes to the municipality itself) closes its lines once corrected
            closed_by = law.withdrawal(self.docs.mailings(kind, recipient_id, period))
            labels = swppp_law.finding_labels(r, self.as_of) if kind == "stormwater" else None
            for i in law.sort_items(items):
                i = with_law(i, r)
                if i.resolved_on is not None and i.resolved_on > self.as_of:
                    i = replace(i, resolved_on=None)
                out.append(
                    {
                        "person": OWN_PERSON[kind],
                        "kind": kind,
                        "subject_id": recipient_id,
                        "subject_name": found.get("record_name"),
                        "owner": owner,
                        "municipality": r.name,
                        "period": period,
                        "item": i.item,
                        "ref": i.ref,
                        "item_on": i.month_day,
                        "known_on": i.known_on,
                        "resolved_on": i.resolved_on
                        if i.resolved_on and i.resolved_on <= self.as_of
                        else None,
                        "description": self._describe(i, r, self.as_of),
                        "finding": words.sentence(i, self.as_of, r, labels),
                        "closed_by": closed_by,
                        "rule": i.rule,
                        "law": i.law,
                    }
                )
        return out

    def _recorded_keys(self) -> set[tuple[str, str, str]]:
        return {(r["area"], r["recipient_id"], r["period"]) for r in self.records.values()}

    def drafts(self, kind: str, recipient_id: str = "") -> bool:
        """Whether the rules say how a notice of this kind is issued: for a sewer user the town's (who signs
        it, how it is sent, the penalty), for a site its jurisdiction's (``Rules.stormwater_notices_stated``).
        Without them no notice is drafted, and not_judged says why."""
        if kind == "sewer":
            return not self._sewer_unstated()
        return self._rules_of(kind, recipient_id).stormwater_notices_stated()

    def _rules_of(self, kind: str, recipient_id: str) -> Rules:
        jurisdiction = (self.recipients.get((kind, recipient_id)) or {}).get("jurisdiction") or self.town
        return self.rules.get(jurisdiction, self.sewer_rules)

    def _sewer_unstated(self) -> bool:
        return not self.sewer_rules.sewer_notices_stated()

    def undrafted(self) -> list[NotJudged]:
        out = []
        sewer_reason = (
            "not drafted: the rules state no enforcement texts and penalty of the sewer use law (who issues "
            "a notice, how it is sent, the penalty); the violations are in discharge_violations"
        )
        for kind, recipient_id, period in sorted(self.items):
            if kind == "sewer" and self._sewer_unstated():
                out.append(
                    NotJudged(
                        f"sewer notice to {recipient_id} for {period}",
                        self.as_of,
                        "sewer_enforcement",
                        sewer_reason,
                    )
                )
            elif kind == "stormwater" and not self.drafts(kind, recipient_id):
                out.append(
                    NotJudged(
                        f"stormwater notice to site {recipient_id} for {period}",
                        self.as_of,
                        "swppp.notice_of_violation",
                        self._rules_of(kind, recipient_id).stormwater_notices_reason(),
                    )
                )
        return out

    def build(self) -> NoticeRun:
        built = [self.notice(*key) for key in self.keys()]
        return NoticeRun([n for n in built if n is not None], self.own_findings(), self.undrafted_items())

    def undrafted_items(self) -> list[dict]:
        """The violations of each month whose notice the rules do not say how to issue (contract 8.6: the
        pages and the index count and list them like any other, whatever the rules hold): rows of
        notice_items with no notice, notice_status ``not_drafted`` (not_judged says why)."""
        out = []
        recorded = self._recorded_keys()
        for (kind, recipient_id, period), items in sorted(self.items.items()):
            if (kind, recipient_id, period) in recorded or self.drafts(kind, recipient_id):
                continue
            if self.own_name(kind, recipient_id) is not None:
                continue
            r = self._rules_of(kind, recipient_id)
            month = Notice(kind, recipient_id, period, {"status": NOT_DRAFTED})  # no notice: its items only
            for i in law.sort_items(items):
                out.append(
                    self._item_row(month, with_law(i, r), r, self.as_of, in_letter=False, supported=True)
                )
        return out

    # -- one notice

    def notice(self, kind: str, recipient_id: str, period: str) -> Notice | None:
        number = notice_number(kind, recipient_id, period)
        record = self.records.get(number)
        found = self.docs.mailings(kind, recipient_id, period)
        mailing = law.earliest_mailing(found)
        current = law.sort_items(self.items.get((kind, recipient_id, period), []))
        if record is None and not current:
            return None
        recipient = self.recipients.get((kind, recipient_id))
        jurisdiction = (recipient or {}).get("jurisdiction") or self.town
        r = self.rules.get(jurisdiction, self.sewer_rules)
        current = [with_law(i, r) for i in current]
        issued_on = record["issued_on"] if record is not None else (mailing.mailed_on if mailing else None)
        withdrawn = None if issued_on is not None else law.withdrawal(found)
        days, correct_by, review, period_problem = self._correction(kind, record, mailing, issued_on, r)
        n = Notice(
            kind,
            recipient_id,
            period,
            {
                "kind": kind,
                "recipient_id": recipient_id,
                "period": period,
                "notice_id": number,
                "status": law.MAILED if issued_on is not None else law.status(None, withdrawn),
                "issued_on": issued_on,
                "correct_by": correct_by,
                "correct_within_days": days,
                "letter": letter_path(kind, recipient_id, period),
                "jurisdiction": jurisdiction,
                "certified_mail_no": (record or {}).get("certified_mail_no")
                or (mailing.certified_mail_no if mailing else None),
                "mailings": len(mailing_days(found)),
                "withdrawn_reason": withdrawn,
                "recipient_name": (recipient or {}).get("recipient_name"),
                "mailing_address": "; ".join(recipient["recipient"].lines()) if recipient else None,
                "address_missing": None,
                "as_of": self.as_of,
            },
        )
        day = issued_on or self.as_of
        if issued_on is not None and not (n.row["certified_mail_no"] or "").strip():
            mailing_by = r.sewer_enforcement.at(day).mailing if kind == "sewer" else ""
            if "certified" in (mailing_by or "").lower():
                review.append(
                    f"certified_mail_no is blank: the law serves the notice by {mailing_by}; record its "
                    "number"
                )
        if record is not None:
            listed = [with_law(i, r) for i in self.issued.get(number, [])]
            self._items(n, listed, current, in_letter_known=True)
        else:
            listed = law.letter_items(current, day)
            self._items(n, listed, current, in_letter_known=issued_on is not None)
        n.period_problem = period_problem
        self._letter(n, r, recipient, listed, day, mailing is not None or record is not None, found, review)
        if record is None and issued_on is not None:
            n.issued_items = [{"document_id": number, **self._issued_row(i, r, day)} for i in listed]
        n.row["violations"] = len(n.items)
        n.row["rule"] = (
            r.sewer_enforcement.at(day).citation
            if kind == "sewer"
            else (
                r.swppp.notice_of_violation.at(day).law_name
                if r.swppp is not None and r.swppp.notice_of_violation is not None
                else r.law("stormwater", day).name
            )
        )
        return n

    def _correction(
        self, kind: str, record: dict | None, mailing: law.Mailing | None, issued_on: dt.date | None, r: Rules
    ) -> tuple[int | None, dt.date | None, list[str], str | None]:
        """(days to correct, last day to correct, what to review, what keeps the letter from the mail): as
        recorded; a record whose mailing gave no days takes them from its mailing's row once the row gives
        them (contract 8.3: the mailing was recorded without them, and listed for review until they are)."""
        if record is not None and record["correct_within_days"] is not None:
            return record["correct_within_days"], record["correct_by"], [], None
        if mailing is None or issued_on is None:
            return None, None, [], None
        doc_kind, given, maximum, cited = KINDS[DOCUMENT_KIND[kind]], mailing.correct_within_days, None, ""
        if kind == "sewer":
            version = self.sewer_rules.versions_of("notices.sewer_correction").get(issued_on)
            if version is not None:
                maximum, cited = version.max_days, version.citation
                if version.set_per_notice:  # "a reasonable time": the days each notice gives (contract 8.8)
                    doc_kind = replace(doc_kind, days=DAYS_GIVEN)
                elif given is None and version.days is not None:  # the rules' days, short of the most
                    given = version.days
        period = period_given(doc_kind, given, maximum, cited)
        return (
            period.days,
            law.correct_by(issued_on, period.days, period_end(r)),
            list(period.review),
            period.problem,
        )

    def _items(
        self, n: Notice, listed: list[law.Item], current: list[law.Item], in_letter_known: bool
    ) -> None:
        """notice_items: what the letter lists (supported or not by the data now), then what it could not."""
        now = {i.key for i in current}
        in_letter = {i.key for i in listed}
        r = self.rules.get(n.row["jurisdiction"], self.sewer_rules)
        day = n.row["issued_on"] or self.as_of
        for i in listed:
            n.items.append(self._item_row(n, i, r, day, in_letter=True, supported=i.key in now))
        for i in current:
            if i.key not in in_letter:
                n.items.append(self._item_row(n, i, r, self.as_of, in_letter=False, supported=True))
        if n.row["status"] == law.MAILED:
            n.row["items_in_letter"] = len(listed)
            n.row["items_not_in_letter"] = sum(1 for i in current if i.key not in in_letter)
            n.row["items_unsupported"] = sum(1 for i in listed if i.key not in now)
            n.row["needs_review"] = n.row["items_unsupported"] > 0 or not listed
        else:
            n.row.update(
                items_in_letter=None, items_not_in_letter=None, items_unsupported=None, needs_review=False
            )
        days = [i.month_day for i in (listed or current)]
        n.row["first_violation_on"] = min(days) if days else None
        n.row["last_violation_on"] = max(days) if days else None

    def _describe(self, i: law.Item, r: Rules, day: dt.date) -> str:
        if i.fact("description") is not None and len(i.facts) == 1:  # an item as recorded
            return str(i.fact("description"))
        labels = swppp_law.finding_labels(r, day) if i.kind == "stormwater" else None
        return words.describe(i, day, r, labels)

    def _item_row(
        self, n: Notice, i: law.Item, r: Rules, day: dt.date, in_letter: bool, supported: bool
    ) -> dict:
        return {
            "kind": n.kind,
            "recipient_id": n.recipient_id,
            "period": n.period,
            "item": i.item,
            "ref": i.ref,
            "rule": i.rule,
            "law": i.law,
            "parameter": item_parameter(i),
            "item_on": i.month_day,
            "known_on": i.known_on,
            "resolved_on": i.resolved_on,
            "description": self._describe(i, r, day),
            "in_letter": in_letter,
            "supported": supported,
            "notice_status": n.row["status"],
        }

    def _issued_row(self, i: law.Item, r: Rules, day: dt.date) -> dict:
        return {
            "kind": i.kind,
            "recipient_id": i.recipient_id,
            "period": i.period,
            "item": i.item,
            "ref": i.ref,
            "sub": i.sub,
            "rule": i.rule,
            "law": i.law,
            "item_on": i.month_day,
            "known_on": i.known_on,
            "resolved_on": i.resolved_on,
            "description": self._describe(i, r, day),
        }

    def _letter(
        self,
        n: Notice,
        r: Rules,
        recipient: dict | None,
        listed: list[law.Item],
        day: dt.date,
        mailed: bool,
        found: list[law.Mailing],
        review: list[str],
    ) -> None:
        """The notice's letter, through the one helper of documents (outfall.documents): written as the
        facts stood on ``day``, or, on record, left as it was written."""
        row = n.row
        person = recipient["recipient"] if recipient else None
        on_record = self.records.get(row["notice_id"]) is not None
        context: dict = {}
        problems: list[str] = []
        if not on_record:
            context = self._context(n, r, recipient, listed, day, mailed)
            if n.kind == "stormwater":
                problems += stormwater_problems(listed, r, day, row["correct_within_days"])
            if n.period_problem:
                problems.append(n.period_problem)
            if mailed and not listed:
                problems.append(
                    f"the mailing recorded on {words.day_words(day)} is dated before any violation of "
                    f"{_period_words(n.period)} was known: check the mailing day"
                )
        found_on = [i["known_on"] or i["item_on"] for i in n.items if i["known_on"] or i["item_on"]]
        written = self.docs.add(
            Document(
                DOCUMENT_KIND[n.kind],
                row["notice_id"],
                letter_file(n.kind, n.recipient_id, n.period),
                n.recipient_id,
                row["jurisdiction"],
                context,
                recipient=person,
                fix=INPUT_FILE[n.kind],
                status=row["status"],
                dated=row["issued_on"],
                period=n.period,
                mailings=tuple(found),
                correct_within_days=row["correct_within_days"],
                correct_by=row["correct_by"],
                missing=problems,
                review=review,
                items=len(n.items),
                found_on=min(found_on) if found_on else row["first_violation_on"],
                withdrawn_reason=row["withdrawn_reason"],
                recipient_name=row["recipient_name"],
            )
        )
        reasons = [written.problems] if written.problems else []
        if row["status"] == law.WITHDRAWN:
            reasons = [f"this draft was withdrawn ({row['withdrawn_reason']})", *reasons]
        row["ready_to_send"] = not reasons
        row["not_ready_reason"] = "; ".join(reasons) or None
        row["address_missing"] = written.address_missing
        row["review"] = written.review
        n.written = written.html is not None

    def _context(
        self, n: Notice, r: Rules, recipient: dict | None, listed: list[law.Item], day: dt.date, mailed: bool
    ) -> dict:
        row = n.row
        base = {
            **row,
            "permit_no": (recipient or {}).get("permit_no"),
            "site_name": (recipient or {}).get("record_name"),
            "premises": (recipient or {}).get("premises"),
        }
        context = (_sewer_context if n.kind == "sewer" else _stormwater_context)(base, listed, r, day)
        what = "industrial user" if n.kind == "sewer" else "landowner of site"
        person = recipient["recipient"] if recipient else None
        copy = (recipient or {}).get("applicant")
        context.update(
            {
                "notice_id": row["notice_id"],
                "period_words": _period_words(n.period),
                "draft": not mailed,
                "issued_on": row["issued_on"],
                "correction_days": row["correct_within_days"],
                "certified_mail_no": row["certified_mail_no"],
                "violation_count": len(listed),
                "violation_counts": violation_counts(listed),
                "recipient_name": row["recipient_name"] or f"Recipient of record, {what} {n.recipient_id}",
                "recipient_address_block": (person.lines() if person else [])
                or ["[mailing address not on file]"],
                "period_end_rule": extension_law(r.deadline_extension, day, "notices.correct_by"),
                "copy_to": copy_lines(copy, person),
            }
        )
        return context


def copy_lines(copy: Recipient | None, to: Recipient | None) -> list[str]:
    """The applicant a stormwater notice is copied to (contract 7.4: the landowner is served; the applicant
    may be copied), name then address; none when it is the landowner or not on file."""
    if copy is None or not (copy.name or "").strip():
        return []
    if to is not None and (to.name or "").strip().lower() == copy.name.strip().lower():
        return []
    return [f"{copy.name} (applicant)", *copy.lines()]


def stormwater_problems(
    listed: list[law.Item], r: Rules, day: dt.date, correction_days: int | None
) -> list[str]:
    """What keeps a stormwater notice from the mail besides its address: a kind of finding the rules give no
    remedial measures for, and no time schedule (contract 7.2: the days to correct are the officer's, given
    per notice; none is assumed)."""
    _measures, missing = remedial_measures(listed, r, day)
    if correction_days is None:
        missing.append(
            "the days to correct are not set: the officer gives them when mailing it (the law sets none)"
        )
    return missing


def period_end(rules: Rules):
    """General Construction Law § 25-a as the rules give it: a notice's period to correct that ends on a
    Saturday, Sunday or public holiday ends on the next business day (None: the rules have no calendar)."""
    if rules.business_days is None or rules.deadline_extension is None:
        return None
    calendar = BusinessCalendar(rules.business_days)
    return lambda day: extended_due(day, "notices.correct_by", calendar, rules.deadline_extension)[0]


# ------------------------------------------------------------------ the asset


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_SEWER,
    kinds={"duckdb", "html"},
    deps=[
        "discharge_violations",
        "statistic_violations",
        "discharges_without_permit",
        "obligations",
        "required_testing",
        "swppp_inspection_findings",
        "swppp_other_findings",
        "notices_mailed",
        "industrial_users",
        "user_permits",
        "sites",
    ],
    description="Notices of violation, one per recipient and month with a violation: for a sewer user its "
    "sample results over a limit, daily maximums and monthly averages over its permit's limits, days "
    "discharged without a permit, late reports and missed testing (the sewer use law's enforcement); for a "
    "construction site its missed inspections and other violations (the stormwater law of its "
    "jurisdiction). Each has one letter with a section per kind, and the table notice_items lists what it "
    "covers. A draft until its mailing is recorded in notices_mailed; a mailed notice's letter is written "
    "once, as the facts stood on its mailing day, and kept.",
)
def notices(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    paths = outputs(duckdb, settings)
    writer = LetterWriter(settings.data_path(), rules.all_rules())
    with warehouse(duckdb, as_of=settings.as_of_date()) as con:
        docs = Documents(con, writer, paths.dashboards, DOCUMENT_KIND.values(), settings.as_of_date())
        builder = NoticeBuilder(con, settings, rules, docs)
        built = builder.build()
        rows = built.rows()
        with transaction(con):
            replace_rows(con, "notices", pd.DataFrame(rows))
            replace_rows(con, "notice_items", pd.DataFrame(built.item_rows()))
            save_own_findings(con, "notices", built.own)
            record_not_judged(con, "notices", builder.undrafted())
            for n in built.notices:
                if n.issued_items or n.written and n.row["status"] == law.MAILED:
                    con.execute(
                        sql("delete_notice_items_issued"), {"document_id": n.row["notice_id"]}
                    ).fetchall()
                    if n.issued_items:
                        con.register("_issued", pd.DataFrame(n.issued_items))
                        con.execute(sql("insert_notice_items_issued")).fetchall()
                        con.unregister("_issued")
            docs.save(con)
            removed = docs.write()
        if paths.dashboards is None:
            context.log.warning("in-memory warehouse and no dashboards folder: notice letters not written")
        counts: dict[str, int] = defaultdict(int)
        for n in rows:
            counts[f"{n['kind']} {n['status']}"] += 1
        return table_result(
            con,
            "notices",
            letters_written=built.written() if paths.dashboards else 0,
            items=len(built.item_rows()),
            stale_letters_removed=removed,
            not_ready_to_send=sum(1 for n in rows if not n["ready_to_send"]),
            needs_review=sum(1 for n in rows if n["needs_review"]),
            own_site_findings=len(built.own),
            by_kind_and_status=MetadataValue.json(dict(sorted(counts.items()))),
        )


@table_check(
    asset=notices,
    description="One notice per kind, recipient and month with a violation; a mailed "
    "notice has its mailing day and last day to correct, a draft neither; every notice names its letter "
    "and counts its items.",
)
def check_validity_notices_status(duckdb: DuckDBResource) -> AssetCheckResult:
    rows, _ = check_rows(duckdb, sql("check_validity_notices_status"))
    names = (
        "without a letter",
        "mailed without dates",
        "drafts with dates",
        "duplicates",
        "without violations",
        "counts unlike their items",
    )
    found = {k: int(v) for k, v in zip(names, rows[0])}
    return AssetCheckResult(
        passed=not any(found.values()),
        severity=AssetCheckSeverity.ERROR,
        metadata={k.replace(" ", "_"): v for k, v in found.items()},
    )
