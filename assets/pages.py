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
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import duckdb as duckdb_module
import pandas as pd
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, WAREHOUSE_POOL, outputs, read_as_of
from dashboards import query
from dashboards.html import PageMeta, day_words, months_words, noun, role_name
from dashboards.index import IndexData, PageCard, build_index_page, build_quarantine_page
from dashboards.output import ensure_plotly_js, write_atomic
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import local_timezone
from outfall.rules.judged import Judged
from outfall.warehouse import configure, sql

# The quarantine page lists the first rows of each dataset and reason (one fix per reason); it says
# how many share the reason, and that every row is in the export (csv/quarantine.csv).
QUARANTINE_ROWS_PER_REASON = 50
# Of each thing not judged for want of a rule (asset, section and reason), the page names the first few.
NOT_JUDGED_EXAMPLES = 5
# The pages a run writes even when a step they read failed: ``outfall run`` writes them again in one more
# run from what the warehouse holds, with the steps that failed and why in this run tag (a JSON list of
# [step, why]), which the index shows first. Never a letter or a record of one: only pages and the list
# they open with.
PAGES_AFTER_FAILURE = (
    "worklist",
    "sewer_dashboard",
    "stormwater_dashboard",
    "billing_dashboard",
    "dashboard_index",
)
FAILED_STEPS_TAG = "outfall/failed_steps"


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
    return dt.datetime.now(ZoneInfo(local_timezone())).replace(microsecond=0)


def _write_page(folder: Path, name: str, html_text: str) -> Path:
    return write_atomic(folder / name, html_text)


def _page_result(
    context: AssetExecutionContext, path: Path, meta: PageMeta, seconds: float, **extra: Any
) -> MaterializeResult:
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


def write_page(
    context: AssetExecutionContext,
    duckdb: DuckDBResource,
    settings: OutfallSettings,
    rules: RulesResource,
    name: str,
    read: Callable[[duckdb_module.DuckDBPyConnection, Path], Any],
    build: Callable[[Any], tuple[str, PageMeta]],
    **extra: Any,
) -> MaterializeResult:
    """Read a page's data (``read(con, folder)``), build it, write ``<dashboards>/<name>`` with
    plotly.min.js beside it, and report. Every page asset is this call."""
    started = time.perf_counter()
    folder = dashboards_dir(duckdb, settings)
    with duckdb.get_connection() as con:
        configure(con, timezone=rules.timezone())
        read_as_of(con, settings.as_of_date(), rules.timezone())  # the inputs as of the run's day
        data = read(con, folder)
    html_text, meta = build(data)
    ensure_plotly_js(folder)
    path = _write_page(folder, name, html_text)
    return _page_result(context, path, meta, time.perf_counter() - started, **extra)


def page_laws(rules: RulesResource, day: dt.date) -> dict[str, str]:
    """The laws a page cites, by the rules' ``law_names`` as of ``day``, short: the town's, and for the
    stormwater law every jurisdiction's that has one, the town's first ("A Code ch. 1 and B Code ch. 2")."""
    laws = {name: law.short for name, law in rules.town_rules().laws(day).items()}
    town = rules.jurisdiction()
    stormwater = [
        r.law("stormwater", day).short
        for j, r in sorted(rules.all_rules().items(), key=lambda jr: jr[0] != town)
        if r.law_names is not None and r.law_names.stormwater
    ]
    if stormwater:
        laws["stormwater"] = " and ".join(stormwater)
    return laws


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
            f'SELECT min({expr})::DATE, max({expr})::DATE, count(*) FROM "{dataset}"'
        ).fetchall()[0]
        if n:
            rows.append(
                {"dataset": dataset, "what": label, "first": first, "last": last, "observed": observed}
            )
    return pd.DataFrame(rows, columns=["dataset", "what", "first", "last", "observed"])


def _counts(r: Reader, table: str, name: str, params: Any = None) -> tuple | None:
    """The one row of the count statement ``name`` (sql/<area>/count_dashboard_*.sql) over ``table``;
    None when the table does not exist yet (its card then shows "–")."""
    if not r.has(table):
        return None
    return r.con.execute(sql(name), params or {}).fetchall()[0]


def _sewer_numbers(r: Reader, settings: OutfallSettings, rules: RulesResource) -> list[tuple[str, str, str]]:
    """The sewer card's numbers, each with the period it covers, as the sewer page counts them."""
    as_of = settings.as_of_date()
    year = {"year": as_of.year}
    samples = _counts(r, "discharge_violations", "count_dashboard_violations", year)
    items = _counts(r, "notice_items", "count_dashboard_sewer_violations") or (
        0,
        [],
        None,
        None,
    )
    (slugs,) = _counts(r, "slug_events", "count_dashboard_slug_events") or (None,)
    (expiring,) = _counts(r, "compliance_summary", "count_dashboard_expiring_permits") or (None,)
    town = rules.town_rules()
    judged = rules.judged()
    warning = town.versions_of("notices.permit_expiry_warning").get(as_of)
    within = f"within {warning.days} days " if warning else ""
    numbers = []
    duties = ("limits", "reports", "testing", "permits")
    if samples is None:
        numbers.append(("–", "violations", ""))
    else:
        _count, _users, _ytd, first, last = samples
        total, recipients, first_item, last_item = items  # the notices' items, as the sewer page counts
        days = [d for d in (first, last, first_item, last_item) if d is not None]
        period = months_words(min(days), max(days)) if days else "no sample yet"
        stated = total or any(judged.judged(d) for d in duties)
        unjudged = judged.reasons(duties)
        numbers += [
            (
                f"{total:,}" if stated else "not judged",
                f"{noun(total, 'violation')}, {period}: the items of the notices"
                + (f"; {len(recipients or []):,} {noun(len(recipients or []), 'user')}" if stated else "")
                + (f"; {unjudged}" if unjudged else ""),
                _tone(total) if not unjudged or total else "warn",
            ),
        ]
    flow = _flow_span(r)
    numbers.append(
        _judged_number(judged, "slugs", slugs, f"slug {noun(slugs, 'event')}" + (f", {flow}" if flow else ""))
    )
    expiring_words = f"{noun(expiring, 'permit')} expiring {within}or expired"
    if not warning:
        expiring_words = f"{noun(expiring, 'permit')} expired; expiring: " + judged.none(
            "permit_expiry", "no policy in effect on the day judged"
        )
    numbers.append((_n(expiring), expiring_words, _tone(expiring, "warn")))
    return numbers


def _flow_span(r: Reader) -> str:
    """The months of the flow readings on file (the period the slugs come from)."""
    ranges = _ranges(r.con, r)
    rows = ranges[ranges["dataset"] == "flow"]
    return months_words(rows["first"].iloc[0], rows["last"].iloc[0]) if not rows.empty else ""


def _judged_number(
    judged: Judged, duty: str, value: Any, words: str, tone: str = "bad"
) -> tuple[str, str, str]:
    """A card's number, its words and tone: a 0 of a duty the rules do not judge reads "not judged", and its
    words say why (contract 8.6)."""
    if value == 0 and not judged.judged(duty):
        return "not judged", f"{words}; {judged.reason(duty)}", "warn"
    return _n(value), words, _tone(value, tone)


def _stormwater_numbers(r: Reader, settings: OutfallSettings, judged: Judged) -> list[tuple[str, str, str]]:
    """The stormwater card's numbers, each with the period it covers, as the stormwater page counts them."""
    as_of = settings.as_of_date()
    week_end = as_of + dt.timedelta(days=7)
    overdue, late, first, last = _counts(
        r, "swppp_inspection_findings", "count_dashboard_missed_inspections"
    ) or (None, None, None, None)
    (week,) = _counts(r, "swppp_upcoming", "count_dashboard_inspections_due", {"due_by": week_end}) or (None,)
    notices = _counts(r, "notices", "count_dashboard_notices", {"kind": "stormwater"})
    period = months_words(first, last) or "no finding yet"
    numbers = [
        _judged_number(
            judged,
            "inspections",
            overdue,
            f"{noun(overdue, 'inspection')} overdue, {period}: due and not made by {day_words(as_of)}",
        ),
        _judged_number(
            judged, "inspections", late, f"{noun(late, 'inspection')} made late, {period}", "warn"
        ),
        _judged_number(
            judged,
            "inspections",
            week,
            f"{noun(week, 'inspection')} due by {week_end:%A %B} {week_end.day}",
            "warn",
        ),
    ]
    if notices is not None:
        count, mailed, drafts, items, first_month, last_month = notices
        months = months_words(*(f"{m}-01" if m else None for m in (first_month, last_month))) or "none yet"
        words = f"{noun(count, 'notice of violation', 'notices of violation')}"
        if count or judged.judged("stormwater_notices"):
            words += (
                f", {months}: {mailed} mailed, {drafts} {noun(drafts, 'draft')}, listing {items} "
                f"{noun(items, 'finding')}"
            )
        number, words, _tone_ = _judged_number(judged, "stormwater_notices", count, words)
        numbers.append((number, words, "warn" if number == "not judged" else ""))
    return numbers


def _n(value: Any) -> str:
    return "–" if value is None else f"{int(value):,}"


def _tone(value: Any, bad: str = "bad") -> str:
    return "" if value is None else (bad if value else "good")


def _cards(
    r: Reader, folder: Path, settings: OutfallSettings, rules: RulesResource, laws: dict[str, str]
) -> list[PageCard]:
    years = r.named("sewer_bills", "select_dashboard_bill_years")
    year = int(years["year"].max()) if years is not None and not years.empty else None
    if settings.year and r.has("sewer_bills"):
        year = settings.year
    bills = (
        _counts(r, "sewer_bills", "count_dashboard_bills_of_year", {"year": year})
        if year is not None
        else None
    )
    billed, parcels = bills or (None, None)
    return [
        PageCard(
            "sewer.html",
            "Industrial users",
            role_name(laws, "superintendent"),
            "What to do next, violations and slugs, notices, required testing; each user's control charts "
            "and flow.",
            (folder / "sewer.html").exists(),
            _sewer_numbers(r, settings, rules),
        ),
        PageCard(
            "stormwater.html",
            "Construction sites",
            role_name(laws, "stormwater_officer"),
            "What to do next, this week's inspections, late and overdue findings, notices, illicit "
            "discharges; each site's inspections against rainfall.",
            (folder / "stormwater.html").exists(),
            _stormwater_numbers(r, settings, rules.judged()),
        ),
        PageCard(
            "billing.html",
            f"Sewer roll {year}" if year else "Sewer roll",
            role_name(laws, "clerk"),
            "Units and revenue by district, component and class; changes from last year; largest bills.",
            (folder / "billing.html").exists(),
            [
                (
                    "–" if billed is None else f"${billed:,.0f}",
                    f"billed for {year}" if year else "billed",
                    "",
                ),
                (_n(parcels), noun(parcels, "parcel"), ""),
            ],
        ),
    ]


def read_index_data(
    con: duckdb_module.DuckDBPyConnection, settings: OutfallSettings, rules: RulesResource, folder: Path
) -> IndexData:
    r = Reader(con)
    data = IndexData(
        as_of=settings.as_of_date(),
        generated_at=_now_local(),
        quarantine_per_reason=QUARANTINE_ROWS_PER_REASON,
        town=rules.names(),
        laws=page_laws(rules, settings.as_of_date()),
    )
    data.ingested = r.named("ingested_files", "select_dashboard_ingested")
    data.ranges = _ranges(con, r)
    data.quarantine_counts = r.named("quarantine", "select_dashboard_quarantine_counts")
    data.quarantine = r.named(
        "quarantine", "select_dashboard_quarantine", {"per_reason": QUARANTINE_ROWS_PER_REASON}
    )
    counts = data.quarantine_counts  # rows per dataset and reason: their sum is every row quarantined
    data.quarantine_total = int(counts["rows"].sum()) if counts is not None else 0
    data.set_aside = r.named("set_aside", "select_dashboard_set_aside")
    data.not_judged = r.named("not_judged", "select_dashboard_not_judged", {"examples": NOT_JUDGED_EXAMPLES})
    data.cards = _cards(r, folder, settings, rules, data.laws)
    data.worklist = r.named("worklist", "select_dashboard_worklist")
    data.held_back = r.named("held_back", "select_held_back")
    data.reports = _reports(con, r, folder)
    data.present = r.present
    return data


def _reports(con: duckdb_module.DuckDBPyConnection, r: Reader, folder: Path) -> list[tuple[str, str]]:
    """(file, label) of each year's annual pretreatment report written in the folder."""
    from dashboards.annual_report import report_file

    if not r.has("pretreatment_annual_report"):
        return []
    years = [int(y) for (y,) in con.execute(sql("select_annual_report_years")).fetchall()]
    return [
        (report_file(y), f"Annual pretreatment report {y}")
        for y in years
        if (folder / report_file(y)).exists()
    ]


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_DASHBOARDS,
    kinds={"html"},
    deps=[
        "sewer_dashboard",
        "stormwater_dashboard",
        "billing_dashboard",
        "quarantine",
        "industrial_users",
        "lab_results",
        "flow",
        "rainfall",
        "inspections",
        "sites",
        "infiltration_tests",
        "sewer_rates",
        "parcels",
        "permit_limits",
        "pretreatment_report_pages",
        "illicit_discharge_deadlines",
        "smp_findings",
        "worklist",
        "notices",
        "statistic_violations",
    ],
    description="The dashboards' index (index.html): each person's worklist counts and the most urgent "
    "actions; links to every page with headline numbers, each with its period, the as-of date, the data's "
    "date range and the rows quarantined per dataset, linking to the quarantine list page (quarantine.html) "
    "so that bad data is seen, not hidden.",
)
def dashboard_index(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    started = time.perf_counter()
    folder = dashboards_dir(duckdb, settings)
    with duckdb.get_connection() as con:
        configure(con, timezone=rules.timezone())
        read_as_of(con, settings.as_of_date(), rules.timezone())  # the inputs as of the run's day
        data = read_index_data(con, settings, rules, folder)
    data.failures = [tuple(f) for f in json.loads(context.run.tags.get(FAILED_STEPS_TAG) or "[]")]
    quarantine_html, _ = build_quarantine_page(data)
    _write_page(folder, "quarantine.html", quarantine_html)
    html_text, meta = build_index_page(data)
    path = _write_page(folder, "index.html", html_text)
    return _page_result(
        context,
        path,
        meta,
        time.perf_counter() - started,
        quarantine_page=MetadataValue.path(str(folder / "quarantine.html")),
        rows_quarantined=int(data.quarantine_total),
    )
