"""The names of the laws and bodies that letters and pages print (``law_names``), and the names each
section needs.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from typing import Literal

from outfall.rules.dated import Dated, Model, Versions
from outfall.rules.types import (
    Text,
)

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
