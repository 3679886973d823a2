"""What the ingestion tests share: the context rules give the engine, a fixed load time, an empty
warehouse with every table (or with the contract's only), and loading one input folder in one transaction."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pytest

from assets.common import schema_ddl
from outfall.ingest.compile import create_table_sql
from outfall.ingest.datasets import DATASETS, Context
from outfall.ingest.engine import load_dataset
from outfall.ingest.registry import CONTRACT_DATASETS, all_datasets
from outfall.rules import load_town
from outfall.warehouse import configure, ensure_schema, sql

TOWN = load_town()
CTX = Context(
    unit_schedule=TOWN.town.sewer_units.at(dt.date(2026, 6, 30)).model_dump(),
    timezone=TOWN.timezone,
    jurisdictions=TOWN.jurisdictions,
    rules_files=TOWN.files_found(),
)
NOW = dt.datetime(2026, 7, 1, tzinfo=dt.UTC)


@pytest.fixture
def con(tmp_path):
    """A warehouse file with every table created, closed after the test."""
    c = configure(duckdb.connect(str(tmp_path / "w.duckdb")), timezone=TOWN.timezone)
    ensure_schema(c, schema_ddl())
    yield c
    c.close()


def load(con, data: Path, name: str):
    """Ingest the input folder ``name`` under ``data`` in one transaction; the engine's result."""
    return load_dataset(con, DATASETS[name], data, CTX, NOW)


def contract_ddl() -> str:
    """The contract's tables only (sql/ingest/create_tables.sql and the input tables of the contract's
    ten datasets, made from their specs), without the areas' own."""
    specs = all_datasets()
    return "\n".join([sql("create_tables"), *(create_table_sql(specs[n]) for n in CONTRACT_DATASETS)])
