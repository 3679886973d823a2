"""The stormwater officer's assets materialized in process on small input folders."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pytest
from dagster_duckdb import DuckDBResource

from assets import ingest as ingest_assets
from assets.notices import notices
from assets.stormwater import swppp as sw
from outfall.ingest.stormwater import SWPPP_DATASETS
from outfall.resources import OutfallSettings
from tests.conftest import materialize, write

OUTPUTS = [
    "site_classification",
    "swppp_inspection_findings",
    "swppp_other_findings",
    "swppp_notices",
    "swppp_stop_work_orders",
    "swppp_letters",
    "swppp_upcoming",
]
ASSETS = (
    list(ingest_assets.ingest_assets)
    + [ingest_assets.ingest_asset(ds.name) for ds in SWPPP_DATASETS]
    + [ingest_assets.ingest_asset("notices_mailed"), notices]
    + [
        sw.site_classification,
        sw.swppp_inspection_findings,
        sw.swppp_other_findings,
        sw.swppp_notices,
        sw.swppp_upcoming,
    ]
)
CHECKS = [sw.check_validity_status, sw.check_completeness_rain_gauge, sw.check_completeness_notice_contents]

SITES_HEADER = (
    "site_id,jurisdiction,disturbed_acres,construction_start,rain_gauge_id,name,address,applicant,"
    "impaired_water,single_family,agricultural,exempt,final_stabilization\n"
)


def run(data: Path, warehouse: Path, as_of: str, dashboards_dir: str = ""):
    result = materialize(
        ASSETS + CHECKS,
        resources={
            "duckdb": DuckDBResource(database=str(warehouse)),
            "settings": OutfallSettings(data_dir=str(data), as_of=as_of, dashboards_dir=dashboards_dir),
        },
    )
    assert result.success
    return result


def rows(warehouse: Path, query: str, params=None) -> list[tuple]:
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        con.execute("SET TimeZone = 'America/New_York'")
        return con.execute(query, params or []).fetchall()
    finally:
        con.close()


def snapshot(warehouse: Path) -> dict[str, list[tuple]]:
    return {t: rows(warehouse, f"SELECT * FROM {t} ORDER BY ALL") for t in OUTPUTS}


def test_same_facts_woodbury_vs_bellport(tmp_path):
    data = tmp_path / "data"
    sites = [
        f"{sid},{jur},2.0,2026-05-01,G1,Site {sid},{sid} Oak Rd,Builder Co,false,{sf},false,false,"
        for sid, jur, sf in (
            ("W-SF", "woodbury", "true"),
            ("W-C", "woodbury", "false"),
            ("B-SF", "bellport", "true"),
            ("B-C", "bellport", "false"),
        )
    ]
    write(data, "sites/s.csv", SITES_HEADER + "\n".join(sites) + "\n")
    insp = [
        f"{sid},2026-05-09T10:00,Inspector,routine,,late by a day" for sid in ("W-SF", "W-C", "B-SF", "B-C")
    ]
    write(
        data,
        "inspections/i.csv",
        "site_id,inspected_at,inspector,kind,sediment_capacity_lost_pct,notes\n" + "\n".join(insp) + "\n",
    )
    write(data, "rainfall/r.csv", "gauge_id,date,precip_in\nG1,2026-05-03,0.49\nG1,2026-05-04,0.5\n")
    # the May notices of two sites mailed on Monday 18 May with no days to correct: a penalty accrues only
    # through a mailed notice, from the day after its last day to correct (19 May)
    write(
        data,
        "notices_mailed/m.csv",
        "kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days\n"
        "stormwater,W-C,2026-05,2026-05-18,1,0\nstormwater,B-C,2026-05,2026-05-18,2,0\n",
    )
    wh = tmp_path / "w.duckdb"
    run(data, wh, "2026-05-31")

    classified = dict(rows(wh, "SELECT site_id, inspections_required FROM site_classification"))
    assert classified == {"W-SF": True, "W-C": True, "B-SF": False, "B-C": True}
    inspectors = dict(
        rows(wh, "SELECT site_id, inspector FROM site_classification WHERE inspections_required")
    )
    assert inspectors["B-C"] == "a qualified professional" and inspectors["W-C"].startswith("the applicant")

    def findings(site):
        return rows(
            wh,
            "SELECT requirement, trigger_date, due_by, satisfied_on, status, days_late "
            "FROM swppp_inspection_findings WHERE site_id = ? ORDER BY ALL",
            [site],
        )

    expected = [
        ("storm", dt.date(2026, 5, 4), dt.date(2026, 5, 5), dt.date(2026, 5, 9), "late", 4),
        ("weekly", dt.date(2026, 5, 1), dt.date(2026, 5, 8), dt.date(2026, 5, 9), "late", 1),
        ("weekly", dt.date(2026, 5, 9), dt.date(2026, 5, 16), None, "overdue", 15),
    ]
    assert findings("W-SF") == findings("W-C") == findings("B-C") == expected
    assert findings("B-SF") == []

    # Same violation, different penalties: Woodbury per day, Bellport per week.
    pen = {
        r[0]: r[1:]
        for r in rows(
            wh,
            "SELECT site_id, penalty_per, violation_periods, fine_min_usd, fine_max_usd, appeal_filed_with "
            "FROM swppp_notices WHERE finding = 'weekly' AND status = 'overdue'",
        )
    }
    assert pen["W-C"][:2] == ("day", 13) and pen["B-C"][:2] == ("week", 2)
    # W-SF's notice is a draft: no penalty accrues, and no amount is stated (contract 7.2)
    assert rows(
        wh,
        "SELECT count(violation_periods), count(total_fine_max_usd) FROM swppp_notices "
        "WHERE site_id = 'W-SF'",
    ) == [(0, 0)]
    drafts = rows(wh, "SELECT penalty_statement FROM swppp_notices WHERE site_id = 'W-SF'")
    assert drafts and all(
        "$" in p and "fines of up to" not in p and "no penalty accrues" in p for (p,) in drafts
    )
    assert float(pen["W-C"][2]) == 250 and float(pen["W-C"][3]) == 500
    assert float(pen["B-C"][2]) == 0 and float(pen["B-C"][3]) == 350
    assert "justice court" in pen["W-C"][4] and "Bellport" in pen["B-C"][4]
    # Every finding has a notice; a stop-work order rests only on mailed notices whose last day to correct has
    # passed with the violation uncorrected (contract 7.3): W-SF's notice is a draft, so it has none.
    assert rows(wh, "SELECT count(*) FROM swppp_notices")[0][0] == 9
    assert rows(wh, "SELECT site_id, status, period, order_id FROM swppp_stop_work_orders ORDER BY 1") == [
        ("B-C", "draft", "2026-05", "SWO-B-B-C-2026-05"),
        ("W-C", "draft", "2026-05", "SWO-W-W-C-2026-05"),
    ]


def test_exempt_small_agricultural_and_stabilized_sites(tmp_path):
    data = tmp_path / "data"
    write(
        data,
        "sites/s.csv",
        SITES_HEADER
        + "\n".join(
            [
                "EX,woodbury,12,2026-05-01,G1,Exempt,1 Rd,A,false,false,false,true,",
                "SMALL,woodbury,0.99,2026-05-01,G1,Small,2 Rd,A,false,false,false,false,",
                "AG,bellport,3,2026-05-01,G1,Farm barn,3 Rd,A,false,false,true,false,",
                "STAB,woodbury,3,2026-05-01,G1,Done early,4 Rd,A,false,false,false,false,2026-05-07",
                "FUT,woodbury,3,2026-07-01,G1,Not started,5 Rd,A,false,false,false,false,",
            ]
        )
        + "\n",
    )
    write(data, "rainfall/r.csv", "gauge_id,date,precip_in\nG1,2026-05-03,1.2\nG1,2026-05-07,0.8\n")
    wh = tmp_path / "w.duckdb"
    run(data, wh, "2026-06-30")
    required = dict(rows(wh, "SELECT site_id, inspections_required FROM site_classification"))
    assert required == {"EX": False, "SMALL": False, "AG": False, "STAB": True, "FUT": True}
    # STAB: the storm of 05-03 was due 05-04, before stabilization: overdue. The storm on the
    # stabilization day and the weekly inspection due 05-08 fall after it: no findings.
    assert rows(wh, "SELECT site_id, requirement, trigger_date, status FROM swppp_inspection_findings") == [
        ("STAB", "storm", dt.date(2026, 5, 3), "overdue")
    ]
    assert rows(wh, "SELECT count(*) FROM swppp_upcoming")[0][0] == 0  # FUT not started, STAB finished


def test_empty_inputs_give_empty_tables(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    wh = tmp_path / "w.duckdb"
    run(data, wh, "2026-06-30")
    for table in OUTPUTS + [
        "milestones",
        "contractor_certifications",
        "swppp_approvals",
        "convictions",
        "report_deliveries",
    ]:
        assert rows(wh, f"SELECT count(*) FROM {table}")[0][0] == 0, table
    assert not list((tmp_path / "letters").glob("swppp_*.html")) if (tmp_path / "letters").exists() else True


@pytest.mark.slow  # every stormwater asset
def test_the_officers_own_folders_findings_quarantine_and_convictions(tmp_path):
    data = tmp_path / "data"
    write(
        data,
        "sites/s.csv",
        SITES_HEADER
        + "\n".join(
            [
                "W-1,woodbury,7.5,2026-05-01,G1,Big dig,9 Hill Rd,Builder Co,false,false,false,false,",
                "B-1,bellport,5.0,2026-05-01,G1,Village lot,1 Bay Ave,Builder Co,false,false,false,false,",
            ]
        )
        + "\n",
    )
    write(
        data,
        "inspections/i.csv",
        "site_id,inspected_at,inspector,kind,sediment_capacity_lost_pct,notes\n"
        + "\n".join(
            f"{s},2026-05-{d:02d}T09:00,QP,routine,{p},"
            for s in ("W-1", "B-1")
            for d, p in ((7, 55), (14, 60), (21, 10), (28, 5))
        )
        + "\n",
    )
    write(data, "rainfall/r.csv", "gauge_id,date,precip_in\nG1,2026-05-02,0.1\n")
    write(
        data,
        "milestones/m.csv",
        """
        site_id,milestone,occurs_on,notified_at
        W-1,(a),2026-05-01,2026-04-28T09:00
        W-1,Completion of rough grading,2026-05-20,2026-05-19T08:00
        B-1,rough grading,2026-05-20,
        W-1,demolition,2026-05-22,2026-05-01T08:00
        W-1,final grading,someday,2026-05-01T08:00
        """,
    )
    write(
        data,
        "contractor_certifications/c.csv",
        """
        site_id,contractor,title,signed_on,first_work_on
        W-1,Dig Co,Foreman,2026-05-01,2026-05-01
        W-1,Pave Co,Owner,2026-05-12,2026-05-10
        B-1,Pipe Co,Owner,,2026-05-15
        """,
    )
    write(
        data,
        "swppp_approvals/a.csv",
        """
        site_id,approved_max_disturbed_acres,approved_on,reference
        W-1,6,2026-04-01,SWPPP-1
        """,
    )
    write(
        data,
        "convictions/c.csv",
        """
        applicant,convicted_on,chapter,jurisdiction
        builder co,2022-03-01,ch. 267,woodbury
        Builder  Co,2021-05-02,Chapter 267,
        Builder Co,2019-01-01,267,
        Builder Co,2024-01-01,21,bellport
        Builder Co,2024-01-01,no chapter,
        """,
    )
    write(
        data,
        "report_deliveries/d.csv",
        """
        site_id,report_date,delivered_on
        W-1,2026-05-07,2026-05-14
        W-1,2026-05-14,2026-05-22
        """,
    )
    wh = tmp_path / "w.duckdb"
    run(data, wh, "2026-06-10")

    quarantined = rows(wh, "SELECT dataset, row_number, reason FROM quarantine ORDER BY ALL")
    assert [(d, n) for d, n, _ in quarantined] == [("convictions", 5), ("milestones", 4), ("milestones", 5)]
    assert "demolition" in quarantined[1][2] and "not a date" in quarantined[2][2]
    for dataset, read, kept, bad in rows(
        wh,
        "SELECT dataset, sum(rows_read), sum(rows_kept), "
        "sum(rows_quarantined) FROM ingested_files GROUP BY ALL",
    ):
        assert read == kept + bad, dataset

    other = rows(
        wh, "SELECT site_id, finding, subject, status, satisfied_on FROM swppp_other_findings ORDER BY ALL"
    )
    assert other == [
        ("B-1", "contractor_not_certified", "Pipe Co", "overdue", None),
        ("B-1", "milestone_notice_late", "rough_grading_completed", "overdue", None),
        ("B-1", "sediment_not_removed", None, "late", dt.date(2026, 5, 21)),
        ("W-1", "contractor_not_certified", "Pave Co", "late", dt.date(2026, 5, 12)),
        ("W-1", "disturbance_over_limit", None, "overdue", None),  # 7.5 acres, approval allows 6
        ("W-1", "milestone_notice_late", "rough_grading_completed", "late", dt.date(2026, 5, 19)),
        ("W-1", "report_not_delivered", None, "late", dt.date(2026, 5, 22)),
        ("W-1", "report_not_delivered", None, "overdue", None),  # 05-21 report, due 05-28
        ("W-1", "report_not_delivered", None, "overdue", None),  # 05-28 report, due 06-04
        ("W-1", "sediment_not_removed", None, "late", dt.date(2026, 5, 21)),
    ]
    assert all(r[0] for r in rows(wh, "SELECT rule <> '' AND section_text <> '' FROM swppp_other_findings"))

    # Woodbury: two ch. 267 convictions within five years of the violation (2019 is too old,
    # the ch. 21 one is Bellport's): a third offense. Bellport: one ch. 21 conviction, a second.
    offense = dict(rows(wh, "SELECT site_id, max(offense_number) FROM swppp_notices GROUP BY ALL"))
    assert offense == {"W-1": 3, "B-1": 2}


@pytest.mark.slow  # writes every letter twice
def test_letters_escaped_idempotent_and_stale_ones_removed(tmp_path):
    data = tmp_path / "data"
    write(
        data,
        "sites/s.csv",
        OWNER_HEADER + "W-1,woodbury,2,2026-05-01,G1,<b>Oak</b> Ridge,5 Oak & Elm,<script>x</script> "
        "Sons,false,false,false,false,,Oak Land LLC,1 Elm St,Central Valley,NY,10917\n"
        + "W-2,woodbury,2,2026-05-01,G1,No applicant,,,false,false,false,false,,,,,,\n",
    )
    # the May notices mailed June 1 with 5 days to correct (June 6, a Saturday: June 8): the stop-work
    # orders rest on them (contract 7.3)
    write(
        data,
        "notices_mailed/m.csv",
        "kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days\n"
        "stormwater,W-1,2026-05,2026-06-01,1,5\nstormwater,W-2,2026-05,2026-06-01,2,5\n",
    )
    write(
        data,
        "inspections/i.csv",
        "site_id,inspected_at,inspector,kind,sediment_capacity_lost_pct,notes\n"
        "W-1,2026-05-07,QP,routine,,\nW-2,2026-05-07,QP,routine,,\n",
    )
    write(data, "rainfall/r.csv", "gauge_id,date,precip_in\nG1,2026-05-20,0.7\n")
    wh = tmp_path / "wh" / "w.duckdb"
    wh.parent.mkdir()
    dash = tmp_path / "dash"
    run(data, wh, "2026-06-30", dashboards_dir=str(dash))
    folder = dash / "letters" / "stormwater"
    # the findings are noticed in each site's monthly notice (notice_*.html); swppp_notices writes only the
    # stop-work orders (swppp_*.html), drafts resting on the mailed May notices
    orders = sorted(p.name for p in folder.glob("swppp_*.html"))
    assert (
        orders == sorted(r[0] for r in rows(wh, "SELECT letter_file FROM swppp_stop_work_orders"))
        and len(orders) == 2
    )
    assert rows(
        wh, "SELECT count(*) FROM swppp_notices WHERE letter_file LIKE 'letters/stormwater/notice_W-_%'"
    ) == rows(wh, "SELECT count(*) FROM swppp_notices")
    monthly = sorted(p.name for p in folder.glob("notice_*.html"))
    assert monthly == sorted(
        f"notice_{s}_{m}.html" for s, m in rows(wh, "SELECT recipient_id, period FROM notices")
    )
    for text in [(folder / name).read_text() for name in (*orders, *monthly) if "W-1" in name]:
        assert (
            "<script>" not in text
            and "&lt;script&gt;x&lt;/script&gt; Sons" in text
            and "5 Oak &amp; Elm" in text
        )
    stored = dict(rows(wh, "SELECT file_name, html FROM swppp_letters"))
    assert stored[orders[0]] == (folder / orders[0]).read_text()
    assert dict(
        rows(wh, "SELECT site_id, contents_complete FROM swppp_notices WHERE finding = 'weekly'")
    ) == {"W-1": True, "W-2": False}

    before = snapshot(wh)
    run(data, wh, "2026-06-30", dashboards_dir=str(dash))
    assert snapshot(wh) == before  # re-running changes nothing

    # Judged earlier, the storm is not yet a finding: its items go away; without a dashboards folder the
    # letters go to dashboards/letters/stormwater beside the warehouse file.
    run(data, wh, "2026-05-20", dashboards_dir=str(dash))
    assert sorted(p.name for p in folder.glob("swppp_*.html")) == sorted(
        r[0] for r in rows(wh, "SELECT file_name FROM swppp_letters")
    )
    assert rows(wh, "SELECT count(*) FROM swppp_notices WHERE finding = 'storm'")[0][0] == 0
    run(data, wh, "2026-06-30")
    assert len(list((wh.parent / "dashboards" / "letters" / "stormwater").glob("swppp_*.html"))) == 2


def test_upcoming_week(tmp_path):
    data = tmp_path / "data"
    write(
        data,
        "sites/s.csv",
        SITES_HEADER + "W-1,woodbury,2,2026-06-01,G1,Oak,5 Oak,A,false,false,false,false,\n",
    )
    write(
        data,
        "inspections/i.csv",
        "site_id,inspected_at,inspector,kind,sediment_capacity_lost_pct,notes\n"
        "W-1,2026-06-08T09:00,QP,routine,,\n",
    )
    # sub-daily readings: 0.3 + 0.3 on 06-09 (a storm), 0.2 + 0.2 on 06-10 (not one)
    write(
        data,
        "rainfall/r.csv",
        "gauge_id,date,precip_in\nG1,2026-06-09T03:00,0.3\nG1,2026-06-09T21:00,0.3\n"
        "G1,2026-06-10T01:00,0.2\nG1,2026-06-10T05:00,0.2\n",
    )
    write(
        data,
        "milestones/m.csv",
        "site_id,milestone,occurs_on,notified_at\n"
        "W-1,rough grading,2026-06-14,\nW-1,final grading,2026-07-30,\n",
    )
    wh = tmp_path / "w.duckdb"
    run(data, wh, "2026-06-10")
    assert rows(
        wh, "SELECT requirement, trigger_date, due_by, days_until_due, status FROM swppp_upcoming"
    ) == [
        ("storm", dt.date(2026, 6, 9), dt.date(2026, 6, 10), 0, "due_today"),
        ("milestone", dt.date(2026, 6, 14), dt.date(2026, 6, 14), 4, "upcoming"),
        ("weekly", dt.date(2026, 6, 8), dt.date(2026, 6, 15), 5, "upcoming"),
    ]


def test_definitions_load_with_the_stormwater_assets():
    from pipelines.definitions import defs

    keys = {k.to_user_string() for k in defs.resolve_asset_graph().get_all_asset_keys()}
    assert (
        set(OUTPUTS)
        | {"milestones", "contractor_certifications", "swppp_approvals", "convictions", "report_deliveries"}
        <= keys
    )


# Contract 7.3: a stop-work order rests only on mailed notices whose last day to correct has passed with the
# violation uncorrected; a draft until its mailing is recorded (kind stop_work), numbered by the month it was
# first warranted; once mailed, written once and kept.
OWNER_HEADER = SITES_HEADER.rstrip("\n") + ",owner_name,owner_address,owner_city,owner_state,owner_zip\n"


def test_a_stop_work_order_rests_on_mailed_notices_past_their_last_day(tmp_path):
    from assets import records

    data = tmp_path / "data"
    sites = [
        f"{sid},woodbury,2.0,2026-05-01,G1,Site {sid},{sid} Oak Rd,Builder Co,false,false,false,false,,"
        f"Land {sid} LLC,9 Elm St,Central Valley,NY,10917"
        for sid in ("W-M", "W-D")
    ]
    write(data, "sites/s.csv", OWNER_HEADER + "\n".join(sites) + "\n")
    write(data, "inspections/i.csv", "site_id,inspected_at,inspector,kind,sediment_capacity_lost_pct,notes\n")
    write(data, "rainfall/r.csv", "gauge_id,date,precip_in\nG1,2026-05-03,0.1\n")
    # W-M's May notice mailed Monday May 18 with 3 days to correct (May 21); W-D's stays a draft
    write(
        data,
        "notices_mailed/m.csv",
        "kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days\n"
        "stormwater,W-M,2026-05,2026-05-18,1,3\n",
    )
    wh, dash = tmp_path / "w.duckdb", tmp_path / "dash"
    everything = ASSETS + [records.letters, records.documents_issued]

    def go(as_of):
        materialize(
            everything,
            resources={
                "duckdb": DuckDBResource(database=str(wh)),
                "settings": OutfallSettings(data_dir=str(data), as_of=as_of, dashboards_dir=str(dash)),
            },
        )

    go("2026-05-21")  # the last day to correct has not passed: no order
    assert rows(wh, "SELECT count(*) FROM swppp_stop_work_orders") == [(0,)]
    go("2026-05-31")  # May 22 on: a draft, numbered by May (the first day it was warranted)
    assert rows(
        wh, "SELECT site_id, order_id, status, issued_on, notice_ids FROM swppp_stop_work_orders"
    ) == [("W-M", "SWO-W-W-M-2026-05", "draft", None, "NOV-ST-W-M-2026-05")]
    draft = (dash / "letters" / "stormwater" / "swppp_SWO-W-W-M-2026-05.html").read_text()
    assert "DRAFT" in draft and "Land W-M LLC" in draft and "Builder Co (applicant)" in draft
    # mailed on May 26: dated that day, recorded, and never written again whatever comes later
    write(
        data,
        "notices_mailed/n.csv",
        "kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days\n"
        "stop_work,W-M,2026-05,2026-05-26,9,\n",
    )
    go("2026-05-31")
    assert rows(wh, "SELECT order_id, status, issued_on FROM swppp_stop_work_orders") == [
        ("SWO-W-W-M-2026-05", "mailed", dt.date(2026, 5, 26))
    ]
    assert rows(
        wh,
        "SELECT document_id, letter_kind, recipient_id, period FROM documents_issued "
        "WHERE letter_kind = 'stop_work_order'",
    ) == [("SWO-W-W-M-2026-05", "stop_work_order", "W-M", "2026-05")]
    # run again with nothing new: the recorded order's row is the same, not rebuilt from its record alone
    # (issue 37 item 8: a second run leaves every table equal)
    first = rows(wh, "SELECT * FROM swppp_stop_work_orders ORDER BY ALL")
    go("2026-05-31")
    assert rows(wh, "SELECT * FROM swppp_stop_work_orders ORDER BY ALL") == first
    path = dash / "letters" / "stormwater" / "swppp_SWO-W-W-M-2026-05.html"
    mailed = path.read_bytes()
    text = " ".join(mailed.decode().split())
    assert "May 26, 2026" in text and "to be corrected by May 21, 2026, not corrected" in text
    write(
        data,
        "inspections/j.csv",
        "site_id,inspected_at,inspector,kind,sediment_capacity_lost_pct,notes\n"
        "W-M,2026-06-02T10:00,Inspector,routine,,\n",
    )
    go("2026-06-30")
    assert path.read_bytes() == mailed
    assert rows(
        wh,
        "SELECT order_id, status, issued_on FROM swppp_stop_work_orders WHERE site_id = 'W-M' "
        "ORDER BY order_id",
    )[0] == ("SWO-W-W-M-2026-05", "mailed", dt.date(2026, 5, 26))
    # W-D's notice was never mailed: no order rests on it
    assert rows(wh, "SELECT count(*) FROM swppp_stop_work_orders WHERE site_id = 'W-D'") == [(0,)]
