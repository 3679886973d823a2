"""The letters' machinery: Jinja2 templates with the town's letterhead, and PDFs.

Engine: escaping, a missing value is an error, the filters, the base layout, the
letterhead file (absent, broken, complete), a town's own templates, the
ready-to-mail flag. PDFs (headless Chromium, marked browser): a letter printed
and read back with pypdf (page count, recipient, every listed item), a re-run
that prints only what changed, a batch in a given order, and a run without
Chromium that still succeeds and says what to install.
"""

from __future__ import annotations

import datetime as dt
import os
import time
import unicodedata
from decimal import Decimal
from pathlib import Path

import pytest

from assets.common import schema_ddl
from outfall.demo.generate import write_letterhead
from outfall.letters import (
    LETTERHEAD_FILE,
    OVERRIDE_FOLDER,
    Letter,
    LetterError,
    LetterWriter,
    format_date,
    format_money,
    format_number,
    letter_is_ready,
    read_letterhead,
    write_letter,
)
from outfall.pdf import CHROMIUM_HINT, Browser, find_browser, join_pdfs, print_pdfs, recorded_source
from outfall.rules import local_timezone
from tests.browsing import chromium  # noqa: F401 - a fixture

EVIL = "<script>alert(1)</script> & Sons"

# What the stop-work order needs (templates/letters/swppp_stop_work_order.html): a letter with a list.
STOP_WORK = {
    "order_id": "SWO-W-W-1-20260630",
    "draft": False,
    "certified_mail_no": "7019 0001",
    "copy_to": [],
    "issued_on": dt.date(2026, 6, 30),
    "recipient_name": EVIL,
    "recipient_address_block": "5 Oak Lane\nWoodbury, NY 10930",
    "site_description": "Oak Ridge, 5 Oak (site W-1)",
    "authority": "Town of Woodbury",
    "law_name": "Chapter 267 of the Code of the Town of Woodbury",
    "violations": [
        f"NOV-{i}: inspection at least every seven days, due by June {i}, 2026 (overdue)"
        for i in range(1, 31)
    ],
    "section_text": "The Stormwater Management Officer may issue a stop-work order.",
    "rule": "ch. 267 (test)",
    "issuer": "Stormwater Management Officer, Town of Woodbury",
}


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    write_letterhead(folder)
    return folder


# --------------------------------------------------------------------------- the engine


def test_filters_say_dates_money_and_numbers_plainly():
    assert format_date(dt.date(2026, 6, 30)) == "June 30, 2026"
    assert format_date(dt.datetime(2026, 7, 4, 23, 59)) == "July 4, 2026"
    assert format_date("2026-02-01") == "February 1, 2026"
    assert format_money(Decimal("1234.5")) == "$1,234.50" and format_money(-3) == "-$3.00"
    assert format_number(240.0) == "240" and format_number(5.49) == "5.49" and format_number(1600) == "1,600"
    for blank in (None, ""):
        with pytest.raises(LetterError, match="blank"):
            format_date(blank)
        with pytest.raises(LetterError, match="blank"):
            format_money(blank)
    with pytest.raises(LetterError, match="not a date"):
        format_date("soon")


def test_values_are_escaped_and_a_missing_one_is_an_error(tmp_path: Path):
    (tmp_path / "t.html").write_text(
        "<p>{{ name }}</p><p>{{ when|date }}</p><p>{{ fee|money }}</p><p>{{ addr|lines }}</p>"
        "<p>{{ items|and_list }}</p>{% for i in items %}<li>{{ i }}</li>{% endfor %}"
    )
    writer = LetterWriter(None, templates_dir=tmp_path)
    letter = writer.render(
        "t.html",
        {
            "name": EVIL,
            "when": dt.date(2026, 7, 4),
            "fee": Decimal("1234.5"),
            "addr": "1 Main <St>\nTown",
            "items": ["BOD", "TSS", "a<b"],
        },
        jurisdiction="woodbury",
        area="sewer",
    )
    html_text = letter.html
    assert "<script>" not in html_text and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Sons" in html_text
    assert "July 4, 2026" in html_text and "$1,234.50" in html_text
    assert "1 Main &lt;St&gt;<br>\nTown" in html_text and "BOD, TSS and a&lt;b" in html_text
    assert "<li>a&lt;b</li>" in html_text
    with pytest.raises(LetterError, match="name"):
        writer.render("t.html", {"when": dt.date(2026, 7, 4)}, jurisdiction="woodbury", area="sewer")
    with pytest.raises(LetterError, match="plain file name"):
        writer.render("../t.html", {}, jurisdiction="woodbury", area="sewer")
    with pytest.raises(LetterError, match="no letter template"):
        writer.render("nope.html", {}, jurisdiction="woodbury", area="sewer")
    with pytest.raises(LetterError, match="kind of letter"):
        writer.render("t.html", {}, jurisdiction="woodbury", area="billing")


def test_without_a_letterhead_a_letter_says_so_and_is_not_ready(tmp_path: Path):
    letter = LetterWriter(tmp_path).render(
        "swppp_stop_work_order.html", STOP_WORK, jurisdiction="woodbury", area="stormwater"
    )
    assert not letter.ready_to_mail and not letter_is_ready(letter.html)
    assert "NOT READY TO MAIL" in letter.html and "Letterhead not configured" in letter.html
    assert f"add {LETTERHEAD_FILE} to the data folder" in letter.html
    assert STOP_WORK["issuer"] in letter.html  # signed with the office's title from the rules
    for item in STOP_WORK["violations"]:
        assert item in letter.html


def test_the_letterhead_heads_and_signs_every_letter(data_dir: Path):
    writer = LetterWriter(data_dir)
    letter = writer.render(
        "swppp_stop_work_order.html", STOP_WORK, jurisdiction="bellport", area="stormwater"
    )
    assert letter.ready_to_mail and letter_is_ready(letter.html) and "NOT READY" not in letter.html
    html_text = letter.html
    assert '<div class="town">Village of Bellport</div>' in html_text
    assert "Village Hall, 29 Bellport Lane · Bellport, NY 11713 · Tel. (631) 555-0170" in html_text
    assert "Riley Okafor" in html_text and "Stormwater Management Officer, Village of Bellport" in html_text
    assert "Order no. SWO-W-W-1-20260630" in html_text and "June 30, 2026" in html_text
    # the reference is printed at the foot of every page (a CSS string: no markup can break out)
    assert '@bottom-left { content: "Order no. SWO-W-W-1-20260630"' in html_text
    # a kind of letter the jurisdiction has no signatory for is not ready, and says why
    sewer = writer.render(
        "sewer_grease_order.html",
        {
            "order_id": "GO-1",
            "draft": False,
            "certified_mail_no": None,
            "period_end_rule": None,
            "penalty_text": "p",
            "penalty_rule": "pr",
            "issued_on": dt.date(2026, 6, 30),
            "establishment": "Diner",
            "recipient_name": "Diner Holdings LLC",
            "comply_by": dt.date(2026, 7, 30),
            "address_block": "2 Elm",
            "trap_id": "T-1",
            "pumpout_interval_days": 60,
            "set_on": dt.date(2026, 1, 2),
            "last_pumped_text": "",
            "missed_due": dt.date(2026, 5, 1),
            "days_overdue": 60,
            "directive": "Pump it.",
            "section_text": "s",
            "rule": "r",
            "issuer": "Administrator",
        },
        jurisdiction="bellport",
        area="sewer",
    )
    assert (
        not sewer.ready_to_mail
        and "names no signatory for sewer letters of the Village of Bellport" in sewer.html
    )
    # nor is a letter citing a law the jurisdiction's rules do not name
    assert "do not name the sewer use law this letter cites" in sewer.html
    # what the caller knows is missing keeps a letter from the mail, with its reason on the letter
    no_address = writer.render(
        "swppp_stop_work_order.html",
        STOP_WORK,
        jurisdiction="woodbury",
        area="stormwater",
        missing=["the recipient's mailing address is not on file"],
    )
    assert (
        not no_address.ready_to_mail
        and "The recipient&#39;s mailing address is not on file." in no_address.html
    )


@pytest.mark.parametrize(
    "text, why",
    [
        ("woodbury:\n  name: Town of Woodbury\n", "woodbury > address is missing"),
        ("woodbry:\n  name: X\n", "woodbry is not a jurisdiction of the rules files found"),
        ("woodbury: [1, 2]\n", "woodbury"),
        ("- just a list\n", "must list the jurisdictions"),
        ("woodbury: {name: 'x\n", "cannot be read"),
    ],
)
def test_a_broken_letterhead_is_named_and_nothing_is_ready(tmp_path: Path, text: str, why: str):
    (tmp_path / LETTERHEAD_FILE).write_text(text)
    status = read_letterhead(tmp_path)
    assert status.letterhead is None and why in status.problem
    letter = LetterWriter(tmp_path).render(
        "swppp_stop_work_order.html", STOP_WORK, jurisdiction="woodbury", area="stormwater"
    )
    assert not letter.ready_to_mail and LETTERHEAD_FILE in letter.html


def test_a_town_overrides_a_template_in_its_data_folder(data_dir: Path):
    own = data_dir / OVERRIDE_FOLDER
    own.mkdir()
    (own / "swppp_stop_work_order.html").write_text(
        '{% extends "base.html" %}{% block title %}Order {{ order_id }}{% endblock %}'
        "{% block content %}<p>Stop all work at {{ site_description }}, by order of the Town.</p>{% "
        "endblock %}"
    )
    letter = LetterWriter(data_dir).render(
        "swppp_stop_work_order.html", STOP_WORK, jurisdiction="woodbury", area="stormwater"
    )
    assert (
        "by order of the Town" in letter.html and "Town of Woodbury" in letter.html
    )  # the base layout still
    assert "Morgan Ellery" in letter.html


def test_write_letter_is_atomic_and_leaves_an_unchanged_letter_alone(tmp_path: Path):
    letter = Letter("<p>one</p>", "t.html", "woodbury", "sewer")
    path = write_letter(tmp_path, "a b.html", letter)
    assert path.name == "a_b.html" and path.read_text() == "<p>one</p>"
    before = path.stat().st_mtime_ns
    time.sleep(0.01)
    write_letter(tmp_path, "a b.html", letter)
    assert path.stat().st_mtime_ns == before and [p.name for p in tmp_path.iterdir()] == ["a_b.html"]


def test_letters_written_in_one_block_list_their_folder_once_and_sweep_what_kills_left(
    tmp_path: Path, monkeypatch
):
    from outfall import atomic

    (tmp_path / ".a.html.x1.tmp").write_text("killed")  # what killed writes of two letters left
    (tmp_path / ".b.html.x2.tmp").write_text("killed")
    listed = []
    real_glob = Path.glob
    monkeypatch.setattr(
        Path, "glob", lambda self, pattern: listed.append(pattern) or real_glob(self, pattern)
    )
    with atomic.each_folder_swept_once():
        for name in ("a.html", "b.html", "c.html"):
            write_letter(tmp_path, name, f"<p>{name}</p>")
        write_letter(tmp_path, "a.html", "<p>a.html</p>")  # unchanged: left alone, nothing listed
    assert listed == [".*.tmp"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.html", "b.html", "c.html"]
    # outside the block, each write looks for its own file's leftovers again
    (tmp_path / ".c.html.x3.tmp").write_text("killed")
    write_letter(tmp_path, "c.html", "<p>c, again</p>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.html", "b.html", "c.html"]


def test_every_bundled_letter_extends_the_base_layout():
    folder = Path(__file__).resolve().parents[1] / "templates" / "letters"
    letters = [p for p in folder.glob("*.html") if p.name != "base.html"]
    assert len(letters) >= 5
    for path in letters:
        assert path.read_text().lstrip().startswith('{% extends "base.html" %}'), path.name


# --------------------------------------------------------------------------- PDFs


def test_without_chromium_nothing_is_printed_and_the_reason_is_one_plain_line(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("OUTFALL_CHROMIUM", str(tmp_path / "no-such-chromium"))
    assert find_browser() is None
    html_path = tmp_path / "a.html"
    html_path.write_text("<p>a</p>")
    report = print_pdfs([(html_path, tmp_path / "a.pdf")])
    assert report.unavailable == CHROMIUM_HINT and not report.written and not (tmp_path / "a.pdf").exists()
    assert "\n" not in report.summary() and "chromium-driver" in report.summary()
    # a chromedriver that is not one: the report says Chromium did not start, nothing raises
    fake = tmp_path / "fake-driver"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    broken = print_pdfs([(html_path, tmp_path / "a.pdf")], browser=Browser(fake, fake))
    assert broken.unavailable and "did not start" in broken.unavailable


def _pdf_text(path: Path) -> list[str]:
    from pypdf import PdfReader

    return [unicodedata.normalize("NFKC", page.extract_text() or "") for page in PdfReader(str(path)).pages]


def _one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.browser
def test_a_letter_prints_to_pdf_with_the_recipient_and_every_item(chromium, data_dir: Path, tmp_path: Path):
    writer = LetterWriter(data_dir)
    out = tmp_path / "letters"
    html_path = write_letter(
        out,
        "order.html",
        writer.render("swppp_stop_work_order.html", STOP_WORK, jurisdiction="woodbury", area="stormwater"),
    )
    pdf = out / "pdf" / "order.pdf"
    report = print_pdfs([(html_path, pdf)], browser=chromium)
    assert report.written == [pdf] and not report.failed and report.unavailable is None
    pages = _pdf_text(pdf)
    text = _one_line(" ".join(pages))
    assert len(pages) == 2  # thirty listed violations run onto a second sheet
    assert "<script>alert(1)</script> & Sons" in text and "5 Oak Lane" in text
    for item in STOP_WORK["violations"]:
        assert _one_line(item) in text, item
    assert "Town of Woodbury" in text and "Morgan Ellery" in text and "STOP-WORK ORDER" in text.upper()
    for n, page in enumerate(pages, start=1):  # the reference and the page number on every sheet
        assert f"Page {n} of 2" in page and "Order no. SWO-W-W-1-20260630" in page
    # re-run: nothing changed, nothing printed; a changed letter is printed again
    assert print_pdfs([(html_path, pdf)], browser=chromium).unchanged == [pdf]
    recorded = recorded_source(pdf)
    html_path.write_text(html_path.read_text().replace("Oak Ridge", "Oak Hollow"))
    again = print_pdfs([(html_path, pdf)], browser=chromium)
    assert (
        again.written == [pdf]
        and recorded_source(pdf) != recorded
        and "Oak Hollow" in " ".join(_pdf_text(pdf))
    )


@pytest.mark.browser
def test_many_letters_in_one_session_and_a_batch_in_mailing_order(chromium, data_dir: Path, tmp_path: Path):
    writer = LetterWriter(data_dir)
    jobs, names = [], []
    for i in range(6):
        name = f"Recipient {i} & Co"
        names.append(name)
        html_path = write_letter(
            tmp_path,
            f"letter_{i}.html",
            writer.render(
                "swppp_stop_work_order.html",
                {**STOP_WORK, "recipient_name": name, "violations": [f"item {i}"]},
                jurisdiction="woodbury",
                area="stormwater",
            ),
        )
        jobs.append((html_path, tmp_path / "pdf" / f"letter_{i}.pdf"))
    report = print_pdfs(jobs, browser=chromium)
    assert len(report.written) == 6 and report.seconds_per_pdf is not None
    print(
        f"\nPDF of a letter: browser start {report.browser_start_s:.2f} s, "
        f"{report.seconds_per_pdf:.3f} s per letter ({len(report.written)} letters, one session)"
    )
    order = [5, 0, 3, 1, 4, 2]  # the mailing order the caller gives
    batch = join_pdfs([jobs[i][1] for i in order], tmp_path / "batch.pdf", titles=[names[i] for i in order])
    from pypdf import PdfReader

    reader = PdfReader(str(batch))
    assert len(reader.pages) == 6
    assert [_one_line(p.extract_text()).count(names[i]) > 0 for p, i in zip(reader.pages, order)] == [
        True
    ] * 6
    assert [o.title for o in reader.outline] == [names[i] for i in order]
    stamp = batch.stat().st_mtime_ns
    join_pdfs([jobs[i][1] for i in order], batch, titles=[names[i] for i in order])
    assert batch.stat().st_mtime_ns == stamp  # the same parts: the batch is left as it is


@pytest.mark.browser
def test_the_run_prints_ready_letters_and_a_batch(chromium, tmp_path: Path):
    """The asset letter_pdfs on the letters a run wrote: only ready letters become PDFs."""
    from assets.printing import letter_pdfs
    from pipelines.definitions import build_resources
    from tests.conftest import materialize

    data = tmp_path / "data"
    data.mkdir()
    write_letterhead(data)
    letters = tmp_path / "dashboards" / "letters" / "stormwater"
    writer = LetterWriter(data)
    write_letter(
        letters,
        "ready.html",
        writer.render("swppp_stop_work_order.html", STOP_WORK, jurisdiction="woodbury", area="stormwater"),
    )
    write_letter(
        letters,
        "draft.html",
        writer.render(
            "swppp_stop_work_order.html",
            STOP_WORK,
            jurisdiction="woodbury",
            area="stormwater",
            missing=["no address"],
        ),
    )
    (letters / "pdf").mkdir()
    (letters / "pdf" / "gone.pdf").write_bytes(b"%PDF-1.4 stale")
    # the table letters says which letters were written and whether each is ready (assets/records.py)
    import duckdb

    from outfall.warehouse import configure, ensure_schema

    with duckdb.connect(str(tmp_path / "w.duckdb")) as con:
        configure(con, timezone=local_timezone())
        ensure_schema(con, schema_ddl())
        con.execute(
            "INSERT INTO letters (letter, letter_kind, area, ready, reason, mailed, recorded) VALUES "
            "('letters/stormwater/ready.html', 'stop_work_order', 'stormwater', true, NULL, false, false), "
            "('letters/stormwater/draft.html', 'stop_work_order', 'stormwater', false, 'no address', false, "
            "false)"
        ).fetchall()
    resources = build_resources(str(tmp_path / "w.duckdb"), data_dir=str(data), as_of="2026-06-30")
    result = materialize([letter_pdfs], resources=resources, selection=["letter_pdfs"])
    assert result.success
    assert sorted(p.name for p in (letters / "pdf").iterdir()) == ["ready.pdf"]
    assert len(_pdf_text(letters / "ready_to_mail.pdf")) == len(_pdf_text(letters / "pdf" / "ready.pdf"))
    meta = result.get_asset_materialization_events()[0].materialization.metadata
    assert meta["pdfs_printed"].value == 1 and meta["letters_not_ready_to_mail"].value == 1


def test_chromium_variables_point_at_the_browser(monkeypatch, tmp_path: Path):
    chromium, driver = tmp_path / "chromium", tmp_path / "chromedriver"
    for p in (chromium, driver):
        p.write_text("")
    monkeypatch.setenv("OUTFALL_CHROMIUM", str(chromium))
    monkeypatch.setenv("OUTFALL_CHROMEDRIVER", str(driver))
    assert find_browser() == Browser(chromium, driver)
    monkeypatch.delenv("OUTFALL_CHROMEDRIVER")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert find_browser() is None
    assert os.environ["OUTFALL_CHROMIUM"] == str(chromium)


@pytest.mark.browser
def test_letters_of_one_folder_replace_the_open_page_each_with_its_own_text_and_title(
    chromium, tmp_path: Path
):
    """Letters of one folder without scripts are loaded into the open page instead of navigated to:
    each PDF holds its own letter only and its own title; a page with a script, or in another
    folder, is navigated to."""
    from pypdf import PdfReader

    pages = {
        tmp_path / "a" / "one.html": "<title>Letter one</title><p>ALPHA text</p>",
        tmp_path / "a" / "two.html": "<title>Letter two</title><p>BRAVO text</p>",
        tmp_path / "a" / "three.html": "<title>Letter three</title><p id=x>CHARLIE</p>"
        "<script>document.getElementById('x').textContent += ' scripted';</script>",
        tmp_path / "a" / "four.html": "<title>Letter four</title><p>DELTA text</p>",
        tmp_path / "b" / "five.html": "<title>Letter five</title><p>ECHO text</p>",
    }
    jobs = []
    for path, body in pages.items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'>{body}</body></html>")
        jobs.append((path, path.parent / "pdf" / f"{path.stem}.pdf"))
    report = print_pdfs(jobs, browser=chromium)
    assert report.written == [pdf for _, pdf in jobs]
    words = ["ALPHA", "BRAVO", "CHARLIE scripted", "DELTA", "ECHO"]
    titles = ["Letter one", "Letter two", "Letter three", "Letter four", "Letter five"]
    for (_, pdf), word, title in zip(jobs, words, titles):
        text = _one_line(" ".join(_pdf_text(pdf)))
        assert word in text and all(w.split()[0] not in text for w in words if w != word), (pdf.name, text)
        assert PdfReader(str(pdf)).metadata["/Title"] == title


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.browser
def test_a_run_killed_outright_leaves_no_browser_behind(chromium, tmp_path: Path):
    """Chromium and chromedriver run in their own process group; when the process that started them
    is killed with SIGKILL, the watchdog ends the group and removes the session's profile folder."""
    import signal
    import subprocess
    import sys

    script = (
        "import os, sys, time\n"
        "from outfall.pdf import PdfPrinter\n"
        "p = PdfPrinter(); p._start()\n"
        "print(os.getpgid(p._driver.service.process.pid), p._profile, flush=True)\n"
        "time.sleep(60)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    group, profile = child.stdout.readline().split()
    group = int(group)
    assert _group_alive(group) and Path(profile).is_dir()
    child.send_signal(signal.SIGKILL)
    child.wait()
    deadline = time.monotonic() + 10
    while (_group_alive(group) or Path(profile).exists()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _group_alive(group), "Chromium outlived the run that started it"
    assert not Path(profile).exists()


def test_closing_does_not_wait_forever_on_a_watchdog_that_outlives_its_signal(monkeypatch, tmp_path: Path):
    """Regression: close() asked the session's watchdog to end (SIGTERM) and waited for it without a
    limit, so a watchdog that outlived the signal kept the run waiting. A watchdog that ignores the
    signal is now ended outright after WATCHDOG_STOP_S."""
    import subprocess
    import sys

    from outfall import pdf

    monkeypatch.setattr(pdf, "WATCHDOG_STOP_S", 1, raising=False)
    printer = pdf.PdfPrinter(Browser(tmp_path / "chromium", tmp_path / "chromedriver"))
    stubborn = subprocess.Popen(
        [
            sys.executable,
            "-S",
            "-c",
            "import signal, time\n"
            "signal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint('ready', flush=True)\ntime.sleep(30)",
        ],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert stubborn.stdout.readline().strip() == "ready"  # the signal is ignored from here on
        printer._watchdog = stubborn
        started = time.monotonic()
        printer.close()
        assert time.monotonic() - started < 10
        assert stubborn.poll() is not None and printer._watchdog is None
    finally:
        if stubborn.poll() is None:
            stubborn.kill()
        stubborn.wait()
        stubborn.stdout.close()


@pytest.mark.browser
def test_a_session_started_ahead_is_used_or_closed(tmp_path: Path, chromium):
    """warm() starts Chromium in the background: the next print_pdfs uses it; cool() closes one no
    print used (its process group ends)."""
    from outfall import pdf

    html_path = tmp_path / "a.html"
    html_path.write_text("<!DOCTYPE html><title>A</title><p>ahead</p>")
    assert pdf.warm()
    report = print_pdfs([(html_path, tmp_path / "a.pdf")])
    assert report.written == [tmp_path / "a.pdf"] and report.browser_start_s > 0
    assert pdf._warm["thread"] is None  # taken
    assert pdf.warm()
    printer = pdf._warm["printer"]
    pdf._warm["thread"].join()
    group = os.getpgid(printer._driver.service.process.pid)
    pdf.cool()
    deadline = time.monotonic() + 10
    while _group_alive(group) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _group_alive(group) and pdf._warm["thread"] is None


@pytest.mark.browser
def test_a_chromium_that_stops_answering_ends_the_printing_not_the_run(tmp_path: Path, chromium, monkeypatch):
    """Every command to chromedriver waits at most COMMAND_TIMEOUT_S (Selenium's default is no
    limit): a session that stops answering (here its processes are stopped) is ended, and the
    report says in one line that the letters stay as HTML."""
    import signal

    from outfall import pdf

    monkeypatch.setattr(pdf, "COMMAND_TIMEOUT_S", 3)
    html_path = tmp_path / "a.html"
    html_path.write_text("<!DOCTYPE html><title>A</title><p>never printed</p>")
    assert pdf.warm()
    pdf._warm["thread"].join()
    printer = pdf._warm["printer"]
    assert printer._driver.command_executor.client_config.timeout == 3
    group = os.getpgid(printer._driver.service.process.pid)
    os.killpg(group, signal.SIGSTOP)
    started = time.monotonic()
    report = print_pdfs([(html_path, tmp_path / "a.pdf")])
    assert time.monotonic() - started < 60
    assert (
        report.unavailable
        == "letters written as HTML only: Chromium did not answer within 3 s and was stopped"
    )
    assert not report.written and not (tmp_path / "a.pdf").exists()
    deadline = time.monotonic() + 10
    while _group_alive(group) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _group_alive(group)


def test_the_run_starts_chromium_when_the_first_letters_step_starts(monkeypatch):
    """`outfall run` warms Chromium at the start of a step whose letters are printed, not before."""
    from types import SimpleNamespace

    from assets.printing import LETTER_SOURCES
    from outfall import pdf
    from pipelines.cli import _warm_for_letters

    calls = []
    monkeypatch.setattr(pdf, "warm", lambda *a: calls.append(a) or True)

    def entry(step: str, start: bool = True):
        return SimpleNamespace(dagster_event=SimpleNamespace(is_step_start=start, step_key=step))

    _warm_for_letters(entry("flow"))
    _warm_for_letters(entry(LETTER_SOURCES[0], start=False))
    _warm_for_letters(SimpleNamespace(dagster_event=None))
    assert calls == []
    _warm_for_letters(entry(LETTER_SOURCES[0]))
    assert len(calls) == 1
