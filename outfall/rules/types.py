"""The value types of the rules files: text, dates, money, rates, whole numbers.

Each type refuses what a person could mistype (``max_usd: "five hundred"``,
``effective_from: 2026-13-01``) with a message written for that person; the
loader adds the file and the entry's path. None of these types carries a
number of the law: every value comes from the rules files.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AfterValidator, BeforeValidator, PlainValidator, WithJsonSchema
from pydantic_core import PydanticCustomError

from outfall import vocab


def show(value: Any) -> str:
    """A value as a person typed it in YAML: 'text', true, 12, a list, ..."""
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if "'" not in value else f'"{value}"'
    if isinstance(value, dict):
        return "a mapping (key: value lines)"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Decimal):
        return format(value, "f")
    return str(value)


def _fail(message: str, **ctx: Any) -> PydanticCustomError:
    return PydanticCustomError("rules", message, ctx or None)


# ----------------------------------------------------------------- text


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise _fail("{value} is not text (put it in quotes)", value=show(value))
    if not value.strip():
        raise _fail("is empty; write the text")
    return value


Text = Annotated[str, BeforeValidator(_text), WithJsonSchema({"type": "string", "minLength": 1})]
"""Non-empty text (a citation, a label, a letter's wording)."""

Citation = Annotated[
    str,
    BeforeValidator(_text),
    WithJsonSchema(
        {
            "type": "string",
            "minLength": 1,
            "description": "The law (code, chapter, section) or the adopted policy this entry comes from.",
        }
    ),
]


# ----------------------------------------------------------------- dates


def _day(value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        raise _fail("{value} is a time, not a date (YYYY-MM-DD)", value=show(str(value)))
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise _fail("{value} is not a date (YYYY-MM-DD, e.g. 2027-01-01)", value=show(value))


Day = Annotated[
    dt.date,
    BeforeValidator(_day),
    WithJsonSchema({"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}),
]


# ---------------------------------------------------------------- numbers


def _number(value: Any) -> float:
    """A number as written: 5 stays the whole number 5 (texts print "5", not "5.0")."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _fail("{value} is not a number", value=show(value))
    return value


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            raise _fail("{value} is not a whole number (write it without a decimal point)", value=show(value))
        raise _fail("{value} is not a whole number", value=show(value))
    return value


def _at_least(low: float, what: str = "") -> AfterValidator:
    def check(value: Any) -> Any:
        if value < low:
            raise _fail("{value} is less than {low}{what}", value=show(value), low=show(low), what=what)
        return value

    return AfterValidator(check)


def _above(low: float) -> AfterValidator:
    def check(value: Any) -> Any:
        if value <= low:
            raise _fail("{value} must be more than {low}", value=show(value), low=show(low))
        return value

    return AfterValidator(check)


def _at_most(high: float) -> AfterValidator:
    def check(value: Any) -> Any:
        if value > high:
            raise _fail("{value} is more than {high}", value=show(value), high=show(high))
        return value

    return AfterValidator(check)


Number = Annotated[float, PlainValidator(_number), WithJsonSchema({"type": "number"})]
PositiveNumber = Annotated[
    float, PlainValidator(_number), _above(0), WithJsonSchema({"type": "number", "exclusiveMinimum": 0})
]
NonNegativeNumber = Annotated[
    float, PlainValidator(_number), _at_least(0), WithJsonSchema({"type": "number", "minimum": 0})
]
Percent = Annotated[
    float,
    PlainValidator(_number),
    _at_least(0),
    _at_most(100),
    WithJsonSchema({"type": "number", "minimum": 0, "maximum": 100}),
]
Count = Annotated[
    int, BeforeValidator(_whole), _at_least(0), WithJsonSchema({"type": "integer", "minimum": 0})
]
"""A whole number of days, hours, units ... (0 or more)."""
PositiveCount = Annotated[
    int, BeforeValidator(_whole), _at_least(1), WithJsonSchema({"type": "integer", "minimum": 1})
]
Month = Annotated[
    int,
    BeforeValidator(_whole),
    _at_least(1),
    _at_most(12),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 12}),
]
"""A month of the year: 1 (January) to 12 (December)."""
DayOfMonth = Annotated[
    int,
    BeforeValidator(_whole),
    _at_least(1),
    _at_most(31),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 31}),
]
"""A day of a month: 1 to 31."""
WeekOfMonth = Annotated[
    int,
    BeforeValidator(_whole),
    _at_least(1),
    _at_most(5),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 5}),
]
"""Which of a month's weekdays of one name: 1 (the first) to 5 (the fifth)."""


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail("{value} is not true or false", value=show(value))
    return value


Flag = Annotated[bool, BeforeValidator(_flag), WithJsonSchema({"type": "boolean"})]
FlagOrNull = Annotated[Flag | None, WithJsonSchema({"type": ["boolean", "null"]})]
"""true, false or null, where null means something the field says (e.g. "either"): unlike an optional
key, a null here is a value, and the schema allows it."""


# ------------------------------------------------------------------ money


def _decimal(value: Any, places: int, what: str, example: str = "350 or 350.00") -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise _fail("{value} is not " + what, value=show(value))
    text = str(value).strip()
    if isinstance(value, str) and not re.fullmatch(r"-?\d+(\.\d+)?", text):
        raise _fail("{value} is not " + what + " (write digits, e.g. " + example + ")", value=show(value))
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise _fail("{value} is not " + what, value=show(value)) from None
    if not amount.is_finite():
        raise _fail("{value} is not " + what, value=show(value))
    if amount < 0:
        raise _fail("{value} is negative; " + what + " is never negative", value=show(value))
    if -amount.as_tuple().exponent > places:
        raise _fail("{value} has more than {places} decimal places", value=show(value), places=places)
    return amount


def _decimal_schema(places: int, description: str) -> WithJsonSchema:
    """A number, or the same digits in quotes ("350"): the loader reads both, so the schema allows both."""
    return WithJsonSchema(
        {
            "anyOf": [
                {"type": "number", "minimum": 0},
                {"type": "string", "pattern": rf"^\d+(\.\d{{1,{places}}})?$"},
            ],
            "description": description,
        }
    )


Money = Annotated[
    Decimal,
    BeforeValidator(lambda v: _decimal(v, 2, "an amount of money")),
    _decimal_schema(2, "US dollars, at most 2 decimal places, never negative"),
]
"""US dollars and cents: a Decimal with at most 2 places, never negative."""

Rate = Annotated[
    Decimal,
    BeforeValidator(lambda v: _decimal(v, 4, "a rate in dollars")),
    _decimal_schema(4, "US dollars per unit, at most 4 decimal places, never negative"),
]
"""Dollars per unit (per pound, per unit of service): at most 4 decimal places, never negative."""

#: What a word written where an amount may be set elsewhere is told (the amounts of ``amounts.py``).
_OR_ELSEWHERE = "350 or 350.00; or {set_by: ...} where the law sets it in another document"

StatedMoney = Annotated[
    Decimal,
    BeforeValidator(lambda v: _decimal(v, 2, "an amount of money", _OR_ELSEWHERE)),
    _decimal_schema(2, "US dollars, at most 2 decimal places, never negative"),
]
"""Money, where ``{set_by: ...}`` may stand instead (its message says so)."""

StatedRate = Annotated[
    Decimal,
    BeforeValidator(lambda v: _decimal(v, 4, "a rate in dollars", _OR_ELSEWHERE)),
    _decimal_schema(4, "US dollars per unit, at most 4 decimal places, never negative"),
]
"""Rate, where ``{set_by: ...}`` may stand instead (its message says so)."""

Proportion = Annotated[
    Decimal,
    BeforeValidator(lambda v: _decimal(v, 6, "a proportion", "0.18 for 18%")),
    _decimal_schema(
        6, "a proportion written as a decimal (0.18 for 18%), at most 6 decimal places, never negative"
    ),
]
"""A proportion written as a decimal (an interest rate of 18% a year is 0.18): a Decimal, so exact, with at
most 6 places, never negative."""


# --------------------------------------------------------- vocabularies


def _parameter(value: Any) -> str:
    text = _text(value)
    return vocab.canonical_parameter(text)


Parameter = Annotated[
    str,
    BeforeValidator(_parameter),
    WithJsonSchema(
        {
            "type": "string",
            "minLength": 1,
            "description": "A parameter: BOD, COD, TSS, chlorine_demand, pH, FOG, temperature (or a "
            "synonym), or another substance's name (a metal, CBOD, cyanide ...)",
        }
    ),
]
"""Any parameter name; the contract's synonyms become the canonical name (BOD5 -> BOD)."""


def _known_parameter(value: Any) -> str:
    name = _parameter(value)
    if name not in vocab.PARAMETERS:
        raise _fail(
            "{value} is not a parameter this rule knows (one of {known})",
            value=show(value),
            known=", ".join(vocab.PARAMETERS),
        )
    return name


KnownParameter = Annotated[
    str, BeforeValidator(_known_parameter), WithJsonSchema({"type": "string", "enum": list(vocab.PARAMETERS)})
]


def _timezone(value: Any) -> str:
    text = _text(value)
    try:
        ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise _fail("{value} is not a time zone (e.g. America/New_York)", value=show(value)) from None
    return text


TimeZone = Annotated[str, BeforeValidator(_timezone), WithJsonSchema({"type": "string", "minLength": 1})]

_ROUNDING_MODES = ("half_up", "half_even", "up", "down", "ceiling", "floor")
_ROUNDING_QUANTA = ("cent", "mill", "dollar", "micro")


def _rounding(value: Any) -> str:
    text = _text(value)
    mode, _, quantum = text.rpartition("_")
    if mode not in _ROUNDING_MODES or quantum not in _ROUNDING_QUANTA:
        raise _fail(
            "{value} is not a rounding: write <how>_<to what>, how one of {modes}, to what one of "
            "{quanta} (e.g. half_up_cent)",
            value=show(value),
            modes=", ".join(_ROUNDING_MODES),
            quanta=", ".join(_ROUNDING_QUANTA),
        )
    return text


Rounding = Annotated[
    str,
    BeforeValidator(_rounding),
    WithJsonSchema(
        {"type": "string", "pattern": rf"^({'|'.join(_ROUNDING_MODES)})_({'|'.join(_ROUNDING_QUANTA)})$"}
    ),
]


def _jurisdiction(value: Any) -> str:
    text = _text(value)
    if not re.fullmatch(JURISDICTION_PATTERN, text):
        raise _fail(
            "{value} is not a jurisdiction's name: lower-case letters, digits and _, starting with a letter, "
            "as the rules file is named (e.g. springfield for springfield.yaml)",
            value=show(value),
        )
    return text


#: A jurisdiction is named by its rules file: ``rules/<jurisdiction>.yaml``.
JURISDICTION_PATTERN = r"[a-z][a-z0-9_]*"
Jurisdiction = Annotated[
    str,
    BeforeValidator(_jurisdiction),
    WithJsonSchema({"type": "string", "pattern": f"^{JURISDICTION_PATTERN}$"}),
]
LimitType = Literal[vocab.LIMIT_TYPES]  # type: ignore[valid-type]
ParcelCount = Literal["acres", "living_units", "bathrooms", "washing_machines", "people", "seats"]
"""A parcels column a unit rule counts (contract section 2, parcels)."""


def _clock(value: Any) -> str:
    text = _text(value)
    if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", text):
        raise _fail("{value} is not a time of day (HH:MM, e.g. 00:00)", value=show(value))
    return text


ClockTime = Annotated[
    str, BeforeValidator(_clock), WithJsonSchema({"type": "string", "pattern": r"^([01]\d|2[0-3]):[0-5]\d$"})
]
