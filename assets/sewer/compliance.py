"""Assets of the sewer administrator: the compliance core of the sewer use law.

- ``discharge_violations``: every lab result against every per-sample limit
  (the rules' own limits and those adopted under them, permit limits replacing them);
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

The law's numbers come from the town's rules file (the rules resource), each in its version of the
day it applies to: the assets write the dated versions as small tables
(``discharge_limit_defaults``, ``nondetect_policies``, ``sewer_compliance_rules``,
``slug_rules``, ``infiltration_rules``) and the SQL in ``sql/sewer/`` joins each row
to the version in effect on its day. What no version covers is written to
``not_judged``. The pure functions in ``outfall/law`` are the SQL's independent
test oracle (tests/test_oracles.py).
"""

# No `from __future__ import annotations`: Dagster reads the `context` annotation at runtime.
import contextlib
import datetime as dt
import functools
import hashlib
import json
import resource
import time
from collections.abc import Callable, Iterator
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
import pandas as pd
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    MaterializeResult,
)
from dagster_duckdb import DuckDBResource

from assets.common import (
    GROUP_SEWER,
    ONE_RUN,
    READING_MONTHS,
    reading_months_in,
    report_partition_rows,
    table_asset,
    table_check,
    table_result,
    warehouse,
)
from assets.run import counts_by, record_not_judged
from outfall.law.enforcement import add_months
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules, RulesError
from outfall.rules.implemented import IMPLEMENTED
from outfall.rules.tables import NotJudged, check_implemented, coverage_phrase, not_in_effect, versions_frame
from outfall.rules.words import DESCRIBE
from outfall.slug_context import SLUG_CONTEXT_HOURS, refresh_slug_context
from outfall.warehouse import count, replace_rows, sql, transaction

UTC = dt.UTC
FAR_PAST = dt.datetime(1900, 1, 1, tzinfo=UTC)
FAR_FUTURE = dt.datetime(9999, 1, 1, tzinfo=UTC)
DAY_ZERO = dt.date(1900, 1, 1)
LAST_DAY = dt.date(9999, 12, 31)

# Readings of the compliance core this code implements (rules section
# readings_sewer_compliance); a rules file asking for another fails loudly.
IMPLEMENTED_READINGS = IMPLEMENTED["readings_sewer_compliance"]


def sewer_rules(resource: RulesResource) -> Rules:
    """The town's rules, once checked to ask only for readings this code implements."""
    rules = resource.town_rules()
    check_implemented(rules, "readings_sewer_compliance", IMPLEMENTED_READINGS)
    return rules


@contextlib.contextmanager
def _judged(
    resource: DuckDBResource,
    settings: OutfallSettings,
    town: RulesResource,
    judge: Callable[[duckdb.DuckDBPyConnection, Rules], Any],
) -> Iterator[tuple[duckdb.DuckDBPyConnection, Rules]]:
    """(connection, rules) once ``judge(con, rules)`` has written its tables in one transaction, reading
    the inputs as of the run's day."""
    rules = sewer_rules(town)
    with warehouse(resource, as_of=settings.as_of_date()) as con:
        with transaction(con):
            judge(con, rules)
        yield con, rules


UNCITED = "the rules give no citation text in effect on this day"


def write_rule_tables(con: duckdb.DuckDBPyConnection, rules: Rules) -> None:
    """The dated versions the compliance SQL joins each row to (call inside the asset's transaction)."""
    replace_rows(con, "discharge_limit_defaults", default_limits_frame(rules))
    replace_rows(
        con,
        "sewer_compliance_rules",
        versions_frame(
            rules.sewer_compliance or (),
            {
                k: k
                for k in (
                    "permit_limit_citation",
                    "no_limit_citation",
                    "inconclusive_citation",
                    "statistic_citation",
                )
            },
        ),
    )


# ------------------------------------------------- the judgements (the SQL of production)
# Plain functions of a connection and the rules: the assets run them in their transaction, and
# tests/test_oracles.py runs the same ones against the pure functions of outfall.law.


def judge_discharges(con: duckdb.DuckDBPyConnection, rules: Rules) -> None:
    """Every lab result against the per-sample limits in effect on its day."""
    uncited = {"uncited": UNCITED}
    write_rule_tables(con, rules)
    con.execute(sql("delete_discharge_results")).fetchall()
    con.execute(sql("insert_discharge_evaluations"), uncited).fetchall()
    con.execute(sql("insert_discharge_violations")).fetchall()
    con.execute(sql("insert_inconclusive_results"), uncited).fetchall()
    con.execute(sql("insert_unlimited_results"), uncited).fetchall()


def judge_statistics(con: duckdb.DuckDBPyConnection, rules: Rules) -> None:
    """Every daily maximum and monthly average against its limit, non-detects by the policy of their day."""
    write_rule_tables(con, rules)
    replace_rows(con, "nondetect_policies", nondetect_policy_frame(rules))
    con.execute(sql("delete_statistic_results")).fetchall()
    con.execute(sql("insert_statistic_results"), {"uncited": UNCITED}).fetchall()
    con.execute(sql("insert_statistic_violations")).fetchall()
    record_not_judged(con, "statistic_violations", sql_name="insert_not_judged_statistic_periods")


def judge_infiltration(con: duckdb.DuckDBPyConnection, rules: Rules) -> None:
    """Every infiltration test against the infiltration rule in effect on its day."""
    versions = rules.infiltration or ()  # none: every test is not judged, and says why
    replace_rows(
        con,
        "infiltration_rules",
        versions_frame(
            versions,
            {
                "gal_per_inch_mile_day": "gal_per_inch_diameter_per_mile_per_day",
                "feet_per_mile": "feet_per_mile",
            },
        ),
    )
    con.execute(sql("delete_infiltration_results")).fetchall()
    con.execute(sql("insert_infiltration_results"), {"coverage": coverage_phrase(versions)}).fetchall()
    con.execute(sql("insert_infiltration_findings")).fetchall()
    record_not_judged(con, "infiltration_results", sql_name="insert_not_judged_infiltration_tests")


# ----------------------------------------------------------- discharge limits


def default_limits_frame(rules: Rules) -> pd.DataFrame:
    """The jurisdiction's limits as applied, every dated entry: its own (discharge_limits) and those adopted
    under table_7_1. Each limit's source is the word its rules give it (else the sewer use law's short
    name); its rule quotes the condition the law sets on it, where it sets one."""
    fallback = rules.law("sewer_use").short if rules.has_law("sewer_use") else rules.name
    groups = [(None, rules.discharge_limits or ())]
    groups += [(g.source, g.limits) for g in rules.adopted_limit_groups()]
    rows = []
    for source, limits in groups:
        for lim in limits:
            rule = f"{lim.citation}; {lim.applies_when}" if lim.applies_when else lim.citation
            rows.append(
                {
                    "parameter": lim.parameter,
                    "limit_type": lim.limit_type,
                    "value": lim.value,
                    "unit": lim.unit,
                    "effective_from": lim.starts,
                    "effective_to": lim.effective_to,
                    "source": lim.source or source or fallback,
                    "rule": rule,
                    "rules_version": rules.version,
                    "excursion_minutes": lim.excursion_minutes,
                }
            )
    return pd.DataFrame(rows, columns=[*LIMIT_COLUMNS, "excursion_minutes"])


LIMIT_COLUMNS = (
    "parameter",
    "limit_type",
    "value",
    "unit",
    "effective_from",
    "effective_to",
    "source",
    "rule",
    "rules_version",
)


def nondetect_policy_frame(rules: Rules) -> pd.DataFrame:
    """Every dated version of the non-detect policy: one row for its default ('*') and one per
    parameter it names (the policy in effect on a result's day applies)."""
    frames = []
    for version in rules.nondetect_averaging or ():
        policies = {"*": version.default, **version.by_parameter}
        for parameter, policy in policies.items():
            frames.append(
                versions_frame(
                    [version], {"parameter": lambda v, p=parameter: p, "policy": lambda v, q=policy: q}
                )
            )
    if not frames:  # the rules state no policy: every average with a non-detect is not judged
        return versions_frame([], {"parameter": "parameter", "policy": "policy"})
    return pd.concat(frames, ignore_index=True)


_count_by = counts_by


@table_asset(
    GROUP_SEWER,
    deps=["lab_results", "permit_limits", "industrial_users", "user_permits"],
    description=DESCRIBE.discharge_violations(),
)
def discharge_violations(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    with _judged(duckdb, settings, rules, judge_discharges) as (con, town):
        return table_result(
            con,
            "discharge_violations",
            violations_by_parameter=_count_by(con, "discharge_violations", "parameter"),
            evaluations=_count_by(con, "discharge_evaluations", "outcome"),
            inconclusive_results=count(con, "inconclusive_results"),
            unlimited_results=count(con, "unlimited_results"),
            rules_version=town.version,
        )


@table_asset(
    GROUP_SEWER,
    # discharge_limit_defaults (the rules' limits as applied) is written by discharge_violations.
    deps=["lab_results", "permit_limits", "industrial_users", "user_permits", "discharge_violations"],
    description=DESCRIBE.statistic_violations(),
)
def statistic_violations(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    with _judged(duckdb, settings, rules, judge_statistics) as (con, _):
        return table_result(
            con,
            "statistic_violations",
            periods_judged=count(con, "statistic_results"),
            violations_by_statistic=_count_by(con, "statistic_violations", "statistic"),
        )


# --------------------------------------------------------------------- slugs


SLUG_COLUMNS = {
    k: k for k in ("ratio", "min_duration_min", "baseline_days", "min_baseline_days", "gap_factor")
}


def write_slug_rules(con: duckdb.DuckDBPyConnection, rules: Rules) -> dict[str, Any]:
    """The dated slug definitions as table slug_rules (the SQL joins each day to its version);
    returns what the statements bind that is not a law value (the zone, the longest baseline)."""
    versions = rules.slug or ()  # none: every day is not judged, and says why
    replace_rows(con, "slug_rules", versions_frame(versions, SLUG_COLUMNS))
    return {
        "tz": rules.timezone,
        "max_baseline_days": max((v.baseline_days for v in versions), default=0),
        "coverage": coverage_phrase(versions),
    }


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _timed(con: duckdb.DuckDBPyConnection, clock: dict[str, float], name: str, params: Any = None) -> None:
    t = time.perf_counter()
    con.execute(sql(name), params or {}).fetchall()
    clock[f"{name}_s"] = time.perf_counter() - t


def _local_midnight(day: dt.date, tz: ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0), tzinfo=tz)


def _intervals(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], float | None]:
    return {(u, c): i for u, c, i in con.execute(sql("select_slug_intervals")).fetchall()}


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


def _judged_from(
    con: duckdb.DuckDBPyConnection, since: dt.date | None, tz: ZoneInfo
) -> tuple[dt.date, dt.datetime, dt.datetime]:
    """(first local day judged again, first moment whose slugs are written again, first reading read) of a
    detection from ``since`` (None: everything), once the slug events it writes again are deleted."""
    if since is None:
        con.execute(sql("delete_slug_events")).fetchall()
        return DAY_ZERO, FAR_PAST, FAR_PAST
    margin_day = since - dt.timedelta(days=1)
    emit_from = _local_midnight(margin_day, tz)
    earliest = con.execute(sql("select_first_slug_start_ending_from"), {"emit_from": emit_from}).fetchall()[
        0
    ][0]
    from_day = min(margin_day, earliest.astimezone(tz).date()) if earliest is not None else margin_day
    con.execute(sql("delete_slug_events_ending_from"), {"emit_from": emit_from}).fetchall()
    return from_day, emit_from, _local_midnight(from_day, tz)


def _detect_runs(con: duckdb.DuckDBPyConnection, clock: dict, emit_from: dt.datetime, coverage: Any) -> None:
    """The slug events from the candidates, and the baseline gaps, timed in ``clock``."""
    t3, c3 = time.perf_counter(), _cpu_s()
    con.execute(
        sql("detect_slug_events"), {"emit_from": emit_from, "start_from": FAR_PAST, "start_to": FAR_FUTURE}
    ).fetchall()
    con.execute(sql("delete_slug_baseline_gaps")).fetchall()
    con.execute(sql("insert_slug_baseline_gaps"), {"coverage": coverage}).fetchall()
    clock["runs_s"] = time.perf_counter() - t3
    clock["runs_cpu_s"] = _cpu_s() - c3


def run_slug_detection(
    con: duckdb.DuckDBPyConnection,
    rules: Rules,
    since: dt.date | None = None,
    timings: dict[str, float] | None = None,
) -> dict[str, Any]:
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
    p = write_slug_rules(con, rules)
    tz = ZoneInfo(p["tz"])
    check_whole_hour_zone(p["tz"])
    clock = timings if timings is not None else {}
    t0, c0 = time.perf_counter(), _cpu_s()
    from_day, emit_from, scan_from = _judged_from(con, since, tz)
    before = _intervals(con) if since is not None else {}
    window = {"scan_from": scan_from, "scan_to": FAR_FUTURE}

    con.execute(sql("aggregate_slug_hours"), window).fetchall()
    clock["pass1_s"] = time.perf_counter() - t0
    clock["pass1_cpu_s"] = _cpu_s() - c0
    t1 = time.perf_counter()
    _timed(con, clock, "create_slug_tz_hours", {"tz": p["tz"]})
    _timed(con, clock, "delete_slug_days", {"from_day": from_day, "to_day": LAST_DAY})
    _timed(con, clock, "insert_slug_days")
    _timed(
        con,
        clock,
        "update_slug_baselines",
        {"from_day": from_day, "to_day": LAST_DAY, "max_baseline_days": p["max_baseline_days"]},
    )
    con.execute(sql("delete_slug_intervals")).fetchall()
    _timed(con, clock, "insert_slug_intervals")
    if since is not None:
        after = _intervals(con)
        if any(key in after and after[key] != value for key, value in before.items()):
            result = run_slug_detection(con, rules, None, timings)
            result["fallback"] = "usual reading interval changed: judged everything again"
            return result
    _timed(con, clock, "select_slug_scan_hours")
    clock["baselines_s"] = time.perf_counter() - t1
    t2, c2 = time.perf_counter(), _cpu_s()
    con.execute(sql("select_slug_candidates"), window).fetchall()
    clock["pass2_s"] = time.perf_counter() - t2
    clock["pass2_cpu_s"] = _cpu_s() - c2
    _detect_runs(con, clock, emit_from, p["coverage"])
    candidates = count(con, "slug_candidates")
    con.execute(sql("drop_slug_temp_tables")).fetchall()
    clock["total_s"] = time.perf_counter() - t0
    return {
        "mode": "full" if since is None else "incremental",
        "detected_from": None if since is None else from_day,
        "candidate_readings": candidates,
    }


def run_slug_detection_between(
    con: duckdb.DuckDBPyConnection, rules: Rules, first_day: dt.date, last_day: dt.date
) -> dict[str, Any]:
    """Judge again the slugs that start on the local days ``first_day`` to ``last_day`` (the months of a
    partition run), and those days' statistics; every other day's rows stay as they are.

    The days' statistics are made from their readings; their baselines read the days before, as
    kept. The runs are read from the day before (a run going on when the first day begins is the
    month before's) to the day after, and further while a run of these days reaches the end of what
    was read. The usual reading interval is every day's, as in a full detection. Runs inside the
    caller's transaction, over the temp views of ``run_slug_detection``."""
    p = write_slug_rules(con, rules)
    tz = ZoneInfo(p["tz"])
    check_whole_hour_zone(p["tz"])
    start, end = _local_midnight(first_day, tz), _local_midnight(last_day + dt.timedelta(days=1), tz)
    days = {"from_day": first_day, "to_day": last_day}
    con.execute(sql("aggregate_slug_hours"), {"scan_from": start, "scan_to": end}).fetchall()
    con.execute(sql("create_slug_tz_hours"), {"tz": p["tz"]}).fetchall()
    con.execute(sql("delete_slug_days"), days).fetchall()
    con.execute(sql("insert_slug_days")).fetchall()
    con.execute(
        sql("update_slug_baselines"), {**days, "max_baseline_days": p["max_baseline_days"]}
    ).fetchall()
    con.execute(sql("delete_slug_intervals")).fetchall()
    con.execute(sql("insert_slug_intervals")).fetchall()
    starts = {"start_from": start, "start_to": end}
    con.execute(sql("delete_slug_events_starting_between"), starts).fetchall()
    scan_from = _local_midnight(first_day - dt.timedelta(days=1), tz)
    scan_to = _local_midnight(last_day + dt.timedelta(days=2), tz)
    while True:
        window = {"scan_from": scan_from, "scan_to": scan_to}
        con.execute(sql("aggregate_slug_hours"), window).fetchall()
        con.execute(sql("create_slug_tz_hours"), {"tz": p["tz"]}).fetchall()
        con.execute(sql("select_slug_scan_hours")).fetchall()
        con.execute(sql("select_slug_candidates"), window).fetchall()
        con.execute(sql("detect_slug_events"), {"emit_from": FAR_PAST, **starts}).fetchall()
        last_end = con.execute(sql("select_last_slug_end_starting_between"), starts).fetchall()[0][0]
        if last_end is None or last_end < scan_to - dt.timedelta(days=1):
            break
        # a run of these days goes on into the day after: read on, a month more
        con.execute(sql("delete_slug_events_starting_between"), starts).fetchall()
        scan_to += dt.timedelta(days=31)
    con.execute(sql("delete_slug_baseline_gaps")).fetchall()
    con.execute(sql("insert_slug_baseline_gaps"), {"coverage": p["coverage"]}).fetchall()
    candidates = count(con, "slug_candidates")
    con.execute(sql("drop_slug_temp_tables")).fetchall()
    return {
        "mode": "months",
        "detected_from": first_day,
        "detected_to": last_day,
        "candidate_readings": candidates,
    }


def _slug_fingerprint(con: duckdb.DuckDBPyConnection, rules: Rules) -> str:
    permits = con.execute(sql("select_slug_permits")).fetchall()
    return hashlib.sha256(json.dumps([rules.sha256, permits], default=str).encode()).hexdigest()


def plan_slug_detection(
    con: duckdb.DuckDBPyConnection, fingerprint: str, tz: ZoneInfo
) -> tuple[str, dt.date | None, dt.datetime | None]:
    """('full', None), ('incremental', first new local day) or ('unchanged', None), and the newest
    reading the last detection saw (None when there was none).

    Incremental only when the flow table changed by appending readings later
    than every reading already judged (loaded_at tells the new rows), and the
    rules and permits' normal flows are those of the last run."""
    found = con.execute(sql("select_slug_state")).fetchall()
    state = found[0] if found else None
    judged_to = state[1] if state is not None else None
    rows, _, max_loaded = con.execute(sql("select_flow_extent")).fetchall()[0]
    if state is None or state[3] != fingerprint or state[2] is None or max_loaded is None:
        return "full", None, judged_to
    new_rows, new_min_ts = con.execute(sql("select_flow_loaded_after"), {"loaded_at": state[2]}).fetchall()[0]
    if new_rows != rows - state[0]:
        return "full", None, judged_to
    if new_rows == 0:
        return "unchanged", None, judged_to
    if state[1] is not None and new_min_ts <= state[1]:
        return "full", None, judged_to
    return "incremental", new_min_ts.astimezone(tz).date(), judged_to


def partition_days(context: AssetExecutionContext, months: list[dt.date]) -> tuple[dt.date, dt.date]:
    """The first and last local day of the months of this run (a month partition, ``2026-03-01``, or a
    range of them; every month that has readings is a partition)."""
    keys = sorted(context.partition_keys)
    return dt.date.fromisoformat(keys[0]), _month_end(dt.date.fromisoformat(keys[-1]))


@table_asset(
    GROUP_SEWER,
    deps=["flow", "industrial_users"],
    partitions_def=READING_MONTHS,
    backfill_policy=ONE_RUN,
    description=DESCRIBE.slug_events(),
)
def slug_events(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    town = sewer_rules(rules)
    tz = ZoneInfo(town.timezone)
    with warehouse(duckdb, as_of=settings.as_of_date()) as con:
        with transaction(con):
            con.execute(sql("create_slug_views")).fetchall()
            months = reading_months_in(con)
            first_day, last_day = partition_days(context, months)
            timings: dict[str, float] = {}
            if months and (first_day > months[0] or last_day < _month_end(months[-1])):
                # some months only: judged again apart from the others (their rows stay)
                t = time.perf_counter()
                info = run_slug_detection_between(con, town, first_day, last_day)
                timings["total_s"] = time.perf_counter() - t
                starts = {
                    "start_from": _local_midnight(first_day, tz),
                    "start_to": _local_midnight(last_day + dt.timedelta(days=1), tz),
                }
                con.execute(sql("delete_slug_event_readings_starting_between"), starts).fetchall()
                t = time.perf_counter()
                info["slugs_read_for_context"] = refresh_slug_context(con, None)
                timings["context_s"] = time.perf_counter() - t
                record_not_judged(con, "slug_events", sql_name="insert_not_judged_slug_days")
            else:
                info = _judge_every_month(con, town, tz, timings)
        context.log.info(f"slug detection: {info}")
        report_partition_rows(context, slugs_by_month(con, town.timezone, first_day, last_day))
        return table_result(
            con,
            "slug_events",
            mode=str(info["mode"]),
            detected_from=str(info.get("detected_from")),
            seconds={k: round(v, 3) for k, v in timings.items()},
            slugs_by_constituent=_count_by(con, "slug_events", "constituent"),
            users_lacking_baseline=count(con, "slug_baseline_gaps"),
        )


def slugs_by_month(
    con: duckdb.DuckDBPyConnection, timezone: str, first_day: dt.date, last_day: dt.date
) -> dict[str, int]:
    """The slugs that start in each local month of ``first_day`` to ``last_day``, by partition key."""
    tz = ZoneInfo(timezone)
    bounds = {
        "tz": timezone,
        "start_from": _local_midnight(first_day, tz),
        "start_to": _local_midnight(last_day + dt.timedelta(days=1), tz),
    }
    return dict(con.execute(sql("count_slug_events_by_month"), bounds).fetchall())


def _month_end(first: dt.date) -> dt.date:
    return add_months(first.replace(day=1), 1) - dt.timedelta(days=1)


def _judge_every_month(
    con: duckdb.DuckDBPyConnection, town: Rules, tz: ZoneInfo, timings: dict[str, float]
) -> dict[str, Any]:
    """Every month with readings at once (a run of everything): judged in full, or from the first new
    day on when readings were only appended (plan_slug_detection), or left as they are."""
    fingerprint = _slug_fingerprint(con, town)
    mode, since, judged_to = plan_slug_detection(con, fingerprint, tz)
    info: dict[str, Any] = {"mode": mode}
    stale_from = None
    if mode != "unchanged":  # nothing new: the tables and the state stay as they are
        info = run_slug_detection(con, town, since if mode == "incremental" else None, timings)
        if info["mode"] == "incremental":
            # slugs judged again, and slugs whose padding reaches the readings appended
            stale_from = _local_midnight(info["detected_from"], tz)
            if judged_to is not None:
                stale_from = min(stale_from, judged_to - dt.timedelta(hours=SLUG_CONTEXT_HOURS))
        rows, max_ts, max_loaded = con.execute(sql("select_flow_extent")).fetchall()[0]
        con.execute(sql("delete_slug_state")).fetchall()
        con.execute(
            sql("insert_slug_state"),
            [rows, max_ts, max_loaded, fingerprint, info["mode"], info.get("detected_from")],
        ).fetchall()
    t = time.perf_counter()
    info["slugs_read_for_context"] = refresh_slug_context(con, stale_from, everything=info["mode"] == "full")
    timings["context_s"] = time.perf_counter() - t
    record_not_judged(con, "slug_events", sql_name="insert_not_judged_slug_days")
    return info


# -------------------------------------------------------------- infiltration


@table_asset(GROUP_SEWER, deps=["infiltration_tests"], description=DESCRIBE.infiltration_results())
def infiltration_results(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    with _judged(duckdb, settings, rules, judge_infiltration) as (con, _):
        return table_result(con, "infiltration_results", failing_sections=count(con, "infiltration_findings"))


# ----------------------------------------------------------------- summary


@table_asset(
    GROUP_SEWER,
    deps=[
        "discharge_violations",
        "statistic_violations",
        "slug_events",
        "industrial_users",
        "user_permits",
        "lab_results",
        "discharges_without_permit",
    ],
    description=DESCRIBE.compliance_summary(),
)
def compliance_summary(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    town = sewer_rules(rules)
    as_of = settings.as_of_date()
    versions = town.versions_of("notices.permit_expiry_warning")
    warning = versions.get(as_of)  # permits are flagged by the policy in effect on the day judged
    not_judged = (
        []
        if warning is not None
        else [
            NotJudged(
                "expiring permits",
                as_of,
                "notices.permit_expiry_warning",
                not_in_effect("policy for flagging expiring permits", as_of, versions),
            )
        ]
    )
    with warehouse(duckdb, as_of=as_of) as con:
        with transaction(con):
            con.execute(sql("delete_compliance_summary")).fetchall()
            con.execute(
                sql("insert_compliance_summary"),
                {
                    "as_of": as_of,
                    "warn_days": warning.days if warning else None,
                    "tz": town.timezone,
                    "citation": warning.citation if warning else not_judged[0].reason,
                },
            ).fetchall()
            record_not_judged(con, "compliance_summary", not_judged)
        flagged = con.execute(sql("select_flagged_permit_users")).fetchall()
        return table_result(
            con, "compliance_summary", as_of=str(as_of), permits_flagged=[r[0] for r in flagged]
        )


# ------------------------------------------------------------- asset checks


@table_check(
    asset=discharge_violations,
    description="Every violation breaks its limit strictly "
    "(value > limit for a maximum, < for a minimum, or a non-detect at or below a minimum).",
)
def check_validity_discharge_violations_limit(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        bad = con.execute(sql("check_validity_discharge_violations_limit")).fetchall()[0][0]
    return AssetCheckResult(
        passed=bad == 0,
        severity=AssetCheckSeverity.ERROR,
        metadata={"rows_not_breaking_their_limit": int(bad), "threshold": 0},
    )


@table_check(
    asset=discharge_violations,
    description="Every lab result is judged: compared with a "
    "per-sample limit, covered by a statistic limit, or reported as 'no limit defined'.",
)
def check_completeness_lab_results_parameter(
    duckdb: DuckDBResource, settings: OutfallSettings
) -> AssetCheckResult:
    with warehouse(duckdb, as_of=settings.as_of_date()) as con:
        total, judged = con.execute(sql("check_completeness_lab_results_parameter")).fetchall()[0]
    return AssetCheckResult(
        passed=total == judged,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "lab_results": int(total),
            "judged": int(judged),
            "dropped": int(total - judged),
            "threshold": 0,
        },
    )


@table_check(
    asset=slug_events,
    description="Every slug event lasts longer than the min_duration_min, and "
    "peaks above the ratio x baseline, of the slug definition in effect on its first day.",
)
def check_validity_slug_events_duration(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        bad = con.execute(sql("check_validity_slug_events_duration")).fetchall()[0][0]
    return AssetCheckResult(
        passed=bad == 0,
        severity=AssetCheckSeverity.ERROR,
        metadata={"events_failing": int(bad), "threshold": 0},
    )
