"""The items of the notices of violation: every violation the data show now (``collect_items``), each
with the law it rests on, and the items each recorded letter lists, as written."""

from collections import defaultdict
from dataclasses import replace

import duckdb

from outfall.law import notices as law
from outfall.rules import Rules, RulesError
from outfall.warehouse import records


def _item(kind: str, item: str, row: dict, sub: str, skip: tuple[str, ...] = ()) -> law.Item:
    core = ("recipient_id", "ref", "rule", "law", "month_day", "known_on", "resolved_on", "item", *skip)
    facts = tuple((k, v) for k, v in row.items() if k not in core)
    return law.Item(
        kind,
        row["recipient_id"],
        item,
        str(row["ref"]),
        row["rule"] or "",
        row["month_day"],
        row["known_on"],
        row["resolved_on"],
        facts,
        sub,
        row.get("law") or "",
    )


#: The law each kind of notice rests on (law_names), for its items that name no other.
KIND_LAW = {"sewer": "sewer_use", "stormwater": "stormwater"}


def with_law(i: law.Item, rules: Rules) -> law.Item:
    """The item with the law it rests on (contract 7.1): its own (a report's duty names it), else its kind's
    law as the rules name it on the item's day."""
    if i.law:
        return i
    try:
        return replace(i, law=rules.law(KIND_LAW[i.kind], i.month_day).short)
    except RulesError:
        return i


def violation_counts(items: list[law.Item]) -> list[str]:
    """'2 violations of <the law's name>': each law's violations counted apart (contract 7.1)."""
    return [
        f"{n} violation{'s' if n != 1 else ''} of {name or 'the law'}" for name, n in law.count_by_law(items)
    ]


def _no_permit_items(rows: list[dict]) -> list[law.Item]:
    """One item per user and local month in which it discharged without a permit (contract 6.5: a
    sample, or a flow reading above 0): the month's days, samples and readings as its facts."""
    by_month: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in rows:
        by_month[(r["recipient_id"], law.period_of(r["day"]))].append(r)
    out = []
    for (user, _period), days in sorted(by_month.items()):
        first, last = days[0], days[-1]
        facts = (
            ("days", tuple(d["day"] for d in days)),
            ("samples_by_day", tuple(int(d["samples"] or 0) for d in days)),
            ("readings_by_day", tuple(int(d["flow_readings"] or 0) for d in days)),
            ("finding", last["finding"]),
            ("permit_no", last["permit_no"]),
            ("permit_effective", last["permit_effective"]),
            ("permit_expires", last["permit_expires"]),
        )
        month_start = first["day"].replace(day=1)
        out.append(
            law.Item(
                "sewer",
                user,
                "no_permit",
                month_start.isoformat(),
                first["rule"] or "",
                first["day"],
                first["day"],
                None,
                facts,
                "",
            )
        )
    return out


def collect_items(con: duckdb.DuckDBPyConnection, tz: str) -> list[law.Item]:
    """Every violation the data show now, as notice items (contract 6.1)."""
    items = [
        _item("sewer", "sample", r, f"{r['parameter']}|{r['limit_type']}")
        for r in records(con, "select_notice_sample_items", {"tz": tz})
    ]
    items += [
        _item("sewer", "excursion", r, f"{r['parameter']}|{r['limit_type']}")
        for r in records(con, "select_notice_excursion_items", {"tz": tz})
    ]
    items += [
        _item("sewer", r["item"], r, str(r["parameter"]))
        for r in records(con, "select_notice_statistic_items")
    ]
    items += _no_permit_items(records(con, "select_notice_no_permit_days"))
    items += [
        _item("sewer", "late_report", r, f"{r['obligation']}|{r['reference']}")
        for r in records(con, "select_notice_report_items")
    ]
    items += [
        _item("sewer", "missed_testing", r, f"{r['parameter']}|{r['sample_type'] or ''}")
        for r in records(con, "select_notice_testing_items")
    ]
    items += [
        _item("stormwater", "inspection", r, str(r["trigger_date"]))
        for r in records(con, "select_notice_inspection_items")
    ]
    items += [
        _item("stormwater", "other", r, f"{r['subject'] or ''}|{r['trigger_date']}")
        for r in records(con, "select_notice_other_items")
    ]
    return items


def item_parameter(i: law.Item) -> str | None:
    """The parameter of an item (a recorded item keeps it at the head of its sub)."""
    found = i.fact("parameter")
    if (
        found is None
        and i.item in ("sample", "excursion", "daily_max", "monthly_avg", "missed_testing")
        and i.sub
    ):
        found = i.sub.split("|")[0]
    return None if found is None else str(found)


def issued_items_by_document(con) -> dict[str, list[law.Item]]:
    """The items each recorded letter lists, by document: as written."""
    out: dict[str, list[law.Item]] = defaultdict(list)
    for r in records(con, "select_notice_items_issued"):
        facts = (("description", r["description"]),)
        out[r["document_id"]].append(
            law.Item(
                r["kind"],
                r["recipient_id"],
                r["item"],
                r["ref"],
                r["rule"] or "",
                r["item_on"],
                r["known_on"],
                r["resolved_on"],
                facts,
                r["sub"] or "",
                r["law"] or "",
            )
        )
    return out
