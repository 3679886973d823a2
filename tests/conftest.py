"""Shared fixtures: small contract-format input folders written by the tests."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")
# `outfall run` records its runs in DAGSTER_HOME's instance when it is set: the tests' runs are their own
# (ephemeral), whatever the shell has (tests/test_ui_backfill.py sets one where it means to).
os.environ.pop("DAGSTER_HOME", None)
os.environ.pop("OUTFALL_AS_OF", None)
REPO = Path(__file__).resolve().parents[1]


def pytest_collection_modifyitems(config, items) -> None:
    """The modules with the most end-to-end tests (``slow`` or ``browser``) first. pytest-xdist hands
    each module to one worker (``--dist loadfile``) in this order (the Makefile turns off its own
    reordering by number of tests), so the longest modules start at once instead of leaving one
    worker busy with a long module after the other has finished. Each module's tests keep their order."""
    weight: Counter = Counter()
    for item in items:
        if item.get_closest_marker("slow") or item.get_closest_marker("browser"):
            weight[item.nodeid.split("::")[0]] += 1
    items.sort(key=lambda item: -weight[item.nodeid.split("::")[0]])


def write(folder: Path, relative: str, text: str) -> Path:
    """Write a dedented text file under folder (creating sub-folders)."""
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def small_town(root: Path) -> Path:
    """A small folder with every contract dataset and a few known answers."""
    write(
        root,
        "industrial_users/users.csv",
        """
        user_id,name,district,address,permit_no,permit_effective,permit_expires,normal_avg_flow_gpd
        IU-1,Acme Plating,consolidated,1 Main St,P-1,2025-01-01,2027-01-01,14400
        IU-2,Blue Brewery,district_1,2 Mill Rd,P-2,2025-01-01,2026-08-01,
        """,
    )
    write(
        root,
        "permit_limits/limits.csv",
        """
        user_id,parameter,limit_type,value,unit,basis,effective_from,effective_to
        IU-2,BOD,max,400,mg/L,Special agreement 2026-1,2026-03-01,2026-05-31
        """,
    )
    write(
        root,
        "lab_results/q1.csv",
        """
        sample_id,user_id,collected_at,sample_type,parameter,result,unit,mdl,lab,method
        S-1,IU-1,2026-02-02T09:00,composite,BOD,240,mg/L,,LabA,SM5210B
        S-2,IU-1,2026-02-03T09:00,composite,BOD,240.01,mg/L,,LabA,SM5210B
        S-3,IU-1,2026-02-03T10:00,grab,pH,5.49,s.u.,,LabA,
        S-4,IU-1,2026-02-03T10:00,grab,temperature,65.5,degC,,LabA,
        S-5,IU-2,2026-04-02,composite,BOD,350,mg/l,,LabA,
        S-6,IU-2,2026-06-02,composite,BOD,350,mg/l,,LabA,
        S-7,IU-2,2026-06-02,composite,TSS,<400,mg/L,,LabA,
        S-8,IU-2,2026-06-02,composite,copper,250,ug/L,,LabA,
        S-9,IU-2,2026-06-02,composite,BOD,12,furlongs,,LabA,
        """,
    )
    write(
        root,
        "infiltration_tests/tests.csv",
        """
        section_id,test_date,diameter_in,length_ft,measured_gpd
        MH1-MH2,2026-05-01,8,5280,1600
        MH2-MH3,2026-05-01,8,5280,1601
        """,
    )
    write(
        root,
        "parcels/parcels.csv",
        """
        parcel_id,district,property_class,acres,living_units,bathrooms,washing_machines,people,seats,moratorium,owner,address
        P-1,consolidated,single_family,3.0,,,,,,false,A. Owner,1 Elm
        P-2,consolidated,restaurant,,,,,,51,,Diner LLC,2 Elm
        P-3,district_1,single_family,3.01,,,,,,true,B. Owner,3 Elm
        P-4,district_1,restaurant,,,,,,,,No Seats Inc,4 Elm
        """,
    )
    write(
        root,
        "sewer_rates/rates.csv",
        """
        year,district,component,rate_per_unit
        2026,consolidated,bond,100.00
        2026,consolidated,om,50.005
        2026,consolidated,street_lateral,10
        2026,consolidated,house_lateral,5
        2026,district_1,bond,120
        2026,district_1,om,60
        2026,district_1,street_lateral,12
        2026,district_1,house_lateral,6
        """,
    )
    write(
        root,
        "sites/sites.csv",
        """
        site_id,jurisdiction,disturbed_acres,construction_start,rain_gauge_id,name,address,applicant,impaired_water,single_family,agricultural,exempt,final_stabilization
        W-1,woodbury,2.0,2026-05-01,G1,Oak Ridge,5 Oak,Builder Co,false,false,false,false,
        B-1,bellport,2.0,2026-05-01,G1,Single home,6 Oak,Owner,false,true,false,false,
        """,
    )
    write(
        root,
        "inspections/inspections.csv",
        """
        site_id,inspected_at,inspector,kind,sediment_capacity_lost_pct,notes
        W-1,2026-05-08T10:00,J. Smith,routine,10,ok
        W-1,2026-05-16T10:00,J. Smith,routine,20,late by a day
        """,
    )
    write(
        root,
        "rainfall/gauge.csv",
        """
        gauge_id,date,precip_in
        G1,2026-05-10,0.49
        G1,2026-05-12,0.50
        """,
    )
    flow = ["user_id,timestamp,value,unit,constituent"]
    for i in range(96):
        hh, mm = divmod(i * 15, 60)
        flow.append(f"IU-1,2026-05-01T{hh:02d}:{mm:02d}:00-04:00,10,gpm,flow")
    write(root, "flow/iu1.csv", "\n".join(flow) + "\n")
    return root


@pytest.fixture
def town(tmp_path: Path) -> Path:
    return small_town(tmp_path / "data")


def run_cli(
    *args: str, timeout: int = 300, env: dict[str, str] | None = None, module: str = "outfall"
) -> subprocess.CompletedProcess:
    """`outfall ...` (or `python -m <module> ...`) in a fresh process, as a user would run it;
    ``env`` adds to the environment."""
    env = dict(os.environ, GX_ANALYTICS_ENABLED="false", **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        env=env,
    )


def query_warehouse(db: Path, query: str, params=None) -> list[tuple]:
    """The rows of ``query`` on the warehouse file ``db``, opened read-only and closed again."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(query, params).fetchall() if params is not None else con.execute(query).fetchall()
    finally:
        con.close()


def materialize(assets, *args, **kwargs):
    """``dagster.materialize``, with the warehouse kept open for the run as `outfall run` keeps it
    (``outfall.warehouse.kept_open``): each asset's connection then shares the open database instead
    of opening the file, loading its catalog and checkpointing on close at every step. Every asset
    test uses it; the run itself is Dagster's, unchanged."""
    import contextlib

    from dagster import materialize as dagster_materialize

    from outfall.warehouse import kept_open

    resources = kwargs.get("resources")
    if resources is not None and "rules" not in resources and "settings" in resources:
        # the rules of the run: the same folder and town as the
        # settings (pipelines.definitions.build_resources)
        from outfall.resources import RulesResource

        settings = resources["settings"]
        kwargs["resources"] = {
            **resources,
            "rules": RulesResource(rules_dir=settings.rules_dir, town=settings.town),
        }
    database = str(getattr((kwargs.get("resources") or {}).get("duckdb"), "database", "") or "")
    keep = (
        kept_open(database)
        if database and not database.startswith((":memory:", "md:"))
        else contextlib.nullcontext()
    )
    unique = []
    for a in assets:  # the ingestion step stands for each folder it loads (assets.ingest.ingest_asset)
        if not any(a is u for u in unique):
            unique.append(a)
    assets = unique
    absent = absent_folders(assets, kwargs)
    with keep:
        partitioned = any(getattr(a, "partitions_def", None) is not None for a in assets)
        tags = kwargs.get("tags") or {}
        asked = "partition_key" in kwargs or "dagster/asset_partition_range_start" in tags
        if not partitioned or asked:
            if asked:
                _add_asked_partitions(assets, kwargs)
            if absent and "selection" not in kwargs:
                kwargs["selection"] = [k for a in assets for k in getattr(a, "keys", ()) if k not in absent]
            return dagster_materialize(assets, *args, **kwargs)
        return materialize_in_stages(assets, dagster_materialize, absent=absent, **kwargs)


def absent_folders(assets, kwargs: dict) -> set:
    """The input folders the test's data folder does not have, when the run holds the ingestion step and
    no selection: the step is run for the folders present only (it is subsettable, as the UI runs it for
    one folder). An absent folder would load nothing; its table exists empty all the same (the warehouse
    creates every table), and its checks pass on no rows: running it cost each test about 0.7 CPU-s of
    Dagster events for the 27 folders and their 16 checks. A test that means the whole step passes
    ``selection``."""
    from dagster import AssetKey

    from assets.ingest import input_folders
    from outfall.ingest.registry import all_datasets

    settings = (kwargs.get("resources") or {}).get("settings")
    if settings is None or "selection" in kwargs or not any(a is input_folders for a in assets):
        return set()
    data = settings.data_path()
    return {AssetKey(name) for name in all_datasets() if not (data / name).exists()}


def _add_asked_partitions(assets, kwargs: dict) -> None:
    """A partition asked for by key exists in the run's instance, as the ingestion step would have
    registered it (the partitions are dynamic: the months that have readings, the years that have rates)."""
    from dagster import DagsterInstance, DynamicPartitionsDefinition

    tags = kwargs.get("tags") or {}
    keys = [kwargs.get("partition_key")] + [
        tags.get(f"dagster/asset_partition_range_{e}") for e in ("start", "end")
    ]
    instance = kwargs.setdefault("instance", DagsterInstance.ephemeral())
    for a in assets:
        definition = getattr(a, "partitions_def", None)
        if isinstance(definition, DynamicPartitionsDefinition):
            known = set(instance.get_dynamic_partitions(definition.name))
            new = [k for k in dict.fromkeys(keys) if k and k not in known]
            if new:
                instance.add_dynamic_partitions(definition.name, new)


def materialize_in_stages(
    assets, dagster_materialize, partitions: dict | None = None, absent: set | None = None, **kwargs
):
    """Partitioned assets among others: one run per stage, as `outfall run` does (pipelines.stages), each
    partitioned stage over the partitions that hold data (or ``partitions[label]``: the keys to run);
    ``absent``: input folders left out of the ingestion step (``absent_folders``)."""
    from dagster import AssetsDefinition, DagsterInstance

    from assets.common import warehouse
    from pipelines.stages import asset_graph, partitions_label, partitions_with_data, plan_stages, run_stages

    defs = [a for a in assets if isinstance(a, AssetsDefinition)]
    stages = plan_stages(defs)
    _, parents = asset_graph(defs)
    instance = kwargs.pop("instance", None) or DagsterInstance.ephemeral()
    raise_on_error = kwargs.pop("raise_on_error", True)
    tags = kwargs.pop("tags", None) or {}

    def wanted(stage):
        if partitions and partitions_label(stage.partitions_def) in partitions:
            return partitions[partitions_label(stage.partitions_def)]
        with warehouse(kwargs["resources"]["duckdb"]) as con:
            rules = kwargs["resources"].get("rules")
            return partitions_with_data(con, stage.partitions_def, rules.town_rules() if rules else None)

    def run_one(stage, keys, stage_tags):
        return dagster_materialize(
            assets,
            selection=[k for k in keys if k not in (absent or ())],
            instance=instance,
            raise_on_error=raise_on_error,
            tags={**tags, **stage_tags},
            **kwargs,
        )

    return run_stages(stages, parents, run_one, wanted, instance)


def materialize_town(assets: list, data: Path, warehouse: Path, as_of: str):
    """``dagster.materialize`` of ``assets`` on the input folder ``data`` into ``warehouse``, as of ``as_of``;
    asserts the run succeeded and returns its result."""
    from dagster_duckdb import DuckDBResource

    from outfall.resources import OutfallSettings

    result = materialize(
        assets,
        resources={
            "duckdb": DuckDBResource(database=str(warehouse)),
            "settings": OutfallSettings(data_dir=str(data), as_of=as_of),
        },
    )
    assert result.success
    return result


@pytest.fixture(scope="session")
def demo_town(tmp_path_factory, worker_id) -> Path:
    """The demo town as `outfall demo` makes it, made once for the whole test session (the pytest-xdist
    workers share it through a lock): read it, never change it (copy it first, as test_demo_town does)."""
    from filelock import FileLock

    shared = (
        tmp_path_factory.getbasetemp() if worker_id == "master" else tmp_path_factory.getbasetemp().parent
    )
    out = shared / "demo_town"
    with FileLock(str(shared / "demo_town.lock")):
        if not (out / "demo_finished").exists():
            result = run_cli("demo", "--out", str(out), timeout=900)
            assert result.returncode == 0, result.stderr
            (out / "demo_finished").write_text("", encoding="utf-8")
    return out


def own_checks(result) -> list:
    """A run's check evaluations but those of the input tables (the ingestion step runs them too)."""
    from assets.ingest import input_folders

    inputs = set(input_folders.check_keys)
    return [e for e in result.get_asset_check_evaluations() if e.asset_check_key not in inputs]
