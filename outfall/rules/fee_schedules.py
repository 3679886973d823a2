"""Fee schedules as data: the ``fee_schedules`` section of a rules file.

A town's code sets fees item by item (a sampling, a test of a heavy metal, a filing, a tap per unit of
flow ...). Each schedule names what it prices (``prices``) and lists its items, each with its amount,
what it is charged per and, for a test, the parameters it prices. Outfall charges the schedules it has
the records for:

- ``samples_taken_by_town``: the samples the town took (lab results marked ``sampled_by: town``): an
  item ``per: sampling`` once per sample, ``per: test`` once for each parameter of the sample it lists,
  ``per: sample`` once per sample that has any parameter it lists (an acid digestion for its metals);
  table ``sampling_fees``.

A schedule of anything else (``prices: other``: connection and tap fees, filing fees) is data the rules
state and the documentation shows; no record of the inputs says what to charge it on, so no amount is
computed, and ``outfall rules check`` says so.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from typing import Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from outfall.rules.amounts import AmountMoney
from outfall.rules.dated import Dated, Model
from outfall.rules.types import Parameter, Text

Prices = Literal["samples_taken_by_town", "other"]
SAMPLE_UNITS = ("sampling", "test", "sample")


class FeeItem(Model):
    """One item of a fee schedule."""

    item: Text
    """The item as the schedule names it (e.g. "Heavy metal analysis")."""
    usd: AmountMoney
    """Its amount, dollars, or {set_by: ...} where the schedule leaves it to another document."""
    per: Text
    """What it is charged per: for the samples the town took, sampling (each sample), test (each parameter
    listed that a sample was tested for) or sample (each sample tested for any parameter listed); for
    other schedules, the schedule's own words (e.g. "residential single-family unit")."""
    parameters: list[Parameter] = Field(default_factory=list)
    """The parameters a test or sample item prices."""


class FeeScheduleEntry(Dated):
    """A fee schedule, while in effect."""

    name: Text
    """The schedule's name (e.g. "Sampling and testing fees")."""
    prices: Prices
    """What it prices: samples_taken_by_town (charged on the lab results the town took) or other (stated,
    not charged: no input records what it is charged on)."""
    items: list[FeeItem] = Field(min_length=1)
    """Its items."""

    @model_validator(mode="after")
    def _sample_units(self) -> "FeeScheduleEntry":
        if self.prices != "samples_taken_by_town":
            return self
        for i, item in enumerate(self.items):
            if item.per not in SAMPLE_UNITS:
                raise PydanticCustomError(
                    "rules",
                    "per {per} is not one of {units} (what a fee on the town's samples is charged per)",
                    {"per": repr(item.per), "units": ", ".join(SAMPLE_UNITS), "sub": ["items", i, "per"]},
                )
            if item.per != "sampling" and not item.parameters:
                raise PydanticCustomError(
                    "rules",
                    "a fee per {per} lists the parameters it prices",
                    {"per": item.per, "sub": ["items", i, "parameters"]},
                )
        return self

    def key(self) -> str:
        return self.name

    def label(self) -> str:
        return self.name
