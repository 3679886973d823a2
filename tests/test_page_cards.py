"""Every card's count is the length of a list on the same page (issue 37, contract 7.5): on each of the demo's
pages, a card whose figure is a count links to an element of that page, and the rows of the list there
(table body rows and bullet items) are as many as the card says. Amounts and dates are not counts."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

CARD = re.compile(
    r'<(?:a|div) class="kpi[^"]*"(?: href="(?P<href>[^"]*)")?><div class="kpi-value">(?P<value>.*?)</div>'
    r'<div class="kpi-label">(?P<label>.*?)</div>'
)


class ListRows(HTMLParser):
    """The rows of the list inside the element with id ``target``: each ``tr`` of a ``tbody`` and each
    ``li`` of a ``ul`` (a numbered list, ``ol``, is the rules cited, not a list the cards count)."""

    VOID = {"br", "img", "input", "meta", "link", "hr", "col", "wbr"}

    def __init__(self, target: str):
        super().__init__()
        self.target, self.found, self.rows = target, False, 0
        self.depth = 0  # the open elements inside the target, itself included; 0 outside it
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        if self.depth:
            parent = self.stack[-1] if self.stack else ""
            if (tag == "tr" and parent == "tbody") or (tag == "li" and parent == "ul"):
                self.rows += 1
            self.depth += 1
        elif dict(attrs).get("id") == self.target:
            self.found, self.depth = True, 1
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.VOID or not self.stack:
            return
        while self.stack:  # close what the tag closes (HTML lets some end tags be left out)
            open_tag = self.stack.pop()
            if self.depth:
                self.depth -= 1
            if open_tag == tag:
                break


def list_rows(page_html: str, target: str) -> int | None:
    """The rows of the list the element ``target`` holds; None when the page has no such element."""
    parser = ListRows(target)
    parser.feed(page_html)
    return parser.rows if parser.found else None


def cards(page_html: str) -> list[tuple[str, str, str]]:
    """Each card of a page: (its link, its figure, its label), as a reader sees them."""
    import html

    return [
        (html.unescape(m["href"] or ""), html.unescape(m["value"]), html.unescape(m["label"]))
        for m in CARD.finditer(page_html)
    ]


def is_count(value: str) -> bool:
    return value.replace(",", "").isdigit()


def test_list_rows_counts_table_rows_and_bullets_not_the_rules_cited():
    page = (
        '<section id="s"><h2>x</h2><table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1<br></td></tr>'
        "<tr><td>2</td></tr></tbody></table><ul><li>three</li></ul><ol><li>a rule</li></ol></section>"
        '<div id="t"><table><tbody><tr><td>outside</td></tr></tbody></table></div>'
    )
    assert list_rows(page, "s") == 3
    assert list_rows(page, "t") == 1
    assert list_rows(page, "missing") is None


def test_every_cards_count_is_the_length_of_a_list_on_its_page(demo_town: Path):
    folder = demo_town / "dashboards"
    pages = sorted(folder.glob("*.html"))
    assert {"index.html", "sewer.html", "stormwater.html", "billing.html"} <= {p.name for p in pages}
    checked = []
    for path in pages:
        text = path.read_text(encoding="utf-8")
        for href, value, label in cards(text):
            if not is_count(value):
                continue  # an amount or a date
            number = int(value.replace(",", ""))
            assert href.startswith("#"), (
                f"{path.name}: the card '{value} {label}' links to no list of its page"
            )
            rows = list_rows(text, href[1:])
            assert rows is not None, (
                f"{path.name}: the card '{value} {label}' links to {href}, not on the page"
            )
            assert rows == number, (
                f"{path.name}: the card '{value} {label}' counts {number}; {href} lists {rows}"
            )
            checked.append((path.name, label))
    by_page = {name for name, _ in checked}
    assert {"index.html", "sewer.html", "stormwater.html", "billing.html"} <= by_page, checked
    assert len(checked) >= 15, checked


def test_the_stormwater_cards_name_inspections_listed_on_the_page(demo_town: Path):
    """The inspections the stormwater cards count as overdue and made late are each a row of the page."""
    text = (demo_town / "dashboards" / "stormwater.html").read_text(encoding="utf-8")
    shown = {
        label.split(",")[0]: int(value.replace(",", "")) for _, value, label in cards(text) if is_count(value)
    }
    assert shown["inspections overdue"] == list_rows(text, "inspections-overdue") > 0
    assert shown["inspections made late"] == list_rows(text, "inspections-late") > 0
    assert "Inspections not made or made late" in text
