"""The surcharges asset (assets/sewer/surcharges.py) materialized in process on small fixtures: pounds
and samples, a rate adopted or not and from a date, and contract 8.8's thresholds that are not limits,
rates set elsewhere and flow triggers run over, not at, their threshold. The fixtures and helpers are
tests/test_assets_enforcement.py's."""

from __future__ import annotations

import datetime as dt
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from assets.sewer import surcharges as sur
from outfall.paths import RULES_DIR
from tests.test_assets_enforcement import (
    D,
    insert_lab,
    insert_users,
    open_warehouse,
    rows,
    run,
)

# ------------------------------------------------------------------ surcharges


# No Town Board has adopted a surcharge rate: these are a test's own.
TEST_RATES = """  rates:
    - {parameter: BOD, usd_per_lb: 0.35, adopted_by: "Test Resolution 1", citation: "test",
       effective_from: 2026-01-01}
    - {parameter: TSS, usd_per_lb: 0.30, adopted_by: "Test Resolution 1", citation: "test",
       effective_from: 2026-01-01}
"""


def rules_with_rates(tmp_path: Path, rates: str = TEST_RATES) -> str:
    folder = tmp_path / "rules"
    shutil.copytree(RULES_DIR, folder)
    text = (folder / "woodbury.yaml").read_text()
    assert text.count("  rates: []\n") == 1
    (folder / "woodbury.yaml").write_text(text.replace("  rates: []\n", rates))
    return str(folder)


def surcharge_fixture(tmp_path: Path) -> None:
    con = open_warehouse(tmp_path / "w.duckdb")
    insert_users(
        con,
        [
            ("METER", "Metered Dairy", None, "P-M", None, 99999.0),
            ("PERMIT", "Permit Bakery", None, "P-P", None, 14400.0),
            ("NOFLOW", "Unknown Flow", None, None, None, None),
        ],
    )
    insert_lab(
        con,
        [
            ("M-1", "METER", D(2026, 6, 3), "composite", "BOD", 300.0, False, "L"),
            ("M-2", "METER", D(2026, 6, 17), "composite", "BOD", 380.0, False, "L"),
            ("M-3", "METER", D(2026, 6, 17), "grab", "BOD", 900.0, False, "L"),  # composites exist: unused
            ("M-1", "METER", D(2026, 6, 3), "composite", "TSS", 250.0, False, "L"),  # below 300: zero
            ("P-1", "PERMIT", D(2026, 6, 3), "grab", "BOD", 340.0, False, "L"),
            ("N-1", "NOFLOW", D(2026, 6, 3), "composite", "BOD", 340.0, False, "L"),
            ("M-9", "METER", D(2026, 7, 3), "composite", "BOD", 999.0, False, "L"),  # after --as-of
        ],
    )
    # June 1..30 local, 100 gpm at 00:00 and 200 gpm at 12:00 each day -> time-weighted mean 150 gpm
    readings = []
    tz = dt.timezone(dt.timedelta(hours=-4))
    for day in range(1, 31):
        readings.append(("METER", dt.datetime(2026, 6, day, 0, 0, tzinfo=tz), 150.0))
        readings.append(("METER", dt.datetime(2026, 6, day, 12, 0, tzinfo=tz), 150.0))
    con.executemany(
        "INSERT INTO flow (user_id, constituent, ts, value, unit) VALUES (?, 'flow', ?, ?, 'gpm')", readings
    )
    con.close()


def test_surcharges_pounds_and_samples(tmp_path):
    surcharge_fixture(tmp_path)
    run(tmp_path, assets=[sur.surcharges], rules_dir=rules_with_rates(tmp_path))
    got = {
        (r[0], r[1]): r[2:]
        for r in rows(
            tmp_path,
            "SELECT user_id, parameter, period_start, samples, concentration_mgl, flow_source, flow_mg, "
            "pounds, amount_usd, period_closed FROM surcharges",
        )
    }
    # 150 gpm x 43,200 min = 6.48 MG; x 8.34 x (340 - 240) = 5404.32 lb; x $0.35 = $1,891.51
    m = got[("METER", "BOD")]
    assert m[:4] == (D(2026, 6, 1), 2, 340.0, "meter")
    assert m[4] == pytest.approx(6.48) and m[5] == pytest.approx(5404.32)
    assert m[6] == Decimal("1891.51") and m[7] is False
    assert got[("METER", "TSS")][5:7] == (0.0, Decimal("0.00"))
    p = got[("PERMIT", "BOD")]
    assert (
        p[3] == "permit" and p[4] == pytest.approx(0.432) and p[6] == Decimal("126.10")
    )  # 360.288 lb x 0.35
    assert got[("NOFLOW", "BOD")][3:7] == ("none", None, None, None)
    used = rows(
        tmp_path,
        "SELECT sample_id FROM surcharge_samples WHERE user_id = 'METER' AND parameter = 'BOD' "
        "ORDER BY sample_id",
    )
    assert used == [("M-1",), ("M-2",)]
    texts = rows(tmp_path, "SELECT DISTINCT rule FROM surcharges")
    assert len(texts) == 1 and "rate per pound adopted by Test Resolution 1" in texts[0][0]


def test_surcharges_without_an_adopted_rate_report_pounds_and_no_amount(tmp_path):
    # The shipped rules adopt no rate: the pounds are still computed, the amount is not invented.
    surcharge_fixture(tmp_path)
    run(tmp_path, assets=[sur.surcharges])
    got = {
        (r[0], r[1]): r[2:]
        for r in rows(
            tmp_path, "SELECT user_id, parameter, pounds, rate_usd_per_lb, amount_usd, rule FROM surcharges"
        )
    }
    pounds, rate, amount, rule = got[("METER", "BOD")]
    assert pounds == pytest.approx(5404.32) and rate is None and amount is None
    assert "no rate per pound adopted by the Town Board" in rule
    assert all(r[2] is None for r in got.values())


def test_surcharge_rate_adopted_from_a_date_prices_only_months_from_then(tmp_path):
    surcharge_fixture(tmp_path)
    later = TEST_RATES.replace("effective_from: 2026-01-01", "effective_from: 2026-07-01")
    run(tmp_path, assets=[sur.surcharges], rules_dir=rules_with_rates(tmp_path, later), as_of="2026-07-31")
    got = {
        (r[0], r[1], r[2]): r[3:]
        for r in rows(tmp_path, "SELECT user_id, parameter, period_start, pounds, amount_usd FROM surcharges")
    }
    assert got[("METER", "BOD", D(2026, 6, 1))][1] is None  # June: before the rate took effect
    assert got[("METER", "BOD", D(2026, 7, 1))][1] is not None  # July: priced


# ------------------------------------------------ contract 8.8: thresholds, set elsewhere, flow


#: The model town's rules with a test's own surcharge threshold of BOD (200 mg/L, under the 240 limit).
TEST_THRESHOLD = """  thresholds:
    - {parameter: BOD, value: 200, unit: mg/L, citation: "test threshold", effective_from: null}
  rates: []
"""


def test_a_surcharge_threshold_is_not_a_limit(tmp_path):
    from assets.sewer import compliance

    surcharge_fixture(tmp_path)
    con = open_warehouse(tmp_path / "w.duckdb")
    insert_users(con, [("MID", "Middle Strength", None, "P-X", None, 14400.0)])
    # 220 mg/L: above the surcharge threshold (200), under the limit (240)
    insert_lab(con, [("X-1", "MID", D(2026, 6, 5), "composite", "BOD", 220.0, False, "L")])
    con.close()
    rules = rules_with_rates(tmp_path, TEST_THRESHOLD)
    run(tmp_path, assets=[compliance.discharge_violations, sur.surcharges], rules_dir=rules)
    (mid,) = rows(tmp_path, "SELECT pounds, limit_mgl, threshold_kind FROM surcharges WHERE user_id = 'MID'")
    # 14,400 gpd x 30 days = 0.432 MG x 8.34 x (220 - 200) = 72.0576 lb: surcharged from the threshold ...
    assert mid[0] == pytest.approx(0.432 * 8.34 * 20) and mid[1:] == (200.0, "surcharge threshold")
    # ... and never a violation: under every limit
    assert rows(tmp_path, "SELECT count(*) FROM discharge_violations WHERE user_id = 'MID'") == [(0,)]
    # above the limit too (340 mg/L): a violation of the limit, and surcharged from the threshold
    meter = rows(tmp_path, "SELECT pounds FROM surcharges WHERE user_id = 'METER' AND parameter = 'BOD'")
    assert meter[0][0] == pytest.approx(6.48 * 8.34 * 140)
    assert rows(tmp_path, "SELECT count(*) FROM discharge_violations WHERE user_id = 'METER'") != [(0,)]


def test_a_rate_set_elsewhere_is_reported_as_set_there_never_as_zero(tmp_path):
    surcharge_fixture(tmp_path)
    elsewhere = """  rates:
    - {parameter: BOD, usd_per_lb: {set_by: "Appendix A"}, citation: "test (C)", effective_from: null}
"""
    run(tmp_path, assets=[sur.surcharges], rules_dir=rules_with_rates(tmp_path, elsewhere))
    got = rows(
        tmp_path,
        "SELECT pounds, rate_usd_per_lb, amount_usd, amount_set_by, rule FROM surcharges "
        "WHERE user_id = 'METER' AND parameter = 'BOD'",
    )
    pounds, rate, amount, set_by, rule = got[0]
    assert pounds == pytest.approx(5404.32) and rate is None and amount is None
    assert set_by == "set by Appendix A" and "rate per pound set by Appendix A" in rule


@pytest.mark.parametrize(("above_gpd", "gallons"), [(216000, None), (215999, 30.0)])
def test_a_flow_surcharge_runs_over_its_threshold_not_at_it(tmp_path, above_gpd, gallons):
    # METER's June: 150 gpm x 43,200 minutes = 6,480,000 gallons = 216,000 gallons a day
    surcharge_fixture(tmp_path)
    flow = f"""  rates: []
  per_flow:
    - {{above_gpd: {above_gpd}, usd: "2.00", per_gallons: 1000, charged_on: gallons_over,
       citation: "test flow surcharge", effective_from: null}}
"""
    run(tmp_path, assets=[sur.surcharges], rules_dir=rules_with_rates(tmp_path, flow))
    got = rows(
        tmp_path,
        "SELECT average_gpd, gallons_charged, amount_usd FROM surcharges "
        "WHERE kind = 'flow' AND user_id = 'METER'",
    )
    if gallons is None:  # exactly at the threshold: not over it
        assert got == []
    else:  # one gallon a day over for 30 days: 30 gallons x $2.00 / 1,000 = $0.06
        assert got[0][0] == pytest.approx(216000) and got[0][1] == pytest.approx(gallons)
        assert got[0][2] == Decimal("0.06")
