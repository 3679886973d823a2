"""Post-construction stormwater management practices (contract 5.4) materialized in process, in both
jurisdictions, with the expected findings worked by hand."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from dagster_duckdb import DuckDBResource

from assets import ingest as ingest_assets
from assets.stormwater import practices
from outfall.resources import OutfallSettings
from tests.conftest import materialize, query_warehouse as rows, write

D = dt.date
ASSETS = [ingest_assets.ingest_asset(n) for n in ("sites", "smp_practices")] + [practices.smp_findings]

SITES = """
site_id,jurisdiction,disturbed_acres,construction_start,rain_gauge_id,name,address,applicant,impaired_water,single_family,agricultural,exempt,final_stabilization
W-1,woodbury,3,2024-03-01,G1,Ridge,1 Ridge Rd,Builder Co,false,false,false,false,2026-05-01
B-1,bellport,6,2024-06-01,G1,Bay,2 Bay Rd,Bay LLC,false,false,false,false,
W-OLD,woodbury,3,2005-01-01,G1,Old,3 Old Rd,Old Co,false,false,false,false,2006-06-01
"""
PRACTICES = """
practice_id,site_id,practice_type,as_built_received_on,as_built_pe_certified,final_plan_approved_on,maintenance_agreement_recorded_on,final_acceptance_on,one_year_inspection_on,guarantee_released_on
SMP-1,W-1,wet pond,,,2024-02-01,2024-02-01,2024-02-29,2025-03-10,2025-03-01
SMP-2,W-1,bioretention,2026-05-20,true,2024-02-01,2024-02-05,,,
SMP-3,W-1,swale,2026-04-01,false,,,,,
SMP-4,B-1,infiltration basin,,,2026-11-30,,2025-12-01,,2026-06-01
SMP-5,X-9,dry well,,,,,,,
SMP-6,W-OLD,pond,,,,,,,
"""


def run(tmp_path: Path, as_of: str = "2026-11-30"):
    data = tmp_path / "data"
    write(data, "sites/s.csv", SITES)
    write(data, "smp_practices/p.csv", PRACTICES)
    wh = tmp_path / "w.duckdb"
    result = materialize(
        ASSETS + [practices.check_validity_smp_status],
        resources={
            "duckdb": DuckDBResource(database=str(wh)),
            "settings": OutfallSettings(data_dir=str(data), as_of=as_of),
        },
    )
    assert result.success
    return wh, result


def test_findings_of_both_jurisdictions(tmp_path):
    wh, result = run(tmp_path)
    got = rows(wh, "SELECT practice_id, finding, due, status, jurisdiction FROM smp_findings ORDER BY ALL")
    assert got == [
        # no as-built plan since the final stabilization of May 1, 2026
        ("SMP-1", "as_built", D(2026, 5, 1), "overdue", "woodbury"),
        # released March 1, 2025, before the one-year inspection of March 10: the earliest day was the later
        # of Feb 28, 2025 (a year after Feb 29, 2024) and March 10
        ("SMP-1", "guarantee_release", D(2025, 3, 10), "overdue", "woodbury"),
        # a year after final acceptance on Feb 29, 2024 is Feb 28, 2025; inspected March 10
        ("SMP-1", "one_year_inspection", D(2025, 2, 28), "late", "woodbury"),
        # plan received May 20 after the stabilization of May 1
        ("SMP-2", "as_built", D(2026, 5, 1), "late", "woodbury"),
        # recorded Feb 5 after the final plan approval of Feb 1
        ("SMP-2", "maintenance_agreement", D(2024, 2, 1), "late", "woodbury"),
        # a plan without an engineer's certification is not the plan the law asks for
        ("SMP-3", "as_built", D(2026, 5, 1), "overdue", "woodbury"),
        # released June 1, 2026 with no inspection: the earliest day is Dec 1, 2026
        ("SMP-4", "guarantee_release", D(2026, 12, 1), "overdue", "bellport"),
        # approved on the as-of day, not recorded yet: open
        ("SMP-4", "maintenance_agreement", D(2026, 11, 30), "open", "bellport"),
        ("SMP-4", "one_year_inspection", D(2026, 12, 1), "open", "bellport"),
    ]
    rules = dict(rows(wh, "SELECT jurisdiction || '/' || finding, rule FROM smp_findings"))
    assert rules["woodbury/maintenance_agreement"].startswith("Woodbury Code")
    assert rules["bellport/maintenance_agreement"].startswith("Bellport Code")
    aside = rows(wh, "SELECT row_number, reason FROM set_aside WHERE judged_by = 'smp_findings' ORDER BY 1")
    assert [n for n, _ in aside] == [5, 6]
    assert "X-9, which is not among the construction sites" in aside[0][1]
    assert "construction began on 2005-01-01" in aside[1][1]
    check = result.get_asset_check_evaluations()[0]
    assert check.passed


def test_empty_without_inputs(tmp_path):
    wh = tmp_path / "w.duckdb"
    result = materialize(
        [practices.smp_findings],
        resources={
            "duckdb": DuckDBResource(database=str(wh)),
            "settings": OutfallSettings(data_dir=str(tmp_path / "none"), as_of="2026-11-30"),
        },
    )
    assert result.success
    cols = [
        r[0]
        for r in rows(
            wh,
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = 'smp_findings' ORDER BY ordinal_position",
        )
    ]
    assert cols[:6] == ["practice_id", "site_id", "finding", "rule", "due", "status"]
    assert rows(wh, "SELECT count(*) FROM smp_findings") == [(0,)]
