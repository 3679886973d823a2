"""Dagster resources: where the inputs are, the judgment date and billing year.

Defaults run the demo with no configuration: the data folder and warehouse
come from OUTFALL_DATA_DIR / OUTFALL_WAREHOUSE when set.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from dagster import ConfigurableResource, InitResourceContext
from pydantic import Field, PrivateAttr

from outfall.warehouse import memory_limit, today_local

# `dagster dev` from the folder you start it in (the repository, with `make dev`).
DEFAULT_DATA_DIR = Path("demo_output") / "data"
DEFAULT_WAREHOUSE = Path("warehouse") / "outfall.duckdb"


def default_data_dir() -> str:
    return os.environ.get("OUTFALL_DATA_DIR", str(DEFAULT_DATA_DIR))


def default_rules_dir() -> str:
    return os.environ.get("OUTFALL_RULES_DIR", "")


def default_memory_limit() -> str:
    return memory_limit()


def default_warehouse() -> str:
    return os.environ.get("OUTFALL_WAREHOUSE", str(DEFAULT_WAREHOUSE))


class OutfallSettings(ConfigurableResource):
    """Run settings shared by every asset.

    data_dir: the folder of input dataset folders (contract section 2).
    as_of: the day "overdue" is judged (YYYY-MM-DD); empty = today in America/New_York.
    year: the billing year; 0 = every year that has rates.
    rules_dir: the folder of rules files (OUTFALL_RULES_DIR); empty = the project's rules/.
    dashboards_dir: where the HTML dashboards are written; empty = <warehouse folder>/dashboards.
    memory_limit: DuckDB's memory limit for ingestion (OUTFALL_MEMORY_LIMIT; default 1GB); larger work
        spills to the temp folder beside the warehouse.
    """

    data_dir: str = Field(default_factory=default_data_dir)
    as_of: str = ""
    year: int = 0
    rules_dir: str = Field(default_factory=default_rules_dir)
    dashboards_dir: str = ""
    memory_limit: str = Field(default_factory=default_memory_limit)

    # One clock per run: "today" is read once, when the run starts, and every
    # asset of the run judges by that day (a run across midnight agrees with itself).
    _run_as_of: dt.date | None = PrivateAttr(default=None)
    _run_id: str = PrivateAttr(default="")

    def setup_for_execution(self, context: InitResourceContext) -> None:
        self._run_as_of = dt.date.fromisoformat(self.as_of) if self.as_of else today_local()
        self._run_id = context.run_id or ""

    def as_of_date(self) -> dt.date:
        """The day "overdue" is judged: --as-of, else today in America/New_York when the run started."""
        if self._run_as_of is None:
            self._run_as_of = dt.date.fromisoformat(self.as_of) if self.as_of else today_local()
        return self._run_as_of

    @property
    def run_id(self) -> str:
        return self._run_id

    def data_path(self) -> Path:
        return Path(self.data_dir)

    def rules_path(self) -> Path | None:
        return Path(self.rules_dir) if self.rules_dir else None
