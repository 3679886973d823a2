"""Ingestion: every quarantine reason, both file formats, re-runs and re-sends."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from tests.conftest import write
from tests.ingesting import con, load  # noqa: F401 - con is a fixture


def reasons(con, dataset: str) -> dict[int, str]:
    return dict(
        con.execute(
            "SELECT row_number, reason FROM quarantine WHERE dataset = ? ORDER BY row_number", [dataset]
        ).fetchall()
    )


LAB_HEADER = "sample_id,user_id,collected_at,sample_type,parameter,result,unit,mdl,lab,method\n"


def test_lab_results_every_reason_and_balance(con, tmp_path):
    data = tmp_path / "d"
    write(
        data,
        "lab_results/a.csv",
        LAB_HEADER
        + "\n".join(
            [
                "S1,IU-1,2026-03-01T08:00,composite,BOD5,250,mg/l,,L,",  # 1 kept, BOD5 -> BOD
                "S2,IU-1,2026-03-01,composite,COD,<5,ppm,,L,",  # 2 kept, non-detect
                "S3,IU-1,2026-03-02,grab,pH,15,SU,,L,",  # 3 pH outside 0-14
                "S4,IU-1,2026-03-02,grab,BOD,abc,mg/L,,L,",  # 4 not a number
                "S5,,2026-03-02,grab,BOD,1,mg/L,,L,",  # 5 missing user_id
                "S6,IU-1,2026-03-02,grab,BOD,1,furlongs,,L,",  # 6 unknown unit
                "S7,IU-1,yesterday,grab,BOD,1,mg/L,,L,",  # 7 bad time
                "S8,IU-1,2026-03-02,grab,BOD,-3,mg/L,,L,",  # 8 negative concentration
                "S9,IU-1,2026-03-02,scoop,BOD,3,mg/L,,L,",  # 9 unknown sample type
                "S10,IU-1,2026-03-02,grab,FOG,ND,mg/L,2,L,",  # 10 kept, ND with mdl
                "S11,IU-1,2026-03-02,grab,zinc,120,ug/L,,L,",  # 11 kept, no limit defined
                "S12,IU-1,2026-03-02,grab,temperature,66,degC,,L,",  # 12 kept, converted
                "S13,IU-1,2026-03-02,grab,BOD,5,degF,,L,",  # 13 unit of the wrong kind
            ]
        )
        + "\n",
    )
    report = load(con, data, "lab_results")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (13, 5, 8)
    why = reasons(con, "lab_results")
    assert why[3] == "pH 15.0 is outside 0-14"
    assert why[4] == "result 'abc' is not a number, '<X' or 'ND'"
    assert why[5] == "missing required value for 'user_id'"
    assert why[6] == "unit 'furlongs' is not a concentration unit (mg/L, ug/L) for BOD"
    assert "'yesterday' in column 'collected_at' is not a date or time" in why[7]
    assert "negative value -3.0 for BOD" in why[8]
    assert why[9] == "sample_type 'scoop' is not one of composite, grab"
    assert why[13] == "unit 'degF' is not a concentration unit (mg/L, ug/L) for BOD"
    rows = con.execute(
        "SELECT sample_id, parameter, result, nondetect, qualifier, unit FROM lab_results ORDER BY source_row"
    ).fetchall()
    assert rows[0] == ("S1", "BOD", 250.0, False, None, "mg/L")
    assert rows[1] == ("S2", "COD", 5.0, True, "<", "mg/L")
    assert rows[2] == ("S10", "FOG", 2.0, True, "ND", "mg/L")
    assert rows[3] == ("S11", "zinc", pytest.approx(0.12), False, None, "mg/L")
    assert rows[4][2] == pytest.approx(150.8) and rows[4][5] == "degF"


def test_rerun_changes_nothing_and_new_file_adds_only_its_rows(con, tmp_path):
    data = tmp_path / "d"
    write(data, "lab_results/a.csv", LAB_HEADER + "S1,IU-1,2026-03-01,composite,BOD,250,mg/L,,L,\n")
    load(con, data, "lab_results")
    before = con.execute("SELECT * FROM lab_results").fetchall()
    again = load(con, data, "lab_results")
    assert again.files_loaded == 0 and again.files_skipped == 1
    assert con.execute("SELECT * FROM lab_results").fetchall() == before
    write(data, "lab_results/b.csv", LAB_HEADER + "S2,IU-1,2026-03-02,composite,BOD,100,mg/L,,L,\n")
    third = load(con, data, "lab_results")
    assert third.rows_read == 1
    assert con.execute("SELECT count(*) FROM lab_results").fetchall()[0][0] == 2


def test_corrected_resend_supersedes_and_keeps_history(con, tmp_path):
    data = tmp_path / "d"
    write(
        data,
        "lab_results/a.csv",
        LAB_HEADER
        + "S1,IU-1,2026-03-01,composite,BOD,2500,mg/L,,L,\n"
        + "S1,IU-1,2026-03-01,composite,COD,300,mg/L,,L,\n",
    )
    load(con, data, "lab_results")
    write(
        data,
        "lab_results/b_corrected.csv",
        LAB_HEADER
        + "S1,IU-1,2026-03-01,composite,BOD,250,mg/L,,L,\n"
        + "S1,IU-1,2026-03-01,composite,COD,300,mg/L,,L,\n",
    )
    report = load(con, data, "lab_results")
    assert report.files[-1].rows_superseded == 1
    assert con.execute(
        "SELECT parameter, result, source_file FROM lab_results ORDER BY parameter"
    ).fetchall() == [("BOD", 250.0, "b_corrected.csv"), ("COD", 300.0, "a.csv")]
    history = con.execute(
        "SELECT parameter, result, source_file, superseded_by, superseded_at FROM lab_results_history"
    ).fetchall()
    assert len(history) == 1
    assert history[0][:4] == ("BOD", 2500.0, "a.csv", "b_corrected.csv")
    assert history[0][4] is not None


def test_conflicting_rows_in_one_file_are_quarantined_exact_repeats_are_not(con, tmp_path):
    data = tmp_path / "d"
    write(
        data,
        "lab_results/a.csv",
        LAB_HEADER
        + "S1,IU-1,2026-03-01,composite,BOD,250,mg/L,,L,\n"
        + "S1,IU-1,2026-03-01,composite,BOD,250,mg/L,,L,\n"
        + "S1,IU-1,2026-03-01,composite,BOD,260,mg/L,,L,\n",
    )
    report = load(con, data, "lab_results")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (3, 2, 1)
    assert reasons(con, "lab_results")[3] == (
        "conflicts with row 1 of this file: the same sample_id and parameter with different values; send one "
        "corrected row"
    )
    assert con.execute("SELECT count(*) FROM lab_results").fetchall()[0][0] == 1


def test_a_conflict_names_the_files_columns_in_words():
    """The flow table's ``ts`` is the file's ``timestamp``: the reason names what the file calls it."""
    from outfall.ingest.engine import key_words
    from outfall.ingest.registry import all_datasets

    assert key_words(all_datasets()["flow"]) == "user_id, constituent and timestamp"
    assert key_words(all_datasets()["parcels"]) == "parcel_id"


@pytest.mark.parametrize(
    "name,content,expected",
    [
        ("empty.csv", b"", "the file is empty"),
        ("blank.csv", b"\n\n  \n", "the file is empty"),
        ("binary.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "the file is not a text table: it is a PNG image"),
        ("noise.csv", bytes(range(256)) * 40, "the file is not a text table"),
        # Latin-1 (Excel's "CSV" on Windows) is read now: this one simply lacks the required columns
        (
            "latin1.csv",
            "sample_id,user_id\nS\xe9,x\n".encode("latin-1"),
            "no header row with the required column(s)",
        ),
        (
            "noheader.csv",
            b"S1,IU-1,2026-03-01,composite,BOD,250,mg/L\n",
            "no header row with the required column(s)",
        ),
        ("report.pdf", b"%PDF-1.4", "file type '.pdf' is not accepted for lab_results (use .csv or .xlsx)"),
        ("broken.xlsx", b"not a zip", "not a readable .xlsx workbook"),
    ],
)
def test_a_file_that_is_not_a_table_is_one_quarantine_row(con, tmp_path, name, content, expected):
    folder = tmp_path / "d" / "lab_results"
    folder.mkdir(parents=True)
    (folder / name).write_bytes(content)
    report = load(con, tmp_path / "d", "lab_results")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (1, 0, 1)
    rows = con.execute("SELECT source_file, row_number, reason FROM quarantine").fetchall()
    assert rows[0][0] == name and rows[0][1] == 0
    assert expected in rows[0][2]


def test_a_line_with_too_many_fields_does_not_stop_the_file(con, tmp_path):
    data = tmp_path / "d"
    write(
        data,
        "lab_results/a.csv",
        LAB_HEADER
        + "S1,IU-1,2026-03-01,composite,BOD,250,mg/L,,L,\n"
        + "S2,IU-1,2026-03-01,composite,BOD,250,mg/L,,L,,extra,fields\n"
        + "S3,IU-1,2026-03-01,composite,BOD,200,mg/L,,L,\n",
    )
    report = load(con, data, "lab_results")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (3, 2, 1)
    assert "row has 12 fields but the header has 10" in reasons(con, "lab_results")[2]


def test_header_case_and_blanks_ignored_and_xlsx_read(con, tmp_path):
    data = tmp_path / "d"
    frame = pd.DataFrame(
        {
            " Sample_ID ": ["S1", "S2"],
            "USER_ID": ["IU-1", "IU-1"],
            "Collected_At": ["2026-03-01 08:00", "2026-03-02"],
            "sample_type": ["composite", "grab"],
            "Parameter": ["Suspended Solids", "pH"],
            "result": ["301", "9.51"],
            "unit": ["mg/l", "s.u."],
        }
    )
    (data / "lab_results").mkdir(parents=True)
    frame.to_excel(data / "lab_results" / "q1.xlsx", index=False)
    report = load(con, data, "lab_results")
    assert (report.rows_read, report.rows_kept) == (2, 2)
    assert con.execute("SELECT parameter, result FROM lab_results ORDER BY sample_id").fetchall() == [
        ("TSS", 301.0),
        ("pH", 9.51),
    ]


def test_flow_parquet_units_and_local_times(con, tmp_path):
    data = tmp_path / "d"
    (data / "flow").mkdir(parents=True)
    pd.DataFrame(
        {
            "user_id": ["IU-1"] * 4,
            "timestamp": pd.to_datetime(
                ["2026-05-01 00:00", "2026-05-01 00:15", "2026-05-01 00:30", "2026-05-01 00:45"]
            ).tz_localize("America/New_York"),
            "value": [1.44, 2.88, -1.0, 0.0],
            "unit": ["mgd", "mgd", "gpm", "L/s"],
        }
    ).to_parquet(data / "flow" / "iu1.parquet")
    write(
        data,
        "flow/probe.csv",
        """
        user_id,timestamp,value,unit,constituent
        IU-1,2026-11-01T01:30,7.0,SU,pH
        IU-1,2026-11-01T01:30,7.1,SU,pH
        IU-1,2026-03-08T02:30,7.2,SU,pH
        IU-1,2026-05-01T00:00,14.5,SU,pH
        """,
    )
    report = load(con, data, "flow")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (8, 5, 3)
    flows = con.execute("SELECT value, unit FROM flow WHERE constituent = 'flow' ORDER BY ts").fetchall()
    assert flows[0] == (pytest.approx(1000.0), "gpm") and flows[1] == (pytest.approx(2000.0), "gpm")
    # the repeated 01:30 of the fall-back night is daylight time first, standard time second
    probe = con.execute("SELECT epoch(ts)::BIGINT FROM flow WHERE constituent = 'pH' ORDER BY ts").fetchall()
    assert probe[1][0] - probe[0][0] == 3600
    why = [r for (r,) in con.execute("SELECT reason FROM quarantine WHERE dataset = 'flow'").fetchall()]
    assert any("does not exist" in r for r in why)
    assert any("pH 14.5 is outside 0-14" in r for r in why)
    assert any("negative value -1.0 for flow" in r for r in why)


def test_parcels_missing_count_unknown_class_and_district(con, tmp_path):
    data = tmp_path / "d"
    write(
        data,
        "parcels/p.csv",
        """
        parcel_id,district,property_class,acres,seats,people,moratorium
        P1,consolidated,restaurant,,,,
        P2,district_9,single_family,1,,,
        P3,consolidated,castle,1,,,
        P4,,single_family,1,,,
        P5,Consolidated,Senior High School,,,,maybe
        P6,district 1,junior high school,,,40,yes
        """,
    )
    report = load(con, data, "parcels")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (6, 1, 5)
    why = reasons(con, "parcels")
    assert "restaurant parcel has no seats" in why[1]
    assert "district 'district_9' is not one of consolidated, district_1" in why[2]
    assert "property_class 'castle' is not one of" in why[3]
    assert why[4] == "missing required value for 'district'"
    assert "senior_high_school parcel has no people" in why[5] and "'maybe' in column 'moratorium'" in why[5]
    assert con.execute("SELECT district, property_class, moratorium FROM parcels").fetchall() == [
        ("district_1", "elementary_school", True)
    ]


def test_absent_folder_means_no_data(con, tmp_path):
    report = load(con, tmp_path / "nothing", "sites")
    assert report.files == []
    assert con.execute("SELECT count(*) FROM sites").fetchall()[0][0] == 0


def test_changed_file_is_reloaded_and_its_old_quarantine_replaced(con, tmp_path):
    data = tmp_path / "d"
    write(data, "rainfall/g.csv", "gauge_id,date,precip_in\nG1,2026-05-01,abc\n")
    load(con, data, "rainfall")
    assert len(reasons(con, "rainfall")) == 1
    write(data, "rainfall/g.csv", "gauge_id,date,precip_in\nG1,2026-05-01,0.5\n")
    load(con, data, "rainfall")
    assert reasons(con, "rainfall") == {}
    assert con.execute("SELECT gauge_id, date, precip_in FROM rainfall").fetchall() == [
        ("G1", dt.date(2026, 5, 1), 0.5)
    ]
    assert con.execute("SELECT count(*) FROM ingested_files WHERE dataset='rainfall'").fetchall()[0][0] == 1
