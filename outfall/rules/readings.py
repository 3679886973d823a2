"""The readings of ambiguous law (``readings``, ``readings_sewer_compliance``, ``readings_enforcement``):
the one reading the numbers follow, each a word the code implements (``outfall.rules.implemented``).
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema, create_model, model_validator

from outfall.rules.dated import Dated, Model, Versions, rule_error
from outfall.rules.implemented import OLD_WORDS, WORDS, renamed, unimplemented
from outfall.rules.types import (
    ClockTime,
    Flag,
    Text,
    show,
)


class FlagReading(Dated):
    """A reading of ambiguous law that is a yes or a no."""

    value: Flag


class WordReading(Dated):
    """A reading of ambiguous law, named by a word the code implements."""

    value: Text


class TimeReading(Dated):
    """A reading of ambiguous law that is a local time of day (HH:MM)."""

    value: ClockTime


class Readings(Model):
    """The one reading of ambiguous law that the numbers follow (data contract section 4), by name."""

    exceedance_is_strict: Versions[FlagReading] | None = None
    """'In excess of' means strictly greater."""
    nondetect_above_limit_is_inconclusive: Versions[FlagReading] | None = None
    """A non-detect <X with X above the limit is inconclusive."""
    temperature_compared_in_degF: Versions[FlagReading] | None = None
    """Temperatures are compared in degrees Fahrenheit."""
    swppp_condition_a_is_impaired_water_flag: Versions[FlagReading] | None = None
    """Condition A is the site's impaired_water flag, whatever the acreage."""
    swppp_agricultural_flag_is_condition_c_exclusion: Versions[FlagReading] | None = None
    """The sites' agricultural flag only excludes a site from Condition C."""
    swppp_milestone_time_when_only_dated: Versions[TimeReading] | None = None
    """The local time a milestone known only by its date is taken to occur."""
    swppp_certification_same_day_counts_as_before: Versions[FlagReading] | None = None
    """A contractor certification signed on the day work begins counts as before it."""
    swppp_sediment_next_inspection_with_reading: Versions[FlagReading] | None = None
    """Sediment cleanout is judged at the next inspection that records a sediment reading."""
    swppp_conviction_lookback_includes_first_day: Versions[FlagReading] | None = None
    """The five-year look-back for prior convictions includes its first day."""
    swppp_disturbed_acres_disturbed_at_one_time: Versions[FlagReading] | None = None
    """A site's disturbed acres are taken as disturbed at one time."""


def _word_reading(group: str, name: str) -> Any:
    """The model of one named reading: its ``value`` is the one word this version implements (the schema's
    enum and the docs say which, and what it means)."""
    word, meaning = WORDS[group][name]
    words = [word, *OLD_WORDS.get((group, name), {})]
    kind: Any = (
        Annotated[bool, BeforeValidator(_reading_flag), WithJsonSchema({"type": "boolean", "enum": [word]})]
        if isinstance(word, bool)
        else Annotated[str, BeforeValidator(_reading_text), WithJsonSchema({"type": "string", "enum": words})]
    )
    said = "true" if word is True else word
    old = "".join(f" (the old word {o!r} is read as {said!r})" for o in OLD_WORDS.get((group, name), {}))
    return create_model(
        "".join(part.title() for part in name.split("_")) + "Reading",
        __base__=Dated,
        __module__=__name__,
        __doc__=f"A reading of ambiguous law: {meaning}.",
        value=(kind, Field(description=f"{said}: {meaning}{old}.")),
    )


def _reading_text(value: Any) -> Any:
    if not isinstance(value, str) or not value.strip():
        raise rule_error("{value} is not a word (write the reading's word)", value=show(value))
    return value


def _reading_flag(value: Any) -> Any:
    if not isinstance(value, bool):
        raise rule_error("{value} is not true or false", value=show(value))
    return value


def _renamed_words(group: str, data: Any) -> Any:
    """A renamed old word (``OLD_WORDS``) read as the new one."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    for name, versions in data.items():
        if isinstance(versions, list):
            out[name] = [
                {**v, "value": renamed(group, name, v.get("value"))} if isinstance(v, dict) else v
                for v in versions
            ]
    return out


_SC = "readings_sewer_compliance"
_EN = "readings_enforcement"


class SewerComplianceReadings(Model):
    """Readings of the sewer use law where the law and the contract leave a choice (the code refuses a
    value it does not implement; each key's one word, and what it means, is in docs/rules.md)."""

    daily_value: Versions[_word_reading(_SC, "daily_value")] | None = None  # type: ignore[valid-type]
    """How a day's value is formed for a daily-maximum limit."""
    monthly_value: Versions[_word_reading(_SC, "monthly_value")] | None = None  # type: ignore[valid-type]
    """How a month's value is formed for a monthly-average limit."""
    overlapping_permit_limits: Versions[_word_reading(_SC, "overlapping_permit_limits")] | None = None  # type: ignore[valid-type]
    """Which permit limit applies when two are in effect on one day."""
    nondetect_against_minimum: Versions[_word_reading(_SC, "nondetect_against_minimum")] | None = None  # type: ignore[valid-type]
    """How a non-detect is judged against a minimum limit."""
    slug_usual_interval: Versions[_word_reading(_SC, "slug_usual_interval")] | None = None  # type: ignore[valid-type]
    """How a meter's usual reading interval is measured."""
    slug_duration_display: Versions[_word_reading(_SC, "slug_duration_display")] | None = None  # type: ignore[valid-type]
    """How a slug's duration is shown."""
    permit_in_effect: Versions[_word_reading(_SC, "permit_in_effect")] | None = None  # type: ignore[valid-type]
    """Which days a user's permit is in effect, from its permit_effective and permit_expires dates."""
    permit_term_unknown: Versions[_word_reading(_SC, "permit_term_unknown")] | None = None  # type: ignore[valid-type]
    """What a user with neither permit date means for the finding of discharges without a permit."""

    @model_validator(mode="before")
    @classmethod
    def _old_words(cls, data: Any) -> Any:
        return _renamed_words(_SC, data)

    @model_validator(mode="after")
    def _implemented(self) -> "SewerComplianceReadings":
        return _refuse_unimplemented(self, _SC)


class EnforcementReadings(Model):
    """Readings of the enforcement law where the text and the inputs leave a choice (the code refuses a
    value it does not implement; each key's one word, and what it means, is in docs/rules.md)."""

    sewer_notice_date: Versions[_word_reading(_EN, "sewer_notice_date")] | None = None  # type: ignore[valid-type]
    """The day a notice of violation is dated."""
    sewer_correction_judged_by: Versions[_word_reading(_EN, "sewer_correction_judged_by")] | None = None  # type: ignore[valid-type]
    """What shows a violation corrected in time."""
    sewer_penalty_days: Versions[_word_reading(_EN, "sewer_penalty_days")] | None = None  # type: ignore[valid-type]
    """Which days count toward the sewer use law's penalty."""
    accidental_statement_from: Versions[_word_reading(_EN, "accidental_statement_from")] | None = None  # type: ignore[valid-type]
    """The day the accidental-discharge statement period runs from."""
    self_monitoring_aware_on: Versions[_word_reading(_EN, "self_monitoring_aware_on")] | None = None  # type: ignore[valid-type]
    """The day a user is taken to become aware of a violation."""
    resample_by_any_lab: Versions[_word_reading(_EN, "resample_by_any_lab")] | None = None  # type: ignore[valid-type]
    """Whether any later result satisfies the repeat sampling."""
    late_report_not_received: Versions[_word_reading(_EN, "late_report_not_received")] | None = None  # type: ignore[valid-type]
    """How late a report not yet received is."""
    late_report_counts: Versions[_word_reading(_EN, "late_report_counts")] | None = None  # type: ignore[valid-type]
    """Which reports count for the late-report criterion."""
    snc_publication_period: Versions[_word_reading(_EN, "snc_publication_period")] | None = None  # type: ignore[valid-type]
    """The period the annual list of significant noncompliance covers."""
    surcharge_threshold: Versions[_word_reading(_EN, "surcharge_threshold")] | None = None  # type: ignore[valid-type]
    """The concentration a surcharge by the pound counts from where the rules state no surcharge
    threshold."""
    surcharge_concentration: Versions[_word_reading(_EN, "surcharge_concentration")] | None = None  # type: ignore[valid-type]
    """How a month's concentration is formed for a surcharge."""
    surcharge_flow: Versions[_word_reading(_EN, "surcharge_flow")] | None = None  # type: ignore[valid-type]
    """How a month's volume is formed for a surcharge."""
    grease_due_from: Versions[_word_reading(_EN, "grease_due_from")] | None = None  # type: ignore[valid-type]
    """The day a grease interceptor's next pump-out is counted from."""

    @model_validator(mode="before")
    @classmethod
    def _old_words(cls, data: Any) -> Any:
        return _renamed_words(_EN, data)

    @model_validator(mode="after")
    def _implemented(self) -> "EnforcementReadings":
        return _refuse_unimplemented(self, _EN)


def _refuse_unimplemented(readings: Any, group: str) -> Any:
    """A reading this version of Outfall does not implement is refused when the file is read."""
    found = unimplemented(group, readings)
    if found is not None:
        name, i, asked, value = found
        raise rule_error(
            "{asked} is not a reading this version of Outfall implements: it implements only {value}",
            asked=show(asked),
            value=repr(value) if isinstance(value, str) else show(value),
            sub=[name, i, "value"],
        )
    return readings
