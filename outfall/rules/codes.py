"""The codes the input files use for a town's sewer districts, property classes and bill components.

A town's rules file lists them (section ``vocabulary``), each with the other spellings a file may use:

    vocabulary:
      districts:
        north: [north sewer district, nsd]
      property_classes:
        single_family: [single family, one-family dwelling]
      components:
        om: ["o&m"]

The input folders accept a code, the code with blanks for its underscores, or one of its spellings, in
any case (industrial users' and parcels' district, parcels' property class, a rate's component), and keep
the code. A town whose rules list no districts (or no classes) takes the column as written, and does not
require it. The unit schedule (``sewer_units``) gives a rule for every class listed, and its districts and
components are among those listed.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

import re
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from outfall.rules.dated import Model
from outfall.rules.types import Text, show

CODE_PATTERN = r"[a-z][a-z0-9_]*"


def _code(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(CODE_PATTERN, value):
        raise PydanticCustomError(
            "rules",
            "{value} is not a code: lower-case letters, digits and _, starting with a letter (e.g. "
            "single_family)",
            {"value": show(value)},
        )
    return value


Code = Annotated[
    str, BeforeValidator(_code), WithJsonSchema({"type": "string", "pattern": f"^{CODE_PATTERN}$"})
]
"""A code an input file uses for one of the town's districts, property classes or bill components."""

#: The bill components the sewer bills table has columns for (contract section 3, sewer_bills).
BILL_COMPONENTS = ("bond", "om", "street_lateral", "house_lateral")

KINDS = ("districts", "property_classes", "components")


def norm(text: object) -> str:
    """How a cell is matched with a code or a spelling: lower case, runs of blanks as one space."""
    return re.sub(r"\s+", " ", str(text).strip().lower())


class Codes(Model):
    """The codes the input files use for the town's sewer districts, property classes and bill components,
    each with the other spellings a file may use (matched in any case)."""

    districts: dict[Code, list[Text]] = Field(default_factory=dict)
    """Each sewer district's code, with its other spellings (industrial users', parcels' and rates'
    district)."""
    property_classes: dict[Code, list[Text]] = Field(default_factory=dict)
    """Each property class's code, with its other spellings (parcels' property_class)."""
    components: dict[Code, list[Text]] = Field(default_factory=dict)
    """Each bill component's code, with its other spellings (rates' and budgets' component)."""

    def lookup(self, kind: str) -> dict[str, str]:
        """Every accepted spelling of ``kind`` (districts, property_classes, components), matched as
        ``norm`` makes it, and the code it stands for."""
        out: dict[str, str] = {}
        for code, spellings in getattr(self, kind).items():
            for spelling in (code, code.replace("_", " "), *spellings):
                out[norm(spelling)] = code
        return out


def _fail(message: str, sub: list, **ctx: Any) -> PydanticCustomError:
    return PydanticCustomError("rules", message, {**ctx, "sub": sub})


def _listed(codes: Any) -> str:
    return ", ".join(repr(c) for c in codes)


def check_schedule_codes(codes: Codes | None, schedules: Any) -> None:
    """Each version of the unit schedule (``sewer_units``) gives a rule for every property class the
    vocabulary lists and none other, and names only its districts and components."""
    if codes is None or not schedules:
        return
    for i, schedule in enumerate(schedules):
        classes = codes.property_classes
        if classes:
            for name in schedule.classes:
                if name not in classes:
                    raise _fail(
                        "{name} is not one of {known} (the property classes of vocabulary.property_classes)",
                        ["sewer_units", i, "classes", name],
                        name=repr(name),
                        known=_listed(classes),
                    )
            missing = [c for c in classes if c not in schedule.classes]
            if missing:
                raise _fail(
                    "no unit rule for property class(es) {missing}",
                    ["sewer_units", i, "classes"],
                    missing=", ".join(missing),
                )
        if codes.components:
            for name in schedule.components:
                if name not in codes.components:
                    raise _fail(
                        "{name} is not one of {known} (vocabulary.components)",
                        ["sewer_units", i, "components"],
                        name=repr(name),
                        known=_listed(codes.components),
                    )
        if codes.districts and schedule.districts is not None:
            for name in schedule.districts.names:
                if name not in codes.districts:
                    raise _fail(
                        "{name} is not one of {known} (vocabulary.districts)",
                        ["sewer_units", i, "districts", "names", name],
                        name=repr(name),
                        known=_listed(codes.districts),
                    )
