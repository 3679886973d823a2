"""The worklist (contract 6.4): its status arithmetic at every boundary, and the table built from what the
other assets judged, for each person, with withdrawn drafts off the list."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest
from dagster_duckdb import DuckDBResource

from assets.worklist import worklist
from dashboards.worklist import worklist_panel, worklist_summary
from outfall.law import worklist as law
from outfall.resources import OutfallSettings
from tests.conftest import materialize
from tests.test_records import insert, new_warehouse, query

D = dt.date
AS_OF = D(2026, 11, 30)


@pytest.mark.parametrize(
    "due, expected",
    [
        (None, "upcoming"),
        (D(2026, 11, 29), "overdue"),
        (AS_OF, "due"),
        (D(2026, 12, 7), "due"),
        (D(2026, 12, 8), "upcoming"),
        (D(2020, 1, 1), "overdue"),
    ],
)
def test_status_at_each_boundary(due, expected):
    assert law.status(due, AS_OF, 7) == expected


def test_the_list_is_read_overdue_first_then_by_due_date():
    rows = [
        ("upcoming", None),
        ("due", D(2026, 12, 3)),
        ("overdue", D(2026, 11, 2)),
        ("upcoming", D(2027, 1, 1)),
        ("due", D(2026, 12, 1)),
    ]
    ordered = sorted(rows, key=lambda r: law.sort_key("clerk", r[0], r[1]))
    assert ordered == [
        ("overdue", D(2026, 11, 2)),
        ("due", D(2026, 12, 1)),
        ("due", D(2026, 12, 3)),
        ("upcoming", D(2027, 1, 1)),
        ("upcoming", None),
    ]


def test_the_worklist_of_each_person(tmp_path):
    db = new_warehouse(tmp_path)
    insert(
        db,
        "notices",
        [
            {
                "kind": "sewer",
                "recipient_id": "IU-1",
                "period": "2026-10",
                "notice_id": "NOV-SE-IU-1-2026-10",
                "status": "draft",
                "violations": 2,
                "recipient_name": "Acme",
                "letter": "letters/sewer/n1.html",
                "ready_to_send": True,
            },
            {
                "kind": "sewer",
                "recipient_id": "IU-2",
                "period": "2026-10",
                "notice_id": "NOV-SE-IU-2-2026-10",
                "status": "withdrawn",
                "violations": 1,
                "recipient_name": "Bolt",
                "letter": "letters/sewer/n2.html",
            },
            {
                "kind": "stormwater",
                "recipient_id": "S-1",
                "period": "2026-09",
                "notice_id": "NOV-ST-S-1-2026-09",
                "status": "mailed",
                "issued_on": D(2026, 10, 2),
                "violations": 3,
                "recipient_name": "Oak",
                "letter": "letters/stormwater/n3.html",
                "needs_review": True,
                "items_unsupported": 1,
                "items_in_letter": 3,
                "items_not_in_letter": 0,
                "ready_to_send": True,
            },
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
                "obligation": "permit_renewal",
                "due": D(2027, 2, 1),
                "status": "open",
                "reference": "P-1",
            },
            {"user_id": "IU-1", "obligation": "periodic_report", "due": D(2026, 6, 1), "status": "met"},
        ],
    )
    insert(db, "industrial_users", [{"user_id": "IU-1", "name": "Acme Plating", "district": "consolidated"}])
    insert(
        db,
        "required_testing",
        [
            {
                "user_id": "IU-1",
                "name": "Acme Plating",
                "parameter": "BOD",
                "sample_type": "composite",
                "frequency": "monthly",
                "period_start": D(2026, 11, 1),
                "period_end": D(2026, 11, 30),
                "status": "open",
            }
        ],
    )
    insert(
        db,
        "illicit_discharge_deadlines",
        [
            {
                "case_id": "ID-1",
                "obligation": "appeal_hearing",
                "due": D(2026, 12, 1),
                "status": "open",
                "premises": "1 Elm",
            },
            {
                "case_id": "ID-1",
                "obligation": "abatement",
                "due": D(2026, 11, 1),
                "status": "overdue",
                "premises": "1 Elm",
            },
        ],
    )
    insert(
        db,
        "quarantine",
        [{"dataset": "parcels", "source_file": "p.csv", "row_number": 3, "reason": "no seats"}],
    )
    result = materialize(
        [worklist],
        resources={
            "duckdb": DuckDBResource(database=str(db)),
            "settings": OutfallSettings(as_of=AS_OF.isoformat()),
        },
    )
    assert result.success
    rows = query(db, "SELECT person, status, subject_id, due, source FROM worklist ORDER BY ALL")
    assert rows == [
        ("clerk", "upcoming", "p.csv", None, "quarantine"),
        ("stormwater_officer", "due", "ID-1", D(2026, 12, 1), "illicit_discharge_deadlines"),
        ("stormwater_officer", "upcoming", "S-1", None, "notices"),
        ("superintendent", "due", "IU-1", D(2026, 11, 30), "required_testing"),
        ("superintendent", "overdue", "IU-1", D(2026, 11, 20), "obligations"),
        ("superintendent", "upcoming", "IU-1", D(2027, 2, 1), "obligations"),
        ("superintendent", "upcoming", "IU-1", None, "notices"),
    ]
    actions = dict(query(db, "SELECT ref, action FROM worklist"))
    assert actions["NOV-ST-S-1-2026-09"].startswith(
        "Review notice NOV-ST-S-1-2026-09, mailed October 2, 2026"
    )
    assert "Renew the permit of Acme Plating" in actions["permit_renewal P-1"]
    assert query(db, "SELECT count(*) FROM worklist WHERE subject_id = 'IU-2'") == [
        (0,)
    ]  # withdrawn: off the list
    frame = pd.DataFrame(
        query(db, "SELECT * FROM worklist"),
        columns=[
            c
            for (c,) in query(
                db,
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'worklist' ORDER BY "
                "ordinal_position",
            )
        ],
    )
    panel = worklist_panel(frame, "superintendent", AS_OF)
    assert (
        'id="worklist"' in panel and "1 overdue, 1 due within the week" in panel and "Acme Plating" in panel
    )
    assert "Overdue" in panel and panel.index("Overdue") < panel.index("Due this week") < panel.index(
        "Upcoming"
    )
    summary = worklist_summary(frame)
    assert "Superintendent of Sewage" in summary and "sewer.html#worklist" in summary


def test_alike_actions_are_one_line():
    """A recipient's draft notices are one line with their months; the same report expected from many users on
    one day is one line naming them; a line does not repeat what its other columns say."""

    def row(action, subject, due, source, ref, name, status="upcoming"):
        return {
            "person": "superintendent",
            "action": action,
            "subject_id": subject,
            "due": due,
            "status": status,
            "source": source,
            "ref": ref,
            "subject_name": name,
            "days_left": None if due is None else (due - AS_OF).days,
            "link": None,
            "detail": None,
        }

    rows = [
        row(
            f"Mail the notice of violation for {m} 2026 ({n} violation{'s' if n > 1 else ''}) by certified "
            "mail and record the mailing, or withdraw it",
            "IU-1",
            None,
            "notices",
            f"NOV-{m}",
            "Acme",
        )
        for m, n in (("March", 1), ("January", 2))
    ]
    rows += [
        row(
            f"Expect the periodic report from {name}",
            uid,
            D(2027, 1, 30),
            "obligations",
            f"periodic_report 2026-H2 {uid}",
            name,
        )
        for uid, name in (("IU-1", "Acme"), ("IU-2", "Bolt"), ("IU-3", "Cork"))
    ]
    rows.append(
        row(
            "Overdue: follow up on the slug report from Acme",
            "IU-1",
            D(2026, 11, 2),
            "obligations",
            "slug_report x",
            "Acme",
            "overdue",
        )
    )
    panel = worklist_panel(pd.DataFrame(rows), "superintendent", AS_OF)
    assert panel.count("<tr") == 1 + 3
    assert (
        "Mail the 2 draft notices of violation (January 2026, March 2026; 3 violations) by certified mail "
        "and record each mailing, or withdraw them"
    ) in panel
    assert "Expect the periodic report from each of these 3 users" in panel
    assert 'Acme <span class="muted">(IU-1)</span>; Bolt' in panel
    assert "Follow up on the slug report</" in panel and "Overdue: follow" not in panel
