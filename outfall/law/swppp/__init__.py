"""Construction-site stormwater law (SWPPP) as pure functions: no I/O.

Sources: the stormwater law of each jurisdiction (the model town's chapter on
stormwater management, whose definitions are in its illicit discharge law, and the village's article on
stormwater. Every number comes from the jurisdiction's rules file
(``rules/<jurisdiction>.yaml``: the ``swppp`` and ``penalties.stormwater``
sections and the ``swppp_*`` readings); the functions take the loaded, typed
``Rules`` and ask each part for the version in effect on the day it applies to:
a site's classification on the day asked (its construction start), a weekly
inspection on the day that starts it, a storm inspection on the storm's day, a
penalty on the violation's day, a notice's remedial schedule and appeal period
on the notice's day. A day no version covers raises ``RulesError`` (naming the
file, the part and the day); the assets report it as not judged.

The contract's reading (section 4) of the inspection schedule:

- A site needs inspections while active: from construction_start through
  final_stabilization (or through --as-of), unless exempt. Under rules ``conditions_abc`` only a
  site meeting Condition A, B or C; under ``min_disturbed_acres``, every site disturbing that much.
- weekly: the first inspection is due by construction_start + 7 days, each
  next one by the previous inspection's date + 7; trigger_date is the start or
  the previous inspection's date.
- storm: every active day D with >= 0.5 in of rain at the site's gauge needs
  an inspection dated D or D + 1 (trigger_date D, due_by D + 1).
- An inspection after due_by makes the finding ``late`` (satisfied_on = the
  first such inspection); none, with due_by before --as-of, makes it
  ``overdue``. A requirement whose due_by falls after final_stabilization is
  not a finding, nor one not yet satisfied whose due_by is on or after --as-of.
- Every inspection kind counts; inspections dated after --as-of or before
  construction_start are ignored; several rainfall rows of one gauge and day
  are summed.

``days_late`` (an extra column): for a late finding satisfied_on - due_by; for
an overdue one the days from due_by to --as-of, or to final_stabilization when
the site was stabilized earlier (a continuing violation ends with the site's
active period).
"""

from outfall.law.swppp.findings import (
    OtherFinding,
    _local_time,
    _report_days,
    certification_finding,
    disturbance_finding,
    milestone_notice_finding,
    report_delivery_findings,
    reports_awaited,
    sediment_findings,
)
from outfall.law.swppp.inspections import (
    Requirement,
    daily_totals,
    is_storm,
    storm_amount_words,
    storm_days,
    storm_findings,
    storm_requirements,
    upcoming_inspections,
    weekly_findings,
    weekly_requirements,
)
from outfall.law.swppp.notices import (
    SiteRecord,
    Violation,
    _d,
    _hours,
    _money,
    _nature,
    _ordinal,
    _plural,
    _remedial,
    _storm_precipitation,
    build_notice,
    finding_labels,
    finding_rule,
    notice_id,
    penalty_accrued,
    penalty_schedule,
    stop_work_warranted,
)
from outfall.law.swppp.penalties import (
    Penalty,
    _usd,
    assess_penalty,
    count_prior_convictions,
    normalize_chapter,
    penalty_tier,
    violation_periods,
    years_before,
)
from outfall.law.swppp.sites import (
    FINDING_STATUSES,
    OTHER_FINDINGS,
    RAIN_DECIMALS,
    REQUIREMENTS,
    UTC,
    Classification,
    SiteFacts,
    _acres,
    _days,
    _inspections_in_window,
    active_through,
    classify_site,
    is_active,
    reading,
)

__all__ = [
    "UTC",
    "REQUIREMENTS",
    "FINDING_STATUSES",
    "OTHER_FINDINGS",
    "RAIN_DECIMALS",
    "reading",
    "_days",
    "SiteFacts",
    "Classification",
    "_acres",
    "classify_site",
    "active_through",
    "is_active",
    "_inspections_in_window",
    "Requirement",
    "weekly_requirements",
    "weekly_findings",
    "daily_totals",
    "is_storm",
    "storm_amount_words",
    "storm_days",
    "storm_requirements",
    "storm_findings",
    "upcoming_inspections",
    "OtherFinding",
    "disturbance_finding",
    "sediment_findings",
    "_local_time",
    "milestone_notice_finding",
    "certification_finding",
    "_report_days",
    "report_delivery_findings",
    "reports_awaited",
    "years_before",
    "normalize_chapter",
    "count_prior_convictions",
    "Penalty",
    "_usd",
    "penalty_tier",
    "violation_periods",
    "assess_penalty",
    "Violation",
    "SiteRecord",
    "_d",
    "_plural",
    "_ordinal",
    "_money",
    "notice_id",
    "_hours",
    "_storm_precipitation",
    "_nature",
    "_remedial",
    "penalty_schedule",
    "penalty_accrued",
    "build_notice",
    "stop_work_warranted",
    "finding_labels",
    "finding_rule",
]
