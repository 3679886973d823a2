"""The billing page's year: its counts, addresses, districts, classes and largest bills."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from dashboards.billing.charts import (
    _change_pct,
    by_component,
    class_change_chart,
    class_table,
    district_component_table,
    revenue_chart,
    units_chart,
)
from dashboards.billing.data import COMPONENT_LABEL, COMPONENTS, BillingData, class_label, district_label
from dashboards.html import (
    Chart,
    Col,
    Kpi,
    as_frame,
    cited,
    esc,
    fmt_num,
    fmt_pct,
    fmt_signed_usd,
    fmt_usd,
    is_missing,
    kpis,
    law_cited,
    no_data,
    noun,
    section,
    table,
)
from outfall.billing_words import rate_source_word


def _units_text(r: dict) -> str:
    vals = [r.get(f"units_{c}") for c in COMPONENTS]
    if all(not is_missing(v) for v in vals) and len({int(v) for v in vals}) == 1:
        return f"{int(vals[0])} full"
    return " / ".join("" if is_missing(v) else str(int(v)) for v in vals)


def _rate(value: Any) -> str:
    return "" if is_missing(value) else f"${float(value):,.3f}"


def _by(year: Any) -> str:
    """A column header's period: "billing year 2026" (or "the previous billing year")."""
    return f"billing year {year}" if year is not None else "the previous billing year"


@dataclass
class _Year:
    """What every panel of a billed year needs: the year shown, the one before, the sums."""

    year: int
    prev: int | None
    totals: pd.DataFrame
    long: pd.DataFrame
    names: dict[str, str]
    total_now: float
    total_before: float | None
    parcels_now: int
    changed: int | None

    @classmethod
    def of(cls, data: BillingData) -> _Year:
        totals = as_frame(data.totals)
        year = int(data.year)
        prev = int(data.previous_year) if data.previous_year is not None else None
        cur = totals[totals["year"] == year]
        before = totals[totals["year"] == prev] if prev is not None else None
        counts = as_frame(data.change_counts)
        return cls(
            year,
            prev,
            totals,
            by_component(totals),
            data.district_names,
            float(cur["total_usd"].sum()),
            float(before["total_usd"].sum()) if before is not None else None,
            int(cur["parcels"].sum()),
            int(counts["parcels"].sum()) if not counts.empty else None,
        )


def kpi_panel(y: _Year, data: BillingData) -> str:
    """The roll's totals (amounts, not counts) and the one count of the page, the bills lacking an address,
    linked to their list."""
    largest = as_frame(data.largest)
    change = y.total_now - y.total_before if y.total_before is not None else None
    top = largest.iloc[0] if not largest.empty else None
    pct = fmt_pct(_change_pct(y.total_before, y.total_now)) if y.total_before else "no earlier billed year"
    changed = (
        f"; {fmt_num(y.changed)} {noun(y.changed, 'parcel')}' bills changed" if y.changed is not None else ""
    )
    return kpis(
        [
            # whole dollars rounded, as the index states the roll
            Kpi(f"billed, {_by(y.year)}", f"${y.total_now:,.0f}", f"{y.parcels_now:,} parcels"),
            Kpi(
                f"change from {_by(y.prev)}" if y.prev else "previous billing year",
                fmt_signed_usd(round(change)).split(".")[0] if change is not None else "none",
                pct + changed,
                "warn" if change and change > 0 else "",
                "#changes",
            ),
            Kpi(
                f"bills without a full mailing address, {_by(y.year)}",
                fmt_num(len(as_frame(data.addresses))),
                "for the mail merge: listed below, and on the list above",
                "warn" if len(as_frame(data.addresses)) else "good",
                "#addresses",
            ),
            Kpi(
                f"largest bill, {_by(y.year)}",
                fmt_usd(top["total_usd"]) if top is not None else "none",
                " ".join(str(v) for v in (top.get("parcel_id"), top.get("owner")) if not is_missing(v))
                if top is not None
                else "",
                "",
                "#largest",
            ),
        ]
    )


def addresses_panel(y: _Year, data: BillingData) -> str:
    """The bills whose owner's mailing address is not full: the mail merge's gaps, every one of them."""
    frame = as_frame(data.addresses)
    lead = (
        f"{len(frame):,} of the {y.parcels_now:,} bills of {y.year} lack a full mailing address (a name, a "
        "street line, a city, a state and a five- or nine-digit ZIP code), so the register's mail merge "
        "cannot address them: complete them in the parcels file and run again. The register's workbook "
        "lists them too (sheet Addresses to complete)."
        if len(frame)
        else f"Every bill of {y.year} has a full mailing address for the register's mail merge."
    )
    if frame.empty:
        return section("Mailing addresses", "", sid="addresses", lead=esc(lead))
    cols = [
        Col("parcel_id", "Parcel", nowrap=True),
        Col("owner", "Owner"),
        Col("street", "Mailing address"),
        Col("city", "City"),
        Col("state", "State"),
        Col("zip", "ZIP"),
        Col("lacks", "What it lacks"),
    ]
    return section("Mailing addresses", table(frame, cols, whole=True), sid="addresses", lead=esc(lead))


def districts_panel(y: _Year, data: BillingData, charts: list[Chart]) -> str:
    dc = district_component_table(y.long, as_frame(data.rates), y.year, y.prev)
    charts.append(revenue_chart(y.long, y.year, y.prev, y.names))
    dc_html = table(
        dc,
        [
            Col("district", "District", fmt=lambda v: district_label(v, y.names), nowrap=True),
            Col("component", "Component", fmt=lambda v: COMPONENT_LABEL.get(v, v)),
            Col("units_before", f"Units, {_by(y.prev)}", num=True, fmt=fmt_num),
            Col("units_now", f"Units, {_by(y.year)}", num=True, fmt=fmt_num),
            Col("rate_before", f"Rate per unit, {_by(y.prev)}", num=True, fmt=_rate),
            Col("rate_now", f"Rate per unit, {_by(y.year)}", num=True, fmt=_rate),
            Col("amount_before", f"Billed, {_by(y.prev)}", num=True, fmt=fmt_usd),
            Col("amount_now", f"Billed, {_by(y.year)}", num=True, fmt=fmt_usd),
            Col("change", "Change", num=True, fmt=fmt_signed_usd),
            Col("change_pct", "Change (%)", num=True, fmt=fmt_pct),
            Col(
                "rate_source", f"Rate of {_by(y.year)} from", fmt=lambda v: rate_source_word(v, data.rates_by)
            ),
        ],
        table_class="wrap-head",
    )
    if data.rates is None or as_frame(data.rates).empty:
        dc_html = (
            no_data("billing_run_totals", data.present.get("billing_run_totals"), "rates per unit") + dc_html
        )
    years = f"billing years {y.prev} and {y.year}" if y.prev else _by(y.year)
    law = (
        '<div class="law">Law: '
        + cited(
            data.rule_short or law_cited(data.laws, "sewer_rates"),
            "; ".join(r for r in (data.bill_rule, data.rule) if r),
        )
        + "</div>"
    )
    return section(
        f"Revenue by district and component, {years}",
        law + charts[-1].html() + dc_html,
        sid="districts",
        lead="Each amount is the parcel's units times the rate per unit, rounded half-up to the cent.",
    )


def classes_panel(y: _Year, charts: list[Chart]) -> str:
    ct = class_table(y.totals, y.year, y.prev)
    charts.append(units_chart(y.long, y.year))
    charts.append(class_change_chart(ct, y.year, y.prev))
    ct_html = table(
        ct,
        [
            Col("property_class", "Property class", fmt=class_label, nowrap=True),
            Col("parcels", f"Parcels, {_by(y.year)}", num=True, fmt=fmt_num),
            Col("units_bond", f"Bond units, {_by(y.year)}", num=True, fmt=fmt_num),
            Col("units_om", f"Operation and maintenance units, {_by(y.year)}", num=True, fmt=fmt_num),
            Col("units_street_lateral", f"Street lateral units, {_by(y.year)}", num=True, fmt=fmt_num),
            Col("units_house_lateral", f"House lateral units, {_by(y.year)}", num=True, fmt=fmt_num),
            Col("total_before", f"Billed, {_by(y.prev)}", num=True, fmt=fmt_usd),
            Col("total_now", f"Billed, {_by(y.year)}", num=True, fmt=fmt_usd),
            Col("change", "Change", num=True, fmt=fmt_signed_usd),
            Col("change_pct", "Change (%)", num=True, fmt=fmt_pct),
        ],
        table_class="wrap-head",
    )
    return section(
        "Units and revenue by property class",
        f'<div class="cols"><div>{charts[-2].html()}</div><div>{charts[-1].html()}</div></div>' + ct_html,
        sid="classes",
    )


def _why(r: dict) -> str:
    """How the units were counted, with the rule's full text one click away."""
    why = esc(r.get("explanation"))
    rule = r.get("rule")
    return why + (" " + cited("the rule's words", rule) if not is_missing(rule) else "")


def largest_panel(y: _Year, data: BillingData) -> str:
    largest = as_frame(data.largest)
    if largest.empty:
        return section(
            f"Largest bills, {_by(y.year)}",
            no_data("sewer_bills", data.present.get("sewer_bills"), "bills"),
            sid="largest",
        )
    l_html = table(
        largest,
        [
            Col("parcel_id", "Parcel", nowrap=True),
            Col("owner", "Owner"),
            Col("address", "Mailing address"),
            Col("district", "District", fmt=lambda v: district_label(v, y.names)),
            Col("property_class", "Property class", fmt=class_label),
            Col(
                "units",
                "Units: bond / operation and maintenance / street lateral / house lateral",
                nowrap=True,
                html=lambda r: esc(_units_text(r)),
            ),
            Col("total_usd", f"Bill, {_by(y.year)}", num=True, fmt=fmt_usd),
            Col("explanation", "How the units were counted", html=_why),
        ],
        table_class="wrap-head",
    )
    lead = (
        f"The {len(largest):,} largest of the {y.parcels_now:,} bills of billing year {y.year}. Every bill "
        f"is in the register, sewer_register_{y.year}.xlsx (and .csv, ready for a mail merge) in the "
        "billing folder of the exports."
    )
    return section(f"Largest bills, {_by(y.year)}", l_html, sid="largest", lead=esc(lead))
