"""The rules files as typed models: one model per section, every entry dated and cited.

A section whose values can change by local law is a list of dated versions
(``Versions``: ``rules.slug.at(day)``) or a list of dated entries side by side
(``Entries``: ``rules.discharge_limits.at(day)``). A section of several rules
(``swppp``, ``notices``, ``penalties``, the readings) is a mapping of named
parts, each a list of versions (``rules.swppp.storm_inspection.at(day)``).

No model here carries a number of the law as a default: every value comes from
the rules files. Where the law leaves a number to the town and none is adopted
(a board's metal limits, surcharge rates), the list is empty and stays empty until an
adopted entry, naming what adopted it, is added.

The docstrings below become the descriptions of the JSON Schema
(``rules/schema.json``) and the words of ``docs/rules.md``: they are written
for the person who edits a rules file.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

import datetime as dt
import string
from pathlib import Path
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BeforeValidator, Field, PrivateAttr, WithJsonSchema, create_model, model_validator
from pydantic_core import PydanticCustomError

from outfall import vocab
from outfall.rules.calendar import BusinessDayRules, DeadlineExtension
from outfall.rules.charges import ChargeModel, VolumeCharges, check_charge_model
from outfall.rules.codes import BILL_COMPONENTS, Code, Codes, check_schedule_codes
from outfall.rules.dated import Dated, Entries, Model, RulesError, Versions
from outfall.rules.fee_schedules import FeeScheduleEntry
from outfall.rules.fees import FeeSchedule
from outfall.rules.illicit import IllicitTerms
from outfall.rules.implemented import OLD_WORDS, WORDS, renamed, unimplemented
from outfall.rules.practices import PracticeTerms
from outfall.rules.surcharges import Surcharge
from outfall.rules.types import (
    Citation,
    ClockTime,
    Count,
    Flag,
    Jurisdiction,
    LimitType,
    Money,
    NonNegativeNumber,
    Number,
    Parameter,
    ParcelCount,
    Percent,
    PositiveCount,
    PositiveNumber,
    Rounding,
    Text,
    TimeZone,
    show,
)


def _error(message: str, **ctx: Any) -> PydanticCustomError:
    return PydanticCustomError("rules", message, ctx or None)


# ============================================================ discharge limits

_UNITS_OF_KIND = {
    "concentration": vocab.CONCENTRATION_UNITS,
    "ph": vocab.PH_UNITS,
    "temperature": vocab.TEMPERATURE_UNITS,
}


class DischargeLimit(Dated):
    """A per-sample limit on one parameter. Once loaded, ``value`` and ``unit`` are in the
    canonical unit (mg/L, s.u. or degF); the file may use any unit of the parameter's kind."""

    parameter: Parameter
    """The parameter limited (BOD, COD, TSS, chlorine_demand, pH, FOG, temperature, or a metal's name)."""
    limit_type: LimitType
    """max: a result above the value breaks it; min: a result below it breaks it."""
    value: Number
    """The limit, in `unit`."""
    unit: Text
    """The unit of `value` (mg/L or ug/L for a concentration, s.u. for pH, degF or degC for temperature)."""
    applies_when: Text | None = None
    """Where the law bars the discharge only on a finding (a waste an official must judge harmful, a
    'restricted' waste), that condition in the law's words: every violation of the limit quotes it."""
    excursion_minutes: PositiveNumber | None = None
    """Where the law counts an excursion beyond the limit as a violation only when it lasts longer than so
    many minutes (a pH time rule): continuous readings are judged by how long they stay beyond it, and a
    single sample beyond it is reported as inconclusive."""
    source: Text | None = None
    """The word the limits' source column gives this limit (e.g. the part of the code it is in; left out:
    the sewer use law's short name)."""

    _written: tuple[float, str] = PrivateAttr(default=(0.0, ""))

    @model_validator(mode="after")
    def _to_canonical_unit(self) -> "DischargeLimit":
        kind = vocab.parameter_kind(self.parameter)
        unit = vocab.canonical_unit(self.unit, kind)
        if unit is None:
            raise _error(
                "unit {unit} is not a {kind} unit for {parameter} (one of {units})",
                unit=show(self.unit),
                kind=kind,
                parameter=self.parameter,
                units=", ".join(_UNITS_OF_KIND[kind]),
                key_name="unit",
            )
        self._written = (self.value, self.unit)
        scale, offset = vocab.LINEAR[unit]
        object.__setattr__(self, "value", self.value * scale + offset)
        object.__setattr__(self, "unit", vocab.CANONICAL_OF[unit])
        return self

    @property
    def as_written(self) -> tuple[float, str]:
        """(value, unit) as the rules file states them."""
        return self._written

    def key(self) -> tuple[str, str]:
        return (self.parameter, self.limit_type)

    def label(self) -> str:
        return f"{self.parameter} {self.limit_type}"


class TownBoardLimit(DischargeLimit):
    """A limit the body the law leaves it to has adopted (a board's resolution, an official's order)."""

    adopted_by: Text
    """The act that set the limit (e.g. "Resolution 2027-3")."""


class Table71(Dated):
    """Substances whose limits the law leaves to a body (the model town's shape of
    `limits_set_elsewhere`: one table of a board's limits). Until the body adopts some, `limits` is
    empty and a result of such a substance is reported as having no limit."""

    limits: Entries[TownBoardLimit]
    """The limits adopted (empty: none adopted)."""
    set_by: Text | None = None
    """Whom the law leaves these limits to (e.g. "the Village Council")."""
    source: Text | None = None
    """The word the limits' source column gives these limits (left out: the sewer use law's short name)."""


class LimitsSetElsewhere(Dated):
    """Substances the law names but whose limits it leaves to an official, a board or another document
    (the superintendent's limits of metals, the plant's discharge permit). Until limits are adopted,
    `limits` is empty and a result of such a substance is reported as having no limit."""

    substances: Text
    """The substances, as the law names them."""
    set_by: Text
    """Who or what sets the limits (e.g. "the Superintendent", "the City's NPDES permit, as amended")."""
    parameters: list[Parameter] = Field(default_factory=list)
    """The parameters among them, as lab results name them (left out: as the law names them only)."""
    source: Text | None = None
    """The word the limits' source column gives these limits (left out: the sewer use law's short name)."""
    limits: Entries[TownBoardLimit] = Field(default_factory=lambda: Entries(()))
    """The limits adopted, each with the act that adopted it (empty: none adopted)."""


# ============================================================ readings


class FlagReading(Dated):
    """A reading of ambiguous law that is a yes or a no."""

    value: Flag


class WordReading(Dated):
    """A reading of ambiguous law, named by a word the code implements."""

    value: Text


class WordsReading(Dated):
    """A reading of ambiguous law that is a list of words."""

    value: list[Text]


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
        raise _error("{value} is not a word (write the reading's word)", value=show(value))
    return value


def _reading_flag(value: Any) -> Any:
    if not isinstance(value, bool):
        raise _error("{value} is not true or false", value=show(value))
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
        raise _error(
            "{asked} is not a reading this version of Outfall implements: it implements only {value}",
            asked=show(asked),
            value=repr(value) if isinstance(value, str) else show(value),
            sub=[name, i, "value"],
        )
    return readings


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
            raise _error(
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


# ============================================================ sewer units and billing


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
            raise _error("only the last tier may have max: null")
        bounded = [h for h in highs if h is not None]
        if bounded != sorted(set(bounded)):
            raise _error("tiers must go from the smallest max to the largest")
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
            raise _error(
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
            raise _error(
                "rate_sources lists sewer_budget, but no citation_budget_rate and budget_rate_adopted_by say "
                "which adopted act derives a rate from a budget; without them only adopted rates are billed",
                key_name="rate_sources",
            )
        return self


# ============================================================ sewer enforcement


class SewerCorrection(Dated):
    """The period a notice of violation gives to correct it: a number of days the law states (max_days, or
    days), or a period the law leaves to the notice ("a reasonable time", set_per_notice: true), which the
    administrator gives in each notice (notices_mailed.correct_within_days)."""

    max_days: Count | None = None
    """The law's maximum period, in days (left out: the law states no maximum)."""
    days: Count | None = None
    """The period the administrator gives (left out: the maximum)."""
    set_per_notice: Flag = False
    """true where the law gives no number of days ("a reasonable time", "a period determined by the
    Director"): each notice's days are the ones recorded with its mailing, and a mailed notice without
    them is listed for review."""
    words: Text | None = None
    """The law's words for the period where it is set per notice (e.g. "a reasonable time")."""

    @model_validator(mode="after")
    def _within(self) -> "SewerCorrection":
        if self.max_days is None and self.days is None and not self.set_per_notice:
            raise _error(
                "give max_days (the law's maximum), days, or set_per_notice: true where the law leaves the "
                "period to each notice (a reasonable time)"
            )
        if self.days is not None and self.max_days is not None and self.days > self.max_days:
            raise _error(
                "days {days} is more than max_days {max}", days=self.days, max=self.max_days, key_name="days"
            )
        return self

    @property
    def default_days(self) -> int | None:
        """The days a mailed notice gives when its record states none (None: set per notice)."""
        if self.set_per_notice:
            return None
        return self.days if self.days is not None else self.max_days


LawKey = Literal[
    "sewer_use",
    "sewer_rates",
    "sewer_penalty",
    "sewer_district",
    "stormwater",
    "illicit_discharges",
    "inspection_fees",
    "pretreatment",
]
"""The names of ``law_names``."""


class Duty(Dated):
    """A duty a user owes the administrator (a report, a notice, a repeat sample), and whose law it is."""

    law: LawKey | None = None
    """The law it rests on, by its name in law_names (left out: the sewer use law)."""
    adopted_by: Text | None = None
    """For a duty of another law (a federal or state regulation): the local law, resolution or permit
    condition that adopts it for the town. Left out, the duty stays on the user's record and is never a
    violation in a notice or a count of violations."""
    practice: Text | None = None
    """Where it rests on no law but on a practice of the municipality (a reminder the code does not require):
    the practice's name (e.g. "Town practice: permit renewal reminder"), which is then the item's law; it is
    never a violation. Give it without ``law`` and ``adopted_by``."""

    @model_validator(mode="after")
    def _practice_is_not_law(self) -> "Duty":
        if self.practice is not None and (self.law is not None or self.adopted_by is not None):
            raise _error(
                "a practice is not law: give practice without law and adopted_by",
                key_name="practice",
            )
        return self


class DaysRule(Duty):
    """A number of days."""

    days: Count
    """Days."""


class PeriodicReport(Duty):
    """How often periodic reports are due."""

    max_months: PositiveCount
    """At intervals not exceeding this many months."""


class SelfMonitoring(Duty):
    """What a user must do after its own sample shows a violation."""

    notice_hours: Count
    """Notify the POTW within this many hours."""
    resample_days: Count
    """Repeat the sampling within this many days."""


class Notices(Model):
    """Deadlines of sewer notices and reports. Each part is a duty some codes state and others do not: a
    part left out is not judged (reported as not judged, never given a value), and the letters say nothing
    of it."""

    sewer_correction: Versions[SewerCorrection] | None = None
    """The period to correct a violation (left out: no period to correct is judged, and no sewer notice
    is drafted)."""
    accidental_statement: Versions[DaysRule] | None = None
    """Days to follow an accidental discharge's notification with a written statement."""
    periodic_report: Versions[PeriodicReport] | None = None
    """The interval of periodic reports."""
    self_monitoring: Versions[SelfMonitoring] | None = None
    """Notice and repeat sampling after a self-monitoring violation."""
    slug_report: Versions[DaysRule] | None = None
    """Days to send a written report of a slug discharge."""
    permit_expiry_warning: Versions[DaysRule] | None = None
    """Days before a permit's expiry from which it is flagged."""


class Snc(Dated):
    """Significant noncompliance of industrial users."""

    chronic_pct: Percent
    """Chronic: results breaking a limit are at least this percent of the measurements."""
    trc_pct: Percent
    """Technical review criteria: results at or above limit x factor are at least this percent."""
    trc_factor_default: PositiveNumber
    """The technical review factor of a parameter not listed below."""
    trc_factor_by_parameter: dict[Parameter, PositiveNumber] = Field(default_factory=dict)
    """The technical review factor of some parameters."""
    trc_excluded_parameters: list[Parameter] = Field(default_factory=list)
    """Parameters never judged by the technical review criteria."""
    late_report_days: Count
    """A report received more than this many days late counts."""
    period_months: PositiveCount
    """The length of a period, in months."""


class SewerEnforcementTexts(Model):
    """The law's words quoted in sewer letters; a text the code does not have is left out, and no letter
    quotes it."""

    enforcement: Text | None = None
    """The enforcement section."""
    penalties: Text | None = None
    """The sewer use law's penalties section."""
    grease: Text | None = None
    """Grease, oil and sand interceptors (left out where the code has no such section)."""
    citation: Citation


class SewerEnforcement(Dated):
    """Who issues sewer notices and how."""

    issuer: Text
    """The signer of notices."""
    mailing: Text
    """How the law has notices served, as a letter says it after "By" ("certified mail", "personal
    service"): the delivery line of a mailed notice and order, a draft's period to correct, the pages."""
    found_by: Text | None = None
    """Who finds a violation and notifies the user, as a notice's first sentence names the office after
    "The" ("administrator of the sewer district"). Left out: the issuer."""
    citation_not_corrected: Text
    """What follows when a violation is not corrected in time."""
    section_text: SewerEnforcementTexts
    """The law's words quoted in letters."""


class GreaseInterceptors(Dated):
    """Grease, oil and sand interceptors: pump-out frequency and orders."""

    citation_invoices: Text
    """The owner's duty to keep the scavenger's receipted invoices."""
    order_compliance_days: Count
    """The most days an order directing compliance may give: a ceiling, never a default (the administrator
    sets each order's days, recorded with its mailing; more than this is listed for review)."""
    citation_order_compliance: Text
    """The law limiting that period."""


# ============================================================ penalties


class PenaltyTier(Model):
    """The fine range of one offense."""

    offense: PositiveCount
    """1 = first offense, 2 = second, ... (the last tier covers every later one)."""
    min_usd: Money
    """Least fine, dollars."""
    max_usd: Money
    """Greatest fine, dollars."""

    @model_validator(mode="after")
    def _range(self) -> "PenaltyTier":
        if self.min_usd > self.max_usd:
            raise _error(
                "min_usd {low} is more than max_usd {high}", low=show(self.min_usd), high=show(self.max_usd)
            )
        return self


Per = Literal["day", "week"]


class StormwaterPenalty(Dated):
    """Fines for stormwater violations, rising with prior convictions."""

    per: Per
    """Each day or each week of a continued violation is a separate violation."""
    lookback_years: PositiveCount
    """Prior convictions count when within this many years."""
    tiers: list[PenaltyTier] = Field(min_length=1)
    """The fine range of each offense."""

    @model_validator(mode="after")
    def _offenses(self) -> "StormwaterPenalty":
        offenses = sorted(t.offense for t in self.tiers)
        if offenses != list(range(1, len(offenses) + 1)):
            raise _error(
                "tiers must be offenses 1, 2, 3 ... each once (found {found})",
                found=", ".join(map(str, offenses)),
            )
        return self

    def tier(self, offense: int) -> PenaltyTier:
        """The tier of the ``offense``-th offense (the last tier for every later one)."""
        chosen = [t for t in self.tiers if t.offense <= max(int(offense), 1)]
        return max(chosen, key=lambda t: t.offense)


class SewerUsePenalty(Dated):
    """The sewer use law's penalty, as its section states it: a fine, imprisonment, a civil penalty, or any
    of them. A part the section does not have is left out: it is not stated in any letter and adds
    nothing to the most a violation may cost."""

    per: Per | None = None
    """Each day (or week) a violation continues is a separate violation (left out: the section does not
    say so)."""
    fine_max_usd: Money | None = None
    """Greatest fine per violation, dollars."""
    imprisonment_max_days: Count | None = None
    """Longest imprisonment per violation, days (with or instead of the fine)."""
    imprisonment_max_months: Count | None = None
    """Longest imprisonment per violation, where the section states it in months."""
    civil_max_usd: Money | None = None
    """Greatest civil penalty per violation, dollars."""
    words: Text | None = None
    """The penalty in the section's own words, as a notice prints it after "<the section> provides:", with
    the amounts above in their places: ``{fine}`` ("a fine not exceeding $250.00"), ``{imprisonment}``
    ("imprisonment not exceeding 15 days"), ``{civil}`` ("a civil penalty not exceeding $250.00") and
    ``{per}`` ("day"); each part the entry states appears, and none it leaves out. Left out: the notice
    lists each part stated, for each violation, and whether each day is a separate violation."""

    @model_validator(mode="after")
    def _words_fit(self) -> "SewerUsePenalty":
        if self.words is None:
            return self
        stated = {
            "fine": self.fine_max_usd is not None,
            "imprisonment": self.imprisonment_max_days is not None
            or self.imprisonment_max_months is not None,
            "civil": self.civil_max_usd is not None,
            "per": self.per is not None,
        }
        used = {f for _, f, _, _ in string.Formatter().parse(self.words) if f is not None}
        said = []
        unknown = sorted(used - set(stated))
        if unknown:
            said.append(
                "name {" + "}, {".join(unknown) + "}, no part of a penalty (fine, imprisonment, civil, per)"
            )
        lacking = sorted(p for p, given in stated.items() if given and p not in used)
        if lacking:
            said.append("leave out {" + "}, {".join(lacking) + "}, which the entry states")
        extra = sorted(p for p in used if p in stated and not stated[p])
        if extra:
            said.append("name {" + "}, {".join(extra) + "}, which the entry does not state")
        if said:
            raise _error(
                "words {said}: write each part the entry states, and only those",
                said=" and ".join(said),
                key_name="words",
            )
        return self

    def statement(self, money: Any = str) -> str:
        """The penalty in words, after "<the section> provides:": the section's own (``words``) with the
        amounts in their places, else each part stated, for each violation. ``money`` writes an amount."""
        months = self.imprisonment_max_months
        parts = {
            "fine": f"a fine not exceeding {money(self.fine_max_usd)}"
            if self.fine_max_usd is not None
            else None,
            "imprisonment": (
                f"imprisonment not exceeding {self.imprisonment_max_days} days"
                if self.imprisonment_max_days is not None
                else (f"imprisonment not exceeding {months} months" if months is not None else None)
            ),
            "civil": (
                f"a civil penalty not exceeding {money(self.civil_max_usd)}"
                if self.civil_max_usd is not None
                else None
            ),
            "per": self.per,
        }
        if self.words is not None:
            return self.words.format(**{k: v or "" for k, v in parts.items()})
        stated = [parts[k] for k in ("fine", "imprisonment", "civil") if parts[k]]
        each = f"; each {self.per} a violation continues is a separate violation" if self.per else ""
        return f"for each violation, {'; '.join(stated)}{each}"

    @model_validator(mode="after")
    def _some_part(self) -> "SewerUsePenalty":
        parts = (
            self.fine_max_usd,
            self.imprisonment_max_days,
            self.imprisonment_max_months,
            self.civil_max_usd,
        )
        if all(p is None for p in parts):
            raise _error(
                "give at least one of fine_max_usd, imprisonment_max_days (or _months) and civil_max_usd, as "
                "the penalty section states them (or leave the whole section out)"
            )
        if self.imprisonment_max_days is not None and self.imprisonment_max_months is not None:
            raise _error(
                "give imprisonment_max_days or imprisonment_max_months, as the section states it, not both",
                key_name="imprisonment_max_months",
            )
        return self


class Penalties(Model):
    """The most (and least) a violation may be fined."""

    stormwater: Versions[StormwaterPenalty] | None = None
    """Stormwater violations."""
    sewer_use: Versions[SewerUsePenalty] | None = None
    """Sewer use violations."""


# ============================================================ stormwater (SWPPP)

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
            raise _error(
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


class Worklist(Model):
    """The worklist (contracts 6.4, 7.5): when an action counts as due rather than upcoming. A setting of the
    Town's pages, not a law: it has no citation and no effective dates, so a run judged on any day uses
    it."""

    due_within_days: Count
    """An action due on the day judged or within this many days after it is listed as due this week."""
    note: Text | None = None
    """Who set the number, and that it is not law (for the reader of the rules file)."""


# ============================================================ names of the law


class LawName(Dated):
    """The name of one of the jurisdiction's laws (or of a body it names), as letters and pages print it."""

    enacted_by: Literal["town", "state", "federal"] = "town"
    """Whose law it is: the town's own code (the default), or a state or federal regulation, whose duties
    are violations in the town's notices only where the rules adopt them (``adopted_by``)."""

    name: Text
    """In full, as a letter's heading names it (e.g. "Sewer Use, <Town> Code chapter 12")."""
    short: Text
    """As a page or a finding cites it (e.g. "<Town> Code ch. 12")."""


class LawNames(Model):
    """The names that letters and pages print, each a list of dated versions (a renumbered chapter is a
    new version). A file with the sewer rules names its sewer law, rate schedule, penalty section and
    district; one with stormwater rules, its stormwater law; with illicit discharge rules or inspection
    fees, those laws."""

    sewer_use: Versions[LawName] | None = None
    """The sewer use law: discharges, permits, reports, enforcement."""
    sewer_rates: Versions[LawName] | None = None
    """The sewer rate schedule: units and bills."""
    sewer_penalty: Versions[LawName] | None = None
    """The sewer use law's section on fines and civil penalties."""
    sewer_district: Versions[LawName] | None = None
    """The sewer district whose administrator enforces the sewer use law and signs its letters."""
    stormwater: Versions[LawName] | None = None
    """The stormwater law: SWPPP inspections, notices of violation, post-construction practices."""
    illicit_discharges: Versions[LawName] | None = None
    """The law on illicit discharges to the storm drain system."""
    inspection_fees: Versions[LawName] | None = None
    """The law that sets the water and sewer inspection fees."""
    pretreatment: Versions[LawName] | None = None
    """The federal General Pretreatment Regulations (40 CFR Part 403), whose duties (the 24-hour notice and
    repeat sampling after a violation, the slug report) the town's notices count only where adopted."""
    sewer_administrator: Versions[LawName] | None = None
    """The official the sewer use law names to administer it (its definition of the administrator): the
    name every page gives the person whose work the sewer page is."""
    stormwater_officer: Versions[LawName] | None = None
    """The official the stormwater law designates: the name every page gives the person whose work the
    stormwater page is."""


#: The names a section needs in ``law_names``: (section present, names it needs). Letters and pages print
#: them; a name a letter needs only where the rules have that part (the penalty, the district) is asked
#: for by what prints it.
LAW_NAMES_NEEDED = (
    ("discharge_limits", ("sewer_use",)),
    ("sewer_units", ("sewer_rates",)),
    ("volume_charges", ("sewer_rates",)),
    ("swppp", ("stormwater",)),
    ("illicit_discharges", ("illicit_discharges",)),
    ("inspection_fees", ("inspection_fees",)),
)


# ============================================================ is a duty judged


#: What each duty or part of the rules is, in words ("not judged: the rules state no <words>"): the parts a
#: code may leave out, each then not judged.
DUTY_WORDS = {
    "discharge_limits": "discharge limits",
    "slug": "definition of a slug discharge",
    "snc": "criteria of significant noncompliance",
    "notices": "deadlines of notices and reports",
    "notices.sewer_correction": "period to correct a violation",
    "notices.accidental_statement": "period for a written statement after an accidental discharge",
    "notices.periodic_report": "interval of periodic reports",
    "notices.self_monitoring": "notice and repeat sampling after a user's own sample shows a violation",
    "notices.slug_report": "period for a written report of a slug discharge",
    "notices.permit_expiry_warning": "notice of an expiring permit",
    "penalties": "penalties",
    "penalties.sewer_use": "sewer use penalty",
    "penalties.stormwater": "stormwater penalty",
    "sewer_enforcement": "who issues sewer notices and how",
    "sewer_enforcement.section_text.enforcement": "enforcement section's words",
    "sewer_enforcement.section_text.penalties": "penalty section's words",
    "sewer_enforcement.section_text.grease": "grease interceptor section's words",
    "grease_interceptors": "rules for grease interceptors",
    "required_testing": "rule of required testing",
    "surcharge": "surcharge",
    "surcharge.method": "surcharge by the pound",
    "surcharge.thresholds": "surcharge thresholds",
    "surcharge.per_volume": "surcharge per volume of discharge",
    "surcharge.per_flow": "surcharge by flow",
    "infiltration": "allowed infiltration",
    "volume_charges": "charge by the volume of water used",
    "sewer_units": "sewer unit schedule",
    "swppp": "construction stormwater inspections",
    "illicit_discharges": "illicit discharge rules",
}


class Judgment:
    """Whether the rules judge a duty: ``judged`` (bool), and ``reason`` in words when they do not
    ("not judged: the rules of the City of X state no period to correct a violation")."""

    __slots__ = ("judged", "reason")

    def __init__(self, judged: bool, reason: str = ""):
        self.judged, self.reason = judged, reason

    def __bool__(self) -> bool:
        return self.judged

    def __repr__(self) -> str:
        return f"Judgment({self.judged}, {self.reason!r})"


# ============================================================ the file


class Rules(Model):
    """The rules of one jurisdiction (``rules/<jurisdiction>.yaml``)."""

    jurisdiction: Jurisdiction
    """The file's jurisdiction (its file name without .yaml)."""
    name: Text
    """The jurisdiction's name as printed."""
    kind: Text | None = None
    """The kind of municipality, as a sentence of a page or letter names it: "Town", "City", "Village"
    ("the Town's record", "the City abated it"). Left out: "municipality"."""
    version: Text
    """The rules' version (bump it with every change; quote it: "2026.12.1")."""
    timezone: TimeZone
    """The local time zone of dates and days."""
    vocabulary: Codes | None = None
    """The codes the input files use for the town's sewer districts, property classes and bill
    components, with their other spellings."""
    discharge_limits: Entries[DischargeLimit] | None = None
    """Per-sample discharge limits."""
    table_7_1: Table71 | None = None
    limits_set_elsewhere: list[LimitsSetElsewhere] | None = None
    """Substances the law names but whose limits it leaves to an official, a board or another document."""
    nondetect_averaging: Versions[NondetectAveraging] | None = None
    readings: Readings | None = None
    readings_sewer_compliance: SewerComplianceReadings | None = None
    readings_enforcement: EnforcementReadings | None = None
    slug: Versions[Slug] | None = None
    infiltration: Versions[Infiltration] | None = None
    charge_model: ChargeModel | None = None
    """How the town charges for sewer use: units (the unit schedule, sewer_units), volume (the water used,
    volume_charges) or both."""
    sewer_units: Versions[SewerUnits] | None = None
    billing: Versions[Billing] | None = None
    volume_charges: VolumeCharges | None = None
    """Sewer charges by the volume of water used."""
    swppp: Swppp | None = None
    penalties: Penalties | None = None
    notices: Notices | None = None
    snc: Versions[Snc] | None = None
    surcharge: Surcharge | None = None
    sewer_compliance: Versions[SewerCompliance] | None = None
    sewer_enforcement: Versions[SewerEnforcement] | None = None
    grease_interceptors: Versions[GreaseInterceptors] | None = None
    # Contract section 5: their models are in outfall/rules/calendar.py, illicit.py, practices.py and
    # fees.py; the pure functions that apply them are the law's (law/, modules of the same names).
    business_days: BusinessDayRules | None = None
    """Business days: the weekdays counted and the public holidays, as the state law the town follows lists
    them."""
    deadline_extension: Versions[DeadlineExtension] | None = None
    """Deadlines that end on a weekend or holiday: the periods within which a recipient must act that end
    instead on the next business day, under the state law the rules name (left out: none moves)."""
    illicit_discharges: Versions[IllicitTerms] | None = None
    """Illicit discharges to the storm drain system: deadlines, charges and penalty."""
    post_construction: Versions[PracticeTerms] | None = None
    """Post-construction stormwater management practices: as-built plans, maintenance agreement, guarantee."""
    inspection_fees: FeeSchedule | None = None
    """Water and sewer inspection fees."""
    fee_schedules: Entries[FeeScheduleEntry] | None = None
    """Fee schedules item by item (sampling and testing fees, tap fees ...), each naming what it prices."""
    # Contract section 6.3.
    required_testing: Versions[RequiredTesting] | None = None
    """Required testing: the rule of each period of a monitoring requirement."""
    worklist: Worklist | None = None
    """What each person must do next: the week of actions due (a setting, not law: undated)."""
    law_names: LawNames | None = None
    """The names of the laws and bodies that letters and pages print."""
    own_names: list[Text] | None = None
    """The names under which the municipality itself (its departments included) owns land, applies for a
    permit, runs premises or is a party to a case, each written as the input files write it (compared
    ignoring case, commas and periods). The municipality does not serve itself: a site, premises, grease
    trap or case whose landowner, applicant, owner or responsible party is one of these names gets no notice
    of violation or order; each of its findings is a line of the responsible person's worklist instead. A
    setting of the town's own records, not law: no citation and no dates. None or empty: no name is the
    town's own."""

    _source: Path = PrivateAttr(default=Path("rules.yaml"))
    _sha256: str = PrivateAttr(default="")
    _not_stated: tuple[str, ...] = PrivateAttr(default=())
    _notes: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="after")
    def _sections_agree(self) -> "Rules":
        check_schedule_codes(self.vocabulary, self.sewer_units)
        check_charge_model(self.charge_model, self.sewer_units is not None, self.volume_charges is not None)
        for section, names in LAW_NAMES_NEEDED:
            if getattr(self, section) is None:
                continue
            lacking = [n for n in names if self.law_names is None or getattr(self.law_names, n) is None]
            if lacking:
                raise _error(
                    "has {section} but no law_names.{lacking}: the name letters and pages print",
                    section=section,
                    lacking=", law_names.".join(lacking),
                )
        return self

    # ------------------------------------------------------------- typed API

    @property
    def source(self) -> Path:
        """The file these rules were read from."""
        return self._source

    @property
    def sha256(self) -> str:
        """The SHA-256 of the file's text (recorded with each billing run)."""
        return self._sha256

    @property
    def not_stated(self) -> tuple[str, ...]:
        """The sections, entries and keys the file leaves ``""``: what the law does not state, in the order
        of the file."""
        return self._not_stated

    @property
    def notes(self) -> tuple[str, ...]:
        """What the check says of a usable file beside its problems: an old word read as its new one."""
        return self._notes

    def today(self) -> dt.date:
        """Today in the rules' time zone."""
        return dt.datetime.now(ZoneInfo(self.timezone)).date()

    def law(self, name: str, day: dt.date | None = None) -> LawName:
        """The name ``name`` of ``law_names`` as of ``day`` (today): the version in effect, else the latest
        that began before it, else the first (a name printed on a page, never a rule judged by it).
        RulesError naming the file when the rules have no such name."""
        versions = getattr(self.law_names, name, None) if self.law_names is not None else None
        if not versions:
            raise RulesError(f"{self.source.name}: no law_names.{name} for {self.name}")
        day = day or self.today()
        found = versions.get(day)
        if found is not None:
            return found
        started = [v for v in versions if v.starts <= day]
        return (started or sorted(versions, key=lambda v: v.starts))[-1]

    @property
    def municipality(self) -> str:
        """The municipality's kind as a sentence names it ("Town", "City", "Village": ``kind``), else
        "municipality"."""
        return self.kind or "municipality"

    def sewer_notices_stated(self) -> bool:
        """Whether these rules state how a sewer notice of violation is issued (who issues it, how it is
        served: ``sewer_enforcement``) and the penalty it states (``penalties.sewer_use``): without them the
        violations are judged and no notice is drafted."""
        return (
            self.sewer_enforcement is not None
            and self.penalties is not None
            and bool(self.penalties.sewer_use)
        )

    def official(self, name: str, day: dt.date | None = None, fallback: str = "") -> str:
        """The title of the official ``name`` of ``law_names`` (``sewer_administrator``,
        ``stormwater_officer``) as of ``day``, else ``fallback`` where the rules name none."""
        try:
            return self.law(name, day).name
        except RulesError:
            return fallback

    def duty_law(self, duty: "Duty", day: dt.date | None = None) -> tuple[str, bool]:
        """(the law a duty rests on, as of ``day``, as a page cites it; whether it is the town's to notice:
        its own code's, or another law's that the rules adopt with ``adopted_by``). A practice the rules mark
        as such (``practice``) is no law: its own name, never noticed (contract 8.5)."""
        if duty.practice is not None:
            return duty.practice, False
        name = self.law(duty.law or "sewer_use", day)
        return name.short, name.enacted_by == "town" or bool(duty.adopted_by)

    def has_law(self, name: str) -> bool:
        """Whether ``law_names`` names ``name`` (a law or body some towns' rules do not name)."""
        return self.law_names is not None and bool(getattr(self.law_names, name, None))

    def laws(self, day: dt.date | None = None) -> dict[str, LawName]:
        """Every name of ``law_names`` as of ``day`` (what a letter's template reads as ``law``)."""
        if self.law_names is None:
            return {}
        return {n: self.law(n, day) for n in type(self.law_names).model_fields if getattr(self.law_names, n)}

    def stormwater_notices_missing(self) -> list[str]:
        """The parts a stormwater notice of violation needs that these rules do not state (``swppp.appeal``,
        ``penalties.stormwater`` ...): none, and notices are drafted; some, and the findings are listed
        without a notice (``stormwater_notices_stated``)."""
        if self.swppp is None:
            return ["swppp"]
        missing = []
        for path in STORMWATER_NOTICE_PARTS:
            section, part = path.split(".")
            if getattr(getattr(self, section, None), part, None) is None:
                missing.append(path)
        return missing

    def stormwater_notices_stated(self) -> bool:
        """Whether these rules state how a stormwater notice of violation is issued (its issuer, appeal,
        penalty and the law's words): without them the findings are judged and no notice is drafted."""
        return not self.stormwater_notices_missing()

    def stormwater_notices_reason(self) -> str:
        """Why no stormwater notice is drafted under these rules, in words ("" when they are)."""
        missing = self.stormwater_notices_missing()
        if not missing:
            return ""
        said = [STORMWATER_NOTICE_PARTS.get(m, "the construction stormwater law") for m in missing]
        return (
            f"not drafted: the rules of {self.name} do not state how a stormwater notice of violation is "
            f"issued ({', '.join(said)}: not stated); the findings are listed without a notice"
        )

    def part(self, path: str) -> Any:
        """The part of the rules at ``path`` ("notices.slug_report", "sewer_enforcement.section_text.grease");
        None when the rules leave it (or what holds it) out."""
        value: Any = self
        for name in path.split("."):
            if value is None:
                return None
            if isinstance(value, Versions) and value:  # a part of a dated section: its latest version's
                value = sorted(value, key=lambda v: v.starts)[-1]
            value = getattr(value, name, None)
        return value

    def versions_of(self, path: str) -> Versions:
        """The dated versions at ``path`` ("notices.sewer_correction"): none when the rules leave it out."""
        value = self.part(path)
        return value if isinstance(value, Versions) else Versions(())

    def judged(self, path: str, day: dt.date | None = None) -> Judgment:
        """Whether these rules judge the duty at ``path`` (on ``day``, for a dated part): a part the rules
        leave out is not judged, and the reason says so in words. Every statement of "none", "no" or 0
        about a duty asks this first (contract 8.6)."""
        value = self.part(path)
        what = DUTY_WORDS.get(path, path.rsplit(".", 1)[-1].replace("_", " "))
        if value is None or (isinstance(value, (list, tuple)) and not value):
            return Judgment(False, f"not judged: the rules of {self.name} state no {what}")
        if day is not None and isinstance(value, Versions) and value.get(day) is None:
            return Judgment(False, f"not judged: the rules of {self.name} state no {what} in effect on {day}")
        return Judgment(True)

    def require(self, name: str) -> Any:
        """Section ``name``; RulesError naming the file when this jurisdiction has none."""
        value = getattr(self, name, None) if name in type(self).model_fields else None
        if value is None:
            raise RulesError(f"{self.source.name}: no '{name}' section for {self.name}")
        return value

    def limits_at(self, day: dt.date) -> tuple[DischargeLimit, ...]:
        """The law's own limits and those adopted under it (table_7_1, limits_set_elsewhere) in effect on
        ``day``."""
        own = self.discharge_limits.at(day) if self.discharge_limits else ()
        adopted = [g.limits.at(day) for g in self.adopted_limit_groups()]
        return (*own, *(lim for group in adopted for lim in group))

    def adopted_limit_groups(self) -> list[Any]:
        """Every group of limits the law leaves to a body: table_7_1, then each of limits_set_elsewhere."""
        return [g for g in (self.table_7_1, *(self.limits_set_elsewhere or ())) if g is not None]

    def reading_at(self, group: str, name: str, day: dt.date) -> Any:
        """The value of reading ``name`` of ``group`` (readings, readings_sewer_compliance,
        readings_enforcement) in effect on ``day``."""
        readings = self.require(group)
        versions = getattr(readings, name, None) if name in type(readings).model_fields else None
        if versions is None:
            raise RulesError(f"{self.source.name}: no reading named '{name}' in {group}")
        return versions.at(day).value
