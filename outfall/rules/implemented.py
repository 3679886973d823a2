"""The readings of ambiguous law this version of Outfall implements, by group and name, with what each
word means.

A rules file names, for each reading, the one way its town reads the law (``readings_sewer_compliance``,
``readings_enforcement``); the code implements one way each. A file asking for another is refused when it
is read, by ``outfall rules check`` and by ``outfall run`` before any asset starts, naming the entry and
the value this version implements. The words and their meanings are the allowed values of each key in
``rules/schema.json`` and ``docs/rules.md``.

A word this version renamed (``OLD_WORDS``) is still read, as the new word, and the check says so.
"""

from __future__ import annotations

from typing import Any

#: Each reading: the one word implemented, and what it means, in words for the person writing the file.
WORDS: dict[str, dict[str, tuple[Any, str]]] = {
    "readings_sewer_compliance": {
        "daily_value": (
            "composite_else_mean_of_grabs",
            "a daily maximum is judged on the day's 24-hour composite (the mean of the day's composites when "
            "there are several), else on the mean of the day's grab samples",
        ),
        "monthly_value": (
            "mean_of_results",
            "a monthly average is the mean of every result of the calendar month, non-detects entering it as "
            "the non-detect policy says",
        ),
        "overlapping_permit_limits": (
            "latest_effective_from_then_strictest",
            "of two permit limits of one parameter and kind in effect on a day, the one that took effect "
            "last applies, and of two that took effect the same day, the stricter",
        ),
        "nondetect_against_minimum": (
            "below_limit_is_violation",
            "a result reported only as below a detection value breaks a minimum limit when that value is "
            "at or below the limit; otherwise it is inconclusive",
        ),
        "slug_usual_interval": (
            "median_daily_spacing",
            "a meter's usual reading interval is the median over the user's days of each day's median "
            "spacing of readings",
        ),
        "slug_duration_display": (
            "ceil_minutes",
            "a slug's duration (last reading minus first plus one interval) is shown in whole minutes "
            "rounded up, and its end as its start plus that duration; whether it lasted long enough is "
            "judged on the exact duration",
        ),
        "permit_in_effect": (
            "effective_through_expires",
            "a permit is in effect from the day it takes effect through the day it expires, both included",
        ),
        "permit_term_unknown": (
            "never_held_without_number",
            "a user with no permit number and neither permit date never held a permit; a user with a number "
            "but neither date is not judged",
        ),
    },
    "readings_enforcement": {
        "sewer_notice_date": (
            "mailed_on",
            "a notice of violation is dated the day it was mailed, and its period to correct runs from that "
            "day; a notice not yet mailed is a draft",
        ),
        "sewer_correction_judged_by": (
            "next_decided_result",
            "a violation is corrected in time when the user's next result of the parameter complies and was "
            "collected within the period to correct",
        ),
        "sewer_penalty_days": (
            "days_after_correct_by",
            "the days a penalty may count start the day after the last day to correct and run until the "
            "first later compliant result (or the day judged)",
        ),
        "accidental_statement_from": (
            "notification_else_occurrence",
            "the period for the written statement runs from the notification's date, or from the discharge's "
            "when no notification is recorded",
        ),
        "self_monitoring_aware_on": (
            "collected_date",
            "with no report date on record, a user becomes aware of a violation on the day the sample was "
            "collected",
        ),
        "resample_by_any_lab": (
            True,
            "true: any later result of the same user and parameter satisfies the repeat sampling",
        ),
        "late_report_not_received": (
            "days_through_as_of",
            "a report not yet received is as late as the days from its due date to the day judged",
        ),
        "late_report_counts": (
            "every_report_with_due_date",
            "every report on file with a due date counts for the late-report criterion, in the half-year of "
            "its due date",
        ),
        "snc_publication_period": (
            "calendar_year",
            "the annual list of significant noncompliance covers one calendar year",
        ),
        "surcharge_threshold": (
            "code_limit",
            "where the rules state no surcharge threshold of a parameter (surcharge.thresholds), its pounds "
            "count from the sewer use law's own maximum limit, whatever a permit or special agreement allows",
        ),
        "surcharge_concentration": (
            "monthly_mean_composites_else_grabs",
            "a month's concentration is the mean of its composite results, else of its grab samples",
        ),
        "surcharge_flow": (
            "meter_time_weighted_else_permit",
            "a month's volume is the time-weighted mean of its flow readings times its minutes; with no "
            "reading in the month, the permit's normal daily flow times its days",
        ),
        "grease_due_from": (
            "later_of_set_on_and_last_pumpout",
            "the next pump-out is due the set interval after the later of the day the owner was told the "
            "frequency and the last pump-out",
        ),
    },
}

#: Words this version renamed: (group, reading) -> {old word: new word}. Still read, as the new word.
OLD_WORDS: dict[tuple[str, str], dict[str, str]] = {
    ("readings_enforcement", "surcharge_threshold"): {"part2_limit": "code_limit"},
}

IMPLEMENTED: dict[str, dict[str, Any]] = {
    group: {name: word for name, (word, _meaning) in names.items()} for group, names in WORDS.items()
}


def renamed(group: str, name: str, value: Any) -> Any:
    """The word a renamed old word now reads as (the value itself when it is not an old word)."""
    return OLD_WORDS.get((group, name), {}).get(value, value) if isinstance(value, str) else value


def unimplemented(group: str, readings: Any) -> tuple[str, int, Any, Any] | None:
    """(name, version index, value asked for, value implemented) of the first reading of ``readings``
    (a group's model) that asks for what this version does not implement; None when every one is."""
    for name, value in IMPLEMENTED[group].items():
        for i, version in enumerate(getattr(readings, name, None) or ()):
            if renamed(group, name, version.value) != value:
                return name, i, version.value, value
    return None
