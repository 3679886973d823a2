"""What `outfall run` says when it ends: the failures on stderr in plain words (exit 1), another writer
(exit 2), checks that could not run, and the summary of what was read, kept and made (exit 0)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from outfall.ingest.registry import all_datasets
from outfall.runlog import explain, failure_line, group_failures, log_path, run_logger, trace_text
from pipelines.runs import RunOutcome

# The output tables the summary counts, where the warehouse has them.
SUMMARY_OUTPUTS = (
    "discharge_violations",
    "slug_events",
    "infiltration_results",
    "sewer_bills",
    "swppp_inspection_findings",
    "snc_determinations",
    "quarantine",
)


def _sql(name: str) -> str:
    """A statement of sql/ (not through outfall.warehouse, which imports pandas: a run with nothing new
    answers without it)."""
    from outfall.paths import sql_path

    return sql_path(name).read_text(encoding="utf-8")


def _first_line(warehouse: Path, outcome: RunOutcome) -> str:
    if outcome.nothing_new:
        return (
            f"outfall: nothing new since the last run (the same files, rules, day and folders): 0 assets "
            f"materialized in {outcome.seconds:.1f} s; {warehouse} is as it was"
        )
    return (
        f"outfall: {len(set(outcome.materialized))} assets materialized in {outcome.seconds:.1f} s "
        f"into {warehouse}" + ("" if outcome.materialized else ": no file changed since the last run")
    )


def _open_when_free(warehouse: Path):
    """The warehouse, read-only; None when a Dagster run of the queue is still writing it (after a
    moment's wait)."""
    import duckdb  # only once a run has ended

    for pause in (0.5, 1, 2, 4, None):
        try:
            return duckdb.connect(str(warehouse), read_only=True)
        except duckdb.IOException:
            if pause is None:
                return None
            time.sleep(pause)
    return None


def _count(con, table: str) -> int:
    return int(con.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0])


def _table_lines(con) -> list[str]:
    """Rows read, kept and quarantined per dataset, and the counts of the main outputs."""
    rows = dict((d, (r, k, q)) for d, r, k, q in con.execute(_sql("select_ingested_totals")).fetchall())
    lines = [f"  {'dataset':<22}{'read':>10}{'kept':>10}{'quarantined':>13}"]
    for name in all_datasets():
        r, k, q = rows.get(name, (0, 0, 0))
        lines.append(f"  {name:<22}{int(r):>10}{int(k):>10}{int(q):>13}")
    existing = {r[0] for r in con.execute(_sql("select_table_names")).fetchall()}
    counts = [f"{t} {_count(con, t)}" for t in SUMMARY_OUTPUTS if t in existing]
    lines.append("  outputs: " + ", ".join(counts))
    return lines


def summary(warehouse: Path, outcome: RunOutcome) -> str:
    lines = [_first_line(warehouse, outcome)]
    con = _open_when_free(warehouse)
    if con is None:
        lines.append("  (its tables are being written by a Dagster run: they are in the UI)")
        return "\n".join(lines)
    try:
        lines += _table_lines(con)
    finally:
        con.close()
    if outcome.checks_failed:
        lines.append(
            f"  checks that found problems ({len(outcome.checks_failed)}): "
            + ", ".join(sorted(outcome.checks_failed)[:12])
            + (" ..." if len(outcome.checks_failed) > 12 else "")
        )
    return "\n".join(lines)


def _not_ok(outcome: RunOutcome, warehouse: Path, log: Path | None, verbose: bool) -> int:
    """The exit status and the stderr lines of a run that did not end well: another writer (2), failed
    assets or a run that failed before any asset could say why (1)."""
    in_use = outcome.in_use_line() if (outcome.failures or outcome.in_use) else ""
    if in_use:  # not a failure of the data or of Outfall: another writer; nothing is half-written
        print(f"outfall: {in_use}", file=sys.stderr)
        return 2
    if outcome.failures:
        for steps, error in group_failures(outcome.failures, warehouse):
            if verbose:
                print(trace_text(error).rstrip(), file=sys.stderr)
            print(failure_line(steps, error, warehouse, log), file=sys.stderr)
        return 1
    where = f"; the details are in {log}" if log else ""
    if outcome.run_error is not None and explain(outcome.run_error).kind == "interrupted":
        print(
            f"outfall: interrupted before any asset had started: every table is as it was; run again{where}",
            file=sys.stderr,
        )
    else:
        print(f"outfall: the run failed before any asset could report why{where}", file=sys.stderr)
    return 1


def report(outcome: RunOutcome, warehouse: Path, quiet: bool = False, verbose: bool = False) -> int:
    """The run's exit status, its failures and warnings said on stderr and its summary on stdout."""
    log = log_path(warehouse) if run_logger().handlers else None
    if outcome.failures or outcome.in_use or not outcome.ok:
        return _not_ok(outcome, warehouse, log, verbose)
    # A check that could not run is a failure of the tool, not a finding about the data: said on
    # stderr even with --quiet (the run still exits 0: every asset materialized).
    for name, error in outcome.checks_not_run:
        asset, _, check = name.partition(":")
        why = explain(error).why or "see the check in the Dagster UI"
        print(
            f"outfall: warning: the check {check} of the {asset} table could not run, so this run has no "
            f"result for it: {why}",
            file=sys.stderr,
        )
    if not quiet:
        print(summary(warehouse, outcome))
    return 0
