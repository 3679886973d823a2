"""The sewer administrator's page (sewer.html), built by ``dashboards.sewer``."""

import datetime as dt

import duckdb as duckdb_module
import numpy as np
import pandas as pd
from dagster import AssetExecutionContext, MaterializeResult, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, WAREHOUSE_POOL, read_as_of
from assets.pages import Reader, _now_local, page_laws, write_page
from dashboards import query
from dashboards.sewer import SewerData, build_sewer_page, sewer_view, users_with_findings
from dashboards.sewer_control import label_results
from dashboards.sewer_flow import BUCKET_HOURS, choose_bucket_hours, flow_points_per_user
from outfall.flow_hours import ensure_flow_hours
from outfall.resources import OutfallSettings, RulesResource
from outfall.slug_context import refresh_slug_context
from outfall.vocab import PARAMETER_ORDER
from outfall.warehouse import transaction

# The flow points the page draws in all: shared evenly by the users charted (those with findings), each
# user's share by its meters and probes; each series the means of the finest bucket that keeps to its share.
FLOW_POINTS = 500_000
# every reading from SLUG_CONTEXT_HOURS before each slug to as long after it (outfall/slug_context.py) ...
MAX_SLUG_READINGS = 20_000  # ... unless a series has more than this: then the readings inside the slugs only

# --------------------------------------------------------------------------- sewer


def read_sewer_data(
    con: duckdb_module.DuckDBPyConnection, settings: OutfallSettings, rules: RulesResource
) -> SewerData:
    r = Reader(con)
    town = rules.town_rules()
    as_of = settings.as_of_date()
    # The labels say what the rules say: the permit policy in effect on the as-of day, and the slug
    # definitions as the slug asset applied them (table slug_rules).
    warning = town.versions_of("notices.permit_expiry_warning").get(as_of)
    enforcement = town.versions_of("sewer_enforcement").get(as_of)
    data = SewerData(
        as_of=as_of,
        generated_at=_now_local(),
        town=town.name,
        laws=page_laws(rules, as_of),
        judged=rules.judged(),
        municipality=town.municipality,
        notice_mailing=enforcement.mailing if enforcement is not None else "",
        permit_warn_days=warning.days if warning else None,
        permit_warn_rule=warning.citation if warning else "",
        slug_rules=r.table("slug_rules"),
    )
    # the users with their permits (user_permits, the sewer area's): none before that table exists
    data.users = r.named("industrial_users", "select_dashboard_users") if r.has("user_permits") else None
    lab = r.named("lab_results", "select_dashboard_lab_results")
    evaluations = r.named("discharge_evaluations", "select_dashboard_evaluations")
    data.violations = r.table("discharge_violations")
    data.statistic_violations = r.table("statistic_violations")
    data.inconclusive = r.table("inconclusive_results")
    data.summary = r.table("compliance_summary")
    data.slugs = r.table("slug_events")
    data.gaps = r.table("slug_baseline_gaps")
    data.snc = r.table("snc_determinations")
    data.without_permit = r.table("discharges_without_permit")
    data.permit_dates_missing = r.table("permit_dates_missing")
    data.notices = r.table("notices")
    data.follow_up = r.table("sewer_notices")
    data.required_testing = r.named(
        "required_testing", "select_dashboard_required_testing", {"parameter_order": list(PARAMETER_ORDER)}
    )
    data.worklist = r.named("worklist", "select_dashboard_worklist")
    data.notice_items = r.named("notice_items", "select_dashboard_notice_item_counts")
    data.other_items = r.named("notice_items", "select_dashboard_other_items", {"kind": "sewer"})
    if lab is not None:
        data.results = label_results(lab, evaluations, data.violations, data.inconclusive)
        data.limits = (
            evaluations  # the limits the compliance SQL applied to each result; none yet: none drawn
        )
    # the corners of each baseline's step line (a year of 190 meters: 29,000 of its 69,000 days)
    data.baselines = r.named("slug_daily_stats", "select_dashboard_slug_baselines")
    # the users the page charts, known before the flow is read: they share its flow points (nothing judged
    # yet: every user is charted)
    judged = data.summary is not None and not data.summary.empty
    charted = users_with_findings(sewer_view(data)) if judged else None
    data.flow = read_flow(con, r, rules.timezone(), charted)
    data.flow_points = FLOW_POINTS
    data.present = r.present
    return data


def read_flow(
    con: duckdb_module.DuckDBPyConnection,
    r: Reader,
    timezone: str,
    charted: set | None = None,
    budget: int = FLOW_POINTS,
) -> pd.DataFrame | None:
    """Each meter series as means of the finest bucket (1, 2, 3, 4, 6 ... hours) that keeps it within its
    share of ``budget`` points for the page (``flow_points_per_user`` of the users ``charted`` with
    readings, None: every user; a user's share split evenly among its series), plus every reading near a
    slug event, as kept beside the slugs by their detection (outfall/slug_context.py). A series of a user
    not charted is read as weekly means (only its presence is shown).

    Flow is read in SQL, all series at once (sql/sewer/select_dashboard_flow.sql): one grouped read
    for the spans, then one read of the means (each series with its own bucket width) and the
    readings near slugs, grouped and ordered as the page draws them, each row naming its series by position;
    never a query per meter. The spans and means come from the hourly summaries of flow, brought
    up to date first (nothing to do when the input checks did it)."""
    if not r.has("flow"):
        return None
    ensure_flow_hours(con)
    spans = r.named("flow", "select_dashboard_flow_spans")
    if spans is None:
        return None
    columns = ["ts", "value", "kind", "user_id", "constituent", "unit", "bucket_hours"]
    if spans.empty:
        return pd.DataFrame(columns=["user_id", "constituent", "ts", "value", "unit", "kind", "bucket_hours"])
    hours = bucket_hours_of(spans, charted, budget)
    with_readings = r.has("slug_events")
    if with_readings:
        with transaction(con):  # the readings beside slugs the slug detection did not keep (none in a run)
            refresh_slug_context(con)
    drawn = con.execute(
        query("select_dashboard_flow"),
        {
            "tz": timezone,
            "user_ids": spans["user_id"].tolist(),
            "constituents": spans["constituent"].tolist(),
            "hours": hours,
            "with_readings": with_readings,
            "max_readings": MAX_SLUG_READINGS,
        },
    ).df()
    # each row's series by position: its names, unit and bucket taken from the spans, not joined as text
    at = drawn["series"].to_numpy(dtype=np.int64)
    flow = pd.DataFrame(
        {
            "ts": drawn["ts"],
            "value": drawn["value"],
            "kind": np.array(["mean", "slug"], dtype=object)[drawn["kind"].to_numpy(dtype=np.int64)],
            "user_id": spans["user_id"].to_numpy(dtype=object)[at],
            "constituent": spans["constituent"].to_numpy(dtype=object)[at],
            "unit": spans["unit"].to_numpy(dtype=object)[at],
            "bucket_hours": np.asarray(hours, dtype=np.int64)[at],
        }
    )
    return flow[columns]


def bucket_hours_of(spans: pd.DataFrame, charted: set | None, budget: int) -> list[int]:
    """Each series' bucket (spans: user_id, first_ts, last_ts, one row a series): its user's share of the
    budget split among the user's series; the coarsest for a user not charted."""
    drawn = spans["user_id"].isin(charted) if charted is not None else pd.Series(True, index=spans.index)
    series_of = spans.loc[drawn, "user_id"].value_counts()
    share = flow_points_per_user(budget, len(series_of))
    return [
        choose_bucket_hours(
            (pd.Timestamp(last) - pd.Timestamp(first)).total_seconds() / 3600.0,
            max(1, share // int(series_of[u])),
        )
        if d
        else BUCKET_HOURS[-1]
        for u, first, last, d in zip(spans["user_id"], spans["first_ts"], spans["last_ts"], drawn)
    ]


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_DASHBOARDS,
    kinds={"html", "plotly"},
    deps=[
        "industrial_users",
        "user_permits",
        "lab_results",
        "flow",
        "discharge_violations",
        "statistic_violations",
        "slug_events",
        "compliance_summary",
        "snc_determinations",
        "discharges_without_permit",
        "permit_dates_missing",
        "notices",
        "sewer_notices",
        "required_testing",
        "worklist",
    ],
    description="The sewer administrator's page (sewer.html): the superintendent's worklist first; per "
    "industrial user, control charts of every "
    "limited parameter with the limit and its section (the sewer use law), violations and "
    "non-detects marked; the flow trace with slug events and baseline; violations by user and "
    "month; the compliance summary with permits expiring soon; the monthly notices of violation and "
    "the municipality's follow-up of each violation from its notice; the testing required of each user, "
    "period by period (met, missed or open).",
)
def sewer_dashboard(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    return write_page(
        context,
        duckdb,
        settings,
        rules,
        "sewer.html",
        lambda con, folder: read_sewer_data(con, settings, rules),
        build_sewer_page,
    )


# --------------------------------------------------------------------------- annual pretreatment report

REPORT_PREFIX = "pretreatment_report_"


def read_annual_report(
    con: duckdb_module.DuckDBPyConnection, settings: OutfallSettings, rules: RulesResource, year: int
):
    from dashboards.annual_report import AnnualReportData

    r = Reader(con)
    town = rules.town_rules()
    end = dt.date(year, 12, 31)
    data = AnnualReportData(
        year=year,
        as_of=settings.as_of_date(),
        generated_at=_now_local(),
        town=town.name,
        laws=page_laws(rules, end),
        judged=rules.judged(),
        municipality=town.municipality,
        authority=(
            f"{town.law('sewer_district', end).name}, {town.name}"
            if town.has_law("sewer_district")
            else town.name
        ),
    )
    params = {"year": year}
    data.users = r.named("pretreatment_annual_report", "select_report_users", params)
    data.violations = r.named("discharge_violations", "select_report_violations", params)
    data.statistics = r.named("statistic_violations", "select_report_statistic_violations", params)
    data.snc = r.named("snc_determinations", "select_report_snc", params)
    data.notices = r.named("notices", "select_report_notices", params)
    data.slugs = r.named("slug_events", "select_report_slugs", params)
    data.present = r.present
    return data


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_DASHBOARDS,
    kinds={"html"},
    deps=[
        "pretreatment_annual_report",
        "discharge_violations",
        "statistic_violations",
        "snc_determinations",
        "slug_events",
        "industrial_users",
        "user_permits",
        "discharges_without_permit",
    ],
    description="The annual pretreatment report of each calendar year, printable, for the approval authority "
    "(40 CFR 403.12(i)): the industrial users with their sampling and violations, the users in "
    "significant noncompliance, the notices of violation mailed and the slug discharges, every row "
    "(pretreatment_report_<year>.html beside the other pages, linked from the index page).",
)
def pretreatment_report_pages(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    from assets.pages import dashboards_dir
    from dashboards.annual_report import build_annual_report_page, report_file
    from dashboards.output import write_atomic
    from outfall.warehouse import configure

    folder = dashboards_dir(duckdb, settings)
    written = []
    with duckdb.get_connection() as con:
        configure(con, timezone=rules.timezone())
        read_as_of(con, settings.as_of_date(), rules.timezone())  # the inputs as of the run's day
        r = Reader(con)
        years = (
            [int(y) for y in r.named("pretreatment_annual_report", "select_report_years")["year"]]
            if r.has("pretreatment_annual_report")
            else []
        )
        for year in years:
            html_text, _ = build_annual_report_page(read_annual_report(con, settings, rules, year))
            written.append(write_atomic(folder / report_file(year), html_text))
    keep = {p.name for p in written}
    removed = 0
    for stale in folder.glob(f"{REPORT_PREFIX}*.html") if folder.is_dir() else []:
        if stale.name not in keep:
            stale.unlink()
            removed += 1
    context.log.info(f"annual pretreatment reports: {len(written)} written in {folder}")
    return MaterializeResult(
        metadata={"years": years, "pages": [p.name for p in written], "stale_pages_removed": removed}
    )
