"""How a town charges for sewer use: the ``charge_model`` and ``volume_charges`` sections of a rules file.

A town charges by a unit schedule (``sewer_units``: classes, components, districts; the rates per unit are
an input, ``sewer_rates``), by the volume of water used (``volume_charges``), or both; ``charge_model``
says which, and the loader refuses a file that names a model whose section it lacks.

A volume charge is dated rates per unit of volume (per 1,000 gallons, per 100 cubic feet ...), each with
the least charge of a billing period (an amount, or an amount by meter size), for premises inside or
outside the corporate limits; a flat charge for unmetered premises; and fixed charges by meter size (a
capital charge), each with its own dates. Any amount may be written ``{set_by: ...}`` where the law sets
it in another document: the period's volume is shown and the charge is reported as set there, never
0. The pure functions that apply them are ``outfall/law/charges.py``.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

import datetime as dt
from typing import Any, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from outfall.rules.amounts import AmountMoney, AmountRate
from outfall.rules.dated import Dated, Entries, Model
from outfall.rules.types import Citation, FlagOrNull, NonNegativeNumber, Text

ChargeModel = Literal["units", "volume", "both"]
BillingPeriod = Literal["month", "quarter", "year"]
VolumeUnit = Literal["gallon", "thousand_gallons", "cubic_foot", "hundred_cubic_feet"]


class MeterTier(Model):
    """One step of a schedule by water meter size."""

    max_in: NonNegativeNumber | None
    """Meters up to this size, in inches, this one included (null: every larger meter)."""
    usd: AmountMoney
    """The amount for such a meter (or {set_by: ...} where the law sets it in another document)."""


def _tiers_ascending(tiers: list[MeterTier], where: str) -> None:
    highs = [t.max_in for t in tiers]
    if any(h is None for h in highs[:-1]):
        raise PydanticCustomError(
            "rules", "only the last step of {where} may have max_in: null", {"where": where}
        )
    bounded = [h for h in highs if h is not None]
    if bounded != sorted(set(bounded)):
        raise PydanticCustomError(
            "rules", "the steps of {where} must go from the smallest meter to the largest", {"where": where}
        )


def tier_for(tiers: list[MeterTier], size_in: float) -> MeterTier | None:
    """The step of a meter of ``size_in`` inches: the first whose max_in is at least it (None: none)."""
    for tier in tiers:
        if tier.max_in is None or size_in <= tier.max_in:
            return tier
    return None


class _Premises(Dated):
    outside_limits: FlagOrNull = None
    """Which premises: true, those outside the corporate limits; false, those inside; null, either."""

    def key(self) -> Any:
        return self.outside_limits

    def label(self) -> str:
        return {True: "outside the limits", False: "inside the limits", None: "any premises"}[
            self.outside_limits
        ]

    def covers(self, outside: bool) -> bool:
        return self.outside_limits is None or self.outside_limits == outside


class VolumeRate(_Premises):
    """The charge per unit of volume of water used by metered premises, and the least charge of a period."""

    usd_per_unit: AmountRate
    """Dollars per unit of volume (the unit of `volume_charges.unit`), or {set_by: ...} where the law sets
    the rate in another document (an ordinance's appendix, a resolution)."""
    minimum_usd: AmountMoney | None = None
    """The least charge of a billing period (left out: none, or by meter size; {set_by: ...}: set in another
    document)."""
    minimum_by_meter: list[MeterTier] | None = None
    """The least charge of a billing period by water meter size."""

    @model_validator(mode="after")
    def _one_minimum(self) -> "VolumeRate":
        if self.minimum_usd is not None and self.minimum_by_meter is not None:
            raise PydanticCustomError(
                "rules", "give minimum_usd or minimum_by_meter, not both", {"key_name": "minimum_by_meter"}
            )
        if self.minimum_by_meter:
            _tiers_ascending(self.minimum_by_meter, "minimum_by_meter")
        return self


class FlatCharge(_Premises):
    """A flat charge of a billing period for unmetered premises."""

    usd: AmountMoney
    """Dollars a billing period (or {set_by: ...})."""


class FixedCharge(_Premises):
    """A fixed charge of a billing period by water meter size (e.g. a capital improvement charge)."""

    name: Text
    """The charge's name, as bills show it."""
    by_meter_size: list[MeterTier] = Field(min_length=1)
    """The charge by water meter size, smallest first."""

    @model_validator(mode="after")
    def _ascending(self) -> "FixedCharge":
        _tiers_ascending(self.by_meter_size, "by_meter_size")
        return self

    def key(self) -> Any:
        return (self.name, self.outside_limits)

    def label(self) -> str:
        return f"{self.name}, {super().label()}"


class VolumeCharges(Model):
    """Sewer charges by the volume of water used, billed each period."""

    citation: Citation
    period: BillingPeriod
    """The billing period: month, quarter or year (a use record covers one)."""
    unit: VolumeUnit
    """The unit the rates are per: gallon, thousand_gallons, cubic_foot or hundred_cubic_feet."""
    rates: Entries[VolumeRate]
    """The rates per unit of volume, with their dates, for premises inside or outside the limits."""
    unmetered: Entries[FlatCharge] | None = None
    """Flat charges of unmetered premises."""
    fixed: Entries[FixedCharge] | None = None
    """Fixed charges by meter size, each with its name and dates."""

    def rate(self, day: dt.date, outside: bool) -> VolumeRate | None:
        return _most_specific(self.rates, day, outside)

    def flat(self, day: dt.date, outside: bool) -> FlatCharge | None:
        return _most_specific(self.unmetered or (), day, outside)

    def fixed_charges(self, day: dt.date, outside: bool) -> list[FixedCharge]:
        """Every fixed charge in effect on ``day`` for such premises (one per name: the most specific)."""
        names = dict.fromkeys(f.name for f in self.fixed or ())
        found = [_most_specific([f for f in self.fixed or () if f.name == n], day, outside) for n in names]
        return [f for f in found if f is not None]


def _most_specific(entries: Any, day: dt.date, outside: bool) -> Any:
    """The entry in effect on ``day`` for such premises: the one naming them, else one for any."""
    found = [e for e in entries if e.in_effect(day) and e.covers(outside)]
    named = [e for e in found if e.outside_limits is not None]
    return (named or found or [None])[0]


def check_charge_model(model: ChargeModel | None, has_units: bool, has_volume: bool) -> None:
    """The sections the charge model needs are there."""
    if model is None:
        return
    needs = {
        "units": ("sewer_units",),
        "volume": ("volume_charges",),
        "both": ("sewer_units", "volume_charges"),
    }
    have = {"sewer_units": has_units, "volume_charges": has_volume}
    lacking = [s for s in needs[model] if not have[s]]
    if lacking:
        raise PydanticCustomError(
            "rules",
            "charge_model {model} needs the section(s) {lacking}",
            {"model": repr(model), "lacking": ", ".join(lacking), "sub": ["charge_model"]},
        )
