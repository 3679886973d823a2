"""Post-construction stormwater management practices: the ``post_construction`` section of a rules file.

One ``PracticeTerms`` per version: the years before the one-year inspection and before a guarantee may be
released, the day one year after February 29 is, and each of the four findings (whether the
jurisdiction's text asks for it, and the sentence citing its section). The pure functions that apply them
are the law's (``law/practices.py``); the version applied is the one in effect on the day the site's
construction began.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from typing import Literal

from outfall.rules.dated import Dated, Model
from outfall.rules.types import Flag, PositiveCount, Text

LeapDay = Literal["feb_28", "mar_1"]
"""The day one year after February 29 when the later year has none."""


class FindingRule(Model):
    """One finding of a practice: whether it is made, and the sentence shown with it."""

    required: Flag
    """Whether the finding is made: false where the jurisdiction's text does not ask for it, and the version's
    citation says why."""
    rule: Text
    """The sentence shown with the finding, citing its section."""


class PracticeFindingRules(Model):
    """The four findings of a practice."""

    as_built: FindingRule
    """As-built plans, certified by a professional engineer, once final stabilization is reached."""
    maintenance_agreement: FindingRule
    """A maintenance agreement recorded before final plan approval."""
    one_year_inspection: FindingRule
    """The inspection one year after final acceptance."""
    guarantee_release: FindingRule
    """The construction completion guarantee not released before that year and that inspection."""


class PracticeTerms(Dated):
    """Post-construction stormwater management practices: as-built plans, maintenance agreement, the one-year
    inspection and the construction completion guarantee."""

    inspection_after_years: PositiveCount
    """The inspection is due this many years after final acceptance."""
    guarantee_min_years: PositiveCount
    """The guarantee may not be released before this many years from final acceptance."""
    leap_day_year_later: LeapDay
    """The day that is one year after February 29, in a year without one: feb_28 or mar_1."""
    findings: PracticeFindingRules
    """The four findings: whether each is made, and its sentence."""
