"""The one catalog of parameters and units (outfall.vocab): what pages, letters, the rules and the SQL that
orders parameters read from it, so that a new parameter or unit is one entry there."""

from __future__ import annotations

import dataclasses

import duckdb
import pytest

from outfall import notice_words, vocab
from outfall.rules import words as rules_words
from outfall.warehouse import sql


def test_every_parameter_has_its_words_a_place_and_a_kind_of_unit():
    assert [e.listed for e in sorted(vocab.CATALOG.values(), key=lambda e: e.listed)] == list(
        range(1, len(vocab.CATALOG) + 1)
    )
    for name, entry in vocab.CATALOG.items():
        assert entry.kind in vocab.UNITS, name
        assert entry.short and entry.label, name
        assert vocab.canonical_parameter(name) == name
    assert vocab.PARAMETER_ORDER == ("BOD", "COD", "TSS", "chlorine_demand", "FOG", "pH", "temperature")
    # the contract's order stays the input templates' order of choices
    assert tuple(vocab.PARAMETERS) == ("BOD", "COD", "TSS", "chlorine_demand", "pH", "FOG", "temperature")


def test_each_unit_converts_to_the_first_of_its_kind():
    for kind, units in vocab.UNITS.items():
        canonical = next(iter(units))
        assert vocab.LINEAR[canonical] == (1.0, 0.0)
        for name, unit in units.items():
            assert vocab.CANONICAL_OF[name] == canonical
            assert vocab.LINEAR[name] == (unit.scale, unit.offset)
            assert {vocab.canonical_unit(f" {s.upper()} ", kind) for s in unit.synonyms} == {name}


def test_a_new_parameter_is_one_entry_of_the_catalog(monkeypatch):
    entry = vocab.ParameterEntry(("nh3-n", "ammonia"), "ammonia", "ammonia nitrogen (NH3-N)", 4)
    later = {
        n: dataclasses.replace(e, listed=e.listed + 1) if e.listed >= 4 else e
        for n, e in vocab.CATALOG.items()
    }
    monkeypatch.setattr(vocab, "CATALOG", {**later, "ammonia_n": entry})
    assert notice_words.parameter_label("ammonia_n") == "ammonia nitrogen (NH3-N)"  # letters
    assert vocab.parameter_short("ammonia_n") == "ammonia"  # pages
    assert rules_words.parameter_words("ammonia_n") == "ammonia"  # words about the rules
    order = sorted(["pH", "copper", "ammonia_n", "BOD", "chlorine_demand"], key=vocab.parameter_order)
    assert order == ["BOD", "ammonia_n", "chlorine_demand", "pH", "copper"]


def test_a_parameter_not_in_the_catalog_keeps_the_files_name():
    assert vocab.parameter_label("Copper") == "Copper"
    assert vocab.parameter_short("total_nitrogen") == "total_nitrogen"
    assert rules_words.parameter_words("total_nitrogen") == "total nitrogen"


@pytest.mark.parametrize("shuffled", [["temperature", "Zinc", "pH", "BOD", "copper", "FOG", "COD"]])
def test_the_required_testing_panel_lists_parameters_in_the_catalogs_order(shuffled):
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE required_testing (user_id VARCHAR, name VARCHAR, parameter VARCHAR,"
        " sample_type VARCHAR, frequency VARCHAR, period_start DATE, period_end DATE,"
        " samples INTEGER, status VARCHAR, basis VARCHAR, rule VARCHAR)"
    )
    for p in shuffled:
        con.execute(
            "INSERT INTO required_testing VALUES ('IU-1', 'A', ?, NULL, 'monthly', DATE '2026-01-01',"
            " DATE '2026-01-31', 0, 'missed', NULL, NULL)",
            [p],
        )
    rows = con.execute(
        sql("select_dashboard_required_testing"), {"parameter_order": list(vocab.PARAMETER_ORDER)}
    ).fetchall()
    assert [r[2] for r in rows] == ["BOD", "COD", "FOG", "pH", "temperature", "Zinc", "copper"]
