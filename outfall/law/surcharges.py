"""Surcharges of wastes stronger than the limits, as pure functions.

- pounds over a threshold = volume (million gallons, or the unit the law reads it in) x pounds per unit
  of volume per mg/L (8.34 per million gallons) x (concentration - threshold), a negative difference
  counting as zero; amount = pounds x the adopted rate per pound;
- a surcharge triggered by flow: the gallons over so many a day (or every gallon of a month over it) x
  the rate per so many gallons;
- one rounding: each amount is carried exact and rounded half-up to the cent once, after any factor on
  it (an outside-limits multiplier), never rounded before the factor and again after it;
- a month's volume: the time-weighted mean of a meter's readings times the month's minutes, else the
  permit's normal daily flow times the month's days;
- a month's concentration: the mean of its composite results, else of its grab results, non-detects as
  the non-detect policy of their day says.

Every number comes in as an argument, from the town's rules (``rules.surcharge``). Nothing here is a law
number.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from outfall.law.charges import GALLONS
from outfall.law.discharge import nondetect_value
from outfall.law.enforcement import exact

#: Gallons in one of each unit a surcharge's volume may be read in (exact).
VOLUME_GALLONS = {**GALLONS, "million_gallons": Fraction(1_000_000)}


def cents(value: Decimal | float | int | str) -> Decimal:
    d = (
        value
        if isinstance(value, Decimal)
        else Decimal(repr(value) if isinstance(value, float) else str(value))
    )
    return d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def surcharge_pounds(
    flow_mg: float | None, concentration: float | None, limit_value: float, lbs_per_mg_per_mgl: float
) -> float | None:
    """flow (million gallons) x 8.34 x (concentration - limit); a negative
    difference counts as zero. None when flow or concentration is unknown."""
    if flow_mg is None or concentration is None:
        return None
    return float(flow_mg) * float(lbs_per_mg_per_mgl) * max(0.0, float(concentration) - float(limit_value))


def volume_in(flow_mg: float | None, unit: str) -> float | None:
    """A volume of ``flow_mg`` million gallons in ``unit`` (million_gallons, hundred_cubic_feet, ...)."""
    if flow_mg is None:
        return None
    return float(Fraction(repr(float(flow_mg))) * VOLUME_GALLONS["million_gallons"] / VOLUME_GALLONS[unit])


def surcharge_amount(pounds: float | None, rate_usd_per_lb: float | str | Decimal) -> Decimal | None:
    """pounds x rate, rounded half-up to the cent."""
    found = pounds_amount_exact(pounds, rate_usd_per_lb)
    return None if found is None else cents(found)


def pounds_amount_exact(pounds: float | None, rate_usd_per_lb: float | str | Decimal) -> Decimal | None:
    """pounds x rate, exact (not rounded: the one rounding comes after any factor)."""
    if pounds is None:
        return None
    return exact(pounds) * Decimal(str(rate_usd_per_lb))


def time_weighted_mean(readings: Sequence[tuple[dt.datetime, float]]) -> float | None:
    """Mean rate over the span of the readings: trapezoids between consecutive
    readings / the time they cover. One reading: its value."""
    pts = sorted((t, float(v)) for t, v in readings if v is not None)
    if not pts:
        return None
    area = span = 0.0
    for (t0, v0), (t1, v1) in zip(pts, pts[1:]):
        seconds = (t1 - t0).total_seconds()
        area += (v0 + v1) / 2.0 * seconds
        span += seconds
    return area / span if span > 0 else sum(v for _, v in pts) / len(pts)


def meter_volume_mg(mean_gpm: float, minutes: float) -> float:
    """Million gallons at ``mean_gpm`` for ``minutes``."""
    return float(mean_gpm) * float(minutes) / 1e6


def permit_volume_mg(normal_avg_flow_gpd: float, days: int) -> float:
    return float(normal_avg_flow_gpd) * int(days) / 1e6


def month_concentration(
    results: Sequence[tuple[str, float | None, bool, str | None]],
) -> tuple[float | None, list[int]]:
    """The month's concentration for a surcharge and the indexes of the results
    used: the mean of the composites, else of the grabs. ``results``: (sample_type,
    value, nondetect, the non-detect policy in effect on the result's day: zero,
    half_dl or dl). A non-detect on a day no policy covers (None) leaves the
    month without a concentration: it is not judged."""
    used = [i for i, r in enumerate(results) if r[0] == "composite"]
    if not used:
        used = list(range(len(results)))
    values = []
    for i in used:
        sample_type, value, nd, policy = results[i]
        if nd and policy is None:
            return None, used
        v = nondetect_value(value, policy) if nd else value
        if v is not None:
            values.append(float(v))
    return (sum(values) / len(values) if values else None), used


def volume_surcharge(flow_mg: float | None, usd: Decimal | str, per_gallons: float) -> Decimal | None:
    """A surcharge per volume: the gallons discharged / ``per_gallons`` x ``usd``, rounded half-up to the
    cent. None when the volume is unknown."""
    found = volume_surcharge_exact(flow_mg, usd, per_gallons)
    return None if found is None else cents(found)


def volume_surcharge_exact(flow_mg: float | None, usd: Decimal | str, per_gallons: float) -> Decimal | None:
    """The same, exact (not rounded)."""
    if flow_mg is None:
        return None
    return exact(float(flow_mg) * 1e6) / exact(per_gallons) * Decimal(str(usd))


def strength_surcharge(
    flow_mg: float | None,
    concentration: float | None,
    above_mgl: float,
    usd: Decimal | str,
    per_gallons: float,
    per_mgl: float,
) -> Decimal | None:
    """A surcharge per volume per strength: (gallons / ``per_gallons``) x (mg/L above ``above_mgl`` /
    ``per_mgl``) x ``usd``, a strength at or below ``above_mgl`` costing nothing; rounded half-up to the
    cent. None when the volume or the concentration is unknown."""
    found = strength_surcharge_exact(flow_mg, concentration, above_mgl, usd, per_gallons, per_mgl)
    return None if found is None else cents(found)


def strength_surcharge_exact(
    flow_mg: float | None,
    concentration: float | None,
    above_mgl: float,
    usd: Decimal | str,
    per_gallons: float,
    per_mgl: float,
) -> Decimal | None:
    """The same, exact (not rounded)."""
    if flow_mg is None or concentration is None:
        return None
    steps = max(Decimal(0), exact(concentration) - exact(above_mgl)) / exact(per_mgl)
    return exact(float(flow_mg) * 1e6) / exact(per_gallons) * steps * Decimal(str(usd))


def flow_gallons_charged(
    flow_mg: float | None, days: int, above_gpd: float, charged_on: str
) -> tuple[float | None, float | None]:
    """(the month's average gallons a day, the gallons a flow surcharge is charged on): the gallons over
    ``above_gpd`` x ``days`` (``gallons_over``) or every gallon of the month (``all_gallons``) when the
    average is more than ``above_gpd``; 0 gallons when it is not (a month at the threshold exactly is not
    over it). (None, None) when the volume is unknown."""
    if flow_mg is None or days <= 0:
        return None, None
    gallons = exact(float(flow_mg) * 1e6)
    average = gallons / int(days)
    if average <= exact(above_gpd):
        return float(average), 0.0
    if charged_on == "all_gallons":
        return float(average), float(gallons)
    return float(average), float(gallons - exact(above_gpd) * int(days))


def flow_surcharge_exact(gallons: float | None, usd: Decimal | str, per_gallons: float) -> Decimal | None:
    """The gallons charged / ``per_gallons`` x ``usd``, exact (not rounded)."""
    if gallons is None:
        return None
    return exact(gallons) / exact(per_gallons) * Decimal(str(usd))


def multiplied(amount: Decimal | None, factor: Decimal | str | None) -> Decimal | None:
    """``amount`` x ``factor`` (an extra 20% of a surcharge: x 1.2), rounded half-up to the cent once; the
    amount rounded to the cent when there is no factor. Give it the exact amount: an amount rounded before
    the factor and again after it can be a cent off ($77.57 for $77.56)."""
    if amount is None:
        return None
    if factor is None:
        return cents(amount)
    return cents(amount * Decimal(str(factor)))
