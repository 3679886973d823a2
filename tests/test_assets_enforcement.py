"""Enforcement assets (assets/sewer/enforcement.py) materialized in process on small
fixtures: rows inserted straight into discharge_evaluations, slug_events,
lab_results, flow and industrial_users, plus the new input folders as CSV files.

Boundaries: 66% vs 65%, 33% vs 32%, exactly 1.4x (also where floating point
misses it), a report 45 vs 46 days late, pH chronic but never TRC, 30 days to
correct vs 31, a 5-day slug report across a weekend."""

from __future__ import annotations

import datetime as dt
import shutil
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import duckdb
import pytest
from dagster_duckdb import DuckDBResource

from assets.common import schema_ddl
from assets.ingest import ingest_asset
from assets.sewer import enforcement as enf, permits as per, surcharges as sur
from outfall.ingest.sewer import ENFORCEMENT_DATASET_NAMES
from outfall.paths import RULES_DIR
from outfall.resources import OutfallSettings
from outfall.rules import local_timezone
from outfall.warehouse import configure, ensure_schema
from tests.conftest import materialize, own_checks, small_town, write

AS_OF = "2026-06-30"
NY = ZoneInfo("America/New_York")
D = dt.date
# the enforcement folders, and each user's permits (contract 8.2), which the permit renewals read
ENFORCEMENT_INGEST = [ingest_asset(name) for name in ENFORCEMENT_DATASET_NAMES] + [per.user_permits]
ALL = [
    *ENFORCEMENT_INGEST,
    enf.sewer_notices,
    enf.obligations,
    enf.snc_determinations,
    enf.snc_publication,
    sur.surcharges,
    enf.grease_trap_status,
]


# ------------------------------------------------------------------ helpers


def open_warehouse(path: Path) -> duckdb.DuckDBPyConnection:
    con = configure(duckdb.connect(str(path)), timezone=local_timezone())
    ensure_schema(con, schema_ddl())
    return con


def outcome_of(value, limit, limit_type, nondetect):
    if nondetect:
        if limit_type == "max":
            return "compliant" if value <= limit else "inconclusive"
        return "violation" if value <= limit else "inconclusive"
    if limit_type == "max":
        return "violation" if value > limit else "compliant"
    return "violation" if value < limit else "compliant"


def ev_rows(
    user,
    sample,
    parameter,
    day,
    value,
    limit,
    limit_type="max",
    nondetect=False,
    hour=9,
    sample_type="composite",
    unit="mg/L",
    source="Part 2",
    rule="Woodbury Code ch. 253 Part 2 (test)",
):
    at = dt.datetime.combine(day, dt.time(hour), NY)
    return [
        (
            user,
            sample,
            parameter,
            at,
            day,
            sample_type,
            float(value),
            nondetect,
            "<" if nondetect else None,
            unit,
            float(limit),
            limit_type,
            source,
            rule,
            outcome_of(value, limit, limit_type, nondetect),
            value / limit if limit_type == "max" else limit / value,
        )
    ]


def ph_rows(user, sample, day, value):
    return ev_rows(user, sample, "pH", day, value, 5.5, "min", unit="s.u.", sample_type="grab") + ev_rows(
        user, sample, "pH", day, value, 9.5, "max", unit="s.u.", sample_type="grab"
    )


def insert_evaluations(con, rows):
    con.executemany(
        "INSERT INTO discharge_evaluations (user_id, sample_id, parameter, collected_at, collected_date, "
        "sample_type, value, nondetect, qualifier, unit, limit_value, limit_type, limit_source, rule, "
        "outcome, exceedance_ratio) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


def insert_users(con, rows):
    con.executemany(
        "INSERT INTO industrial_users (user_id, name, district, address, permit_no, permit_effective, "
        "permit_expires, normal_avg_flow_gpd) VALUES (?, ?, 'consolidated', ?, ?, DATE '2025-01-01', ?, ?)",
        rows,
    )


def insert_lab(con, rows):
    """rows: (sample_id, user_id, collected_date, sample_type, parameter, result, nondetect, lab[,
    sampled_by])"""
    con.executemany(
        "INSERT INTO lab_results (sample_id, user_id, collected_at, collected_date, sample_type, parameter, "
        "result, nondetect, unit, lab, sampled_by) VALUES (?, ?, "
        "(CAST(? AS DATE) + INTERVAL 9 HOUR)::TIMESTAMP AT TIME ZONE 'America/New_York', "
        "?, ?, ?, ?, ?, 'mg/L', ?, ?)",
        [(r[0], r[1], r[2], r[2], *r[3:8], r[8] if len(r) > 8 else None) for r in rows],
    )


def run(tmp_path: Path, data: Path | None = None, assets=None, as_of: str = AS_OF, rules_dir: str = ""):
    data = data or (tmp_path / "data")
    data.mkdir(parents=True, exist_ok=True)
    result = materialize(
        assets or ALL,
        resources={
            "duckdb": DuckDBResource(database=str(tmp_path / "w.duckdb")),
            "settings": OutfallSettings(
                data_dir=str(data), as_of=as_of, dashboards_dir=str(tmp_path / "dash"), rules_dir=rules_dir
            ),
        },
    )
    assert result.success
    return result


def rows(tmp_path: Path, query: str, params=None):
    con = configure(duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True), timezone=local_timezone())
    try:
        return con.execute(query, params or []).fetchall()
    finally:
        con.close()


def letters(tmp_path: Path) -> Path:
    return tmp_path / "dash" / "letters" / "sewer"


# --------------------------------------------------------------- empty


def test_every_table_written_when_inputs_are_empty(tmp_path):
    run(tmp_path)
    for table in (
        "reports",
        "accidental_discharges",
        "grease_traps",
        "pumpouts",
        "sewer_notices",
        "obligations",
        "snc_determinations",
        "snc_evaluations",
        "snc_publication",
        "surcharges",
        "surcharge_samples",
        "grease_trap_status",
        "grease_orders",
    ):
        assert rows(tmp_path, f"SELECT count(*) FROM {table}") == [(0,)], table


# ------------------------------------------------- significant noncompliance


def snc_fixture(tmp_path: Path) -> Path:
    con = open_warehouse(tmp_path / "w.duckdb")
    ev = []
    day = lambda i: D(2026, 1, 5) + dt.timedelta(days=i)  # noqa: E731  (all in January-June)
    # CHR66: 66 of 100 BOD results break 240 -> chronic. CHR65: 65 of 100 -> nothing.
    for i in range(100):
        ev += ev_rows("CHR66", f"C66-{i}", "BOD", day(i), 250 if i < 66 else 200, 240)
        ev += ev_rows("CHR65", f"C65-{i}", "BOD", day(i), 250 if i < 65 else 200, 240)
    # TRC33: 33 of 100 TSS results exactly 300 x 1.4 = 420 -> trc (and 33% breaking: not chronic).
    # TRC32: 32 of 100 -> nothing.
    for i in range(100):
        ev += ev_rows("TRC33", f"T33-{i}", "TSS", day(i), 420 if i < 33 else 100, 300)
        ev += ev_rows("TRC32", f"T32-{i}", "TSS", day(i), 420 if i < 32 else 100, 300)
    # FLOAT: a permit TSS limit of 350; 490 = 350 x 1.4 exactly (350 * 1.4 < 490 in floating point).
    ev += ev_rows("FLOAT", "F-1", "TSS", D(2026, 2, 1), 490, 350, source="permit")
    ev += ev_rows("FLOAT", "F-2", "TSS", D(2026, 2, 2), 100, 350, source="permit")
    ev += ev_rows("FLOAT", "F-3", "TSS", D(2026, 2, 3), 100, 350, source="permit")
    ev += ev_rows("FLOATLOW", "FL-1", "TSS", D(2026, 2, 1), 489.99, 350, source="permit")
    ev += ev_rows("FLOATLOW", "FL-2", "TSS", D(2026, 2, 2), 100, 350, source="permit")
    ev += ev_rows("FLOATLOW", "FL-3", "TSS", D(2026, 2, 3), 100, 350, source="permit")
    # PH: 2 of 3 samples break (one below 5.5, one at 12 >= 9.5 x 1.2): chronic, never trc.
    ev += ph_rows("PH", "P-1", D(2026, 3, 1), 4.0) + ph_rows("PH", "P-2", D(2026, 3, 2), 12.0)
    ev += ph_rows("PH", "P-3", D(2026, 3, 3), 7.0)
    # ND: non-detects are measurements that do not exceed: 1 of 3 breaking.
    ev += ev_rows("ND", "N-1", "BOD", D(2026, 4, 1), 250, 240)
    ev += ev_rows("ND", "N-2", "BOD", D(2026, 4, 2), 400, 240, nondetect=True)  # inconclusive
    ev += ev_rows("ND", "N-3", "BOD", D(2026, 4, 3), 5, 240, nondetect=True)
    # H2: a July result is in the July-December period, not January-June.
    ev += ev_rows("H2", "H-1", "COD", D(2026, 6, 30), 100, 600)
    ev += ev_rows("H2", "H-2", "COD", D(2026, 7, 1), 720, 600)  # 600 x 1.2
    insert_evaluations(con, ev)
    insert_users(
        con,
        [
            ("CHR66", "Chronic & Co <Inc>", "1 Main St", "P-66", D(2027, 1, 1), None),
            ("PH", "Acid Works", None, None, None, None),
        ],
    )
    con.close()
    data = tmp_path / "data"
    write(
        data,
        "reports/r.csv",
        """
        user_id,report_type,period_start,period_end,due_date,received_on
        LATE45,periodic,2025-07-01,2025-12-31,2026-01-15,2026-03-01
        LATE46,semi-annual,2025-07-01,2025-12-31,2026-01-15,2026-03-02
        OPEN45,periodic,2025-10-01,2026-03-31,2026-05-16,
        OPEN46,periodic,2025-10-01,2026-03-31,2026-05-15,
        """,
    )
    return data


def test_snc_determinations_at_each_boundary(tmp_path):
    data = snc_fixture(tmp_path)
    result = run(
        tmp_path,
        data,
        [
            *ENFORCEMENT_INGEST,
            enf.snc_determinations,
            enf.snc_publication,
            enf.check_validity_snc_determinations_pct,
        ],
        as_of=AS_OF,
    )
    checks = own_checks(result)
    assert [c.passed for c in checks] == [True]
    got = rows(
        tmp_path,
        "SELECT user_id, period_start, period_end, parameter, criterion, measurements, count, pct "
        "FROM snc_determinations ORDER BY user_id, criterion",
    )
    h1, h1_end = D(2026, 1, 1), D(2026, 6, 30)
    assert got == [
        ("CHR66", h1, h1_end, "BOD", "chronic", 100, 66, 66.0),
        ("FLOAT", h1, h1_end, "TSS", "trc", 3, 1, pytest.approx(100 / 3)),
        ("H2", D(2026, 7, 1), D(2026, 12, 31), "COD", "chronic", 1, 1, 100.0),
        ("H2", D(2026, 7, 1), D(2026, 12, 31), "COD", "trc", 1, 1, 100.0),
        ("LATE46", h1, h1_end, None, "late_report", 1, 1, 100.0),
        ("OPEN46", h1, h1_end, None, "late_report", 1, 1, 100.0),
        ("PH", h1, h1_end, "pH", "chronic", 3, 2, pytest.approx(200 / 3)),
        ("TRC33", h1, h1_end, "TSS", "trc", 100, 33, 33.0),
    ]
    assert all(
        r[0]
        for r in rows(
            tmp_path, "SELECT rule IS NOT NULL AND rule LIKE '%403.8(f)(2)(viii)%' FROM snc_determinations"
        )
    )
    # every period's arithmetic is kept, met or not
    ev = dict(
        ((u, p), (m, v, t))
        for u, p, m, v, t in rows(
            tmp_path, "SELECT user_id, parameter, measurements, violations, trc_results FROM snc_evaluations"
        )
    )
    assert ev[("CHR65", "BOD")] == (100, 65, 0)
    assert ev[("TRC32", "TSS")] == (100, 32, 32)
    assert ev[("PH", "pH")] == (3, 2, None)
    assert ev[("ND", "BOD")] == (3, 1, 0)
    assert ev[("FLOAT", "TSS")] == (3, 1, 1)
    assert ev[("FLOATLOW", "TSS")] == (3, 1, 0)


def test_snc_publication_lists_each_user_once_per_year(tmp_path):
    data = snc_fixture(tmp_path)
    run(tmp_path, data, [*ENFORCEMENT_INGEST, enf.snc_determinations, enf.snc_publication])
    got = rows(
        tmp_path,
        "SELECT year, user_id, criteria, determinations, year_closed FROM snc_publication ORDER BY user_id",
    )
    assert [r[1] for r in got] == ["CHR66", "FLOAT", "H2", "LATE46", "OPEN46", "PH", "TRC33"]
    h2 = next(r for r in got if r[1] == "H2")
    assert h2 == (
        2026,
        "H2",
        "chronic violations of COD (July 1, 2026 - December 31, 2026); technical review criteria violations "
        "of COD (July 1, 2026 - December 31, 2026)",
        2,
        False,
    )
    page = (letters(tmp_path) / "sewer_snc_publication_2026.html").read_text()
    assert "Chronic &amp; Co &lt;Inc&gt;" in page and "<Inc>" not in page
    assert (
        "reports more than 45 days late (January 1, 2026 - June 30, 2026)" in page and "Provisional" in page
    )


def test_the_snc_list_states_each_criterion_with_its_own_periods():
    # contract 8.5: IU-017 met the chronic criterion in both halves of 2026 and the technical review
    # criteria in January-June only; the list said both criteria in both halves.
    h1, h2 = (D(2026, 1, 1), D(2026, 6, 30)), (D(2026, 7, 1), D(2026, 12, 31))

    def det(period, parameter, criterion):
        return {
            "period_start": period[0],
            "period_end": period[1],
            "parameter": parameter,
            "criterion": criterion,
        }

    items = [det(h1, "BOD", "chronic"), det(h1, "BOD", "trc"), det(h2, "BOD", "chronic")]
    assert enf.criteria_statements(items, 45) == [
        "chronic violations of BOD (January 1, 2026 - June 30, 2026; July 1, 2026 - December 31, 2026)",
        "technical review criteria violations of BOD (January 1, 2026 - June 30, 2026)",
    ]
    # parameters met in the same periods are named together; in other periods, apart
    items = [det(h1, "BOD", "chronic"), det(h1, "TSS", "chronic"), det(h2, "COD", "chronic")]
    assert enf.criteria_statements(items, 45) == [
        "chronic violations of BOD, TSS (January 1, 2026 - June 30, 2026)",
        "chronic violations of COD (July 1, 2026 - December 31, 2026)",
    ]
    assert enf.criteria_statements([det(h2, None, "late_report")], 45) == [
        "reports more than 45 days late (July 1, 2026 - December 31, 2026)"
    ]


# ------------------------------------------------------- notices of violation


def notices_fixture(tmp_path: Path) -> None:
    con = open_warehouse(tmp_path / "w.duckdb")
    v = D(2026, 3, 2)
    ev = []
    # IN30: next BOD result 30 days later complies -> corrected in time.
    ev += ev_rows("IN30", "A-1", "BOD", v, 300, 240) + ev_rows(
        "IN30", "A-2", "BOD", v + dt.timedelta(days=30), 200, 240
    )
    # IN31: 31 days later -> corrected late. An inconclusive result in between decides nothing.
    ev += ev_rows("IN31", "B-1", "BOD", v, 300, 240)
    ev += ev_rows("IN31", "B-2", "BOD", v + dt.timedelta(days=10), 400, 240, nondetect=True)
    ev += ev_rows("IN31", "B-3", "BOD", v + dt.timedelta(days=31), 200, 240)
    # AGAIN: the next result breaks the limit again; that one is overdue (nothing after).
    ev += ev_rows("AGAIN", "C-1", "TSS", v, 350, 300) + ev_rows(
        "AGAIN", "C-2", "TSS", D(2026, 3, 20), 330, 300
    )
    # PEND: violation on June 10, nothing later: pending on June 30.
    ev += ev_rows("PEND", "D-1", "FOG", D(2026, 6, 10), 120, 100)
    # PH: below the minimum on May 1, nothing later: overdue since June 1.
    ev += ph_rows("PH", "E-1", D(2026, 5, 1), 5.49)
    # FUTURE: a violation after --as-of is not noticed yet.
    ev += ev_rows("FUTURE", "F-1", "BOD", D(2026, 7, 2), 300, 240)
    insert_evaluations(con, ev)
    insert_users(
        con,
        [("IN30", "Smith & Sons <script>alert(1)</script>", "1 Main St\nWoodbury NY", "P-30", None, None)],
    )
    con.close()


def mail_notices(tmp_path: Path, mailed: list[tuple[str, str, dt.date, int]]) -> None:
    """Monthly notices as the notices asset writes them (contract 5.1): (user, period, mailed_on, days)."""
    con = open_warehouse(tmp_path / "w.duckdb")
    for user_id, period, mailed_on, days in mailed:
        con.execute(
            "INSERT INTO notices (kind, recipient_id, period, violations, status, issued_on, correct_by, "
            "correct_within_days, letter, ready_to_send) VALUES ('sewer', ?, ?, 1, 'mailed', ?, ?, ?, ?, "
            "true)",
            [
                user_id,
                period,
                mailed_on,
                mailed_on + dt.timedelta(days=days),
                days,
                f"letters/sewer/notice_{user_id}_{period}.html",
            ],
        ).fetchall()
    con.close()


def test_sewer_notices_follow_up_30_vs_31_days_from_the_mailed_notice(tmp_path):
    notices_fixture(tmp_path)
    march = D(2026, 3, 2)
    mail_notices(
        tmp_path,
        [
            ("IN30", "2026-03", march, 30),
            ("IN31", "2026-03", march, 30),
            ("AGAIN", "2026-03", march, 30),
            ("PH", "2026-05", D(2026, 5, 1), 30),
        ],
    )
    result = run(tmp_path, assets=[enf.sewer_notices, enf.check_completeness_sewer_notices_violation])
    assert [c.passed for c in own_checks(result)] == [True]
    got = {
        (r[0], r[1]): r[2:]
        for r in rows(
            tmp_path,
            "SELECT user_id, sample_id, issued_on, correct_by, status, corrected_in_time, next_sample_id, "
            "violation_days, max_penalty_usd, correction_days, mailing, letter_file FROM sewer_notices",
        )
    }
    assert set(got) == {
        ("IN30", "A-1"),
        ("IN31", "B-1"),
        ("AGAIN", "C-1"),
        ("AGAIN", "C-2"),
        ("PEND", "D-1"),
        ("PH", "E-1"),
    }
    # § 253-55 A days count from the day after correct_by: corrected on it or the day after, none
    assert got[("IN30", "A-1")][:6] == (D(2026, 3, 2), D(2026, 4, 1), "corrected", True, "A-2", 0)
    assert got[("IN31", "B-1")][:6] == (D(2026, 3, 2), D(2026, 4, 1), "corrected_late", False, "B-3", 0)
    assert got[("AGAIN", "C-1")][2:5] == ("not_corrected", False, "C-2")
    assert got[("AGAIN", "C-2")][2] == "overdue"
    # PEND's June notice is a draft (no mailing): no deadline, no penalty
    assert got[("PEND", "D-1")][:6] == (None, None, "draft", None, None, 0)
    assert got[("PEND", "D-1")][6] == Decimal("0.00")
    # pH below 5.5 on May 1, notice mailed May 1: period to May 31;
    # June 1..30 uncorrected -> 30 days, $500 a day
    assert got[("PH", "E-1")][1:] == (
        D(2026, 5, 31),
        "overdue",
        False,
        None,
        30,
        Decimal("15000.00"),
        30,
        "certified mail",
        "letters/sewer/notice_PH_2026-05.html",
    )
    # one letter per notice now (assets/notices.py): no letter per sample
    assert not list(letters(tmp_path).glob("sewer_nov_*.html")) if letters(tmp_path).is_dir() else True


def test_sewer_notices_rerun_is_identical_and_removes_old_per_sample_letters(tmp_path):
    notices_fixture(tmp_path)
    mail_notices(tmp_path, [("IN30", "2026-03", D(2026, 3, 2), 30)])
    old = letters(tmp_path) / "sewer_nov_NOV-PEND-D-1-FOG-max.html"
    old.parent.mkdir(parents=True)
    old.write_text("a letter of the old kind", encoding="utf-8")
    run(tmp_path, assets=[enf.sewer_notices])
    query = "SELECT * EXCLUDE (collected_at) FROM sewer_notices ORDER BY notice_id"
    first = rows(tmp_path, query)
    run(tmp_path, assets=[enf.sewer_notices])
    assert rows(tmp_path, query) == first
    assert not old.exists()


# ---------------------------------------------------------------- obligations


def obligations_fixture(tmp_path: Path) -> Path:
    con = open_warehouse(tmp_path / "w.duckdb")
    # Slugs: Thursday June 4 (report due Tuesday June 9) and Friday June 5 (due Wednesday June 10).
    con.executemany(
        "INSERT INTO slug_events (user_id, constituent, start_at, end_at, duration_min, baseline, "
        "peak_value, peak_ratio, unit) VALUES (?, 'flow', ?, ?, 30, 15.277, 151.4647, 9.914, 'gpm')",
        [
            (
                "SLUGTHU",
                dt.datetime(2026, 6, 4, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-4))),
                dt.datetime(2026, 6, 5, 0, 0, tzinfo=dt.timezone(dt.timedelta(hours=-4))),
            ),
            (
                "SLUGFRI",
                dt.datetime(2026, 6, 5, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=-4))),
                dt.datetime(2026, 6, 5, 10, 30, tzinfo=dt.timezone(dt.timedelta(hours=-4))),
            ),
            (
                "SLUGNONE",
                dt.datetime(2026, 6, 5, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=-4))),
                dt.datetime(2026, 6, 5, 10, 30, tzinfo=dt.timezone(dt.timedelta(hours=-4))),
            ),
        ],
    )
    # Violations: one in the user's own sample (self-monitoring), one in the Town's (sampled_by town: no
    # 24-hour notice or repeat sampling of the user's, contract 7.1).
    insert_evaluations(
        con,
        ev_rows("SELF", "SM-1", "BOD", D(2026, 3, 2), 300, 240)
        + ev_rows("TOWNS", "TW-1", "BOD", D(2026, 3, 2), 300, 240),
    )
    insert_lab(
        con,
        [
            ("SM-1", "SELF", D(2026, 3, 2), "composite", "BOD", 300.0, False, "Suffolk Environmental"),
            ("SM-2", "SELF", D(2026, 4, 1), "composite", "BOD", 200.0, False, "Town of Woodbury POTW lab"),
            (
                "TW-1",
                "TOWNS",
                D(2026, 3, 2),
                "composite",
                "BOD",
                300.0,
                False,
                "Suffolk Environmental",
                "town",
            ),
        ],
    )
    insert_users(
        con,
        [
            ("EXP30", "Soon Expiring", None, "P-E30", D(2026, 7, 30), None),
            ("EXP90", "Window Edge", None, "P-E90", D(2026, 9, 28), None),
            ("EXP91", "Far Off", None, "P-E91", D(2026, 9, 29), None),
            ("EXPIRED", "Lapsed", None, "P-X", D(2026, 6, 29), None),
        ],
    )
    con.close()
    data = tmp_path / "data"
    write(
        data,
        "reports/r.csv",
        """
        user_id,report_type,period_start,period_end,due_date,received_on
        PER,periodic,2025-07-01,2025-12-31,2026-01-31,2026-01-30
        PER,periodic,2026-01-01,2026-06-30,2026-07-31,
        SLUGTHU,slug report,2026-06-04,,,2026-06-09
        SLUGFRI,slug,,,,2026-06-11
        SELF,24-hour notice,2026-03-02,,,2026-03-03
        """,
    )
    write(
        data,
        "accidental_discharges/a.csv",
        """
        user_id,occurred_at,notified_at,statement_received_on,description
        ACC1,2026-05-01T08:00,2026-05-02T09:00,2026-05-17,Tank overflow
        ACC2,2026-05-01T08:00,,2026-05-17,Valve left open
        ACC3,2026-06-20T08:00,2026-06-20T08:30,,Spill
        """,
    )
    return data


def test_obligations_deadlines(tmp_path):
    data = obligations_fixture(tmp_path)
    run(tmp_path, data, [*ENFORCEMENT_INGEST, enf.obligations])
    got = rows(
        tmp_path,
        "SELECT user_id, obligation, trigger_date, due, satisfied_on, status, days_late "
        "FROM obligations ORDER BY user_id, obligation, due",
    )
    assert got == [
        # written statement within 15 days of the notification (May 2 -> Sunday May 17, so Monday May 18 under
        # GCL § 25-a, contract 7.4): met
        ("ACC1", "accidental_statement", D(2026, 5, 2), D(2026, 5, 18), D(2026, 5, 17), "met", None),
        # no notification: counted from the discharge (May 1 -> Saturday May 16 -> Monday May 18): met
        ("ACC2", "accidental_statement", D(2026, 5, 1), D(2026, 5, 18), D(2026, 5, 17), "met", None),
        # June 20 -> Sunday July 5 -> Monday July 6
        ("ACC3", "accidental_statement", D(2026, 6, 20), D(2026, 7, 6), None, "open", None),
        ("EXP30", "permit_renewal", D(2026, 5, 1), D(2026, 7, 30), None, "open", None),
        ("EXP90", "permit_renewal", D(2026, 6, 30), D(2026, 9, 28), None, "open", None),
        ("EXPIRED", "permit_renewal", D(2026, 3, 31), D(2026, 6, 29), None, "overdue", 1),
        # due Saturday January 31: ends Monday February 2 (GCL § 25-a)
        ("PER", "periodic_report", D(2025, 12, 31), D(2026, 2, 2), D(2026, 1, 30), "met", None),
        ("PER", "periodic_report", D(2026, 6, 30), D(2026, 7, 31), None, "open", None),
        ("PER", "periodic_report", D(2026, 7, 31), D(2027, 2, 1), None, "open", None),
        # the user's own lab found it: notice by the next day (met), resample within 30 days (met by SM-2)
        ("SELF", "resample_30d", D(2026, 3, 2), D(2026, 4, 1), D(2026, 4, 1), "met", None),
        ("SELF", "violation_notice_24h", D(2026, 3, 2), D(2026, 3, 3), D(2026, 3, 3), "met", None),
        # Friday slug: due Wednesday June 10; report on Thursday June 11 -> late
        ("SLUGFRI", "slug_report", D(2026, 6, 5), D(2026, 6, 10), D(2026, 6, 11), "late", 1),
        ("SLUGNONE", "slug_report", D(2026, 6, 5), D(2026, 6, 10), None, "overdue", 20),
        # Thursday slug (local date June 4, 23:30): due Tuesday June 9 across the weekend -> met
        ("SLUGTHU", "slug_report", D(2026, 6, 4), D(2026, 6, 9), D(2026, 6, 9), "met", None),
    ]
    rules = dict(rows(tmp_path, "SELECT DISTINCT obligation, rule FROM obligations"))
    assert "40 CFR 403.8(f)(2)(vi)" in rules["slug_report"]
    # values rounded as a reader writes them, with their units (issue 37: not "151.4647 gpm (9.914 x ...)")
    details = dict(rows(tmp_path, "SELECT user_id, detail FROM obligations WHERE obligation = 'slug_report'"))
    assert details["SLUGFRI"] == "flow slug peaking at 151 gpm, 9.9 times the baseline"
    assert "403.12(g)(2)" in rules["resample_30d"]
    assert "15 days" in rules["accidental_statement"]
    # whose law each rests on (contract 7.1): the federal duties are not adopted, so no notice counts them
    laws = set(rows(tmp_path, "SELECT DISTINCT obligation, law, adopted, adopted_by FROM obligations"))
    assert laws == {
        ("accidental_statement", "Woodbury Code ch. 253 Part 2", True, None),
        ("periodic_report", "Woodbury Code ch. 253 Part 2", True, None),
        # a Town practice is no law (contract 8.5): its own name, never a violation
        ("permit_renewal", "Town practice: permit renewal reminder", False, None),
        ("violation_notice_24h", "40 CFR Part 403", False, None),
        ("resample_30d", "40 CFR Part 403", False, None),
        ("slug_report", "40 CFR Part 403", False, None),
    }


# ------------------------------------------------------------ grease traps


def test_grease_trap_status_and_orders(tmp_path):
    data = tmp_path / "data"
    write(
        data,
        "grease_traps/t.csv",
        """
        trap_id,user_id,parcel_id,establishment,address,pumpout_interval_days,set_on
        GT-1,IU-1,,Main Street Diner,112 Main St,90,2026-01-01
        GT-1,IU-1,,Main Street Diner,112 Main St,60,2026-03-01
        GT-2,,P-7,Golden Wok,27 Jericho Tpke,30,2026-05-01
        GT-3,,,Nobody's Trap,,30,2026-01-01
        GT-4,,P-8,Future Cafe,,30,2026-09-01
        """,
    )
    write(
        data,
        "pumpouts/p.csv",
        """
        trap_id,pumped_on,hauler,invoice_no
        GT-1,2026-03-15,Acme Septic,INV-1
        GT-1,2026-04-29,Acme Septic,
        GT-2,2026-06-20,Acme Septic,INV-9
        """,
    )
    run(tmp_path, data, [*ENFORCEMENT_INGEST, enf.grease_trap_status])
    status = rows(
        tmp_path,
        "SELECT trap_id, pumpout_interval_days, last_pumped_on, next_due, status, days_overdue, "
        "pumpouts_without_invoice FROM grease_trap_status ORDER BY trap_id",
    )
    assert status == [
        ("GT-1", 60, D(2026, 4, 29), D(2026, 6, 28), "overdue", 2, 1),
        ("GT-2", 30, D(2026, 6, 20), D(2026, 7, 20), "current", 0, 0),
    ]
    orders = rows(
        tmp_path,
        "SELECT order_id, trap_id, missed_due, issued_on, comply_by, status, period, letter_file "
        "FROM grease_orders",
    )
    # a draft (contract 7.3): numbered by the trap and the missed pump-out, not dated, no day to comply
    assert orders == [
        (
            "GO-GT-1-20260628",
            "GT-1",
            D(2026, 6, 28),
            None,
            None,
            "draft",
            "2026-06",
            "sewer_grease_order_GO-GT-1-20260628.html",
        )
    ]
    letter = (letters(tmp_path) / orders[0][7]).read_text()
    assert "once every\n60 days" in letter or "once every 60 days" in letter
    assert "receipted invoices" in letter and "DRAFT" in letter
    assert "§ 253-55" in letter and "imprisonment not exceeding 15 days" in letter  # the penalty whole
    assert rows(tmp_path, "SELECT reason FROM quarantine WHERE dataset = 'grease_traps'") == [
        ("a grease trap needs user_id or parcel_id (whose premises it serves)",)
    ]


def test_a_mailed_grease_order_is_dated_recorded_and_never_rewritten(tmp_path):
    from assets import records

    data = tmp_path / "data"
    write(
        data,
        "grease_traps/t.csv",
        """
        trap_id,user_id,parcel_id,establishment,address,pumpout_interval_days,set_on
        GT-1,,P-1,Main Street Diner,112 Main St,60,2026-03-01
        """,
    )
    write(data, "pumpouts/p.csv", "trap_id,pumped_on,hauler,invoice_no\nGT-1,2026-04-29,Acme Septic,INV-1\n")
    write(
        data,
        "notices_mailed/m.csv",
        "kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days\n"
        "grease_order,GT-1,2026-06,2026-07-02,7019 0001,30\n",
    )
    chain = [*ENFORCEMENT_INGEST, ingest_asset("notices_mailed"), enf.grease_trap_status]
    chain += [records.letters, records.documents_issued]
    run(tmp_path, data, chain, as_of="2026-07-10")
    got = rows(tmp_path, "SELECT order_id, issued_on, comply_by, status FROM grease_orders")
    # July 2 + the 30 days the administrator gave (contract 8.4: from the record, the law's 30 a ceiling,
    # never a default) = Saturday August 1: the period ends Monday August 3 (GCL § 25-a)
    assert got == [("GO-GT-1-20260628", D(2026, 7, 2), D(2026, 8, 3), "mailed")]
    assert rows(
        tmp_path,
        "SELECT document_id, letter_kind, recipient_id, documents_issued.period, recorded "
        "FROM documents_issued "
        "JOIN letters USING (document_id, letter_kind, recipient_id)",
    ) == [("GO-GT-1-20260628", "grease_order", "GT-1", "2026-06", True)]
    path = letters(tmp_path) / "sewer_grease_order_GO-GT-1-20260628.html"
    first = path.read_bytes()
    text = " ".join(first.decode().split())
    # contract 8.4 (instead of 6.2's days from the date): the order prints its comply-by day
    assert "by August 3, 2026, 30 days from the date of this order" in text
    assert "§ 25-a" in text and "DRAFT" not in text
    # later data and a later day: the trap pumped, the order stays as mailed, byte for byte
    write(data, "pumpouts/q.csv", "trap_id,pumped_on,hauler,invoice_no\nGT-1,2026-07-20,Acme Septic,INV-2\n")
    run(tmp_path, data, chain, as_of="2026-08-15")
    assert path.read_bytes() == first
    assert rows(tmp_path, "SELECT order_id, issued_on, comply_by, status FROM grease_orders") == got
    assert rows(tmp_path, "SELECT count(*) FROM documents_issued") == [(1,)]


# ---------------------------------------------------------- input folders


def test_reports_folder_quarantines_bad_rows(tmp_path):
    data = tmp_path / "data"
    write(
        data,
        "reports/r.csv",
        """
        user_id,report_type,period_start,period_end,due_date,received_on
        U1,periodic,2026-01-01,2026-06-30,2026-07-31,
        U1,periodic,2026-01-01,2026-06-30,,
        U2,quarterly gossip,,,2026-07-31,
        U3,periodic,2026-06-30,2026-01-01,2026-07-31,
        """,
    )
    run(tmp_path, data, [*ENFORCEMENT_INGEST])
    reasons = [
        r[0]
        for r in rows(tmp_path, "SELECT reason FROM quarantine WHERE dataset = 'reports' ORDER BY row_number")
    ]
    assert len(reasons) == 3
    assert "needs its due_date" in reasons[0]
    assert "report_type 'quarterly gossip' is not one of" in reasons[1]
    assert "period_end is before period_start" in reasons[2]
    assert rows(tmp_path, "SELECT count(*) FROM reports") == [(1,)]


# ------------------------------------------------- with the sewer core's assets


def test_end_to_end_with_the_compliance_core(tmp_path):
    from assets import ingest
    from assets.sewer import compliance as sewer

    data = small_town(tmp_path / "data")
    selected = list(ingest.ingest_assets)
    run(
        tmp_path,
        data,
        [
            *selected,
            sewer.discharge_violations,
            *ENFORCEMENT_INGEST,
            enf.sewer_notices,
            enf.snc_determinations,
            enf.obligations,
        ],
    )
    violations = rows(tmp_path, "SELECT count(*) FROM discharge_violations")[0][0]
    assert violations > 0
    assert rows(tmp_path, "SELECT count(*) FROM sewer_notices") == [(violations,)]
    # IU-1 BOD: 240 complies, 240.01 breaks; 1 of 2 = 50%: not chronic. pH 5.49: 1 of 1 chronic.
    snc = rows(
        tmp_path,
        "SELECT user_id, parameter, criterion, measurements, count FROM snc_determinations "
        "WHERE user_id = 'IU-1' ORDER BY parameter",
    )
    assert ("IU-1", "pH", "chronic", 1, 1) in snc
    assert not any(r[1] == "BOD" for r in snc)


# ------------------------------------------------ whose law a duty rests on (contract 7.1)

ADOPTED_SELF_MONITORING = """      law: pretreatment
      adopted_by: "Permit condition 12 of every industrial user permit (test)"
"""


def rules_adopting_self_monitoring(tmp_path: Path) -> str:
    folder = tmp_path / "rules"
    shutil.copytree(RULES_DIR, folder)
    text = (folder / "woodbury.yaml").read_text()
    marker = "      resample_days: 30\n      law: pretreatment\n"
    assert text.count(marker) == 1
    (folder / "woodbury.yaml").write_text(
        text.replace(marker, "      resample_days: 30\n" + ADOPTED_SELF_MONITORING, 1)
    )
    return str(folder)


def _self_monitoring_town(tmp_path: Path) -> Path:
    con = open_warehouse(tmp_path / "w.duckdb")
    insert_evaluations(con, ev_rows("IU-1", "SM-1", "BOD", D(2026, 3, 2), 300, 240))
    insert_lab(con, [("SM-1", "IU-1", D(2026, 3, 2), "composite", "BOD", 300.0, False, "Suffolk")])
    con.execute(
        "INSERT INTO discharge_violations (user_id, sample_id, parameter, collected_at, value, unit, "
        "limit_value, limit_type, rule) VALUES ('IU-1', 'SM-1', 'BOD', TIMESTAMPTZ '2026-03-02 09:00:00-05', "
        "300, 'mg/L', 240, 'max', 'Woodbury Code ch. 253 Part 2, BOD')"
    )
    con.execute(
        "INSERT INTO industrial_users (user_id, name, district, address, city, state, zip) VALUES "
        "('IU-1', 'Acme', 'consolidated', '1 Mill Rd', 'Central Valley', 'NY', '10917')"
    )
    con.close()
    return tmp_path / "data"


@pytest.mark.parametrize("adopted", [False, True])
def test_a_federal_duty_is_an_item_of_a_notice_only_where_the_rules_adopt_it(tmp_path, adopted):
    from assets.notices import notices

    data = _self_monitoring_town(tmp_path)
    rules_dir = rules_adopting_self_monitoring(tmp_path) if adopted else ""
    run(tmp_path, data, [*ENFORCEMENT_INGEST, enf.obligations, notices], rules_dir=rules_dir)
    # on the user's record either way: the 24-hour notice and the resample, with their law
    assert rows(tmp_path, "SELECT obligation, status, law, adopted FROM obligations ORDER BY 1") == [
        ("resample_30d", "overdue", "40 CFR Part 403", adopted),
        ("violation_notice_24h", "overdue", "40 CFR Part 403", adopted),
    ]
    items = rows(tmp_path, "SELECT item, law FROM notice_items WHERE period = '2026-03' ORDER BY item, ref")
    counts = rows(tmp_path, "SELECT violations FROM notices WHERE period = '2026-03'")
    letter = (tmp_path / "dash" / "letters" / "sewer" / "notice_IU-1_2026-03.html").read_text()
    letter = " ".join(letter.split())
    if adopted:
        assert items == [
            ("late_report", "40 CFR Part 403"),
            ("sample", "Woodbury Code ch. 253 Part 2"),
        ]
        # the 24-hour notice is due March 3 (a March item); the resample April 1 (April's notice)
        assert counts == [(2,)]
        assert "1 violation of Woodbury Code ch. 253 Part 2 and 1 violation of 40 CFR Part 403" in letter
    else:
        # never a violation in a letter or a count of violations (the demo's rules adopt none)
        assert items == [("sample", "Woodbury Code ch. 253 Part 2")]
        assert counts == [(1,)]
        assert "has found 1 violation of Woodbury Code ch. 253 Part 2 by your premises" in letter
        assert "40 CFR" not in letter
