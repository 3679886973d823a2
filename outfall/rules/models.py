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

Here is the file itself (``Rules``) and what asks whether a duty is judged; each section's models are in
the module named for it: ``limits`` (discharge limits and those left to a body), ``readings``, ``sewer``
(the compliance core, required testing), ``sewer_units`` (the unit schedule, billing), ``charges``
(volume charges), ``surcharges``, ``enforcement`` (notices, SNC, grease interceptors), ``penalties``,
``swppp``, ``illicit``, ``practices``, ``calendar``, ``fees``, ``fee_schedules``, ``codes`` and
``law_names``. Every model a rules file is made of is importable from here too.

The models' docstrings become the descriptions of the JSON Schema
(``rules/schema.json``) and the words of ``docs/rules.md``: they are written
for the person who edits a rules file.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

import datetime as dt
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import PrivateAttr, model_validator

from outfall.rules.calendar import BusinessDayRules, DeadlineExtension
from outfall.rules.charges import ChargeModel, VolumeCharges, check_charge_model
from outfall.rules.codes import Codes, check_schedule_codes
from outfall.rules.dated import Entries, Model, RulesError, Versions, rule_error
from outfall.rules.enforcement import (
    DaysRule,
    Duty,
    GreaseInterceptors,
    Notices,
    PeriodicReport,
    SelfMonitoring,
    SewerCorrection,
    SewerEnforcement,
    SewerEnforcementTexts,
    Snc,
)
from outfall.rules.fee_schedules import FeeScheduleEntry
from outfall.rules.fees import FeeSchedule
from outfall.rules.illicit import IllicitTerms
from outfall.rules.law_names import LAW_NAMES_NEEDED, LawKey, LawName, LawNames
from outfall.rules.limits import DischargeLimit, LimitsSetElsewhere, Table71, TownBoardLimit
from outfall.rules.penalties import Penalties, PenaltyTier, Per, SewerUsePenalty, StormwaterPenalty
from outfall.rules.practices import PracticeTerms
from outfall.rules.readings import (
    EnforcementReadings,
    FlagReading,
    Readings,
    SewerComplianceReadings,
    TimeReading,
    WordReading,
)
from outfall.rules.sewer import (
    Infiltration,
    NondetectAveraging,
    NondetectPolicy,
    RequiredTesting,
    SewerCompliance,
    Slug,
)
from outfall.rules.sewer_units import (
    AcreageOnlyRule,
    AcreageRule,
    Billing,
    FixedRule,
    Moratorium,
    PerCountRule,
    PlusCount,
    SewerDistricts,
    SewerUnits,
    Tier,
    TiersRule,
    UnitRule,
)
from outfall.rules.surcharges import Surcharge
from outfall.rules.swppp import (
    OPTIONAL_SWPPP_PARTS,
    STORMWATER_NOTICE_PARTS,
    Appeal,
    Applicability,
    CitedRule,
    CitedText,
    ConditionA,
    ConditionB,
    ConditionC,
    Conditions,
    ConditionsApplicability,
    Convictions,
    DisturbanceLimit,
    FindingName,
    LandDevelopmentActivity,
    Milestone,
    MilestoneNotice,
    Milestones,
    MinAcresApplicability,
    NoticeOfViolation,
    RemedialMeasures,
    ReportDelivery,
    SedimentCleanout,
    SiteFlag,
    StopWorkOrder,
    StormInspection,
    Swppp,
    SwpppTexts,
    WeeklyInspection,
)
from outfall.rules.types import (
    Count,
    Jurisdiction,
    Text,
    TimeZone,
)

__all__ = [
    "AcreageOnlyRule",
    "AcreageRule",
    "Appeal",
    "Applicability",
    "Billing",
    "CitedRule",
    "CitedText",
    "ConditionA",
    "ConditionB",
    "ConditionC",
    "Conditions",
    "ConditionsApplicability",
    "Convictions",
    "DUTY_WORDS",
    "DaysRule",
    "DischargeLimit",
    "DisturbanceLimit",
    "Duty",
    "EnforcementReadings",
    "FindingName",
    "FixedRule",
    "FlagReading",
    "GreaseInterceptors",
    "Infiltration",
    "Judgment",
    "LAW_NAMES_NEEDED",
    "LandDevelopmentActivity",
    "LawKey",
    "LawName",
    "LawNames",
    "LimitsSetElsewhere",
    "Milestone",
    "MilestoneNotice",
    "Milestones",
    "MinAcresApplicability",
    "Moratorium",
    "NondetectAveraging",
    "NondetectPolicy",
    "NoticeOfViolation",
    "Notices",
    "OPTIONAL_SWPPP_PARTS",
    "Penalties",
    "PenaltyTier",
    "Per",
    "PerCountRule",
    "PeriodicReport",
    "PlusCount",
    "Readings",
    "RemedialMeasures",
    "ReportDelivery",
    "RequiredTesting",
    "Rules",
    "STORMWATER_NOTICE_PARTS",
    "SedimentCleanout",
    "SelfMonitoring",
    "SewerCompliance",
    "SewerComplianceReadings",
    "SewerCorrection",
    "SewerDistricts",
    "SewerEnforcement",
    "SewerEnforcementTexts",
    "SewerUnits",
    "SewerUsePenalty",
    "SiteFlag",
    "Slug",
    "Snc",
    "StopWorkOrder",
    "StormInspection",
    "StormwaterPenalty",
    "Swppp",
    "SwpppTexts",
    "Table71",
    "Tier",
    "TiersRule",
    "TimeReading",
    "TownBoardLimit",
    "UnitRule",
    "WeeklyInspection",
    "WordReading",
    "Worklist",
]


class Worklist(Model):
    """The worklist (contracts 6.4, 7.5): when an action counts as due rather than upcoming. A setting of the
    Town's pages, not a law: it has no citation and no effective dates, so a run judged on any day uses
    it."""

    due_within_days: Count
    """An action due on the day judged or within this many days after it is listed as due this week."""
    note: Text | None = None
    """Who set the number, and that it is not law (for the reader of the rules file)."""


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
                raise rule_error(
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
