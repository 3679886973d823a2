"""Rules change by local law on a date: the version in effect on the day of the violation, the reading
or the bill applies, and only from that day. Each change here is made the way CONTRIBUTING.md's recipes
say: close the version in effect, add the new one after it, touch nothing but the rules file."""

from __future__ import annotations

import datetime as dt
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from outfall.demo import slugs as slug_law
from outfall.law import swppp as swppp_law
from outfall.paths import RULES_DIR
from outfall.rules import RulesError, load_rules, parse_rules

D = dt.date
CHANGE = D(2027, 1, 1)

NEW_BELLPORT_PENALTY = """      effective_to: 2026-12-31
    - citation: "Bellport Local Law No. 1 of 2027 (test): penalties"
      per: week
      lookback_years: 5
      tiers:
        - {offense: 1, min_usd: 0, max_usd: 500}
        - {offense: 2, min_usd: 500, max_usd: 1000}
        - {offense: 3, min_usd: 1000, max_usd: 2000}
      effective_from: 2027-01-01
"""

NEW_SLUG_RATIO = """    effective_to: 2026-12-31
  - ratio: 4
    min_duration_min: 15
    baseline_days: 30
    min_baseline_days: 7
    gap_factor: 1.5
    citation: "Woodbury Local Law No. 2 of 2027 (test): definitions, SLUG"
    effective_from: 2027-01-01
"""


def changed(tmp_path: Path, jurisdiction: str, after: str, insert: str) -> Path:
    """A copy of the rules with ``insert`` placed right after the text ``after`` (its first occurrence)."""
    folder = tmp_path / "rules"
    shutil.copytree(RULES_DIR, folder)
    path = folder / f"{jurisdiction}.yaml"
    text = path.read_text()
    assert after in text
    at = text.index(after) + len(after)
    path.write_text(text[:at] + insert + text[at:])
    return folder


def bellport_with_new_penalty(tmp_path: Path):
    folder = changed(tmp_path, "bellport", "max_usd: 1000}\n      effective_from: null\n", "")
    text = (folder / "bellport.yaml").read_text()
    marker = "max_usd: 1000}\n      effective_from: null\n"
    (folder / "bellport.yaml").write_text(text.replace(marker, marker + NEW_BELLPORT_PENALTY, 1))
    return load_rules("bellport", folder)


def test_bellport_penalty_changed_from_a_date_prices_only_violations_from_then(tmp_path):
    rules = bellport_with_new_penalty(tmp_path)
    penalty = rules.penalties.stormwater
    assert penalty.at(CHANGE - dt.timedelta(days=1)).tier(1).max_usd == Decimal("350")
    assert penalty.at(CHANGE).tier(1).max_usd == Decimal("500")
    assert penalty.at(D(2012, 5, 1)).tier(3).max_usd == Decimal("1000")  # history untouched
    assert penalty.at(CHANGE).tier(3).max_usd == Decimal("2000")

    # A notice of violation priced by the rules of its violation's day (outfall.law.swppp), both notices
    # written on the same day:
    site = swppp_law.SiteRecord("S-1", "bellport", "Harbor Lots", "1 Bay Rd", "Acme Builders", D(2026, 10, 1))
    notices = {}
    for due_by in (D(2026, 12, 30), D(2027, 1, 6)):  # violations on Dec 31, 2026 and Jan 7, 2027
        v = swppp_law.Violation(
            "S-1",
            "weekly",
            due_by - dt.timedelta(days=7),
            due_by,
            "late",
            due_by + dt.timedelta(2),
            2,
            "Bellport Code ch. 21 (test)",
        )
        day = due_by + dt.timedelta(days=1)
        notices[day] = swppp_law.build_notice(v, site, "a qualified professional", 0, D(2027, 2, 1), rules)
    before, after = notices[D(2026, 12, 31)], notices[D(2027, 1, 7)]
    assert (before["fine_max_usd"], after["fine_max_usd"]) == (Decimal("350.00"), Decimal("500.00"))
    assert "$350.00" in before["penalty_statement"] and "Bellport Code ch. 21" in before["penalty_statement"]
    assert "$500.00" in after["penalty_statement"] and "Local Law No. 1 of 2027" in after["penalty_statement"]


def test_woodbury_slug_ratio_changed_from_a_date_applies_to_readings_from_that_day(tmp_path):
    folder = changed(
        tmp_path,
        "woodbury",
        'the daily means of the 30 days before"\n    effective_from: null\n',
        NEW_SLUG_RATIO,
    )
    rules = load_rules("woodbury", folder)
    baseline, reading = 100.0, 450.0  # 4.5 times the baseline
    last_old, first_new = CHANGE - dt.timedelta(days=1), CHANGE
    assert rules.slug.at(last_old).ratio == 5 and rules.slug.at(first_new).ratio == 4
    assert not slug_law.is_high(reading, baseline, rules.slug.at(last_old).ratio)
    assert slug_law.is_high(reading, baseline, rules.slug.at(first_new).ratio)
    # Everything else about slugs is unchanged, and the old version keeps its own citation.
    assert rules.slug.at(first_new).min_duration_min == rules.slug.at(last_old).min_duration_min == 15
    assert "Local Law No. 2 of 2027" in rules.slug.at(first_new).citation
    assert rules.slug.at(last_old).citation.startswith("Woodbury Code ch. 253 Part 2")


def test_a_new_version_without_closing_the_old_one_is_refused(tmp_path):
    text = NEW_SLUG_RATIO.split("\n", 1)[1]  # the new version, the old one left open
    folder = changed(
        tmp_path, "woodbury", 'the daily means of the 30 days before"\n    effective_from: null\n', text
    )
    with pytest.raises(RulesError) as err:
        load_rules("woodbury", folder)
    assert "slug[1]: is in effect from 2027-01-01 with no end date, and so is entry [0]" in str(err.value)
    assert "give entry [0] effective_to: 2026-12-31" in str(err.value)


def test_a_gap_between_versions_is_an_error_on_the_days_it_leaves_uncovered(tmp_path):
    gap = NEW_SLUG_RATIO.replace("effective_to: 2026-12-31", "effective_to: 2026-11-30")
    folder = changed(
        tmp_path, "woodbury", 'the daily means of the 30 days before"\n    effective_from: null\n', gap
    )
    rules = load_rules("woodbury", folder)
    assert rules.slug.at(D(2026, 11, 30)).ratio == 5
    with pytest.raises(
        RulesError,
        match=r"woodbury.yaml: slug: no entry in effect on 2026-12-15 "
        r"\(entries: from a day not stated in the code through 2026-11-30; from 2027-01-01",
    ):
        rules.slug.at(D(2026, 12, 15))


def test_the_one_in_effect_lookup_names_what_and_the_day():
    # outfall.rules.dated.in_effect_on: the lookup Versions, Entries and the law's functions share.
    from outfall.rules.dated import find_in_effect, in_effect_on
    from outfall.rules.models import CitedRule

    old = CitedRule(citation="A, as adopted", effective_from=D(2010, 1, 1), effective_to=D(2019, 12, 31))
    new = CitedRule(citation="A, as amended", effective_from=D(2020, 1, 1))
    assert in_effect_on([old, new], D(2019, 12, 31), "A") is old
    assert in_effect_on([old, new], D(2020, 1, 1), "A") is new
    assert find_in_effect([old, new], D(2009, 12, 31), "A") is None
    with pytest.raises(RulesError, match=r"^No rule for A is in effect on 2009-12-31\.$"):
        in_effect_on([old, new], D(2009, 12, 31), "A")
    overlapping = new.model_copy(update={"effective_from": D(2019, 6, 1)})
    for lookup in (in_effect_on, find_in_effect):
        with pytest.raises(
            RulesError,
            match=r"^More than one rule for A is in effect on 2019-07-01; close the older "
            r"one with effective_to\.$",
        ):
            lookup([old, overlapping], D(2019, 7, 1), "A")


def test_both_ends_are_included():
    rules = load_rules("woodbury")
    first = rules.penalties.stormwater[0]
    assert first.in_effect(first.effective_from)
    assert not first.in_effect(first.effective_from - dt.timedelta(days=1))


def test_a_first_day_the_code_does_not_state_is_null_in_effect_from_the_earliest_day_and_said_so():
    """Contract 7.2: an effective date the code excerpts do not give is null, shown as "not stated in the
    code"; the entry is in effect on any day up to its end, and lookups stay .at(day)."""
    rules = load_rules("woodbury")
    bod = next(lim for lim in rules.discharge_limits if lim.parameter == "BOD")
    assert bod.effective_from is None and bod.starts == dt.date.min
    assert bod.in_effect(D(1900, 1, 1)) and bod.in_effect(D(2026, 6, 1))
    assert rules.slug.at(D(1950, 1, 1)).ratio == 5
    assert bod.period_text() == "from a day not stated in the code with no end date"
    assert load_rules("bellport").penalties.stormwater.at(D(2001, 1, 1)).tier(1).max_usd == Decimal("350")


def test_limits_of_the_same_parameter_may_not_overlap_but_others_may():
    text = (RULES_DIR / "woodbury.yaml").read_text()
    extra = (
        '  - {parameter: BOD5, limit_type: max, value: 200, unit: mg/L, citation: "test", '
        "effective_from: 2027-01-01}\n"
    )
    marker = "  # Metals and Table 7-1 substances: the Town Board sets these limits\n"
    with pytest.raises(RulesError) as err:
        parse_rules(text.replace(marker, extra + marker), Path("woodbury.yaml"))
    assert (
        "discharge_limits[8]: is in effect from 2027-01-01 with no end date, and so is entry [0] for BOD max"
        in str(err.value)
    )
    other = extra.replace("BOD5", "COD").replace("limit_type: max", "limit_type: monthly_avg")
    rules = parse_rules(text.replace(marker, other + marker), Path("woodbury.yaml"))
    assert {(lim.parameter, lim.limit_type) for lim in rules.discharge_limits.at(CHANGE)} >= {
        ("COD", "max"),
        ("COD", "monthly_avg"),
    }
    assert len(rules.discharge_limits.at(D(2026, 12, 31))) == 8


def test_surcharge_rate_adopted_from_a_date():
    text = (RULES_DIR / "woodbury.yaml").read_text()
    rates = (
        '  rates:\n    - {parameter: BOD, usd_per_lb: 0.2, adopted_by: "Resolution 2027-1 (test)", '
        'citation: "test", effective_from: 2027-03-01}\n'
    )
    rules = parse_rules(text.replace("  rates: []\n", rates), Path("woodbury.yaml"))
    assert rules.surcharge.rate("BOD", D(2027, 2, 28)) is None
    assert rules.surcharge.rate("bod5", D(2027, 3, 1)).usd_per_lb == Decimal("0.2")
    assert rules.surcharge.rate("TSS", D(2027, 3, 1)) is None
    with pytest.raises(RulesError, match=r"surcharge.rates\[0\]: COD is not surcharged"):
        parse_rules(text.replace("  rates: []\n", rates.replace("BOD", "COD")), Path("woodbury.yaml"))


# --------------------------------------------------- the same changes, through the production assets


def _materialize(assets, data: Path, warehouse: Path, rules: Path, as_of: str):
    from dagster_duckdb import DuckDBResource

    from outfall.resources import OutfallSettings
    from tests.conftest import materialize

    result = materialize(
        assets,
        resources={
            "duckdb": DuckDBResource(database=str(warehouse)),
            "settings": OutfallSettings(data_dir=str(data), as_of=as_of, rules_dir=str(rules)),
        },
    )
    assert result.success
    return result


def _rows(warehouse: Path, query: str) -> list[tuple]:
    import duckdb

    with duckdb.connect(str(warehouse), read_only=True) as con:
        con.execute("SET TimeZone = 'America/New_York'")
        return con.execute(query).fetchall()


@pytest.mark.slow  # two runs of the stormwater assets
def test_bellport_penalty_changed_from_a_date_reprices_only_notices_of_violations_from_then(tmp_path):
    from assets import ingest as ingest_assets
    from assets.stormwater import swppp as sw
    from tests.conftest import write

    folder = bellport_with_new_penalty(tmp_path).source.parent
    data = tmp_path / "data"
    # A Bellport site (Condition B) whose weekly inspections fall late on either side of 2027-01-01: the one
    # due 2026-12-30 (its violation begins Dec 31) and the one due 2027-01-14 (begins Jan 15).
    write(
        data,
        "sites/s.csv",
        "site_id,jurisdiction,disturbed_acres,construction_start,rain_gauge_id,name,address,"
        "applicant,impaired_water,single_family,agricultural,exempt,final_stabilization\n"
        "B-1,bellport,6.0,2026-12-23,G1,Harbor Lots,1 Bay Rd,Acme Builders,false,false,false,false,\n",
    )
    write(
        data,
        "inspections/i.csv",
        "site_id,inspected_at,inspector,kind,sediment_capacity_lost_pct,notes\n"
        "B-1,2027-01-07T10:00,Pro,routine,,\nB-1,2027-01-20T10:00,Pro,routine,,\n",
    )
    write(data, "rainfall/r.csv", "gauge_id,date,precip_in\nG1,2026-12-24,0.1\n")
    assets = list(ingest_assets.ingest_assets) + [
        sw.site_classification,
        sw.swppp_inspection_findings,
        sw.swppp_other_findings,
        sw.swppp_notices,
    ]
    wh = tmp_path / "w.duckdb"
    _materialize(assets, data, wh, folder, "2027-02-01")
    got = _rows(
        wh,
        "SELECT due_by, violation_on, fine_max_usd, penalty_statement FROM swppp_notices "
        "WHERE finding = 'weekly' ORDER BY due_by",
    )
    assert [(r[0], r[1], r[2]) for r in got] == [
        (D(2026, 12, 30), D(2026, 12, 31), Decimal("350.00")),  # before the local law: the old fine
        (D(2027, 1, 14), D(2027, 1, 15), Decimal("500.00")),  # from 2027-01-01: the new one
        (D(2027, 1, 27), D(2027, 1, 28), Decimal("500.00")),
    ]  # (none since the last, overdue)
    assert "Local Law No. 1 of 2027" not in got[0][3] and "Local Law No. 1 of 2027" in got[1][3]
    # the shipped rules price both at the old fine: only the date decides
    shipped = tmp_path / "shipped.duckdb"
    _materialize(assets, data, shipped, RULES_DIR, "2027-02-01")
    assert {
        r[0] for r in _rows(shipped, "SELECT fine_max_usd FROM swppp_notices WHERE finding = 'weekly'")
    } == {Decimal("350.00")}


def test_woodbury_slug_ratio_changed_from_a_date_applies_to_readings_from_that_day_in_the_sql(tmp_path):
    import datetime as dt_
    from zoneinfo import ZoneInfo

    from assets.sewer import compliance
    from tests.test_assets_sewer import insert, new_warehouse

    folder = changed(
        tmp_path,
        "woodbury",
        'the daily means of the 30 days before"\n    effective_from: null\n',
        NEW_SLUG_RATIO,
    )
    ny = ZoneInfo("America/New_York")
    users = [
        {
            "user_id": "IU-1",
            "name": "Acme",
            "district": "consolidated",
            "permit_no": "P-1",
            "permit_effective": D(2026, 1, 1),
            "permit_expires": D(2028, 1, 1),
            "normal_avg_flow_gpd": 144000.0,
        }
    ]
    rows = []
    for day in (D(2026, 12, 30), D(2027, 1, 2)):  # a 30-minute run at 4.5 x the permit's 100 gpm each day
        start = dt_.datetime.combine(day, dt_.time(8), ny)
        for i in range(240):
            ts = start + dt_.timedelta(minutes=i)
            value = 450.0 if 100 <= i < 130 else 100.0
            rows.append({"user_id": "IU-1", "constituent": "flow", "ts": ts, "value": value, "unit": "gpm"})
    db = new_warehouse(tmp_path)
    insert(db, "industrial_users", users)
    insert(db, "flow", rows)
    _materialize([compliance.slug_events], tmp_path / "data", db, folder, "2027-01-31")
    slugs = _rows(db, "SELECT CAST(start_at AS DATE), duration_min, rule FROM slug_events")
    assert [(s[0], s[1]) for s in slugs] == [(D(2027, 1, 2), 30)]  # 4.5 x: a slug only under the new ratio 4
    assert "Local Law No. 2 of 2027" in slugs[0][2]
    assert _rows(db, "SELECT local_day, threshold FROM slug_daily_stats ORDER BY local_day") == [
        (D(2026, 12, 30), 500.0),
        (D(2027, 1, 2), 400.0),
    ]
    # With the shipped rules (ratio 5 throughout) neither run is a slug.
    shipped = new_warehouse(tmp_path, "shipped.duckdb")
    insert(shipped, "industrial_users", users)
    insert(shipped, "flow", rows)
    _materialize([compliance.slug_events], tmp_path / "data", shipped, RULES_DIR, "2027-01-31")
    assert _rows(shipped, "SELECT count(*) FROM slug_events") == [(0,)]


NEW_BOD_LIMIT = """    effective_to: 2026-12-31
  - parameter: BOD
    limit_type: max
    value: 200
    unit: mg/L
    citation: "Woodbury Local Law No. 3 of 2027 (test): BOD in excess of 200 mg/l"
    effective_from: 2027-01-01
"""


def test_a_part2_limit_changed_from_a_date_applies_to_samples_from_that_day(tmp_path):
    import datetime as dt_
    from zoneinfo import ZoneInfo

    from assets.sewer import compliance
    from tests.test_assets_sewer import insert, lab, new_warehouse

    folder = changed(
        tmp_path,
        "woodbury",
        '(a): BOD in excess of 240 mg/l"\n    effective_from: null\n',
        NEW_BOD_LIMIT,
    )
    rules = load_rules("woodbury", folder)
    assert [lim.value for lim in rules.discharge_limits if lim.parameter == "BOD"] == [240, 200]
    db = new_warehouse(tmp_path)
    insert(
        db,
        "lab_results",
        [
            lab("S-OLD", "IU-1", D(2026, 12, 31), "BOD", 220.0, "mg/L"),
            lab("S-NEW", "IU-1", D(2027, 1, 1), "BOD", 220.0, "mg/L"),
        ],
    )
    _materialize([compliance.discharge_violations], tmp_path / "data", db, folder, "2027-01-31")
    assert _rows(db, "SELECT sample_id, limit_value, rule FROM discharge_violations") == [
        ("S-NEW", 200.0, "Woodbury Local Law No. 3 of 2027 (test): BOD in excess of 200 mg/l")
    ]
    assert _rows(
        db, "SELECT sample_id, limit_value, outcome FROM discharge_evaluations ORDER BY sample_id"
    ) == [("S-NEW", 200.0, "violation"), ("S-OLD", 240.0, "compliant")]
    del dt_, ZoneInfo


def dated_part2(tmp_path: Path) -> Path:
    """A copy of the rules as a town whose code states the day its Part 2 took effect (1986-11-20): every
    first day the shipped Woodbury file leaves unstated is that day."""
    folder = tmp_path / "dated_rules"
    shutil.copytree(RULES_DIR, folder)
    path = folder / "woodbury.yaml"
    path.write_text(path.read_text().replace("effective_from: null", "effective_from: 1986-11-20"))
    return folder


def test_a_day_no_version_covers_is_not_judged_and_said_so(tmp_path):
    # Old data: an infiltration test and a slug reading from before the chapter's first version, a sample
    # with a non-detect before any averaging policy. Nothing crashes; each is listed in not_judged.
    from assets.sewer import compliance
    from tests.test_assets_sewer import insert, lab, new_warehouse

    rules_dir = dated_part2(tmp_path)
    db = new_warehouse(tmp_path)
    insert(
        db,
        "infiltration_tests",
        [
            {
                "section_id": "OLD",
                "test_date": D(1980, 5, 1),
                "diameter_in": 8.0,
                "length_ft": 5280.0,
                "measured_gpd": 5000.0,
            }
        ],
    )
    insert(
        db,
        "permit_limits",
        [
            {
                "user_id": "IU-1",
                "parameter": "TSS",
                "limit_type": "monthly_avg",
                "value": 200.0,
                "unit": "mg/L",
                "basis": "agreement",
                "effective_from": None,
                "effective_to": None,
            }
        ],
    )
    insert(
        db,
        "lab_results",
        [
            lab("S-1", "IU-1", D(1985, 3, 4), "TSS", 100.0, "mg/L", nondetect=True),
            lab("S-2", "IU-1", D(1985, 3, 4), "BOD", 300.0, "mg/L"),
        ],
    )
    _materialize(
        [compliance.infiltration_results, compliance.discharge_violations, compliance.statistic_violations],
        tmp_path / "data",
        db,
        rules_dir,
        "2026-06-30",
    )
    assert _rows(db, "SELECT allowable_gpd, passes FROM infiltration_results") == [(None, None)]
    judged = _rows(db, "SELECT asset, section, day, reason FROM not_judged ORDER BY asset")
    assert [(a, s, d) for a, s, d, _ in judged] == [
        ("infiltration_results", "infiltration", D(1980, 5, 1)),
        ("statistic_violations", "nondetect_averaging", D(1985, 3, 1)),
    ]
    assert all(r[3].startswith("not judged: ") for r in judged)
    assert "from 1986-11-20" in judged[0][3]
    assert _rows(db, "SELECT reason FROM unlimited_results") == [
        ("no limit in effect on 1985-03-04 (the rules limit BOD on other days)",)
    ]
