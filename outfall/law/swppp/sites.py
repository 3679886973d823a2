"""Site classification and the active period, of the construction-site stormwater law (SWPPP).

Pure functions, no I/O; ``outfall.law.swppp`` (which names them all) gives the reading of the law they
follow."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

UTC = dt.UTC

REQUIREMENTS = ("weekly", "storm")
FINDING_STATUSES = ("late", "overdue")

OTHER_FINDINGS = (
    "disturbance_over_limit",
    "sediment_not_removed",
    "milestone_notice_late",
    "contractor_not_certified",
    "report_not_delivered",
)

# Rainfall is compared after rounding to a millionth of an inch, so that a
# conversion such as 12.7 mm / 25.4 is not judged below 0.5 in by float noise.
RAIN_DECIMALS = 6


def reading(rules: Any, name: str, day: dt.date) -> Any:
    """The value of the named reading (``readings.<name>``) in effect on ``day``."""
    return rules.reading_at("readings", name, day)


def _days(n: Any) -> dt.timedelta:
    return dt.timedelta(days=int(n))


# --------------------------------------------------------------------------
# Site classification


@dataclass(frozen=True)
class SiteFacts:
    """What the law needs to know about a site (the contract's sites columns)."""

    disturbed_acres: float | None
    impaired_water: bool | None = False
    single_family: bool | None = False
    agricultural: bool | None = False
    exempt: bool | None = False


@dataclass(frozen=True)
class Classification:
    land_development_activity: bool
    exempt: bool
    condition_a: bool
    condition_b: bool
    condition_c: bool
    inspections_required: bool
    inspector: str | None
    reports_to_officer_weekly: bool
    reason: str
    rule: str

    @property
    def conditions(self) -> str:
        met = [
            c
            for c, flag in (("A", self.condition_a), ("B", self.condition_b), ("C", self.condition_c))
            if flag
        ]
        return ", ".join(met)


def _acres(x: float) -> str:
    return f"{x:g} acre{'' if x == 1 else 's'}"


@dataclass(frozen=True)
class _Conditions:
    """Conditions A, B and C as a site meets them, with what Condition C excludes."""

    a: bool = False
    b: bool = False
    c: bool = False
    c_excluded: tuple[str, ...] = ()
    c_min: float = 0.0
    c_below: float = 0.0
    specs: tuple[Any, Any, Any] = (None, None, None)


def _conditions(specs: Any, flags: dict[str, bool], acres: float, lda: bool, rules: Any, day) -> _Conditions:
    if specs is None:
        return _Conditions()
    spec_a, spec_b, spec_c = specs.condition_a, specs.condition_b, specs.condition_c
    a_alone = bool(reading(rules, "swppp_condition_a_is_impaired_water_flag", day))
    c_min, c_below = float(spec_c.min_disturbed_acres), float(spec_c.below_acres)
    c_excluded = tuple(f for f in spec_c.excluded_flags if flags.get(f, False))
    return _Conditions(
        a=flags.get(spec_a.flag, False) and (a_alone or lda),
        b=acres >= float(spec_b.min_disturbed_acres),
        c=c_min <= acres < c_below and not c_excluded,
        c_excluded=c_excluded,
        c_min=c_min,
        c_below=c_below,
        specs=(spec_a, spec_b, spec_c),
    )


def _needs(app: Any, acres: float, cond: _Conditions) -> tuple[bool, str]:
    """Whether the site needs inspections by the applicability rule, and why in words."""
    if app.rule == "min_disturbed_acres":
        app_min = float(app.min_disturbed_acres)
        needs = acres >= app_min
        why_needs = (
            f"disturbs {_acres(acres)} (at least {_acres(app_min)}): every such site needs inspections"
            if needs
            else f"inspections are required of sites disturbing {_acres(app_min)} or more"
        )
        return needs, why_needs
    needs = cond.a or cond.b or cond.c
    met = [n for n, f in (("A", cond.a), ("B", cond.b), ("C", cond.c)) if f]
    if needs:
        return needs, f"meets Condition {' and '.join(met)}"
    why = []
    if cond.c_excluded and cond.c_min <= acres < cond.c_below:
        why.append(
            "Condition C excludes "
            + " and ".join(f.replace("_", "-") for f in cond.c_excluded)
            + " construction"
        )
    return needs, "meets none of Conditions A, B and C" + (f" ({'; '.join(why)})" if why else "")


def classify_site(facts: SiteFacts, rules: Any, day: dt.date) -> Classification:
    """Land development activity or not, exemption, Conditions A/B/C and whether
    (and by whom) inspections are required, with the sections that say so, by the
    rules in effect on ``day`` (the site's construction start)."""
    sw = rules.swppp
    acres = float(facts.disturbed_acres or 0.0)
    flags = {
        "impaired_water": bool(facts.impaired_water),
        "single_family": bool(facts.single_family),
        "agricultural": bool(facts.agricultural),
        "exempt": bool(facts.exempt),
    }
    # a code without the land development activity (or Conditions A-C) states no such class: not judged
    lda_rule = sw.land_development_activity.at(day) if sw.land_development_activity is not None else None
    lda_min = float(lda_rule.min_disturbed_acres) if lda_rule is not None else None
    lda = lda_min is not None and acres >= lda_min
    exempt = flags["exempt"]

    app = sw.applicability.at(day)
    specs = (
        app
        if app.rule == "conditions_abc"
        else (sw.conditions.at(day) if sw.conditions is not None else None)
    )
    cond = _conditions(specs, flags, acres, lda, rules, day)
    needs, why_needs = _needs(app, acres, cond)

    weekly = sw.weekly_inspection.at(day)
    required = needs and not exempt
    inspector = weekly.inspector if required else None
    weekly_reports = bool(weekly.reports_delivered_weekly) and required

    if lda_min is None:
        lda_text = f"disturbs {_acres(acres)}"
    elif lda:
        lda_text = "a land development activity"
    else:
        lda_text = f"not a land development activity ({_acres(acres)}, less than {_acres(lda_min)})"
    if exempt:
        reason = f"Exempt (site record): {lda_text}; no inspections required"
    elif required:
        reason = (
            f"{lda_text[0].upper()}{lda_text[1:]}; {why_needs}"
            if lda_min is not None
            else f"{why_needs[0].upper()}{why_needs[1:]}"
        )
        if cond.a and not lda and app.rule == "conditions_abc":
            reason += " (Condition A applies whatever the acreage disturbed)"
        reason += f"; inspections required, made by {inspector}"
        if weekly_reports:
            reason += ", reports delivered to the Stormwater Management Officer weekly"
    elif lda_min is None:
        reason = f"{why_needs[0].upper()}{why_needs[1:]}; no inspections required"
    else:
        reason = f"{lda_text[0].upper()}{lda_text[1:]}; {why_needs}; no inspections required"

    cites = [app.citation, lda_rule.citation if lda_rule is not None else ""]
    for flag, spec in zip((cond.a, cond.b, cond.c), cond.specs):
        if flag and spec is not None:
            cites.append(spec.citation)
    if exempt and sw.exemptions is not None:
        cites.append(sw.exemptions.at(day).citation)
    if required:
        cites.append(weekly.citation)
    rule = "; ".join(dict.fromkeys(c for c in cites if c))
    return Classification(
        lda, exempt, cond.a, cond.b, cond.c, required, inspector, weekly_reports, reason, rule
    )


# --------------------------------------------------------------------------
# Active period


def active_through(final_stabilization: dt.date | None, as_of: dt.date) -> dt.date:
    """Last day of the judged period: final_stabilization when before --as-of, else --as-of."""
    if final_stabilization is not None and final_stabilization < as_of:
        return final_stabilization
    return as_of


def is_active(start: dt.date, final_stabilization: dt.date | None, as_of: dt.date) -> bool:
    """Under construction on --as-of (started, not yet finally stabilized before that day)."""
    return start <= as_of and (final_stabilization is None or final_stabilization >= as_of)


def _inspections_in_window(dates: Iterable[dt.date | None], start: dt.date, last: dt.date) -> list[dt.date]:
    return sorted({d for d in dates if d is not None and start <= d <= last})
