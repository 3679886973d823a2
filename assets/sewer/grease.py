"""``grease_trap_status`` (+ ``grease_orders`` and their letters): the pump-out status of every
grease trap and the orders directing compliance."""

import datetime as dt
from collections import defaultdict
from typing import Any

import duckdb
from dagster import AssetExecutionContext, MaterializeResult, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, WAREHOUSE_POOL, outputs, table_result, warehouse
from assets.run import replace_judged
from assets.sewer.dated import Dated, _date_text, enforcement_rules, obligation_period_end
from outfall.document_kinds import KINDS, SUPERINTENDENT
from outfall.documents import Document, Documents, Written, is_own, period_given, save_own_findings
from outfall.law import enforcement as law, notices as notice_law
from outfall.law.calendar import extension_law
from outfall.letters import LetterWriter, Recipient, safe_file_name
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.warehouse import records, transaction


def grease_recipient(t: dict) -> Recipient | None:
    """The owner an order goes to, as the inputs name it (contract 8.4): the trap's owner_name at its
    owner's mailing address, else the owner of the trap's parcel (select_grease_traps); None when neither
    names one (the order is then not ready). Never a name no input gives."""
    if not str(t.get("owner_name") or "").strip():
        return None
    return Recipient(
        t["owner_name"], t.get("owner_address"), t.get("owner_city"), t.get("owner_state"), t.get("owner_zip")
    )


OWNER_FIX = (
    "the grease traps file: owner_name and the owner's mailing address, or the trap's parcel_id with the "
    "parcel's owner in the parcels file"
)
GREASE_ORDER = KINDS["grease_order"]
NO_COMPLY_DAYS = (
    "the days to comply are not recorded: the administrator sets them (the law gives only the most "
    "allowed); record them in the notices mailed file (correct_within_days)"
)


def _trap_on(settings_rows: list[dict], day: dt.date) -> dict | None:
    """The frequency set for a trap in effect on ``day`` (the latest set on or before it)."""
    current = [t for t in settings_rows if t["set_on"] <= day]
    return max(current, key=lambda x: x["set_on"]) if current else None


def grease_order(
    trap_id: str,
    t: dict,
    pumps: list[dict],
    day: dt.date,
    g: Any,
    comply_days: int | None,
    end: Any,
    mailed: bool = False,
) -> dict | None:
    """The order directing compliance for a trap overdue on ``day`` (None when it is not): ``mailed``, dated
    ``day``, with the days the administrator gave (``comply_days``; its comply-by day moved off a weekend or
    holiday by ``end``), or a draft with no date and no days. Numbered by the trap and the missed pump-out's
    due day, so the draft keeps its number between runs. The law's "not to exceed" is a ceiling, never a
    default (contract 8.4): a draft says the administrator sets the days."""
    interval = int(t["pumpout_interval_days"])
    seen = [p for p in pumps if p["pumped_on"] <= day]
    st = law.pumpout_status(t["set_on"], interval, [p["pumped_on"] for p in seen], day)
    if st.status != "overdue":
        return None
    recipient = grease_recipient(t)
    comply_by = None
    if mailed and comply_days is not None:
        comply_by = law.add_days(day, comply_days)
        comply_by = end(comply_by) if end is not None else comply_by
    by = _comply_words(comply_by, comply_days, mailed, g)
    return {
        "order_id": GREASE_ORDER.make_number(
            trap=safe_file_name(trap_id), missed_due=f"{st.next_due:%Y%m%d}"
        ),
        **_trap_fields(trap_id, t),
        "last_pumped_on": st.last_pumped_on,
        "missed_due": st.next_due,
        "days_overdue": st.days_overdue,
        "issued_on": day if mailed else None,
        "comply_by": comply_by,
        "directive": (
            f"You are directed to have grease trap {trap_id} cleaned and pumped by a scavenger service {by}, "
            f"to keep it cleaned and pumped at least once every {interval} days, and to make the receipted "
            f"invoices of the scavenger service available to the administrator."
        ),
        "letter_file": None,
        "rule": f"{g.citation}; {g.citation_order_compliance}",
        "recipient_name": recipient.name if recipient is not None else None,
        "mailing_address": ("; ".join(recipient.lines()) or None) if recipient is not None else None,
        "recipient": recipient,
        "ready_to_mail": None,
        "not_ready_reason": None,
        "status": "mailed" if mailed else "draft",
        "period": notice_law.period_of(st.next_due),
        "certified_mail_no": None,
        "correct_within_days": comply_days if mailed else None,
        "owner_from": t.get("owner_from"),
        "review": None,
        "set_on": t["set_on"],
        "mailings": (),
    }


def _comply_words(comply_by: dt.date | None, comply_days: int | None, mailed: bool, g: Any) -> str:
    """By when the order directs the work: its comply-by day, else the period the administrator sets."""
    if comply_by is not None:
        return f"by {_date_text(comply_by)}, {comply_days} days from the date of this order"
    if mailed:
        return "within the period the administrator sets"
    return (
        f"within the number of days the administrator sets in this order (not more than "
        f"{g.order_compliance_days})"
    )


def _trap_fields(trap_id: str, t: dict) -> dict:
    """What names a trap in its status row and its order: the trap, its user or parcel, the establishment,
    its address (the trap's, else its user's) and the pump-out interval set for it."""
    return {
        "trap_id": trap_id,
        "user_id": t["user_id"],
        "parcel_id": t["parcel_id"],
        "establishment": t["establishment"],
        "address": t["address"] or t["user_address"],
        "pumpout_interval_days": int(t["pumpout_interval_days"]),
    }


def _grease_status_row(trap_id: str, t: dict, pumps: list[dict], as_of: dt.date, g: Any) -> dict:
    interval = int(t["pumpout_interval_days"])
    seen = [p for p in pumps if p["pumped_on"] <= as_of]
    st = law.pumpout_status(t["set_on"], interval, [p["pumped_on"] for p in seen], as_of)
    return {
        **_trap_fields(trap_id, t),
        "set_on": t["set_on"],
        "pumpouts": len(seen),
        "last_pumped_on": st.last_pumped_on,
        "next_due": st.next_due,
        "status": st.status,
        "days_overdue": st.days_overdue,
        "late_pumpouts": st.late_pumpouts,
        "pumpouts_without_invoice": sum(1 for p in seen if not p["invoice_no"]),
        "as_of": as_of,
        "rule": g.citation,
        "owner_name": t.get("owner_name"),
        "own_owner": None,
    }


def build_grease(
    con: duckdb.DuckDBPyConnection, on: Dated, as_of: dt.date, docs: Documents | None = None
) -> tuple[list[dict], list[dict]]:
    """Pump-out status of every grease trap, and its orders directing compliance (contracts 7.3, 8.3, 8.4):
    each mailed order as the facts stood on its mailing day (notices_mailed, kind grease_order), whatever its
    mailing's row lacks (listed for review), and a draft for a trap overdue now whose order is not mailed,
    by the rules in effect on the order's day. A trap whose owner is the town's own (the rules' own_names)
    gets no order: its status row names the owner (the worklist's line)."""
    g = on.get("grease_interceptors", as_of, "grease interceptors")
    if g is None or on.get("notices.sewer_correction", as_of, "grease interceptors") is None:
        return [], []
    docs = docs if docs is not None else Documents(con, None, None, (GREASE_ORDER.name,), as_of)
    traps: dict[str, list[dict]] = defaultdict(list)
    for t in records(con, "select_grease_traps"):
        traps[t["trap_id"]].append(t)
    pumps: dict[str, list[dict]] = defaultdict(list)
    for p in records(con, "select_pumpouts"):
        pumps[p["trap_id"]].append(p)
    own = on.rules.own_names
    orders = _mailed_orders(on, docs, traps, pumps)
    numbers = {(o["trap_id"], o["period"]) for o in orders}
    status_rows = []
    for trap_id, settings_rows in sorted(traps.items()):
        t = _trap_on(settings_rows, as_of)
        if t is None:
            continue
        row = _grease_status_row(trap_id, t, pumps.get(trap_id, []), as_of, g)
        status_rows.append(row)
        o = grease_order(trap_id, t, pumps.get(trap_id, []), as_of, g, None, None)
        if o is None or (trap_id, o["period"]) in numbers:
            continue
        if is_own(t.get("owner_name"), own):  # the municipality does not serve itself (contract 8.4)
            row["own_owner"] = t["owner_name"]
            continue
        withdrawn = notice_law.withdrawal(docs.mailings(GREASE_ORDER.mailed_as or "", trap_id, o["period"]))
        o["status"] = "withdrawn" if withdrawn else "draft"
        o["not_ready_reason"] = f"this draft was withdrawn ({withdrawn})" if withdrawn else None
        o["withdrawn_reason"] = withdrawn
        orders.append(o)
    return status_rows, orders


def _mailed_orders(
    on: Dated, docs: Documents, traps: dict[str, list[dict]], pumps: dict[str, list[dict]]
) -> list[dict]:
    """Each mailed order as the facts stood on its mailing day, by the rules of that day, with what its
    mailing's row lacks listed for review."""
    end = obligation_period_end(on.rules, "comply_by", "grease_orders")
    orders = []
    for trap_id, period in docs.mailed_keys(GREASE_ORDER.mailed_as or ""):
        found = docs.mailings(GREASE_ORDER.mailed_as or "", trap_id, period)
        mailing = notice_law.earliest_mailing(found)
        t = _trap_on(traps.get(trap_id, []), mailing.mailed_on) if mailing is not None else None
        if t is None or mailing is None:
            continue
        terms = on.get("grease_interceptors", mailing.mailed_on, "grease interceptor order")
        if terms is None:
            continue
        given = period_given(
            GREASE_ORDER,
            mailing.correct_within_days,
            terms.order_compliance_days,
            terms.citation_order_compliance,
        )
        o = grease_order(trap_id, t, pumps.get(trap_id, []), mailing.mailed_on, terms, given.days, end, True)
        if o is not None and o["period"] == period:
            o["certified_mail_no"] = mailing.certified_mail_no
            o["mailings"] = tuple(found)
            o["review"] = "; ".join(given.review) or None
            o["period_problem"] = given.problem
            orders.append(o)
    return orders


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_SEWER,
    kinds={"duckdb", "html"},
    deps=["grease_traps", "pumpouts", "industrial_users", "parcels", "notices_mailed"],
    description="Grease interceptors (the sewer use law): the cleaning and pumping frequency the "
    "administrator set for each establishment, the last pump-out, the next one due and whether it is "
    "overdue as of --as-of; an order directing compliance (with a printable letter) for every overdue trap, "
    "addressed to the owner the inputs name, written to grease_orders: a draft, numbered by the trap and "
    "the missed pump-out, until its mailing is recorded in notices_mailed (kind grease_order) with the days "
    "the administrator gives, then dated that day with its comply-by day, written once and kept as a "
    "record.",
)
def grease_trap_status(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    on = Dated(enforcement_rules(rules))
    as_of = settings.as_of_date()
    writer = LetterWriter(settings.data_path(), rules.all_rules())
    with warehouse(duckdb, as_of=as_of) as con:
        docs = Documents(con, writer, outputs(duckdb, settings).dashboards, (GREASE_ORDER.name,), as_of)
        status_rows, orders = build_grease(con, on, as_of, docs)
        for o in orders:
            o["letter_file"] = GREASE_ORDER.make_file(number=o["order_id"])
            recipient = o.pop("recipient")
            set_on = o.pop("set_on")
            mailings = o.pop("mailings")
            withdrawn = o.pop("withdrawn_reason", None)
            period_problem = o.pop("period_problem", None)
            record = docs.on_record(o["order_id"])
            if record is not None:  # on record: its letter stands as written, its mailing as recorded
                o.update(
                    issued_on=record["issued_on"],
                    comply_by=record["correct_by"] or o["comply_by"],
                    correct_within_days=record["correct_within_days"]
                    if record["correct_within_days"] is not None
                    else o["correct_within_days"],
                    certified_mail_no=record["certified_mail_no"],
                    status="mailed",
                )
            letter = _grease_letter(
                docs,
                rules.jurisdiction(),
                on,
                o,
                recipient,
                set_on,
                as_of,
                mailings,
                withdrawn,
                period_problem,
            )
            o["ready_to_mail"] = letter.ready
            o["not_ready_reason"] = "; ".join(letter.reasons) or None
        with transaction(con):
            replace_judged(con, on.missing, grease_trap_status=status_rows, grease_orders=orders)
            save_own_findings(con, "grease_trap_status", own_traps(status_rows, on.rules))
            docs.save(con)
            removed = docs.write()
        return table_result(
            con,
            "grease_trap_status",
            as_of=str(as_of),
            orders=len(orders),
            overdue=sum(1 for s in status_rows if s["status"] == "overdue"),
            own_premises=sum(1 for s in status_rows if s["own_owner"]),
            stale_orders_removed=removed,
        )


def own_traps(status_rows: list[dict], rules: Rules) -> list[dict]:
    """The overdue traps whose owner is the town's own (contract 8.4): no order, a line of the
    superintendent's worklist each."""
    return [
        {
            "person": SUPERINTENDENT,
            "kind": "grease_trap",
            "subject_id": r["trap_id"],
            "subject_name": r["establishment"],
            "owner": r["own_owner"],
            "municipality": rules.name,
            "period": notice_law.period_of(r["next_due"]),
            "item": "pumpout",
            "ref": r["next_due"].isoformat(),
            "item_on": r["next_due"],
            "known_on": r["next_due"] + dt.timedelta(days=1),
            "resolved_on": None,
            "description": f"have grease trap {r['trap_id']} cleaned and pumped: the pump-out due "
            f"{_date_text(r['next_due'])} was not made (every {r['pumpout_interval_days']} days)",
            "rule": r["rule"],
            "law": rules.law("sewer_use", r["next_due"]).short if rules.law_names else "",
        }
        for r in status_rows
        if r["own_owner"] and r["next_due"] is not None
    ]


def _grease_letter(
    docs: Documents,
    town: str,
    on: Dated,
    o: dict,
    recipient: Recipient | None,
    set_on: dt.date,
    as_of: dt.date,
    mailings: tuple,
    withdrawn: str | None,
    period_problem: str | None = None,
) -> Written:
    """The order's letter through the one helper of documents, worded by the rules of its day (its mailing
    day; a draft's: the day judged)."""
    day = o["issued_on"] or as_of
    enforcement = on.get("sewer_enforcement", day, "grease interceptor order")
    penalty = on.get("penalties.sewer_use", day, "grease interceptor order")
    last = (
        f"The last pump-out on file was on {_date_text(o['last_pumped_on'])}."
        if o["last_pumped_on"]
        else "No pump-out is on file since the frequency was set."
    )
    mailed = o["status"] == "mailed"
    missing = [NO_COMPLY_DAYS] if mailed and o["comply_by"] is None else []
    if period_problem:
        missing.append(period_problem)
    review = [o["review"]] if o.get("review") else []
    return docs.add(
        Document(
            GREASE_ORDER.name,
            o["order_id"],
            o["letter_file"],
            o["trap_id"],
            town,
            {
                **o,
                "draft": not mailed,
                "as_of": day,
                "issuer": enforcement.issuer if enforcement else "",
                "recipient_name": recipient.name if recipient else "[owner not on file]",
                "address_block": (recipient.lines() if recipient else []) or ["[address not on file]"],
                "set_on": set_on,
                "last_pumped_text": last,
                "section_text": (enforcement.section_text.grease or "") if enforcement else "",
                "penalty_text": (enforcement.section_text.penalties or "") if enforcement else "",
                "penalty_rule": penalty.citation if penalty else "",
                "period_end_rule": extension_law(on.rules.deadline_extension, day, "grease_orders.comply_by"),
            },
            recipient=recipient,
            fix=OWNER_FIX,
            status=o["status"],
            dated=o["issued_on"],
            period=o["period"],
            mailings=mailings,
            correct_within_days=o["correct_within_days"],
            correct_by=o["comply_by"],
            missing=missing,
            review=review,
            found_on=o["missed_due"] + dt.timedelta(days=1),
            withdrawn_reason=withdrawn,
            recipient_name=o["recipient_name"],
        )
    )
