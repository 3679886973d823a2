"""The sewer page's data: what its reader hands over (``SewerData``), one frame per table."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import pandas as pd

from outfall.rules.judged import Judged


@dataclass
class SewerData:
    """Frames read from the warehouse. ``None`` = the table does not exist yet.

    users: industrial_users (user_id, name, district, address, normal_flow_gpd: the permit's average 24-hour
    flow in normal operation), with the current permit (permit_no, permit_effective, permit_expires) and
    other_permits (every other permit in force, in words: a renewal is a permit of its own, contract 8.2)
    results: one row per lab result: user_id, sample_id, parameter, collected_at, value, nondetect,
        qualifier, unit, sample_type, outcome (compliant | violation | inconclusive | None),
        limit_value, limit_type, exceedance_ratio, rule (of the violation when there is one)
    limits: the limit applied to each result: user_id, parameter, limit_type, limit_value, unit, rule,
        limit_source, collected_at
    violations: discharge_violations; statistic_violations; inconclusive: inconclusive_results
    summary: compliance_summary (per user and month)
    flow: downsampled flow: user_id, constituent, ts (local), value, unit, kind ('mean' | 'slug'),
        bucket_hours
    slugs: slug_events; baselines: user_id, constituent, local_day, baseline, threshold, baseline_source
    gaps: slug_baseline_gaps; snc: snc_determinations
    slug_rules: the slug definitions as applied (table slug_rules: effective_from, effective_to, ratio,
        min_duration_min, rule), for the labels; permit_warn_days / permit_warn_rule: the Town's policy for
        flagging expiring permits in effect on the as-of day (None: none is). Nothing here has a default
        that restates the law: the labels say what the rules and the warehouse say.
    """

    as_of: dt.date
    generated_at: dt.datetime | None = None
    town: str = ""  # whom the page is about (printed atop each paper page)
    laws: dict[str, str] = field(default_factory=dict)  # the laws the page cites (html.law_cited)
    users: pd.DataFrame | None = None
    results: pd.DataFrame | None = None
    limits: pd.DataFrame | None = None
    violations: pd.DataFrame | None = None
    statistic_violations: pd.DataFrame | None = None
    inconclusive: pd.DataFrame | None = None
    summary: pd.DataFrame | None = None
    flow: pd.DataFrame | None = None
    slugs: pd.DataFrame | None = None
    baselines: pd.DataFrame | None = None
    gaps: pd.DataFrame | None = None
    snc: pd.DataFrame | None = None
    slug_rules: pd.DataFrame | None = None
    # days of discharge without a permit (discharges_without_permit) and users whose permit
    # term is not on file (permit_dates_missing)
    without_permit: pd.DataFrame | None = None
    permit_dates_missing: pd.DataFrame | None = None
    permit_warn_days: int | None = None
    permit_warn_rule: str = ""
    # the flow points the page draws in all, shared by the users charted (None: not stated)
    flow_points: int | None = None
    # the monthly notices (table notices) and each violation's follow-up from its notice (sewer_notices)
    notices: pd.DataFrame | None = None
    follow_up: pd.DataFrame | None = None
    # each period of required testing (table required_testing, contract 6.3)
    required_testing: pd.DataFrame | None = None
    # what each person must do next (table worklist): the page opens with the superintendent's
    worklist: pd.DataFrame | None = None
    # what the notices list, by kind of item (kind, item, items)
    notice_items: pd.DataFrame | None = None
    # the notices' items other than a sample's or statistic's result (late reports, testing missed, months
    # without a permit): user_id, period, item, ref, item_on, description, rule, notice_status, issued_on
    other_items: pd.DataFrame | None = None
    present: dict[str, bool] = field(default_factory=dict)  # table -> exists
    # what the rules judge: every statement of "none" goes through it (contract 8.6; Judged(): everything)
    judged: Judged = field(default_factory=Judged)
    municipality: str = "municipality"  # the municipality's kind as a sentence names it ("Town", "City")
    notice_mailing: str = ""  # how the law has a sewer notice served ("certified mail"; "": not stated)


def _frame(frame: pd.DataFrame | None) -> pd.DataFrame:
    return frame if frame is not None else pd.DataFrame()
