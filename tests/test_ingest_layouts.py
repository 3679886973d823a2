"""A file that cannot be read, whatever its format and wherever it breaks, is one quarantine row (row 0)
naming it and what is wrong with it; the other files of its folder load, a re-run neither reads it
again nor duplicates anything (outfall.ingest.engine.load_dataset).

Regression (issue 30): a truncated Parquet file beside a good flow.csv failed the whole flow asset
with "Current transaction is aborted (please ROLLBACK)", and the good file was not loaded either:
DuckDB aborts the dataset's transaction on the first failed statement, and the engine went on
writing in it."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import duckdb
import pytest

import outfall.ingest.batch as batch
import outfall.ingest.single as single
import outfall.ingest.straight as straight
from tests.ingesting import con, load  # noqa: F401 - con is a fixture

GOOD_CSV = "user_id,timestamp,value,unit\nIU-9,2026-03-01 00:00,10.5,gpm\nIU-9,2026-03-01 00:15,11.5,gpm\n"


def _parquet(path: Path, rows: int, user: str = "IU-1", row_group: int = 50_000) -> Path:
    """``rows`` one-minute readings of one meter, in row groups of ``row_group`` rows."""
    path.parent.mkdir(parents=True, exist_ok=True)
    duckdb.execute(
        f"COPY (SELECT '{user}' AS user_id, "
        f"TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_minutes(i) AS timestamp, "
        f"(i % 1000) / 10.0 AS value, 'gpm' AS unit FROM range({int(rows)}) t(i)) "
        f"TO '{path}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE {int(row_group)})"
    )
    return path


def _damage_row_group(path: Path, group: int) -> None:
    """Scramble the compressed pages of one row group (the footer still reads)."""
    pages = duckdb.execute(
        "SELECT coalesce(dictionary_page_offset, data_page_offset), total_compressed_size "
        "FROM parquet_metadata(?) WHERE row_group_id = ?",
        [str(path), group],
    ).fetchall()
    data = bytearray(path.read_bytes())
    for offset, size in pages:
        for k in range(offset + 40, offset + size):
            data[k] ^= 0x5A
    path.write_bytes(bytes(data))


def _quarantine(con) -> list[tuple]:  # noqa: F811
    return con.execute(
        "SELECT source_file, row_number, reason FROM quarantine ORDER BY source_file, row_number"
    ).fetchall()


def _by_file(con) -> dict[str, int]:  # noqa: F811
    return dict(con.execute("SELECT source_file, count(*) FROM flow GROUP BY 1").fetchall())


def _balanced(con) -> bool:  # noqa: F811
    return con.execute(
        "SELECT bool_and(rows_read = rows_kept + rows_quarantined) FROM ingested_files"
    ).fetchall()[0][0]


def _again_reads_nothing(con, data: Path, dataset: str = "flow") -> None:  # noqa: F811
    """A second run: every file unchanged, nothing read or written again."""
    before = (_quarantine(con), con.execute(f"SELECT count(*) FROM {dataset}").fetchall())
    report = load(con, data, dataset)
    assert report.files_loaded == 0, [(f.source_file, f.skipped) for f in report.files]
    assert (_quarantine(con), con.execute(f"SELECT count(*) FROM {dataset}").fetchall()) == before


def test_a_truncated_parquet_file_beside_a_good_csv(con, tmp_path):  # noqa: F811
    data = tmp_path / "data"
    (data / "flow").mkdir(parents=True)
    (data / "flow" / "flow.csv").write_text(GOOD_CSV)
    whole = _parquet(tmp_path / "whole.parquet", 1000).read_bytes()
    (data / "flow" / "meter.parquet").write_bytes(whole[: len(whole) // 2])
    report = load(con, data, "flow")
    assert _quarantine(con) == [("meter.parquet", 0, single.PARQUET_CUT)]
    assert "cut short" in single.PARQUET_CUT and "Parquet" in single.PARQUET_CUT
    assert _by_file(con) == {"flow.csv": 2}
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (3, 2, 1)
    assert _balanced(con)
    _again_reads_nothing(con, data)


@pytest.mark.parametrize("batched", [False, True], ids=["alone", "among_others"])
def test_a_parquet_file_whose_later_row_group_is_damaged(con, tmp_path, batched):  # noqa: F811
    """300,000 readings in six row groups, the fifth damaged: the first four read, then the reader
    fails, inside the transaction. Alone, and judged together with other new Parquet files."""
    data = tmp_path / "data"
    (data / "flow").mkdir(parents=True)
    (data / "flow" / "flow.csv").write_text(GOOD_CSV)
    bad = _parquet(data / "flow" / "b_meter.parquet", 300_000)
    _damage_row_group(bad, 4)
    with pytest.raises(duckdb.Error):
        duckdb.execute(
            "SELECT sum(value), count(DISTINCT timestamp) FROM read_parquet(?)", [str(bad)]
        ).fetchall()
    if batched:
        _parquet(data / "flow" / "a_meter.parquet", 2000, user="IU-2")
        _parquet(data / "flow" / "c_meter.parquet", 2000, user="IU-3")
    report = load(con, data, "flow")
    assert _quarantine(con) == [("b_meter.parquet", 0, single.PARQUET_DAMAGED)]
    want = {"flow.csv": 2, **({"a_meter.parquet": 2000, "c_meter.parquet": 2000} if batched else {})}
    assert _by_file(con) == want
    assert report.rows_quarantined == 1 and report.rows_kept == sum(want.values())
    assert _balanced(con)
    # the ledger has the file's own fingerprint: unchanged, it is not read again
    assert con.execute(
        "SELECT sha256 NOT LIKE 'not-read:%' FROM ingested_files WHERE source_file = 'b_meter.parquet'"
    ).fetchall() == [(True,)]
    _again_reads_nothing(con, data)
    # sent again whole, it replaces its quarantine row and loads
    _parquet(data / "flow" / "b_meter.parquet", 300_000)
    report = load(con, data, "flow")
    assert _quarantine(con) == []
    assert _by_file(con)["b_meter.parquet"] == 300_000
    assert _balanced(con)


def test_a_csv_file_that_breaks_the_reader_partway(con, tmp_path):  # noqa: F811
    """Row 200,000 of 300,000 holds a stray carriage return: DuckDB's CSV reader stops there (no
    rejected line to quarantine), after the rows before it were read."""
    data = tmp_path / "data"
    (data / "flow").mkdir(parents=True)
    (data / "flow" / "flow.csv").write_text(GOOD_CSV)
    lines = [f"IU-1,2026-01-01 00:00,{i},gpm\n" for i in range(300_000)]
    duckdb.execute(
        f"COPY (SELECT 'IU-1' AS user_id, strftime(TIMESTAMP '2026-01-01' + to_minutes(i), '%Y-%m-%d %H:%M') "
        f"AS timestamp, i AS value, 'gpm' AS unit FROM range(300000) t(i)) TO '{tmp_path / 'big.csv'}' "
        f"(FORMAT csv, HEADER)"
    )
    lines = (tmp_path / "big.csv").read_text().splitlines(keepends=True)
    lines.insert(200_001, "IU-1,2026\r05,1,gpm\r\n")
    (data / "flow" / "meter.csv").write_text("".join(lines), newline="")
    report = load(con, data, "flow")
    assert _quarantine(con) == [("meter.csv", 0, single.CSV_BROKEN)]
    assert _by_file(con) == {"flow.csv": 2}
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (3, 2, 1)
    assert _balanced(con)
    _again_reads_nothing(con, data)


def _workbook(path: Path, rows: int) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["user_id", "name", "district"])
    for i in range(rows):
        sheet.append([f"IU-{i:05d}", f"Plant {i}", "consolidated"])
    book.save(path)
    return path


@pytest.mark.parametrize("damage", ["truncated", "sheet_damaged_partway"])
def test_a_damaged_workbook_beside_a_good_csv(con, tmp_path, damage):  # noqa: F811
    data = tmp_path / "data"
    folder = data / "industrial_users"
    folder.mkdir(parents=True)
    (folder / "a_users.csv").write_text("user_id,name,district\nIU-1,Acme,consolidated\n")
    book = _workbook(tmp_path / "book.xlsx", 5000)
    raw = bytearray(book.read_bytes())
    if damage == "truncated":
        raw = raw[: len(raw) // 2]
    else:  # the sheet's compressed rows scrambled past their start: the zip's check of them fails
        with zipfile.ZipFile(book) as z:
            info = z.getinfo("xl/worksheets/sheet1.xml")
        start = info.header_offset + 30 + len(info.filename) + len(info.extra)
        for k in range(start + info.compress_size // 2, start + info.compress_size - 10):
            raw[k] ^= 0x5A
    (folder / "b_users.xlsx").write_bytes(bytes(raw))
    report = load(con, data, "industrial_users")
    rows = _quarantine(con)
    assert [(f, n) for f, n, _ in rows] == [("b_users.xlsx", 0)], rows
    assert "xlsx" in rows[0][2] or "workbook" in rows[0][2], rows
    assert con.execute("SELECT user_id FROM industrial_users").fetchall() == [("IU-1",)]
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (2, 1, 1)
    _again_reads_nothing(con, data, "industrial_users")


def test_a_failure_not_the_files_own_still_fails_the_dataset(con, tmp_path, monkeypatch):  # noqa: F811
    """Memory or an interruption is not the file's fault: nothing is quarantined, the load fails
    and leaves nothing written."""
    data = tmp_path / "data"
    (data / "flow").mkdir(parents=True)
    (data / "flow" / "flow.csv").write_text(GOOD_CSV)
    _parquet(data / "flow" / "meter.parquet", 1000)

    def out_of_memory(*args, **kwargs):
        raise duckdb.OutOfMemoryException("Out of Memory Error: could not allocate")

    monkeypatch.setattr(straight, "load_straight", out_of_memory)
    with pytest.raises(duckdb.OutOfMemoryException):
        load(con, data, "flow")
    assert _quarantine(con) == [] and _by_file(con) == {}
    assert con.execute("SELECT count(*) FROM ingested_files").fetchall() == [(0,)]


@pytest.mark.slow  # `outfall run` end to end
def test_outfall_run_with_a_truncated_parquet_file_loads_the_good_csv(tmp_path, capsys):
    """The issue's reproduction: `outfall run` on a flow folder of a good CSV and a truncated Parquet
    file exits 0, with the CSV loaded and the Parquet file one quarantine row."""
    from pipelines import cli

    data = tmp_path / "data"
    (data / "flow").mkdir(parents=True)
    (data / "flow" / "flow.csv").write_text(GOOD_CSV)
    whole = _parquet(tmp_path / "whole.parquet", 1000).read_bytes()
    (data / "flow" / "meter.parquet").write_bytes(whole[: len(whole) - 100])
    code = cli.main(
        [
            "run",
            "--data",
            str(data),
            "--warehouse",
            str(tmp_path / "w.duckdb"),
            "--as-of",
            "2026-03-31",
            "--quiet",
        ]
    )
    assert code == 0, capsys.readouterr().err
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as warehouse:
        assert _quarantine(warehouse) == [("meter.parquet", 0, single.PARQUET_CUT)]
        assert _by_file(warehouse) == {"flow.csv": 2}


# ---------------------------------------------------------------------------
# small CSV files read together (batch._load_csv_group), exactly as one at a time

_HEAD = "user_id,timestamp,value,unit\n"


def _csv_day(user: str, day: int, n: int = 24, value: float = 10.0) -> str:
    return _HEAD + "".join(f"{user},2026-03-{day:02d} {h:02d}:00,{value + h},gpm\n" for h in range(n))


def _csv_first(flow: Path) -> None:
    flow.mkdir(parents=True, exist_ok=True)
    for day in (1, 2, 3):
        (flow / f"a_iu1_{day:02d}.csv").write_text(_csv_day("IU-1", day))
    (flow / "b_iu2_01.csv").write_text(
        _csv_day("IU-2", 1) + "IU-2,not a time,5,gpm\n"
        "IU-2,2026-03-01 03:00,3,gpm\nIU-2,2026-03-01 04:00,14.0,gpm\n"
        ",2026-03-01 05:00,1,gpm\n\n"
    )
    (flow / "b_iu2_02.csv").write_text(_csv_day("IU-2", 2) + "IU-2,2026-03-02 05:00,1,gpm,x\n")  # bad line
    (flow / "b_iu2_03.csv").write_text(_HEAD)  # header only
    (flow / "c_iu3_01.csv").write_text("Meter export\n" + _csv_day("IU-3", 1))  # a title line
    (flow / "c_iu3_02.csv").write_text(_csv_day("IU-3", 2).replace(",", ";"))  # another delimiter
    (flow / "c_iu3_03.csv").write_bytes(_csv_day("IU-3", 3).replace("gpm", "gpm é").encode("cp1252"))
    (flow / "d_iu4_01.csv").write_text(
        _csv_day("IU-4", 1).replace("IU-4,2026-03-01 05:00,15.0", '"IU-4","2026-03-01 05:00","15.0"')
    )
    (flow / "d_iu4_02.csv").write_text(_csv_day("IU-4", 2))
    (flow / "d_iu4_03.csv").write_text("")  # empty
    (flow / "e_iu5_01.csv").write_text(_csv_day("IU-5", 1))
    _parquet(flow / "e_iu5_02.parquet", 30, user="IU-5")
    (flow / "e_iu5_03.csv").write_text(_csv_day("IU-5", 3))
    (flow / "e_iu5_04.csv").write_text(_csv_day("IU-5", 4))
    # the night the clocks go back: 01:00 twice (daylight, then standard time), in a file judged with
    # others whose rows have the same numbers
    (flow / "e_iu5_05.csv").write_text(
        _HEAD
        + "".join(
            f"IU-5,2026-11-01 {h},{v},gpm\n"
            for h, v in (
                ("00:00", 1),
                ("00:30", 2),
                ("01:00", 3),
                ("01:30", 4),
                ("01:00", 5),
                ("01:30", 6),
                ("02:00", 7),
            )
        )
    )


def _csv_second(flow: Path) -> None:
    (flow / "f_iu1_04.csv").write_text(_csv_day("IU-1", 4))  # new keys
    (flow / "g_iu1_02_again.csv").write_text(_csv_day("IU-1", 2, value=70.0))  # stored keys, new values
    (flow / "h_iu6_01.csv").write_text(_csv_day("IU-6", 1))
    (flow / "h_iu6_01_too.csv").write_text(_csv_day("IU-6", 1, n=6, value=50))  # keys of the one before


def _two_csv_loads(folder: Path, data: Path):
    import shutil

    from assets.common import schema_ddl
    from outfall.warehouse import configure, ensure_schema
    from tests.ingesting import TOWN

    copy = folder / "data"
    folder.mkdir()
    shutil.copytree(data, copy)
    warehouse = configure(duckdb.connect(str(folder / "w.duckdb")), timezone=TOWN.timezone)
    try:
        ensure_schema(warehouse, schema_ddl())

        def counts(report):
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

        first = counts(load(warehouse, copy, "flow"))
        _csv_second(copy / "flow")
        second = counts(load(warehouse, copy, "flow"))
        tables = {
            "flow": warehouse.execute(
                "SELECT * EXCLUDE (loaded_at) FROM flow ORDER BY user_id, ts, source_file"
            ).fetchall(),
            "history": warehouse.execute(
                "SELECT * EXCLUDE (loaded_at, superseded_at) FROM flow_history "
                "ORDER BY user_id, ts, source_file"
            ).fetchall(),
            "quarantine": warehouse.execute(
                "SELECT source_file, row_number, reason, raw FROM quarantine ORDER BY source_file, row_number"
            ).fetchall(),
            "ledger": warehouse.execute(
                "SELECT source_file, sha256, size_bytes, rows_read, rows_kept, "
                "rows_quarantined, rows_new, rows_superseded FROM ingested_files "
                "ORDER BY source_file"
            ).fetchall(),
        }
        return first, second, tables
    finally:
        warehouse.close()


def test_csv_files_read_together_land_exactly_as_one_at_a_time(tmp_path, monkeypatch):
    """Small CSV files of one header are read in one read_csv call; every table and count is that of
    reading them one at a time: bad rows, repeats and conflicts, a line DuckDB cannot read as a row, a
    header-only and an empty file, a title line, another delimiter, Windows-1252 text, a Parquet file
    between them, and a second load with files sharing keys with the table or each other."""
    data = tmp_path / "data"
    _csv_first(data / "flow")
    groups = []
    real = batch._load_csv_group

    def spy(*args, **kwargs):
        done = real(*args, **kwargs)
        groups.append(([e.rel for e, _ in args[2]], done))
        return done

    monkeypatch.setattr(batch, "_load_csv_group", spy)
    results = {}
    for mode, rows in (("one at a time", 0), ("together", 2_000_000)):
        monkeypatch.setattr(batch, "BATCH_MAX_ROWS", rows)
        results[mode] = _two_csv_loads(tmp_path / mode.replace(" ", "_"), data)
    assert results["together"] == results["one at a time"]
    first, second, tables = results["together"]
    merged = [files for files, done in groups if done]
    assert [
        "a_iu1_01.csv",
        "a_iu1_02.csv",
        "a_iu1_03.csv",
        "b_iu2_01.csv",
        "b_iu2_02.csv",
        "b_iu2_03.csv",
    ] in [files for files, _ in groups]
    assert ["e_iu5_03.csv", "e_iu5_04.csv", "e_iu5_05.csv"] in merged
    assert ["f_iu1_04.csv", "g_iu1_02_again.csv"] not in merged
    assert any(not done for _, done in groups)  # the group with the bad line, the keys shared
    by_file = {f[0]: f for f in first}
    assert by_file["b_iu2_02.csv"][1:4] == (25, 24, 1)
    assert [r[1] for r in tables["quarantine"] if r[0] == "b_iu2_02.csv"] == [25]
    assert by_file["b_iu2_01.csv"][1:4] == (28, 25, 3)
    assert by_file["d_iu4_03.csv"][1:4] == (1, 0, 1)
    assert {f[0]: f[5] for f in second}["g_iu1_02_again.csv"] == 24
    night = sorted(
        (r[-2], r[2].astimezone(dt.UTC).hour, r[3]) for r in tables["flow"] if r[-3] == "e_iu5_05.csv"
    )  # (row, UTC hour, value)
    assert night == [
        (1, 4, 1.0),
        (2, 4, 2.0),
        (3, 5, 3.0),
        (4, 5, 4.0),
        (5, 6, 5.0),
        (6, 6, 6.0),
        (7, 7, 7.0),
    ]


def test_a_thousand_small_csv_files_are_read_in_a_few_statements(tmp_path, monkeypatch, con):  # noqa: F811
    """A file per meter per day: the files are read together (a few read_csv calls, not one per file),
    and each file keeps its own ledger entry and row numbers."""
    flow = tmp_path / "data" / "flow"
    for meter in range(15):
        (flow / f"IU-{meter}").mkdir(parents=True)
        for day in range(9, 29):  # after the night the clocks go forward (8 March 2026: no 02:00)
            (flow / f"IU-{meter}" / f"2026-03-{day:02d}.csv").write_text(_csv_day(f"IU-{meter}", day, n=24))
    reads = []
    real = single.read_csv_sql
    monkeypatch.setattr(single, "read_csv_sql", lambda *a: reads.append(a) or real(*a))
    report = load(con, tmp_path / "data", "flow")
    assert len(reads) <= 2, len(reads)
    assert (report.files_loaded, report.rows_read, report.rows_kept) == (300, 7200, 7200)
    assert con.execute(
        "SELECT count(*), count(DISTINCT source_file), min(source_row), max(source_row) FROM flow"
    ).fetchall() == [(7200, 300, 1, 24)]
    assert con.execute(
        "SELECT count(*), sum(rows_read), bool_and(rows_kept = 24) FROM ingested_files WHERE dataset = 'flow'"
    ).fetchall() == [(300, 7200, True)]


def test_files_key_ranges_meet_only_when_they_overlap_on_every_column():
    day = 86_400
    per_meter_day = [
        (f"IU-{m}", f"IU-{m}", "flow", "flow", d * day, d * day + day - 60)
        for m in range(30)
        for d in range(40)
    ]
    assert not batch._boxes_meet(per_meter_day, 3)
    again = per_meter_day + [("IU-7", "IU-7", "flow", "flow", 12 * day + 600, 12 * day + 700)]
    assert batch._boxes_meet(again, 3)
    assert batch._boxes_meet([("A", "C", "f", "f", 0, 10), ("B", "B", "f", "f", 10, 20)], 3)
    assert not batch._boxes_meet([("A", "A", "f", "f", 0, 10), ("B", "B", "f", "f", 0, 10)], 3)


def test_a_group_whose_ranges_take_in_stored_rows_is_merged_at_once(tmp_path, monkeypatch, con):  # noqa: F811
    """Regression: a meter's days split between two groups (or two loads) put stored rows within the
    second group's key ranges; the group was then loaded file by file (at 6,935 files, for more than
    ten minutes), though no key was shared."""
    flow = tmp_path / "data" / "flow"
    for meter in (1, 2):
        for day in range(10, 20):
            (flow / f"IU-{meter}").mkdir(parents=True, exist_ok=True)
            (flow / f"IU-{meter}" / f"2026-03-{day:02d}.csv").write_text(_csv_day(f"IU-{meter}", day))
    # groups of six files: the second holds days of both meters, its ranges take in the first group's
    monkeypatch.setattr(batch, "BATCH_MAX_ROWS", 6 * (len(_csv_day("IU-1", 10)) // batch.CSV_BYTES_PER_ROW))
    groups = []
    real = batch._load_csv_group
    monkeypatch.setattr(batch, "_load_csv_group", lambda *a, **k: groups.append(real(*a, **k)) or groups[-1])
    report = load(con, tmp_path / "data", "flow")
    assert len(groups) == 4 and all(groups), groups
    assert (report.rows_read, report.rows_kept) == (480, 480)


def test_a_large_csv_file_is_loaded_on_its_own_straight(tmp_path, monkeypatch, con):  # noqa: F811
    """Small CSV files are read together; one larger than CSV_GROUP_MAX_BYTES goes straight into the
    table on its own (no scratch copy), as before."""
    flow = tmp_path / "data" / "flow"
    flow.mkdir(parents=True)
    for day in (10, 11, 12):
        (flow / f"a_{day}.csv").write_text(_csv_day("IU-1", day, n=12))
    (flow / "b_big.csv").write_text(_csv_day("IU-2", 10))
    monkeypatch.setattr(batch, "CSV_GROUP_MAX_BYTES", len(_csv_day("IU-2", 10)) - 1)
    groups = []
    real = batch._load_csv_group
    monkeypatch.setattr(
        batch, "_load_csv_group", lambda *a, **k: groups.append([e.rel for e, _ in a[2]]) or real(*a, **k)
    )
    report = load(con, tmp_path / "data", "flow")
    assert groups == [["a_10.csv", "a_11.csv", "a_12.csv"]]
    assert [f.straight for f in report.files] == [False, False, False, True]
