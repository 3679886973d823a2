"""The stormwater page's data: what its reader hands over (``StormwaterData``) and the statuses' order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from dashboards.html import (
    PageData,
)

KIND_SYMBOL = {"routine": "circle", "storm": "triangle-up", "milestone": "square", "officer": "star"}
STATUS_ORDER = {
    "overdue": 0,
    "late": 1,
    "in compliance": 2,
    "not started": 3,
    "stabilized": 4,
    "not required": 5,
}
STATUS_TONE = {
    "overdue": "bad",
    "late": "warn",
    "in compliance": "good",
    "stabilized": "info",
    "not required": "",
    "not started": "",
}


@dataclass
class StormwaterData(PageData):
    """Frames read from the warehouse. ``None`` = the table does not exist yet.

    sites: the sites input; classification: site_classification; findings: swppp_inspection_findings;
    other: swppp_other_findings; notices: swppp_notices; upcoming: swppp_upcoming;
    inspections: site_id, inspected_on, inspector, kind, sediment_capacity_lost_pct, notes;
    rain: gauge_key (lower-case, trimmed gauge id), date, precip_in (daily total).
    rules: jurisdiction -> its typed rules (outfall.rules.Rules): a storm day is one that
        outfall.law.swppp.is_storm says is (the page applies no threshold of its own), and the
        threshold line and its citation are those in effect on the as-of day.
    letters: file name -> link (href relative to the page) of the notices' letters that exist.
    """

    sites: pd.DataFrame | None = None
    classification: pd.DataFrame | None = None
    findings: pd.DataFrame | None = None
    other: pd.DataFrame | None = None
    notices: pd.DataFrame | None = None
    upcoming: pd.DataFrame | None = None
    inspections: pd.DataFrame | None = None
    rain: pd.DataFrame | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    letters: dict[str, str] = field(default_factory=dict)
    week_days: int = 7
    # the monthly notices (table notices) and each missed inspection's follow-up from its notice
    monthly_notices: pd.DataFrame | None = None
    follow_up: pd.DataFrame | None = None
    # contract 5.3 and 5.4: illicit discharge cases (illicit_discharges), their deadlines and charges,
    # the cases' letters (case_id, kind, letter_file, draft, ready_to_mail; links in ``letters``),
    # and the post-construction practice findings (smp_findings).
    illicit_cases: pd.DataFrame | None = None
    illicit_deadlines: pd.DataFrame | None = None
    illicit_charges: pd.DataFrame | None = None
    illicit_letters: pd.DataFrame | None = None
    smp_findings: pd.DataFrame | None = None
    illicit_set_aside: set[str] = field(default_factory=set)  # cases set aside in the quarantine, not judged
    # what each person must do next (table worklist): the page opens with the stormwater officer's
    worklist: pd.DataFrame | None = None
    # what the notices list, by kind of item (kind, item, items)
    notice_items: pd.DataFrame | None = None
    # the laws the town's rules name for its business days' holidays and for a period that ends on a weekend
    # or holiday ("": they name none, and no period moves)
    holiday_law: str = ""
    deadline_law: str = ""
