"""Contract 8.7: a letter speaks in its own municipality's words. The model town's letters read as they did
(``tests/test_sample_outputs.py`` compares their text); a Village's (Bellport's stormwater notices) and a
City's (Seymour's, given a limit and the enforcement of its sewer use law below) read as theirs: the
municipality's kind and name, its officials, its method of service, its penalty as its section states it,
no other state's law that moves a deadline, nothing of another town's procedure."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO, run_cli
from tests.outputs_digest import letter_texts

pytestmark = pytest.mark.slow  # `outfall run` and `outfall demo` end to end

SEYMOUR = REPO / "examples" / "towns" / "seymour"
#: Words of the model town's procedure and state that no other municipality's letter may carry.
NOT_THEIRS = re.compile(
    r"\bTown\b|General Construction Law|§ 25-a|Consolidated Sewer District|Woodbury|civil penalty|"
    r"certified mail|administrator|Superintendent of Sewage"
)


def city_rules(folder: Path) -> Path:
    """Seymour's rules, with a BOD limit and how its sewer use law has a notice issued (made up for the test,
    as a city would write them): a notice served personally, "a reasonable time" to correct, set per notice,
    and the penalty of Seymour Code § 10.99 as the example states it (a fine only, each day separate)."""
    rules = yaml.safe_load((SEYMOUR / "rules" / "seymour.yaml").read_text(encoding="utf-8"))
    rules["discharge_limits"] = [
        {
            "parameter": "BOD",
            "limit_type": "max",
            "value": 250,
            "unit": "mg/L",
            "citation": "Seymour Code (test): BOD over 250 mg/L prohibited",
            "effective_from": None,
        }
    ]
    rules["sewer_enforcement"] = [
        {
            "issuer": "Director, Seymour Utility Department",
            "mailing": "personal service",
            "found_by": "Director of the Seymour Utility Department",
            "citation": "Seymour Code (test): the Director serves a written notice of the violation",
            "citation_not_corrected": "Seymour Code (test): § 10.99 applies to a violation not corrected",
            "section_text": {"citation": "Seymour Code (test)"},
            "effective_from": None,
        }
    ]
    rules["notices"] = {
        "sewer_correction": [
            {
                "set_per_notice": True,
                "words": "a reasonable time",
                "citation": "Seymour Code (test): a reasonable time to correct",
                "effective_from": None,
            }
        ]
    }
    rules["law_names"]["sewer_district"] = [
        {
            "name": "Seymour Utility Department",
            "short": "Seymour Utility Department",
            "citation": "Seymour Code (test)",
            "effective_from": None,
        }
    ]
    folder.mkdir(parents=True)
    (folder / "seymour.yaml").write_text(yaml.safe_dump(rules, sort_keys=False), encoding="utf-8")
    return folder


def run_city(rules: Path, data: Path, db: Path) -> dict[str, str]:
    done = run_cli(
        "run",
        "--rules",
        str(rules),
        "--data",
        str(data),
        "--warehouse",
        str(db),
        "--as-of",
        "2026-07-31",
        "--quiet",
    )
    assert done.returncode == 0, done.stderr
    return letter_texts(db)


def test_a_citys_sewer_notice_speaks_in_the_citys_words(tmp_path):
    rules = city_rules(tmp_path / "rules")
    data = tmp_path / "data"
    shutil.copytree(SEYMOUR / "data", data)
    db = tmp_path / "seymour.duckdb"
    draft = run_city(rules, data, db)["sewer/notice_SY-1_2026-06.html"]
    assert "The Director of the Seymour Utility Department has found 1 violation" in draft
    assert (
        "The period to correct, a reasonable time, is set by the notice: its days will be stated here and "
        "run from the day the notice is mailed by personal service." in draft
    )
    assert (
        "Seymour Code § 10.99, General penalty provides: upon conviction, a fine not exceeding $2,500.00; "
        "each day a violation occurs or continues is a separate offense." in draft
    )
    assert "practice" not in draft  # the city's rules state no practice of counting penalty days
    assert not NOT_THEIRS.findall(draft)
    # mailed, with the days the record gives: served as the city's law says, and no deadline moved
    (data / "notices_mailed").mkdir()
    (data / "notices_mailed" / "mailed.csv").write_text(
        "kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days,withdrawn_reason\n"
        "sewer,SY-1,2026-06,2026-07-06,,20,\n",
        encoding="utf-8",
    )
    mailed = run_city(rules, data, db)["sewer/notice_SY-1_2026-06.html"]
    assert "By personal service" in mailed
    assert "You must correct these violations within 20 days of the date of this notice" in mailed
    assert "Saturday" not in mailed  # the city's rules name no law that moves a period off a weekend
    assert not NOT_THEIRS.findall(mailed)


def test_a_villages_letters_speak_in_the_villages_words(demo_town):
    letters = {
        name: text
        for name, text in letter_texts(demo_town / "outfall.duckdb").items()
        if re.search(r"_S-B\d", name)  # the Village of Bellport's sites
    }
    assert letters, "the demo has no letter to a site of the Village"
    for name, text in letters.items():
        assert "Village of Bellport" in text, name
        assert "Stormwater Management Officer, Village of Bellport" in text, name
        assert (
            "may be appealed to the municipality (Village of Bellport)" in text or "Stop-work order" in text
        )
        assert "Each week's continued violation" in text or "Stop-work order" in text, name
        # New York's law that moves a period's last day is the Village's own (its rules name it), the rest not
        assert not re.findall(r"\bTown\b|Woodbury|Consolidated Sewer District|each day's", text), name
