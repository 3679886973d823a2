"""Contract 8.6: a page, report or export says "none", "no" or 0 only of a duty the rules judge; elsewhere
the same place says "not judged: the rules state no ...".

The model town's rules file is written with each of its sections left out in turn; for each, every page
(the sewer, stormwater and index pages and the annual pretreatment report) is built from a warehouse whose
findings are all empty (where a duty is not judged, nothing is found: every statement of "none" shows),
and read: no statement of none of a duty those rules do not judge, the reason in its place, every note of
"none" made by the one helper (``Judged.none``), every count of 0 on a card of a duty judged; and the
pretreatment report's table exports a blank where a duty is not judged.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import duckdb
import pytest
import yaml

from assets.common import read_as_of, schema_ddl
from assets.pages import read_index_data
from assets.sewer.annual_report import report_judged
from assets.sewer.page import read_annual_report, read_sewer_data
from assets.stormwater.page import read_stormwater_data
from dashboards.annual_report import build_annual_report_page
from dashboards.index import build_index_page
from dashboards.sewer import build_sewer_page
from dashboards.stormwater import build_stormwater_page
from outfall.flow_hours import ensure_flow_hours
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import RulesError
from outfall.rules.judged import DUTIES, Judged
from outfall.warehouse import configure, ensure_schema, sql, transaction
from tests.conftest import REPO
from tests.test_print import visible_text

AS_OF = "2026-06-30"
WOODBURY = yaml.safe_load((REPO / "rules" / "woodbury.yaml").read_text(encoding="utf-8"))
KEPT = ("jurisdiction", "name", "kind", "version", "timezone")
SECTIONS = [s for s in WOODBURY if s not in KEPT]
#: Sections the file cannot do without while another section it keeps needs them (the loader says which):
#: each is left out together with what needs it.
WITH = {
    "vocabulary": ("sewer_units", "billing", "charge_model"),
    "charge_model": ("sewer_units", "billing"),
    "sewer_units": ("charge_model", "billing"),
    "law_names": (
        "discharge_limits",
        "sewer_units",
        "billing",
        "charge_model",
        "swppp",
        "illicit_discharges",
        "inspection_fees",
    ),
    "business_days": ("illicit_discharges", "deadline_extension"),
}

#: The statements of "none" each duty's places make (the pages' own words): never where it is not judged.
NONE_SAID = {
    "limits": (
        "No sample broke a limit",
        "No sample broke its limit in the year",
        "No daily maximum or monthly average broke its limit",
    ),
    "slugs": ("No slug discharge detected", "No slug discharge in the year"),
    "snc": (
        "No user meets a criterion of significant noncompliance",
        "No industrial user was in significant noncompliance",
    ),
    "reports": ("No report late or missing",),
    "testing": ("No testing missed", "No required testing was missed"),
    "permits": ("No month without a permit", "No sample or flow reading above 0 on a day"),
    "sewer_notices": (
        "No month has a violation: no notice to send",
        "No violation to follow up",
        "No notice of violation is recorded as mailed",
    ),
    "inspections": ("No inspection is due",),
    "stormwater_notices": ("No finding to follow up", "No site has a finding in a month"),
}
#: Notes of "none" that speak of the inputs, not of a duty the rules judge.
OF_THE_INPUTS = re.compile(
    r"^(No data yet|No input row was rejected|Nothing is open for|Nothing overdue or due this week|"
    r"No earlier billed year|No bill changed|No lab results for this user|No flow or probe readings)"
)
#: A card's label, and the duties whose count it is (a 0 is said where any of them is judged; a label of
#: none: a count of the inputs). A user's violations are the items of its notices (contract 7.5): samples
#: over a limit, late reports, testing missed, months without a permit.
CARD_DUTY = (
    (re.compile(r"non-detect"), "limits"),
    (re.compile(r"limits? broken"), "limits"),
    (re.compile(r"^\d* ?violations?,"), ("limits", "reports", "testing", "permits")),
    (re.compile(r"slug"), "slugs"),
    (re.compile(r"significant noncompliance"), "snc"),
    (re.compile(r"inspections?"), "inspections"),
    (re.compile(r"notices? of violation mailed"), "sewer_notices"),
    (re.compile(r"notices? of violation"), "stormwater_notices"),
    (re.compile(r"illicit discharge"), "illicit"),
)
CARD = re.compile(r'<div class="kpi-value">([^<]*)</div><div class="kpi-label">([^<]*)</div>')
NOTE = re.compile(r'<p class="note[^"]*"([^>]*)>(.*?)</p>', re.S)


@pytest.fixture(scope="module")
def findings_empty(tmp_path_factory) -> Path:
    """A warehouse of a user with a sample and a construction site in the year, and nothing found."""
    path = tmp_path_factory.mktemp("empty") / "w.duckdb"
    with duckdb.connect(str(path)) as con:
        configure(con, timezone="America/New_York")
        ensure_schema(con, schema_ddl())
        con.execute(
            "INSERT INTO industrial_users (user_id, name, district, address, permit_no, permit_effective, "
            "permit_expires) VALUES ('IU-1', 'Acme', 'consolidated', '1 Main St', 'P-1', DATE '2025-01-01', "
            "DATE '2029-01-01')"
        )
        con.execute(
            "INSERT INTO lab_results (sample_id, user_id, collected_at, collected_date, sample_type, "
            "parameter, result, unit) VALUES ('S-1', 'IU-1', TIMESTAMPTZ '2026-03-02 09:00:00-05', "
            "DATE '2026-03-02', 'composite', 'BOD', 100, 'mg/L')"
        )
        con.execute(
            "INSERT INTO sites (site_id, jurisdiction, disturbed_acres, construction_start, name, "
            "impaired_water, single_family, agricultural, exempt) "
            "VALUES ('W-1', 'woodbury', 2.0, DATE '2026-05-01', 'Oak Ridge', false, false, false, false)"
        )
    return path


def rules_without(tmp: Path, section: str) -> RulesResource | None:
    """The model town's rules with ``section`` (and what needs it) left out; None when the file is then
    unusable for a reason other than the section's absence."""
    left = {section, *WITH.get(section, ())}
    kept = {k: v for k, v in WOODBURY.items() if k not in left}
    folder = tmp / section
    folder.mkdir()
    (folder / "woodbury.yaml").write_text(yaml.safe_dump(kept, sort_keys=False), encoding="utf-8")
    resource = RulesResource(rules_dir=str(folder), town="woodbury")
    resource.load()
    return resource


def pages(warehouse: Path, rules: RulesResource, tmp: Path) -> dict[str, str]:
    """Every page built from a copy of ``warehouse`` with ``rules``, and the pretreatment report's table."""
    copy = tmp / "w.duckdb"
    copy.write_bytes(warehouse.read_bytes())
    settings = OutfallSettings(data_dir=str(tmp), as_of=AS_OF)
    with duckdb.connect(str(copy)) as con:
        configure(con, timezone=rules.timezone())
        ensure_flow_hours(con)
        with transaction(con):
            con.execute(sql("delete_pretreatment_annual_report")).fetchall()
            con.execute(sql("insert_pretreatment_annual_report"), report_judged(rules.judged())).fetchall()
        read_as_of(con, settings.as_of_date(), rules.timezone())
        return {
            "sewer": build_sewer_page(read_sewer_data(con, settings, rules))[0],
            "stormwater": build_stormwater_page(read_stormwater_data(con, settings, rules, tmp, None))[0],
            "index": build_index_page(read_index_data(con, settings, rules, tmp))[0],
            "report": build_annual_report_page(read_annual_report(con, settings, rules, 2026))[0],
            "exported": repr(
                con.execute(
                    "SELECT violations, statistic_violations, slugs, snc, notices_mailed "
                    "FROM main.pretreatment_annual_report"
                ).fetchall()
            ),
        }


def false_nones(written: dict[str, str], judged: Judged) -> list[str]:
    """Every statement of none the pages make of a duty ``judged`` says is not judged, and every note or
    card of none the one helper did not make (or made against ``judged``)."""
    found = []
    text = {name: visible_text(page) for name, page in written.items() if name != "exported"}
    for duty, said in NONE_SAID.items():
        if judged.judged(duty):
            continue
        for name, words in text.items():
            found += [f"{name}: '{s}' though {judged.reason(duty)}" for s in said if s in words]
        if not any(judged.reason(duty) in words for words in text.values()):
            found.append(f"no page says {judged.reason(duty)!r}")
    for name, page in written.items():
        for attributes, inner in NOTE.findall(page):
            words = visible_text(inner)
            marked = re.search(r'data-duty="([^"]+)" data-judged="(yes|no)"', attributes)
            if marked:
                if (marked[2] == "yes") != judged.judged(marked[1]):
                    found.append(f"{name}: '{words}' is marked {marked[2]} for {marked[1]}")
            elif re.match(r"(No |None|Nothing)", words) and not OF_THE_INPUTS.match(words):
                found.append(f"{name}: '{words}' is a statement of none the one helper did not make")
        for value, label in CARD.findall(page):
            duty = next((d for pattern, d in CARD_DUTY if pattern.search(label)), None)
            duties = (duty,) if isinstance(duty, str) else duty or ()
            if value.strip() == "0" and duties and not any(judged.judged(d) for d in duties):
                found.append(f"{name}: the card '{label}' counts 0 though {judged.reasons(duties)}")
    return found


def test_every_duty_of_the_helper_is_a_part_of_the_rules():
    from outfall.rules.models import Rules

    for duty in DUTIES.values():
        for path in duty.parts:
            assert path.split(".")[0] in Rules.model_fields, (duty.name, path)
    assert not Judged.of(RulesResource(rules_dir="", town="woodbury").town_rules()).unjudged()


@pytest.mark.parametrize("section", SECTIONS)
def test_a_section_left_out_is_said_not_judged_on_every_page(section, findings_empty, tmp_path):
    try:
        rules = rules_without(tmp_path, section)
    except RulesError as exc:  # pragma: no cover - the message names what still needs the section
        pytest.fail(f"{section}: the rules cannot leave it out ({exc}); add what needs it to WITH")
    judged = rules.judged()
    written = pages(findings_empty, rules, tmp_path)
    assert false_nones(written, judged) == []
    report = visible_text(written["report"])
    exported = written["exported"]
    if not judged.judged("snc"):
        assert "not judged" in report and "None" in exported  # never "no" of a user not judged
    if not judged.judged("slugs") or not judged.judged("limits"):
        assert "None" in exported


def test_the_model_town_judges_what_its_pages_say_none_of(findings_empty, tmp_path):
    """With every section, every statement of none is made, by the one helper."""
    rules = RulesResource(rules_dir="", town="woodbury")
    written = pages(findings_empty, rules, tmp_path)
    assert false_nones(written, rules.judged()) == []
    text = visible_text(written["sewer"])
    assert "No sample broke a limit" in text and "No slug discharge detected" in text
    assert written["exported"] == repr([(0, 0, 0, False, 0)])


def test_a_city_that_judges_nothing_but_its_surcharge_says_so_on_every_page(findings_empty, tmp_path):
    """Seymour's rules state a surcharge and a penalty: every other duty is not judged, in words."""
    rules = RulesResource(rules_dir=str(REPO / "examples" / "towns" / "seymour" / "rules"), town="seymour")
    judged = rules.judged()
    written = pages(findings_empty, rules, tmp_path)
    assert false_nones(written, judged) == []
    sewer = visible_text(written["sewer"])
    assert "not judged: the rules of City of Seymour state no discharge limits" in sewer
    assert "The City's record" in sewer and "Town" not in sewer
    assert "General Construction Law" not in visible_text(written["stormwater"])
    assert written["exported"] == repr([(None, None, None, None, None)])


def test_the_one_helper_says_none_only_where_judged():
    town = RulesResource(rules_dir=str(REPO / "examples" / "towns" / "seymour" / "rules"), town="seymour")
    judged = town.judged()
    assert judged.none("slugs", "No slug.") == (
        "not judged: the rules of City of Seymour state no definition of a slug discharge"
    )
    assert Judged().none("slugs", "No slug.") == "No slug."
    assert judged.count("slugs", 0) == "not judged" and judged.count("slugs", 2) == "2"
    assert Judged().count("slugs", 0) == "0"
    assert judged.reasons(["limits", "slugs", "reports"]) == (
        "not judged: the rules of City of Seymour state no discharge limits, definition of a slug discharge "
        "or deadline of any report"
    )
    assert judged.reasons([]) == ""
    with pytest.raises(KeyError):
        judged.judged("no such duty")
    assert dt.date.fromisoformat(AS_OF).year == 2026
