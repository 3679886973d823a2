"""docs/inputs*.md: the input folders' tables are generated from the dataset specs into marked blocks
(``python -m outfall.ingest docs``), every registered folder in exactly one block, the prose around the
blocks written by hand. Like tests/test_rules_generated.py for docs/rules.md, a stale page fails."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace

import pytest

from outfall.ingest import docs
from outfall.ingest.__main__ import main
from outfall.ingest.datasets import Column, Dataset
from outfall.ingest.registry import all_datasets

STALE = "is stale: run `python -m outfall.ingest docs` and commit the result"


def page_blocks() -> dict[str, list[docs.Block]]:
    return {page: docs.blocks(text, page) for page, text in docs.read_pages().items()}


def test_the_pages_are_fresh():
    assert docs.stale_pages() == [], STALE
    assert main(["docs", "--check"]) == 0


def test_every_registered_folder_is_in_exactly_one_block():
    named = [name for found in page_blocks().values() for block in found for name in block.names]
    assert sorted(named) == sorted(all_datasets()), "each registered folder once, in the Folders of one block"


def test_every_page_has_a_block_and_each_folder_its_table():
    texts = docs.read_pages()
    for page, found in page_blocks().items():
        assert found, f"docs/{page} has no generated block"
        for block in found:
            body = texts[page][block.start : block.end]
            for name in block.names:
                ds = all_datasets()[name]
                section = body.split(f"### `{name}`\n", 1)[1].split("\n### ", 1)[0]
                rows = re.findall(r"^\| `(\w+)` \| (yes|) \|", section, re.M)
                assert rows == [(c.name, "yes" if c.required else "") for c in ds.columns], name
                assert f"Natural key: {docs.natural_key(ds)}." in section


def test_a_folder_in_no_block_in_two_or_unknown_is_refused():
    texts = docs.read_pages()
    new = Dataset("hydrant_flushes", (Column("hydrant_id", required=True),), key=("hydrant_id",))
    with pytest.raises(docs.DocsError, match=r"in no generated block of docs/inputs\*\.md: hydrant_flushes"):
        docs.generate(texts, {**all_datasets(), "hydrant_flushes": new})
    twice = texts["inputs-billing.md"].replace(
        "Folders: sewer_budget, connection_permits -->",
        "Folders: sewer_budget, connection_permits, sites -->",
    )
    assert twice != texts["inputs-billing.md"]
    two = r"sites: in 2 generated blocks \(docs/inputs\.md, docs/inputs-billing"
    with pytest.raises(docs.DocsError, match=two):
        docs.generate({**texts, "inputs-billing.md": twice})
    unknown = twice.replace(", sites -->", ", septic_tanks -->")
    with pytest.raises(docs.DocsError, match="septic_tanks: not a registered dataset"):
        docs.generate({**texts, "inputs-billing.md": unknown})


def test_a_stale_page_is_found_and_rewritten_with_its_prose_kept(tmp_path, capsys):
    for page in docs.PAGES:
        shutil.copy(docs.DOCS_DIR / page, tmp_path / page)
    fresh = (tmp_path / "inputs-sewer.md").read_text(encoding="utf-8")
    stale = fresh.replace("| blank: not received |", "| blank: lost |").replace(
        "## 1. Inputs", "## 1. Inputs (edited by hand)"
    )
    assert stale.count("lost") == 1 and "(edited by hand)" in stale
    (tmp_path / "inputs-sewer.md").write_text(stale, encoding="utf-8")
    assert docs.stale_pages(tmp_path) == ["inputs-sewer.md"]
    assert docs.write_pages(tmp_path) == ["inputs-sewer.md"]
    again = (tmp_path / "inputs-sewer.md").read_text(encoding="utf-8")
    # the table is the spec's again, the prose the page's own
    assert again == fresh.replace("## 1. Inputs", "## 1. Inputs (edited by hand)")
    assert docs.stale_pages(tmp_path) == [] and docs.write_pages(tmp_path) == []


def test_a_spec_change_makes_the_page_stale():
    """A column's words changed in the spec: the regenerated page differs, in that folder's table only."""
    datasets = all_datasets()
    pumpouts = datasets["pumpouts"]
    changed = replace(
        pumpouts,
        columns=tuple(
            replace(c, doc="the hauler's company") if c.name == "hauler" else c for c in pumpouts.columns
        ),
    )
    texts = docs.read_pages()
    out = docs.generate(texts, {**datasets, "pumpouts": changed})
    assert [p for p in docs.PAGES if out[p] != texts[p]] == ["inputs-sewer.md"]
    assert "| `hauler` |  | text | the hauler's company |" in out["inputs-sewer.md"]


def test_the_tables_speak_to_the_clerk():
    """No SQL types, internal names or town names in the generated words; every kind in plain words."""
    texts = docs.read_pages()
    for page, found in page_blocks().items():
        for block in found:
            body = texts[page][block.start : block.end]
            for word in (
                "VARCHAR",
                "DOUBLE",
                "DECIMAL",
                "TIMESTAMPTZ",
                "enum",
                "vocab",
                "outfall/",
                "SQL",
                "Woodbury",
                "Bellport",
                "woodbury",
                "bellport",
            ):
                assert word not in body, (page, word)
            kinds = re.findall(r"^\| `\w+` \| (?:yes|) \| ([^|]+) \|", body, re.M)
            plain = set(docs.KIND_WORDS.values())
            assert kinds and {k.strip().removesuffix(", 0 or more") for k in kinds} <= plain


def test_the_check_command_names_a_stale_page(tmp_path, monkeypatch, capsys):
    for page in docs.PAGES:
        shutil.copy(docs.DOCS_DIR / page, tmp_path / page)
    page = tmp_path / "inputs-billing.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace("| USD, in whole cents |", "| dollars |"), encoding="utf-8"
    )
    monkeypatch.setattr(docs, "DOCS_DIR", tmp_path)
    assert main(["docs", "--check"]) == 1
    assert "docs/inputs-billing.md: stale: run `python -m outfall.ingest docs`" in capsys.readouterr().err
    assert main(["docs"]) == 0 and main(["docs", "--check"]) == 0


def test_the_readme_lists_every_folder_with_its_keeper():
    """Issue 48: the README's table of input folders is generated from the specs (a new folder touches its
    spec, its page and its test, not the README by hand); a folder's keeper follows from its area."""
    from outfall.ingest.registry import all_datasets

    assert not docs.readme_stale(), "README.md: stale: run `python -m outfall.ingest docs`"
    table = docs.readme_table()
    for name, ds in all_datasets().items():
        assert f"| `{name}` | {docs.KEEPER_WORDS[ds.keeper]} |" in table
    assert "| `water_use` | clerk |" in table and "| `inspections` | stormwater officer |" in table
    new = Dataset("hydrant_flushes", (), key=(), group="stormwater", description="Hydrant flushes. More.")
    assert "| `hydrant_flushes` | stormwater officer | Hydrant flushes |" in docs.readme_table({"x": new})


def test_a_folder_of_no_area_is_refused():
    from outfall.ingest.spec import register

    with pytest.raises(ValueError, match="not one of sewer, stormwater, billing, notices"):
        register(Dataset("hydrant_flushes", (), key=(), group="water_department"))
