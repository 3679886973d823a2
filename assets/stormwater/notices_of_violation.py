"""The asset of notices of violation of construction sites, their stop-work orders and letters
(``swppp_notices``, ``swppp_stop_work_orders``, ``swppp_letters``) and the check of the notices' contents."""

import datetime as dt
from collections import defaultdict
from pathlib import Path

import pandas as pd
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    AssetSpec,
    MaterializeResult,
    MetadataValue,
    multi_asset,
)
from dagster_duckdb import DuckDBResource

from assets.common import (
    GROUP_STORMWATER,
    WAREHOUSE_POOL,
    check_rows,
    letters_dir,
    outputs,
    table_check,
    warehouse,
)
from assets.notices import recipients
from assets.run import replace_judged
from assets.stormwater.stop_work import ORDER_COLUMNS, STOP_WORK, StopWorkOrders
from assets.stormwater.swppp_shared import (
    _classified_sites,
    _counts,
    _daily_rain,
    _gauge_key,
    _not_judged,
    _person_key,
    _rules,
)
from outfall.documents import Documents, is_own
from outfall.law import notices as notice_law, swppp as law
from outfall.letters import LetterWriter, write_letter
from outfall.records import files_on_record
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules, RulesError
from outfall.rules.tables import NotJudged
from outfall.rules.words import DESCRIBE
from outfall.warehouse import count, preview_markdown, records, sql, transaction


def _follow_monthly_notice(
    notice: dict, monthly: dict | None, in_letter: bool, r: Rules, as_of: dt.date
) -> None:
    """A finding's notice is its site's monthly notice: dated its mailing day, corrected by its last day to
    correct. A penalty accrues only through a mailed notice whose letter lists the finding (contract 6.1): a
    draft, a withdrawn draft, or a finding found after its month's notice was mailed accrues none, and
    states no amount (contract 7.2: the schedule only). Once mailed, each period (day or week, by the
    penalty in effect on the violation's day) the violation continues after the last day to correct is a
    separate violation; the statement's periods and amount are the row's own."""
    monthly = monthly or {
        "period": None,
        "status": None,
        "letter": None,
        "issued_on": None,
        "correct_by": None,
    }
    notice["notice_period"], notice["notice_status"] = monthly["period"], monthly["status"]
    notice["letter_file"] = monthly["letter"]
    counted = monthly["issued_on"] is not None and in_letter
    notice["issued_on"] = monthly["issued_on"] if counted else None
    notice["remedial_due_by"] = monthly["correct_by"] if counted else None
    if counted:
        days = notice_law.penalty_days(notice["remedial_due_by"], notice["satisfied_on"], as_of)
        periods = law.violation_periods(days, notice["penalty_per"]) if days > 0 else 0
        notice["violation_periods"] = periods
        notice["total_fine_min_usd"] = law._usd(notice["fine_min_usd"] * periods)
        notice["total_fine_max_usd"] = law._usd(notice["fine_max_usd"] * periods)
        accrued = law.penalty_accrued(
            periods, notice["penalty_per"], notice["total_fine_max_usd"], notice["remedial_due_by"], as_of
        )
        notice["penalty_statement"] = f"{notice['penalty_statement']} {accrued}"
        return
    notice["violation_periods"] = None
    notice["total_fine_min_usd"] = None
    notice["total_fine_max_usd"] = None
    if monthly["issued_on"] is None:
        why = (
            "The monthly notice listing this violation is a draft, not mailed: it sets no time schedule and "
            "no penalty accrues until it is mailed."
            if monthly["status"]
            else "No mailed notice lists this violation yet: no penalty accrues until one does."
        )
    else:
        why = (
            "This violation was found after its month's notice was mailed and is not in that letter: no "
            "penalty accrues until a mailed notice lists it."
        )
    notice["penalty_statement"] = f"{notice['penalty_statement']} {why}"


@multi_asset(
    pool=WAREHOUSE_POOL,
    specs=[
        AssetSpec(
            "swppp_notices",
            group_name=GROUP_STORMWATER,
            kinds={"duckdb", "html"},
            deps=[
                "swppp_inspection_findings",
                "swppp_other_findings",
                "site_classification",
                "sites",
                "convictions",
                "rainfall",
                "notices",
            ],
            description=DESCRIBE.swppp_notices(),
        ),
        AssetSpec(
            "swppp_stop_work_orders",
            group_name=GROUP_STORMWATER,
            kinds={"duckdb", "html"},
            deps=["swppp_notices"],
            description="Stop-work orders (the stormwater law of the site's jurisdiction): for an "
            "active site, an order resting only on mailed notices of violation whose last day to correct "
            "has passed with the violation uncorrected; all work halted except site stabilization and the "
            "correction of the violations. A draft (numbered by the month it was first warranted, the "
            "number kept between runs) until its mailing is recorded in notices_mailed (kind stop_work); "
            "then written once and kept as a record.",
        ),
        AssetSpec(
            "swppp_letters",
            group_name=GROUP_STORMWATER,
            kinds={"duckdb", "html"},
            deps=["swppp_notices"],
            description="The HTML of every notice and stop-work letter, as written to the letters folder.",
        ),
    ],
)
def swppp_notices(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
):
    as_of = settings.as_of_date()
    town = rules.jurisdiction()
    rules = _rules(rules)
    folder = letters_dir(duckdb, settings, "stormwater")
    writer = LetterWriter(settings.data_path(), rules)
    with warehouse(duckdb, as_of=as_of) as con:
        sites = {s["site_id"]: s for s in _classified_sites(con)}
        people = recipients(con, town)
        notices, not_judged = _notices(con, sites, rules, as_of)
        # Stop-work orders (contract 7.3): each rests only on mailed notices past their last day to
        # correct with the finding uncorrected; a draft until notices_mailed records it (kind stop_work),
        # then written once and kept.
        docs = Documents(con, writer, outputs(duckdb, settings).dashboards, (STOP_WORK.name,), as_of)
        orders, letters = StopWorkOrders(sites, rules, people, docs, folder, as_of).build(notices)

        notice_frame = pd.DataFrame(notices)
        order_frame = pd.DataFrame(orders, columns=ORDER_COLUMNS)
        letter_frame = pd.DataFrame([{k: v for k, v in x.items() if k != "write"} for x in letters])
        if folder is None:
            if len(notice_frame):
                notice_frame["letter_file"] = None
            if len(order_frame):
                order_frame["letter_file"] = None
            context.log.warning(
                "in-memory warehouse and no dashboards_dir: letters are kept in table swppp_letters only"
            )
        _write_letters(con, folder, letters)
        with transaction(con):
            replace_judged(
                con,
                not_judged,
                swppp_notices=notice_frame,
                swppp_stop_work_orders=order_frame,
                swppp_letters=letter_frame,
            )
            docs.save(con)
            removed = docs.write()
        yield from _results(con, as_of, folder, letters, removed, notice_frame)


def _convictions(con) -> tuple[dict[str, list[dict]], dict[str, list[dict]]]:
    """The stormwater convictions on record, by applicant (its key) and by the site they name."""
    convictions = defaultdict(list)
    for c in records(con, "select_stormwater_convictions"):
        convictions[c["applicant_key"]].append(c)
    by_site_id = defaultdict(list)
    for c in (c for cs in convictions.values() for c in cs):
        if c["site_id"]:
            by_site_id[c["site_id"]].append(c)
    return convictions, by_site_id


def _notices(con, sites: dict, rules: dict[str, Rules], as_of: dt.date) -> tuple[list[dict], list[NotJudged]]:
    """One notice per finding of a site the chapter's notices reach, each following its site's monthly
    notice; and what could not be judged (a town whose rules state no notice, a day no rule covers)."""
    rain = _daily_rain(con)
    convictions = _convictions(con)
    monthly = {
        (n["recipient_id"], n["period"]): n
        for n in records(con, "select_notices_of_kind", {"kind": "stormwater"})
    }
    listed = {
        (i["recipient_id"], i["item"], i["ref"], i["item_on"])
        for i in records(con, "select_notice_items_in_letters", {"kind": "stormwater"})
    }
    notices, not_judged = [], []
    unstated: set[str] = set()
    for f in records(con, "select_swppp_findings"):
        site = sites.get(f["site_id"])
        r = rules.get(f["jurisdiction"])
        if site is None or r is None:
            continue
        if is_own(site["owner_name"], r.own_names) or is_own(site["applicant"], r.own_names):
            continue  # the municipality does not serve itself: the worklist has the finding (8.4)
        if not r.stormwater_notices_stated():  # findings listed; no notice without the law's terms
            if f["site_id"] not in unstated:
                unstated.add(f["site_id"])
                not_judged.append(
                    NotJudged(
                        f"notices of violation of site {f['site_id']}",
                        as_of,
                        "swppp.notice_of_violation",
                        r.stormwater_notices_reason(),
                    )
                )
            continue
        v = _violation(f, site, rain)
        violation_on = v.due_by + dt.timedelta(days=1)
        try:  # priced by the penalty of the violation's day; worded by the rules of the notice's day
            prior = _prior_convictions(site, f["jurisdiction"], convictions, violation_on, r)
            notice = law.build_notice(v, _site_record(site), site["inspector"], prior, as_of, r)
            notice["stop_work_order"] = law.stop_work_warranted(v, bool(site["active"]), r, as_of)
        except RulesError as exc:
            not_judged.append(
                _not_judged(
                    f"notice of violation: {f['finding']} at site {f['site_id']} due {f['due_by']}",
                    violation_on,
                    exc,
                )
            )
            continue
        # Every finding is noticed in its site's monthly notice (assets/notices.py): no
        # letter of its own; its deadline and penalty run from that notice's mailing,
        # and only when the mailed letter lists it.
        inspection = f["source_table"] == "swppp_inspection_findings"
        month_day = f["due_by"] if f["due_by"] is not None else f["trigger_date"]
        ref = f"{f['finding']} {f['due_by']:%Y-%m-%d}" if inspection else f["finding"]
        key = (f["site_id"], "inspection" if inspection else "other", ref, month_day)
        monthly_notice = monthly.get((f["site_id"], notice_law.period_of(month_day)))
        _follow_monthly_notice(notice, monthly_notice, key in listed, r, as_of)
        notices.append(notice)
    return notices, not_judged


def _violation(f: dict, site: dict, rain: dict) -> law.Violation:
    """A finding as the law's violation (a storm's with the rain of its day at the site's gauge)."""
    precip = None
    if f["finding"] == "storm":
        precip = rain.get(_gauge_key(site["rain_gauge_id"]), {}).get(f["trigger_date"])
    return law.Violation(
        f["site_id"],
        f["finding"],
        f["trigger_date"],
        f["due_by"],
        f["status"],
        f["satisfied_on"],
        f["days_late"],
        f["rule"] or "",
        f["subject"],
        f["detail"] or "",
        precip,
        f["source_table"],
    )


def _site_record(site: dict) -> law.SiteRecord:
    return law.SiteRecord(
        site["site_id"],
        site["jurisdiction"],
        site["name"],
        site["address"],
        site["applicant"],
        site["construction_start"],
        site["final_stabilization"],
        site["rain_gauge_id"],
        site["owner_name"],
        site["owner_address"],
    )


def _prior_convictions(
    site: dict, jurisdiction: str, convictions: tuple[dict, dict], violation_on: dt.date, r: Rules
) -> int:
    """The applicant's prior convictions under the chapter (those naming the site where no applicant is
    given), counted by the law in effect on the violation's day."""
    by_applicant, by_site_id = convictions
    chapter = r.swppp.convictions.at(violation_on).chapter
    applicant = _person_key(site["applicant"])
    candidates = by_applicant.get(applicant, []) if applicant else by_site_id.get(site["site_id"], [])
    dates = [
        c["offense_on"]
        for c in candidates
        if law.normalize_chapter(c["chapter_number"]) == law.normalize_chapter(chapter)
        and (c["jurisdiction"] is None or c["jurisdiction"] == jurisdiction)
    ]
    return law.count_prior_convictions(dates, violation_on, r)


def _write_letters(con, folder: Path | None, letters: list[dict]) -> None:
    """Write the letters due to be written; the files of the record, whatever day this run judges by, are
    never written again nor removed."""
    if folder is None:
        return
    on_record = {Path(f).name for f in files_on_record(con)}
    for letter in letters:
        if letter.get("write", True) and letter["file_name"] not in on_record:
            write_letter(folder, letter["file_name"], letter["html"])


def _results(con, as_of: dt.date, folder, letters: list[dict], removed, notice_frame: pd.DataFrame):
    """The three assets' results: counts, previews and the letters written."""
    notices_md = {
        "dagster/row_count": count(con, "swppp_notices"),
        "as_of": str(as_of),
        "letters_dir": str(folder) if folder else "(none: in-memory warehouse)",
        "letters_written": len(letters) if folder else 0,
        "stale_letters_removed": removed,
        "not_ready_to_send": int((~notice_frame["contents_complete"].astype(bool)).sum())
        if len(notice_frame)
        else 0,
        "by_jurisdiction_and_offense": MetadataValue.json(
            _counts(notice_frame, "jurisdiction", "offense_number") if len(notice_frame) else {}
        ),
        "preview": MetadataValue.md(preview_markdown(con, "swppp_notices")),
    }
    yield MaterializeResult(asset_key="swppp_notices", metadata=notices_md)
    yield MaterializeResult(
        asset_key="swppp_stop_work_orders",
        metadata={
            "dagster/row_count": count(con, "swppp_stop_work_orders"),
            "preview": MetadataValue.md(preview_markdown(con, "swppp_stop_work_orders")),
        },
    )
    yield MaterializeResult(
        asset_key="swppp_letters",
        metadata={
            "dagster/row_count": count(con, "swppp_letters"),
            "letters_dir": str(folder) if folder else "(none)",
            "files": MetadataValue.json(sorted(letter["file_name"] for letter in letters)[:50]),
        },
    )


@table_check(
    asset="swppp_notices",
    blocking=False,
    description="Every notice carries the six contents the law requires; a notice without the "
    "applicant's name or the site's address is not ready to send (WARN).",
)
def check_completeness_notice_contents(duckdb: DuckDBResource) -> AssetCheckResult:
    rows, total = check_rows(duckdb, sql("check_completeness_notice_contents"), table="swppp_notices")
    return AssetCheckResult(
        passed=not rows,
        severity=AssetCheckSeverity.WARN,
        metadata={
            "notices": total,
            "not_ready_to_send": len(rows),
            "examples": MetadataValue.json([f"{a}: {b}" for a, b in rows[:20]]),
        },
    )
