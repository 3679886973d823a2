"""Data-quality checks: the GX suites, the adapter, the SQL checks and the Dagster wiring."""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib.util
import json
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest
from dagster import AssetCheckSeverity
from dagster_duckdb import DuckDBResource

import assets.checks as checks
from assets.common import schema_ddl
from assets.ingest import NEW_FILES_CHECK as NEW_FILES, ingest_assets, input_folders
from outfall import flow_hours, gx_adapter
from outfall.ingest.registry import CONTRACT_DATASETS, all_datasets
from outfall.paths import EXPECTATIONS_DIR, REPO_ROOT
from outfall.resources import OutfallSettings
from outfall.rules import local_timezone
from outfall.warehouse import configure, ensure_schema, table_columns
from tests.conftest import materialize

UTC = dt.UTC
T0 = dt.datetime(2026, 5, 1, 4, 0, tzinfo=UTC)  # local midnight, 1 May 2026


# ---------------------------------------------------------------------------
# helpers


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "w.duckdb"
    with open_db(path):
        pass
    return path


@contextlib.contextmanager
def open_db(path: Path):
    con = configure(duckdb.connect(str(path)), timezone=local_timezone())
    ensure_schema(con, schema_ddl())
    try:
        yield con
    finally:
        con.close()


def insert(con, table: str, rows: list[dict]) -> None:
    cols = list(rows[0])
    con.executemany(
        f'INSERT INTO "{table}" ({", ".join(cols)}) VALUES ({", ".join("?" for _ in cols)})',
        [[r[c] for c in cols] for r in rows],
    )


def insert_frame(con, table: str, frame: pd.DataFrame) -> None:
    con.register("_test_frame", frame)
    try:
        con.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM _test_frame').fetchall()
    finally:
        con.unregister("_test_frame")


def run_check(check_def, path: Path):
    """Direct invocation of one input check with its resource (the run runs them all in one step,
    the ingestion step)."""
    return check_def(DuckDBResource(database=str(path)))


def md(result, key: str):
    return result.metadata[key].value


USERS = [
    {"user_id": "IU-1", "name": "Acme", "district": "consolidated"},
    {"user_id": "IU-2", "name": "Brewery", "district": "district_1"},
]


def flow_rows(
    user: str,
    start: dt.datetime,
    n: int,
    step_min: int = 15,
    value: float = 10.0,
    constituent: str = "flow",
    unit: str = "gpm",
) -> list[dict]:
    return [
        {
            "user_id": user,
            "constituent": constituent,
            "ts": start + dt.timedelta(minutes=step_min * i),
            "value": value,
            "unit": unit,
        }
        for i in range(n)
    ]


def clean_flow(con) -> None:
    insert(con, "industrial_users", USERS)
    insert(
        con,
        "flow",
        flow_rows("IU-1", T0, 192)
        + flow_rows("IU-2", T0, 96, value=3.5)
        + flow_rows("IU-1", T0, 96, constituent="pH", unit="s.u.", value=7.2),
    )


def lab_frame(n: int, seed: int = 1) -> pd.DataFrame:
    """n clean lab results in canonical form (BOD/TSS mg/L, pH s.u., temperature degF)."""
    rng = np.random.default_rng(seed)
    params = np.array(["BOD", "TSS", "pH", "temperature", "copper"])
    units = {"BOD": "mg/L", "TSS": "mg/L", "pH": "s.u.", "temperature": "degF", "copper": "mg/L"}
    parameter = params[np.arange(n) % len(params)]
    result = np.where(
        parameter == "pH",
        rng.uniform(6, 9, n),
        np.where(parameter == "temperature", rng.uniform(50, 90, n), rng.uniform(1, 300, n)),
    )
    collected = pd.Timestamp("2026-01-05 14:00", tz="UTC") + pd.to_timedelta(np.arange(n) // 5, unit="h")
    return pd.DataFrame(
        {
            "sample_id": [f"S-{i // 5:05d}" for i in range(n)],
            "user_id": np.where(np.arange(n) % 2 == 0, "IU-1", "IU-2"),
            "collected_at": collected,
            "collected_date": collected.tz_convert("America/New_York").date,
            "sample_type": "composite",
            "parameter": parameter,
            "parameter_reported": parameter,
            "result": result.round(2),
            "nondetect": False,
            "unit": [units[p] for p in parameter],
        }
    )


# ---------------------------------------------------------------------------
# suites


#: The datasets with a suite: the human-entered ones checked in full, and flow on a sample.
SUITES = (*checks.GX_DATASETS, "flow")


def test_every_input_dataset_has_a_valid_gx_1x_suite():
    import great_expectations as gx

    with open_db(Path(":memory:")) as con:
        schema = {t: set(table_columns(con, t)) for t in SUITES}
    # every contract dataset has its suite; a suite is of a registered dataset, and checked (GX_DATASETS)
    assert set(CONTRACT_DATASETS) <= set(SUITES) <= set(all_datasets())
    assert sorted(p.stem for p in EXPECTATIONS_DIR.glob("*.json")) == sorted(SUITES)
    for dataset in SUITES:
        path = EXPECTATIONS_DIR / f"{dataset}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) >= {"name", "expectations", "meta"} and data["name"] == dataset
        suite = gx.ExpectationSuite(**data)  # raises on an unknown type or bad kwargs
        assert len(suite.expectations) == len(data["expectations"]) >= 5
        for exp in data["expectations"]:
            assert set(exp) >= {"type", "kwargs", "meta"}
            assert exp["meta"]["severity"] in ("ERROR", "WARN"), exp
            assert len(exp["meta"]["description"]) > 15, exp
            assert exp["severity"] == {"ERROR": "critical", "WARN": "warning"}[exp["meta"]["severity"]]
        used = set(gx_adapter.suite_columns(path))
        assert used <= schema[dataset] - set(checks.PROVENANCE), (dataset, used - schema[dataset])
        types = {e["type"] for e in data["expectations"]}
        assert "expect_column_values_to_not_be_null" in types
        assert types & {"expect_compound_columns_to_be_unique", "expect_column_values_to_be_unique"}


def test_suite_files_match_their_generator():
    spec = importlib.util.spec_from_file_location("build_suites", EXPECTATIONS_DIR / "build_suites.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert sorted(module.suites()) == sorted(SUITES), "run .venv/bin/python expectations/build_suites.py"
    for dataset in SUITES:
        assert (EXPECTATIONS_DIR / f"{dataset}.json").read_text(encoding="utf-8") == module.render(dataset), (
            f"expectations/{dataset}.json is stale: run .venv/bin/python expectations/build_suites.py"
        )


def test_suites_hold_the_contract_rules():
    lab = json.loads((EXPECTATIONS_DIR / "lab_results.json").read_text())["expectations"]
    ph = [
        e
        for e in lab
        if e["type"] == "expect_column_values_to_be_between"
        and e["kwargs"].get("row_condition", {}).get("parameter") == "pH"
    ]
    assert ph and ph[0]["kwargs"]["min_value"] == 0 and ph[0]["kwargs"]["max_value"] == 14
    rain = json.loads((EXPECTATIONS_DIR / "rainfall.json").read_text())["expectations"]
    bounds = {
        (e["kwargs"].get("min_value"), e["kwargs"].get("max_value"), e["meta"]["severity"])
        for e in rain
        if e["type"] == "expect_column_values_to_be_between"
    }
    assert bounds == {(0, None, "ERROR"), (None, 15, "WARN")}
    users = json.loads((EXPECTATIONS_DIR / "industrial_users.json").read_text())["expectations"]
    pair = [e for e in users if e["type"] == "expect_column_pair_values_a_to_be_greater_than_b"][0]
    assert pair["kwargs"] == {
        "column_A": "permit_expires",
        "column_B": "permit_effective",
        "or_equal": True,
        "ignore_row_if": "either_value_is_missing",
    }


# ---------------------------------------------------------------------------
# adapter


def test_adapter_finds_a_planted_ph_of_15_and_counts_it(db):
    frame = lab_frame(5000)
    with open_db(db) as con:
        insert_frame(con, "lab_results", frame)
        path = EXPECTATIONS_DIR / "lab_results.json"
        clean = gx_adapter.validate_frame(
            checks.read_frame(con, "lab_results", gx_adapter.suite_columns(path)), path
        )
        assert clean.success and clean.failed == [] and clean.element_count == 5000
        assert clean.evaluated == len(json.loads(path.read_text())["expectations"])
        con.execute(
            "UPDATE lab_results SET result = 15 WHERE sample_id = 'S-00007' AND parameter = 'pH'"
        ).fetchall()
        read = checks.read_frame(con, "lab_results", gx_adapter.suite_columns(path))
    assert "source_file" not in read.columns and "row_hash" not in read.columns
    summary = gx_adapter.validate_frame(read, path)
    assert not summary.success and summary.worst_severity == "ERROR"
    [failure] = summary.failed
    assert failure["expectation"] == "expect_column_values_to_be_between"
    assert failure["column"] == "result" and failure["condition"] == "parameter == pH"
    assert failure["unexpected_count"] == 1 and failure["unexpected_values"] == ["15.0 (1)"]
    assert failure["unexpected_percent"] == pytest.approx(100 / 1000)  # 1 of the 1,000 pH rows
    assert failure["severity"] == "ERROR" and "0 and 14" in failure["description"]
    assert "| ERROR | result |" in summary.markdown() and "15.0 (1)" in summary.markdown()


def test_adapter_reuses_one_context_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = EXPECTATIONS_DIR / "rainfall.json"
    ok = pd.DataFrame(
        {
            "gauge_id": ["G"],
            "date": [pd.Timestamp("2026-05-01")],
            "precip_in": [0.5],
            "observed_at": [pd.Timestamp("2026-05-01", tz="America/New_York")],
        }
    )
    first = gx_adapter.validate_frame(ok, path)
    context = gx_adapter._state["context"]
    second = gx_adapter.validate_frame(ok.assign(precip_in=[20.0]), path)
    assert gx_adapter._state["context"] is context
    assert first.success and not second.success
    assert [(f["severity"], f["unexpected_count"]) for f in second.failed] == [("WARN", 1)]
    assert second.worst_severity == "WARN"
    assert list(tmp_path.iterdir()) == [] and not (REPO_ROOT / "gx").exists()


def test_the_sites_suite_takes_the_jurisdictions_from_the_run_not_from_the_stored_file():
    """The stored suite names no town: the jurisdictions are the rules files' of the run (a third town's
    too)."""
    stored = json.loads((EXPECTATIONS_DIR / "sites.json").read_text())
    in_set = next(
        e
        for e in stored["expectations"]
        if e["type"] == "expect_column_values_to_be_in_set" and e["kwargs"]["column"] == "jurisdiction"
    )
    assert in_set["kwargs"]["value_set"] == {"$PARAMETER": "jurisdictions"}
    columns = gx_adapter.suite_columns(EXPECTATIONS_DIR / "sites.json")
    row = {c: [None] for c in columns}
    row.update(site_id=["S-1"], jurisdiction=["springfield"])
    frame = pd.DataFrame(row)

    def jurisdiction_failed(parameters):
        summary = gx_adapter.validate_frame(frame, EXPECTATIONS_DIR / "sites.json", parameters)
        return any(
            f["column"] == "jurisdiction" and f["expectation"] == "expect_column_values_to_be_in_set"
            for f in summary.failed
        )

    assert not jurisdiction_failed({"jurisdictions": ["springfield"]})
    assert jurisdiction_failed({"jurisdictions": ["woodbury", "bellport"]})


def test_adapter_reports_a_missing_column_as_a_failure_not_an_exception():
    summary = gx_adapter.validate_frame(
        pd.DataFrame({"gauge_id": ["G"], "precip_in": [1.0]}), EXPECTATIONS_DIR / "rainfall.json"
    )
    errors = [f for f in summary.failed if f["error"]]
    assert not summary.success and {f["column"] for f in errors} >= {"date", "observed_at"}


# ---------------------------------------------------------------------------
# GX checks through Dagster


def test_expectation_check_maps_failures_to_severity_and_metadata(db):
    with open_db(db) as con:
        insert_frame(con, "lab_results", lab_frame(50))
    passed = run_check(checks.expectation_checks[GX_INDEX["lab_results"]], db)
    assert passed.passed and md(passed, "failed") == 0 and md(passed, "rows") == 50

    with open_db(db) as con:
        con.execute("UPDATE lab_results SET result = 15 WHERE parameter = 'pH'").fetchall()
    failed = run_check(checks.expectation_checks[GX_INDEX["lab_results"]], db)
    assert not failed.passed and failed.severity == AssetCheckSeverity.ERROR
    assert md(failed, "failed") == 1 and md(failed, "failed_error") == 1 and md(failed, "rows") == 50
    assert md(failed, "evaluated") > 20 and "| result |" in md(failed, "failures")
    assert md(failed, "failed_expectations")[0]["unexpected_count"] == 10

    with open_db(db) as con:
        insert(
            con,
            "rainfall",
            [{"gauge_id": "G", "date": dt.date(2026, 5, 1), "precip_in": 16.0, "observed_at": T0}],
        )
    warn = run_check(checks.expectation_checks[GX_INDEX["rainfall"]], db)
    assert not warn.passed and warn.severity == AssetCheckSeverity.WARN and md(warn, "failed_warn") == 1


GX_INDEX = {d: i for i, d in enumerate(checks.GX_DATASETS)}


# ---------------------------------------------------------------------------
# SQL checks: pass on clean data, fail on planted bad data


def test_flow_checks_pass_on_clean_data(db):
    with open_db(db) as con:
        clean_flow(con)
    for check in (
        checks.check_validity_flow_value,
        checks.check_uniqueness_flow_key,
        checks.check_freshness_flow_gaps,
        checks.check_referential_flow_user,
        checks.check_expectations_flow_sample,
    ):
        result = run_check(check, db)
        assert result.passed, (check.check_key.name, result.metadata)
    gaps = run_check(checks.check_freshness_flow_gaps, db)
    assert md(gaps, "series_checked") == 3 and md(gaps, "largest_gap") == "15 min"


def test_flow_sample_is_stretches_spread_over_the_table(db, monkeypatch):
    """GX's sample of flow: FLOW_SAMPLE_STRETCHES stretches of consecutive stored rows at evenly
    spaced places (read by rowid, not by ordering every reading); the whole table when it is small,
    rows deleted from it included."""
    with open_db(db) as con:
        clean_flow(con)  # 384 readings: IU-1 flow (192), IU-2 flow (96), IU-1 pH (96), as stored
        every = checks.flow_sample(con)
        assert len(every) == 384
        monkeypatch.setattr(checks, "FLOW_SAMPLE_ROWS", 40)
        monkeypatch.setattr(checks, "FLOW_SAMPLE_STRETCHES", 4)
        sample = checks.flow_sample(con)
        stored = con.execute("SELECT user_id, constituent, ts, value, unit FROM flow ORDER BY rowid").df()
        want = pd.concat([stored.iloc[start : start + 10] for start in (0, 96, 192, 288)], ignore_index=True)
        pd.testing.assert_frame_equal(sample, want)
        assert list(sample.columns) == ["user_id", "constituent", "ts", "value", "unit"]
        assert sample.equals(checks.flow_sample(con))  # the same rows on every run
        monkeypatch.setattr(checks, "FLOW_SAMPLE_ROWS", 50_000)
        con.execute("DELETE FROM flow WHERE user_id = 'IU-1' AND constituent = 'flow'").fetchall()
        assert len(checks.flow_sample(con)) == 192


def test_validity_flow_value_counts_negative_flow_and_bad_ph(db):
    with open_db(db) as con:
        clean_flow(con)
        insert(
            con,
            "flow",
            flow_rows("IU-2", T0 - dt.timedelta(hours=1), 2, value=-4.0)
            + flow_rows("IU-1", T0 - dt.timedelta(hours=1), 1, constituent="pH", unit="s.u.", value=14.5),
        )
    result = run_check(checks.check_validity_flow_value, db)
    assert not result.passed and result.severity == AssetCheckSeverity.ERROR
    assert md(result, "bad_readings") == 3 and md(result, "rows_checked") == 387
    assert "| negative flow | 2 | 1 |" in md(result, "by_problem")
    assert "| pH out of range | 1 | 1 |" in md(result, "by_problem")


def test_uniqueness_flow_key_counts_repeated_readings(db):
    with open_db(db) as con:
        clean_flow(con)
        insert(con, "flow", flow_rows("IU-1", T0, 2) + flow_rows("IU-1", T0, 1))  # key T0 three times
    result = run_check(checks.check_uniqueness_flow_key, db)
    assert not result.passed and result.severity == AssetCheckSeverity.ERROR
    assert md(result, "duplicate_keys") == 2 and md(result, "extra_rows") == 3
    assert "| IU-1 | flow | 2026-05-01 00:00 EDT | 3 |" in md(result, "examples")


def test_freshness_flow_gaps_warns_on_a_gap_over_one_day(db):
    with open_db(db) as con:
        clean_flow(con)
        # IU-2 stops at the end of 1 May and starts again 25 hours later
        insert(con, "flow", flow_rows("IU-2", T0 + dt.timedelta(hours=48, minutes=45), 4, value=3.5))
    result = run_check(checks.check_freshness_flow_gaps, db)
    assert not result.passed and result.severity == AssetCheckSeverity.WARN
    assert md(result, "series_with_long_gaps") == 1 and md(result, "gaps_over_threshold") == 1
    assert md(result, "largest_gap") == "25.0 h"
    assert (
        "| IU-2 | flow | 100 | 15 min | 25.0 h | 100x | 2026-05-01 23:45 EDT | 2026-05-03 00:45 EDT | 1 | "
        "yes |" in (md(result, "series"))
    )


def test_freshness_flow_gaps_runs_within_the_memory_limit_on_many_readings(db, monkeypatch):
    """Regression: the gap check sorted every reading with its series' names and held every step
    for the median; on a year of 1-minute readings (100M) it ran out of DuckDB's 1 GB and the check
    reported an error instead of the gaps. The same shape in small: 6M readings under 40 MB, which
    the old query could not do (it reads the hourly summaries now, made a chunk at a time)."""
    with open_db(db) as con:
        insert(con, "industrial_users", USERS)
        con.execute(
            "INSERT INTO flow (user_id, constituent, ts, value, unit, source_file, source_row) "
            "SELECT 'IU-' || lpad(CAST(s AS VARCHAR), 3, '0'), 'flow', "
            "TIMESTAMPTZ '2026-05-01 00:00:00-04' + to_minutes(m), 1.0, 'gpm', 'f.csv', m "
            "FROM range(100) AS r(s), range(60000) AS q(m) "
            "WHERE NOT (s = 7 AND m BETWEEN 1000 AND 2500)"
        ).fetchall()  # IU-007 silent for 25 h 1 min
    monkeypatch.setenv("OUTFALL_MEMORY_LIMIT", "40MB")
    # the hourly summaries are made a chunk of hours at a time (a month; here a week): memory
    # follows the chunk, not the table
    monkeypatch.setattr(flow_hours, "CHUNK_HOURS", 7 * 24)
    result = run_check(checks.check_freshness_flow_gaps, db)
    assert "error" not in result.metadata
    assert md(result, "series_checked") == 100 and md(result, "series_with_long_gaps") == 1
    assert md(result, "largest_gap") == "25.0 h"
    assert (
        "| IU-007 | flow | 58499 | 1 min | 25.0 h | 1502x | 2026-05-01 16:39 EDT | 2026-05-02 17:41 EDT | 1 "
        "| yes |" in (md(result, "series"))
    )
    # a series of equal steps names its first one, the same on every run
    assert (
        "| IU-000 | flow | 60000 | 1 min | 1 min | 1x | 2026-05-01 00:00 EDT | 2026-05-01 00:01 EDT | 0 |  |"
        in (md(result, "series"))
    )


def test_freshness_flow_gaps_exactly_one_day_is_not_a_gap(db):
    with open_db(db) as con:
        clean_flow(con)
        insert(con, "flow", flow_rows("IU-2", T0 + dt.timedelta(hours=47, minutes=45), 1, value=3.5))
    assert run_check(checks.check_freshness_flow_gaps, db).passed


def test_referential_checks_warn_on_unknown_users(db):
    with open_db(db) as con:
        clean_flow(con)
        insert_frame(con, "lab_results", lab_frame(10))
    assert run_check(checks.check_referential_flow_user, db).passed
    assert run_check(checks.check_referential_lab_results_user, db).passed
    with open_db(db) as con:
        insert(con, "flow", flow_rows("IU-99", T0, 5))
        insert_frame(con, "lab_results", lab_frame(5).assign(user_id="IU-77", sample_id="X-1"))
    flow = run_check(checks.check_referential_flow_user, db)
    assert not flow.passed and flow.severity == AssetCheckSeverity.WARN
    assert md(flow, "unknown_users") == 1 and md(flow, "readings_of_unknown_users") == 5
    lab = run_check(checks.check_referential_lab_results_user, db)
    assert not lab.passed and lab.severity == AssetCheckSeverity.WARN
    assert md(lab, "results_of_unknown_users") == 5 and "| IU-77 | 5 | 1 |" in md(lab, "unknown")


def test_balance_quarantine_rows(db):
    ledger = {"source_file": "f.csv", "sha256": "x", "rows_new": 0, "rows_superseded": 0}
    with open_db(db) as con:
        insert(
            con,
            "ingested_files",
            [
                {"dataset": "parcels", "rows_read": 10, "rows_kept": 8, "rows_quarantined": 2, **ledger},
                {"dataset": "flow", "rows_read": 96, "rows_kept": 96, "rows_quarantined": 0, **ledger},
            ],
        )
        insert(
            con,
            "quarantine",
            [
                {"dataset": "parcels", "source_file": "f.csv", "row_number": i, "reason": "bad"}
                for i in (3, 7)
            ],
        )
    ok = run_check(checks.check_balance_quarantine_rows, db)
    assert ok.passed and md(ok, "datasets_checked") == 2 and md(ok, "rows_read") == 106
    with open_db(db) as con:
        insert(
            con,
            "ingested_files",
            [
                {
                    "dataset": "parcels",
                    "rows_read": 5,
                    "rows_kept": 5,
                    "rows_quarantined": 1,
                    **ledger,
                    "source_file": "g.csv",
                }
            ],
        )
    bad = run_check(checks.check_balance_quarantine_rows, db)
    assert not bad.passed and bad.severity == AssetCheckSeverity.ERROR
    assert md(bad, "datasets_unbalanced") == 1
    assert "| parcels | 2 | 15 | 13 | 3 | 2 | 1 | NO | NO |" in md(bad, "balance")


def test_a_check_that_cannot_run_reports_instead_of_failing(tmp_path):
    broken = tmp_path / "w.duckdb"
    # `flow` as a view someone made by hand: no table of that name can be made or upgraded (a table
    # lacking columns no longer breaks a check: the warehouse gains them, warehouse.upgrade_tables)
    with duckdb.connect(str(broken)) as con:
        con.execute("CREATE VIEW flow AS SELECT 'x' AS reading").fetchall()
    result = run_check(checks.check_uniqueness_flow_key, broken)
    assert not result.passed and result.severity == AssetCheckSeverity.ERROR
    assert "user_id" in md(result, "error") or "flow" in md(result, "error")


# ---------------------------------------------------------------------------
# wiring


def test_check_names_assets_and_non_blocking():
    found, new_files = {}, set()
    for spec in input_folders.check_specs:
        assert not spec.blocking and spec.description
        if spec.name == NEW_FILES:  # each input folder's: its new files' rows refused, files unreadable
            new_files.add(spec.asset_key.to_user_string())
            continue
        found[spec.name] = spec.asset_key.to_user_string()
    assert new_files == set(all_datasets())
    expected = {f"check_expectations_{d}": d for d in checks.GX_DATASETS}
    expected.update(
        {
            "check_validity_flow_value": "flow",
            "check_uniqueness_flow_key": "flow",
            "check_freshness_flow_gaps": "flow",
            "check_referential_flow_user": "flow",
            "check_expectations_flow_sample": "flow",
            "check_referential_lab_results_user": "lab_results",
            "check_balance_quarantine_rows": "quarantine",
        }
    )
    assert found == expected


def test_checks_report_bad_data_without_failing_the_run(town, tmp_path):
    resources = {
        "duckdb": DuckDBResource(database=str(tmp_path / "w.duckdb")),
        "settings": OutfallSettings(data_dir=str(town), as_of="2026-06-30"),
    }
    everything = [*ingest_assets]  # the ingestion step runs the checks

    first = materialize(everything, resources=resources)
    # the checks of the tables (the check of each folder's new files is test_bad_input_is_a_warn_check's)
    evaluations = {e.check_name: e for e in first.get_asset_check_evaluations() if e.check_name != NEW_FILES}
    assert len(evaluations) == 16
    assert [n for n, e in evaluations.items() if not e.passed] == []

    with open_db(tmp_path / "w.duckdb") as con:  # planted straight into the kept rows
        con.execute("UPDATE lab_results SET result = 15 WHERE parameter = 'pH'").fetchall()
        con.execute("UPDATE flow SET value = -1 WHERE ts = (SELECT min(ts) FROM flow)").fetchall()
    second = materialize(everything, resources=resources)
    assert second.success
    failed = {e.check_name: e.severity for e in second.get_asset_check_evaluations() if not e.passed}
    assert failed == {
        "check_expectations_lab_results": AssetCheckSeverity.ERROR,
        "check_validity_flow_value": AssetCheckSeverity.ERROR,
        "check_expectations_flow_sample": AssetCheckSeverity.ERROR,
    }


def test_an_empty_table_passes_its_suite_without_starting_gx(db, monkeypatch):
    def no_gx(*args, **kwargs):
        raise AssertionError("GX must not run on an empty table")

    monkeypatch.setattr(checks, "validate_frame", no_gx)
    for check_def in [*checks.expectation_checks, checks.check_expectations_flow_sample]:
        result = run_check(check_def, db)
        assert result.passed and md(result, "rows") == 0 and "GX was not started" in md(result, "skipped")


def test_bad_input_is_a_warn_check_of_its_folder_with_the_reasons_and_counts(town, tmp_path):
    """A row refused, a file of random bytes, a Parquet file cut short: each folder that loaded them has
    its check of the new files in WARN, with the reason and the count; a folder whose files were all
    kept passes; a run that loads nothing new leaves the verdicts as they were."""
    import os

    resources = {
        "duckdb": DuckDBResource(database=str(tmp_path / "w.duckdb")),
        "settings": OutfallSettings(data_dir=str(town), as_of="2026-06-30"),
    }
    (town / "rainfall" / "noise.csv").write_bytes(os.urandom(4096))
    sites = {
        "site_id": [f"W-{i}" for i in range(50)],
        "jurisdiction": ["woodbury"] * 50,
        "disturbed_acres": [1.5] * 50,
    }
    pd.DataFrame(sites).to_parquet(town / "sites" / "cut.parquet")
    whole = (town / "sites" / "cut.parquet").read_bytes()
    (town / "sites" / "cut.parquet").write_bytes(whole[: len(whole) // 2])
    first = materialize(list(ingest_assets), resources=resources)
    verdicts = {
        e.asset_key.to_user_string(): e
        for e in first.get_asset_check_evaluations()
        if e.check_name == NEW_FILES
    }
    lab = verdicts["lab_results"]
    assert not lab.passed and lab.severity == AssetCheckSeverity.WARN
    assert lab.metadata["rows_quarantined"].value == 1 and lab.metadata["files_not_read"].value == 0
    assert "furlongs" in lab.metadata["reasons"].value and "1 row quarantined" in lab.description
    for folder in ("rainfall", "sites"):
        bad = verdicts[folder]
        assert not bad.passed and bad.severity == AssetCheckSeverity.WARN, folder
        assert bad.metadata["files_not_read"].value == 1 and "could not be read" in bad.description, folder
    assert verdicts["infiltration_tests"].passed
    again = materialize(list(ingest_assets), resources=resources)
    assert not [e for e in again.get_asset_check_evaluations() if e.check_name == NEW_FILES]
