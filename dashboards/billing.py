"""The clerk's billing page: units and revenue by district, component and
property class; the change from the previous billed year; the largest bills
and the biggest changes; the billing runs; the inspection fees.

Pure: ``build_billing_page(BillingData) -> (html, PageMeta)``, a list of panel
functions. The asset sums the register in DuckDB, so the page's inputs stay
small at any number of parcels. Everything shown is in words: districts by
their names in the rules, classes, changes and rate sources by
:mod:`outfall.billing_words`; money with "$" and thousands separators; every
figure with its billing year; each parcel with its owner; a rule as its short
citation, the full text one click away; the runs' fingerprints only in a block
for the auditor.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from dashboards.html import (
    COLORS,
    Chart,
    Col,
    Kpi,
    PageData,
    PageMeta,
    RuleNotes,
    as_frame,
    badge,
    cited,
    details,
    esc,
    fmt_date,
    fmt_datetime,
    fmt_num,
    fmt_pct,
    fmt_signed_usd,
    fmt_usd,
    is_missing,
    join,
    kpis,
    law_cited,
    no_data,
    note,
    noun,
    page,
    role_name,
    section,
    table,
)
from dashboards.worklist import worklist_panel
from outfall.billing_words import change_word, class_word, district_word, rate_source_word

COMPONENTS = ("bond", "om", "street_lateral", "house_lateral")
COMPONENT_LABEL = {
    "bond": "bond",
    "om": "operation and maintenance",
    "street_lateral": "street lateral",
    "house_lateral": "house lateral",
}


def class_label(value: Any) -> str:
    return class_word(value)


def district_label(value: Any, names: dict[str, str] | None = None) -> str:
    return district_word(value, names or {})


@dataclass
class BillingData(PageData):
    """Frames read from the warehouse (already summed). ``None`` = the table does not exist yet.

    totals: year, district, property_class, parcels, units_<c>, amount_<c>, total_usd (summed sewer_bills)
    largest: the year's largest bills (+ owner, address from parcels)
    changes: the year's biggest changes from the previous billed year (bill_changes or computed)
    change_counts: change, parcels, total_change (the year's bill_changes by kind)
    rates: year, district, component, rate_per_unit, rate_source (billing_run_totals of each year's last run)
    runs: billing_runs of the years shown
    """

    year: int | None = None
    previous_year: int | None = None
    totals: pd.DataFrame | None = None
    largest: pd.DataFrame | None = None
    changes: pd.DataFrame | None = None
    change_counts: pd.DataFrame | None = None
    rates: pd.DataFrame | None = None
    runs: pd.DataFrame | None = None
    worklist: pd.DataFrame | None = None  # the clerk's actions open (table worklist)
    rule: str = ""  # the unit schedule's citation (full)
    rule_short: str = ""  # its short form (the schedule's short_citation)
    bill_rule: str = ""  # how an amount is computed (the billing rule's citation, full)
    district_names: dict[str, str] = field(default_factory=dict)  # the rules' names of the districts
    billed_years: list[int] = field(default_factory=list)  # the years that have a register
    # contract 5.5: water and sewer inspection fees (the inspection fee law) per year applied
    # for (select_inspection_fee_totals) and the permits the schedule does not
    # cover (permit_id, parcel_id, applied_on, rule)
    fees: pd.DataFrame | None = None
    fees_unpriced: pd.DataFrame | None = None
    # the year's bills whose owner's mailing address is not full (register_export.bills_lacking_address):
    # parcel_id, owner, street, city, state, zip, lacks (in words)
    addresses: pd.DataFrame | None = None
    # what the town's rules charge: a unit schedule (sewer_bills), inspection fees; sewer charges by the
    # volume of water used (select_dashboard_volume_charges) and the fees of the town's samples
    # (select_dashboard_sampling_fees), each None until its table exists
    rates_by: str = ""  # who adopts the rates per unit (the rules' billing rule)
    unit_schedule: bool = True
    inspection_fee_law: bool = True
    volume: pd.DataFrame | None = None
    sampling_fees: pd.DataFrame | None = None
    # the surcharges (select_dashboard_surcharges) and the bills of industrial users linked to premises,
    # charges and surcharges each shown (select_dashboard_user_bills)
    surcharges: pd.DataFrame | None = None
    user_bills: pd.DataFrame | None = None


def by_component(totals: pd.DataFrame) -> pd.DataFrame:
    """Long form: year, district, property_class, component, units, amount."""
    if totals.empty:
        return pd.DataFrame(columns=["year", "district", "property_class", "component", "units", "amount"])
    parts = []
    for c in COMPONENTS:
        part = totals[["year", "district", "property_class"]].copy()
        part["component"] = c
        part["units"] = totals[f"units_{c}"].fillna(0).astype(float)
        part["amount"] = totals[f"amount_{c}"].fillna(0).astype(float)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def _change_pct(before: float, after: float) -> float | None:
    if not before:
        return None
    return 100.0 * (after - before) / before


def district_component_table(
    long: pd.DataFrame, rates: pd.DataFrame, year: int, prev: int | None
) -> pd.DataFrame:
    g = long.groupby(["year", "district", "component"], as_index=False)[["units", "amount"]].sum()
    cur = g[g["year"] == year].drop(columns="year")
    out = cur.rename(columns={"units": "units_now", "amount": "amount_now"})
    if prev is not None:
        before = (
            g[g["year"] == prev]
            .drop(columns="year")
            .rename(columns={"units": "units_before", "amount": "amount_before"})
        )
        out = out.merge(before, on=["district", "component"], how="outer")
    else:
        out["units_before"] = None
        out["amount_before"] = None
    if not rates.empty:
        r = rates.copy()
        now = r[r["year"] == year][["district", "component", "rate_per_unit", "rate_source"]].rename(
            columns={"rate_per_unit": "rate_now"}
        )
        out = out.merge(now, on=["district", "component"], how="left")
        if prev is not None:
            b = r[r["year"] == prev][["district", "component", "rate_per_unit"]].rename(
                columns={"rate_per_unit": "rate_before"}
            )
            out = out.merge(b, on=["district", "component"], how="left")
    for col in ("rate_now", "rate_before", "rate_source"):
        if col not in out:
            out[col] = None
    out["change"] = out["amount_now"].fillna(0) - out["amount_before"].fillna(0).astype(float)
    out["change_pct"] = [
        _change_pct(float(b), float(a)) if not is_missing(b) else None
        for b, a in zip(out["amount_before"], out["amount_now"].fillna(0))
    ]
    out["_c"] = out["component"].map({c: i for i, c in enumerate(COMPONENTS)})
    return out.sort_values(["district", "_c"]).drop(columns="_c").reset_index(drop=True)


def class_table(totals: pd.DataFrame, year: int, prev: int | None) -> pd.DataFrame:
    t = totals.copy()
    t["units_full"] = t[[f"units_{c}" for c in COMPONENTS]].fillna(0).max(axis=1)
    g = t.groupby(["year", "property_class"], as_index=False).agg(
        parcels=("parcels", "sum"),
        total=("total_usd", "sum"),
        units_bond=("units_bond", "sum"),
        units_om=("units_om", "sum"),
        units_street_lateral=("units_street_lateral", "sum"),
        units_house_lateral=("units_house_lateral", "sum"),
    )
    cur = g[g["year"] == year].drop(columns="year").rename(columns={"total": "total_now"})
    if prev is not None:
        before = g[g["year"] == prev][["property_class", "total", "parcels"]].rename(
            columns={"total": "total_before", "parcels": "parcels_before"}
        )
        cur = cur.merge(before, on="property_class", how="outer")
    else:
        cur["total_before"] = None
        cur["parcels_before"] = None
    cur["total_now"] = cur["total_now"].fillna(0).astype(float)
    cur["change"] = cur["total_now"] - cur["total_before"].fillna(0).astype(float)
    cur["change_pct"] = [
        _change_pct(float(b), float(a)) if not is_missing(b) else None
        for b, a in zip(cur["total_before"], cur["total_now"])
    ]
    return cur.sort_values("total_now", ascending=False).reset_index(drop=True)


def revenue_chart(
    long: pd.DataFrame, year: int, prev: int | None, names: dict[str, str] | None = None
) -> Chart:
    years = [y for y in (prev, year) if y is not None]
    g = (
        long[long["year"].isin(years)]
        .groupby(["district", "year", "component"], as_index=False)["amount"]
        .sum()
    )
    districts = sorted(g["district"].unique())
    xs_d, xs_y = [], []
    for d in districts:
        for y in years:
            xs_d.append(esc(district_label(d, names)))
            xs_y.append(str(y))
    traces = []
    for c in COMPONENTS:
        vals = []
        for d in districts:
            for y in years:
                v = g[(g["district"] == d) & (g["year"] == y) & (g["component"] == c)]["amount"].sum()
                vals.append(round(float(v), 2))
        traces.append(
            {
                "type": "bar",
                "name": COMPONENT_LABEL[c],
                "x": [xs_d, xs_y],
                "y": vals,
                "marker": {"color": COLORS[c]},
                "hovertemplate": f"%{{x}}<br>{COMPONENT_LABEL[c]}: $%{{y:,.2f}}<extra></extra>",
            }
        )
    totals = {}
    for d in districts:
        for y in years:
            totals[(d, y)] = float(g[(g["district"] == d) & (g["year"] == y)]["amount"].sum())
    annotations = [
        {
            "x": [esc(district_label(d, names)), str(y)],
            "y": v,
            "text": fmt_usd(v).split(".")[0],
            "showarrow": False,
            "yanchor": "bottom",
            "font": {"size": 11},
        }
        for (d, y), v in totals.items()
    ]
    return Chart(
        "billing-revenue",
        {"data": traces, "layout": _revenue_layout(annotations)},
        caption="Each bar is one district's sewer roll for the billing year, stacked by component.",
        height=430,
    )


def _revenue_layout(annotations: list[dict]) -> dict:
    """The revenue chart's axes, legend and margins, with its totals over the bars."""
    return {
        "barmode": "stack",
        "xaxis": {"type": "multicategory", "title": {"text": "district and billing year"}},
        "yaxis": {"title": {"text": "billed (USD)"}, "tickprefix": "$", "tickformat": ",.0f"},
        "legend": {
            "orientation": "h",
            "yref": "container",
            "y": 1,
            "yanchor": "top",
            "x": 0,
            "traceorder": "normal",
        },
        "margin": {"l": 90, "r": 20, "t": 50, "b": 80},
        "annotations": annotations,
    }


def units_chart(long: pd.DataFrame, year: int) -> Chart:
    g = long[long["year"] == year].groupby(["property_class", "component"], as_index=False)["units"].sum()
    order = g.groupby("property_class")["units"].sum().sort_values().index.tolist()
    traces = []
    for c in COMPONENTS:
        part = g[g["component"] == c].set_index("property_class").reindex(order)["units"].fillna(0)
        traces.append(
            {
                "type": "bar",
                "orientation": "h",
                "name": COMPONENT_LABEL[c],
                "y": [esc(class_label(p)) for p in order],
                "x": [int(v) for v in part],
                "marker": {"color": COLORS[c]},
                "hovertemplate": f"%{{y}}<br>{COMPONENT_LABEL[c]}: %{{x:,}} units<extra></extra>",
            }
        )
    layout = {
        "barmode": "stack",
        "xaxis": {"title": {"text": f"units billed, billing year {year}"}, "tickformat": ",d"},
        "yaxis": {"title": {"text": ""}, "automargin": True},
        "legend": {
            "orientation": "h",
            "yref": "container",
            "y": 0,
            "yanchor": "bottom",
            "x": 0,
            "traceorder": "normal",
        },
        "margin": {"l": 150, "r": 20, "t": 36, "b": 110},
    }
    return Chart(
        "billing-units",
        {"data": traces, "layout": layout},
        title=f"Units by property class and component, billing year {year}",
        caption="A full unit is one unit of each of the four components (the unit schedule); classes "
        "with partial units (approved lots, vacant land, moratorium, high schools) show it here.",
        height=166 + 30 * max(3, len(order)),
    )


def class_change_chart(ct: pd.DataFrame, year: int, prev: int | None) -> Chart:
    order = ct.sort_values("total_now")["property_class"].tolist()
    c = ct.set_index("property_class").reindex(order)
    labels = [esc(class_label(p)) for p in order]
    traces = []
    if prev is not None:
        traces.append(
            {
                "type": "bar",
                "orientation": "h",
                "name": f"billing year {prev}",
                "y": labels,
                "x": [round(float(v), 2) if not is_missing(v) else 0 for v in c["total_before"]],
                "marker": {"color": COLORS["previous"]},
                "hovertemplate": f"%{{y}}<br>billing year {prev}: $%{{x:,.2f}}<extra></extra>",
            }
        )
    text = [fmt_pct(p) if not is_missing(p) else "new" if prev is not None else "" for p in c["change_pct"]]
    traces.append(
        {
            "type": "bar",
            "orientation": "h",
            "name": f"billing year {year}",
            "y": labels,
            "x": [round(float(v), 2) for v in c["total_now"]],
            "marker": {"color": COLORS["current"]},
            "text": text,
            "textposition": "outside",
            "cliponaxis": False,
            "hovertemplate": f"%{{y}}<br>billing year {year}: $%{{x:,.2f}} (%{{text}})<extra></extra>",
        }
    )
    layout = {
        "barmode": "group",
        "xaxis": {"title": {"text": "billed (USD)"}, "tickprefix": "$", "tickformat": ",.0f"},
        "yaxis": {"automargin": True},
        "legend": {
            "orientation": "h",
            "yref": "container",
            "y": 0,
            "yanchor": "bottom",
            "x": 0,
            "traceorder": "reversed",
        },
        "margin": {"l": 150, "r": 70, "t": 36, "b": 100},
        "bargap": 0.25,
    }
    return Chart(
        "billing-classes",
        {"data": traces, "layout": layout},
        title="Billed by property class, billing year" + (f"s {prev} and {year}" if prev else f" {year}"),
        caption="The label is the change from the previous billed year." if prev else "",
        height=146 + (34 if prev else 24) * max(3, len(order)),
    )


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


def what_changed(r: dict, names: dict[str, str]) -> str:
    """What moved a parcel's bill besides its amount, in words: class, district, units (the total is said
    once, in its own column)."""
    parts = []
    for label, before, after, word in (
        ("property class", "class_before", "class_after", class_label),
        ("district", "district_before", "district_after", lambda v: district_label(v, names)),
    ):
        b, a = r.get(before), r.get(after)
        if not is_missing(b) and not is_missing(a) and b != a:
            parts.append(f"{label} {word(b)} → {word(a)}")
    for c in COMPONENTS:
        d = r.get(f"units_{c}_change")
        if not is_missing(d) and int(d) != 0:
            parts.append(f"{COMPONENT_LABEL[c]} units {int(d):+d}")
    return "; ".join(parts) or (
        "the rate per unit" if r.get("change") in ("amount_up", "amount_down") else ""
    )


def _bill_move(r: dict) -> str:
    """'$32,394.50 → $33,522.00 (+$1,127.50)': the change, said once."""
    before, after = r.get("total_before"), r.get("total_after")
    text = f"{fmt_usd(before) or 'no bill'} → {fmt_usd(after) or 'no bill'}"
    return text + (
        f" ({fmt_signed_usd(r.get('total_change'))})" if not is_missing(r.get("total_change")) else ""
    )


def changes_panel(y: _Year, data: BillingData) -> str:
    changes = as_frame(data.changes)
    title = f"Biggest changes from {_by(y.prev)} to {y.year}" if y.prev else "Changes"
    if y.prev is None:
        return section(
            title,
            note(f"No earlier billed year to compare billing year {y.year} with.", "info"),
            sid="changes",
        )
    if changes.empty:
        body = (
            no_data("bill_changes", data.present.get("bill_changes"), f"changes from billing year {y.prev}")
            if not data.present.get("bill_changes")
            else note(f"No bill changed from billing year {y.prev}.", "info")
        )
        return section(title, body, sid="changes")
    counts = as_frame(data.change_counts)
    summary = (
        ""
        if counts.empty
        else note(
            esc(
                f"Changes from billing year {y.prev} to {y.year}: "
                + ", ".join(
                    f"{change_word(r['change']).lower()}: {int(r['parcels']):,} parcels"
                    for r in counts.to_dict("records")
                )
                + "."
            ),
            "info",
        )
    )
    c_html = summary + table(
        changes,
        [
            Col("parcel_id", "Parcel", nowrap=True),
            Col("owner", "Owner"),
            Col(
                "change",
                "Change",
                html=lambda r: badge(
                    change_word(r.get("change")), "warn" if (r.get("total_change") or 0) > 0 else "info"
                ),
            ),
            Col("what", "What changed", html=lambda r: esc(what_changed(r, y.names))),
            Col(
                "total_change", f"Bill, {_by(y.prev)} → {y.year}", num=True, html=lambda r: esc(_bill_move(r))
            ),
        ],
    )
    shown = (
        f"The {len(changes):,} biggest"
        + (f" of {y.changed:,} changes" if y.changed else "")
        + f"; every change is in bill_changes_{y.year}.csv in the billing folder of the exports. The parcels "
        "whose bill moved most, up or down: reclassed, units changed, added or removed parcels come first "
        "when they are the largest."
    )
    return section(title, c_html, sid="changes", lead=esc(shown))


def runs_panel(y: _Year, data: BillingData) -> str:
    runs = as_frame(data.runs)
    if runs.empty:
        return ""
    shown = table(
        runs,
        [
            Col("year", "Billing year", num=True),
            Col("run_id", "Billing run", num=True),
            Col("run_at", "Run at (local time)", fmt=fmt_datetime, nowrap=True),
            Col("rules_version", "Rules version"),
            Col("rate_source", "Rates per unit from", fmt=lambda v: rate_source_word(v, data.rates_by)),
            Col("parcels_billed", "Parcels", num=True, fmt=fmt_num),
            Col("total_usd", "Total billed", num=True, fmt=fmt_usd),
        ],
    )
    auditor = details(
        "For the auditor: each run's fingerprint",
        table(
            runs,
            [
                Col("run_id", "Billing run", num=True),
                Col(
                    "run_hash",
                    "sha256 of the run's record and of the run before it",
                    html=lambda r: f"<code>{esc(r.get('run_hash'))}</code>",
                ),
            ],
        ),
    )
    return section(
        "Billing runs",
        shown + auditor,
        sid="runs",
        lead="Each run that changed a billing year's register. Each run's record is chained to the one "
        "before it, so a changed record shows.",
    )


def charges_sections(data: BillingData) -> list[str]:
    """What the page shows beside the unit schedule's roll: the charges by volume, the industrial users'
    bills and their surcharges, the fees of the town's samples and the inspection fees."""
    return [
        volume_section(data),
        user_bills_section(data),
        surcharges_section(data),
        sampling_fees_section(data),
        fees_section(data) if data.inspection_fee_law else "",
    ]


def build_billing_page(data: BillingData) -> tuple[str, PageMeta]:
    meta = PageMeta()
    if as_frame(data.totals).empty or data.year is None:
        roll = section("Sewer roll", no_data("sewer_bills", data.present.get("sewer_bills"), "bills"))
        body = [
            worklist_panel(data.worklist, "clerk", data.as_of, data.laws),
            roll if data.unit_schedule else "",
            *charges_sections(data),
        ]
        what = "sewer units" if data.unit_schedule else "sewer charges"
        return page(
            file="billing.html",
            title=f"{role_name(data.laws, 'clerk')}: "
            + ("the annual sewer roll" if data.unit_schedule else "sewer charges and fees"),
            subtitle=esc(f"{law_cited(data.laws, 'sewer_rates')} {what} · as of {data.as_of.isoformat()}"),
            body=join(body),
            as_of=data.as_of,
            town=data.town,
            laws=data.laws,
            generated_at=data.generated_at,
            has_charts=False,
        ), meta
    y = _Year.of(data)
    charts: list[Chart] = []
    body = [
        worklist_panel(data.worklist, "clerk", data.as_of, data.laws),
        kpi_panel(y, data),
        addresses_panel(y, data),
        districts_panel(y, data, charts),
        classes_panel(y, charts),
        largest_panel(y, data),
        changes_panel(y, data),
        runs_panel(y, data),
        *charges_sections(data),
    ]
    meta.charts = len(charts)
    meta.counts = {"year": y.year, "parcels": y.parcels_now, "fee_years": len(as_frame(data.fees))}
    subtitle = (
        f"{law_cited(data.laws, 'sewer_rates')} sewer units and rates · billing year {y.year}"
        + (f" compared with billing year {y.prev}" if y.prev else "")
        + f" · as of {data.as_of.isoformat()}"
    )
    return page(
        file="billing.html",
        title=f"{role_name(data.laws, 'clerk')}: the sewer roll of billing year {y.year}",
        subtitle=esc(subtitle),
        body=join(body),
        as_of=data.as_of,
        town=data.town,
        laws=data.laws,
        generated_at=data.generated_at,
        has_charts=True,
    ), meta


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
