"""Assets of the sewer administrator: the compliance core of Woodbury ch. 253 Part 2.

- ``discharge_violations``: every lab result against every per-sample limit
  (Part 2 defaults, Table 7-1 from the rules, permit limits replacing them);
  also writes ``discharge_evaluations``, ``inconclusive_results``,
  ``unlimited_results`` and ``discharge_limit_defaults``.
- ``statistic_violations``: daily-maximum and monthly-average permit limits;
  also writes ``statistic_results`` and ``nondetect_policies``.
- ``slug_events``: slug discharges in the continuous readings (table ``flow``);
  also ``slug_baseline_gaps`` and the detection state (``slug_daily_stats``,
  ``slug_intervals``, ``slug_state``), so that appended days are judged
  without re-reading the whole history.
- ``infiltration_results`` (+ ``infiltration_findings``).
- ``compliance_summary``: per industrial user and month.

The law's numbers come from ``rules/woodbury.yaml``; the work is SQL in ``sql/``
(the pure functions in ``outfall/law`` state the same readings for tests).
"""

# No `from __future__ import annotations`: Dagster reads the `context` annotation at runtime.
import datetime as dt
import functools
import hashlib
import json
import resource
import time
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
import pandas as pd
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    MaterializeResult,
    asset,
    asset_check,
)
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, table_result, warehouse
from outfall.law.slug import SlugParams
from outfall.resources import OutfallSettings
from outfall.rules import Rules, RulesError, _parse_limits, load_rules
from outfall.warehouse import replace_rows, sql, transaction

JURISDICTION = "woodbury"
UTC = dt.timezone.utc
FAR_PAST = dt.datetime(1900, 1, 1, tzinfo=UTC)
FAR_FUTURE = dt.datetime(9999, 1, 1, tzinfo=UTC)
DAY_ZERO = dt.date(1900, 1, 1)

# Readings of the compliance core this code implements (rules section
# readings_sewer_compliance); a rules file asking for another fails loudly.
IMPLEMENTED_READINGS = {
    "daily_value": "composite_else_mean_of_grabs",
    "monthly_value": "mean_of_results",
    "overlapping_permit_limits": "latest_effective_from_then_strictest",
    "nondetect_against_minimum": "below_limit_is_violation",
    "slug_usual_interval": "median_daily_spacing",
    "slug_duration_display": "ceil_minutes",
}


def sewer_rules(settings: OutfallSettings) -> Rules:
    rules = load_rules(JURISDICTION, settings.rules_path())
    readings = rules.raw.get("readings_sewer_compliance") or {}
    for name, value in IMPLEMENTED_READINGS.items():
        if name in readings and readings[name].get("value") != value:
            raise RulesError(f"{rules.source.name}: readings_sewer_compliance.{name} = "
                             f"{readings[name].get('value')!r}; this version implements only {value!r}")
    return rules


def _compliance(rules: Rules, key: str, fallback: str) -> str:
    section = rules.raw.get("sewer_compliance") or {}
    return str(section.get(key) or fallback)


# ----------------------------------------------------------- discharge limits


def default_limits_frame(rules: Rules) -> pd.DataFrame:
    """The jurisdiction's limits as applied: Part 2 (discharge_limits) and Table 7-1."""
    rows = []
    table_7_1 = rules.raw.get("table_7_1") or {}
    groups = [("Part 2", rules.discharge_limits)]
    if table_7_1.get("limits"):
        groups.append(("Table 7-1", _parse_limits(table_7_1["limits"], f"{rules.source.name}: table_7_1.limits")))
    for source, limits in groups:
        for lim in limits:
            rows.append({"parameter": lim.parameter, "limit_type": lim.limit_type, "value": lim.value,
                         "unit": lim.unit, "effective_from": lim.effective_from,
                         "effective_to": lim.effective_to, "source": source, "rule": lim.citation,
                         "rules_version": rules.version})
    return pd.DataFrame(rows, columns=["parameter", "limit_type", "value", "unit", "effective_from",
                                       "effective_to", "source", "rule", "rules_version"])


def nondetect_policy_frame(rules: Rules) -> tuple[pd.DataFrame, str]:
    section = rules.section("nondetect_averaging")
    default = str(section["default"])
    rows = [{"parameter": "*", "policy": default, "rule": section["citation"]}]
    for parameter, policy in (section.get("by_parameter") or {}).items():
        rows.append({"parameter": str(parameter), "policy": str(policy), "rule": section["citation"]})
    for row in rows:
        if row["policy"] not in ("zero", "half_dl", "dl"):
            raise RulesError(f"{rules.source.name}: nondetect_averaging: policy {row['policy']!r} "
                             "is not one of zero, half_dl, dl")
    return pd.DataFrame(rows), default


def _count_by(con: duckdb.DuckDBPyConnection, table: str, column: str) -> dict[str, int]:
    rows = con.execute(f'SELECT "{column}", count(*) FROM "{table}" GROUP BY 1 ORDER BY 1').fetchall()
    return {str(k): int(v) for k, v in rows}


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb"},
    deps=["lab_results", "permit_limits", "industrial_users"],
    description="Sample results that break a per-sample limit of Woodbury ch. 253 Part 2 (BOD > 240, "
                "chlorine demand > 25, COD > 600, TSS > 300, FOG > 100 mg/L, temperature > 150 degF, "
                "pH < 5.5 or > 9.5; Table 7-1 / metals from the rules), permit limits (special "
                "agreements) replacing the default while in effect. Also writes discharge_evaluations, "
                "inconclusive_results (non-detects above a limit) and unlimited_results (no limit defined).",
)
def discharge_violations(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = sewer_rules(settings)
    params_permit = {"permit_citation": _compliance(
        rules, "permit_limit_citation", "Woodbury Code ch. 253 Part 2, special agreements")}
    with warehouse(duckdb) as con:
        with transaction(con):
            replace_rows(con, "discharge_limit_defaults", default_limits_frame(rules))
            for table in ("discharge_evaluations", "discharge_violations", "inconclusive_results",
                          "unlimited_results"):
                con.execute(f'DELETE FROM "{table}"')
            con.execute(sql("insert_discharge_evaluations"), params_permit)
            con.execute(sql("insert_discharge_violations"))
            con.execute(sql("insert_inconclusive_results"), {"inconclusive_citation": _compliance(
                rules, "inconclusive_citation", "Contract section 4: non-detect above the limit")})
            con.execute(sql("insert_unlimited_results"), {"no_limit_citation": _compliance(
                rules, "no_limit_citation", "Woodbury Code ch. 253 Part 2: no limit defined")})
        return table_result(
            con, "discharge_violations",
            violations_by_parameter=_count_by(con, "discharge_violations", "parameter"),
            evaluations=_count_by(con, "discharge_evaluations", "outcome"),
            inconclusive_results=int(con.execute("SELECT count(*) FROM inconclusive_results").fetchone()[0]),
            unlimited_results=int(con.execute("SELECT count(*) FROM unlimited_results").fetchone()[0]),
            rules_version=rules.version,
        )


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb"},
    # discharge_limit_defaults (the rules' limits as applied) is written by discharge_violations.
    deps=["lab_results", "permit_limits", "industrial_users", "discharge_violations"],
    description="Daily-maximum (the day's composite, else the mean of its grabs) and monthly-average "
                "(mean of the month's results) permit limits, strictly exceeded, with non-detects averaged "
                "per the rules' nondetect_averaging policy (Woodbury ch. 253 Part 2, special agreements). "
                "Also writes statistic_results (every period judged).",
)
def statistic_violations(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = sewer_rules(settings)
    policies, default_policy = nondetect_policy_frame(rules)
    with warehouse(duckdb) as con:
        with transaction(con):
            replace_rows(con, "nondetect_policies", policies)
            con.execute("DELETE FROM statistic_results")
            con.execute("DELETE FROM statistic_violations")
            con.execute(sql("insert_statistic_results"), {
                "statistic_citation": _compliance(rules, "statistic_citation",
                                                  "Woodbury Code ch. 253 Part 2, special agreements"),
                "nd_default": default_policy,
            })
            con.execute(sql("insert_statistic_violations"))
        return table_result(
            con, "statistic_violations",
            periods_judged=int(con.execute("SELECT count(*) FROM statistic_results").fetchone()[0]),
            violations_by_statistic=_count_by(con, "statistic_violations", "statistic"),
            nondetect_default_policy=default_policy,
        )


# --------------------------------------------------------------------- slugs


def slug_sql_params(rules: Rules) -> dict[str, Any]:
    p = SlugParams.from_rules(rules)
    return {"ratio": p.ratio, "min_duration_min": p.min_duration_min, "baseline_days": p.baseline_days,
            "min_days": p.min_baseline_days, "gap_factor": p.gap_factor, "tz": p.timezone,
            "citation": str(rules.section("slug")["citation"])}


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _timed(con: duckdb.DuckDBPyConnection, clock: dict[str, float], name: str, params: Any = None) -> None:
    t = time.perf_counter()
    con.execute(sql(name), params or {})
    clock[f"{name}_s"] = time.perf_counter() - t


def _local_midnight(day: dt.date, tz: ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0), tzinfo=tz)


def _intervals(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], float | None]:
    return {(u, c): i for u, c, i in con.execute(
        "SELECT user_id, constituent, interval_s FROM slug_intervals").fetchall()}


@functools.lru_cache(maxsize=8)
def check_whole_hour_zone(timezone: str) -> None:
    """Slug SQL assigns local days per UTC hour: the zone's offsets (1970-2100)
    must be whole hours, so that no UTC hour straddles a local midnight."""
    tz = ZoneInfo(timezone)
    for year in range(1970, 2101):
        for month in range(1, 13):
            offset = dt.datetime(year, month, 1, tzinfo=tz).utcoffset()
            if offset.total_seconds() % 3600:
                raise RulesError(f"time zone {timezone}: offset {offset} is not a whole hour")


def run_slug_detection(con: duckdb.DuckDBPyConnection, rules: Rules, since: dt.date | None = None,
                       timings: dict[str, float] | None = None) -> dict[str, Any]:
    """Detect slugs over the temp views ``slug_readings`` (user_id, constituent,
    ts, value) and ``slug_permits`` (user_id, normal_avg_flow_gpd).

    ``since=None`` judges every reading. ``since=DAY`` re-judges from local
    day DAY on (readings were appended from DAY): earlier daily statistics and
    slug events are kept, and only readings from the day before DAY (or the
    start of a slug still running then) on are read. When the appended days
    change a user's usual reading interval, everything is judged again.
    Runs inside the caller's transaction; writes slug_daily_stats,
    slug_intervals, slug_events and slug_baseline_gaps.
    """
    p = slug_sql_params(rules)
    tz = ZoneInfo(p["tz"])
    check_whole_hour_zone(p["tz"])
    clock = timings if timings is not None else {}
    t0, c0 = time.perf_counter(), _cpu_s()
    if since is None:
        from_day, emit_from = DAY_ZERO, FAR_PAST
        scan_from = FAR_PAST
        con.execute("DELETE FROM slug_events")
    else:
        margin_day = since - dt.timedelta(days=1)
        emit_from = _local_midnight(margin_day, tz)
        earliest = con.execute("SELECT min(start_at) FROM slug_events WHERE end_at >= ?", [emit_from]).fetchone()[0]
        from_day = min(margin_day, earliest.astimezone(tz).date()) if earliest is not None else margin_day
        scan_from = _local_midnight(from_day, tz)
        con.execute("DELETE FROM slug_events WHERE end_at >= ?", [emit_from])
    before = _intervals(con) if since is not None else {}
    window = {"scan_from": scan_from, "scan_to": FAR_FUTURE}

    con.execute(sql("aggregate_slug_hours"), window)
    clock["pass1_s"] = time.perf_counter() - t0
    clock["pass1_cpu_s"] = _cpu_s() - c0
    t1 = time.perf_counter()
    _timed(con, clock, "create_slug_tz_hours", {"tz": p["tz"]})
    _timed(con, clock, "delete_slug_days", {"from_day": from_day})
    _timed(con, clock, "insert_slug_days")
    _timed(con, clock, "update_slug_baselines", {
        "from_day": from_day, "ratio": p["ratio"], "baseline_days": p["baseline_days"], "min_days": p["min_days"]})
    con.execute("DELETE FROM slug_intervals")
    _timed(con, clock, "insert_slug_intervals")
    if since is not None:
        after = _intervals(con)
        if any(key in after and after[key] != value for key, value in before.items()):
            result = run_slug_detection(con, rules, None, timings)
            result["fallback"] = "usual reading interval changed: judged everything again"
            return result
    _timed(con, clock, "select_slug_scan_hours", {"gap_factor": p["gap_factor"]})
    clock["baselines_s"] = time.perf_counter() - t1
    t2, c2 = time.perf_counter(), _cpu_s()
    con.execute(sql("select_slug_candidates"), window)
    clock["pass2_s"] = time.perf_counter() - t2
    clock["pass2_cpu_s"] = _cpu_s() - c2
    t3, c3 = time.perf_counter(), _cpu_s()
    con.execute(sql("detect_slug_events"), {
        "gap_factor": p["gap_factor"], "min_duration_min": p["min_duration_min"], "emit_from": emit_from,
        "citation": p["citation"]})
    con.execute("DELETE FROM slug_baseline_gaps")
    con.execute(sql("insert_slug_baseline_gaps"), {
        "min_days": p["min_days"], "baseline_days": p["baseline_days"], "citation": p["citation"]})
    clock["runs_s"] = time.perf_counter() - t3
    clock["runs_cpu_s"] = _cpu_s() - c3
    candidates = int(con.execute("SELECT count(*) FROM slug_candidates").fetchone()[0])
    for temp in ("slug_candidates", "slug_scan_hours", "slug_tz_hours", "slug_hours"):
        con.execute(f"DROP TABLE IF EXISTS {temp}")
    clock["total_s"] = time.perf_counter() - t0
    return {"mode": "full" if since is None else "incremental", "detected_from": None if since is None else from_day,
            "candidate_readings": candidates}


def _slug_fingerprint(con: duckdb.DuckDBPyConnection, rules: Rules) -> str:
    permits = con.execute("SELECT user_id, normal_avg_flow_gpd FROM slug_permits ORDER BY user_id").fetchall()
    return hashlib.sha256(json.dumps([rules.sha256, permits], default=str).encode()).hexdigest()


def plan_slug_detection(con: duckdb.DuckDBPyConnection, fingerprint: str, tz: ZoneInfo) -> tuple[str, dt.date | None]:
    """('full', None), ('incremental', first new local day) or ('unchanged', None).

    Incremental only when the flow table changed by appending readings later
    than every reading already judged (loaded_at tells the new rows), and the
    rules and permits' normal flows are those of the last run."""
    state = con.execute("SELECT flow_rows, flow_max_ts, loaded_at, fingerprint FROM slug_state").fetchone()
    rows, _, max_loaded = con.execute("SELECT count(*), max(ts), max(loaded_at) FROM flow").fetchone()
    if state is None or state[3] != fingerprint or state[2] is None or max_loaded is None:
        return "full", None
    new_rows, new_min_ts = con.execute("SELECT count(*), min(ts) FROM flow WHERE loaded_at > ?", [state[2]]).fetchone()
    if new_rows != rows - state[0]:
        return "full", None
    if new_rows == 0:
        return "unchanged", None
    if state[1] is not None and new_min_ts <= state[1]:
        return "full", None
    return "incremental", new_min_ts.astimezone(tz).date()


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb"},
    deps=["flow", "industrial_users"],
    description="Slug discharges (Woodbury ch. 253 Part 2, definition of SLUG): per user and constituent, "
                "runs of readings above 5 x the baseline (permit normal_avg_flow_gpd / 1440, else the median "
                "of the daily means of the 30 local days before, >= 7 days needed) lasting longer than "
                "15 minutes. Days without a baseline are listed in slug_baseline_gaps. Appended readings "
                "are judged incrementally.",
)
def slug_events(context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = sewer_rules(settings)
    tz = ZoneInfo(SlugParams.from_rules(rules).timezone)
    with warehouse(duckdb) as con:
        with transaction(con):
            con.execute(sql("create_slug_views"))
            fingerprint = _slug_fingerprint(con, rules)
            mode, since = plan_slug_detection(con, fingerprint, tz)
            timings: dict[str, float] = {}
            info: dict[str, Any] = {"mode": mode}
            if mode != "unchanged":  # nothing new: the tables and the state stay as they are
                info = run_slug_detection(con, rules, since if mode == "incremental" else None, timings)
                rows, max_ts, max_loaded = con.execute("SELECT count(*), max(ts), max(loaded_at) FROM flow").fetchone()
                con.execute("DELETE FROM slug_state")
                con.execute("INSERT INTO slug_state VALUES (?, ?, ?, ?, ?, ?)",
                            [rows, max_ts, max_loaded, fingerprint, info["mode"], info.get("detected_from")])
        context.log.info(f"slug detection: {info}")
        return table_result(
            con, "slug_events",
            mode=str(info["mode"]),
            detected_from=str(info.get("detected_from")),
            seconds={k: round(v, 3) for k, v in timings.items()},
            slugs_by_constituent=_count_by(con, "slug_events", "constituent"),
            users_lacking_baseline=int(con.execute("SELECT count(*) FROM slug_baseline_gaps").fetchone()[0]),
        )


# -------------------------------------------------------------- infiltration


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb"},
    deps=["infiltration_tests"],
    description="Infiltration tests against Woodbury ch. 253 Part 2: allowable 200 gallons per inch of "
                "diameter per mile per day; a failing section is also a finding (infiltration_findings).",
)
def infiltration_results(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = sewer_rules(settings)
    section = rules.section("infiltration")
    with warehouse(duckdb) as con:
        with transaction(con):
            con.execute("DELETE FROM infiltration_results")
            con.execute("DELETE FROM infiltration_findings")
            con.execute(sql("insert_infiltration_results"), {
                "gal": float(section["gal_per_inch_diameter_per_mile_per_day"]),
                "feet_per_mile": float(section["feet_per_mile"]),
                "citation": str(section["citation"])})
            con.execute(sql("insert_infiltration_findings"))
        return table_result(
            con, "infiltration_results",
            failing_sections=int(con.execute("SELECT count(*) FROM infiltration_findings").fetchone()[0]),
        )


# ----------------------------------------------------------------- summary


@asset(
    group_name=GROUP_SEWER,
    kinds={"duckdb"},
    deps=["discharge_violations", "statistic_violations", "slug_events", "industrial_users", "lab_results",
          "discharges_without_permit"],
    description="Per industrial user and month: samples taken, parameters evaluated, violations, slugs, days of "
                "discharge without a permit (ch. 253 Part 2), "
                "worst exceedance ratio, and the permit's expiry with days left as of --as-of (flagged "
                "within the rules' notices.permit_expiry_warning_days).",
)
def compliance_summary(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    rules = sewer_rules(settings)
    notices = rules.section("notices")
    tz = SlugParams.from_rules(rules).timezone
    with warehouse(duckdb) as con:
        with transaction(con):
            con.execute("DELETE FROM compliance_summary")
            con.execute(sql("insert_compliance_summary"), {
                "as_of": settings.as_of_date(), "warn_days": int(notices["permit_expiry_warning_days"]),
                "tz": tz, "citation": str(notices.get("citation_permit_expiry", ""))})
        flagged = con.execute(
            "SELECT DISTINCT user_id FROM compliance_summary WHERE permit_expiry_flag ORDER BY 1").fetchall()
        return table_result(con, "compliance_summary", as_of=str(settings.as_of_date()),
                            permits_flagged=[r[0] for r in flagged])


# ------------------------------------------------------------- asset checks


@asset_check(asset=discharge_violations, description="Every violation breaks its limit strictly "
             "(value > limit for a maximum, < for a minimum, or a non-detect at or below a minimum).")
def check_validity_discharge_violations_limit(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        bad = con.execute("""
            SELECT count(*) FROM discharge_violations v
            WHERE NOT ((v.limit_type = 'max' AND v.value > v.limit_value)
                    OR (v.limit_type = 'min' AND v.value <= v.limit_value))""").fetchone()[0]
    return AssetCheckResult(passed=bad == 0, severity=AssetCheckSeverity.ERROR,
                            metadata={"rows_not_breaking_their_limit": int(bad), "threshold": 0})


@asset_check(asset=discharge_violations, description="Every lab result is judged: compared with a "
             "per-sample limit, covered by a statistic limit, or reported as 'no limit defined'.")
def check_completeness_lab_results_parameter(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        total, judged = con.execute("""
            SELECT (SELECT count(*) FROM lab_results),
                   (SELECT count(*) FROM lab_results r WHERE
                        EXISTS (SELECT 1 FROM discharge_evaluations e WHERE e.sample_id IS NOT DISTINCT FROM r.sample_id
                                AND e.user_id IS NOT DISTINCT FROM r.user_id AND e.parameter IS NOT DISTINCT FROM r.parameter)
                     OR EXISTS (SELECT 1 FROM unlimited_results u WHERE u.sample_id IS NOT DISTINCT FROM r.sample_id
                                AND u.user_id IS NOT DISTINCT FROM r.user_id AND u.parameter IS NOT DISTINCT FROM r.parameter)
                     OR EXISTS (SELECT 1 FROM permit_limits l WHERE l.user_id = r.user_id
                                AND lower(l.parameter) = lower(r.parameter)
                                AND l.limit_type IN ('daily_max', 'monthly_avg'))
                     OR EXISTS (SELECT 1 FROM discharge_limit_defaults d WHERE lower(d.parameter) = lower(r.parameter)
                                AND d.limit_type IN ('daily_max', 'monthly_avg')))""").fetchone()
    return AssetCheckResult(passed=total == judged, severity=AssetCheckSeverity.ERROR,
                            metadata={"lab_results": int(total), "judged": int(judged),
                                      "dropped": int(total - judged), "threshold": 0})


@asset_check(asset=slug_events, description="Every slug event lasts longer than the rules' "
             "min_duration_min and peaks above ratio x baseline.")
def check_validity_slug_events_duration(duckdb: DuckDBResource, settings: OutfallSettings) -> AssetCheckResult:
    p = SlugParams.from_rules(sewer_rules(settings))
    with warehouse(duckdb) as con:
        bad = con.execute("SELECT count(*) FROM slug_events WHERE NOT (duration_min > ? AND peak_ratio > ?)",
                          [p.min_duration_min, p.ratio]).fetchone()[0]
    return AssetCheckResult(passed=bad == 0, severity=AssetCheckSeverity.ERROR,
                            metadata={"events_failing": int(bad), "min_duration_min": p.min_duration_min,
                                      "ratio": p.ratio})
