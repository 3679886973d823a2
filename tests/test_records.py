"""A mailed document is a record (contract 6.1, 6.2, 6.5): every violation is an item of one notice, a mailed
letter states the facts as they stood on its day and is never rewritten, the record is chained by SHA-256 and
`outfall verify` finds one changed byte; one address rule for every letter."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from dagster_duckdb import DuckDBResource

from assets.common import schema_ddl
from assets.ingest import ingest_asset
from assets.notices import notices
from assets.records import documents_issued, letters
from outfall.demo.generate import write_letterhead
from outfall.law import notices as law
from outfall.letters import parse_address_block
from outfall.resources import OutfallSettings
from outfall.rules import local_timezone
from outfall.warehouse import configure, ensure_schema
from tests.conftest import materialize, run_cli

D = dt.date
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
DATE_WORDS = re.compile(rf"\b({MONTHS}) (\d{{1,2}}), (\d{{4}})\b")


# ------------------------------------------------------------------ pure functions


def item(item="sample", ref="S-1", month_day=D(2026, 3, 3), known_on=None, resolved_on=None, sub="BOD|max"):
    return law.Item(
        "sewer", "IU-1", item, ref, "rule", month_day, known_on or month_day, resolved_on, (), sub
    )


def test_a_letter_lists_what_was_known_on_its_day_as_it_stood_then():
    late = item(
        "late_report", "2026-03-10", D(2026, 3, 10), D(2026, 3, 11), resolved_on=D(2026, 4, 20), sub="x"
    )
    later = item(ref="S-2", month_day=D(2026, 3, 30))
    listed = law.letter_items([later, late, item()], D(2026, 4, 1))
    assert [i.ref for i in listed] == ["S-1", "S-2", "2026-03-10"]  # samples first, then reports
    assert listed[2].resolved_on is None  # received after the letter's day
    assert law.letter_items([late], D(2026, 4, 20))[0].resolved_on == D(2026, 4, 20)  # the same day: known
    assert law.letter_items([later], D(2026, 3, 29)) == []  # collected after the letter's day
    assert law.letter_items([later], D(2026, 3, 30)) == [later]  # collected that day


def test_the_month_of_an_item_and_its_key():
    i = item(month_day=D(2026, 3, 31), known_on=D(2026, 4, 1))
    assert i.period == "2026-03" and i.key == (
        "sewer",
        "IU-1",
        "2026-03",
        "sample",
        "S-1",
        "2026-03-31",
        "BOD|max",
    )
    assert item(sub="TSS|max").key != i.key  # two parameters of one sample


def test_withdrawn_only_without_a_mailing():
    withdraw = law.Mailing(None, None, None, "sent to the wrong user")
    assert law.withdrawal([withdraw]) == "sent to the wrong user"
    assert law.status(None, law.withdrawal([withdraw])) == "withdrawn"
    mailed = law.Mailing(D(2026, 4, 2), 10, "7001")
    assert law.withdrawal([withdraw, mailed]) is None  # what was mailed stays mailed
    assert law.earliest_mailing([withdraw, mailed]) == mailed
    assert law.status(None, None) == "draft"


def test_correct_by_moves_with_the_period_end_given():
    saturday = D(2026, 5, 16)
    assert law.correct_by(D(2026, 5, 2), 14) == saturday
    assert law.correct_by(D(2026, 5, 2), 14, lambda d: d + dt.timedelta(days=2)) == D(2026, 5, 18)


def test_the_chain_is_in_the_order_of_issued_on_then_document_id():
    rows = [(D(2026, 5, 1), "B", "bb"), (D(2026, 4, 1), "Z", "zz"), (D(2026, 5, 1), "A", "aa")]
    chained = law.chain(rows)
    assert [c[0] for c in chained] == ["Z", "A", "B"]
    assert chained[0][2] == "" and chained[0][3] == law.sha256_hex(b"zzZ")
    assert chained[1][2] == chained[0][3] and chained[1][3] == law.chain_value(chained[0][3], "aa", "A")
    assert chained[2][3] == law.sha256_hex(f"{chained[1][3]}bbB".encode())


def test_an_address_written_as_text():
    assert parse_address_block("27 Jericho Tpke\nWoodbury, NY 11797") == (
        "27 Jericho Tpke",
        "Woodbury",
        "NY",
        "11797",
    )
    assert parse_address_block("PO Box 9, Bellport, NY 11713-0009") == (
        "PO Box 9",
        "Bellport",
        "NY",
        "11713-0009",
    )
    assert parse_address_block("19 Sycamore Ct") == ("19 Sycamore Ct", None, None, None)
    assert parse_address_block(None) == (None, None, None, None)


# ------------------------------------------------------------------ the assets on a small warehouse


ASSETS = [ingest_asset("notices_mailed"), notices, letters, documents_issued]


def new_warehouse(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    path = root / "w.duckdb"
    with duckdb.connect(str(path)) as con:
        configure(con, timezone=local_timezone())
        ensure_schema(con, schema_ddl())
    return path


def insert(db: Path, table: str, rows: list[dict]) -> None:
    with duckdb.connect(str(db)) as con:
        configure(con, timezone=local_timezone())
        con.register("_rows", pd.DataFrame(rows))
        con.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM _rows').fetchall()


def execute(db: Path, text: str) -> None:
    with duckdb.connect(str(db)) as con:
        con.execute(text).fetchall()


def query(db: Path, text: str) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(text).fetchall()


def run(db: Path, data: Path, as_of: str):
    result = materialize(
        ASSETS,
        resources={
            "duckdb": DuckDBResource(database=str(db)),
            "settings": OutfallSettings(data_dir=str(data), as_of=as_of),
        },
    )
    assert result.success
    return result


def violation(sample_id: str, at: str, value: float = 300.0) -> dict:
    return {
        "user_id": "IU-1",
        "sample_id": sample_id,
        "parameter": "BOD",
        "collected_at": pd.Timestamp(at, tz="America/New_York"),
        "value": value,
        "unit": "mg/L",
        "limit_value": 240.0,
        "limit_type": "max",
        "rule": "Woodbury Code ch. 253 Part 2, BOD",
        "sample_type": "composite",
    }


def finding(due_by: dt.date, satisfied_on: dt.date | None = None) -> dict:
    return {
        "site_id": "S-1",
        "requirement": "weekly",
        "trigger_date": due_by - dt.timedelta(days=7),
        "due_by": due_by,
        "satisfied_on": satisfied_on,
        "status": "late" if satisfied_on else "overdue",
        "jurisdiction": "woodbury",
        "rule": "Woodbury Code ch. 267, weekly inspection",
    }


@pytest.fixture
def town(tmp_path):
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
                "permit_effective": D(2025, 1, 1),
                "city": "Central Valley",
                "state": "NY",
                "zip": "10917",
            },
            {
                "user_id": "IU-2",
                "name": "Bolt Works",
                "district": "consolidated",
                "address": "2 Mill Rd",
                "city": "Central Valley",
                "state": "NY",
            },
        ],
    )
    insert(
        db,
        "sites",
        [
            {
                "site_id": "S-1",
                "jurisdiction": "woodbury",
                "disturbed_acres": 3.0,
                "construction_start": D(2026, 3, 2),
                "rain_gauge_id": "G",
                "name": "Oak Lots",
                "address": "3 Oak Ave",
                "applicant": "Oak Builders",
                "city": "Central Valley",
                "state": "NY",
                "zip": "10917",
            }
        ],
    )
    insert(
        db,
        "discharge_violations",
        [violation("A1", "2026-03-03 10:00"), violation("B1", "2026-03-05 10:00") | {"user_id": "IU-2"}],
    )
    insert(
        db,
        "statistic_violations",
        [
            {
                "user_id": "IU-1",
                "parameter": "BOD",
                "statistic": "monthly_avg",
                "period_start": D(2026, 3, 1),
                "period_end": D(2026, 3, 31),
                "value": 216.0,
                "limit_value": 150.0,
                "unit": "mg/L",
                "samples": 4,
                "rule": "special agreement SA-1: monthly average",
            }
        ],
    )
    insert(
        db,
        "discharges_without_permit",
        [
            {
                "user_id": "IU-1",
                "day": D(2026, 3, d),
                "finding": "permit_expired",
                "samples": 0,
                "flow_readings": 96,
                "permit_no": "P-1",
                "permit_expires": D(2026, 3, 1),
                "rule": "Woodbury Code ch. 253 Part 2, permits",
            }
            for d in (10, 11, 12)
        ],
    )
    insert(
        db,
        "obligations",
        [
            {
                "user_id": "IU-1",
                "obligation": "accidental_statement",
                "rule": "Woodbury Code ch. 253 Part 2, accidental discharges: written statement within 15 "
                "days",
                "law": "Woodbury Code ch. 253 Part 2",
                "adopted": True,
                "trigger_date": D(2026, 2, 20),
                "due": D(2026, 3, 7),
                "satisfied_on": D(2026, 4, 20),
                "status": "late",
                "reference": "discharge of 2026-02-20",
                "detail": "tank overflow",
            },
            # a federal duty the rules do not adopt (contract 7.1): on the user's record, in no notice
            {
                "user_id": "IU-1",
                "obligation": "slug_report",
                "rule": "40 CFR 403.8(f)(2)(vi)",
                "law": "40 CFR Part 403",
                "adopted": False,
                "trigger_date": D(2026, 3, 2),
                "due": D(2026, 3, 7),
                "satisfied_on": D(2026, 4, 20),
                "status": "late",
                "reference": "slug of 2026-03-02",
                "detail": "flow slug",
            },
        ],
    )
    insert(db, "swppp_inspection_findings", [finding(D(2026, 3, 9)), finding(D(2026, 3, 23), D(2026, 4, 6))])
    insert(
        db,
        "swppp_other_findings",
        [
            {
                "site_id": "S-1",
                "jurisdiction": "woodbury",
                "finding": "contractor_not_certified",
                "subject": "Dig Co",
                "trigger_date": D(2026, 3, 12),
                "due_by": D(2026, 3, 12),
                "status": "overdue",
                "rule": "Woodbury Code ch. 267, contractor certification",
            }
        ],
    )
    (data / "notices_mailed" / "mail.csv").write_text(
        "kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days,withdrawn_reason\n"
        "sewer,IU-1,2026-03,2026-04-02,7001,,\n"
        "stormwater,S-1,2026-03,2026-04-01,7002,10,\n"
        "sewer,IU-2,2026-03,,,,the sample was the Town's blank: no violation\n",
        encoding="utf-8",
    )
    return db, data


def test_every_violation_is_an_item_of_one_notice(town):
    db, data = town
    run(db, data, "2026-04-10")
    items = query(
        db, "SELECT kind, recipient_id, period, item, ref, in_letter FROM notice_items ORDER BY ALL"
    )
    assert items == [
        ("sewer", "IU-1", "2026-03", "late_report", "2026-03-07", True),
        ("sewer", "IU-1", "2026-03", "monthly_avg", "2026-03-01", True),
        ("sewer", "IU-1", "2026-03", "no_permit", "2026-03-01", True),
        ("sewer", "IU-1", "2026-03", "sample", "A1", True),
        ("sewer", "IU-2", "2026-03", "sample", "B1", True),
        ("stormwater", "S-1", "2026-03", "inspection", "weekly 2026-03-09", True),
        ("stormwater", "S-1", "2026-03", "inspection", "weekly 2026-03-23", True),
        ("stormwater", "S-1", "2026-03", "other", "contractor_not_certified", True),
    ]
    laws = query(db, "SELECT kind, law, count(*) FROM notice_items GROUP BY ALL ORDER BY ALL")
    assert laws == [
        ("sewer", "Woodbury Code ch. 253 Part 2", 5),
        ("stormwater", "Woodbury Code ch. 267", 3),
    ]
    rows = query(
        db,
        "SELECT recipient_id, status, violations, issued_on, correct_by, withdrawn_reason FROM notices "
        "ORDER BY ALL",
    )
    assert rows == [
        ("IU-1", "mailed", 4, D(2026, 4, 2), D(2026, 5, 4), None),  # May 2 is a Saturday (§ 25-a)
        ("IU-2", "withdrawn", 1, None, None, "the sample was the Town's blank: no violation"),
        ("S-1", "mailed", 3, D(2026, 4, 1), D(2026, 4, 13), None),
    ]  # April 11 is a Saturday
    letter = (db.parent / "dashboards" / "letters" / "sewer" / "notice_IU-1_2026-03.html").read_text()
    for words in (
        "Sample results over a limit",
        "Monthly averages over your permit",
        "Discharging without a permit",
        "3 days (March 10, 2026 to March 12, 2026)",
        "Reports late or not received",
        "not received as of April 2, 2026",
    ):
        assert words in letter, words
    withdrawn = query(db, "SELECT ready, reason FROM letters WHERE recipient_id = 'IU-2'")[0]
    assert withdrawn[0] is False and "withdrawn" in withdrawn[1]


def test_a_mailed_letter_is_written_once_as_the_facts_stood_on_its_day(town):
    db, data = town
    run(db, data, "2026-04-10")
    folder = db.parent / "dashboards"
    mailed = {f: (folder / f).read_bytes() for (f,) in query(db, "SELECT html_file FROM documents_issued")}
    assert len(mailed) == 2
    storm = mailed["letters/stormwater/notice_S-1_2026-03.html"].decode()
    assert "none recorded as of April 1, 2026" in storm and "April 6, 2026" not in storm
    for f, issued_on in query(db, "SELECT html_file, issued_on FROM documents_issued"):
        text = re.sub(r"<[^>]+>", " ", (folder / f).read_text())
        days = [dt.datetime.strptime(" ".join(m), "%B %d %Y").date() for m in DATE_WORDS.findall(text)]
        assert days and max(days) <= issued_on, (f, max(days))

    # Later data: a result corrected below its limit, a new violation of the same month, the late report
    # received, a later day judged. The mailed letters stay byte for byte as they were.
    execute(db, "DELETE FROM discharge_violations WHERE sample_id = 'A1'")
    insert(db, "discharge_violations", [violation("A9", "2026-03-30 10:00")])
    execute(
        db,
        "UPDATE swppp_inspection_findings SET satisfied_on = DATE '2026-04-20', status = 'late' "
        "WHERE due_by = DATE '2026-03-09'",
    )
    run(db, data, "2026-06-30")
    assert {f: (folder / f).read_bytes() for f in mailed} == mailed
    # contract 7.3: a document recorded as mailed is a record even when its letter was not ready (the site's
    # landowner is not on file), with ready false and the reason; written once all the same
    assert query(
        db,
        "SELECT ready, not_ready_reason LIKE '%landowner%' FROM documents_issued WHERE recipient_id = 'S-1'",
    ) == [(False, True)]
    # and the letters table said so on the run that recorded them
    assert query(db, "SELECT count(*) FROM letters WHERE mailed AND NOT recorded") == [(0,)]
    rows = query(
        db,
        "SELECT item, ref, in_letter, supported FROM notice_items WHERE recipient_id = 'IU-1' "
        "AND item = 'sample' ORDER BY ref",
    )
    assert rows == [("sample", "A1", True, False), ("sample", "A9", False, True)]
    review = query(
        db,
        "SELECT needs_review, items_in_letter, items_not_in_letter, items_unsupported, violations "
        "FROM notices WHERE recipient_id = 'IU-1'",
    )
    assert review == [(True, 4, 1, 1, 5)]
    assert query(db, "SELECT needs_review FROM notices WHERE recipient_id = 'S-1'") == [(False,)]
    assert query(db, "SELECT count(*) FROM documents_issued") == [(2,)]


@pytest.mark.slow  # `outfall verify` in new processes
def test_verify_finds_one_flipped_byte_and_the_chain_moves_for_an_earlier_document(town, tmp_path):
    db, data = town
    run(db, data, "2026-04-10")
    ok = run_cli("verify", "--warehouse", str(db))
    assert ok.returncode == 0, ok.stderr
    assert "2 mailed documents as issued" in ok.stdout
    chain = query(
        db,
        "SELECT document_id, prev_sha256, chain_sha256, sha256 FROM documents_issued "
        "ORDER BY issued_on, document_id",
    )
    assert [c[0] for c in chain] == ["NOV-ST-S-1-2026-03", "NOV-SE-IU-1-2026-03"] and chain[0][1] == ""
    assert chain[1][1] == chain[0][2] == law.chain_value("", chain[0][3], chain[0][0])

    path = db.parent / "dashboards" / "letters" / "sewer" / "notice_IU-1_2026-03.html"
    data_bytes = bytearray(path.read_bytes())
    data_bytes[len(data_bytes) // 2] ^= 0x01
    path.write_bytes(bytes(data_bytes))
    bad = run_cli("verify", "--warehouse", str(db))
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "NOV-SE-IU-1-2026-03" in bad.stderr and "changed" in bad.stderr
    data_bytes[len(data_bytes) // 2] ^= 0x01
    path.write_bytes(bytes(data_bytes))

    # A document dated before those on record, recorded later, takes its place at the head of the chain.
    insert(db, "discharge_violations", [violation("C1", "2026-02-10 10:00")])
    with (data / "notices_mailed" / "mail.csv").open("a", encoding="utf-8") as handle:
        handle.write("sewer,IU-1,2026-02,2026-03-20,7003,20,\n")
    run(db, data, "2026-04-10")
    chain = query(db, "SELECT document_id, prev_sha256 FROM documents_issued ORDER BY issued_on, document_id")
    assert [c[0] for c in chain] == ["NOV-SE-IU-1-2026-02", "NOV-ST-S-1-2026-03", "NOV-SE-IU-1-2026-03"]
    assert chain[0][1] == ""
    assert run_cli("verify", "--warehouse", str(db)).returncode == 0
    tampered = run_cli("verify", "--warehouse", str(db), "--dashboards", str(tmp_path / "nowhere"))
    assert tampered.returncode == 2 and "no such dashboards folder" in tampered.stderr
    verify_checks_the_folder_beside_a_moved_warehouse(db, tmp_path / "moved")


def verify_checks_the_folder_beside_a_moved_warehouse(db: Path, moved: Path) -> None:
    """A copy of the warehouse and its dashboards folder elsewhere: `outfall verify` reads the folder beside
    the copy (contract 7.3), so a byte changed in the copy is found and the original still verifies; a file
    missing from the copy's folder is named."""
    import shutil

    moved.mkdir()
    shutil.copy(db, moved / db.name)
    shutil.copytree(db.parent / "dashboards", moved / "dashboards")
    letter = moved / "dashboards" / "letters" / "sewer" / "notice_IU-1_2026-03.html"
    letter.write_bytes(letter.read_bytes().replace(b"</body>", b"</body> "))
    copy = run_cli("verify", "--warehouse", str(moved / db.name))
    assert copy.returncode == 1 and "NOV-SE-IU-1-2026-03" in copy.stderr and "changed" in copy.stderr
    assert run_cli("verify", "--warehouse", str(db)).returncode == 0
    letter.unlink()
    gone = run_cli("verify", "--warehouse", str(moved / db.name))
    assert gone.returncode == 1 and "notice_IU-1_2026-03.html is missing" in gone.stderr


def test_one_address_rule_for_every_letter(town):
    db, data = town
    run(db, data, "2026-04-10")
    # IU-2 has no ZIP code: its letter is not ready, and says what is missing in words
    (data / "notices_mailed" / "mail.csv").write_text(
        "kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days\n"
        "sewer,IU-2,2026-03,2026-04-02,7004,\n",
        encoding="utf-8",
    )
    run(db, data, "2026-04-10")
    ready, reason = query(db, "SELECT ready, reason FROM letters WHERE recipient_id = 'IU-2'")[0]
    assert ready is False and reason == (
        "the mailing address on file lacks the ZIP code (add it to the industrial users' file)"
    )
    assert query(db, "SELECT count(*) FROM letters WHERE NOT ready AND reason IS NULL") == [(0,)]
