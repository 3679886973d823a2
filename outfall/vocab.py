"""The contract's vocabularies: canonical names, synonyms and unit conversions.

Pure lookups, no I/O. Matching is case-insensitive with surrounding blanks
ignored; the canonical name is the first of each contract vocabulary entry.
"""

from __future__ import annotations

import re
from collections.abc import Callable

PARAMETERS: dict[str, tuple[str, ...]] = {
    "BOD": ("bod", "bod5", "biochemical oxygen demand", "bod 5", "bod-5"),
    "COD": ("cod", "chemical oxygen demand"),
    "TSS": ("tss", "ss", "suspended solids", "total suspended solids"),
    "chlorine_demand": ("chlorine_demand", "chlorine demand", "cl2 demand"),
    "pH": ("ph",),
    "FOG": ("fog", "oil and grease", "o&g", "hem", "fats oils and grease", "oil & grease"),
    "temperature": ("temperature", "temp"),
}
_PARAM_LOOKUP = {syn: canon for canon, syns in PARAMETERS.items() for syn in syns}

# Which kind of unit each parameter is measured in. Parameters not listed
# (metals, other substances, anything else) are concentrations.
PARAMETER_KIND = {"pH": "ph", "temperature": "temperature"}

CONCENTRATION_UNITS = {
    "mg/L": ("mg/l", "ppm", "g/m3", "mg per l", "mg/liter"),
    "ug/L": ("ug/l", "µg/l", "μg/l", "ppb"),
}
PH_UNITS = {"s.u.": ("s.u.", "su", "ph units", "ph unit", "s.u", "std units")}
TEMPERATURE_UNITS = {"degF": ("degf", "°f", "f", "deg f"), "degC": ("degc", "°c", "c", "deg c")}
FLOW_UNITS = {
    "gpm": ("gpm",),
    "gpd": ("gpd",),
    "mgd": ("mgd",),
    "L/s": ("l/s", "lps"),
    "m3/d": ("m3/d", "m³/d", "cmd"),
}


def _lookup(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {syn: canon for canon, syns in table.items() for syn in syns}


_CONC = _lookup(CONCENTRATION_UNITS)
_PH = _lookup(PH_UNITS)
_TEMP = _lookup(TEMPERATURE_UNITS)
_FLOW = _lookup(FLOW_UNITS)

# Conversions to the canonical unit of each kind.
TO_CANONICAL: dict[str, tuple[str, Callable[[float], float]]] = {
    "mg/L": ("mg/L", lambda v: v),
    "ug/L": ("mg/L", lambda v: v / 1000.0),
    "s.u.": ("s.u.", lambda v: v),
    "degF": ("degF", lambda v: v),
    "degC": ("degF", lambda v: v * 9.0 / 5.0 + 32.0),
    "gpm": ("gpm", lambda v: v),
    "gpd": ("gpm", lambda v: v / 1440.0),
    "mgd": ("gpm", lambda v: v * 1_000_000.0 / 1440.0),
    "L/s": ("gpm", lambda v: v * 60.0 / 3.785411784),
    "m3/d": ("gpm", lambda v: v * 264.17205235814845 / 1440.0),
}

# Linear factors (scale, offset) for vectorised conversion: canonical = v * scale + offset.
LINEAR: dict[str, tuple[float, float]] = {
    "mg/L": (1.0, 0.0),
    "ug/L": (0.001, 0.0),
    "s.u.": (1.0, 0.0),
    "degF": (1.0, 0.0),
    "degC": (1.8, 32.0),
    "gpm": (1.0, 0.0),
    "gpd": (1.0 / 1440.0, 0.0),
    "mgd": (1_000_000.0 / 1440.0, 0.0),
    "L/s": (60.0 / 3.785411784, 0.0),
    "m3/d": (264.17205235814845 / 1440.0, 0.0),
}
CANONICAL_OF = {u: TO_CANONICAL[u][0] for u in TO_CANONICAL}

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
    key = _norm(unit)
    table = {"concentration": _CONC, "ph": _PH, "temperature": _TEMP, "flow": _FLOW}[kind]
    return table.get(key)
