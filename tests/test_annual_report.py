"""The annual pretreatment report (contract 5.6, 40 CFR 403.12(i)): the table with exactly the contract's
columns, counted by hand from rows put straight into the warehouse, and the printable page of each year
linked from the index page."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pandas as pd
from dagster_duckdb import DuckDBResource

from assets import pages
from assets.common import schema_ddl
from assets.sewer import annual_report, page as sewer_page
from dashboards.annual_report import AnnualReportData, build_annual_report_page, report_file
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import local_timezone
from outfall.warehouse import configure, ensure_schema
from tests.conftest import materialize

NY = dt.timezone(dt.timedelta(hours=-5))
CONTRACT_COLUMNS = [
    "user_id",
    "year",
    "samples",
    "violations",
    "statistic_violations",
    "slugs",
    "snc",
    "notices_mailed",
]


def seed(path: Path, with_notices: bool) -> None:
    con = configure(duckdb.connect(str(path)), timezone=local_timezone())
    ensure_schema(con, schema_ddl())
    lab = [
        ("S-1", "U-1", "2025-12-31 23:30:00-05", "2025-12-31"),  # local 2025, though 04:30 UTC on Jan 1
        ("S-2", "U-1", "2026-01-05 09:00:00-05", "2026-01-05"),
        ("S-2", "U-1", "2026-01-05 09:00:00-05", "2026-01-05"),  # a second parameter of the same sample
        ("S-3", "U-2", "2026-06-01 09:00:00-04", "2026-06-01"),
    ]
    for sid, uid, at, day in lab:
        con.execute(
            "INSERT INTO lab_results (sample_id, user_id, collected_at, collected_date, parameter, result) "
            "VALUES (?, ?, ?::TIMESTAMPTZ, ?::DATE, 'BOD', 10)",
            [sid, uid, at, day],
        )
    con.execute(
        "INSERT INTO flow (user_id, constituent, ts, value) VALUES "
        "('U-3', 'flow', '2026-03-01 10:00:00-05'::TIMESTAMPTZ, 5)"
    )
    con.execute(
        "INSERT INTO discharge_violations (user_id, sample_id, parameter, collected_at, value) VALUES "
        "('U-1', 'S-2', 'BOD', '2026-01-05 09:00:00-05'::TIMESTAMPTZ, 300), "
        "('U-1', 'S-1', 'BOD', '2025-12-31 23:30:00-05'::TIMESTAMPTZ, 300)"
    )
    con.execute(
        "INSERT INTO statistic_violations (user_id, parameter, statistic, period_start, period_end, value) "
        "VALUES ('U-2', 'BOD', 'monthly_avg', DATE '2026-06-01', DATE '2026-06-30', 200)"
    )
    con.execute(
        "INSERT INTO slug_events (user_id, constituent, start_at) VALUES "
        "('U-3', 'flow', '2026-12-31 23:50:00-05'::TIMESTAMPTZ)"
    )
    con.execute(
        "INSERT INTO snc_determinations (user_id, period_start, period_end, parameter, criterion, "
        "measurements, count, pct) VALUES ('U-2', DATE '2026-01-01', DATE '2026-06-30', 'BOD', 'chronic', "
        "1, 1, 100.0)"
    )
    if with_notices:  # rows of the notices table (contract 5.1), as its own asset writes them
        con.execute(
            "INSERT INTO notices (kind, recipient_id, period, violations, status, issued_on, correct_by, "
            "letter) VALUES "
            "('sewer', 'U-1', '2026-01', 1, 'mailed', DATE '2026-01-20', DATE '2026-02-19', 'a.html'), "
            "('sewer', 'U-1', '2026-02', 1, 'draft', NULL, NULL, 'b.html'), "
            "('stormwater', 'U-1', '2026-03', 1, 'mailed', DATE '2026-03-20', DATE '2026-04-19', 'c.html'), "
            "('sewer', 'U-4', '2025-12', 1, 'mailed', DATE '2026-01-02', DATE '2026-02-01', 'd.html')"
        )
    con.close()


def run(tmp_path: Path, with_notices: bool):
    wh = tmp_path / "w.duckdb"
    seed(wh, with_notices)
    result = materialize(
        [annual_report.pretreatment_annual_report, sewer_page.pretreatment_report_pages],
        resources={
            "duckdb": DuckDBResource(database=str(wh)),
            "settings": OutfallSettings(
                data_dir=str(tmp_path / "none"), as_of="2026-11-30", dashboards_dir=str(tmp_path / "dash")
            ),
        },
    )
    assert result.success
    con = duckdb.connect(str(wh), read_only=True)
    cols = [
        r[0]
        for r in con.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = 'pretreatment_annual_report' ORDER BY ordinal_position"
        ).fetchall()
    ]
    got = con.execute("SELECT * FROM pretreatment_annual_report ORDER BY year, user_id").fetchall()
    types = dict(
        con.execute(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = 'pretreatment_annual_report'"
        ).fetchall()
    )
    con.close()
    return cols, got, types


def test_counts_per_user_and_year(tmp_path):
    cols, got, types = run(tmp_path, with_notices=True)
    assert cols == CONTRACT_COLUMNS
    assert types["snc"] == "BOOLEAN" and types["year"] == "INTEGER" and types["samples"] == "INTEGER"
    assert got == [
        # S-1 was collected on Dec 31 local time: 2025
        ("U-1", 2025, 1, 1, 0, 0, False, 0),
        # S-2 once (two results); its violation; the mailed sewer
        # notice (not the draft, not the stormwater one)
        ("U-1", 2026, 1, 1, 0, 0, False, 1),
        # the monthly average above its limit and the SNC of January-June
        ("U-2", 2026, 1, 0, 1, 0, True, 0),
        # flow only; the slug of Dec 31 23:50 local is 2026's
        ("U-3", 2026, 0, 0, 0, 1, False, 0),
        # a mailed notice alone makes a row (issued Jan 2, 2026)
        ("U-4", 2026, 0, 0, 0, 0, False, 1),
    ]
    page = (tmp_path / "dash" / report_file(2026)).read_text()
    assert "Annual pretreatment report 2026" in page and "40 CFR 403.12(i)" in page
    assert "U-4" in page and "has not ended" in page
    assert (tmp_path / "dash" / report_file(2025)).exists()


def test_without_the_notices_asset_the_count_is_zero(tmp_path):
    cols, got, _ = run(tmp_path, with_notices=False)
    assert cols == CONTRACT_COLUMNS
    assert [r[-1] for r in got] == [0, 0, 0, 0] and {r[0] for r in got} == {"U-1", "U-2", "U-3"}


def test_the_index_links_each_years_report(tmp_path):
    run(tmp_path, with_notices=True)
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    configure(con, timezone=local_timezone())
    data = pages.read_index_data(
        con, OutfallSettings(data_dir=str(tmp_path), as_of="2026-11-30"), RulesResource(), tmp_path / "dash"
    )
    con.close()
    assert data.reports == [
        (report_file(2026), "Annual pretreatment report 2026"),
        (report_file(2025), "Annual pretreatment report 2025"),
    ]
    from dashboards.index import build_index_page

    html_text, _ = build_index_page(data)
    assert f'href="{report_file(2026)}"' in html_text


def test_report_page_prints_every_row_in_plain_words():
    users = pd.DataFrame(
        [
            {
                "user_id": f"U-{i}",
                "name": f"Works {i}",
                "address": "1 A St",
                "permit_no": "P",
                "permit_effective": dt.date(2020, 1, 1),
                "permit_expires": None,
                "samples": 12,
                "violations": 0,
                "statistic_violations": 0,
                "slugs": 0,
                "snc": i == 0,
                "notices_mailed": 0,
                "days_without_permit": 0,
            }
            for i in range(300)
        ]
    )
    snc = pd.DataFrame(
        [
            {
                "user_id": "U-0",
                "period_start": dt.date(2026, 1, 1),
                "period_end": dt.date(2026, 6, 30),
                "parameter": "BOD",
                "criterion": "chronic",
                "basis": "monthly_avg",
                "measurements": 6,
                "count": 5,
                "pct": 83.33,
                "rule": "40 CFR 403.8(f)(2)(viii)",
            }
        ]
    )
    html_text, meta = build_annual_report_page(
        AnnualReportData(
            year=2026,
            as_of=dt.date(2027, 1, 15),
            users=users,
            violations=pd.DataFrame(),
            statistics=pd.DataFrame(),
            snc=snc,
            notices=pd.DataFrame(),
            slugs=pd.DataFrame(),
        )
    )
    assert html_text.count("<tr") >= 300 + 1 and "The first" not in html_text  # no row left out
    assert "5 of 6 monthly averages (83%)" in html_text and "Chronic violations" in html_text
    assert "has not ended" not in html_text and meta.counts["snc_users"] == 1
    assert "snc_determinations" not in html_text.replace('data-table="snc_determinations"', "")
