"""Water and sewer inspection fees (the inspection fee law), as a pure function.

The schedule is data (``inspection_fees`` in the town's rules file, typed by
``outfall.rules.fees.FeeSchedule``): each entry names a use (``single_family``
or ``commercial``), whether it applies within a shopping mall or business park
(true, false, or blank for either), the water and sewer fees, its sentence
citing the law, and its dates.

- A permit pays the fee of each inspection it asks for; an inspection not asked
  for is 0.00, and a permit asking for neither pays 0.00 in all.
- The entry used is the one in effect on the day the permit was applied for.
- No entry for the permit's use and place (the model town's schedule B is for
  commercial uses *not* within a shopping mall or business park, and nothing covers
  those within one): both fees and the total are None, and the rule says so. This
  holds for every such permit, whatever it asks for.
- A blank ``in_mall_or_business_park`` is read as not within one; a blank
  ``water`` or ``sewer`` as not asked for. A ``use`` other than the two words is
  refused by ``ConnectionPermit`` (the caller quarantines the row).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pydantic import BaseModel, ConfigDict

from outfall.rules.dated import find_in_effect
from outfall.rules.fees import FeeSchedule, Use

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def fee_schedule_from_rules(section: Mapping[str, Any] | FeeSchedule) -> FeeSchedule:
    return section if isinstance(section, FeeSchedule) else FeeSchedule.model_validate(section)


class ConnectionPermit(BaseModel):
    """One row of ``connection_permits``. Extra columns are ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    permit_id: str
    parcel_id: str
    use: Use
    in_mall_or_business_park: bool | None = None
    water: bool | None = None
    sewer: bool | None = None
    applied_on: dt.date


@dataclass(frozen=True)
class Fee:
    permit_id: str
    parcel_id: str
    water_fee_usd: Decimal | None
    sewer_fee_usd: Decimal | None
    total_usd: Decimal | None
    rule: str


def inspection_fees(permit: ConnectionPermit, schedule: FeeSchedule) -> Fee:
    """The inspection fees of one connection permit."""
    in_mall = bool(permit.in_mall_or_business_park)
    covering = [e for e in schedule.entries if e.covers(permit.use, in_mall)]
    if not covering:
        return Fee(permit.permit_id, permit.parcel_id, None, None, None, schedule.not_in_schedule)
    entry = find_in_effect(
        covering, permit.applied_on, f"the inspection fees of a {permit.use} permit ({schedule.citation})"
    )
    if entry is None:
        return Fee(permit.permit_id, permit.parcel_id, None, None, None, schedule.not_in_effect)
    water = entry.water_usd.quantize(CENT) if permit.water else ZERO
    sewer = entry.sewer_usd.quantize(CENT) if permit.sewer else ZERO
    rule = entry.rule if (permit.water or permit.sewer) else schedule.no_inspection
    return Fee(permit.permit_id, permit.parcel_id, water, sewer, water + sewer, rule)
