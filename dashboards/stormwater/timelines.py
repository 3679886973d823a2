"""The stormwater page's sites in detail: each site's head, its letters and its chart."""

from __future__ import annotations

import pandas as pd

from dashboards.html import (
    as_frame,
    badge,
    esc,
    fmt_num,
    is_missing,
    join,
    no_data,
    note,
    section,
    slug,
)
from dashboards.notices import period_words
from dashboards.stormwater.chart import site_chart
from dashboards.stormwater.data import STATUS_TONE
from dashboards.stormwater.inspections import _conditions
from dashboards.stormwater.view import StormwaterView


def _site_head(view: StormwaterView, site: pd.Series, letters: str) -> str:
    sid = str(site["site_id"])
    facts = [esc(view.jurisdiction(site.get("jurisdiction")))]
    for label, key in (("address", "address"), ("applicant", "applicant"), ("rain gauge", "rain_gauge_id")):
        if not is_missing(site.get(key)):
            facts.append(f"{label} {esc(site.get(key))}")
    if not is_missing(site.get("disturbed_acres")):
        facts.append(f"{fmt_num(site.get('disturbed_acres'), 1)} acres disturbed")
    facts.append(esc(_conditions(site).replace("none", "no condition met")))
    reason = (
        f'<div class="facts">{esc(site.get("reason"))}</div>' if not is_missing(site.get("reason")) else ""
    )
    return (
        f'<div class="entity-head"><h2>{esc(sid)} · {esc(site.get("name") or "")}</h2>'
        f"{badge(site['status'], STATUS_TONE.get(site['status'], ''))}</div>"
        f'<div class="facts">{" · ".join(facts)}</div>{reason}{letters}'
    )


def _site_letters(view: StormwaterView, sid: str) -> str:
    """The site's monthly notices, each a link to its letter."""
    notices = as_frame(view.data.monthly_notices)
    if notices.empty:
        return ""
    mine = notices[(notices["kind"] == "stormwater") & (notices["recipient_id"] == sid)].sort_values("period")
    if mine.empty:
        return ""
    links = []
    for _, n in mine.iterrows():
        label = esc(f"{period_words(n['period'])} ({n['status']})")
        links.append(
            f'<a href="{esc(n["letter"])}">{label}</a>' if not is_missing(n.get("letter")) else label
        )
    return f'<div class="facts">Notices of violation ({len(links)}): {", ".join(links)}</div>'


def panel_sites_timelines(view: StormwaterView) -> str:
    data, status = view.data, view.status
    if status.empty:
        return section("Site timelines", no_data("sites", data.present.get("sites"), "construction sites"))
    insp_by_site = dict(tuple(view.insp.groupby("site_id"))) if not view.insp.empty else {}
    find_by_site = dict(tuple(view.findings.groupby("site_id"))) if not view.findings.empty else {}
    rain_by_gauge = dict(tuple(view.rain.groupby("gauge_key"))) if not view.rain.empty else {}
    toc = "".join(
        f'<a class="{"bad" if r["status"] in ("overdue", "late") else ""}" '
        f'href="#site-{esc(slug(r["site_id"]))}">'
        f"{esc(r['site_id'])}</a>"
        for _, r in status.iterrows()
    )
    unprinted = [str(s) for s, st in zip(status["site_id"], status["status"]) if st == "not required"]
    paper = "On paper, smaller, the timeline of each site that needs inspections" + (
        f"; the timelines of the {len(unprinted)} sites that need none ({', '.join(unprinted)}) are on "
        f"screen only."
        if unprinted
        else "."
    )
    parts = [
        section(
            "Site timelines",
            f'<div class="toc">{toc}</div>' + note(esc(paper), "info"),
            sid="timelines",
            lead="Each site: daily rain at its gauge with the storm threshold, the inspections made, and "
            "the inspections that were late or are overdue. Green band: the period the site needs "
            "inspections.",
        )
    ]
    empty = pd.DataFrame()
    for _, site in status.iterrows():
        sid = str(site["site_id"])
        gauge = site.get("rain_gauge_id")
        gkey = str(gauge).strip().lower() if not is_missing(gauge) else ""
        chart = site_chart(
            site,
            data,
            rain_by_gauge.get(gkey, empty),
            insp_by_site.get(sid, empty),
            find_by_site.get(sid, empty),
        )
        chart.printed = site["status"] != "not required"
        view.charts.append(chart)
        cls = "site" + ("" if chart.printed else " no-print")
        parts.append(
            f'<section id="site-{esc(slug(sid))}" class="{cls}">'
            f"{_site_head(view, site, _site_letters(view, sid))}{chart.html()}</section>"
        )
    return join(parts)
