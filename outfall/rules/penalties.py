"""Penalties (``penalties``): the stormwater fines, rising with prior convictions, and the sewer use law's
penalty as its section states it.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

import string
from typing import Any, Literal

from pydantic import Field, model_validator

from outfall.rules.dated import Dated, Model, Versions, rule_error
from outfall.rules.types import (
    Count,
    Money,
    PositiveCount,
    Text,
    show,
)


class PenaltyTier(Model):
    """The fine range of one offense."""

    offense: PositiveCount
    """1 = first offense, 2 = second, ... (the last tier covers every later one)."""
    min_usd: Money
    """Least fine, dollars."""
    max_usd: Money
    """Greatest fine, dollars."""

    @model_validator(mode="after")
    def _range(self) -> "PenaltyTier":
        if self.min_usd > self.max_usd:
            raise rule_error(
                "min_usd {low} is more than max_usd {high}", low=show(self.min_usd), high=show(self.max_usd)
            )
        return self


Per = Literal["day", "week"]


class StormwaterPenalty(Dated):
    """Fines for stormwater violations, rising with prior convictions."""

    per: Per
    """Each day or each week of a continued violation is a separate violation."""
    lookback_years: PositiveCount
    """Prior convictions count when within this many years."""
    tiers: list[PenaltyTier] = Field(min_length=1)
    """The fine range of each offense."""

    @model_validator(mode="after")
    def _offenses(self) -> "StormwaterPenalty":
        offenses = sorted(t.offense for t in self.tiers)
        if offenses != list(range(1, len(offenses) + 1)):
            raise rule_error(
                "tiers must be offenses 1, 2, 3 ... each once (found {found})",
                found=", ".join(map(str, offenses)),
            )
        return self

    def tier(self, offense: int) -> PenaltyTier:
        """The tier of the ``offense``-th offense (the last tier for every later one)."""
        chosen = [t for t in self.tiers if t.offense <= max(int(offense), 1)]
        return max(chosen, key=lambda t: t.offense)


class SewerUsePenalty(Dated):
    """The sewer use law's penalty, as its section states it: a fine, imprisonment, a civil penalty, or any
    of them. A part the section does not have is left out: it is not stated in any letter and adds
    nothing to the most a violation may cost."""

    per: Per | None = None
    """Each day (or week) a violation continues is a separate violation (left out: the section does not
    say so)."""
    fine_max_usd: Money | None = None
    """Greatest fine per violation, dollars."""
    imprisonment_max_days: Count | None = None
    """Longest imprisonment per violation, days (with or instead of the fine)."""
    imprisonment_max_months: Count | None = None
    """Longest imprisonment per violation, where the section states it in months."""
    civil_max_usd: Money | None = None
    """Greatest civil penalty per violation, dollars."""
    words: Text | None = None
    """The penalty in the section's own words, as a notice prints it after "<the section> provides:", with
    the amounts above in their places: ``{fine}`` ("a fine not exceeding $250.00"), ``{imprisonment}``
    ("imprisonment not exceeding 15 days"), ``{civil}`` ("a civil penalty not exceeding $250.00") and
    ``{per}`` ("day"); each part the entry states appears, and none it leaves out. Left out: the notice
    lists each part stated, for each violation, and whether each day is a separate violation."""

    @model_validator(mode="after")
    def _words_fit(self) -> "SewerUsePenalty":
        if self.words is None:
            return self
        stated = {
            "fine": self.fine_max_usd is not None,
            "imprisonment": self.imprisonment_max_days is not None
            or self.imprisonment_max_months is not None,
            "civil": self.civil_max_usd is not None,
            "per": self.per is not None,
        }
        used = {f for _, f, _, _ in string.Formatter().parse(self.words) if f is not None}
        said = []
        unknown = sorted(used - set(stated))
        if unknown:
            said.append(
                "name {" + "}, {".join(unknown) + "}, no part of a penalty (fine, imprisonment, civil, per)"
            )
        lacking = sorted(p for p, given in stated.items() if given and p not in used)
        if lacking:
            said.append("leave out {" + "}, {".join(lacking) + "}, which the entry states")
        extra = sorted(p for p in used if p in stated and not stated[p])
        if extra:
            said.append("name {" + "}, {".join(extra) + "}, which the entry does not state")
        if said:
            raise rule_error(
                "words {said}: write each part the entry states, and only those",
                said=" and ".join(said),
                key_name="words",
            )
        return self

    def statement(self, money: Any = str) -> str:
        """The penalty in words, after "<the section> provides:": the section's own (``words``) with the
        amounts in their places, else each part stated, for each violation. ``money`` writes an amount."""
        months = self.imprisonment_max_months
        parts = {
            "fine": f"a fine not exceeding {money(self.fine_max_usd)}"
            if self.fine_max_usd is not None
            else None,
            "imprisonment": (
                f"imprisonment not exceeding {self.imprisonment_max_days} days"
                if self.imprisonment_max_days is not None
                else (f"imprisonment not exceeding {months} months" if months is not None else None)
            ),
            "civil": (
                f"a civil penalty not exceeding {money(self.civil_max_usd)}"
                if self.civil_max_usd is not None
                else None
            ),
            "per": self.per,
        }
        if self.words is not None:
            return self.words.format(**{k: v or "" for k, v in parts.items()})
        stated = [parts[k] for k in ("fine", "imprisonment", "civil") if parts[k]]
        each = f"; each {self.per} a violation continues is a separate violation" if self.per else ""
        return f"for each violation, {'; '.join(stated)}{each}"

    @model_validator(mode="after")
    def _some_part(self) -> "SewerUsePenalty":
        parts = (
            self.fine_max_usd,
            self.imprisonment_max_days,
            self.imprisonment_max_months,
            self.civil_max_usd,
        )
        if all(p is None for p in parts):
            raise rule_error(
                "give at least one of fine_max_usd, imprisonment_max_days (or _months) and civil_max_usd, as "
                "the penalty section states them (or leave the whole section out)"
            )
        if self.imprisonment_max_days is not None and self.imprisonment_max_months is not None:
            raise rule_error(
                "give imprisonment_max_days or imprisonment_max_months, as the section states it, not both",
                key_name="imprisonment_max_months",
            )
        return self


class Penalties(Model):
    """The most (and least) a violation may be fined."""

    stormwater: Versions[StormwaterPenalty] | None = None
    """Stormwater violations."""
    sewer_use: Versions[SewerUsePenalty] | None = None
    """Sewer use violations."""
