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
)
from dagster_duckdb import DuckDBResource

from assets.billing.billing import billing_exports, sewer_billing
from assets.common import BILLING_YEARS, READING_MONTHS, months_between, schema_ddl
from assets.ingest import ingest_assets
from outfall.resources import OutfallSettings
from outfall.warehouse import configure, ensure_schema
from pipelines.stages import (
    RANGE_END,
    RANGE_START,
    partition_key_for,
    partitions_with_data,
    plan_stages,
    run_tags,
)
from tests.conftest import materialize, run_cli, write

INGEST = list(ingest_assets)  # the ingestion step: every folder, and the partitions they give
BILLING = [sewer_billing, billing_exports]
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
    # the months: only those that have readings, registered as they are loaded (no calendar from 2000)
    assert isinstance(READING_MONTHS, DynamicPartitionsDefinition) and READING_MONTHS.name == "reading_month"
    slugs = graph.get(AssetKey("slug_events"))
    assert slugs.partitions_def == READING_MONTHS and slugs.backfill_policy == BackfillPolicy.single_run()


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


def test_the_months_of_a_run_are_the_months_that_have_readings_in_local_time():
    """The month partitions: each local month that has a reading, none between them without one."""
    assert months_between(dt.date(2025, 11, 30), dt.date(2026, 2, 1))[1:3] == [
        dt.date(2025, 12, 1),
        dt.date(2026, 1, 1),
    ]
    con = duckdb.connect()
    configure(con, timezone="America/New_York")
    ensure_schema(con, schema_ddl())
    assert partitions_with_data(con, READING_MONTHS) == []
    # 04:30 UTC on 1 March is still 28 February in New York; nothing in April
    for ts in ("2026-03-01 04:30:00+00", "2026-05-31 23:59:00-04", "2026-03-15 12:00:00+00"):
        con.execute(
            "INSERT INTO flow (user_id, constituent, ts, value, loaded_at) VALUES ('U', 'flow', ?, 1, now())",
            [ts],
        ).fetchall()
    assert partitions_with_data(con, READING_MONTHS) == ["2026-02-01", "2026-03-01", "2026-05-01"]


# ---------------------------------------------------------------------------
# billing by year


def _reported_rows(result) -> dict[tuple[str, str], int]:
    """``dagster/row_count`` of each materialization of a run, by asset and partition."""
    return {
        (e.asset_key.to_user_string(), e.partition): e.materialization.metadata["dagster/row_count"].value
        for e in result.get_asset_materialization_events()
        if "dagster/row_count" in e.materialization.metadata
    }


BILLING_TABLES = ("sewer_bills", "billing_runs", "billing_run_totals", "bill_changes", "billing_summary")


def test_billing_years_asset_adds_the_years_that_have_rates(tmp_path, town):
    """Two years billed in one run; each year's materialization of each table counts that year's rows
    (the first year has no changes against a year before it: 0), not the table's."""
    write(town, "sewer_rates/rates_2025.csv", RATES.format(year=2025, bond=90))
    instance = DagsterInstance.ephemeral()
    result = materialize([*INGEST, *BILLING], resources=_resources(tmp_path, town), instance=instance)
    assert result.success
    assert instance.get_dynamic_partitions("billing_year") == ["2025", "2026"]
    w = tmp_path / "w.duckdb"
    assert _rows(w, "SELECT DISTINCT year FROM sewer_bills") == [(2025,), (2026,)]
    reported = {k: n for k, n in _reported_rows(result).items() if k[0] in BILLING_TABLES}
    assert reported == {
        (t, str(y)): _rows(w, f"SELECT count(*) FROM {t} WHERE year = {y}")[0][0]
        for t in BILLING_TABLES
        for y in (2025, 2026)
    }
    assert reported[("bill_changes", "2025")] == 0 < reported[("bill_changes", "2026")]
    assert reported[("sewer_bills", "2025")] < _rows(w, "SELECT count(*) FROM sewer_bills")[0][0]


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
    from assets.sewer.compliance import slug_events
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
    inputs = list(ingest_assets)
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
# the partitions are registered as the files are loaded


def sensor_tick(instance, data: Path) -> None:
    """One tick of the input sensor, its requests for partitions carried out as the daemon does."""
    import os

    from dagster import build_sensor_context

    from pipelines.definitions import input_files_sensor

    old = os.environ.get("OUTFALL_DATA_DIR")
    os.environ["OUTFALL_DATA_DIR"] = str(data)
    try:
        result = input_files_sensor.evaluate_tick(build_sensor_context(instance=instance))
    finally:
        if old is None:
            del os.environ["OUTFALL_DATA_DIR"]
        else:
            os.environ["OUTFALL_DATA_DIR"] = old
    for request in result.dynamic_partitions_requests or []:
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))


def test_the_input_sensor_registers_the_months_and_years_the_loaded_files_give(tmp_path, town):
    """Before anything reads them: a backfill of "all partitions" launched after the folders are loaded
    (the daemon's input sensor loads them on start, and registers what they give) covers them."""
    instance = DagsterInstance.ephemeral()
    assert materialize(INGEST, resources=_resources(tmp_path, town), instance=instance).success
    sensor_tick(instance, town)
    assert instance.get_dynamic_partitions("billing_year") == ["2026"]
    assert instance.get_dynamic_partitions("reading_month") == ["2026-05-01"]
    write(town, "sewer_rates/rates_2025.csv", RATES.format(year=2025, bond=90))
    write(town, "flow/later.csv", "user_id,timestamp,value,unit\nIU-1,2026-07-02T10:00:00-04:00,10,gpm\n")
    assert materialize(INGEST, resources=_resources(tmp_path, town), instance=instance).success
    sensor_tick(instance, town)
    assert instance.get_dynamic_partitions("billing_year") == ["2026", "2025"]
    # as of June 30 July's reading is not yet a fact (contract 8.1): its month has nothing to judge yet
    assert instance.get_dynamic_partitions("reading_month") == ["2026-05-01"]
    res = {**_resources(tmp_path, town), "settings": OutfallSettings(data_dir=str(town), as_of="2026-07-31")}
    assert materialize(INGEST, resources=res, instance=instance).success
    sensor_tick(instance, town)
    assert instance.get_dynamic_partitions("reading_month") == ["2026-05-01", "2026-07-01"]


def test_a_backfill_launched_before_the_partitions_were_registered_fails_saying_why(tmp_path, town):
    """Materialize all on a new instance, before the sensor registered what the files give: never a green
    run without bills. Registered, the same backfill runs."""
    instance = DagsterInstance.ephemeral()
    backfill = {"dagster/backfill": "abcdefgh"}
    first = materialize(
        INGEST, resources=_resources(tmp_path, town), instance=instance, tags=backfill, raise_on_error=False
    )
    assert not first.success
    (failure,) = first.get_step_failure_events()
    said = failure.step_failure_data.user_failure_data.description
    assert (
        "billing years 2026" in said and "months of readings 2026-05-01" in said and "Materialize all" in said
    )
    sensor_tick(instance, town)
    assert materialize(INGEST, resources=_resources(tmp_path, town), instance=instance, tags=backfill).success


def _one_day_of_flow(data: Path, day: str) -> None:
    """A meter's one day of 5-minute readings with one slug (six times its flow for half an hour at noon)."""
    rows = [
        f"IU-1,{day}T{h:02d}:{m:02d}:00-05:00,{600 if h == 12 and m < 30 else 100},gpm,flow"
        for h in range(24)
        for m in range(0, 60, 5)
    ]
    write(data, "flow/f.csv", "user_id,timestamp,value,unit,constituent\n" + "\n".join(rows) + "\n")
    write(
        data,
        "industrial_users/u.csv",
        "user_id,name,district,normal_avg_flow_gpd\nIU-1,Acme,consolidated,144000\n",
    )


def test_readings_dated_after_this_month_have_their_own_partition(tmp_path):
    """A reading dated ahead (a test's or a demo's future day) is in a month that has readings: its own,
    judged by a run as of a day it has come to; a run as of a day before it judges none of it (contract
    8.1)."""
    from assets.sewer.compliance import slug_events

    today = dt.date.today()
    later = dt.date(today.year + (today.month == 12), today.month % 12 + 1, 2).isoformat()
    data = tmp_path / "d"
    _one_day_of_flow(data, later)
    res = _resources(tmp_path, data)
    assert materialize([*ingest_assets, slug_events], resources=res).success
    assert _rows(tmp_path / "w.duckdb", "SELECT count(*) FROM slug_events") == [(0,)]
    res["settings"] = OutfallSettings(data_dir=str(data), as_of=later)
    assert materialize([*ingest_assets, slug_events], resources=res).success
    assert _rows(tmp_path / "w.duckdb", "SELECT count(*) FROM slug_events") == [(1,)]


def test_each_month_reports_its_own_slugs_and_a_month_without_readings_none(tmp_path):
    """Two months in one run (one step): March's materialization counts March's slug, April's (a month
    registered whose readings are gone) 0, not the table's count."""
    from assets.sewer.compliance import slug_events

    data = tmp_path / "d"
    _one_day_of_flow(data, "2026-03-10")
    res = _resources(tmp_path, data)
    instance = DagsterInstance.ephemeral()
    assert materialize(list(ingest_assets), resources=res, instance=instance).success
    sensor_tick(instance, data)
    assert instance.get_dynamic_partitions("reading_month") == ["2026-03-01"]
    instance.add_dynamic_partitions("reading_month", ["2026-04-01"])
    result = materialize(
        [slug_events],
        resources=res,
        instance=instance,
        tags={RANGE_START: "2026-03-01", RANGE_END: "2026-04-01"},
    )
    assert result.success
    assert len([e for e in result.all_events if e.is_step_start]) == 1
    assert _reported_rows(result) == {("slug_events", "2026-03-01"): 1, ("slug_events", "2026-04-01"): 0}
