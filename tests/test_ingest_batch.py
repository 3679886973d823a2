"""New Parquet files of one layout are judged and merged together (outfall.ingest.batch,
BATCH_MAX_ROWS): what lands in every table (the dataset, its history, quarantine, the ledger) and
each file's counts are exactly those of loading the files one at a time, whatever the files hold:
bad rows, repeats and conflicts within a file, two files sharing a key, a key already stored, a
file of another layout, a CSV between them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

import outfall.ingest.batch as batch
from assets.common import schema_ddl
from outfall.rules import local_timezone
from tests.ingesting import con, load  # noqa: F401 - a fixture


def _readings(user: str, start: str, n: int, value: float = 100.0, **extra) -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "user_id": [user] * n,
            "timestamp": pd.date_range(start, periods=n, freq="15min", tz="UTC"),
            "value": [value + i for i in range(n)],
            "unit": ["gpm"] * n,
            "constituent": ["flow"] * n,
        }
    )
    for column, values in extra.items():
        frame[column] = values
    return frame


def _write(folder: Path, name: str, frame: pd.DataFrame) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    frame.to_parquet(folder / name, index=False)


def _tables(con) -> dict[str, list[tuple]]:
    return {
        "flow": con.execute(
            "SELECT * EXCLUDE (loaded_at) FROM flow ORDER BY user_id, ts, source_file"
        ).fetchall(),
        "history": con.execute(
            "SELECT * EXCLUDE (loaded_at, superseded_at) FROM flow_history ORDER BY user_id, ts, source_file"
        ).fetchall(),
        "quarantine": con.execute(
            "SELECT dataset, source_file, row_number, reason, raw FROM quarantine "
            "ORDER BY source_file, row_number"
        ).fetchall(),
        "ledger": con.execute(
            "SELECT dataset, source_file, sha256, size_bytes, rows_read, rows_kept, "
            "rows_quarantined, rows_new, rows_superseded FROM ingested_files "
            "ORDER BY source_file"
        ).fetchall(),
    }


def _counts(report) -> list[tuple]:
    return [
        (
            f.source_file,
            f.rows_read,
            f.rows_kept,
            f.rows_quarantined,
            f.rows_new,
            f.rows_superseded,
            f.skipped,
        )
        for f in report.files
    ]


def two_loads(folder: Path, data: Path) -> tuple[list, list, dict]:
    """A copy of ``data`` loaded into a new warehouse in ``folder``, then again after the second
    scenario's files are added: each load's counts, and every table after both."""
    import duckdb

    from outfall.warehouse import configure, ensure_schema

    copy = folder / "data"
    folder.mkdir()
    shutil.copytree(data, copy)
    con = configure(duckdb.connect(str(folder / "w.duckdb")), timezone=local_timezone())
    try:
        ensure_schema(con, schema_ddl())
        first = _counts(load(con, copy, "flow"))
        _scenario_second(copy)
        second = _counts(load(con, copy, "flow"))
        return first, second, _tables(con)
    finally:
        con.close()


def _scenario_first(data: Path) -> None:
    flow = data / "flow"
    _write(flow, "a_iu1.parquet", _readings("IU-1", "2026-03-01", 40))
    bad = _readings("IU-2", "2026-03-01", 30)
    bad.loc[3, "value"] = float("nan")
    bad.loc[4, "value"] = -5.0
    bad.loc[5, "user_id"] = None
    bad = pd.concat(
        [bad, bad.iloc[[7]], bad.iloc[[8]].assign(value=1.0)], ignore_index=True
    )  # repeat, conflict
    _write(flow, "b_iu2.parquet", bad)
    _write(flow, "c_iu3.parquet", _readings("IU-3", "2026-03-01", 25))
    (flow / "d_iu4.csv").write_text(
        "user_id,timestamp,value,unit,constituent\n"
        "IU-4,2026-03-01T00:00:00Z,5,gpm,flow\nIU-4,not a time,5,gpm,flow\n"
    )
    _write(flow, "e_iu5.parquet", _readings("IU-5", "2026-03-01", 10))
    _write(flow, "f_iu6.parquet", _readings("IU-6", "2026-03-01", 10).rename(columns={"value": "Value"}))
    _write(flow, "g_iu7.parquet", _readings("IU-7", "2026-03-01", 10))


def _scenario_second(data: Path) -> None:
    flow = data / "flow"
    _write(flow, "h_iu1_april.parquet", _readings("IU-1", "2026-04-01", 20))  # new keys
    _write(
        flow, "i_iu3_again.parquet", _readings("IU-3", "2026-03-01", 5, value=7.0)
    )  # stored keys, new values
    _write(flow, "j_iu8.parquet", _readings("IU-8", "2026-03-01", 12))
    _write(flow, "k_iu8_too.parquet", _readings("IU-8", "2026-03-01", 6, value=50.0))  # shares keys with j


@pytest.mark.parametrize("batch_rows", [2_000_000, 75])
def test_files_judged_together_land_exactly_as_one_at_a_time(tmp_path: Path, monkeypatch, batch_rows):
    """Two loads (the second adds files, some sharing keys with the table or with each other), in a
    warehouse loaded file by file and in one loaded in batches: every table and count is the same.
    With a small batch size the files are judged in several groups."""
    data = tmp_path / "data"
    _scenario_first(data)
    results = {}
    batched = []
    real = batch._load_parquet_group

    def spy(*args, **kwargs):
        done = real(*args, **kwargs)
        batched.append((len(args[2]), done))
        return done

    monkeypatch.setattr(batch, "_load_parquet_group", spy)
    for mode, rows in (("one at a time", 0), ("together", batch_rows)):
        monkeypatch.setattr(batch, "BATCH_MAX_ROWS", rows)
        results[mode] = two_loads(tmp_path / mode, data)
    assert results["together"] == results["one at a time"]
    first, second, tables = results["together"]
    # the files were judged together where they could be, and file by file where they could not
    assert batched and all(n >= 2 for n, _ in batched)
    assert any(done for _, done in batched), batched
    assert any(not done for _, done in batched), batched  # the second load: keys shared or stored
    # what each load did, file by file (the same either way, above): spot checks of meaning
    assert {f[0] for f in first} == {
        "a_iu1.parquet",
        "b_iu2.parquet",
        "c_iu3.parquet",
        "d_iu4.csv",
        "e_iu5.parquet",
        "f_iu6.parquet",
        "g_iu7.parquet",
    }
    b = next(f for f in first if f[0] == "b_iu2.parquet")
    assert b[1:4] == (
        32,
        28,
        4,
    )  # 32 rows read: NaN, negative, no user, a conflict quarantined; a repeat kept once
    reasons = [r for r in tables["quarantine"] if r[1] == "b_iu2.parquet"]
    assert [r[2] for r in reasons] == [4, 5, 6, 32]
    assert "conflicts with row 9 of this file" in reasons[-1][3]
    k = next(f for f in second if f[0] == "k_iu8_too.parquet")
    assert k[5] == 6  # the later file supersedes the earlier one's six readings
    i = next(f for f in second if f[0] == "i_iu3_again.parquet")
    assert i[5] == 5
    assert len(tables["history"]) == 11


def test_a_batch_of_files_without_shared_keys_is_one_pass(tmp_path: Path, monkeypatch, con):  # noqa: F811
    """Files of one meter each are merged in one insert (the spy sees one group, merged)."""
    data = tmp_path / "data"
    for n in range(5):
        _write(data / "flow", f"iu{n}.parquet", _readings(f"IU-{n}", "2026-03-01", 20))
    seen = []
    real = batch._load_parquet_group
    monkeypatch.setattr(batch, "_load_parquet_group", lambda *a, **k: seen.append(len(a[2])) or real(*a, **k))
    report = load(con, data, "flow")
    assert seen == [5]
    assert report.rows_read == 100 and report.rows_kept == 100
    assert con.execute("SELECT count(*), count(DISTINCT source_file) FROM flow").fetchall() == [(100, 5)]
    rows = con.execute(
        "SELECT source_file, min(source_row), max(source_row) FROM flow GROUP BY 1 ORDER BY 1"
    ).fetchall()
    assert rows == [(f"iu{n}.parquet", 1, 20) for n in range(5)]
