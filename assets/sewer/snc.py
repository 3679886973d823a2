"""``snc_determinations`` (+ ``snc_evaluations``): significant noncompliance per
40 CFR 403.8(f)(2)(viii) over the rules' periods, and the check of its arithmetic."""

import datetime as dt
from collections import defaultdict
from fractions import Fraction
from typing import Any

import duckdb
from dagster import AssetCheckResult, AssetCheckSeverity, MaterializeResult, MetadataValue
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, table_asset, table_check, table_result, warehouse
from assets.sewer.dated import Dated, _built, _counts, enforcement_rules
from outfall.law import enforcement as law
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules.words import DESCRIBE
from outfall.warehouse import records, sql

# The three sets of measurements of a user, parameter and period, in the order that breaks a tie
# between them (equal pct: the per-sample set, then daily maximums, then monthly averages).
SNC_BASES = ("sample", "daily_max", "monthly_avg")
BASIS_WORDS = {
    "sample": ("results breaking the limit", "measurements", "results"),
    "daily_max": ("daily maximums above their limit", "daily maximums judged", "daily maximums"),
    "monthly_avg": ("monthly averages above their limit", "monthly averages judged", "monthly averages"),
}


def _period(on: Dated, day: dt.date, subject: str) -> tuple[dt.date, dt.date] | None:
    """The period of the rules in effect on ``day`` that holds it (January-June, July-December for six
    months); None (and a thing not judged) when no criteria are in effect that day."""
    snc = on.get("snc", day, subject)
    return None if snc is None else law.half_year(day, snc.period_months)


def statistic_counts(
    parameter: str, values: list[tuple[float, float, bool]], snc
) -> tuple[int, int, int | None]:
    """(measurements, breaking, reaching TRC or None) of one set of judged statistics: each
    (value, limit, passes) is one measurement; it breaks its limit when it does not pass (strictly
    above); TRC when value >= limit x the parameter's factor (never for a parameter TRC excludes)."""
    measurements = len(values)
    breaking = sum(1 for _, _, passes in values if not passes)
    if law.trc_excluded(parameter, snc):
        return measurements, breaking, None
    factor = law.trc_factor(parameter, snc)
    return measurements, breaking, sum(1 for v, limit, _ in values if law.trc_reached(v, limit, factor))


def choose_basis(met: dict[str, list[law.Criterion]], criterion: str) -> tuple[str, law.Criterion] | None:
    """The set a criterion is reported on: the highest pct (exact), a tie in SNC_BASES order."""
    best = None
    for basis in SNC_BASES:
        for c in met.get(basis, []):
            if c.criterion != criterion:
                continue
            ratio = Fraction(c.count, c.measurements)
            if best is None or ratio > best[0]:
                best = (ratio, basis, c)
    return None if best is None else (best[1], best[2])


Key = tuple  # (user_id, parameter, period_start, period_end)
Statistics = dict[str, list[tuple[float, float, bool]]]


def build_snc(con: duckdb.DuckDBPyConnection, on: Dated, as_of: dt.date) -> tuple[list[dict], list[dict]]:
    """(snc_determinations rows, snc_evaluations rows). A result, daily maximum or monthly average belongs
    to the period the criteria in effect on its (first) day define; a period is judged by the criteria in
    effect on its last day. Per-sample results, judged daily maximums and judged monthly averages are three
    sets of measurements, each judged on its own."""
    groups, statistics = _measurements(con, on)
    determinations: list[dict] = []
    evaluations: list[dict] = []
    for key in sorted(set(groups) | set(statistics), key=lambda k: (k[0], k[2], k[1])):
        user_id, parameter, period_start, period_end = key
        snc = on.get("snc", period_end, f"{parameter} results of {user_id}, {period_start} to {period_end}")
        if snc is None:
            continue
        counts: dict[str, tuple[int, int, int | None]] = {}
        if key in groups:
            counts["sample"] = law.snc_counts(parameter, groups[key], snc)
        for basis in ("daily_max", "monthly_avg"):
            if statistics.get(key, {}).get(basis):
                counts[basis] = statistic_counts(parameter, statistics[key][basis], snc)
        met = {basis: law.criteria_met(m, b, t, snc) for basis, (m, b, t) in counts.items()}
        evaluations += _evaluations(key, snc, counts, met, as_of)
        determinations += _determinations(key, snc, met)
    determinations += _late_reports(con, on, as_of)
    determinations.sort(key=lambda r: (r["user_id"], r["period_start"], r["criterion"], r["parameter"] or ""))
    return determinations, evaluations


def _measurements(
    con: duckdb.DuckDBPyConnection, on: Dated
) -> tuple[dict[Key, dict[str, list[law.Evaluation]]], dict[Key, Statistics]]:
    """The per-sample evaluations (by sample) and the judged statistics (by basis) of each user, parameter
    and period; what falls in no period of the rules goes to ``on.missing``, one line per user, parameter
    and year."""
    groups: dict[Key, dict[str, list[law.Evaluation]]] = defaultdict(lambda: defaultdict(list))
    unjudged: dict[tuple, list[dt.date]] = defaultdict(list)
    for r in records(con, "select_snc_evaluations"):
        period = _period(on, r["collected_date"], "")
        if period is None:
            unjudged[(r["user_id"], r["parameter"], r["collected_date"].year)].append(r["collected_date"])
            continue
        groups[(r["user_id"], r["parameter"], *period)][r["sample_id"]].append(
            law.Evaluation(
                r["sample_id"],
                r["limit_type"],
                r["limit_value"],
                r["value"],
                bool(r["nondetect"]),
                r["outcome"],
            )
        )
    statistics: dict[Key, Statistics] = defaultdict(lambda: defaultdict(list))
    for r in records(con, "select_snc_statistics"):
        period = _period(on, r["statistic_start"], "")
        if period is None:
            unjudged[(r["user_id"], r["parameter"], r["statistic_start"].year)].append(r["statistic_start"])
            continue
        key = (r["user_id"], r["parameter"], *period)
        statistics[key][r["statistic"]].append((r["value"], r["limit_value"], bool(r["passes"])))
    for (user_id, parameter, year), days in sorted(unjudged.items()):
        on.get(
            "snc",
            min(days),
            f"{parameter} results of {user_id} in {year} ({len(days)} comparisons with a limit)",
        )
    return groups, statistics


def _evaluations(
    key: Key, snc: Any, counts: dict[str, tuple[int, int, int | None]], met: dict, as_of: dt.date
) -> list[dict]:
    """The snc_evaluations rows of one user, parameter and period: one per set of measurements."""
    user_id, parameter, period_start, period_end = key
    factor = None if law.trc_excluded(parameter, snc) else law.trc_factor(parameter, snc)
    never = "" if factor is not None else f"; {parameter} is never judged by the technical review criteria"
    return [
        {
            "user_id": user_id,
            "period_start": period_start,
            "period_end": period_end,
            "parameter": parameter,
            "measurements": measurements,
            "violations": breaking,
            "trc_results": trc,
            "chronic_pct_needed": float(snc.chronic_pct),
            "trc_pct_needed": float(snc.trc_pct),
            "trc_factor": float(factor) if factor is not None else None,
            "chronic": any(c.criterion == "chronic" for c in met[basis]),
            "trc": any(c.criterion == "trc" for c in met[basis]),
            "period_closed": period_end < as_of,
            "basis": basis,
            "rule": snc.citation + never,
        }
        for basis, (measurements, breaking, trc) in counts.items()
    ]


def _determinations(key: Key, snc: Any, met: dict[str, list[law.Criterion]]) -> list[dict]:
    """The snc_determinations rows of one user, parameter and period: each criterion met, on its set."""
    user_id, parameter, period_start, period_end = key
    span = f"the {snc.period_months}-month period"
    factor = None if law.trc_excluded(parameter, snc) else law.trc_factor(parameter, snc)
    out = []
    for criterion in ("chronic", "trc"):
        chosen = choose_basis(met, criterion)
        if chosen is None:
            continue
        basis, c = chosen
        breaking_words, judged_words, plural = BASIS_WORDS[basis]
        rule = (
            f"{snc.citation}: chronic, {breaking_words} are {snc.chronic_pct}% or more of the "
            f"{judged_words} in {span}"
            if criterion == "chronic"
            else f"{snc.citation}: technical review criteria, {plural} equal to or above the limit x "
            f"{factor} are {snc.trc_pct}% or more of the "
            f"{'measurements' if basis == 'sample' else plural} in {span}"
        )
        out.append(
            {
                "user_id": user_id,
                "period_start": period_start,
                "period_end": period_end,
                "parameter": parameter,
                "criterion": c.criterion,
                "measurements": c.measurements,
                "count": c.count,
                "pct": c.pct,
                "basis": basis,
                "rule": rule,
            }
        )
    return out


def _late_reports(con: duckdb.DuckDBPyConnection, on: Dated, as_of: dt.date) -> list[dict]:
    """The late-report determinations: a user's reports due in a period, judged by its last day's rules."""
    due: dict[tuple, list[tuple[dt.date, dt.date | None]]] = defaultdict(list)
    for r in records(con, "select_enforcement_reports"):
        if r["due_date"] is None:
            continue
        period = _period(on, r["due_date"], f"report of {r['user_id']} due {r['due_date']}")
        if period is not None:
            due[(r["user_id"], period)].append((r["due_date"], r["received_on"]))
    out = []
    for (user_id, (period_start, period_end)), items in sorted(due.items()):
        snc = on.get("snc", period_end, f"reports of {user_id} due {period_start} to {period_end}")
        if snc is None:
            continue
        c = law.late_report_criterion(items, as_of, snc.late_report_days)
        if c is not None:
            out.append(
                {
                    "user_id": user_id,
                    "period_start": period_start,
                    "period_end": period_end,
                    "parameter": None,
                    "criterion": c.criterion,
                    "measurements": c.measurements,
                    "count": c.count,
                    "pct": c.pct,
                    "basis": None,
                    "rule": (
                        f"{snc.citation}: reports received more than {snc.late_report_days} days after "
                        f"their due date (not received: more than {snc.late_report_days} days past due on "
                        "the day judged)"
                    ),
                }
            )
    return out


@table_asset(
    GROUP_SEWER,
    deps=["discharge_violations", "statistic_violations", "reports"],
    description=DESCRIBE.snc_determinations(),
)
def snc_determinations(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    with _built(duckdb, settings, rules, build_snc, "snc_determinations", "snc_evaluations") as (
        con,
        as_of,
        built,
    ):
        determinations, evaluations = built
        return table_result(
            con,
            "snc_determinations",
            as_of=str(as_of),
            periods_evaluated=len(evaluations),
            by_criterion=MetadataValue.json(_counts(determinations, "criterion")),
            users_in_snc=len({d["user_id"] for d in determinations}),
        )


@table_check(
    asset=snc_determinations,
    description="Every SNC determination meets its criterion's threshold in "
    "exact arithmetic (count x 100 >= pct x measurements), with pct = 100 x count / measurements and "
    "no pH row under the technical review criteria.",
)
def check_validity_snc_determinations_pct(duckdb: DuckDBResource, rules: RulesResource) -> AssetCheckResult:
    versions = Dated(enforcement_rules(rules)).versions("snc")
    with warehouse(duckdb) as con:
        rows = con.execute(sql("select_snc_determination_counts")).fetchall()
    bad = []
    for user_id, start, end, parameter, criterion, measurements, n, pct in rows:
        snc = versions.get(end)  # a period is judged by the criteria in effect on its last day
        needed = {} if snc is None else {"chronic": snc.chronic_pct, "trc": snc.trc_pct, "late_report": 0}
        ok = (
            criterion in needed
            and 0 < n <= measurements
            and law.pct_reached(n, measurements, needed[criterion])
            and abs(pct - 100.0 * n / measurements) < 1e-9
            and not (criterion == "trc" and parameter is not None and law.trc_excluded(parameter, snc))
        )
        if not ok:
            bad.append(f"{user_id} {start} {parameter} {criterion}: {n}/{measurements} ({pct})")
    return AssetCheckResult(
        passed=not bad,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "rows": len(rows),
            "bad_rows": len(bad),
            "examples": MetadataValue.md("\n".join(f"- {b}" for b in bad[:20]) or "none"),
        },
    )
