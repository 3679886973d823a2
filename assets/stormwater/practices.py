"""Post-construction stormwater management practices (contract 5.4), for the stormwater
management officer: ``smp_findings``.

Per practice (input ``smp_practices``) on a construction site (``sites``), as of --as-of:

- ``as_built``: once the site's final stabilization is on or before --as-of, an as-built
  plan certified by a professional engineer is due (the stormwater law of each jurisdiction,
  stormwater management practice inspections);
- ``maintenance_agreement``: recorded before final plan approval (the same day is in time;
  both jurisdictions' texts require it);
- ``one_year_inspection``: one year after final acceptance;
- ``guarantee_release``: the construction completion guarantee released before a year from
  final acceptance or before the one-year inspection.

The arithmetic is ``outfall/law/practices.py``; the sentences and the numbers come from each
jurisdiction's ``post_construction`` rules, the version in effect on the day the site's
construction began. ``met`` rows are left out. A practice on a site that is not in ``sites``,
or whose site began before its jurisdiction's rules took effect, is set aside in
``quarantine`` with the reason.
"""

import datetime as dt
from collections import defaultdict

import pandas as pd
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    MaterializeResult,
    MetadataValue,
)
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_STORMWATER, check_rows, table_asset, table_check, warehouse
from outfall.law.practices import Practice, smp_findings as law_findings
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.rules.dated import first_day_text
from outfall.set_aside import SetAside, replace_set_aside
from outfall.warehouse import count, preview_markdown, records, replace_rows, sql, transaction

JUDGED_BY = "smp_findings"
COLUMNS = [
    "practice_id",
    "site_id",
    "finding",
    "rule",
    "due",
    "status",
    "jurisdiction",
    "practice_type",
    "as_of",
]


def build_practice_findings(
    con, rules: dict[str, Rules], as_of: dt.date
) -> tuple[list[dict], list[SetAside], list[str]]:
    """(smp_findings rows, rows set aside, jurisdictions whose rules have no post_construction section)."""
    rows: list[dict] = []
    aside: list[SetAside] = []
    unruled: set[str] = set()
    for p in records(con, "select_smp_practices"):
        where = ("smp_practices", p["source_file"], p["source_row"])
        raw = {"practice_id": p["practice_id"], "site_id": p["site_id"]}
        if not p["site_known"]:
            aside.append(
                SetAside(
                    *where,
                    f"practice {p['practice_id']} is on site {p['site_id']}, which is not "
                    f"among the construction sites: add the site or correct the site number",
                    raw,
                )
            )
            continue
        jurisdiction = p["jurisdiction"]
        versions = rules[jurisdiction].post_construction if jurisdiction in rules else None
        if versions is None:
            unruled.add(jurisdiction)
            continue
        terms = versions.get(p["construction_start"])
        if terms is None:
            first = min(versions, key=lambda v: v.starts)
            aside.append(
                SetAside(
                    *where,
                    (
                        f"practice {p['practice_id']} is on site {p['site_id']}, whose construction began "
                        f"on {p['construction_start'].isoformat()}, when no version of {first.citation} was "
                        f"in effect (the first from {first_day_text(first)}): its findings are "
                        "not worked out; check the site's construction start"
                    ),
                    raw,
                )
            )
            continue
        practice = Practice.model_validate(p)
        for f in law_findings(practice, p["final_stabilization"], jurisdiction, {jurisdiction: terms}, as_of):
            rows.append(
                {
                    "practice_id": f.practice_id,
                    "site_id": f.site_id,
                    "finding": f.finding,
                    "rule": f.rule,
                    "due": f.due,
                    "status": f.status,
                    "jurisdiction": jurisdiction,
                    "practice_type": p["practice_type"],
                    "as_of": as_of,
                }
            )
    return rows, aside, sorted(unruled)


@table_asset(
    GROUP_STORMWATER,
    deps=["smp_practices", "sites"],
    description="Post-construction stormwater management practices on the day judged: as-built plans "
    "certified by a professional engineer after final stabilization, the maintenance agreement "
    "recorded before final plan approval, the inspection one year after final acceptance, and the "
    "construction completion guarantee not released before that year and that inspection (the "
    "stormwater law of the site's jurisdiction), each finding citing its section; met rows left "
    "out.",
)
def smp_findings(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    as_of = settings.as_of_date()
    with warehouse(duckdb, as_of=as_of) as con:
        rows, aside, unruled = build_practice_findings(con, rules.all_rules(), as_of)
        if unruled:
            context.log.warning(
                f"no post_construction rules for {', '.join(unruled)}: their practices are not judged"
            )
        frame = pd.DataFrame(rows, columns=COLUMNS)
        with transaction(con):
            replace_rows(con, "smp_findings", frame)
            set_aside = replace_set_aside(con, JUDGED_BY, aside)
        by = defaultdict(int)
        for r in rows:
            by[f"{r['jurisdiction']} / {r['finding']} / {r['status']}"] += 1
        return MaterializeResult(
            metadata={
                "dagster/row_count": count(con, "smp_findings"),
                "as_of": str(as_of),
                "rows_set_aside": set_aside,
                "not_judged_jurisdictions": MetadataValue.json(unruled),
                "by_finding_and_status": MetadataValue.json(dict(sorted(by.items()))),
                "preview": MetadataValue.md(preview_markdown(con, "smp_findings")),
            }
        )


@table_check(
    asset=smp_findings,
    blocking=False,
    description="Every finding is one of the four, with a status of late, open or overdue ("
    "a guarantee released early is overdue) and a rule citing its section. Threshold: 0 rows "
    "that are not. Severity ERROR.",
)
def check_validity_smp_status(duckdb: DuckDBResource) -> AssetCheckResult:
    rows, total = check_rows(duckdb, sql("check_validity_smp_status"), table="smp_findings")
    bad = rows[0][0]
    return AssetCheckResult(
        passed=bad == 0,
        severity=AssetCheckSeverity.ERROR,
        metadata={"rows": total, "invalid_rows": int(bad), "threshold": "0 rows"},
    )
