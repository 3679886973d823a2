"""The worklist (contracts 6.4, 7.5): its status arithmetic at every boundary, and the table built from what
the other assets judged, for each person: only actions its person does and records (the duties of others are
items of notices or lines of the record), draft notices undated and oldest first, withdrawn drafts off the
list, the rows of the to-record workbook filled wrongly first."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pandas as pd
import pytest
from dagster_duckdb import DuckDBResource

from assets.worklist import worklist
from dashboards.worklist import worklist_panel, worklist_summary
from outfall.law import worklist as law
from outfall.resources import OutfallSettings, RulesResource
from tests.conftest import materialize
from tests.test_records import insert, new_warehouse, query

D = dt.date
AS_OF = D(2026, 11, 30)
LAWS = {
    "sewer_administrator": "Superintendent of Sewage",
    "stormwater_officer": "Stormwater Management Officer",
}


@pytest.mark.parametrize(
    "due, expected",
    [
        (None, "undated"),
        (D(2026, 11, 29), "overdue"),
        (AS_OF, "due"),
        (D(2026, 12, 7), "due"),
        (D(2026, 12, 8), "upcoming"),
        (D(2020, 1, 1), "overdue"),
    ],
)
def test_status_at_each_boundary(due, expected):
    assert law.status(due, AS_OF, 7) == expected


def test_without_the_towns_week_nothing_is_due_but_overdue_stays_overdue():
    assert law.status(AS_OF, AS_OF, None) == "upcoming"
    assert law.status(D(2026, 11, 29), AS_OF, None) == "overdue"


def test_the_list_is_read_to_correct_first_then_overdue_due_undated_upcoming():
    rows = [
        ("upcoming", D(2027, 1, 1), None, False),
        ("undated", None, D(2026, 5, 1), False),
        ("due", D(2026, 12, 3), None, False),
        ("overdue", D(2026, 11, 2), None, False),
        ("undated", None, D(2025, 2, 1), False),
        ("undated", None, None, True),
        ("due", D(2026, 12, 1), None, False),
    ]
    ordered = sorted(rows, key=lambda r: law.sort_key("clerk", r[0], r[1], found_on=r[2], first=r[3]))
    assert ordered == [
        ("undated", None, None, True),
        ("overdue", D(2026, 11, 2), None, False),
        ("due", D(2026, 12, 1), None, False),
        ("due", D(2026, 12, 3), None, False),
        ("undated", None, D(2025, 2, 1), False),  # the draft whose first item was found first
        ("undated", None, D(2026, 5, 1), False),
        ("upcoming", D(2027, 1, 1), None, False),
    ]


def _notice(kind, recipient, period, status, **more) -> dict:
    prefix = "SE" if kind == "sewer" else "ST"
    return {
        "kind": kind,
        "recipient_id": recipient,
        "period": period,
        "notice_id": f"NOV-{prefix}-{recipient}-{period}",
        "status": status,
        "letter": f"letters/{kind}/notice_{recipient}_{period}.html",
        **more,
    }


def _letter(n: dict, items: int = 1, found_on=None) -> dict:
    """The notice's row of the one table of letters (every kind is written there, through the one helper of
    documents; the worklist reads every draft from it)."""
    return {
        "letter": n["letter"],
        "letter_kind": f"{n['kind']}_notice",
        "recipient_id": n["recipient_id"],
        "document_id": n["notice_id"],
        "recipient_name": n.get("recipient_name"),
        "area": n["kind"],
        "status": n["status"],
        "mailed": n["status"] == "mailed",
        "dated": n.get("issued_on"),
        "ready": n.get("ready_to_send") is True and n["status"] == "mailed",
        "period": n["period"],
        "mailed_as": n["kind"],
        "items": items,
        "found_on": found_on,
    }


def _item(kind, recipient, period, ref, known_on) -> dict:
    return {
        "kind": kind,
        "recipient_id": recipient,
        "period": period,
        "item": "sample" if kind == "sewer" else "inspection",
        "ref": ref,
        "item_on": known_on,
        "known_on": known_on,
    }


@pytest.fixture
def town(tmp_path):
    db = new_warehouse(tmp_path)
    insert(
        db,
        "notices",
        [
            _notice("sewer", "IU-1", "2026-10", "draft", violations=2, recipient_name="Acme"),
            _notice("sewer", "IU-1", "2026-03", "draft", violations=1, recipient_name="Acme"),
            _notice("sewer", "IU-2", "2026-10", "withdrawn", violations=1, recipient_name="Bolt"),
            _notice(
                "sewer",
                "IU-3",
                "2026-05",
                "mailed",
                violations=1,
                recipient_name="Crane",
                issued_on=D(2026, 6, 2),
                not_ready_reason="the mailing address on file lacks the ZIP code",
                ready_to_send=False,
            ),
            _notice(
                "stormwater",
                "S-1",
                "2026-09",
                "mailed",
                issued_on=D(2026, 10, 2),
                violations=3,
                recipient_name="Oak",
                needs_review=True,
                items_unsupported=1,
                items_in_letter=3,
                items_not_in_letter=0,
                ready_to_send=True,
            ),
        ],
    )
    insert(
        db,
        "letters",
        [
            _letter(_notice("sewer", "IU-1", "2026-10", "draft", recipient_name="Acme"), 2, D(2026, 10, 3)),
            _letter(_notice("sewer", "IU-1", "2026-03", "draft", recipient_name="Acme"), 1, D(2026, 3, 4)),
            _letter(_notice("sewer", "IU-2", "2026-10", "withdrawn", recipient_name="Bolt")),
            _letter(
                _notice("sewer", "IU-3", "2026-05", "mailed", recipient_name="Crane", issued_on=D(2026, 6, 2))
            ),
            _letter(
                _notice(
                    "stormwater", "S-1", "2026-09", "mailed", issued_on=D(2026, 10, 2), ready_to_send=True
                )
            ),
        ],
    )
    insert(
        db,
        "notice_items",
        [
            _item("sewer", "IU-1", "2026-10", "A1", D(2026, 10, 3)),
            _item("sewer", "IU-1", "2026-10", "A2", D(2026, 10, 9)),
            _item("sewer", "IU-1", "2026-03", "A0", D(2026, 3, 4)),
        ],
    )
    insert(
        db,
        "obligations",
        [
            {
                "user_id": "IU-1",
                "obligation": "slug_report",
                "due": D(2026, 11, 20),
                "status": "overdue",
                "reference": "slug of 2026-11-15",
            },
            {
                "user_id": "IU-1",
                "obligation": "violation_notice_24h",
                "due": D(2025, 1, 9),
                "status": "overdue",
                "reference": "A0",
            },
            {
                "user_id": "IU-1",
                "obligation": "permit_renewal",
                "due": D(2027, 2, 1),
                "status": "open",
                "reference": "P-1",
            },
            {"user_id": "IU-1", "obligation": "periodic_report", "due": D(2026, 6, 1), "status": "met"},
        ],
    )
    insert(db, "industrial_users", [{"user_id": "IU-1", "name": "Acme Plating", "district": "consolidated"}])
    testing = {"user_id": "IU-1", "name": "Acme Plating", "parameter": "BOD", "sample_type": "composite"}
    insert(
        db,
        "required_testing",
        [
            {**testing, "period_start": D(2026, 11, 1), "period_end": D(2026, 11, 30), "status": "open"},
            {**testing, "period_start": D(2026, 10, 1), "period_end": D(2026, 10, 31), "status": "missed"},
        ],
    )
    insert(
        db,
        "illicit_discharge_deadlines",
        [
            {"case_id": "ID-1", "obligation": "appeal_hearing", "due": D(2026, 12, 1), "status": "open"},
            {"case_id": "ID-1", "obligation": "abatement", "due": D(2026, 11, 1), "status": "overdue"},
        ],
    )
    insert(
        db,
        "smp_findings",
        [
            {"practice_id": "P-1", "site_id": "S-1", "finding": "as_built", "status": "overdue"},
            {"practice_id": "P-1", "site_id": "S-1", "finding": "guarantee_release", "status": "overdue"},
            {
                "practice_id": "P-1",
                "site_id": "S-1",
                "finding": "one_year_inspection",
                "due": D(2027, 3, 1),
                "status": "open",
            },
        ],
    )
    insert(
        db,
        "quarantine",
        [
            {"dataset": "parcels", "source_file": "p.csv", "row_number": 3, "reason": "no seats"},
            {
                "dataset": "notices_mailed",
                "source_file": "to_record.xlsx [notices_mailed]",
                "row_number": 2,
                "reason": "a stormwater notice needs correct_within_days",
                "prefilled": True,
            },
        ],
    )
    insert(
        db,
        "ingested_files",
        [
            {
                "dataset": "notices_mailed",
                "source_file": "to_record.xlsx",
                "sha256": "x",
                "rows_read": 1,
                "rows_kept": 0,
                "rows_quarantined": 1,
                "rows_left_blank": 3,
                "prefilled": True,
            }
        ],
    )
    result = materialize(
        [worklist],
        resources={
            "duckdb": DuckDBResource(database=str(db)),
            "settings": OutfallSettings(as_of=AS_OF.isoformat()),
        },
    )
    assert result.success
    return db


def test_each_line_is_an_action_its_person_records(town):
    rows = query(town, "SELECT person, status, subject_id, due, source, ref FROM worklist ORDER BY ALL")
    assert rows == [
        ("clerk", "undated", "p.csv", None, "quarantine", "parcels p.csv"),
        (
            "clerk",
            "undated",
            "to_record.xlsx [notices_mailed]",
            None,
            "quarantine",
            "notices_mailed to_record.xlsx [notices_mailed] 2",
        ),
        (
            "stormwater_officer",
            "due",
            "ID-1",
            D(2026, 12, 1),
            "illicit_discharge_deadlines",
            "ID-1 appeal_hearing",
        ),
        ("stormwater_officer", "undated", "S-1", None, "notices", "NOV-ST-S-1-2026-09"),
        ("stormwater_officer", "upcoming", "S-1", D(2027, 3, 1), "smp_findings", "P-1 one_year_inspection"),
        ("superintendent", "due", "IU-1", D(2026, 11, 30), "required_testing", "BOD composite 2026-11-01"),
        ("superintendent", "undated", "IU-1", None, "notices", "NOV-SE-IU-1-2026-03"),
        ("superintendent", "undated", "IU-1", None, "notices", "NOV-SE-IU-1-2026-10"),
        ("superintendent", "upcoming", "IU-1", D(2027, 2, 1), "obligations", "permit_renewal P-1"),
    ]
    actions = dict(query(town, "SELECT ref, action FROM worklist"))
    # the user's and the owner's duties are not lines: the slug report, the 24-hour notice, the as-built
    # plans; a missed testing period is an item of the draft notice; a guarantee released early is a finding
    assert not query(town, "SELECT * FROM worklist WHERE ref LIKE 'slug_report%' OR ref LIKE '%as_built%'")
    assert actions["NOV-SE-IU-1-2026-10"] == (
        "Mail the notice of violation for October 2026 (2 violations) by certified mail and record the "
        "mailing, or withdraw it"
    )
    assert actions["NOV-ST-S-1-2026-09"].startswith(
        "Review notice NOV-ST-S-1-2026-09, mailed October 2, 2026"
    )
    # the renewal is recorded by a permits row (contract 8.2), not by editing the users file
    assert actions["permit_renewal P-1"].startswith(
        "Renew permit P-1 and record the new permit in the permits folder"
    )
    assert actions["BOD composite 2026-11-01"].startswith("Record the BOD")
    # a mailed notice is a record: nothing to complete, whatever its address; a withdrawn draft: off the list
    assert not query(town, "SELECT * FROM worklist WHERE subject_id IN ('IU-2', 'IU-3')")


def test_drafts_are_undated_oldest_first_and_rows_filled_wrongly_first(town):
    rows = query(town, "SELECT person, ref, status, found_on, first FROM worklist")
    frame = pd.DataFrame(rows, columns=["person", "ref", "status", "found_on", "first"])
    sewer = frame[frame["person"] == "superintendent"]
    drafts = sewer[sewer["ref"].str.startswith("NOV-")]
    assert list(drafts["status"]) == ["undated", "undated"]
    assert dict(zip(drafts["ref"], drafts["found_on"])) == {
        "NOV-SE-IU-1-2026-03": D(2026, 3, 4),
        "NOV-SE-IU-1-2026-10": D(2026, 10, 3),  # the day its first item was found
    }
    page_order = [
        r
        for r, p in query(
            town,
            "SELECT ref, person FROM worklist ORDER BY CASE person WHEN 'superintendent' THEN 0 "
            "WHEN 'stormwater_officer' THEN 1 ELSE 2 END, NOT coalesce(first, FALSE), "
            "CASE status WHEN 'overdue' THEN 0 WHEN 'due' THEN 1 WHEN 'undated' THEN 2 ELSE 3 END, "
            "coalesce(due, found_on)",
        )
    ]
    assert page_order.index("NOV-SE-IU-1-2026-03") < page_order.index("NOV-SE-IU-1-2026-10")
    clerk = frame[frame["person"] == "clerk"]
    assert list(clerk[clerk["first"]]["ref"]) == ["notices_mailed to_record.xlsx [notices_mailed] 2"]
    action = query(town, "SELECT action FROM worklist WHERE first")[0][0]
    assert action.startswith("Correct row 2 of to_record.xlsx [notices_mailed], filled in the to-record")


def test_the_page_shows_the_whole_list_grouped_by_subject(town):
    columns = [c for (c,) in query(town, "SELECT column_name FROM (DESCRIBE worklist)")]
    frame = pd.DataFrame(query(town, "SELECT * FROM worklist"), columns=columns)
    panel = worklist_panel(frame, "superintendent", AS_OF, LAWS)
    assert 'id="worklist"' in panel and "Superintendent of Sewage" in panel
    assert (
        "4 actions for the Superintendent of Sewage: 0 overdue, 1 due within the week, 2 with no date"
        in panel
    )
    assert 'class="table-wrap whole"' in panel  # the page scrolls, the list is no box of its own
    assert "Acme Plating" in panel and "2 actions" in panel  # the user's two drafts, one row with the count
    assert ">March 2026 (1)</a>, <a" in panel and panel.index("March 2026 (1)") < panel.index(
        "October 2026 (2)"
    )
    assert panel.index("Due this week") < panel.index("No date set by law") < panel.index("Upcoming")
    clerk = worklist_panel(frame, "clerk", AS_OF, LAWS)
    assert clerk.index("To correct") < clerk.index("No date set by law")
    summary = worklist_summary(frame, LAWS)
    assert "Superintendent of Sewage" in summary and "sewer.html#worklist" in summary
    # each person's counts are a line of a table linked to their list, not a card (a card counts a list on
    # its own page)
    assert "kpi-value" not in summary
    assert re.search(r"Superintendent of Sewage</a></td><td[^>]*>4</td>", summary), summary


def test_a_subjects_many_lines_show_the_first_and_say_how_many_more_but_all_print():
    """Issue 46: the town's own site's 16 lines were one row 1,500 px tall, pushing the first undated line
    off the first screen; on screen a subject shows its first line and how many more (a click shows them),
    on paper every one, each detail said once."""
    from dashboards.html import CSS as PAGE_CSS, PRINT_CSS
    from dashboards.worklist import worklist_table

    rows = pd.DataFrame(
        [
            {
                "person": "stormwater_officer",
                "action": f"See that it does not recur at the Town's own site: line {n}.",
                "subject_id": "S-W04",
                "subject_name": "Crestview",
                "due": None,
                "status": "undated",
                "source": "own_findings",
                "ref": str(n),
                "days_left": None,
                "link": None,
                "detail": "No notice goes to the Town itself.",
                "first": False,
            }
            for n in range(16)
        ]
    )
    html_text = worklist_table(rows)
    assert html_text.count('<div class="act">') == 1 and html_text.count('class="act act-rest"') == 15
    assert "and 15 more actions" in html_text
    assert all(f"line {n}." in html_text for n in range(16))  # every line is on the page, for paper
    assert html_text.count("No notice goes to the Town itself.") == 1
    assert ".act-toggle:not(:checked)~.act-rest{display:none}" in PAGE_CSS
    assert "act-rest" not in PRINT_CSS  # on paper nothing hides them
    screen = PAGE_CSS[PAGE_CSS.index("@media screen{.act-toggle") :]
    assert screen.index("act-rest{display:none}") < screen.index("}}")


def test_a_draft_is_mailed_as_the_rules_of_its_jurisdiction_say():
    """Contract 8.7: "by certified mail" is the rules' word for how a notice is served, not the program's."""
    import yaml

    from assets.worklist import draft_action, served_by
    from outfall.rules import parse_rules
    from tests.conftest import REPO

    notice = {"letter_kind": "stormwater_notice", "recipient_id": "S-1", "period": "2026-10", "items": 2}
    woodbury = RulesResource(rules_dir="", town="woodbury").town_rules()
    assert draft_action(notice, woodbury) == (
        "Mail the notice of violation for October 2026 (2 violations) by certified mail and record the "
        "mailing, or withdraw it"
    )
    raw = yaml.safe_load((REPO / "rules" / "woodbury.yaml").read_text(encoding="utf-8"))
    raw["swppp"]["notice_of_violation"][0]["mailing"] = "personal service"
    served = parse_rules(yaml.safe_dump(raw), Path("woodbury.yaml"))
    assert served_by("stormwater_notice", served) == "personal service"
    assert "(2 violations) by personal service and record" in draft_action(notice, served)
    del raw["swppp"]["notice_of_violation"][0]["mailing"]
    unserved = parse_rules(yaml.safe_dump(raw), Path("woodbury.yaml"))
    assert "(2 violations) and record the mailing" in draft_action(notice, unserved)


def test_one_line_per_subject_and_action():
    from assets.worklist import Worklist

    w = Worklist(AS_OF, 7)
    for _ in range(3):
        w.add("clerk", "Confirm the ZIP code of Acme", "IU-1", None, "address_conflicts", "x")
    w.add("clerk", "Confirm the ZIP code of Acme", "IU-2", None, "address_conflicts", "x")
    assert len(w.frame()) == 2


def test_every_kind_of_draft_is_worded_for_its_person():
    """Drafts come from one statement (select_worklist_drafts); an order drafted as a notice is (contract
    7.3) is its person's line with its own words."""
    from assets.worklist import draft_action
    from outfall.document_kinds import KINDS

    order = {"letter_kind": "stop_work_order", "recipient_id": "S-1", "period": "2026-10", "items": 1}
    assert KINDS["stop_work_order"].person == law.STORMWATER_OFFICER
    assert KINDS["grease_order"].person == law.SUPERINTENDENT
    assert (
        draft_action(order)
        == "Mail the stop-work order of October 2026 and record the mailing, or withdraw it"
    )
    case = {"letter_kind": "illicit_notice_of_violation", "recipient_id": "ID-1", "period": None, "items": 1}
    assert draft_action(case).startswith("Mail the notice of violation of illicit discharge case ID-1")


def test_a_files_quarantine_line_names_the_same_reason_on_every_run(tmp_path):
    # Regression: the line named the file's most frequent reason with DuckDB's mode(), which picks any of
    # reasons as frequent, so a rerun could name another (the fault drill's kill-and-rerun differed).
    # Of reasons as frequent, the one of the earliest row is named.
    import duckdb

    from outfall.warehouse import sql

    db = new_warehouse(tmp_path)
    at = pd.Timestamp("2026-06-01 12:00", tz="UTC")
    rows = [
        (5, "z: the earliest of the tied"),
        (7, "a: as frequent, later"),
        (9, "z: the earliest of the tied"),
    ]
    rows += [(8, "a: as frequent, later")]
    insert(
        db,
        "quarantine",
        [
            {"dataset": "flow", "source_file": "m.csv", "row_number": n, "reason": r, "quarantined_at": at}
            for n, r in rows
        ],
    )
    with duckdb.connect(str(db)) as con:
        found = con.execute(sql("select_worklist_quarantine")).fetchall()
    assert [(f[1], f[4], f[5], f[6]) for f in found] == [("m.csv", 4, "z: the earliest of the tied", 5)]


def test_every_input_folder_has_a_keeper_from_its_area():
    """Issue 48: a folder's person follows from its spec's group; a new folder is never sent to the
    Superintendent for want of an entry (water_use, the clerk's, was)."""
    from assets.worklist import dataset_person
    from outfall.ingest.registry import all_datasets
    from outfall.law import worklist as law

    people = {law.SUPERINTENDENT, law.STORMWATER_OFFICER, law.CLERK}
    assert {ds.keeper for ds in all_datasets().values()} == people
    assert dataset_person("water_use") == "clerk"
    assert dataset_person("lab_results") == "superintendent"
    assert dataset_person("inspections") == "stormwater_officer"
    assert dataset_person("notices_mailed") == "clerk"
