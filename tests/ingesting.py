"""What the ingestion tests share: the context rules give the engine, a fixed load time, an empty
warehouse with every table, and loading one input folder in one transaction."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pytest

from outfall.ingest.datasets import DATASETS, Context
from outfall.ingest.engine import ingest_dataset
from outfall.rules import load_rules
from outfall.warehouse import configure, ensure_schema, transaction

CTX = Context(unit_schedule=load_rules("woodbury").sewer_units.at(dt.date(2026, 6, 30)).model_dump())
NOW = dt.datetime(2026, 7, 1, tzinfo=dt.timezone.utc)


@pytest.fixture
def con(tmp_path):
    """A warehouse file with every table created, closed after the test."""
    c = configure(duckdb.connect(str(tmp_path / "w.duckdb")))
    ensure_schema(c)
    yield c
    c.close()


def load(con, data: Path, name: str):
    """Ingest the input folder ``name`` under ``data`` in one transaction; the engine's result."""
    with transaction(con):
        return ingest_dataset(con, DATASETS[name], data, CTX, NOW)
