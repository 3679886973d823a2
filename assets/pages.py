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
import time
from pathlib import Path
from typing import Any, Callable
from zoneinfo import ZoneInfo

import duckdb as duckdb_module
import pandas as pd
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, outputs
from outfall.resources import OutfallSettings
from outfall.rules import RulesError, load_rules
from outfall.warehouse import LOCAL_TZ, configure, sql

from dashboards import query
from dashboards.html import PageMeta
from dashboards.index import IndexData, PageCard, build_index_page, build_quarantine_page
from dashboards.output import ensure_plotly_js, write_atomic

# The quarantine page lists the first rows of each dataset and reason (one fix per reason); it says
# how many share the reason, and that every row is in the export (csv/quarantine.csv).
QUARANTINE_ROWS_PER_REASON = 50


# --------------------------------------------------------------------------- helpers


def dashboards_dir(duckdb: DuckDBResource, settings: OutfallSettings) -> Path:
    """settings.dashboards_dir, else <folder of the warehouse file>/dashboards
    (an in-memory warehouse with no dashboards_dir: ./dashboards)."""
    return outputs(duckdb, settings).dashboards or (Path.cwd() / "dashboards").resolve()


def existing_tables(con: duckdb_module.DuckDBPyConnection) -> set[str]:
    rows = con.execute(sql("select_table_names")).fetchall()
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
        """The rows of ``table`` (or of ``sql_text`` over it); None when the table does not exist.
        Statements come from sql/ (``named``); only the whole-table read is built here, its one
        variable part the quoted table name (an identifier, not a value)."""
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


def write_page(context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, name: str,
               read: Callable[[duckdb_module.DuckDBPyConnection, Path], Any],
               build: Callable[[Any], tuple[str, PageMeta]], **extra: Any) -> MaterializeResult:
    """Read a page's data (``read(con, folder)``), build it, write ``<dashboards>/<name>`` with
    plotly.min.js beside it, and report. Every page asset is this call."""
    started = time.perf_counter()
    folder = dashboards_dir(duckdb, settings)
    with duckdb.get_connection() as con:
        configure(con)
        data = read(con, folder)
    html_text, meta = build(data)
    ensure_plotly_js(folder)
    path = _write_page(folder, name, html_text)
    return _page_result(context, path, meta, time.perf_counter() - started, **extra)


def _rules(settings: OutfallSettings, jurisdiction: str):
    try:
        return load_rules(jurisdiction, settings.rules_path())
    except (RulesError, FileNotFoundError, OSError):
        return None


def town_name(settings: OutfallSettings, *jurisdictions: str) -> str:
    """Whom a page is about, from the rules files' names: "Town of Woodbury and Village of Bellport"."""
    names = []
    for jurisdiction in jurisdictions:
        rules = _rules(settings, jurisdiction)
        names.append(rules.name if rules is not None and rules.name else jurisdiction.title())
    return " and ".join(names)


# --------------------------------------------------------------------------- index and quarantine

# dataset -> (column holding its dates, label, observed): identifiers from this constant only.
# The data's date range (index page) spans the observed datasets: samples, readings, rain, inspections, tests.
# _ranges builds its statement in code, the one page statement not in sql/: what varies is the table and
# column (identifiers, which a bind parameter cannot carry), never a value.
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


def _counts(r: Reader, table: str, name: str, params: Any = None) -> tuple | None:
    """The one row of the count statement ``name`` (sql/<area>/count_dashboard_*.sql) over ``table``;
    None when the table does not exist yet (its card then shows "–")."""
    if not r.has(table):
        return None
    return r.con.execute(sql(name), params or {}).fetchall()[0]


def _cards(r: Reader, folder: Path, settings: OutfallSettings) -> list[PageCard]:
    as_of = settings.as_of_date()

    def n(value: Any) -> str:
        return "–" if value is None else f"{int(value):,}"

    viol, users = _counts(r, "discharge_violations", "count_dashboard_violations") or (None, None)
    (slugs,) = _counts(r, "slug_events", "count_dashboard_slug_events") or (None,)
    (expiring,) = _counts(r, "compliance_summary", "count_dashboard_expiring_permits") or (None,)
    overdue, late = _counts(r, "swppp_inspection_findings", "count_dashboard_missed_inspections") or (None, None)
    (week,) = _counts(r, "swppp_upcoming", "count_dashboard_inspections_due",
                      {"due_by": as_of + dt.timedelta(days=7)}) or (None,)
    years = r.named("sewer_bills", "select_dashboard_bill_years")
    year = int(years["year"].max()) if years is not None and not years.empty else None
    if settings.year and r.has("sewer_bills"):
        year = settings.year
    bills = _counts(r, "sewer_bills", "count_dashboard_bills_of_year", {"year": year}) if year is not None else None
    billed, parcels = bills or (None, None)

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
    data = IndexData(as_of=settings.as_of_date(), generated_at=_now_local(),
                     quarantine_per_reason=QUARANTINE_ROWS_PER_REASON,
                     town=town_name(settings, "woodbury", "bellport"))
    data.ingested = r.named("ingested_files", "select_dashboard_ingested")
    data.ranges = _ranges(con, r)
    data.quarantine_counts = r.named("quarantine", "select_dashboard_quarantine_counts")
    data.quarantine = r.named("quarantine", "select_dashboard_quarantine", {"per_reason": QUARANTINE_ROWS_PER_REASON})
    counts = data.quarantine_counts   # rows per dataset and reason: their sum is every row quarantined
    data.quarantine_total = int(counts["rows"].sum()) if counts is not None else 0
    data.set_aside = r.named("set_aside", "select_dashboard_set_aside")
    data.cards = _cards(r, folder, settings)
    data.reports = _reports(con, r, folder)
    data.present = r.present
    return data


def _reports(con: duckdb_module.DuckDBPyConnection, r: Reader, folder: Path) -> list[tuple[str, str]]:
    """(file, label) of each year's annual pretreatment report written in the folder."""
    from dashboards.annual_report import report_file

    if not r.has("pretreatment_annual_report"):
        return []
    years = [int(y) for (y,) in con.execute(sql("select_annual_report_years")).fetchall()]
    return [(report_file(y), f"Annual pretreatment report {y}") for y in years if (folder / report_file(y)).exists()]


@asset(
    group_name=GROUP_DASHBOARDS,
    kinds={"html"},
    deps=["sewer_dashboard", "stormwater_dashboard", "billing_dashboard", "quarantine", "industrial_users",
          "lab_results", "flow", "rainfall", "inspections", "sites", "infiltration_tests", "sewer_rates", "parcels",
          "permit_limits", "pretreatment_report_pages", "illicit_discharge_deadlines", "smp_findings"],
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
