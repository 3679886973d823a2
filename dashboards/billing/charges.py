"""The billing page's other charges: volume, user bills, surcharges and inspection fees."""

from __future__ import annotations

from typing import Any

import pandas as pd

from dashboards.billing.data import BillingData
from dashboards.html import (
    Col,
    RuleNotes,
    as_frame,
    cited,
    esc,
    fmt_date,
    fmt_num,
    fmt_usd,
    is_missing,
    law_cited,
    no_data,
    section,
    table,
)


def volume_section(data: BillingData) -> str:
    """Sewer charges by the volume of water used (rules volume_charges): every premises and period charged;
    left out where the town charges none."""
    frame = as_frame(data.volume)
    if frame.empty:
        return ""
    rules = RuleNotes("rule-volume")
    total = frame["total_usd"].fillna(0).astype(float).sum()
    html = table(
        frame,
        [
            Col("parcel_id", "Parcel", nowrap=True),
            Col("owner", "Owner"),
            Col("period_start", "From", fmt=fmt_date, nowrap=True),
            Col("period_end", "To", fmt=fmt_date, nowrap=True),
            Col("outside_limits", "Outside the limits", fmt=lambda v: "yes" if v is True else "no"),
            Col("explanation", "How it is charged"),
            Col("total_usd", "Total", num=True, fmt=fmt_usd),
            rules.col("rule", "Rule (section)"),
        ],
    )
    lead = (
        f"{len(frame)} periods charged, {fmt_usd(total)} in all: the volume of water used times the rate of "
        "the period's first day (the period's least charge where that is more), the flat charge of unmetered "
        "premises, and the fixed charges by meter size. A period that cannot be charged as the data stand "
        "is listed on the quarantine page with why."
    )
    return section("Sewer charges by volume", html + rules.notes(), sid="volume", lead=esc(lead))


def user_bills_section(data: BillingData) -> str:
    """The bills of industrial users linked to premises: the premises' charges and the user's surcharges,
    each shown, and their total; left out where no user is linked to premises."""
    frame = as_frame(data.user_bills)
    if frame.empty:
        return ""
    rules = RuleNotes("rule-user-bills")

    def total(r: dict) -> str:
        if r.get("total_usd") is None or pd.isna(r.get("total_usd")):
            return esc(
                f"not computed: a surcharge's amount is {r.get('surcharges_set_by') or 'set elsewhere'}"
            )
        return esc(fmt_usd(r["total_usd"]))

    html = table(
        frame,
        [
            Col("user_id", "Industrial user", nowrap=True),
            Col("name", "Name"),
            Col("parcel_id", "Premises", nowrap=True),
            Col("period_start", "From", fmt=fmt_date, nowrap=True),
            Col("period_end", "To", fmt=fmt_date, nowrap=True),
            Col("fixed_usd", "Fixed charges", num=True, fmt=fmt_usd),
            Col("volume_usd", "Volume charge", num=True, fmt=fmt_usd),
            Col("surcharges_usd", "Surcharges", num=True, fmt=fmt_usd),
            Col("total_usd", "Bill", num=True, html=total),
            Col("explanation", "How it is charged"),
            rules.col("rule", "Rule (section)"),
        ],
    )
    lead = (
        f"{len(frame)} bills of industrial users: the charges of the premises each is linked to, plus its "
        "surcharges of the months the billing period holds, each shown. A surcharge whose amount the law "
        "sets in another document is shown as set there, and the bill's total waits for it."
    )
    return section("Industrial users' bills", html + rules.notes(), sid="user-bills", lead=esc(lead))


def surcharges_section(data: BillingData) -> str:
    """Every surcharge of the run: user, month, what is surcharged, its pounds or gallons and its amount (or
    where the amount is set, or that no rate is adopted); left out where there is none."""
    frame = as_frame(data.surcharges)
    if frame.empty:
        return ""
    rules = RuleNotes("rule-surcharges")

    def what(r: dict) -> str:
        kind = r.get("kind")
        parameter = r.get("parameter")
        words = {
            "pounds": f"{parameter}, by the pound",
            "strength": f"{parameter}, by strength",
            "volume": "per volume of discharge",
            "flow": "by flow",
        }
        return esc(words.get(kind, str(kind)))

    def measure(r: dict) -> str:
        if r.get("kind") == "pounds" and not is_missing(r.get("pounds")):
            above = f" above the {r.get('threshold_kind') or 'limit'}" if r.get("threshold_kind") else ""
            return esc(f"{fmt_num(r['pounds'], 1)} lb{above}")
        if r.get("kind") == "flow" and not is_missing(r.get("gallons_charged")):
            return esc(f"{fmt_num(r['gallons_charged'], 0)} gallons")
        return ""

    def amount(r: dict) -> str:
        if not is_missing(r.get("amount_usd")):
            return esc(fmt_usd(r["amount_usd"]))
        if r.get("amount_set_by"):
            return esc(str(r["amount_set_by"]))
        return esc("no rate adopted")

    html = table(
        frame,
        [
            Col("user_id", "Industrial user", nowrap=True),
            Col("period_start", "Month", fmt=lambda v: fmt_date(v)[:7], nowrap=True),
            Col("kind", "Surcharged", html=what),
            Col("pounds", "Pounds or gallons", num=True, html=measure),
            Col("amount_usd", "Amount", num=True, html=amount),
            rules.col("rule", "Rule (section)"),
        ],
    )
    judged = int(frame["judged"].iloc[0]) if "judged" in frame else len(frame)
    under = judged - len(frame)
    lead = (
        f"{len(frame)} surcharges of wastes stronger than normal sewage (and by flow or volume where the law "
        "says so): an amount the law sets in another document is shown as set there, never as 0; pounds with "
        "no rate adopted are listed and not billed."
        + (
            f" {under} other user-months were judged at or under their threshold: nothing owed."
            if under
            else ""
        )
    )
    return section("Surcharges", html + rules.notes(), sid="surcharges", lead=esc(lead))


def sampling_fees_section(data: BillingData) -> str:
    """The fees of the samples the town took (rules fee_schedules); left out where there are none."""
    frame = as_frame(data.sampling_fees)
    if frame.empty:
        return ""
    rules = RuleNotes("rule-sampling-fees")
    html = table(
        frame,
        [
            Col("user_id", "Industrial user", nowrap=True),
            Col("sample_id", "Sample", nowrap=True),
            Col("collected_date", "Taken on", fmt=fmt_date, nowrap=True),
            Col("items", "Items charged"),
            Col("total_usd", "Total", num=True, fmt=fmt_usd),
            rules.col("rule", "Rule (section)"),
        ],
    )
    lead = f"{len(frame)} samples the town took, each charged by the fee schedule in effect on its day."
    return section("Fees of the town's samples", html + rules.notes(), sid="sampling-fees", lead=esc(lead))


def _fees_listed_in(year: Any, billed: list[int]) -> str:
    """Where a year's permits are listed: its register workbook when the year was billed."""
    if is_missing(year):
        return ""
    year = int(year)
    if year in billed:
        return f"sewer_register_{year}.xlsx, sheet Inspection fees"
    return (
        f"no register for {year} (the year was not billed): inspection_fees.csv in the csv folder of the "
        f"exports"
    )


def fees_section(data: BillingData) -> str:
    """Water and sewer inspection fees (the inspection fee law) per year applied for, and the permits the fee
    schedule does not cover."""
    fees = as_frame(data.fees)
    if data.fees is None or fees.empty:
        html = no_data("inspection_fees", data.present.get("inspection_fees"), "connection permits")
    else:
        html = table(
            fees.sort_values("year", ascending=False),
            [
                Col("year", "Year applied for", num=True),
                Col("permits", "Permits", num=True, fmt=fmt_num),
                Col("water_inspections", "Water inspections", num=True, fmt=fmt_num),
                Col("sewer_inspections", "Sewer inspections", num=True, fmt=fmt_num),
                Col("water_fees_usd", "Water fees", num=True, fmt=fmt_usd),
                Col("sewer_fees_usd", "Sewer fees", num=True, fmt=fmt_usd),
                Col("total_usd", "Total", num=True, fmt=fmt_usd),
                Col("not_in_schedule", "Not in the schedule", num=True, fmt=fmt_num),
                Col(
                    "listed",
                    "Each permit listed in",
                    html=lambda r: esc(_fees_listed_in(r.get("year"), data.billed_years)),
                ),
            ],
        )
        unpriced = as_frame(data.fees_unpriced)
        if not unpriced.empty:
            html += "<h3>Permits with no fee in the schedule</h3>" + table(
                unpriced,
                [
                    Col("permit_id", "Permit", nowrap=True),
                    Col("parcel_id", "Parcel", nowrap=True),
                    Col("owner", "Owner"),
                    Col("applied_on", "Applied on", fmt=fmt_date, nowrap=True),
                    Col(
                        "rule",
                        "Why",
                        html=lambda r: cited(
                            f"not in the fee schedule ({law_cited(data.laws, 'inspection_fees')})",
                            r.get("rule"),
                        ),
                    ),
                ],
            )
    return section(
        "Water and sewer inspection fees",
        html,
        sid="fees",
        lead=esc(
            f"{law_cited(data.laws, 'inspection_fees')}: the fees of the inspections asked for with "
            "each building permit, totalled by the year applied for. Each billing year's register "
            "workbook has a sheet Inspection fees, which says so when that year has none."
        ),
    )
