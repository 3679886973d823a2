"""The input folder ``notices_mailed`` (contract sections 5.1 and 7.3): the clerk's record of each
notice of violation and each order put in the mail.

One row per mailing: kind (``sewer`` or ``stormwater`` for a monthly notice; ``grease_order`` for an
order directing compliance for a grease trap; ``stop_work`` for a stop-work order), the recipient (an
industrial user's user_id, a construction site's site_id, a grease trap's trap_id), the month the
document covers (``YYYY-MM``: a notice's month; a grease order's missed pump-out; a stop-work order's
month, as its number shows), the day it was mailed, the certified mail number and the days it gives to
correct.

- ``correct_within_days``, sewer: blank means the most the law allows (the sewer use law's
  enforcement: a period not to exceed the maximum in the rules' ``notices.sewer_correction``
  in effect on the mailing day, 30 days); more than that maximum is quarantined with the section.
  The blank stays blank in the table: the ``notices`` asset applies the maximum of the mailing day.
- ``correct_within_days``, stormwater: required, since the stormwater law (each
  jurisdiction's) leaves the time schedule of the remedial measures to the officer.
- ``correct_within_days``, grease_order: the days the order gives to comply; blank is the rules'
  days for an order (``grease_interceptors.order_compliance_days``); more than the enforcement
  section's maximum is quarantined as for a sewer notice. stop_work: a stop-work order stands until
  the Town confirms compliance, so a row giving days is quarantined.
- Several rows for one notice are all kept (the natural key includes the mailing day); the
  ``notices`` asset counts the earliest mailed_on, with that row's correct_within_days.
- ``withdrawn_reason``: a row with a reason and no mailing day withdraws a draft (it stays in the
  notices table with the reason, in no batch to mail, with no deadline). A row with neither a mailing
  day nor a reason is quarantined; one with both is a mailing (what was mailed stays mailed).

The maximum comes from the rules through ``Context.sewer_correction`` (``assets/ingest.py``
fills it from the town's rules file); nothing here restates the law's number.
"""

from __future__ import annotations

import datetime as dt

from outfall.ingest.datasets import BY_HAND, Column, Context, Dataset, Step, lower_in, register
from outfall.ingest.parse import lit

NOTICE_KINDS = ("sewer", "stormwater", "grease_order", "stop_work")
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


def _date_sql(day: dt.date | str | None) -> str:
    return "NULL" if day is None else f"DATE {lit(str(day))}"


def correction_steps(ctx: Context) -> tuple[Step, ...]:
    """The period to correct: more than the maximum in effect on the mailing day (sewer) or blank
    (stormwater) is quarantined, each with a reason that cites the law (the rules' citation)."""

    def in_effect(value, sql_type: str) -> str:
        whens = " ".join(
            f"WHEN mailed_on >= {_date_sql(start)}"
            + (f" AND mailed_on <= {_date_sql(end)}" if end is not None else "")
            + f" THEN {value(days, citation)}"
            for start, end, days, citation in ctx.sewer_correction
        )
        return f"(CASE {whens} END)" if whens else f"CAST(NULL AS {sql_type})"

    maximum = in_effect(lambda days, _: int(days), "INTEGER")
    cited = in_effect(lambda _, citation: lit(citation), "VARCHAR")
    law = lit(ctx.sewer_law or "the sewer use law")
    return (
        Step(
            reasons=(
                "CASE WHEN kind IN ('sewer', 'grease_order') AND correct_within_days IS NOT NULL "
                f"AND mailed_on IS NOT NULL AND {maximum} IS NULL THEN 'the rules give no maximum period to "
                f"correct a sewer violation (' || {law} || ') for a notice mailed on ' || "
                "strftime(mailed_on, '%Y-%m-%d') END",
                f"CASE WHEN kind IN ('sewer', 'grease_order') AND correct_within_days > {maximum} THEN "
                f"'correct_within_days ' || correct_within_days || ' is more than the ' || {maximum} || "
                f"' days allowed to correct a sewer violation (' || {cited} || '); leave it blank to give "
                "the most allowed' END",
                "CASE WHEN kind = 'stop_work' AND correct_within_days IS NOT NULL THEN 'a stop-work order "
                "sets no period to correct: it stands until the Town confirms the site complies; leave "
                "correct_within_days blank' END",
                "CASE WHEN kind = 'stormwater' AND correct_within_days IS NULL AND mailed_on IS NOT NULL "
                "THEN 'a stormwater notice needs correct_within_days: the stormwater law of the "
                "jurisdiction of the site leaves the time schedule of the remedial measures to the officer, "
                "so the days given in the notice must be recorded' END",
            )
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
            Column("kind", "enum", required=True, vocabulary=KIND_VOCAB, allowed=", ".join(NOTICE_KINDS)),
            Column(
                "recipient_id",
                required=True,
                doc="the user_id of an industrial user (`sewer`), the site_id of a construction site "
                "(`stormwater`, `stop_work`) or the trap_id of a grease trap (`grease_order`)",
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
                doc="days to correct from the mailing day: required for a stormwater notice (the law leaves "
                "them to the officer: a stormwater row mailed without them is set aside); for a sewer notice "
                "blank gives the most the law allows; for a grease order blank gives the rules' days for an "
                "order; for a stop-work order leave it blank (the order stands until compliance)",
            ),
            Column("withdrawn_reason", doc="with no mailed_on: withdraws the draft notice"),
        ),
        key=("kind", "recipient_id", "period", "mailed_on"),
        extensions=BY_HAND,
        answers=("mailed_on", "certified_mail_no", "correct_within_days", "withdrawn_reason"),
        finish=(*_period_steps(), *_mailed_or_withdrawn_steps()),
        context_steps=correction_steps,
        # a withdrawal (a withdrawn_reason, no mailed_on) is dated by no column: a fact on every day
        own_day="mailed_on",
        group="notices",
        description="Notices of violation and orders put in the mail (one row per mailing): the clerk's "
        "record that turns a drafted monthly notice, grease-trap order or stop-work order into a mailed one, "
        "dated, with its period to correct; or a draft withdrawn, with the reason.",
    )
)
