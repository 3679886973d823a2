"""The readings of ambiguous law this version of Outfall implements, by group and name.

A rules file names, for each reading, the one way its town reads the law (``readings_sewer_compliance``,
``readings_enforcement``); the code implements one way each. A file asking for another is refused when it
is read, by ``python -m outfall.rules check`` and by ``outfall run`` before any asset starts, naming the
entry and the value this version implements.
"""

from __future__ import annotations

from typing import Any

IMPLEMENTED: dict[str, dict[str, Any]] = {
    "readings_sewer_compliance": {
        "daily_value": "composite_else_mean_of_grabs",
        "monthly_value": "mean_of_results",
        "overlapping_permit_limits": "latest_effective_from_then_strictest",
        "nondetect_against_minimum": "below_limit_is_violation",
        "slug_usual_interval": "median_daily_spacing",
        "slug_duration_display": "ceil_minutes",
        "permit_in_effect": "effective_through_expires",
        "permit_term_unknown": "never_held_without_number",
    },
    "readings_enforcement": {
        "sewer_notice_date": "mailed_on",
        "sewer_correction_judged_by": "next_decided_result",
        "sewer_penalty_days": "days_after_correct_by",
        "accidental_statement_from": "notification_else_occurrence",
        "self_monitoring_aware_on": "collected_date",
        "resample_by_any_lab": True,
        "late_report_not_received": "days_through_as_of",
        "late_report_counts": "every_report_with_due_date",
        "snc_publication_period": "calendar_year",
        "surcharge_threshold": "part2_limit",
        "surcharge_concentration": "monthly_mean_composites_else_grabs",
        "surcharge_flow": "meter_time_weighted_else_permit",
        "grease_due_from": "later_of_set_on_and_last_pumpout",
    },
}


def unimplemented(group: str, readings: Any) -> tuple[str, int, Any, Any] | None:
    """(name, version index, value asked for, value implemented) of the first reading of ``readings``
    (a group's model) that asks for what this version does not implement; None when every one is."""
    for name, value in IMPLEMENTED[group].items():
        for i, version in enumerate(getattr(readings, name, None) or ()):
            if version.value != value:
                return name, i, version.value, value
    return None
