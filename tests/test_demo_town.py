"""The demo town end to end (`outfall demo`), as a new user sees it: every violation the law names is an item
of exactly one notice, each case the contract's section 6 reads is shown, mailed letters stay as issued when a
later day is judged, and the batches to mail hold only letters with a full address."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import query_warehouse, run_cli

pytestmark = pytest.mark.slow

MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
DATE_WORDS = re.compile(rf"\b({MONTHS}) (\d{{1,2}}), (\d{{4}})\b")
ZIP_LINE = re.compile(r"[A-Za-z .]+, [A-Z]{2} \d{5}(-\d{4})?")


@pytest.fixture(scope="module")
def demo(demo_town) -> Path:
    return demo_town


def q(demo: Path, text: str) -> list[tuple]:
    return query_warehouse(demo / "outfall.duckdb", text)


def test_every_violation_is_an_item_of_exactly_one_notice(demo):
    checks = {
        "discharge_violations": "SELECT count(*) FROM discharge_violations v WHERE (SELECT count(DISTINCT "
        "(i.kind, i.recipient_id, i.period)) FROM notice_items i WHERE i.item = 'sample' AND i.recipient_id "
        "= v.user_id AND i.ref = v.sample_id AND i.parameter = v.parameter AND i.period = "
        "strftime(v.collected_at, '%Y-%m')) <> 1",
        "statistic_violations": "SELECT count(*) FROM statistic_violations v WHERE (SELECT count(DISTINCT "
        "(i.kind, i.recipient_id, i.period)) FROM notice_items i WHERE i.item = v.statistic AND "
        "i.recipient_id = v.user_id AND i.item_on = v.period_end AND i.parameter = v.parameter AND i.ref = "
        "strftime(v.period_start, '%Y-%m-%d')) <> 1",
        "discharges_without_permit": "SELECT count(*) FROM discharges_without_permit v WHERE (SELECT "
        "count(DISTINCT (i.kind, i.recipient_id, i.period)) FROM notice_items i WHERE i.item = 'no_permit' "
        "AND i.recipient_id = v.user_id AND i.period = strftime(v.day, '%Y-%m')) <> 1",
        "required_testing": "SELECT count(*) FROM required_testing v WHERE v.status = 'missed' AND (SELECT "
        "count(DISTINCT (i.kind, i.recipient_id, i.period)) FROM notice_items i WHERE i.item = "
        "'missed_testing' AND i.recipient_id = v.user_id AND i.parameter = v.parameter AND i.ref = "
        "strftime(v.period_start, '%Y-%m-%d')) <> 1",
    }
    for table, text in checks.items():
        assert q(demo, text) == [(0,)], table
    # an item is in one notice only, and each notice counts its items
    assert q(
        demo,
        "SELECT count(*) FROM (SELECT kind, recipient_id, item, ref, item_on, description, count(DISTINCT "
        "period) AS n FROM notice_items GROUP BY ALL) WHERE n > 1",
    ) == [(0,)]
    assert q(
        demo,
        "SELECT count(*) FROM notices n WHERE violations <> (SELECT count(*) FROM notice_items i WHERE "
        "(i.kind, i.recipient_id, i.period) = (n.kind, n.recipient_id, n.period))",
    ) == [(0,)]


def test_the_demo_shows_each_case(demo):
    items = dict(q(demo, "SELECT item, count(*) FROM notice_items GROUP BY ALL"))
    assert {
        "sample",
        "monthly_avg",
        "no_permit",
        "late_report",
        "missed_testing",
        "inspection",
        "other",
    } <= set(items)
    # IU-013 (expired), IU-016 (not yet in effect) and IU-021, which never held a permit (contract 6.5)
    assert q(demo, "SELECT count(DISTINCT recipient_id) FROM notice_items WHERE item = 'no_permit'") == [(3,)]
    assert q(demo, "SELECT status, withdrawn_reason IS NOT NULL FROM notices WHERE status = 'withdrawn'") == [
        ("withdrawn", True)
    ]
    held = q(
        demo,
        "SELECT recipient_id, reason FROM letters WHERE letter_kind = 'sewer_notice' AND mailed AND NOT "
        "ready",
    )
    assert len(held) == 1 and "ZIP code" in held[0][1]
    # S-W05's ten days from October 2 end on Columbus Day: the period ends the next business day (§ 25-a)
    assert q(demo, "SELECT correct_by FROM notices WHERE recipient_id = 'S-W05' AND status = 'mailed'") == [
        (dt.date(2026, 10, 13),)
    ]
    assert q(demo, "SELECT count(*) FROM required_testing WHERE status = 'missed'")[0][0] >= 1


def test_the_demo_shows_each_reading_of_contract_7(demo):
    # 7.1: federal duties on the users' record, in no letter and no count of violations
    assert q(
        demo, "SELECT DISTINCT law, adopted FROM obligations WHERE obligation = 'violation_notice_24h'"
    ) == [("40 CFR Part 403", False)]
    assert q(
        demo,
        "SELECT count(*) FROM notice_items WHERE law <> 'Woodbury Code ch. 253 Part 2' AND kind = 'sewer'",
    ) == [(0,)]
    # the Town's sample of the business never permitted: a violation, but no 24-hour notice asked of it
    assert q(demo, "SELECT count(*) FROM notice_items WHERE recipient_id = 'IU-021' AND item = 'sample'") == [
        (1,)
    ]
    assert q(demo, "SELECT count(*) FROM obligations WHERE user_id = 'IU-021'") == [(0,)]
    # 7.2 and 8.3 (instead of quarantining the row): a stormwater notice mailed without its days to correct is
    # mailed and a record, no last day to correct, its letter not ready, and the officer reviews the row
    assert q(demo, "SELECT count(*) FROM quarantine WHERE dataset = 'notices_mailed'") == [(0,)]
    held = q(
        demo,
        "SELECT status, issued_on, correct_by, not_ready_reason, review FROM notices "
        "WHERE recipient_id = 'S-B03' AND period = '2026-10'",
    )
    assert held[0][:3] == ("mailed", dt.date(2026, 11, 16), None)
    assert "days to correct are not set" in held[0][3] and "correct_within_days is blank" in held[0][4]
    assert q(demo, "SELECT ready FROM documents_issued WHERE document_id = 'NOV-ST-S-B03-2026-10'") == [
        (False,)
    ]
    # 7.3: the mailed grease order and stop-work order are records; the order rests on a mailed notice
    recorded = dict(q(demo, "SELECT document_id, letter_kind FROM documents_issued"))
    assert recorded["GO-GT-003-20261010"] == "grease_order"
    assert recorded["SWO-W-S-W05-2026-10"] == "stop_work_order"
    assert q(demo, "SELECT notice_ids FROM swppp_stop_work_orders WHERE status = 'mailed'") == [
        ("NOV-ST-S-W05-2026-09",)
    ]
    # a mailed notice whose letter was not ready is a record all the same (IU-017: no ZIP code)
    assert q(demo, "SELECT ready FROM documents_issued WHERE document_id = 'NOV-SE-IU-017-2026-05'") == [
        (False,)
    ]
    # 7.4: a landowner who is not the applicant; IU-005's 15-day statement moved off Saturday December 5
    assert q(
        demo, "SELECT recipient_name FROM notices WHERE recipient_id = 'S-W05' AND status = 'mailed'"
    ) == [("Orchard Hill Land Holdings LLC",)]
    assert q(
        demo, "SELECT due FROM obligations WHERE user_id = 'IU-005' AND obligation = 'accidental_statement'"
    ) == [(dt.date(2026, 12, 7),)]
    # a late appeal: the abatement is not suspended
    assert q(
        demo,
        "SELECT status FROM illicit_discharge_deadlines WHERE case_id = 'ID-2026-07' AND "
        "obligation = 'abatement'",
    ) == [("overdue",)]


def test_the_demo_shows_each_reading_of_contract_8_5(demo):
    # a late appeal is no appeal: no hearing row, no hearing line (ID-2026-07's came Monday October 19, its
    # 15th day was Friday October 16); the timely one pending (ID-2026-05) asks for its hearing
    assert q(
        demo,
        "SELECT case_id FROM illicit_discharge_deadlines WHERE obligation = 'appeal_hearing' ORDER BY 1",
    ) == [("ID-2026-03",), ("ID-2026-05",), ("ID-2026-06",)]
    hearings = q(demo, "SELECT subject_id FROM worklist WHERE action LIKE 'Hold the appeal hearing%'")
    assert ("ID-2026-07",) not in hearings and ("ID-2026-05",) in hearings
    # no ch. 185 letter says a penalty stops during an appeal
    folder = demo / "dashboards"
    for (file,) in q(demo, "SELECT letter FROM letters WHERE letter_kind LIKE 'illicit%'"):
        text = (folder / file).read_text(encoding="utf-8")
        assert "penalty accrues" not in text and "no penalty" not in text, file
    # the permit renewal reminder is the Town's practice, never a chapter of the code
    assert q(demo, "SELECT DISTINCT law, adopted FROM obligations WHERE obligation = 'permit_renewal'") == [
        ("Town practice: permit renewal reminder", False)
    ]
    # the significant-noncompliance list states each criterion with exactly its periods (IU-017: chronic in
    # both halves of 2026, the technical review criteria in January-June only)
    (criteria,) = q(demo, "SELECT criteria FROM snc_publication WHERE user_id = 'IU-017'")[0]
    assert "technical review criteria violations of BOD (January 1, 2026 - June 30, 2026)" in criteria
    assert (
        "technical review criteria violations of BOD (January 1, 2026 - June 30, 2026; July" not in criteria
    )
    # a description states only what was known when it was written: ID-2026-06's, dated August 13, says
    # nothing of the appeal decided September 3
    (nov,) = q(
        demo,
        "SELECT letter FROM letters WHERE letter_kind = 'illicit_notice_of_violation' AND "
        "recipient_id = 'ID-2026-06'",
    )[0]
    assert "hydrant" not in (folder / nov).read_text(encoding="utf-8")
    # the treatment plant's record is not judged as a user's samples (issue 45)
    assert q(demo, "SELECT count(*) FROM lab_results WHERE user_id = 'IU-020'") == [(0,)]
    assert q(demo, "SELECT count(*) FROM discharge_violations WHERE sample_id LIKE 'UCI-%'") == [(0,)]


def test_the_demo_shows_each_reading_of_contract_8(demo):
    # 8.3: IU-002's March notice recorded as mailed on two days: two records of one document, the period
    # counting from the first, and the superintendent reviews it
    assert q(
        demo,
        "SELECT document_id, issued_on, html_file FROM documents_issued WHERE recipient_id = 'IU-002' "
        "ORDER BY issued_on",
    ) == [
        ("NOV-SE-IU-002-2026-03", dt.date(2026, 4, 8), "letters/sewer/notice_IU-002_2026-03.html"),
        ("NOV-SE-IU-002-2026-03/2", dt.date(2026, 4, 15), "letters/sewer/notice_IU-002_2026-03.html"),
    ]
    assert q(demo, "SELECT issued_on, correct_by FROM notices WHERE notice_id = 'NOV-SE-IU-002-2026-03'") == [
        (dt.date(2026, 4, 8), dt.date(2026, 5, 8))
    ]
    reviews = [a for (a,) in q(demo, "SELECT action FROM worklist WHERE action LIKE 'Review the record of%'")]
    assert any("NOV-SE-IU-002-2026-03" in a and "mailed again on April 15, 2026" in a for a in reviews)
    assert any("NOV-ST-S-B03-2026-10" in a and "correct_within_days" in a for a in reviews)
    # 8.4: the grease order goes to the owner the inputs name, with the administrator's days and its day
    assert q(demo, "SELECT recipient_name, correct_within_days, comply_by FROM grease_orders") == [
        ("Harbor Road Realty LLC", 14, dt.date(2026, 11, 18))
    ]
    order = (
        demo / "dashboards" / "letters" / "sewer" / "sewer_grease_order_GO-GT-003-20261010.html"
    ).read_text(encoding="utf-8")
    assert "by November 18, 2026" in " ".join(order.split()) and "Owner, " not in order
    # 8.4: the Town's own site gets no notice or order; each finding is a line of the officer's
    assert q(demo, "SELECT count(*) FROM notices WHERE recipient_id = 'S-W04'") == [(0,)]
    assert q(demo, "SELECT count(*) FROM swppp_notices WHERE site_id = 'S-W04'") == [(0,)]
    lines = q(
        demo, "SELECT person, action FROM worklist WHERE subject_id = 'S-W04' AND source = 'own_findings'"
    )
    assert lines and all(p == "stormwater_officer" and "Town of Woodbury's own site" in a for p, a in lines)
    # 8.4: a letter to a recipient whose ZIP code two files give differently is held
    assert q(demo, "SELECT ready FROM letters WHERE document_id = 'ID-2026-02-NOV'") == [(False,)]
    # 8.1: S-W01's disturbance, ended by the site's final stabilization, is stated to that day
    assert q(
        demo,
        "SELECT count(*) FROM notice_items WHERE recipient_id = 'S-W01' AND ref = 'disturbance_over_limit' "
        "AND description LIKE '%continued to October 20, 2026, the site''s final stabilization%'",
    ) == [(1,)]


def test_mailed_letters_stay_as_issued_on_a_later_day(demo_town, tmp_path):
    demo = tmp_path / "town"  # a copy: the demo town is shared with other tests
    shutil.copytree(demo_town, demo)
    folder = demo / "dashboards"
    records = q(demo, "SELECT document_id, issued_on, file, html_file FROM documents_issued ORDER BY 1")
    assert len(records) >= 4
    before = {f: (folder / f).read_bytes() for _d, _i, file, html in records for f in {file, html}}
    for document_id, issued_on, _file, html in records:
        text = re.sub(r"<[^>]+>", " ", (folder / html).read_text(encoding="utf-8"))
        # ch. 185 requires its notice of violation to set the deadline
        # for abatement: that date alone may follow
        text = re.sub(r"must be completed by\s+(\w+ \d+, \d{4})", "", text)
        # a grease order prints its comply-by day (contract 8.4): that date alone may follow too
        text = re.sub(r"by\s+(\w+ \d+, \d{4}),\s+\d+ days from the date of this order", "", text)
        days = [dt.datetime.strptime(" ".join(m), "%B %d %Y").date() for m in DATE_WORDS.findall(text)]
        assert days and max(days) <= issued_on, document_id
    # later data and a later day judged: the mailed files are byte for byte the same
    data = tmp_path / "data"
    shutil.copytree(demo / "data", data)
    with (data / "inspections" / "inspections.csv").open("a", encoding="utf-8") as handle:
        handle.write("S-W05,2026-12-02T09:00,Late Inspector,routine,10,made after the notice\n")
    again = run_cli(
        "run",
        "--data",
        str(data),
        "--warehouse",
        str(demo / "outfall.duckdb"),
        "--as-of",
        "2026-12-31",
        "--dashboards",
        str(folder),
        timeout=600,
    )
    assert again.returncode == 0, again.stderr
    assert {f: (folder / f).read_bytes() for f in before} == before
    assert run_cli("verify", "--warehouse", str(demo / "outfall.duckdb")).returncode == 0


def test_the_batches_to_mail_hold_only_letters_with_a_full_address(demo):
    from pypdf import PdfReader

    from outfall.pdf import find_browser

    if find_browser() is None:
        pytest.skip("Chromium is not installed: no PDFs")
    letters = demo / "dashboards" / "letters"
    batches = [letters / "mailed_notices.pdf", *letters.glob("*/ready_to_mail.pdf")]
    assert batches and all(b.is_file() for b in batches)
    html_of = {Path(f).stem: demo / "dashboards" / f for (f,) in q(demo, "SELECT letter FROM letters")}
    ready = {Path(f).stem for (f,) in q(demo, "SELECT letter FROM letters WHERE ready")}
    for batch in batches:
        for title in (o.title for o in PdfReader(str(batch)).outline):
            assert title in ready, (batch.name, title)
            block = re.search(r"<address>(.*?)</address>", html_of[title].read_text(encoding="utf-8"), re.S)
            lines = [ln.strip() for ln in re.sub(r"<[^>]+>", "\n", block.group(1)).splitlines() if ln.strip()]
            assert len(lines) >= 3 and ZIP_LINE.fullmatch(lines[-1]), (title, lines)


def test_renewing_iu_013_through_the_workbook_adds_no_notice(demo_town, tmp_path):
    # contract 8.2: the Superintendent's list says "Renew permit SIU-2021-013"; done through the workbook (the
    # permits sheet of exports/to_record.xlsx, saved into the permits folder) and run as of December 14, it
    # adds a permit, takes no day from the old one, adds no notice and closes the renewal line
    import openpyxl

    demo = tmp_path / "town"  # a copy: the demo town is shared with other tests
    shutil.copytree(demo_town, demo)
    iu013 = "SELECT period, status, violations FROM notices WHERE recipient_id = 'IU-013' ORDER BY period"
    before = q(demo, iu013)
    unpermitted = (
        "SELECT min(day), max(day), count(*) FROM discharges_without_permit WHERE user_id = 'IU-013'"
    )
    assert q(demo, unpermitted) == [(dt.date(2026, 10, 1), dt.date(2026, 11, 30), 61)]
    assert q(demo, "SELECT count(*) FROM worklist WHERE action LIKE 'Renew permit SIU-2021-013%'") == [(1,)]

    workbook = openpyxl.load_workbook(demo / "exports" / "to_record.xlsx")
    ws = workbook["permits"]
    header = [c.value for c in ws[1]]
    (row,) = [r[0].row for r in ws.iter_rows(min_row=2) if r[header.index("user_id")].value == "IU-013"]
    for column, value in {
        "permit_no": "SIU-2026-013",
        "effective_on": dt.datetime(2026, 12, 10),
        "expires_on": dt.datetime(2031, 12, 9),
        "issued_on": dt.datetime(2026, 12, 8),
    }.items():
        ws.cell(row=row, column=header.index(column) + 1, value=value)
    (demo / "data" / "permits").mkdir()
    workbook.save(demo / "data" / "permits" / "to_record.xlsx")
    again = run_cli(
        "run",
        "--data",
        str(demo / "data"),
        "--warehouse",
        str(demo / "outfall.duckdb"),
        "--as-of",
        "2026-12-14",
        "--dashboards",
        str(demo / "dashboards"),
        timeout=900,
    )
    assert again.returncode == 0, again.stderr
    assert q(demo, "SELECT count(*) FROM quarantine WHERE dataset = 'permits'") == [(0,)]
    assert q(demo, iu013) == before  # no notice added
    assert q(demo, unpermitted) == [(dt.date(2026, 10, 1), dt.date(2026, 11, 30), 61)]  # the real gap only
    assert q(
        demo, "SELECT permit_no, given_by, is_current FROM user_permits WHERE user_id = 'IU-013' ORDER BY 1"
    ) == [("SIU-2021-013", "industrial_users", False), ("SIU-2026-013", "permits", True)]
    assert q(
        demo,
        "SELECT status, satisfied_on FROM obligations WHERE user_id = 'IU-013' "
        "AND obligation = 'permit_renewal'",
    ) == [("late", dt.date(2026, 12, 8))]
    assert q(demo, "SELECT count(*) FROM worklist WHERE subject_id = 'IU-013' AND action LIKE 'Renew%'") == [
        (0,)
    ]
    assert q(demo, "SELECT count(*) FROM worklist WHERE source = 'user_permits'") == [(0,)]
