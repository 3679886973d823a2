"""The dashboards in a real browser: headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium) opens each page from a file:// URL, fails
on any console error, on a chart that did not render (no ``.main-svg`` in a
chart's div), on any request that is not a local file (the pages work with no
internet), and saves a screenshot. Page weight and render times are measured
and printed (run with -s to see them; also in <tmp>/browser_metrics.json).

Not skipped when Chromium is missing: the test fails and says to run
scripts/install-chromium.sh.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from tests.test_dashboard_assets import built_town  # noqa: F401  (session fixture: small town + pages)
from tests.test_dashboards import EVIL, PAGES

pytestmark = pytest.mark.browser

CHROMIUM = Path(os.environ.get("OUTFALL_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("OUTFALL_CHROMEDRIVER", "/usr/bin/chromedriver"))
INSTALL_HINT = "run scripts/install-chromium.sh (as root) to install Debian's chromium and chromium-driver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--window-size=1366,900",
)
RENDER_TIMEOUT_S = 120
MAX_PAGE_BYTES = 2_000_000


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
        pytest.fail(
            f"Chromium is not installed ({', '.join(missing)} missing): {INSTALL_HINT}", pytrace=False
        )
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail(
            "the Python package selenium is missing: .venv/bin/pip install selenium==4.51.0", pytrace=False
        )
    profile = tempfile.mkdtemp(prefix="outfall-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_script_timeout(RENDER_TIMEOUT_S)
    driver.set_page_load_timeout(RENDER_TIMEOUT_S)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("screenshots")


METRICS: dict[str, dict] = {}


@pytest.fixture(scope="module", autouse=True)
def report(shots):
    yield
    if METRICS:
        (shots / "browser_metrics.json").write_text(json.dumps(METRICS, indent=2), encoding="utf-8")
        print(f"\nDashboards in headless Chromium (screenshots in {shots}):")
        print(
            f"  {'page':<17}{'KB':>8}{'charts':>8}{'load ms':>9}{'first chart ms':>16}{'all charts ms':>15}"
            f"{'slowest chart ms':>18}"
        )
        for name, m in METRICS.items():
            first = f"{m['first_chart_ms']:.0f}" if m["first_chart_ms"] is not None else "-"
            slowest = f"{m['slowest_chart_ms']:.0f}" if m["slowest_chart_ms"] is not None else "-"
            print(
                f"  {name:<17}{m['kb']:>8.0f}{m['charts']:>8}{m['load_ms']:>9.0f}{first:>16}"
                f"{m['all_charts_ms']:>15.0f}{slowest:>18}"
            )


def severe(entries: list[dict]) -> list[str]:
    return [e["message"] for e in entries if e.get("level") == "SEVERE"]


def open_page(driver, path: Path) -> float:
    driver.get_log("browser")  # drop what earlier pages logged
    started = time.perf_counter()
    driver.get(path.as_uri())
    while driver.execute_script("return document.readyState") != "complete":
        time.sleep(0.05)
    return (time.perf_counter() - started) * 1000


def check_page(driver, path: Path, shot_dir: Path) -> dict:
    """Open a page, draw every chart, check it and measure it; returns the metrics.

    load: ms from navigation to the load event (the HTML and plotly.min.js parsed); first chart: ms from
    scrolling the first chart into view to its being drawn; all charts: ms to draw every chart, one
    after the other (a reader only waits for the ones scrolled to)."""
    load_wall = open_page(driver, path)
    nav = driver.execute_script(
        "var n=performance.getEntriesByType('navigation')[0];"
        "return n ? {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd} : null;"
    )
    total = int(driver.execute_script("return +(document.documentElement.dataset.chartsTotal || 0)"))
    first_chart = None
    if total:  # scroll the first chart into view: the page draws it on demand
        first_chart = driver.execute_async_script(
            "var done=arguments[arguments.length-1]; var d=document.querySelector('.chart[data-fig]');"
            "var t=performance.now(); d.scrollIntoView();"
            "(function wait(){ if(d.getAttribute('data-rendered')==='1'){done(performance.now()-t);}"
            " else if(performance.now()-t>60000){done(-1);} else {requestAnimationFrame(wait);} })();"
        )
        assert first_chart >= 0, f"{path.name}: the first chart was not drawn when scrolled into view"
    render_all = driver.execute_async_script(
        "var done=arguments[arguments.length-1]; var t=performance.now();"
        "if(!window.outfallRenderAll){done(0);return;}"
        "window.outfallRenderAll().then(function(){done(performance.now()-t);},"
        "function(e){done('error: '+e);});"
    )
    assert not isinstance(render_all, str), f"{path.name}: {render_all}"
    draw_ms = driver.execute_script(
        "return Array.prototype.slice.call(document.querySelectorAll('.chart[data-draw-ms]'))"
        ".map(function(d){return +d.getAttribute('data-draw-ms');});"
    )
    bad = driver.execute_script(
        "return Array.prototype.slice.call(document.querySelectorAll('.chart[data-fig]')).filter(function(d){"
        "return !(d.classList.contains('js-plotly-plot') && d.querySelectorAll('.main-svg').length >= 1);"
        "}).map(function(d){return d.id;});"
    )
    drawn = int(driver.execute_script("return document.querySelectorAll('.js-plotly-plot .main-svg').length"))
    resources = driver.execute_script(
        "return performance.getEntriesByType('resource').map(function(e){return e.name;});"
    )
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(1366, min(max(height, 900), 14000))
    time.sleep(0.3)
    shot = shot_dir / f"{path.stem}.png"
    driver.save_screenshot(str(shot))
    driver.set_window_size(1366, 900)
    logs = driver.get_log("browser")
    errors = severe(logs)
    assert not errors, f"{path.name}: console errors: {errors}"
    assert not bad, f"{path.name}: charts that did not render: {bad}"
    assert drawn >= total, f"{path.name}: {drawn} plot SVGs for {total} charts"
    remote = [r for r in resources if not r.startswith("file:")]
    assert not remote, f"{path.name}: requests beyond the local files: {remote}"
    size = path.stat().st_size
    assert size < MAX_PAGE_BYTES, f"{path.name}: {size / 1e6:.1f} MB, more than the ~2 MB a page may weigh"
    assert shot.stat().st_size > 10_000
    return {
        "kb": size / 1024,
        "charts": total,
        "load_ms": nav["load"] if nav else load_wall,
        "dom_ready_ms": nav["dcl"] if nav else None,
        "first_chart_ms": first_chart,
        "all_charts_ms": (first_chart or 0.0) + float(render_all),
        "slowest_chart_ms": max(draw_ms) if draw_ms else None,
        "screenshot": str(shot),
        "warnings": [e["message"] for e in logs if e.get("level") == "WARNING"],
    }


@pytest.mark.parametrize("name", PAGES)
def test_page_renders_in_chromium(browser, built_town, shots, name):  # noqa: F811
    path = built_town / "dashboards" / name
    assert path.exists(), f"{name} was not written"
    metrics = check_page(browser, path, shots)
    METRICS[name] = metrics
    least = {"sewer.html": 4, "stormwater.html": 2, "billing.html": 3}.get(name, 0)  # the town's users, sites
    assert metrics["charts"] >= least, f"{name}: only {metrics['charts']} charts on a non-empty warehouse"
    target = os.environ.get("OUTFALL_SCREENSHOT_DIR")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(metrics["screenshot"], Path(target) / Path(metrics["screenshot"]).name)


def test_charts_draw_when_scrolled_into_view(browser, built_town):  # noqa: F811
    """A long page opens at once: charts far below are drawn when they come into view."""
    path = built_town / "dashboards" / "sewer.html"
    open_page(browser, path)
    last = browser.execute_script(
        "var d=document.querySelectorAll('.chart[data-fig]'); return d[d.length-1].id;"
    )
    assert browser.execute_script(f"return document.getElementById('{last}').dataset.rendered") is None
    browser.execute_script(f"document.getElementById('{last}').scrollIntoView()")
    deadline = time.monotonic() + RENDER_TIMEOUT_S
    while browser.execute_script(f"return document.getElementById('{last}').dataset.rendered") != "1":
        assert time.monotonic() < deadline, "the chart scrolled into view was not drawn"
        time.sleep(0.05)
    assert browser.execute_script(f"return document.querySelectorAll('#{last} .main-svg').length") >= 1
    assert not severe(browser.get_log("browser"))


def shown_text(browser, element_id: str) -> str:
    """The text a reader sees in an element once scrolled to it: the page's long sections are laid out
    only near the screen (content-visibility: auto), and until then a browser reports no text for them."""
    browser.execute_script(f"document.getElementById('{element_id}').scrollIntoView()")
    deadline = time.monotonic() + RENDER_TIMEOUT_S
    while not (text := browser.execute_script(f"return document.getElementById('{element_id}').innerText")):
        assert time.monotonic() < deadline, f"{element_id} shows no text when scrolled to"
        time.sleep(0.05)
    return text


def test_names_from_input_files_show_as_text(browser, built_town):  # noqa: F811
    open_page(browser, built_town / "dashboards" / "sewer.html")
    assert browser.execute_script("return document.querySelectorAll('main img').length") == 0
    assert EVIL in shown_text(browser, "user-IU-3")
    open_page(browser, built_town / "dashboards" / "stormwater.html")
    assert browser.execute_script("return document.querySelectorAll('main script:not([type])').length") == 0
    assert not severe(browser.get_log("browser"))


def test_index_links_every_page_and_the_quarantine_list(browser, built_town):  # noqa: F811
    folder = built_town / "dashboards"
    open_page(browser, folder / "index.html")
    hrefs = browser.execute_script(
        "return Array.prototype.slice.call(document.querySelectorAll('main a')).map(function(a){return "
        "a.href;});"
    )
    targets = {h.split("#")[0].rsplit("/", 1)[-1] for h in hrefs}
    assert {"sewer.html", "stormwater.html", "billing.html", "quarantine.html"} <= targets
    for target in targets:
        assert (folder / target).exists(), target
    link = browser.execute_script(
        "var a=document.querySelector('a.bad-link'); if(!a){return null;} a.click(); return "
        "a.getAttribute('href');"
    )
    assert link and link.startswith("quarantine.html#q-")
    deadline = time.monotonic() + 30
    while not browser.current_url.endswith(link):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    anchor = link.split("#", 1)[1]
    rows = browser.execute_script(f"return document.querySelectorAll('#{anchor} tbody tr').length")
    assert rows >= 1


def test_readings_near_a_slug_are_drawn_at_their_local_times(browser, built_town):  # noqa: F811
    """The readings near slugs come as typed arrays of local minutes in ms (text is slow and large on a
    year of readings): on the chart's date axis they fall where the slug's shading
    (given as local time text) is, and a gap separates the windows of separate slugs."""
    open_page(browser, built_town / "dashboards" / "sewer.html")
    chart = "fig-flow-IU-3-div"
    browser.execute_script(f"document.getElementById('{chart}').scrollIntoView()")
    deadline = time.monotonic() + RENDER_TIMEOUT_S
    while browser.execute_script(f"return document.getElementById('{chart}').dataset.rendered") != "1":
        assert time.monotonic() < deadline, "the flow chart was not drawn"
        time.sleep(0.05)
    found = browser.execute_script(f"""
        var gd = document.getElementById('{chart}');
        var i = gd._fullData.findIndex(function (t) {{ return t.name === 'every reading near a slug'; }});
        var ax = gd._fullLayout.xaxis;
        var points = gd.calcdata[i].filter(function (p) {{ return isFinite(p.y); }})
            .map(function (p) {{ return p.x; }});
        var slugs = gd._fullLayout.shapes.filter(function (s) {{ return s.type === 'rect'; }})
            .map(function (s) {{ return [ax.d2c(s.x0), ax.d2c(s.x1)]; }});
        var inside = points.filter(function (x) {{
            return slugs.some(function (s) {{ return x >= s[0] && x <= s[1]; }}); }}).length;
        var near = points.filter(function (x) {{
            return slugs.some(function (s) {{
                return x >= s[0] - 3600e3 && x <= s[1] + 3600e3; }}); }}).length;
        return {{points: points.length, inside: inside, near: near, slugs: slugs.length,
                 first: ax.c2d(points[0])}};""")
    assert found["slugs"] >= 1 and found["points"] > 0
    assert found["near"] == found["points"], found  # every reading within an hour of a slug's shading
    assert found["inside"] > 0, found
    assert found["first"].startswith("2026-06-05 1"), found  # local wall-clock time, as the shading's text
    assert not severe(browser.get_log("browser"))


@pytest.mark.parametrize(
    "name, person",
    [
        ("sewer.html", "Superintendent of Sewage"),
        ("stormwater.html", "Stormwater Management Officer"),
        ("billing.html", "Clerk"),
    ],
)
def test_each_persons_page_opens_with_their_worklist(browser, built_town, name, person, tmp_path):
    """In the browser, the first section a person sees on their page is what to do next, at the top of the
    window, with its title and the person's counts."""
    browser.get((built_town / "dashboards" / name).as_uri())
    first = browser.execute_script(
        "const s = document.querySelector('main section, body section');"
        "const r = s.getBoundingClientRect();"
        "return [s.id, s.querySelector('h2').innerText, r.top, s.innerText];"
    )
    assert first[0] == "worklist" and first[1] == "What to do next", (name, first[:2])
    assert 0 <= first[2] < 900, "the worklist is not in the first screen"
    assert person in first[3] and "As of" in first[3]
    browser.save_screenshot(str(tmp_path / f"{name}.png"))
