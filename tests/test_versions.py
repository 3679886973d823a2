"""What each table was made from (outfall/versions.py): the input folders' data versions, which tables a
run makes, and the record the warehouse keeps of them."""

from __future__ import annotations

import pytest
from dagster import AssetKey, DagsterInstance
from dagster_duckdb import DuckDBResource

from assets.ingest import ingest_assets
from outfall.resources import OutfallSettings
from outfall.versions import (
    Node,
    all_current,
    code_version,
    current_after,
    data_fingerprint,
    digest,
    expected_versions,
    plan,
)
from tests.conftest import materialize, query_warehouse, write

LAB = "sample_id,user_id,collected_at,sample_type,parameter,result,unit,mdl,lab,method\n"

# ---------------------------------------------------------------------------
# the versions, as pure functions

# a and s are inputs; b reads a; m (by month) reads a; p reads b and every month of m; q reads s
NODES = {
    "a": Node("a", ()),
    "s": Node("s", ()),
    "b": Node("b", ("a",)),
    "m": Node("m", ("a",), "month"),
    "p": Node("p", ("b", "m")),
    "q": Node("q", ("s",)),
}
MONTHS = {"month": ["2026-01-01", "2026-02-01"]}


def _made_all(sources: dict) -> tuple[dict, dict]:
    expected = expected_versions(NODES, sources, MONTHS, "code-1", ("a", "s"))
    return expected, {**expected}


def test_nothing_changed_nothing_to_make():
    expected, recorded = _made_all({("a", ""): "a1", ("s", ""): "s1"})
    assert plan(NODES, recorded, expected, MONTHS) == set()
    assert all_current(recorded, expected)


def test_a_changed_input_makes_what_reads_it_and_nothing_else():
    _, recorded = _made_all({("a", ""): "a1", ("s", ""): "s1"})
    recorded[("a", "")] = "a2"  # the ingestion step recorded the folder's new files
    expected = expected_versions(NODES, recorded, MONTHS, "code-1", ("a", "s"))
    assert plan(NODES, recorded, expected, MONTHS) == {
        ("b", ""),
        ("m", "2026-01-01"),
        ("m", "2026-02-01"),
        ("p", ""),
    }


def test_new_code_makes_every_table_a_new_month_only_itself_and_what_reads_it():
    _, recorded = _made_all({("a", ""): "a1", ("s", ""): "s1"})
    expected = expected_versions(NODES, recorded, MONTHS, "code-2", ("a", "s"))
    assert {a for a, _ in plan(NODES, recorded, expected, MONTHS)} == {"b", "m", "p", "q"}
    months = {"month": [*MONTHS["month"], "2026-03-01"]}
    expected = expected_versions(NODES, recorded, months, "code-1", ("a", "s"))
    assert plan(NODES, recorded, expected, months) == {("m", "2026-03-01"), ("p", "")}


def test_what_read_a_table_that_failed_is_made_again_next_time():
    _, recorded = _made_all({("a", ""): "a1", ("s", ""): "s1"})
    recorded[("a", "")] = "a2"
    expected = expected_versions(NODES, recorded, MONTHS, "code-1", ("a", "s"))
    # b failed; p was written all the same (a page after a failure) from the b that was there
    made = {("m", "2026-01-01"), ("m", "2026-02-01"), ("p", "")}
    new = current_after(NODES, recorded, expected, made, MONTHS)
    assert set(new) == {("m", "2026-01-01"), ("m", "2026-02-01")}
    recorded.update(new)
    assert not all_current(recorded, expected)
    assert plan(NODES, recorded, expected, MONTHS) == {("b", ""), ("p", "")}


def test_a_table_read_by_another_is_forced_with_what_reads_it():
    expected, recorded = _made_all({("a", ""): "a1", ("s", ""): "s1"})
    assert plan(NODES, recorded, expected, MONTHS, forced={("m", "2026-02-01")}) == {
        ("m", "2026-02-01"),
        ("p", ""),
    }


def test_fingerprints_and_code_versions_are_stable_and_see_a_change(tmp_path):
    assert digest("x", [1, 2]) == digest("x", [1, 2]) != digest("x", [2, 1])
    write(tmp_path, "lab_results/a.csv", LAB)
    before = data_fingerprint(tmp_path)
    assert data_fingerprint(tmp_path) == before
    write(tmp_path, "lab_results/b.csv", LAB)
    assert data_fingerprint(tmp_path) != before
    rules = tmp_path / "rules"
    rules.mkdir()
    from outfall.paths import RULES_DIR

    for path in RULES_DIR.glob("*.yaml"):
        (rules / path.name).write_bytes(path.read_bytes())
    assert code_version(str(rules)) == code_version("")
    (rules / "woodbury.yaml").write_text((rules / "woodbury.yaml").read_text() + "\n# edited\n")
    code_version.cache_clear()
    assert code_version(str(rules)) != code_version("")


# ---------------------------------------------------------------------------
# the ingestion step reports what changed


def _resources(tmp_path, data, as_of: str = "2026-06-30") -> dict:
    return {
        "duckdb": DuckDBResource(database=str(tmp_path / "w.duckdb")),
        "settings": OutfallSettings(data_dir=str(data), as_of=as_of),
    }


def _reported(result) -> dict[str, str]:
    """The assets a run reported, each with its data version."""
    return {
        e.asset_key.to_user_string(): e.step_materialization_data.materialization.tags["dagster/data_version"]
        for e in result.get_asset_materialization_events()
    }


def test_the_inputs_alone_report_only_the_folders_whose_files_changed(tmp_path, town):
    instance = DagsterInstance.ephemeral()
    first = _reported(
        materialize(list(ingest_assets), resources=_resources(tmp_path, town), instance=instance)
    )
    assert {"lab_results", "flow", "parcels", "quarantine", "outfall_run"} <= set(first)
    again = materialize(list(ingest_assets), resources=_resources(tmp_path, town), instance=instance)
    assert _reported(again) == {}
    write(town, "lab_results/late.csv", LAB + "S-9,IU-1,2026-06-03,composite,BOD,12,mg/L,,LabA,\n")
    new = _reported(materialize(list(ingest_assets), resources=_resources(tmp_path, town), instance=instance))
    assert set(new) == {"lab_results", "quarantine"}
    assert new["lab_results"] != first["lab_results"] and new["quarantine"] != first["quarantine"]
    ledger = query_warehouse(
        tmp_path / "w.duckdb", "SELECT version FROM _asset_versions WHERE asset = 'lab_results'"
    )
    assert ledger == [(new["lab_results"],)]
    # a new day judged by: the run's settings alone
    later = _resources(tmp_path, town, as_of="2026-07-01")
    assert set(_reported(materialize(list(ingest_assets), resources=later, instance=instance))) == {
        "outfall_run"
    }


def test_a_run_that_makes_what_reads_the_inputs_reports_every_folder(tmp_path, town):
    from assets.sewer.compliance import discharge_violations

    res = _resources(tmp_path, town)
    assert materialize(list(ingest_assets), resources=res).success
    both = _reported(materialize([*ingest_assets, discharge_violations], resources=res))
    assert {"lab_results", "industrial_users", "discharge_violations"} <= set(both)


def test_what_reads_the_day_judged_by_reads_the_run_settings():
    """Billing too: it reads the inputs as they stood at the end of the day (contract 8.1), so its
    version holds the day."""
    from pipelines.definitions import defs

    graph = defs.resolve_asset_graph()
    run = AssetKey("outfall_run")
    for key in ("notices", "dashboard_index", "sewer_bills", "discharge_violations", "slug_events"):
        assert run in graph.get(AssetKey(key)).parent_keys, key
    assert {graph.get(k).code_version for k in graph.get_all_asset_keys()} == {code_version("")}


@pytest.mark.parametrize("name", ["quarantine", "outfall_run", "lab_results"])
def test_the_ingestion_steps_assets_may_be_left_unreported(name):
    from assets.ingest import input_folders

    assert next(s for s in input_folders.specs if s.key == AssetKey(name)).skippable


def test_a_runs_fingerprint_sees_the_day_the_town_and_the_rules(tmp_path, monkeypatch):
    """Regression: the fingerprint left out the town running Outfall, so a run of another town of the
    same folder (OUTFALL_TOWN) was "nothing new"; a run as of another day never is either."""
    from outfall.rules.town import TOWN_VARIABLE
    from pipelines.runs import fingerprint_of

    write(tmp_path, "data/lab_results/a.csv", LAB)
    monkeypatch.delenv(TOWN_VARIABLE, raising=False)

    def of(as_of: str = "2026-06-30", rules_dir: str = "") -> str:
        return fingerprint_of(tmp_path / "data", tmp_path / "w.duckdb", as_of, 0, "", rules_dir)

    before = of()
    assert of() == before
    assert of(as_of="2026-07-01") != before
    monkeypatch.setenv(TOWN_VARIABLE, "bellport")
    assert of() != before
    monkeypatch.delenv(TOWN_VARIABLE)
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "woodbury.yaml").write_text("# another town's rules\n")
    code_version.cache_clear()
    assert of(rules_dir=str(rules)) != before
