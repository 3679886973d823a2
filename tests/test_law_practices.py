"""Post-construction stormwater practice findings (Woodbury ch. 267, Bellport ch. 21), worked by hand."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings, strategies as st

from outfall.law.practices import FINDINGS, Practice, add_years, practice_terms_on, smp_findings
from outfall.rules import load_rules

D = dt.date
TERMS = {
    "woodbury": practice_terms_on(load_rules("woodbury").post_construction, D(2024, 1, 1), "woodbury"),
    "bellport": practice_terms_on(load_rules("bellport").post_construction, D(2024, 1, 1), "bellport"),
}


def practice(**kw) -> Practice:
    kw.setdefault("practice_id", "P1")
    kw.setdefault("site_id", "S1")
    return Practice(**kw)


def found(p, final_stabilization=None, as_of=D(2026, 6, 30), jurisdiction="woodbury", **kw):
    return {
        f.finding: (f.due, f.status)
        for f in smp_findings(p, final_stabilization, jurisdiction, TERMS, as_of, **kw)
    }


def test_rules_carry_one_year_and_feb_28():
    for t in TERMS.values():
        assert (t.inspection_after_years, t.guarantee_min_years, t.leap_day_year_later) == (1, 1, "feb_28")
        assert all(getattr(t.findings, f).required for f in FINDINGS)


# ------------------------------------------------------------------ as-built


def test_as_built_missing_after_final_stabilization():
    # Final stabilization May 1, 2026; nothing received: overdue on Jun 30, open on May 1 itself.
    assert found(practice(), D(2026, 5, 1)) == {"as_built": (D(2026, 5, 1), "overdue")}
    assert found(practice(), D(2026, 5, 1), as_of=D(2026, 5, 1)) == {"as_built": (D(2026, 5, 1), "open")}
    # still active (no final stabilization, or one after --as-of): no finding.
    assert found(practice(), None) == {}
    assert found(practice(), D(2026, 7, 1)) == {}


def test_as_built_late_met_and_not_certified():
    # received May 20, PE-certified, after the May 1 due day: late.
    late = practice(as_built_received_on=D(2026, 5, 20), as_built_pe_certified=True)
    assert found(late, D(2026, 5, 1)) == {"as_built": (D(2026, 5, 1), "late")}
    # received Apr 30 (before): met, left out unless asked for.
    early = practice(as_built_received_on=D(2026, 4, 30), as_built_pe_certified=True)
    assert found(early, D(2026, 5, 1)) == {}
    assert found(early, D(2026, 5, 1), include_met=True) == {"as_built": (D(2026, 5, 1), "met")}
    # received but not PE-certified (false or blank): none received -> overdue.
    for flag in (False, None):
        p = practice(as_built_received_on=D(2026, 4, 30), as_built_pe_certified=flag)
        assert found(p, D(2026, 5, 1)) == {"as_built": (D(2026, 5, 1), "overdue")}
    # received after --as-of: not yet received.
    assert found(late, D(2026, 5, 1), as_of=D(2026, 5, 10)) == {"as_built": (D(2026, 5, 1), "overdue")}


# ---------------------------------------------------- maintenance agreement


def test_maintenance_agreement_before_final_plan_approval():
    # approved Mar 10, 2026; recorded the same day: in time (met, left out).
    same_day = practice(
        final_plan_approved_on=D(2026, 3, 10), maintenance_agreement_recorded_on=D(2026, 3, 10)
    )
    assert found(same_day) == {}
    # recorded Mar 11: late.
    after = practice(final_plan_approved_on=D(2026, 3, 10), maintenance_agreement_recorded_on=D(2026, 3, 11))
    assert found(after) == {"maintenance_agreement": (D(2026, 3, 10), "late")}
    # not recorded: open on Mar 10, overdue from Mar 11.
    none = practice(final_plan_approved_on=D(2026, 3, 10))
    assert found(none, as_of=D(2026, 3, 10)) == {"maintenance_agreement": (D(2026, 3, 10), "open")}
    assert found(none, as_of=D(2026, 3, 11)) == {"maintenance_agreement": (D(2026, 3, 10), "overdue")}
    # no final plan approval yet: nothing to be before.
    assert found(practice(maintenance_agreement_recorded_on=D(2026, 3, 11))) == {}


# --------------------------------------------------------- one-year inspection


def test_one_year_inspection_after_a_feb_29_acceptance():
    # accepted Feb 29, 2024: one year later is Feb 28, 2025 (2025 has no Feb 29).
    accepted = practice(final_acceptance_on=D(2024, 2, 29))
    assert found(accepted, as_of=D(2025, 2, 28)) == {"one_year_inspection": (D(2025, 2, 28), "open")}
    assert found(accepted, as_of=D(2025, 3, 1)) == {"one_year_inspection": (D(2025, 2, 28), "overdue")}
    on_time = accepted.model_copy(update={"one_year_inspection_on": D(2025, 2, 28)})
    assert found(on_time, as_of=D(2025, 3, 1)) == {}
    late = accepted.model_copy(update={"one_year_inspection_on": D(2025, 3, 1)})
    assert found(late, as_of=D(2025, 3, 2)) == {"one_year_inspection": (D(2025, 2, 28), "late")}


def test_one_year_after_an_ordinary_day():
    # accepted Jun 15, 2025 -> due Jun 15, 2026; nothing by Jun 30: overdue.
    assert found(practice(final_acceptance_on=D(2025, 6, 15))) == {
        "one_year_inspection": (D(2026, 6, 15), "overdue")
    }


# ------------------------------------------------------------ guarantee release

ACCEPTED = practice(final_acceptance_on=D(2025, 6, 1), one_year_inspection_on=D(2026, 5, 15))


def guarantee(p, as_of=D(2026, 12, 31)):
    return found(p, as_of=as_of).get("guarantee_release")


def test_guarantee_released_before_the_year():
    # accepted Jun 1, 2025: not before Jun 1, 2026. Inspected May 15, 2026,
    # released May 31, 2026: too early; earliest = later of Jun 1 and May 15 = Jun 1.
    assert guarantee(ACCEPTED.model_copy(update={"guarantee_released_on": D(2026, 5, 31)})) == (
        D(2026, 6, 1),
        "overdue",
    )
    # released Jun 1, 2026 (the year is up, the inspection made): no finding.
    assert guarantee(ACCEPTED.model_copy(update={"guarantee_released_on": D(2026, 6, 1)})) is None


def test_guarantee_released_before_the_inspection():
    # inspected Jun 20, 2026, released Jun 10: before the inspection; earliest = Jun 20.
    p = ACCEPTED.model_copy(
        update={"one_year_inspection_on": D(2026, 6, 20), "guarantee_released_on": D(2026, 6, 10)}
    )
    assert guarantee(p) == (D(2026, 6, 20), "overdue")
    # released the day of the inspection: in time.
    assert guarantee(p.model_copy(update={"guarantee_released_on": D(2026, 6, 20)})) is None


def test_guarantee_released_with_no_inspection():
    # no inspection at all: a finding whatever the day; earliest = Jun 1, 2026.
    p = ACCEPTED.model_copy(update={"one_year_inspection_on": None, "guarantee_released_on": D(2026, 9, 1)})
    assert guarantee(p) == (D(2026, 6, 1), "overdue")
    # an inspection dated after --as-of has not been made yet.
    later = ACCEPTED.model_copy(
        update={"one_year_inspection_on": D(2026, 10, 1), "guarantee_released_on": D(2026, 9, 1)}
    )
    assert guarantee(later, as_of=D(2026, 9, 15)) == (D(2026, 6, 1), "overdue")
    # no final acceptance on record: no earliest day, no finding here.
    assert guarantee(practice(guarantee_released_on=D(2026, 9, 1))) is None


def test_guarantee_and_leap_day():
    # accepted Feb 29, 2024, inspected and released Feb 28, 2025: the year is up.
    p = practice(
        final_acceptance_on=D(2024, 2, 29),
        one_year_inspection_on=D(2025, 2, 28),
        guarantee_released_on=D(2025, 2, 28),
    )
    assert found(p, as_of=D(2025, 6, 1)) == {}
    # released Feb 27, 2025: one day early.
    early = p.model_copy(update={"guarantee_released_on": D(2025, 2, 27)})
    assert found(early, as_of=D(2025, 6, 1)) == {"guarantee_release": (D(2025, 2, 28), "overdue")}


# ------------------------------------------------------------- jurisdictions


def test_each_finding_cites_its_own_section():
    p = practice(
        final_plan_approved_on=D(2026, 1, 5),
        final_acceptance_on=D(2025, 1, 5),
        guarantee_released_on=D(2025, 6, 1),
    )
    wood = {f.finding: f.rule for f in smp_findings(p, D(2026, 1, 1), "woodbury", TERMS, D(2026, 6, 30))}
    bell = {f.finding: f.rule for f in smp_findings(p, D(2026, 1, 1), "Bellport", TERMS, D(2026, 6, 30))}
    assert set(wood) == set(bell) == set(FINDINGS)
    assert wood["as_built"].startswith("Woodbury Code ch. 267, stormwater management practice inspections")
    assert wood["maintenance_agreement"].startswith("Woodbury Code ch. 267, maintenance agreements")
    assert wood["one_year_inspection"].startswith("Woodbury Code ch. 267, performance guarantee A")
    assert wood["guarantee_release"].startswith("Woodbury Code ch. 267, performance guarantee A")
    assert bell["as_built"].startswith(
        "Bellport Code ch. 21 stormwater article, inspections of stormwater management"
    )
    assert bell["maintenance_agreement"].startswith(
        "Bellport Code ch. 21 stormwater article, maintenance after construction (d)"
    )
    assert bell["one_year_inspection"].startswith(
        "Bellport Code ch. 21 stormwater article, construction completion guarantee"
    )
    assert bell["guarantee_release"].startswith(
        "Bellport Code ch. 21 stormwater article, construction completion guarantee"
    )
    for text in [*wood.values(), *bell.values()]:
        assert "contract" not in text.lower() and text.endswith(".")


def test_a_finding_the_rules_do_not_require_is_never_made():
    off = TERMS["bellport"].model_copy(
        update={
            "findings": TERMS["bellport"].findings.model_copy(
                update={
                    "one_year_inspection": TERMS["bellport"].findings.one_year_inspection.model_copy(
                        update={"required": False}
                    )
                }
            )
        }
    )
    p = practice(final_acceptance_on=D(2025, 1, 5))
    assert smp_findings(p, None, "bellport", {**TERMS, "bellport": off}, D(2026, 6, 30)) == []
    assert [f.finding for f in smp_findings(p, None, "bellport", TERMS, D(2026, 6, 30))] == [
        "one_year_inspection"
    ]


def test_unknown_jurisdiction_is_refused():
    with pytest.raises(ValueError, match="jurisdiction 'springfield'"):
        smp_findings(practice(), None, "springfield", TERMS, D(2026, 6, 30))


# ---------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(day=st.dates(min_value=D(1990, 1, 1), max_value=D(2090, 12, 31)))
def test_one_year_later_is_the_same_day_or_feb_28(day):
    later = add_years(day, 1, "feb_28")
    assert later.year == day.year + 1
    assert (later - day).days in (365, 366)
    if (day.month, day.day) == (2, 29):
        assert (later.month, later.day) == (2, 28)
    else:
        assert (later.month, later.day) == (day.month, day.day)
    assert add_years(day, 1, "mar_1") >= later


opt_dates = st.none() | st.dates(min_value=D(2020, 1, 1), max_value=D(2028, 12, 31))


@settings(max_examples=300, deadline=None)
@given(
    fs=opt_dates,
    received=opt_dates,
    certified=st.none() | st.booleans(),
    approved=opt_dates,
    recorded=opt_dates,
    accepted=opt_dates,
    inspected=opt_dates,
    released=opt_dates,
    as_of=st.dates(min_value=D(2020, 1, 1), max_value=D(2028, 12, 31)),
)
def test_findings_use_only_the_status_words_and_never_speak_of_the_future(
    fs, received, certified, approved, recorded, accepted, inspected, released, as_of
):
    p = practice(
        as_built_received_on=received,
        as_built_pe_certified=certified,
        final_plan_approved_on=approved,
        maintenance_agreement_recorded_on=recorded,
        final_acceptance_on=accepted,
        one_year_inspection_on=inspected,
        guarantee_released_on=released,
    )
    rows = smp_findings(p, fs, "woodbury", TERMS, as_of)
    for f in rows:
        assert f.status in ("late", "open", "overdue")
        assert f.status != "open" or f.due >= as_of
        assert f.status != "overdue" or f.due < as_of or f.finding == "guarantee_release"
    # the met rows, when asked for, are the only extra rows
    with_met = smp_findings(p, fs, "woodbury", TERMS, as_of, include_met=True)
    assert [f for f in with_met if f.status != "met"] == rows
