"""The one typed loader for the rules files in ``rules/`` (one per jurisdiction).

Every limit, schedule, deadline and penalty the pipeline applies comes from
these files. The loader checks the file once and fails with a message that
names the file and the entry (``rules/woodbury.yaml: discharge_limits[2]:
'value' must be a number``) instead of letting a bad rule surface later as a
wrong answer.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from outfall import vocab
from outfall.paths import RULES_DIR


class RulesError(ValueError):
    """A rules file that cannot be used, with the file and entry named."""


@dataclass(frozen=True)
class DischargeLimit:
    parameter: str
    limit_type: str  # max | min
    value: float
    unit: str  # canonical
    citation: str
    effective_from: dt.date
    effective_to: dt.date | None = None

    def in_effect(self, day: dt.date) -> bool:
        return self.effective_from <= day and (self.effective_to is None or day <= self.effective_to)


@dataclass(frozen=True)
class Rules:
    jurisdiction: str
    name: str
    version: str
    source: Path
    sha256: str
    discharge_limits: tuple[DischargeLimit, ...]
    raw: dict[str, Any] = field(repr=False)

    def section(self, name: str) -> dict[str, Any]:
        """A top-level section; RulesError when this jurisdiction has none."""
        if name not in self.raw:
            raise RulesError(f"{self.source.name}: no '{name}' section for {self.name}")
        return self.raw[name]

    def has(self, name: str) -> bool:
        return name in self.raw

    def reading(self, name: str) -> Any:
        """A named reading of ambiguous law (contract section 4)."""
        readings = self.raw.get("readings", {})
        if name not in readings:
            raise RulesError(f"{self.source.name}: no reading named '{name}'")
        return readings[name]["value"]


def _as_date(value: Any, where: str) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError as exc:
        raise RulesError(f"{where}: '{value}' is not a date (YYYY-MM-DD)") from exc


def _require(entry: dict, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(entry, dict):
        raise RulesError(f"{where}: expected a mapping, got {type(entry).__name__}")
    missing = [k for k in keys if entry.get(k) in (None, "")]
    if missing:
        raise RulesError(f"{where}: missing {', '.join(repr(k) for k in missing)}")


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RulesError(f"{where}: '{value}' must be a number")
    return float(value)


def _parse_limits(raw: list, where: str) -> tuple[DischargeLimit, ...]:
    limits = []
    for i, entry in enumerate(raw or []):
        here = f"{where}[{i}]"
        _require(entry, ("parameter", "limit_type", "value", "unit", "citation", "effective_from"), here)
        parameter = vocab.canonical_parameter(entry["parameter"])
        if entry["limit_type"] not in vocab.LIMIT_TYPES:
            raise RulesError(f"{here}: limit_type '{entry['limit_type']}' is not one of {', '.join(vocab.LIMIT_TYPES)}")
        kind = vocab.parameter_kind(parameter)
        unit = vocab.canonical_unit(entry["unit"], kind)
        if unit is None:
            raise RulesError(f"{here}: unit '{entry['unit']}' is not a {kind} unit for {parameter}")
        scale, offset = vocab.LINEAR[unit]
        value = _number(entry["value"], here) * scale + offset
        start = _as_date(entry["effective_from"], here)
        end = _as_date(entry["effective_to"], here) if entry.get("effective_to") else None
        if end is not None and end < start:
            raise RulesError(f"{here}: effective_to {end} is before effective_from {start}")
        limits.append(DischargeLimit(parameter, entry["limit_type"], value, vocab.CANONICAL_OF[unit],
                                     str(entry["citation"]), start, end))
    return tuple(limits)


_SECTION_KEYS: dict[str, tuple[str, ...]] = {
    "slug": ("ratio", "min_duration_min", "baseline_days", "min_baseline_days", "gap_factor", "citation", "effective_from"),
    "infiltration": ("gal_per_inch_diameter_per_mile_per_day", "feet_per_mile", "citation", "effective_from"),
    "sewer_units": ("citation", "effective_from", "components", "classes", "moratorium"),
    "billing": ("rounding", "citation", "effective_from"),
    "swppp": ("applicability", "weekly_interval_days", "storm_threshold_in", "storm_window_days",
              "citation_weekly", "citation_storm", "effective_from"),
    "snc": ("chronic_pct", "trc_pct", "trc_factor_default", "late_report_days", "citation", "effective_from"),
    "notices": ("effective_from",),
    "nondetect_averaging": ("default", "citation", "effective_from"),
    "surcharge": ("lbs_per_mg_per_mgl", "parameters", "rate_usd_per_lb", "citation", "effective_from"),
}

_UNIT_METHODS = {"acreage", "fixed", "per_count", "tiers", "acreage_only"}


def _check_units(schedule: dict, where: str) -> None:
    classes = schedule["classes"]
    for name, spec in classes.items():
        here = f"{where}.classes.{name}"
        if name not in vocab.PROPERTY_CLASSES:
            raise RulesError(f"{here}: '{name}' is not a property class of the contract")
        _require(spec, ("method",), here)
        if spec["method"] not in _UNIT_METHODS:
            raise RulesError(f"{here}: method '{spec['method']}' is not one of {', '.join(sorted(_UNIT_METHODS))}")
        for comp in spec.get("components", []):
            if comp not in vocab.COMPONENTS:
                raise RulesError(f"{here}: component '{comp}' is not one of {', '.join(vocab.COMPONENTS)}")
    missing = [c for c in vocab.PROPERTY_CLASSES if c not in classes]
    if missing:
        raise RulesError(f"{where}: no unit rule for property class(es) {', '.join(missing)}")


def parse_rules(text: str, source: Path) -> Rules:
    """Parse and check one rules file's text."""
    where = source.name
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise RulesError(f"{where}: not valid YAML: {exc}") from exc
    _require(raw, ("jurisdiction", "name", "version"), where)
    if raw["jurisdiction"] not in vocab.JURISDICTIONS:
        raise RulesError(f"{where}: jurisdiction '{raw['jurisdiction']}' is not one of {', '.join(vocab.JURISDICTIONS)}")
    for section, keys in _SECTION_KEYS.items():
        if section in raw:
            _require(raw[section], keys, f"{where}: {section}")
            _as_date(raw[section]["effective_from"], f"{where}: {section}.effective_from")
    for name, reading in (raw.get("readings") or {}).items():
        _require(reading, ("value", "citation", "effective_from"), f"{where}: readings.{name}")
    if "sewer_units" in raw:
        _check_units(raw["sewer_units"], f"{where}: sewer_units")
    limits = _parse_limits(raw.get("discharge_limits") or [], f"{where}: discharge_limits")
    return Rules(
        jurisdiction=raw["jurisdiction"],
        name=raw["name"],
        version=str(raw["version"]),
        source=source,
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        discharge_limits=limits,
        raw=raw,
    )


@lru_cache(maxsize=8)
def _load_cached(path: Path, mtime_ns: int) -> Rules:
    return parse_rules(path.read_text(encoding="utf-8"), path)


def load_rules(jurisdiction: str, rules_dir: Path | None = None) -> Rules:
    """Rules of one jurisdiction from ``rules/<jurisdiction>.yaml``."""
    path = Path(rules_dir or RULES_DIR) / f"{jurisdiction}.yaml"
    if not path.exists():
        raise RulesError(f"no rules file for jurisdiction '{jurisdiction}' at {path}")
    rules = _load_cached(path.resolve(), path.stat().st_mtime_ns)
    if rules.jurisdiction != jurisdiction:
        raise RulesError(f"{path.name}: says jurisdiction '{rules.jurisdiction}', expected '{jurisdiction}'")
    return rules


def load_all(rules_dir: Path | None = None) -> dict[str, Rules]:
    return {j: load_rules(j, rules_dir) for j in vocab.JURISDICTIONS}
