"""Required testing (contract 6.3), for the sewer administrator: ``required_testing``.

The sewer use law leaves "the types of testing and frequency of testing" of each
industrial user to the administrator, who records them in the input ``monitoring_requirements``
(a parameter, a frequency of calendar periods, a sample type or either, the dates in effect).
Each requirement is judged per calendar period (``outfall/law/testing.py``): the periods whose
last day is in effect and which have begun by --as-of, each ``met`` (a sample of the parameter,
and of the sample type when one is required, collected in it), ``open`` (none yet, the period
not over before --as-of) or ``missed`` (none, and the period is over): a missed period is a
violation, noticed with the user's other violations of the month in which the period ended.

The periods come from the pure functions (requirements are few); the samples are counted in
SQL (``sql/sewer/count_required_testing_samples.sql``) by local date in the rules' time zone.
Each row cites the rules' ``required_testing`` version in effect on the period's last day; a
period no version covers is listed in ``not_judged``. The table is written in one transaction.
"""

import datetime as dt

import pandas as pd
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    MaterializeResult,
    MetadataValue,
)
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, check_rows, table_asset, table_check, warehouse
from assets.run import record_not_judged
from outfall.law.testing import STATUSES, period_status, periods, requirement_start
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.rules.tables import NotJudged, not_in_effect
from outfall.warehouse import count, preview_markdown, records, replace_rows, sql, transaction

TABLE = "required_testing"
COLUMNS = [
    "user_id",
    "parameter",
    "sample_type",
    "period_start",
    "period_end",
    "samples",
    "status",
    "name",
    "frequency",
    "basis",
    "rule",
    "as_of",
]
PERIOD_COLUMNS = ["row_id", "user_id", "parameter", "sample_type", "period_start", "period_end"]


def testing_periods(
    requirements: list[dict], rules: Rules, as_of: dt.date
) -> tuple[list[dict], list[NotJudged]]:
    """The rows of required_testing before their samples are counted (samples and status left out), and
    the periods no ``required_testing`` version covers."""
    versions = rules.required_testing
    rows: list[dict] = []
    not_judged: list[NotJudged] = []
    for r in requirements:
        start = requirement_start(r["effective_from"], r["permit_effective"], r["first_sample_day"], as_of)
        for period_start, period_end in periods(r["frequency"], start, r["effective_to"], as_of):
            version = versions.get(period_end) if versions is not None else None
            if version is None:
                reason = (
                    not_in_effect("rule of required testing", period_end, versions)
                    if versions
                    else f"not judged: {rules.source.name} has no required_testing section"
                )
                not_judged.append(
                    NotJudged(
                        f"{r['frequency']} {r['parameter']} testing of {r['user_id']} from {period_start}",
                        period_end,
                        "required_testing",
                        reason,
                    )
                )
                continue
            rows.append(
                {
                    "user_id": r["user_id"],
                    "parameter": r["parameter"],
                    "sample_type": r["sample_type"],
                    "period_start": period_start,
                    "period_end": period_end,
                    "name": r["name"],
                    "frequency": r["frequency"],
                    "basis": r["basis"],
                    "rule": version.citation,
                    "as_of": as_of,
                }
            )
    return rows, not_judged


def count_samples(con, rows: list[dict], tz: str, as_of: dt.date) -> list[int]:
    """The samples of each period of ``rows``, in order (sql/sewer/count_required_testing_samples.sql)."""
    if not rows:
        return []
    frame = pd.DataFrame([{**r, "row_id": i} for i, r in enumerate(rows)], columns=PERIOD_COLUMNS)
    con.register("_testing_periods", frame.astype({"sample_type": object}))
    try:
        counted = con.execute(sql("count_required_testing_samples"), {"tz": tz, "as_of": as_of}).fetchall()
    finally:
        con.unregister("_testing_periods")
    return [int(n) for _, n in counted]


def required_testing_frame(con, rules: Rules, as_of: dt.date) -> tuple[pd.DataFrame, list[NotJudged]]:
    """Every row of required_testing, with its samples and status, and the periods not judged."""
    requirements = records(con, "select_monitoring_requirements", {"tz": rules.timezone})
    rows, not_judged = testing_periods(requirements, rules, as_of)
    for row, samples in zip(rows, count_samples(con, rows, rules.timezone, as_of)):
        row["samples"] = samples
        row["status"] = period_status(samples, row["period_end"], as_of)
    return pd.DataFrame(rows, columns=COLUMNS).astype({"samples": "Int32"}), not_judged


@table_asset(
    GROUP_SEWER,
    deps=["monitoring_requirements", "industrial_users", "user_permits", "lab_results"],
    description="The testing each industrial user must do, period by period: one row per monitoring "
    "requirement and calendar period (month, quarter, half-year or year) in effect, with the "
    "samples collected in it and its status: met, open (none yet, still time) or missed (a "
    "violation of the sewer use law: the types and frequency of testing are specified by "
    "the administrator).",
)
def required_testing(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    as_of = settings.as_of_date()
    town = rules.town_rules()
    if town.required_testing is None:
        context.log.warning(
            f"{town.source.name} has no required_testing section: no period of a monitoring "
            "requirement is judged"
        )
    with warehouse(duckdb, as_of=as_of) as con:
        frame, not_judged = required_testing_frame(con, town, as_of)
        with transaction(con):
            replace_rows(con, TABLE, frame)
            unjudged = record_not_judged(con, TABLE, not_judged)
        by_status = frame["status"].value_counts().reindex(list(STATUSES), fill_value=0)
        return MaterializeResult(
            metadata={
                "dagster/row_count": count(con, TABLE),
                "as_of": str(as_of),
                "not_judged": unjudged,
                "by_status": MetadataValue.json({k: int(v) for k, v in by_status.items()}),
                "missed_by_user": MetadataValue.json(
                    {
                        str(k): int(v)
                        for k, v in frame.loc[frame["status"] == "missed", "user_id"]
                        .value_counts()
                        .sort_index()
                        .items()
                    }
                ),
                "preview": MetadataValue.md(preview_markdown(con, TABLE)),
            }
        )


@table_check(
    asset=required_testing,
    blocking=False,
    description="Every period's status agrees with its samples and the day judged: met with one sample "
    "or more; with none, open when the period ends on or after the day judged and missed when "
    "it ended before; and no period begins after the day judged. Threshold: 0 rows that do "
    "not. Severity ERROR.",
)
def check_validity_required_testing_status(duckdb: DuckDBResource) -> AssetCheckResult:
    rows, total = check_rows(duckdb, sql("check_validity_required_testing_status"), table=TABLE)
    bad, bad_missed = rows[0]
    return AssetCheckResult(
        passed=bad == 0,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "rows": total,
            "invalid_rows": int(bad),
            "invalid_missed_rows": int(bad_missed),
            "threshold": "0 rows",
        },
    )
