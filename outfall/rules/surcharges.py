"""Surcharges of wastes stronger than the limits: the ``surcharge`` section of a rules file.

An ordinance charges stronger wastes in one or more ways, each a part of the section:

- ``method`` and ``rates``: by the pounds above a parameter's limit (any parameter the rules limit),
  at a rate per pound the law or its council adopted;
- ``per_volume``: a rate per volume of discharge (a remediation surcharge per gallon);
- ``per_strength``: a rate per volume for each mg/L above a strength;
- ``multipliers``: a factor on every surcharge of users with an attribute (outside the corporate limits);
- ``permit``: whether a user is surcharged only where its permit sets the surcharge (the user's
  ``permit_sets_surcharge``); a user whose permit does not is not surcharged: its excess is a violation.

Where the law leaves a rate to the town and none is adopted, the part is written without it: the pounds
are reported and no amount is charged. The pure functions that apply it are ``outfall/law/surcharges.py``.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

import datetime as dt
from typing import Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from outfall import vocab
from outfall.rules.dated import Dated, Entries, Model, Versions
from outfall.rules.types import (
    Flag,
    NonNegativeNumber,
    Parameter,
    PositiveNumber,
    Proportion,
    Rate,
    Text,
)


class SurchargeMethod(Dated):
    """How a surcharge's pounds are computed."""

    lbs_per_mg_per_mgl: PositiveNumber
    """Pounds per million gallons per mg/L (8.34: the volume is read in million gallons)."""
    parameters: list[Parameter] = Field(min_length=1)
    """The parameters surcharged by the pounds above their limit (any parameter the rules limit)."""


class SurchargeRate(Dated):
    """A rate per pound adopted for one parameter."""

    parameter: Parameter
    """The parameter the rate is for."""
    usd_per_lb: Rate
    """Dollars per pound."""
    adopted_by: Text
    """The act that adopted the rate (e.g. "Resolution 2026-14", "Ord. 2014-M-11")."""

    def key(self) -> str:
        return self.parameter

    def label(self) -> str:
        return self.parameter


Applies = Literal["every_user", "surcharged_users"]


class VolumeSurcharge(Dated):
    """A surcharge per volume of discharge."""

    usd: Rate
    """Dollars per `per_gallons` gallons of discharge."""
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
    usd: Rate
    """Dollars per `per_gallons` gallons of discharge for each `per_mgl` mg/L above the strength."""
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
    """How the pounds above a limit are computed (left out: no surcharge by the pound)."""
    rates: Entries[SurchargeRate] = Field(default_factory=lambda: Entries(()))
    """Adopted rates per pound (empty: no rate adopted; pounds are reported without an amount)."""
    per_volume: Versions[VolumeSurcharge] | None = None
    """A surcharge per volume of discharge."""
    per_strength: Entries[StrengthSurcharge] | None = None
    """Surcharges per volume per mg/L above a strength."""
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
        for i, rate in enumerate(self.rates):
            if rate.parameter not in surcharged:
                raise PydanticCustomError(
                    "rules",
                    "{parameter} is not surcharged (method lists {listed})",
                    {
                        "sub": ["rates", i],
                        "parameter": rate.parameter,
                        "listed": ", ".join(sorted(surcharged)),
                    },
                )
        return self

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
