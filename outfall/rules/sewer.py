"""The sewer use law's compliance core (``nondetect_averaging``, ``slug``, ``infiltration``,
``sewer_compliance``) and its required testing (``required_testing``, contract 6.3).
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from typing import Literal

from pydantic import Field, model_validator

from outfall.rules.dated import Dated, rule_error
from outfall.rules.types import (
    NonNegativeNumber,
    Parameter,
    PositiveCount,
    PositiveNumber,
    Text,
)

# ============================================================ sewer: compliance core


NondetectPolicy = Literal["zero", "half_dl", "dl"]


class NondetectAveraging(Dated):
    """How non-detects enter daily maximums and monthly averages."""

    default: NondetectPolicy
    """zero, half_dl (half the detection value) or dl (the detection value)."""
    by_parameter: dict[Parameter, NondetectPolicy] = Field(default_factory=dict)
    """A different policy for some parameters (parameter: policy)."""


class Slug(Dated):
    """What a slug discharge is."""

    ratio: PositiveNumber
    """A reading is high when it is more than this many times the baseline."""
    min_duration_min: NonNegativeNumber
    """A run of high readings is a slug when it lasts longer than this many minutes."""
    baseline_days: PositiveCount
    """The baseline is the median of the daily means of this many local days before the reading's day."""
    min_baseline_days: PositiveCount
    """With fewer days of data than this, a reading is not judged."""
    gap_factor: PositiveNumber
    """A gap longer than this many times the usual reading interval splits a run."""

    @model_validator(mode="after")
    def _days(self) -> "Slug":
        if self.min_baseline_days > self.baseline_days:
            raise rule_error(
                "min_baseline_days {n} is more than baseline_days {m}",
                n=self.min_baseline_days,
                m=self.baseline_days,
            )
        return self


class Infiltration(Dated):
    """How much infiltration a sewer section may take."""

    gal_per_inch_diameter_per_mile_per_day: PositiveNumber
    """Allowed gallons per inch of pipe diameter per mile of sewer per day."""
    feet_per_mile: PositiveNumber
    """Feet in a mile (to turn a section's length into miles)."""


class SewerCompliance(Dated):
    """The rule texts printed with findings of the compliance core."""

    permit_limit_citation: Text
    """Rule text of a permit limit whose basis is blank."""
    no_limit_citation: Text
    """Rule text of a result whose parameter has no limit."""
    inconclusive_citation: Text
    """Rule text of an inconclusive non-detect."""
    statistic_citation: Text
    """Rule text of a daily-maximum or monthly-average limit."""
    without_permit_citation: Text | None = None
    """Rule text of a sample or flow reading of a user on a day its permit was not in effect (discharging
    without a permit); left out: that finding is not made."""


# ============================================================ required testing


class RequiredTesting(Dated):
    """Required testing (contract 6.3): the testing the administrator specifies for each industrial user
    (input monitoring_requirements), judged per calendar period. ``citation`` is printed as the rule of each
    period, by the version in effect on the period's last day."""

    start_when_blank: Literal["permit_effective_else_first_sample"]
    """Where a requirement with a blank effective_from starts; the one reading implemented: the day the
    user's permit took effect, else the day of its first sample, and with neither only the period holding
    the day judged."""
    start_when_blank_citation: Text
    """That reading in words, with the section it reads."""
