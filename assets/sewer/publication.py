"""``snc_publication``: the annual list of users in significant noncompliance for newspaper
publication (+ its HTML page)."""

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from dagster import AssetExecutionContext, MaterializeResult, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, WAREHOUSE_POOL, outputs, table_result, warehouse
from assets.run import replace_judged
from assets.sewer.dated import Dated, _date_text, enforcement_rules, letters_folder
from outfall.document_kinds import FOR_PUBLICATION, KINDS
from outfall.documents import Document, Documents, Written
from outfall.law import enforcement as law
from outfall.letters import LetterWriter
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.vocab import parameter_label
from outfall.warehouse import records, transaction

PUBLICATION = KINDS["snc_publication"]


def _criteria_text(snc: Any) -> str:
    """The SNC criteria in words, from a version of the rules (factors grouped by value)."""
    by_factor: dict[str, list[str]] = defaultdict(list)
    for parameter, factor in snc.trc_factor_by_parameter.items():
        by_factor[str(factor)].append(parameter_label(parameter))
    excluded = [parameter_label(p) for p in snc.trc_excluded_parameters]
    factors = "; ".join(f"times {f} for {', '.join(ps)}" for f, ps in by_factor.items())
    others = f"times {snc.trc_factor_default} for other parameters"
    if excluded:
        others += f" except {', '.join(excluded)}"
    return (
        f"Significant noncompliance: chronic violations ({snc.chronic_pct}% or more of a parameter's "
        f"measurements in a {snc.period_months}-month period exceed the limit); technical review criteria "
        f"violations ({snc.trc_pct}% or more equal or exceed the limit "
        f"{'; '.join(x for x in (factors, others) if x)}); reports more than {snc.late_report_days} days "
        "late."
    )


def _publish(
    docs: Documents,
    context: dict,
    *,
    jurisdiction: str,
    number: str,
    file_name: str,
    dated: dt.date,
    entries: int,
    missing: list[str],
) -> Written:
    """The year's list for publication, through the one helper of documents: never mailed, ready once the
    year has ended."""
    return docs.add(
        Document(
            PUBLICATION.name,
            number,
            file_name,
            None,
            jurisdiction,
            context,
            addressed=False,
            status=FOR_PUBLICATION,
            dated=dated,
            missing=missing,
            items=entries,
        )
    )


CRITERION_TEXT = {
    "chronic": "chronic violations of {parameter}",
    "trc": "technical review criteria violations of {parameter}",
    "late_report": "reports more than {late_days} days late",
}


def _periods_text(periods: Iterable[tuple[dt.date, dt.date]]) -> str:
    return "; ".join(f"{_date_text(s)} - {_date_text(e)}" for s, e in sorted(periods))


def criteria_statements(items: list[dict], late_days: int) -> list[str]:
    """What one user's determinations of a year say, each criterion with exactly the periods in which
    ``snc_determinations`` has it (contract 8.5): "chronic violations of BOD (January 1, 2026 - June 30,
    2026; July 1, 2026 - December 31, 2026)"; parameters met in the same periods are named together."""
    out = []
    for crit in ("chronic", "trc", "late_report"):
        mine = [i for i in items if i["criterion"] == crit]
        if crit == "late_report":
            if mine:
                periods = {(i["period_start"], i["period_end"]) for i in mine}
                out.append(f"{CRITERION_TEXT[crit].format(late_days=late_days)} ({_periods_text(periods)})")
            continue
        by_parameter: dict[str, set] = defaultdict(set)
        for i in mine:
            if i["parameter"]:
                by_parameter[i["parameter"]].add((i["period_start"], i["period_end"]))
        by_periods: dict[tuple, list[str]] = defaultdict(list)
        for parameter, periods in by_parameter.items():
            by_periods[tuple(sorted(periods))].append(parameter)
        for periods, parameters in sorted(by_periods.items()):
            text = CRITERION_TEXT[crit].format(parameter=", ".join(sorted(parameters)))
            out.append(f"{text} ({_periods_text(periods)})")
    return out


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_SEWER,
    kinds={"duckdb", "html"},
    deps=["snc_determinations", "industrial_users", "user_permits"],
    description="The annual list of industrial users in significant noncompliance at any time during the "
    "year (its two six-month periods), ready for newspaper publication (40 CFR 403.8(f)(2)(viii)): "
    "one row per year and user, and an HTML page per year in <dashboards>/letters/sewer/.",
)
def snc_publication(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    on = Dated(enforcement_rules(rules))
    as_of = settings.as_of_date()
    with_letters = letters_folder(duckdb, settings) is not None
    writer = LetterWriter(settings.data_path(), rules.all_rules())
    with warehouse(duckdb, as_of=as_of) as con:
        docs = Documents(con, writer, outputs(duckdb, settings).dashboards, (PUBLICATION.name,), as_of)
        by_year: dict[int, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
        for d in records(con, "select_snc_publication_users"):
            by_year[d["period_start"].year][d["user_id"]].append(d)
        rows: list[dict] = []
        letters: list[str] = []
        for year, users in sorted(by_year.items()):
            # The list of a year is worded by the rules in effect on its last day.
            end = dt.date(year, 12, 31)
            subject = f"list of users in significant noncompliance in {year}"
            found = on.each(
                ("snc", "sewer_enforcement", "readings_enforcement.snc_publication_period"), end, subject
            )
            if found is None:
                continue
            year_rows, entries = _year_list(year, users, found, as_of, with_letters)
            rows += year_rows
            letters.append(PUBLICATION.make_file(year=year))
            _publish_year(docs, rules.jurisdiction(), on.rules, year, found, entries, as_of)
        with transaction(con):
            replace_judged(con, on.missing, snc_publication=rows)
            docs.save(con)
            removed = docs.write()
        return table_result(
            con,
            "snc_publication",
            as_of=str(as_of),
            years=sorted(by_year),
            pages=sorted(letters),
            stale_pages_removed=removed,
        )


def _year_list(
    year: int, users: dict[str, list[dict]], found: list, as_of: dt.date, with_letters: bool
) -> tuple[list[dict], list[str]]:
    """(snc_publication rows, the page's entries) of one year: a user each, by name."""
    snc, _enforcement, period = found
    citation = f"{snc.citation}; {period.citation}"
    file_name = PUBLICATION.make_file(year=year)
    closed = dt.date(year, 12, 31) < as_of
    rows, entries = [], []
    for user_id, items in sorted(users.items(), key=lambda kv: ((kv[1][0]["name"] or kv[0]).lower(), kv[0])):
        first = items[0]
        criteria = criteria_statements(items, snc.late_report_days)
        rows.append(
            {
                "year": year,
                "user_id": user_id,
                "name": first["name"],
                "address": first["address"],
                "permit_no": first["permit_no"],
                "criteria": "; ".join(criteria),
                "parameters": ", ".join(sorted({i["parameter"] for i in items if i["parameter"]})),
                "periods": _periods_text({(i["period_start"], i["period_end"]) for i in items}),
                "determinations": len(items),
                "year_closed": closed,
                "letter_file": file_name if with_letters else None,
                "rule": citation,
            }
        )
        who = first["name"] or f"Industrial user {user_id}"
        where = f", {first['address']}" if first["address"] else ""
        permit = f" (permit {first['permit_no']})" if first["permit_no"] else ""
        entries.append(f"{who}{where}{permit}: {'; '.join(criteria)}.")
    return rows, entries


def _publish_year(
    docs: Documents,
    jurisdiction: str,
    town: Rules,
    year: int,
    found: list,
    entries: list[str],
    as_of: dt.date,
) -> None:
    """The page of one year's list, worded by the rules in effect on its last day."""
    snc, enforcement, period = found
    end = dt.date(year, 12, 31)
    closed = end < as_of
    citation = f"{snc.citation}; {period.citation}"
    _publish(
        docs,
        {
            "year": year,
            "issuer": enforcement.issuer,
            "as_of": as_of,
            "entries": entries,
            "period_text": "; ".join(
                f"{_date_text(s)} - {_date_text(e)}"
                for s, e in law.publication_year_periods(year, snc.period_months)
            ),
            "intro": (
                "As required by 40 CFR 403.8(f)(2)(viii), the "
                f"{town.law('sewer_district', end).name} publishes the following industrial users, "
                f"which at some time during {year} were in significant noncompliance with the "
                f"pretreatment standards and requirements of the {town.name} "
                f"{town.law('sewer_use', end).name}."
            ),
            "criteria_text": _criteria_text(snc),
            "rule": citation,
            "status_text": (
                "Final list for the year."
                if closed
                else f"Provisional: the year has not ended as of {_date_text(as_of)}."
            ),
        },
        jurisdiction=jurisdiction,
        number=PUBLICATION.make_number(year=year),
        file_name=PUBLICATION.make_file(year=year),
        dated=min(end, as_of),
        entries=len(entries),
        missing=[] if closed else [f"the year {year} has not ended: the list is provisional"],
    )
