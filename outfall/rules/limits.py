"""Discharge limits (``discharge_limits``) and the limits the law leaves to a body (``table_7_1``,
``limits_set_elsewhere``): each a per-sample limit on one parameter, in the canonical unit once loaded.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

from pydantic import Field, PrivateAttr, model_validator

from outfall import vocab
from outfall.rules.dated import Dated, Entries, rule_error
from outfall.rules.types import (
    LimitType,
    Number,
    Parameter,
    PositiveNumber,
    Text,
    show,
)


class DischargeLimit(Dated):
    """A per-sample limit on one parameter. Once loaded, ``value`` and ``unit`` are in the
    canonical unit (mg/L, s.u. or degF); the file may use any unit of the parameter's kind."""

    parameter: Parameter
    """The parameter limited (BOD, COD, TSS, chlorine_demand, pH, FOG, temperature, or a metal's name)."""
    limit_type: LimitType
    """max: a result above the value breaks it; min: a result below it breaks it."""
    value: Number
    """The limit, in `unit`."""
    unit: Text
    """The unit of `value` (mg/L or ug/L for a concentration, s.u. for pH, degF or degC for temperature)."""
    applies_when: Text | None = None
    """Where the law bars the discharge only on a finding (a waste an official must judge harmful, a
    'restricted' waste), that condition in the law's words: every violation of the limit quotes it."""
    excursion_minutes: PositiveNumber | None = None
    """Where the law counts an excursion beyond the limit as a violation only when it lasts longer than so
    many minutes (a pH time rule): continuous readings are judged by how long they stay beyond it, and a
    single sample beyond it is reported as inconclusive."""
    source: Text | None = None
    """The word the limits' source column gives this limit (e.g. the part of the code it is in; left out:
    the sewer use law's short name)."""

    _written: tuple[float, str] = PrivateAttr(default=(0.0, ""))

    @model_validator(mode="after")
    def _to_canonical_unit(self) -> "DischargeLimit":
        kind = vocab.parameter_kind(self.parameter)
        unit = vocab.canonical_unit(self.unit, kind)
        if unit is None:
            raise rule_error(
                "unit {unit} is not a {kind} unit for {parameter} (one of {units})",
                unit=show(self.unit),
                kind=kind,
                parameter=self.parameter,
                units=", ".join(vocab.UNITS[kind]),
                key_name="unit",
            )
        self._written = (self.value, self.unit)
        scale, offset = vocab.LINEAR[unit]
        object.__setattr__(self, "value", self.value * scale + offset)
        object.__setattr__(self, "unit", vocab.CANONICAL_OF[unit])
        return self

    @property
    def as_written(self) -> tuple[float, str]:
        """(value, unit) as the rules file states them."""
        return self._written

    def key(self) -> tuple[str, str]:
        return (self.parameter, self.limit_type)

    def label(self) -> str:
        return f"{self.parameter} {self.limit_type}"


class TownBoardLimit(DischargeLimit):
    """A limit the body the law leaves it to has adopted (a board's resolution, an official's order)."""

    adopted_by: Text
    """The act that set the limit (e.g. "Resolution 2027-3")."""


class Table71(Dated):
    """Substances whose limits the law leaves to a body (the model town's shape of
    `limits_set_elsewhere`: one table of a board's limits). Until the body adopts some, `limits` is
    empty and a result of such a substance is reported as having no limit."""

    limits: Entries[TownBoardLimit]
    """The limits adopted (empty: none adopted)."""
    set_by: Text | None = None
    """Whom the law leaves these limits to (e.g. "the Village Council")."""
    source: Text | None = None
    """The word the limits' source column gives these limits (left out: the sewer use law's short name)."""


class LimitsSetElsewhere(Dated):
    """Substances the law names but whose limits it leaves to an official, a board or another document
    (the superintendent's limits of metals, the plant's discharge permit). Until limits are adopted,
    `limits` is empty and a result of such a substance is reported as having no limit."""

    substances: Text
    """The substances, as the law names them."""
    set_by: Text
    """Who or what sets the limits (e.g. "the Superintendent", "the City's NPDES permit, as amended")."""
    parameters: list[Parameter] = Field(default_factory=list)
    """The parameters among them, as lab results name them (left out: as the law names them only)."""
    source: Text | None = None
    """The word the limits' source column gives these limits (left out: the sewer use law's short name)."""
    limits: Entries[TownBoardLimit] = Field(default_factory=lambda: Entries(()))
    """The limits adopted, each with the act that adopted it (empty: none adopted)."""
