"""The clerk's words for the billing area's codes: what the register, the billing
page and the billing files show where the warehouse keeps a code.

The warehouse tables keep the inputs' codes (``north``, ``single_family``,
``amount_up``); everything a person reads says them in words, from here. The
districts' names are data: the rules' ``sewer_units.districts`` (the model
town's rate schedule names both districts in its heading), in the version in effect on the
billing year's first day. Rules without them leave the inputs' word, its
underscores made spaces ("district 1"): never a name made up here.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

COMPONENT_WORDS = {
    "bond": "Bond",
    "om": "Operation and maintenance",
    "street_lateral": "Street lateral",
    "house_lateral": "House lateral",
}
RATE_SOURCE_WORDS = {
    "sewer_rates": "the rate {by}adopted",
    "sewer_budget": "the district's budget divided by its units",
}
CHANGE_WORDS = {
    "added": "New in the register",
    "removed": "No longer in the register",
    "reclassed": "Property class changed",
    "moved_district": "Moved to another district",
    "units_up": "More units",
    "units_down": "Fewer units",
    "units_changed": "Units changed (some up, some down)",
    "amount_up": "Higher amount, same units",
    "amount_down": "Lower amount, same units",
    "unchanged": "No change",
}


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def plain(code: Any) -> str:
    """A code with its underscores made spaces (the fallback of every word here)."""
    return "" if _missing(code) else str(code).replace("_", " ")


def _schedule(rules: Any, year: int | None) -> Any:
    """The unit schedule in effect on ``year``'s first day (the latest version when ``year`` is None)."""
    versions = getattr(rules, "sewer_units", None) if rules is not None else None
    if not versions:
        return None
    return versions.get(dt.date(int(year), 1, 1)) if year else max(versions, key=lambda v: v.starts)


def district_names(rules: Any, year: int | None = None) -> dict[str, str]:
    """The districts' names in the unit schedule in effect on ``year``'s first day (the latest version
    when ``year`` is None); empty when the rules give none."""
    schedule = _schedule(rules, year)
    if schedule is None or schedule.districts is None:
        return {}
    return dict(schedule.districts.names)


def class_codes(rules: Any, year: int | None = None) -> list[str]:
    """The property classes of the unit schedule in effect on ``year``'s first day, in its order."""
    schedule = _schedule(rules, year)
    return list(schedule.classes) if schedule is not None else []


def district_word(code: Any, names: dict[str, str]) -> str:
    """ "North Sewer District" for ``north`` (from ``names``), else the code in plain words."""
    return "" if _missing(code) else names.get(str(code), plain(code))


def class_word(code: Any) -> str:
    """A property class in words: ``single_family`` -> "single-family", ``approved_lot`` -> "approved lot"."""
    return "" if _missing(code) else plain(str(code).replace("_family", "-family"))


def component_word(code: Any) -> str:
    return "" if _missing(code) else COMPONENT_WORDS.get(str(code), plain(code))


def change_word(code: Any) -> str:
    return "" if _missing(code) else CHANGE_WORDS.get(str(code), plain(code))


def rates_adopted_by(rules: Any, year: int | None = None) -> str:
    """Who adopts the rates per unit, as the rules' billing rule of ``year`` (the latest) says it."""
    versions = getattr(rules, "billing", None) if rules is not None else None
    if not versions:
        return ""
    billing = versions.get(dt.date(int(year), 1, 1)) if year else max(versions, key=lambda v: v.starts)
    return (billing.rates_adopted_by or "") if billing is not None else ""


def rate_source_word(code: Any, adopted_by: str = "") -> str:
    """Where a rate came from, in words (``sewer_rates+sewer_budget``: both, joined by "and")."""
    if _missing(code):
        return ""
    by = f"{adopted_by} " if adopted_by else ""
    return " and ".join(
        RATE_SOURCE_WORDS.get(part, plain(part)).format(by=by) for part in str(code).split("+")
    )


def word_lists(names: dict[str, str], classes: list[str], changes: bool = False) -> dict[str, list[str]]:
    """The words as parallel lists, for SQL that writes them: ``$district_codes`` / ``$district_words`` (the
    districts of ``names``), ``$class_codes`` / ``$class_words`` (of ``classes``) and, with ``changes``,
    ``$change_codes`` / ``$change_words``. A code not listed is shown as written."""
    districts = list(names)
    lists = {
        "district_codes": districts,
        "district_words": [district_word(d, names) for d in districts],
        "class_codes": list(classes),
        "class_words": [class_word(c) for c in classes],
    }
    if changes:
        lists |= {"change_codes": list(CHANGE_WORDS), "change_words": list(CHANGE_WORDS.values())}
    return lists
