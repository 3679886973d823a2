"""Sewer charges by the volume of water used, as pure functions.

A billing period's charge for metered premises is the volume used, in the unit the rates are per, times
the rate in effect on the period's first day, or the period's least charge when that is more; unmetered
premises pay the flat charge of the period; fixed charges by water meter size are added. Volumes convert
exactly: a cubic foot is 1,728 / 231 gallons (a gallon is 231 cubic inches). Amounts are rounded half-up
to the cent, in decimal arithmetic. Every rate and amount comes in as an argument, from the town's rules
(``rules.volume_charges``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

#: Gallons in one of each unit a meter or a rate may be in (exact).
GALLONS = {
    "gallon": Fraction(1),
    "thousand_gallons": Fraction(1000),
    "cubic_foot": Fraction(1728, 231),
    "hundred_cubic_feet": Fraction(172800, 231),
}
UNIT_WORDS = {
    "gallon": ("gallon", "gallons"),
    "thousand_gallons": ("thousand gallons", "thousand gallons"),
    "cubic_foot": ("cubic foot", "cubic feet"),
    "hundred_cubic_feet": ("hundred cubic feet", "hundred cubic feet"),
}


def convert(volume: float | Decimal | str, unit: str, to: str) -> Fraction:
    """``volume`` in ``unit`` as a volume in ``to`` (exact)."""
    return Fraction(str(volume)) * GALLONS[unit] / GALLONS[to]


def cents(value: Fraction | Decimal) -> Decimal:
    """Rounded half-up to the cent."""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class VolumeCharge:
    """A metered period's charge: the volume in the rate's unit, its amount, and whether the least charge
    applied instead."""

    billed_volume: Fraction
    volume_usd: Decimal
    minimum_usd: Decimal | None
    charge_usd: Decimal
    minimum_applied: bool


def volume_charge(
    volume: float | Decimal | str,
    unit: str,
    rate_unit: str,
    usd_per_unit: Decimal | str,
    minimum_usd: Decimal | str | None,
) -> VolumeCharge:
    """The volume charge of one period: volume (in ``unit``) x ``usd_per_unit`` per ``rate_unit``, rounded
    to the cent; the least charge ``minimum_usd`` when it is more (equal: the volume charge stands)."""
    billed = convert(volume, unit, rate_unit)
    amount = cents(billed * Fraction(str(usd_per_unit)))
    minimum = Decimal(str(minimum_usd)) if minimum_usd is not None else None
    applied = minimum is not None and minimum > amount
    return VolumeCharge(billed, amount, minimum, minimum if applied else amount, applied)


def volume_words(volume: Fraction, unit: str) -> str:
    """12.5 hundred cubic feet, 1 gallon: a volume as a bill shows it (to 4 places)."""
    text = f"{float(volume):,.4f}".rstrip("0").rstrip(".")
    singular, plural = UNIT_WORDS[unit]
    return f"{text} {singular if volume == 1 else plural}"


def meter_amount(tiers: Any, size_in: float | None) -> tuple[Any, str]:
    """The amount of a schedule by meter size for a meter of ``size_in`` inches (a Decimal, or the rules'
    ``SetElsewhere`` where the law sets the step's amount in another document), and the step in words; None
    (and why) when the size is unknown or above every step."""
    if size_in is None:
        return None, "no meter size on file"
    low = None
    for tier in tiers:
        if tier.max_in is None or size_in <= tier.max_in:
            usd = tier.usd if hasattr(tier.usd, "set_by") else Decimal(str(tier.usd))
            return usd, f"a {size_in:g} in meter ({_band(low, tier.max_in)})"
        low = tier.max_in
    return None, f"a {size_in:g} in meter is above every step of the schedule"


def _band(low: float | None, high: float | None) -> str:
    if high is None:
        return "any size" if low is None else f"over {low:g} in"
    return f"up to {high:g} in" if low is None else f"over {low:g} to {high:g} in"
