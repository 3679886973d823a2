"""A run judges the day it is asked about (contract 8.1): the inputs as they stood at the end of that day.

A row whose own day is after the day is not yet a fact: it judges nothing and satisfies nothing; a later
fact of a row that stands (a final stabilization, an appeal's decision) is not known yet. Each boundary is
drawn at its day: 23:59 local on the day against midnight after it, a day against the next. Then the demo
town: the same rows whether the inputs end on the day or go on past it, no page showing a day after it,
and the index saying how many rows it left for a later day.
"""

from __future__ import annotations

import ast
import datetime as dt
import re
from pathlib import Path

import pandas as pd
import pytest
from dagster_duckdb import DuckDBResource

from assets import ingest as ingest_assets, records
from assets.common import warehouse
from assets.notices import notices
from assets.sewer import compliance as sewer
from assets.stormwater import illicit, swppp as sw
from outfall.ingest.as_of import held_back, raw_own_day
from outfall.ingest.registry import all_datasets
from outfall.resources import OutfallSettings
from tests.conftest import REPO, materialize, query_warehouse as rows, run_cli, write
from tests.test_assets_illicit import CASES, PARCELS
from tests.truncating import truncate

D = dt.date(2026, 6, 30)
NEXT = D + dt.timedelta(days=1)


def _run(assets: list, data: Path, wh: Path, as_of: dt.date, dashboards: Path | None = None):
    result = materialize(
        assets,
        resources={
            "duckdb": DuckDBResource(database=str(wh)),
            "settings": OutfallSettings(
                data_dir=str(data), as_of=as_of.isoformat(), dashboards_dir=str(dashboards or "")
            ),
        },
    )
    assert result.success
    return result


# ---------------------------------------------------------------------------
# the specs: every day of every input folder is said to be a row's own day, a later fact, what goes with
# one, or a day that is no fact (a plan, a deadline, the end of a period)

NOT_FACTS = {
    "industrial_users": {"permit_expires"},
    "permit_limits": {"effective_to"},
    "lab_results": {"collected_date"},  # the local day of collected_at, the own day
    "sites": {"construction_start"},  # the plan's start: a site not started is listed as such
    "inspections": {"inspected_on"},  # the local day of inspected_at, the own day
    "rainfall": {"observed_at"},  # the time of a sub-daily reading of the day, the own day
    "water_use": {"period_start", "period_end"},  # billing is unchanged (contract 8.1)
    "reports": {"period_start", "period_end", "due_date"},
    "milestones": {"occurs_on", "occurs_at"},  # the SWPPP's plan: an inspection to come
    "report_deliveries": {"report_date"},  # the inspection the report covers, before its delivery
    "convictions": {"offense_on"},  # before the conviction, the own day
    "monitoring_requirements": {"effective_to"},
    "permits": {"expires_on", "issued_on"},  # its term's last day; its issue (judged in user_permits' SQL)
}


def test_every_day_of_every_input_folder_is_placed():
    for name, ds in all_datasets().items():
        columns = dict(ds.table_columns())
        days = {c for c, t in columns.items() if t in ("DATE", "TIMESTAMPTZ")}
        placed = {ds.own_day} if ds.own_day else set()
        for fact in ds.later_facts:
            assert {fact.column, *fact.goes_with} <= set(columns), (name, fact)
            placed |= {fact.column, *fact.goes_with}
        unplaced = days - placed - NOT_FACTS.get(name, set())
        assert not unplaced, (
            f"{name}: say whether {sorted(unplaced)} is the row's own day (Dataset.own_day), a later fact "
            "(Dataset.later_facts) or no fact (a plan, a deadline: NOT_FACTS here)"
        )
        assert not ds.own_day or raw_own_day(ds), f"{name}: its own day is read from no column of its file"


def test_every_asset_that_judges_reads_the_inputs_as_of_the_runs_day():
    """``warehouse(duckdb, as_of=...)`` in every asset but ingestion's step (which loads the tables) and
    the check of the record of documents issued (kept whole whatever day a run asks about)."""
    loaded_as_they_are = {"ingest.py", "checks.py", "run.py", "common.py"}
    unjudged_functions = {
        "check_integrity_documents_issued",  # the whole record
        # checks that read output tables only (already judged as of the day)
        "check_validity_total_usd",
        "check_uniqueness_parcel_id",
        "check_completeness_parcel_id",
        "check_integrity_run_hash",
        "check_validity_notices_status",
        "check_validity_discharge_violations_limit",
        "check_validity_slug_events_duration",
        "check_validity_snc_determinations_pct",
        "check_validity_permit_day",
        "check_validity_required_testing_status",
        "check_validity_illicit_balance",
        "check_validity_illicit_status",
        "check_validity_smp_status",
        "check_completeness_notice_contents",
    }
    missing = []
    for path in sorted((REPO / "assets").rglob("*.py")):
        if path.name in loaded_as_they_are:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef) or fn.name in unjudged_functions:
                continue
            for call in ast.walk(fn):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name)
                    and call.func.id in ("warehouse", "_warehouse", "check_rows")
                    and not any(k.arg == "as_of" for k in call.keywords)
                    and not (call.func.id == "_warehouse" and len(call.args) > 1)
                ):
                    missing.append(f"{path.relative_to(REPO)}:{call.lineno} {fn.name}")
    assert not missing, missing


# ---------------------------------------------------------------------------
# the views themselves, on a few rows


def _warehouse_with(tmp_path: Path, table: str, rows_: list[dict]) -> DuckDBResource:
    resource = DuckDBResource(database=str(tmp_path / "w.duckdb"))
    with warehouse(resource) as con:
        con.register("_rows", pd.DataFrame(rows_))
        con.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM _rows').fetchall()
    return resource


def test_a_reading_at_2359_is_read_and_one_at_midnight_after_is_not(tmp_path):
    resource = _warehouse_with(
        tmp_path,
        "flow",
        [
            {
                "user_id": "IU-1",
                "constituent": "flow",
                "ts": pd.Timestamp("2026-06-30 23:59", tz="America/New_York"),
            },
            {
                "user_id": "IU-1",
                "constituent": "flow",
                "ts": pd.Timestamp("2026-07-01 00:00", tz="America/New_York"),
            },
        ],
    )
    with warehouse(resource, as_of=D) as con:
        assert con.execute("SELECT count(*) FROM flow").fetchall() == [(1,)]
        assert con.execute("SELECT count(*) FROM main.flow").fetchall() == [(2,)]  # the rows stay loaded
    with warehouse(resource, as_of=NEXT) as con:
        assert con.execute("SELECT count(*) FROM flow").fetchall() == [(2,)]
    with warehouse(resource) as con:  # ingestion's: the tables as loaded
        assert con.execute("SELECT count(*) FROM flow").fetchall() == [(2,)]
        assert {d: r for d, r, *_ in held_back(con, D, "America/New_York")}["flow"] == 1


def test_a_later_fact_and_what_goes_with_it_are_blank_before_its_day(tmp_path):
    resource = _warehouse_with(
        tmp_path,
        "illicit_discharges",
        [
            {
                "case_id": "C-1",
                "premises": "1 Rd",
                "discovered_on": dt.date(2026, 6, 1),
                "appeal_received_on": dt.date(2026, 6, 10),
                "appeal_decided_on": NEXT,
                "appeal_outcome": "upheld",
            },
            {"case_id": "C-2", "premises": "2 Rd", "discovered_on": NEXT},
        ],
    )
    query = "SELECT case_id, appeal_received_on, appeal_decided_on, appeal_outcome FROM illicit_discharges"
    with warehouse(resource, as_of=D) as con:
        assert con.execute(query).fetchall() == [("C-1", dt.date(2026, 6, 10), None, None)]
    with warehouse(resource, as_of=NEXT) as con:
        assert sorted(con.execute(query).fetchall(), key=repr)[0] == (
            "C-1",
            dt.date(2026, 6, 10),
            NEXT,
            "upheld",
        )


# ---------------------------------------------------------------------------
# the assets at each boundary


def _user_with_samples(data: Path, *samples: tuple[str, str]) -> None:
    """IU-1 and its BOD samples of 300 mg/L ((sample_id, collected_at) each): every one a violation."""
    write(
        data,
        "industrial_users/u.csv",
        "user_id,name,district,address\nIU-1,Acme Plating,consolidated,1 Main St\n",
    )
    lines = "".join(f"{s},IU-1,{at},composite,BOD,300,mg/L\n" for s, at in samples)
    write(
        data,
        "lab_results/r.csv",
        "sample_id,user_id,collected_at,sample_type,parameter,result,unit\n" + lines,
    )


def test_a_sample_at_2359_on_the_day_is_judged_and_one_at_midnight_after_is_not(tmp_path):
    data = tmp_path / "data"
    _user_with_samples(data, ("S-LATE", "2026-06-30T23:59:00"), ("S-NEXT", "2026-07-01T00:00:00"))
    wh = tmp_path / "w.duckdb"
    assets = [ingest_assets.ingest_asset("lab_results"), sewer.discharge_violations]
    _run(assets, data, wh, D)
    assert rows(wh, "SELECT sample_id FROM discharge_violations") == [("S-LATE",)]
    assert rows(wh, "SELECT rows_after FROM held_back WHERE dataset = 'lab_results'") == [(1,)]
    _run(assets, data, wh, NEXT)
    assert sorted(rows(wh, "SELECT sample_id FROM discharge_violations")) == [("S-LATE",), ("S-NEXT",)]


SITES = (
    "site_id,jurisdiction,disturbed_acres,construction_start,rain_gauge_id,name,address,applicant,"
    "impaired_water,single_family,agricultural,exempt,final_stabilization\n"
)
SW_ASSETS = [
    ingest_assets.ingest_asset("sites"),
    sw.site_classification,
    sw.swppp_inspection_findings,
]


@pytest.mark.parametrize(
    "inspected, finding", [("2026-06-09T16:00", "late"), ("2026-06-10T08:00", "overdue")]
)
def test_an_inspection_on_the_day_satisfies_and_one_the_day_after_does_not(tmp_path, inspected, finding):
    """Started June 1: the first weekly inspection was due June 8. Judged as of June 9, an inspection made
    that day satisfies it late; one made June 10 is not yet made: the finding is overdue."""
    data = tmp_path / "data"
    write(data, "sites/s.csv", SITES + "W-1,woodbury,2,2026-06-01,G1,Oak,5 Oak,A,false,false,false,false,\n")
    write(data, "rainfall/r.csv", "gauge_id,date,precip_in\nG1,2026-06-01,0\n")
    write(data, "inspections/i.csv", f"site_id,inspected_at,inspector,kind\nW-1,{inspected},QP,routine\n")
    wh = tmp_path / "w.duckdb"
    _run(SW_ASSETS, data, wh, dt.date(2026, 6, 9))
    assert rows(
        wh,
        "SELECT requirement, due_by, status FROM swppp_inspection_findings WHERE due_by = DATE '2026-06-08'",
    ) == [("weekly", dt.date(2026, 6, 8), finding)]


def test_a_final_stabilization_on_the_day_after_leaves_the_site_active_on_the_day(tmp_path):
    data = tmp_path / "data"
    write(
        data,
        "sites/s.csv",
        SITES + f"W-1,woodbury,2,2026-06-01,G1,Oak,5 Oak,A,false,false,false,false,{NEXT.isoformat()}\n",
    )
    write(data, "rainfall/r.csv", "gauge_id,date,precip_in\nG1,2026-06-01,0\n")
    wh = tmp_path / "w.duckdb"
    query = "SELECT active, final_stabilization, judged_through FROM site_classification"
    _run(SW_ASSETS, data, wh, D)
    assert rows(wh, query) == [(True, None, D)]
    assert rows(wh, "SELECT later_facts_after FROM held_back WHERE dataset = 'sites'") == [(1,)]
    _run(SW_ASSETS, data, wh, NEXT)
    assert rows(wh, query) == [(True, NEXT, NEXT)]  # active through its last day
    _run(SW_ASSETS, data, wh, NEXT + dt.timedelta(days=1))
    assert rows(wh, query) == [(False, NEXT, NEXT)]


@pytest.mark.parametrize("mailed_on, status", [(D, "mailed"), (NEXT, "draft")])
def test_a_mailing_on_the_day_after_is_not_a_mailing_as_of_the_day(tmp_path, mailed_on, status):
    data = tmp_path / "data"
    _user_with_samples(data, ("S-1", "2026-05-12T09:00:00"))
    write(
        data,
        "notices_mailed/m.csv",
        f"kind,recipient_id,period,mailed_on,certified_mail_no\nsewer,IU-1,2026-05,{mailed_on},7019 0001\n",
    )
    wh = tmp_path / "w.duckdb"
    assets = [
        ingest_assets.ingest_asset("lab_results"),
        sewer.discharge_violations,
        notices,
        records.letters,
        records.documents_issued,
    ]
    _run(assets, data, wh, D, tmp_path / "dash")
    issued = mailed_on if status == "mailed" else None
    assert rows(wh, "SELECT status, issued_on FROM notices WHERE period = '2026-05'") == [(status, issued)]
    assert rows(wh, "SELECT count(*) FROM documents_issued") == [(1 if status == "mailed" else 0,)]
    if status == "draft":
        assert rows(wh, "SELECT rows_after FROM held_back WHERE dataset = 'notices_mailed'") == [(1,)]
    # run again with nothing new: the record now stands for the mailed notice, and says the same
    before = rows(wh, "SELECT * FROM notices")
    _run(assets, data, wh, D, tmp_path / "dash")
    assert rows(wh, "SELECT * FROM notices") == before


def test_an_appeal_decided_the_day_after_is_pending_on_the_day(tmp_path):
    """IC-6: notice August 5, appeal received August 12, heard August 20, vacated August 25. As of August
    24 the appeal is pending and the abatement suspended; as of August 25 the case is ended."""
    data = tmp_path / "data"
    write(data, "illicit_discharges/cases.csv", CASES)
    write(data, "parcels/p.csv", PARCELS)
    wh = tmp_path / "w.duckdb"
    assets = [ingest_assets.ingest_asset("illicit_discharges"), illicit.illicit_discharges_judged]
    query = "SELECT obligation, status FROM illicit_discharge_deadlines WHERE case_id = 'IC-6' ORDER BY 1"
    _run(assets, data, wh, dt.date(2026, 8, 24))
    assert ("abatement", "suspended") in rows(wh, query)
    _run(assets, data, wh, dt.date(2026, 8, 25))
    assert "abatement" not in {o for o, _ in rows(wh, query)}


# ---------------------------------------------------------------------------
# the demo town

SIX = ("discharge_violations", "notice_items", "notices", "obligations", "worklist", "snc_determinations")


def _table(db: Path, table: str) -> list[tuple]:
    return sorted(rows(db, f'SELECT * FROM "{table}"'), key=repr)


def _demo_run(data: Path, folder: Path, as_of: str) -> Path:
    db = folder / "w.duckdb"
    done = run_cli(
        "run", "--data", str(data), "--warehouse", str(db), "--as-of", as_of, "--quiet", timeout=900
    )
    assert done.returncode == 0, done.stderr
    return db


@pytest.mark.slow  # `outfall run` four times on the demo town
def test_a_run_as_of_a_day_gives_the_same_rows_whether_the_inputs_end_on_it_or_go_on(demo_town, tmp_path):
    day = "2026-06-15"
    full = _demo_run(demo_town / "data", tmp_path / "full", day)
    cut = truncate(demo_town / "data", tmp_path / "cut_data", dt.date.fromisoformat(day))
    truncated = _demo_run(cut, tmp_path / "cut", day)
    for table in SIX:
        assert _table(full, table) == _table(truncated, table), table
    assert rows(full, "SELECT count(*) FROM discharge_violations")[0][0] > 0  # a day with something to judge
    # and again on the warehouse of a run as of a later day: what it recorded is no fact on the day
    again = tmp_path / "again"
    again.mkdir()
    later = _demo_run(demo_town / "data", again, "2026-11-30")
    assert rows(later, "SELECT count(*) FROM documents_issued WHERE issued_on > DATE '2026-06-15'")[0][0] > 0
    _demo_run(demo_town / "data", again, day)
    for table in (*SIX, "slug_events", "letters"):
        assert _table(later, table) == _table(full, table), table
    verify = run_cli("verify", "--warehouse", str(later))
    assert verify.returncode == 0, verify.stdout + verify.stderr  # no file of the record was touched


MONTHS = "January February March April May June July August September October November December".split()
DAY_WORDS = re.compile(r"\b(" + "|".join(MONTHS) + r") (\d{1,2}), (\d{4})\b")
ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def _page_text(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))


def _days(text: str) -> list[tuple[dt.date, int]]:
    found = [
        (dt.date(int(y), int(m), int(d)), at.start())
        for at in ISO.finditer(text)
        for y, m, d in [at.groups()]
    ]
    found += [
        (dt.date(int(y), MONTHS.index(mon) + 1, int(d)), at.start())
        for at in DAY_WORDS.finditer(text)
        for mon, d, y in [at.groups()]
    ]
    return found


@pytest.mark.slow  # `outfall run` on the demo town
def test_the_demo_as_of_an_early_day_shows_nothing_after_it(demo_town, tmp_path):
    day = dt.date(2025, 1, 15)
    db = _demo_run(demo_town / "data", tmp_path, day.isoformat())
    today = dt.date.today()
    # the days after it a page may show: what is due (a permit's expiry, a deadline) or planned (a site's
    # construction start, a milestone of its plan, the year of rates adopted: billing is unchanged), not a
    # fact
    due = {
        d
        for (d,) in rows(
            db,
            "SELECT permit_expires FROM main.industrial_users UNION SELECT due FROM worklist "
            "UNION SELECT due FROM obligations UNION SELECT correct_by FROM notices "
            "UNION SELECT construction_start FROM main.sites UNION SELECT occurs_on FROM main.milestones "
            "UNION SELECT make_date(year, 1, 1) FROM main.sewer_rates",
        )
        if d is not None
    }
    pages = [p for p in (tmp_path / "dashboards").rglob("*.html") if p.name != "quarantine.html"]
    assert pages
    shown = []
    for page in pages:
        text = _page_text(page)
        for d, at in _days(text):
            if d > day and d != today and d not in due:
                shown.append(f"{page.name}: {text[max(0, at - 80) : at + 20]}")
        for m in re.finditer(r"mailed (?:on )?(" + "|".join(MONTHS) + r") \d{1,2}, \d{4}", text):
            mailed = dt.datetime.strptime(
                m.group(0).split("mailed ")[1].removeprefix("on "), "%B %d, %Y"
            ).date()
            assert mailed <= day, f"{page.name}: {m.group(0)}"
    assert not shown, shown[:10]
    index = _page_text(tmp_path / "dashboards" / "index.html")
    held = dict(rows(db, "SELECT dataset, rows_after FROM held_back"))
    assert held["lab_results"] > 0 and held["flow"] > 0
    total = sum(held.values())
    assert f"{total:,} input rows dated after January 15, 2025 were not judged" in index
    assert rows(
        db, "SELECT count(*) FROM discharge_violations WHERE collected_at::DATE > DATE '2025-01-15'"
    ) == [(0,)]


@pytest.mark.slow  # `outfall run` twice
def test_rerunning_as_of_a_day_with_nothing_new_changes_no_table(demo_town, tmp_path):
    db = _demo_run(demo_town / "data", tmp_path, "2026-06-15")
    tables = [
        t
        for (t,) in rows(
            db,
            "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' "
            "AND NOT starts_with(table_name, '_')",
        )
    ]
    volatile = {"recorded_at", "quarantined_at", "loaded_at", "run_at", "started_at", "finished_at"}

    def snapshot() -> dict:
        out = {}
        for t in tables:
            cols = [
                c
                for (c,) in rows(
                    db,
                    f"SELECT column_name FROM duckdb_columns() WHERE table_name = '{t}' "
                    "AND schema_name = 'main'",
                )
                if c not in volatile
            ]
            sel = ", ".join(f'"{c}"' for c in cols)
            out[t] = sorted(rows(db, f'SELECT {sel} FROM main."{t}"'), key=repr)
        return out

    before = snapshot()
    _demo_run(demo_town / "data", tmp_path, "2026-06-15")
    after = snapshot()
    assert [t for t in tables if before[t] != after[t]] == []
