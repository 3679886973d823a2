"""Notices of violation per contract 5.1: the pure functions (outfall.law.notices), the
notices_mailed input, and the notices asset materialized in process on small fixtures."""

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from dagster_duckdb import DuckDBResource

from assets.common import schema_ddl
from assets.ingest import ingest_asset
from assets.notices import notices
from outfall.demo.generate import write_letterhead
from outfall.document_kinds import KINDS
from outfall.documents import Period, period_given
from outfall.law import notices as law
from outfall.letters import Recipient, address_problems
from outfall.resources import OutfallSettings
from outfall.rules import load_rules, local_timezone
from outfall.warehouse import configure, ensure_schema
from tests.conftest import REPO, materialize

D = dt.date
MAX = load_rules("woodbury").notices.sewer_correction.at(D(2026, 6, 30)).max_days


# ------------------------------------------------------------------ pure functions


def test_correct_by_is_issued_on_plus_days_and_none_for_a_draft():
    assert law.correct_by(D(2026, 4, 2), 30) == D(2026, 5, 2)
    assert law.correct_by(D(2026, 1, 31), 30) == D(2026, 3, 2)
    assert law.correct_by(None, 30) is None
    assert law.correct_by(D(2026, 4, 2), None) is None


def test_earliest_mailed_on_counts_with_its_own_days():
    rows = [
        law.Mailing(D(2026, 4, 9), 10, "B"),
        law.Mailing(D(2026, 4, 2), 20, "C"),
        law.Mailing(D(2026, 4, 5), None),
    ]
    assert law.earliest_mailing(rows) == law.Mailing(D(2026, 4, 2), 20, "C")
    assert law.earliest_mailing([]) is None
    # a tie is decided by the certified mail number, never by the order of the rows
    tie = [law.Mailing(D(2026, 4, 2), 5, "Z"), law.Mailing(D(2026, 4, 2), 9, "A")]
    assert law.earliest_mailing(tie) == law.earliest_mailing(list(reversed(tie))) == tie[1]


def test_sewer_blank_is_the_rules_maximum_and_more_is_a_record_for_review():
    # contract 8.3 (instead of 5.1's refusal): more than the maximum is the mailing's record, for review
    sewer = KINDS["sewer_notice"]
    assert period_given(sewer, None, MAX).days == MAX
    assert period_given(sewer, MAX, MAX) == period_given(sewer, MAX, MAX, "x") == Period(MAX, (), None)
    assert period_given(sewer, 0, MAX).days == 0
    over = period_given(sewer, MAX + 1, MAX)
    assert over.days == MAX + 1 and over.review and over.problem
    assert period_given(sewer, None, None).days is None and period_given(sewer, None, None).review


def test_stormwater_needs_its_days():
    stormwater = KINDS["stormwater_notice"]
    assert period_given(stormwater, 7).days == 7
    # contract 8.3 (instead of 5.1's refusal): mailed without them, a record with no days, for review
    blank = period_given(stormwater, None)
    assert blank.days is None and "correct_within_days is blank" in blank.review[0]


def test_penalty_days_count_from_the_day_after_correct_by():
    by = D(2026, 5, 2)
    assert law.penalty_days(by, None, by) == 0  # the last day to correct itself: none
    assert law.penalty_days(by, None, D(2026, 5, 3)) == 1  # the day after: one
    assert law.penalty_days(by, None, D(2026, 5, 12)) == 10
    assert law.penalty_days(by, D(2026, 5, 3), D(2026, 6, 30)) == 0  # corrected the day after: none
    assert law.penalty_days(by, D(2026, 5, 6), D(2026, 6, 30)) == 3  # May 3, 4, 5
    assert (
        law.penalty_days(by, D(2026, 7, 6), D(2026, 6, 30)) == 59
    )  # a result after the day judged is unseen
    assert law.penalty_days(None, None, D(2026, 6, 30)) == 0  # a draft accrues nothing


def test_period_of_a_local_day():
    assert law.period_of(D(2026, 3, 31)) == "2026-03"


def test_a_full_mailing_address_or_why_not():
    full = Recipient("Acme", "1 Main St", "Woodbury", "NY", "10930")
    where = "the industrial users' file"
    assert address_problems(full, where) == []
    assert address_problems(Recipient("Acme", "1 Main St", "Woodbury", "NY", "10930-1234"), where) == []
    assert address_problems(Recipient("Acme", "1 Main St", "Woodbury", "NY", "109301234"), where) == []
    why = address_problems(Recipient("Acme", "1 Main St", None, "NY", " "), where)
    assert why == [
        "the mailing address on file lacks the city and the ZIP code (add it to the industrial users' file)"
    ]
    assert (
        "ZIP code '1093'"
        in address_problems(Recipient("Acme", "1 Main St", "Woodbury", "NY", "1093"), where)[0]
    )
    assert (
        "ZIP code '1093012'"
        in address_problems(Recipient("Acme", "1 Main St", "W", "NY", "1093012"), where)[0]
    )
    assert "not on file" in address_problems(None, where)[0]


# ------------------------------------------------------------------ fixtures


def new_warehouse(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "w.duckdb"
    with duckdb.connect(str(path)) as con:
        configure(con, timezone=local_timezone())
        ensure_schema(con, schema_ddl())
    return path


def insert(db: Path, table: str, rows: list[dict]) -> None:
    with duckdb.connect(str(db)) as con:
        configure(con, timezone=local_timezone())
        con.register("_rows", pd.DataFrame(rows))
        con.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM _rows').fetchall()


def query(db: Path, text: str) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(text).fetchall()


def run(db: Path, data: Path, assets, as_of: str = "2026-06-30"):
    result = materialize(
        assets,
        resources={
            "duckdb": DuckDBResource(database=str(db)),
            "settings": OutfallSettings(data_dir=str(data), as_of=as_of),
        },
    )
    assert result.success
    return result


def violation(user_id, sample_id, at, parameter="BOD", value=300.0):
    return {
        "user_id": user_id,
        "sample_id": sample_id,
        "parameter": parameter,
        "collected_at": pd.Timestamp(at, tz="America/New_York"),
        "value": value,
        "unit": "mg/L",
        "limit_value": 240.0,
        "limit_type": "max",
        "rule": "Woodbury Code ch. 253 Part 2, BOD",
    }


def finding(site_id, due_by, status="overdue"):
    return {
        "site_id": site_id,
        "requirement": "weekly",
        "trigger_date": due_by - dt.timedelta(days=7),
        "due_by": due_by,
        "satisfied_on": due_by + dt.timedelta(days=3) if status == "late" else None,
        "status": status,
        "jurisdiction": "bellport",
        "rule": "Bellport Code ch. 21, inspections",
    }


@pytest.fixture
def fixture(tmp_path):
    db = new_warehouse(tmp_path)
    data = tmp_path / "data"
    (data / "notices_mailed").mkdir(parents=True)
    write_letterhead(data)
    insert(
        db,
        "industrial_users",
        [
            {
                "user_id": "IU-1",
                "name": "Acme Plating",
                "district": "consolidated",
                "address": "1 Mill Rd",
                "city": "Central Valley",
                "state": "NY",
                "zip": "10917",
            },
            {"user_id": "IU-2", "name": "Bolt Works", "district": "consolidated", "address": "2 Mill Rd"},
        ],
    )
    insert(
        db,
        "sites",
        [
            {
                "site_id": "S-1",
                "jurisdiction": "bellport",
                "disturbed_acres": 6.0,
                "construction_start": D(2026, 1, 5),
                "rain_gauge_id": "G",
                "name": "Harbor Lots",
                "address": "3 Bay Ave",
                "applicant": "Shore Builders",
                "mailing_address": "PO Box 9",
                "city": "Bellport",
                "state": "NY",
                "zip": "11713",
                "owner_name": "Harbor Lots LLC",
                "owner_address": "40 Main St",
                "owner_city": "Bellport",
                "owner_state": "NY",
                "owner_zip": "11713",
            }
        ],
    )
    insert(
        db,
        "discharge_violations",
        [
            violation("IU-1", "A1", "2026-03-03 10:00"),
            violation("IU-1", "A2", "2026-03-31 23:30"),
            violation("IU-1", "A2", "2026-03-31 23:30", "TSS", 400.0),
            violation(
                "IU-1", "A3", "2026-04-01 00:30"
            ),  # local April (UTC it is still... April too, but after midnight)
            violation("IU-2", "B1", "2026-03-10 09:00"),
            violation("IU-2", "B2", "2026-04-10 09:00"),  # a month no mailing records: a draft
        ],
    )
    insert(
        db,
        "swppp_inspection_findings",
        [
            finding("S-1", D(2026, 4, 3)),
            finding("S-1", D(2026, 4, 20), "late"),
            finding("S-1", D(2026, 5, 4)),
        ],
    )
    (data / "notices_mailed" / "mail.csv").write_text(
        "kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days\n"
        "sewer,IU-1,2026-03,2026-04-09,7002,10\n"
        "sewer,IU-1,2026-03,2026-04-02,7001,\n"  # the earliest counts, with its blank = the maximum
        "sewer,IU-2,2026-03,2026-04-02,7003,20\n"
        "sewer,IU-9,2026-03,2026-04-02,7004,\n"  # no violations: no notice
        "stormwater,S-1,2026-04,2026-05-01,7005,14\n"
        "stormwater,S-1,2026-05,2026-06-01,7006,\n"  # a record without its days (contract 8.3): review
        "sewer,IU-1,2026-04,2026-05-01,7007,31\n",  # a record with more than the maximum: review
        encoding="utf-8",
    )
    return db, data


def test_notices_mailed_and_draft(fixture, tmp_path):
    db, data = fixture
    run(db, data, [ingest_asset("notices_mailed"), notices])
    read, kept, quarantined = query(
        db,
        "SELECT sum(rows_read), sum(rows_kept), sum(rows_quarantined) FROM "
        "ingested_files WHERE dataset = 'notices_mailed'",
    )[0]
    # contract 8.3 (instead of 5.1's quarantine): every mailing is a record, whatever its row lacks; what it
    # lacks or gets wrong is listed for review, naming the column
    assert (read, kept, quarantined) == (7, 7, 0)
    reviews = dict(query(db, "SELECT notice_id, review FROM notices WHERE review IS NOT NULL"))
    assert "correct_within_days is blank" in reviews["NOV-ST-S-1-2026-05"]
    assert f"correct_within_days 31 is more than the {MAX} days" in reviews["NOV-SE-IU-1-2026-04"]
    assert "ch. 253" in reviews["NOV-SE-IU-1-2026-04"]
    assert "recorded as mailed again on April 9, 2026" in reviews["NOV-SE-IU-1-2026-03"]
    rows = query(
        db,
        "SELECT kind, recipient_id, period, violations, status, issued_on, correct_by, letter, "
        "ready_to_send FROM notices ORDER BY kind, recipient_id, period",
    )
    assert rows == [
        # April 2 + 30 days = Saturday May 2: the period ends on Monday May 4 (GCL § 25-a)
        (
            "sewer",
            "IU-1",
            "2026-03",
            3,
            "mailed",
            D(2026, 4, 2),
            D(2026, 5, 4),
            "letters/sewer/notice_IU-1_2026-03.html",
            True,
        ),
        # 31 days given, more than the law allows: mailed all the same, its period as given, not ready
        (
            "sewer",
            "IU-1",
            "2026-04",
            1,
            "mailed",
            D(2026, 5, 1),
            D(2026, 6, 1),
            "letters/sewer/notice_IU-1_2026-04.html",
            False,
        ),
        (
            "sewer",
            "IU-2",
            "2026-03",
            1,
            "mailed",
            D(2026, 4, 2),
            D(2026, 4, 22),
            "letters/sewer/notice_IU-2_2026-03.html",
            False,
        ),
        ("sewer", "IU-2", "2026-04", 1, "draft", None, None, "letters/sewer/notice_IU-2_2026-04.html", False),
        (
            "stormwater",
            "S-1",
            "2026-04",
            2,
            "mailed",
            D(2026, 5, 1),
            D(2026, 5, 15),
            "letters/stormwater/notice_S-1_2026-04.html",
            True,
        ),
        # mailed without its days (contract 8.3): a record, no last day to correct, not ready, for review
        (
            "stormwater",
            "S-1",
            "2026-05",
            1,
            "mailed",
            D(2026, 6, 1),
            None,
            "letters/stormwater/notice_S-1_2026-05.html",
            False,
        ),
    ]
    why = query(db, "SELECT not_ready_reason FROM notices WHERE recipient_id = 'IU-2'")[0][0]
    assert "lacks the city, the state and the ZIP code" in why
    types = dict(
        query(
            db, "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'notices'"
        )
    )
    assert (types["period"], types["issued_on"], types["correct_by"], types["violations"]) == (
        "VARCHAR",
        "DATE",
        "DATE",
        "INTEGER",
    )
    # one letter per notice, listing every violation of the month; a draft says so and sets no date
    letters = tmp_path / "dashboards" / "letters"
    march = (letters / "sewer" / "notice_IU-1_2026-03.html").read_text(encoding="utf-8")
    assert all(
        s in march for s in ("A1", "A2", "suspended solids", "April 2, 2026", "certified mail, no. 7001")
    )
    assert "A3" not in march
    draft = (letters / "sewer" / "notice_IU-2_2026-04.html").read_text(encoding="utf-8")
    assert "DRAFT" in draft and "not mailed" in draft and 'content="no"' in draft
    storm = (letters / "stormwater" / "notice_S-1_2026-04.html").read_text(encoding="utf-8")
    assert "within <strong>14 days of the date of this notice</strong>" in storm and "PO Box 9" in storm
    assert "May 15, 2026" not in storm  # the last day to correct is after the notice's date: not in it
    for text in (march, draft, storm):
        assert "contract" not in text.lower() and '{"' not in text


def test_rerun_changes_nothing_and_an_empty_folder_gives_an_empty_table(fixture, tmp_path):
    db, data = fixture
    run(db, data, [ingest_asset("notices_mailed"), notices])
    first = query(db, "SELECT * EXCLUDE (as_of) FROM notices ORDER BY ALL")
    run(db, data, [ingest_asset("notices_mailed"), notices])
    assert query(db, "SELECT * EXCLUDE (as_of) FROM notices ORDER BY ALL") == first
    empty = new_warehouse(tmp_path / "empty")
    run(empty, tmp_path / "nothing", [ingest_asset("notices_mailed"), notices])
    assert query(empty, "SELECT count(*) FROM notices") == [(0,)]


# ------------------------------------------------------------------ end to end


@pytest.mark.slow
def test_outfall_run_writes_notices_as_the_contract_says(tmp_path):
    from outfall.pdf import find_browser
    from tests.conftest import run_cli, small_town, write

    data = small_town(tmp_path / "data")
    write_letterhead(data)
    write(
        data,
        "industrial_users/users.csv",
        """
        user_id,name,district,address,permit_no,permit_effective,permit_expires,normal_avg_flow_gpd,city,state,zip
        IU-1,Acme Plating,consolidated,1 Main St,P-1,2025-01-01,2027-01-01,14400,Central Valley,NY,10917
        IU-2,Blue Brewery,district_1,2 Mill Rd,P-2,2025-01-01,2026-08-01,,,,
        """,
    )
    write(
        data,
        "notices_mailed/mailed.csv",
        """
        kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days
        sewer,IU-1,2026-02,2026-03-09,7001,
        sewer,IU-1,2026-02,2026-03-02,7000,
        sewer,IU-1,2026-01,2026-02-02,7002,
        """,
    )
    db = tmp_path / "w.duckdb"
    result = run_cli("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-11-30")
    assert result.returncode == 0, result.stderr
    types = [
        tuple(r)
        for r in query(
            db,
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = 'notices' ORDER BY ordinal_position",
        )
    ][:8]
    assert types == [
        ("kind", "VARCHAR"),
        ("recipient_id", "VARCHAR"),
        ("period", "VARCHAR"),
        ("violations", "INTEGER"),
        ("status", "VARCHAR"),
        ("issued_on", "DATE"),
        ("correct_by", "DATE"),
        ("letter", "VARCHAR"),
    ]
    sewer_months = query(
        db,
        "SELECT user_id, strftime(collected_at, '%Y-%m'), count(*) FROM discharge_violations "
        "GROUP BY ALL ORDER BY ALL",
    )
    sample_items = query(
        db,
        "SELECT recipient_id, period, count(*) FROM notice_items WHERE item = 'sample' "
        "GROUP BY ALL ORDER BY ALL",
    )
    assert sample_items == sewer_months and sample_items
    assert query(
        db,
        "SELECT count(*) FROM notices n WHERE violations <> (SELECT count(*) FROM notice_items i "
        "WHERE (i.kind, i.recipient_id, i.period) = (n.kind, n.recipient_id, n.period))",
    ) == [(0,)]
    got = {
        (r[0], r[1]): r[2:]
        for r in query(
            db, "SELECT recipient_id, period, status, issued_on, correct_by, ready_to_send FROM notices"
        )
    }
    assert got[("IU-1", "2026-02")] == ("mailed", D(2026, 3, 2), D(2026, 3, 2) + dt.timedelta(days=MAX), True)
    assert ("IU-1", "2026-01") not in got  # a mailing with no violation makes no notice
    drafts = [v for k, v in got.items() if k != ("IU-1", "2026-02")]
    assert drafts and all(v[:3] == ("draft", None, None) for v in drafts)
    assert query(db, "SELECT count(*) FROM notices WHERE letter IS NULL") == [(0,)]
    dashboards = tmp_path / "dashboards"
    for (letter,) in query(db, "SELECT letter FROM notices"):
        assert (dashboards / letter).is_file(), letter
    assert query(
        db, "SELECT notices_mailed FROM pretreatment_annual_report WHERE user_id = 'IU-1' AND year = 2026"
    ) == [(1,)]
    first = query(db, "SELECT * EXCLUDE (as_of) FROM notices ORDER BY ALL")
    again = run_cli("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-11-30")
    assert again.returncode == 0, again.stderr
    assert query(db, "SELECT * EXCLUDE (as_of) FROM notices ORDER BY ALL") == first
    if find_browser() is None:
        pytest.skip("Chromium is not installed: the PDFs are not printed")
    from pypdf import PdfReader

    batch = PdfReader(str(dashboards / "letters" / "mailed_notices.pdf"))
    text = " ".join(page.extract_text() for page in batch.pages)
    assert 1 <= len(batch.pages) <= 3
    samples = [
        s
        for (s,) in query(
            db,
            "SELECT sample_id FROM discharge_violations WHERE user_id = 'IU-1' AND "
            "strftime(collected_at, '%Y-%m') = '2026-02'",
        )
    ]
    assert "Acme Plating" in text and "Central Valley, NY 10917" in text and "March 2, 2026" in text
    flat = " ".join(text.split())
    assert "imprisonment or civil penalty" in flat and "after the last day to correct is" not in flat
    assert samples and all(s in text for s in samples)
    assert "Blue Brewery" not in text  # a draft gets no PDF
    assert (dashboards / "letters" / "sewer" / "pdf" / "notice_IU-1_2026-02.pdf").is_file()
    assert not list((dashboards / "letters" / "sewer" / "pdf").glob("notice_IU-2_*.pdf"))


@pytest.mark.slow  # four new Python processes
def test_a_stormwater_notice_reads_the_same_under_every_hash_seed():
    # Regression (found by the fault drill): the law's texts of a month with both a weekly and a storm
    # finding were joined in a set's order, which changes with PYTHONHASHSEED, so a rerun rewrote the
    # letter. Two interpreters with different seeds must write the same words.
    script = (
        "import datetime as dt\nfrom assets.notices import _stormwater_context\nfrom outfall.law.notices "
        "import Item\nfrom outfall.rules import load_rules\nd = dt.date(2026, 5, 8)\nitems = "
        "[Item('stormwater', 'S-1', 'inspection', f'{r} 2026-05-08', 'Bellport Code ch. 21', d, d, "
        "None,\n              (('requirement', r), ('trigger_date', dt.date(2026, 5, 1)), ('due_by', d)), "
        "r)\n         for r in ('weekly', 'storm', 'weekly')]\nn = {'recipient_id': 'S-1', 'period': "
        "'2026-05', 'as_of': dt.date(2026, 5, 31)}\nprint(_stormwater_context(n, items, "
        "load_rules('woodbury'), dt.date(2026, 5, 31))['section_text'])\n"
    )
    texts = set()
    for seed in ("1", "2", "3", "4"):
        out = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            cwd=REPO,
            env=dict(os.environ, PYTHONHASHSEED=seed),
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        texts.add(out.stdout)
    assert len(texts) == 1 and "0.5 inch" in texts.pop()


def test_an_excursion_is_worded_with_its_length_and_the_rule_it_breaks():
    """A pH excursion past the time the law allows (an item of kind excursion) in a sewer letter: how long
    it lasted against what the law allows, its most extreme reading, the limit, and the rule's section."""
    from outfall import notice_words as words

    rules = load_rules("snohomish", REPO / "examples" / "towns" / "snohomish" / "rules")
    facts = (
        ("parameter", "pH"),
        ("limit_type", "max"),
        ("limit_value", 10.0),
        ("unit", "s.u."),
        ("excursion_minutes", 60.0),
        ("local_start", dt.datetime(2026, 5, 4, 14, 0)),
        ("local_end", dt.datetime(2026, 5, 4, 15, 15)),
        ("duration_min", 75.0),
        ("readings", 6),
        ("extreme_value", 10.4),
    )
    rule = "Snohomish Mun. Code 15.08.090: pH above 10.0 is prohibited"
    item = law.Item(
        "sewer",
        "SN-1",
        "excursion",
        "2026-05-04 14:00",
        rule,
        dt.date(2026, 5, 4),
        dt.date(2026, 5, 4),
        None,
        facts,
        "pH|max",
    )
    (section,) = words.sewer_sections([item], dt.date(2026, 6, 30), rules)
    assert section.title == "Continuous readings outside a limit for longer than allowed"
    assert section.rows == [
        [
            "pH",
            "May 4, 2026, 14:00 to May 4, 2026, 15:15",
            "1 hour 15 minutes (the law allows 1 hour)",
            "10.4 s.u.",
            "at most 10 s.u.",
        ]
    ]
    assert section.rules == [rule]
    assert law.SEWER_ITEMS.index("excursion") == 1  # listed after the samples, before the statistics
