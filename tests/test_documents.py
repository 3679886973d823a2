"""One path for every document (issue 45 item 6) and what it makes true of every kind (contract 8.1, 8.3,
8.4): the registry of kinds agrees with the templates, the folder of mailings and the docs; every mailing is a
record whatever its row lacks (a second day a record of its own, a run as of D reading no mailing after D);
an open address conflict holds a letter; the town serves itself no notice or order; a continuing violation is
stated to the day the inputs end it; a grease order goes to the owner the inputs name with the days its
record gives; rerunning with nothing new changes no table and rewrites no mailed file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from dagster_duckdb import DuckDBResource

from assets.ingest import ingest_asset
from assets.notices import notices
from assets.records import documents_issued, letters
from assets.sewer import enforcement as enf
from assets.worklist import worklist
from outfall.demo.generate import write_letterhead
from outfall.document_kinds import DAYS_GIVEN, DAYS_MOST, DAYS_NONE, KINDS, mailed_as, writers
from outfall.documents import Held, is_own, later_mailings_review, mailing_days, period_given, record_id
from outfall.ingest.notices import NOTICE_KINDS
from outfall.ingest.sewer import ENFORCEMENT_DATASET_NAMES
from outfall.law.notices import Mailing
from outfall.letters import TEMPLATES_DIR
from outfall.paths import REPO_ROOT
from outfall.resources import OutfallSettings
from tests.conftest import write
from tests.test_records import execute, insert, new_warehouse, query, run as run_records, violation

D = dt.date


# ------------------------------------------------------------------ the registry


def test_every_kind_has_its_template_its_own_files_and_its_row_in_the_docs():
    letters_md = (REPO_ROOT / "docs" / "letters.md").read_text(encoding="utf-8")
    prefixes: dict[tuple[str, str], str] = {}
    for k in KINDS.values():
        assert (TEMPLATES_DIR / k.template).is_file(), k.name
        assert f"`{k.name}`" in letters_md and f"`{k.template}`" in letters_md, k.name
        for (area, prefix), other in prefixes.items():
            clash = area == k.area and (prefix.startswith(k.file_prefix) or k.file_prefix.startswith(prefix))
            assert not clash, (k.name, other)  # removing one kind's stale drafts never touches another's
        prefixes[(k.area, k.file_prefix)] = k.name
        assert k.days in (DAYS_MOST, DAYS_GIVEN, DAYS_NONE)
        assert (k.mailed_as is None) or k.mailed
    # the folder of mailings takes exactly the kinds whose mailing it records
    assert NOTICE_KINDS == mailed_as() == ("sewer", "stormwater", "grease_order", "stop_work")


def test_every_writer_is_an_asset_of_the_definitions():
    from pipelines.definitions import defs

    keys = {k.to_user_string() for k in defs.resolve_asset_graph().get_all_asset_keys()}
    assert set(writers()) <= keys


def test_numbers_and_files_are_made_as_they_were():
    assert KINDS["sewer_notice"].make_number(recipient_id="IU-1", period="2026-03") == "NOV-SE-IU-1-2026-03"
    assert (
        KINDS["stormwater_notice"].make_file(recipient="S-1", period="2026-03") == "notice_S-1_2026-03.html"
    )
    assert KINDS["grease_order"].make_number(trap="GT-3", missed_due="20261010") == "GO-GT-3-20261010"
    assert KINDS["illicit_cost_notice"].make_number(case_id="ID-1") == "ID-1-COST"
    assert record_id("NOV-SE-IU-1-2026-03", 1) == "NOV-SE-IU-1-2026-03"
    assert record_id("NOV-SE-IU-1-2026-03", 2) == "NOV-SE-IU-1-2026-03/2"


# ------------------------------------------------------------------ pure readings of 8.3 and 8.4


@pytest.mark.parametrize(
    "kind, given, expected_days, reviewed, problem",
    [
        ("sewer_notice", None, 30, False, False),  # blank is the most the law allows (5.1 stands)
        ("sewer_notice", 30, 30, False, False),
        ("sewer_notice", 31, 31, True, True),  # a record all the same: its days as given, for review
        ("stormwater_notice", None, None, True, False),  # no default: recorded, listed for review
        ("stormwater_notice", 0, 0, False, False),
        ("grease_order", None, None, True, False),  # the law's 30 is a ceiling, never a default
        ("grease_order", 30, 30, False, False),
        ("grease_order", 31, 31, True, True),
        ("stop_work_order", None, None, False, False),
        ("stop_work_order", 5, None, True, False),  # an order that sets no period: the days are reviewed
    ],
)
def test_the_days_a_mailing_gives(kind, given, expected_days, reviewed, problem):
    most = None if kind == "stormwater_notice" else 30
    p = period_given(KINDS[kind], given, most, "Woodbury Code ch. 253 Part 2")
    assert p.days == expected_days
    assert bool(p.review) is reviewed and all("correct_within_days" in r for r in p.review)
    assert (p.problem is not None) is problem


def test_two_days_are_two_mailings_and_one_day_twice_is_one():
    rows = [Mailing(D(2026, 4, 15), 14, "7002"), Mailing(D(2026, 4, 8), None, "7001"), Mailing(None, None)]
    days = mailing_days(rows)
    assert [m.mailed_on for m in days] == [D(2026, 4, 8), D(2026, 4, 15)]
    review = later_mailings_review(KINDS["sewer_notice"], "NOV-SE-IU-1-2026-03", days)
    assert "mailed again on April 15, 2026" in review[0] and "NOV-SE-IU-1-2026-03/2" in review[0]
    assert "from the first mailing, April 8, 2026" in review[0]
    same_day = mailing_days([Mailing(D(2026, 4, 8), None, "7009"), Mailing(D(2026, 4, 8), None, "7001")])
    assert [m.certified_mail_no for m in same_day] == ["7001"]
    assert later_mailings_review(KINDS["sewer_notice"], "N", same_day) == []


def test_a_conflict_holds_the_letters_of_its_day_and_after():
    held = Held("two ZIP codes", D(2026, 4, 5))
    assert held.holds(None)  # a draft: held
    assert held.holds(D(2026, 4, 5)) and held.holds(D(2026, 4, 6))
    assert not held.holds(D(2026, 4, 4))  # a letter dated before the conflict arose is not held by it
    assert Held("two ZIP codes", None).holds(D(2000, 1, 1))


def test_own_names_compare_as_names_do():
    names = ["Town of Woodbury", "Town of Woodbury DPW"]
    assert is_own("town of woodbury  dpw", names) and is_own("Town of Woodbury.", names)
    assert not is_own("Town of Woodbury Country Club", names) and not is_own("", names)
    assert not is_own("Town of Woodbury", None)


# ------------------------------------------------------------------ the notices, letters and records


CHAIN = [ingest_asset("notices_mailed"), notices, letters, documents_issued, worklist]


def run(db: Path, data: Path, as_of: str):
    import tests.test_records as records

    saved = records.ASSETS
    records.ASSETS = CHAIN
    try:
        return run_records(db, data, as_of)
    finally:
        records.ASSETS = saved


SITE = {
    "jurisdiction": "woodbury",
    "disturbed_acres": 3.0,
    "construction_start": D(2026, 3, 2),
    "rain_gauge_id": "G",
    "city": "Central Valley",
    "state": "NY",
    "zip": "10917",
    "owner_address": "9 Elm St",
    "owner_city": "Central Valley",
    "owner_state": "NY",
    "owner_zip": "10917",
}


def weekly(site_id: str, due_by: dt.date) -> dict:
    return {
        "site_id": site_id,
        "requirement": "weekly",
        "trigger_date": due_by - dt.timedelta(days=7),
        "due_by": due_by,
        "status": "overdue",
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
                "city": "Central Valley",
                "state": "NY",
                "zip": "10917",
            }
        ],
    )
    insert(
        db,
        "sites",
        [
            {
                **SITE,
                "site_id": "S-1",
                "name": "Oak Lots",
                "applicant": "Oak Builders",
                "owner_name": "Oak LLC",
            },
            # the Town's own site (rules own_names): no notice, a line of the officer's list (contract 8.4)
            {
                **SITE,
                "site_id": "S-T",
                "name": "Crestview Ln water main",
                "applicant": "Town of Woodbury DPW",
                "owner_name": "Town of Woodbury DPW",
            },
            # finally stabilized March 20: its disturbance is stated to that day (contract 8.1)
            {
                **SITE,
                "site_id": "S-2",
                "name": "Elm Lots",
                "applicant": "Elm Builders",
                "owner_name": "Elm LLC",
                "final_stabilization": D(2026, 3, 20),
                "disturbed_acres": 12.0,
            },
        ],
    )
    insert(
        db, "discharge_violations", [violation("A1", "2026-03-03 10:00"), violation("A2", "2026-04-03 10:00")]
    )
    insert(db, "swppp_inspection_findings", [weekly("S-1", D(2026, 3, 9)), weekly("S-T", D(2026, 3, 9))])
    insert(
        db,
        "swppp_other_findings",
        [
            {
                "site_id": "S-2",
                "jurisdiction": "woodbury",
                "finding": "disturbance_over_limit",
                "detail": "12 acres disturbed from 2026-03-02",
                "trigger_date": D(2026, 3, 2),
                "due_by": D(2026, 3, 2),
                "status": "overdue",
                "days_late": 18,  # to the final stabilization: the law counts it no further
                "rule": "Woodbury Code ch. 267, SWPPP contents (4)",
            }
        ],
    )
    return db, data


def mailings(data: Path, *rows: str) -> None:
    (data / "notices_mailed" / "mail.csv").write_text(
        "kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days,withdrawn_reason\n"
        + "".join(f"{r}\n" for r in rows),
        encoding="utf-8",
    )


TABLES = ("notices", "notice_items", "letters", "letter_mailings", "documents_issued", "own_findings")


def snapshot(db: Path) -> dict[str, list[tuple]]:
    out = {t: query(db, f"SELECT * FROM {t} ORDER BY ALL") for t in TABLES}
    out["notices"] = query(db, "SELECT * EXCLUDE (as_of) FROM notices ORDER BY ALL")
    out["worklist"] = query(db, "SELECT * EXCLUDE (as_of) FROM worklist ORDER BY ALL")
    return out


def test_a_mailing_on_d_is_recorded_as_of_d_and_one_on_d_plus_1_only_from_then(town):
    db, data = town
    mailings(data, "sewer,IU-1,2026-03,2026-04-02,7001,,", "sewer,IU-1,2026-03,2026-04-03,7002,14,")
    run(db, data, "2026-04-02")
    assert query(db, "SELECT document_id, issued_on FROM documents_issued") == [
        ("NOV-SE-IU-1-2026-03", D(2026, 4, 2))
    ]
    # the period counts from April 2 (30 days: Saturday May 2, moved to Monday May 4 by GCL § 25-a)
    first = query(
        db, "SELECT mailings, correct_by, review FROM notices WHERE notice_id = 'NOV-SE-IU-1-2026-03'"
    )
    assert first == [(1, D(2026, 5, 4), None)]
    run(db, data, "2026-04-03")
    assert query(db, "SELECT document_id, issued_on, correct_by FROM documents_issued ORDER BY 1") == [
        ("NOV-SE-IU-1-2026-03", D(2026, 4, 2), D(2026, 5, 4)),
        ("NOV-SE-IU-1-2026-03/2", D(2026, 4, 3), None),
    ]
    files = query(db, "SELECT DISTINCT html_file FROM documents_issued")
    assert files == [("letters/sewer/notice_IU-1_2026-03.html",)]  # two mailings of one document
    again = query(db, "SELECT mailings, correct_by FROM notices WHERE notice_id = 'NOV-SE-IU-1-2026-03'")
    assert again == [(2, D(2026, 5, 4))]  # the deadline from the first mailing
    line = query(db, "SELECT person, action FROM worklist WHERE ref = 'NOV-SE-IU-1-2026-03'")
    assert line and line[0][0] == "superintendent" and "mailed again on April 3, 2026" in line[0][1]


def test_rerunning_with_nothing_new_changes_no_table_and_rewrites_no_mailed_file(town):
    db, data = town
    # a user without a ZIP code: its mailed letter is a record, not ready, the same on the first run and after
    insert(db, "industrial_users", [{"user_id": "IU-2", "name": "Bolt Works", "district": "consolidated"}])
    insert(db, "discharge_violations", [violation("B1", "2026-03-05 10:00") | {"user_id": "IU-2"}])
    mailings(
        data,
        "sewer,IU-1,2026-03,2026-04-02,7001,,",
        "sewer,IU-1,2026-03,2026-04-09,7002,14,",
        "sewer,IU-2,2026-03,2026-04-02,7004,,",
        "stormwater,S-1,2026-03,2026-04-01,7003,,",
    )
    run(db, data, "2026-04-20")
    folder = db.parent / "dashboards"
    files = {
        f: (folder / f).read_bytes() for (f,) in query(db, "SELECT DISTINCT html_file FROM documents_issued")
    }
    before = snapshot(db)
    assert len(before["documents_issued"]) == 4
    run(db, data, "2026-04-20")
    assert snapshot(db) == before
    assert {f: (folder / f).read_bytes() for f in files} == files


def test_a_stormwater_notice_mailed_without_its_days_is_a_record_with_a_line_to_review(town):
    db, data = town
    mailings(data, "stormwater,S-1,2026-03,2026-04-01,7003,,")
    run(db, data, "2026-04-10")
    assert query(db, "SELECT count(*) FROM quarantine WHERE dataset = 'notices_mailed'") == [(0,)]
    assert query(db, "SELECT status, issued_on, correct_by FROM notices WHERE recipient_id = 'S-1'") == [
        ("mailed", D(2026, 4, 1), None)
    ]
    ready, reason = query(
        db, "SELECT ready, not_ready_reason FROM documents_issued WHERE recipient_id = 'S-1'"
    )[0]
    assert ready is False and "days to correct are not set" in reason
    line = query(db, "SELECT person, action FROM worklist WHERE ref = 'NOV-ST-S-1-2026-03'")
    assert line == [
        (
            "stormwater_officer",
            "Review the record of notice NOV-ST-S-1-2026-03, mailed April 1, 2026: correct_within_days is "
            "blank: record the days the notice gave",
        )
    ]
    # the days recorded later close the line; the letter stays as it was mailed
    path = db.parent / "dashboards" / "letters" / "stormwater" / "notice_S-1_2026-03.html"
    mailed = path.read_bytes()
    mailings(data, "stormwater,S-1,2026-03,2026-04-01,7003,10,")
    run(db, data, "2026-04-10")
    assert query(db, "SELECT correct_by FROM notices WHERE recipient_id = 'S-1'") == [(D(2026, 4, 13),)]
    assert query(db, "SELECT count(*) FROM worklist WHERE ref = 'NOV-ST-S-1-2026-03'") == [(0,)]
    assert path.read_bytes() == mailed


def test_a_mailing_day_that_is_not_a_date_is_still_quarantined(town):
    db, data = town
    mailings(data, "stormwater,S-1,2026-03,soon,7003,10,", "sewer,IU-1,2026-03,2026-04-02,,,")
    run(db, data, "2026-04-10")
    reasons = query(db, "SELECT reason FROM quarantine WHERE dataset = 'notices_mailed'")
    assert len(reasons) == 1 and reasons[0][0].startswith(
        "'soon' in column 'mailed_on' is not a date (expected YYYY-MM-DD)"
    )
    assert query(db, "SELECT status FROM notices WHERE recipient_id = 'S-1'") == [("draft",)]
    # the sewer notice mailed without a certified number: a record, the number listed for review
    review = query(db, "SELECT review FROM letters WHERE document_id = 'NOV-SE-IU-1-2026-03'")[0][0]
    assert "certified_mail_no is blank" in review
    assert query(db, "SELECT count(*) FROM documents_issued WHERE document_id = 'NOV-SE-IU-1-2026-03'") == [
        (1,)
    ]


def test_the_towns_own_site_gets_no_notice_but_a_line_of_the_officers(town):
    db, data = town
    run(db, data, "2026-04-10")
    assert query(db, "SELECT count(*) FROM notices WHERE recipient_id = 'S-T'") == [(0,)]
    assert query(db, "SELECT count(*) FROM letters WHERE recipient_id = 'S-T'") == [(0,)]
    assert query(db, "SELECT count(*) FROM notices WHERE recipient_id = 'S-1'") == [(1,)]
    lines = query(db, "SELECT person, action, detail FROM worklist WHERE subject_id = 'S-T'")
    assert len(lines) == 1
    person, action, detail = lines[0]
    assert person == "stormwater_officer"
    assert action.startswith("Correct at the Town of Woodbury's own site Crestview Ln water main (S-T): ")
    assert "Inspection at least every 7 days" in action and "Town of Woodbury DPW" in detail


def test_a_line_of_the_towns_own_site_closes_by_its_record(town):
    """Contract 7.5: the own site's finding made late is a plain sentence; the month recorded seen to (a
    notices_mailed row with a withdrawn reason and no mailing day) closes it, and nothing is mailed."""
    db, data = town
    execute(
        db,
        "UPDATE swppp_inspection_findings SET status = 'late', satisfied_on = DATE '2026-03-11', "
        "days_late = 2 WHERE site_id = 'S-T'",
    )
    run(db, data, "2026-04-10")
    (action, detail), *_ = query(db, "SELECT action, detail FROM worklist WHERE subject_id = 'S-T'")
    assert action == (
        "See that it does not recur at the Town of Woodbury's own site Crestview Ln water main (S-T): "
        "Inspection at least every 7 days was due by March 9, 2026 and was made March 11, 2026, late."
    )
    assert "a notices mailed row of kind stormwater, recipient S-T, that month, a withdrawn reason" in detail
    assert ":" not in action.split(": ", 1)[1]  # no "requirement: ...; made: made ..." words
    mailings(data, "stormwater,S-T,2026-03,,,,seen to by the DPW")
    run(db, data, "2026-04-10")
    assert query(db, "SELECT count(*) FROM worklist WHERE subject_id = 'S-T'") == [(0,)]
    assert query(db, "SELECT closed_by FROM own_findings WHERE subject_id = 'S-T'") == [
        ("seen to by the DPW",)
    ]
    assert query(db, "SELECT count(*) FROM letters WHERE recipient_id = 'S-T'") == [(0,)]


def test_an_open_address_conflict_holds_a_letter_of_its_day(town):
    db, data = town
    insert(
        db,
        "illicit_discharges",
        [
            {
                "case_id": "ID-1",
                "premises": "1 Mill Rd",
                "discovered_on": D(2026, 4, 5),
                "responsible_party": "Acme Plating",
                "mailing_address": "1 Mill Rd\nWoodbury, NY 11797",
            }
        ],
    )
    mailings(data, "sewer,IU-1,2026-03,2026-04-02,7001,,")
    run(db, data, "2026-04-10")
    reasons = dict(query(db, "SELECT document_id, reason FROM letters WHERE recipient_id = 'IU-1'"))
    # the April draft is held until the ZIP code is confirmed; the March notice, mailed before the case
    # gave another ZIP code, is not
    assert "ZIP code differs between two input files" in reasons["NOV-SE-IU-1-2026-04"]
    assert reasons["NOV-SE-IU-1-2026-03"] is None
    assert query(db, "SELECT ready FROM documents_issued") == [(True,)]
    # corrected: the conflict is resolved and the draft is held no longer
    execute(db, "UPDATE illicit_discharges SET mailing_address = '1 Mill Rd\nCentral Valley, NY 10917'")
    run(db, data, "2026-04-10")
    reason = query(db, "SELECT reason FROM letters WHERE document_id = 'NOV-SE-IU-1-2026-04'")[0][0]
    assert "ZIP code" not in reason


def test_a_continuing_violation_is_stated_to_the_day_the_inputs_end_it(town):
    db, data = town
    run(db, data, "2026-04-10")
    draft = query(db, "SELECT description FROM notice_items WHERE recipient_id = 'S-2'")[0][0]
    assert "continued to March 20, 2026, the site's final stabilization" in draft
    assert "April 10, 2026" not in draft
    # a notice mailed before the stabilization states it as continuing on its own date, nothing later
    mailings(data, "stormwater,S-2,2026-03,2026-03-10,7005,10,")
    run(db, data, "2026-04-10")
    mailed = query(db, "SELECT description FROM notice_items WHERE recipient_id = 'S-2' AND in_letter")[0][0]
    assert "continuing on March 10, 2026" in mailed and "March 20" not in mailed
    letter = (db.parent / "dashboards" / "letters" / "stormwater" / "notice_S-2_2026-03.html").read_text()
    assert "continuing on March 10, 2026" in letter and "March 20, 2026" not in letter


# ------------------------------------------------------------------ grease orders (contract 8.4)


GREASE = [ingest_asset(n) for n in (*ENFORCEMENT_DATASET_NAMES, "parcels", "notices_mailed")]
GREASE += [enf.grease_trap_status, letters, documents_issued, worklist]


def test_a_grease_order_goes_to_the_owner_the_inputs_name_with_the_days_its_record_gives(tmp_path):
    from tests.test_assets_enforcement import letters as folder, rows, run as run_enforcement

    data = tmp_path / "data"
    data.mkdir()
    write_letterhead(data)
    header = "trap_id,user_id,parcel_id,establishment,address,pumpout_interval_days,set_on,"
    header += "owner_name,owner_address,owner_city,owner_state,owner_zip"
    traps = [
        "GT-1,,P-1,Main Street Diner,112 Main St,60,2026-03-01,"
        "Main Street Realty LLC,PO Box 5,Central Valley,NY,10917",
        "GT-2,,P-2,Harbor Lights,4 Harbor Rd,60,2026-03-01,,,,,",
        "GT-3,,P-9,Golden Wok,27 Jericho Tpke,60,2026-03-01,,,,,",
        "GT-4,,P-1,Corner Cafe,114 Main St,60,2026-03-01,Corner Holdings Inc.,PO Box 6,Central Valley,NY,"
        "10917",
        "GT-5,,P-5,Town Hall Kitchen,1 Main St,60,2026-03-01,Town of Woodbury,1 Main St,Central Valley,NY,"
        "10917",
    ]
    write(data, "grease_traps/t.csv", "\n".join([header, *traps]) + "\n")
    write(
        data,
        "parcels/p.csv",
        """
        parcel_id,district,property_class,bathrooms,owner,address,mailing_address,city,state,zip
        P-2,consolidated,commercial,1,"Rossi, Brian",4 Harbor Rd,PO Box 77,Central Valley,NY,10917
        """,
    )
    write(data, "pumpouts/p.csv", "trap_id,pumped_on,hauler,invoice_no\n")
    write(
        data,
        "notices_mailed/m.csv",
        "kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days\n"
        "grease_order,GT-1,2026-04,2026-05-04,7019 0001,14\n"
        "grease_order,GT-4,2026-04,2026-05-04,7019 0002,\n",
    )
    run_enforcement(tmp_path, data, GREASE, as_of="2026-05-10")
    assert rows(tmp_path, "SELECT count(*) FROM quarantine") == [(0,)]
    orders = rows(
        tmp_path,
        "SELECT trap_id, status, recipient_name, owner_from, correct_within_days, comply_by, ready_to_mail "
        "FROM grease_orders ORDER BY trap_id",
    )
    assert orders == [
        # the owner the trap's row names, the 14 days the administrator gave: May 4 + 14 = May 18
        ("GT-1", "mailed", "Main Street Realty LLC", "trap", 14, D(2026, 5, 18), True),
        # no owner on the trap's row: the owner of its parcel
        ("GT-2", "draft", "Rossi, Brian", "parcel", None, None, False),
        # no owner anywhere: never an invented one; the order is not ready
        ("GT-3", "draft", None, None, None, None, False),
        # mailed without its days: a record, no comply-by day, not ready, listed for review
        ("GT-4", "mailed", "Corner Holdings Inc.", "trap", None, None, False),
    ]  # GT-5: the Town's own kitchen gets no order (contract 8.4)
    gt1 = " ".join((folder(tmp_path) / "sewer_grease_order_GO-GT-1-20260430.html").read_text().split())
    assert "by May 18, 2026, 14 days from the date of this order" in gt1 and "Owner, " not in gt1
    gt2 = " ".join((folder(tmp_path) / "sewer_grease_order_GO-GT-2-20260430.html").read_text().split())
    assert "the administrator sets in this order (not more than 30)" in gt2 and "Rossi, Brian" in gt2
    reasons = dict(
        rows(tmp_path, "SELECT recipient_id, reason FROM letters WHERE letter_kind = 'grease_order'")
    )
    assert "the recipient is not on file" in reasons["GT-3"]
    assert "days to comply are not recorded" in reasons["GT-4"]
    assert rows(tmp_path, "SELECT document_id, ready FROM documents_issued ORDER BY 1") == [
        ("GO-GT-1-20260430", True),
        ("GO-GT-4-20260430", False),
    ]
    actions = [a for (a,) in rows(tmp_path, "SELECT action FROM worklist ORDER BY action")]
    assert any(
        a.startswith("Review the record of grease trap pump-out order GO-GT-4-20260430") for a in actions
    )
    assert any("Town of Woodbury's own site Town Hall Kitchen (GT-5)" in a for a in actions)
    assert not any("GO-GT-5" in a for a in actions)


# ------------------------------------------------------------------ the recipe: a new kind of letter


REMINDER_TEMPLATE = """{% extends "base.html" %}
{% block title %}Reminder {{ number }}{% endblock %}
{% block reference %}Reminder no. {{ number }}{% endblock %}
{% block date %}{% if draft %}DRAFT{% else %}{{ issued_on|date }}{% endif %}{% endblock %}
{% block content %}<p>The permit of {{ recipient_name }} expires on {{ expires|date }}.</p>{% endblock %}
"""


def test_a_new_kind_of_letter_is_an_entry_a_template_and_its_asset(tmp_path, monkeypatch):
    """docs/letters.md's recipe, followed with nothing else: a registry entry, a template (here the town's own
    copy in the data folder), and an asset that builds each document and hands it to the helper. The table
    of letters, the record of its mailings (a second day too), its drafts' worklist line and the to-record
    workbook's row all follow."""
    import datetime as dt

    from dagster import asset

    from assets.common import outputs, warehouse
    from assets.to_record import to_record
    from outfall import document_kinds
    from outfall.document_kinds import DocumentKind
    from outfall.documents import Document, Documents
    from outfall.letters import OVERRIDE_FOLDER, LetterWriter, Recipient
    from outfall.warehouse import transaction

    spec = DocumentKind(
        "permit_reminder",
        area="sewer",
        person="superintendent",
        template="sewer_permit_reminder.html",
        asset="permit_reminders",
        table="industrial_users",
        title="permit reminder",
        number="PR-{user_id}-{expires}",
        file="sewer_permit_reminder_{number}.html",
        recorded_by="record the day it is mailed in the notices mailed file (kind permit_reminder)",
        ready="the permit's expiry date",
        mailed_as="permit_reminder",
        draft_action="Mail the permit reminder{of_month} and record the mailing, or withdraw it",
    )
    monkeypatch.setitem(document_kinds.KINDS, spec.name, spec)

    @asset(deps=["industrial_users"])
    def permit_reminders(duckdb: DuckDBResource, settings: OutfallSettings):
        as_of = settings.as_of_date()
        with warehouse(duckdb) as con:
            users = con.execute(
                "SELECT user_id, name, address, city, state, zip FROM industrial_users"
            ).fetchall()
            docs = Documents(
                con,
                LetterWriter(settings.data_path()),
                outputs(duckdb, settings).dashboards,
                (spec.name,),
                as_of,
            )
            for user_id, name, street, city, state, zip_code in users:
                expires, period = dt.date(2026, 6, 30), "2026-06"
                number = spec.make_number(user_id=user_id, expires=f"{expires:%Y%m%d}")
                found = docs.mailings(spec.mailed_as, user_id, period)
                first = min((m.mailed_on for m in found if m.mailed_on), default=None)
                docs.add(
                    Document(
                        spec.name,
                        number,
                        spec.make_file(number=number),
                        user_id,
                        "woodbury",
                        {
                            "number": number,
                            "draft": first is None,
                            "issued_on": first or as_of,
                            "recipient_name": name,
                            "recipient_address_block": [street],
                            "expires": expires,
                            "issuer": "Administrator",
                        },
                        recipient=Recipient(name, street, city, state, zip_code),
                        fix="the industrial users' file",
                        status="mailed" if first else "draft",
                        dated=first,
                        period=period,
                        mailings=tuple(found),
                        found_on=dt.date(2026, 4, 1),
                    )
                )
            with transaction(con):
                docs.save(con)
                docs.write()

    db = new_warehouse(tmp_path)
    data = tmp_path / "data"
    (data / OVERRIDE_FOLDER).mkdir(parents=True)
    write_letterhead(data)
    (data / OVERRIDE_FOLDER / spec.template).write_text(REMINDER_TEMPLATE, encoding="utf-8")
    user = {"district": "consolidated", "city": "Central Valley", "state": "NY", "zip": "10917"}
    insert(
        db,
        "industrial_users",
        [
            {**user, "user_id": "IU-1", "name": "Acme Plating", "address": "1 Mill Rd"},
            {**user, "user_id": "IU-2", "name": "Bolt Works", "address": "2 Mill Rd"},
        ],
    )
    insert(
        db,
        "notices_mailed",
        [
            {
                "kind": "permit_reminder",
                "recipient_id": "IU-1",
                "period": "2026-06",
                "mailed_on": D(2026, 5, 1),
            },
            {
                "kind": "permit_reminder",
                "recipient_id": "IU-1",
                "period": "2026-06",
                "mailed_on": D(2026, 5, 8),
            },
        ],
    )
    chain = [permit_reminders, letters, documents_issued, worklist, to_record]
    import tests.test_records as records

    monkeypatch.setattr(records, "ASSETS", chain)
    run_records(db, data, "2026-05-20")
    assert query(db, "SELECT document_id, status, ready FROM letters ORDER BY 1") == [
        ("PR-IU-1-20260630", "mailed", True),
        ("PR-IU-2-20260630", "draft", False),
    ]
    assert query(db, "SELECT document_id, issued_on FROM documents_issued ORDER BY 1") == [
        ("PR-IU-1-20260630", D(2026, 5, 1)),
        ("PR-IU-1-20260630/2", D(2026, 5, 8)),
    ]
    lines = dict(query(db, "SELECT ref, action FROM worklist WHERE person = 'superintendent'"))
    assert (
        lines["PR-IU-2-20260630"]
        == "Mail the permit reminder of June 2026 and record the mailing, or withdraw it"
    )
    assert lines["PR-IU-1-20260630"].startswith("Review the record of permit reminder PR-IU-1-20260630")
    letter = db.parent / "dashboards" / "letters" / "sewer" / "sewer_permit_reminder_PR-IU-1-20260630.html"
    assert "May 1, 2026" in letter.read_text() and "expires on June 30, 2026" in letter.read_text()
    import openpyxl

    sheet = openpyxl.load_workbook(db.parent / "exports" / "to_record.xlsx")["notices_mailed"]
    assert [c.value for c in sheet[2]][:3] == ["permit_reminder", "IU-2", "2026-06"]
