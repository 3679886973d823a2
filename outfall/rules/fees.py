"""Water and sewer inspection fees (the inspection fee law): the ``inspection_fees`` section of a rules file.

Each entry names a use (``single_family`` or ``commercial``), whether it applies within a shopping mall or
business park (true, false, or null for either), the water and sewer fees, its sentence citing the law and
its dates. The law's pure function that prices a permit by it is ``inspection_fees`` (``law/fees.py``).
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from typing import Literal

from pydantic import model_validator

from outfall.rules.dated import Dated, Model
from outfall.rules.types import Citation, FlagOrNull, Money, Text

Use = Literal["single_family", "commercial"]
"""The uses the inspection fee law's schedules price (a connection permit's ``use``)."""


class FeeEntry(Dated):
    """The inspection fees of one use (and place) of the inspection fee law's schedule, while in effect."""

    citation: Citation | None = None
    """Left out: the entry's `rule`, which cites its schedule (every dated entry of the rules is cited)."""
    use: Use
    """The permit's use this entry prices: single_family or commercial."""
    in_mall_or_business_park: FlagOrNull = None
    """true: only within a shopping mall or business park; false: only outside one; null or left out:
    either."""
    water_usd: Money
    """The fee of the water service line inspection."""
    sewer_usd: Money
    """The fee of the sewer line (house lateral) inspection."""
    rule: Text
    """The sentence shown with each permit the entry prices: the schedule, its citation and its fees."""

    @model_validator(mode="after")
    def _cited_by_its_rule(self) -> "FeeEntry":
        if self.citation is None:
            object.__setattr__(self, "citation", self.rule)
        return self

    def covers(self, use: str, in_mall: bool) -> bool:
        return self.use == use and self.in_mall_or_business_park in (None, in_mall)


class FeeSchedule(Model):
    """Water and sewer inspection fees of connection permits: the fee of each inspection a permit asks for,
    by the entry in effect on the day it was applied for."""

    citation: Citation
    not_in_schedule: Text
    """Shown when no entry covers the permit's use and place; no fee is computed."""
    not_in_effect: Text
    """Shown when an entry covers the permit's use and place but none was in effect on the day it was applied
    for; no fee is computed."""
    no_inspection: Text
    """Shown when the permit asks for neither inspection; both fees are 0.00."""
    entries: list[FeeEntry]
    """The fees of each use and place, with their dates; two entries that cover one permit may not both be in
    effect on a day."""
