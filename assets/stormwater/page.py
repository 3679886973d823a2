"""The stormwater officer's page (stormwater.html), built by ``dashboards.stormwater``."""

import os
from pathlib import Path

import duckdb as duckdb_module
from dagster import AssetExecutionContext, MaterializeResult, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, WAREHOUSE_POOL, letters_dir
from assets.pages import Reader, _now_local, page_laws, write_page
from dashboards.stormwater import StormwaterData, build_stormwater_page
from outfall.law.calendar import extension_law
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules.words import DESCRIBE

# --------------------------------------------------------------------------- stormwater


def letters_folder(duckdb: DuckDBResource, settings: OutfallSettings) -> Path | None:
    """Where the stormwater notices' letters are written: the one rule of assets/common.py."""
    return letters_dir(duckdb, settings, "stormwater")


def read_stormwater_data(
    con: duckdb_module.DuckDBPyConnection,
    settings: OutfallSettings,
    rules: RulesResource,
    folder: Path,
    letters: Path | None,
) -> StormwaterData:
    r = Reader(con)
    town = rules.town_rules()
    as_of = settings.as_of_date()
    data = StormwaterData(
        as_of=as_of,
        generated_at=_now_local(),
        town=rules.names(),
        laws=page_laws(rules, as_of),
        judged=rules.judged(),
        municipality=town.municipality,
        # the laws the town's rules name for its holidays and for moving a period off a weekend or holiday
        holiday_law=town.business_days.citation.split(" (", 1)[0] if town.business_days else "",
        deadline_law=extension_law(town.deadline_extension, as_of, "illicit_discharges.appeal") or "",
    )
    data.sites = r.table("sites")
    data.classification = r.table("site_classification")
    data.findings = r.table("swppp_inspection_findings")
    data.other = r.table("swppp_other_findings")
    data.notices = r.named("swppp_notices", "select_dashboard_swppp_notices")
    data.upcoming = r.table("swppp_upcoming")
    data.monthly_notices = r.table("notices")
    data.follow_up = r.named("swppp_notices", "select_dashboard_swppp_follow_up")
    data.inspections = r.named("inspections", "select_dashboard_inspections")
    data.illicit_cases = r.named("illicit_discharges", "select_dashboard_illicit_cases")
    data.illicit_deadlines = r.table("illicit_discharge_deadlines")
    data.illicit_charges = r.table("illicit_discharge_charges")
    data.illicit_letters = r.named("illicit_discharge_letters", "select_dashboard_illicit_letters")
    data.smp_findings = r.table("smp_findings")
    data.worklist = r.named("worklist", "select_dashboard_worklist")
    data.notice_items = r.named("notice_items", "select_dashboard_notice_item_counts")
    aside = r.named("set_aside", "select_illicit_cases_set_aside")
    data.illicit_set_aside = set(aside["case_id"].dropna()) if aside is not None else set()
    data.rain = r.named("rainfall", "select_dashboard_rainfall")
    for jurisdiction, jurisdiction_rules in rules.all_rules().items():
        if jurisdiction_rules.swppp is not None:
            data.rules[jurisdiction] = jurisdiction_rules
    names = []
    if data.notices is not None and not data.notices.empty:
        names += list(data.notices["letter_file"].dropna().unique())
    if data.illicit_letters is not None and not data.illicit_letters.empty:
        names += list(data.illicit_letters["letter_file"].dropna().unique())
    if letters is not None and letters.is_dir():
        for name in names:
            if (letters / str(name)).is_file():
                data.letters[str(name)] = Path(os.path.relpath(letters / str(name), folder)).as_posix()
            elif (
                folder / str(name)
            ).is_file():  # a monthly notice's letter: relative to the dashboards folder
                data.letters[str(name)] = Path(os.path.relpath(folder / str(name), folder)).as_posix()
    data.present = r.present
    return data


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_DASHBOARDS,
    kinds={"html", "plotly"},
    deps=[
        "sites",
        "inspections",
        "rainfall",
        "site_classification",
        "swppp_inspection_findings",
        "swppp_other_findings",
        "swppp_notices",
        "swppp_upcoming",
        "illicit_discharge_deadlines",
        "illicit_discharge_charges",
        "illicit_discharge_letters",
        "smp_findings",
        "notices",
        "worklist",
    ],
    description=DESCRIBE.stormwater_dashboard(),
)
def stormwater_dashboard(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    return write_page(
        context,
        duckdb,
        settings,
        rules,
        "stormwater.html",
        lambda con, folder: read_stormwater_data(
            con, settings, rules, folder, letters_folder(duckdb, settings)
        ),
        build_stormwater_page,
    )
