"""Dagster resources: where the inputs are, the judgment date and billing year; the rules of the run.

Defaults run the demo with no configuration. The daemon's and the UI's runs take each setting from its
environment variable where it is set (``from_environment``: Dagster's ``EnvVar``, read when a run starts
and shown as such in the UI): OUTFALL_DATA_DIR, OUTFALL_AS_OF, OUTFALL_RULES_DIR, OUTFALL_TOWN,
OUTFALL_MEMORY_LIMIT; the warehouse from OUTFALL_WAREHOUSE (``pipelines.definitions.build_resources``).
`outfall run` gives its own.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
from dagster import ConfigurableResource, EnvVar, InitResourceContext
from dagster_duckdb import DuckDBResource
from pydantic import PrivateAttr

from outfall.rules import Rules, TownRules, load_town
from outfall.rules.judged import Judged
from outfall.rules.town import RULES_DIR_VARIABLE, TOWN_VARIABLE, enter_timezone, leave_timezone
from outfall.warehouse import DEFAULT_MEMORY_LIMIT

# `dagster dev` from the folder you start it in (the repository, with `make dev`).
DEFAULT_DATA_DIR = Path("demo_output") / "data"
DEFAULT_WAREHOUSE = Path("warehouse") / "outfall.duckdb"


# Each setting of the daemon's and the UI's runs, and the environment variable it comes from.
ENVIRONMENT = {
    "data_dir": "OUTFALL_DATA_DIR",
    "as_of": "OUTFALL_AS_OF",
    "rules_dir": RULES_DIR_VARIABLE,
    "town": TOWN_VARIABLE,
    "memory_limit": "OUTFALL_MEMORY_LIMIT",
}
WAREHOUSE_VARIABLE = "OUTFALL_WAREHOUSE"


def default_data_dir() -> str:
    """The input folder the input sensor watches: OUTFALL_DATA_DIR, else the demo's."""
    return os.environ.get(ENVIRONMENT["data_dir"], str(DEFAULT_DATA_DIR))


def default_warehouse() -> str:
    return os.environ.get(WAREHOUSE_VARIABLE, str(DEFAULT_WAREHOUSE))


def from_environment(names: dict[str, str] = ENVIRONMENT) -> dict[str, EnvVar]:
    """Each setting whose environment variable is set, as Dagster's ``EnvVar`` of it (read when a run
    starts); a setting whose variable is not set keeps its default."""
    return {field: EnvVar(variable) for field, variable in names.items() if os.environ.get(variable)}


def value(setting: str | EnvVar) -> str:
    """A setting's value outside a run (an ``EnvVar`` read now)."""
    return (setting.get_value() or "") if isinstance(setting, EnvVar) else setting


# How long a step tries to open a warehouse another process holds, before it fails (seconds between tries).
LOCK_TRIES = (0.1, 0.3, 0.6, 1.0)
IN_USE = "is in use by another writer"
# When this process last found each warehouse in use: for a while after, its other steps try once only
# (a run's independent steps would otherwise each wait the tries above, one after the other).
_FOUND_IN_USE: dict[str, float] = {}
IN_USE_FOR_S = 60.0


class WarehouseInUse(RuntimeError):
    """Another process holds the warehouse file (DuckDB lets one process write it)."""

    def __init__(self, database: str, detail: str):
        super().__init__(
            f"the warehouse {database} {IN_USE} (another outfall run, a Dagster run of the daemon or the "
            f"UI, or a program that has it open); this step wrote nothing: run again when it is done "
            f"(DuckDB: {detail})"
        )


class Warehouse(DuckDBResource):
    """The DuckDB warehouse of a run: ``DuckDBResource`` (the same ``database`` and connection settings),
    but a file another process holds fails the step within two seconds, saying so, instead of Dagster's
    ten retries over minutes while the step holds its pool's slot. Every writer of the file waits in
    Dagster's queue (the pool ``outfall_warehouse``), not on the file's lock."""

    @contextlib.contextmanager
    def get_connection(self) -> Iterator[duckdb.DuckDBPyConnection]:
        config = {"custom_user_agent": "dagster", **self.connection_config}
        recently = time.monotonic() - _FOUND_IN_USE.get(self.database, -IN_USE_FOR_S) < IN_USE_FOR_S
        for pause in (None,) if recently else (*LOCK_TRIES, None):
            try:
                con = duckdb.connect(self.database, read_only=False, config=config)
                _FOUND_IN_USE.pop(self.database, None)
                break
            except duckdb.IOException as exc:
                if "lock" not in str(exc).lower():
                    raise
                if pause is None:
                    _FOUND_IN_USE[self.database] = time.monotonic()
                    raise WarehouseInUse(self.database, str(exc).splitlines()[0]) from None
                time.sleep(pause)
        try:
            yield con
        finally:
            con.close()


class OutfallSettings(ConfigurableResource):
    """Run settings shared by every asset.

    data_dir: the folder of input dataset folders (contract section 2).
    as_of: the day "overdue" is judged (YYYY-MM-DD; OUTFALL_AS_OF for the daemon's and the UI's runs);
        empty = today in the town's time zone when the run starts.
    year: the billing year; 0 = every year that has rates.
    rules_dir: the folder of rules files (OUTFALL_RULES_DIR); empty = the project's rules/.
    town: the jurisdiction running Outfall (OUTFALL_TOWN); empty = the one whose rules file has the sewer
        rules.
    dashboards_dir: where the HTML dashboards are written; empty = <warehouse folder>/dashboards.
    memory_limit: DuckDB's memory limit for ingestion (OUTFALL_MEMORY_LIMIT; default 1GB); larger work
        spills to the temp folder beside the warehouse.
    """

    data_dir: str = str(DEFAULT_DATA_DIR)
    as_of: str = ""
    year: int = 0
    rules_dir: str = ""
    town: str = ""
    dashboards_dir: str = ""
    memory_limit: str = DEFAULT_MEMORY_LIMIT

    # One clock per run: "today" is read once, when the run starts, and every
    # asset of the run judges by that day (a run across midnight agrees with itself).
    _run_as_of: dt.date | None = PrivateAttr(default=None)
    _run_id: str = PrivateAttr(default="")

    def setup_for_execution(self, context: InitResourceContext) -> None:
        self._run_as_of = self._as_of()
        self._run_id = context.run_id or ""

    def _as_of(self) -> dt.date:
        if self.as_of:
            return dt.date.fromisoformat(self.as_of)
        return load_town(self.rules_path(), self.town).today()

    def as_of_date(self) -> dt.date:
        """The day "overdue" is judged: --as-of, else today in the town's time zone when the run started."""
        if self._run_as_of is None:
            self._run_as_of = self._as_of()
        return self._run_as_of

    @property
    def run_id(self) -> str:
        return self._run_id

    def data_path(self) -> Path:
        return Path(self.data_dir)

    def rules_path(self) -> Path | None:
        return Path(self.rules_dir) if self.rules_dir else None


class RulesResource(ConfigurableResource):
    """The rules of the run, handed to every asset: the town running Outfall (``town_rules()``), every
    jurisdiction by name (``of(jurisdiction)``: a construction site may be in another), the
    jurisdictions found (``jurisdictions()``) and the local time zone (``timezone()``).

    rules_dir: the folder of rules files, one ``<jurisdiction>.yaml`` each (OUTFALL_RULES_DIR); empty = the
        project's rules/.
    town: the jurisdiction running Outfall (OUTFALL_TOWN); empty = the one whose file has the sewer rules
        (a folder where several have them must name it).

    While a run goes on, ``outfall.rules.local_timezone()`` is the town's (pages and exports show times
    in it).
    """

    rules_dir: str = ""
    town: str = ""

    _loaded: TownRules | None = PrivateAttr(default=None)
    _entered: bool = PrivateAttr(default=False)

    def setup_for_execution(self, context: InitResourceContext) -> None:
        enter_timezone(self.load().timezone)
        self._entered = True

    def teardown_after_execution(self, context: InitResourceContext) -> None:
        if self._entered:
            leave_timezone()
            self._entered = False

    def load(self) -> TownRules:
        """Every rules file of the folder, read and checked (once per resource)."""
        if self._loaded is None:
            self._loaded = load_town(value(self.rules_dir) or None, value(self.town))
        return self._loaded

    def town_rules(self) -> Rules:
        """The rules of the town running Outfall: its sewer rules, bills, letters' law and time zone."""
        return self.load().town

    def jurisdiction(self) -> str:
        """The town running Outfall, as its rules file is named."""
        return self.load().jurisdiction

    def of(self, jurisdiction: str) -> Rules:
        """The rules of ``jurisdiction``; RulesError naming the rules files found when there is none."""
        return self.load().of(jurisdiction)

    def all_rules(self) -> dict[str, Rules]:
        """Every jurisdiction's rules, by name."""
        return dict(self.load().rules)

    def jurisdictions(self) -> tuple[str, ...]:
        return self.load().jurisdictions

    def judged(self) -> Judged:
        """What the rules judge (contract 8.6): the town's of the sewer use law, every jurisdiction's of
        construction sites; every statement of "none" asks it (``Judged.none``)."""
        return Judged.of(self.town_rules(), self.all_rules().values())

    def timezone(self) -> str:
        """The town's local time zone: the day of a reading, a time without an offset, today."""
        return self.load().timezone

    def names(self, *jurisdictions: str) -> str:
        """Whom a page or letter is about: "Town of A and Village of B" (default: every jurisdiction)."""
        return self.load().names(*jurisdictions)


def run_resources(rules_dir: str | None = None, town: str | None = None, **settings) -> dict:
    """The settings and the rules resources of a run, both from the same rules folder and town; what is
    not given comes from the environment where it is set (``from_environment``)."""
    given = {k: v for k, v in {"rules_dir": rules_dir, "town": town}.items() if v is not None}
    run_settings = OutfallSettings(**{**from_environment(), **given, **settings})
    return {
        "settings": run_settings,
        "rules": RulesResource(rules_dir=run_settings.rules_dir, town=run_settings.town),
    }
