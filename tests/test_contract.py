"""`outfall run` on the small town, every contract output checked against answers
worked out by hand from the contract's readings (section 4), not from the code.

The fixture (tests/conftest.py small_town) draws the law's boundaries:
BOD 240 vs 240.01, pH 5.49, 65.5 degC (149.9 degF, under 150), a special
agreement before/after its end date, a non-detect above its limit, a metal
with no limit, 8 in x 1 mile at 1600 vs 1601 gpd, 3.0 vs 3.01 acres, 51 seats,
a rate of x.xx5, moratorium, 0.49 vs 0.50 in of rain, a weekly inspection
8 days after the previous one, and a Bellport single-family site.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from tests.conftest import query_warehouse as query, run_cli, small_town

pytestmark = pytest.mark.slow  # `outfall run` end to end on contract folders

D = dt.date


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("contract")
    data = small_town(root / "data")
    db = root / "w.duckdb"
    result = run_cli("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-06-30")
    assert result.returncode == 0, result.stderr
    return db


def test_discharge_violations(warehouse):
    rows = query(
        warehouse,
        "SELECT user_id, sample_id, parameter, value, unit, limit_value, limit_type "
        "FROM discharge_violations ORDER BY sample_id",
    )
    assert rows == [
        ("IU-1", "S-2", "BOD", 240.01, "mg/L", 240.0, "max"),  # 240 is not "in excess of" 240
        ("IU-1", "S-3", "pH", 5.49, "s.u.", 5.5, "min"),  # pH lower than 5.5
        ("IU-2", "S-6", "BOD", 350.0, "mg/L", 240.0, "max"),  # the agreement (400) ended 2026-05-31
    ]
    rules = query(warehouse, "SELECT DISTINCT rule FROM discharge_violations")
    assert all(r[0] and "253" in r[0] for r in rules)
    # S-5 (350 under the agreement's 400), S-4 (65.5 degC = 149.9 degF), S-7 (<400 TSS), S-8 (copper): none
    collected = query(warehouse, "SELECT collected_at FROM discharge_violations WHERE sample_id = 'S-2'")[0][
        0
    ]
    assert collected.astimezone(dt.UTC) == dt.datetime(2026, 2, 3, 14, 0, tzinfo=dt.UTC)


def test_a_non_detect_above_its_limit_is_not_a_violation(warehouse):
    assert query(warehouse, "SELECT count(*) FROM discharge_violations WHERE sample_id = 'S-7'") == [(0,)]
    assert query(warehouse, "SELECT sample_id, parameter FROM inconclusive_results") == [("S-7", "TSS")]


def test_infiltration_results(warehouse):
    rows = query(
        warehouse,
        "SELECT section_id, test_date, allowable_gpd, measured_gpd, gpimd, passes "
        "FROM infiltration_results ORDER BY section_id",
    )
    assert rows == [
        ("MH1-MH2", D(2026, 5, 1), 1600.0, 1600.0, 200.0, True),
        ("MH2-MH3", D(2026, 5, 1), 1600.0, 1601.0, 200.125, False),
    ]


def test_sewer_bills(warehouse):
    rows = query(
        warehouse,
        "SELECT year, parcel_id, district, property_class, units_bond, units_om, "
        "units_street_lateral, units_house_lateral, amount_bond, amount_om, "
        "amount_street_lateral, amount_house_lateral, total_usd FROM sewer_bills "
        "ORDER BY parcel_id",
    )
    assert rows == [
        # 3.0 acres: 1 full unit; om 50.005 rounds half-up to 50.01
        (
            2026,
            "P-1",
            "consolidated",
            "single_family",
            1,
            1,
            1,
            1,
            Decimal("100.00"),
            Decimal("50.01"),
            Decimal("10.00"),
            Decimal("5.00"),
            Decimal("165.01"),
        ),
        # 51 seats: 5 full units; 5 x 50.005 = 250.025 -> 250.03
        (
            2026,
            "P-2",
            "consolidated",
            "restaurant",
            5,
            5,
            5,
            5,
            Decimal("500.00"),
            Decimal("250.03"),
            Decimal("50.00"),
            Decimal("25.00"),
            Decimal("825.03"),
        ),
        # 3.01 acres: bond ceil(3.01 / 2) = 2; moratorium: no O&M
        (
            2026,
            "P-3",
            "district_1",
            "single_family",
            2,
            0,
            1,
            1,
            Decimal("240.00"),
            Decimal("0.00"),
            Decimal("12.00"),
            Decimal("6.00"),
            Decimal("258.00"),
        ),
    ]
    # P-4, a restaurant with no seats, is quarantined, not billed by guess
    assert query(
        warehouse,
        "SELECT count(*) FROM quarantine WHERE dataset = 'parcels' AND reason LIKE "
        "'restaurant parcel has no seats%'",
    ) == [(1,)]


def test_swppp_inspection_findings(warehouse):
    rows = query(
        warehouse,
        "SELECT site_id, requirement, trigger_date, due_by, satisfied_on, status "
        "FROM swppp_inspection_findings ORDER BY requirement, trigger_date",
    )
    assert rows == [
        # 0.50 in on 05-12 needs an inspection on 05-12 or 05-13; the next is 05-16 (0.49 on 05-10 needs none)
        ("W-1", "storm", D(2026, 5, 12), D(2026, 5, 13), D(2026, 5, 16), "late"),
        # 05-08 + 7 = 05-15; inspected 05-16
        ("W-1", "weekly", D(2026, 5, 8), D(2026, 5, 15), D(2026, 5, 16), "late"),
        # 05-16 + 7 = 05-23; nothing since, as of 06-30
        ("W-1", "weekly", D(2026, 5, 16), D(2026, 5, 23), None, "overdue"),
    ]
    # B-1: Bellport, 2 acres, single-family: no Condition A, B or C, no inspections required


def test_slug_events_none_at_permit_flow(warehouse):
    # IU-1 runs at 10 gpm, its permit's 14,400 gpd: nothing is five times the baseline
    assert query(warehouse, "SELECT count(*) FROM slug_events") == [(0,)]


def test_snc_determinations(warehouse):
    rows = query(
        warehouse,
        "SELECT user_id, period_start, period_end, parameter, criterion, measurements, "
        "count, pct FROM snc_determinations ORDER BY user_id, parameter, criterion",
    )
    assert rows == [
        # one pH measurement, below 5.5: chronic (pH counts as chronic, never as TRC)
        ("IU-1", D(2026, 1, 1), D(2026, 6, 30), "pH", "chronic", 1, 1, 100.0),
        # BOD: S-5 350 vs the agreement's 400 (no), S-6 350 >= 240 x 1.4 = 336 (yes): 1 of 2 = 50% >= 33%
        ("IU-2", D(2026, 1, 1), D(2026, 6, 30), "BOD", "trc", 2, 1, 50.0),
    ]
    # IU-1 BOD: 1 of 2 exceed (50% < 66%), 240.01 < 336: neither chronic nor TRC


def test_quarantine_names_dataset_file_row_and_reason(warehouse):
    rows = query(
        warehouse, "SELECT dataset, source_file, row_number, reason FROM quarantine ORDER BY dataset"
    )
    assert (
        "lab_results",
        "q1.csv",
        9,
        "unit 'furlongs' is not a concentration unit (mg/L, ug/L) for BOD",
    ) in rows
    assert (
        "parcels",
        "parcels.csv",
        4,
        "restaurant parcel has no seats; its sewer units depend on it (ch. 253 Part 3): fill in seats",
    ) in rows


def test_slug_duration_is_not_stretched_by_a_missing_reading(tmp_path):
    """Regression: a day of 15-minute readings with one missing reading kept its
    usual interval at 15 minutes (it was read as 15.16, making a 2-reading slug 31 min)."""
    data = tmp_path / "data"
    (data / "industrial_users").mkdir(parents=True)
    (data / "industrial_users" / "u.csv").write_text(
        "user_id,name,district,normal_avg_flow_gpd\nIU-9,Dairy,consolidated,1440\n"
    )
    high = {"10:00", "10:15", "14:00", "16:00", "16:15", "16:45"}
    lines = ["user_id,timestamp,value,unit"]
    for i in range(96):
        hhmm = f"{i * 15 // 60:02d}:{i * 15 % 60:02d}"
        if hhmm in ("03:00", "16:30"):
            continue  # missing readings; 16:30 splits the afternoon run
        lines.append(f"IU-9,2026-05-01T{hhmm},{6.0 if hhmm in high else 1.0},gpm")
    (data / "flow").mkdir()
    (data / "flow" / "f.csv").write_text("\n".join(lines) + "\n")
    db = tmp_path / "w.duckdb"
    result = run_cli("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-06-30")
    assert result.returncode == 0, result.stderr
    rows = query(
        db,
        "SELECT strftime(start_at AT TIME ZONE 'America/New_York', '%H:%M'), duration_min, "
        "baseline, peak_value, peak_ratio FROM slug_events ORDER BY start_at",
    )
    # 10:00-10:15: 15 + 15 = 30 min (slug); 14:00 alone: 15 min (not longer than 15);
    # 16:00-16:15: 30 min (slug); 16:45 after a 30-minute gap (> 1.5 x 15) alone: not a slug
    assert rows == [("10:00", 30, 1.0, 6.0, 6.0), ("16:00", 30, 1.0, 6.0, 6.0)]
