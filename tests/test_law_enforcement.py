"""Pure enforcement arithmetic (outfall/law/enforcement.py) at the law's boundaries:
66% vs 65%, 33% vs 32%, exactly 1.4x, 45 vs 46 days late, pH in chronic but never
in TRC, 30 days to correct vs 31, a 5-day slug report across a weekend."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from outfall.law import enforcement as law, surcharges as sur
from outfall.rules import load_rules

D = dt.date
RULES = load_rules("woodbury")
DAY = D(2026, 6, 30)  # the law of 2026, each section in its version in effect that day
SNC = RULES.snc.at(DAY)
NOTICES = RULES.notices


def ev(sample_id, value, limit=240.0, limit_type="max", nondetect=False, outcome=None):
    if outcome is None:
        if nondetect:
            outcome = "compliant" if value <= limit else "inconclusive"
        elif limit_type == "max":
            outcome = "violation" if value > limit else "compliant"
        else:
            outcome = "violation" if value < limit else "compliant"
    return law.Evaluation(sample_id, limit_type, limit, value, nondetect, outcome)


def samples_of(values, limit=240.0):
    return {f"S{i}": [ev(f"S{i}", v, limit)] for i, v in enumerate(values)}


# ------------------------------------------------------------ calendar days


def test_add_days_counts_weekends_and_add_months_clamps():
    assert law.add_days(D(2026, 6, 4), 5) == D(2026, 6, 9)  # Thursday -> Tuesday
    assert law.add_months(D(2026, 8, 31), 6) == D(2027, 2, 28)
    assert law.add_months(D(2027, 8, 31), 6) == D(2028, 2, 29)
    assert law.add_months(D(2026, 1, 15), -1) == D(2025, 12, 15)


def test_half_year_periods():
    months = SNC.period_months
    assert law.half_year(D(2026, 1, 1), months) == (D(2026, 1, 1), D(2026, 6, 30))
    assert law.half_year(D(2026, 6, 30), months) == (D(2026, 1, 1), D(2026, 6, 30))
    assert law.half_year(D(2026, 7, 1), months) == (D(2026, 7, 1), D(2026, 12, 31))
    assert law.publication_year_periods(2026, months) == [
        (D(2026, 1, 1), D(2026, 6, 30)),
        (D(2026, 7, 1), D(2026, 12, 31)),
    ]
    with pytest.raises(ValueError):
        law.half_year(D(2026, 1, 1), 5)


def test_month_minutes_follow_daylight_saving():
    assert law.month_minutes(D(2026, 6, 1), "America/New_York") == 30 * 1440
    assert law.month_minutes(D(2026, 3, 1), "America/New_York") == 31 * 1440 - 60  # spring forward
    assert law.month_minutes(D(2026, 11, 1), "America/New_York") == 30 * 1440 + 60  # fall back


def test_deadline_status_met_late_open_overdue():
    due = D(2026, 6, 10)
    assert law.deadline_status(due, D(2026, 6, 10), D(2026, 7, 1)) == "met"
    assert law.deadline_status(due, D(2026, 6, 11), D(2026, 7, 1)) == "late"
    assert law.deadline_status(due, None, D(2026, 6, 10)) == "open"  # the due day is not over
    assert law.deadline_status(due, None, D(2026, 6, 11)) == "overdue"
    # a satisfaction dated after --as-of has not happened yet
    assert law.deadline_status(due, D(2026, 6, 12), D(2026, 6, 11)) == "overdue"
    assert law.days_late(due, D(2026, 6, 13), D(2026, 7, 1)) == 3
    assert law.days_late(due, None, D(2026, 6, 20)) == 10
    assert law.days_late(due, D(2026, 6, 1), D(2026, 7, 1)) is None


def test_slug_report_five_days_across_a_weekend():
    days = NOTICES.slug_report.at(DAY).days
    assert days == 5
    thursday = D(2026, 6, 4)
    d = law.deadline(thursday, days, D(2026, 6, 9), D(2026, 6, 30))  # Tuesday: 5 calendar days
    assert (d.due, d.status) == (D(2026, 6, 9), "met")
    assert law.deadline(thursday, days, D(2026, 6, 10), D(2026, 6, 30)).status == "late"
    friday = D(2026, 6, 5)
    assert law.deadline(friday, days, None, D(2026, 6, 10)).status == "open"  # due Wednesday 10
    assert law.deadline(friday, days, None, D(2026, 6, 11)).status == "overdue"


def test_24_hour_notice_is_the_next_day():
    assert law.hours_as_days(NOTICES.self_monitoring.at(DAY).notice_hours) == 1
    assert law.hours_as_days(48) == 2 and law.hours_as_days(25) == 2
    d = law.deadline(D(2026, 3, 2), 1, D(2026, 3, 3), D(2026, 6, 30))
    assert d.status == "met"
    assert law.deadline(D(2026, 3, 2), 1, D(2026, 3, 4), D(2026, 6, 30)).status == "late"


def test_first_on_or_after():
    assert law.first_on_or_after(D(2026, 3, 2), [D(2026, 3, 1), D(2026, 3, 5), None, D(2026, 3, 3)]) == D(
        2026, 3, 3
    )
    assert law.first_on_or_after(D(2026, 3, 2), [D(2026, 3, 1)]) is None


def test_only_the_users_own_samples_call_for_its_duties():
    # contract 7.1: lab_results.sampled_by user or town, blank = user (a lab's name no longer decides)
    assert law.is_users_own("user") and law.is_users_own(None) and law.is_users_own("")
    assert not law.is_users_own("town") and not law.is_users_own("Town")


# ------------------------------------------------ significant noncompliance


def test_pct_reached_is_exact():
    assert law.pct_reached(66, 100, 66) and not law.pct_reached(65, 100, 66)
    assert law.pct_reached(33, 100, 33) and not law.pct_reached(32, 100, 33)
    assert law.pct_reached(2, 3, 66)  # 66.67%
    assert not law.pct_reached(1, 3, 66)
    assert law.pct_reached(1, 3, 33)  # 33.33%
    assert law.pct_reached(33, 50, 66)  # exactly 66%
    assert not law.pct_reached(0, 0, 33)
    assert law.pct_reached(133, 200, "66.5") and not law.pct_reached(132, 200, "66.5")


def test_chronic_66_vs_65_percent():
    met = samples_of([250] * 66 + [200] * 34)
    assert [c.criterion for c in law.snc_criteria("BOD", met, SNC)] == ["chronic"]
    not_met = samples_of([250] * 65 + [200] * 35)
    assert law.snc_criteria("BOD", not_met, SNC) == []
    c = law.snc_criteria("BOD", met, SNC)[0]
    assert (c.measurements, c.count, c.pct) == (100, 66, 66.0)


def test_trc_33_vs_32_percent():
    # 336 = 240 x 1.4 reaches TRC (and is a violation); 250 is a violation below TRC.
    met = samples_of([336] * 33 + [100] * 67)
    assert [c.criterion for c in law.snc_criteria("BOD", met, SNC)] == ["trc"]
    assert law.snc_criteria("BOD", samples_of([336] * 32 + [100] * 68), SNC) == []
    both = law.snc_criteria("BOD", samples_of([336] * 33 + [250] * 33 + [100] * 34), SNC)
    assert [(c.criterion, c.count) for c in both] == [("chronic", 66), ("trc", 33)]


def test_trc_exactly_1_4_times_the_limit():
    f = law.trc_factor("BOD", SNC)
    assert (
        f == Decimal("1.4")
        and law.trc_factor("TSS", SNC) == Decimal("1.4")
        and law.trc_factor("fog", SNC) == Decimal("1.4")
    )
    assert law.trc_factor("COD", SNC) == Decimal("1.2") and law.trc_factor("copper", SNC) == Decimal("1.2")
    assert law.trc_reached(336, 240, f)
    assert not law.trc_reached(335.99, 240, f)
    # 350 x 1.4 is 489.99999999999994 in floating point; the law's product is 490.
    assert 350 * 1.4 < 490
    assert law.trc_reached(490, 350, f)
    assert not law.trc_reached(489.999, 350, f)
    assert law.trc_reached(720, 600, law.trc_factor("COD", SNC))
    assert not law.trc_reached(719.99, 600, law.trc_factor("COD", SNC))
    # a value converted from ug/L carries float noise: 240010 ug/L / 1000
    assert law.exact(240010 / 1000) == Decimal("240.010000000")


def test_trc_never_counts_nondetects_or_minimum_limits():
    nd = {"S1": [ev("S1", 400, nondetect=True)]}  # <400 against 240: inconclusive, not TRC
    assert law.snc_counts("BOD", nd, SNC) == (1, 0, 0)
    low = {"S1": [ev("S1", 1.0, limit=5.5, limit_type="min")]}
    assert law.sample_reaches_trc("COD", low["S1"], SNC) is False


def test_ph_counts_as_chronic_but_never_trc():
    # pH has a minimum and a maximum: one measurement per sample; either breaks it.
    samples = {
        "P1": [ev("P1", 4.0, 5.5, "min"), ev("P1", 4.0, 9.5, "max")],  # breaks the minimum
        "P2": [ev("P2", 12.0, 5.5, "min"), ev("P2", 12.0, 9.5, "max")],  # 12 >= 9.5 x 1.2 but pH is not TRC
        "P3": [ev("P3", 7.0, 5.5, "min"), ev("P3", 7.0, 9.5, "max")],
    }
    measurements, breaking, trc = law.snc_counts("pH", samples, SNC)
    assert (measurements, breaking, trc) == (3, 2, None)
    assert [c.criterion for c in law.snc_criteria("pH", samples, SNC)] == ["chronic"]
    assert law.trc_excluded("ph", SNC)


def test_nondetects_and_inconclusive_are_measurements_that_do_not_exceed():
    samples = {
        "S1": [ev("S1", 250)],
        "S2": [ev("S2", 5, nondetect=True)],
        "S3": [ev("S3", 300, nondetect=True)],
    }
    assert law.snc_counts("BOD", samples, SNC) == (3, 1, 0)
    assert law.snc_criteria("BOD", samples, SNC) == []  # 1 of 3 = 33%: not chronic


def test_late_report_45_vs_46_days():
    due = D(2026, 1, 15)
    late_days = SNC.late_report_days
    assert not law.report_is_late_for_snc(due, law.add_days(due, 45), D(2026, 12, 31), late_days)
    assert law.report_is_late_for_snc(due, law.add_days(due, 46), D(2026, 12, 31), late_days)
    # not received: judged by the days from the due date to --as-of
    assert not law.report_is_late_for_snc(due, None, law.add_days(due, 45), late_days)
    assert law.report_is_late_for_snc(due, None, law.add_days(due, 46), late_days)
    # received after --as-of counts as not received yet
    assert not law.report_is_late_for_snc(due, law.add_days(due, 60), law.add_days(due, 40), late_days)
    c = law.late_report_criterion(
        [(due, law.add_days(due, 46)), (D(2026, 4, 15), D(2026, 4, 1))], D(2026, 12, 31), late_days
    )
    assert (c.criterion, c.measurements, c.count, c.pct) == ("late_report", 2, 1, 50.0)
    assert law.late_report_criterion([(due, law.add_days(due, 45))], D(2026, 12, 31), late_days) is None


# ------------------------------------------------------- notices of violation


def test_correction_period_from_rules_never_over_the_maximum():
    shipped = NOTICES.sewer_correction.at(DAY)
    assert law.correction_period_days(shipped) == 30
    assert law.correction_period_days(shipped.model_copy(update={"days": 10})) == 10
    with pytest.raises(ValueError):
        law.correction_period_days(shipped.model_copy(update={"days": 31}))


def test_corrected_within_30_days_vs_31():
    issued = D(2026, 3, 2)
    correct_by = law.add_days(issued, 30)
    assert correct_by == D(2026, 4, 1)
    on_30 = law.LaterResult("S2", law.add_days(issued, 30), "compliant", 200.0)
    fu = law.follow_up(correct_by, on_30, on_30.collected_date, D(2026, 6, 30))
    assert (fu.status, fu.corrected_in_time) == ("corrected", True)
    on_31 = law.LaterResult("S2", law.add_days(issued, 31), "compliant", 200.0)
    fu = law.follow_up(correct_by, on_31, on_31.collected_date, D(2026, 6, 30))
    assert (fu.status, fu.corrected_in_time) == ("corrected_late", False)


def test_follow_up_not_corrected_pending_overdue():
    correct_by = D(2026, 4, 1)
    again = law.LaterResult("S2", D(2026, 3, 10), "violation", 300.0)
    assert law.follow_up(correct_by, again, None, D(2026, 6, 30)).status == "not_corrected"
    assert law.follow_up(correct_by, None, None, D(2026, 4, 1)).status == "pending"
    fu = law.follow_up(correct_by, None, None, D(2026, 4, 2))
    assert (fu.status, fu.corrected_in_time) == ("overdue", False)
    # a result after --as-of is not seen
    later = law.LaterResult("S2", D(2026, 3, 20), "compliant", 100.0)
    assert law.follow_up(correct_by, later, later.collected_date, D(2026, 3, 15)).status == "pending"


def test_violation_days_and_penalty():
    correct_by = D(2026, 4, 1)
    assert law.violation_days(correct_by, D(2026, 3, 20), D(2026, 6, 30)) == 1
    assert law.violation_days(correct_by, D(2026, 4, 2), D(2026, 6, 30)) == 1  # corrected the next day
    assert law.violation_days(correct_by, D(2026, 4, 5), D(2026, 6, 30)) == 4  # Apr 2, 3, 4 continued
    assert law.violation_days(correct_by, None, D(2026, 4, 11)) == 11  # Apr 2..11
    assert law.violation_days(correct_by, None, D(2026, 3, 15)) == 1
    pen = RULES.penalties.sewer_use.at(DAY)
    assert law.max_penalty(1, pen.fine_max_usd, pen.civil_max_usd) == Decimal("500")
    assert law.max_penalty(11, 250, 250) == Decimal("5500")


# ------------------------------------------------------------- surcharges


def test_surcharge_pounds_and_amount():
    lbs = RULES.surcharge.method.at(DAY).lbs_per_mg_per_mgl
    # 1.5 MG x 8.34 x (340 - 240) = 1251 lb; x $0.35 = $437.85
    pounds = sur.surcharge_pounds(1.5, 340, 240, lbs)
    assert pounds == pytest.approx(1251.0)
    assert RULES.surcharge.rates.at(DAY) == ()  # no Town Board rate adopted
    assert sur.surcharge_amount(pounds, "0.35") == Decimal("437.85")  # a test rate
    assert sur.surcharge_pounds(1.5, 200, 240, lbs) == 0.0  # negatives count as zero
    assert sur.surcharge_amount(0.0, 0.35) == Decimal("0.00")
    assert sur.surcharge_pounds(None, 340, 240, lbs) is None
    assert sur.cents(Decimal("0.125")) == Decimal("0.13")


def test_flow_volume_and_time_weighted_mean():
    t0 = dt.datetime(2026, 6, 1, tzinfo=dt.UTC)
    readings = [(t0, 10.0), (t0 + dt.timedelta(minutes=15), 20.0), (t0 + dt.timedelta(minutes=45), 20.0)]
    # trapezoids: 15 min at 15 gpm, 30 min at 20 gpm -> 825 / 45
    assert sur.time_weighted_mean(readings) == pytest.approx(825 / 45)
    assert sur.time_weighted_mean([(t0, 7.0)]) == 7.0
    assert sur.time_weighted_mean([]) is None
    assert sur.meter_volume_mg(100.0, 30 * 1440) == pytest.approx(4.32)
    assert sur.permit_volume_mg(14400, 30) == pytest.approx(0.432)


def test_month_concentration_prefers_composites_and_halves_nondetects():
    conc, used = sur.month_concentration(
        [
            ("composite", 300.0, False, "half_dl"),
            ("grab", 900.0, False, "half_dl"),
            ("composite", 20.0, True, "half_dl"),
        ]
    )
    assert used == [0, 2] and conc == pytest.approx((300 + 10) / 2)
    conc, used = sur.month_concentration(
        [("grab", 300.0, False, "half_dl"), ("grab", 100.0, False, "half_dl")]
    )
    assert used == [0, 1] and conc == 200.0
    # each result by the policy of its own day; a non-detect no policy covers leaves the month unjudged
    conc, _ = sur.month_concentration([("composite", 20.0, True, "dl"), ("composite", 20.0, True, "zero")])
    assert conc == 10.0
    assert (
        sur.month_concentration([("composite", 300.0, False, None), ("composite", 20.0, True, None)])[0]
        is None
    )


# ----------------------------------------------------- grease interceptors


def test_pumpout_status():
    st = law.pumpout_status(D(2026, 1, 1), 90, [D(2026, 3, 1)], D(2026, 5, 30))
    assert (st.last_pumped_on, st.next_due, st.status) == (D(2026, 3, 1), D(2026, 5, 30), "current")
    st = law.pumpout_status(D(2026, 1, 1), 90, [D(2026, 3, 1)], D(2026, 5, 31))
    assert (st.status, st.days_overdue) == ("overdue", 1)
    # never pumped: due the interval after the frequency was set
    st = law.pumpout_status(D(2026, 1, 1), 30, [], D(2026, 2, 1))
    assert (st.next_due, st.status, st.days_overdue) == (D(2026, 1, 31), "overdue", 1)
    # a pump-out before the frequency was set does not start the interval
    st = law.pumpout_status(D(2026, 1, 1), 30, [D(2025, 6, 1)], D(2026, 1, 20))
    assert (st.next_due, st.status) == (D(2026, 1, 31), "current")
    # late pump-outs since the frequency was set: Feb 15 (> Jan 31) is late, Mar 10 is not
    st = law.pumpout_status(D(2026, 1, 1), 30, [D(2026, 2, 15), D(2026, 3, 10)], D(2026, 3, 20))
    assert st.late_pumpouts == 1
    with pytest.raises(ValueError):
        law.pumpout_status(D(2026, 1, 1), 0, [], D(2026, 1, 2))


# ------------------------------------------------ GCL § 25-a on ch. 253's periods (contract 7.4)


def _accidental_end():
    from outfall.law.calendar import calendar_from_rules, extended_due

    calendar = calendar_from_rules(RULES.business_days)
    return lambda day: extended_due(
        day, "obligations.accidental_statement", calendar, RULES.deadline_extension
    )[0]


@pytest.mark.parametrize(
    "notified, ends, why",
    [
        (D(2026, 11, 20), D(2026, 12, 7), "the 15th day is Saturday December 5: Monday December 7"),
        (D(2026, 9, 27), D(2026, 10, 13), "the 15th day is Columbus Day, Monday October 12: Tuesday"),
        (D(2026, 5, 2), D(2026, 5, 18), "the 15th day is Sunday May 17: Monday May 18"),
        (D(2026, 9, 2), D(2026, 9, 17), "the 15th day is Thursday September 17: not moved"),
    ],
)
def test_the_15_day_written_statement_ends_on_the_next_business_day(notified, ends, why):
    days = NOTICES.accidental_statement.at(notified).days
    d = law.deadline(notified, days, None, notified, _accidental_end())
    assert d.due == ends, why
    # received on that day: in time; the day after: late by one
    assert law.deadline(notified, days, ends, ends, _accidental_end()).status == "met"
    late = law.deadline(
        notified, days, ends + dt.timedelta(days=1), ends + dt.timedelta(days=1), _accidental_end()
    )
    assert (late.status, late.days_late) == ("late", 1)
    # judged on that day it is still open; the next day, overdue
    assert law.deadline(notified, days, None, ends, _accidental_end()).status == "open"
    assert (
        law.deadline(notified, days, None, ends + dt.timedelta(days=1), _accidental_end()).status == "overdue"
    )
