"""Failing well: one plain line per failure on the terminal, the trace in the log
beside the warehouse, a full disk named as such, and the warehouse left as it was."""

from __future__ import annotations

import errno
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from outfall.runlog import LOG_NAME, explain, plain
from tests.conftest import REPO, small_town

pytestmark = pytest.mark.slow


def outfall(
    *args: str, env: dict | None = None, preexec=None, timeout: int = 600
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "outfall", *args],
        capture_output=True,
        text=True,
        env=env,
        preexec_fn=preexec,
        timeout=timeout,
        cwd=REPO,
    )


def assert_plain_failure(proc: subprocess.CompletedProcess, code: int, max_lines: int = 3) -> list[str]:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == code, proc.stderr
    assert 1 <= len(lines) <= max_lines, proc.stderr
    for bad in ("Traceback", "Stack Trace", "dagster._core", "Error:", "Exception:", "Failure:", 'File "'):
        assert bad not in proc.stderr, proc.stderr
    return lines


def tables(db: Path) -> dict[str, list]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        names = [
            r[0]
            for r in con.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' ORDER BY 1"
            ).fetchall()
        ]
        return {
            n: sorted(
                map(
                    repr,
                    con.execute(_without_clock(con, n)).fetchall(),
                )
            )
            for n in names
        }
    finally:
        con.close()


def test_a_missing_rate_is_one_line_naming_year_district_component_and_the_log(tmp_path):
    data = small_town(tmp_path / "data")
    rates = data / "sewer_rates" / "rates.csv"
    rates.write_text(
        "\n".join(
            line
            for line in rates.read_text().splitlines()
            if not line.startswith("2026,district_1,house_lateral")
        )
        + "\n"
    )
    db = tmp_path / "w.duckdb"
    proc = outfall("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-06-30")
    lines = assert_plain_failure(proc, 1)
    failure = [line for line in lines if "failed" in line]
    assert len(failure) == 1
    assert "asset sewer_billing failed: no sewer rate for 2026, district_1, house_lateral" in failure[0]
    assert str(tmp_path / LOG_NAME) in failure[0]
    log = (tmp_path / LOG_NAME).read_text()
    assert "Traceback" in log or "Stack Trace" in log or 'File "' in log
    assert "no sewer rate for 2026, district_1, house_lateral" in log
    verbose = outfall(
        "run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-06-30", "--verbose"
    )
    assert verbose.returncode == 1 and 'File "' in verbose.stderr


def test_a_rules_error_is_one_line_and_exit_2(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules", rules)
    text = (rules / "bellport.yaml").read_text()
    (rules / "bellport.yaml").write_text(text.replace("max_usd: 350", "max_usd: five hundred", 1))
    data = small_town(tmp_path / "data")
    proc = outfall(
        "run",
        "--data",
        str(data),
        "--warehouse",
        str(tmp_path / "w.duckdb"),
        env=dict(os.environ, OUTFALL_RULES_DIR=str(rules)),
        timeout=120,
    )
    (line,) = assert_plain_failure(proc, 2, max_lines=1)
    assert "bellport.yaml" in line and "five hundred" in line


def test_an_unreadable_input_folder_is_a_plain_failure(tmp_path, monkeypatch, capsys):
    """lab_results/ cannot be listed (root reads everything, so the refusal is simulated where the
    operating system would give it): the run fails in one plain line naming the folder."""
    from outfall.ingest import files
    from pipelines.cli import main

    data = small_town(tmp_path / "data")
    closed = str(data / "lab_results")
    real_scandir = files.os.scandir

    def scandir(path="."):
        if str(path) == closed:
            raise PermissionError(errno.EACCES, "Permission denied", closed)
        return real_scandir(path)

    monkeypatch.setattr(files.os, "scandir", scandir)
    code = main(
        [
            "run",
            "--data",
            str(data),
            "--warehouse",
            str(tmp_path / "w.duckdb"),
            "--as-of",
            "2026-06-30",
            "--quiet",
        ]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    failed = [line for line in err if "failed" in line]
    # one step loads every folder (assets.ingest.input_folders); the line names the folder's path
    assert len(failed) == 1 and "asset input_folders failed" in failed[0] and "lab_results" in failed[0]
    assert "cannot be read" in failed[0] and closed in failed[0] and "run again" in failed[0]
    assert not any("Traceback" in line or "Error:" in line for line in err)


def test_an_unreadable_data_folder_is_refused_with_exit_2(tmp_path, monkeypatch, capsys):
    from pipelines import cli

    monkeypatch.setattr(cli.os, "access", lambda path, mode: False)
    assert cli.main(["run", "--data", str(tmp_path), "--warehouse", str(tmp_path / "w.duckdb")]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "the data folder cannot be read" in line


def _fsize_limit(limit: int):
    def apply():
        signal.signal(
            signal.SIGXFSZ, signal.SIG_IGN
        )  # a write past the limit fails with EFBIG, as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_full_disk_is_named_and_the_warehouse_is_left_as_it_was(tmp_path):
    data = small_town(tmp_path / "data")
    db = tmp_path / "w.duckdb"
    first = outfall("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-06-30", "--quiet")
    assert first.returncode == 0, first.stderr
    before = tables(db)
    # New meter data much larger than the room left: the flow asset cannot write it.
    lines = ["user_id,timestamp,value,unit,constituent"]
    lines += [f"IU-1,2026-05-02T00:00:00-04:00,{i},gpm,flow" for i in range(1)]
    lines += [
        f"IU-2,2026-05-{2 + i // 1440:02d}T{(i % 1440) // 60:02d}:{i % 60:02d}:00-04:00,{i % 97},gpm,flow"
        for i in range(20 * 1440)
    ]
    (data / "flow" / "big.csv").write_text("\n".join(lines) + "\n")
    # Room for little: the new readings cannot be written (nor the journal of the last run replayed).
    full = outfall(
        "run",
        "--data",
        str(data),
        "--warehouse",
        str(db),
        "--as-of",
        "2026-06-30",
        preexec=_fsize_limit(1_000_000),
    )
    failures = assert_plain_failure(full, 1)
    assert any("the disk is full" in line and str(db) in line and "free" in line for line in failures), (
        full.stderr
    )
    assert tables(db) == before


def test_explain_names_disk_full_memory_and_permissions_plainly(tmp_path):
    full = OSError(errno.ENOSPC, "No space left on device")
    assert "the disk is full" in explain(full, tmp_path / "w.duckdb").why
    assert str(tmp_path / "w.duckdb") in explain(full, tmp_path / "w.duckdb").why
    assert (
        explain(duckdb.OutOfMemoryException("Out of Memory Error: could not allocate block")).kind
        == "no_memory"
    )
    denied = explain(PermissionError(errno.EACCES, "Permission denied", "/srv/data/lab_results"))
    assert denied.kind == "denied" and "/srv/data/lab_results" in denied.why
    assert (
        plain("dagster._core.definitions.events.Failure: no sewer rate for 2026") == "no sewer rate for 2026"
    )
    assert plain("duckdb.duckdb.IOException: IO Error: could not read") == "could not read"


def test_a_check_that_cannot_run_is_said_on_stderr_even_when_quiet(tmp_path, monkeypatch, capsys):
    """Regression: the flow gap check ran out of memory on a year of readings; it reported an
    error in its own result and the run printed nothing of it (exit 0, and --quiet drops the
    summary). A check that could not run is now one plain line on stderr; the run still exits 0."""
    import assets.checks as checks
    from pipelines import cli

    key = next(k for k in checks.INPUT_CHECKS if k.name == "check_freshness_flow_gaps")

    def out_of_memory(resource):
        raise duckdb.OutOfMemoryException("Out of Memory Error: failed to pin block of size 256.0 KiB")

    monkeypatch.setitem(checks.INPUT_CHECKS, key, checks._reports_errors(out_of_memory, key))
    data = tmp_path / "data"
    (data / "flow").mkdir(parents=True)
    (data / "flow" / "meter.csv").write_text(
        "user_id,timestamp,value,unit\nIU-1,2026-11-02 08:00,12.5,gpm\nIU-1,2026-11-02 08:15,12.0,gpm\n"
    )
    capsys.readouterr()
    code = cli.main(
        [
            "run",
            "--data",
            str(data),
            "--warehouse",
            str(tmp_path / "w.duckdb"),
            "--as-of",
            "2026-11-30",
            "--quiet",
        ]
    )
    err = capsys.readouterr().err
    assert code == 0, err
    lines = [ln for ln in err.splitlines() if "could not run" in ln]
    assert lines == [
        "outfall: warning: the check check_freshness_flow_gaps of the flow table could not run, so this "
        "run has no result for it: DuckDB ran out of memory; give it more with the environment variable "
        "OUTFALL_MEMORY_LIMIT (e.g. 2GB) or close other programs, and run again"
    ], err
    for bad in ("Traceback", "Exception:", "Error:"):
        assert bad not in err


def test_a_run_in_process_leaves_the_collector_as_it_found_it(tmp_path):
    """run_pipeline sets the objects made before the first asset apart from the collector's full
    passes (gc.freeze, and no full pass during the run: each pass would go over Dagster's
    definitions again). After a run, and after a failure inside it, the collector is on, with
    its thresholds, and nothing stays frozen: a process that runs again (the tests) keeps nothing
    longer than it would have."""
    import gc

    from pipelines import cli

    before = (gc.isenabled(), gc.get_threshold())
    assert before[0] and gc.get_freeze_count() == 0
    (tmp_path / "data").mkdir()
    assert (
        cli.main(
            [
                "run",
                "--data",
                str(tmp_path / "data"),
                "--warehouse",
                str(tmp_path / "w.duckdb"),
                "--as-of",
                "2026-11-30",
                "--quiet",
            ]
        )
        == 0
    )
    assert (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()) == (*before, 0)
    seen = []
    with pytest.raises(RuntimeError):
        with cli._startup_objects_set_apart() as set_apart:
            seen.append(gc.isenabled())
            set_apart()
            seen.append((gc.isenabled(), gc.get_threshold()[2], gc.get_freeze_count() > 0))
            raise RuntimeError("an asset's failure")
    assert seen == [False, (True, cli.FULL_PASS_EVERY, True)]
    assert (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()) == (*before, 0)
    gc.disable()  # a caller that had the collector off finds it off again
    try:
        with cli._startup_objects_set_apart() as set_apart:
            set_apart()
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize("interruption", ["dagster", "duckdb"])
def test_an_interrupted_run_says_so_in_one_plain_line(tmp_path, monkeypatch, capsys, interruption):
    """Regression: Ctrl-C while an asset ran printed "asset flow failed:
    dagster._core.errors.DagsterExecutionInterruptedError" (or, inside a DuckDB statement, "failed:
    Query interrupted"), as if the data or Outfall were at fault. Dagster turns the signal into
    DagsterExecutionInterruptedError in the running step; DuckDB, when the signal lands inside a
    statement, into InterruptException. Either way the run now says it was interrupted, in which
    asset, that the tables are as they were before it, and what to do; exit 1 as for any asset
    that did not finish."""
    from dagster import DagsterExecutionInterruptedError

    import assets.ingest as ingest
    from pipelines import cli

    real = ingest.load_dataset

    def interrupted(con, ds, *args, **kwargs):
        if ds.name == "flow":
            if interruption == "dagster":
                raise DagsterExecutionInterruptedError()
            raise duckdb.InterruptException("INTERRUPT Error: Interrupted!")
        return real(con, ds, *args, **kwargs)

    monkeypatch.setattr(ingest, "load_dataset", interrupted)
    data = tmp_path / "data"
    (data / "flow").mkdir(parents=True)
    (data / "flow" / "meter.csv").write_text("user_id,timestamp,value,unit\nIU-1,2026-11-02 08:00,12.5,gpm\n")
    capsys.readouterr()
    code = cli.main(
        [
            "run",
            "--data",
            str(data),
            "--warehouse",
            str(tmp_path / "w.duckdb"),
            "--as-of",
            "2026-11-30",
            "--quiet",
        ]
    )
    err = capsys.readouterr().err
    assert code == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("outfall: interrupted while the asset input_folders was running: "), err
    assert "as they were before it" in lines[0] and "run again" in lines[0] and LOG_NAME in lines[0], err
    for bad in ("dagster._core", "Error", "Exception", "Traceback", "failed"):
        assert bad not in err, err


def test_a_run_interrupted_before_its_first_asset_says_so(tmp_path, capsys):
    """Regression: Ctrl-C after the run had started but before its first step (Dagster then fails the
    run itself, with DagsterExecutionInterruptedError) printed "the run failed before any asset could
    report why". Any other failure of the run as a whole still says that."""
    from dagster import DagsterExecutionInterruptedError

    from pipelines import cli

    for error, said in (
        (
            DagsterExecutionInterruptedError(),
            "outfall: interrupted before any asset had started: every table is as it was; run again",
        ),
        (
            RuntimeError("the executor could not start"),
            "outfall: the run failed before any asset could report why",
        ),
    ):
        assert cli._report(cli.RunOutcome(ok=False, run_error=error), tmp_path / "w.duckdb") == 1
        lines = capsys.readouterr().err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(said), (
            lines
        )  # then where the run log is, if one is kept


def _without_clock(con, table: str) -> str:
    """Every column of ``table`` but when a row was loaded and the file stamp (a file gets one only when
    read at least 2 s after it last changed: outfall.ingest.files.STAMP_SETTLE_S)."""
    present = [c[0] for c in con.execute(f'DESCRIBE "{table}"').fetchall()]
    dropped = [c for c in ("loaded_at", "file_stamp") if c in present]
    return (
        f'SELECT * EXCLUDE ({", ".join(dropped)}) FROM "{table}"' if dropped else f'SELECT * FROM "{table}"'
    )
