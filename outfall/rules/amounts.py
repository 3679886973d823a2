"""An amount the law states, or states elsewhere: a rate, a fee, a minimum, a surcharge rate.

Many codes give an amount in another document: "at the rates set forth in Appendix B, Table F", "as
established by resolution of the Council", "the current User Charge Report". A rules file writes such an
amount as a mapping instead of a number::

    usd_per_lb: {set_by: "Appendix B, Table F, of the sewer chapter"}

and Outfall reports it as set there: the pounds, volumes and counts it would multiply are computed and
shown, the amount is not (never 0, never a guess), and the bill or table says where the amount is set.
``amount(value)`` is the number (None when set elsewhere); ``set_by(value)`` is where it is set (None
when the rules state the number).
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from decimal import Decimal
from typing import Annotated, Any

from pydantic import Discriminator, Tag

from outfall.rules.dated import Model
from outfall.rules.types import StatedMoney, StatedRate, Text


class SetElsewhere(Model):
    """An amount the law leaves to another document or body: where it is set, in the law's words."""

    set_by: Text
    """Where the amount is set, as the law says (e.g. "Appendix A", "resolution of the Village Council",
    "the current User Charge Report"): shown wherever the amount would be."""
    citation: Text | None = None
    """The section that sends the amount there, where it is not the entry's own citation."""

    def words(self) -> str:
        """'set by Appendix A' (with the section that says so, when given)."""
        cited = f" ({self.citation})" if self.citation else ""
        return f"set by {self.set_by}{cited}"


def _which(value: Any) -> str:
    return "set_elsewhere" if isinstance(value, (dict, SetElsewhere)) else "stated"


AmountMoney = Annotated[
    Annotated[StatedMoney, Tag("stated")] | Annotated[SetElsewhere, Tag("set_elsewhere")],
    Discriminator(_which),
]
"""Dollars and cents, or ``{set_by: ...}`` where the law sets the amount in another document."""

AmountRate = Annotated[
    Annotated[StatedRate, Tag("stated")] | Annotated[SetElsewhere, Tag("set_elsewhere")],
    Discriminator(_which),
]
"""Dollars per unit (at most 4 places), or ``{set_by: ...}`` where the law sets the rate elsewhere."""


def amount(value: Decimal | SetElsewhere | None) -> Decimal | None:
    """The amount the rules state; None when it is set elsewhere (or not given)."""
    return None if value is None or isinstance(value, SetElsewhere) else value


def set_by(value: Decimal | SetElsewhere | None) -> SetElsewhere | None:
    """Where an amount is set when the rules give it as set elsewhere; None when they state it."""
    return value if isinstance(value, SetElsewhere) else None


def shown(value: Decimal | SetElsewhere | None, dollar: bool = True) -> str:
    """An amount as a table or bill shows it: '$0.49', or 'set by Appendix A'."""
    if isinstance(value, SetElsewhere):
        return value.words()
    if value is None:
        return "not stated"
    return f"${value}" if dollar else str(value)
