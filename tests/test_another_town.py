"""Any town is a rules file: a third jurisdiction, invented here, runs end to end with no code changed.

Springfield's rules are derived from the model town's file in a temporary rules folder: its own name,
time zone (America/Chicago), chapter numbers and a BOD limit of 200 mg/L instead of 240. The small test
town's inputs, its sites in Springfield, run with OUTFALL_RULES_DIR pointed at that folder.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from outfall.paths import RULES_DIR
from tests.conftest import REPO, query_warehouse, small_town, write

MODEL = "woodbury"
MODEL_WORDS = re.compile(r"woodbury|bellport", re.IGNORECASE)


def springfield_rules(folder: Path) -> Path:
    """``folder/springfield.yaml``: the model town's rules with Springfield's words, chapters and BOD
    limit."""
    text = (RULES_DIR / f"{MODEL}.yaml").read_text(encoding="utf-8")
    text = text.replace(f"jurisdiction: {MODEL}", "jurisdiction: springfield")
    text = text.replace("name: Town of Woodbury", "name: City of Springfield")
    text = text.replace("timezone: America/New_York", "timezone: America/Chicago")
    text = text.replace("value: 240\n", "value: 200\n").replace(
        "BOD in excess of 240 mg/l", "BOD in excess of 200 mg/l"
    )
    for old, new in (
        ("253-55", "41-55"),
        ("ch. 253", "ch. 41"),
        ("chapter 253", "chapter 41"),
        ("ch. 267", "ch. 88"),
        ("Chapter 267", "Chapter 88"),
        ("chapter 267", "chapter 88"),
        ('chapter: "267"', 'chapter: "88"'),
        ("ch. 185", "ch. 17"),
        ("chapter 185", "chapter 17"),
        ("ch. 301", "ch. 9"),
        ("chapter 301", "chapter 9"),
        ("Orange County", "Sangamon County"),
    ):
        text = text.replace(old, new)
    text = text.replace("Town of Woodbury", "City of Springfield").replace("Woodbury", "Springfield")
    assert not MODEL_WORDS.search(text)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "springfield.yaml"
    path.write_text(text, encoding="utf-8")
    shutil.copy(RULES_DIR / "schema.json", folder / "schema.json")
    return path


LETTERHEAD = """
    springfield:
      name: City of Springfield
      address: ["800 East Monroe Street", "Springfield, IL 62701"]
      phone: "217-555-0100"
      signatories:
        sewer: {name: Pat Doe, title: Sewer Administrator, phone: "217-555-0101"}
        stormwater: {name: Sam Roe, title: Stormwater Management Officer, phone: "217-555-0102"}
    """


def springfield_town(root: Path) -> Path:
    """The small test town, its sites in Springfield, a letterhead and a mailed notice."""
    data = small_town(root)
    sites = data / "sites" / "sites.csv"
    sites.write_text(
        sites.read_text().replace(",woodbury,", ",springfield,").replace(",bellport,", ",springfield,")
    )
    write(data, "letterhead.yaml", LETTERHEAD)
    write(
        data,
        "notices_mailed/mailed.csv",
        """
        kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days
        sewer,IU-1,2026-02,2026-03-02,7019 0000 0000 0001,
        """,
    )
    return data


def run(*args: str, rules: Path, town: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, GX_ANALYTICS_ENABLED="false", OUTFALL_RULES_DIR=str(rules))
    env.pop("OUTFALL_TOWN", None)
    if town:
        env["OUTFALL_TOWN"] = town
    return subprocess.run(
        [sys.executable, "-m", "outfall", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
        env=env,
    )


def test_the_town_is_the_one_rules_file_with_sewer_rules(tmp_path):
    from outfall.rules import load_town

    rules = tmp_path / "rules"
    springfield_rules(rules)
    town = load_town(rules)
    assert town.jurisdiction == "springfield" and town.jurisdictions == ("springfield",)
    assert town.timezone == "America/Chicago" and town.town.name == "City of Springfield"
    assert town.town.law("sewer_use").short == "Springfield Code ch. 41 Part 2"


def test_a_folder_with_two_sewer_towns_is_a_one_line_error_before_anything_runs(tmp_path):
    rules = tmp_path / "rules"
    springfield_rules(rules)
    shutil.copy(RULES_DIR / f"{MODEL}.yaml", rules / f"{MODEL}.yaml")
    done = run(
        "run",
        "--data",
        str(small_town(tmp_path / "data")),
        "--warehouse",
        str(tmp_path / "w.duckdb"),
        rules=rules,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "2 rules files have sewer rules" in lines[0] and "OUTFALL_TOWN" in lines[0]
    assert not (tmp_path / "w.duckdb").exists()


def test_a_site_in_no_jurisdiction_of_the_rules_is_quarantined_naming_the_files(tmp_path):
    from dagster_duckdb import DuckDBResource

    from assets.ingest import ingest_asset
    from outfall.resources import OutfallSettings, RulesResource
    from tests.conftest import materialize

    rules = tmp_path / "rules"
    springfield_rules(rules)
    data = small_town(tmp_path / "data")  # its sites are in woodbury and bellport: not rules files here
    result = materialize(
        [ingest_asset("sites")],
        resources={
            "duckdb": DuckDBResource(database=str(tmp_path / "w.duckdb")),
            "settings": OutfallSettings(data_dir=str(data), as_of="2026-06-30", rules_dir=str(rules)),
            "rules": RulesResource(rules_dir=str(rules)),
        },
    )
    assert result.success
    reasons = [
        r
        for (r,) in query_warehouse(
            tmp_path / "w.duckdb", "SELECT reason FROM quarantine WHERE dataset = 'sites' ORDER BY 1"
        )
    ]
    assert len(reasons) == 2
    assert all(
        "is not one of the jurisdictions of the rules files found (springfield.yaml in" in r for r in reasons
    )


def test_new_town_writes_no_model_towns_words_and_never_overwrites(tmp_path):
    out = tmp_path / "rules" / "springfield.yaml"
    done = run("new-town", "springfield", "--out", str(out), "--charges", "units", rules=RULES_DIR)
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert "jurisdiction: springfield" in text and "charge_model: units" in text
    assert not MODEL_WORDS.search(text) and "240" not in text and "253" not in text
    checked = subprocess.run(
        [sys.executable, "-m", "outfall.rules", "check", "--rules-dir", str(out.parent)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert checked.returncode == 2
    assert re.search(r"springfield\.yaml, line \d+: name: is empty: fill it in\n", checked.stderr)
    again = run("new-town", "springfield", "--out", str(out), "--charges", "units", rules=RULES_DIR)
    assert again.returncode == 2 and again.stderr.count("\n") == 1 and "exists already" in again.stderr
    assert out.read_text(encoding="utf-8") == text


@pytest.mark.slow
def test_springfield_runs_end_to_end_in_its_own_time_and_words(tmp_path):
    rules = tmp_path / "rules"
    springfield_rules(rules)
    data = springfield_town(tmp_path / "data")
    db = tmp_path / "springfield.duckdb"
    done = run(
        "run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-06-30", "--quiet", rules=rules
    )
    assert done.returncode == 0, done.stderr

    # a local time without an offset is Chicago time: 2026-02-02T09:00 CST is 15:00 UTC
    (epoch,) = query_warehouse(db, "SELECT epoch(collected_at) FROM lab_results WHERE sample_id = 'S-1'")[0]
    assert epoch == dt.datetime(2026, 2, 2, 15, 0, tzinfo=dt.UTC).timestamp()
    # the town's own limit: BOD over 200 mg/L (240 is a violation here, not under the model's 240)
    bod = query_warehouse(
        db,
        "SELECT sample_id, limit_value, rule FROM discharge_violations "
        "WHERE parameter = 'BOD' AND sample_id IN ('S-1', 'S-2') ORDER BY 1",
    )
    assert [(s, v) for s, v, _ in bod] == [("S-1", 200.0), ("S-2", 200.0)]
    assert all("Springfield Code ch. 41 Part 2" in rule for _, _, rule in bod)
    # the sites are judged by Springfield's stormwater rules, and the mailed notice is mailed
    assert query_warehouse(db, "SELECT DISTINCT jurisdiction FROM sites") == [("springfield",)]
    assert ("mailed",) in query_warehouse(db, "SELECT status FROM notices WHERE kind = 'sewer'")

    dashboards = db.parent / "dashboards"
    pages = sorted(dashboards.rglob("*.html"))
    assert (dashboards / "index.html") in pages and any("letters" in p.parts for p in pages)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not MODEL_WORDS.search(text), f"{page.relative_to(dashboards)} names the model town"
    letter = next(p for p in pages if "letters" in p.parts and "sewer" in p.parts and "notice" in p.name)
    text = letter.read_text(encoding="utf-8")
    assert "Springfield Code chapter 41, Part 2" in text and "City of Springfield" in text
    assert "times in America/Chicago" in (dashboards / "sewer.html").read_text(encoding="utf-8")
    for pdf in dashboards.rglob("*.pdf"):
        from pypdf import PdfReader

        words = " ".join(page.extract_text() or "" for page in PdfReader(str(pdf)).pages)
        assert not MODEL_WORDS.search(words), f"{pdf.name} names the model town"
    # a count and its noun agree: never "1 inspections", "of 1 sites" (issue 37)
    from tests.test_print import visible_text

    for name in ("index.html", "sewer.html", "stormwater.html", "billing.html"):
        words = visible_text((dashboards / name).read_text(encoding="utf-8"))
        wrong = re.findall(
            r"\b1 (?:inspections|sites|violations|notices|users|drafts|findings|actions)\b", words
        )
        assert not wrong, f"{name}: {wrong}"


def test_templates_write_a_letterhead_keyed_to_the_rules_found(tmp_path):
    rules = tmp_path / "rules"
    springfield_rules(rules)
    done = run("templates", "--out", str(tmp_path / "my_town"), rules=rules)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "my_town" / "letterhead.yaml").read_text(encoding="utf-8")
    assert "springfield:" in text and 'name: "City of Springfield"' in text and "springfield.yaml" in text
    assert not MODEL_WORDS.search(text)


@pytest.mark.slow
def test_a_run_whose_billing_fails_still_writes_its_index_saying_why(tmp_path):
    """Issue 37: the index is written on every run, saying which steps failed and why, with the pages
    written from what the warehouse holds."""
    rules = tmp_path / "rules"
    springfield_rules(rules)
    data = springfield_town(tmp_path / "data")
    rates = data / "sewer_rates" / "rates.csv"
    kept = [line for line in rates.read_text().splitlines() if "house_lateral" not in line]
    rates.write_text("\n".join(kept) + "\n")
    db = tmp_path / "springfield.duckdb"
    done = run("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-06-30", rules=rules)
    assert done.returncode == 1 and "asset sewer_billing failed: no sewer rate" in done.stderr
    dashboards = tmp_path / "dashboards"
    for name in ("index.html", "sewer.html", "stormwater.html", "billing.html", "quarantine.html"):
        assert (dashboards / name).is_file(), name
    index = (dashboards / "index.html").read_text(encoding="utf-8")
    assert index.index("This run did not finish") < index.index("What to do next")
    assert "sewer_billing" in index and "no sewer rate for 2026" in index and "City of Springfield" in index
