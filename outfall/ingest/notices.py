"""The input folder ``notices_mailed`` (contract sections 5.1, 7.3 and 8.3): the clerk's record of each
notice of violation and each order put in the mail.

One row per mailing: kind (the kind of document, as the registry of document kinds names its mailing:
``outfall.document_kinds``, ``mailed_as``; the table of kinds in docs/letters.md), the recipient, the month
the document covers (``YYYY-MM``: a notice's month; a grease order's missed pump-out; a stop-work order's
month, as its number shows), the day it was mailed, the certified mail number and the days it gives to
correct.

- Every row with a mailing day is a mailing, and a record (contract 8.3), whatever else it lacks or gets
  wrong: the days to correct blank where the person mailing it gives them, more than the law allows, or
  given for an order that sets none. The asset of the document applies the days (``outfall.documents``)
  and lists what the row lacks for review on its person's worklist, naming the column. A mailing day that
  is not a date is quarantined (the column's kind).
- Several rows for one document are all kept (the natural key includes the mailing day); the earliest
  mailing dates the document and starts its period, and each later day is a mailing of its own.
- ``withdrawn_reason``: a row with a reason and no mailing day withdraws a draft (it stays in the
  notices table with the reason, in no batch to mail, with no deadline). A row with neither a mailing
  day nor a reason is quarantined; one with both is a mailing (what was mailed stays mailed).
"""

from __future__ import annotations

from outfall.document_kinds import mailed_as
from outfall.ingest.datasets import BY_HAND, Column, Dataset, Step, lower_in, register
from outfall.ingest.parse import lit

NOTICE_KINDS = mailed_as()
KIND_VOCAB = lower_in("notice_kind", NOTICE_KINDS)

_PERIOD = r"^\s*(\d{4})-(\d{1,2})\s*$"


def _period_steps() -> tuple[Step, ...]:
    """``period`` as ``YYYY-MM`` ('2026-3' is '2026-03'); anything else is quarantined."""
    month = f"TRY_CAST(regexp_extract(period, {lit(_PERIOD)}, 2) AS INTEGER)"
    ok = f"(regexp_matches(period, {lit(_PERIOD)}) AND {month} BETWEEN 1 AND 12)"
    return (
        Step(
            columns=(
                (
                    "period",
                    f"CASE WHEN {ok} THEN regexp_extract(period, {lit(_PERIOD)}, 1) || '-' || "
                    f"lpad(CAST({month} AS VARCHAR), 2, '0') ELSE period END",
                ),
            ),
            reasons=(
                f"CASE WHEN period IS NOT NULL AND NOT {ok} THEN 'period ''' || period || ''' is not a month "
                f"written YYYY-MM (for example 2026-03)' END",
            ),
        ),
    )


def _mailed_or_withdrawn_steps() -> tuple[Step, ...]:
    """A row records a mailing (mailed_on) or withdraws a draft (withdrawn_reason): one of the two."""
    return (
        Step(
            reasons=(
                "CASE WHEN mailed_on IS NULL AND nullif(trim(withdrawn_reason), '') IS NULL THEN 'mailed_on "
                "is blank: give the day the notice was mailed, or a withdrawn_reason to withdraw the draft' "
                "END",
            )
        ),
    )


NOTICES_MAILED = register(
    Dataset(
        "notices_mailed",
        (
            Column(
                "kind",
                "enum",
                required=True,
                vocabulary=KIND_VOCAB,
                allowed="the kinds of document recorded by their mailing: " + ", ".join(NOTICE_KINDS),
                doc="the kind of document mailed, as the table of kinds of docs/letters.md names its mailing "
                "(column *mailed as*)",
            ),
            Column(
                "recipient_id",
                required=True,
                doc="the recipient as the document's kind names it (docs/letters.md): an industrial user's "
                "user_id, a construction site's site_id, a grease trap's trap_id",
            ),
            Column(
                "period",
                required=True,
                example="2026-03",
                doc="`YYYY-MM`: the month the notice covers; for an order, the month its number ends with",
            ),
            Column("mailed_on", "date", doc="required unless withdrawn_reason is given"),
            Column("certified_mail_no"),
            Column(
                "correct_within_days",
                "integer",
                nonnegative=True,
                doc="days to correct from the mailing day: required for a stormwater notice or a grease "
                "order (the law leaves the days to the person who mails it: a mailing recorded without "
                "them is a record all the same, listed for review); for a sewer notice blank gives the most "
                "the law allows; a stop-work order sets none (docs/letters.md says what each kind needs)",
            ),
            Column("withdrawn_reason", doc="with no mailed_on: withdraws the draft notice"),
        ),
        key=("kind", "recipient_id", "period", "mailed_on"),
        extensions=BY_HAND,
        answers=("mailed_on", "certified_mail_no", "correct_within_days", "withdrawn_reason"),
        finish=(*_period_steps(), *_mailed_or_withdrawn_steps()),
        # a withdrawal (a withdrawn_reason, no mailed_on) is dated by no column: a fact on every day
        own_day="mailed_on",
        group="notices",
        description="Notices of violation and orders put in the mail (one row per mailing): the clerk's "
        "record that turns a drafted monthly notice, grease-trap order or stop-work order into a mailed one, "
        "dated, with its period to correct; or a draft withdrawn, with the reason.",
    )
)
