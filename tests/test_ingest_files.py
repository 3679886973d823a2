"""What offices send and files that must not be read: each a regression test."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from outfall.ingest.engine import SchemaMismatch
from tests.ingesting import con, load  # noqa: F401 - con is a fixture

LAB_HEADER = "sample_id,user_id,collected_at,sample_type,parameter,result,unit,mdl,lab,method\n"
USERS_HEADER = "user_id,name,district,address\n"


def put(data: Path, relative: str, content: bytes) -> Path:
    path = data / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


def quarantine(con, dataset: str) -> list[tuple]:
    return con.execute(
        "SELECT source_file, row_number, reason FROM quarantine WHERE dataset = ? "
        "ORDER BY source_file, row_number",
        [dataset],
    ).fetchall()


def balanced(report) -> bool:
    return all(f.rows_read == f.rows_kept + f.rows_quarantined for f in report.files)


# ---------------------------------------------------------------------------
# encodings


def test_utf8_with_bom_and_windows_1252_keep_every_character(con, tmp_path):
    data = tmp_path / "d"
    names = ["Café “Le Bon” – €5", "Müller Straße", "naïve"]
    put(
        data,
        "industrial_users/bom.csv",
        ("\ufeff" + USERS_HEADER + f"IU-1,{names[0]},consolidated,x\n").encode("utf-8"),
    )
    put(
        data,
        "industrial_users/excel.csv",
        (USERS_HEADER + f"IU-2,{names[1]},consolidated,x\nIU-3,{names[2]},district_1,x\n").encode("cp1252"),
    )
    report = load(con, data, "industrial_users")
    assert report.rows_kept == 3 and report.rows_quarantined == 0
    got = dict(con.execute("SELECT user_id, name FROM industrial_users").fetchall())
    assert got == {"IU-1": names[0], "IU-2": names[1], "IU-3": names[2]}


def test_utf16_unicode_text_from_excel_is_read(con, tmp_path):
    data = tmp_path / "d"
    text = "user_id\tname\tdistrict\r\nIU-1\tAcme “Plating”\tconsolidated\r\nIU-2\tBrewery\tdistrict 1\r\n"
    put(data, "industrial_users/unicode.csv", "\ufeff".encode("utf-16-le") + text.encode("utf-16-le"))
    report = load(con, data, "industrial_users")
    assert (report.rows_read, report.rows_kept) == (2, 2), quarantine(con, "industrial_users")
    assert con.execute("SELECT name, district FROM industrial_users ORDER BY user_id").fetchall() == [
        ("Acme “Plating”", "consolidated"),
        ("Brewery", "district_1"),
    ]


def test_a_file_in_another_encoding_says_which_to_save_it_in(con, tmp_path):
    data = tmp_path / "d"
    put(
        data,
        "industrial_users/sjis.csv",
        (
            USERS_HEADER + "IU-1,日本語の会社名です,consolidated,東京\n"
            "IU-2,テスト株式会社,consolidated,大阪\n"
        ).encode("shift_jis"),
    )
    report = load(con, data, "industrial_users")
    assert (report.rows_read, report.rows_quarantined) == (1, 1)
    [(_, row, reason)] = quarantine(con, "industrial_users")
    assert row == 0 and "is not in UTF-8, UTF-16 or Windows-1252" in reason and "CSV UTF-8" in reason


def test_a_binary_file_named_csv_is_not_a_text_table(con, tmp_path):
    data = tmp_path / "d"
    put(data, "lab_results/workbook.csv", b"PK\x03\x04" + os.urandom(3000))
    put(data, "lab_results/noise.csv", bytes((i * 37 + 11) % 256 for i in range(5000)))
    load(con, data, "lab_results")
    reasons = [r for _, _, r in quarantine(con, "lab_results")]
    assert len(reasons) == 2 and all("is not a text table" in r for r in reasons)
    assert "Excel .xlsx workbook" in reasons[1] or "Excel .xlsx workbook" in reasons[0]


# ---------------------------------------------------------------------------
# numbers


def test_decimal_commas_are_ambiguous_not_25_and_2455(con, tmp_path):
    data = tmp_path / "d"
    put(
        data,
        "lab_results/eu.csv",
        (
            LAB_HEADER
            + 'S1,IU-1,2026-03-01,grab,BOD,"2,5",mg/L,,L,\n'
            + 'S2,IU-1,2026-03-01,grab,COD,"245,5",mg/L,,L,\n'
            + 'S3,IU-1,2026-03-01,grab,TSS,"1,234",mg/L,,L,\n'
            + 'S4,IU-1,2026-03-01,grab,FOG,"12,345.6",mg/L,"0,5",L,\n'
        ).encode(),
    )
    report = load(con, data, "lab_results")
    why = {r: reason for _, r, reason in quarantine(con, "lab_results")}
    assert report.rows_kept == 1 and set(why) == {1, 2, 4}
    assert why[1].startswith("result '2,5' is ambiguous") and why[2].startswith("result '245,5' is ambiguous")
    assert "'0,5' in column 'mdl' is ambiguous" in why[4]
    assert con.execute("SELECT parameter, result FROM lab_results").fetchall() == [("TSS", 1234.0)]


def test_nan_and_infinity_are_quarantined_in_text_and_parquet(con, tmp_path):
    data = tmp_path / "d"
    put(
        data,
        "lab_results/a.csv",
        (
            LAB_HEADER + "S1,IU-1,2026-03-01,grab,BOD,NaN,mg/L,,L,\n"
            "S2,IU-1,2026-03-01,grab,COD,inf,mg/L,,L,\n"
            "S3,IU-1,2026-03-01,grab,TSS,-inf,mg/L,,L,\n"
            "S4,IU-1,2026-03-01,grab,TSS,10,mg/L,nan,L,\n"
        ).encode(),
    )
    report = load(con, data, "lab_results")
    assert report.rows_quarantined == 4 and report.rows_kept == 0
    assert all("not a finite number" in r for _, _, r in quarantine(con, "lab_results"))
    (data / "flow").mkdir(parents=True)
    pd.DataFrame(
        {
            "user_id": ["IU-1"] * 4,
            "timestamp": pd.date_range("2026-05-01", periods=4, freq="15min", tz="America/New_York"),
            "value": [1.0, float("nan"), float("inf"), float("-inf")],
            "unit": "gpm",
        }
    ).to_parquet(data / "flow" / "m.parquet")
    put(
        data,
        "flow/m.csv",
        b"user_id,timestamp,value,unit\nIU-2,2026-05-01T00:00,NaN,gpm\n"
        b"IU-2,2026-05-01T00:15,Infinity,gpm\nIU-2,2026-05-01T00:30,3,gpm\n",
    )
    flow = load(con, data, "flow")
    assert (flow.rows_read, flow.rows_kept, flow.rows_quarantined) == (7, 2, 5)
    assert con.execute("SELECT count(*) FROM flow WHERE NOT isfinite(value)").fetchall()[0][0] == 0


# ---------------------------------------------------------------------------
# long fields, quotes and row numbers


def test_long_fields_are_read_and_an_overlong_row_is_quarantined(con, tmp_path):
    data = tmp_path / "d"
    long_note, cell_1mb = "x" * 200_000, "y" * 1_000_000
    put(
        data,
        "industrial_users/u.csv",
        (
            USERS_HEADER
            + f'IU-1,"{long_note}",consolidated,a\n'
            + f"IU-2,Brewery,district_1,{cell_1mb}\n"
            + f"IU-3,{'z' * 2_100_000},consolidated,b\n"
            + "IU-4,Last,consolidated,c\n"
        ).encode(),
    )
    report = load(con, data, "industrial_users")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (4, 3, 1)
    assert con.execute("SELECT length(name) FROM industrial_users WHERE user_id = 'IU-1'").fetchall() == [
        (200_000,)
    ]
    assert con.execute("SELECT length(address) FROM industrial_users WHERE user_id = 'IU-2'").fetchall() == [
        (1_000_000,)
    ]
    [(_, row, reason)] = quarantine(con, "industrial_users")
    assert row == 3 and "longer than 2,000,000 bytes" in reason
    assert con.execute("SELECT source_row FROM industrial_users WHERE user_id = 'IU-4'").fetchall() == [(4,)]


def test_an_unclosed_quote_does_not_swallow_lines_silently(con, tmp_path):
    data = tmp_path / "d"
    put(
        data,
        "industrial_users/q.csv",
        (
            USERS_HEADER
            + "IU-1,Acme,consolidated,a\n"
            + 'IU-2,"Blue Brewery,district_1,b\n'
            + "IU-3,Corner Cafe,consolidated,c\n"
            + 'IU-4,"Dry" Cleaners,consolidated,d\n'
        ).encode(),
    )
    report = load(con, data, "industrial_users")
    assert balanced(report)
    assert con.execute("SELECT user_id FROM industrial_users").fetchall() == [("IU-1",)]
    reasons = quarantine(con, "industrial_users")
    assert reasons and reasons[0][1] == 2 and "quote" in reasons[0][2]
    assert all("IU-3" not in r for _, _, r in reasons)  # a reason, not the swallowed text


def test_a_quote_closed_lines_later_is_named(con, tmp_path):
    data = tmp_path / "d"
    put(
        data,
        "industrial_users/q.csv",
        (
            USERS_HEADER
            + 'IU-1,"Acme,consolidated,a\n'
            + 'IU-2,Brewery",district_1,b\n'
            + "IU-3,Cafe,consolidated,c\n"
        ).encode(),
    )
    report = load(con, data, "industrial_users")
    assert balanced(report)
    reasons = quarantine(con, "industrial_users")
    assert reasons[0][1] == 1 and "swallowed the next line" in reasons[0][2]
    assert con.execute("SELECT user_id, source_row FROM industrial_users").fetchall() == [("IU-3", 2)]


def test_row_numbers_count_data_rows_across_quoted_breaks_blank_and_rejected_lines(con, tmp_path):
    data = tmp_path / "d"
    put(
        data,
        "industrial_users/n.csv",
        (
            USERS_HEADER
            + 'IU-1,"Acme\nPlating",consolidated,a\n'  # row 1 (two lines)
            + "\n"  # blank: not a row
            + "IU-2,Brewery,district_1\n"  # row 2 (3 fields)
            + "   \n"  # blank: not a row
            + "IU-3,Cafe,nowhere,c\n"  # row 3 (bad district)
            + "IU-4,Deli,consolidated,d,extra\n"  # row 4 (5 fields)
            + "IU-5,Eatery,consolidated,e\n"
        ).encode(),
    )  # row 5
    report = load(con, data, "industrial_users")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (5, 2, 3)
    assert [(r, why.split(";")[0][:24]) for _, r, why in quarantine(con, "industrial_users")] == [
        (2, "row has 3 fields but the"),
        (3, "district 'nowhere' is no"),
        (4, "row has 5 fields but the"),
    ]
    assert con.execute("SELECT user_id, source_row FROM industrial_users ORDER BY 1").fetchall() == [
        ("IU-1", 1),
        ("IU-5", 5),
    ]


def test_a_title_line_above_the_header_is_skipped(con, tmp_path):
    data = tmp_path / "d"
    put(
        data,
        "industrial_users/t.csv",
        ("Permitted users as of March\n" + USERS_HEADER + "IU-1,Acme,consolidated,a\n").encode(),
    )
    report = load(con, data, "industrial_users")
    assert report.rows_kept == 1
    assert con.execute("SELECT source_row FROM industrial_users").fetchall() == [(1,)]


def test_formula_text_in_a_csv_cell_is_kept_as_text(con, tmp_path):
    data = tmp_path / "d"
    put(
        data,
        "industrial_users/f.csv",
        (USERS_HEADER + 'IU-1,"=HYPERLINK(""http://x.test"",""Acme"")",consolidated,a\n').encode(),
    )
    load(con, data, "industrial_users")
    assert con.execute("SELECT name FROM industrial_users").fetchall() == [
        ('=HYPERLINK("http://x.test","Acme")',)
    ]


def test_repeated_local_time_of_the_fall_back_night_is_ordered_per_meter(con, tmp_path):
    data = tmp_path / "d"
    put(
        data,
        "flow/f.csv",
        b"user_id,timestamp,value,unit\nA,2026-11-01T01:30,1,gpm\nB,2026-11-01T01:30,2,gpm\n"
        b"A,2026-11-01T01:30,3,gpm\nA,2026-03-08T02:30,4,gpm\n",
    )
    report = load(con, data, "flow")
    assert (report.rows_kept, report.rows_quarantined) == (3, 1)
    rows = con.execute(
        "SELECT user_id, value, epoch(ts)::BIGINT FROM flow ORDER BY user_id, value"
    ).fetchall()
    assert rows[1][2] - rows[0][2] == 3600 and rows[2][2] == rows[0][2]
    assert "does not exist" in quarantine(con, "flow")[0][2]


# ---------------------------------------------------------------------------
# workbooks


def _workbook(path: Path, sheets: dict[str, list[list]]) -> Path:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path


LAB_COLS = ["sample_id", "user_id", "collected_at", "sample_type", "parameter", "result", "unit"]


def test_every_sheet_with_the_header_is_read_others_named(con, tmp_path):
    data = tmp_path / "d"
    _workbook(
        data / "lab_results" / "lab.xlsx",
        {
            "March": [LAB_COLS, ["S1", "IU-1", dt.datetime(2026, 3, 1, 8), "grab", "BOD", 250, "mg/L"]],
            "April": [
                ["Lab report, April"],
                LAB_COLS,
                ["S2", "IU-1", "2026-04-01", "grab", "BOD", "ND", "mg/L"],
                ["S3", "IU-1", "2026-04-01", "grab", "pH", 15, "s.u."],
            ],
            "Notes": [["Signed by the lab director"]],
            "Empty": [],
        },
    )
    report = load(con, data, "lab_results")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (4, 2, 2)
    assert con.execute(
        "SELECT sample_id, source_file, source_row FROM lab_results ORDER BY 1"
    ).fetchall() == [("S1", "lab.xlsx [March]", 1), ("S2", "lab.xlsx [April]", 1)]
    got = quarantine(con, "lab_results")
    assert got[0][:2] == ("lab.xlsx [April]", 2) and "pH 15.0 is outside 0-14" in got[0][2]
    assert got[1][:2] == ("lab.xlsx [Notes]", 0) and "sheet 'Notes' was not read" in got[1][2]
    assert con.execute("SELECT count(*) FROM ingested_files").fetchall()[0][0] == 1
    again = load(con, data, "lab_results")
    assert again.files_skipped == 1


def test_a_formula_saved_without_its_value_says_so(con, tmp_path):
    data = tmp_path / "d"
    _workbook(
        data / "lab_results" / "calc.xlsx",
        {
            "Sheet1": [
                LAB_COLS,
                ["S1", "IU-1", "2026-03-01", "grab", "BOD", "=B9*2", "mg/L"],
                ["S2", "IU-1", "2026-03-01", "grab", "BOD", 12, "mg/L"],
            ]
        },
    )
    report = load(con, data, "lab_results")
    assert (report.rows_kept, report.rows_quarantined) == (1, 1)
    [(_, row, reason)] = quarantine(con, "lab_results")
    assert (
        row == 1
        and "saved without calculated values" in reason
        and "open it in Excel and save it again" in reason
    )


def test_merged_title_and_header_cells(con, tmp_path):
    data = tmp_path / "d"
    path = data / "lab_results" / "merged.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Quarterly results"])
    ws.merge_cells("A1:G1")
    ws.append([*LAB_COLS, None, "lab"])
    ws.merge_cells("G2:H2")  # "unit" spans two columns
    ws.append(["S1", "IU-1", "2026-03-01", "grab", "BOD", 12, "mg/L", None, "LabA"])
    path.parent.mkdir(parents=True)
    wb.save(path)
    report = load(con, data, "lab_results")
    assert report.rows_kept == 1, quarantine(con, "lab_results")
    assert con.execute("SELECT unit, lab FROM lab_results").fetchall() == [("mg/L", "LabA")]


def test_a_password_protected_workbook_says_so(con, tmp_path):
    data = tmp_path / "d"
    # An encrypted Office file is an OLE compound file holding an "EncryptedPackage" stream.
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504
    put(
        data,
        "lab_results/locked.xlsx",
        header + b"\x00" * 512 + "EncryptedPackage".encode("utf-16-le") + b"\x00" * 2000,
    )
    put(data, "lab_results/old.xlsx", header + b"\x00" * 3000)
    load(con, data, "lab_results")
    got = quarantine(con, "lab_results")
    assert "password-protected" in got[0][2] and "save it again" in got[0][2]
    assert "Excel 97-2003" in got[1][2]


# ---------------------------------------------------------------------------
# only the data folder, only regular files


def test_a_link_outside_the_data_folder_is_not_followed(con, tmp_path):
    secret = tmp_path / "outside" / "passwd.csv"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n")
    data = tmp_path / "d"
    (data / "lab_results").mkdir(parents=True)
    os.symlink(secret, data / "lab_results" / "passwd.csv")
    os.symlink("/etc/passwd", data / "lab_results" / "etc.csv")
    inside = put(data, "shared/users.csv", (USERS_HEADER + "IU-1,Acme,consolidated,a\n").encode())
    (data / "industrial_users").mkdir()
    os.symlink(inside, data / "industrial_users" / "linked.csv")
    report = load(con, data, "lab_results")
    assert (report.rows_read, report.rows_quarantined) == (2, 2)
    text = repr(con.execute("SELECT * FROM quarantine").fetchall())
    assert "root" not in text and "outside the data folder" in text
    assert load(con, data, "industrial_users").rows_kept == 1  # a link inside the folder is fine
    assert load(con, data, "lab_results").files_skipped == 2  # rerun: nothing new


def test_only_regular_files_are_read(con, tmp_path):
    data = tmp_path / "d"
    (data / "industrial_users" / "foo.csv").mkdir(parents=True)
    put(data, "industrial_users/foo.csv/inner.csv", (USERS_HEADER + "IU-1,Acme,consolidated,a\n").encode())
    os.mkfifo(data / "industrial_users" / "pipe.csv")
    report = load(con, data, "industrial_users")
    assert [f.source_file for f in report.files] == ["foo.csv/inner.csv", "pipe.csv"]
    assert report.rows_kept == 1
    assert "not a regular file" in quarantine(con, "industrial_users")[0][2]


def test_a_table_that_does_not_match_its_spec_stops_the_load(con, tmp_path):
    data = tmp_path / "d"
    put(data, "industrial_users/u.csv", (USERS_HEADER + "IU-1,Acme,consolidated,a\n").encode())
    con.execute("ALTER TABLE industrial_users DROP COLUMN permit_no").fetchall()
    with pytest.raises(SchemaMismatch, match="missing permit_no"):
        load(con, data, "industrial_users")


# ---------------------------------------------------------------------------
# a file loaded before is not read again while its stamp is unchanged


USERS_CSV = USERS_HEADER + "IU-1,Acme Plating,consolidated,1 Main St\n"


def test_an_unchanged_file_is_not_read_again(con, tmp_path, monkeypatch):
    """A re-run finds each loaded file by its stamp (size, times, inode) and reads none of it;
    a file changed in any way, even to the same size and modification time, is read again."""
    from outfall.ingest import files as fs

    monkeypatch.setattr(fs, "STAMP_SETTLE_S", 0.0)
    path = put(tmp_path, "industrial_users/users.csv", USERS_CSV.encode())
    assert load(con, tmp_path, "industrial_users").files_loaded == 1
    stamp = con.execute("SELECT file_stamp FROM ingested_files").fetchall()[0][0]
    assert stamp == fs.current_stamp(path) and stamp.startswith(f"{len(USERS_CSV)}:")

    def no_reading(*args, **kwargs):
        raise AssertionError("an unchanged file was read again")

    from outfall.ingest import compile as cq

    monkeypatch.setattr(fs, "inspect_file", no_reading)
    # nor are the vocabularies the judging reads made for it (they were, on every run)
    monkeypatch.setattr(cq, "create_lookups", no_reading)
    again = load(con, tmp_path, "industrial_users")
    assert (again.files_loaded, again.files_skipped) == (0, 1)
    monkeypatch.undo()
    monkeypatch.setattr(fs, "STAMP_SETTLE_S", 0.0)
    for name in cq.LOOKUP_DDL:  # as on a new connection: the changed file's load makes them
        con.execute(f"DROP TABLE IF EXISTS {name}").fetchall()

    # the same size and the same modification time, another name: only the change time tells
    before = os.stat(path)
    import time

    time.sleep(0.02)  # past a tick of the clock that sets the change time
    path.write_bytes(USERS_CSV.replace("Acme Plating", "Acme Platers").encode())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == before.st_mtime_ns and os.stat(path).st_size == before.st_size
    changed = load(con, tmp_path, "industrial_users")
    assert changed.files_loaded == 1
    assert con.execute("SELECT name FROM industrial_users").fetchall() == [("Acme Platers",)]


def test_a_file_just_written_is_hashed_on_the_next_run(con, tmp_path, monkeypatch):
    """A file changed within STAMP_SETTLE_S of being read gets no stamp (a coarse clock could give a
    second write in the same tick the same times): the next run hashes it, and skips it when its
    bytes are the same."""
    from outfall.ingest import files as fs

    monkeypatch.setattr(fs, "STAMP_SETTLE_S", 3600.0)
    put(tmp_path, "industrial_users/users.csv", USERS_CSV.encode())
    load(con, tmp_path, "industrial_users")
    assert con.execute("SELECT file_stamp FROM ingested_files").fetchall() == [(None,)]
    hashed = []
    inspect = fs.inspect_file
    monkeypatch.setattr(fs, "inspect_file", lambda *a, **k: hashed.append(a[0]) or inspect(*a, **k))
    again = load(con, tmp_path, "industrial_users")
    assert (again.files_loaded, again.files_skipped, len(hashed)) == (0, 1, 1)
    # once it has settled, the run that finds it unchanged by its hash stamps it: the next reads nothing
    monkeypatch.setattr(fs, "STAMP_SETTLE_S", 0.0)
    load(con, tmp_path, "industrial_users")
    assert len(hashed) == 2 and con.execute("SELECT file_stamp FROM ingested_files").fetchall()[0][0]
    load(con, tmp_path, "industrial_users")
    assert len(hashed) == 2
