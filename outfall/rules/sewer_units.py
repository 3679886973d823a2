"""The sewer unit schedule (``sewer_units``: the unit rule of every property class) and how bill amounts are
computed and rounded (``billing``).
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from typing import Annotated, Literal

from pydantic import Field, model_validator

from outfall.rules.codes import BILL_COMPONENTS, Code
from outfall.rules.dated import Dated, Model, rule_error
from outfall.rules.types import (
    Citation,
    Count,
    NonNegativeNumber,
    ParcelCount,
    PositiveNumber,
    Rounding,
    Text,
)


class _UnitRule(Model):
    label: Text
    """How the schedule words this class (printed on each bill line)."""
    requires: list[ParcelCount] = Field(default_factory=list)
    """The parcels columns this class needs (a parcel without them is quarantined)."""
    components: list[Code] | None = None
    """The components charged (left out: all four)."""


class AcreageRule(_UnitRule):
    """Units by acreage, with a small-lot rule and a cap (single-family residences)."""

    method: Literal["acreage"]
    small_lot_max_acres: NonNegativeNumber
    """A lot of at most this many acres is a small lot."""
    small_lot_units: Count
    """Full units of a small lot."""
    bond_acres_per_unit: PositiveNumber
    """One bond unit for every this many acres or part thereof, up to the cap."""
    bond_cap_acres: NonNegativeNumber
    """Acres counted at that rate go up to this many."""
    excess_from_acres: NonNegativeNumber
    """Acres in excess of this many are counted at the excess rate."""
    excess_acres_per_unit: PositiveNumber
    """One bond unit for every this many excess acres or part thereof."""
    large_lot_other_components: Count
    """Units of each other component on a large lot."""


class FixedRule(_UnitRule):
    """A fixed number of units."""

    method: Literal["fixed"]
    units: Count
    """Units charged."""


class PlusCount(Model):
    """Extra units for a second count."""

    count: ParcelCount
    """The parcels column counted."""
    per: PositiveNumber
    """One unit for every this many, or part thereof."""


class PerCountRule(_UnitRule):
    """Units per counted thing (living units, bathrooms, people)."""

    method: Literal["per_count"]
    count: ParcelCount
    """The parcels column counted."""
    per: PositiveNumber
    """One unit for every this many, or part thereof."""
    minimum: Count | None = None
    """At least this many units."""
    plus: PlusCount | None = None
    """Extra units for a second count."""


class Tier(Model):
    """One step of a tiered schedule."""

    max: Count | None
    """Up to this count (null: any count above the previous step)."""
    units: Count
    """Units charged."""


class TiersRule(_UnitRule):
    """Units by steps of a count (restaurant seats)."""

    method: Literal["tiers"]
    count: ParcelCount
    """The parcels column counted."""
    tiers: list[Tier] = Field(min_length=1)
    """The steps, smallest first; the last one's max is null."""

    @model_validator(mode="after")
    def _ascending(self) -> "TiersRule":
        highs = [t.max for t in self.tiers]
        if any(h is None for h in highs[:-1]):
            raise rule_error("only the last tier may have max: null")
        bounded = [h for h in highs if h is not None]
        if bounded != sorted(set(bounded)):
            raise rule_error("tiers must go from the smallest max to the largest")
        return self


class AcreageOnlyRule(_UnitRule):
    """Bond units by acreage only, above a size (vacant parcels)."""

    method: Literal["acreage_only"]
    over_acres: NonNegativeNumber
    """Only a parcel of more than this many acres is charged."""
    bond_acres_per_unit: PositiveNumber
    """One bond unit for every this many acres or part thereof."""


UnitRule = Annotated[
    AcreageRule | FixedRule | PerCountRule | TiersRule | AcreageOnlyRule, Field(discriminator="method")
]


class Moratorium(Model):
    """Property without service because of the sewer moratorium."""

    zero_components: list[Code]
    """Components not charged to such property."""
    citation: Citation


class SewerDistricts(Model):
    """The sewer districts the rate schedule is for, by the word the inputs use for each."""

    names: dict[Code, Text]
    """Each district's name as the law writes it (bills, the register and the billing page show it)."""
    citation: Citation


class SewerUnits(Dated):
    """The sewer use rate schedule: units of each component per property class."""

    short_citation: Text | None = None
    """A short form of the citation, ending each bill line's explanation."""
    components: list[Code]
    """The components billed."""
    moratorium: Moratorium
    """Property without service because of the sewer moratorium."""
    classes: dict[Code, UnitRule]
    """The unit rule of every property class."""
    districts: SewerDistricts | None = None
    """The districts' names (left out: the inputs' words are shown)."""

    @model_validator(mode="after")
    def _bill_columns(self) -> "SewerUnits":
        others = [c for c in self.components if c not in BILL_COMPONENTS]
        if others:
            raise rule_error(
                "component(s) {others}: the sewer bills have columns for {known} only (contract section 3)",
                others=", ".join(others),
                known=", ".join(BILL_COMPONENTS),
                key_name="components",
            )
        return self


class Billing(Dated):
    """How bill amounts are computed and rounded."""

    rounding: Rounding
    """Rounding of each amount (units x rate)."""
    budget_rate_rounding: Rounding | None = None
    """Rounding of a rate derived from a budget (budget / total units)."""
    rate_sources: list[Literal["sewer_rates", "sewer_budget"]] = Field(min_length=1)
    """Where a component's rate comes from, first found wins."""
    citation_budget_rate: Text | None = None
    """The method that derives a rate from a budget (rate = budget / total units), with its section."""
    budget_rate_adopted_by: Text | None = None
    """The act of the town's governing body that adopted that method (needed to list sewer_budget in
    rate_sources: a rate no adopted act provides is never billed)."""
    rates_adopted_by: Text | None = None
    """Who adopts the rates per unit (e.g. "the Village Council"), as the bills say where they come from."""

    @model_validator(mode="after")
    def _budget_rates_adopted(self) -> "Billing":
        if "sewer_budget" in self.rate_sources and not (
            self.citation_budget_rate and self.budget_rate_adopted_by
        ):
            raise rule_error(
                "rate_sources lists sewer_budget, but no citation_budget_rate and budget_rate_adopted_by say "
                "which adopted act derives a rate from a budget; without them only adopted rates are billed",
                key_name="rate_sources",
            )
        return self
