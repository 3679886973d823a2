"""Contract section 5: ``illicit_discharges`` (the cases of Woodbury ch. 185, in each state it knows) and
``illicit_payments`` (toward the Town's abatement)."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from outfall.demo.billing import first_parcel
from outfall.demo.common import day_of

#: The illicit discharge abated by the Town and paid in part (Woodbury ch. 185).
TOWN_ABATED_CASE = "ID-2026-01"
#: A case from the paper files, discovered before ch. 185 took effect: set aside with the reason.
PRE_CHAPTER_CASE = "ID-2006-01"
#: An appeal received and not decided on the demo's as-of day (the abatement suspended); its 15th day was a
#: Saturday, so the appeal received on the Monday is in time (General Construction Law § 25-a).
PENDING_APPEAL_CASE = "ID-2026-05"
#: An appeal that vacated the notice of violation: the case ends (no abatement).
VACATED_CASE = "ID-2026-06"
#: An appeal received after its 15 days: no appeal (contract 8.5): no hearing, nothing suspended.
LATE_APPEAL_CASE = "ID-2026-07"
ILLICIT_COLUMNS = [
    "case_id",
    "premises",
    "discovered_on",
    "hazardous",
    "notified_on",
    "written_confirmation_on",
    "nov_on",
    "abatement_due",
    "appeal_received_on",
    "appeal_decided_on",
    "abated_on",
    "abated_by",
    "abatement_cost_usd",
    "cost_notice_on",
    "protest_received_on",
    "responsible_party",
    "mailing_address",
    "description",
    "nov_requires",
    "hearing_on",
    "appeal_outcome",
]


def illicit_discharges(parcels: pd.DataFrame, year: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Eight cases in the states ch. 185 knows, and the payments toward the Town's abatement."""
    d = day_of(year)
    cases = [
        *_noticed_cases(first_parcel(parcels, "commercial")["parcel_id"], d),
        *_cases_without_notice(year, d),
        *_appealed_cases(d),
    ]
    return (
        pd.DataFrame(cases, columns=ILLICIT_COLUMNS),
        pd.DataFrame(_payments(year, d), columns=["case_id", "paid_on", "amount_usd", "receipt_no"]),
    )


def _noticed_cases(yard: str, d: Callable[[int, int], str]) -> list[dict]:
    """Three cases with a notice of violation: the Town's abatement of ``yard`` (a parcel id), a
    notification a business day late, a hazardous discharge appealed and abated by its owner."""
    return [
        # Friday before Memorial Day: notice due Tuesday; abated by the Town after the notice's deadline,
        # its cost noticed, paid in part
        {
            "case_id": TOWN_ABATED_CASE,
            "premises": yard,
            "discovered_on": d(5, 22),
            "hazardous": "false",
            "notified_on": d(5, 26),
            "written_confirmation_on": d(5, 28),
            "nov_on": d(6, 3),
            "abatement_due": d(6, 30),
            "abated_on": d(7, 21),
            "abated_by": "town",
            "abatement_cost_usd": "6240.00",
            "cost_notice_on": d(8, 14),
            "description": "Wash water and degreaser from a service bay floor drain connected to the storm "
            "sewer",
            "nov_requires": "2, 3, 4",
        },
        # notified a business day late (Saturday July 4 is not moved to Friday), never confirmed in writing
        {
            "case_id": "ID-2026-02",
            "premises": "27 Jericho Tpke",
            "discovered_on": d(7, 2),
            "hazardous": "false",
            "notified_on": d(7, 6),
            "nov_on": d(7, 9),
            "responsible_party": "Golden Wok Restaurant",
            "mailing_address": "27 Jericho Tpke\nWoodbury, NY 11797",
            "description": "Kitchen grease washed into the curb inlet in front of the restaurant",
            "nov_requires": "2, 3",
        },
        # hazardous: straight to emergency services; appealed, the
        # hearing held late, abated by the owner in time
        {
            "case_id": "ID-2026-03",
            "premises": "Orchard Ln",
            "discovered_on": d(9, 14),
            "hazardous": "true",
            "nov_on": d(9, 16),
            "abatement_due": d(10, 16),
            "appeal_received_on": d(9, 28),
            "appeal_decided_on": d(10, 20),
            "appeal_outcome": "upheld",
            "abated_on": d(11, 2),
            "abated_by": "owner",
            "responsible_party": "Orchard Ridge Homes Inc.",
            "mailing_address": "Orchard Ln\nWoodbury, NY 11797",
            "description": "Hydraulic oil from a ruptured excavator line reaching a catch basin",
            "nov_requires": "1, 2, 4, 6",
        },
    ]


def _cases_without_notice(year: int, d: Callable[[int, int], str]) -> list[dict]:
    """A case whose notice is not yet due, and one from before ch. 185 took effect."""
    return [
        # the day before Thanksgiving: notice due Friday; none yet; no one known to write to
        {
            "case_id": "ID-2026-04",
            "premises": "Storm drain at 40 Bayview Ave",
            "discovered_on": d(11, 25),
            "hazardous": "false",
            "description": "Milky discharge from an unknown connection",
        },
        {
            "case_id": PRE_CHAPTER_CASE,
            "premises": "Mill Pond Rd culvert",
            "discovered_on": f"{year - 20}-08-10",
            "hazardous": "false",
            "description": "Entered from the paper files",
        },
    ]


def _appealed_cases(d: Callable[[int, int], str]) -> list[dict]:
    """Contract 6.5: an appeal pending (the abatement suspended), one that vacated the notice, one late."""
    return [
        # notice of violation Friday October 30: its 15th day is Saturday November 14, so the
        # appeal received Monday November 16 is in time (GCL § 25-a); not decided yet: the
        # abatement (due November 20) is suspended
        {
            "case_id": PENDING_APPEAL_CASE,
            "premises": "112 Harbor Rd",
            "discovered_on": d(10, 26),
            "hazardous": "false",
            "notified_on": d(10, 27),
            "written_confirmation_on": d(10, 29),
            "nov_on": d(10, 30),
            "abatement_due": d(11, 20),
            "appeal_received_on": d(11, 16),
            "responsible_party": "Harbor Boat Works LLC",
            "mailing_address": "112 Harbor Rd\nWoodbury, NY 11797",
            "description": "Hull wash water with antifouling paint hosed into a storm drain",
            "nov_requires": "2, 3, 4",
        },
        # heard and decided in time; the decision vacated the
        # notice: no abatement, no penalty after the notice
        {
            "case_id": VACATED_CASE,
            "premises": "9 Woodbury Rd",
            "discovered_on": d(8, 10),
            "hazardous": "false",
            "notified_on": d(8, 10),
            "written_confirmation_on": d(8, 12),
            "nov_on": d(8, 13),
            "abatement_due": d(9, 14),
            "appeal_received_on": d(8, 21),
            "hearing_on": d(9, 1),
            "appeal_decided_on": d(9, 3),
            "appeal_outcome": "vacated",
            "responsible_party": "Woodbury Auto Spa",
            "mailing_address": "9 Woodbury Rd\nWoodbury, NY 11797",
            # what was known when the notice was written, August 13 (the appeal's outcome is its own column)
            "description": "Rinse water running to a catch basin",
            "nov_requires": "2, 3",
        },
        # notice of violation Thursday October 1: its 15th day is Friday October 16, so the appeal received
        # Monday October 19 is late: no appeal (contract 8.5), no hearing; the abatement stays due November 6
        {
            "case_id": LATE_APPEAL_CASE,
            "premises": "55 Smith Clove Rd",
            "discovered_on": d(9, 28),
            "hazardous": "false",
            "notified_on": d(9, 28),
            "written_confirmation_on": d(9, 30),
            "nov_on": d(10, 1),
            "abatement_due": d(11, 6),
            "appeal_received_on": d(10, 19),
            "responsible_party": "Smith Clove Car Wash Inc.",
            "mailing_address": "55 Smith Clove Rd\nCentral Valley, NY 10917",
            "description": "Car wash bay drain discharging soapy wash water to the road ditch",
            "nov_requires": "2, 3, 4",
        },
    ]


def _payments(year: int, d: Callable[[int, int], str]) -> list[dict]:
    """Two payments toward the Town's abatement of :data:`TOWN_ABATED_CASE`."""
    return [
        {
            "case_id": TOWN_ABATED_CASE,
            "paid_on": d(9, 15),
            "amount_usd": "520.00",
            "receipt_no": f"R-{year}-0917",
        },
        {
            "case_id": TOWN_ABATED_CASE,
            "paid_on": d(10, 15),
            "amount_usd": "520.00",
            "receipt_no": f"R-{year}-1022",
        },
    ]
