"""Dashboard assets: one static HTML page per user of the data, written
beside the warehouse (``<warehouse folder>/dashboards``, or the setting
``dashboards_dir``) with plotly.min.js once in that folder. Each page opens
from the file system with no server and no internet.

The assets read the warehouse; the pages are built by the pure functions of
the top-level ``dashboards`` package. A table that another area has not
created yet (checked in information_schema) or that is empty gives a page
with a "no data yet" note, never a failure.
"""


import datetime as dt
import os
import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import duckdb as duckdb_module
import pandas as pd
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, letters_dir, output_dir
from outfall.resources import OutfallSettings
from outfall.rules import RulesError, load_rules
from outfall.warehouse import LOCAL_TZ, configure

from dashboards import query
from dashboards.billing import BillingData, build_billing_page
from dashboards.html import PageMeta
from dashboards.index import IndexData, PageCard, build_index_page, build_quarantine_page
from dashboards.output import ensure_plotly_js, write_atomic
from dashboards.sewer import (
    SewerData, build_sewer_page, choose_bucket_hours, compress_steps, default_limits, label_results,
)
from dashboards.stormwater import StormRule, StormwaterData, build_stormwater_page

MAX_FLOW_POINTS = 1500  # per meter series: means of the finest bucket that keeps to this many
SLUG_CONTEXT_HOURS = 1  # every reading from an hour before each slug to an hour after it ...
MAX_SLUG_READINGS = 20_000  # ... unless a series has more than this: then the readings inside the slugs only
QUARANTINE_PAGE_ROWS = 5000


# --------------------------------------------------------------------------- helpers


def dashboards_dir(duckdb: DuckDBResource, settings: OutfallSettings) -> Path:
    """settings.dashboards_dir, else <folder of the warehouse file>/dashboards
    (an in-memory warehouse: ./dashboards)."""
    return output_dir(duckdb, settings) or (Path.cwd() / "dashboards").resolve()


def existing_tables(con: duckdb_module.DuckDBPyConnection) -> set[str]:
    rows = con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    return {r[0] for r in rows}


class Reader:
    """Reads tables that may not exist yet; remembers which did (for the pages' notes)."""

    def __init__(self, con: duckdb_module.DuckDBPyConnection):
        self.con = con
        self.tables = existing_tables(con)
        self.present: dict[str, bool] = {}

    def has(self, table: str) -> bool:
        self.present[table] = table in self.tables
        return self.present[table]

    def table(self, table: str, sql_text: str | None = None, params: Any = None) -> pd.DataFrame | None:
        """The rows of ``table`` (or of ``sql_text`` over it); None when the table does not exist."""
        if not self.has(table):
            return None
        text = sql_text or f'SELECT * FROM "{table}"'
        return self.con.execute(text, params or []).df()

    def named(self, table: str, name: str, params: Any = None) -> pd.DataFrame | None:
        return self.table(table, query(name), params)


def _now_local() -> dt.datetime:
    return dt.datetime.now(ZoneInfo(LOCAL_TZ)).replace(microsecond=0)


def _write_page(folder: Path, name: str, html_text: str) -> Path:
    return write_atomic(folder / name, html_text)


def _page_result(context: AssetExecutionContext, path: Path, meta: PageMeta, seconds: float,
                 **extra: Any) -> MaterializeResult:
    size = path.stat().st_size
    context.log.info(f"wrote {path} ({size / 1024:.0f} KB, {meta.charts} charts) in {seconds:.2f} s")
    md: dict[str, Any] = {
        "page": MetadataValue.path(str(path)),
        "open_in_browser": MetadataValue.url(path.as_uri()),
        "page_kb": round(size / 1024, 1),
        "charts": meta.charts,
        "build_seconds": round(seconds, 2),
    }
    if meta.counts:
        md["counts"] = MetadataValue.json({k: int(v) for k, v in meta.counts.items()})
    if meta.empty_sections:
        md["no_data_yet"] = MetadataValue.json(sorted(set(meta.empty_sections)))
    md.update(extra)
    return MaterializeResult(metadata=md)


def _rules(settings: OutfallSettings, jurisdiction: str):
    try:
        return load_rules(jurisdiction, settings.rules_path())
    except (RulesError, FileNotFoundError, OSError):
        return None


# --------------------------------------------------------------------------- sewer


def read_sewer_data(con: duckdb_module.DuckDBPyConnection, settings: OutfallSettings) -> SewerData:
    r = Reader(con)
    rules = _rules(settings, "woodbury")
    notices = rules.section("notices") if rules is not None and rules.has("notices") else {}
    slug_rules = rules.section("slug") if rules is not None and rules.has("slug") else {}
    data = SewerData(as_of=settings.as_of_date(), generated_at=_now_local(),
                     permit_warn_days=int(notices.get("permit_expiry_warning_days", 90)),
                     permit_warn_rule=str(notices.get("citation_permit_expiry", "")),
                     slug_ratio=float(slug_rules.get("ratio", 5)),
                     slug_min_minutes=float(slug_rules.get("min_duration_min", 15)),
                     slug_rule=str(slug_rules.get("citation", "")))
    data.users = r.table("industrial_users")
    lab = r.named("lab_results", "select_dashboard_lab_results")
    evaluations = r.named("discharge_evaluations", "select_dashboard_evaluations")
    data.violations = r.table("discharge_violations")
    data.statistic_violations = r.table("statistic_violations")
    data.inconclusive = r.table("inconclusive_results")
    data.summary = r.table("compliance_summary")
    data.slugs = r.table("slug_events")
    data.gaps = r.table("slug_baseline_gaps")
    data.snc = r.table("snc_determinations")
    if lab is not None:
        data.results = label_results(lab, evaluations, data.violations, data.inconclusive)
        if evaluations is not None and not evaluations.empty:
            data.limits = evaluations
        else:
            limits = [{"parameter": lim.parameter, "limit_type": lim.limit_type, "value": lim.value,
                       "unit": lim.unit, "citation": lim.citation, "effective_from": lim.effective_from,
                       "effective_to": lim.effective_to} for lim in (rules.discharge_limits if rules else ())]
            data.limits = default_limits(lab, limits)
    baselines = r.named("slug_daily_stats", "select_dashboard_slug_baselines")
    if baselines is not None:
        data.baselines = compress_steps(baselines, ["user_id", "constituent"], "local_day",
                                        ["baseline", "threshold"])
    data.flow = read_flow(con, r)
    data.present = r.present
    return data


def read_flow(con: duckdb_module.DuckDBPyConnection, r: Reader) -> pd.DataFrame | None:
    """Each meter series as means of the finest bucket (1, 2, 3, 4, 6 ... hours) that keeps it
    under MAX_FLOW_POINTS points, plus every reading near a slug event (the page stays light)."""
    spans = r.named("flow", "select_dashboard_flow_spans")
    if spans is None:
        return None
    frames = []
    with_slugs = r.has("slug_events")
    for _, s in spans.iterrows():
        span_h = (pd.Timestamp(s["last_ts"]) - pd.Timestamp(s["first_ts"])).total_seconds() / 3600.0
        hours = choose_bucket_hours(span_h, MAX_FLOW_POINTS)
        series = {"tz": LOCAL_TZ, "user_id": s["user_id"], "constituent": s["constituent"]}
        means = con.execute(query("select_dashboard_flow_means"), {**series, "hours": hours}).df()
        means["kind"] = "mean"
        parts = [means]
        if with_slugs:
            raw = con.execute(query("select_dashboard_slug_readings"),
                              {**series, "pad_hours": SLUG_CONTEXT_HOURS}).df()
            if len(raw) > MAX_SLUG_READINGS:
                raw = con.execute(query("select_dashboard_slug_readings"), {**series, "pad_hours": 0}).df()
            raw["kind"] = "slug"
            parts.append(raw)
        part = pd.concat(parts, ignore_index=True)
        part["user_id"] = s["user_id"]
        part["constituent"] = s["constituent"]
        part["unit"] = s["unit"]
        part["bucket_hours"] = hours
        frames.append(part)
    if not frames:
        return pd.DataFrame(columns=["user_id", "constituent", "ts", "value", "unit", "kind", "bucket_hours"])
    return pd.concat(frames, ignore_index=True)


@asset(
    group_name=GROUP_DASHBOARDS,
    kinds={"html", "plotly"},
    deps=["industrial_users", "lab_results", "flow", "discharge_violations", "statistic_violations",
          "slug_events", "compliance_summary", "snc_determinations"],
    description="The sewer administrator's page (sewer.html): per industrial user, control charts of every "
                "limited parameter with the limit and its section (Woodbury ch. 253 Part 2), violations and "
                "non-detects marked; the flow trace with slug events and baseline; violations by user and "
                "month; the compliance summary with permits expiring soon.",
)
def sewer_dashboard(context: AssetExecutionContext, duckdb: DuckDBResource,
                    settings: OutfallSettings) -> MaterializeResult:
    started = time.perf_counter()
    folder = dashboards_dir(duckdb, settings)
    with duckdb.get_connection() as con:
        configure(con)
        data = read_sewer_data(con, settings)
    html_text, meta = build_sewer_page(data)
    ensure_plotly_js(folder)
    path = _write_page(folder, "sewer.html", html_text)
    return _page_result(context, path, meta, time.perf_counter() - started)


# --------------------------------------------------------------------------- stormwater


def letters_folder(duckdb: DuckDBResource, settings: OutfallSettings) -> Path | None:
    """Where the stormwater notices' letters are written: the one rule of assets/common.py."""
    return letters_dir(duckdb, settings, "stormwater")


def read_stormwater_data(con: duckdb_module.DuckDBPyConnection, settings: OutfallSettings,
                         folder: Path, letters: Path | None) -> StormwaterData:
    r = Reader(con)
    data = StormwaterData(as_of=settings.as_of_date(), generated_at=_now_local())
    data.sites = r.table("sites")
    data.classification = r.table("site_classification")
    data.findings = r.table("swppp_inspection_findings")
    data.other = r.table("swppp_other_findings")
    data.notices = r.table("swppp_notices", "SELECT notice_id, site_id, finding, status, trigger_date, letter_file "
                                            "FROM swppp_notices")
    data.upcoming = r.table("swppp_upcoming")
    data.inspections = r.named("inspections", "select_dashboard_inspections")
    data.rain = r.named("rainfall", "select_dashboard_rainfall")
    for jurisdiction in ("woodbury", "bellport"):
        rules = _rules(settings, jurisdiction)
        if rules is None or not rules.has("swppp"):
            continue
        sw = rules.section("swppp")
        if "storm_threshold_in" in sw:
            data.rules[jurisdiction] = StormRule(threshold_in=float(sw["storm_threshold_in"]),
                                                 citation_storm=str(sw.get("citation_storm", "")),
                                                 citation_weekly=str(sw.get("citation_weekly", "")))
    if letters is not None and letters.is_dir() and data.notices is not None and not data.notices.empty:
        for name in data.notices["letter_file"].dropna().unique():
            if (letters / str(name)).is_file():
                data.letters[str(name)] = Path(os.path.relpath(letters / str(name), folder)).as_posix()
    data.present = r.present
    return data


@asset(
    group_name=GROUP_DASHBOARDS,
    kinds={"html", "plotly"},
    deps=["sites", "inspections", "rainfall", "site_classification", "swppp_inspection_findings",
          "swppp_other_findings", "swppp_notices", "swppp_upcoming"],
    description="The stormwater officer's page (stormwater.html): the week's upcoming inspections, sites by "
                "status, and per site a timeline of inspections against daily rainfall with the storm threshold "
                "(0.5 in, Woodbury ch. 267 / Bellport ch. 21) and the late and overdue findings.",
)
def stormwater_dashboard(context: AssetExecutionContext, duckdb: DuckDBResource,
                         settings: OutfallSettings) -> MaterializeResult:
    started = time.perf_counter()
    folder = dashboards_dir(duckdb, settings)
    with duckdb.get_connection() as con:
        configure(con)
        data = read_stormwater_data(con, settings, folder, letters_folder(duckdb, settings))
    html_text, meta = build_stormwater_page(data)
    ensure_plotly_js(folder)
    path = _write_page(folder, "stormwater.html", html_text)
    return _page_result(context, path, meta, time.perf_counter() - started)


# --------------------------------------------------------------------------- billing

TOP_BILLS = 15


def read_billing_data(con: duckdb_module.DuckDBPyConnection, settings: OutfallSettings) -> BillingData:
    r = Reader(con)
    data = BillingData(as_of=settings.as_of_date(), generated_at=_now_local())
    rules = _rules(settings, "woodbury")
    if rules is not None and rules.has("sewer_units"):
        data.rule = str(rules.section("sewer_units").get("citation", ""))
    years_frame = r.named("sewer_bills", "select_dashboard_bill_years")
    years = [int(y) for y in years_frame["year"]] if years_frame is not None else []
    if not years:
        data.totals = None if years_frame is None else pd.DataFrame()
        data.present = r.present
        return data
    year = settings.year if settings.year and settings.year in years else max(years)
    earlier = [y for y in years if y < year]
    prev = max(earlier) if earlier else None
    data.year, data.previous_year = year, prev
    params = {"year": year, "previous_year": prev}
    data.totals = r.named("sewer_bills", "select_dashboard_bill_totals", params)
    data.largest = r.named("sewer_bills", "select_dashboard_largest_bills", {"year": year, "limit": TOP_BILLS})
    if prev is not None:
        changes = r.named("bill_changes", "select_dashboard_bill_changes", {"year": year, "limit": TOP_BILLS})
        if changes is not None and not changes.empty:
            data.changes = changes
            data.change_counts = r.named("bill_changes", "select_dashboard_bill_change_counts", {"year": year})
        else:
            data.changes = con.execute(query("compare_dashboard_bill_years"),
                                       {**params, "limit": TOP_BILLS}).df()
    ids = sorted(set(_ids(data.largest)) | set(_ids(data.changes)))
    names = r.named("parcels", "select_dashboard_parcel_names", {"parcel_ids": ids}) if ids else None
    if names is not None and not names.empty:
        data.largest = data.largest.merge(names, on="parcel_id", how="left")
        if data.changes is not None and not data.changes.empty:
            data.changes = data.changes.merge(names, on="parcel_id", how="left")
    data.rates = r.named("billing_run_totals", "select_dashboard_billing_rates", params)
    data.runs = r.named("billing_runs", "select_dashboard_billing_runs", params)
    data.present = r.present
    return data


def _ids(frame: pd.DataFrame | None) -> list[str]:
    return [] if frame is None or frame.empty else [str(p) for p in frame["parcel_id"].dropna()]


@asset(
    group_name=GROUP_DASHBOARDS,
    kinds={"html", "plotly"},
    deps=["sewer_bills", "billing_runs", "billing_run_totals", "bill_changes", "billing_summary", "parcels"],
    description="The clerk's billing page (billing.html): units and revenue by district, component and property "
                "class (Woodbury ch. 253 Part 3), the change from the previous billed year, the largest bills and "
                "the biggest changes.",
)
def billing_dashboard(context: AssetExecutionContext, duckdb: DuckDBResource,
                      settings: OutfallSettings) -> MaterializeResult:
    started = time.perf_counter()
    folder = dashboards_dir(duckdb, settings)
    with duckdb.get_connection() as con:
        configure(con)
        data = read_billing_data(con, settings)
    html_text, meta = build_billing_page(data)
    ensure_plotly_js(folder)
    path = _write_page(folder, "billing.html", html_text)
    return _page_result(context, path, meta, time.perf_counter() - started)


# --------------------------------------------------------------------------- index and quarantine

# dataset -> (column holding its dates, label, observed): identifiers from this constant only.
# The data's date range (index page) spans the observed datasets: samples, readings, rain, inspections, tests.
DATE_COLUMNS = {
    "lab_results": ("collected_date", "samples collected", True),
    "flow": ("ts", "meter readings", True),
    "rainfall": ("date", "rain days", True),
    "inspections": ("inspected_on", "inspections", True),
    "infiltration_tests": ("test_date", "infiltration tests", True),
    "sites": ("construction_start", "construction starts", False),
    "industrial_users": ("permit_effective", "permits effective", False),
    "sewer_rates": ("make_date(year, 1, 1)", "rate years", False),
}


def _ranges(con: duckdb_module.DuckDBPyConnection, r: Reader) -> pd.DataFrame:
    rows = []
    for dataset, (column, label, observed) in DATE_COLUMNS.items():
        if not r.has(dataset):
            continue
        expr = column if "(" in column else f'"{column}"'
        first, last, n = con.execute(
            f'SELECT min({expr})::DATE, max({expr})::DATE, count(*) FROM "{dataset}"').fetchall()[0]
        if n:
            rows.append({"dataset": dataset, "what": label, "first": first, "last": last, "observed": observed})
    return pd.DataFrame(rows, columns=["dataset", "what", "first", "last", "observed"])


def _scalar(con: duckdb_module.DuckDBPyConnection, r: Reader, table: str, sql_text: str, params: Any = None):
    if not r.has(table):
        return None
    return con.execute(sql_text, params or []).fetchall()[0][0]


def _cards(con: duckdb_module.DuckDBPyConnection, r: Reader, folder: Path, settings: OutfallSettings) -> list[PageCard]:
    as_of = settings.as_of_date()

    def n(value: Any) -> str:
        return "–" if value is None else f"{int(value):,}"

    viol = _scalar(con, r, "discharge_violations", "SELECT count(*) FROM discharge_violations")
    users = _scalar(con, r, "discharge_violations", "SELECT count(DISTINCT user_id) FROM discharge_violations")
    slugs = _scalar(con, r, "slug_events", "SELECT count(*) FROM slug_events")
    expiring = _scalar(con, r, "compliance_summary",
                       "SELECT count(DISTINCT user_id) FROM compliance_summary WHERE permit_expiry_flag")
    overdue = _scalar(con, r, "swppp_inspection_findings",
                      "SELECT count(*) FROM swppp_inspection_findings WHERE status = 'overdue'")
    late = _scalar(con, r, "swppp_inspection_findings",
                   "SELECT count(*) FROM swppp_inspection_findings WHERE status = 'late'")
    week = _scalar(con, r, "swppp_upcoming", "SELECT count(*) FROM swppp_upcoming WHERE due_by <= ?",
                   [as_of + dt.timedelta(days=7)])
    year = _scalar(con, r, "sewer_bills", "SELECT max(year) FROM sewer_bills")
    if settings.year and r.has("sewer_bills"):
        year = settings.year
    billed = (_scalar(con, r, "sewer_bills", "SELECT sum(total_usd)::DOUBLE FROM sewer_bills WHERE year = ?", [year])
              if year is not None else None)
    parcels = (_scalar(con, r, "sewer_bills", "SELECT count(*) FROM sewer_bills WHERE year = ?", [year])
               if year is not None else None)

    def tone(value: Any, bad: str = "bad") -> str:
        return "" if value is None else (bad if value else "good")

    return [
        PageCard("sewer.html", "Industrial users", "Superintendent of Sewage",
                 "Control charts of every limited parameter, flow with slugs, violations by month, permits.",
                 (folder / "sewer.html").exists(),
                 [(n(viol), f"violations ({n(users)} users)", tone(viol)), (n(slugs), "slug events", tone(slugs)),
                  (n(expiring), "permits expiring or expired", tone(expiring, "warn"))]),
        PageCard("stormwater.html", "Construction sites", "Stormwater management officer",
                 "Inspections against rainfall per site, late and overdue findings, this week's inspections.",
                 (folder / "stormwater.html").exists(),
                 [(n(overdue), "overdue inspections", tone(overdue)), (n(late), "late inspections", tone(late, "warn")),
                  (n(week), "due this week", tone(week, "warn"))]),
        PageCard("billing.html", f"Sewer roll {year}" if year else "Sewer roll", "Clerk",
                 "Units and revenue by district, component and class; changes from last year; largest bills.",
                 (folder / "billing.html").exists(),
                 [("–" if billed is None else f"${billed:,.0f}", "billed", ""), (n(parcels), "parcels", "")]),
    ]


def read_index_data(con: duckdb_module.DuckDBPyConnection, settings: OutfallSettings, folder: Path) -> IndexData:
    r = Reader(con)
    data = IndexData(as_of=settings.as_of_date(), generated_at=_now_local(), quarantine_limit=QUARANTINE_PAGE_ROWS)
    data.ingested = r.named("ingested_files", "select_dashboard_ingested")
    data.ranges = _ranges(con, r)
    data.quarantine_counts = r.named("quarantine", "select_dashboard_quarantine_counts")
    data.quarantine = r.named("quarantine", "select_dashboard_quarantine", {"limit": QUARANTINE_PAGE_ROWS})
    data.quarantine_total = int(_scalar(con, r, "quarantine", "SELECT count(*) FROM quarantine") or 0)
    data.cards = _cards(con, r, folder, settings)
    data.present = r.present
    return data


@asset(
    group_name=GROUP_DASHBOARDS,
    kinds={"html"},
    deps=["sewer_dashboard", "stormwater_dashboard", "billing_dashboard", "quarantine", "industrial_users",
          "lab_results", "flow", "rainfall", "inspections", "sites", "infiltration_tests", "sewer_rates", "parcels",
          "permit_limits"],
    description="The dashboards' index (index.html): links to every page with headline numbers, the as-of date, "
                "the data's date range and the rows quarantined per dataset, linking to the quarantine list page "
                "(quarantine.html) so that bad data is seen, not hidden.",
)
def dashboard_index(context: AssetExecutionContext, duckdb: DuckDBResource,
                    settings: OutfallSettings) -> MaterializeResult:
    started = time.perf_counter()
    folder = dashboards_dir(duckdb, settings)
    with duckdb.get_connection() as con:
        configure(con)
        data = read_index_data(con, settings, folder)
    quarantine_html, _ = build_quarantine_page(data)
    _write_page(folder, "quarantine.html", quarantine_html)
    html_text, meta = build_index_page(data)
    path = _write_page(folder, "index.html", html_text)
    return _page_result(context, path, meta, time.perf_counter() - started,
                        quarantine_page=MetadataValue.path(str(folder / "quarantine.html")),
                        rows_quarantined=int(data.quarantine_total))
