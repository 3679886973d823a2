"""The clerk's annual sewer billing run (the sewer rate schedule of the town's rules).

Assets:
- ``sewer_budget``: the input folder ``sewer_budget/`` (year, district,
  component, amount), declared in :mod:`outfall.ingest.billing`.
- ``sewer_bills`` (with ``billing_runs``, ``billing_run_totals``, ``bill_changes``,
  ``billing_summary``): one bill per parcel and billing year, written in ONE
  transaction. The unit rules are the rules file's ``sewer_units`` section in
  its version in effect on the billing year's first day (with the ``billing``
  section of that day), applied by :mod:`outfall.law.billing` once per distinct
  combination of billing inputs; everything per parcel happens in DuckDB.
- ``billing_exports``: the register as CSV and XLSX under
  ``<warehouse folder>/exports/billing/`` (:func:`outfall.register_export.export_register`).

A billing run is a record: its inputs' fingerprints, the rules' version and
sha256, the rates used and their source, totals by district and component and
the register's sha256, chained to the previous run's hash. Billing the same
inputs again gives a byte-identical register and no new run; a changed input
gives a new run and ``bill_changes`` against the year's previous run and the
previous billed year.

A missing rate fails the asset with a message naming year, district and
component; the transaction rolls back, so the previous register stays.
"""

import contextlib
import datetime as dt
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
from dagster import (
    AssetExecutionContext,
    AssetKey,
    AssetSpec,
    Failure,
    MaterializeResult,
    MetadataValue,
    asset,
    multi_asset,
)
from dagster_duckdb import DuckDBResource

from assets.common import (
    BILLING_YEARS,
    GROUP_BILLING,
    ONE_RUN,
    WAREHOUSE_POOL,
    outputs,
    report_partition_rows,
    table_result,
    warehouse,
    years_with_rates,
)
from outfall.law.billing import (
    COMPONENTS,
    PARCEL_FIELDS,
    BillingInputError,
    BudgetRateError,
    ParcelUnits,
    amount,
    budget_rate,
    fields_read,
    missing_rate_message,
    units_for_parcel,
)
from outfall.register_export import bills_csv_bytes, export_register, sha256_hex, table_sha256
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.rules.tables import not_in_effect
from outfall.warehouse import count, records, sql, transaction

BILLING_TABLES = ("sewer_bills", "billing_runs", "billing_run_totals", "bill_changes", "billing_summary")
GENESIS_HASH = "0" * 64

# sewer_budget is an input folder registered in outfall/ingest/billing.py;
# assets/ingest.py builds its ingestion asset with every other dataset's.


# ---------------------------------------------------------------------------
# the billing run (plain functions of a connection: the asset and the benchmark call them)


class BillingError(Exception):
    """Billing cannot proceed (missing rate, bad parcel); the message says what to fix."""


@dataclass(frozen=True)
class RateUsed:
    rate: Decimal
    source: str  # sewer_rates | sewer_budget
    budget: Decimal | None = None
    total_units: int | None = None


@dataclass(frozen=True)
class YearResult:
    year: int
    run_id: int
    new_run: bool
    rows: int
    total_usd: Decimal
    register_sha256: str
    rate_source: str
    changes_vs_previous_run: int | None
    changes_vs_previous_year: int | None


def billing_years(con: duckdb.DuckDBPyConnection, year: int = 0, rules: Rules | None = None) -> list[int]:
    """``[year]``, or for 0 every year that has rates (``assets.common.years_with_rates``)."""
    if year:
        return [int(year)]
    return years_with_rates(con, rules)


def _check_parcels(con: duckdb.DuckDBPyConnection) -> None:
    problems = con.execute(sql("select_billing_input_problems")).fetchall()
    if problems:
        listed = "; ".join(f"{what}: {problem}" for problem, what in problems)
        raise BillingError(
            f"parcels that cannot be billed (the parcels ingestion should have quarantined them): {listed}"
        )


@dataclass(frozen=True)
class PreparedUnits:
    """Every parcel's combination of billing inputs (temp table billing_parcel_inputs)
    and the units of each combination, computed once per combination."""

    units: dict[int, ParcelUnits]  # combo_id -> units, explanation, rule
    district_combos: list[tuple[str, int, int]]  # (district, combo_id, parcels)

    def unit_totals(self) -> dict[tuple[str, str], int]:
        totals: dict[tuple[str, str], int] = {}
        for district, combo_id, parcels in self.district_combos:
            u = self.units[combo_id]
            for component in COMPONENTS:
                key = (district, component)
                totals[key] = totals.get(key, 0) + parcels * u.get(component)
        return totals

    @property
    def districts(self) -> list[str]:
        return sorted({d for d, _, _ in self.district_combos})


def _prepare_units(con: duckdb.DuckDBPyConnection, schedule: Any) -> PreparedUnits:
    """Number every parcel's billing inputs by distinct combination (the fields a
    class's rule does not read are blanked first) and run the unit rule (a version
    of ``sewer_units``) once per combination."""
    classes = schedule.classes
    reads = {name: fields_read(spec) for name, spec in classes.items()}
    params = {
        f"{field}_classes": [c for c, fields in reads.items() if field in fields] for field in PARCEL_FIELDS
    }
    con.execute(sql("create_billing_parcel_inputs"), params)
    cursor = con.execute(sql("select_billing_combos"))
    names = [d[0] for d in cursor.description]
    units: dict[int, ParcelUnits] = {}
    for values in cursor.fetchall():
        combo = dict(zip(names, values))
        try:
            units[int(combo["combo_id"])] = units_for_parcel(combo, schedule)
        except BillingInputError as exc:
            ids = [
                r[0]
                for r in con.execute(
                    sql("select_billing_combo_parcels"), {"combo_id": combo["combo_id"]}
                ).fetchall()
            ]
            raise BillingError(
                f"parcel {', '.join(map(str, ids))}: {exc}; the parcels ingestion should have "
                f"quarantined it: it is not billed by guess"
            ) from exc
    district_combos = [
        (d, int(c), int(n)) for d, c, n in con.execute(sql("select_billing_district_combos")).fetchall()
    ]
    return PreparedUnits(units, district_combos)


def _resolve_rates(
    con: duckdb.DuckDBPyConnection,
    year: int,
    districts: list[str],
    unit_totals: dict[tuple[str, str], int],
    billing: Any,
) -> dict[tuple[str, str], RateUsed]:
    """The rate of each component in each district that has parcels, from the
    sources in ``billing.rate_sources`` (first found wins; ``billing``: the year's version)."""

    def collect(name: str, what: str) -> dict[tuple[str, str], tuple[Decimal, str]]:
        found: dict[tuple[str, str], tuple[Decimal, str]] = {}
        for district, component, value, source_file, source_row in con.execute(
            sql(name), {"year": year}
        ).fetchall():
            where = f"{source_file} row {source_row}"
            key = (district, component)
            if key in found and found[key][0] != value:
                raise BillingError(
                    f"two {what} for {year}, {district}, {component}: {found[key][0]} "
                    f"({found[key][1]}) and {value} ({where}); keep one"
                )
            found.setdefault(key, (Decimal(value), where))
        return found

    adopted = collect("select_sewer_rates_of_year", "sewer rates")
    budgets = collect("select_sewer_budget_of_year", "sewer budget amounts")
    sources = list(billing.rate_sources)
    rounding = billing.budget_rate_rounding or billing.rounding
    used: dict[tuple[str, str], RateUsed] = {}
    missing: list[tuple[str, str]] = []
    for district in districts:
        for component in COMPONENTS:
            key = (district, component)
            for source in sources:
                if source == "sewer_rates" and key in adopted:
                    used[key] = RateUsed(adopted[key][0], source)
                    break
                if source == "sewer_budget" and key in budgets:
                    total = int(unit_totals.get(key, 0))
                    try:
                        rate = budget_rate(budgets[key][0], total, rounding)
                    except BudgetRateError as exc:
                        raise BillingError(
                            f"sewer budget for {year}, {district}, {component}: {exc}; adopt a "
                            f"rate in sewer_rates or correct the budget"
                        ) from exc
                    used[key] = RateUsed(rate, source, budgets[key][0], total)
                    break
            else:
                missing.append(key)
    if missing:
        message = missing_rate_message(year, *missing[0])
        if "sewer_budget" in sources:
            message += " (or its budget to sewer_budget)"
        if len(missing) > 1:
            message += "; also missing: " + ", ".join(f"{d} {c}" for d, c in missing[1:])
        raise BillingError(message)
    return used


def _canonical(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


# Not hashed: the hash itself, and run_at (when, not what), so that the same
# billing history gives the same chain of hashes in any warehouse.
_UNHASHED = ("run_hash", "run_at")


def run_record_hash(record: dict) -> str:
    """sha256 of a billing run's values (run_hash and run_at excluded), as canonical JSON:
    inputs' fingerprints, rules, rates, totals, register hash and the previous run's hash."""
    payload = {k: _canonical(v) for k, v in record.items() if k not in _UNHASHED}
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _first(con: duckdb.DuckDBPyConnection, name: str, params: dict | None = None) -> tuple | None:
    """The first row of sql/<name>.sql, or None (the result is read to the end)."""
    rows = con.execute(sql(name), params or {}).fetchall()
    return rows[0] if rows else None


def verify_run_chain(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Problems with the billing_runs hash chain (empty when intact)."""
    problems = []
    previous = GENESIS_HASH
    for record in records(con, "select_billing_runs"):
        if record["previous_run_hash"] != previous:
            problems.append(f"run {record['run_id']}: previous_run_hash does not match run before it")
        if record["run_hash"] != run_record_hash(record):
            problems.append(f"run {record['run_id']}: run_hash does not match its values")
        previous = record["run_hash"]
    return problems


def _insert_changes(
    con,
    run_id: int,
    year: int,
    compared_to: str,
    compared_run_id: int | None,
    compared_year: int | None,
    rule: str,
) -> int:
    before = count(con, "bill_changes")
    con.execute(
        sql("insert_bill_changes"),
        {
            "run_id": run_id,
            "year": year,
            "compared_to": compared_to,
            "compared_run_id": compared_run_id,
            "compared_year": compared_year,
            "rule": rule,
        },
    )
    return count(con, "bill_changes") - before


def _price(prepared: PreparedUnits, rates: dict[tuple[str, str], RateUsed], rounding: str) -> pd.DataFrame:
    """Units, amounts, explanation and rule per district and combination; each
    distinct (district, component, units) is priced once."""
    cache: dict[tuple[str, str, int], str] = {}

    def priced(district: str, component: str, units: int) -> str:
        key = (district, component, units)
        if key not in cache:
            cache[key] = str(amount(units, rates[(district, component)].rate, rounding))
        return cache[key]

    rows = []
    for district, combo_id, _ in prepared.district_combos:
        u = prepared.units[combo_id]
        rows.append(
            (
                district,
                combo_id,
                u.bond,
                u.om,
                u.street_lateral,
                u.house_lateral,
                priced(district, "bond", u.bond),
                priced(district, "om", u.om),
                priced(district, "street_lateral", u.street_lateral),
                priced(district, "house_lateral", u.house_lateral),
                u.explanation,
                u.rule,
            )
        )
    return pd.DataFrame(
        rows,
        columns=[
            "district",
            "combo_id",
            "units_bond",
            "units_om",
            "units_street_lateral",
            "units_house_lateral",
            "amount_bond",
            "amount_om",
            "amount_street_lateral",
            "amount_house_lateral",
            "explanation",
            "rule",
        ],
    )


def _bill_year(
    con: duckdb.DuckDBPyConnection,
    rules: Rules,
    year: int,
    rates: dict[tuple[str, str], RateUsed],
    prepared: PreparedUnits,
    parcels_sha256: str,
    now: dt.datetime,
    law: "YearLaw",
) -> YearResult:
    billing, schedule = law.billing, law.schedule
    register_sha256 = _write_register(con, year, prepared, rates, billing.rounding)
    fingerprints = {
        "parcels_sha256": parcels_sha256,
        "rates_sha256": table_sha256(con, sql("select_sewer_rates_fingerprint"), {"year": year}),
        "budget_sha256": table_sha256(con, sql("select_sewer_budget_fingerprint"), {"year": year}),
    }
    inputs_sha256 = sha256_hex(
        f"parcels {parcels_sha256}\nsewer_rates {fingerprints['rates_sha256']}\n"
        f"sewer_budget {fingerprints['budget_sha256']}\nrules {rules.sha256}\n".encode()
    )
    used_sources = sorted({r.source for r in rates.values()}, key=["sewer_rates", "sewer_budget"].index)
    rate_source = "+".join(used_sources) or "none"
    rows, _parcels, total_usd = _first(con, "select_billing_register_stats", {"year": year})

    last = _first(con, "select_last_billing_run", {"year": year})
    run_rule = f"{billing.citation}; {schedule.citation}"
    if "sewer_budget" in used_sources and billing.citation_budget_rate:
        run_rule += f"; {billing.citation_budget_rate}"

    if last is not None and last[1] == inputs_sha256 and last[2] == register_sha256:
        run_id, new_run, vs_run, vs_year = int(last[0]), False, None, None
    else:
        run = {
            **fingerprints,
            "year": year,
            "run_at": now.astimezone(dt.UTC).isoformat(),
            "rules_jurisdiction": rules.jurisdiction,
            "rules_version": rules.version,
            "rules_sha256": rules.sha256,
            "inputs_sha256": inputs_sha256,
            "rate_source": rate_source,
            "parcels_billed": int(_parcels),
            "total_usd": str(total_usd),
            "register_sha256": register_sha256,
            "register_rows": int(rows),
            "previous_run_id": None if last is None else int(last[0]),
            "rule": run_rule,
        }
        run_id, vs_run, vs_year = _record_run(con, run, rates)
        new_run = True

    con.execute(sql("delete_billing_summary_of_year"), {"year": year})
    con.execute(sql("insert_billing_summary"), {"year": year, "run_id": run_id, "rule": schedule.citation})
    return YearResult(
        year, run_id, new_run, int(rows), Decimal(total_usd), register_sha256, rate_source, vs_run, vs_year
    )


def _write_register(
    con: duckdb.DuckDBPyConnection,
    year: int,
    prepared: PreparedUnits,
    rates: dict[tuple[str, str], RateUsed],
    rounding: str,
) -> str:
    """Price the year's units and write its register (the year's previous run kept to compare with);
    the register's fingerprint."""
    con.register("billing_priced_frame", _price(prepared, rates, rounding))
    try:
        con.execute(sql("create_billing_priced"))
    finally:
        con.unregister("billing_priced_frame")

    # The register as it stood (the year's previous run), then the new one.
    con.execute(sql("create_billing_compare_register"), {"year": year})
    con.execute(sql("delete_sewer_bills_of_year"), {"year": year})
    con.execute(sql("insert_sewer_bills"), {"year": year})
    return sha256_hex(bills_csv_bytes(con, year))


def _record_run(
    con: duckdb.DuckDBPyConnection, run: dict, rates: dict[tuple[str, str], RateUsed]
) -> tuple[int, int | None, int | None]:
    """A new billing run: its changes against the year's previous run and the previous billed year, its
    totals, and its record, chained to the run before it by hash. (run_id, changes vs run, vs year)."""
    year, run_rule = run["year"], run["rule"]
    run_id, previous_run_hash = _first(con, "select_next_billing_run_id")
    run_id = int(run_id)
    vs_run = vs_year = None
    if run["previous_run_id"] is not None:
        vs_run = _insert_changes(con, run_id, year, "previous_run", run["previous_run_id"], year, run_rule)
    compared_year = _first(con, "select_previous_billed_year", {"year": year})[0]
    if compared_year is not None:
        con.execute(sql("create_billing_compare_register"), {"year": int(compared_year)})
        vs_year = _insert_changes(con, run_id, year, "previous_year", None, int(compared_year), run_rule)
    rates_json, totals_json = _run_totals(con, run_id, year, rates, run_rule)
    con.execute(
        sql("insert_billing_run"),
        {
            **run,
            "run_id": run_id,
            "rates_json": json.dumps(rates_json, sort_keys=True, separators=(",", ":")),
            "totals_json": json.dumps(totals_json, sort_keys=True, separators=(",", ":")),
            "compared_year": None if compared_year is None else int(compared_year),
            "changes_vs_previous_run": vs_run,
            "changes_vs_previous_year": vs_year,
            "previous_run_hash": previous_run_hash,
        },
    )
    record = records(con, "select_billing_run", {"run_id": run_id})[0]
    con.execute(sql("update_billing_run_hash"), {"run_id": run_id, "run_hash": run_record_hash(record)})
    return run_id, vs_run, vs_year


def _run_totals(
    con: duckdb.DuckDBPyConnection, run_id: int, year: int, rates: dict[tuple[str, str], RateUsed], rule: str
) -> tuple[list[dict], list[dict]]:
    """Write the run's totals by district and component; the rates used and the totals, for its record."""
    rates_json, totals_json = [], []
    for t in records(con, "select_billing_totals", {"year": year}):
        used = rates[(t["district"], t["component"])]
        rates_json.append(
            {
                "district": t["district"],
                "component": t["component"],
                "rate_per_unit": str(used.rate),
                "source": used.source,
                "budget_usd": None if used.budget is None else str(used.budget),
                "budget_total_units": used.total_units,
            }
        )
        totals_json.append(
            {
                "district": t["district"],
                "component": t["component"],
                "parcels_charged": int(t["parcels_charged"]),
                "units": int(t["units"]),
                "amount_usd": str(t["amount_usd"]),
            }
        )
        con.execute(
            sql("insert_billing_run_total"),
            {
                "run_id": run_id,
                "year": year,
                "district": t["district"],
                "component": t["component"],
                "parcels_charged": int(t["parcels_charged"]),
                "units": int(t["units"]),
                "rate_per_unit": str(used.rate),
                "rate_source": used.source,
                "budget_usd": None if used.budget is None else str(used.budget),
                "amount_usd": str(t["amount_usd"]),
                "rule": rule,
            },
        )
    return rates_json, totals_json


@dataclass(frozen=True)
class YearLaw:
    """The rules a billing year is billed by: the versions in effect on its first day."""

    schedule: Any  # sewer_units
    billing: Any  # billing


def year_law(rules: Rules, year: int) -> YearLaw:
    """The unit schedule and billing rule in effect on January 1 of ``year``; BillingError, naming the
    year and the versions there are, when the rules give none for it."""
    day = dt.date(year, 1, 1)
    schedule, billing = rules.require("sewer_units").get(day), rules.require("billing").get(day)
    for part, found, versions in (
        ("sewer unit schedule", schedule, rules.sewer_units),
        ("billing rule", billing, rules.billing),
    ):
        if found is None:
            raise BillingError(
                f"{year} cannot be billed: {not_in_effect(part, day, versions)}; add a version "
                f"of it that covers {year} to {rules.source.name}"
            )
    return YearLaw(schedule, billing)


def bill(
    con: duckdb.DuckDBPyConnection,
    rules: Rules,
    year: int = 0,
    now: dt.datetime | None = None,
    years: list[int] | None = None,
) -> list[YearResult]:
    """Bill every parcel for ``year`` (0: every year that has rates), or for each of ``years`` (the
    partitions of a run), each year by the rules in effect on its first day. Only those years' rows are
    deleted and inserted. Call inside a transaction: a BillingError (missing rate, unbillable parcel, a
    year no rules cover) leaves nothing written once it rolls back."""
    now = now or dt.datetime.now(dt.UTC)
    if rules.sewer_units is None:  # the town's rules state no unit schedule: no unit bills to make
        return []
    years = sorted({int(y) for y in years}) if years is not None else billing_years(con, year, rules)
    _check_parcels(con)
    laws = {y: year_law(rules, y) for y in years}
    groups: dict[tuple[int, int], list[int]] = {}  # years billed by the same versions, in order
    for y in years:
        groups.setdefault((id(laws[y].schedule), id(laws[y].billing)), []).append(y)
    # Every year's rates are resolved before anything is written.
    rates: dict[int, dict[tuple[str, str], RateUsed]] = {}
    prepared: dict[tuple[int, int], PreparedUnits] = {}
    in_temp_table = None  # the group whose inputs the temp table billing_parcel_inputs holds
    for key, ys in groups.items():
        prepared[key] = _prepare_units(con, laws[ys[0]].schedule)
        in_temp_table = key
        unit_totals = prepared[key].unit_totals()
        for y in ys:
            rates[y] = _resolve_rates(con, y, prepared[key].districts, unit_totals, laws[y].billing)
    if not years:
        return []
    parcels_sha256 = table_sha256(con, sql("select_billing_parcels_fingerprint"))
    results = []
    for key, ys in groups.items():
        if key != in_temp_table:
            prepared[key], in_temp_table = _prepare_units(con, laws[ys[0]].schedule), key
        results += [
            _bill_year(con, rules, y, rates[y], prepared[key], parcels_sha256, now, laws[y]) for y in ys
        ]
    con.execute(sql("drop_billing_temp_tables"))
    return results


# ---------------------------------------------------------------------------
# assets

# the inputs (the ingestion step registers the years that have rates as partitions)
_BILL_DEPS = ["parcels", "sewer_rates", "sewer_budget"]

_SPECS = [
    AssetSpec(
        "sewer_bills",
        group_name=GROUP_BILLING,
        kinds={"duckdb"},
        deps=_BILL_DEPS,
        description="One bill per parcel and billing year: units of bond, O&M, "
        "street lateral and house lateral by the town's unit schedule "
        "(rules sewer_units, moratorium included), amount = units x rate rounded half-up to the "
        "cent; each line explains its units and names its rule.",
    ),
    AssetSpec(
        "billing_runs",
        group_name=GROUP_BILLING,
        kinds={"duckdb"},
        deps=_BILL_DEPS,
        description="The record of each billing run that changed a year's register: input fingerprints, "
        "rules version and sha256, rates and their source, totals, register sha256, hash-chained.",
    ),
    AssetSpec(
        "billing_run_totals",
        group_name=GROUP_BILLING,
        kinds={"duckdb"},
        deps=_BILL_DEPS,
        description="Per billing run, district and component: the rate used (adopted or from the budget), "
        "units and amount.",
    ),
    AssetSpec(
        "bill_changes",
        group_name=GROUP_BILLING,
        kinds={"duckdb"},
        deps=_BILL_DEPS,
        description="What each billing run changed per parcel, against the year's previous run and the "
        "previous billed year: added, removed, reclassed, units or amounts up or down.",
    ),
    AssetSpec(
        "billing_summary",
        group_name=GROUP_BILLING,
        kinds={"duckdb"},
        deps=_BILL_DEPS,
        description="The sewer register summed by billing year, district and property class.",
    ),
]


@contextlib.contextmanager
def _warehouse(duckdb: DuckDBResource, as_of: dt.date) -> Iterator[duckdb.DuckDBPyConnection]:
    """``assets.common.warehouse`` (as of the run's day), closing the connection when the step fails too
    (dagster_duckdb closes it only after a clean exit, so a failed step would keep
    the file open in the process)."""
    with warehouse(duckdb, as_of=as_of) as con:
        try:
            yield con
        except BaseException:
            con.close()
            raise


def partition_years(context: AssetExecutionContext) -> list[int]:
    """The billing years of this run: its partition, or the range of them a backfill gives it."""
    return sorted(int(key) for key in context.partition_keys)


# Subsettable: any one table can be asked for (the UI's "Materialize" on sewer_bills alone); the year is
# billed whole in one transaction whatever is asked, and the tables asked for are reported.
@multi_asset(
    pool=WAREHOUSE_POOL,
    specs=_SPECS,
    can_subset=True,
    partitions_def=BILLING_YEARS,
    backfill_policy=ONE_RUN,
)
def sewer_billing(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
):
    town = rules.town_rules()
    years = partition_years(context)
    with _warehouse(duckdb, as_of=settings.as_of_date()) as con:
        try:
            with transaction(con):
                results = bill(con, town, years=years)
        except BillingError as exc:
            raise Failure(
                description=str(exc), metadata={"billing_years": ", ".join(map(str, years))}
            ) from exc
        for r in results:
            context.log.info(
                f"billing {r.year}: {r.rows} bills, {r.total_usd} USD, rates from {r.rate_source}, "
                + (f"new run {r.run_id}" if r.new_run else f"unchanged since run {r.run_id}")
            )
        years_md = (
            "\n".join(
                f"| {r.year} | {r.rows} | {r.total_usd} | {r.rate_source} | {r.run_id} | "
                f"{'yes' if r.new_run else 'no'} | "
                f"{'' if r.changes_vs_previous_run is None else r.changes_vs_previous_run} | "
                f"{'' if r.changes_vs_previous_year is None else r.changes_vs_previous_year} | "
                f"{r.register_sha256[:16]} |"
                for r in results
            )
            or "| (no year has rates) | | | | | | | | |"
        )
        common = {
            "billing_years": [r.year for r in results],
            "runs": MetadataValue.md(
                "| year | bills | total USD | rates from | run | new run | changes vs run "
                "| changes vs year | register sha256 |\n|---|---|---|---|---|---|---|---|---|\n" + years_md
            ),
            "rules_version": town.version,
        }
        rows = rows_by_year(con, years)
        for key in BILLING_TABLES:
            if AssetKey(key) not in context.selected_asset_keys:
                continue
            report_partition_rows(context, rows.get(key, {}), asset_key=key)
            result = table_result(con, key, **common)
            yield MaterializeResult(asset_key=key, metadata=result.metadata)


def rows_by_year(con: duckdb.DuckDBPyConnection, years: list[int]) -> dict[str, dict[str, int]]:
    """Each billing table's rows in each of ``years``, by table and partition key (``"2026"``)."""
    found: dict[str, dict[str, int]] = {}
    for table, year, n in con.execute(sql("count_billing_rows_by_year"), {"years": years}).fetchall():
        found.setdefault(table, {})[str(year)] = n
    return found


def export_dir(duckdb: DuckDBResource, settings: OutfallSettings) -> Path | None:
    """``<warehouse folder>/exports/billing`` (the one rule: ``outfall.output_folders``)."""
    return outputs(duckdb, settings).billing_exports


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_BILLING,
    kinds={"duckdb", "xlsx", "csv"},
    partitions_def=BILLING_YEARS,
    backfill_policy=ONE_RUN,
    deps=[
        "sewer_bills",
        "billing_runs",
        "billing_run_totals",
        "bill_changes",
        "billing_summary",
        "inspection_fees",
    ],
    description="The sewer register of each billing year as CSV in words for a mail merge (owner, mailing "
    "address), as CSV of the bills as billed (byte-identical to the hashed register) and "
    "XLSX (a sheet per district, totals with rates and their source, summary by class, the year's "
    "inspection fees, changes), "
    "written to <warehouse folder>/exports/billing/; a year's files are written by its "
    "partition only.",
)
def billing_exports(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    out = export_dir(duckdb, settings)
    if out is None:
        return MaterializeResult(
            metadata={"skipped": "in-memory warehouse and no dashboards_dir: nowhere to write"}
        )
    with _warehouse(duckdb, as_of=settings.as_of_date()) as con:
        written = export_register(con, out, rules.town_rules(), years=partition_years(context))
    context.log.info(f"billing exports: {len(written)} files in {out}")
    return MaterializeResult(
        metadata={
            "folder": MetadataValue.path(str(out)),
            "files": MetadataValue.md("\n".join(f"- {p.name}" for p in written) or "_none_"),
            "file_count": len(written),
        }
    )
