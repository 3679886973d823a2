"""The layouts benchmark counts the readings its files hold, not ``meters`` x 525,600 minutes: the
generator leaves one reading out of about one meter-hour in 5,000 (30 of 10M readings), which were
once taken for readings that ingestion lost."""

from __future__ import annotations

import duckdb

from benchmarks.ingest import generate_layouts


def test_the_readings_counted_are_those_the_files_hold(tmp_path):
    generated = generate_layouts(tmp_path, 2, ["monthly"], ["parquet", "csv"])
    con = duckdb.connect()
    held = {
        folder: con.execute(
            f"SELECT count(*) FROM {reader}('{tmp_path / folder}/flow/**/*.{ext}')"
        ).fetchone()[0]
        for folder, reader, ext in (
            ("monthly_parquet", "read_parquet", "parquet"),
            ("monthly_csv", "read_csv", "csv"),
        )
    }
    assert set(held.values()) == {generated["readings"]}
    assert generated["readings"] == 2 * 525_600 - 3  # three meter-hours of the two meters lack a reading
