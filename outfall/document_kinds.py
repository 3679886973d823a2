"""Every kind of document Outfall writes, in one place: the registry of document kinds.

Each kind says where its letter goes (``area``: the folder ``letters/<area>/`` and the letterhead's
signatory), whose worklist it is on (``person``), its template, the asset that writes it and that asset's
own table, how its number and its file are made, how its mailing is recorded (``mailed_as``: the kind of a
``notices_mailed`` row; else ``recorded_by`` in words), what its period to act is (``days``), which batch
it is printed in and what makes it ready to mail. Everything that treats documents alike reads it: the
one helper every asset writes its letters through (``outfall.documents``: the table ``letters``, the
mailings, the files), the record (``documents_issued``), the PDFs, the worklist, the to-record workbook
and the ``notices_mailed`` folder's kinds. A new kind of letter is an entry here, its template, the asset
that fills it and its row in docs/letters.md (the recipe is there).

Pure data: no import of the project (the ingestion of ``notices_mailed`` reads it too).
"""

from __future__ import annotations

from dataclasses import dataclass

#: The people of the worklist (the same words as ``outfall.law.worklist``).
SUPERINTENDENT, STORMWATER_OFFICER = "superintendent", "stormwater_officer"

#: The batches a ready letter is printed into (``assets/printing.py``): the mailed notices in mailing order
#: (``letters/mailed_notices.pdf``), or the area's other letters (``letters/<area>/ready_to_mail.pdf``).
MAILED_NOTICES, READY_TO_MAIL = "mailed_notices", "ready_to_mail"

#: What the days of a ``notices_mailed`` row mean for a kind: ``most`` blank is the most the law allows
#: (and more than that is listed for review); ``given`` the person who mails it gives them, none is assumed
#: (blank is listed for review); ``none`` the document sets no period (days given are listed for review).
DAYS_MOST, DAYS_GIVEN, DAYS_NONE = "most", "given", "none"

#: A document's states (``letters.status``): a draft until its mailing is recorded, then mailed (a
#: record); withdrawn with a reason; a list for publication is never mailed.
DRAFT, MAILED, WITHDRAWN, FOR_PUBLICATION = "draft", "mailed", "withdrawn", "for_publication"


@dataclass(frozen=True)
class DocumentKind:
    name: str
    """letters.letter_kind and documents_issued.letter_kind."""
    area: str
    """sewer or stormwater: its folder (letters/<area>/) and which signatory of the letterhead signs it."""
    person: str
    """Whose worklist its drafts and its records to review are on."""
    template: str
    """Its template in templates/letters/ (a town's copy in <data>/letter_templates/ wins)."""
    asset: str
    """The asset that writes it."""
    table: str
    """That asset's own table of these documents (the worklist's source of a draft's line)."""
    title: str
    """What a line calls it ("the notice of violation")."""
    number: str
    """How its number is made: a format of the parts the asset gives."""
    file: str
    """Its file in letters/<area>/: a format of the parts the asset gives (number, recipient, ...)."""
    recorded_by: str
    """How its mailing is recorded, in words (docs/letters.md, the draft's own reason)."""
    ready: str
    """What makes it ready to mail besides the one address rule and the letterhead, in words."""
    mailed_as: str | None = None
    """The kind of a notices_mailed row that records its mailing (None: recorded otherwise, or never)."""
    days: str = DAYS_NONE
    """What the days of its mailing mean (DAYS_MOST, DAYS_GIVEN, DAYS_NONE)."""
    batch: str | None = READY_TO_MAIL
    """The batch it is printed in when ready (None: printed, in no batch to mail)."""
    mailed: bool = True
    """False for a document that is never mailed (a list for publication)."""
    draft_action: str | None = None
    """The worklist's line for a draft, a format of {month} ({of_month}: " of March 2026" or ""),
    {count} ("3 violations"), {recipient_id} and {by} (" by certified mail": how the rules of its
    jurisdiction have it served, or ""); None: its drafts have no line of their own."""

    @property
    def file_prefix(self) -> str:
        """What every file of the kind starts with (its drafts no longer written are removed by it)."""
        return self.file.split("{", 1)[0]

    def make_number(self, **parts: object) -> str:
        return self.number.format(**parts)

    def make_file(self, **parts: object) -> str:
        return self.file.format(**parts)

    @property
    def draft_reason(self) -> str:
        """The line at the top of a draft, and its reason for not being ready."""
        return f"a draft, not dated: {self.recorded_by} and run again"


_NOTICE_DRAFT = (
    "Mail the notice of violation for {month} ({count}){by} and record the mailing, or withdraw it"
)

KINDS: dict[str, DocumentKind] = {
    k.name: k
    for k in (
        DocumentKind(
            "sewer_notice",
            area="sewer",
            person=SUPERINTENDENT,
            template="sewer_notice.html",
            asset="notices",
            table="notices",
            title="notice",
            number="NOV-SE-{recipient_id}-{period}",
            file="notice_{recipient}_{period}.html",
            recorded_by="record the day it is mailed in the notices mailed file (kind sewer)",
            ready="the period to correct: blank gives the most the law allows",
            mailed_as="sewer",
            days=DAYS_MOST,
            batch=MAILED_NOTICES,
            draft_action=_NOTICE_DRAFT,
        ),
        DocumentKind(
            "stormwater_notice",
            area="stormwater",
            person=STORMWATER_OFFICER,
            template="stormwater_notice.html",
            asset="notices",
            table="notices",
            title="notice",
            number="NOV-ST-{recipient_id}-{period}",
            file="notice_{recipient}_{period}.html",
            recorded_by="record the day it is mailed in the notices mailed file (kind stormwater), with the "
            "days to correct the officer gives",
            ready="the days to correct, which the officer gives (the law sets none); the rules' remedial "
            "measures for each kind of violation it lists",
            mailed_as="stormwater",
            days=DAYS_GIVEN,
            batch=MAILED_NOTICES,
            draft_action=_NOTICE_DRAFT,
        ),
        DocumentKind(
            "grease_order",
            area="sewer",
            person=SUPERINTENDENT,
            template="sewer_grease_order.html",
            asset="grease_trap_status",
            table="grease_orders",
            title="grease trap pump-out order",
            number="GO-{trap}-{missed_due}",
            file="sewer_grease_order_{number}.html",
            recorded_by="record the day it is mailed in the notices mailed file (kind grease_order, the "
            "trap's id and the month of the missed pump-out), with the days to comply the administrator sets",
            ready="the days to comply, which the administrator sets (the law gives only a ceiling); the "
            "owner the grease traps file names (or the owner of the trap's parcel)",
            mailed_as="grease_order",
            days=DAYS_GIVEN,
            draft_action="Mail the grease trap pump-out order{of_month} and record the mailing, or "
            "withdraw it",
        ),
        DocumentKind(
            "stop_work_order",
            area="stormwater",
            person=STORMWATER_OFFICER,
            template="swppp_stop_work_order.html",
            asset="swppp_stop_work_orders",
            table="swppp_stop_work_orders",
            title="stop-work order",
            number="SWO-{jurisdiction}-{site}-{period}",
            file="swppp_{number}.html",
            recorded_by="the officer decides whether to serve it; record the day it is mailed in the notices "
            "mailed file (kind stop_work)",
            ready="mailed notices of violation whose last day to correct has passed, uncorrected",
            mailed_as="stop_work",
            days=DAYS_NONE,
            draft_action="Mail the stop-work order{of_month} and record the mailing, or withdraw it",
        ),
        DocumentKind(
            "illicit_notice_of_violation",
            area="stormwater",
            person=STORMWATER_OFFICER,
            template="illicit_notice_of_violation.html",
            asset="illicit_discharge_letters",
            table="illicit_discharge_letters",
            title="notice of violation",
            number="{case_id}-NOV",
            file="illicit_nov_{stem}.html",
            recorded_by="record the day it is mailed in the illicit discharges file (nov_on)",
            ready="which of the law's measures it requires, and the abatement deadline when it requires "
            "abatement",
            draft_action="Mail the notice of violation of illicit discharge case {recipient_id} and record "
            "the day it was mailed in the illicit discharges file",
        ),
        DocumentKind(
            "illicit_cost_notice",
            area="stormwater",
            person=STORMWATER_OFFICER,
            template="illicit_cost_notice.html",
            asset="illicit_discharge_letters",
            table="illicit_discharge_letters",
            title="cost notice",
            number="{case_id}-COST",
            file="illicit_cost_{stem}.html",
            recorded_by="record the day it is sent in the illicit discharges file (cost_notice_on)",
            ready="an abatement done by the Town, with its cost",
        ),
        DocumentKind(
            "snc_publication",
            area="sewer",
            person=SUPERINTENDENT,
            template="sewer_snc_publication.html",
            asset="snc_publication",
            table="snc_publication",
            title="public notice of significant noncompliance",
            number="SNC-{year}",
            file="sewer_snc_publication_{year}.html",
            recorded_by="it is published, never mailed",
            ready="the year has ended",
            batch=None,
            mailed=False,
        ),
    )
}


def kind(name: str) -> DocumentKind:
    return KINDS[name]


def of_asset(asset: str) -> tuple[DocumentKind, ...]:
    """The kinds one asset writes."""
    return tuple(k for k in KINDS.values() if k.asset == asset)


def writers() -> tuple[str, ...]:
    """Every asset that writes a kind of document, each once, in the registry's order."""
    return tuple(dict.fromkeys(k.asset for k in KINDS.values()))


def mailed_as() -> tuple[str, ...]:
    """The kinds of a notices_mailed row: one per kind of document its mailing records."""
    return tuple(k.mailed_as for k in KINDS.values() if k.mailed_as)


def by_mailed_as(mailed_kind: str) -> DocumentKind:
    return next(k for k in KINDS.values() if k.mailed_as == mailed_kind)
