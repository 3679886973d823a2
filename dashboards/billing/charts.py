"""The billing page's tables and charts: revenue by component, units, and the classes' change."""

from __future__ import annotations

import pandas as pd

from dashboards.billing.data import COMPONENT_LABEL, COMPONENTS, class_label, district_label
from dashboards.html import (
    COLORS,
    Chart,
    esc,
    fmt_pct,
    fmt_usd,
    is_missing,
)


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
