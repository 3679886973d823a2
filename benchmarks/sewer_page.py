"""Benchmark of the sewer page of a region: its size and the time it takes to open in a browser.

    .venv/bin/python -m benchmarks.sewer_page [--meters 2000 --days 365 --step 15 --every 20]
                                              [--code DIR] [--dir DIR]

Generates with DuckDB a region's input folders: ``meters`` industrial users, each permitted (2020 to
2030) with its normal daily flow, and ``days`` of flow readings from 2025-01-01, one every ``step``
minutes (a daily cycle and noise around the user's normal flow); one user in ``every`` has a spike of
eight times its flow for 45 minutes on one day in thirty, a slug. No lab results, reports or sites: the
other pages stay small. Then ``outfall run`` on it (as of the last day; ``--code DIR``: the code of
another checkout, e.g. a tree of an earlier commit, run with the same interpreter), and the sewer page
it wrote is opened in headless Chromium at 1366x900 as the browser tests open pages: its size, its
charts, the time from navigation to the load event, and to the first chart drawn when scrolled to.

Figures, not pass/fail; they go to docs/benchmarks.md. The target (issue 37): the page opens in under
5 s at 2,000 meters.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import outfall_env, run_command
from benchmarks.ingest import _child
from benchmarks.slugs import START_EPOCH

DEFAULT_DIR = Path(tempfile.gettempdir()) / "outfall_bench_sewer_page"

_READINGS = """
COPY (
    WITH g AS (
        SELECT i % $meters + 1 AS m, i // $meters AS k
        FROM range(0, $meters::BIGINT * $steps) t(i)
    )
    SELECT printf('IU-%04d', m) AS user_id, to_timestamp($start_epoch + k * $step * 60) AS timestamp,
           (20 + (m * 37) % 180) * (1 + 0.3 * sin(2 * pi() * ((k * $step) % 1440) / 1440.0))
               * (0.9 + (hash(m * 1000003 + k) % 1000) / 5000.0)
               * CASE WHEN m % $every = 0 AND hash(m * 100003 + (k * $step) // 1440) % 30 = 0
                       AND (k * $step) % 1440 >= 600 AND (k * $step) % 1440 < 645
                      THEN 8 ELSE 1 END AS value,
           'gpm' AS unit
    FROM g
) TO '{path}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)
"""


def generate(root: Path, meters: int, days: int, step: int, every: int) -> Path:
    """The region's input folders under ``root/data`` (kept: generated once per size)."""
    import duckdb

    data = root / f"data_{meters}m_{days}d_{step}min_{every}"
    if (data / "flow" / "flow.parquet").exists():
        return data
    (data / "industrial_users").mkdir(parents=True, exist_ok=True)
    (data / "flow").mkdir(exist_ok=True)
    users = ["user_id,name,district,address,permit_no,permit_effective,permit_expires,normal_avg_flow_gpd"]
    users += [
        f"IU-{m:04d},Meter {m},consolidated,{m} Main St,P-{m:04d},2020-01-01,2030-12-31,"
        f"{(20 + (m * 37) % 180) * 1440}"
        for m in range(1, meters + 1)
    ]
    (data / "industrial_users" / "users.csv").write_text("\n".join(users) + "\n", encoding="utf-8")
    tmp = data / "flow" / "flow.parquet.tmp"
    con = duckdb.connect()
    con.execute(
        _READINGS.replace("{path}", str(tmp).replace("'", "''")),
        {
            "meters": meters,
            "steps": days * 1440 // step,
            "step": step,
            "every": every,
            "start_epoch": START_EPOCH,
        },
    ).fetchall()
    con.close()
    tmp.rename(data / "flow" / "flow.parquet")
    return data


def run(data: Path, warehouse: Path, as_of: str, code: Path | None) -> dict:
    """``outfall run`` in its own process (``code``: another checkout's packages first on the path)."""
    for suffix in ("", ".wal", ".lock"):
        Path(str(warehouse) + suffix).unlink(missing_ok=True)
    shutil.rmtree(warehouse.parent / "dashboards", ignore_errors=True)
    env = outfall_env()
    cmd = run_command(data, warehouse, as_of, "--quiet")
    if code is None:
        return _child(cmd, env)
    env["PYTHONPATH"] = str(code)  # `python -m` puts its folder first: that checkout's packages are imported
    return _child(cmd, env, cwd=code)


def open_page(page: Path) -> dict:
    """The page in headless Chromium at 1366x900, as tests/test_browser.py opens pages."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from tests.test_browser import CHROMEDRIVER, CHROMIUM, FLAGS

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="outfall-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(600)
    driver.set_script_timeout(600)
    try:
        started = time.perf_counter()
        driver.get(page.as_uri())
        while driver.execute_script("return document.readyState") != "complete":
            time.sleep(0.05)
        wall = (time.perf_counter() - started) * 1000
        load = driver.execute_script(
            "var n=performance.getEntriesByType('navigation')[0]; return n ? n.loadEventEnd : null;"
        )
        charts = int(driver.execute_script("return +(document.documentElement.dataset.chartsTotal || 0)"))
        first = None
        if charts:
            first = driver.execute_async_script(
                "var done=arguments[arguments.length-1]; var d=document.querySelector('.chart[data-fig]');"
                "var t=performance.now(); d.scrollIntoView();"
                "(function wait(){ if(d.getAttribute('data-rendered')==='1'){done(performance.now()-t);}"
                " else if(performance.now()-t>120000){done(-1);} else {requestAnimationFrame(wait);} })();"
            )
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    return {
        "page_mb": page.stat().st_size / 1e6,
        "charts": charts,
        "load_event_ms": load,
        "open_wall_ms": wall,
        "first_chart_ms": first,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.sewer_page", description=__doc__.split("\n")[0])
    ap.add_argument("--meters", type=int, default=2000)
    ap.add_argument("--days", type=int, default=365)
    ap.add_argument("--step", type=int, default=15, help="minutes between readings")
    ap.add_argument("--every", type=int, default=20, help="one user in this many has slugs")
    ap.add_argument("--code", type=Path, help="run another checkout's code (its folder)")
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    data = generate(args.dir, args.meters, args.days, args.step, args.every)
    generated = time.perf_counter() - t
    out = args.dir / ("run_" + (args.code.name if args.code else "this"))
    out.mkdir(parents=True, exist_ok=True)
    last = time.strftime("%Y-%m-%d", time.gmtime(START_EPOCH + (args.days - 1) * 86400 + 43200))
    ran = run(data, out / "region.duckdb", last, args.code)
    page = open_page(out / "dashboards" / "sewer.html")
    result = {"meters": args.meters, "days": args.days, "generate_s": generated, "run": ran, "page": page}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"{args.meters} meters x {args.days} days, a reading every {args.step} min, 1 in {args.every} "
            f"with slugs: outfall run {ran['seconds']:.1f} s (peak RSS {ran['peak_rss_mb']:.0f} MB); "
            f"sewer.html {page['page_mb']:.1f} MB, {page['charts']} charts, load event "
            f"{page['load_event_ms']:.0f} ms (wall {page['open_wall_ms']:.0f} ms), first chart "
            f"{page['first_chart_ms'] if page['first_chart_ms'] is not None else '-'} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
