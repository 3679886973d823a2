"""The months of readings a run's files touched: the month partitions of slug detection to run."""

from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, run_started, warehouse
from outfall.warehouse import sql


@asset(
    group_name=GROUP_SEWER,
    deps=["flow"],
    description="The months whose readings the files loaded by this run added or changed (a file may "
    "span months): the months of slug detection to judge again, which the sensor "
    "`reading_months_sensor` runs.",
)
def reading_months(context: AssetExecutionContext, duckdb: DuckDBResource) -> MaterializeResult:
    with warehouse(duckdb) as con:
        months = [
            r[0].isoformat()
            for r in con.execute(
                sql("select_reading_months_loaded_since"), {"since": run_started(context)}
            ).fetchall()
        ]
    return MaterializeResult(
        metadata={
            "months_touched": MetadataValue.json(months),
            "months": ", ".join(m[:7] for m in months) or "none",
        }
    )
