"""The annual pretreatment report (contract 5.6; 40 CFR 403.12(i)), for the sewer administrator.

``pretreatment_annual_report``: per industrial user and local calendar year in which it has a
lab sample, a flow reading or a mailed sewer notice, the year's samples, violations (per
sample and of daily-maximum and monthly-average limits), slugs, whether it was in significant
noncompliance in either half of the year, and the notices of violation mailed to it (rows of
``notices``, contract 5.1, of kind sewer, status mailed, issued in the year: written by the
``notices`` asset, on which this one depends). The printable report per year for the
approval authority is written by ``assets/sewer/page.py``
(``dashboards/annual_report.py``) and linked from the index page.
"""

from dagster import MaterializeResult, MetadataValue
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, table_asset, warehouse
from outfall.flow_hours import ensure_flow_hours
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules.judged import Judged
from outfall.warehouse import count, preview_markdown, sql, transaction

COLUMNS = (
    "user_id",
    "year",
    "samples",
    "violations",
    "statistic_violations",
    "slugs",
    "snc",
    "notices_mailed",
)


def report_judged(judged: Judged) -> dict[str, bool]:
    """The parameters of ``insert_pretreatment_annual_report``: which of its counts the rules judge (a count
    of a duty they do not judge is blank, never a 0 or a "no": contract 8.6)."""
    return {
        "limits": judged.judged("limits"),
        "slugs": judged.judged("slugs"),
        "snc": judged.judged("snc"),
        "notices": judged.judged("sewer_notices"),
    }


@table_asset(
    GROUP_SEWER,
    deps=[
        "lab_results",
        "flow",
        "discharge_violations",
        "statistic_violations",
        "slug_events",
        "snc_determinations",
        "industrial_users",
        "notices",
    ],
    description="The annual pretreatment report to the approval authority (40 CFR 403.12(i)): per "
    "industrial user and calendar year with a sample, a flow reading or a mailed notice, the samples "
    "collected, violations, statistic violations, slugs, significant noncompliance in either half of "
    "the year and the sewer notices of violation mailed; a count of a duty the rules do not judge (no "
    "limits, no slug definition, no criteria of significant noncompliance, no way to issue a notice) is "
    "blank.",
)
def pretreatment_annual_report(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    stated = report_judged(rules.judged())
    with warehouse(duckdb, as_of=settings.as_of_date()) as con:
        ensure_flow_hours(con)  # the years with readings come from the hourly summaries of flow
        with transaction(con):
            con.execute(sql("delete_pretreatment_annual_report")).fetchall()
            con.execute(sql("insert_pretreatment_annual_report"), stated).fetchall()
        years = con.execute(sql("select_annual_report_by_year")).fetchall()
        return MaterializeResult(
            metadata={
                "dagster/row_count": count(con, "pretreatment_annual_report"),
                "by_year": MetadataValue.md(
                    "| year | users | in SNC | samples | violations | notices mailed |\n"
                    "|---|---|---|---|---|---|\n"
                    + "\n".join("| " + " | ".join(str(v) for v in y) + " |" for y in years)
                ),
                "preview": MetadataValue.md(preview_markdown(con, "pretreatment_annual_report")),
            }
        )
