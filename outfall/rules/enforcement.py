"""Sewer enforcement: the deadlines of notices and reports (``notices``, each a duty with the law it rests
on), significant noncompliance (``snc``), who issues notices (``sewer_enforcement``) and grease
interceptors (``grease_interceptors``).
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from pydantic import Field, model_validator

from outfall.rules.dated import Dated, Model, Versions, rule_error
from outfall.rules.law_names import LawKey
from outfall.rules.types import (
    Citation,
    Count,
    Flag,
    Parameter,
    Percent,
    PositiveCount,
    PositiveNumber,
    Text,
)


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
            raise rule_error(
                "give max_days (the law's maximum), days, or set_per_notice: true where the law leaves the "
                "period to each notice (a reasonable time)"
            )
        if self.days is not None and self.max_days is not None and self.days > self.max_days:
            raise rule_error(
                "days {days} is more than max_days {max}", days=self.days, max=self.max_days, key_name="days"
            )
        return self

    @property
    def default_days(self) -> int | None:
        """The days a mailed notice gives when its record states none (None: set per notice)."""
        if self.set_per_notice:
            return None
        return self.days if self.days is not None else self.max_days


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
            raise rule_error(
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
