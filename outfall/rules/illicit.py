"""Illicit discharges (the illicit discharge law): the ``illicit_discharges`` section of a rules file.

One ``IllicitTerms`` per version: the days, business days, installments, interest and penalty of the law,
and the sentence shown with each obligation. The pure functions that apply them (deadlines, charges,
penalty days) are the law's (``law/illicit.py``); the version applied is the one in effect on the day the
discharge was discovered.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from outfall.rules.dated import Dated, Model
from outfall.rules.types import Count, Money, PositiveCount, Proportion, Text


class IllicitRules(Model):
    """The sentence shown with each obligation of a case (and with its charges), citing its paragraph."""

    notify_town: Text
    """With the notice of a release to the Town."""
    written_confirmation: Text
    """With the written confirmation of a notice given in person or by phone."""
    appeal: Text
    """With the appeal of a notice of violation."""
    appeal_hearing: Text
    """With the hearing on an appeal."""
    abatement: Text
    """With the abatement by the deadline set in the notice of violation."""
    abatement_after_appeal: Text
    """With the abatement after an appeal's decision upholding the notice."""
    abatement_suspended: Text
    """With the abatement while an appeal received in time is pending, when it is not due (the penalty is
    not postponed)."""
    appeal_late: Text
    """With the abatement of a case whose notice of appeal came after the days allowed: such an appeal is
    no appeal: it suspends nothing and no hearing is held on it."""
    cost_notice: Text
    """With the notice of the cost of an abatement made by the Town."""
    protest: Text
    """With the written protest of that cost."""
    charges: Text
    """With the charges: installments, interest and the most the penalty can be."""


class IllicitTerms(Dated):
    """Illicit discharges: the deadlines of a case, what the Town's abatement costs the owner, and the
    penalty."""

    notify_business_days: PositiveCount
    """A release is reported to the Town within this many business days of its discovery; 1 is the next
    business day."""
    confirmation_business_days: PositiveCount
    """A notice given in person or by phone is confirmed in writing within this many business days."""
    appeal_days: Count
    """A notice of appeal is received within this many days of the notice of violation."""
    hearing_days: Count
    """The hearing on an appeal is held within this many days of the notice of appeal's receipt."""
    abatement_after_decision_days: Count
    """After a decision upholding the notice of violation, the violation is corrected within this many
    days."""
    cost_notice_days: Count
    """The owner is notified of the cost of the Town's abatement within this many days after it."""
    protest_days: Count
    """The owner may protest that cost in writing within this many days of its notice."""
    installments: PositiveCount
    """The cost is paid in at most this many equal payments."""
    interest_rate: Proportion
    """Interest a year on the unpaid cost, as a decimal: 0.18 is 18%."""
    interest_day_count: PositiveCount
    """Days in a year of interest: each day's interest is the rate divided by this many."""
    interest_start_days: Count
    """Interest runs from this many days after discovery: 30 is the 30th day following it."""
    penalty_per_day_usd: Money
    """The greatest criminal penalty for each day of violation."""
    imprisonment_max_days: Count
    """The longest imprisonment, days (with or instead of the criminal penalty)."""
    cited_as: Text | None = None
    """How a sentence of a letter or a reason cites the chapter (e.g. "ch. 12"; left out: "the illicit
    discharge law")."""
    appeal_filed_with: Text | None = None
    """Who receives the appeal of a notice of violation, as a letter names it (e.g. "the municipal court");
    left out: the letter says only that the notice may be appealed."""
    rules: IllicitRules
    """The sentence shown with each obligation and with the charges."""
