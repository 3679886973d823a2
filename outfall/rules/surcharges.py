"""Surcharges of wastes stronger than the limits: the ``surcharge`` section of a rules file.

An ordinance charges stronger wastes in one or more ways, each a part of the section:

- ``method`` and ``rates``: by the pounds above a parameter's surcharge threshold (``thresholds``: the
  strength of normal sewage, above which a user pays more; not a prohibition) or, where the law states
  none, above its limit, at a rate per pound the law or its council adopted (or set elsewhere: an
  appendix, a resolution);
- ``per_volume``: a rate per volume of discharge (a remediation surcharge per gallon);
- ``per_strength``: a rate per volume for each mg/L above a strength;
- ``per_flow``: a rate per volume of the gallons a user discharges over a flow (gallons a day);
- ``multipliers``: a factor on every surcharge of users with an attribute (outside the corporate limits);
- ``permit``: whether a user is surcharged only where its permit sets the surcharge (the user's
  ``permit_sets_surcharge``); a user whose permit does not is not surcharged: its excess is a violation.

Where the law leaves a rate to the town and none is adopted, the part is written without it: the pounds
are reported and no amount is charged. Where the law sets a rate in another document, the rate is written
``{set_by: ...}``: the pounds are reported and the amount is shown as set there, never as 0. A surcharge
threshold is not a limit: a concentration above it and below every limit is surcharged, never a
violation. The pure functions that apply it are ``outfall/law/surcharges.py``.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

import datetime as dt
from typing import Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from outfall import vocab
from outfall.rules.amounts import AmountRate, SetElsewhere
from outfall.rules.dated import Dated, Entries, Model, Versions
from outfall.rules.types import (
    Flag,
    NonNegativeNumber,
    Number,
    Parameter,
    PositiveNumber,
    Proportion,
    Text,
)

#: The units a surcharge's volume may be read in, and the gallons in one of each (exact).

SurchargeVolumeUnit = Literal[
    "million_gallons", "thousand_gallons", "gallon", "hundred_cubic_feet", "cubic_foot"
]


class SurchargeMethod(Dated):
    """How a surcharge's pounds are computed: the month's volume x a factor x the mg/L above the threshold."""

    lbs_per_mg_per_mgl: PositiveNumber | None = None
    """Pounds per million gallons per mg/L (8.34: the volume is read in million gallons). Give this or
    lbs_per_unit_per_mgl."""
    lbs_per_unit_per_mgl: PositiveNumber | None = None
    """Where the law reads the volume in another unit: pounds per unit of volume_unit per mg/L, as the law
    writes it (e.g. 0.0062321 per hundred cubic feet)."""
    volume_unit: SurchargeVolumeUnit | None = None
    """The unit of lbs_per_unit_per_mgl: million_gallons, thousand_gallons, gallon, hundred_cubic_feet or
    cubic_foot."""
    parameters: list[Parameter] = Field(min_length=1)
    """The parameters surcharged by the pounds above their threshold (or limit)."""

    @model_validator(mode="after")
    def _one_factor(self) -> "SurchargeMethod":
        per_unit = self.lbs_per_unit_per_mgl is not None
        if per_unit == (self.lbs_per_mg_per_mgl is not None):
            raise PydanticCustomError(
                "rules",
                "give lbs_per_mg_per_mgl (pounds per million gallons per mg/L) or lbs_per_unit_per_mgl with "
                "volume_unit, one of the two",
                {"key_name": "lbs_per_mg_per_mgl"},
            )
        if per_unit != (self.volume_unit is not None):
            raise PydanticCustomError(
                "rules",
                "lbs_per_unit_per_mgl and volume_unit go together: the factor is per unit of that volume",
                {"key_name": "volume_unit"},
            )
        return self

    @property
    def factor(self) -> float:
        """Pounds per unit of ``unit`` per mg/L."""
        return float(self.lbs_per_mg_per_mgl or self.lbs_per_unit_per_mgl or 0)

    @property
    def unit(self) -> str:
        """The unit the month's volume is read in for this method."""
        return self.volume_unit or "million_gallons"


class SurchargeThreshold(Dated):
    """A surcharge threshold: the strength above which a user pays more (the law's 'normal sewage',
    'normal domestic strength'). Not a prohibition: a result above it and below every limit is surcharged,
    never a violation. Once loaded, ``value`` is in mg/L."""

    parameter: Parameter
    """The parameter (BOD, COD, TSS, FOG, ammonia, phosphorus ...)."""
    value: Number
    """The threshold, in `unit`: the pounds above it are surcharged."""
    unit: Text
    """mg/L (or ug/L)."""

    @model_validator(mode="after")
    def _mg_per_liter(self) -> "SurchargeThreshold":
        unit = vocab.canonical_unit(self.unit, "concentration")
        if unit is None:
            raise PydanticCustomError(
                "rules",
                "unit {unit} is not a concentration unit (one of {units})",
                {"unit": repr(self.unit), "units": ", ".join(vocab.CONCENTRATION_UNITS), "key_name": "unit"},
            )
        scale, offset = vocab.LINEAR[unit]
        object.__setattr__(self, "value", self.value * scale + offset)
        object.__setattr__(self, "unit", vocab.CANONICAL_OF[unit])
        return self

    def key(self) -> str:
        return self.parameter.lower()

    def label(self) -> str:
        return self.parameter


class SurchargeRate(Dated):
    """A rate per pound adopted for one parameter."""

    parameter: Parameter
    """The parameter the rate is for."""
    usd_per_lb: AmountRate
    """Dollars per pound, or {set_by: ...} where the law sets the rate in another document."""
    adopted_by: Text | None = None
    """The act that adopted the rate (e.g. "Resolution 2026-14", "Ord. 2014-M-11"); needed for a rate the
    rules state (a rate set elsewhere says where)."""

    @model_validator(mode="after")
    def _adopted(self) -> "SurchargeRate":
        if self.adopted_by is None and not isinstance(self.usd_per_lb, SetElsewhere):
            raise PydanticCustomError(
                "rules",
                "missing 'adopted_by': the act that adopted the rate (or write the rate as {set_by: ...} "
                "where the law sets it in another document)",
                {},
            )
        return self

    def key(self) -> str:
        return self.parameter

    def label(self) -> str:
        return self.parameter


Applies = Literal["every_user", "surcharged_users"]


class VolumeSurcharge(Dated):
    """A surcharge per volume of discharge."""

    usd: AmountRate
    """Dollars per `per_gallons` gallons of discharge (or {set_by: ...})."""
    per_gallons: PositiveNumber
    """The volume the rate is for, in gallons (1: per gallon; 1000: per thousand gallons)."""
    applies_to: Applies | None = None
    """Whose discharge it is charged on: every_user (every industrial user's), surcharged_users (those
    surcharged by pounds in the month). Left out where the law does not say: the surcharge is then
    reported, for each user and month, as not charged for that reason."""
    adopted_by: Text | None = None
    """The act that adopted the rate, where it is not the law cited."""


class StrengthSurcharge(Dated):
    """A surcharge per volume for each mg/L of a parameter above a strength."""

    parameter: Parameter
    """The parameter."""
    above_mgl: NonNegativeNumber
    """The strength (mg/L) above which the surcharge runs."""
    usd: AmountRate
    """Dollars per `per_gallons` gallons of discharge for each `per_mgl` mg/L above the strength (or
    {set_by: ...})."""
    per_gallons: PositiveNumber
    """The volume the rate is for, in gallons."""
    per_mgl: PositiveNumber
    """The strength step the rate is for, in mg/L."""
    adopted_by: Text | None = None
    """The act that adopted the rate, where it is not the law cited."""

    def key(self) -> str:
        return self.parameter

    def label(self) -> str:
        return self.parameter


FlowCharged = Literal["gallons_over", "all_gallons"]


class FlowSurcharge(Dated):
    """A surcharge triggered by flow: a user whose month averages more than ``above_gpd`` gallons a day pays
    the rate on the gallons over (``gallons_over``) or on every gallon of the month (``all_gallons``). A
    month at the threshold exactly is not over it."""

    above_gpd: NonNegativeNumber
    """The flow, gallons a day (the month's gallons / its days), over which the surcharge runs."""
    usd: AmountRate
    """Dollars per `per_gallons` gallons (or {set_by: ...})."""
    per_gallons: PositiveNumber
    """The volume the rate is for, in gallons."""
    charged_on: FlowCharged
    """gallons_over: the month's gallons above above_gpd x its days; all_gallons: every gallon of a month
    over the threshold."""
    adopted_by: Text | None = None
    """The act that adopted the rate, where it is not the law cited."""


UserAttribute = Literal["outside_limits"]


class SurchargeMultiplier(Dated):
    """A factor on every surcharge of the users with an attribute."""

    attribute: UserAttribute
    """The industrial users' column it depends on: outside_limits (a service location outside the
    corporate limits)."""
    value: Flag
    """The attribute's value the factor applies to."""
    factor: Proportion
    """The factor: 1.2 for an extra 20% of every surcharge."""

    def key(self) -> tuple[str, bool]:
        return (self.attribute, self.value)

    def label(self) -> str:
        return f"{self.attribute} {self.value}"


class PermitRequirement(Dated):
    """Whether a user is surcharged only where its permit sets the surcharge."""

    required: Flag
    """true: only users whose permit sets a surcharge (industrial users' permit_sets_surcharge) are
    surcharged; the others' excess is a violation, not a charge."""


class Surcharge(Model):
    """Surcharges for wastes stronger than the limits."""

    method: Versions[SurchargeMethod] | None = None
    """How the pounds above a threshold are computed (left out: no surcharge by the pound)."""
    thresholds: Entries[SurchargeThreshold] | None = None
    """The surcharge thresholds (the strength of normal sewage) of the parameters surcharged by the pound;
    left out for a parameter: its pounds count from its maximum discharge limit, as the reading
    readings_enforcement.surcharge_threshold says."""
    rates: Entries[SurchargeRate] = Field(default_factory=lambda: Entries(()))
    """Adopted rates per pound (empty: no rate adopted; pounds are reported without an amount)."""
    per_volume: Versions[VolumeSurcharge] | None = None
    """A surcharge per volume of discharge."""
    per_strength: Entries[StrengthSurcharge] | None = None
    """Surcharges per volume per mg/L above a strength."""
    per_flow: Versions[FlowSurcharge] | None = None
    """A surcharge of users whose flow is over so many gallons a day."""
    multipliers: Entries[SurchargeMultiplier] | None = None
    """Factors on every surcharge of users with an attribute."""
    permit: Versions[PermitRequirement] | None = None
    """Whether a user is surcharged only where its permit sets the surcharge (left out: every user)."""
    rates_set_by: Text | None = None
    """Whom the law leaves the rates per pound to (e.g. "the Village Council"), where it states none."""
    no_rate: Text | None = None
    """What a surcharge by the pound says where no rate is adopted: whom the law leaves the rate to (left
    out: that no rate is adopted)."""

    @model_validator(mode="after")
    def _rates_for_surcharged(self) -> "Surcharge":
        surcharged = {p for m in self.method or () for p in m.parameters}
        listed = ", ".join(sorted(surcharged)) or "none"
        for part, entries in (("thresholds", self.thresholds or ()), ("rates", self.rates)):
            for i, entry in enumerate(entries):
                if entry.parameter not in surcharged:
                    raise PydanticCustomError(
                        "rules",
                        "{parameter} is not surcharged (method lists {listed})",
                        {"sub": [part, i], "parameter": entry.parameter, "listed": listed},
                    )
        return self

    def threshold(self, parameter: str, day: dt.date) -> SurchargeThreshold | None:
        """The surcharge threshold of ``parameter`` in effect on ``day``; None when the rules state none."""
        return self.thresholds.find(day, parameter.lower()) if self.thresholds else None

    def rate(self, parameter: str, day: dt.date) -> SurchargeRate | None:
        """The adopted rate of ``parameter`` in effect on ``day``; None when none is adopted."""
        return self.rates.find(day, vocab.canonical_parameter(parameter))

    def multiplier(self, outside_limits: bool | None, day: dt.date) -> SurchargeMultiplier | None:
        """The factor in effect on ``day`` for a user outside the limits or not (None: none applies)."""
        if outside_limits is None or not self.multipliers:
            return None
        return self.multipliers.find(day, ("outside_limits", bool(outside_limits)))

    def needs_permit(self, day: dt.date) -> PermitRequirement | None:
        """The permit requirement in effect on ``day`` when it requires one; else None."""
        found = self.permit.get(day) if self.permit else None
        return found if found is not None and found.required else None
