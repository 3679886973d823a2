"""Illicit discharges (contract 5.3, Woodbury Code ch. 185) materialized in process: deadlines with
a holiday, a weekend and a Saturday holiday, charges with partial payments, the letters, and the cases
and payments set aside with a reason. Every expected value is worked by hand in the comments."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
from dagster_duckdb import DuckDBResource

from assets import ingest as ingest_assets
from assets.stormwater import illicit
from outfall.resources import OutfallSettings
from tests.conftest import materialize, query_warehouse as rows, write

D = dt.date
ASSETS = [ingest_assets.ingest_asset(n) for n in ("illicit_discharges", "illicit_payments", "parcels")] + [
    illicit.illicit_discharges_judged
]
CHECKS = [illicit.check_validity_illicit_balance, illicit.check_validity_illicit_status]

CASES = """
case_id,premises,discovered_on,hazardous,notified_on,written_confirmation_on,nov_on,abatement_due,appeal_received_on,appeal_decided_on,abated_on,abated_by,abatement_cost_usd,cost_notice_on,protest_received_on,responsible_party,mailing_address,description,nov_requires,hearing_on,appeal_outcome
IC-1,P-10,2026-05-22,false,2026-05-26,2026-06-01,2026-06-03,2026-06-30,2026-06-18,2026-07-10,2026-08-14,\
town,4800.00,2026-09-10,2026-09-18,,,Wash water from a truck yard into a catch basin,"2, 3, 4",,
IC-2,14 Elm Dr,2026-07-02,,2026-07-06,,,,,,,,,,,R. Roe,14 Elm Dr,Paint in the gutter,,,
IC-3,200 Mill Pond Rd,2026-10-20,true,,,2026-10-22,2026-12-15,,,,,,,,\
Mill Pond Fuels Inc.,PO Box 9,Fuel oil,all,,
IC-4,9 Old Rd,2006-01-10,false,,,,,,,,,,,,,,,,,
IC-5,3 Dock St,2026-06-01,true,,,2026-06-05,2026-07-15,2026-06-22,,,,,,,\
Dock Marine Inc.,3 Dock St,Bilge water,"2, 4",,
IC-6,8 Hill Rd,2026-08-03,true,,,2026-08-05,2026-09-04,2026-08-12,2026-08-25,,,,,,\
H. Hill,8 Hill Rd,Car wash water,"2, 4",2026-08-20,Vacated
IC-7,5 Bay Rd,2026-08-03,true,,,2026-08-05,,2026-08-12,2026-08-25,,,,,,,,,,,dismissed
IC-8,6 Bay Rd,2026-08-03,true,,,2026-08-05,,2026-08-12,,,,,,,,,,,,upheld
"""
PAYMENTS = """
case_id,paid_on,amount_usd,receipt_no
IC-1,2026-10-01,400.00,R-1
IC-1,2026-11-02,400.00,R-2
IC-1,2026-12-01,400.00,R-3
IC-9,2026-10-01,50.00,R-4
IC-2,2026-10-01,25.00,R-5
"""
PARCELS = """
parcel_id,district,property_class,acres,living_units,bathrooms,washing_machines,people,seats,moratorium,owner,address
P-10,consolidated,commercial,,,2,,,,,Yard Owner LLC,10 Truck Way
"""


def run(tmp_path: Path, as_of: str = "2026-11-30", dashboards: bool = True):
    data = tmp_path / "data"
    write(data, "illicit_discharges/cases.csv", CASES)
    write(data, "illicit_payments/payments.csv", PAYMENTS)
    write(data, "parcels/p.csv", PARCELS)
    wh = tmp_path / "w.duckdb"
    result = materialize(
        ASSETS + CHECKS,
        resources={
            "duckdb": DuckDBResource(database=str(wh)),
            "settings": OutfallSettings(
                data_dir=str(data), as_of=as_of, dashboards_dir=str(tmp_path / "dash") if dashboards else ""
            ),
        },
    )
    assert result.success
    return wh, result


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("illicit")
    wh, result = run(tmp)
    return tmp, wh, result


def test_deadlines_of_each_obligation(judged):
    _, wh, _ = judged
    got = {
        (c, o): (due, sat, st, late)
        for c, o, due, sat, st, late in rows(
            wh,
            "SELECT case_id, obligation, due, satisfied_on, status, days_late FROM "
            "illicit_discharge_deadlines",
        )
    }
    assert got == {
        # Friday May 22, 2026: the next business day is Tuesday May 26 (Memorial Day is Monday May 25).
        ("IC-1", "notify_town"): (D(2026, 5, 26), D(2026, 5, 26), "met", None),
        # three business days after Tuesday May 26: Wed 27, Thu 28, Fri 29; confirmed Monday June 1.
        ("IC-1", "written_confirmation"): (D(2026, 5, 29), D(2026, 6, 1), "late", 3),
        # notice of violation June 3 + 15 days = June 18; the appeal was received that day.
        ("IC-1", "appeal"): (D(2026, 6, 18), D(2026, 6, 18), "met", None),
        # hearing within 15 days of June 18 = July 3; decided July 10.
        ("IC-1", "appeal_hearing"): (D(2026, 7, 3), D(2026, 7, 10), "late", 7),
        # after the decision: July 10 + 15 = Saturday July 25 (not the notice's June 30), so Monday July 27
        # (General Construction Law § 25-a); abated August 14.
        ("IC-1", "abatement"): (D(2026, 7, 27), D(2026, 8, 14), "late", 18),
        # abated by the Town August 14 + 30 = September 13; cost notice September 10.
        ("IC-1", "cost_notice"): (D(2026, 9, 13), D(2026, 9, 10), "met", None),
        # cost notice September 10 + 10 = Sunday September 20, so Monday September 21; protest received
        # September 18.
        ("IC-1", "protest"): (D(2026, 9, 21), D(2026, 9, 18), "met", None),
        # Thursday July 2: the next business day is Friday July 3 (July 4 is a Saturday and GCL § 24 moves
        # no holiday off a Saturday); notified Monday July 6.
        ("IC-2", "notify_town"): (D(2026, 7, 3), D(2026, 7, 6), "late", 3),
        # three business days after Monday July 6 = Thursday July 9; never confirmed: overdue on Nov 30.
        ("IC-2", "written_confirmation"): (D(2026, 7, 9), None, "overdue", 144),
        # hazardous: no notice rows; the abatement deadline of the notice is still to come.
        ("IC-3", "abatement"): (D(2026, 12, 15), None, "open", None),
        # notice Friday June 5 + 15 = Saturday June 20, so Monday June
        # 22: the appeal received that Monday is met.
        ("IC-5", "appeal"): (D(2026, 6, 22), D(2026, 6, 22), "met", None),
        # June 22 + 15 = July 7; neither heard nor decided: overdue on Nov 30 (146 days).
        ("IC-5", "appeal_hearing"): (D(2026, 7, 7), None, "overdue", 146),
        # the appeal is pending: the notice's July 15 does not run; no due day
        ("IC-5", "abatement"): (None, None, "suspended", None),
        # August 5 + 15 = August 20; received August 12. Heard August 20 (due August 27), decided August 25.
        ("IC-6", "appeal"): (D(2026, 8, 20), D(2026, 8, 12), "met", None),
        ("IC-6", "appeal_hearing"): (D(2026, 8, 27), D(2026, 8, 20), "met", None),
        # vacated: the case ends, no abatement row (IC-7 was quarantined when read, IC-8 set aside)
    }
    rules = [r[0] for r in rows(wh, "SELECT rule FROM illicit_discharge_deadlines")]
    assert rules and all("Woodbury Code" in r and "185" in r for r in rules)
    moved = dict(
        rows(
            wh,
            "SELECT case_id || ' ' || obligation, rule FROM illicit_discharge_deadlines "
            "WHERE rule LIKE '%§ 25-a%'",
        )
    )
    assert set(moved) == {"IC-1 abatement", "IC-1 protest", "IC-5 appeal"}
    assert (
        "Saturday, June 20, 2026, which is not a business day, so it ends on Monday, June 22, 2026"
        in moved["IC-5 appeal"]
    )
    assert (
        "while an appeal received in time is pending"
        in rows(wh, "SELECT rule FROM illicit_discharge_deadlines WHERE status = 'suspended'")[0][0]
    )


def test_an_appeal_outcome_that_is_not_one_of_the_three_words_is_quarantined(judged):
    _, wh, _ = judged
    (reason,) = rows(wh, "SELECT reason FROM quarantine WHERE dataset = 'illicit_discharges'")[0]
    assert "appeal_outcome" in reason and "'dismissed'" in reason and "upheld, modified, vacated" in reason
    assert rows(wh, "SELECT appeal_outcome FROM illicit_discharges WHERE case_id = 'IC-6'") == [("vacated",)]


def test_the_status_check_accepts_suspended(judged):
    _, _, result = judged
    (check,) = [
        c for c in result.get_asset_check_evaluations() if c.check_name == "check_validity_illicit_status"
    ]
    assert check.passed


def test_charges_with_two_partial_payments(judged):
    _, wh, _ = judged
    (row,) = rows(
        wh,
        "SELECT case_id, principal_usd, installments, installment_usd, last_installment_usd, "
        "interest_from, interest_usd, balance_usd, max_penalty_usd, paid_usd, penalty_days "
        "FROM illicit_discharge_charges",
    )
    # interest from May 22 + 30 = June 21. Unpaid $4,800 June 21 - Oct 1 (103 days), $4,400 Oct 2 - Nov 2
    # (32 days), $4,000 Nov 3 - Nov 30 (28 days): 0.18 / 365 x (494,400 + 140,800 + 112,000) = 368.4821...
    # The payment of December 1 is after --as-of and counts for nothing yet.
    # Penalty: May 22 through August 14, both counted = 85 days, the days the appeal was pending (June 18
    # through July 9) included (contract 8.5): 85 days x $350.
    assert row == (
        "IC-1",
        Decimal("4800.00"),
        12,
        Decimal("400.00"),
        Decimal("400.00"),
        D(2026, 6, 21),
        Decimal("368.48"),
        Decimal("4368.48"),
        Decimal("29750.00"),
        Decimal("800.00"),
        85,
    )
    types = dict(
        rows(
            wh,
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = 'illicit_discharge_charges'",
        )
    )
    assert (
        types["principal_usd"] == types["balance_usd"] == "DECIMAL(12,2)"
        and types["installments"] == "INTEGER"
    )


def test_cases_and_payments_that_cannot_be_judged_are_set_aside(judged):
    _, wh, _ = judged
    got = rows(
        wh,
        "SELECT dataset, source_file, row_number, reason FROM set_aside "
        "WHERE judged_by IS NOT NULL ORDER BY dataset, row_number",
    )
    assert [(d, f, n) for d, f, n, _ in got] == [
        ("illicit_discharges", "cases.csv", 4),
        ("illicit_discharges", "cases.csv", 8),
        ("illicit_payments", "payments.csv", 4),
        ("illicit_payments", "payments.csv", 5),
    ]
    assert (
        "before the rules of Woodbury Code ch. 185" in got[0][3] and "check the day of discovery" in got[0][3]
    )
    assert "IC-8" in got[1][3] and "outcome (upheld) is given but not the day it was decided" in got[1][3]
    assert "IC-9" in got[2][3] and "not among the illicit discharge cases" in got[2][3]
    assert "cost of abatement is not on file" in got[3][3]
    # the ledger still balances: these rows were kept when read
    assert rows(
        wh,
        "SELECT sum(rows_read), sum(rows_kept), sum(rows_quarantined) FROM ingested_files "
        "WHERE dataset = 'illicit_payments'",
    ) == [(5, 5, 0)]


def test_letters(judged):
    tmp, wh, _ = judged
    letters = {
        (c, k): (f, draft, ready)
        for c, k, f, draft, ready in rows(
            wh, "SELECT case_id, kind, letter_file, draft, ready_to_mail FROM illicit_discharge_letters"
        )
    }
    assert set(letters) == {
        ("IC-1", "notice_of_violation"),
        ("IC-1", "cost_notice"),
        ("IC-2", "notice_of_violation"),
        ("IC-3", "notice_of_violation"),
        ("IC-5", "notice_of_violation"),
        ("IC-6", "notice_of_violation"),
    }
    assert letters[("IC-2", "notice_of_violation")][1] is True  # no notice issued yet: a draft
    folder = tmp / "dash" / "letters" / "stormwater"
    nov = (folder / letters[("IC-1", "notice_of_violation")][0]).read_text()
    # a mailed letter gives its periods as days from its date (no later day is printed in it)
    assert (
        "Justice Court" in nov
        and "15 days from the date of this notice" in nov
        and "June 18, 2026" not in nov
    )
    assert "Yard Owner LLC" in nov and "10 Truck Way" in nov  # the parcel's owner and address
    assert nov.count("<td>Required</td>") == 3 and nov.count("<td>Not required</td>") == 3
    assert "June 30, 2026" in nov  # the notice's abatement deadline
    cost = (folder / letters[("IC-1", "cost_notice")][0]).read_text()
    # the account as it stood when the notice was sent, September 10: interest June 21 - September 10 is
    # 82 days x $4,800 x 0.18 / 365 = 194.104...; no payment yet
    # the protest: 10 days from the notice's date, moved off a weekend or holiday by GCL § 25-a (the deadline
    # itself, Monday September 21, is the worklist's and the page's, not the letter's)
    for text in (
        "$4,800.00",
        "$400.00",
        "$194.10",
        "$4,994.10",
        "as of September 10, 2026",
        "10 days\n  from the date of this notice",
        "§ 25-a",
        "lien",
    ):
        assert text in cost, text
    assert "$368.48" not in cost and "October 1, 2026" not in cost and "September 21, 2026" not in cost
    assert (
        "the deadline for abatement does\n  not run" in nov
        and "an appeal received after them does not suspend it" in nov
    )
    # ch. 185 says nothing of the penalty during an appeal: no letter says it stops (contract 8.5)
    assert "penalty accrues" not in nov and "no penalty" not in nov
    assert "imprisonment for a period not to\n  exceed 180 days" in nov  # the penalty stated whole
    # IC-5: June 5 + 15 = Saturday June 20: the appeal may be received by Monday June 22 (the deadlines table
    # says so); the letter gives the 15 days and the law that moves their end, no later date
    ic5 = (folder / letters[("IC-5", "notice_of_violation")][0]).read_text()
    assert "15 days from the date of this notice" in ic5 and "§ 25-a" in ic5 and "June 22, 2026" not in ic5
    ic2 = (folder / letters[("IC-2", "notice_of_violation")][0]).read_text()
    assert "does not say which of the six measures" in ic2  # nothing to require: not ready


def test_rerun_changes_nothing(judged, tmp_path):
    tmp, wh, _ = judged
    before = {
        t: rows(wh, f"SELECT * FROM {t} ORDER BY ALL")
        for t in ("illicit_discharge_deadlines", "illicit_discharge_charges")
    }
    quarantined = rows(wh, "SELECT count(*) FROM quarantine")
    result = materialize(
        ASSETS + CHECKS,
        resources={
            "duckdb": DuckDBResource(database=str(wh)),
            "settings": OutfallSettings(
                data_dir=str(tmp / "data"), as_of="2026-11-30", dashboards_dir=str(tmp / "dash")
            ),
        },
    )
    assert result.success
    assert {t: rows(wh, f"SELECT * FROM {t} ORDER BY ALL") for t in before} == before
    assert rows(wh, "SELECT count(*) FROM quarantine") == quarantined


def test_tables_exist_empty_without_inputs(tmp_path):
    wh = tmp_path / "w.duckdb"
    result = materialize(
        ASSETS,
        resources={
            "duckdb": DuckDBResource(database=str(wh)),
            "settings": OutfallSettings(data_dir=str(tmp_path / "none"), as_of="2026-11-30"),
        },
    )
    assert result.success
    for table, columns in {
        "illicit_discharge_deadlines": ["case_id", "obligation", "due", "satisfied_on", "status", "rule"],
        "illicit_discharge_charges": [
            "case_id",
            "principal_usd",
            "installments",
            "installment_usd",
            "last_installment_usd",
            "interest_from",
            "interest_usd",
            "balance_usd",
            "max_penalty_usd",
        ],
    }.items():
        got = [
            r[0]
            for r in rows(
                wh,
                "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                "ORDER BY ordinal_position",
                [table],
            )
        ]
        assert got[: len(columns)] == columns
        assert rows(wh, f"SELECT count(*) FROM {table}") == [(0,)]


def test_measures_parsed_from_the_clerks_words():
    assert illicit.parse_measures("2, 3, 4") == ([2, 3, 4], None)
    assert illicit.parse_measures("(2)(4)") == ([2, 4], None)
    assert illicit.parse_measures("all") == ([1, 2, 3, 4, 5, 6], None)
    assert illicit.parse_measures(None) == ([], None)
    numbers, problem = illicit.parse_measures("2, 9")
    assert numbers == [2] and "not all among the numbers 1 to 6" in problem
