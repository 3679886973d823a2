"""Penalties: prior convictions and the fine range, of the construction-site stormwater law (SWPPP).

Pure functions, no I/O; ``outfall.law.swppp`` (which names them all) gives the reading of the law they
follow."""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from outfall.law.swppp.sites import (
    reading,
)

# --------------------------------------------------------------------------
# Penalties


def years_before(day: dt.date, years: int) -> dt.date:
    """The same calendar day ``years`` earlier (29 February -> 28 February)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


def normalize_chapter(chapter: Any) -> str | None:
    """'ch. 12', 'Chapter 12', '12' -> '12'; None when no number."""
    if chapter is None:
        return None
    m = re.search(r"\d+", str(chapter))
    return (m.group(0).lstrip("0") or "0") if m else None


def count_prior_convictions(
    offense_dates: Iterable[dt.date | None], violation_on: dt.date, rules: Any
) -> int:
    """Prior convictions whose offenses were committed within the look-back before the day the new violation
    began (the penalty in effect on that day says how many years). ``offense_dates``: each conviction's
    day of the offense (convictions.offense_on; its convicted_on when that is blank): "offenses ...
    committed within a period of five years" counts the days the offenses were committed."""
    lookback = int(rules.penalties.stormwater.at(violation_on).lookback_years)
    inclusive = bool(reading(rules, "swppp_conviction_lookback_includes_first_day", violation_on))
    first = years_before(violation_on, lookback)
    return sum(
        1
        for c in offense_dates
        if c is not None and c < violation_on and (c >= first if inclusive else c > first)
    )


@dataclass(frozen=True)
class Penalty:
    offense: int  # 1 = first offense (prior convictions + 1)
    tier: int  # the tier applied: the last one covers "third or subsequent"
    prior_convictions: int
    min_usd: Decimal  # per violation
    max_usd: Decimal
    per: str  # day | week: each one a separate violation
    periods: int  # violations counted through --as-of (days or weeks)
    total_min_usd: Decimal
    total_max_usd: Decimal
    imprisonment_max_months: int | None
    citation: str
    lookback_years: int  # prior convictions counted within this many years


def _usd(value: Any) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def penalty_tier(prior_convictions: int, rules: Any, day: dt.date) -> dict[str, Any]:
    """The fine range of the offense that follows ``prior_convictions`` convictions, by the penalty in
    effect on ``day`` (the violation's)."""
    offense = max(int(prior_convictions), 0) + 1
    chosen = rules.penalties.stormwater.at(day).tier(offense)
    return {
        "offense": offense,
        "tier": int(chosen.offense),
        "min_usd": _usd(chosen.min_usd),
        "max_usd": _usd(chosen.max_usd),
    }


def violation_periods(days: int | None, per: str) -> int:
    """How many separate violations a violation continuing ``days`` days makes:
    each day or each week or part of one (the penalty's ``per``); at least one."""
    n = max(int(days or 0), 1)
    if per == "day":
        return n
    if per == "week":
        return math.ceil(n / 7)
    raise ValueError(f"rules: penalties.stormwater.per '{per}' is not 'day' or 'week'")


def assess_penalty(prior_convictions: int, days: int | None, rules: Any, day: dt.date) -> Penalty:
    """The fines of a violation that began on ``day``, by the penalty in effect that day."""
    spec = rules.penalties.stormwater.at(day)
    tier = penalty_tier(prior_convictions, rules, day)
    periods = violation_periods(days, spec.per)
    months = rules.swppp.convictions.at(day).imprisonment_max_months
    return Penalty(
        tier["offense"],
        tier["tier"],
        int(prior_convictions),
        tier["min_usd"],
        tier["max_usd"],
        spec.per,
        periods,
        _usd(tier["min_usd"] * periods),
        _usd(tier["max_usd"] * periods),
        int(months) if months is not None else None,
        spec.citation,
        int(spec.lookback_years),
    )
