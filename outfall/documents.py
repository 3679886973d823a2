"""One path for every document: the helper every asset writes its letters through.

An asset builds each of its documents (a ``Document``: its kind from the registry
``outfall.document_kinds``, number, file, recipient, the template's values, whether it is a draft or
mailed and the mailings recorded) and hands it to ``Documents.add``. The helper applies, the same way to
every kind:

- **a record stays as written** (contract 6.2): a document on record in ``documents_issued`` is never
  written again; its row is as recorded;
- **the one address rule** (contract 6.5) and **an open address conflict** (contract 8.4): a letter whose
  recipient lacks a name, street, city, state or ZIP code, or whose ZIP code two input files give
  differently, is not ready, with the reason in words;
- **a draft is not ready** (it is not dated): its top says how its mailing is recorded;
- **every mailing is a record** (contract 8.3): each day a document is recorded as mailed is one mailing
  (``letter_mailings``: the first is the document's number, the next ``<number>/2``, ...), recorded in
  ``documents_issued`` ready or not; what the mailing's row lacks is listed for review (``letters.review``,
  a line of its person's worklist), never a reason to refuse the mailing. A run as of D reads no mailing
  dated after D (contract 8.1).

``Documents.save`` replaces the asset's kinds' rows of ``letters`` and ``letter_mailings`` in the asset's
transaction; ``Documents.write`` writes the letters (never one on record) and removes the drafts of its kinds
no longer written.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from outfall.atomic import each_folder_swept_once
from outfall.document_kinds import (
    DAYS_GIVEN,
    DAYS_MOST,
    DRAFT,
    KINDS,
    MAILED,
    WITHDRAWN,
    DocumentKind,
)
from outfall.law.notices import Mailing
from outfall.letters import LetterWriter, Recipient, address_problems, parse_address_block, write_letter
from outfall.warehouse import sql
from outfall.words import day_words

LETTER_COLUMNS = (
    "letter",
    "letter_kind",
    "recipient_id",
    "dated",
    "ready",
    "reason",
    "document_id",
    "recipient_name",
    "area",
    "mailed",
    "recorded",
    "status",
    "period",
    "mailed_as",
    "items",
    "found_on",
    "problems",
    "address_missing",
    "review",
    "certified_mail_no",
    "correct_within_days",
    "correct_by",
    "jurisdiction",
    "mailings",
)
MAILING_COLUMNS = (
    "letter",
    "letter_kind",
    "document_id",
    "mailing",
    "record_id",
    "mailed_on",
    "certified_mail_no",
    "correct_within_days",
)


def _records(con, name: str, params: Any = None) -> list[dict]:
    cursor = con.execute(sql(name), params or {})
    cols = [d[0] for d in cursor.description]
    return [dict(zip(cols, row)) for row in cursor.fetchall()]


def record_id(number: str, mailing: int) -> str:
    """The record of a document's n-th mailing: its number, then ``<number>/2``, ``<number>/3`` ..."""
    return number if mailing <= 1 else f"{number}/{mailing}"


def mailing_days(mailings: Iterable[Mailing]) -> list[Mailing]:
    """The mailings of one document, one per day (the earliest first; on one day, the lowest certified
    number), withdrawals aside."""
    by_day: dict[dt.date, Mailing] = {}
    for m in sorted(
        (m for m in mailings if m.mailed_on is not None),
        key=lambda m: (m.mailed_on, m.certified_mail_no or "", m.correct_within_days or 0),
    ):
        by_day.setdefault(m.mailed_on, m)
    return list(by_day.values())


# ------------------------------------------------------------------ what a mailing's row lacks


@dataclass(frozen=True)
class Period:
    """The days a mailed document gives to act, as its mailing's row records them; what to review (naming
    the column); and what keeps its letter from being ready (a period the law does not allow)."""

    days: int | None
    review: tuple[str, ...] = ()
    problem: str | None = None


def period_given(kind: DocumentKind, given: int | None, most: int | None = None, law: str = "") -> Period:
    """The days a mailing gives (contract 8.3: the mailing is a record whatever its row lacks; what it lacks
    or gets wrong is listed for review, naming the column). ``most``: the most days the law allows on the
    mailing day (None: the rules state none); ``law``: its citation. Days more than the most are the
    mailing's as recorded (the recipient was given them), listed for review, and the letter stating them is
    not ready."""
    cited = f" ({law})" if law else ""
    if kind.days == DAYS_MOST and given is None:
        if most is None:
            return Period(None, ("correct_within_days is blank and the rules state no most days allowed",))
        return Period(int(most))
    if kind.days in (DAYS_MOST, DAYS_GIVEN):
        if given is None:
            return Period(None, (f"correct_within_days is blank: record the days the {kind.title} gave",))
        if most is not None and int(given) > int(most):
            return Period(
                int(given),
                (f"correct_within_days {given} is more than the {most} days the law allows{cited}",),
                f"the {given} days recorded to act are more than the {most} days the law allows{cited}",
            )
        return Period(int(given))
    if given is not None:
        return Period(
            None,
            (f"correct_within_days {given} is recorded, but a {kind.title} sets no period: leave it blank",),
        )
    return Period(None)


def later_mailings_review(kind: DocumentKind, number: str, mailings: list[Mailing]) -> list[str]:
    """A document recorded as mailed on more than one day: each later day is a mailing of its own, the
    period counting from the first (contract 8.3)."""
    if len(mailings) < 2:
        return []
    first = mailings[0]
    later = "; ".join(
        f"{day_words(m.mailed_on)} (recorded as {record_id(number, n)}"
        + (f", certified mail no. {m.certified_mail_no}" if m.certified_mail_no else "")
        + (f", {m.correct_within_days} days" if m.correct_within_days is not None else "")
        + ")"
        for n, m in enumerate(mailings[1:], start=2)
    )
    return [
        f"recorded as mailed again on {later}: each mailing is on record; its period counts from the first "
        f"mailing, {day_words(first.mailed_on)}"
    ]


# ------------------------------------------------------------------ address conflicts


def _zip5(value: object) -> str | None:
    text = str(value or "").strip()
    return text[:5] if len(text) >= 5 and text[:5].isdigit() else None


def name_key(value: object) -> str:
    """A name as compared across files: lower case, commas and periods as blanks, blanks collapsed."""
    return " ".join(str(value or "").lower().replace(",", " ").replace(".", " ").split())


def address_conflicts(con) -> list[dict]:
    """Recipients named the same in two input files with different ZIP codes (the first five digits)."""
    seen: dict[str, list[tuple[str, str, str, str, dt.date | None]]] = {}
    for r in _records(con, "select_recipient_addresses"):
        zip_code = _zip5(r["zip"]) or _zip5(parse_address_block(r["address_text"])[3])
        key = name_key(r["name"])
        if zip_code and key:
            seen.setdefault(key, []).append(
                (r["source"], str(r["recipient_id"] or ""), zip_code, str(r["name"]), r["known_on"])
            )
    out = []
    for entries in seen.values():
        first = entries[0]
        for other in entries[1:]:
            if other[2] != first[2]:
                known = [d for d in (first[4], other[4]) if d is not None]
                out.append(
                    {
                        "recipient_name": first[3],
                        "recipient_id": first[1] or other[1],
                        "source": first[0],
                        "zip": first[2],
                        "other_source": other[0],
                        "other_zip": other[2],
                        "detail": f"{first[3]}: ZIP code {first[2]} in {first[0]}, {other[2]} in {other[0]}; "
                        f"correct the wrong one",
                        "known_on": max(known) if known else None,
                    }
                )
    return out


@dataclass(frozen=True)
class Held:
    """An open address conflict of one recipient: why a letter to it is held, from the day both files gave
    their ZIP codes (None: always)."""

    reason: str
    known_on: dt.date | None

    def holds(self, day: dt.date | None) -> bool:
        """Whether it holds a letter dated ``day`` (a draft: None): a letter states the facts of its own
        date (contract 8.1), so a conflict arising later holds no letter dated before it."""
        return self.known_on is None or day is None or self.known_on <= day


def conflict_reasons(conflicts: list[dict]) -> dict[str, Held]:
    """name key -> why a letter to that name is held (contract 8.4: until the conflict is resolved)."""
    out: dict[str, list[dict]] = defaultdict(list)
    for c in conflicts:
        out[name_key(c["recipient_name"])].append(c)
    held = {}
    for key, found in out.items():
        pairs = "; ".join(
            f"{c['source']} gives ZIP code {c['zip']}, {c['other_source']} {c['other_zip']}" for c in found
        )
        days = [c["known_on"] for c in found]
        held[key] = Held(
            f"the recipient's ZIP code differs between two input files ({pairs}): confirm it and correct the "
            "wrong one before mailing",
            None if any(d is None for d in days) else min(days),
        )
    return held


# ------------------------------------------------------------------ the documents of one asset


@dataclass
class Document:
    """One document as an asset built it this run."""

    kind: str
    number: str
    file: str  # its file name in letters/<area>/
    recipient_id: str | None
    jurisdiction: str
    context: dict
    recipient: Recipient | None = None  # who it goes to; None with ``addressed`` False for a publication
    fix: str = ""  # where its recipient's address is completed
    addressed: bool = True  # False: no address rule (a list for publication)
    status: str = DRAFT
    dated: dt.date | None = None
    period: str | None = None
    mailings: tuple[Mailing, ...] = ()  # each mailing recorded (mailed documents)
    correct_within_days: int | None = None
    correct_by: dt.date | None = None
    missing: list[str] = field(default_factory=list)  # what else keeps it from the mail
    review: list[str] = field(default_factory=list)  # what its mailing's record lacks or gets wrong
    items: int = 1
    found_on: dt.date | None = None
    withdrawn_reason: str | None = None
    template: str | None = None
    recipient_name: str | None = None

    @property
    def spec(self) -> DocumentKind:
        return KINDS[self.kind]

    @property
    def letter(self) -> str:
        return f"letters/{self.spec.area}/{self.file}"


@dataclass(frozen=True)
class Written:
    """What became of a document: ready to mail now or not (a draft never is) and why."""

    letter: str
    ready: bool
    reasons: tuple[str, ...]
    problems: str | None  # the reasons besides its being a draft or withdrawn
    address_missing: str | None  # what its recipient's address lacks (None once mailed: a record)
    html: str | None  # None: on record, not written again
    record: dict | None
    review: str | None = None  # a mailed document: what its mailing's record lacks or gets wrong

    @property
    def ready_apart_from_draft(self) -> bool:
        return self.problems is None


class Documents:
    """The documents of some kinds written by one asset in one run."""

    def __init__(
        self, con, writer: LetterWriter, dashboards: Path | None, kinds: Iterable[str], as_of: dt.date
    ):
        self.writer, self.dashboards, self.as_of = writer, dashboards, as_of
        self.kinds = tuple(KINDS[k] for k in kinds)
        names = [k.name for k in self.kinds]
        self.records = {
            r["document_id"]: r for r in _records(con, "select_documents_of_kinds", {"kinds": names})
        }
        self.held = conflict_reasons(address_conflicts(con))
        self.areas = {k.area for k in self.kinds}
        self.on_record_files = {
            area: {
                Path(f).name
                for (f,) in con.execute(sql("select_recorded_letter_files"), {"area": area}).fetchall()
                if f
            }
            for area in self.areas
        }
        self._mailed: dict[tuple[str, str, str], list[Mailing]] | None = None
        self._con = con
        self.rows: list[dict] = []
        self.mailing_rows: list[dict] = []
        self.files: dict[str, str] = {}

    # -- reading

    def on_record(self, number: str) -> dict | None:
        """The document's record (its first mailing), if it is on record."""
        return self.records.get(number)

    def mailings(self, mailed_as: str, recipient_id: str, period: str) -> list[Mailing]:
        """The rows of notices_mailed of one document (withdrawals too), none dated after the day judged."""
        if self._mailed is None:
            self._mailed = defaultdict(list)
            for m in _records(self._con, "select_notices_mailed", {"as_of": self.as_of}):
                self._mailed[(m["kind"], m["recipient_id"], m["period"])].append(
                    Mailing(
                        m["mailed_on"],
                        m["correct_within_days"],
                        m["certified_mail_no"],
                        m["withdrawn_reason"],
                    )
                )
        return list(self._mailed.get((mailed_as, recipient_id, period), []))

    def mailed_keys(self, mailed_as: str) -> list[tuple[str, str]]:
        """(recipient_id, period) of every notices_mailed row of one kind, none dated after the day judged."""
        self.mailings(mailed_as, "", "")
        assert self._mailed is not None
        return sorted({(r, p) for (k, r, p) in self._mailed if k == mailed_as})

    # -- writing

    def add(self, doc: Document) -> Written:
        """Write ``doc`` (or take it as on record), and list its row and its mailings' rows."""
        record = self.records.get(doc.number)
        days = mailing_days(doc.mailings)
        review = [*doc.review, *later_mailings_review(doc.spec, doc.number, days)]
        if record is not None:
            written = self._as_recorded(doc, record, review)
            status, dated = MAILED, record["issued_on"]
        else:
            written = self._render(doc, review)
            status, dated = doc.status, doc.dated
            self.files[doc.letter] = written.html
        self.rows.append(self._letter_row(doc, written, record, status, dated, days))
        if status == MAILED:
            self._add_mailings(doc, days)
        return written

    def _as_recorded(self, doc: Document, record: dict, review: list[str]) -> Written:
        """A document on record: not written again, ready as it was recorded."""
        return Written(
            doc.letter,
            bool(record["ready"]),
            tuple(filter(None, [record["not_ready_reason"]])),
            record["not_ready_reason"],
            None,
            None,
            record,
            "; ".join(review) or None,
        )

    def _address_problems(self, doc: Document) -> list[str]:
        """What the recipient's address lacks, and why it is held, for an addressed document."""
        if not doc.addressed:
            return []
        address = address_problems(doc.recipient, doc.fix)
        held = self.held.get(name_key(doc.recipient.name)) if doc.recipient is not None else None
        if held is not None and held.holds(doc.dated):
            address.append(held.reason)
        return address

    def _render(self, doc: Document, review: list[str]) -> Written:
        """A document not on record, written from its template with what keeps it from being ready."""
        spec = doc.spec
        address = self._address_problems(doc)
        head = []
        if doc.status == DRAFT:
            head = [spec.draft_reason]
        elif doc.status == WITHDRAWN:
            head = [f"this draft was withdrawn ({doc.withdrawn_reason})"]
        rendered = self.writer.render(
            doc.template or spec.template,
            doc.context,
            jurisdiction=doc.jurisdiction,
            area=spec.area,
            missing=[*head, *doc.missing, *address],
        )
        reasons = tuple(rendered.not_ready)
        others = [r for r in reasons if r not in head]
        addr = [r for r in address if r in reasons and not r.startswith("the recipient's ZIP code differs")]
        return Written(
            doc.letter,
            not reasons,
            reasons,
            "; ".join(others) or None,
            # a mailed letter is a record: nothing to complete (on this run as on the next)
            ("; ".join(addr) or None) if doc.status != MAILED else None,
            rendered.html,
            None,
            ("; ".join(review) or None) if doc.status == MAILED else None,
        )

    @staticmethod
    def _letter_row(
        doc: Document,
        written: Written,
        record: dict | None,
        status: str,
        dated: dt.date | None,
        days: list[Mailing],
    ) -> dict:
        """The document's row of ``letters``."""
        spec = doc.spec
        return {
            "letter": doc.letter,
            "letter_kind": spec.name,
            "recipient_id": doc.recipient_id,
            "dated": dated,
            "ready": written.ready,
            "reason": "; ".join(written.reasons) or None,
            "document_id": doc.number,
            "recipient_name": doc.recipient_name
            if doc.recipient_name is not None
            else (doc.recipient.name if doc.recipient is not None else None),
            "area": spec.area,
            "mailed": status == MAILED,
            "recorded": record is not None,
            "status": status,
            "period": doc.period,
            "mailed_as": spec.mailed_as,
            "items": doc.items,
            "found_on": doc.found_on,
            "problems": written.problems,
            "address_missing": written.address_missing,
            "review": written.review,
            "certified_mail_no": days[0].certified_mail_no if days else None,
            "correct_within_days": doc.correct_within_days,
            "correct_by": doc.correct_by,
            "jurisdiction": doc.jurisdiction,
            "mailings": len(days),
        }

    def _add_mailings(self, doc: Document, days: list[Mailing]) -> None:
        """A mailed document's rows of ``letter_mailings``, one a mailing."""
        for n, m in enumerate(days, start=1):
            self.mailing_rows.append(
                {
                    "letter": doc.letter,
                    "letter_kind": doc.spec.name,
                    "document_id": doc.number,
                    "mailing": n,
                    "record_id": record_id(doc.number, n),
                    "mailed_on": m.mailed_on,
                    "certified_mail_no": m.certified_mail_no,
                    "correct_within_days": m.correct_within_days,
                }
            )

    def save(self, con) -> None:
        """Replace this asset's kinds' rows of ``letters`` and ``letter_mailings`` (in its transaction)."""
        names = [k.name for k in self.kinds]
        for table, columns, rows, delete in (
            ("letters", LETTER_COLUMNS, self.rows, "delete_letters_of_kinds"),
            ("letter_mailings", MAILING_COLUMNS, self.mailing_rows, "delete_letter_mailings_of_kinds"),
        ):
            con.execute(sql(delete), {"kinds": names}).fetchall()
            if rows:
                con.register("_document_rows", pd.DataFrame(rows, columns=list(columns)))
                try:
                    con.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM _document_rows').fetchall()
                finally:
                    con.unregister("_document_rows")

    def write(self) -> int:
        """Write this run's letters (none on record) and remove the files of its kinds no longer written;
        returns the files removed."""
        if self.dashboards is None:
            return 0
        with each_folder_swept_once():
            for rel, html_text in sorted(self.files.items()):
                target = self.dashboards / rel
                # a record's file is never written again, whatever day this run judges by (a draft of a day
                # before its mailing shares its file name): contract 6.2
                if target.name in self.on_record_files.get(target.parent.name, ()):
                    continue
                write_letter(target.parent, target.name, html_text)
        keep = {Path(r["letter"]).name for r in self.rows}
        removed = 0
        for spec in self.kinds:
            folder = self.dashboards / "letters" / spec.area
            if not folder.is_dir():
                continue
            for stale in folder.glob(f"{spec.file_prefix}*.html"):
                if stale.name not in keep and stale.name not in self.on_record_files[spec.area]:
                    stale.unlink()
                    removed += 1
        return removed


OWN_COLUMNS = (
    "source",
    "person",
    "kind",
    "subject_id",
    "subject_name",
    "owner",
    "municipality",
    "period",
    "item",
    "ref",
    "item_on",
    "known_on",
    "resolved_on",
    "description",
    "rule",
    "law",
    "finding",
    "closed_by",
)


def save_own_findings(con, source: str, rows: list[dict]) -> None:
    """Replace the findings at the municipality's own sites that the asset ``source`` found (in its
    transaction): no document is drafted for them, each is a line of its person's worklist (contract 8.4)."""
    con.execute(sql("delete_own_findings_of_source"), {"source": source}).fetchall()
    if rows:
        frame = pd.DataFrame([{**r, "source": source} for r in rows], columns=list(OWN_COLUMNS))
        con.register("_own_rows", frame)
        try:
            con.execute('INSERT INTO "own_findings" BY NAME SELECT * FROM _own_rows').fetchall()
        finally:
            con.unregister("_own_rows")


def is_own(name: object, own_names: Iterable[str] | None) -> bool:
    """Whether ``name`` is one of the municipality's own names (the rules' ``own_names``), compared as
    ``name_key`` compares names: the municipality does not serve itself (contract 8.4)."""
    key = name_key(name)
    return bool(key) and any(key == name_key(n) for n in own_names or ())
