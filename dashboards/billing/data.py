"""The billing page's data: what its reader hands over (``BillingData``) and the words of its codes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from dashboards.html import (
    PageData,
)
from outfall.billing_words import class_word, district_word

COMPONENTS = ("bond", "om", "street_lateral", "house_lateral")
COMPONENT_LABEL = {
    "bond": "bond",
    "om": "operation and maintenance",
    "street_lateral": "street lateral",
    "house_lateral": "house lateral",
}


def class_label(value: Any) -> str:
    return class_word(value)


def district_label(value: Any, names: dict[str, str] | None = None) -> str:
    return district_word(value, names or {})


@dataclass
class BillingData(PageData):
    """Frames read from the warehouse (already summed). ``None`` = the table does not exist yet.

    totals: year, district, property_class, parcels, units_<c>, amount_<c>, total_usd (summed sewer_bills)
    largest: the year's largest bills (+ owner, address from parcels)
    changes: the year's biggest changes from the previous billed year (bill_changes or computed)
    change_counts: change, parcels, total_change (the year's bill_changes by kind)
    rates: year, district, component, rate_per_unit, rate_source (billing_run_totals of each year's last run)
    runs: billing_runs of the years shown
    """

    year: int | None = None
    previous_year: int | None = None
    totals: pd.DataFrame | None = None
    largest: pd.DataFrame | None = None
    changes: pd.DataFrame | None = None
    change_counts: pd.DataFrame | None = None
    rates: pd.DataFrame | None = None
    runs: pd.DataFrame | None = None
    worklist: pd.DataFrame | None = None  # the clerk's actions open (table worklist)
    rule: str = ""  # the unit schedule's citation (full)
    rule_short: str = ""  # its short form (the schedule's short_citation)
    bill_rule: str = ""  # how an amount is computed (the billing rule's citation, full)
    district_names: dict[str, str] = field(default_factory=dict)  # the rules' names of the districts
    billed_years: list[int] = field(default_factory=list)  # the years that have a register
    # contract 5.5: water and sewer inspection fees (the inspection fee law) per year applied
    # for (select_inspection_fee_totals) and the permits the schedule does not
    # cover (permit_id, parcel_id, applied_on, rule)
    fees: pd.DataFrame | None = None
    fees_unpriced: pd.DataFrame | None = None
    # the year's bills whose owner's mailing address is not full (register_export.bills_lacking_address):
    # parcel_id, owner, street, city, state, zip, lacks (in words)
    addresses: pd.DataFrame | None = None
    # what the town's rules charge: a unit schedule (sewer_bills), inspection fees; sewer charges by the
    # volume of water used (select_dashboard_volume_charges) and the fees of the town's samples
    # (select_dashboard_sampling_fees), each None until its table exists
    rates_by: str = ""  # who adopts the rates per unit (the rules' billing rule)
    unit_schedule: bool = True
    inspection_fee_law: bool = True
    volume: pd.DataFrame | None = None
    sampling_fees: pd.DataFrame | None = None
    # the surcharges (select_dashboard_surcharges) and the bills of industrial users linked to premises,
    # charges and surcharges each shown (select_dashboard_user_bills)
    surcharges: pd.DataFrame | None = None
    user_bills: pd.DataFrame | None = None
