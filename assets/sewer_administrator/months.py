"""The months of readings a run's files touched: the month partitions of slug detection to run."""

from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, reading_months_in, run_started, warehouse


@asset(
    group_name=GROUP_SEWER,
    deps=["flow"],
    description="The months from the first to the last whose readings the files loaded by this run added "
    "or changed (a file may span months): the months of slug detection to judge again, which the sensor "
    "`reading_months_sensor` runs as one range.",
)
def reading_months(context: AssetExecutionContext, duckdb: DuckDBResource) -> MaterializeResult:
    with warehouse(duckdb) as con:
        months = [m.isoformat() for m in reading_months_in(con, since=run_started(context))]
    return MaterializeResult(
        metadata={
            "months_touched": MetadataValue.json(months),
            "months": ", ".join(m[:7] for m in months) or "none",
        }
    )
