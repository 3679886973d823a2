"""Permits and discharging without a permit (the sewer use law), for the sewer
administrator.

A user's permits have a history (contract 8.2): ``user_permits`` lists every permit of every user,
from the ``permits`` folder, the permit columns of ``industrial_users`` and the permits an earlier
load of ``industrial_users`` gave that the inputs no longer give (``industrial_users_history``: a
users file edited in place), which stay in force for their own days until a ``permits`` row with a
withdrawn_reason removes them. A renewal adds a permit and never shortens another. A user holds a
permit on a day when any of its permits in force has it in effect (both days included, reading
``permit_in_effect``).

The sewer use law makes it unlawful to discharge into the public sewers of the sewer district
except after the issuance of a permit by the administrator. A discharge (contract 6.5) is a
sample collected, or a flow reading of constituent flow whose value is above 0; a probe's
readings (pH, temperature, any other constituent) and flow readings of 0 are not. A user's
discharges on a day none of its permits was in effect, or on any day when it never held a permit
(no permit number and neither date: reading ``permit_term_unknown``), show it discharged without a
permit then:

- ``discharges_without_permit``: one row per user and local day, with the day's samples and
  flow readings above 0, whether the permit had expired, had not yet taken effect or was never
  issued (``never_permitted``), and the section;
- ``permit_dates_missing``: users with such discharges whose permit term is not on file (a permit
  number with neither date, or no industrial user row): not judged (reading
  ``permit_term_unknown``: a missing date is a gap in the records, not proof that no permit was
  issued), listed so the dates can be filled in.

The compliance summary counts each month's days without a permit. The work is SQL
(``sql/sewer/insert_user_permits.sql``, ``create_uncovered_days.sql``,
``insert_discharges_without_permit.sql``); each asset writes its tables in one transaction.
"""

import pandas as pd
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    AssetSpec,
    MaterializeResult,
    MetadataValue,
    multi_asset,
)
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, WAREHOUSE_POOL, table_asset, table_check, table_result, warehouse
from outfall.flow_hours import ensure_flow_hours
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules, RulesError
from outfall.rules.implemented import IMPLEMENTED
from outfall.warehouse import count, preview_markdown, sql, transaction

# Readings of the permit term this code implements (rules section readings_sewer_compliance).
IMPLEMENTED_READINGS = {
    name: IMPLEMENTED["readings_sewer_compliance"][name]
    for name in ("permit_in_effect", "permit_term_unknown")
}


def permit_readings(settings: OutfallSettings, resource: RulesResource) -> tuple[Rules, dict[str, str]]:
    """The rules and the citations of the permit readings in effect on the day judged (by name; "" where
    the rules state none). Refuses a reading this code does not implement."""
    rules = resource.town_rules()
    as_of = settings.as_of_date()
    readings = rules.readings_sewer_compliance
    texts = {}
    for name, value in IMPLEMENTED_READINGS.items():
        versions = getattr(readings, name, None) if readings is not None else None
        reading = versions.get(as_of) if versions is not None else None
        if reading is not None and reading.value != value:
            raise RulesError(
                f"{rules.source.name}: readings_sewer_compliance.{name} = {reading.value!r}; this "
                f"version implements only {value!r}"
            )
        texts[name] = reading.citation if reading is not None else ""
    return rules, texts


def permit_rules(settings: OutfallSettings, resource: RulesResource) -> tuple[Rules, pd.DataFrame, str]:
    """The rules, the dated citations of discharging without a permit (a frame of effective_from,
    effective_to, citation) and the rule text of an unknown permit term. Refuses a reading this code
    does not implement."""
    rules, texts = permit_readings(settings, resource)
    unknown_text = texts["permit_term_unknown"]
    versions = rules.sewer_compliance or ()
    frame = pd.DataFrame(
        [
            {
                "effective_from": v.starts,
                "effective_to": v.effective_to,
                "citation": v.without_permit_citation,
            }
            for v in versions
            if v.without_permit_citation
        ],
        columns=["effective_from", "effective_to", "citation"],
    )
    return rules, frame, unknown_text


@table_asset(
    GROUP_SEWER,
    deps=["industrial_users", "permits"],
    description="Every permit of every industrial user (contract 8.2): the permits folder, the permit "
    "columns of the industrial users file and the permits an earlier load of that file gave that the "
    "inputs no longer give (still in force for their own days, to be confirmed or withdrawn); a permits "
    "row with a withdrawn_reason removes the permit of its number. A user holds a permit on a day when "
    "any of its permits in force has it in effect, both days included.",
)
def user_permits(
    settings: OutfallSettings, duckdb: DuckDBResource, rules: RulesResource
) -> MaterializeResult:
    as_of = settings.as_of_date()
    _, texts = permit_readings(settings, rules)
    with warehouse(duckdb, as_of=as_of) as con:
        with transaction(con):
            con.execute(sql("delete_user_permits")).fetchall()
            con.execute(
                sql("insert_user_permits"), {"as_of": as_of, "rule": texts["permit_in_effect"]}
            ).fetchall()
        by = dict(con.execute(sql("count_user_permits_by_state")).fetchall())
        return table_result(con, "user_permits", as_of=str(as_of), by_state=MetadataValue.json(by))


@multi_asset(
    pool=WAREHOUSE_POOL,
    specs=[
        AssetSpec(
            "discharges_without_permit",
            group_name=GROUP_SEWER,
            kinds={"duckdb"},
            deps=["user_permits", "industrial_users", "lab_results", "flow"],
            description="Days on which an industrial user had samples collected or flow readings above 0 "
            "while no permit of its was in effect (none of its permits, user_permits, had the day in its "
            "term, or it never held one: no permit number and neither date): "
            "discharging into the public sewers without a permit, which the sewer use law makes "
            "unlawful. A probe's pH or temperature readings and zero flow are not a "
            "discharge. One row per user and day, with the section.",
        ),
        AssetSpec(
            "permit_dates_missing",
            group_name=GROUP_SEWER,
            kinds={"duckdb"},
            deps=["user_permits", "industrial_users", "lab_results", "flow"],
            description="Users with samples or flow readings above 0 whose permit term is not on file "
            "(a permit number with neither date, or no industrial user record): not judged for discharging "
            "without a permit; "
            "listed so that the dates can be filled in.",
        ),
    ],
)
def discharges_without_permit(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
):
    as_of = settings.as_of_date()
    _, citations, unknown_text = permit_rules(settings, rules)
    if citations.empty:
        context.log.warning(
            "the rules give no citation for discharging without a permit "
            "(sewer_compliance.without_permit_citation): that finding is not made"
        )
    with warehouse(duckdb, as_of=as_of) as con:
        ensure_flow_hours(con)  # the days with readings come from the hourly summaries of flow
        con.register("_permit_rules", citations.astype({"citation": object}))
        try:
            with transaction(con):
                con.execute(sql("delete_discharges_without_permit")).fetchall()
                con.execute(sql("delete_permit_dates_missing")).fetchall()
                con.execute(sql("create_user_activity_days"), {"as_of": as_of}).fetchall()
                con.execute(sql("create_uncovered_days")).fetchall()
                if not citations.empty:
                    con.execute(sql("insert_discharges_without_permit")).fetchall()
                con.execute(sql("insert_permit_dates_missing"), {"citation": unknown_text}).fetchall()
        finally:
            con.execute(sql("drop_user_activity_days")).fetchall()
            con.unregister("_permit_rules")
        by_user = con.execute(sql("select_discharges_without_permit_by_user")).fetchall()
        yield MaterializeResult(
            asset_key="discharges_without_permit",
            metadata={
                "dagster/row_count": count(con, "discharges_without_permit"),
                "as_of": str(as_of),
                "by_user": MetadataValue.md(
                    "| user | finding | days | first | last |\n|---|---|---|---|---|\n"
                    + "\n".join(f"| {u} | {f} | {n} | {a} | {b} |" for u, f, n, a, b in by_user)
                ),
                "preview": MetadataValue.md(preview_markdown(con, "discharges_without_permit")),
            },
        )
        yield MaterializeResult(
            asset_key="permit_dates_missing",
            metadata={
                "dagster/row_count": count(con, "permit_dates_missing"),
                "preview": MetadataValue.md(preview_markdown(con, "permit_dates_missing")),
            },
        )


@table_check(
    asset="discharges_without_permit",
    blocking=False,
    description="Every day listed lies outside the term of each of its user's permits in force "
    "(user_permits) and had a sample or a flow reading above 0. Threshold: 0 rows that do not. "
    "Severity ERROR.",
)
def check_validity_permit_day(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        bad = con.execute(sql("check_validity_permit_day")).fetchall()[0][0]
        total = count(con, "discharges_without_permit")
    return AssetCheckResult(
        passed=bad == 0,
        severity=AssetCheckSeverity.ERROR,
        metadata={"rows": total, "invalid_rows": int(bad), "threshold": "0 rows"},
    )
