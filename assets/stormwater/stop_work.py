"""Stop-work orders of construction sites (contract 7.3): each rests only on mailed notices of violation
past their last day to correct; a draft until its mailing is recorded, then written once and kept."""

import datetime as dt
import hashlib
import re
from collections import defaultdict
from pathlib import Path

from assets.notices import INPUT_FILE, copy_lines, notice_number
from outfall.document_kinds import KINDS
from outfall.documents import Document, Documents, period_given
from outfall.law import notices as notice_law, swppp as law
from outfall.law.notices import Mailing
from outfall.rules import Rules

ORDER_COLUMNS = [
    "order_id",
    "issued_on",
    "jurisdiction",
    "site_id",
    "recipient_name",
    "recipient_address",
    "site_description",
    "notice_ids",
    "violations",
    "basis",
    "status",
    "letter_file",
    "rule",
    "ready_to_mail",
    "not_ready_reason",
    "period",
    "certified_mail_no",
]
STOP_WORK = KINDS["stop_work_order"]


def stop_work_basis(items: list[dict], day: dt.date) -> list[dict]:
    """The violations a stop-work order dated ``day`` may rest on (contract 7.3): each listed in a mailed
    notice (issued on or before ``day``) whose last day to correct is before ``day``, and not corrected by
    then. Never a draft's."""
    return [
        n
        for n in items
        if n["issued_on"] is not None
        and n["issued_on"] <= day
        and n["remedial_due_by"] is not None
        and n["remedial_due_by"] < day
        and (n["satisfied_on"] is None or n["satisfied_on"] > day)
    ]


def stop_work_period(basis: list[dict]) -> str:
    """An order's period, which numbers it and keeps its number between runs: the month of the first day
    it was warranted (the day after the earliest last day to correct among its violations)."""
    first = min(n["remedial_due_by"] for n in basis) + dt.timedelta(days=1)
    return notice_law.period_of(first)


class StopWorkOrders:
    """The stop-work orders of every site: mailed ones (as of their mailing day) and the draft of what is
    warranted now and not yet in a mailed order. A recorded order's letter is never written again."""

    def __init__(self, sites: dict, rules: dict[str, Rules], people: dict, docs: Documents, folder, as_of):
        self.sites, self.rules, self.people, self.docs = sites, rules, people, docs
        self.folder, self.as_of = folder, as_of
        self.mailed: dict[str, list[dict]] = defaultdict(list)
        kind = STOP_WORK.mailed_as or ""
        for site_id, period in docs.mailed_keys(kind):
            for m in docs.mailings(kind, site_id, period):
                self.mailed[site_id].append(
                    {
                        "period": period,
                        "mailed_on": m.mailed_on,
                        "certified_mail_no": m.certified_mail_no,
                        "correct_within_days": m.correct_within_days,
                        "withdrawn_reason": m.withdrawn_reason,
                    }
                )
        self.records = {number: r for number, r in docs.records.items() if r["letter_kind"] == STOP_WORK.name}

    def build(self, notices: list[dict]) -> tuple[list[dict], list[dict]]:
        per_site: dict[str, list[dict]] = defaultdict(list)
        for n in notices:
            if n["stop_work_order"]:
                per_site[n["site_id"]].append(n)
        orders, letters = [], []
        for site_id in sorted(
            set(per_site) | set(self.mailed) | {r["recipient_id"] for r in self.records.values()}
        ):
            for order, letter in self.of_site(site_id, per_site.get(site_id, [])):
                orders.append(order)
                if letter is not None:
                    letters.append(letter)
        return orders, letters

    def of_site(self, site_id: str, items: list[dict]) -> list[tuple[dict, dict | None]]:
        site = self.sites.get(site_id)
        if site is None:
            return []
        out, covered, numbers = [], set(), set()
        mailings = sorted(
            (m for m in self.mailed.get(site_id, []) if m["mailed_on"] is not None),
            key=lambda m: (m["mailed_on"], m["certified_mail_no"] or ""),
        )
        for m in mailings:
            basis = [n for n in stop_work_basis(items, m["mailed_on"]) if id(n) not in covered]
            if not basis or stop_work_period(basis) != m["period"] or m["period"] in numbers:
                continue  # a mailing that matches no order as the data stood that day
            covered |= {id(n) for n in basis}
            numbers.add(m["period"])
            out.append(self.order(site, basis, m["period"], m))
        for _number, record in sorted(self.records.items()):
            if record["recipient_id"] == site_id and record["period"] not in numbers:
                numbers.add(record["period"])
                out.append(self.recorded(site, record))
        basis = [n for n in stop_work_basis(items, self.as_of) if id(n) not in covered]
        if basis and stop_work_period(basis) not in numbers:
            period = stop_work_period(basis)
            withdrawn = [
                m["withdrawn_reason"]
                for m in self.mailed.get(site_id, [])
                if m["mailed_on"] is None and m["period"] == period and m["withdrawn_reason"]
            ]
            out.append(self.order(site, basis, period, None, "; ".join(withdrawn) or None))
        return out

    def order_id(self, site: dict, period: str) -> str:
        site_part = re.sub(r"[^A-Za-z0-9]+", "-", site["site_id"]).strip("-")[:24] or "site"
        return STOP_WORK.make_number(
            jurisdiction=site["jurisdiction"][:1].upper(), site=site_part, period=period
        )

    def recorded(self, site: dict, record: dict) -> tuple[dict, dict | None]:
        """A mailed order on record: its row as recorded; its letter, the file on record, never rewritten."""
        person = self.people.get(("stormwater", site["site_id"]))
        recipient = person["recipient"] if person else None
        file_name = Path(record["html_file"] or record["file"]).name
        order = dict.fromkeys(ORDER_COLUMNS)
        order.update(
            order_id=record["document_id"],
            issued_on=record["issued_on"],
            jurisdiction=site["jurisdiction"],
            site_id=site["site_id"],
            recipient_name=recipient.name if recipient else None,
            status="mailed",
            letter_file=file_name,
            period=record["period"],
            certified_mail_no=record["certified_mail_no"],
            ready_to_mail=record["ready"],
            not_ready_reason=record["not_ready_reason"],
            rule=self.rules[site["jurisdiction"]].swppp.stop_work_order.at(record["issued_on"]).citation,
        )
        mailings = tuple(
            Mailing(m["mailed_on"], m["correct_within_days"], m["certified_mail_no"])
            for m in self.mailed.get(site["site_id"], [])
            if m["period"] == record["period"]
        ) or (Mailing(record["issued_on"], None, record["certified_mail_no"]),)
        self.docs.add(
            Document(
                STOP_WORK.name,
                record["document_id"],
                file_name,
                site["site_id"],
                site["jurisdiction"],
                {},
                recipient=recipient,
                status="mailed",
                period=record["period"],
                mailings=mailings,
                items=0,
                recipient_name=order["recipient_name"],
            )
        )
        return order, self._kept_letter(order)

    def _kept_letter(self, order: dict) -> dict | None:
        path = self.folder / order["letter_file"] if self.folder is not None else None
        if path is None or not path.is_file():
            return None
        return _letter_row(order, path.read_text(encoding="utf-8"))

    def order(
        self, site: dict, basis: list[dict], period: str, mailing: dict | None, withdrawn: str | None = None
    ) -> tuple[dict, dict | None]:
        """The order of ``period`` resting on ``basis``: mailed (dated its mailing day) or a draft."""
        site_id = site["site_id"]
        day = mailing["mailed_on"] if mailing is not None else self.as_of
        r = self.rules[site["jurisdiction"]]
        spec = r.swppp.stop_work_order.at(day)  # an order is issued by the rules of its day
        order_id = self.order_id(site, period)
        numbers = sorted({notice_number("stormwater", site_id, n["notice_period"]) for n in basis})
        violations = _violation_lines(basis, law.finding_labels(r, day), site_id)
        person = self.people.get(("stormwater", site_id))
        recipient = person["recipient"] if person else None
        status = "mailed" if mailing is not None else ("withdrawn" if withdrawn else "draft")
        file_name = STOP_WORK.make_file(number=order_id)
        order = {
            "order_id": order_id,
            "issued_on": mailing["mailed_on"] if mailing is not None else None,
            "jurisdiction": site["jurisdiction"],
            "site_id": site_id,
            "recipient_name": recipient.name if recipient else None,
            "recipient_address": "; ".join(recipient.lines()) if recipient else None,
            "site_description": basis[0]["site_description"],
            "notice_ids": ", ".join(numbers),
            "violations": len(basis),
            "basis": "; ".join(violations),
            "status": status,
            "letter_file": file_name,
            "rule": spec.citation,
            "period": period,
            "certified_mail_no": mailing["certified_mail_no"] if mailing is not None else None,
        }
        context_ = {
            **order,
            "draft": mailing is None,
            "issuer": basis[0]["issuer"],
            "authority": r.name,
            "law_name": r.swppp.notice_of_violation.at(day).law_name,
            "recipient_name": order["recipient_name"] or f"Landowner of record, site {site_id}",
            "recipient_address_block": (recipient.lines() if recipient else None)
            or ["[mailing address not on file]"],
            "copy_to": copy_lines(person.get("applicant") if person else None, recipient),
            "violations": violations,
            "section_text": r.swppp.section_text.at(day).stop_work_order or "",
            "site_id_text": f"site {site_id}",
            "as_of": day,
        }
        letter = self.docs.add(self._document(order, context_, recipient, mailing, withdrawn))
        order["ready_to_mail"] = letter.ready
        order["not_ready_reason"] = "; ".join(letter.reasons) or None
        if letter.html is None:  # mailed and on record: its row as the data show it, its file as written
            return order, self._kept_letter(order)
        return order, _letter_row(order, letter.html)

    def _document(
        self, order: dict, context_: dict, recipient, mailing: dict | None, withdrawn: str | None
    ) -> Document:
        """The order's letter as a document of the record: its mailings, the period it gives, its status."""
        period = order["period"]
        mailings = tuple(
            Mailing(m["mailed_on"], m["correct_within_days"], m["certified_mail_no"])
            for m in self.mailed.get(order["site_id"], [])
            if m["period"] == period
        )
        given = period_given(STOP_WORK, mailing["correct_within_days"]) if mailing is not None else None
        return Document(
            STOP_WORK.name,
            order["order_id"],
            order["letter_file"],
            order["site_id"],
            order["jurisdiction"],
            context_,
            recipient=recipient,
            fix=INPUT_FILE["stormwater"],
            status=order["status"],
            dated=order["issued_on"],
            period=period,
            mailings=mailings,
            review=list(given.review) if given is not None else [],
            items=order["violations"],
            found_on=order["issued_on"] or dt.date.fromisoformat(f"{period}-01"),
            withdrawn_reason=withdrawn,
            recipient_name=order["recipient_name"],
        )


def _violation_lines(basis: list[dict], labels: dict, site_id: str) -> list[str]:
    """Each violation an order rests on: its notice, the day that was mailed, its last day to correct."""
    return [
        f"{labels.get(n['finding'], n['finding'])}, due by {law._d(n['due_by'])}: notice "
        f"{notice_number('stormwater', site_id, n['notice_period'])} mailed {law._d(n['issued_on'])}, "
        f"to be corrected by {law._d(n['remedial_due_by'])}, not corrected"
        for n in sorted(basis, key=lambda n: (n["due_by"], n["finding"]))
    ]


def _letter_row(order: dict, html_text: str) -> dict:
    """An order's row of swppp_letters (written by the helper of documents, not by the asset)."""
    return {
        "file_name": order["letter_file"],
        "kind": "stop_work_order",
        "ref_id": order["order_id"],
        "site_id": order["site_id"],
        "jurisdiction": order["jurisdiction"],
        "issued_on": order["issued_on"],
        "sha256": hashlib.sha256(html_text.encode("utf-8")).hexdigest(),
        "html": html_text,
        "write": False,
    }
