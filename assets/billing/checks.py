"""The checks of the sewer billing tables: each bill's total, one bill per parcel and year, every parcel
billed, and the billing runs' hash chain."""

from dagster import AssetCheckResult, AssetCheckSeverity
from dagster_duckdb import DuckDBResource

from assets.billing.billing import verify_run_chain
from assets.common import table_check, warehouse
from outfall.warehouse import count, sql


def _check_sql_rows(con, query: str) -> list[tuple]:
    return con.execute(query).fetchall()


@table_check(asset="sewer_bills", description="Every bill's total is the sum of its four amounts.")
def check_validity_total_usd(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        bad = _check_sql_rows(con, sql("select_bills_with_wrong_total"))
        n = count(con, "sewer_bills")
    return AssetCheckResult(
        passed=not bad,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "bills": n,
            "wrong_totals": len(bad),
            "examples": [f"{y} {p}" for y, p in bad[:10]],
            "threshold": "0 bills whose total differs from the sum of its amounts",
        },
    )


@table_check(asset="sewer_bills", description="One bill per parcel and billing year.")
def check_uniqueness_parcel_id(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        dupes = _check_sql_rows(con, sql("select_duplicate_bills"))
    return AssetCheckResult(
        passed=not dupes,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "duplicates": len(dupes),
            "examples": [f"{y} {p} x{n}" for y, p, n in dupes[:10]],
            "threshold": "0 parcels billed twice in a year",
        },
    )


@table_check(
    asset="sewer_bills",
    description="Every parcel in `parcels` has a bill in each billed year, and "
    "no bill is for a parcel no longer in `parcels`.",
)
def check_completeness_parcel_id(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        gaps = _check_sql_rows(con, sql("select_unbilled_parcels"))
    return AssetCheckResult(
        passed=not gaps,
        severity=AssetCheckSeverity.WARN,
        metadata={
            "gaps": len(gaps),
            "examples": [f"{y} {p}: {why}" for y, p, why in gaps[:10]],
            "threshold": "0 (a year billed before a parcel was added or removed shows here until re-billed)",
        },
    )


@table_check(
    asset="billing_runs",
    description="The billing runs form an unbroken hash chain: each run_hash "
    "matches its values and the next run's previous_run_hash.",
)
def check_integrity_run_hash(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        problems = verify_run_chain(con)
        n = count(con, "billing_runs")
    return AssetCheckResult(
        passed=not problems,
        severity=AssetCheckSeverity.ERROR,
        metadata={"runs": n, "problems": problems[:20], "threshold": "0 broken links"},
    )
