"""Woodbury Code ch. 185 deadlines and charges, worked by hand.

Weekdays used: Jan 26, 2024 is a Friday; Jan 29, 2024 a Monday; 2024 is a leap
year (Feb 29). May 22, 2026 Fri, May 25 Mon (Memorial Day); Jul 2, 2026 Thu,
Jul 4 Sat (Independence Day); Nov 2, 2026 Mon, Nov 3 Tue (Election Day);
Jun 17, 2022 Fri, Jun 19 Sun (Juneteenth), Jun 20 Mon (observed).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings, strategies as st
from pydantic import ValidationError

from outfall.law.calendar import calendar_from_rules
from outfall.law.illicit import (
    OBLIGATIONS,
    IllicitCase,
    IllicitPayment,
    accrued_interest,
    case_penalty_days,
    case_problem,
    cents,
    illicit_charges,
    illicit_deadlines,
    illicit_terms_on,
    installment_split,
    penalty_days,
)
from outfall.rules import load_rules

RULES = load_rules("woodbury")
D = dt.date
M = Decimal
CAL = calendar_from_rules(RULES.business_days)
EXT = RULES.deadline_extension  # General Construction Law § 25-a
TERMS = illicit_terms_on(RULES.illicit_discharges, D(2024, 1, 26))


def case(**kw) -> IllicitCase:
    kw.setdefault("case_id", "C1")
    kw.setdefault("premises", "12 Main St")
    return IllicitCase(**kw)


def by_obligation(rows):
    return {r.obligation: r for r in rows}


def test_the_rules_carry_the_law_numbers():
    # notification of spills: next business day / 3 business days; appeal: 15 + 15 days;
    # after an appeal 15 days; cost of abatement 30 days, 10 days, 12 payments, 18% from the
    # 30th day; criminal prosecution: $350 per day.
    t = TERMS
    assert (t.notify_business_days, t.confirmation_business_days) == (1, 3)
    assert (t.appeal_days, t.hearing_days, t.abatement_after_decision_days) == (15, 15, 15)
    assert (t.cost_notice_days, t.protest_days) == (30, 10)
    assert (t.installments, t.interest_rate, t.interest_day_count, t.interest_start_days) == (
        12,
        M("0.18"),
        365,
        30,
    )
    assert t.penalty_per_day_usd == M("350")
    with pytest.raises(ValueError, match="No rule for illicit discharges"):
        illicit_terms_on(RULES.illicit_discharges, D(2006, 12, 31))


# ---------------------------------------------------------------- deadlines

FULL = case(
    discovered_on=D(2024, 1, 26),
    hazardous=False,
    notified_on=D(2024, 1, 29),
    written_confirmation_on=D(2024, 2, 2),
    nov_on=D(2024, 2, 5),
    abatement_due=D(2024, 3, 1),
    appeal_received_on=D(2024, 2, 16),
    appeal_decided_on=D(2024, 3, 4),
    abated_on=D(2024, 3, 25),
    abated_by="town",
    abatement_cost_usd=M("1000.00"),
    cost_notice_on=D(2024, 4, 24),
    protest_received_on=D(2024, 5, 6),
)


def test_every_deadline_of_a_full_case():
    rows = illicit_deadlines(FULL, TERMS, CAL, D(2024, 6, 1), EXT)
    assert [r.obligation for r in rows] == list(OBLIGATIONS)
    got = {r.obligation: (r.due, r.satisfied_on, r.status) for r in rows}
    # notify: next business day after Fri Jan 26 = Mon Jan 29; told Jan 29: met.
    assert got["notify_town"] == (D(2024, 1, 29), D(2024, 1, 29), "met")
    # confirmation: 3 business days after Mon Jan 29 = Tue 30, Wed 31, Thu Feb 1;
    # mailed Fri Feb 2: late.
    assert got["written_confirmation"] == (D(2024, 2, 1), D(2024, 2, 2), "late")
    # appeal: Feb 5 + 15 = Feb 20; received Feb 16: met.
    assert got["appeal"] == (D(2024, 2, 20), D(2024, 2, 16), "met")
    # hearing: Feb 16 + 15 = Mar 2 (leap year: Feb 16 + 13 = Feb 29, + 2 = Mar 2);
    # decided Mar 4: late.
    assert got["appeal_hearing"] == (D(2024, 3, 2), D(2024, 3, 4), "late")
    # abatement after the appeal: Mar 4 + 15 = Mar 19 (the notice's Mar 1 no
    # longer governs); abated Mar 25: late.
    assert got["abatement"] == (D(2024, 3, 19), D(2024, 3, 25), "late")
    # cost notice: Mar 25 + 30 = Apr 24 (Mar 25 + 6 = Mar 31, + 24 = Apr 24); sent Apr 24: met.
    assert got["cost_notice"] == (D(2024, 4, 24), D(2024, 4, 24), "met")
    # protest: Apr 24 + 10 = Saturday May 4, so under GCL § 25-a Monday May 6; received May 6: met.
    assert got["protest"] == (D(2024, 5, 6), D(2024, 5, 6), "met")


def test_rules_cite_chapter_185_by_its_paragraphs_in_words():
    rows = by_obligation(illicit_deadlines(FULL, TERMS, CAL, D(2024, 6, 1), EXT))
    assert rows["notify_town"].rule.startswith("Woodbury Code ch. 185, notification of spills: a release")
    assert rows["written_confirmation"].rule.startswith(
        "Woodbury Code ch. 185, notification of spills: a notice"
    )
    assert rows["appeal"].rule.startswith("Woodbury Code ch. 185, appeal of a notice of violation: a notice")
    assert rows["appeal_hearing"].rule.startswith(
        "Woodbury Code ch. 185, appeal of a notice of violation: the hearing"
    )
    assert rows["abatement"].rule.startswith("Woodbury Code ch. 185, enforcement measures after an appeal")
    assert rows["cost_notice"].rule.startswith(
        "Woodbury Code ch. 185, cost of abatement of the violation: the owner must"
    )
    assert rows["protest"].rule.startswith(
        "Woodbury Code ch. 185, cost of abatement of the violation: the owner may"
    )
    for r in rows.values():
        assert "contract" not in r.rule.lower() and r.rule.endswith(".")
    no_appeal = by_obligation(
        illicit_deadlines(
            case(discovered_on=D(2024, 1, 26), abatement_due=D(2024, 3, 1)), TERMS, CAL, D(2024, 6, 1), EXT
        )
    )
    assert no_appeal["abatement"].rule.startswith("Woodbury Code ch. 185, notice of violation:")


def test_notify_over_a_weekend_and_a_monday_holiday():
    # Discovered Fri May 22, 2026: Sat, Sun, Mon 25 Memorial Day -> due Tue May 26.
    c = case(discovered_on=D(2026, 5, 22), notified_on=D(2026, 5, 26), written_confirmation_on=D(2026, 5, 29))
    rows = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 6, 30), EXT))
    assert (rows["notify_town"].due, rows["notify_town"].status) == (D(2026, 5, 26), "met")
    # confirmation: 3 business days after Tue May 26 = Wed 27, Thu 28, Fri 29: met on the 29th.
    assert (rows["written_confirmation"].due, rows["written_confirmation"].status) == (D(2026, 5, 29), "met")


def test_notify_when_discovered_on_a_saturday():
    # Sat Jun 6, 2026 -> Sun 7 -> Mon Jun 8.
    rows = by_obligation(illicit_deadlines(case(discovered_on=D(2026, 6, 6)), TERMS, CAL, D(2026, 6, 8), EXT))
    assert (rows["notify_town"].due, rows["notify_town"].status) == (D(2026, 6, 8), "open")


def test_notify_before_a_saturday_holiday_is_due_friday():
    # Discovered Thu Jul 2, 2026: Fri Jul 3 is a business day (Jul 4 Sat is not moved).
    c = case(discovered_on=D(2026, 7, 2), notified_on=D(2026, 7, 6))
    rows = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 7, 31), EXT))
    assert (rows["notify_town"].due, rows["notify_town"].satisfied_on, rows["notify_town"].status) == (
        D(2026, 7, 3),
        D(2026, 7, 6),
        "late",
    )
    # confirmation after Mon Jul 6: Tue 7, Wed 8, Thu 9; none mailed by Jul 31: overdue.
    assert (rows["written_confirmation"].due, rows["written_confirmation"].status) == (
        D(2026, 7, 9),
        "overdue",
    )


def test_election_day_is_not_a_business_day():
    # Discovered Mon Nov 2, 2026: Tue Nov 3 is Election Day -> due Wed Nov 4.
    # Notified Mon Nov 2: confirmation Wed 4, Thu 5, Fri 6 -> due Fri Nov 6.
    c = case(discovered_on=D(2026, 11, 2), notified_on=D(2026, 11, 2))
    rows = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 11, 6), EXT))
    assert rows["notify_town"].due == D(2026, 11, 4)
    assert (rows["written_confirmation"].due, rows["written_confirmation"].status) == (D(2026, 11, 6), "open")


def test_sunday_holiday_observed_on_monday():
    # Discovered Fri Jun 17, 2022: Sat 18, Sun 19 Juneteenth, Mon 20 observed -> Tue Jun 21.
    rows = by_obligation(
        illicit_deadlines(case(discovered_on=D(2022, 6, 17)), TERMS, CAL, D(2022, 6, 22), EXT)
    )
    assert (rows["notify_town"].due, rows["notify_town"].status) == (D(2022, 6, 21), "overdue")


def test_open_on_the_due_day_overdue_the_day_after():
    c = case(discovered_on=D(2026, 5, 22))  # due Tue May 26, 2026
    assert illicit_deadlines(c, TERMS, CAL, D(2026, 5, 26), EXT)[0].status == "open"
    assert illicit_deadlines(c, TERMS, CAL, D(2026, 5, 27), EXT)[0].status == "overdue"


def test_an_event_after_as_of_has_not_happened_yet():
    # Notified May 28, 2026, judged on May 27: still unsatisfied (overdue), no
    # confirmation row yet (its trigger, the notice, is in the future).
    c = case(discovered_on=D(2026, 5, 22), notified_on=D(2026, 5, 28))
    rows = illicit_deadlines(c, TERMS, CAL, D(2026, 5, 27), EXT)
    assert [(r.obligation, r.satisfied_on, r.status) for r in rows] == [("notify_town", None, "overdue")]
    # discovered after --as-of: nothing at all
    assert illicit_deadlines(c, TERMS, CAL, D(2026, 5, 21), EXT) == []


def test_hazardous_release_has_no_notice_rows_and_blank_is_not_hazardous():
    hazardous = case(discovered_on=D(2026, 5, 22), hazardous=True, notified_on=D(2026, 5, 22))
    assert illicit_deadlines(hazardous, TERMS, CAL, D(2026, 6, 30), EXT) == []
    blank = case(discovered_on=D(2026, 5, 22), hazardous=None)
    assert [r.obligation for r in illicit_deadlines(blank, TERMS, CAL, D(2026, 6, 30), EXT)] == [
        "notify_town"
    ]


def test_appeal_rows_need_their_triggers():
    # NOV without an appeal: no appeal, no hearing row; a late appeal is late.
    c = case(discovered_on=D(2026, 1, 5), hazardous=True, nov_on=D(2026, 2, 2))
    assert illicit_deadlines(c, TERMS, CAL, D(2026, 6, 30), EXT) == []
    late = case(
        discovered_on=D(2026, 1, 5), hazardous=True, nov_on=D(2026, 2, 2), appeal_received_on=D(2026, 2, 18)
    )
    rows = by_obligation(illicit_deadlines(late, TERMS, CAL, D(2026, 6, 30), EXT))
    # Feb 2 + 15 = Feb 17; received Feb 18: late, so no appeal: no hearing is owed (contract 8.5).
    assert (rows["appeal"].due, rows["appeal"].status) == (D(2026, 2, 17), "late")
    assert "appeal_hearing" not in rows
    # received on its 15th day: in time, a hearing Feb 17 + 15 = Mar 4, none held: overdue
    timely = late.model_copy(update={"appeal_received_on": D(2026, 2, 17)})
    rows = by_obligation(illicit_deadlines(timely, TERMS, CAL, D(2026, 6, 30), EXT))
    assert (rows["appeal"].status, rows["appeal_hearing"].due) == ("met", D(2026, 3, 4))
    assert rows["appeal_hearing"].status == "overdue"
    rows = by_obligation(illicit_deadlines(late, TERMS, CAL, D(2026, 6, 30), EXT))
    # an appeal received after its 15 days suspends nothing (contract 7.4): no abatement is set in this
    # notice, so there is no abatement row (suspended or not)
    assert "abatement" not in rows


def test_abatement_set_in_the_notice_and_the_town_cost_notice():
    # No appeal: due = the notice's Jun 30; not abated on Jul 1: overdue.
    c = case(discovered_on=D(2026, 5, 4), hazardous=True, nov_on=D(2026, 6, 1), abatement_due=D(2026, 6, 30))
    rows = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 7, 1), EXT))
    assert (rows["abatement"].due, rows["abatement"].status) == (D(2026, 6, 30), "overdue")
    # Abated by the owner: no cost notice. By the Town with no date: none either.
    owner = c.model_copy(update={"abated_on": D(2026, 6, 30), "abated_by": "owner"})
    assert "cost_notice" not in by_obligation(illicit_deadlines(owner, TERMS, CAL, D(2026, 9, 1), EXT))
    undated = c.model_copy(update={"abated_by": "town"})
    assert "cost_notice" not in by_obligation(illicit_deadlines(undated, TERMS, CAL, D(2026, 9, 1), EXT))
    # By the Town on Jun 30: cost notice due Jun 30 + 30 = Jul 30, none sent: open on Jul 30.
    town = c.model_copy(update={"abated_on": D(2026, 6, 30), "abated_by": "town"})
    rows = by_obligation(illicit_deadlines(town, TERMS, CAL, D(2026, 7, 30), EXT))
    assert (rows["abatement"].status, rows["cost_notice"].due, rows["cost_notice"].status) == (
        "met",
        D(2026, 7, 30),
        "open",
    )
    # the notice set for a day after --as-of is not issued yet: no abatement row
    future_nov = c.model_copy(update={"nov_on": D(2026, 7, 2)})
    assert illicit_deadlines(future_nov, TERMS, CAL, D(2026, 7, 1), EXT) == []


# ------------------------------------- periods that end on a weekend or holiday (GCL § 25-a)
# June 2026: Fri 5, Sat 20, Sun 21, Mon 22, Tue 23; Jun 24 + 10 = Sat Jul 4 (Independence Day), Mon Jul 6;
# Dec 25, 2026 is a Friday (Christmas), Dec 28 the Monday. Jun 4, 2022 + 15 = Sun Jun 19, 2022 (Juneteenth),
# observed Mon Jun 20, so Tue Jun 21.


def test_an_appeal_due_on_a_saturday_and_received_on_the_monday_is_met():
    # Regression: notice of violation Friday June 5, 2026 + 15 days = Saturday June 20: the appeal may be
    # received on the next business day, Monday June 22.
    c = case(
        discovered_on=D(2026, 6, 1), hazardous=True, nov_on=D(2026, 6, 5), appeal_received_on=D(2026, 6, 22)
    )
    row = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 6, 30), EXT))["appeal"]
    assert (row.due, row.satisfied_on, row.status) == (D(2026, 6, 22), D(2026, 6, 22), "met")
    assert row.rule.startswith("Woodbury Code ch. 185, appeal of a notice of violation")
    assert (
        "Saturday, June 20, 2026, which is not a business day, so it ends on Monday, June 22, 2026"
        in row.rule
    )
    assert "General Construction Law § 25-a" in row.rule and row.rule.endswith(".")
    # the Tuesday is late; the Saturday itself is in time
    late = c.model_copy(update={"appeal_received_on": D(2026, 6, 23)})
    assert by_obligation(illicit_deadlines(late, TERMS, CAL, D(2026, 6, 30), EXT))["appeal"].status == "late"
    early = c.model_copy(update={"appeal_received_on": D(2026, 6, 20)})
    assert by_obligation(illicit_deadlines(early, TERMS, CAL, D(2026, 6, 30), EXT))["appeal"].status == "met"
    # without the rules of § 25-a (none given) the period ends on the Saturday, and Monday is late
    assert by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 6, 30), None))["appeal"].status == "late"


def test_an_appeal_due_on_a_business_day_is_not_moved_and_its_rule_says_nothing_more():
    c = case(
        discovered_on=D(2026, 6, 1), hazardous=True, nov_on=D(2026, 6, 3), appeal_received_on=D(2026, 6, 18)
    )
    row = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 6, 30), EXT))["appeal"]
    assert (row.due, row.status) == (D(2026, 6, 18), "met")  # Thursday
    assert "25-a" not in row.rule


def test_an_appeal_due_on_a_sunday_holiday_observed_on_monday_ends_on_tuesday():
    c = case(
        discovered_on=D(2022, 6, 1), hazardous=True, nov_on=D(2022, 6, 4), appeal_received_on=D(2022, 6, 21)
    )
    row = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2022, 7, 1), EXT))["appeal"]
    assert (row.due, row.status) == (D(2022, 6, 21), "met")


def test_an_abatement_deadline_on_christmas_friday_ends_on_the_monday():
    c = case(
        discovered_on=D(2026, 12, 1), hazardous=True, nov_on=D(2026, 12, 2), abatement_due=D(2026, 12, 25)
    )

    def rows(as_of, **kw):
        return by_obligation(illicit_deadlines(c.model_copy(update=kw), TERMS, CAL, as_of, EXT))

    assert (rows(D(2026, 12, 28))["abatement"].due, rows(D(2026, 12, 28))["abatement"].status) == (
        D(2026, 12, 28),
        "open",
    )
    assert rows(D(2026, 12, 29))["abatement"].status == "overdue"
    assert rows(D(2027, 1, 5), abated_on=D(2026, 12, 28))["abatement"].status == "met"
    assert rows(D(2027, 1, 5), abated_on=D(2026, 12, 29))["abatement"].status == "late"
    assert "Friday, December 25, 2026" in rows(D(2026, 12, 28))["abatement"].rule


def test_an_abatement_after_the_decision_that_ends_on_a_saturday_ends_on_monday():
    # decided Friday June 5, 2026 + 15 = Saturday June 20 -> Monday June 22.
    c = case(
        discovered_on=D(2026, 5, 1),
        hazardous=True,
        nov_on=D(2026, 5, 4),
        appeal_received_on=D(2026, 5, 15),
        appeal_decided_on=D(2026, 6, 5),
        appeal_outcome="upheld",
        abated_on=D(2026, 6, 22),
    )
    row = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 6, 30), EXT))["abatement"]
    assert (row.due, row.status) == (D(2026, 6, 22), "met")
    assert row.rule.startswith("Woodbury Code ch. 185, enforcement measures after an appeal")


def test_a_protest_due_on_a_saturday_holiday_ends_on_monday_and_the_towns_own_deadlines_stay():
    # abated by the Town Friday June 5, 2026: the cost notice is the Town's act, due June 5 + 30 = Sunday July
    # 5, not moved. Cost notice Wednesday June 24 + 10 = Saturday July 4 (Independence Day) -> Monday July 6.
    c = case(
        discovered_on=D(2026, 5, 1),
        hazardous=True,
        abated_on=D(2026, 6, 5),
        abated_by="town",
        cost_notice_on=D(2026, 6, 24),
        protest_received_on=D(2026, 7, 6),
    )
    rows = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 7, 31), EXT))
    assert (rows["cost_notice"].due, rows["cost_notice"].status) == (D(2026, 7, 5), "met")
    assert "25-a" not in rows["cost_notice"].rule
    assert (rows["protest"].due, rows["protest"].status) == (D(2026, 7, 6), "met")


def test_the_hearing_due_on_a_saturday_is_not_moved():
    # the Town's own act: received Friday June 5, 2026 + 15 = Saturday June 20; heard Monday June 22: late.
    c = case(
        discovered_on=D(2026, 5, 1),
        hazardous=True,
        nov_on=D(2026, 5, 25),
        appeal_received_on=D(2026, 6, 5),
        hearing_on=D(2026, 6, 22),
        appeal_decided_on=D(2026, 6, 26),
    )
    row = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 6, 30), EXT))["appeal_hearing"]
    assert (row.due, row.satisfied_on, row.status) == (D(2026, 6, 20), D(2026, 6, 22), "late")


# -------------------------------------------------------------------- appeals

APPEALED = case(
    discovered_on=D(2026, 6, 1),
    hazardous=True,
    nov_on=D(2026, 6, 3),
    abatement_due=D(2026, 6, 30),
    appeal_received_on=D(2026, 6, 10),
)


def test_the_hearing_is_met_by_the_hearing_day_or_else_by_the_decision():
    # received June 10 + 15 = June 25 (Thursday)
    heard = APPEALED.model_copy(update={"hearing_on": D(2026, 6, 24), "appeal_decided_on": D(2026, 7, 8)})
    row = by_obligation(illicit_deadlines(heard, TERMS, CAL, D(2026, 7, 31), EXT))["appeal_hearing"]
    assert (row.due, row.satisfied_on, row.status) == (D(2026, 6, 25), D(2026, 6, 24), "met")
    decided = APPEALED.model_copy(update={"appeal_decided_on": D(2026, 7, 8)})
    row = by_obligation(illicit_deadlines(decided, TERMS, CAL, D(2026, 7, 31), EXT))["appeal_hearing"]
    assert (row.satisfied_on, row.status) == (D(2026, 7, 8), "late")
    # a hearing held, no decision yet: the hearing is met, the appeal still pending
    pending = APPEALED.model_copy(update={"hearing_on": D(2026, 6, 24)})
    rows = by_obligation(illicit_deadlines(pending, TERMS, CAL, D(2026, 7, 31), EXT))
    assert rows["appeal_hearing"].status == "met" and rows["abatement"].status == "suspended"


def test_the_abatement_is_suspended_from_the_day_the_appeal_is_received_until_the_day_it_is_decided():
    def at(as_of, **kw):
        return by_obligation(illicit_deadlines(APPEALED.model_copy(update=kw), TERMS, CAL, as_of, EXT))

    # the day before the appeal is received: the notice's deadline, open
    assert (at(D(2026, 6, 9))["abatement"].due, at(D(2026, 6, 9))["abatement"].status) == (
        D(2026, 6, 30),
        "open",
    )
    # from the day it is received: suspended, with no due day, past the notice's deadline too
    for day in (D(2026, 6, 10), D(2026, 7, 31)):
        row = at(day)["abatement"]
        assert (row.due, row.satisfied_on, row.status) == (None, None, "suspended"), day
    # decided July 8 (upheld): from that day, due July 8 + 15 = July 23; a decision dated after --as-of
    # has not happened yet (and neither has its outcome)
    assert (
        at(D(2026, 7, 7), appeal_decided_on=D(2026, 7, 8), appeal_outcome="vacated")["abatement"].status
        == "suspended"
    )
    row = at(D(2026, 7, 8), appeal_decided_on=D(2026, 7, 8), appeal_outcome="upheld")["abatement"]
    assert (row.due, row.status) == (D(2026, 7, 23), "open")
    # an abatement made while the appeal is pending shows, the row stays suspended
    row = at(D(2026, 7, 1), abated_on=D(2026, 6, 20))["abatement"]
    assert (row.due, row.satisfied_on, row.status) == (None, D(2026, 6, 20), "suspended")


@pytest.mark.parametrize("outcome", ["upheld", "modified", None])
def test_an_appeal_upheld_modified_or_of_unknown_outcome_gives_15_days_from_the_decision(outcome):
    c = APPEALED.model_copy(update={"appeal_decided_on": D(2026, 7, 8), "appeal_outcome": outcome})
    row = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 7, 31), EXT))["abatement"]
    assert (row.due, row.status) == (D(2026, 7, 23), "overdue")


def test_a_vacated_appeal_ends_the_case():
    c = APPEALED.model_copy(update={"appeal_decided_on": D(2026, 7, 8), "appeal_outcome": "vacated"})
    rows = by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 7, 31), EXT))
    assert set(rows) == {"appeal", "appeal_hearing"}  # no abatement row
    # before the decision it was suspended
    assert (
        by_obligation(illicit_deadlines(c, TERMS, CAL, D(2026, 7, 7), EXT))["abatement"].status == "suspended"
    )


def test_an_outcome_without_the_day_of_the_decision_cannot_be_judged():
    assert case_problem(APPEALED) is None
    problem = case_problem(APPEALED.model_copy(update={"appeal_outcome": "vacated"}))
    assert "outcome (vacated) is given but not the day it was decided" in problem
    with pytest.raises(ValidationError):
        case(discovered_on=D(2026, 1, 1), appeal_outcome="dismissed")


def test_the_penalty_counts_every_day_an_appeal_is_pending():
    # Ch. 185 postpones the abatement during a timely appeal and says nothing of the penalty (contract
    # 8.5): discovered June 1, 2026, not abated, judged June 30: 30 days, appeal or none.
    def at(as_of, **kw):
        return case_penalty_days(case(discovered_on=D(2026, 6, 1), **kw), as_of)

    assert at(D(2026, 6, 30)) == 30
    # received June 10, decided (upheld) June 20: every day counts
    assert at(D(2026, 6, 30), appeal_received_on=D(2026, 6, 10), appeal_decided_on=D(2026, 6, 20)) == 30
    # pending on --as-of: every day through it counts
    assert at(D(2026, 6, 30), appeal_received_on=D(2026, 6, 10)) == 30
    assert at(D(2026, 6, 10), appeal_received_on=D(2026, 6, 10)) == 10
    # received on the day of discovery and still pending: every day
    assert at(D(2026, 6, 30), appeal_received_on=D(2026, 6, 1)) == 30
    # abated June 14 while pending: June 1 .. 14
    assert at(D(2026, 6, 30), appeal_received_on=D(2026, 6, 10), abated_on=D(2026, 6, 14)) == 14


def test_no_penalty_after_the_notice_once_the_appeal_vacates_it():
    base = dict(
        discovered_on=D(2026, 6, 1),
        nov_on=D(2026, 6, 5),
        appeal_received_on=D(2026, 6, 10),
        appeal_decided_on=D(2026, 6, 20),
    )
    # vacated: June 1 .. 5 (the notice's day counts), nothing after, abated or not
    assert case_penalty_days(case(**base, appeal_outcome="vacated"), D(2026, 6, 30)) == 5
    assert (
        case_penalty_days(case(**base, appeal_outcome="vacated", abated_on=D(2026, 6, 25)), D(2026, 6, 30))
        == 5
    )
    # upheld: June 1 .. 30, the days it was pending included
    assert case_penalty_days(case(**base, appeal_outcome="upheld"), D(2026, 6, 30)) == 30
    # vacated with no notice day on file: through the day before the appeal was received
    no_nov = {**base, "nov_on": None}
    assert case_penalty_days(case(**no_nov, appeal_outcome="vacated"), D(2026, 6, 30)) == 9
    # the charges use it: a vacated case with a cost of abatement, $350 x 5
    c = case(**base, appeal_outcome="vacated", abatement_cost_usd=M("100"))
    assert illicit_charges(c, [], TERMS, D(2026, 6, 30)).max_penalty_usd == M("1750.00")


def test_a_bad_case_is_refused():
    with pytest.raises(ValidationError):
        case(discovered_on=D(2026, 1, 1), abated_by="neighbour")
    with pytest.raises(ValidationError):
        case(discovered_on=D(2026, 1, 1), abatement_cost_usd=M("-5"))
    with pytest.raises(ValidationError):
        IllicitPayment(case_id="C1", paid_on=D(2026, 1, 1), amount_usd=M("-1"))


# ------------------------------------------------------------------ charges


def pay(day, amount, case_id="C1"):
    return IllicitPayment(case_id=case_id, paid_on=day, amount_usd=M(amount))


def test_charges_with_a_leap_day_and_a_partial_payment():
    # Principal $1,000.00: 1000 / 12 = 83.333... -> 83.33; last = 1000 - 11 x 83.33
    # = 1000 - 916.63 = 83.37.
    # interest_from = Jan 26 + 30 days = Feb 25, 2024.
    # $400 paid Mar 10: $1,000 unpaid Feb 25..Mar 10 = 5 days of February (25,
    # 26, 27, 28, 29) + 10 of March = 15 days; $600 unpaid Mar 11..31 = 21 days.
    # interest = (15 x 1000 + 21 x 600) x 0.18 / 365 = 27,600 x 0.18 / 365
    #          = 4,968 / 365 = 13.6109... -> $13.61.
    # balance = 1000 + 13.61 - 400 = $613.61.
    # penalty: Jan 26..Mar 25 both counted = 6 (Jan) + 29 (Feb) + 25 (Mar) = 60
    # days, less the appeal's pending days, received Feb 16 through Mar 3 (decided
    # Mar 4) = 14 (Feb 16..29) + 3 = 17: 43 days x $350 = $15,050.00.
    got = illicit_charges(
        FULL, [pay(D(2024, 3, 10), "400.00"), pay(D(2024, 3, 1), "999", "OTHER")], TERMS, D(2024, 3, 31)
    )
    assert (got.principal_usd, got.installments, got.installment_usd, got.last_installment_usd) == (
        M("1000.00"),
        12,
        M("83.33"),
        M("83.37"),
    )
    assert got.interest_from == D(2024, 2, 25)
    assert got.interest_usd == M("13.61")
    assert (got.paid_usd, got.balance_usd) == (M("400.00"), M("613.61"))
    assert (got.penalty_days, got.max_penalty_usd) == (60, M("21000.00"))
    assert (
        got.rule.startswith("Woodbury Code ch. 185, liability for the violation")
        and "criminal prosecution" in got.rule
    )


def test_the_leap_day_is_one_more_day_of_interest():
    # Same dates a year earlier (2023, no Feb 29): discovered Jan 26, 2023,
    # interest from Feb 25; Feb 25..Mar 10 = 4 + 10 = 14 days at $1,000, then
    # 21 days at $600: (14,000 + 12,600) x 0.18 / 365 = 4,788 / 365 = 13.1178 -> $13.12.
    c = FULL.model_copy(update={"discovered_on": D(2023, 1, 26), "abated_on": D(2023, 3, 25)})
    got = illicit_charges(c, [pay(D(2023, 3, 10), "400.00")], TERMS, D(2023, 3, 31))
    assert (got.interest_from, got.interest_usd) == (D(2023, 2, 25), M("13.12"))


def test_a_payment_on_as_of_counts_for_the_balance_not_yet_for_interest():
    # As above plus $100 on Mar 31 (= --as-of): interest still $13.61,
    # balance = 1000 + 13.61 - 500 = $513.61.
    got = illicit_charges(
        FULL, [pay(D(2024, 3, 10), "400.00"), pay(D(2024, 3, 31), "100.00")], TERMS, D(2024, 3, 31)
    )
    assert (got.interest_usd, got.paid_usd, got.balance_usd) == (M("13.61"), M("500.00"), M("513.61"))
    # the next day it stops interest on $100 for Apr 1: 13.6109... + (500 x 0.18 / 365
    # = 0.2465...) = (4,968 + 90) / 365 = 5,058 / 365 = 13.8575 -> $13.86; a payment
    # dated after --as-of counts for nothing yet.
    nxt = illicit_charges(
        FULL,
        [pay(D(2024, 3, 10), "400.00"), pay(D(2024, 3, 31), "100.00"), pay(D(2024, 4, 2), "50.00")],
        TERMS,
        D(2024, 4, 1),
    )
    assert (nxt.interest_usd, nxt.paid_usd, nxt.balance_usd) == (M("13.86"), M("500.00"), M("513.86"))


def test_no_interest_before_interest_from_and_one_day_on_it():
    c = case(discovered_on=D(2025, 1, 1), abatement_cost_usd=M("1000"))
    # interest_from = Jan 1 + 30 = Jan 31, 2025.
    before = illicit_charges(c, [], TERMS, D(2025, 1, 30))
    assert (before.interest_from, before.interest_usd, before.balance_usd) == (
        D(2025, 1, 31),
        M("0.00"),
        M("1000.00"),
    )
    # on Jan 31 itself: one day, 1000 x 0.18 / 365 = 0.4931... -> $0.49.
    assert illicit_charges(c, [], TERMS, D(2025, 1, 31)).interest_usd == M("0.49")
    # three days: 3 x 0.49315... = 1.4794... -> $1.48 (rounded once, not 3 x 0.49 = 1.47).
    assert illicit_charges(c, [], TERMS, D(2025, 2, 2)).interest_usd == M("1.48")


def test_interest_rounds_half_up_at_an_exact_half_cent():
    # $91.25 for one day: 91.25 x 0.18 / 365 = 16.425 / 365 = 0.045 exactly -> $0.05
    # (half-even would give $0.04).
    c = case(discovered_on=D(2025, 1, 1), abatement_cost_usd=M("91.25"))
    assert accrued_interest(M("91.25"), [], D(2025, 1, 31), D(2025, 1, 31), M("0.18"), 365) == Fraction(
        9, 200
    )
    assert illicit_charges(c, [], TERMS, D(2025, 1, 31)).interest_usd == M("0.05")


def test_payments_beyond_the_principal():
    # $100 principal, interest from Jan 31, 2025; $150 paid Jan 31: Jan 31 accrues on
    # $100 (the payment counts from Feb 1): 100 x 0.18 / 365 = 0.0493 -> $0.05; from
    # Feb 1 the unpaid principal is max(100 - 150, 0) = 0: no more interest.
    # balance = 100 + 0.05 - 150 = -$49.95 (owed back to the payer).
    c = case(discovered_on=D(2025, 1, 1), abatement_cost_usd=M("100"))
    got = illicit_charges(c, [pay(D(2025, 1, 31), "150")], TERMS, D(2025, 2, 9))
    assert (got.interest_usd, got.paid_usd, got.balance_usd) == (M("0.05"), M("150.00"), M("-49.95"))
    # paid in full before interest starts: no interest at all, balance 0.
    early = illicit_charges(c, [pay(D(2025, 1, 10), "100")], TERMS, D(2025, 12, 31))
    assert (early.interest_usd, early.balance_usd) == (M("0.00"), M("0.00"))


def test_installments_round_half_up():
    # $999.90 / 12 = 83.325 exactly -> $83.33 (half-even: 83.32); last = 999.90 -
    # 11 x 83.33 = 999.90 - 916.63 = $83.27.
    assert installment_split(M("999.90"), 12) == (M("83.33"), M("83.27"))
    # $100.06 / 12 = 8.3383 -> $8.34; last = 100.06 - 91.74 = $8.32.
    assert installment_split(M("100.06"), 12) == (M("8.34"), M("8.32"))
    # $1,200.00: twelve of $100.00.
    assert installment_split(M("1200.00"), 12) == (M("100.00"), M("100.00"))
    # below $0.66 the formula as it stands gives a negative last payment:
    # $0.06 / 12 = 0.005 -> 0.01; last = 0.06 - 0.11 = -0.05.
    assert installment_split(M("0.06"), 12) == (M("0.01"), M("-0.05"))


def test_penalty_days():
    # not abated: discovered May 22, judged May 22: 1 day; May 31: 10 days.
    assert penalty_days(D(2026, 5, 22), None, D(2026, 5, 22)) == 1
    assert penalty_days(D(2026, 5, 22), None, D(2026, 5, 31)) == 10
    # abated Jun 1, judged later: May 22..Jun 1 = 10 + 1 = 11 days.
    assert penalty_days(D(2026, 5, 22), D(2026, 6, 1), D(2026, 12, 31)) == 11
    # abated after --as-of: counts through --as-of; --as-of before discovery: 0.
    assert penalty_days(D(2026, 5, 22), D(2026, 6, 1), D(2026, 5, 25)) == 4
    assert penalty_days(D(2026, 5, 22), None, D(2026, 5, 21)) == 0
    c = case(discovered_on=D(2026, 5, 22), abatement_cost_usd=M("10"))
    assert illicit_charges(c, [], TERMS, D(2026, 5, 31)).max_penalty_usd == M("3500.00")


def test_no_charges_without_an_abatement_cost():
    assert illicit_charges(case(discovered_on=D(2026, 5, 22)), [], TERMS, D(2026, 6, 1)) is None


def test_cents_rounds_half_away_from_zero():
    assert cents(Fraction(1, 200)) == M("0.01")
    assert cents(Fraction(-1, 200)) == M("-0.01")
    assert cents(Fraction(1, 201)) == M("0.00")
    assert cents(M("2.675")) == M("2.68")


# --------------------------------------------------------------- properties

dates = st.dates(min_value=D(2008, 1, 1), max_value=D(2030, 12, 31))
money = st.decimals(
    min_value=M("0.00"), max_value=M("100000.00"), places=2, allow_nan=False, allow_infinity=False
)
payment_lists = st.lists(st.tuples(dates, money), max_size=6)


def day_by_day(principal, payments, start, end, rate, day_count):
    """The definition, literally: each day's unpaid principal x rate / day_count."""
    total, day = Fraction(0), start
    while day <= end:
        paid = sum((Fraction(a) for p, a in payments if p < day), Fraction(0))
        total += max(Fraction(principal) - paid, Fraction(0)) * Fraction(rate) / day_count
        day += dt.timedelta(days=1)
    return total


@settings(max_examples=150, deadline=None)
@given(principal=money, payments=payment_lists, start=dates, length=st.integers(min_value=-3, max_value=120))
def test_interest_by_stretches_equals_the_day_by_day_sum(principal, payments, start, length):
    end = start + dt.timedelta(days=length)
    assert accrued_interest(principal, payments, start, end, M("0.18"), 365) == day_by_day(
        principal, payments, start, end, M("0.18"), 365
    )


@settings(max_examples=150, deadline=None)
@given(
    principal=money,
    payments=payment_lists,
    discovered=dates,
    a=st.integers(min_value=0, max_value=800),
    b=st.integers(min_value=0, max_value=800),
)
def test_interest_is_monotone_in_as_of(principal, payments, discovered, a, b):
    c = case(discovered_on=discovered, abatement_cost_usd=principal)
    pays = [pay(d, str(x)) for d, x in payments]
    early, late = sorted((discovered + dt.timedelta(days=a), discovered + dt.timedelta(days=b)))
    assert (
        illicit_charges(c, pays, TERMS, early).interest_usd
        <= illicit_charges(c, pays, TERMS, late).interest_usd
    )


@settings(max_examples=150, deadline=None)
@given(
    principal=money,
    payments=payment_lists,
    discovered=dates,
    extra=st.tuples(dates, money),
    days=st.integers(min_value=0, max_value=800),
)
def test_another_payment_never_raises_interest_and_the_balance_adds_up(
    principal, payments, discovered, extra, days
):
    c = case(discovered_on=discovered, abatement_cost_usd=principal)
    as_of = discovered + dt.timedelta(days=days)
    pays = [pay(d, str(x)) for d, x in payments]
    without = illicit_charges(c, pays, TERMS, as_of)
    with_more = illicit_charges(c, pays + [pay(extra[0], str(extra[1]))], TERMS, as_of)
    assert with_more.interest_usd <= without.interest_usd
    for got in (without, with_more):
        assert got.balance_usd == got.principal_usd + got.interest_usd - got.paid_usd
        assert got.interest_usd >= 0


@settings(max_examples=300, deadline=None)
@given(principal=money)
def test_twelve_installments_add_up_to_the_principal(principal):
    assume(principal >= M("0.66"))
    installment, last = installment_split(principal, 12)
    assert 11 * installment + last == principal
    assert last >= 0
    assert abs(last - installment) <= M("0.06")  # 11 roundings of at most half a cent


# ------------------------------------------------ a late appeal suspends nothing (contract 7.4)


def _appealed_on(received: dt.date, nov_on: dt.date = D(2026, 10, 1)) -> IllicitCase:
    return case(
        discovered_on=D(2026, 9, 28),
        hazardous=True,
        nov_on=nov_on,
        abatement_due=D(2026, 11, 6),
        appeal_received_on=received,
    )


@pytest.mark.parametrize(
    "nov_on, received, in_time",
    [
        # Thursday October 1 + 15 days = Friday October 16
        (D(2026, 10, 1), D(2026, 10, 16), True),  # day 15
        (D(2026, 10, 1), D(2026, 10, 17), False),  # day 16
        # Friday October 30 + 15 = Saturday November 14: the period ends Monday November 16 (GCL § 25-a)
        (D(2026, 10, 30), D(2026, 11, 16), True),
        (D(2026, 10, 30), D(2026, 11, 17), False),
        # Monday September 28 + 15 = Columbus Day, Monday October 12: Tuesday October 13
        (D(2026, 9, 28), D(2026, 10, 13), True),
        (D(2026, 9, 28), D(2026, 10, 14), False),
    ],
)
def test_an_appeal_received_after_its_days_does_not_suspend(nov_on, received, in_time):
    from outfall.law.illicit import appeal_in_time

    c = _appealed_on(received, nov_on)
    assert appeal_in_time(c, TERMS, CAL, EXT) is in_time
    as_of = D(2026, 11, 30)
    rows = by_obligation(illicit_deadlines(c, TERMS, CAL, as_of, EXT))
    assert rows["appeal"].status == ("met" if in_time else "late")
    # a late appeal is no appeal (contract 8.5): no hearing is owed on it
    assert ("appeal_hearing" in rows) is in_time
    if in_time:
        assert (rows["abatement"].status, rows["abatement"].due) == ("suspended", None)
    else:
        assert (rows["abatement"].status, rows["abatement"].due) == ("overdue", D(2026, 11, 6))
        assert "does not suspend" in rows["abatement"].rule
    # the penalty: every day from discovery through the day judged, a timely appeal or not (contract 8.5)
    full = (as_of - D(2026, 9, 28)).days + 1
    assert case_penalty_days(c, as_of) == full
    charges = illicit_charges(c.model_copy(update={"abatement_cost_usd": M("100")}), [], TERMS, as_of)
    assert charges.penalty_days == full
