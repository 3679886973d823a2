"""Data-quality asset checks of the input tables (they report, never fail a run).

- ``check_expectations_<dataset>`` for each human-entered dataset with a suite (the
  contract's nine but flow, and any other given one by ``expectations/build_suites.py``): the
  dataset's Great Expectations 1.x suite (``expectations/<dataset>.json``) run on
  the kept rows read from DuckDB (only the columns the suite reads, no
  provenance), through ``outfall.gx_adapter`` (not dagster-ge).
- ``flow`` is too big for GX to be worth it: SQL checks in DuckDB
  (``sql/check_*.sql``) of validity, uniqueness, gaps and references, plus the
  flow suite on a fixed 50,000-row sample.
- ``check_balance_quarantine_rows``: read = kept + quarantined for every dataset.
- ``check_referential_lab_results_user``: results of users with no permit record.

Each check has an explicit threshold and severity, a description a person can
read, and metadata with counts. Severity is ERROR when a kept row breaks a
promise of the contract (outputs built on it may be wrong) and WARN when the
data is allowed but looks wrong. All checks are non-blocking: bad data shows up
as a failed check, the run goes on. A check that cannot run at all (an
unexpected error) reports a failed ERROR check with the message instead of
failing the run.

The checks (sixteen with the contract's suites) run in the ingestion step (``assets.ingest``), after
the folders are loaded: each is still its own check in the UI with its own result, but Dagster's
per-step cost is paid once, not once per check.
"""

import datetime as dt
import functools
import time
from collections.abc import Callable, Iterator
from typing import Any

from dagster import (
    AssetCheckKey,
    AssetCheckResult,
    AssetCheckSeverity,
    AssetCheckSpec,
    MetadataValue,
    get_dagster_logger,
)
from dagster_duckdb import DuckDBResource

from assets.common import warehouse
from outfall import gx_worker
from outfall.flow_hours import ensure_flow_hours, flow_gap_steps
from outfall.gx_adapter import ValidationSummary, suite_columns, suite_info, validate_frame
from outfall.ingest.registry import all_datasets
from outfall.paths import EXPECTATIONS_DIR
from outfall.resources import RulesResource
from outfall.rules import jurisdictions, load_town, local_timezone
from outfall.rules.codes import KINDS
from outfall.warehouse import count, sql, table_columns

ERROR = AssetCheckSeverity.ERROR
WARN = AssetCheckSeverity.WARN

# The human-entered datasets validated with GX in full: every registered dataset with a suite in
# expectations/ (written by expectations/build_suites.py), in the registry's order, but flow (checked
# in SQL, and by its suite on a sample).
GX_DATASETS = tuple(d for d in all_datasets() if d != "flow" and (EXPECTATIONS_DIR / f"{d}.json").is_file())
PROVENANCE = ("source_file", "source_row", "loaded_at", "row_hash")

# Thresholds (explicit, named, shown in each check's metadata).
PH_MIN, PH_MAX = 0, 14  # s.u.; contract section 2
MAX_FLOW_GAP_SECONDS = 24 * 3600  # a meter silent for more than a day
MAX_FLOW_GAP_TEXT = "1 day"
FLOW_SAMPLE_ROWS = 50_000  # rows of flow given to GX ...
FLOW_SAMPLE_STRETCHES = 10  #   ... as this many stretches of consecutive stored rows
EXAMPLES = 5  # example rows per problem in metadata


# ---------------------------------------------------------------------------
# small helpers


def _md(headers: list[str], rows: list[list[Any]]) -> MetadataValue:
    if not rows:
        return MetadataValue.md("_none_")
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(_text(v).replace("|", "\\|") for v in row) + " |" for row in rows]
    return MetadataValue.md("\n".join(lines))


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            from zoneinfo import ZoneInfo

            value = value.astimezone(ZoneInfo(local_timezone()))
        return value.strftime("%Y-%m-%d %H:%M %Z").strip()
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value)
    return str(value)


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return ""
    seconds = float(seconds)
    if seconds >= 2 * 86400:
        return f"{seconds / 86400:.1f} d"
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 60:.0f} min"


def _reports_errors(
    fn: Callable[[DuckDBResource], AssetCheckResult], key: AssetCheckKey
) -> Callable[[DuckDBResource], AssetCheckResult]:
    """A check that cannot run reports a failed ERROR result with the reason instead of
    failing the run (checks only report; `outfall run` exits 1 only for assets)."""

    @functools.wraps(fn)
    def wrapper(duckdb: DuckDBResource) -> AssetCheckResult:
        started = time.perf_counter()
        try:
            result = fn(duckdb)
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            get_dagster_logger().exception(f"{fn.__name__} could not run")
            return AssetCheckResult(
                asset_key=key.asset_key,
                check_name=key.name,
                passed=False,
                severity=ERROR,
                metadata={
                    "error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}",
                    "seconds": round(time.perf_counter() - started, 3),
                },
            )
        metadata = dict(result.metadata or {})
        metadata.setdefault("seconds", round(time.perf_counter() - started, 3))
        return AssetCheckResult(
            asset_key=key.asset_key,
            check_name=key.name,
            passed=result.passed,
            severity=result.severity,
            metadata=metadata,
            description=result.description,
        )

    return wrapper


# Every check of the input tables, in the order they run. They share one Dagster step
# (``input_checks`` below): each check stays its own entry in the UI with its own result,
# but the run pays Dagster's per-step cost once instead of sixteen times.
INPUT_CHECKS: dict[AssetCheckKey, Callable[[DuckDBResource], AssetCheckResult]] = {}
INPUT_CHECK_SPECS: list[AssetCheckSpec] = []


def input_check(
    *,
    asset: str,
    name: str,
    description: str,
    blocking: bool = False,
    additional_deps: list[str] | None = None,
):
    """Register ``fn(duckdb) -> AssetCheckResult`` as the check ``name`` of ``asset``; the function
    returned is the check itself (callable directly, as the tests do), reporting errors as results."""

    def register(
        fn: Callable[[DuckDBResource], AssetCheckResult],
    ) -> Callable[[DuckDBResource], AssetCheckResult]:
        spec = AssetCheckSpec(
            name=name,
            asset=asset,
            description=description,
            blocking=blocking,
            additional_deps=additional_deps,
        )
        checked = _reports_errors(fn, spec.key)
        checked.check_key = spec.key  # type: ignore[attr-defined]
        INPUT_CHECKS[spec.key] = checked
        INPUT_CHECK_SPECS.append(spec)
        return checked

    return register


# ---------------------------------------------------------------------------
# Great Expectations suites


def read_frame(con, table: str, columns: list[str]):
    """The value columns of ``table`` that a suite reads (never provenance), as pandas."""
    present = set(table_columns(con, table)) - set(PROVENANCE)
    cols = [c for c in columns if c in present]
    select = ", ".join(f'"{c}"' for c in cols) or "1 AS _no_columns"
    return con.execute(f'SELECT {select} FROM "{table}"').df()


def expectations_result(summary: ValidationSummary, suite_label: str, **extra: Any) -> AssetCheckResult:
    """An AssetCheckResult from a GX validation summary, with readable counts."""
    by_sev = summary.count_by_severity()
    worst = summary.worst_severity
    metadata: dict[str, Any] = {
        "suite": suite_label,
        "rows": summary.element_count,
        "evaluated": summary.evaluated,
        "failed": summary.failed_count,
        "failed_error": by_sev["ERROR"],
        "failed_warn": by_sev["WARN"],
        "failures": MetadataValue.md(summary.markdown()),
        "gx_seconds": summary.seconds,
    }
    metadata.update(extra)
    if summary.failed:
        metadata["failed_expectations"] = MetadataValue.json(
            [
                {
                    k: f[k]
                    for k in (
                        "severity",
                        "expectation",
                        "column",
                        "condition",
                        "unexpected_count",
                        "unexpected_percent",
                        "unexpected_values",
                        "description",
                        "error",
                    )
                }
                for f in summary.failed
            ]
        )
    return AssetCheckResult(
        passed=summary.success,
        severity=ERROR if worst == "ERROR" else WARN,
        metadata=metadata,
        description=(
            f"{summary.failed_count} of {summary.evaluated} expectations failed "
            f"({by_sev['ERROR']} ERROR, {by_sev['WARN']} WARN) on {summary.element_count} rows"
            if summary.failed
            else f"all {summary.evaluated} expectations passed on {summary.element_count} rows"
        ),
    )


def empty_result(path, suite_label: str) -> AssetCheckResult:
    """An empty table passes its suite without starting Great Expectations: every
    expectation of our suites is about column values (none about the row count),
    and each holds when there is no row (GX says the same, but only after its slow import)."""
    info = suite_info(path)
    if info.get("table_expectations"):
        raise RuntimeError(
            f"{suite_label} has table-level expectations; an empty table must be validated by GX"
        )
    return AssetCheckResult(
        passed=True,
        severity=WARN,
        description="no rows to validate",
        metadata={
            "suite": suite_label,
            "rows": 0,
            "evaluated": 0,
            "failed": 0,
            "skipped": "the table is empty: every expectation of the suite holds (no rows), GX was not "
            "started",
        },
    )


def build_expectations_check(dataset: str) -> Callable[[DuckDBResource], AssetCheckResult]:
    path = EXPECTATIONS_DIR / f"{dataset}.json"
    info = suite_info(path)

    @input_check(
        asset=dataset,
        name=f"check_expectations_{dataset}",
        blocking=False,
        description=(
            f"Great Expectations suite expectations/{dataset}.json ({info['expectations']} "
            f"expectations: {info['error']} ERROR, {info['warn']} WARN) on the kept rows of "
            f"`{dataset}`: required values, vocabularies, ranges, unique natural key. "
            "Severity is ERROR if any failed expectation is ERROR, else WARN."
        ),
    )
    def _check(duckdb: DuckDBResource) -> AssetCheckResult:
        with warehouse(duckdb) as con:
            if count(con, dataset) == 0:
                return empty_result(path, f"expectations/{dataset}.json")
            summary = gx_worker.take(_worker_key(_run["id"], duckdb, dataset))
            if summary is None:
                summary = validate_frame(
                    _suite_frame(con, dataset), path, _run.get("parameters") or default_parameters()
                )
        return expectations_result(summary, f"expectations/{dataset}.json")

    return _check


expectation_checks = [build_expectations_check(d) for d in GX_DATASETS]


@input_check(
    asset="flow",
    name="check_expectations_flow_sample",
    blocking=False,
    description=(
        f"Great Expectations suite expectations/flow.json on a fixed sample of {FLOW_SAMPLE_ROWS:,} "
        f"flow readings: {FLOW_SAMPLE_STRETCHES} stretches of consecutive readings as stored, spread "
        "evenly over the table (every reading when there are fewer). The whole table is checked by "
        "the SQL checks; this shows the same rules in GX form."
    ),
)
def check_expectations_flow_sample(duckdb: DuckDBResource) -> AssetCheckResult:
    path = EXPECTATIONS_DIR / "flow.json"
    with warehouse(duckdb) as con:
        total = count(con, "flow")
        if total == 0:
            return empty_result(path, "expectations/flow.json")
        summary = gx_worker.take(_worker_key(_run["id"], duckdb, "flow"))
        if summary is None:
            summary = validate_frame(_suite_frame(con, "flow"), path)
    return expectations_result(
        summary,
        "expectations/flow.json",
        table_rows=total,
        sampled=f"{summary.element_count:,} of {total:,} rows",
    )


def _suite_frame(con, dataset: str):
    """What ``dataset``'s suite validates: the columns it reads of every kept row, or for flow a
    fixed sample of FLOW_SAMPLE_ROWS readings (the same frame in the step and in the GX worker)."""
    if dataset == "flow":
        return flow_sample(con)
    return read_frame(con, dataset, suite_columns(EXPECTATIONS_DIR / f"{dataset}.json"))


def flow_sample(con):
    """FLOW_SAMPLE_STRETCHES stretches of FLOW_SAMPLE_ROWS / FLOW_SAMPLE_STRETCHES consecutive stored
    readings, starting at evenly spaced places of the table; every reading of a table that small.
    The same rows on every run until the table changes. Each stretch is read from its places alone
    (a range of rowid), so the sample costs the same on a year of readings as on a day."""
    import pandas as pd

    total = count(con, "flow")
    if total <= FLOW_SAMPLE_ROWS:
        places = [(0, 2**62)]  # every row (a table with rows deleted has rows past its count)
    else:
        length = FLOW_SAMPLE_ROWS // FLOW_SAMPLE_STRETCHES
        places = [(i * total // FLOW_SAMPLE_STRETCHES, length) for i in range(FLOW_SAMPLE_STRETCHES)]
    text = sql("check_expectations_flow_sample")
    parts = [con.execute(text, {"first": first, "rows": rows}).df() for first, rows in places]
    return parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True)


# ---------------------------------------------------------------------------
# Great Expectations in a second process during `outfall run` (outfall.gx_worker)

# the Dagster run whose input checks are running, and the values its suites leave to it (suite_parameters)
_run: dict[str, Any] = {"id": "", "parameters": None}


def _worker_key(run_id: str, duckdb: DuckDBResource, dataset: str) -> gx_worker.Key:
    return (run_id, str(getattr(duckdb, "database", "")), dataset)


def suite_parameters(rules: RulesResource) -> dict:
    """The values the stored suites leave to the run (``{"$PARAMETER": name}``): the jurisdictions of the
    rules files found, and the town's codes of each kind (districts, property classes, components) with
    whether it lists any, all of which a town's own rules folder sets."""
    return {"jurisdictions": list(rules.jurisdictions()), **town_code_parameters(rules.town_rules())}


def default_parameters() -> dict:
    """The suites' parameters outside a run (a check called directly): the default rules folder's."""
    return {"jurisdictions": list(jurisdictions()), **town_code_parameters(load_town().town)}


def town_code_parameters(town) -> dict:
    """``$districts`` and ``$districts_listed`` (1.0, or 0.0 where the rules list none), and so for
    property classes and components."""
    out: dict = {}
    for kind in KINDS:
        codes = list(getattr(town.vocabulary, kind, {}) or {}) if town.vocabulary is not None else []
        out[kind], out[f"{kind}_listed"] = codes, 1.0 if codes else 0.0
    return out


def validate_in_background(
    run_id: str, duckdb: DuckDBResource, con, dataset: str, parameters: dict | None = None
) -> None:
    """Called by ``dataset``'s ingestion asset once its rows are committed: during `outfall run`,
    its suite starts validating them in the worker process (the check step takes the result).
    Nothing happens outside `outfall run`, for a dataset GX does not validate, or an empty table."""
    if not gx_worker.active() or dataset not in (*GX_DATASETS, "flow"):
        return
    try:
        if count(con, dataset) == 0:
            return
        frame = _suite_frame(con, dataset)
    except Exception:  # noqa: BLE001 - never fails the ingestion: the check runs in its step and reports it
        get_dagster_logger().warning(f"{dataset}: validation left to the check step", exc_info=True)
        return
    gx_worker.submit(
        _worker_key(run_id, duckdb, dataset), frame, EXPECTATIONS_DIR / f"{dataset}.json", parameters
    )


# ---------------------------------------------------------------------------
# flow: SQL checks in DuckDB


@input_check(
    asset="flow",
    name="check_validity_flow_value",
    blocking=False,
    description=(
        f"Kept flow readings are possible: no negative flow or probe concentration, pH within "
        f"{PH_MIN}-{PH_MAX} s.u., no missing value. Threshold: 0 such readings. Severity ERROR "
        "(ingestion should have quarantined them; slugs computed on them would be wrong)."
    ),
)
def check_validity_flow_value(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        total = count(con, "flow")
        rows = con.execute(
            sql("check_validity_flow_value"), {"ph_min": PH_MIN, "ph_max": PH_MAX, "examples": EXAMPLES}
        ).fetchall()
    bad = sum(r[1] for r in rows)
    examples = [
        [problem, e["user_id"], e["constituent"], e["ts"], e["value"], e["unit"]]
        for problem, _, _, ex in rows
        for e in ex
    ]
    return AssetCheckResult(
        passed=bad == 0,
        severity=ERROR,
        description=f"{bad} impossible reading(s) among {total} flow rows" if bad else None,
        metadata={
            "rows_checked": total,
            "bad_readings": bad,
            "threshold": "0 bad readings",
            "ph_range_su": f"{PH_MIN}-{PH_MAX}",
            "by_problem": _md(["problem", "readings", "users"], [[r[0], r[1], r[2]] for r in rows]),
            "examples": _md(["problem", "user", "constituent", "time", "value", "unit"], examples),
        },
    )


@input_check(
    asset="flow",
    name="check_uniqueness_flow_key",
    blocking=False,
    description=(
        "No two flow readings share user_id + constituent + ts (the natural key). Threshold: 0 "
        "repeated keys. Severity ERROR (a repeated reading doubles its weight in daily means "
        "and slug durations)."
    ),
)
def check_uniqueness_flow_key(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        total = count(con, "flow")
        ensure_flow_hours(con)
        hours, timeless = con.execute(sql("check_uniqueness_flow_hours")).fetchall()[0]
        if hours or timeless > 1:  # only then can a key repeat: flow itself is searched
            keys, extra, examples = con.execute(
                sql("check_uniqueness_flow_key"), {"examples": EXAMPLES}
            ).fetchall()[0]
        else:
            keys, extra, examples = 0, 0, []
    return AssetCheckResult(
        passed=keys == 0,
        severity=ERROR,
        description=f"{keys} key(s) repeated, {extra} extra row(s)" if keys else None,
        metadata={
            "rows_checked": total,
            "duplicate_keys": int(keys),
            "extra_rows": int(extra),
            "threshold": "0 repeated keys",
            "examples": _md(
                ["user", "constituent", "time", "copies"],
                [[e["user_id"], e["constituent"], e["ts"], e["copies"]] for e in examples],
            ),
        },
    )


@input_check(
    asset="flow",
    name="check_freshness_flow_gaps",
    blocking=False,
    description=(
        f"Per user and constituent, the largest gap between consecutive readings against the usual "
        f"interval (median step). Threshold: a gap longer than {MAX_FLOW_GAP_TEXT}. "
        "Severity WARN (a silent meter: slugs in the gap cannot be seen, daily baselines have "
        "fewer days)."
    ),
)
def check_freshness_flow_gaps(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        flow_gap_steps(con)  # the steps of the hours appended since, or all made anew
        rows = con.execute(
            sql("check_freshness_flow_gaps"), {"max_gap_seconds": MAX_FLOW_GAP_SECONDS}
        ).fetchall()
    flagged = [r for r in rows if r[6] is not None and r[6] > MAX_FLOW_GAP_SECONDS]
    table = [
        [
            u,
            c,
            n,
            _duration(usual),
            _duration(largest),
            f"{largest / usual:.0f}x" if usual and largest else "",
            gap_from,
            gap_to,
            over,
            "yes" if (largest or 0) > MAX_FLOW_GAP_SECONDS else "",
        ]
        for u, c, n, _, _, usual, largest, gap_from, gap_to, over in rows
    ]
    return AssetCheckResult(
        passed=not flagged,
        severity=WARN,
        description=(
            f"{len(flagged)} of {len(rows)} series have a gap over {MAX_FLOW_GAP_TEXT}" if flagged else None
        ),
        metadata={
            "series_checked": len(rows),
            "series_with_long_gaps": len(flagged),
            "gaps_over_threshold": int(sum(r[9] for r in rows)),
            "threshold": f"gap > {MAX_FLOW_GAP_TEXT} ({MAX_FLOW_GAP_SECONDS} s)",
            "largest_gap": _duration(rows[0][6]) if rows and rows[0][6] is not None else "",
            "series": _md(
                [
                    "user",
                    "constituent",
                    "readings",
                    "usual interval",
                    "largest gap",
                    "vs usual",
                    "gap from",
                    "gap to",
                    "gaps over threshold",
                    "flagged",
                ],
                table,
            ),
        },
    )


@input_check(
    asset="flow",
    name="check_referential_flow_user",
    blocking=False,
    additional_deps=["industrial_users"],
    description=(
        "Every flow reading belongs to a user in industrial_users. Threshold: 0 readings of unknown "
        "users. Severity WARN (such readings get no permit baseline and no name on reports)."
    ),
)
def check_referential_flow_user(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        total = count(con, "flow")
        ensure_flow_hours(con)
        unknown, timeless = con.execute(sql("check_referential_flow_user_hours")).fetchall()[0]
        # a year's 100M readings are searched only when the summaries' users are not all known
        rows = con.execute(sql("check_referential_flow_user")).fetchall() if unknown or timeless else []
    orphans = sum(r[1] for r in rows)
    return AssetCheckResult(
        passed=not rows,
        severity=WARN,
        description=f"{orphans} reading(s) of {len(rows)} unknown user(s)" if rows else None,
        metadata={
            "rows_checked": total,
            "unknown_users": len(rows),
            "readings_of_unknown_users": int(orphans),
            "threshold": "0 readings of unknown users",
            "unknown": _md(["user", "readings", "first", "last", "files"], [list(r) for r in rows[:50]]),
        },
    )


# ---------------------------------------------------------------------------
# lab_results and quarantine


@input_check(
    asset="lab_results",
    name="check_referential_lab_results_user",
    blocking=False,
    additional_deps=["industrial_users"],
    description=(
        "Every lab result belongs to a user in industrial_users. Threshold: 0 results of unknown "
        "users. Severity WARN (they are judged against the jurisdiction's limits only, and no "
        "permit names them)."
    ),
)
def check_referential_lab_results_user(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        total = count(con, "lab_results")
        rows = con.execute(sql("check_referential_lab_results_user")).fetchall()
    orphans = sum(r[1] for r in rows)
    return AssetCheckResult(
        passed=not rows,
        severity=WARN,
        description=f"{orphans} result(s) of {len(rows)} unknown user(s)" if rows else None,
        metadata={
            "rows_checked": total,
            "unknown_users": len(rows),
            "results_of_unknown_users": int(orphans),
            "threshold": "0 results of unknown users",
            "unknown": _md(
                ["user", "results", "samples", "first", "last", "files"], [list(r) for r in rows[:50]]
            ),
        },
    )


@input_check(
    asset="quarantine",
    name="check_balance_quarantine_rows",
    blocking=False,
    description=(
        "For every dataset in the ledger ingested_files: rows read = rows kept + rows quarantined "
        "(in total and file by file), and the ledger's quarantined count equals the rows in the "
        "quarantine table. Threshold: 0 unbalanced datasets. Severity ERROR (a row was silently "
        "dropped or counted twice; contract section 2)."
    ),
)
def check_balance_quarantine_rows(duckdb: DuckDBResource) -> AssetCheckResult:
    with warehouse(duckdb) as con:
        rows = con.execute(sql("check_balance_quarantine_rows")).fetchall()
    unbalanced = [r for r in rows if not (r[7] and r[8])]
    table = [
        [d, files, read, kept, quar, stored, bad_files, "yes" if bal else "NO", "yes" if match else "NO"]
        for d, files, read, kept, quar, bad_files, stored, bal, match in rows
    ]
    return AssetCheckResult(
        passed=not unbalanced,
        severity=ERROR,
        description=(
            f"{len(unbalanced)} dataset(s) out of balance: " + ", ".join(r[0] for r in unbalanced)
            if unbalanced
            else None
        ),
        metadata={
            "datasets_checked": len(rows),
            "datasets_unbalanced": len(unbalanced),
            "rows_read": int(sum(r[2] for r in rows)),
            "rows_kept": int(sum(r[3] for r in rows)),
            "rows_quarantined": int(sum(r[4] for r in rows)),
            "threshold": "0 unbalanced datasets",
            "balance": _md(
                [
                    "dataset",
                    "files",
                    "read",
                    "kept",
                    "quarantined (ledger)",
                    "quarantine rows",
                    "unbalanced files",
                    "read = kept + quarantined",
                    "ledger = quarantine table",
                ],
                table,
            ),
        },
    )


def run_input_checks(
    run_id: str, selected, duckdb: DuckDBResource, rules: RulesResource
) -> Iterator[AssetCheckResult]:
    """The ``selected`` checks of the input tables, in order, in the ingestion step that loaded them
    (``assets.ingest.input_folders``): each check is its own result in the UI, the step is one."""
    _run["id"] = run_id
    _run["parameters"] = suite_parameters(rules)
    try:
        for key, check in INPUT_CHECKS.items():
            if key in selected:
                yield check(duckdb)
    finally:
        _run["id"] = ""
        _run["parameters"] = None
