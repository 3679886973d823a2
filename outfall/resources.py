"""Dagster resources: where the inputs are, the judgment date and billing year; the rules of the run.

Defaults run the demo with no configuration: the data folder and warehouse
come from OUTFALL_DATA_DIR / OUTFALL_WAREHOUSE when set, the rules folder and
the town running Outfall from OUTFALL_RULES_DIR / OUTFALL_TOWN.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from dagster import ConfigurableResource, InitResourceContext
from pydantic import Field, PrivateAttr

from outfall.rules import Rules, TownRules, load_town
from outfall.rules.judged import Judged
from outfall.rules.town import default_rules_dir, default_town, enter_timezone, leave_timezone
from outfall.warehouse import memory_limit

# `dagster dev` from the folder you start it in (the repository, with `make dev`).
DEFAULT_DATA_DIR = Path("demo_output") / "data"
DEFAULT_WAREHOUSE = Path("warehouse") / "outfall.duckdb"


def default_data_dir() -> str:
    return os.environ.get("OUTFALL_DATA_DIR", str(DEFAULT_DATA_DIR))


def default_memory_limit() -> str:
    return memory_limit()


def default_as_of() -> str:
    """The day the daemon's and the UI's runs judge by: OUTFALL_AS_OF, else today (empty)."""
    return os.environ.get("OUTFALL_AS_OF", "")


def default_warehouse() -> str:
    return os.environ.get("OUTFALL_WAREHOUSE", str(DEFAULT_WAREHOUSE))


class OutfallSettings(ConfigurableResource):
    """Run settings shared by every asset.

    data_dir: the folder of input dataset folders (contract section 2).
    as_of: the day "overdue" is judged (YYYY-MM-DD; OUTFALL_AS_OF for the daemon's and the UI's runs);
        empty = today in the town's time zone.
    year: the billing year; 0 = every year that has rates.
    rules_dir: the folder of rules files (OUTFALL_RULES_DIR); empty = the project's rules/.
    town: the jurisdiction running Outfall (OUTFALL_TOWN); empty = the one whose rules file has the sewer
        rules.
    dashboards_dir: where the HTML dashboards are written; empty = <warehouse folder>/dashboards.
    memory_limit: DuckDB's memory limit for ingestion (OUTFALL_MEMORY_LIMIT; default 1GB); larger work
        spills to the temp folder beside the warehouse.
    """

    data_dir: str = Field(default_factory=default_data_dir)
    as_of: str = Field(default_factory=default_as_of)
    year: int = 0
    rules_dir: str = Field(default_factory=default_rules_dir)
    town: str = Field(default_factory=default_town)
    dashboards_dir: str = ""
    memory_limit: str = Field(default_factory=default_memory_limit)

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

    rules_dir: str = Field(default_factory=default_rules_dir)
    town: str = Field(default_factory=default_town)

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
            self._loaded = load_town(self.rules_dir or None, self.town)
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
    """The settings and the rules resources of a run, both from the same rules folder and town."""
    run_settings = OutfallSettings(
        **settings,
        **({"rules_dir": rules_dir} if rules_dir is not None else {}),
        **({"town": town} if town is not None else {}),
    )
    return {
        "settings": run_settings,
        "rules": RulesResource(rules_dir=run_settings.rules_dir, town=run_settings.town),
    }
