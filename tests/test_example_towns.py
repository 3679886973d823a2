"""The example towns (examples/towns/<town>/) run end to end on their own rules and data, each judged by
its own law: its limits at their boundaries, its surcharges by its formula, its charges by its model; and
no page, letter or PDF names the model towns."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from tests.conftest import REPO, query_warehouse

EXAMPLES = REPO / "examples" / "towns"
MODEL_WORDS = re.compile(r"woodbury|bellport", re.IGNORECASE)
AS_OF = {
    "chagrin_falls": "2026-06-30",
    "st_charles": "2026-07-31",
    "snohomish": "2026-06-30",
    "seymour": "2026-07-31",
}

pytestmark = pytest.mark.slow  # `outfall run` end to end


def run_town(town: str, out: Path) -> Path:
    """``outfall run --rules`` on the example's rules and data; the warehouse."""
    env = {k: v for k, v in os.environ.items() if k not in ("OUTFALL_RULES_DIR", "OUTFALL_TOWN")}
    db = out / f"{town}.duckdb"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "outfall",
            "run",
            "--rules",
            str(EXAMPLES / town / "rules"),
            "--data",
            str(EXAMPLES / town / "data"),
            "--warehouse",
            str(db),
            "--as-of",
            AS_OF[town],
            "--quiet",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**env, "GX_ANALYTICS_ENABLED": "false"},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return db


@pytest.fixture(scope="module")
def st_charles(tmp_path_factory) -> Path:
    return run_town("st_charles", tmp_path_factory.mktemp("st_charles"))


@pytest.fixture(scope="module")
def chagrin_falls(tmp_path_factory) -> Path:
    return run_town("chagrin_falls", tmp_path_factory.mktemp("chagrin_falls"))


@pytest.fixture(scope="module")
def snohomish(tmp_path_factory) -> Path:
    return run_town("snohomish", tmp_path_factory.mktemp("snohomish"))


@pytest.fixture(scope="module")
def seymour(tmp_path_factory) -> Path:
    return run_town("seymour", tmp_path_factory.mktemp("seymour"))


def no_model_town_words(db: Path) -> None:
    dashboards = db.parent / "dashboards"
    pages = sorted(dashboards.rglob("*.html"))
    assert (dashboards / "index.html") in pages
    for page in pages:
        assert not MODEL_WORDS.search(page.read_text(encoding="utf-8")), page.name
    for pdf in dashboards.rglob("*.pdf"):
        from pypdf import PdfReader

        words = " ".join(p.extract_text() or "" for p in PdfReader(str(pdf)).pages)
        assert not MODEL_WORDS.search(words), pdf.name
    for (reason,) in query_warehouse(db, "SELECT reason FROM not_judged"):
        assert not MODEL_WORDS.search(reason)


# ---------------------------------------------------------------------------- St. Charles, Illinois


def test_st_charles_judges_its_local_limits_at_their_boundaries(st_charles):
    found = query_warehouse(
        st_charles,
        "SELECT sample_id, parameter, value, limit_value, limit_source FROM discharge_violations "
        "ORDER BY 1, 2",
    )
    assert found == [
        ("SC-S1", "FOG", 173.0, 123.0, "13.12.430"),
        ("SC-S1", "mercury", 0.0006, 0.0005, "13.12.430"),
        ("SC-S4", "CBOD", 575.0, 574.0, "13.12.430"),  # 574 (SC-S3) is at the limit: no violation
        ("SC-S5", "FOG", 223.0, 123.0, "13.12.430"),
        ("SC-S6", "FOG", 200.0, 123.0, "13.12.430"),
    ]
    compliant = query_warehouse(
        st_charles,
        "SELECT sample_id, parameter FROM discharge_evaluations WHERE outcome = 'compliant' ORDER BY 1, 2",
    )
    assert ("SC-S3", "CBOD") in compliant and ("SC-S7", "Chromium, hexavalent") in compliant


def test_st_charles_surcharges_by_its_formula_factor_and_permits(st_charles):
    rows = {
        r[0]: r[1:]
        for r in query_warehouse(
            st_charles,
            "SELECT user_id, parameter, pounds, rate_usd_per_lb, base_amount_usd, multiplier, amount_usd "
            "FROM surcharges WHERE kind = 'pounds'",
        )
    }
    # (173 - 123) mg/L x 8.34 x 1.5 MG (50,000 gpd x 30 days, the permit's flow) = 625.5 lb x $0.17
    fog, pounds, rate, base, factor, amount = rows["SC-1"]
    assert fog == "FOG" and pounds == pytest.approx(625.5) and rate == Decimal("0.1700")
    assert (base, factor, amount) == (None, None, Decimal("106.34"))
    # outside the corporate limits: (223 - 123) x 8.34 x 0.864 MG (20 gpm metered all June) x $0.17 =
    # $122.50, and 20% more of it (13.12.810(B))
    _, pounds, _, base, factor, amount = rows["SC-2"]
    assert pounds == pytest.approx(720.576) and base == Decimal("122.50")
    assert factor == Decimal("1.2") and amount == Decimal("147.00")
    assert "SC-3" not in rows  # its permit sets no surcharge: its FOG is a violation, not a charge
    reasons = [
        r for (r,) in query_warehouse(st_charles, "SELECT reason FROM not_judged WHERE asset = 'surcharges'")
    ]
    assert any("maximum limit of TSS" in r for r in reasons)  # 13.12.430's TSS limit was not read
    assert any("per gallon of discharge" in r and "not whose discharge" in r for r in reasons)


def test_st_charles_charges_its_sampling_fees_per_sample_and_test(st_charles):
    fees = query_warehouse(
        st_charles, "SELECT item, parameter, usd FROM sampling_fees WHERE sample_id = 'SC-S1' ORDER BY 1, 2"
    )
    assert fees == [
        ("Acid digestion", None, Decimal("10.00")),
        ("Fats, oils and grease", "FOG", Decimal("6.00")),
        ("Heavy metal analysis", "cadmium", Decimal("10.00")),
        ("Heavy metal analysis", "mercury", Decimal("10.00")),
        ("Sample collection", None, Decimal("13.00")),
    ]
    assert query_warehouse(st_charles, "SELECT count(*) FROM sampling_fees WHERE sample_id <> 'SC-S1'") == [
        (0,)
    ]


def test_st_charles_pages_name_only_its_own_law(st_charles):
    no_model_town_words(st_charles)
    sewer = (st_charles.parent / "dashboards" / "sewer.html").read_text(encoding="utf-8")
    assert "City of St. Charles" in sewer and "times in America/Chicago" in sewer


# ------------------------------------------------------------------------- Chagrin Falls, Ohio


def test_chagrin_falls_judges_prohibited_and_restricted_wastes(chagrin_falls):
    found = query_warehouse(
        chagrin_falls,
        "SELECT sample_id, parameter, limit_type, limit_value, limit_source, rule FROM discharge_violations "
        "ORDER BY 1",
    )
    assert [r[:5] for r in found] == [
        ("CF-S2", "cyanide", "max", 2.0, "911.05"),  # 2.01 mg/L; 2.0 (CF-S1) is at the limit
        ("CF-S3", "pH", "min", 5.5, "911.05"),
        ("CF-S4", "pH", "max", 9.5, "911.06"),
        ("CF-S7", "FOG", "max", 100.0, "911.06"),  # 140 mg/L; 100 (CF-S6) is at the limit
    ]
    restricted = [r[5] for r in found if r[4] == "911.06"]
    assert all("barred where the Superintendent judges it likely to harm" in r for r in restricted)
    unlimited = dict(query_warehouse(chagrin_falls, "SELECT parameter, rule FROM unlimited_results"))
    assert "911.06(e)-(g) leave metals" in unlimited["copper"] and "BOD" in unlimited


def test_chagrin_falls_charges_by_volume_quarterly_with_its_minimum_and_capital_charge(chagrin_falls):
    rows = {
        (r[0], r[1]): r[2:]
        for r in query_warehouse(
            chagrin_falls,
            "SELECT parcel_id, period_start, volume_usd, minimum_applied, flat_usd, fixed_usd, total_usd "
            "FROM volume_charges",
        )
    }
    d = dt.date
    # 18.3 hundred cubic feet x $10.70 (2026) + $35 capital charge (a 3/4 in meter)
    assert rows[("CF-P1", d(2026, 1, 1))] == (
        Decimal("195.81"),
        False,
        None,
        Decimal("35.00"),
        Decimal("230.81"),
    )
    # 4 x $10.19 = $40.76 is less than the quarter's least charge, $61.14 (917.04(a), 2025)
    assert rows[("CF-P1", d(2025, 10, 1))][1:] == (True, None, Decimal("35.00"), Decimal("96.14"))
    # 2,500 cubic feet = 25 hundred cubic feet; a 1.5 in meter: $63
    assert rows[("CF-P2", d(2026, 1, 1))][-1] == Decimal("330.50")
    # outside the village: $13.38 (917.04(b)); a 1 in meter: $49
    assert rows[("CF-P3", d(2026, 1, 1))][-1] == Decimal("182.80")
    # unmetered outside the village: $428.00 a quarter (917.04(h))
    assert rows[("CF-P4", d(2026, 1, 1))][2:] == (Decimal("428.00"), Decimal("35.00"), Decimal("463.00"))
    assert ("CF-P5", d(2026, 1, 1)) not in rows  # no meter size: not charged by guess
    (reason,) = query_warehouse(
        chagrin_falls, "SELECT reason FROM not_judged WHERE asset = 'volume_charges'"
    )[0]
    assert "capital improvement charge goes by meter size" in reason


def test_chagrin_falls_pages_name_only_its_own_law(chagrin_falls):
    no_model_town_words(chagrin_falls)
    billing = (chagrin_falls.parent / "dashboards" / "billing.html").read_text(encoding="utf-8")
    assert "Sewer charges by volume" in billing and "917.04(k)" in billing


def test_chagrin_falls_judges_its_construction_inspections_by_its_own_counting(chagrin_falls):
    # 1355.09(h): every 7 calendar days, and within 24 hours after a storm "greater than one-half inch"
    found = query_warehouse(
        chagrin_falls,
        "SELECT site_id, requirement, trigger_date, due_by, satisfied_on, status "
        "FROM swppp_inspection_findings ORDER BY requirement, trigger_date",
    )
    d = dt.date
    assert found == [
        # 0.51 inch on June 2 is more than one-half inch: inspected June 5, two days late
        ("CF-C1", "storm", d(2026, 6, 2), d(2026, 6, 3), d(2026, 6, 5), "late"),
        # 9 days between the inspections of May 21 and May 30
        ("CF-C1", "weekly", d(2026, 5, 21), d(2026, 5, 28), d(2026, 5, 30), "late"),
        # none since June 19: the 7-day inspection due June 26 was missed as of June 30
        ("CF-C1", "weekly", d(2026, 6, 19), d(2026, 6, 26), None, "overdue"),
    ]
    # exactly 0.5 inch on May 10 is not "greater than" one-half inch: no storm inspection was due
    assert all(row[2] != d(2026, 5, 10) for row in found)
    rules = dict(query_warehouse(chagrin_falls, "SELECT requirement, rule FROM swppp_inspection_findings"))
    assert all("1355.09(h)" in rule for rule in rules.values())
    required = dict(
        query_warehouse(chagrin_falls, "SELECT site_id, inspections_required FROM site_classification")
    )
    assert required == {"CF-C1": True, "CF-C2": False}  # 1355.05(a): one acre or more

    # what ch. 1355 does not state in this model is not judged and says so; no notice is drafted
    assert query_warehouse(chagrin_falls, "SELECT count(*) FROM notices WHERE kind = 'stormwater'") == [(0,)]
    assert query_warehouse(chagrin_falls, "SELECT count(*) FROM swppp_notices") == [(0,)]
    reasons = [
        r
        for (r,) in query_warehouse(
            chagrin_falls, "SELECT reason FROM not_judged WHERE asset IN ('notices', 'swppp_notices')"
        )
        if "stormwater" in r
    ]
    assert len(reasons) == 3 and all("not drafted" in r and "the penalty" in r for r in reasons)
    unstated = {
        s
        for (s,) in query_warehouse(
            chagrin_falls, "SELECT section FROM not_judged WHERE asset = 'swppp_other_findings'"
        )
    }
    assert unstated == {
        "swppp.disturbance_limit",
        "swppp.sediment_cleanout",
        "swppp.milestone_notice",
        "swppp.contractor_certification",
    }
    page = (chagrin_falls.parent / "dashboards" / "stormwater.html").read_text(encoding="utf-8")
    assert "more than 0.5 in" in page


# ---------------------------------------------------------------------------- Snohomish, Washington


def test_snohomish_judges_a_ph_excursion_only_past_one_hour(snohomish):
    events = query_warehouse(
        snohomish,
        "SELECT limit_type, duration_min, readings, violation FROM excursion_events ORDER BY start_at",
    )
    assert events == [("max", 60.0, 5, False), ("max", 75.0, 6, True), ("min", 0.0, 1, False)]
    # one grab sample beyond the range cannot show how long the excursion lasted
    assert query_warehouse(snohomish, "SELECT sample_id FROM inconclusive_results") == [("SN-S1",)]
    found = query_warehouse(snohomish, "SELECT sample_id, parameter FROM discharge_violations ORDER BY 1")
    assert found == [("SN-S2", "FOG, animal or vegetable"), ("SN-S4", "FOG, petroleum or mineral")]
    no_model_town_words(snohomish)


def test_snohomish_excursion_past_one_hour_is_an_item_of_the_months_notice(snohomish):
    import duckdb

    from assets.notices import collect_items

    with duckdb.connect(str(snohomish), read_only=True) as con:
        items = [i for i in collect_items(con, "America/Los_Angeles") if i.item == "excursion"]
    assert [(i.recipient_id, i.ref, i.period, i.sub) for i in items] == [
        ("SN-1", "2026-05-04 14:00", "2026-05", "pH|max")
    ]
    assert "15.08.090" in items[0].rule
    # the rules state no enforcement texts: the month's notice is not drafted, and not_judged says so
    subjects = {
        s for (s,) in query_warehouse(snohomish, "SELECT subject FROM not_judged WHERE asset = 'notices'")
    }
    assert "sewer notice to SN-1 for 2026-05" in subjects


# ----------------------------------------------------------------------------- Seymour, Indiana


def test_seymour_surcharges_the_pounds_over_its_thresholds_by_its_own_factor(seymour):
    rows = {
        (r[0], r[1]): r[2:]
        for r in query_warehouse(
            seymour,
            "SELECT user_id, parameter, concentration_mgl, limit_mgl, threshold_kind, flow_source, pounds, "
            "amount_usd, amount_set_by FROM surcharges",
        )
    }
    # SY-1's meter: 25 gpm all June = 1,080,000 gallons = 1,443.75 hundred cubic feet (748.05 gallons each);
    # BOD the mean of its composites, (260 + 240) / 2 = 250 mg/L, 50 over (A)(1)'s 200:
    # 1,443.75 x 0.0062321 x 50 = 449.8797 lb ((B)(1): the code's factor per hundred cubic feet)
    conc, threshold, kind, source, pounds, amount, set_by = rows[("SY-1", "BOD")]
    assert (conc, threshold, kind, source) == (250.0, 200.0, "surcharge threshold", "meter")
    assert pounds == pytest.approx(1443.75 * 0.0062321 * 50)
    # (C): the rate is in Appendix B, Table F: set elsewhere, never 0, never refused
    assert amount is None and set_by == "set by Appendix B, Table F, of the sewer chapter"
    # at the threshold exactly nothing is surcharged: TSS 250 of 250, ammonia 12 of 12
    assert rows[("SY-1", "TSS")][4] == 0.0 and rows[("SY-1", "ammonia")][4] == 0.0
    # phosphorus 5.01 over 5: 1,443.75 x 0.0062321 x 0.01 lb
    assert rows[("SY-1", "phosphorus")][4] == pytest.approx(1443.75 * 0.0062321 * 0.01)
    # SY-2 has no meter: its permit's 20,000 gallons a day x 30 days = 600,000 gallons = 802.0833
    # hundred cubic feet; BOD 300, 100 over: 802.0833 x 0.0062321 x 100 = 499.87 lb
    assert rows[("SY-2", "BOD")][3] == "permit"
    assert rows[("SY-2", "BOD")][4] == pytest.approx(600_000 * 231 / 172_800 * 0.0062321 * 100)
    assert rows[("SY-2", "TSS")][4] == 0.0  # 190 under 250


def test_seymour_judges_no_surcharge_threshold_as_a_prohibition(seymour):
    # the thresholds of (A) are not limits: 300 mg/L of BOD is surcharged, never a violation
    assert query_warehouse(seymour, "SELECT count(*) FROM discharge_violations") == [(0,)]
    assert query_warehouse(seymour, "SELECT count(*) FROM notices") == [(0,)]
    # what the sections read do not state is not judged, and says so: the slug definition among them
    sections = {s for (s,) in query_warehouse(seymour, "SELECT DISTINCT section FROM not_judged")}
    assert "slug" in sections
    no_model_town_words(seymour)
    billing = (seymour.parent / "dashboards" / "billing.html").read_text(encoding="utf-8")
    assert "Surcharges" in billing and "set by Appendix B, Table F, of the sewer chapter" in billing
    assert "$0.00" not in billing.split('id="surcharges"')[1].split("</section>")[0]
