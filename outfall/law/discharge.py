"""Discharge limits of the sewer use law, as pure functions.

The SQL of the sewer assets (``sql/sewer/insert_discharge_evaluations.sql``,
``sql/sewer/insert_statistic_results.sql``) applies the same readings to whole
tables; the tests cross-check the two on the law's boundaries.

Readings (contract section 4 and the town's rules file):
- "in excess of" is strictly greater: 240 mg/L is compliant, 240.01 breaks BOD;
- a minimum limit (pH 5.5) is broken strictly below it: 5.5 complies, 5.49 breaks;
- a non-detect ``<X`` never breaks a maximum limit when X is at or below it; with
  X above the limit the result is inconclusive (reported apart, never a
  violation); against a minimum limit a non-detect with X at or below the limit
  breaks it (the true value is below X), otherwise it is inconclusive;
- values are compared in canonical units: ug/L / 1000 = mg/L, degC -> degF
  (65 degC is the rounding of 150 degF; 65.5 degC = 149.9 degF complies);
- a permit limit (special agreement) of a parameter and limit type replaces the
  jurisdiction's limit of the same parameter and type for that user while in
  effect (effective_from..effective_to inclusive, open ends, on the sample's
  local date); of two permit limits in effect the latest effective_from wins,
  then the stricter.
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from outfall import vocab

COMPLIANT = "compliant"
VIOLATION = "violation"
INCONCLUSIVE = "inconclusive"

PER_SAMPLE_TYPES = ("max", "min")
NONDETECT_POLICIES = ("zero", "half_dl", "dl")


# ------------------------------------------------------------------ units


def to_canonical(value: float, unit: str, parameter: str) -> tuple[float, str]:
    """A measurement in the canonical unit of its parameter's kind.

    >>> to_canonical(240010, "ug/L", "BOD")
    (240.01, 'mg/L')
    Raises ValueError for a unit that is not of the parameter's kind.
    """
    kind = vocab.parameter_kind(vocab.canonical_parameter(parameter))
    canon = vocab.canonical_unit(unit, kind)
    if canon is None:
        raise ValueError(f"unit {unit!r} is not a {kind} unit for {parameter}")
    scale, offset = vocab.LINEAR[canon]
    return value * scale + offset, vocab.CANONICAL_OF[canon]


# ------------------------------------------------------------ one sample


def breaks(value: float, limit_value: float, limit_type: str) -> bool:
    """True when a detected value breaks a per-sample limit (strictly)."""
    if limit_type == "max":
        return value > limit_value
    if limit_type == "min":
        return value < limit_value
    raise ValueError(f"limit_type {limit_type!r} is not a per-sample limit (max or min)")


def evaluate(value: float | None, limit_value: float, limit_type: str, nondetect: bool = False) -> str:
    """compliant, violation or inconclusive for one result against one limit.

    ``value`` is the result in canonical units; for a non-detect it is the
    detection value X of ``<X`` (None when the laboratory gave none).
    """
    if limit_type not in PER_SAMPLE_TYPES:
        raise ValueError(f"limit_type {limit_type!r} is not a per-sample limit (max or min)")
    if value is None:
        return INCONCLUSIVE
    if nondetect:
        if limit_type == "max":
            return COMPLIANT if value <= limit_value else INCONCLUSIVE
        return VIOLATION if value <= limit_value else INCONCLUSIVE
    return VIOLATION if breaks(value, limit_value, limit_type) else COMPLIANT


def exceedance_ratio(value: float | None, limit_value: float, limit_type: str) -> float | None:
    """How far past the limit: value / limit for a maximum, limit / value for a
    minimum (pH 5.0 against 5.5 -> 1.1). None when undefined (zero or missing)."""
    if value is None:
        return None
    if limit_type in ("max", "daily_max", "monthly_avg"):
        return value / limit_value if limit_value else None
    return limit_value / value if value else None


# ------------------------------------------------------ which limit applies


@dataclass(frozen=True)
class Limit:
    parameter: str
    limit_type: str
    value: float
    rule: str
    source: str = (
        "jurisdiction"  # the word of the jurisdiction's own limits; "permit" for a special agreement
    )
    user_id: str | None = None  # None: the jurisdiction's default
    effective_from: dt.date | None = None
    effective_to: dt.date | None = None

    def in_effect(self, day: dt.date) -> bool:
        return (self.effective_from is None or self.effective_from <= day) and (
            self.effective_to is None or day <= self.effective_to
        )


def _strictness(limit: Limit) -> float:
    return limit.value if limit.limit_type in ("max", "daily_max", "monthly_avg") else -limit.value


def limit_in_effect(
    limits: Iterable[Limit], user_id: str, parameter: str, limit_type: str, day: dt.date
) -> Limit | None:
    """The limit of one parameter and type that applies to a user's sample on a day.

    A permit limit of the user in effect replaces the default; among several,
    the latest effective_from, then the strictest. Parameters match case-insensitively.
    """
    key = parameter.lower()
    found = [
        lim
        for lim in limits
        if lim.parameter.lower() == key
        and lim.limit_type == limit_type
        and lim.in_effect(day)
        and (lim.user_id is None or lim.user_id == user_id)
    ]
    permit = [lim for lim in found if lim.user_id is not None]
    pool = permit or [lim for lim in found if lim.user_id is None]
    if not pool:
        return None
    return min(pool, key=lambda lim: (-(lim.effective_from or dt.date.min).toordinal(), _strictness(lim)))


def permit_rule(basis: str | None, permit_no: str | None, default_citation: str) -> str:
    """Rule text of a permit limit: its basis (or the special-agreement citation) and the permit."""
    text = basis.strip() if basis and basis.strip() else default_citation
    return f"{text} (permit {permit_no})" if permit_no else text


# ------------------------------------------------------ statistic limits


def nondetect_value(detection_value: float | None, policy: str) -> float | None:
    """The value a non-detect ``<X`` takes in an average: zero, X / 2 or X."""
    if policy not in NONDETECT_POLICIES:
        raise ValueError(f"non-detect policy {policy!r} is not one of {', '.join(NONDETECT_POLICIES)}")
    if detection_value is None:
        return None
    return {"zero": 0.0, "half_dl": detection_value / 2.0, "dl": detection_value}[policy]


@dataclass(frozen=True)
class Result:
    value: float | None
    nondetect: bool = False
    sample_type: str = "composite"

    def averaged(self, policy: str) -> float | None:
        return nondetect_value(self.value, policy) if self.nondetect else self.value


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.fmean(present) if present else None


def daily_value(results: Sequence[Result], policy: str) -> tuple[float | None, int]:
    """The day's value for a daily maximum: the composite (mean of the day's
    composites when several), else the mean of the day's grabs; with the number
    of results used."""
    composites = [r for r in results if r.sample_type == "composite"]
    used = composites or [r for r in results if r.sample_type != "composite"]
    values = [r.averaged(policy) for r in used]
    return _mean(values), sum(v is not None for v in values)


def monthly_average(results: Sequence[Result], policy: str) -> tuple[float | None, int]:
    """Mean of the month's results (non-detects per policy), with the count used."""
    values = [r.averaged(policy) for r in results]
    return _mean(values), sum(v is not None for v in values)


def statistic_breaks(value: float | None, limit_value: float) -> bool:
    """A daily maximum or monthly average is broken when the statistic is strictly above it."""
    return value is not None and value > limit_value
