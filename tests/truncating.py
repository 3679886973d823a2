"""The demo town's input folders as they stood at the end of a day, cut from the files themselves: what
the inputs would be had they ended on that day (contract 8.1). Written apart from Outfall's own reading
of a day (outfall/ingest/as_of.py), so that a run on the full inputs as of the day and a run on these
can be compared.

Each folder names the column of a row's own day (a row after the day is dropped) and the columns of later
facts with what goes with them (blanked when after the day).
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pandas as pd

TIMEZONE = "America/New_York"  # the demo town's
OWN_DAY = {
    "industrial_users": None,
    "permit_limits": "effective_from",
    "lab_results": "collected_at",
    "flow": "timestamp",
    "infiltration_tests": "test_date",
    "inspections": "inspected_at",
    "rainfall": "date",
    "accidental_discharges": "occurred_at",
    "connection_permits": "applied_on",
    "contractor_certifications": "first_work_on",
    "convictions": "convicted_on",
    "grease_traps": "set_on",
    "illicit_discharges": "discovered_on",
    "illicit_payments": "paid_on",
    "monitoring_requirements": "effective_from",
    "notices_mailed": "mailed_on",
    "pumpouts": "pumped_on",
    "report_deliveries": "delivered_on",
    "swppp_approvals": "approved_on",
}
LATER = {
    "industrial_users": {"permit_effective": ("permit_no", "permit_expires")},
    "sites": {"final_stabilization": ()},
    "reports": {"received_on": ()},
    "accidental_discharges": {"notified_at": (), "statement_received_on": ()},
    "milestones": {"notified_at": ("notified_by",)},
    "contractor_certifications": {"signed_on": ("title", "signer_name")},
    "illicit_discharges": {
        "notified_on": (),
        "written_confirmation_on": (),
        "nov_on": ("abatement_due", "nov_requires"),
        "appeal_received_on": (),
        "hearing_on": (),
        "appeal_decided_on": ("appeal_outcome",),
        "abated_on": ("abated_by", "abatement_cost_usd"),
        "cost_notice_on": (),
        "protest_received_on": (),
    },
    "smp_practices": {
        "as_built_received_on": ("as_built_pe_certified",),
        "final_plan_approved_on": (),
        "maintenance_agreement_recorded_on": (),
        "final_acceptance_on": (),
        "one_year_inspection_on": (),
        "guarantee_released_on": (),
    },
}


def local_days(values: pd.Series) -> pd.Series:
    """The local day of each cell (a date, or a time with or without an offset); NaT for a blank or one
    that is no time (left to ingestion, which quarantines it)."""
    out = []
    for v in values:
        if v is None or (isinstance(v, float) and pd.isna(v)) or str(v).strip() == "":
            out.append(None)
            continue
        try:
            t = pd.Timestamp(str(v).strip()) if not isinstance(v, pd.Timestamp) else v
        except (ValueError, TypeError):
            out.append(None)
            continue
        t = t.tz_convert(TIMEZONE) if t.tzinfo is not None else t
        out.append(t.date())
    return pd.Series(out, index=values.index, dtype=object)


def _after(values: pd.Series, day: dt.date) -> pd.Series:
    return local_days(values).map(lambda d: d is not None and d > day)


def truncate_frame(folder: str, frame: pd.DataFrame, day: dt.date) -> pd.DataFrame:
    frame = frame.copy()
    own = OWN_DAY.get(folder)
    if own and own in frame:
        frame = frame[~_after(frame[own], day)]
    for column, goes_with in LATER.get(folder, {}).items():
        if column not in frame:
            continue
        late = _after(frame[column], day)
        for c in (column, *goes_with):
            if c in frame:
                frame[c] = frame[c].astype(object).where(~late, None)
    return frame


def truncate(data: Path, out: Path, day: dt.date) -> Path:
    """A copy of the input folders ``data`` in ``out`` with what came after ``day`` cut out."""
    shutil.copytree(data, out)
    for path in sorted(out.rglob("*")):
        folder = path.parent.name
        if path.suffix == ".csv":
            frame = pd.read_csv(path, dtype=str, keep_default_na=False)
            truncate_frame(folder, frame, day).to_csv(path, index=False)
        elif path.suffix == ".parquet":
            frame = pd.read_parquet(path)
            truncate_frame(folder, frame, day).to_parquet(path, index=False)
        elif path.suffix == ".xlsx":
            frame = pd.read_excel(path, dtype=object)
            for c in frame:
                frame[c] = frame[c].map(lambda v: v.isoformat() if hasattr(v, "isoformat") else v)
            truncate_frame(folder, frame, day).to_csv(path.with_suffix(".csv"), index=False)
            path.unlink()
    return out
