"""Illicit discharges to the storm drain system (the town's illicit discharge law; contract 5.3), for
the stormwater management officer.

- ``illicit_discharge_deadlines``: per case, each obligation whose trigger exists (the
  responsible person's notice to the Town by the next business day and its written
  confirmation within three business days, the 15-day appeal and hearing, the abatement,
  the Town's 30-day notice of the cost, the 10-day protest), due, satisfied and status;
  the abatement is ``suspended`` while an appeal is pending and gone once one vacates the
  notice; the recipient's periods that end on a weekend or holiday end on the next business
  day (General Construction Law § 25-a, ``deadline_extension`` in the rules);
- ``illicit_discharge_charges``: per case with a cost of abatement, the 12 equal payments,
  18% a year simple interest from the 30th day after discovery on the unpaid principal,
  the balance and the largest criminal penalty ($350 a day);
- ``illicit_discharge_letters``: a notice of violation per case (the measures the law lets it
  require, the abatement deadline, the appeal) and, for an
  abatement done by the Town, the notice of its cost, written to
  ``<dashboards>/letters/stormwater/illicit_*.html``.

The arithmetic is ``outfall/law/illicit.py`` and ``outfall/law/calendar.py`` (business days
of General Construction Law § 24); every number and rule sentence comes from
the town's rules file (``illicit_discharges``, the version in effect on the day the
discharge was discovered, ``business_days`` and ``deadline_extension``). A case the rules do
not cover (discovered before the law took effect), a case whose appeal's outcome is given
without the day of the decision, and a payment that cannot be matched to a case's cost are
set aside in ``quarantine`` with the reason. All three tables are written in one transaction.
"""

import datetime as dt
import hashlib
import re
from collections import defaultdict
from decimal import Decimal
from typing import Any

import pandas as pd
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    AssetSpec,
    MaterializeResult,
    MetadataValue,
    multi_asset,
)
from dagster_duckdb import DuckDBResource

from assets.common import (
    GROUP_STORMWATER,
    WAREHOUSE_POOL,
    check_rows,
    letters_dir,
    outputs,
    table_check,
    warehouse,
)
from outfall.document_kinds import DRAFT, KINDS, MAILED, STORMWATER_OFFICER
from outfall.documents import Document, Documents, is_own, save_own_findings
from outfall.law.calendar import BusinessCalendar, extended_due, extension_law
from outfall.law.enforcement import days_late
from outfall.law.illicit import (
    IllicitCase,
    IllicitPayment,
    case_problem,
    extension_note,
    illicit_charges,
    illicit_deadlines,
)
from outfall.law.notices import Mailing
from outfall.letters import LetterWriter, Recipient, parse_address_block
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.rules.calendar import DeadlineExtension, ExtendedPeriod
from outfall.rules.dated import first_day_text
from outfall.rules.illicit import IllicitTerms
from outfall.rules.words import DESCRIBE
from outfall.set_aside import SetAside, replace_set_aside
from outfall.warehouse import count, preview_markdown, records, replace_rows, sql, transaction

JUDGED_BY = "illicit_discharge_deadlines"
MEASURES = range(1, 7)
# The three tables are written together from the same inputs (the asset cannot be split).
INPUTS = [
    "illicit_discharges",
    "illicit_payments",
    "parcels",
]  # the measures the illicit discharge law lets a notice of violation require, by their numbers

DEADLINE_COLUMNS = [
    "case_id",
    "obligation",
    "due",
    "satisfied_on",
    "status",
    "rule",
    "premises",
    "days_late",
    "as_of",
]
CHARGE_COLUMNS = [
    "case_id",
    "principal_usd",
    "installments",
    "installment_usd",
    "last_installment_usd",
    "interest_from",
    "interest_usd",
    "balance_usd",
    "max_penalty_usd",
    "paid_usd",
    "penalty_days",
    "as_of",
    "rule",
]
LETTER_COLUMNS = [
    "case_id",
    "kind",
    "letter_file",
    "dated",
    "draft",
    "ready_to_mail",
    "not_ready",
    "sha256",
    "html",
]


# ---------------------------------------------------------------------------- reading


def _money(value: Any) -> Decimal | None:
    """A DOUBLE from the input as the decimal it was written as (1234.56, not 1234.5599999)."""
    return (
        None
        if value is None or (isinstance(value, float) and value != value)
        else Decimal(repr(float(value)))
    )


def _case(row: dict) -> IllicitCase:
    return IllicitCase.model_validate({**row, "abatement_cost_usd": _money(row["abatement_cost_usd"])})


def parse_measures(text: Any, cited_as: str = "the illicit discharge law") -> tuple[list[int], str | None]:
    """The measures a notice requires, from '2, 3, 4', '(2)(4)', '2;4' or 'all':
    (numbers 1-6 in order, the problem in plain words or None)."""
    if text is None or not str(text).strip():
        return [], None
    raw = str(text).strip().lower()
    if raw in ("all", "1-6", "1 to 6"):
        return list(MEASURES), None
    tokens = [t for t in re.split(r"[\s,;/()&+]+|and", raw) if t]
    numbers = sorted({int(t) for t in tokens if t.isdigit() and int(t) in MEASURES})
    if len(numbers) != len({t for t in tokens}) or any(not t.isdigit() for t in tokens):
        return numbers, (
            f"the measures the notice requires ('{text}') are not all among the numbers 1 to 6 "
            f"of {cited_as}'s list"
        )
    return numbers, None


def _rate_text(rate: Decimal) -> str:
    return f"{(rate * 100).normalize():f}%"


# ---------------------------------------------------------------------------- letters


def _recipient(case: dict) -> Recipient:
    """Who the case's letters go to: the case's responsible party, else the owner of the parcel named as the
    premises; at the mailing address the case gives, else the parcel's, else the premises itself (its last
    line read as 'City, ST 12345')."""
    name = case.get("responsible_party") or case.get("parcel_owner")
    address = case.get("mailing_address") or case.get("parcel_address")
    if address is None and case.get("parcel_owner") is None:
        address = case.get("premises")
    return Recipient(name, *parse_address_block(address))


def _premises_text(case: dict) -> str:
    if case.get("parcel_address"):
        return f"{case['parcel_address']} (parcel {case['premises']})"
    return str(case["premises"])


ADDRESS_FIX = "the illicit discharges file: responsible_party and mailing_address"


def _period_end(
    ends: dt.date | None,
    period: ExtendedPeriod,
    calendar: BusinessCalendar,
    extensions: list[DeadlineExtension] | None,
) -> tuple[dt.date | None, str | None]:
    """(the day a period that would end on ``ends`` ends, the sentence saying General Construction
    Law § 25-a moved it, or None when it did not)."""
    if ends is None:
        return None, None
    due, moved_by = extended_due(ends, period, calendar, extensions)
    return due, (extension_note(ends, due, moved_by) if moved_by is not None else None)


def _nov_context(
    case: dict,
    terms: IllicitTerms,
    as_of: dt.date,
    issuer: str,
    calendar: BusinessCalendar,
    extensions: list[DeadlineExtension] | None,
) -> tuple[dict, list[str]]:
    issued = case["nov_on"] if case["nov_on"] is not None and case["nov_on"] <= as_of else None
    dated = issued or as_of
    abatement_by, abatement_note = _period_end(
        case["abatement_due"], "illicit_discharges.abatement", calendar, extensions
    )
    cited_as = terms.cited_as or "the illicit discharge law"
    measures, problem = parse_measures(case.get("nov_requires"), cited_as)
    recipient = _recipient(case)
    missing = []
    if problem:
        missing.append(problem)
    elif not measures:
        missing.append(f"the case does not say which of the six measures of {cited_as} the notice requires")
    if 4 in measures and case["abatement_due"] is None:
        missing.append(
            "the notice requires abatement or restoration but sets no deadline for it "
            f"({cited_as}: the notice shall set forth a deadline)"
        )
    context = {
        "case_id": case["case_id"],
        "issued_on": dated,
        "draft": issued is None,
        "issuer": issuer,
        "recipient_name": recipient.name or "[name of the person responsible not on file]",
        "recipient_address_block": recipient.lines() or ["[mailing address not on file]"],
        "premises_text": _premises_text(case),
        "discovered_on": case["discovered_on"],
        "description": case.get("description") or "",
        "hazardous": bool(case.get("hazardous")),
        "measures": measures,
        "abatement_due": abatement_by,
        "abatement_note": abatement_note,
        "appeal_days": terms.appeal_days,
        "appeal_filed_with": terms.appeal_filed_with,
        "period_end_rule": extension_law(extensions, dated, "illicit_discharges.appeal"),
        "hearing_days": terms.hearing_days,
        "abatement_after_decision_days": terms.abatement_after_decision_days,
        "installments": terms.installments,
        "penalty_per_day_usd": terms.penalty_per_day_usd,
        "imprisonment_max_days": terms.imprisonment_max_days,
        "law_name": terms.citation,
        "rule_appeal": terms.rules.appeal,
        "rule_abatement": terms.rules.abatement,
        "rule_charges": terms.rules.charges,
    }
    return context, missing


def _cost_context(
    case: dict,
    charges: Any,
    payments: list[IllicitPayment],
    terms: IllicitTerms,
    as_of: dt.date,
    issuer: str,
    extensions: list[DeadlineExtension] | None,
) -> tuple[dict, list[str]]:
    sent = (
        case["cost_notice_on"]
        if case["cost_notice_on"] is not None and case["cost_notice_on"] <= as_of
        else None
    )
    dated = sent or as_of
    # the account as it stood on the notice's own date (a notice sent earlier is shown as it was sent)
    charges = illicit_charges(_case(case), payments, terms, dated) or charges
    recipient = _recipient(case)
    missing: list[str] = []
    paid = [p for p in payments if p.paid_on <= dated]
    context = {
        "case_id": case["case_id"],
        "issued_on": dated,
        "draft": sent is None,
        "as_of": dated,
        "issuer": issuer,
        "recipient_name": recipient.name or "[name of the owner not on file]",
        "recipient_address_block": recipient.lines() or ["[mailing address not on file]"],
        "premises_text": _premises_text(case),
        "discovered_on": case["discovered_on"],
        "abated_on": case["abated_on"],
        "principal_usd": charges.principal_usd,
        "installments": charges.installments,
        "installment_usd": charges.installment_usd,
        "last_installment_usd": charges.last_installment_usd,
        "interest_from": charges.interest_from,
        "interest_start_days": terms.interest_start_days,
        "interest_rate": _rate_text(terms.interest_rate),
        "interest_usd": charges.interest_usd,
        "paid_usd": charges.paid_usd,
        "balance_usd": charges.balance_usd,
        "payments": [{"paid_on": p.paid_on, "amount_usd": p.amount_usd} for p in paid],
        "protest_days": terms.protest_days,
        "period_end_rule": extension_law(extensions, dated, "illicit_discharges.protest"),
        "law_name": terms.citation,
        "rule_cost_notice": terms.rules.cost_notice,
        "rule_protest": terms.rules.protest,
        "rule_charges": terms.rules.charges,
    }
    return context, missing


#: The kinds of document of the illicit discharge letters (outfall.document_kinds), by the table's kind.
LETTER_KINDS = {"notice_of_violation": "illicit_notice_of_violation", "cost_notice": "illicit_cost_notice"}


def _letter_row(docs: Documents, jurisdiction: str, case: dict, kind: str, context: dict, missing: list[str]):
    """One letter of a case through the one helper of documents: a draft until the case records the day it
    was mailed (nov_on, cost_notice_on), then a record; its row of illicit_discharge_letters."""
    spec = KINDS[LETTER_KINDS[kind]]
    file_name = spec.make_file(stem=_file_stem(case["case_id"]))
    mailed = not context["draft"]
    recipient = _recipient(case)
    written = docs.add(
        Document(
            spec.name,
            spec.make_number(case_id=case["case_id"]),
            file_name,
            case["case_id"],
            jurisdiction,
            context,
            recipient=recipient,
            fix=ADDRESS_FIX,
            status=MAILED if mailed else DRAFT,
            dated=context["issued_on"] if mailed else None,
            mailings=(Mailing(context["issued_on"]),) if mailed else (),
            missing=missing,
            found_on=case["discovered_on"],
        )
    )
    html = written.html
    if html is None and docs.dashboards is not None:  # on record: its file as it was issued
        path = docs.dashboards / written.letter
        html = path.read_text(encoding="utf-8") if path.is_file() else ""
    return {
        "case_id": case["case_id"],
        "kind": kind,
        "letter_file": file_name,
        "dated": context["issued_on"],
        "draft": context["draft"],
        "ready_to_mail": written.ready,
        "not_ready": "; ".join(written.reasons) or None,
        "sha256": hashlib.sha256((html or "").encode("utf-8")).hexdigest(),
        "html": html or "",
    }


def own_case(case: dict, rules: Rules) -> dict | None:
    """A case whose responsible party (or the owner of its parcel) is the town's own (contract 8.4): no notice
    of violation or cost notice, a line of the officer's worklist."""
    owner = next(
        (n for n in (case.get("responsible_party"), case.get("parcel_owner")) if is_own(n, rules.own_names)),
        None,
    )
    if owner is None:
        return None
    return {
        "person": STORMWATER_OFFICER,
        "kind": "illicit_discharge",
        "subject_id": case["case_id"],
        "subject_name": _premises_text(case),
        "owner": owner,
        "municipality": rules.name,
        "period": f"{case['discovered_on']:%Y-%m}",
        "item": "illicit_discharge",
        "ref": case["case_id"],
        "item_on": case["discovered_on"],
        "known_on": case["discovered_on"],
        "resolved_on": case["abated_on"],
        "description": f"stop and abate the illicit discharge at {_premises_text(case)}, discovered "
        f"{case['discovered_on']:%B} {case['discovered_on'].day}, {case['discovered_on'].year}"
        + (f": {case['description']}" if case.get("description") else ""),
        "rule": (
            rules.illicit_discharges.at(case["discovered_on"]).citation if rules.illicit_discharges else ""
        ),
        "law": "",
    }


def _file_stem(case_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", str(case_id)).strip("-")[:40] or "case"


# ---------------------------------------------------------------------------- the asset


def build_illicit(
    con, rules: Rules, as_of: dt.date, docs: Documents | None, own: list[dict] | None = None
) -> tuple[list[dict], list[dict], list[dict], list[SetAside], str | None]:
    """(deadlines, charges, letters, rows set aside, why nothing was judged or None); ``own`` gathers the
    cases at the town's own premises (no letter)."""
    versions = rules.illicit_discharges
    holidays = rules.business_days
    cases = records(con, "select_illicit_cases")
    payment_rows = records(con, "select_illicit_payments")
    if versions is None or holidays is None:
        missing = " and ".join(
            n for n, v in (("illicit_discharges", versions), ("business_days", holidays)) if v is None
        )
        return (
            [],
            [],
            [],
            [],
            (
                f"{rules.source.name} has no {missing} rules (the illicit discharge law; business "
                f"days of General Construction Law § 24): {len(cases)} case(s) not judged"
            ),
        )
    calendar = BusinessCalendar(holidays)
    issuer = f"{rules.official('stormwater_officer', fallback='Stormwater officer')}, {rules.name}"
    first = min(versions, key=lambda v: v.starts)
    deadlines: list[dict] = []
    charges: list[dict] = []
    letters: list[dict] = []
    aside: list[SetAside] = []
    judged: dict[str, tuple[dict, IllicitTerms]] = {}

    payments_of: dict[str, list[IllicitPayment]] = defaultdict(list)
    payment_source: dict[str, list[dict]] = defaultdict(list)
    for p in payment_rows:
        payment = IllicitPayment(
            case_id=p["case_id"], paid_on=p["paid_on"], amount_usd=_money(p["amount_usd"])
        )
        payments_of[p["case_id"]].append(payment)
        payment_source[p["case_id"]].append(p)

    for row in cases:
        case = _case(row)
        judging = _judge(row, case, versions, first, calendar, as_of, rules)
        if isinstance(judging, SetAside):
            aside.append(judging)
            continue
        terms, found = judging
        judged[case.case_id] = (row, terms)
        deadlines += [_deadline_row(d, case, as_of) for d in found]
        c = illicit_charges(case, payments_of.get(case.case_id, []), terms, as_of)
        if c is not None:
            charges.append(_charge_row(c, as_of))
        if docs is None:
            continue
        mine = own_case(row, rules)
        if mine is not None:  # the municipality does not serve itself (contract 8.4)
            if own is not None:
                own.append(mine)
            continue
        letters += _case_letters(docs, rules, row, case, terms, c, payments_of, as_of, issuer, calendar)
    aside += _payments_set_aside(payment_source, {r["case_id"] for r in cases}, judged)
    return deadlines, charges, letters, aside, None


def _judge(
    row: dict, case: Any, versions: Any, first: Any, calendar: BusinessCalendar, as_of: dt.date, rules: Rules
) -> SetAside | tuple[IllicitTerms, list]:
    """The terms of a case (the law of its day of discovery) and its deadlines; or, where it cannot be
    judged, the row set aside with the reason a clerk can act on."""
    terms = versions.get(case.discovered_on)
    if terms is None:
        when = "before" if case.discovered_on < first.starts else "on a day no version covers; "
        return SetAside(
            "illicit_discharges",
            row["source_file"],
            row["source_row"],
            f"case {case.case_id} was discovered on {case.discovered_on.isoformat()}, {when} the "
            f"rules of {first.citation} (in effect from {first_day_text(first)}): its "
            "deadlines and charges are not worked out; check the day of discovery",
            {"case_id": case.case_id, "discovered_on": case.discovered_on},
        )
    problem = case_problem(case)
    if problem is not None:
        return SetAside(
            "illicit_discharges",
            row["source_file"],
            row["source_row"],
            f"case {case.case_id}: {problem}",
            {"case_id": case.case_id},
        )
    try:
        return terms, illicit_deadlines(case, terms, calendar, as_of, rules.deadline_extension)
    except ValueError as exc:  # business days before the holiday rules begin
        return SetAside(
            "illicit_discharges",
            row["source_file"],
            row["source_row"],
            f"case {case.case_id}: {exc} Check the dates of discovery and of the notice to the Town",
            {"case_id": case.case_id},
        )


def _case_letters(
    docs: Documents,
    rules: Rules,
    row: dict,
    case: Any,
    terms: IllicitTerms,
    c: Any,
    payments_of: dict[str, list[IllicitPayment]],
    as_of: dt.date,
    issuer: str,
    calendar: BusinessCalendar,
) -> list[dict]:
    """A case's letters: its notice of violation (once sent, or while the discharge is not abated) and,
    the town having abated it, the notice of its cost."""
    letters = []
    abated = case.abated_on is not None and case.abated_on <= as_of
    if (case.nov_on is not None and case.nov_on <= as_of) or not abated:
        context, missing = _nov_context(row, terms, as_of, issuer, calendar, rules.deadline_extension)
        letters.append(_letter_row(docs, rules.jurisdiction, row, "notice_of_violation", context, missing))
    if c is not None and case.abated_by == "town" and abated:
        context, missing = _cost_context(
            row, c, payments_of.get(case.case_id, []), terms, as_of, issuer, rules.deadline_extension
        )
        letters.append(_letter_row(docs, rules.jurisdiction, row, "cost_notice", context, missing))
    return letters


def _deadline_row(d: Any, case: Any, as_of: dt.date) -> dict:
    return {
        "case_id": d.case_id,
        "obligation": d.obligation,
        "due": d.due,
        "satisfied_on": d.satisfied_on,
        "status": d.status,
        "rule": d.rule,
        "premises": case.premises,
        "days_late": days_late(d.due, d.satisfied_on, as_of) if d.due is not None else None,
        "as_of": as_of,
    }


def _charge_row(c: Any, as_of: dt.date) -> dict:
    return {
        "case_id": c.case_id,
        "principal_usd": c.principal_usd,
        "installments": c.installments,
        "installment_usd": c.installment_usd,
        "last_installment_usd": c.last_installment_usd,
        "interest_from": c.interest_from,
        "interest_usd": c.interest_usd,
        "balance_usd": c.balance_usd,
        "max_penalty_usd": c.max_penalty_usd,
        "paid_usd": c.paid_usd,
        "penalty_days": c.penalty_days,
        "as_of": as_of,
        "rule": c.rule,
    }


def _payments_set_aside(
    payment_source: dict[str, list[dict]], known: set[str], judged: dict[str, tuple[dict, IllicitTerms]]
) -> list[SetAside]:
    """The payments that count toward no cost of abatement on file, each with the reason why."""
    aside = []
    with_cost = {cid for cid, (row, _) in judged.items() if row["abatement_cost_usd"] is not None}
    for case_id, rows in sorted(payment_source.items()):
        if case_id in with_cost:
            continue
        if case_id not in known:
            why = (
                f"payment toward case {case_id}, which is not among the illicit discharge cases: check the "
                "case number"
            )
        elif case_id not in judged:
            why = f"payment toward case {case_id}, which could not be judged (see that case's row)"
        else:
            why = (
                f"payment toward case {case_id}, whose cost of abatement is not on file: enter the cost of "
                f"abatement in the case"
            )
        for p in rows:
            aside.append(
                SetAside(
                    "illicit_payments",
                    p["source_file"],
                    p["source_row"],
                    why,
                    {"case_id": case_id, "paid_on": p["paid_on"], "amount_usd": p["amount_usd"]},
                )
            )
    return aside


def _counts(rows: list[dict], *keys: str) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for r in rows:
        out[" / ".join(str(r[k]) for k in keys)] += 1
    return dict(sorted(out.items()))


@multi_asset(
    pool=WAREHOUSE_POOL,
    specs=[
        AssetSpec(
            "illicit_discharge_deadlines",
            group_name=GROUP_STORMWATER,
            kinds={"duckdb"},
            deps=INPUTS,
            description=DESCRIBE.illicit_discharge_deadlines(),
        ),
        AssetSpec(
            "illicit_discharge_charges",
            group_name=GROUP_STORMWATER,
            kinds={"duckdb"},
            deps=INPUTS,
            description=DESCRIBE.illicit_discharge_charges(),
        ),
        AssetSpec(
            "illicit_discharge_letters",
            group_name=GROUP_STORMWATER,
            kinds={"duckdb", "html"},
            deps=INPUTS,
            description=DESCRIBE.illicit_discharge_letters(),
        ),
    ],
)
def illicit_discharges_judged(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
):
    as_of = settings.as_of_date()
    folder = letters_dir(duckdb, settings, "stormwater")
    writer = LetterWriter(settings.data_path(), rules.all_rules())
    with warehouse(duckdb, as_of=as_of) as con:
        docs = Documents(con, writer, outputs(duckdb, settings).dashboards, LETTER_KINDS.values(), as_of)
        own: list[dict] = []
        deadlines, charges, letters, aside, skipped = build_illicit(con, rules.town_rules(), as_of, docs, own)
        if skipped:
            context.log.warning(skipped)
        with transaction(con):
            replace_rows(
                con, "illicit_discharge_deadlines", pd.DataFrame(deadlines, columns=DEADLINE_COLUMNS)
            )
            replace_rows(con, "illicit_discharge_charges", pd.DataFrame(charges, columns=CHARGE_COLUMNS))
            replace_rows(con, "illicit_discharge_letters", pd.DataFrame(letters, columns=LETTER_COLUMNS))
            set_aside = replace_set_aside(con, JUDGED_BY, aside)
            save_own_findings(con, JUDGED_BY, own)
            docs.save(con)
            removed = docs.write()
        common = {"as_of": str(as_of), "rows_set_aside": set_aside}
        if skipped:
            common["not_judged"] = skipped
        yield MaterializeResult(
            asset_key="illicit_discharge_deadlines",
            metadata={
                **common,
                "dagster/row_count": count(con, "illicit_discharge_deadlines"),
                "by_obligation_and_status": MetadataValue.json(_counts(deadlines, "obligation", "status")),
                "preview": MetadataValue.md(preview_markdown(con, "illicit_discharge_deadlines")),
            },
        )
        yield MaterializeResult(
            asset_key="illicit_discharge_charges",
            metadata={
                **common,
                "dagster/row_count": count(con, "illicit_discharge_charges"),
                "balance_usd": float(sum((c["balance_usd"] for c in charges), Decimal(0))),
                "preview": MetadataValue.md(preview_markdown(con, "illicit_discharge_charges")),
            },
        )
        yield MaterializeResult(
            asset_key="illicit_discharge_letters",
            metadata={
                "dagster/row_count": count(con, "illicit_discharge_letters"),
                "letters_dir": str(folder) if folder else "(none: in-memory warehouse)",
                "stale_letters_removed": removed,
                "files": MetadataValue.json(sorted(r["letter_file"] for r in letters)[:50]),
            },
        )


# ---------------------------------------------------------------------------- checks


@table_check(
    asset="illicit_discharge_charges",
    blocking=False,
    description="Every charge adds up: the equal installments plus the last make the principal, the balance "
    "is principal + interest - payments. Threshold: 0 rows that do not. Severity ERROR.",
)
def check_validity_illicit_balance(duckdb: DuckDBResource) -> AssetCheckResult:
    rows, total = check_rows(duckdb, sql("check_validity_illicit_balance"), table="illicit_discharge_charges")
    return AssetCheckResult(
        passed=not rows,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "rows": total,
            "bad_rows": len(rows),
            "cases": MetadataValue.json([r[0] for r in rows[:20]]),
            "threshold": "0 rows",
        },
    )


@table_check(
    asset="illicit_discharge_deadlines",
    blocking=False,
    description="Every deadline's status is met, late, open, overdue or suspended and agrees with its days: "
    "suspended only for an abatement while an appeal is pending (the one status without a due "
    "day), met and late satisfied in time and after it, open and overdue not satisfied, due on "
    "or after and before the day judged. Threshold: 0 rows that do not. Severity ERROR.",
)
def check_validity_illicit_status(duckdb: DuckDBResource) -> AssetCheckResult:
    rows, total = check_rows(
        duckdb, sql("check_validity_illicit_status"), table="illicit_discharge_deadlines"
    )
    return AssetCheckResult(
        passed=not rows,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "rows": total,
            "bad_rows": len(rows),
            "deadlines": MetadataValue.json([f"{c} {o}: {s}" for c, o, s in rows[:20]]),
            "threshold": "0 rows",
        },
    )
