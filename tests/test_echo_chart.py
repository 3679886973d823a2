"""The real EPA ECHO effluent chart of TX0119407 (data/real/echo_effluent_chart_TX0119407.csv) through the
documented inputs (outfall.demo.echo) and the pipeline's own assets: the monthly-average violations are the
ones EPA flagged (E90), and July-December 2021 is significant noncompliance for carbonaceous BOD, chronic and
TRC, on the monthly averages (contract 5.2)."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest

from assets.ingest import ingest_asset
from assets.sewer import compliance, enforcement as enf
from outfall.demo import echo
from outfall.demo.real import LAB_COLUMNS, REAL_DIR
from tests.conftest import materialize_town, query_warehouse as rows

D = dt.date


def _chart_rows() -> list[dict]:
    with open(REAL_DIR / echo.ECHO_FILE, newline="") as fh:
        return list(csv.DictReader(fh))


def test_adapter_writes_the_contract_columns_and_the_reported_values():
    inputs = echo.echo_inputs()
    assert list(inputs["lab_results"].columns) == LAB_COLUMNS
    assert list(inputs["permit_limits"].columns) == echo.LIMIT_COLUMNS
    assert list(inputs["industrial_users"].columns) == echo.USER_COLUMNS
    lab = inputs["lab_results"]
    # 40 monthly reports x (CBOD, TSS, ammonia monthly averages + pH minimum and maximum)
    assert len(lab) == 200 and lab["sample_id"].is_unique
    chart = {r["dmr_value_id"]: r for r in _chart_rows()}
    for _, row in lab.iterrows():  # every value is the file's own, with its qualifier
        source = chart[row["sample_id"].removeprefix("ECHO-")]
        assert (
            row["result"]
            == ("<" if source["dmr_value_qualifier_code"] == "<" else "") + source["dmr_value_nmbr"]
        )
        assert (
            row["collected_at"]
            == dt.datetime.strptime(source["monitoring_period_end_date"], "%m/%d/%Y").date().isoformat()
        )
    aug = lab[(lab["parameter"] == "CBOD") & (lab["collected_at"] == "2021-08-31")]
    assert aug["result"].tolist() == ["16.2"] and aug["sample_type"].tolist() == ["composite"]
    limits = {(r.parameter, r.limit_type): float(r.value) for r in inputs["permit_limits"].itertuples()}
    assert limits == {
        ("CBOD", "monthly_avg"): 10.0,
        ("TSS", "monthly_avg"): 15.0,
        ("ammonia_nitrogen", "monthly_avg"): 3.0,
        ("pH", "min"): 6.0,
        ("pH", "max"): 9.0,
    }
    skipped = echo.echo_skipped(echo.read_echo())
    assert int(skipped["values"].sum()) + len(lab) == len(_chart_rows())  # nothing lost without a reason


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("echo")
    data = tmp / "data"
    written = echo.write_echo_inputs(data)
    assert written == {"industrial_users": 1, "permit_limits": 5, "lab_results": 200}
    wh = tmp / "w.duckdb"
    assets = [ingest_asset(n) for n in ("industrial_users", "permit_limits", "lab_results", "reports")] + [
        compliance.discharge_violations,
        compliance.statistic_violations,
        enf.snc_determinations,
    ]
    materialize_town(assets, data, wh, "2024-06-30")
    return wh


def test_everything_read_nothing_quarantined(warehouse):
    assert rows(warehouse, "SELECT count(*) FROM quarantine") == [(0,)]
    assert rows(warehouse, "SELECT count(*) FROM lab_results") == [(200,)]


def test_monthly_average_violations_are_the_ones_epa_flagged(warehouse):
    names = {v: k for k, v in echo.PARAMETERS.items()}
    flagged = sorted(
        (r["parameter_code"], r["monitoring_period_end_date"])
        for r in _chart_rows()
        if r["violation_code"] == "E90"
    )
    ours = rows(
        warehouse, "SELECT parameter, period_end FROM statistic_violations WHERE statistic = 'monthly_avg'"
    )
    assert len(flagged) == 8
    assert sorted((names[p], end.strftime("%m/%d/%Y")) for p, end in ours) == flagged


def test_second_half_of_2021_is_chronic_and_trc_for_cbod(warehouse):
    got = rows(
        warehouse,
        "SELECT criterion, basis, measurements, count, round(pct, 2) FROM snc_determinations "
        "WHERE user_id = 'TX0119407' AND parameter = 'CBOD' AND period_start = DATE '2021-07-01' "
        "AND period_end = DATE '2021-12-31' ORDER BY criterion",
    )
    # monthly averages 9, 16.2, 15.5, 16, 14.4, 10.75 against 10 mg/L: 5 of 6 above (83.33% >= 66%);
    # at or above 10 x 1.2 = 12 (CBOD is not among the parameters with factor 1.4): 16.2, 15.5, 16, 14.4 =
    # 4 of 6 (66.67% >= 33%); with EPA's factor 1.4 (14 mg/L) the same four.
    assert got == [("chronic", "monthly_avg", 6, 5, 83.33), ("trc", "monthly_avg", 6, 4, 66.67)]
    # the first half of 2021 (all six monthly averages at or under 10) is not
    assert rows(
        warehouse,
        "SELECT count(*) FROM snc_determinations WHERE parameter = 'CBOD' "
        "AND period_start = DATE '2021-01-01'",
    ) == [(0,)]
