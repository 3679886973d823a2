"""Significant noncompliance counts average limits too (contract 5.2): per user, parameter and half-year,
per-sample results, judged daily maximums and judged monthly averages are three sets of measurements; a
criterion met in any of them is a row, with `basis` and the counts of the set that meets it (the highest
pct; a tie: sample, daily_max, monthly_avg). Worked by hand in the comments."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from types import SimpleNamespace

import pytest

from assets.ingest import ingest_asset
from assets.sewer import compliance, enforcement as enf
from outfall.law.enforcement import Criterion
from tests.conftest import materialize_town, query_warehouse as rows, write

D = dt.date
ASSETS = [ingest_asset(n) for n in ("industrial_users", "permit_limits", "lab_results", "reports")] + [
    compliance.discharge_violations,
    compliance.statistic_violations,
    enf.snc_determinations,
    enf.check_validity_snc_determinations_pct,
]
SNC = SimpleNamespace(
    chronic_pct=66,
    trc_pct=33,
    trc_factor_default=1.2,
    trc_factor_by_parameter={"BOD": 1.4},
    trc_excluded_parameters=["pH"],
)  # a version of the rules' snc section

USERS = """
user_id,name,district,address,permit_no,permit_effective,permit_expires,normal_avg_flow_gpd
U-1,Monthly Avg Works,consolidated,1 A St,P-1,2020-01-01,2030-01-01,
U-2,Tie Works,consolidated,2 B St,P-2,2020-01-01,2030-01-01,
U-3,Limit Ends Works,consolidated,3 C St,P-3,2020-01-01,2030-01-01,
"""
LIMITS = """
user_id,parameter,limit_type,value,unit,basis,effective_from,effective_to
U-1,BOD,monthly_avg,30,mg/L,Permit P-1 monthly average,2020-01-01,
U-2,COD,daily_max,600,mg/L,Permit P-2 daily maximum,2020-01-01,
U-3,TSS,monthly_avg,100,mg/L,Permit P-3 monthly average,2020-01-01,2026-03-15
"""
# U-1: one BOD composite a month, January-June 2026, each far under the Part 2 limit of 240, with monthly
# means 40, 35, 20, 50, 45, 60 against a monthly average limit of 30.
# U-2: COD 700, 700, 500 on three days: against Part 2 (600 a sample) and the daily maximum (600) alike.
# U-3: TSS 150 in February and in March; the monthly average limit ended on March 15.
LAB = (
    "sample_id,user_id,collected_at,sample_type,parameter,result,unit\n"
    + "\n".join(
        [
            f"S1-{m},U-1,2026-{m:02d}-10T09:00,composite,BOD,{v},mg/L"
            for m, v in zip(range(1, 7), (40, 35, 20, 50, 45, 60))
        ]
        + [
            f"S2-{i},U-2,2026-04-{10 + i:02d}T09:00,composite,COD,{v},mg/L"
            for i, v in enumerate((700, 700, 500))
        ]
        + [
            "S3-1,U-3,2026-02-10T09:00,composite,TSS,150,mg/L",
            "S3-2,U-3,2026-03-10T09:00,composite,TSS,150,mg/L",
        ]
    )
    + "\n"
)


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("snc")
    data = tmp / "data"
    write(data, "industrial_users/u.csv", USERS)
    write(data, "permit_limits/l.csv", LIMITS)
    write(data, "lab_results/r.csv", LAB)
    wh = tmp / "w.duckdb"
    result = materialize_town(ASSETS, data, wh, "2026-11-30")
    assert all(c.passed for c in result.get_asset_check_evaluations())
    return wh


def test_monthly_averages_make_a_user_chronic_and_trc(warehouse):
    got = rows(
        warehouse,
        "SELECT user_id, parameter, period_start, period_end, criterion, basis, measurements, "
        "count, round(pct, 4) FROM snc_determinations WHERE user_id = 'U-1' ORDER BY criterion",
    )
    assert got == [
        # 5 of the 6 monthly averages are above 30: 83.33% >= 66%
        ("U-1", "BOD", D(2026, 1, 1), D(2026, 6, 30), "chronic", "monthly_avg", 6, 5, 83.3333),
        # at or above 30 x 1.4 = 42: 50, 45, 60 = 3 of 6 = 50% >= 33%
        ("U-1", "BOD", D(2026, 1, 1), D(2026, 6, 30), "trc", "monthly_avg", 6, 3, 50.0),
    ]
    # however many single samples stayed under the Part 2 limit: the per-sample set met nothing
    assert rows(
        warehouse,
        "SELECT basis, measurements, violations, trc_results, chronic, trc FROM snc_evaluations "
        "WHERE user_id = 'U-1' ORDER BY basis",
    ) == [("monthly_avg", 6, 5, 3, True, True), ("sample", 6, 0, 0, False, False)]


def test_a_tie_goes_to_the_per_sample_set(warehouse):
    # 2 of 3 samples above 600 and 2 of 3 daily maximums above 600: 66.67% both; the per-sample set is named
    assert rows(
        warehouse,
        "SELECT criterion, basis, measurements, count FROM snc_determinations WHERE user_id = 'U-2'",
    ) == [("chronic", "sample", 3, 2)]
    assert rows(
        warehouse,
        "SELECT basis, measurements, violations FROM snc_evaluations WHERE user_id = 'U-2' ORDER BY basis",
    ) == [("daily_max", 3, 2), ("sample", 3, 2)]


def test_a_month_is_judged_by_the_limit_in_effect_on_its_last_day(warehouse):
    # February (limit in effect on the 28th) is judged; March is not (the limit ended on the 15th)
    assert rows(
        warehouse,
        "SELECT period_start, value, limit_value, passes FROM statistic_results WHERE user_id = 'U-3'",
    ) == [(D(2026, 2, 1), 150.0, 100.0, False)]
    # one monthly average, above its limit: 1 of 1 = 100%, chronic; 150 >= 100 x 1.2: TRC
    assert rows(
        warehouse,
        "SELECT criterion, basis, measurements, count FROM snc_determinations "
        "WHERE user_id = 'U-3' ORDER BY criterion",
    ) == [("chronic", "monthly_avg", 1, 1), ("trc", "monthly_avg", 1, 1)]


def test_basis_column_and_late_reports_have_none(warehouse):
    cols = [
        r[0]
        for r in rows(
            warehouse,
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = 'snc_determinations' ORDER BY ordinal_position",
        )
    ]
    assert {
        "user_id",
        "period_start",
        "period_end",
        "parameter",
        "criterion",
        "measurements",
        "count",
        "pct",
        "basis",
    } <= set(cols)
    assert {r[0] for r in rows(warehouse, "SELECT DISTINCT basis FROM snc_determinations")} <= {
        "sample",
        "daily_max",
        "monthly_avg",
    }


def test_choose_basis_highest_pct_then_order():
    c = lambda n, m: Criterion("chronic", m, n, 100.0 * n / m)  # noqa: E731
    assert enf.choose_basis({"sample": [c(2, 3)], "monthly_avg": [c(5, 6)]}, "chronic")[0] == "monthly_avg"
    assert enf.choose_basis({"monthly_avg": [c(4, 6)], "daily_max": [c(2, 3)]}, "chronic")[0] == "daily_max"
    assert (
        enf.choose_basis({"monthly_avg": [c(4, 6)], "sample": [c(2, 3)], "daily_max": [c(6, 9)]}, "chronic")[
            0
        ]
        == "sample"
    )
    assert enf.choose_basis({"sample": [c(2, 3)]}, "trc") is None


def test_statistic_counts_trc_excluded_for_ph():
    assert enf.statistic_counts("pH", [(5.0, 6.0, False), (7.0, 6.0, True)], SNC) == (2, 1, None)
    # 42 = 30 x 1.4 reaches TRC; 41.99 does not
    assert enf.statistic_counts("BOD", [(42.0, 30.0, False), (41.99, 30.0, False)], SNC) == (2, 2, 1)
