"""The clerk's billing page: units and revenue by district, component and
property class; the change from the previous billed year; the largest bills
and the biggest changes.

Pure: ``build_billing_page(BillingData) -> (html, PageMeta)``. The asset sums
the register in DuckDB, so the page's inputs stay small at any number of parcels.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pandas as pd

from dashboards.html import (
    COLORS, Chart, Col, Kpi, PageData, PageMeta, as_frame, badge, esc, fmt_date, fmt_datetime, fmt_num, fmt_pct,
    fmt_signed_usd, fmt_usd, is_missing, join, kpis, no_data, note, page, section, short_rule, table,
)

COMPONENTS = ("bond", "om", "street_lateral", "house_lateral")
COMPONENT_LABEL = {"bond": "bond", "om": "operation & maintenance", "street_lateral": "street lateral",
                   "house_lateral": "house lateral"}


def class_label(value: Any) -> str:
    return "" if is_missing(value) else str(value).replace("_", " ")


def district_label(value: Any) -> str:
    return "" if is_missing(value) else str(value).replace("_", " ")


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
    rule: str = ""
    # contract 5.5: water and sewer inspection fees (ch. 301) per year applied for (select_inspection_fee_totals)
    # and the permits the schedule does not cover (permit_id, parcel_id, applied_on, rule)
    fees: pd.DataFrame | None = None
    fees_unpriced: pd.DataFrame | None = None


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


def district_component_table(long: pd.DataFrame, rates: pd.DataFrame, year: int, prev: int | None) -> pd.DataFrame:
    g = long.groupby(["year", "district", "component"], as_index=False)[["units", "amount"]].sum()
    cur = g[g["year"] == year].drop(columns="year")
    out = cur.rename(columns={"units": "units_now", "amount": "amount_now"})
    if prev is not None:
        before = g[g["year"] == prev].drop(columns="year").rename(columns={"units": "units_before",
                                                                           "amount": "amount_before"})
        out = out.merge(before, on=["district", "component"], how="outer")
    else:
        out["units_before"] = None
        out["amount_before"] = None
    if not rates.empty:
        r = rates.copy()
        now = r[r["year"] == year][["district", "component", "rate_per_unit", "rate_source"]].rename(
            columns={"rate_per_unit": "rate_now"})
        out = out.merge(now, on=["district", "component"], how="left")
        if prev is not None:
            b = r[r["year"] == prev][["district", "component", "rate_per_unit"]].rename(
                columns={"rate_per_unit": "rate_before"})
            out = out.merge(b, on=["district", "component"], how="left")
    for col in ("rate_now", "rate_before", "rate_source"):
        if col not in out:
            out[col] = None
    out["change"] = out["amount_now"].fillna(0) - out["amount_before"].fillna(0).astype(float)
    out["change_pct"] = [_change_pct(float(b), float(a)) if not is_missing(b) else None
                         for b, a in zip(out["amount_before"], out["amount_now"].fillna(0))]
    out["_c"] = out["component"].map({c: i for i, c in enumerate(COMPONENTS)})
    return out.sort_values(["district", "_c"]).drop(columns="_c").reset_index(drop=True)


def class_table(totals: pd.DataFrame, year: int, prev: int | None) -> pd.DataFrame:
    t = totals.copy()
    t["units_full"] = t[[f"units_{c}" for c in COMPONENTS]].fillna(0).max(axis=1)
    g = t.groupby(["year", "property_class"], as_index=False).agg(
        parcels=("parcels", "sum"), total=("total_usd", "sum"), units_bond=("units_bond", "sum"),
        units_om=("units_om", "sum"), units_street_lateral=("units_street_lateral", "sum"),
        units_house_lateral=("units_house_lateral", "sum"))
    cur = g[g["year"] == year].drop(columns="year").rename(columns={"total": "total_now"})
    if prev is not None:
        before = g[g["year"] == prev][["property_class", "total", "parcels"]].rename(
            columns={"total": "total_before", "parcels": "parcels_before"})
        cur = cur.merge(before, on="property_class", how="outer")
    else:
        cur["total_before"] = None
        cur["parcels_before"] = None
    cur["total_now"] = cur["total_now"].fillna(0).astype(float)
    cur["change"] = cur["total_now"] - cur["total_before"].fillna(0).astype(float)
    cur["change_pct"] = [_change_pct(float(b), float(a)) if not is_missing(b) else None
                         for b, a in zip(cur["total_before"], cur["total_now"])]
    return cur.sort_values("total_now", ascending=False).reset_index(drop=True)


def revenue_chart(long: pd.DataFrame, year: int, prev: int | None) -> Chart:
    years = [y for y in (prev, year) if y is not None]
    g = long[long["year"].isin(years)].groupby(["district", "year", "component"], as_index=False)["amount"].sum()
    districts = sorted(g["district"].unique())
    xs_d, xs_y = [], []
    for d in districts:
        for y in years:
            xs_d.append(esc(district_label(d)))
            xs_y.append(str(y))
    traces = []
    for c in COMPONENTS:
        vals = []
        for d in districts:
            for y in years:
                v = g[(g["district"] == d) & (g["year"] == y) & (g["component"] == c)]["amount"].sum()
                vals.append(round(float(v), 2))
        traces.append({"type": "bar", "name": COMPONENT_LABEL[c], "x": [xs_d, xs_y], "y": vals,
                       "marker": {"color": COLORS[c]},
                       "hovertemplate": f"%{{x}}<br>{COMPONENT_LABEL[c]}: $%{{y:,.2f}}<extra></extra>"})
    totals = {}
    for d in districts:
        for y in years:
            totals[(d, y)] = float(g[(g["district"] == d) & (g["year"] == y)]["amount"].sum())
    annotations = [{"x": [esc(district_label(d)), str(y)], "y": v, "text": fmt_usd(v).split(".")[0],
                    "showarrow": False, "yanchor": "bottom", "font": {"size": 11}}
                   for (d, y), v in totals.items()]
    layout = {"barmode": "stack", "xaxis": {"type": "multicategory", "title": {"text": "district and billing year"}},
              "yaxis": {"title": {"text": "billed (USD)"}, "tickprefix": "$", "tickformat": ",.0f"},
              "legend": {"orientation": "h", "yref": "container", "y": 1, "yanchor": "top", "x": 0,
                         "traceorder": "normal"},
              "margin": {"l": 90, "r": 20, "t": 50, "b": 80}, "annotations": annotations}
    return Chart("billing-revenue", {"data": traces, "layout": layout},
                 caption="Each bar is one district's sewer roll for the year, stacked by component.", height=430)


def units_chart(long: pd.DataFrame, year: int) -> Chart:
    g = long[long["year"] == year].groupby(["property_class", "component"], as_index=False)["units"].sum()
    order = g.groupby("property_class")["units"].sum().sort_values().index.tolist()
    traces = []
    for c in COMPONENTS:
        part = g[g["component"] == c].set_index("property_class").reindex(order)["units"].fillna(0)
        traces.append({"type": "bar", "orientation": "h", "name": COMPONENT_LABEL[c],
                       "y": [esc(class_label(p)) for p in order], "x": [int(v) for v in part],
                       "marker": {"color": COLORS[c]},
                       "hovertemplate": f"%{{y}}<br>{COMPONENT_LABEL[c]}: %{{x:,}} units<extra></extra>"})
    layout = {"barmode": "stack", "xaxis": {"title": {"text": f"units billed in {year}"}, "tickformat": ",d"},
              "yaxis": {"title": {"text": ""}, "automargin": True},
              "legend": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0,
                         "traceorder": "normal"},
              "margin": {"l": 150, "r": 20, "t": 36, "b": 110}}
    return Chart("billing-units", {"data": traces, "layout": layout},
                 title=f"Units by property class and component, {year}",
                 caption="A full unit is one unit of each of the four components (ch. 253 Part 3); classes "
                         "with partial units (approved lots, vacant land, moratorium, high schools) show it here.",
                 height=166 + 30 * max(3, len(order)))


def class_change_chart(ct: pd.DataFrame, year: int, prev: int | None) -> Chart:
    order = ct.sort_values("total_now")["property_class"].tolist()
    c = ct.set_index("property_class").reindex(order)
    labels = [esc(class_label(p)) for p in order]
    traces = []
    if prev is not None:
        traces.append({"type": "bar", "orientation": "h", "name": str(prev), "y": labels,
                       "x": [round(float(v), 2) if not is_missing(v) else 0 for v in c["total_before"]],
                       "marker": {"color": COLORS["previous"]},
                       "hovertemplate": f"%{{y}}<br>{prev}: $%{{x:,.2f}}<extra></extra>"})
    text = [fmt_pct(p) if not is_missing(p) else "new" if prev is not None else "" for p in c["change_pct"]]
    traces.append({"type": "bar", "orientation": "h", "name": str(year), "y": labels,
                   "x": [round(float(v), 2) for v in c["total_now"]], "marker": {"color": COLORS["current"]},
                   "text": text, "textposition": "outside", "cliponaxis": False,
                   "hovertemplate": f"%{{y}}<br>{year}: $%{{x:,.2f}} (%{{text}})<extra></extra>"})
    layout = {"barmode": "group", "xaxis": {"title": {"text": "billed (USD)"}, "tickprefix": "$",
                                            "tickformat": ",.0f"},
              "yaxis": {"automargin": True},
              "legend": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0,
                         "traceorder": "reversed"},
              "margin": {"l": 150, "r": 70, "t": 36, "b": 100}, "bargap": 0.25}
    return Chart("billing-classes", {"data": traces, "layout": layout},
                 title="Billed by property class" + (f", {prev} vs {year}" if prev else f", {year}"),
                 caption="The label is the change from the previous billed year.",
                 height=146 + (34 if prev else 24) * max(3, len(order)))


def _units_text(r: pd.Series) -> str:
    vals = [r.get(f"units_{c}") for c in COMPONENTS]
    if all(not is_missing(v) for v in vals) and len({int(v) for v in vals}) == 1:
        return f"{int(vals[0])} full"
    return " / ".join("" if is_missing(v) else str(int(v)) for v in vals)


def build_billing_page(data: BillingData) -> tuple[str, PageMeta]:
    meta = PageMeta()
    present = data.present
    totals = as_frame(data.totals)
    body: list[str] = []
    charts: list[Chart] = []
    if totals.empty or data.year is None:
        body.append(section("Sewer roll", no_data("sewer_bills", present.get("sewer_bills"), "bills")))
        body.append(fees_section(data))
        html_text = page(file="billing.html", title="Billing: annual sewer roll",
                         subtitle=esc(f"Woodbury ch. 253 Part 3 sewer units · as of {data.as_of.isoformat()}"),
                         body=join(body), as_of=data.as_of, town=data.town,
                         generated_at=data.generated_at, has_charts=False)
        return html_text, meta
    year, prev = int(data.year), (int(data.previous_year) if data.previous_year is not None else None)
    long = by_component(totals)
    cur = totals[totals["year"] == year]
    before = totals[totals["year"] == prev] if prev is not None else totals.iloc[0:0]
    total_now = float(cur["total_usd"].sum())
    total_before = float(before["total_usd"].sum()) if prev is not None else None
    parcels_now = int(cur["parcels"].sum())
    change = total_now - total_before if total_before is not None else None
    counts = as_frame(data.change_counts)
    changed = int(counts["parcels"].sum()) if not counts.empty else None
    body.append(kpis([
        Kpi(f"billed for {year}", fmt_usd(total_now).split(".")[0], f"{parcels_now:,} parcels"),
        Kpi(f"change from {prev}" if prev else "previous year", fmt_signed_usd(change).split(".")[0]
            if change is not None else "none", fmt_pct(_change_pct(total_before, total_now)) if total_before else
            "no earlier billed year", "warn" if change and change > 0 else ""),
        Kpi("parcels whose bill changed", fmt_num(changed) if changed is not None else "n/a",
            f"from {prev}" if prev else "", "", "#changes"),
        Kpi("largest bill", fmt_usd(as_frame(data.largest)["total_usd"].max()) if not as_frame(data.largest).empty
            else "n/a", "", "", "#largest"),
    ]))

    dc = district_component_table(long, as_frame(data.rates), year, prev)
    charts.append(revenue_chart(long, year, prev))
    dc_html = table(dc, [
        Col("district", "District", fmt=district_label, nowrap=True),
        Col("component", "Component", fmt=lambda v: COMPONENT_LABEL.get(v, v)),
        Col("units_before", f"Units {prev}" if prev else "Units (prev.)", num=True, fmt=fmt_num),
        Col("units_now", f"Units {year}", num=True, fmt=fmt_num),
        Col("rate_before", f"Rate {prev}" if prev else "Rate (prev.)", num=True, fmt=lambda v: f"${float(v):,.3f}"),
        Col("rate_now", f"Rate {year}", num=True, fmt=lambda v: f"${float(v):,.3f}"),
        Col("amount_before", f"Billed {prev}" if prev else "Billed (prev.)", num=True, fmt=fmt_usd),
        Col("amount_now", f"Billed {year}", num=True, fmt=fmt_usd),
        Col("change", "Change", num=True, fmt=fmt_signed_usd),
        Col("change_pct", "%", num=True, fmt=fmt_pct),
        Col("rate_source", "Rate from"),
    ])
    if data.rates is None or as_frame(data.rates).empty:
        dc_html = no_data("billing_run_totals", present.get("billing_run_totals"), "rates per unit") + dc_html
    body.append(section("Revenue by district and component" + (f", {prev} and {year}" if prev else f", {year}"),
                        charts[-1].html() + dc_html, sid="districts",
                        lead=esc(f"Units x rate per unit, rounded half-up to the cent "
                                 f"({short_rule(data.rule, 90) or 'Woodbury ch. 253 Part 3'}).")))

    ct = class_table(totals, year, prev)
    charts.append(units_chart(long, year))
    charts.append(class_change_chart(ct, year, prev))
    ct_html = table(ct, [
        Col("property_class", "Property class", fmt=class_label, nowrap=True),
        Col("parcels", f"Parcels {year}", num=True, fmt=fmt_num),
        Col("units_bond", "Bond units", num=True, fmt=fmt_num), Col("units_om", "O&M units", num=True, fmt=fmt_num),
        Col("units_street_lateral", "Street lat.", num=True, fmt=fmt_num),
        Col("units_house_lateral", "House lat.", num=True, fmt=fmt_num),
        Col("total_before", f"Billed {prev}" if prev else "Billed (prev.)", num=True, fmt=fmt_usd),
        Col("total_now", f"Billed {year}", num=True, fmt=fmt_usd),
        Col("change", "Change", num=True, fmt=fmt_signed_usd), Col("change_pct", "%", num=True, fmt=fmt_pct)])
    body.append(section("Units and revenue by property class",
                        f'<div class="cols"><div>{charts[-2].html()}</div><div>{charts[-1].html()}</div></div>'
                        + ct_html, sid="classes"))

    # largest bills
    largest = as_frame(data.largest)
    if largest.empty:
        l_html = no_data("sewer_bills", present.get("sewer_bills"), "bills")
    else:
        l_html = table(largest, [
            Col("parcel_id", "Parcel", nowrap=True), Col("owner", "Owner"), Col("address", "Address"),
            Col("district", "District", fmt=district_label), Col("property_class", "Class", fmt=class_label),
            Col("units", "Units (bond / O&M / street / house)", html=lambda r: esc(_units_text(r))),
            Col("total_usd", f"Bill {year}", num=True, fmt=fmt_usd), Col("explanation", "Why")])
    body.append(section(f"Largest bills, {year}", l_html, sid="largest", lead=esc(
        f"The {len(largest):,} largest of the {parcels_now:,} bills of {year}. Every bill is in the bill register, "
        f"sewer_register_{year}.xlsx (and .csv) in the billing folder of the exports.") if not largest.empty else ""))

    # biggest changes
    changes = as_frame(data.changes)
    if prev is None:
        c_html = note(f"No earlier billed year to compare {year} with.", "info")
    elif changes.empty:
        c_html = (no_data("bill_changes", present.get("bill_changes"), f"changes from {prev}")
                  if not present.get("bill_changes") else note(f"No bill changed from {prev}.", "info"))
    else:
        summary = ""
        if not counts.empty:
            summary = note("Changes from " + esc(str(prev)) + ": " + ", ".join(
                f"{esc(str(r['change']).replace('_', ' '))} {int(r['parcels']):,}" for _, r in counts.iterrows())
                + ".", "info")
        c_html = summary + table(changes, [
            Col("parcel_id", "Parcel", nowrap=True), Col("owner", "Owner"), Col("address", "Address"),
            Col("change", "Change", html=lambda r: badge(str(r.get("change") or "").replace("_", " "),
                                                         "warn" if (r.get("total_change") or 0) > 0 else "info")),
            Col("class_before", "Class before", fmt=class_label), Col("class_after", "Class now", fmt=class_label),
            Col("total_before", f"Bill {prev}", num=True, fmt=fmt_usd),
            Col("total_after", f"Bill {year}", num=True, fmt=fmt_usd),
            Col("total_change", "Change", num=True, fmt=fmt_signed_usd), Col("detail", "Detail")])
    shown = "" if changes.empty else (
        f"The {len(changes):,} biggest" + (f" of {changed:,} changes" if changed else "")
        + f"; every change is in bill_changes_{year}.csv in the billing folder of the exports. ")
    body.append(section(f"Biggest changes from {prev}" if prev else "Changes", c_html, sid="changes",
                        lead=esc(shown + "The parcels whose bill moved most, up or down: reclassed, units changed, "
                                        "added or removed parcels come first when they are the largest.")))

    runs = as_frame(data.runs)
    if not runs.empty:
        body.append(section("Billing runs", table(runs, [
            Col("year", "Year", num=True), Col("run_id", "Run", num=True),
            Col("run_at", "Run at", fmt=fmt_datetime, nowrap=True), Col("rules_version", "Rules"),
            Col("rate_source", "Rates from"), Col("parcels_billed", "Parcels", num=True, fmt=fmt_num),
            Col("total_usd", "Total", num=True, fmt=fmt_usd),
            Col("run_hash", "Run hash", html=lambda r: f"<code>{esc(str(r.get('run_hash') or '')[:16])}</code>")]),
            sid="runs", lead="Each run that changed a year's register; the hashes chain the runs together."))

    body.append(fees_section(data))

    meta.charts = len(charts)
    meta.counts = {"year": year, "parcels": parcels_now, "fee_years": len(as_frame(data.fees))}
    html_text = page(file="billing.html", title=f"Billing: {year} sewer roll",
                     subtitle=esc(f"Woodbury ch. 253 Part 3 sewer units and rates · billing year {year}"
                                  + (f" compared with {prev}" if prev else "") + f" · as of {data.as_of.isoformat()}"),
                     body=join(body), as_of=data.as_of, town=data.town,
                     generated_at=data.generated_at, has_charts=True)
    return html_text, meta


def fees_section(data: BillingData) -> str:
    """Water and sewer inspection fees (Woodbury ch. 301) per year applied for, and the permits the fee
    schedule does not cover."""
    fees = as_frame(data.fees)
    if data.fees is None or fees.empty:
        html = no_data("inspection_fees", data.present.get("inspection_fees"), "connection permits")
    else:
        html = table(fees.sort_values("year", ascending=False), [
            Col("year", "Year applied", num=True), Col("permits", "Permits", num=True, fmt=fmt_num),
            Col("water_inspections", "Water inspections", num=True, fmt=fmt_num),
            Col("sewer_inspections", "Sewer inspections", num=True, fmt=fmt_num),
            Col("water_fees_usd", "Water fees", num=True, fmt=fmt_usd),
            Col("sewer_fees_usd", "Sewer fees", num=True, fmt=fmt_usd),
            Col("total_usd", "Total", num=True, fmt=fmt_usd),
            Col("not_in_schedule", "Not in the schedule", num=True, fmt=fmt_num)])
        unpriced = as_frame(data.fees_unpriced)
        if not unpriced.empty:
            html += "<h3>Permits with no fee in the schedule</h3>" + table(unpriced, [
                Col("permit_id", "Permit", nowrap=True), Col("parcel_id", "Parcel", nowrap=True),
                Col("applied_on", "Applied on", fmt=fmt_date, nowrap=True), Col("rule", "Why")])
    return section("Water and sewer inspection fees", html, sid="fees",
                   lead="Woodbury Code ch. 301: the fees of the inspections asked for with each building permit, "
                        "totalled by the year applied for. Each year's list is in the register workbook, sheet "
                        "Inspection fees.")
