"""The pages' sections of contract section 5, built from frames (pure): illicit discharge cases and
practice findings on the stormwater page, discharges without a permit and the SNC basis on the sewer
page, inspection fees per year on the billing page."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pandas as pd

from dashboards.billing import BillingData, build_billing_page
from dashboards.sewer import SewerData, build_sewer_page, permit_spells
from dashboards.stormwater import StormwaterData, build_stormwater_page

AS_OF = dt.date(2026, 11, 30)
D = dt.date


def test_stormwater_page_lists_cases_deadlines_charges_and_practices():
    cases = pd.DataFrame(
        [
            {
                "case_id": "ID-1",
                "premises": "1 Elm",
                "discovered_on": D(2026, 7, 2),
                "description": "paint <b>",
            },
            {"case_id": "ID-OLD", "premises": "2 Elm", "discovered_on": D(2006, 1, 1), "description": None},
            {"case_id": "ID-HAZ", "premises": "3 Elm", "discovered_on": D(2026, 9, 1), "description": None},
        ]
    )
    deadlines = pd.DataFrame(
        [
            {
                "case_id": "ID-1",
                "obligation": "notify_town",
                "due": D(2026, 7, 3),
                "satisfied_on": D(2026, 7, 6),
                "status": "late",
                "rule": "Woodbury Code ch. 185",
                "days_late": 3,
            },
            {
                "case_id": "ID-1",
                "obligation": "written_confirmation",
                "due": D(2026, 7, 9),
                "satisfied_on": None,
                "status": "overdue",
                "rule": "Woodbury Code ch. 185",
                "days_late": 144,
            },
        ]
    )
    charges = pd.DataFrame(
        [
            {
                "case_id": "ID-1",
                "principal_usd": Decimal("600.00"),
                "installments": 12,
                "installment_usd": Decimal("50.00"),
                "last_installment_usd": Decimal("50.00"),
                "interest_from": D(2026, 8, 1),
                "interest_usd": Decimal("35.21"),
                "paid_usd": Decimal("50.00"),
                "balance_usd": Decimal("585.21"),
                "max_penalty_usd": Decimal("3500.00"),
                "rule": "ch. 185",
            }
        ]
    )
    letters = pd.DataFrame(
        [
            {
                "case_id": "ID-1",
                "kind": "notice_of_violation",
                "letter_file": "illicit_nov_ID-1.html",
                "draft": False,
                "ready_to_mail": True,
            }
        ]
    )
    smp = pd.DataFrame(
        [
            {
                "practice_id": "SMP-1",
                "site_id": "S-1",
                "finding": "as_built",
                "rule": "Bellport Code",
                "due": D(2026, 11, 10),
                "status": "overdue",
                "jurisdiction": "bellport",
                "practice_type": "dry well",
            }
        ]
    )
    html_text, meta = build_stormwater_page(
        StormwaterData(
            as_of=AS_OF,
            illicit_cases=cases,
            illicit_deadlines=deadlines,
            illicit_charges=charges,
            illicit_letters=letters,
            smp_findings=smp,
            letters={"illicit_nov_ID-1.html": "letters/stormwater/x.html"},
            illicit_set_aside={"ID-OLD"},
        )
    )
    assert 'id="illicit"' in html_text and 'id="practices"' in html_text
    assert "paint &lt;b&gt;" in html_text and "<b>" not in html_text.split('id="illicit"')[1][:4000]
    assert "Written confirmation of a notice given in person or by phone" in html_text
    assert "$585.21" in html_text and "11 x $50.00 + $50.00" in html_text
    assert 'href="letters/stormwater/x.html"' in html_text
    assert "not judged: see the quarantined rows" in html_text and "no deadline yet" in html_text
    assert "As-built plans certified by a professional engineer" in html_text
    assert meta.counts["illicit_overdue"] == 1 and meta.counts["smp_findings"] == 1
    assert "illicit discharge deadline overdue" in html_text  # 1 deadline: the noun agrees


def test_permit_spells_join_consecutive_days():
    days = pd.DataFrame(
        [
            {
                "user_id": "U-1",
                "name": "A",
                "day": D(2026, 10, d),
                "finding": "permit_expired",
                "samples": s,
                "flow_readings": 96,
                "permit_no": "P",
                "permit_effective": D(2021, 10, 1),
                "permit_expires": D(2026, 9, 30),
                "rule": "ch. 253",
            }
            for d, s in ((1, 1), (2, 0), (3, 0), (7, 1))
        ]
    )
    spells = permit_spells(days)
    assert spells[["first_day", "last_day", "days", "samples", "flow_readings"]].values.tolist() == [
        [D(2026, 10, 1), D(2026, 10, 3), 3, 1, 288],
        [D(2026, 10, 7), D(2026, 10, 7), 1, 1, 96],
    ]


def test_sewer_page_shows_permit_findings_and_snc_basis():
    without = pd.DataFrame(
        [
            {
                "user_id": "U-1",
                "name": "A",
                "day": D(2026, 10, 1),
                "finding": "permit_expired",
                "samples": 1,
                "flow_readings": 96,
                "permit_no": "P",
                "permit_effective": D(2021, 10, 1),
                "permit_expires": D(2026, 9, 30),
                "rule": "Woodbury Code ch. 253 Part 2: permit",
            }
        ]
    )
    missing = pd.DataFrame(
        [
            {
                "user_id": "U-2",
                "name": "B",
                "permit_no": None,
                "first_day": D(2026, 1, 1),
                "last_day": D(2026, 2, 1),
                "days": 2,
                "samples": 2,
                "flow_readings": 0,
                "reason": "neither date is on file: fill them in",
                "rule": "reading",
            }
        ]
    )
    snc = pd.DataFrame(
        [
            {
                "user_id": "U-1",
                "period_start": D(2026, 1, 1),
                "period_end": D(2026, 6, 30),
                "parameter": "BOD",
                "criterion": "chronic",
                "measurements": 6,
                "count": 5,
                "pct": 83.3,
                "basis": "monthly_avg",
                "rule": "40 CFR 403.8(f)(2)(viii)",
            }
        ]
    )
    html_text, _ = build_sewer_page(
        SewerData(as_of=AS_OF, snc=snc, without_permit=without, permit_dates_missing=missing)
    )
    assert "Discharging without a permit" in html_text and "after the permit expired" in html_text
    assert "Permit term not on file (not judged)" in html_text and "fill them in" in html_text
    assert "monthly averages" in html_text


def test_billing_page_shows_fees_per_year_even_without_bills():
    fees = pd.DataFrame(
        [
            {
                "year": 2026,
                "permits": 5,
                "water_inspections": 4,
                "sewer_inspections": 4,
                "water_fees_usd": Decimal("1100.00"),
                "sewer_fees_usd": Decimal("1000.00"),
                "total_usd": Decimal("2100.00"),
                "not_in_schedule": 1,
            }
        ]
    )
    unpriced = pd.DataFrame(
        [
            {
                "permit_id": "CP-4",
                "parcel_id": "P-4",
                "applied_on": D(2026, 6, 11),
                "rule": "not in the schedule",
            }
        ]
    )
    html_text, meta = build_billing_page(BillingData(as_of=AS_OF, fees=fees, fees_unpriced=unpriced))
    assert 'id="fees"' in html_text and "$2,100.00" in html_text and "CP-4" in html_text
