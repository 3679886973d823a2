"""Partitions: billing by year (a dynamic partition per year that has rates), the stages of a run of
everything, re-running one partition, and the Definitions the Dagster UI loads."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pytest
from dagster import (
    AssetKey,
    BackfillPolicy,
    DagsterInstance,
    Definitions,
    DynamicPartitionsDefinition,
    MonthlyPartitionsDefinition,
)
from dagster_duckdb import DuckDBResource

from assets.clerk.billing import billing_exports, billing_year_partitions, sewer_billing
from assets.common import BILLING_YEARS, READING_MONTHS, months_between
from assets.ingest import ingest_asset, ingest_assets
from outfall.resources import OutfallSettings
from pipelines.stages import (
    RANGE_END,
    RANGE_START,
    partition_key_for,
    partitions_with_data,
    plan_stages,
    run_tags,
)
from tests.conftest import materialize, run_cli, write

INGEST = [a for a in ingest_assets if a.key.to_user_string() in ("parcels", "sewer_rates")]
BILLING = [ingest_asset("sewer_budget"), billing_year_partitions, sewer_billing, billing_exports]
RATES = """
    year,district,component,rate_per_unit
    {year},consolidated,bond,{bond}
    {year},consolidated,om,50
    {year},consolidated,street_lateral,10
    {year},consolidated,house_lateral,5
    {year},district_1,bond,120
    {year},district_1,om,60
    {year},district_1,street_lateral,12
    {year},district_1,house_lateral,6
    """


def _resources(tmp_path: Path, data: Path) -> dict:
    return {
        "duckdb": DuckDBResource(database=str(tmp_path / "w.duckdb")),
        "settings": OutfallSettings(data_dir=str(data), as_of="2026-06-30"),
    }


def _rows(warehouse: Path, query: str) -> list[tuple]:
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        return sorted(con.execute(query).fetchall(), key=repr)
    finally:
        con.close()


# ---------------------------------------------------------------------------
# the definitions


def test_billing_assets_are_partitioned_by_billing_year():
    from pipelines.definitions import defs

    Definitions.validate_loadable(defs)
    graph = defs.resolve_asset_graph()
    assert isinstance(BILLING_YEARS, DynamicPartitionsDefinition) and BILLING_YEARS.name == "billing_year"
    for name in (
        "sewer_bills",
        "billing_runs",
        "billing_run_totals",
        "bill_changes",
        "billing_summary",
        "billing_exports",
    ):
        node = graph.get(AssetKey(name))
        assert node.partitions_def == BILLING_YEARS, name
        assert node.backfill_policy == BackfillPolicy.single_run(), name
    assert graph.get(AssetKey("billing_years")).partitions_def is None
    assert isinstance(READING_MONTHS, MonthlyPartitionsDefinition)
    slugs = graph.get(AssetKey("slug_events"))
    assert slugs.partitions_def == READING_MONTHS and slugs.backfill_policy == BackfillPolicy.single_run()
    assert "2026-03-01" in READING_MONTHS.get_partition_keys()  # a month the UI can backfill
    assert defs.resolve_job_def("everything_2_by_month").partitions_def == READING_MONTHS
    job = defs.resolve_job_def("annual_billing")
    assert job.partitions_def == BILLING_YEARS


def test_a_run_of_everything_is_one_run_per_partitions_definition_in_order():
    from pipelines.definitions import PARENTS, STAGES

    where = {k: s.index for s in STAGES for k in s.keys}
    for key, parents in PARENTS.items():
        assert all(where[p] <= where[key] for p in parents), key
    for stage in STAGES:
        assert len({repr(d) for d in [stage.partitions_def]}) == 1
    # the inputs first, without partitions; the billing years between them and what reads them
    assert STAGES[0].partitions_def is None and AssetKey("flow") in STAGES[0].keys
    billing = next(s for s in STAGES if s.partitions_def == BILLING_YEARS)
    assert AssetKey("sewer_bills") in billing.keys
    assert any(AssetKey("billing_dashboard") in s.keys and s.index > billing.index for s in STAGES)


def test_stages_and_partition_keys():
    stages = plan_stages([*INGEST, *BILLING])
    assert [s.label for s in stages] == ["unpartitioned", "by_billing_year"]
    assert partition_key_for(READING_MONTHS, "2026-03") == "2026-03-01"
    assert partition_key_for(BILLING_YEARS, "2026") == "2026"
    assert partition_key_for(BILLING_YEARS, "2026-03") is None
    assert partition_key_for(READING_MONTHS, "2026") is None
    instance = DagsterInstance.ephemeral()
    assert run_tags(BILLING_YEARS, ["2026"], instance) == {"dagster/partition": "2026"}
    # years added later come after those known: the range runs in the order they were added
    assert run_tags(BILLING_YEARS, ["2027", "2025"], instance) == {RANGE_START: "2025", RANGE_END: "2027"}
    assert instance.get_dynamic_partitions("billing_year") == ["2026", "2025", "2027"]
    assert run_tags(READING_MONTHS, ["2026-03-01", "2025-12-01"], instance) == {
        RANGE_START: "2025-12-01",
        RANGE_END: "2026-03-01",
    }


def test_the_months_of_a_run_span_the_first_to_the_last_reading_in_local_time():
    """The month partitions of a run of everything: from the first reading's local month to the last's,
    the months between included, found from the earliest and latest instants alone."""
    assert months_between(dt.date(2025, 11, 30), dt.date(2026, 2, 1)) == [
        dt.date(2025, 11, 1),
        dt.date(2025, 12, 1),
        dt.date(2026, 1, 1),
        dt.date(2026, 2, 1),
    ]
    assert months_between(dt.date(2026, 3, 1), dt.date(2026, 3, 31)) == [dt.date(2026, 3, 1)]
    con = duckdb.connect()
    con.execute("SET TimeZone = 'America/New_York'")
    con.execute("CREATE TABLE flow (ts TIMESTAMPTZ)")
    assert partitions_with_data(con, READING_MONTHS) == []
    # 04:30 UTC on 1 March is still 28 February in New York; nothing in April; a NULL time is no month
    con.execute(
        "INSERT INTO flow VALUES ('2026-03-01 04:30:00+00'), ('2026-05-31 23:59:00-04'), (NULL), "
        "('2026-03-15 12:00:00+00')"
    )
    assert partitions_with_data(con, READING_MONTHS) == [
        "2026-02-01",
        "2026-03-01",
        "2026-04-01",
        "2026-05-01",
    ]


# ---------------------------------------------------------------------------
# billing by year


def test_billing_years_asset_adds_the_years_that_have_rates(tmp_path, town):
    write(town, "sewer_rates/rates_2025.csv", RATES.format(year=2025, bond=90))
    instance = DagsterInstance.ephemeral()
    assert materialize([*INGEST, *BILLING], resources=_resources(tmp_path, town), instance=instance).success
    assert instance.get_dynamic_partitions("billing_year") == ["2025", "2026"]
    years = _rows(tmp_path / "w.duckdb", "SELECT DISTINCT year FROM sewer_bills")
    assert years == [(2025,), (2026,)]


def test_rebilling_2026_leaves_2025_rows_and_files_alone(tmp_path, town):
    write(town, "sewer_rates/rates_2025.csv", RATES.format(year=2025, bond=90))
    res = _resources(tmp_path, town)
    instance = DagsterInstance.ephemeral()
    assert materialize([*INGEST, *BILLING], resources=res, instance=instance).success
    w = tmp_path / "w.duckdb"
    out = tmp_path / "exports" / "billing"
    files_2025 = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("*2025*")}
    assert {"sewer_register_2025.csv", "sewer_bills_2025.csv", "sewer_register_2025.xlsx"} <= set(files_2025)
    of_2025 = {
        t: _rows(w, f"SELECT * FROM {t} WHERE year = 2025")
        for t in ("sewer_bills", "billing_runs", "billing_run_totals", "billing_summary", "bill_changes")
    }
    bills_2026 = _rows(w, "SELECT parcel_id, amount_bond FROM sewer_bills WHERE year = 2026")

    # 2026's bond rate changes, and 2025's rates are edited in the file too: only 2026 is billed again
    write(town, "sewer_rates/rates.csv", RATES.format(year=2026, bond=200))
    write(town, "sewer_rates/rates_2025.csv", RATES.format(year=2025, bond=1))
    assert materialize(INGEST, resources=res, instance=instance).success
    result = materialize(
        [sewer_billing, billing_exports], resources=res, instance=instance, partition_key="2026"
    )
    assert result.success
    partitions = {e.partition for e in result.get_asset_materialization_events()}
    assert partitions == {"2026"}
    assert {t: _rows(w, f"SELECT * FROM {t} WHERE year = 2025") for t in of_2025} == of_2025
    assert {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("*2025*")} == files_2025
    assert _rows(w, "SELECT parcel_id, amount_bond FROM sewer_bills WHERE year = 2026") != bills_2026
    assert _rows(w, "SELECT count(*) FROM billing_runs WHERE year = 2026") == [(2,)]


@pytest.mark.slow  # three `outfall run`s
def test_outfall_run_partition_equals_a_full_run_for_that_year(tmp_path, town):
    write(town, "sewer_rates/rates_2025.csv", RATES.format(year=2025, bond=90))
    full, part = tmp_path / "full" / "w.duckdb", tmp_path / "part" / "w.duckdb"
    for args in (("--warehouse", str(full)), ("--warehouse", str(part), "--partition", "2026")):
        result = run_cli("run", "--data", str(town), "--as-of", "2026-06-30", *args, "--quiet")
        assert result.returncode == 0, result.stderr
    query = "SELECT * FROM sewer_bills WHERE year = 2026"
    assert _rows(part, query) == _rows(full, query) != []
    assert _rows(part, "SELECT DISTINCT year FROM sewer_bills") == [(2026,)]
    assert (part.parent / "dashboards" / "billing.html").exists()
    # and a month of readings: May 2026, the town's one day of flow
    month = run_cli(
        "run",
        "--data",
        str(town),
        "--as-of",
        "2026-06-30",
        "--warehouse",
        str(part),
        "--partition",
        "2026-05",
        "--quiet",
    )
    assert month.returncode == 0, month.stderr
    for table in ("slug_daily_stats", "slug_events", "slug_baseline_gaps"):
        assert _rows(part, f"SELECT * FROM {table}") == _rows(full, f"SELECT * FROM {table}"), table
    assert _rows(part, "SELECT count(*) FROM slug_daily_stats") == [(1,)]
    bad = run_cli("run", "--data", str(town), "--warehouse", str(part), "--partition", "2026-13")
    assert bad.returncode == 2 and "--partition '2026-13'" in bad.stderr


# ---------------------------------------------------------------------------
# readings by month: slug detection


SLUG_TABLES = {
    "slug_events": "SELECT * FROM slug_events",
    "slug_daily_stats": "SELECT * FROM slug_daily_stats",
    "slug_baseline_gaps": "SELECT * FROM slug_baseline_gaps",
    "slug_event_readings": "SELECT * FROM _slug_event_readings",
}


@pytest.fixture(scope="module")
def meter(tmp_path_factory):
    """The real 2008 flow meter (tests/test_real_meter_slugs.py): slugs in March and April, judged by a
    run of every month; returns the warehouse, its resources and the tables as that run left them."""
    from assets.sewer_administrator.compliance import slug_events
    from tests.test_real_meter_slugs import flow_frame

    root = tmp_path_factory.mktemp("months")
    data = root / "data"
    (data / "flow").mkdir(parents=True)
    flow_frame().to_csv(data / "flow" / "meter_2008.csv", index=False)
    write(
        data,
        "industrial_users/users.csv",
        """
        user_id,name,district,address,permit_no,permit_effective,permit_expires,normal_avg_flow_gpd
        IU-METER,Sewer flow monitor,consolidated,,,,,
        """,
    )
    res = {
        "duckdb": DuckDBResource(database=str(root / "w.duckdb")),
        "settings": OutfallSettings(data_dir=str(data), as_of="2026-06-30"),
    }
    inputs = [a for a in ingest_assets if a.key.path[-1] in ("flow", "industrial_users")]
    result = materialize([*inputs, slug_events], resources=res)
    assert result.success
    months = {e.partition for e in result.get_asset_materialization_events() if e.partition}
    assert {"2008-02-01", "2008-03-01", "2008-04-01"} <= months  # one run over the range
    tables = {name: _rows(root / "w.duckdb", q) for name, q in SLUG_TABLES.items()}
    tables["march"] = _start_month(root / "w.duckdb", 3)
    return root / "w.duckdb", res, tables, slug_events


def _start_month(warehouse: Path, month: int) -> list[tuple]:
    return _rows(
        warehouse,
        f"SELECT * FROM slug_events WHERE month(start_at AT TIME ZONE 'America/New_York') = {month}",
    )


def test_a_month_run_again_equals_the_run_of_every_month_and_leaves_other_months(meter):
    w, res, full, slug_events = meter
    assert len(_start_month(w, 3)) == 3 and len(_start_month(w, 4)) == 3
    con = duckdb.connect(str(w))
    try:  # April's slugs altered by hand: a run of March must leave them so; March's are lost
        con.execute(
            "UPDATE slug_events SET readings = -1 WHERE month(start_at AT TIME ZONE 'America/New_York') = 4"
        )
        con.execute("DELETE FROM slug_events WHERE month(start_at AT TIME ZONE 'America/New_York') = 3")
        con.execute("DELETE FROM slug_daily_stats WHERE month(local_day) = 3")
    finally:
        con.close()
    result = materialize([slug_events], resources=res, partition_key="2008-03-01")
    assert result.success
    assert {e.partition for e in result.get_asset_materialization_events()} == {"2008-03-01"}
    assert _start_month(w, 3) == full["march"]
    assert _rows(
        w,
        "SELECT DISTINCT readings FROM slug_events WHERE month(start_at AT TIME ZONE 'America/New_York') = 4",
    ) == [(-1,)]
    assert _rows(w, SLUG_TABLES["slug_daily_stats"]) == full["slug_daily_stats"]


def test_a_range_of_months_is_one_run_and_equals_the_run_of_every_month(meter):
    w, res, full, slug_events = meter
    con = duckdb.connect(str(w))
    try:
        con.execute("DELETE FROM slug_events")
        con.execute("DELETE FROM _slug_event_readings")
    finally:
        con.close()
    result = materialize(
        [slug_events], resources=res, tags={RANGE_START: "2008-03-01", RANGE_END: "2008-04-01"}
    )
    assert result.success
    assert {e.partition for e in result.get_asset_materialization_events()} == {"2008-03-01", "2008-04-01"}
    assert len([e for e in result.all_events if e.is_step_start]) == 1  # one step over both months
    assert _rows(w, SLUG_TABLES["slug_events"]) == full["slug_events"]
    assert _rows(w, SLUG_TABLES["slug_event_readings"]) == full["slug_event_readings"]
    assert _rows(w, SLUG_TABLES["slug_daily_stats"]) == full["slug_daily_stats"]


# ---------------------------------------------------------------------------
# sensors: only the partitions the new files touch


def test_sensors_request_only_the_partitions_new_files_touch(tmp_path, town):
    from assets.sewer_administrator.months import reading_months
    from dagster import build_sensor_context

    from pipelines.definitions import billing_years_sensor, defs, reading_months_sensor

    data = tmp_path / "d"
    write(
        data,
        "flow/a.csv",
        """
        user_id,timestamp,value,unit,constituent
        IU-1,2026-03-31T23:00:00-04:00,1.0,gpm,flow
        IU-1,2026-04-01T01:00:00-04:00,1.0,gpm,flow
        """,
    )
    write(data, "sewer_rates/r.csv", RATES.format(year=2025, bond=90))
    res = _resources(tmp_path, data)
    instance = DagsterInstance.ephemeral()
    flow = [a for a in ingest_assets if a.key.path[-1] in ("flow", "sewer_rates", "parcels")]
    assert materialize(
        [*flow, reading_months, billing_year_partitions, ingest_asset("sewer_budget")],
        resources=res,
        instance=instance,
    ).success
    months_ctx = build_sensor_context(instance=instance, repository_def=defs.get_repository_def())
    years_ctx = build_sensor_context(instance=instance, repository_def=defs.get_repository_def())
    [request] = reading_months_sensor(months_ctx)
    assert request.tags["dagster/asset_partition_range_start"] == "2026-03-01"
    assert request.tags["dagster/asset_partition_range_end"] == "2026-04-01"
    assert [r.partition_key for r in billing_years_sensor(years_ctx)] == ["2025"]

    # a second file of one day in May, and a 2026 rate: May alone, 2026 alone
    write(
        data,
        "flow/b.csv",
        "user_id,timestamp,value,unit,constituent\nIU-1,2026-05-02T10:00:00-04:00,2,gpm,flow\n",
    )
    write(data, "sewer_rates/r26.csv", RATES.format(year=2026, bond=90))
    assert materialize(
        [*flow, reading_months, billing_year_partitions, ingest_asset("sewer_budget")],
        resources=res,
        instance=instance,
    ).success
    assert [r.partition_key for r in reading_months_sensor(months_ctx)] == ["2026-05-01"]
    assert [r.partition_key for r in billing_years_sensor(years_ctx)] == ["2026"]


def test_pages_are_refreshed_once_after_months_or_billing_years_are_judged_again():
    from dagster import AssetMaterialization, RunRequest, SkipReason, build_sensor_context

    from pipelines.definitions import AFTER_PARTITIONS, all_assets, refresh_after_partitions_sensor

    refreshed = {k.to_user_string() for k in AFTER_PARTITIONS.resolve(all_assets)}
    assert {"sewer_dashboard", "billing_dashboard", "notices", "pretreatment_annual_report"} <= refreshed
    assert not refreshed & {
        "slug_events",
        "sewer_bills",
        "billing_exports",
        "flow",
        "parcels",
        "industrial_users",
    }

    instance = DagsterInstance.ephemeral()
    cursor = None

    def evaluate():
        nonlocal cursor
        context = build_sensor_context(instance=instance, cursor=cursor)
        result = refresh_after_partitions_sensor(context)
        cursor = context.cursor
        return result

    assert isinstance(evaluate(), SkipReason)  # nothing judged yet
    instance.report_runless_asset_event(AssetMaterialization("slug_events", partition="2026-03-01"))
    request = evaluate()
    assert isinstance(request, RunRequest) and isinstance(evaluate(), SkipReason)  # once per judgement
    instance.add_dynamic_partitions("billing_year", ["2026"])
    instance.report_runless_asset_event(AssetMaterialization("sewer_bills", partition="2026"))
    again = evaluate()
    assert isinstance(again, RunRequest) and again.run_key != request.run_key


def test_readings_dated_after_this_month_are_judged_with_this_months_partition(tmp_path):
    """No partition holds a month after the current one yet: the latest partition judges its readings."""
    from assets.sewer_administrator.compliance import slug_events

    last = READING_MONTHS.get_last_partition_key()  # this month
    year, month = int(last[:4]), int(last[5:7])
    later = f"{year + (month == 12):04d}-{month % 12 + 1:02d}-02"  # a day of next month
    data = tmp_path / "d"
    rows = [
        f"IU-1,{later}T{h:02d}:{m:02d}:00-05:00,{600 if h == 12 and m < 30 else 100},gpm,flow"
        for h in range(24)
        for m in range(0, 60, 5)
    ]
    write(data, "flow/f.csv", "user_id,timestamp,value,unit,constituent\n" + "\n".join(rows) + "\n")
    write(
        data,
        "industrial_users/u.csv",
        "user_id,name,district,normal_avg_flow_gpd\nIU-1,Acme,consolidated,144000\n",
    )
    res = _resources(tmp_path, data)
    inputs = [a for a in ingest_assets if a.key.path[-1] in ("flow", "industrial_users")]
    assert materialize([*inputs, slug_events], resources=res).success
    assert _rows(tmp_path / "w.duckdb", "SELECT count(*) FROM slug_events") == [(1,)]
