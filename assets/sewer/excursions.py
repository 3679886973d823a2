"""Excursions of continuous readings beyond a limit the law breaks only by their length (a pH time rule).

- ``excursion_events``: every run of consecutive readings of a probe (table ``flow``, a constituent
  such as pH) beyond a limit whose rules give ``excursion_minutes``, with how long it lasted and whether
  that makes it a violation (longer than the minutes the law allows). A single lab sample beyond such a
  limit is reported by ``discharge_violations`` as inconclusive: one sample cannot show how long it
  lasted.

The limits are those ``discharge_violations`` writes as applied (table ``discharge_limit_defaults``);
the arithmetic is SQL (``sql/sewer/insert_excursion_events.sql``).
"""

from dagster import MaterializeResult
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, table_asset, table_result, warehouse
from outfall.resources import OutfallSettings
from outfall.warehouse import sql, transaction


@table_asset(
    GROUP_SEWER,
    deps=["flow", "discharge_violations"],
    description="Runs of continuous readings (a pH probe) beyond a limit the law breaks only by an "
    "excursion lasting longer than so many minutes (rules: a discharge limit's excursion_minutes), each "
    "reading against the limit of its day; a run longer than that is a violation.",
)
def excursion_events(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    with warehouse(duckdb, as_of=settings.as_of_date()) as con:
        with transaction(con):
            con.execute(sql("delete_excursion_events")).fetchall()
            con.execute(sql("insert_excursion_events")).fetchall()
        found = con.execute(sql("count_excursion_events")).fetchall()[0]
        return table_result(con, "excursion_events", excursions=int(found[0]), violations=int(found[1]))
