"""Stormwater pollution prevention during construction (``swppp``): which sites need inspections, how
often, the findings and the notices that follow, and the parts a code may leave out.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from typing import Annotated, Literal

from pydantic import Field, model_validator

from outfall.rules.dated import Dated, Model, Versions, rule_error
from outfall.rules.types import (
    Citation,
    Count,
    Flag,
    NonNegativeNumber,
    Percent,
    PositiveCount,
    PositiveNumber,
    Text,
)

SiteFlag = Literal["impaired_water", "single_family", "agricultural", "exempt"]
FindingName = Literal[
    "weekly",
    "storm",
    "sediment_not_removed",
    "disturbance_over_limit",
    "contractor_not_certified",
    "milestone_notice_late",
    "report_not_delivered",
]


class ConditionA(Model):
    """Condition A: discharge of a pollutant of concern to an impaired water."""

    flag: SiteFlag
    """The sites column that marks it."""
    citation: Citation


class ConditionB(Model):
    """Condition B: a large disturbance."""

    min_disturbed_acres: NonNegativeNumber
    """Disturbing at least this many acres."""
    citation: Citation


class ConditionC(Model):
    """Condition C: a middle-sized disturbance, with exclusions."""

    min_disturbed_acres: NonNegativeNumber
    """Disturbing at least this many acres ..."""
    below_acres: NonNegativeNumber
    """... and fewer than this many."""
    excluded_flags: list[SiteFlag] = Field(default_factory=list)
    """Sites with these flags are excluded."""
    citation: Citation


class MinAcresApplicability(Dated):
    """Every site disturbing at least so many acres needs inspections (unless exempt)."""

    rule: Literal["min_disturbed_acres"]
    """min_disturbed_acres: every site disturbing at least so many acres needs inspections."""
    min_disturbed_acres: NonNegativeNumber
    """Acres from which a site needs inspections."""


class ConditionsApplicability(Dated):
    """Only a site meeting Condition A, B or C needs inspections (unless exempt)."""

    rule: Literal["conditions_abc"]
    """conditions_abc: a site needs inspections when it meets Condition A, B or C."""
    condition_a: ConditionA
    """Condition A: discharge of a pollutant of concern to an impaired water."""
    condition_b: ConditionB
    """Condition B: a large disturbance."""
    condition_c: ConditionC
    """Condition C: a middle-sized disturbance, with exclusions."""


Applicability = Annotated[MinAcresApplicability | ConditionsApplicability, Field(discriminator="rule")]


class WeeklyInspection(Dated):
    """Routine inspections during construction."""

    interval_days: PositiveCount
    """An inspection at least every this many days."""
    inspector: Text
    """Who inspects."""
    reports_delivered_weekly: Flag
    """Whether reports go to the Stormwater Management Officer weekly."""


class StormInspection(Dated):
    """Inspections after a storm."""

    threshold_in: PositiveNumber
    """The storm threshold: inches of rain in a day (a storm at least or more than it, as counts says)."""
    counts: Literal["at_least", "more_than"] = "at_least"
    """How the law counts the threshold: at_least (a day with the threshold or more is a storm, the
    default) or more_than (only a day with more than the threshold)."""
    window_days: Count
    """The inspection is due within this many days after the storm day."""


class DisturbanceLimit(Dated):
    """The most a site may disturb at one time without an approved SWPPP."""

    max_acres_without_approval: NonNegativeNumber
    """Acres."""


class SedimentCleanout(Dated):
    """When sediment must be removed from traps and ponds."""

    capacity_lost_pct: Percent
    """Once design capacity is reduced by this percent."""


class MilestoneNotice(Dated):
    """Notice before each construction milestone."""

    hours: Count
    """At least this many hours before."""


class Appeal(Dated):
    """Appeal of a notice of violation."""

    days: Count
    """Within this many days of service."""


class LandDevelopmentActivity(Dated):
    """What a land development activity is."""

    min_disturbed_acres: NonNegativeNumber
    """Land disturbance of at least this many acres."""


class Conditions(Dated):
    """Conditions A, B and C, reported for every site."""

    condition_a: ConditionA
    """Condition A: discharge of a pollutant of concern to an impaired water."""
    condition_b: ConditionB
    """Condition B: a large disturbance."""
    condition_c: ConditionC
    """Condition C: a middle-sized disturbance, with exclusions."""


class CitedRule(Dated):
    """A rule known by its citation."""


class ReportDelivery(Dated):
    """Delivery of inspection reports to the Stormwater Management Officer."""

    max_days_after_inspection: Count
    """Days after the inspection."""


class Milestone(Model):
    """A construction milestone."""

    name: Text
    """Its name in the milestones input."""
    paragraph: Text
    """The paragraph of the law that lists it."""
    label: Text
    """Its words in notices."""


class Milestones(Dated):
    """The milestones that need notice."""

    items: list[Milestone] = Field(min_length=1)
    """The milestones, in the law's order."""


class NoticeOfViolation(Dated):
    """Who issues stormwater notices of violation and where appeals go."""

    issuer: Text
    """The signer of notices."""
    appeal_filed_with: Text
    """Where an appeal is filed."""
    law_name: Text
    """The law's name as written in notices."""
    mailing: Text | None = None
    """How the municipality serves its notices and stop-work orders, as a letter says it after "By"
    ("certified mail", "personal service"). Left out: the letters and the worklist name no method, and a
    mailing's certified mail number is printed as the record gives it."""


class StopWorkOrder(Dated):
    """When a stop-work order is proposed."""

    for_findings: list[FindingName]
    """The findings that may lead to one."""
    when_status: Literal["overdue"]
    """Only for violations not corrected: an order rests on mailed notices whose last day to correct has
    passed with the violation uncorrected on the order's day."""


class Convictions(Dated):
    """Prior convictions that raise the offense number."""

    chapter: Text
    """Convictions under this chapter count."""
    imprisonment_max_months: Count
    """Longest imprisonment, months."""


class CitedText(Model):
    """A text of the law as a letter states it, with its section."""

    text: Text
    """The words the letter states."""
    citation: Citation


class RemedialMeasures(Dated):
    """The remedial measures a notice of violation states for each kind of finding (the notice's content
    (4)), in the law's words with the section of each. The time schedule is not here: the law leaves it to
    the officer, who gives it per notice (correct_within_days of notices_mailed)."""

    weekly: CitedText | None = None
    """For a weekly inspection not made in time."""
    storm: CitedText | None = None
    """For a storm inspection not made in time."""
    sediment_not_removed: CitedText | None = None
    """For sediment not removed."""
    disturbance_over_limit: CitedText | None = None
    """For too much land disturbed at one time."""
    contractor_not_certified: CitedText | None = None
    """For a contractor not certified before work."""
    milestone_notice_late: CitedText | None = None
    """For a milestone notified late."""
    report_not_delivered: CitedText | None = None
    """For inspection reports not delivered."""


class SwpppTexts(Dated):
    """The law's words quoted in findings and notices."""

    weekly: Text | None = None
    """The law's words on a weekly inspection not made in time."""
    storm: Text | None = None
    """The law's words on a storm inspection not made in time."""
    disturbance_over_limit: Text | None = None
    """The law's words on too much land disturbed at one time."""
    sediment_not_removed: Text | None = None
    """The law's words on sediment not removed."""
    milestone_notice_late: Text | None = None
    """The law's words on a milestone notified late."""
    contractor_not_certified: Text | None = None
    """The law's words on a contractor not certified before work."""
    report_not_delivered: Text | None = None
    """The law's words on inspection reports not delivered."""
    stop_work_order: Text | None = None
    """The law's words on a stop-work order."""
    penalties: Text | None = None
    """The law's words on penalties."""


class Swppp(Model):
    """Stormwater pollution prevention during construction: who needs inspections, how often, and the
    notices that follow. Only which sites need inspections and the weekly and storm inspections are
    required; every other part is a duty some codes state and others do not: a part left out is not judged
    (reported as not stated), never given a value. Notices of violation are drafted only where the rules
    state who issues them, the appeal, the law's words, the convictions and the stormwater penalty."""

    applicability: Versions[Applicability]
    """Which sites need inspections."""
    weekly_inspection: Versions[WeeklyInspection]
    storm_inspection: Versions[StormInspection]
    disturbance_limit: Versions[DisturbanceLimit] | None = None
    sediment_cleanout: Versions[SedimentCleanout] | None = None
    milestone_notice: Versions[MilestoneNotice] | None = None
    appeal: Versions[Appeal] | None = None
    land_development_activity: Versions[LandDevelopmentActivity] | None = None
    conditions: Versions[Conditions] | None = None
    """Conditions A, B and C where they do not decide applicability."""
    exemptions: Versions[CitedRule] | None = None
    """Activities exempt from review."""
    report_delivery: Versions[ReportDelivery] | None = None
    milestones: Versions[Milestones] | None = None
    contractor_certification: Versions[CitedRule] | None = None
    """Each contractor signs the certification before work begins."""
    notice_of_violation: Versions[NoticeOfViolation] | None = None
    stop_work_order: Versions[StopWorkOrder] | None = None
    convictions: Versions[Convictions] | None = None
    remedial_measures: Versions[RemedialMeasures] | None = None
    section_text: Versions[SwpppTexts] | None = None

    @model_validator(mode="after")
    def _conditions_somewhere(self) -> "Swppp":
        if (
            self.conditions is None
            and self.land_development_activity is not None
            and any(isinstance(a, MinAcresApplicability) for a in self.applicability)
        ):
            raise rule_error(
                "missing 'conditions': with applicability rule min_disturbed_acres and a "
                "land_development_activity, Conditions A, B and C are listed under conditions"
            )
        return self

    def not_stated(self) -> list[str]:
        """The optional parts of the section the rules leave out, in the order of the model: each a duty
        not judged (or a notice not drafted)."""
        return [n for n in OPTIONAL_SWPPP_PARTS if getattr(self, n) is None]


#: The parts of ``swppp`` a code may not state, each with what is then not judged, in words.
OPTIONAL_SWPPP_PARTS = {
    "land_development_activity": "sites are not classed as land development activities",
    "disturbance_limit": "land disturbed at one time is not judged",
    "sediment_cleanout": "sediment clean-out is not judged",
    "milestone_notice": "notice before construction milestones is not judged",
    "milestones": "notice before construction milestones is not judged",
    "contractor_certification": "contractor certification is not judged",
    "appeal": "no notice of violation is drafted",
    "notice_of_violation": "no notice of violation is drafted",
    "convictions": "no notice of violation is drafted",
    "stop_work_order": "no stop-work order is proposed",
}

#: What a stormwater notice of violation needs the rules to state: its issuer, the appeal, the penalty
#: (and the convictions that raise it) and the law's words it quotes.
STORMWATER_NOTICE_PARTS = {
    "swppp.notice_of_violation": "who issues a notice",
    "swppp.appeal": "the appeal",
    "swppp.convictions": "the prior convictions that raise the penalty",
    "swppp.section_text": "the law's words a notice quotes",
    "penalties.stormwater": "the penalty",
}
