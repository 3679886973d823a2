"""Post-construction stormwater management practices (SMPs), as pure functions.

Four findings per practice, each citing its own section (the sentences and the
numbers come from the ``post_construction`` section of each jurisdiction's rules
file, through ``PracticeTerms`` of ``outfall.rules.practices``):

- ``as_built``: once the site's final stabilization is on or before --as-of, a
  professional-engineer-certified as-built plan is due, dated the final
  stabilization day. ``open`` (due on --as-of) or ``overdue`` while none is
  received; ``late`` when received after that day. A plan received without PE
  certification (``as_built_pe_certified`` false or blank) is not the plan the
  law asks for: the finding stays open or overdue.
  The stormwater laws of both shipped jurisdictions (stormwater management practice inspections)
  require it
  "after final construction is completed"; neither
  text sets a number of days, the due day is the data contract's.
- ``maintenance_agreement``: a maintenance agreement recorded before final plan
  approval: ``late`` when recorded after ``final_plan_approved_on`` (the same
  day is in time), ``open``/``overdue`` while not recorded. Both texts require
  it: the stormwater law of each jurisdiction (maintenance agreements).
- ``one_year_inspection``: due one year after final acceptance; satisfied by
  ``one_year_inspection_on``.
- ``guarantee_release``: the construction completion guarantee was released
  before one year from final acceptance, or before the one-year inspection was
  made (or with none made). Status ``overdue``; due = the earliest day it could
  have been released: the later of final acceptance + 1 year and the
  inspection's day (final acceptance + 1 year when none was made). A release
  with no final acceptance on record has no such day and is not reported here.

Neither text requires the one-year inspection for its own sake: both make it a
condition of releasing the construction completion guarantee. The model town requires
that guarantee ("will require ... a performance bond"); the village's paragraph
on it only "may require" one, so in the village the one-year inspection and the release
findings speak only where the village took a guarantee (the input has no column
saying so). The rules keep all four findings for both jurisdictions; an entry
``required: false`` turns one off for a jurisdiction whose text does not ask for
it, and its finding is then never produced.

One year after February 29 is February 28 (``leap_day_year_later: feb_28``).
A date after --as-of has not happened yet on --as-of. ``met`` rows are left
out unless ``include_met``.
"""

from __future__ import annotations

import calendar as _cal
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from outfall.law.enforcement import MET, OVERDUE, deadline_status, seen
from outfall.rules.dated import in_effect_on
from outfall.rules.practices import LeapDay, PracticeTerms

FINDINGS = ("as_built", "maintenance_agreement", "one_year_inspection", "guarantee_release")


def practice_terms_on(
    section: Sequence[Mapping[str, Any] | PracticeTerms], day: dt.date, jurisdiction: str
) -> PracticeTerms:
    """The version of a jurisdiction's ``post_construction`` rules in effect on ``day``."""
    versions = [v if isinstance(v, PracticeTerms) else PracticeTerms.model_validate(v) for v in section]
    return in_effect_on(versions, day, f"post-construction stormwater practices ({jurisdiction})")


class Practice(BaseModel):
    """One row of ``smp_practices``. Extra columns are ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    practice_id: str
    site_id: str
    practice_type: str | None = None
    as_built_received_on: dt.date | None = None
    as_built_pe_certified: bool | None = None
    final_plan_approved_on: dt.date | None = None
    maintenance_agreement_recorded_on: dt.date | None = None
    final_acceptance_on: dt.date | None = None
    one_year_inspection_on: dt.date | None = None
    guarantee_released_on: dt.date | None = None


@dataclass(frozen=True)
class Finding:
    practice_id: str
    site_id: str
    finding: str
    rule: str
    due: dt.date
    status: str


def add_years(day: dt.date, years: int, leap_day: LeapDay) -> dt.date:
    """The same day ``years`` years later; February 29 of a year with none
    becomes February 28 (``feb_28``) or March 1 (``mar_1``)."""
    year = day.year + years
    if day.month == 2 and day.day == 29 and not _cal.isleap(year):
        return dt.date(year, 2, 28) if leap_day == "feb_28" else dt.date(year, 3, 1)
    return day.replace(year=year)


def smp_findings(
    practice: Practice,
    site_final_stabilization: dt.date | None,
    jurisdiction: str,
    terms: Mapping[str, PracticeTerms],
    as_of: dt.date,
    *,
    include_met: bool = False,
) -> list[Finding]:
    """The findings of one practice on --as-of, in the order of ``FINDINGS``.

    ``terms`` maps each jurisdiction (its rules file's name) to the version
    of its rules that applies; ``jurisdiction`` is the site's."""
    key = str(jurisdiction).strip().lower()
    if key not in terms:
        raise ValueError(f"No post-construction stormwater rules for the jurisdiction '{jurisdiction}'.")
    t = terms[key]
    rules = t.findings
    p = practice
    out: list[Finding] = []

    def add(finding: str, due: dt.date, status: str) -> None:
        if status != MET or include_met:
            out.append(Finding(p.practice_id, p.site_id, finding, getattr(rules, finding).rule, due, status))

    stabilized = seen(site_final_stabilization, as_of)
    if rules.as_built.required and stabilized is not None:
        received = seen(p.as_built_received_on, as_of) if p.as_built_pe_certified is True else None
        add("as_built", stabilized, deadline_status(stabilized, received, as_of))

    approved = seen(p.final_plan_approved_on, as_of)
    if rules.maintenance_agreement.required and approved is not None:
        recorded = seen(p.maintenance_agreement_recorded_on, as_of)
        add("maintenance_agreement", approved, deadline_status(approved, recorded, as_of))

    accepted = seen(p.final_acceptance_on, as_of)
    inspected = seen(p.one_year_inspection_on, as_of)
    if rules.one_year_inspection.required and accepted is not None:
        due = add_years(accepted, t.inspection_after_years, t.leap_day_year_later)
        add("one_year_inspection", due, deadline_status(due, inspected, as_of))

    released = seen(p.guarantee_released_on, as_of)
    if rules.guarantee_release.required and released is not None and accepted is not None:
        year_later = add_years(accepted, t.guarantee_min_years, t.leap_day_year_later)
        earliest = max(year_later, inspected) if inspected is not None else year_later
        if released < year_later or inspected is None or released < inspected:
            add("guarantee_release", earliest, OVERDUE)
    return out
