"""The clerk's billing page (billing.html), built by ``dashboards.billing``."""

import datetime as dt

import duckdb as duckdb_module
import pandas as pd
from dagster import AssetExecutionContext, MaterializeResult, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, WAREHOUSE_POOL
from assets.pages import Reader, _now_local, page_laws, write_page
from dashboards import query
from dashboards.billing import BillingData, build_billing_page
from outfall.billing_words import district_names
from outfall.register_export import bills_lacking_address
from outfall.resources import OutfallSettings, RulesResource

# --------------------------------------------------------------------------- billing

TOP_BILLS = 15


def read_billing_data(
    con: duckdb_module.DuckDBPyConnection, settings: OutfallSettings, town_rules: RulesResource
) -> BillingData:
    r = Reader(con)
    rules = town_rules.town_rules()
    data = BillingData(
        as_of=settings.as_of_date(),
        generated_at=_now_local(),
        town=rules.name,
        laws=page_laws(town_rules, settings.as_of_date()),
    )
    data.worklist = r.named("worklist", "select_dashboard_worklist")
    data.fees = r.named("inspection_fees", "select_inspection_fee_totals")
    data.fees_unpriced = r.named("inspection_fees", "select_dashboard_unpriced_fees")
    data.unit_schedule = rules.sewer_units is not None
    data.inspection_fee_law = rules.inspection_fees is not None
    data.volume = r.named("volume_charges", "select_dashboard_volume_charges")
    data.sampling_fees = r.named("sampling_fees", "select_dashboard_sampling_fees")
    data.surcharges = r.named("surcharges", "select_dashboard_surcharges")
    data.user_bills = r.named("user_bills", "select_dashboard_user_bills")
    years_frame = r.named("sewer_bills", "select_dashboard_bill_years")
    years = [int(y) for y in years_frame["year"]] if years_frame is not None else []
    data.billed_years = years
    if not years:
        data.totals = None if years_frame is None else pd.DataFrame()
        data.present = r.present
        return data
    year = settings.year if settings.year and settings.year in years else max(years)
    data.billed_years = years
    first_day = dt.date(year, 1, 1)
    schedule = rules.sewer_units.get(first_day) if rules.sewer_units else None
    billing = rules.billing.get(first_day) if rules.billing else None
    data.rule = schedule.citation if schedule is not None else ""  # the schedule the year was billed by
    data.rule_short = (schedule.short_citation or "") if schedule is not None else ""
    data.bill_rule = billing.citation if billing is not None else ""
    data.rates_by = (billing.rates_adopted_by or "") if billing is not None else ""
    data.district_names = district_names(rules, year)
    earlier = [y for y in years if y < year]
    prev = max(earlier) if earlier else None
    data.year, data.previous_year = year, prev
    params = {"year": year, "previous_year": prev}
    data.totals = r.named("sewer_bills", "select_dashboard_bill_totals", params)
    data.addresses = pd.DataFrame(bills_lacking_address(con, year))
    data.largest = r.named(
        "sewer_bills", "select_dashboard_largest_bills", {"year": year, "limit": TOP_BILLS}
    )
    if prev is not None:
        changes = r.named("bill_changes", "select_dashboard_bill_changes", {"year": year, "limit": TOP_BILLS})
        if changes is not None and not changes.empty:
            data.changes = changes
            data.change_counts = r.named(
                "bill_changes", "select_dashboard_bill_change_counts", {"year": year}
            )
        else:
            data.changes = con.execute(
                query("compare_dashboard_bill_years"), {**params, "limit": TOP_BILLS}
            ).df()
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
    pool=WAREHOUSE_POOL,
    group_name=GROUP_DASHBOARDS,
    kinds={"html", "plotly"},
    deps=[
        "sewer_bills",
        "billing_runs",
        "billing_run_totals",
        "bill_changes",
        "billing_summary",
        "parcels",
        "inspection_fees",
        "volume_charges",
        "sampling_fees",
        "surcharges",
        "user_bills",
        "worklist",
    ],
    description="The clerk's billing page (billing.html): what to do next (the clerk's worklist); units and "
    "revenue by district, component and property class (the sewer rate schedule), the change from the "
    "previous billed year, the largest bills and the biggest changes; the water and sewer inspection fees "
    "per year.",
)
def billing_dashboard(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    return write_page(
        context,
        duckdb,
        settings,
        rules,
        "billing.html",
        lambda con, folder: read_billing_data(con, settings, rules),
        build_billing_page,
    )
