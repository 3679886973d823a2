"""The fault drill: `outfall run` killed with SIGKILL during ingestion, slug
detection, billing and dashboards, each followed by a rerun whose warehouse equals an uninterrupted
run's, table by table, with the same dashboard files; the WAL a kill leaves is replayed.

The drill itself is benchmarks/fault_drill.py (also a script printing the rerun times); the fast
tests here prove its parts can fail: the comparison of warehouses and the run log's step lines
that the drill watches to kill in a phase.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import duckdb
import pytest

from benchmarks.fault_drill import (
    MULTIPROCESS,
    WALL_CLOCK_COLUMNS,
    aim,
    drill,
    file_differences,
    open_at_end,
    output_files,
    phase_steps,
    running_at_end,
    step_seconds,
    steps_in_log,
    table_differences,
    table_text,
    warehouse_tables,
)
from outfall import runlog

PHASES = ("ingestion", "slug detection", "billing", "dashboards", "month re-run", "billing year re-run")


# ---------------------------------------------------------------------------
# fast: the parts of the drill


def _warehouse(path: Path, rows: list[tuple], loaded_at: str = "2026-01-01 00:00:00+00") -> Path:
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE flow (user_id VARCHAR, value DOUBLE, loaded_at TIMESTAMPTZ)").fetchall()
    con.execute("CREATE TABLE outfall_run (dashboards_dir VARCHAR)").fetchall()
    con.execute("INSERT INTO outfall_run VALUES (?)", [str(path.parent / "dashboards")]).fetchall()
    for user, value in rows:
        con.execute("INSERT INTO flow VALUES (?, ?, ?)", [user, value, loaded_at]).fetchall()
    con.close()
    return path


def test_comparison_ignores_a_file_stamp_set_only_by_the_later_run(tmp_path):
    """Regression: the multiprocess drill failed in CI on ingested_files, whose file_stamp the reference
    run left empty (it read the drill's files 1.8 s after they were written) and the rerun filled in."""
    tables = {}
    for name, stamp in (("a", None), ("b", "22755:1796323164545170049:1796323164545170049:2161153:65024")):
        (tmp_path / name).mkdir()
        con = duckdb.connect(str(tmp_path / name / "w.duckdb"))
        con.execute(
            "CREATE TABLE ingested_files (source_file VARCHAR, rows_read INTEGER, file_stamp VARCHAR)"
        )
        con.execute("INSERT INTO ingested_files VALUES ('drill_june.csv', 576, ?)", [stamp])
        con.close()
        tables[name] = warehouse_tables(tmp_path / name / "w.duckdb")
    assert "file_stamp" in WALL_CLOCK_COLUMNS
    assert table_differences(tables["a"], tables["b"]) == []


def test_comparison_ignores_wall_clock_row_order_and_the_warehouse_folder(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = _warehouse(tmp_path / "a" / "w.duckdb", [("IU-1", 1.0), ("IU-2", float("nan"))])
    b = _warehouse(
        tmp_path / "b" / "w.duckdb",
        [("IU-2", float("nan")), ("IU-1", 1.0)],
        loaded_at="2026-06-01 12:00:00+00",
    )
    assert "loaded_at" in WALL_CLOCK_COLUMNS
    assert table_differences(warehouse_tables(a, a.parent), warehouse_tables(b, b.parent)) == []


def test_comparison_finds_a_changed_a_duplicated_and_a_missing_row_and_table(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = _warehouse(tmp_path / "a" / "w.duckdb", [("IU-1", 1.0), ("IU-2", 2.0)])
    changed = _warehouse(tmp_path / "b" / "w.duckdb", [("IU-1", 1.0), ("IU-2", 2.5)])
    expected = warehouse_tables(a, a.parent)
    problems = table_differences(expected, warehouse_tables(changed, changed.parent))
    assert len(problems) == 1 and "table flow" in problems[0] and "2.5" in problems[0]

    duplicated = dict(expected)
    cols, rows = expected["flow"]
    duplicated["flow"] = (cols, rows + Counter({("IU-1", 1.0): 1}))
    assert table_differences(expected, duplicated) == [
        "table flow: 3 rows instead of 2; missing [], extra [('IU-1', 1.0)]"
    ]

    missing = {k: v for k, v in expected.items() if k != "outfall_run"}
    assert table_differences(expected, missing) == ["table outfall_run is missing"]
    # Another folder for the dashboards is a difference (only the warehouse's own folder is relative).
    other = dict(expected, outfall_run=(("dashboards_dir",), Counter({("/elsewhere/dashboards",): 1})))
    assert table_differences(expected, other)


def test_output_files_mask_the_time_of_day_and_folder_not_the_figures(tmp_path):
    def page(folder: Path, generated: str, total: str) -> Path:
        (folder / "dashboards").mkdir(parents=True)
        (folder / "dashboards" / "index.html").write_text(
            f"<p>generated {generated} from {folder.resolve()}/warehouse.duckdb; total ${total}</p>"
        )
        (folder / "exports").mkdir()
        (folder / "exports" / "register.xlsx").write_bytes(generated.encode())
        return folder

    a = output_files(page(tmp_path / "a", "2026-11-30 23:22", "1,000.00"))
    assert output_files(page(tmp_path / "b", "2026-11-30 23:25", "1,000.00")) == a
    assert output_files(page(tmp_path / "c", "2026-11-30 23:22", "1,000.01")) != a
    stray = page(tmp_path / "d", "2026-11-30 23:22", "1,000.00")
    (stray / "dashboards" / ".sewer.html.tmp").write_text("half a page")  # what a kill mid-write leaves
    assert set(output_files(stray)) - set(a) == {"dashboards/.sewer.html.tmp"}
    assert file_differences(a, output_files(stray)) == (set(), {"dashboards/.sewer.html.tmp"}, set())
    changed = output_files(tmp_path / "c")
    assert file_differences(a, changed) == (set(), set(), {"dashboards/index.html"})


def _event(step: str, start: bool) -> SimpleNamespace:
    return SimpleNamespace(
        dagster_event=SimpleNamespace(is_step_start=start, is_step_success=not start, step_key=step)
    )


def test_run_log_has_a_line_per_step_started_and_finished(tmp_path):
    """The drill finds a phase in the run log: outfall.runlog.log_step writes each step's start and end."""
    warehouse = tmp_path / "w.duckdb"
    logger = runlog.open_log(warehouse)
    assert logger is not None
    try:
        runlog.log_step(_event("flow", True))
        runlog.log_step(_event("flow", False))
        runlog.log_step(_event("slug_events", True))
        runlog.log_step(SimpleNamespace(dagster_event=None))  # other entries: nothing
    finally:
        runlog.close_log()
    log = runlog.log_path(warehouse)
    assert [(s, w) for _t, s, w in steps_in_log(log)] == [
        ("flow", "started"),
        ("flow", "finished"),
        ("slug_events", "started"),
    ]
    assert all(isinstance(t, dt.datetime) for t, _s, _w in steps_in_log(log))
    assert running_at_end(log) == ("slug_events", True)
    runlog.log_step(_event("sewer_billing", True))  # no log open: nothing, no error
    assert "sewer_billing" not in log.read_text()


def test_a_kill_aims_at_a_step_of_its_phase_that_runs_long_enough(tmp_path):
    log = tmp_path / "outfall.log"
    log.write_text(
        "2026-12-01 04:21:07,000 INFO step flow started\n"
        "2026-12-01 04:21:08,000 INFO step flow finished\n"
        "2026-12-01 04:21:08,000 INFO step sewer_dashboard started\n"
        "2026-12-01 04:21:08,400 INFO step sewer_dashboard finished\n"
        "2026-12-01 04:21:08,400 INFO step letter_pdfs started\n"
        "2026-12-01 04:21:08,420 INFO step letter_pdfs finished\n"
    )
    seconds = step_seconds(log)
    assert seconds == {"flow": 1.0, "sewer_dashboard": 0.4, "letter_pdfs": 0.02}
    rng = random.Random(1)
    for _ in range(20):
        target, delay = aim("dashboards", frozenset({"sewer_dashboard", "letter_pdfs"}), seconds, rng)
        assert target == "sewer_dashboard" and 0 <= delay <= 0.2
    assert (
        aim("ingestion", frozenset({"input_folders"}), {**seconds, "input_folders": 1.0}, rng)[0]
        == "input_folders"
    )
    with pytest.raises(RuntimeError, match="none of the steps"):
        aim("billing", frozenset({"sewer_billing"}), seconds, rng)


def test_a_multiprocess_run_is_followed_in_dagsters_console_log(tmp_path):
    """A run on the multiprocess executor writes no run log; its step processes write Dagster's console
    log to its standard error, two steps at a time: the drill reads the same steps from it."""
    out = tmp_path / "killed_run.out"
    prefix = "2026-12-03 17:10:{:02d} +0000 - dagster - DEBUG - everything_1_unpartitioned - b8f5d896 - {} - "
    out.write_text(
        prefix.format(7, 20927)
        + 'flow - STEP_WORKER_STARTING - Launching subprocess for "flow".\n'
        + prefix.format(10, 20939)
        + 'flow - STEP_START - Started execution of step "flow".\n'
        + prefix.format(10, 20940)
        + 'parcels - STEP_START - Started execution of step "parcels".\n'
        + prefix.format(11, 20940)
        + 'parcels - STEP_SUCCESS - Finished execution of step "parcels".\n'
        + prefix.format(11, 20941)
        + 'sites - STEP_START - Started execution of step "sites".\n'
        + "2026-12-03 17:10:12,001 INFO something else\n"
    )
    assert [(s, w) for _t, s, w in steps_in_log(out)] == [
        ("flow", "started"),
        ("parcels", "started"),
        ("parcels", "finished"),
        ("sites", "started"),
    ]
    assert open_at_end(out) == ["flow", "sites"]  # killed while both ran
    assert running_at_end(out) == ("sites", True)


def test_step_lines_stay_off_the_terminal(tmp_path, capsys):
    logger = runlog.open_log(tmp_path / "w.duckdb")
    try:
        runlog.log_step(_event("flow", True))
    finally:
        runlog.close_log()
    assert logging.getLogger("outfall.run").propagate is False
    captured = capsys.readouterr()
    assert "flow" not in captured.out + captured.err
    assert logger is not None


def test_each_phase_names_steps_of_the_run():
    from pipelines.definitions import defs

    steps = set(defs.resolve_implicit_global_asset_job_def().graph.node_dict)
    for phase, names in phase_steps().items():
        assert names and names <= steps, (phase, sorted(names - steps))


# ---------------------------------------------------------------------------
# slow: the drill itself (a reference run, four killed runs and their reruns)


@pytest.fixture(scope="module")
def drilled(tmp_path_factory):
    return drill(tmp_path_factory.mktemp("fault_drill"), seed=14, log=lambda _line: None)


@pytest.mark.slow
def test_drill_table(drilled, capsys):
    with capsys.disabled():
        print("\n" + table_text(drilled))
    assert [k.phase for k in drilled.kills] == list(PHASES)


@pytest.mark.slow
@pytest.mark.parametrize("phase", PHASES)
def test_kill_lands_in_the_phase(drilled, phase):
    kill = next(k for k in drilled.kills if k.phase == phase)
    assert kill.in_phase, f"the kill landed {'in' if kill.in_step else 'after'} {kill.step}, outside {phase}"


@pytest.mark.slow
@pytest.mark.parametrize("phase", PHASES)
def test_rerun_after_a_kill_equals_an_uninterrupted_run(drilled, phase):
    kill = next(k for k in drilled.kills if k.phase == phase)
    assert kill.rerun_exit == 0, kill.rerun_stderr
    assert kill.differences == []
    assert drilled.reference_tables > 50
    assert not kill.files_missing and not kill.files_extra, (kill.files_missing, kill.files_extra)
    assert not kill.files_changed
    assert {
        "dashboards/index.html",
        "dashboards/sewer.html",
        "dashboards/stormwater.html",
        "dashboards/billing.html",
    } <= set(drilled.files)


@pytest.mark.slow
def test_the_wal_a_kill_leaves_is_replayed(drilled):
    """A kill in a step that committed leaves <warehouse>.wal (each step opens the warehouse for its own
    length and checkpoints it when it closes, so a kill between steps, or before a step's first commit,
    leaves none); a copy opened read-only replays it and holds what was committed before the kill; the
    rerun opens it (exit 0, above)."""
    for kill in drilled.kills:
        assert kill.wal_problems == [], kill.phase
    assert any(k.wal_bytes for k in drilled.kills), [(k.phase, k.wal_bytes) for k in drilled.kills]


# ---------------------------------------------------------------------------
# slow: the drill on Dagster's multiprocess executor (two steps at a time, each a forked process)


@pytest.mark.slow
def test_a_killed_multiprocess_run_then_outfall_run_equals_an_uninterrupted_run(tmp_path, capsys):
    """kill -9 of the run, its forkserver and the input folders' steps running side by side while the
    readings load; `outfall run` then gives the uninterrupted run's tables and files. (The whole drill on
    this executor, every phase and an uninterrupted multiprocess run against `outfall run`'s, is
    `python -m benchmarks.fault_drill --executor multiprocess`: about 4 minutes here.)"""
    drilled = drill(
        tmp_path,
        seed=14,
        phases=["ingestion"],
        log=lambda _line: None,
        executor=MULTIPROCESS,
        uninterrupted=False,
    )
    with capsys.disabled():
        print("\n" + table_text(drilled))
    (kill,) = drilled.kills
    assert kill.phase == "ingestion" and kill.in_phase, kill.step
    assert kill.rerun_exit == 0, kill.rerun_stderr
    assert kill.identical, (kill.wal_problems, kill.differences, kill.files_missing, kill.files_changed)


def test_a_kill_before_the_warehouse_exists_left_nothing_half_written(tmp_path):
    """CI killed the multiprocess run before any step opened the warehouse (each opens it for its own
    length): no file is whole, unless a step had finished, whose tables must then be there."""
    from benchmarks.fault_drill import _replayed_copy

    missing = tmp_path / "warehouse.duckdb"
    assert _replayed_copy(missing, tmp_path / "replayed", {}, set()) == (None, [])
    assert _replayed_copy(missing, tmp_path / "replayed", {}, {"parcels"}) == (
        None,
        ["no warehouse, though parcels had committed"],
    )
