"""The pages and letters on paper, and in plain words.

Printing: a page printed by headless Chromium to PDF (as a clerk's browser
prints it) and read back with pypdf holds every row of its tables (no 560 px
scroll box clips them), and each printed page carries the town, the page's
title, the as-of day and its page number.

Plain words: every page, letter and PDF of a small town holds no "contract",
no "reading of", no column name like normal_avg_flow_gpd and no JSON blob in
the text a reader sees (chart labels and tooltips included).
"""

from __future__ import annotations

import datetime as dt
import html
import json
import re
import unicodedata
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from dashboards.sewer import SewerData, build_sewer_page
from outfall.pdf import print_pdfs
from tests.browsing import chromium  # noqa: F401 - a fixture
from tests.test_dashboard_assets import built_town  # noqa: F401  (session fixture: small town + pages)
from tests.test_dashboards import PAGES

pytestmark = pytest.mark.browser
AS_OF = dt.date(2026, 6, 30)


def pdf_pages(path: Path) -> list[str]:
    """The text of each page (ligatures such as "ﬃ" as their letters)."""
    from pypdf import PdfReader

    return [unicodedata.normalize("NFKC", page.extract_text() or "") for page in PdfReader(str(path)).pages]


def print_page(chromium, html_path: Path, pdf_path: Path) -> list[str]:
    report = print_pdfs([(html_path, pdf_path)], force=True, browser=chromium)
    assert report.written == [pdf_path], report.summary()
    return pdf_pages(pdf_path)


def ids_in(text: str, ids: list[str]) -> set[str]:
    """The ids found whole in the text (S-2 is not found in S-20)."""
    return {i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)}


def assert_headed(pages: list[str], town: str, title: str, as_of: dt.date) -> None:
    day = f"as of {as_of:%B} {as_of.day}, {as_of.year}"
    for n, text in enumerate(pages, start=1):
        flat = " ".join(text.split())
        assert town in flat and title in flat and day in flat, f"page {n} lacks the header: {flat[:200]}"
        assert f"Page {n} of {len(pages)}" in flat, f"page {n} lacks its number"


# --------------------------------------------------------------------------- printing


def test_a_long_violations_table_prints_every_row(chromium, tmp_path: Path):
    """144 violations, as on the demo: the 560 px scroll box held about 17 of them on paper."""
    ids = [f"DEMO-{i:04d}" for i in range(144)]
    violations = pd.DataFrame(
        {
            "user_id": [f"IU-{i % 12:03d}" for i in range(144)],
            "collected_at": [
                pd.Timestamp("2026-01-05 09:00", tz="America/New_York") + pd.Timedelta(days=i)
                for i in range(144)
            ],
            "sample_id": ids,
            "parameter": "BOD",
            "value": 300.0,
            "unit": "mg/L",
            "limit_value": 240.0,
            "limit_type": "max",
            "exceedance_ratio": 1.25,
            "rule": "Woodbury Code ch. 253 Part 2, discharges requiring Town Board approval, (a)",
        }
    )
    users = pd.DataFrame(
        {"user_id": sorted(set(violations["user_id"])), "name": "Plant", "district": "consolidated"}
    )
    page_html, _ = build_sewer_page(
        SewerData(
            as_of=AS_OF,
            town="Town of Woodbury",
            laws={"sewer_administrator": "Superintendent of Sewage"},  # the rules' name of the person
            users=users,
            violations=violations,
            present={"industrial_users": True, "discharge_violations": True},
        )
    )
    html_path = tmp_path / "sewer.html"
    html_path.write_text(page_html, encoding="utf-8")
    pages = print_page(chromium, html_path, tmp_path / "sewer.pdf")
    text = "\n".join(pages)
    missing = sorted(set(ids) - ids_in(text, ids))
    assert not missing, f"{len(missing)} of 144 violating samples are not on paper: {missing[:10]}"
    assert_headed(pages, "Town of Woodbury", "Superintendent of Sewage: industrial users", AS_OF)
    # the table's header is repeated on every page that continues it
    continued = [p for p in pages if ids_in(p, ids)]
    assert len(continued) >= 2 and all("Sample" in p and "Rule (section)" in p for p in continued)


def test_the_small_towns_sewer_page_prints_every_violating_sample(chromium, built_town: Path, tmp_path: Path):
    con = duckdb.connect(str(built_town / "w.duckdb"), read_only=True)
    try:
        ids = [r[0] for r in con.execute("SELECT DISTINCT sample_id FROM discharge_violations").fetchall()]
    finally:
        con.close()
    assert len(ids) >= 5
    pages = print_page(chromium, built_town / "dashboards" / "sewer.html", tmp_path / "sewer.pdf")
    assert ids_in("\n".join(pages), ids) == set(ids)
    assert_headed(pages, "Town of Woodbury", "Superintendent of Sewage: industrial users", AS_OF)
    assert len(pages) >= 3


def test_every_page_prints_with_its_header(chromium, built_town: Path, tmp_path: Path):
    titles = {
        "index.html": "Outfall dashboards",
        "stormwater.html": "Stormwater Management Officer: construction sites",
        "billing.html": "Clerk: the sewer roll of billing year 2026",
        "quarantine.html": "Quarantined input rows",
    }
    both = "Town of Woodbury and Village of Bellport"
    towns = {
        "index.html": both,
        "stormwater.html": both,
        "quarantine.html": both,
        "billing.html": "Town of Woodbury",
    }
    for name, title in titles.items():
        pages = print_page(chromium, built_town / "dashboards" / name, tmp_path / f"{name}.pdf")
        assert_headed(pages, towns[name], title, AS_OF)
    # the quarantined rows: each value under its column, no JSON
    quarantine = " ".join(" ".join(pdf_pages(tmp_path / "quarantine.html.pdf")).split())
    assert "furlongs" in quarantine and "No Seats Inc" in quarantine and '{"' not in quarantine


# --------------------------------------------------------------------------- plain words

FORBIDDEN = {
    "contract": re.compile(r"\bcontract\b", re.I),  # not "contractor"
    "reading of": re.compile(r"\breading of\b", re.I),
    "normal_avg_flow_gpd": re.compile(r"normal_avg_flow_gpd"),
    "a JSON blob": re.compile(r'\{"'),
    # the code words the pages used to show (issue 28): criteria, statistics, statuses, findings, places
    **{
        word: re.compile(rf"\b{word}\b")
        for word in (
            "trc",
            "monthly_avg",
            "daily_max",
            "late_report",
            "due_today",
            "due_tomorrow",
            "chlorine_demand",
            "report_not_delivered",
            "disturbance_over_limit",
            "milestone_notice_late",
            "contractor_not_certified",
            "sediment_not_removed",
            "guarantee_release",
            "as_built",
            "maintenance_agreement",
            "one_year_inspection",
            "permit_expired",
            "permit_not_yet_effective",
            "notify_town",
            "written_confirmation",
            "appeal_hearing",
            "cost_notice",
            "violation_notice_24h",
            "periodic_report",
            "missed_testing",
            "no_permit",
        )
    },
    "a jurisdiction's code (bellport)": re.compile(r"\bbellport\b"),  # "Village of Bellport"
    "a jurisdiction's code (woodbury)": re.compile(r"\bwoodbury\b"),  # "Town of Woodbury"
    "Penalty periods": re.compile(r"\bpenalty periods\b", re.I),  # "days (or weeks) of penalty"
}
# The billing page is the clerk's: none of the warehouse's billing codes, nor the runs' hashes in its tables.
BILLING_FORBIDDEN = {
    **FORBIDDEN,
    **{
        word: re.compile(re.escape(word))
        for word in ("sewer_budget", "amount_up", "units_om", "district_1", "Run hash")
    },
}


def forbidden_for(name: str) -> dict[str, re.Pattern]:
    """The words a page (by its file name) must not show."""
    return BILLING_FORBIDDEN if Path(name).stem == "billing" else FORBIDDEN


def visible_text(page_html: str) -> str:
    """What a reader sees of an HTML file: no scripts, styles or tags; entities decoded."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", page_html, flags=re.S | re.I)
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(html.unescape(text).split())


def figure_strings(page_html: str) -> str:
    """Every string inside the page's chart data (labels, legends, tooltips, annotations)."""
    out: list[str] = []

    def walk(value):
        if isinstance(value, str):
            out.append(html.unescape(re.sub(r"<[^>]+>", " ", value)))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for blob in re.findall(
        r'<script type="application/json" id="[^"]*">(.*?)</script>', page_html, flags=re.S
    ):
        walk(json.loads(blob))
    return " ".join(" ".join(out).split())


def hits(text: str, forbidden: dict[str, re.Pattern] = FORBIDDEN) -> dict[str, int]:
    return {word: len(p.findall(text)) for word, p in forbidden.items() if p.search(text)}


@pytest.mark.slow
def test_no_jargon_in_any_page_letter_or_pdf(chromium, built_town: Path, tmp_path: Path):
    folder = built_town / "dashboards"
    letters = sorted((folder / "letters").rglob("*.html"))
    letter_pdfs = sorted((folder / "letters").rglob("pdf/*.pdf"))
    # Letters of drafts are not printed by the run (only mailed notices ready to send and the other
    # letters are); the small town has one such letter printed, and every letter's HTML is read below.
    assert len(letters) >= 5 and len(letter_pdfs) >= 1, (
        "the small town's letters were not written and printed"
    )
    pages = [folder / name for name in PAGES]
    printed = print_pdfs([(p, tmp_path / f"{p.stem}.pdf") for p in pages], force=True, browser=chromium)
    assert len(printed.written) == len(pages), printed.summary()

    # The rules' citations reach pages and letters too: they are plain words now (rules/*.yaml,
    # tests/test_rules_generated.py), so nothing a reader sees may hold a forbidden word.
    problems: list[str] = []
    for path in pages + letters:
        raw = path.read_text(encoding="utf-8")
        for kind, text in (("text", visible_text(raw)), ("chart labels", figure_strings(raw))):
            found = hits(text, forbidden_for(path.name))
            if found:
                problems.append(f"{path.relative_to(folder)} ({kind}): {found}")
    for pdf in letter_pdfs + [tmp_path / f"{p.stem}.pdf" for p in pages]:
        found = hits(" ".join(" ".join(pdf_pages(pdf)).split()), forbidden_for(pdf.name))
        if found:
            problems.append(f"{pdf.name} (PDF): {found}")
    assert not problems, "jargon a reader sees:\n" + "\n".join(problems)
