"""Sewer units and bill amounts of the sewer rate schedule, as pure functions.

The unit schedule is data (the town's rules file, section ``sewer_units``, a
list of dated versions: a bill applies the version in effect on its billing
year's first day, ``rules.sewer_units.at(day)``); this module applies it. Each property class names one of
five methods, and
every number a method uses (acres per unit, caps, tiers, minimums) comes from
the class's entry, so a changed schedule needs no code change:

- ``fixed``: ``units`` for each of ``components`` (default: a full unit).
- ``per_count``: ceil(count / per) [+ ceil(plus.count / plus.per)], at least
  ``minimum`` when given, for each of ``components``.
- ``tiers``: the first tier whose ``max`` is at least the count (``max: null``
  = no upper bound) gives ``units`` full units.
- ``acreage`` (single-family): acres <= ``small_lot_max_acres``: ``small_lot_units``
  full units; otherwise bond = ceil(min(acres, ``bond_cap_acres``) / ``bond_acres_per_unit``)
  + ceil(max(acres - ``excess_from_acres``, 0) / ``excess_acres_per_unit``) and every
  other component ``large_lot_other_components``.
- ``acreage_only`` (vacant): acres > ``over_acres``: bond = ceil(acres / ``bond_acres_per_unit``);
  otherwise nothing.

"ceil" is the law's "or part thereof". The moratorium (``sewer_units.moratorium``)
then zeroes its ``zero_components`` whatever the class. Acres are computed in
decimal (the value as written, e.g. 3.01), never in binary floating point, so
3.0 vs 3.01 and 74 vs 75 fall exactly where the schedule puts them.

Amounts: units x rate, rounded as ``billing.rounding`` says (``half_up_cent``:
half-up to the cent, decimal arithmetic). Budget-derived rates: budget / total
units, rounded as ``billing.budget_rate_rounding`` says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import (
    ROUND_CEILING,
    ROUND_DOWN,
    ROUND_FLOOR,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    ROUND_UP,
    Decimal,
    InvalidOperation,
    localcontext,
)
from typing import Any

# The four components of a full unit, in the contract's column order.
COMPONENTS = ("bond", "om", "street_lateral", "house_lateral")

# Parcel fields a unit rule may read (contract section 2, parcels).
PARCEL_FIELDS = ("acres", "living_units", "bathrooms", "washing_machines", "people", "seats")

# Wording only (not law): how components and counts read in an explanation.
COMPONENT_LABELS = {
    "bond": "bond",
    "om": "O&M",
    "street_lateral": "street lateral",
    "house_lateral": "house lateral",
}
_NOUNS = {
    "acres": ("acre", "acres"),
    "living_units": ("living unit", "living units"),
    "bathrooms": ("bathroom", "bathrooms"),
    "washing_machines": ("washing machine", "washing machines"),
    "people": ("person", "people"),
    "seats": ("seat", "seats"),
}

_ACREAGE_METHODS = ("acreage", "acreage_only")

_QUANTA = {
    "cent": Decimal("0.01"),
    "mill": Decimal("0.001"),
    "dollar": Decimal("1"),
    "micro": Decimal("0.000001"),
}
_MODES = {
    "half_up": ROUND_HALF_UP,
    "half_even": ROUND_HALF_EVEN,
    "up": ROUND_UP,
    "down": ROUND_DOWN,
    "ceiling": ROUND_CEILING,
    "floor": ROUND_FLOOR,
}


class BillingInputError(ValueError):
    """A parcel that cannot be billed as given (unknown class, missing or bad count).

    The parcels ingestion quarantines such rows (the rules' ``requires`` lists);
    one reaching billing is never billed by guess."""


class BudgetRateError(ValueError):
    """A budget that cannot be turned into a rate (no units to spread it over)."""


@dataclass(frozen=True, slots=True)
class ParcelUnits:
    """Units of each component for one parcel, with the reason in words."""

    bond: int
    om: int
    street_lateral: int
    house_lateral: int
    explanation: str
    rule: str

    def get(self, component: str) -> int:
        return int(getattr(self, component))

    def as_dict(self) -> dict[str, int]:
        return {c: self.get(c) for c in COMPONENTS}


# ---------------------------------------------------------------- small helpers


def _missing(value: Any) -> bool:
    """None, NaN, pandas NA or a blank string."""
    if value is None:
        return True
    if isinstance(value, str):
        return value.strip() == ""
    try:
        return bool(value != value)  # NaN (float, numpy, Decimal)
    except (TypeError, ValueError):  # pandas NA: its truth value is ambiguous
        return True


def _decimal(value: Any) -> Decimal:
    """A number as a Decimal of its written value (floats via their shortest repr)."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, str):
        return Decimal(value.strip())
    return Decimal(str(float(value)))


def _fmt(value: Decimal | int) -> str:
    """3 -> '3', Decimal('3.010') -> '3.01', 2.5 -> '2.5'."""
    if isinstance(value, int):
        return str(value)
    text = format(value.normalize(), "f")
    return text


def _noun(field: str, n: Decimal | int) -> str:
    singular, plural = _NOUNS.get(field, (field.replace("_", " "), field.replace("_", " ")))
    return singular if n == 1 else plural


def _ceil_div(x: Decimal | int, per: Any) -> int:
    """ceil(x / per): the law's 'for every <per> or part thereof'."""
    with localcontext() as ctx:
        ctx.prec = 60
        return int((Decimal(x) / _decimal(per)).to_integral_value(rounding=ROUND_CEILING))


def _number(parcel: Mapping, field: str, pclass: str) -> tuple[Any, Decimal]:
    """The parcel's ``field`` as given and as a number; an error naming the class when missing or not a
    number."""
    value = parcel.get(field)
    if _missing(value):
        raise BillingInputError(f"{pclass} needs {field} and it is missing (sewer_units.classes.{pclass})")
    try:
        return value, _decimal(value)
    except (TypeError, ValueError, InvalidOperation) as exc:
        raise BillingInputError(f"{pclass}: {field} '{value}' is not a number") from exc


def _count(parcel: Mapping, field: str, pclass: str) -> int:
    value, number = _number(parcel, field, pclass)
    if number != number.to_integral_value():
        raise BillingInputError(f"{pclass}: {field} {value} is not a whole number")
    if number < 0:
        raise BillingInputError(f"{pclass}: {field} {value} is negative")
    return int(number)


def _acres(parcel: Mapping, pclass: str) -> Decimal:
    value, acres = _number(parcel, "acres", pclass)
    if not acres.is_finite() or acres < 0:
        raise BillingInputError(f"{pclass}: acres {value} is not a non-negative number")
    return acres


def _truthy(value: Any) -> bool:
    if _missing(value):
        return False
    if isinstance(value, str):
        return value.strip().lower() in ("true", "t", "yes", "y", "1")
    return bool(value)


def _and(items: list[str], conj: str = "and") -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {conj} {items[-1]}"


def _units_phrase(n: int, comps: tuple[str, ...], all_comps: tuple[str, ...]) -> str:
    """'5 full units', or '3 units each of bond, O&M and street lateral (no house lateral)'."""
    if set(comps) == set(all_comps):
        return f"{n} full unit" if n == 1 else f"{n} full units"
    named = [COMPONENT_LABELS.get(c, c) for c in all_comps if c in comps]
    left = [COMPONENT_LABELS.get(c, c) for c in all_comps if c not in comps]
    word = "unit" if n == 1 else "units"
    each = " each" if len(named) > 1 else ""
    return f"{n} {word}{each} of {_and(named)} (no {_and(left, 'or')})"


def _unit_word(comps: tuple[str, ...], all_comps: tuple[str, ...]) -> str:
    return "full unit" if set(comps) == set(all_comps) else "unit"


def _per_phrase(per: Any, field: str) -> str:
    per_d = _decimal(per)
    if per_d == 1:
        return _noun(field, 1)
    return f"{_fmt(per_d)} {_noun(field, per_d)} or part thereof"


def fields_read(spec: Any) -> tuple[str, ...]:
    """The parcel fields a class's unit rule reads (its ``requires``, counts and acres)."""
    out: list[str] = list(spec.requires or [])
    if getattr(spec, "count", None):
        out.append(spec.count)
    plus = getattr(spec, "plus", None)
    if plus is not None and plus.count:
        out.append(plus.count)
    if spec.method in _ACREAGE_METHODS:
        out.append("acres")
    return tuple(dict.fromkeys(out))


def _components(schedule: Any) -> tuple[str, ...]:
    comps = tuple(schedule.components or COMPONENTS)
    if set(comps) != set(COMPONENTS):
        raise ValueError(
            f"sewer_units.components {list(comps)} must be the four of the contract: {list(COMPONENTS)}"
        )
    return comps


# ---------------------------------------------------------------- the methods


def _fixed(parcel: Mapping, pclass: str, spec: Any, all_comps: tuple[str, ...]):
    comps = tuple(spec.components or all_comps)
    n = int(spec.units)
    return {c: n for c in comps}, _units_phrase(n, comps, all_comps), ""


def _per_count(parcel: Mapping, pclass: str, spec: Any, all_comps: tuple[str, ...]):
    comps = tuple(spec.components or all_comps)
    word = _unit_word(comps, all_comps)
    field = spec.count
    count = _count(parcel, field, pclass)
    n = _ceil_div(count, spec.per)
    inputs = [f"{count} {_noun(field, count)}"]
    reason = f"1 {word} per {_per_phrase(spec.per, field)}"
    plus = spec.plus
    if plus is not None:
        pfield = plus.count
        pcount = _count(parcel, pfield, pclass)
        extra = _ceil_div(pcount, plus.per)
        inputs.append(f"{pcount} {_noun(pfield, pcount)}")
        reason = f"{reason} ({n}) + 1 {word} per {_per_phrase(plus.per, pfield)} ({extra})"
        n += extra
    minimum = spec.minimum
    if minimum is not None and n < int(minimum):
        n = int(minimum)
        reason = f"{reason}, at least {int(minimum)}"
    return {c: n for c in comps}, f"{reason} = {_units_phrase(n, comps, all_comps)}", ", ".join(inputs)


def _tiers(parcel: Mapping, pclass: str, spec: Any, all_comps: tuple[str, ...]):
    comps = tuple(spec.components or all_comps)
    field = spec.count
    count = _count(parcel, field, pclass)
    low = 0
    for tier in spec.tiers:
        high = tier.max
        if high is None or count <= _decimal(high):
            n = int(tier.units)
            plural = _noun(field, 2)
            if high is None:
                band = f"{low} {plural} and over"
            elif low == 0:
                band = f"up to {_fmt(_decimal(high))} {plural}"
            else:
                band = f"{low}-{_fmt(_decimal(high))} {plural}"
            return (
                {c: n for c in comps},
                f"{band} = {_units_phrase(n, comps, all_comps)}",
                f"{count} {_noun(field, count)}",
            )
        low = int(_decimal(high)) + 1
    raise BillingInputError(
        f"{pclass}: {field} {count} is above every tier of sewer_units.classes.{pclass}.tiers"
    )


def _acreage(parcel: Mapping, pclass: str, spec: Any, all_comps: tuple[str, ...]):
    acres = _acres(parcel, pclass)
    inputs = f"{_fmt(acres)} {_noun('acres', acres)}"
    small_max = _decimal(spec.small_lot_max_acres)
    if acres <= small_max:
        n = int(spec.small_lot_units)
        return (
            {c: n for c in all_comps},
            f"{_fmt(small_max)} acres or less = {_units_phrase(n, all_comps, all_comps)}",
            inputs,
        )
    per = spec.bond_acres_per_unit
    cap = _decimal(spec.bond_cap_acres)
    excess_from = _decimal(spec.excess_from_acres)
    excess_per = spec.excess_acres_per_unit
    base = _ceil_div(min(acres, cap), per)
    excess = _ceil_div(max(acres - excess_from, Decimal(0)), excess_per)
    bond = base + excess
    other = int(spec.large_lot_other_components)
    reason = (
        f"over {_fmt(small_max)} acres, bond 1 unit per {_fmt(_decimal(per))} acres or part thereof up to "
        f"{_fmt(cap)} acres"
    )
    if excess:
        reason += (
            f" ({base}) + 1 unit per {_fmt(_decimal(excess_per))} acres or part thereof over "
            f"{_fmt(excess_from)} acres ({excess})"
        )
    reason += f" = {bond} {'unit' if bond == 1 else 'units'}"
    others = [c for c in all_comps if c != "bond"]
    units = {"bond": bond, **{c: other for c in others}}
    names = _and([COMPONENT_LABELS.get(c, c) for c in others])
    reason += f"; {other} {'unit' if other == 1 else 'units'} each of {names}"
    return units, reason, inputs


def _acreage_only(parcel: Mapping, pclass: str, spec: Any, all_comps: tuple[str, ...]):
    comps = tuple(spec.components or ("bond",))
    acres = _acres(parcel, pclass)
    inputs = f"{_fmt(acres)} {_noun('acres', acres)}"
    over = _decimal(spec.over_acres)
    if acres > over:
        per = spec.bond_acres_per_unit
        n = _ceil_div(acres, per)
        named = _and([COMPONENT_LABELS.get(c, c) for c in comps])
        reason = (
            f"over {_fmt(over)} acres, {named} 1 unit per {_fmt(_decimal(per))} acres or part thereof"
            f" = {n} {'unit' if n == 1 else 'units'}"
        )
        return {c: n for c in comps}, reason, inputs
    return {}, f"{_fmt(over)} acres or less, no charge", inputs


_METHODS = {
    "fixed": _fixed,
    "per_count": _per_count,
    "tiers": _tiers,
    "acreage": _acreage,
    "acreage_only": _acreage_only,
}


def units_for_parcel(parcel: Mapping, schedule: Any) -> ParcelUnits:
    """Units of bond, O&M, street lateral and house lateral for one parcel.

    ``parcel``: property_class, moratorium and the counts its class reads
    (acres, living_units, bathrooms, washing_machines, people, seats).
    ``schedule``: a version of the rules' ``sewer_units`` (``rules.sewer_units.at(day)``).
    Raises BillingInputError for an unknown class or a missing/negative/fractional count."""
    all_comps = _components(schedule)
    pclass = parcel.get("property_class")
    classes = schedule.classes
    if _missing(pclass) or pclass not in classes:
        raise BillingInputError(f"property class '{pclass}' has no unit rule in sewer_units.classes")
    spec = classes[pclass]
    method = _METHODS.get(spec.method)
    if method is None:
        raise ValueError(f"sewer_units.classes.{pclass}: unknown method '{spec.method}'")
    for field in spec.requires or []:
        if _missing(parcel.get(field)):
            raise BillingInputError(
                f"{pclass} needs {field} and it is missing (sewer_units.classes.{pclass}.requires)"
            )
    units, reason, inputs = method(parcel, pclass, spec, all_comps)
    units = {c: int(units.get(c, 0)) for c in all_comps}

    rule = f"{schedule.citation}: {spec.label or pclass}"
    moratorium = schedule.moratorium
    if _truthy(parcel.get("moratorium")):
        zeroed = [c for c in moratorium.zero_components if units.get(c, 0)]
        if zeroed:
            for c in zeroed:
                units[c] = 0
            reason += f"; sewer moratorium: no {_and([COMPONENT_LABELS.get(c, c) for c in zeroed])} charge"
            rule += f"; {moratorium.citation}"

    head = pclass.replace("_", " ")
    if inputs:
        head += f", {inputs}"
    short = schedule.short_citation or schedule.citation
    return ParcelUnits(
        units["bond"],
        units["om"],
        units["street_lateral"],
        units["house_lateral"],
        f"{head}: {reason} ({short})",
        rule,
    )


# ---------------------------------------------------------------- money


def rounding_of(name: str) -> tuple[Decimal, str]:
    """'half_up_cent' -> (Decimal('0.01'), ROUND_HALF_UP); modes half_up, half_even,
    up, down, ceiling, floor; quanta cent, mill, dollar, micro."""
    mode, _, quantum = str(name).rpartition("_")
    if mode not in _MODES or quantum not in _QUANTA:
        raise ValueError(
            f"rounding '{name}' is not <mode>_<quantum> with mode in {sorted(_MODES)} "
            f"and quantum in {sorted(_QUANTA)}"
        )
    return _QUANTA[quantum], _MODES[mode]


def amount(units: int, rate: Any, rounding: str) -> Decimal:
    """units x rate, rounded (default half-up to the cent) in exact decimal arithmetic."""
    quantum, mode = rounding_of(rounding)
    with localcontext() as ctx:
        ctx.prec = 60
        return (Decimal(int(units)) * _decimal(rate)).quantize(quantum, rounding=mode)


def budget_rate(budget: Any, total_units: int, rounding: str) -> Decimal:
    """Rate per unit derived from a budget: budget / total units of the component
    in the district, rounded as given. A zero budget over zero units is a zero
    rate; a non-zero budget over zero units cannot be billed (BudgetRateError)."""
    quantum, mode = rounding_of(rounding)
    budget_d = _decimal(budget)
    total = int(total_units)
    if total < 0:
        raise BudgetRateError(f"total units {total} is negative")
    if total == 0:
        if budget_d == 0:
            return Decimal(0).quantize(quantum)
        raise BudgetRateError(f"a budget of {budget_d} cannot be spread over 0 units")
    with localcontext() as ctx:
        ctx.prec = 60
        return (budget_d / Decimal(total)).quantize(quantum, rounding=mode)


def missing_rate_message(year: int, district: str, component: str) -> str:
    return f"no sewer rate for {year}, {district}, {component}: add it to sewer_rates"
