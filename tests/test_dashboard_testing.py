"""The sewer page's panel of required testing (dashboards/testing.py), pure: the calendar of the last twelve
months (a quarter one cell across three months, a month with no requirement blank), the words a person
reads (no code words), every missed period listed, and the page without the table."""

from __future__ import annotations

import datetime as dt
import re

import pandas as pd

from dashboards.sewer import SewerData, build_sewer_page
from dashboards.testing import _months, calendar_row, period_words, required_testing_section

D = dt.date
AS_OF = D(2026, 11, 30)
RULE = "Woodbury Code ch. 253 Part 2, industrial wastes, periodic reports (b): testing"


def _row(user, name, parameter, sample_type, frequency, start, end, samples, status):
    return {
        "user_id": user,
        "name": name,
        "parameter": parameter,
        "sample_type": sample_type,
        "frequency": frequency,
        "period_start": start,
        "period_end": end,
        "samples": samples,
        "status": status,
        "basis": "Permit condition C.1",
        "rule": RULE,
    }


def _frame() -> pd.DataFrame:
    rows = [
        _row(
            "U-1",
            "Term Works",
            "BOD",
            "composite",
            "monthly",
            D(2026, m, 1),
            (pd.Timestamp(D(2026, m, 1)) + pd.offsets.MonthEnd(0)).date(),
            s,
            st,
        )
        for m, s, st in ((9, 2, "met"), (10, 0, "missed"), (11, 0, "open"))
    ]
    rows += [
        _row("U-1", "Term Works", "FOG", None, "quarterly", D(2025, 10, 1), D(2025, 12, 31), 1, "met"),
        _row("U-1", "Term Works", "FOG", None, "quarterly", D(2026, 4, 1), D(2026, 6, 30), 0, "missed"),
        _row(
            "U-1",
            "Term Works",
            "chlorine_demand",
            "grab",
            "annual",
            D(2024, 1, 1),
            D(2024, 12, 31),
            0,
            "missed",
        ),
        _row("U-9", None, "pH", "grab", "annual", D(2026, 1, 1), D(2026, 12, 31), 0, "open"),
    ]
    return pd.DataFrame(rows)


def test_the_calendar_months_end_with_the_as_of_month():
    months = _months(AS_OF)
    assert len(months) == 12 and months[0] == D(2025, 12, 1) and months[-1] == D(2026, 11, 1)


def test_a_period_is_one_cell_across_its_months_in_view():
    frame = _frame()
    fog = frame[frame["parameter"] == "FOG"]
    cells = re.findall(r"<td[^>]*>", calendar_row(fog, _months(AS_OF)))
    # December 2025 (the last month of Q4 2025 in view), January-March blank, April-June one cell, then blank
    assert [re.search(r'colspan="(\d+)"', c).group(1) if "colspan" in c else "-" for c in cells] == [
        "1",
        "-",
        "-",
        "-",
        "3",
        "-",
        "-",
        "-",
        "-",
        "-",
    ]


def test_plain_words():
    frame = _frame()
    assert [period_words(r) for r in frame.to_dict("records")] == [
        "September 2026",
        "October 2026",
        "November 2026",
        "October to December 2025",
        "April to June 2026",
        "2024",
        "2026",
    ]


def test_the_panel_says_what_each_cell_means_and_lists_every_missed_period():
    html = required_testing_section(_frame(), AS_OF, True)
    assert "<strong>met</strong><br>2 samples" in html
    assert "<strong>missed</strong><br>no sample" in html and "<strong>open</strong><br>no sample" in html
    assert "BOD, composite sample, monthly" in html and "FOG, any sample, every quarter" in html
    assert "chlorine demand, grab sample, every year" in html
    assert "U-1</a> · Term Works" in html and "U-9</a></td>" in html  # a user with no name on file
    assert "the period ended with no sample" in html and "November 30, 2026" in html
    assert RULE in html
    missed = html[html.index('id="missed-testing"') :]
    # every missed period, the one of 2024 too (before the calendar's twelve months), newest first
    assert [p for p in ("October 2026", "April to June 2026", "2024") if p in missed] == [
        "October 2026",
        "April to June 2026",
        "2024",
    ]
    assert missed.index("October 2026") < missed.index("April to June 2026") < missed.index(">2024<")
    for code in ("semiannual", "quarterly", "status", "sample_type", "None", "nan"):
        assert code not in html.replace('data-table="required_testing"', ""), code


def test_the_sewer_page_holds_the_panel_or_says_there_is_nothing():
    page, _ = build_sewer_page(
        SewerData(as_of=AS_OF, required_testing=_frame(), present={"required_testing": True})
    )
    assert 'id="testing"' in page and "Required testing" in page and "BOD, composite sample, monthly" in page
    empty, _ = build_sewer_page(SewerData(as_of=AS_OF, present={"required_testing": False}))
    assert 'data-table="required_testing"' in empty and "has not run yet" in empty


def test_only_older_periods_leave_the_calendar_empty_but_list_the_missed():
    old = _frame()[lambda f: f["parameter"] == "chlorine_demand"]
    html = required_testing_section(old, AS_OF, True)
    assert "No testing was required in the last twelve months." in html and "colspan" not in html
    assert "chlorine demand, grab sample, every year" in html and ">2024<" in html
    assert "before December 5, 2026" in required_testing_section(_frame(), D(2026, 12, 5), True)
