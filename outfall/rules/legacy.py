"""Deprecated: the old untyped view of the rules, for consumers not yet converted.

``Rules.raw``, ``Rules.section(name)``, ``Rules.has(name)`` and
``Rules.reading(name)`` answer from here, in the shape the rules files had
before they were typed and dated (rules version 2026.11.2): every section as a
dictionary, in the version in effect *today* (or, when none is, the latest
that began before today, else the first). They cannot know the day of a
violation, an inspection or a bill; the typed API (``rules.slug.at(day)``)
does. See the migration table in ``outfall.rules``.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from outfall.rules.dated import Entries, Versions

if TYPE_CHECKING:
    from outfall.rules.models import Rules


def _plain(value: Any) -> Any:
    """Decimals back to the int / float a YAML file gave."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _dump(model: BaseModel) -> dict[str, Any]:
    return _plain(model.model_dump(exclude_unset=True))


def _version(versions: Versions, day: dt.date) -> dict[str, Any]:
    return _dump(versions.nearest(day))


def _entries(entries: Entries) -> list[dict[str, Any]]:
    out = []
    for entry in entries:
        d = _dump(entry)
        d["value"], d["unit"] = entry.as_written
        out.append(d)
    return out


def _readings(group: BaseModel, day: dt.date) -> dict[str, Any]:
    return {name: _version(versions, day) for name, versions in group if versions is not None}


# Parts of the typed swppp section -> the old flat keys: {part: {typed field: old key}}.
SWPPP_FLAT = {
    "weekly_inspection": {"interval_days": "weekly_interval_days", "inspector": "inspector",
                          "reports_delivered_weekly": "reports_delivered_weekly", "citation": "citation_weekly"},
    "storm_inspection": {"threshold_in": "storm_threshold_in", "window_days": "storm_window_days",
                         "citation": "citation_storm"},
    "disturbance_limit": {"max_acres_without_approval": "max_disturbed_acres_without_swppp_approval",
                          "citation": "citation_disturbance"},
    "sediment_cleanout": {"capacity_lost_pct": "sediment_cleanout_pct", "citation": "citation_sediment"},
    "milestone_notice": {"hours": "milestone_notice_hours", "citation": "citation_milestone"},
    "appeal": {"days": "appeal_days", "citation": "citation_appeal"},
}

# Parts of the typed notices section -> the old flat keys.
NOTICES_FLAT = {
    "sewer_correction": {"max_days": "sewer_correction_max_days", "days": "sewer_correction_days",
                         "citation": "citation_sewer_correction"},
    "accidental_statement": {"days": "accidental_discharge_statement_days", "citation": "citation_accidental"},
    "periodic_report": {"max_months": "periodic_report_max_months", "citation": "citation_periodic"},
    "self_monitoring": {"notice_hours": "self_monitoring_notice_hours", "resample_days": "resample_days",
                        "citation": "citation_self_monitoring"},
    "slug_report": {"days": "slug_report_days", "citation": "citation_slug_report"},
    "permit_expiry_warning": {"days": "permit_expiry_warning_days", "citation": "citation_permit_expiry"},
}


def _flatten(parts: BaseModel, mapping: dict[str, dict[str, str]], day: dt.date) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part, keys in mapping.items():
        versions = getattr(parts, part)
        if versions is None:
            continue
        version = versions.nearest(day)
        for typed, old in keys.items():
            value = getattr(version, typed)
            if value is not None:
                out[old] = _plain(value)
    return out


def _swppp(rules: "Rules", day: dt.date) -> dict[str, Any]:
    sw = rules.swppp
    out = {"applicability": _version(sw.applicability, day)}
    out.update(_flatten(sw, SWPPP_FLAT, day))
    for part in ("land_development_activity", "conditions", "exemptions", "report_delivery", "milestones",
                 "contractor_certification", "notice_of_violation", "stop_work_order", "convictions",
                 "remedial_days", "section_text"):
        versions = getattr(sw, part)
        if versions is not None:
            out[part] = _version(versions, day)
    out["effective_from"] = sw.weekly_inspection.nearest(day).effective_from
    return out


def _notices(rules: "Rules", day: dt.date) -> dict[str, Any]:
    out = _flatten(rules.notices, NOTICES_FLAT, day)
    out["effective_from"] = rules.notices.sewer_correction.nearest(day).effective_from
    return out


def _surcharge(rules: "Rules", day: dt.date) -> dict[str, Any]:
    sc = rules.surcharge
    out = _version(sc.method, day)
    out["rate_usd_per_lb"] = {r.parameter: _plain(r.usd_per_lb) for r in sc.rates.at(day)}
    return out


def _table_7_1(rules: "Rules", day: dt.date) -> dict[str, Any]:
    t = rules.table_7_1
    out = _dump(t)
    out["limits"] = _entries(t.limits)
    return out


def legacy_raw(rules: "Rules", day: dt.date) -> dict[str, Any]:
    """The whole file in the old shape, each section as in effect on ``day``."""
    raw: dict[str, Any] = {"jurisdiction": rules.jurisdiction, "name": rules.name, "version": rules.version,
                           "timezone": rules.timezone}
    special = {"swppp": _swppp, "notices": _notices, "surcharge": _surcharge, "table_7_1": _table_7_1}
    for name in type(rules).model_fields:
        value = getattr(rules, name)
        if name in raw or value is None:
            continue
        if name in special:
            raw[name] = special[name](rules, day)
        elif name == "discharge_limits":
            raw[name] = _entries(value)
        elif name.startswith("readings"):
            raw[name] = _readings(value, day)
        elif name in ("business_days", "inspection_fees"):   # added after 2026.11.2: the file's own shape
            raw[name] = value.model_dump(exclude_unset=True)
        elif name in ("illicit_discharges", "post_construction"):
            raw[name] = [v.model_dump(exclude_unset=True) for v in value]
        elif name == "penalties":
            raw[name] = {part: _version(v, day) for part, v in value if v is not None}
        elif isinstance(value, Versions):
            raw[name] = _version(value, day)
        else:  # pragma: no cover - every section is listed above
            raise TypeError(f"no legacy shape for section {name}")
    return raw
