"""The demo town's pages as its people read them (issue 28): each person's page opens with their worklist; a
figure shown on two pages under the same label (what it counts and its period) is the same number, and the
warehouse's; the sewer page prints in at most 35 pages with every violating sample on paper."""

from __future__ import annotations

import datetime as dt
import html
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dashboards.annual_report import report_file
from dashboards.html import months_words
from tests.browsing import chromium  # noqa: F401 - a fixture
from tests.conftest import query_warehouse
from tests.test_print import assert_headed, ids_in, print_page

pytestmark = [pytest.mark.slow, pytest.mark.browser]
AS_OF = dt.date(2026, 11, 30)  # the demo's day judged
# The violations list holds every item of the notices (a count is the length of a list on its page); the
# federal duties the Town has not adopted are not items (contract 7.1), so the page stays within 30 pages.
MAX_SEWER_PAGES = 30


@pytest.fixture(scope="module")
def demo(demo_town) -> Path:
    return demo_town


def read(demo: Path, name: str) -> str:
    return (demo / "dashboards" / name).read_text(encoding="utf-8")


def words(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def figures(page_html: str) -> dict[str, int]:
    """Every headline figure of a page by its label, without what follows a colon (the detail): the KPI
    cards of a person's page and the numbers of the index's cards."""
    found: dict[str, int] = {}
    pairs = re.findall(r'<div class="kpi-value">(.*?)</div><div class="kpi-label">(.*?)</div>', page_html)
    pairs += [
        (v, label)
        for v, label in re.findall(r'<div class="card-num[^"]*"><b>(.*?)</b>(.*?)</div>', page_html)
    ]
    for value, label in pairs:
        number = words(value).replace(",", "")
        if number.isdigit():
            found[words(label).split(": ")[0]] = int(number)
    return found


class Tables(HTMLParser):
    """Every table of a page as rows of cell texts (header row first)."""

    def __init__(self):
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append(" ".join(" ".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def table_with(page_html: str, header: str) -> list[dict[str, str]]:
    parser = Tables()
    parser.feed(page_html)
    for rows in parser.tables:
        if rows and header in rows[0]:
            return [dict(zip(rows[0], r)) for r in rows[1:]]
    raise AssertionError(f"no table headed {header!r}")


def test_each_persons_page_opens_with_their_worklist(demo):
    for name, person in (
        ("sewer.html", "Superintendent of Sewage"),
        ("stormwater.html", "Stormwater Management Officer"),
    ):
        main = read(demo, name).split("<main>", 1)[1]
        first = re.match(r'\s*<section id="([^"]+)">(.*?)</section>', main, re.S)
        assert first and first.group(1) == "worklist", name
        assert "What to do next" in first.group(2) and person in first.group(2), name
    index = read(demo, "index.html").split("<main>", 1)[1]
    assert re.match(r'\s*<section id="worklist">', index)
    head = index[: index.index('id="pages"')]
    for person in ("Superintendent of Sewage", "Stormwater Management Officer", "Clerk"):
        assert person in head


def test_the_counts_agree_across_the_pages(demo):
    """The index, the sewer page, the stormwater page and the annual report: a figure under the same label
    is the same number on each, the warehouse's; the year to date reads the same on the sewer page and in
    the annual report of the year, each labelled with the same days."""
    db = demo / "outfall.duckdb"
    q = lambda text: query_warehouse(db, text)[0]  # noqa: E731
    items, first_item, last_item = q(
        "SELECT count(*), min(item_on), max(item_on) FROM notice_items WHERE kind = 'sewer'"
    )
    ytd = q(
        f"SELECT (SELECT count(*) FROM discharge_violations WHERE "
        f"year((collected_at AT TIME ZONE 'America/New_York')::DATE) = {AS_OF.year}) + "
        f"(SELECT count(*) FROM statistic_violations WHERE year(period_start) = {AS_OF.year})"
    )[0]
    first, last = q(
        "SELECT min(collected_at AT TIME ZONE 'America/New_York')::DATE, "
        "max(collected_at AT TIME ZONE 'America/New_York')::DATE FROM lab_results "
        "WHERE result IS NOT NULL AND collected_at IS NOT NULL"
    )
    notices, first_month, last_month = q(
        "SELECT count(*), min(period), max(period) FROM notices WHERE kind = 'stormwater'"
    )
    slugs, first_flow, last_flow = q(
        "SELECT (SELECT count(*) FROM slug_events), "
        "min(ts AT TIME ZONE 'America/New_York')::DATE, "
        "max(ts AT TIME ZONE 'America/New_York')::DATE FROM flow"
    )
    overdue, first_due, last_due = q(
        "SELECT count(*) FILTER (WHERE status = 'overdue'), min(due_by), max(due_by) "
        "FROM swppp_inspection_findings"
    )
    period = months_words(min(first, first_item), max(last, last_item))
    pages = {
        name: figures(read(demo, name))
        for name in ("index.html", "sewer.html", "stormwater.html", report_file(AS_OF.year))
    }
    expected = {
        f"violations, {period}": items,  # one count, one meaning: the items of the notices (contract 7.5)
        f"notices of violation, {months_words(first_month + '-01', last_month + '-01')}": notices,
        f"slug events, {months_words(first_flow, last_flow)}": slugs,
        f"inspections overdue, {months_words(first_due, last_due)}": overdue,
    }
    for label, number in expected.items():
        shown = {name: found[label] for name, found in pages.items() if label in found}
        assert len(shown) >= 2, (label, pages)
        assert set(shown.values()) == {number}, (label, shown, number)
    # every label on two pages: one number
    labels = {label for found in pages.values() for label in found}
    for label in labels:
        shown = {name: found[label] for name, found in pages.items() if label in found}
        assert len(set(shown.values())) == 1, (label, shown)
    # the annual report's year, not ended, is the sewer page's year to date, on the same days
    report = pages[report_file(AS_OF.year)]
    assert report[f"limits broken, calendar year {AS_OF.year} (January 1 to {AS_OF:%B} {AS_OF.day})"] == ytd


def test_a_users_counts_agree_between_the_sewer_page_and_the_annual_report(demo):
    sewer = read(demo, "sewer.html")
    summary = {
        r["User"].split()[0]: r
        # the period of the demo's violations: its 12 months (the treatment plant's 1990-91 record,
        # re-dated to 2025, is no longer judged as a user's samples: issue 45)
        for r in table_with(sewer, f"All violations, {months_words('2025-12-01', '2026-11-01')}")
    }
    report = {
        r["User"].split()[0]: r for r in table_with(read(demo, report_file(AS_OF.year)), "Sample violations")
    }
    period_total = dict(  # a user's violations: the items of its notices (contract 7.5)
        query_warehouse(
            demo / "outfall.duckdb",
            "SELECT recipient_id, count(*) FROM notice_items WHERE kind = 'sewer' GROUP BY ALL",
        )
    )
    for user, row in summary.items():
        # the year to date (the summary) is the report's year, column by column
        of_year = report.get(user, {"Sample violations": "0", "Average and daily maximum violations": "0"})
        assert row["Single-sample violations"] == of_year["Sample violations"], user
        assert (
            row["Daily maximum or monthly average violations"]
            == of_year["Average and daily maximum violations"]
        ), user
        total = int(row["All violations, December 2025 to November 2026"].replace(",", ""))
        assert total == period_total.get(user, 0), user
        chip = re.search(rf'href="#user-{re.escape(user)}">{re.escape(user)}[^<]*?· (\d+)</a>', sewer)
        assert (int(chip.group(1)) if chip else 0) == total, user
    assert summary["IU-020"]["User"].startswith("IU-020 Village of Eastbrook sewers")  # named


def test_the_sewer_page_prints_in_at_most_35_pages_with_every_violating_sample(demo, chromium, tmp_path):
    ids = [
        r[0]
        for r in query_warehouse(
            demo / "outfall.duckdb", "SELECT DISTINCT sample_id FROM discharge_violations"
        )
    ]
    # the demo's size: 16 violating samples since the plant's own record (data/real/uci_water-treatment.data)
    # is no longer judged as a user's discharge (contract 8, issue 45)
    assert len(ids) >= 10
    pages = print_page(chromium, demo / "dashboards" / "sewer.html", tmp_path / "sewer.pdf")
    assert len(pages) <= MAX_SEWER_PAGES, f"the sewer page prints in {len(pages)} pages"
    missing = sorted(set(ids) - ids_in("\n".join(pages), ids))
    assert not missing, f"{len(missing)} violating samples are not on paper: {missing[:10]}"
    assert_headed(pages, "Town of Woodbury", "Superintendent of Sewage: industrial users", AS_OF)
    assert "What to do next" in pages[0]  # the worklist first
    flat = " ".join(" ".join(pages).split())
    assert "are on screen only" in flat  # the page says which charts do not print


def test_each_persons_first_screen_holds_the_overdue_due_and_first_undated_lines(demo, tmp_path):
    """Issue 37: at 1366x900 each person's page shows, without scrolling, the worklist's rows to correct,
    overdue and due this week, and the first undated ones (the draft notices, oldest first); the list is
    part of the page (no box of its own to scroll)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from tests.test_browser import CHROMEDRIVER, CHROMIUM, FLAGS

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    try:
        for name in ("sewer.html", "stormwater.html", "billing.html"):
            driver.get((demo / "dashboards" / name).as_uri())
            height, rows, boxed = driver.execute_script(
                "const rows = Array.from(document.querySelectorAll('#worklist table.worklist tbody tr'));"
                "const wrap = document.querySelector('#worklist .table-wrap');"
                "return [window.innerHeight, rows.map(function (tr) { const r = tr.getBoundingClientRect();"
                "  return [tr.querySelector('.badge').innerText, r.top, r.bottom]; }),"
                "  getComputedStyle(wrap).overflowY !== 'visible'];"
            )
            assert rows and not boxed, name
            urgent = [r for r in rows if r[0] in ("To correct", "Overdue", "Due this week")]
            undated = [r for r in rows if r[0] == "No date set by law"]
            assert all(bottom <= height for _, _, bottom in urgent), (name, urgent, height)
            assert undated and undated[0][2] <= height, (name, undated[:2], height)
            driver.save_screenshot(str(tmp_path / f"{name}.png"))
            target = os.environ.get("OUTFALL_SCREENSHOT_DIR")
            if target:
                Path(target).mkdir(parents=True, exist_ok=True)
                shutil.copy(tmp_path / f"{name}.png", Path(target) / f"first-screen-{Path(name).stem}.png")
    finally:
        driver.quit()
