"""The stormwater (SWPPP) law as pure functions, at every boundary the law draws.

Numbers come from the real rules files, each part in its version in effect on
the day it applies to; where a test needs a changed reading it copies the typed
rules with that one reading replaced.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from outfall.law import swppp as law
from outfall.letters import render_letter
from outfall.rules import Versions, load_rules
from tests.conftest import REPO

W = load_rules("woodbury")
B = load_rules("bellport")
NY = ZoneInfo("America/New_York")
D = dt.date


def day(n: int, base: dt.date = D(2026, 5, 1)) -> dt.date:
    return base + dt.timedelta(days=n)


ON = D(2026, 5, 1)  # the day the fixtures' sites start: the rules in effect then


def with_reading(rules, name, value):
    """The rules with the named reading replaced by one version (a test's) in effect from 2000."""
    old = getattr(rules.readings, name)[0]
    version = type(old)(value=value, citation="test", effective_from=D(2000, 1, 1))
    readings = rules.readings.model_copy(update={name: Versions([version])})
    return rules.model_copy(update={"readings": readings})


# --------------------------------------------------------------------------
# classification


def facts(acres, **flags):
    return law.SiteFacts(
        acres,
        flags.get("impaired", False),
        flags.get("sf", False),
        flags.get("ag", False),
        flags.get("exempt", False),
    )


@pytest.mark.parametrize("acres, required", [(0.99, False), (1.0, True), (4.9, True), (5.0, True)])
def test_woodbury_every_site_of_one_acre_or_more(acres, required):
    c = law.classify_site(facts(acres), W, ON)
    assert c.inspections_required is required
    assert c.land_development_activity is required
    assert c.reports_to_officer_weekly is required
    # the inspector as ch. 267 names it (maintenance during construction (2))
    assert (c.inspector == "the applicant or developer or their representative") is required
    assert "ch. 267" in c.rule and "ch. 185" in c.rule


def test_woodbury_single_family_and_agricultural_still_need_inspections():
    # The contract: in Woodbury every site with disturbed_acres >= 1 needs them;
    # the Condition C exclusions only change which Conditions are met.
    for flags in ({"sf": True}, {"ag": True}):
        c = law.classify_site(facts(2.0, **flags), W, ON)
        assert c.inspections_required and not c.condition_c


@pytest.mark.parametrize(
    "acres, sf, ag, impaired, conditions, required",
    [
        (4.9, False, False, False, "C", True),
        (5.0, False, False, False, "B", True),  # B from 5.0; C is below 5
        (4.9, True, False, False, "", False),  # single-family: excluded from C
        (4.9, False, True, False, "", False),  # agricultural: excluded from C
        (5.0, True, False, False, "B", True),  # B has no exclusion
        (0.99, False, False, False, "", False),  # below one acre: C starts at 1
        (1.0, False, False, False, "C", True),
        (0.99, False, False, True, "A", True),  # A: the impaired_water flag, whatever the acreage
        (2.0, True, False, True, "A", True),
    ],
)
def test_bellport_conditions(acres, sf, ag, impaired, conditions, required):
    c = law.classify_site(facts(acres, sf=sf, ag=ag, impaired=impaired), B, ON)
    assert c.conditions == conditions
    assert c.inspections_required is required
    assert c.inspector == ("a qualified professional" if required else None)
    assert c.reports_to_officer_weekly is False
    assert "Bellport Code" in c.rule


def test_bellport_condition_c_exclusion_is_explained():
    c = law.classify_site(facts(2.0, sf=True), B, ON)
    assert "Condition C excludes single-family" in c.reason and "no inspections" in c.reason


def test_exempt_site_needs_no_inspections_in_either_place():
    for rules in (W, B):
        c = law.classify_site(facts(10.0, exempt=True), rules, ON)
        assert c.exempt and not c.inspections_required and c.inspector is None
        assert "exempt" in c.rule.lower()


def test_condition_a_reading_can_require_a_land_development_activity():
    raw = with_reading(B, "swppp_condition_a_is_impaired_water_flag", False)
    assert not law.classify_site(facts(0.5, impaired=True), raw, ON).inspections_required
    assert law.classify_site(facts(1.0, impaired=True), raw, ON).condition_a


# --------------------------------------------------------------------------
# weekly inspections

START = D(2026, 5, 1)
AS_OF = D(2026, 6, 30)


def test_weekly_exactly_seven_days_is_in_time_eight_is_late():
    assert law.weekly_findings(START, None, [day(7), day(14), day(21)], day(22), W) == []
    (late,) = law.weekly_findings(START, None, [day(8), day(15)], day(16), W)
    assert (late.trigger_date, late.due_by, late.satisfied_on, late.status, late.days_late) == (
        START,
        day(7),
        day(8),
        "late",
        1,
    )


def test_weekly_chain_runs_from_the_previous_inspection():
    found = law.weekly_findings(START, None, [day(3), day(11), day(19)], day(20), W)
    # 3 -> due 10, made 11 (late); 11 -> due 18, made 19 (late)
    assert [(f.trigger_date, f.due_by, f.satisfied_on) for f in found] == [
        (day(3), day(10), day(11)),
        (day(11), day(18), day(19)),
    ]


def test_weekly_overdue_only_once_due_by_is_before_as_of():
    assert law.weekly_findings(START, None, [], day(7), W) == []  # due today: not yet
    (f,) = law.weekly_findings(START, None, [], day(8), W)
    assert (f.status, f.satisfied_on, f.due_by, f.days_late) == ("overdue", None, day(7), 1)


def test_weekly_inspection_on_the_start_day_does_not_move_the_first_due_date():
    (f,) = law.weekly_findings(START, None, [START], day(8), W)
    assert (f.trigger_date, f.due_by, f.status) == (START, day(7), "overdue")


def test_weekly_ignores_inspections_before_start_and_after_as_of():
    (f,) = law.weekly_findings(START, None, [day(-2), day(12)], day(10), W)
    assert f.status == "overdue" and f.due_by == day(7)


def test_weekly_every_kind_counts_and_duplicates_do_not_matter():
    assert law.weekly_findings(START, None, [day(5), day(5), day(12)], day(13), W) == []


def test_site_stabilized_before_a_due_date_has_no_finding():
    assert law.weekly_findings(START, day(6), [], AS_OF, W) == []
    # stabilized on the due date itself: the requirement stands
    (f,) = law.weekly_findings(START, day(7), [], AS_OF, W)
    assert f.status == "overdue" and f.days_late == 0  # the violation ends with the active period


def test_weekly_late_inspection_after_stabilization_still_satisfies():
    (f,) = law.weekly_findings(START, day(9), [day(12)], AS_OF, W)
    assert (f.status, f.satisfied_on, f.days_late) == ("late", day(12), 5)


def test_weekly_requirements_end_with_the_next_one_due():
    reqs = law.weekly_requirements(START, None, [day(7)], day(10), W)
    assert [r.status for r in reqs] == ["met", "pending"] and reqs[-1].due_by == day(14)
    reqs = law.weekly_requirements(START, day(10), [day(7)], AS_OF, W)
    assert reqs[-1].status == "after_stabilization"


# --------------------------------------------------------------------------
# storm inspections


def test_storm_threshold_049_vs_050():
    assert law.storm_findings(START, None, [], {day(2): 0.49}, AS_OF, W) == []
    (f,) = law.storm_findings(START, None, [], {day(2): 0.50}, AS_OF, W)
    assert (f.requirement, f.trigger_date, f.due_by, f.status, f.precip_in) == (
        "storm",
        day(2),
        day(3),
        "overdue",
        0.5,
    )


# A code that counts a storm only above its amount ("greater than one-half inch": 1355.09(h) of the example
# village), and states no other part of the section.
C = load_rules("chagrin_falls", REPO / "examples" / "towns" / "chagrin_falls" / "rules")


def test_storm_threshold_more_than_050_where_the_law_says_greater():
    assert C.swppp.storm_inspection.at(ON).counts == "more_than"
    assert law.storm_findings(START, None, [], {day(2): 0.50}, AS_OF, C) == []
    assert (
        law.storm_findings(START, None, [], {day(2): 12.7 / 25.4}, AS_OF, C) == []
    )  # 12.7 mm, no float noise
    (f,) = law.storm_findings(START, None, [], {day(2): 0.51}, AS_OF, C)
    assert (f.trigger_date, f.due_by, f.status) == (day(2), day(3), "overdue")
    assert law.is_storm(0.5, W, ON) and not law.is_storm(0.5, C, ON)  # the default counts at least


def test_storm_words_say_more_than_where_the_law_does():
    assert law.finding_labels(C, ON)["storm"] == (
        "Inspection within 24 hours of a storm event of more than 0.5 inch"
    )
    assert (
        law.finding_labels(W, ON)["storm"]
        == "Inspection within 24 hours of a storm event of 0.5 inch or more"
    )
    v = law.Violation("S", "storm", day(2), day(3), "overdue", None, 5, "r", precip_in=0.6)
    record = law.SiteRecord("S", "chagrin_falls", "Site", "1 Main St", None, START)
    assert "a storm event producing more than 0.5 inch of precipitation." in law._nature(v, record, AS_OF, C)
    assert "a storm event producing 0.5 inch of precipitation or more." in law._nature(v, record, AS_OF, W)


def test_a_part_the_code_does_not_state_is_not_judged():
    assert law.disturbance_finding(40, START, None, [], AS_OF, C) is None
    assert law.sediment_findings([(day(7), 90.0), (day(14), 90.0)], START, AS_OF, C) == []
    assert law.certification_finding("X", None, day(1), None, AS_OF, C) is None
    assert set(law.finding_labels(C, ON)) == {"weekly", "storm"}
    assert C.swppp.not_stated() == [
        "land_development_activity",
        "disturbance_limit",
        "sediment_cleanout",
        "milestone_notice",
        "milestones",
        "contractor_certification",
        "appeal",
        "notice_of_violation",
        "convictions",
        "stop_work_order",
    ]


@pytest.mark.parametrize("acres, required", [(0.99, False), (1.0, True)])
def test_a_code_without_land_development_activity_classifies_by_acres(acres, required):
    c = law.classify_site(facts(acres), C, ON)
    assert c.inspections_required is required and c.land_development_activity is False
    assert "land development" not in c.reason and "1355.05(a)" in c.rule


def test_stormwater_notices_are_stated_only_with_their_parts():
    assert W.stormwater_notices_stated() and B.stormwater_notices_stated()
    assert W.stormwater_notices_reason() == ""
    assert not C.stormwater_notices_stated()
    assert C.stormwater_notices_missing() == [
        "swppp.notice_of_violation",
        "swppp.appeal",
        "swppp.convictions",
        "swppp.section_text",
        "penalties.stormwater",
    ]
    reason = C.stormwater_notices_reason()
    assert reason.startswith("not drafted:") and "the penalty" in reason and "swppp." not in reason


def test_storm_inspection_on_d_or_d_plus_1_in_time_d_plus_2_late():
    rain = {day(2): 0.8}
    assert law.storm_findings(START, None, [day(2)], rain, AS_OF, W) == []
    assert law.storm_findings(START, None, [day(3)], rain, AS_OF, W) == []
    (f,) = law.storm_findings(START, None, [day(4)], rain, AS_OF, W)
    assert (f.status, f.satisfied_on, f.days_late) == ("late", day(4), 1)


def test_storm_inspection_before_the_storm_does_not_count():
    (f,) = law.storm_findings(START, None, [day(1), day(9)], {day(2): 1.0}, AS_OF, W)
    assert f.satisfied_on == day(9) and f.status == "late"


def test_storm_overdue_only_after_due_by():
    rain = {day(2): 0.6}
    assert law.storm_findings(START, None, [], rain, day(3), W) == []  # due today
    (f,) = law.storm_findings(START, None, [], rain, day(4), W)
    assert f.status == "overdue" and f.days_late == 1


def test_storm_sub_daily_rows_are_summed_to_the_day():
    rows = [(day(2), 0.25), (day(2), 0.25), (day(5), 0.3), (day(6), 0.3)]
    (f,) = law.storm_findings(START, None, [], rows, AS_OF, W)
    assert f.trigger_date == day(2) and f.precip_in == 0.5
    assert law.daily_totals([(day(1), None), (day(1), float("nan")), (day(1), 0.1)]) == {day(1): 0.1}


def test_storm_millimetre_conversion_at_the_threshold():
    assert law.is_storm(12.7 / 25.4, W, ON) and not law.is_storm(12.6 / 25.4, W, ON)


def test_storm_only_on_active_days():
    rain = {day(-1): 2.0, day(2): 2.0, day(20): 2.0}
    # before start, and after final stabilization, rain needs no inspection
    found = law.storm_findings(START, day(10), [], rain, AS_OF, W)
    assert [f.trigger_date for f in found] == [day(2)]


def test_storm_on_the_stabilization_day_is_not_a_finding():
    reqs = law.storm_requirements(START, day(10), [], {day(10): 1.0}, AS_OF, W)
    assert [r.status for r in reqs] == ["after_stabilization"]
    assert law.storm_findings(START, day(10), [], {day(10): 1.0}, AS_OF, W) == []


def test_woodbury_and_bellport_same_inspection_arithmetic():
    dates, rain = [day(9), day(20)], {day(4): 0.7, day(15): 0.5}
    assert law.weekly_findings(START, None, dates, AS_OF, W) == law.weekly_findings(
        START, None, dates, AS_OF, B
    )
    assert law.storm_findings(START, None, dates, rain, AS_OF, W) == law.storm_findings(
        START, None, dates, rain, AS_OF, B
    )


def test_upcoming_lists_next_weekly_and_storms_due_within_24_hours():
    as_of = day(10)
    rain = {day(8): 0.9, day(9): 0.6, day(10): 0.5}
    ups = law.upcoming_inspections(START, None, [day(6), day(8)], rain, as_of, W)
    # storm of day 8 was met by the inspection on day 8; day 9 due today, day 10 due tomorrow
    assert [(u.requirement, u.trigger_date, u.due_by) for u in ups] == [
        ("weekly", day(8), day(15)),
        ("storm", day(9), day(10)),
        ("storm", day(10), day(11)),
    ]


# --------------------------------------------------------------------------
# other findings


def test_disturbance_five_acres_is_allowed_more_is_not():
    assert law.disturbance_finding(5.0, START, None, [], AS_OF, W) is None
    f = law.disturbance_finding(5.01, START, None, [], AS_OF, W)
    assert (f.finding, f.status, f.trigger_date, f.due_by) == (
        "disturbance_over_limit",
        "overdue",
        START,
        START,
    )


def test_disturbance_with_an_approved_swppp():
    assert law.disturbance_finding(8.0, START, None, [(8.0, START)], AS_OF, W) is None
    late = law.disturbance_finding(8.0, START, None, [(10.0, day(5))], AS_OF, W)
    assert (late.status, late.satisfied_on, late.days_late) == ("late", day(5), 5)
    small = law.disturbance_finding(8.0, START, None, [(6.0, day(-10))], AS_OF, W)
    assert small.status == "overdue" and "allows 6 acres" in small.detail
    future = law.disturbance_finding(8.0, START, None, [(9.0, AS_OF + dt.timedelta(days=1))], AS_OF, W)
    assert future.status == "overdue"


def test_sediment_boundaries():
    r = lambda *pcts: [(day(7 * i), p) for i, p in enumerate(pcts)]  # noqa: E731
    assert law.sediment_findings(r(49.99, 50.0), START, AS_OF, W) == []
    assert law.sediment_findings(r(50.0, 49.9), START, AS_OF, W) == []
    (f,) = law.sediment_findings(r(50.0, 50.0), START, AS_OF, W)
    assert (f.trigger_date, f.due_by, f.status, f.satisfied_on) == (day(0), day(7), "overdue", None)
    (f,) = law.sediment_findings(r(60, 55, 70, 20, 10), START, AS_OF, W)
    assert (f.trigger_date, f.due_by, f.status, f.satisfied_on, f.days_late) == (
        day(0),
        day(7),
        "late",
        day(21),
        14,
    )
    found = law.sediment_findings(r(60, 60, 10, 80, 90), START, AS_OF, W)
    assert [(x.trigger_date, x.status) for x in found] == [(day(0), "late"), (day(21), "overdue")]


def test_sediment_next_inspection_with_a_reading_and_the_days_last_reading():
    rows = [(day(0), 55.0), (day(3), None), (day(7), 52.0)]
    assert len(law.sediment_findings(rows, START, AS_OF, W)) == 1
    strict = with_reading(W, "swppp_sediment_next_inspection_with_reading", False)
    assert law.sediment_findings(rows, START, AS_OF, strict) == []
    cleaned_same_day = [(day(0), 55.0), (day(7), 60.0), (day(7), 5.0)]
    assert law.sediment_findings(cleaned_same_day, START, AS_OF, W) == []


def at(y, m, d, hh=0, mm=0):
    return dt.datetime(y, m, d, hh, mm, tzinfo=NY)


def test_milestone_notice_48_hours():
    occurs = D(2026, 5, 20)
    assert law.milestone_notice_finding("rough_grading_completed", occurs, at(2026, 5, 18), AS_OF, W) is None
    f = law.milestone_notice_finding("rough_grading_completed", occurs, at(2026, 5, 18, 0, 1), AS_OF, W)
    assert (f.status, f.trigger_date, f.due_by, f.satisfied_on, f.subject) == (
        "late",
        occurs,
        D(2026, 5, 18),
        D(2026, 5, 18),
        "rough_grading_completed",
    )
    none = law.milestone_notice_finding("rough_grading_completed", occurs, None, AS_OF, W)
    assert none.status == "overdue" and "no notice" in none.detail


def test_milestone_48_real_hours_across_the_spring_forward_night():
    # 2026-03-10 00:00 EDT minus 48 h = 2026-03-07 23:00 EST (clocks sprang forward on 8 March)
    occurs = D(2026, 3, 10)
    assert (
        law.milestone_notice_finding("start_of_construction", occurs, at(2026, 3, 7, 23, 0), AS_OF, W) is None
    )
    assert (
        law.milestone_notice_finding("start_of_construction", occurs, at(2026, 3, 8, 0, 0), AS_OF, W).status
        == "late"
    )


def test_milestone_time_given_and_future_milestones():
    occurs_at = dt.datetime(2026, 5, 20, 14, 0, tzinfo=NY)
    assert (
        law.milestone_notice_finding(
            "x", D(2026, 5, 20), at(2026, 5, 18, 13, 0), AS_OF, W, occurs_at=occurs_at
        )
        is None
    )
    assert law.milestone_notice_finding("x", AS_OF + dt.timedelta(days=1), None, AS_OF, W) is None
    # a notice dated after --as-of is not yet known: treated as not given
    f = law.milestone_notice_finding("x", D(2026, 6, 1), at(2026, 7, 5), AS_OF, W)
    assert f.status == "overdue"


def test_contractor_certification():
    assert law.certification_finding("Dig Co", day(0), day(0), None, AS_OF, W) is None  # same day
    assert law.certification_finding("Dig Co", day(-3), day(0), None, AS_OF, W) is None
    late = law.certification_finding("Dig Co", day(1), day(0), None, AS_OF, W)
    assert (late.status, late.satisfied_on, late.days_late, late.subject) == ("late", day(1), 1, "Dig Co")
    assert law.certification_finding("Dig Co", None, day(0), None, AS_OF, W).status == "overdue"
    assert law.certification_finding("Dig Co", None, AS_OF + dt.timedelta(days=1), None, AS_OF, W) is None
    strict = with_reading(W, "swppp_certification_same_day_counts_as_before", False)
    assert law.certification_finding("Dig Co", day(0), day(0), None, AS_OF, strict).status == "late"


def test_report_delivery_within_the_week_woodbury_only():
    reports = [day(7), day(14), day(21)]
    deliveries = {day(7): [day(14)], day(14): [day(22)]}
    found = law.report_delivery_findings(reports, deliveries, START, None, day(30), W)
    assert [(f.trigger_date, f.status, f.satisfied_on) for f in found] == [
        (day(14), "late", day(22)),
        (day(21), "overdue", None),
    ]
    assert law.report_delivery_findings(reports, {}, START, None, day(30), B) == []


def test_each_recorded_inspection_awaits_its_report_until_its_week_passes():
    # contract 8.5: the duty a recorded inspection creates (its report, to the officer within 7 days) is
    # named while it is open; once its day passes undelivered it is a finding of report_delivery_findings
    reports = [day(7), day(14), day(21), day(23), day(31)]
    deliveries = {day(7): [day(14)], day(21): [day(31)]}
    # judged on May 28: the 14th's report is due the 21st (passed: a finding), the 21st's is due the 28th
    # (today: still awaited), the 23rd's the 30th; the 31st has not happened yet
    assert law.reports_awaited(reports, deliveries, START, None, day(28), W) == [
        (day(21), day(28)),
        (day(23), day(30)),
    ]
    assert [
        f.trigger_date for f in law.report_delivery_findings(reports, deliveries, START, None, day(28), W)
    ] == [day(14)]
    # delivered on the day judged: no longer awaited; a delivery after it does not count yet
    assert law.reports_awaited([day(21)], {day(21): [day(28)]}, START, None, day(28), W) == []
    assert law.reports_awaited([day(21)], {day(21): [day(29)]}, START, None, day(28), W) == [
        (day(21), day(28))
    ]
    # Bellport's rules ask for no delivery: nothing awaited
    assert law.reports_awaited(reports, {}, START, None, day(28), B) == []


# --------------------------------------------------------------------------
# penalties


@pytest.mark.parametrize(
    "rules, prior, offense, lo, hi",
    [
        (W, 0, 1, "250.00", "500.00"),
        (W, 1, 2, "500.00", "1000.00"),
        (W, 2, 3, "1000.00", "5000.00"),
        (W, 7, 8, "1000.00", "5000.00"),
        (B, 0, 1, "0.00", "350.00"),
        (B, 1, 2, "350.00", "700.00"),
        (B, 2, 3, "700.00", "1000.00"),
        (B, 4, 5, "700.00", "1000.00"),
    ],
)
def test_penalty_tiers_by_prior_convictions(rules, prior, offense, lo, hi):
    tier = law.penalty_tier(prior, rules, ON)
    assert (tier["offense"], tier["min_usd"], tier["max_usd"]) == (offense, Decimal(lo), Decimal(hi))


def test_prior_convictions_within_five_years():
    v = D(2026, 6, 1)
    assert law.count_prior_convictions([D(2021, 6, 1)], v, W) == 1  # the day five years before counts
    assert law.count_prior_convictions([D(2021, 5, 31)], v, W) == 0
    assert law.count_prior_convictions([v, D(2026, 7, 1)], v, W) == 0  # not before the violation
    exclusive = with_reading(W, "swppp_conviction_lookback_includes_first_day", False)
    assert law.count_prior_convictions([D(2021, 6, 1)], v, exclusive) == 0
    assert law.years_before(D(2028, 2, 29), 5) == D(2023, 2, 28)


@pytest.mark.parametrize(
    "days, per, periods",
    [
        (0, "day", 1),
        (1, "day", 1),
        (10, "day", 10),
        (1, "week", 1),
        (7, "week", 1),
        (8, "week", 2),
        (14, "week", 2),
        (15, "week", 3),
    ],
)
def test_each_day_or_week_a_separate_violation(days, per, periods):
    assert law.violation_periods(days, per) == periods


def test_same_facts_woodbury_vs_bellport_penalty():
    w, b = law.assess_penalty(1, 10, W, ON), law.assess_penalty(1, 10, B, ON)
    assert (w.per, w.periods, w.total_min_usd, w.total_max_usd) == (
        "day",
        10,
        Decimal("5000.00"),
        Decimal("10000.00"),
    )
    assert (b.per, b.periods, b.total_min_usd, b.total_max_usd) == (
        "week",
        2,
        Decimal("700.00"),
        Decimal("1400.00"),
    )
    assert w.imprisonment_max_months == b.imprisonment_max_months == 6


# --------------------------------------------------------------------------
# notices and stop-work orders


def site(jurisdiction="woodbury", applicant="Builder Co", address="5 Oak Rd", owner="Oak Ridge Land LLC"):
    owner_address = "12 Main St, Central Valley, NY 10917" if owner else None
    return law.SiteRecord(
        "S-1", jurisdiction, "Oak Ridge", address, applicant, START, None, "G1", owner, owner_address
    )


def violation(status="overdue", finding="weekly", satisfied=None):
    return law.Violation(
        "S-1",
        finding,
        day(8),
        day(15),
        status,
        satisfied,
        (satisfied - day(15)).days if satisfied else 20,
        "rule text",
    )


def test_notice_has_the_six_contents():
    n = law.build_notice(violation(), site(), "the applicant", 0, AS_OF, W)
    for key in (
        "recipient_name",
        "recipient_address",
        "site_description",
        "nature_of_violation",
        "remedial_measures",
        "penalty_statement",
        "appeal_statement",
    ):
        assert n[key], key
    assert n["contents_complete"] and n["missing_contents"] is None
    # to the landowner (contract 7.4), not the applicant
    assert (n["recipient_name"], n["recipient_address"]) == (
        "Oak Ridge Land LLC",
        "12 Main St, Central Valley, NY 10917",
    )
    # no time schedule of the rules' own (contract 7.2): the monthly notice's, once mailed
    assert n["remedial_due_by"] is None
    # the remedial measures of the finding's kind, in the chapter's words with its section
    assert n["remedial_measures"].startswith("The applicant or developer or their representative shall")
    assert "(Woodbury Code ch. 267, maintenance during construction (2))" in n["remedial_measures"]
    assert "justice court" in n["appeal_statement"] and "15 days" in n["appeal_statement"]
    # the schedule stated whole, fine and imprisonment; no amount (only a mailed notice accrues one)
    assert "Each day's continued violation" in n["penalty_statement"]
    assert "imprisonment for a period not to exceed 6 months, or both" in n["penalty_statement"]
    assert "20 days" not in n["penalty_statement"] and "fines of up to" not in n["penalty_statement"]
    assert n["violation_on"] == day(16)
    assert n["notice_id"].startswith("NOV-W-S-1-WK-20260509-")


def test_bellport_notice_appeals_to_the_municipality_per_week():
    n = law.build_notice(violation(), site("bellport"), "a qualified professional", 2, AS_OF, B)
    assert "Village of Bellport" in n["appeal_statement"]
    assert "Each week's continued violation" in n["penalty_statement"]
    assert (n["offense_number"], n["fine_min_usd"], n["fine_max_usd"], n["violation_periods"]) == (
        3,
        Decimal("700.00"),
        Decimal("1000.00"),
        3,
    )


def test_notice_without_landowner_or_address_is_not_ready():
    n = law.build_notice(violation(), site(owner=None, address=""), None, 0, AS_OF, W)
    assert not n["contents_complete"]
    assert n["missing_contents"] == "name of the landowner; address of the landowner; address of the site"


def test_corrected_violation_needs_no_remedial_date():
    n = law.build_notice(violation("late", satisfied=day(18)), site(), "x", 0, AS_OF, W)
    assert n["remedial_due_by"] is None and "corrected on May 19, 2026" in n["remedial_measures"]


def test_stop_work_only_for_the_kinds_the_rules_name_on_active_sites():
    # whether an order may rest on a violation (a mailed notice, its last day to correct passed, still
    # uncorrected) is the order's day's question: tests/test_stop_work_orders.py
    assert law.stop_work_warranted(violation(), True, W, AS_OF)
    assert not law.stop_work_warranted(violation(), False, W, AS_OF)
    assert not law.stop_work_warranted(violation(finding="milestone_notice_late"), True, B, AS_OF)


# --------------------------------------------------------------------------
# letters


# (the letter engine itself: tests/test_letters.py)


def test_notice_template_renders_every_placeholder():
    from assets.notices import _stormwater_context
    from outfall.law.notices import Item

    due = day(12)
    items = [
        Item(
            "stormwater",
            "S-1",
            "inspection",
            "weekly 2026-05-12",
            "Woodbury Code ch. 267",
            due,
            due,
            None,
            (("requirement", "weekly"), ("trigger_date", day(5)), ("due_by", due)),
            "weekly",
        ),
        Item(
            "stormwater",
            "S-1",
            "other",
            "milestone_notice_late",
            "Woodbury Code ch. 267",
            due,
            due,
            None,
            (
                ("finding", "milestone_notice_late"),
                ("subject", "rough_grading"),
                ("trigger_date", day(5)),
                ("due_by", due),
            ),
            "",
        ),
    ]
    n = {"recipient_id": "S-1", "site_name": "Oak <i>Ridge</i>", "premises": "5 Oak"}
    ctx = {
        **_stormwater_context(n, items, W, AS_OF),
        "notice_id": "NOV-ST-S-1-2026-05",
        "period_words": "May 2026",
        "draft": False,
        "issued_on": AS_OF,
        "correction_days": 10,
        "certified_mail_no": "7001",
        "violation_count": 2,
        "violation_counts": ["2 violations of Woodbury Code ch. 267"],
        "copy_to": [],
        "recipient_name": "A <b>bold</b> applicant",
        "recipient_address_block": ["5 Oak"],
        "period_end_rule": "N.Y. General Construction Law § 25-a",
    }
    html_text = render_letter("stormwater_notice.html", ctx, jurisdiction="woodbury", area="stormwater")
    assert "{{" not in html_text and "A &lt;b&gt;bold&lt;/b&gt; applicant" in html_text
    assert "Oak &lt;i&gt;Ridge&lt;/i&gt;" in html_text and "rough grading" in html_text
    assert "@page" in html_text  # the shared print style is included


# ------------------------------------------------ "within five years" counts offenses (contract 7.4)


@pytest.mark.parametrize(
    "offense_on, counts",
    [
        (D(2021, 6, 2), True),  # 4 years 364 days before the new violation
        (D(2021, 6, 1), True),  # the same calendar day five years earlier (the rules' reading)
        (D(2021, 5, 31), False),  # 5 years 1 day before
        (D(2026, 5, 31), True),  # the day before
        (D(2026, 6, 1), False),  # the same day: not a prior offense
    ],
)
def test_prior_offenses_count_by_the_day_they_were_committed(offense_on, counts):
    violation_on = D(2026, 6, 1)
    assert law.count_prior_convictions([offense_on], violation_on, W) == int(counts)
    assert law.count_prior_convictions([offense_on], violation_on, B) == int(counts)


@pytest.mark.parametrize(
    "finding, says, section",
    [
        ("contractor_not_certified", "sign and date the certification statement", "contractor certification"),
        ("disturbance_over_limit", "Not more than five acres shall be disturbed", "SWPPP contents (4)"),
        (
            "sediment_not_removed",
            "design capacity has been reduced by 50%",
            "maintenance during construction (1)",
        ),
        ("report_not_delivered", "delivered to the Stormwater Management Officer weekly", "(2)"),
    ],
)
def test_a_non_inspection_finding_gets_its_own_remedial_measures(finding, says, section):
    """Contract 7.4: the remedial measures of each kind of finding, from the rules' text with its citation;
    never the inspection sentence for a finding that is not a missed inspection."""
    n = law.build_notice(violation(finding=finding), site(), "the applicant", 0, AS_OF, W)
    assert says in n["remedial_measures"] and section in n["remedial_measures"]
    assert "inspect and document" not in n["remedial_measures"]
