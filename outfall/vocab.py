"""The contract's vocabularies: canonical names, synonyms and unit conversions.

The one catalog of parameters (``CATALOG``: spellings, words on pages and in letters, the order pages list
them, the kind of unit) and of units (``UNITS``: spellings and factors to the canonical unit, by kind):
pages, letters, the rules' models, ingestion and the SQL that orders parameters read them from here.

Pure lookups, no I/O. Matching is case-insensitive with surrounding blanks
ignored; the canonical name is the first of each contract vocabulary entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class ParameterEntry:
    """One parameter of the catalog: its other spellings in the input files, its words, its place on the
    pages and the kind of unit it is measured in."""

    synonyms: tuple[str, ...]
    """Every spelling the input files may use (matched ignoring case and surrounding blanks)."""
    short: str
    """Its name on a page (a table's column, a chart's panel)."""
    label: str
    """Its name in a letter (a notice's table of violations)."""
    listed: int
    """Its place where pages and letters list parameters (those not in the catalog come after, by name)."""
    kind: str = "concentration"
    """The kind of unit it is measured in (a key of ``UNITS``)."""


#: The catalog of parameters, in the contract's order (the input templates' choices): a new pollutant shown
#: with its own words is one entry here; one that is not is still judged, under the name the files give it.
CATALOG: dict[str, ParameterEntry] = {
    "BOD": ParameterEntry(
        ("bod", "bod5", "biochemical oxygen demand", "bod 5", "bod-5"),
        "BOD",
        "BOD (5-day biochemical oxygen demand)",
        1,
    ),
    "COD": ParameterEntry(("cod", "chemical oxygen demand"), "COD", "COD (chemical oxygen demand)", 2),
    "TSS": ParameterEntry(
        ("tss", "ss", "suspended solids", "total suspended solids"), "TSS", "suspended solids (TSS)", 3
    ),
    "chlorine_demand": ParameterEntry(
        ("chlorine_demand", "chlorine demand", "cl2 demand"), "chlorine demand", "chlorine demand", 4
    ),
    "pH": ParameterEntry(("ph",), "pH", "pH", 6, kind="ph"),
    "FOG": ParameterEntry(
        ("fog", "oil and grease", "o&g", "hem", "fats oils and grease", "oil & grease"),
        "FOG",
        "fats, oils and grease (FOG)",
        5,
    ),
    "temperature": ParameterEntry(
        ("temperature", "temp"), "temperature", "temperature", 7, kind="temperature"
    ),
}
PARAMETERS: dict[str, tuple[str, ...]] = {name: entry.synonyms for name, entry in CATALOG.items()}
_PARAM_LOOKUP = {syn: canon for canon, syns in PARAMETERS.items() for syn in syns}

# Which kind of unit each parameter is measured in. Parameters not listed
# (metals, other substances, anything else) are concentrations.
PARAMETER_KIND = {name: entry.kind for name, entry in CATALOG.items() if entry.kind != "concentration"}


@dataclass(frozen=True)
class Unit:
    """One unit of a kind: its other spellings, and the factors to the kind's canonical unit (the first of
    the kind): canonical = value * scale + offset."""

    synonyms: tuple[str, ...]
    scale: float = 1.0
    offset: float = 0.0


#: The units of each kind of measurement, the canonical unit first: a new unit is one entry here.
UNITS: dict[str, dict[str, Unit]] = {
    "concentration": {
        "mg/L": Unit(("mg/l", "ppm", "g/m3", "mg per l", "mg/liter")),
        "ug/L": Unit(("ug/l", "µg/l", "μg/l", "ppb"), 0.001),
    },
    "ph": {"s.u.": Unit(("s.u.", "su", "ph units", "ph unit", "s.u", "std units"))},
    "temperature": {
        "degF": Unit(("degf", "°f", "f", "deg f")),
        "degC": Unit(("degc", "°c", "c", "deg c"), 1.8, 32.0),
    },
    "flow": {
        "gpm": Unit(("gpm",)),
        "gpd": Unit(("gpd",), 1.0 / 1440.0),
        "mgd": Unit(("mgd",), 1_000_000.0 / 1440.0),
        "L/s": Unit(("l/s", "lps"), 60.0 / 3.785411784),
        "m3/d": Unit(("m3/d", "m³/d", "cmd"), 264.17205235814845 / 1440.0),
    },
}


def _spellings(kind: str) -> dict[str, tuple[str, ...]]:
    return {name: unit.synonyms for name, unit in UNITS[kind].items()}


CONCENTRATION_UNITS = _spellings("concentration")
PH_UNITS = _spellings("ph")
TEMPERATURE_UNITS = _spellings("temperature")
FLOW_UNITS = _spellings("flow")


def _lookup(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {syn: canon for canon, syns in table.items() for syn in syns}


_UNIT_LOOKUP = {kind: _lookup(_spellings(kind)) for kind in UNITS}

# Linear factors (scale, offset) for vectorised conversion: canonical = v * scale + offset.
LINEAR: dict[str, tuple[float, float]] = {
    name: (unit.scale, unit.offset) for units in UNITS.values() for name, unit in units.items()
}
# The canonical unit of each unit: the first of its kind.
CANONICAL_OF = {name: next(iter(units)) for units in UNITS.values() for name in units}

# The sewer districts, property classes and bill components are not lists here: each town's rules file
# lists its own codes (section vocabulary; outfall.rules.codes).
# The jurisdictions are not a list here: each is a rules file, found by name (outfall.rules.jurisdictions).
SAMPLE_TYPES = ("composite", "grab")
LIMIT_TYPES = ("max", "min", "daily_max", "monthly_avg")
INSPECTION_KINDS = ("routine", "storm", "milestone", "officer")
# How often the administrator may require a parameter to be sampled: calendar months, quarters,
# half-years, years (outfall/law/testing.py counts the months of each).
TESTING_FREQUENCIES = ("monthly", "quarterly", "semiannual", "annual")


def _norm(text: object) -> str:
    return re.sub(r"\s+", " ", str(text).strip().lower())


def canonical_parameter(name: object) -> str:
    """BOD5 -> BOD; unknown names are kept as given (trimmed): 'no limit defined' later."""
    key = _norm(name)
    return _PARAM_LOOKUP.get(key, _PARAM_LOOKUP.get(key.replace("_", " "), str(name).strip()))


def parameter_kind(parameter: str) -> str:
    return PARAMETER_KIND.get(parameter, "concentration")


def canonical_unit(unit: object, kind: str) -> str | None:
    """The canonical spelling of a unit of the given kind (concentration, ph,
    temperature, flow), or None when the unit is not one of that kind."""
    return _UNIT_LOOKUP[kind].get(_norm(unit))


def parameter_short(parameter: object) -> str:
    """A parameter's name on a page ("chlorine demand"); one not in the catalog as the files give it."""
    entry = CATALOG.get(str(parameter))
    return entry.short if entry else str(parameter)


def parameter_label(parameter: object) -> str:
    """A parameter's name in a letter ("BOD (5-day biochemical oxygen demand)"); one not in the catalog as
    the files give it."""
    entry = CATALOG.get(str(parameter))
    return entry.label if entry else str(parameter)


def parameter_order(parameter: object) -> tuple[int, str]:
    """The key that lists parameters in the catalog's order for pages (``listed``), the others after it by
    name."""
    entry = CATALOG.get(str(parameter))
    return (entry.listed - 1 if entry else len(CATALOG), str(parameter).lower())


#: The parameters in the order pages list them (for SQL: ``list_position``).
PARAMETER_ORDER = tuple(sorted(CATALOG, key=parameter_order))
