"""Water and sewer inspection fees (the town's inspection fee law; contract 5.5), for the clerk:
``inspection_fees``, one row per connection permit.

Each use (and place) the schedule prices pays its water fee and its sewer fee; a fee applies
only to the inspection asked for. A use and place the schedule does not cover (the demo town's:
a commercial use within a shopping mall or business park) gets no fee: both fees and the total
are NULL and ``rule`` says so. The schedule is ``inspection_fees`` in the town's rules file
(the entry in effect on the day the permit was applied for); the
arithmetic is ``outfall/law/fees.py``. A ``use`` that is neither word was quarantined when
the folder was read. The yearly totals are in the clerk's register workbook (sheet
"Inspection fees") and on the billing page.
"""

import pandas as pd
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_BILLING, WAREHOUSE_POOL, warehouse
from outfall.law.fees import ConnectionPermit, inspection_fees as law_fees
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules.words import DESCRIBE
from outfall.warehouse import count, preview_markdown, replace_rows, sql, transaction

COLUMNS = [
    "permit_id",
    "parcel_id",
    "water_fee_usd",
    "sewer_fee_usd",
    "total_usd",
    "rule",
    "use",
    "in_mall_or_business_park",
    "water",
    "sewer",
    "applied_on",
    "year",
]


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_BILLING,
    kinds={"duckdb"},
    deps=["connection_permits"],
    description=DESCRIBE.inspection_fees(),
)
def inspection_fees(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    schedule = rules.town_rules().inspection_fees
    with warehouse(duckdb, as_of=settings.as_of_date()) as con:
        cursor = con.execute(sql("select_connection_permits"))
        names = [d[0] for d in cursor.description]
        permits = [dict(zip(names, r)) for r in cursor.fetchall()]
        rows = []
        if schedule is None:
            if permits:
                context.log.warning(
                    f"the rules have no inspection_fees schedule: {len(permits)} permit(s) not priced"
                )
        else:
            for p in permits:
                fee = law_fees(ConnectionPermit.model_validate(p), schedule)
                rows.append(
                    {
                        **p,
                        "water_fee_usd": fee.water_fee_usd,
                        "sewer_fee_usd": fee.sewer_fee_usd,
                        "total_usd": fee.total_usd,
                        "rule": fee.rule,
                        "year": p["applied_on"].year,
                    }
                )
        frame = pd.DataFrame(rows, columns=COLUMNS)
        with transaction(con):
            replace_rows(con, "inspection_fees", frame)
        totals = con.execute(sql("select_inspection_fees_by_year")).fetchall()
        return MaterializeResult(
            metadata={
                "dagster/row_count": count(con, "inspection_fees"),
                "not_priced": "no inspection_fees schedule in the rules" if schedule is None else "",
                "by_year": MetadataValue.md(
                    "| year | permits | total USD | not in the schedule |\n|---|---|---|---|\n"
                    + "\n".join(f"| {y} | {n} | {t or 0:,.2f} | {u} |" for y, n, t, u in totals)
                ),
                "preview": MetadataValue.md(preview_markdown(con, "inspection_fees")),
            }
        )
