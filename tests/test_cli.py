"""`outfall run` end to end on a data folder, checked against the contract."""

from __future__ import annotations

import fcntl
import shutil
import time
from pathlib import Path

import duckdb
import pytest

from tests.conftest import REPO, run_cli, small_town

# Contract section 3: table -> {column: DuckDB type family}
CONTRACT = {
    "quarantine": {
        "dataset": "VARCHAR",
        "source_file": "VARCHAR",
        "row_number": "INTEGER",
        "reason": "VARCHAR",
    },
    "discharge_violations": {
        "user_id": "VARCHAR",
        "sample_id": "VARCHAR",
        "parameter": "VARCHAR",
        "collected_at": "TIMESTAMP WITH TIME ZONE",
        "value": "DOUBLE",
        "unit": "VARCHAR",
        "limit_value": "DOUBLE",
        "limit_type": "VARCHAR",
        "rule": "VARCHAR",
    },
    "slug_events": {
        "user_id": "VARCHAR",
        "constituent": "VARCHAR",
        "start_at": "TIMESTAMP WITH TIME ZONE",
        "end_at": "TIMESTAMP WITH TIME ZONE",
        "duration_min": "INTEGER",
        "baseline": "DOUBLE",
        "peak_value": "DOUBLE",
        "peak_ratio": "DOUBLE",
    },
    "infiltration_results": {
        "section_id": "VARCHAR",
        "test_date": "DATE",
        "allowable_gpd": "DOUBLE",
        "measured_gpd": "DOUBLE",
        "gpimd": "DOUBLE",
        "passes": "BOOLEAN",
    },
    "sewer_bills": {
        "year": "INTEGER",
        "parcel_id": "VARCHAR",
        "district": "VARCHAR",
        "property_class": "VARCHAR",
        "units_bond": "INTEGER",
        "units_om": "INTEGER",
        "units_street_lateral": "INTEGER",
        "units_house_lateral": "INTEGER",
        "amount_bond": "DECIMAL(12,2)",
        "amount_om": "DECIMAL(12,2)",
        "amount_street_lateral": "DECIMAL(12,2)",
        "amount_house_lateral": "DECIMAL(12,2)",
        "total_usd": "DECIMAL(12,2)",
    },
    "swppp_inspection_findings": {
        "site_id": "VARCHAR",
        "requirement": "VARCHAR",
        "trigger_date": "DATE",
        "due_by": "DATE",
        "satisfied_on": "DATE",
        "status": "VARCHAR",
    },
    "snc_determinations": {
        "user_id": "VARCHAR",
        "period_start": "DATE",
        "period_end": "DATE",
        "parameter": "VARCHAR",
        "criterion": "VARCHAR",
        "measurements": "INTEGER",
        "count": "INTEGER",
        "pct": "DOUBLE",
    },
}


def columns(db: Path) -> dict[str, dict[str, str]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        out: dict[str, dict[str, str]] = {}
        for table, column, dtype in con.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns"
        ).fetchall():
            out.setdefault(table, {})[column] = dtype
        return out
    finally:
        con.close()


def snapshot(db: Path, tables) -> dict[str, list]:
    """Table contents, without the load timestamps that differ between runs, and the file stamp, which a
    file gets only when it is read at least 2 s after it last changed (outfall.ingest.files.STAMP_SETTLE_S:
    the first run may read the files the test has just written sooner than that, a rerun later)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        out = {}
        for table in tables:
            cols = [
                c
                for (c,) in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY "
                    "ordinal_position",
                    [table],
                ).fetchall()
                if c not in ("loaded_at", "quarantined_at", "superseded_at", "run_at", "file_stamp")
            ]
            select = ", ".join(f'"{c}"' for c in cols)
            out[table] = sorted(map(repr, con.execute(f'SELECT {select} FROM "{table}"').fetchall()))
        return out
    finally:
        con.close()


@pytest.mark.slow  # `outfall run` end to end
def test_empty_folder_creates_every_contract_table(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    result = run_cli(
        "run", "--data", str(data), "--warehouse", str(tmp_path / "w.duckdb"), "--as-of", "2026-06-30"
    )
    assert result.returncode == 0, result.stderr
    schema = columns(tmp_path / "w.duckdb")
    for table, cols in CONTRACT.items():
        assert table in schema, table
        for column, dtype in cols.items():
            assert schema[table].get(column) == dtype, (table, column, schema[table].get(column))


@pytest.mark.slow  # `outfall run` end to end
def test_run_loads_summarises_and_rerun_changes_nothing(tmp_path):
    data = small_town(tmp_path / "data")
    db = tmp_path / "w.duckdb"
    first = run_cli("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-06-30")
    assert first.returncode == 0, first.stderr
    assert "assets materialized" in first.stdout
    assert "lab_results" in first.stdout and "quarantined" in first.stdout
    tables = sorted(columns(db))
    before = snapshot(db, tables)
    con = duckdb.connect(str(db), read_only=True)
    balance = con.execute(
        "SELECT dataset, sum(rows_read), sum(rows_kept) + sum(rows_quarantined) "
        "FROM ingested_files GROUP BY dataset"
    ).fetchall()
    quarantined = con.execute("SELECT dataset, reason FROM quarantine ORDER BY dataset").fetchall()
    con.close()
    assert all(read == kept_plus_q for _, read, kept_plus_q in balance)
    assert ("lab_results", "unit 'furlongs' is not a concentration unit (mg/L, ug/L) for BOD") in quarantined
    assert any(d == "parcels" and "restaurant parcel has no seats" in r for d, r in quarantined)
    second = run_cli("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-06-30")
    assert second.returncode == 0, second.stderr
    assert snapshot(db, tables) == before


@pytest.mark.parametrize(
    "args,message",
    [
        (["--data", "/no/such/dir", "--warehouse", "{tmp}/w.duckdb"], "no such data folder: /no/such/dir"),
        (["--data", "{tmp}", "--warehouse", "/proc/outfall/w.duckdb"], "the warehouse"),
        (["--data", "{tmp}", "--warehouse", "{tmp}"], "the warehouse is a folder"),
        (
            ["--data", "{tmp}", "--warehouse", "{tmp}/w.duckdb", "--as-of", "2026-02-30"],
            "--as-of '2026-02-30' is not a date",
        ),
        (
            ["--data", "{tmp}", "--warehouse", "{tmp}/w.duckdb", "--year", "20x6"],
            "--year '20x6' is not a year",
        ),
        (["--data", "{tmp}"], "the following arguments are required: --warehouse"),
    ],
)
def test_unusable_arguments_exit_2_with_one_line(tmp_path, args, message):
    result = run_cli("run", *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_not_a_duckdb_file_exits_2(tmp_path):
    bad = tmp_path / "w.duckdb"
    bad.write_text("this is not a database")
    result = run_cli("run", "--data", str(tmp_path), "--warehouse", str(bad))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1


def test_second_run_on_a_warehouse_in_use_fails_at_once(tmp_path):
    db = tmp_path / "w.duckdb"
    with open(tmp_path / "w.duckdb.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        started = time.perf_counter()
        result = run_cli("run", "--data", str(tmp_path), "--warehouse", str(db))
        elapsed = time.perf_counter() - started
    assert result.returncode == 2
    assert "in use by another outfall run" in result.stderr
    assert elapsed < 15


@pytest.mark.slow  # `outfall run` end to end
def test_a_failing_asset_exits_1_and_names_it(tmp_path):
    # Inputs the rules accept but billing cannot: a district's rate missing for the year (contract
    # section 4: the billing asset fails, naming year, district and component).
    data = small_town(tmp_path / "data")
    rates = data / "sewer_rates" / "rates.csv"
    rates.write_text(rates.read_text().replace("2026,district_1,om,60\n", ""))
    result = run_cli("run", "--data", str(data), "--warehouse", str(tmp_path / "w.duckdb"))
    assert result.returncode == 1
    assert "asset sewer_billing failed: no sewer rate for 2026, district_1, om" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_reading_no_asset_implements_is_refused_by_check_and_run_alike(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules", rules)
    text = (rules / "woodbury.yaml").read_text()
    assert "value: composite_else_mean_of_grabs" in text
    (rules / "woodbury.yaml").write_text(
        text.replace("value: composite_else_mean_of_grabs", "value: median_of_grabs")
    )
    env = {"OUTFALL_RULES_DIR": str(rules)}
    checked = run_cli("check", env=env, module="outfall.rules")
    ran = run_cli("run", "--data", str(tmp_path), "--warehouse", str(tmp_path / "w.db"), env=env)
    assert checked.returncode == 2 and ran.returncode == 2
    for out in (checked.stderr, ran.stderr):
        assert "readings_sewer_compliance.daily_value[0].value: 'median_of_grabs'" in out
        assert "implements only 'composite_else_mean_of_grabs'" in out
    assert not (tmp_path / "w.db").exists()
