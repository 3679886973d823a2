"""The sewer administrator's page: per industrial user, control charts of
every limited parameter (limit drawn and labelled with its section, violations
marked, non-detects as open markers at the detection value), the flow trace
with slug events and the baseline, a heat map of violations by user and month,
the compliance summary with permits expiring soon, and a calendar of the testing
required of each user (``dashboards.testing``).

Pure: ``build_sewer_page(SewerData) -> (html, PageMeta)``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from dashboards.html import (
    Chart,
    Col,
    Kpi,
    PageMeta,
    RuleNotes,
    badge,
    day_words,
    esc,
    fmt_date,
    fmt_datetime,
    fmt_measure,
    fmt_num,
    is_missing,
    join,
    judged_nothing,
    kpis,
    law_cited,
    local_naive,
    month_words,
    months_words,
    named,
    no_data,
    none_note,
    note,
    nothing_found,
    noun,
    page,
    role_name,
    section,
    short_name,
    short_rule,
    slug,
    slug_columns,
    table,
    to_date_words,
    units_in_words,
)
from dashboards.notices import notices_table, sewer_follow_up
from dashboards.sewer_control import control_chart, param_label, parameter_order
from dashboards.sewer_flow import FlowInputs, draw_flow_chart, flow_inputs, flow_points_per_user, slug_words
from dashboards.testing import required_testing_section
from dashboards.worklist import worklist_panel
from outfall.rules.judged import Judged


@dataclass
class SewerData:
    """Frames read from the warehouse. ``None`` = the table does not exist yet.

    users: industrial_users (user_id, name, district, address, normal_flow_gpd: the permit's average 24-hour
    flow in normal operation), with the current permit (permit_no, permit_effective, permit_expires) and
    other_permits (every other permit in force, in words: a renewal is a permit of its own, contract 8.2)
    results: one row per lab result: user_id, sample_id, parameter, collected_at, value, nondetect,
        qualifier, unit, sample_type, outcome (compliant | violation | inconclusive | None),
        limit_value, limit_type, exceedance_ratio, rule (of the violation when there is one)
    limits: the limit applied to each result: user_id, parameter, limit_type, limit_value, unit, rule,
        limit_source, collected_at
    violations: discharge_violations; statistic_violations; inconclusive: inconclusive_results
    summary: compliance_summary (per user and month)
    flow: downsampled flow: user_id, constituent, ts (local), value, unit, kind ('mean' | 'slug'),
        bucket_hours
    slugs: slug_events; baselines: user_id, constituent, local_day, baseline, threshold, baseline_source
    gaps: slug_baseline_gaps; snc: snc_determinations
    slug_rules: the slug definitions as applied (table slug_rules: effective_from, effective_to, ratio,
        min_duration_min, rule), for the labels; permit_warn_days / permit_warn_rule: the Town's policy for
        flagging expiring permits in effect on the as-of day (None: none is). Nothing here has a default
        that restates the law: the labels say what the rules and the warehouse say.
    """

    as_of: dt.date
    generated_at: dt.datetime | None = None
    town: str = ""  # whom the page is about (printed atop each paper page)
    laws: dict[str, str] = field(default_factory=dict)  # the laws the page cites (html.law_cited)
    users: pd.DataFrame | None = None
    results: pd.DataFrame | None = None
    limits: pd.DataFrame | None = None
    violations: pd.DataFrame | None = None
    statistic_violations: pd.DataFrame | None = None
    inconclusive: pd.DataFrame | None = None
    summary: pd.DataFrame | None = None
    flow: pd.DataFrame | None = None
    slugs: pd.DataFrame | None = None
    baselines: pd.DataFrame | None = None
    gaps: pd.DataFrame | None = None
    snc: pd.DataFrame | None = None
    slug_rules: pd.DataFrame | None = None
    # days of discharge without a permit (discharges_without_permit) and users whose permit
    # term is not on file (permit_dates_missing)
    without_permit: pd.DataFrame | None = None
    permit_dates_missing: pd.DataFrame | None = None
    permit_warn_days: int | None = None
    permit_warn_rule: str = ""
    # the flow points the page draws in all, shared by the users charted (None: not stated)
    flow_points: int | None = None
    # the monthly notices (table notices) and each violation's follow-up from its notice (sewer_notices)
    notices: pd.DataFrame | None = None
    follow_up: pd.DataFrame | None = None
    # each period of required testing (table required_testing, contract 6.3)
    required_testing: pd.DataFrame | None = None
    # what each person must do next (table worklist): the page opens with the superintendent's
    worklist: pd.DataFrame | None = None
    # what the notices list, by kind of item (kind, item, items)
    notice_items: pd.DataFrame | None = None
    # the notices' items other than a sample's or statistic's result (late reports, testing missed, months
    # without a permit): user_id, period, item, ref, item_on, description, rule, notice_status, issued_on
    other_items: pd.DataFrame | None = None
    present: dict[str, bool] = field(default_factory=dict)  # table -> exists
    # what the rules judge: every statement of "none" goes through it (contract 8.6; Judged(): everything)
    judged: Judged = field(default_factory=Judged)
    municipality: str = "municipality"  # the municipality's kind as a sentence names it ("Town", "City")
    notice_mailing: str = ""  # how the law has a sewer notice served ("certified mail"; "": not stated)


def _frame(frame: pd.DataFrame | None) -> pd.DataFrame:
    return frame if frame is not None else pd.DataFrame()


# ----------------------------------------------------------------------- summary


def user_summary(data: SewerData) -> pd.DataFrame:
    """One row per industrial user: permit, days left, and this year's counts to the as-of month."""
    rows = _registered_rows(_frame(data.users))
    summary = _frame(data.summary)
    as_of = pd.Timestamp(data.as_of)
    if not summary.empty:
        _merge_monthly_summary(rows, summary, pd.Timestamp(dt.date(data.as_of.year, 1, 1)), as_of)
    out = pd.DataFrame(list(rows.values()))
    if out.empty:
        return out
    return _fill_permit_days(out, as_of).sort_values("user_id").reset_index(drop=True)


def _registered_rows(users: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """A row per registered user, by id: its name, district and permit."""
    rows: dict[str, dict[str, Any]] = {}
    for _, u in users.iterrows():
        rows[str(u["user_id"])] = {
            "user_id": str(u["user_id"]),
            "name": u.get("name"),
            "district": u.get("district"),
            "permit_no": u.get("permit_no"),
            "permit_expires": u.get("permit_expires"),
        }
    return rows


def _merge_monthly_summary(
    rows: dict[str, dict[str, Any]], summary: pd.DataFrame, year_start: pd.Timestamp, as_of: pd.Timestamp
) -> None:
    """Into ``rows``: each user's latest permit fields of the monthly summary, and its counts of the year
    to the as-of month (a user with no registration gets a row of its own)."""
    s = summary.copy()
    s["month"] = pd.to_datetime(s["month"])
    ytd = s[(s["month"] >= year_start) & (s["month"] <= as_of)]
    latest = s.sort_values("month").groupby("user_id").last()
    for uid, r in latest.iterrows():
        _take_permit_fields(rows.setdefault(str(uid), {"user_id": str(uid)}), r)
    counts, worst_param = _year_counts(ytd)
    for uid, r in counts.iterrows():
        row = rows.setdefault(str(uid), {"user_id": str(uid)})
        row.update({k: r[k] for k in counts.columns})
        row["worst_parameter"] = worst_param.get(uid)


def _take_permit_fields(row: dict[str, Any], r: pd.Series) -> None:
    """The permit fields of a user's latest summary month, except a blank over a registered value."""
    for key in ("name", "permit_no", "permit_expires", "days_left", "permit_expiry_flag", "permit_status"):
        if key in r.index and not (key in row and not is_missing(row[key]) and is_missing(r[key])):
            row[key] = r[key]


def _year_counts(ytd: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """Per user, the year's counts and worst exceedance, and the parameter of that worst exceedance."""
    counts = ytd.groupby("user_id").agg(
        samples=("samples_taken", "sum"),
        violations=("violations", "sum"),
        statistic_violations=("statistic_violations", "sum"),
        inconclusive=("inconclusive", "sum"),
        slugs=("slugs", "sum"),
        worst=("worst_exceedance_ratio", "max"),
    )
    worst_param = (
        ytd.dropna(subset=["worst_exceedance_ratio"])
        .sort_values("worst_exceedance_ratio")
        .groupby("user_id")["worst_parameter"]
        .last()
    )
    return counts, worst_param


def _fill_permit_days(out: pd.DataFrame, as_of: pd.Timestamp) -> pd.DataFrame:
    """Every count column present; days left for every user; the expiry flag never blank."""
    for col in ("samples", "violations", "statistic_violations", "inconclusive", "slugs"):
        if col not in out:
            out[col] = np.nan
    # users without a compliance_summary row: days left from the permit's expiry date; the flag is the
    # compliance summary's only (the page does not judge permits itself)
    expires = (
        pd.to_datetime(out["permit_expires"])
        if "permit_expires" in out
        else pd.Series(pd.NaT, index=out.index)
    )
    computed = (expires - as_of).dt.days
    out["days_left"] = (
        pd.to_numeric(out["days_left"], errors="coerce").fillna(computed) if "days_left" in out else computed
    )
    flag = out["permit_expiry_flag"] if "permit_expiry_flag" in out else pd.Series(False, index=out.index)
    out["permit_expiry_flag"] = flag.astype(object).where(flag.notna(), False).astype(bool)
    return out


def monthly_violations(data: SewerData) -> pd.DataFrame:
    """user_id, month (Timestamp), violations (per-sample + statistic)."""
    summary = _frame(data.summary)
    if not summary.empty:
        s = summary[["user_id", "month"]].copy()
        s["month"] = pd.to_datetime(summary["month"])
        s["count"] = summary["violations"].fillna(0).astype(int) + summary.get(
            "statistic_violations", pd.Series(0, index=summary.index)
        ).fillna(0).astype(int)
        return s.groupby(["user_id", "month"], as_index=False)["count"].sum()
    parts = []
    v = _frame(data.violations)
    if not v.empty:
        t = local_naive(v["collected_at"])
        parts.append(pd.DataFrame({"user_id": v["user_id"], "month": t.dt.to_period("M").dt.to_timestamp()}))
    sv = _frame(data.statistic_violations)
    if not sv.empty:
        t = pd.to_datetime(sv["period_start"])
        parts.append(pd.DataFrame({"user_id": sv["user_id"], "month": t.dt.to_period("M").dt.to_timestamp()}))
    if not parts:
        return pd.DataFrame(columns=["user_id", "month", "count"])
    allv = pd.concat(parts)
    return allv.groupby(["user_id", "month"], as_index=False).size().rename(columns={"size": "count"})


def _user_label(uid: str, names: dict[str, Any], width: int = 34) -> str:
    name = names.get(uid)
    if is_missing(name):
        return uid
    text = str(name)
    if len(text) > width:
        text = text[: width - 1] + "…"
    return f"{uid} · {text}"


def heatmap_chart(data: SewerData, summary: pd.DataFrame) -> Chart | None:
    monthly = monthly_violations(data)
    users = list(summary["user_id"]) if not summary.empty else []
    users += sorted(set(monthly["user_id"]) - set(users))  # users with violations but no registration
    if not users:
        return None
    names = dict(zip(summary["user_id"], summary["name"])) if not summary.empty and "name" in summary else {}
    if monthly.empty:
        months = [pd.Timestamp(data.as_of).to_period("M").to_timestamp()]
    else:
        months = list(pd.date_range(monthly["month"].min(), monthly["month"].max(), freq="MS"))
    pivot = (
        monthly.pivot_table(index="user_id", columns="month", values="count", aggfunc="sum")
        .reindex(index=users, columns=months)
        .fillna(0)
    )
    totals = pivot.sum(axis=1)
    order = sorted(users, key=lambda u: (-totals.get(u, 0), u))
    z = pivot.reindex(order).to_numpy(dtype=float)
    zmax = max(1.0, float(z.max()) if z.size else 1.0)
    trace = {
        "type": "heatmap",
        "z": z.astype(int).tolist(),
        "x": [m.strftime("%b %Y") for m in months],
        "y": [esc(_user_label(u, names)) for u in order],  # Plotly reads tags in labels: escape
        "text": [[str(int(v)) if v else "" for v in row] for row in z],
        "texttemplate": "%{text}",
        "customdata": [[u] * len(months) for u in order],
        "xgap": 2,
        "ygap": 2,
        "zmin": 0,
        "zmax": zmax,
        "colorscale": [
            [0, "#f8fafc"],
            [0.0001, "#fee2e2"],
            [0.35, "#fca5a5"],
            [0.7, "#ef4444"],
            [1, "#7f1d1d"],
        ],
        "colorbar": {"title": {"text": "violations"}, "thickness": 12},
        "hovertemplate": "%{y}<br>%{x}: %{z} violation(s)<extra>click: the user's charts</extra>",
    }
    layout = {
        "margin": {"l": 250, "r": 20, "t": 20, "b": 60},
        "xaxis": {"title": {"text": "month of the sample (local)"}, "type": "category", "showgrid": False},
        "yaxis": {"autorange": "reversed", "showgrid": False, "type": "category", "ticks": ""},
    }
    return Chart(
        "violations-heatmap",
        {"data": [trace], "layout": layout},
        caption=(
            f"Violations of single samples, daily maximums and monthly averages by the local "
            f"month of the sample, {months_words(months[0], months[-1])}; users with the most "
            f"violations first. Click a row to open that user's control charts."
        ),
        height=90 + 24 * len(order),
        print_height=80 + 18 * len(order),
        click_anchor_prefix="user-",
    )


def flow_chart(
    uid: str,
    data: SewerData,
    flow: pd.DataFrame,
    slugs: pd.DataFrame,
    baselines: pd.DataFrame,
    gaps: pd.DataFrame,
    words: tuple[str, str] | None = None,
) -> Chart | None:
    """One user's flow and probe traces from that user's rows of SewerData.flow, slugs, baselines
    and gaps (frames). ``words``: slug_words(data.slug_rules), when the caller has it already. The
    page splits every meter's rows at once instead (flow_inputs) and calls draw_flow_chart."""
    inputs = flow_inputs(flow, slugs, baselines, gaps).get(uid)
    if inputs is None:
        return None
    return draw_flow_chart(uid, inputs, words if words is not None else slug_words(data.slug_rules))


# ----------------------------------------------------------------------- page: a list of panels

STATISTIC_WORDS = {"daily_max": "daily maximum", "monthly_avg": "monthly average"}
LIMIT_WORDS = {"max": "at most", "min": "at least"}
CRITERION_WORDS = {
    "chronic": "chronic violations",
    "trc": "technical review criteria",
    "late_report": "reports submitted late",
}


def _within(days: int | None) -> str:
    """'within 90 days' (the Town's policy in effect on the as-of day), or what there is without one."""
    return f"within {days} days" if days is not None else "as flagged (no policy in effect on the as-of day)"


def _status_badge(r: pd.Series) -> str:
    days = r.get("days_left")
    if is_missing(days):
        return badge("no expiry date")
    days = int(days)
    if days < 0:
        return badge(f"expired {-days} days ago", "bad")
    if bool(r.get("permit_expiry_flag")):
        return badge(f"expires in {days} days", "warn")
    return badge(f"{days} days left", "good")


def _first_rows(frame: pd.DataFrame) -> dict[Any, pd.Series]:
    """Each user's first row of ``frame`` (by user_id)."""
    if frame.empty or "user_id" not in frame:
        return {}
    firsts = frame.drop_duplicates("user_id")
    return {u: firsts.iloc[i] for i, u in enumerate(firsts["user_id"])}


def when_collected(value: Any) -> str:
    """The local day a sample was collected, with its time when one was given (not midnight)."""
    text = fmt_datetime(value)
    return text[:10] if text.endswith(" 00:00") else text


@dataclass
class SewerView:
    """What the panels share, worked out once: the frames, the users' names, the days the counts cover
    (the first and last sample collected) and the charts drawn so far."""

    data: SewerData
    frames: dict[str, pd.DataFrame]
    summary: pd.DataFrame
    names: dict[Any, Any]
    first: Any = None
    last: Any = None
    charts: list[Chart] = field(default_factory=list)

    def __getattr__(self, name: str) -> pd.DataFrame:
        frames = self.__dict__.get("frames", {})
        if name in frames:
            return frames[name]
        raise AttributeError(name)

    @property
    def period(self) -> str:
        """'January 2025 to November 2026': the months of the samples the counts cover."""
        return months_words(self.first, self.last) or "no sample yet"

    @property
    def ytd(self) -> str:
        return to_date_words(self.data.as_of)

    @property
    def items_period(self) -> str:
        """The months the violations are counted in: the samples' (``period``), widened to every violation
        listed (statistics and the notices' other items)."""
        days = [d for d in (self.first, self.last) if not is_missing(d)]
        if not self.violations.empty:
            days += list(local_naive(self.violations["collected_at"]))
        for frame, column in ((self.statv, "period_end"), (self.other_items, "item_on")):
            if not frame.empty:
                days += list(pd.to_datetime(frame[column]))
        days = [d for d in days if not is_missing(d)]
        return months_words(min(days), max(days)) if days else self.period

    @property
    def violations_total(self) -> int:
        """Every violation the page lists (the violations panel's rows): the items of the notices."""
        return len(self.violations) + len(self.statv) + len(self.other_items)

    @property
    def flow_period(self) -> str:
        """The months of the flow readings: the period the slugs are found in."""
        if self.flow.empty:
            return "no flow reading yet"
        t = local_naive(self.flow["ts"])
        return months_words(t.min(), t.max())

    def user(self, short: bool = True) -> Col:
        """The column of a user: its id (a link to its section) and its name beside it."""

        def cell(r: dict) -> str:
            name = self.names.get(r["user_id"])
            return named(r["user_id"], short_name(name) if short else name, f"#user-{slug(r['user_id'])}")

        return Col("user_id", "User", html=cell, width="24%" if short else "")

    def violations_by_user(self) -> dict[Any, int]:
        """Violations per user: the items of its notices (contract 7.5), as the violations panel lists them:
        single samples, daily maximums and monthly averages, and the other items (reports, testing, days
        without a permit)."""
        counts: dict[Any, int] = {}
        for frame in (self.violations, self.statv, self.other_items):
            if not frame.empty:
                for u, n in frame.groupby("user_id").size().items():
                    counts[u] = counts.get(u, 0) + int(n)
        return counts

    def year_to_date(self) -> tuple[int, int]:
        """(single-sample violations, daily maximum and monthly average violations) of the as-of year: a
        sample's local day, a statistic's first day (as the annual report counts them)."""
        year = self.data.as_of.year
        v, s = self.violations, self.statv
        samples = int((local_naive(v["collected_at"]).dt.year == year).sum()) if not v.empty else 0
        stats = int((pd.to_datetime(s["period_start"]).dt.year == year).sum()) if not s.empty else 0
        return samples, stats


def sewer_view(data: SewerData) -> SewerView:
    names = (
        "users",
        "results",
        "limits",
        "violations",
        "statistic_violations",
        "inconclusive",
        "flow",
        "slugs",
        "baselines",
        "gaps",
        "snc",
        "other_items",
    )
    frames = {n: _frame(getattr(data, n)) for n in names}
    frames["statv"], frames["inconc"] = frames.pop("statistic_violations"), frames.pop("inconclusive")
    summary = user_summary(data)
    names_of = {}
    for frame in (frames["users"], summary):
        if not frame.empty and "name" in frame:
            names_of.update({u: n for u, n in zip(frame["user_id"], frame["name"]) if not is_missing(n)})
    source = frames["results"] if not frames["results"].empty else frames["violations"]
    first = last = None
    if not source.empty:
        t = local_naive(source["collected_at"])
        first, last = t.min(), t.max()
    return SewerView(data, frames, summary, names_of, first, last)


def panel_worklist(view: SewerView) -> str:
    return worklist_panel(view.data.worklist, "superintendent", view.data.as_of, view.data.laws)


def panel_headline(view: SewerView) -> str:
    """The counts of the page, each with the period it covers and linked to the list it counts (the list's
    rows on this page number the card's count); a 0 the rules do not judge reads "not judged" (8.6)."""
    data, summary, judged = view.data, view.summary, view.data.judged
    flagged = summary[summary["permit_expiry_flag"]] if not summary.empty else summary
    slug_users = view.slugs["user_id"].nunique() if not view.slugs.empty else 0
    cards = [
        _violations_card(view),
        Kpi(
            f"inconclusive {noun(len(view.inconc), 'non-detect')}, {view.period}",
            judged.count("limits", len(view.inconc)),
            "detection value above the limit"
            if len(view.inconc)
            else judged.none("limits", "detection value above the limit"),
            "warn" if len(view.inconc) or not judged.judged("limits") else "good",
            "#inconclusive",
        ),
        Kpi(
            f"slug {noun(len(view.slugs), 'event')}, {view.flow_period}",
            judged.count("slugs", len(view.slugs)),
            f"{slug_users} {noun(slug_users, 'user')}"
            if len(view.slugs)
            else judged.none("slugs", "0 users"),
            "bad" if len(view.slugs) else ("good" if judged.judged("slugs") else "warn"),
            "#slugs",
        ),
        _permits_card(view, flagged),
    ]
    if data.snc is not None:
        cards.append(_snc_card(view))
    return kpis(cards)


def _violations_card(view: SewerView) -> Kpi:
    """Every violation the page lists (the items of the notices), by kind; the duties the rules do not judge
    said, and "not judged" in place of a 0 none of them judges."""
    summary, v, statv, judged = view.summary, view.violations, view.statv, view.data.judged
    n_users = int(summary["user_id"].nunique()) if not summary.empty else 0
    by_user = view.violations_by_user()
    total, others = view.violations_total, len(view.other_items)
    duties = ("limits", *OTHER_ITEM_DUTIES.values())
    any_judged = any(judged.judged(d) for d in duties)
    limits = judged.judged("limits")
    counted = [
        f"{fmt_num(len(v))} single {noun(len(v), 'sample')}" if limits or len(v) else "",
        f"{fmt_num(len(statv))} daily maximums or monthly averages" if limits or len(statv) else "",
        f"{fmt_num(others)} other"
        if others or any(judged.judged(d) for d in OTHER_ITEM_DUTIES.values())
        else "",
    ]
    unjudged = judged.reasons(duties)
    said = [
        f"the items of the notices: {', '.join(c for c in counted if c)}" if any(counted) else "",
        f"{len(by_user)} of {n_users} {noun(n_users, 'user')}" if total or any_judged else "",
        unjudged,
    ]
    return Kpi(
        f"{noun(total, 'violation')}, {view.items_period}",
        fmt_num(total) if total or any_judged else "not judged",
        "; ".join(x for x in said if x),
        "bad" if total else ("good" if not unjudged else "warn"),
        "#violation-items",
    )


def _permits_card(view: SewerView, flagged: pd.DataFrame) -> Kpi:
    """The permits expiring (by the rules' policy of a notice of an expiring permit, where they state one)
    or expired."""
    data = view.data
    if data.permit_warn_days is None:  # no policy in effect: only the permits expired are counted
        expired = (
            flagged[pd.to_numeric(flagged["days_left"], errors="coerce") < 0] if len(flagged) else flagged
        )
        return Kpi(
            f"{noun(len(expired), 'permit')} expired",
            fmt_num(len(expired)),
            f"as of {day_words(data.as_of)}; expiring: "
            + data.judged.none("permit_expiry", "no policy in effect on the as-of day"),
            "warn" if len(expired) else "good",
            "#expiring",
        )
    return Kpi(
        f"{noun(len(flagged), 'permit')} expiring {_within(data.permit_warn_days)} or expired",
        fmt_num(len(flagged)),
        f"as of {day_words(data.as_of)}",
        "warn" if len(flagged) else "good",
        "#expiring",
    )


def _snc_card(view: SewerView) -> Kpi:
    """The findings of significant noncompliance: the rows of the section's table (a user, six months and
    a criterion each)."""
    users = view.snc["user_id"].nunique() if not view.snc.empty else 0
    judged = view.data.judged
    return Kpi(
        f"{noun(len(view.snc), 'finding')} of significant noncompliance, {view.period}",
        judged.count("snc", len(view.snc)),
        f"{users} {noun(users, 'user')}, each six months judged on its own"
        if len(view.snc)
        else judged.none("snc", "0 users, each six months judged on its own"),
        "bad" if users else ("good" if judged.judged("snc") else "warn"),
        "#snc",
    )


def _expiring_note(view: SewerView, flagged: pd.DataFrame) -> str:
    items = []
    for _, r in flagged.sort_values("days_left").iterrows():
        days = r.get("days_left")
        when = (
            "expired " + fmt_date(r.get("permit_expires")) + f" ({-int(days)} days ago)"
            if not is_missing(days) and int(days) < 0
            else "expires "
            + fmt_date(r.get("permit_expires"))
            + (f" (in {int(days)} days)" if not is_missing(days) else "")
        )
        items.append(
            f"<li>{named(r['user_id'], r.get('name'), '#user-' + slug(r['user_id']))}: permit "
            f"{esc(r.get('permit_no'))} {esc(when)}</li>"
        )
    rule = view.data.permit_warn_rule
    cite = f" ({esc(short_rule(rule, 40))})" if rule else ""
    return (
        '<div id="expiring">'
        + note(
            f"<strong>Permits expiring {_within(view.data.permit_warn_days)} or expired{cite}:</strong>"
            f"<ul>{''.join(items)}</ul>",
            "warn",
        )
        + "</div>"
    )


def panel_summary(view: SewerView) -> str:
    """One line per user: its permit, and its counts of the year to date beside its violations of the
    period."""
    data, summary = view.data, view.summary
    if summary.empty:
        body = no_data("industrial_users", data.present.get("industrial_users"), "industrial users")
        return section(f"Compliance summary, {view.ytd}", body, sid="summary")
    parts = []
    flagged = summary[summary["permit_expiry_flag"]]
    if not flagged.empty:
        parts.append(_expiring_note(view, flagged))
    if data.summary is None or _frame(data.summary).empty:
        parts.append(
            no_data(
                "compliance_summary",
                data.present.get("compliance_summary"),
                "counts per user (permit dates shown from industrial_users)",
            )
        )
    parts.append(table(_summary_order(view), _summary_cols(view), row_class=_summary_row_class))
    unjudged = data.judged.reasons(("limits", "slugs"))
    if unjudged:
        parts.append(note(esc(unjudged[:1].upper() + unjudged[1:] + "."), "warn"))
    lead = (
        f"Counts of {view.ytd}, and in the last column every violation of {view.items_period}: the items "
        f"of its notices, as the violations below list them (the count on each user's chip below); permit "
        f"status as of {day_words(data.as_of)}."
    )
    return section(f"Compliance summary, {view.ytd}", join(parts), sid="summary", lead=esc(lead))


def _summary_order(view: SewerView) -> pd.DataFrame:
    """The users with their violations of the period, expiring permits first, then the most violations."""
    summary = view.summary
    return summary.assign(
        _v=summary["violations"].fillna(0) + summary["statistic_violations"].fillna(0),
        period_violations=summary["user_id"].map(view.violations_by_user()).fillna(0),
    ).sort_values(["permit_expiry_flag", "_v", "user_id"], ascending=[False, False, True])


def _worst_words(r: dict) -> str:
    """A user's worst exceedance of the year: '1.50 × the limit, <parameter>' (blank for none)."""
    if is_missing(r.get("worst")):
        return ""
    parameter = f"{param_label(r.get('worst_parameter'))}" if not is_missing(r.get("worst_parameter")) else ""
    return esc(f"{float(r['worst']):.2f} × the limit, " + parameter)


def _summary_row_class(r: dict) -> str:
    """A user with violations in red; one whose permit is expiring in amber."""
    if (r.get("violations") or 0) + (r.get("statistic_violations") or 0) > 0:
        return "row-bad"
    return "row-warn" if r.get("permit_expiry_flag") else ""


def _summary_cols(view: SewerView) -> list[Col]:
    """The columns of the compliance summary: a count of 0 of a duty the rules do not judge reads "not
    judged" (contract 8.6)."""
    count = lambda v: fmt_num(v)  # noqa: E731

    def of(*duties: str):
        judged = view.data.judged
        stated = any(judged.judged(d) for d in duties)
        return lambda v: fmt_num(v) if stated or (not is_missing(v) and v) else "not judged"

    return [
        Col(
            "user_id",
            "User",
            width="26%",
            html=lambda r: named(r["user_id"], view.names.get(r["user_id"]), f"#user-{slug(r['user_id'])}"),
        ),
        Col("permit_no", "Permit", html=lambda r: esc(r.get("permit_no")) + " " + _status_badge(r)),
        Col("permit_expires", "Expires", nowrap=True, fmt=fmt_date),
        Col("samples", "Samples", fmt=count, num=True),
        Col("violations", "Single-sample violations", fmt=of("limits"), num=True),
        Col(
            "statistic_violations", "Daily maximum or monthly average violations", fmt=of("limits"), num=True
        ),
        Col("inconclusive", "Inconclusive", fmt=of("limits"), num=True),
        Col("slugs", "Slugs", fmt=of("slugs"), num=True),
        Col("worst", "Worst exceedance", html=_worst_words),
        Col(
            "period_violations",
            f"All violations, {view.items_period}",
            fmt=of("limits", *OTHER_ITEM_DUTIES.values()),
            num=True,
        ),
    ]


def panel_heatmap(view: SewerView) -> str:
    data = view.data
    hm = heatmap_chart(data, view.summary) if not view.summary.empty or not view.violations.empty else None
    title = f"Violations by user and month, {view.period}"
    if hm is None:
        return section(
            title, no_data("discharge_violations", data.present.get("discharge_violations"), "violations")
        )
    view.charts.append(hm)
    extra = ""
    if (data.summary is None or _frame(data.summary).empty) and view.violations.empty:
        extra = no_data("discharge_violations", data.present.get("discharge_violations"), "violations")
    return section(title, extra + hm.html(), sid="heatmap")


def _notice_of(view: SewerView) -> dict[tuple, dict]:
    """Each violation's notice (its month, status and mailing day), by user, sample and parameter."""
    follow = _frame(view.data.follow_up)
    if follow.empty:
        return {}
    keys = zip(follow["user_id"], follow["sample_id"], follow["parameter"])
    return {k: r for k, r in zip(keys, follow.to_dict("records"))}


def notice_words(r: dict | None) -> str:
    """'March 2026, draft'; 'April 2026, mailed 2026-05-03'; blank when the violation has no notice."""
    if not r or is_missing(r.get("notice_period")):
        return ""
    month = month_words(pd.Timestamp(f"{r['notice_period']}-01"))
    status = str(r.get("notice_status") or "")
    if status == "mailed" and not is_missing(r.get("issued_on")):
        return f"{month}, mailed {fmt_date(r['issued_on'])}"
    if status == "not_drafted":  # the rules do not say how to issue a notice (contract 8.6)
        return f"{month}, none drafted"
    return f"{month}, {status}"


def violations_table(view: SewerView, rules: RuleNotes) -> str:
    """Every single-sample violation, a table per user (most violations first), newest first, each with its
    notice."""
    v, data = view.violations, view.data
    if v.empty:
        if data.judged.judged("limits") and view.results.empty:
            return no_data("discharge_violations", data.present.get("discharge_violations"))
        return judged_nothing(
            data.judged, "limits", "discharge_violations", data.present, "No sample broke a limit."
        )
    notices = _notice_of(view)
    cols = [
        Col("collected_at", "Collected", nowrap=True, fmt=when_collected),
        Col("sample_id", "Sample", nowrap=True),
        Col("parameter", "Parameter", fmt=param_label),
        Col(
            "value",
            "Result",
            num=True,
            html=lambda r: esc(fmt_measure(r["value"], r.get("unit"), exact=True)),
        ),
        Col(
            "limit_value",
            "Limit",
            num=True,
            html=lambda r: esc(
                (
                    f"{r.get('limit_type') or ''} {fmt_measure(r['limit_value'], r.get('unit'), exact=True)}"
                ).strip()
            ),
        ),
        Col("exceedance_ratio", "× limit", num=True, fmt=lambda x: f"{float(x):.2f}×"),
        rules.col("rule", "Rule (section)", limit=32),
    ]
    if notices:
        cols.append(
            Col(
                "notice",
                "Notice of the month",
                nowrap=True,
                html=lambda r: esc(notice_words(notices.get((r["user_id"], r["sample_id"], r["parameter"])))),
            )
        )
    counts = v.groupby("user_id").size().sort_values(ascending=False, kind="stable")
    order = sorted(counts.index, key=lambda u: (-counts[u], str(u)))
    parts = []
    for u, rows in ((u, v[v["user_id"] == u]) for u in order):
        n = len(rows)
        parts.append(
            f'<h4 class="of-user">{named(u, view.names.get(u), f"#user-{slug(u)}")}: {n} single '
            f"sample{'s' if n != 1 else ''}</h4>"
        )
        parts.append(table(rows.sort_values("collected_at", ascending=False), cols))
    return join(parts)


def statistics_table(view: SewerView, rules: RuleNotes) -> str:
    statv, present = view.statv, view.data.present
    if statv.empty:
        return judged_nothing(view.data.judged, "limits", "statistic_violations", present, "None.")

    def period(r: dict) -> str:
        if r.get("statistic") == "monthly_avg":
            return month_words(r["period_start"])
        return (
            fmt_date(r["period_start"])
            if fmt_date(r["period_start"]) == fmt_date(r["period_end"])
            else f"{fmt_date(r['period_start'])} to {fmt_date(r['period_end'])}"
        )

    return table(
        statv.sort_values("period_start", ascending=False),
        [
            view.user(),
            Col("parameter", "Parameter", fmt=param_label),
            Col("statistic", "Of", nowrap=True, fmt=lambda x: STATISTIC_WORDS.get(str(x), str(x))),
            Col("period_start", "Period", nowrap=True, html=lambda r: esc(period(r))),
            Col("value", "Value", num=True, html=lambda r: esc(fmt_measure(r["value"], r.get("unit")))),
            Col(
                "limit_value",
                "Limit",
                num=True,
                html=lambda r: esc(fmt_measure(r["limit_value"], r.get("unit"), exact=True)),
            ),
            Col("samples", "Samples", num=True),
            rules.col("rule", "Rule (section)"),
        ],
    )


def inconclusive_table(view: SewerView, rules: RuleNotes) -> str:
    inconc, present = view.inconc, view.data.present
    if inconc.empty:
        return judged_nothing(view.data.judged, "limits", "inconclusive_results", present, "None.")
    return table(
        inconc.sort_values("collected_at", ascending=False),
        [
            view.user(),
            Col("collected_at", "Collected", nowrap=True, fmt=when_collected),
            Col("sample_id", "Sample", nowrap=True),
            Col("parameter", "Parameter", fmt=param_label),
            Col(
                "detection_value",
                "Reported",
                num=True,
                html=lambda r: esc(
                    f"{r.get('qualifier') or '<'}"
                    f"{fmt_measure(r['detection_value'], r.get('unit'), exact=True)}"
                ),
            ),
            Col(
                "limit_value",
                "Limit",
                num=True,
                html=lambda r: esc(fmt_measure(r["limit_value"], r.get("unit"), exact=True)),
            ),
            Col("reason", "Why"),
            rules.col("rule", "Rule"),
        ],
    )


def panel_violations(view: SewerView) -> str:
    """Which user broke which limit, when, by how much and under which section."""
    rules = RuleNotes("rule-violations")
    body = join(
        [
            '<div id="violation-items">',  # the items of the notices: the list the violations card counts
            '<h3 id="violations">Single samples above (or below) their limit</h3>',
            violations_table(view, rules),
            '<h3 id="statistic">Daily maximums and monthly averages above their limit</h3>',
            statistics_table(view, rules),
            '<h3 id="other-items">Reports, testing and permits</h3>',
            other_items_table(view, rules),
            "</div>",
            '<div id="inconclusive"><h3>Inconclusive non-detects (not violations)</h3>',
            inconclusive_table(view, rules),
            "</div>",
            rules.notes(),
        ]
    )
    lead = (
        f"Every violation of {view.items_period}, {fmt_num(view.violations_total)} in all, newest first: "
        "each is an item of the notice of its month. Which user broke which limit, when, by how much and "
        "under which section (numbered: the full text of each section is at the end); then the reports "
        "late or missing, the testing missed and the months of discharging without a permit."
    )
    return section(f"Violations, {view.items_period}", body, sid="findings", lead=esc(lead))


# The other items of a notice, as the violations list names them in one line each.
OTHER_ITEM_WORDS = {
    "late_report": "report late or missing",
    "missed_testing": "testing missed",
    "no_permit": "month without a permit",
}
# The duty of the rules that judges each (contract 8.6: "no ..." only where it is judged).
OTHER_ITEM_DUTIES = {"late_report": "reports", "missed_testing": "testing", "no_permit": "permits"}


def other_items_table(view: SewerView, rules: RuleNotes) -> str:
    """The notices' items other than a result over its limit: what, when, and the notice that lists it."""
    items = view.other_items
    if items.empty:
        judged = view.data.judged
        return "".join(
            none_note(judged, OTHER_ITEM_DUTIES[k], f"No {w}.") for k, w in OTHER_ITEM_WORDS.items()
        )
    cols = [
        view.user(),
        Col("item_on", "Day", nowrap=True, fmt=fmt_date),
        Col(
            "item", "What", nowrap=True, fmt=lambda x: OTHER_ITEM_WORDS.get(str(x), str(x).replace("_", " "))
        ),
        Col(  # on paper the row is one line: what, when, the rule and the notice (the letter says the rest)
            "description", "Found", html=lambda r: esc(units_in_words(r.get("description"))), screen_only=True
        ),
        rules.col("rule", "Rule (section)", limit=32),
        Col(
            "period",
            "Notice of the month",
            nowrap=True,
            html=lambda r: esc(
                notice_words(
                    {
                        "notice_period": r.get("period"),
                        "notice_status": r.get("notice_status"),
                        "issued_on": r.get("issued_on"),
                    }
                )
            ),
        ),
    ]
    return table(items, cols)


def panel_slugs(view: SewerView) -> str:
    rules = RuleNotes("rule-slugs")
    parts = ['<div id="slugs"><h3>Slug events</h3>', _slug_table(view, rules), "</div>"]
    if not view.gaps.empty:
        parts.append('<h3 id="baseline-gaps">Readings not judged for slugs (no baseline)</h3>')
        parts.append(_baseline_gap_table(view))
    parts.append(rules.notes())
    words, _ = slug_words(view.data.slug_rules)
    return section(
        f"Slug discharges, {view.flow_period}",
        join(parts),
        sid="slug-section",
        lead=esc(f"A slug: {words}. Peaks and baselines in the meter's unit (gpm: gallons per minute)."),
    )


def _slug_table(view: SewerView, rules: RuleNotes) -> str:
    """The slug events, newest first (or why there are none)."""
    slugs, present = view.slugs, view.data.present
    if slugs.empty:
        return judged_nothing(
            view.data.judged, "slugs", "slug_events", present, "No slug discharge detected."
        )
    return table(
        slugs.sort_values("start_at", ascending=False),
        [view.user(), *slug_columns(), rules.col("rule", "Rule")],
    )


def _baseline_gap_table(view: SewerView) -> str:
    """The days of meter readings not judged for slugs, for want of a baseline."""
    return table(
        view.gaps,
        [
            view.user(),
            Col("constituent", "Of"),
            Col("first_day", "From", nowrap=True, fmt=fmt_date),
            Col("last_day", "To", nowrap=True, fmt=fmt_date),
            Col("days_lacking", "Days", num=True),
            Col("readings_not_judged", "Readings not judged", num=True, fmt=fmt_num),
            Col("reason", "Why"),
        ],
    )


def _snc_count(r: dict) -> str:
    if r.get("criterion") == "late_report":
        return f"{int(r['count'])} of {int(r['measurements'])} reports due ({float(r['pct']):.0f}%)"
    what = SNC_BASIS_LABELS.get(str(r.get("basis")), "measurements")
    return f"{int(r['count'])} of {int(r['measurements'])} {what} ({float(r['pct']):.0f}%)"


def panel_snc(view: SewerView) -> str:
    if view.data.snc is None:
        return ""
    snc = view.snc
    rules = RuleNotes("rule-snc")
    judged = view.data.judged
    if not judged.judged("snc"):
        return section(
            f"Significant noncompliance, {view.period}",
            none_note(judged, "snc", "No user meets a criterion of significant noncompliance."),
            sid="snc",
        )
    if snc.empty:
        body = none_note(judged, "snc", "No user meets a criterion of significant noncompliance.")
    else:
        body = (
            table(
                snc.sort_values(["period_start", "user_id"], ascending=[False, True]),
                [
                    view.user(),
                    Col(
                        "period_start",
                        "Six months",
                        nowrap=True,
                        html=lambda r: esc(months_words(r["period_start"], r["period_end"])),
                    ),
                    Col(
                        "criterion",
                        "Criterion",
                        html=lambda r: badge(
                            CRITERION_WORDS.get(str(r.get("criterion")), str(r.get("criterion"))), "bad"
                        ),
                    ),
                    Col("parameter", "Parameter", fmt=param_label),
                    Col("count", "How many", html=lambda r: esc(_snc_count(r))),
                    rules.col("rule", "Rule", limit=26),
                ],
            )
            + rules.notes()
        )
    lead = (
        "40 CFR 403.8(f)(2)(viii), per user and six-month period (January to June, July to December). Single "
        "samples, daily maximums and monthly averages are each judged on their own; each criterion's rule is "
        "in full at the end of the section."
    )
    return section(f"Significant noncompliance, {view.period}", body, sid="snc", lead=esc(lead))


def panel_permits(view: SewerView) -> str:
    parts = permit_parts(view)
    if not parts:
        return ""
    return section(
        "Discharging without a permit",
        join(parts),
        sid="without-permit",
        lead=esc(
            f"Days with a sample or a flow reading above 0 when the user's permit was not in effect, "
            f"{view.period}."
        ),
    )


def panel_notices(view: SewerView) -> str:
    """The monthly notices of violation, and the follow-up of each violation on a mailed notice."""
    judged = view.data.judged
    body = join(
        [
            '<h3 id="notices">Notices, one per user and month</h3>',
            notices_table(
                view.data.notices,
                "sewer",
                "User",
                view.names,
                view.data.notice_items,
                judged=judged,
                found=view.violations_total,
            ),
            '<h3 id="follow-up">Follow-up of the violations on mailed notices</h3>',
            sewer_follow_up(
                view.data.follow_up, view.names, law_cited(view.data.laws, "sewer_penalty"), judged=judged
            ),
        ]
    )
    return section(
        "Notices of violation and follow-up", body, sid="notices-section", lead=esc(_notices_lead(view))
    )


def _notices_lead(view: SewerView) -> str:
    """How the rules have a notice served, its period to correct and its penalty days counted, each only as
    the rules state it (contract 8.7, 8.8); the municipality's record, not sent to the user."""
    data, judged = view.data, view.data.judged
    record = f"The {data.municipality}'s record, not sent to the user."
    if not judged.judged("sewer_notices"):
        return (
            f"{judged.reason('sewer_notices')}: the violations are listed, and no notice is drafted. {record}"
        )
    by = f" by {data.notice_mailing}" if data.notice_mailing else ""
    law = law_cited(data.laws, "sewer_use")
    if not judged.judged("sewer_correction"):
        return f"{law}, enforcement: a notice{by}; {judged.reason('sewer_correction')}. {record}"
    return (
        f"{law}, enforcement: a notice{by} sets a period to correct; {law_cited(data.laws, 'sewer_penalty')} "
        f"penalty days count from the day after it. {record}"
    )


def panel_testing(view: SewerView) -> str:
    return required_testing_section(
        view.data.required_testing,
        view.data.as_of,
        view.data.present.get("required_testing"),
        view.data.judged,
    )


def year_to_date_users(view: SewerView) -> tuple[set, set]:
    """(the users with a violation: single sample, daily maximum or monthly average; the users with a slug)
    in the as-of year: on paper, their control charts and their flow traces print."""
    year = view.data.as_of.year

    def users(frame: pd.DataFrame, column: str, local: bool = True) -> set:
        if frame.empty:
            return set()
        t = local_naive(frame[column]) if local else pd.to_datetime(frame[column])
        return set(frame.loc[(t.dt.year == year).to_numpy(), "user_id"])

    return (
        users(view.violations, "collected_at") | users(view.statv, "period_start", local=False),
        users(view.slugs, "start_at"),
    )


def _user_ids(view: SewerView) -> list:
    ids = set(view.summary["user_id"]) if not view.summary.empty else set()
    for frame in (view.results, view.flow):
        if not frame.empty:
            ids |= set(frame["user_id"])
    return sorted(ids)


def users_with_findings(view: SewerView) -> set:
    """The users the page has a finding of: a violation (an item of its notices), a slug, an inconclusive
    result or significant noncompliance. Only they are charted (a region's 2,000 meters, each charted, made
    a page of 127 MB); the others are one table."""
    if _frame(view.data.summary).empty:
        return set(_user_ids(view))  # nothing judged yet: no user can be said to be without findings
    found = set(view.violations_by_user())
    for frame in (view.slugs, view.inconc, view.snc):
        if not frame.empty:
            found |= set(frame["user_id"])
    return found


def panel_users(view: SewerView) -> str:
    """The users' chips, then each user with findings in a section of its own (its facts, control charts
    and flow trace), then the users without findings in one table."""
    data = view.data
    everyone = _user_ids(view)
    found = users_with_findings(view)
    user_ids = [u for u in everyone if u in found]
    by_user = view.violations_by_user()
    toc = "".join(
        f'<a class="{"bad" if by_user.get(u) else ""}" href="#user-{esc(slug(u))}">{esc(u)}'
        f"{(' ' + esc(short_name(view.names[u], 24))) if u in view.names else ''}"
        f"{(' · ' + str(by_user[u])) if by_user.get(u) else ''}</a>"
        for u in everyone
    )
    with_violations, with_slugs = year_to_date_users(view)
    printed = [u for u in user_ids if u in with_violations or u in with_slugs]
    rest = [u for u in user_ids if u not in printed]
    paper = (
        f"On paper, smaller: the control charts of the {len(with_violations)} users with a violation in "
        f"{view.ytd}, and the flow traces of the {len(with_slugs)} users with a slug in it. "
        + (
            f"The other {len(rest)} users' charts ({', '.join(rest)}) are on screen only, under their names "
            f"here, as are the charts of the printed users that had no violation or no slug in the year."
            if rest
            else "The others are on screen only, under their names here."
        )
    )
    reading = (
        '<p class="print-only">How to read the charts on paper: in the control charts each dot is a '
        "result in time order, red dots break the limit, open grey circles are non-detects drawn at their "
        "detection value, orange diamonds are non-detects whose detection value is above the limit "
        "(inconclusive), and the dashed line is the limit in effect, labelled with its value (its section is "
        "listed with the violations). In the flow traces the blue line is the mean of the readings, red the "
        "readings near each slug, the green line the baseline and the dashed line the slug threshold; the "
        "triangle marks each slug's peak, with how many times the baseline it reached.</p>"
    )
    head = section(
        "Industrial users",
        (
            f'<div class="toc">{toc}</div>'
            if toc
            else no_data("industrial_users", data.present.get("industrial_users"), "industrial users")
        )
        + note(esc(paper), "info")
        + reading,
        sid="users",
        lead=esc(
            f"The control charts and flow trace of each of the {len(user_ids)} users with findings (a "
            f"violation, a slug, an inconclusive result or significant noncompliance); the other "
            f"{len(everyone) - len(user_ids)} are listed together after them. Red: users with violations; "
            f"the count after the name is of all its violations, {view.items_period}."
            + _flow_share_words(view.data.flow_points, len(_flow_users(view, user_ids)))
        ),
    )
    inputs = user_chart_inputs(view)
    sections = join(user_section(view, u, inputs, u in with_violations, u in with_slugs) for u in user_ids)
    return head + sections + users_without_findings(view, [u for u in everyone if u not in found], inputs)


def _flow_users(view: SewerView, user_ids: list) -> set:
    """The users charted that have flow or probe readings: they share the page's flow points."""
    have = set(view.flow["user_id"]) if not view.flow.empty else set()
    return {u for u in user_ids if u in have}


def _flow_share_words(points: int | None, users: int) -> str:
    """How the flow traces' points are shared, in words (nothing when no trace is drawn)."""
    if not points or not users:
        return ""
    share = fmt_num(flow_points_per_user(points, users))
    who = f"{fmt_num(users)} {noun(users, 'user')}"
    how = "the mean of as many hours as that takes, an hour at the finest, a week at the coarsest"
    return (
        f" The flow traces draw at most {fmt_num(points)} points in all, {share} for each of the {who} with "
        f"readings (shared among its meters and probes): each point is {how}, as said under each trace; "
        "near each slug every reading is drawn."
    )


def users_without_findings(view: SewerView, quiet: list, inputs: UserChartInputs) -> str:
    """The users with no finding, one row each (its anchor is the row): no chart of theirs is drawn."""
    if not quiet:
        return ""
    rows = []
    for u in quiet:
        urow, srow = inputs.users.get(u), inputs.summary.get(u)
        get = lambda row, key: None if row is None else row.get(key)  # noqa: E731
        rows.append(
            {
                "user_id": u,
                "address": get(urow, "address"),
                "permit_no": get(urow, "permit_no"),
                "permit_expires": get(urow, "permit_expires"),
                "samples": get(srow, "samples"),
                "normal_flow_gpd": get(urow, "normal_flow_gpd"),
                "flow": "yes" if u in inputs.flow else "no",
            }
        )
    cols = [
        view.user(short=False),
        Col("address", "Address"),
        Col("permit_no", "Permit"),
        Col("permit_expires", "Permit expires", nowrap=True, fmt=fmt_date),
        Col("samples", f"Samples, {view.ytd}", num=True, fmt=fmt_num),
        Col("normal_flow_gpd", "Normal average flow (gallons a day)", num=True, fmt=fmt_num),
        Col("flow", "Flow or probe readings"),
    ]
    body = table(pd.DataFrame(rows), cols, row_id=lambda r: f"user-{slug(r['user_id'])}", whole=True)
    return section(
        f"Users without findings, {view.items_period}",
        body,
        sid="users-without-findings",
        lead=esc(
            f"{len(quiet)} users had no violation, slug, inconclusive result or significant noncompliance "
            f"in {view.items_period}: their readings are judged like every other's, and not charted here."
        ),
    )


@dataclass
class UserChartInputs:
    """Every user's rows for its charts, split once (a boolean filter of the whole frame per user cost 3 s
    for 190 meters' 572,000 points, a frame per user 0.7 s)."""

    results: dict[Any, pd.DataFrame]
    limits: dict[Any, pd.DataFrame]
    flow: dict[Any, FlowInputs]
    words: tuple[str, str]
    summary: dict[Any, pd.Series]
    users: dict[Any, pd.Series]
    in_snc: set


def user_chart_inputs(view: SewerView) -> UserChartInputs:
    results, limits = view.results, view.limits
    if not results.empty:
        results = results.assign(t=local_naive(results["collected_at"]))
    if not limits.empty:
        limits = limits.assign(t=local_naive(limits["collected_at"]))
    return UserChartInputs(
        results=dict(tuple(results.groupby("user_id"))) if not results.empty else {},
        limits=dict(tuple(limits.groupby("user_id"))) if not limits.empty else {},
        flow=flow_inputs(view.flow, view.slugs, view.baselines, view.gaps),
        words=slug_words(view.data.slug_rules),
        summary=_first_rows(view.summary),
        users=_first_rows(view.users),
        in_snc=set(view.snc["user_id"]) if not view.snc.empty else set(),
    )


def _user_head(view: SewerView, u: Any, inputs: UserChartInputs) -> str:
    urow, srow = inputs.users.get(u), inputs.summary.get(u)
    facts = []
    if urow is not None:
        for label, key in (("address", "address"), ("district", "district"), ("permit", "permit_no")):
            if not is_missing(urow.get(key)):
                value = str(urow.get(key)).replace("_", " ") if key == "district" else urow.get(key)
                facts.append(f"{label} {esc(value)}")
        if not is_missing(urow.get("permit_expires")):
            facts.append(f"permit expires {esc(fmt_date(urow.get('permit_expires')))}")
        if not is_missing(urow.get("other_permits")):
            facts.append(f"also permit {esc(urow.get('other_permits'))}")
        if not is_missing(urow.get("normal_flow_gpd")):
            facts.append(f"normal average flow {fmt_num(urow.get('normal_flow_gpd'))} gallons a day")
    badges = _status_badge(srow) if srow is not None else ""
    n = view.violations_by_user().get(u, 0)
    if u in inputs.in_snc:
        badges += " " + badge("significant noncompliance", "bad")
    badges += " " + (
        badge(f"{n} violation{'s' if n != 1 else ''}, {view.items_period}", "bad")
        if n
        else badge(f"no violations, {view.items_period}", "good")
    )
    return (
        f'<div class="entity-head"><h2>{esc(u)} · {esc(view.names.get(u) or "")}</h2>{badges}</div>'
        f'<div class="facts">{" · ".join(facts)}</div>'
    )


def _control_part(view: SewerView, u: Any, inputs: UserChartInputs, printed: bool) -> list[str]:
    present = view.data.present
    ures = inputs.results.get(u, view.results.iloc[0:0])
    ulim = inputs.limits.get(u, view.limits.iloc[0:0])
    if ures.empty:
        return [
            nothing_found(
                "lab_results", present, "No lab results for this user.", "empty", "lab results for this user"
            )
        ]
    parts = []
    limited = set(ulim["parameter"]) if not ulim.empty else set()
    unlimited = sorted(set(ures["parameter"]) - limited, key=parameter_order)
    cc = control_chart(u, ures, ulim) if not ulim.empty else None
    if cc is None:
        parts.append(
            no_data(
                "discharge_evaluations",
                present.get("discharge_evaluations"),
                "limits applied to this user's results",
            )
        )
    else:
        cc.printed = printed
        view.charts.append(cc)
        parts.append(cc.html())
    if unlimited:
        parts.append(
            note(
                "Also sampled, with no limit defined: "
                + ", ".join(esc(param_label(p)) for p in unlimited)
                + ".",
                "info",
            )
        )
    return parts


def _flow_part(view: SewerView, u: Any, inputs: UserChartInputs, printed: bool) -> list[str]:
    present = view.data.present
    uflow = inputs.flow.get(u)
    if uflow is None:
        return [
            note("No flow or probe readings for this user.", "empty")
            if present.get("flow")
            else no_data("flow", present.get("flow"), "flow readings")
        ]
    fc = draw_flow_chart(u, uflow, inputs.words)
    if fc is None:
        return []
    fc.printed = printed
    view.charts.append(fc)
    return [fc.html()]


def user_section(view: SewerView, u: Any, inputs: UserChartInputs, control: bool, flow: bool) -> str:
    """A user's facts, control charts and flow trace; on paper the control charts print when ``control``, the
    flow trace when ``flow``, and the section not at all when neither."""
    paper = ""
    if control != flow:
        which = "flow trace" if control else "control charts"
        paper = (
            f'<div class="print-only facts">Its {which}: on screen only (no '
            f"{'slug' if control else 'violation'} "
            f"in {esc(view.ytd)}).</div>"
        )
    parts = (
        [_user_head(view, u, inputs) + paper]
        + _control_part(view, u, inputs, control)
        + _flow_part(view, u, inputs, flow)
    )
    cls = "user" if control or flow else "user no-print"
    return f'<section id="user-{esc(slug(u))}" class="{cls}">{join(parts)}</section>'


# The sewer page, top to bottom: what to do, the counts, then the detail.
SEWER_PANELS = (
    panel_worklist,
    panel_headline,
    panel_summary,
    panel_heatmap,
    panel_violations,
    panel_slugs,
    panel_snc,
    panel_permits,
    panel_notices,
    panel_testing,
    panel_users,
)


def build_sewer_page(data: SewerData) -> tuple[str, PageMeta]:
    view = sewer_view(data)
    body = join(panel(view) for panel in SEWER_PANELS)
    meta = PageMeta(
        charts=len(view.charts),
        counts={"users": len(_user_ids(view)), "violations": len(view.violations), "slugs": len(view.slugs)},
    )
    rng = f" · samples collected {view.period}" if view.first is not None else ""
    html_text = page(
        file="sewer.html",
        title=f"{role_name(data.laws, 'superintendent')}: industrial users",
        subtitle=esc(
            f"{law_cited(data.laws, 'sewer_use')} discharge limits and slugs · as of "
            f"{day_words(data.as_of)}{rng}"
        ),
        body=body,
        as_of=data.as_of,
        town=data.town,
        laws=data.laws,
        generated_at=data.generated_at,
        has_charts=bool(view.charts),
    )
    return html_text, meta


# --------------------------------------------------------------------------- discharges without a permit

SNC_BASIS_LABELS = {
    "sample": "single samples",
    "daily_max": "daily maximums",
    "monthly_avg": "monthly averages",
}
PERMIT_FINDING_LABELS = {
    "permit_expired": "after the permit expired",
    "permit_not_yet_effective": "before the permit took effect",
    "never_permitted": "with no permit ever issued",
}


def permit_spells(days: pd.DataFrame) -> pd.DataFrame:
    """Consecutive days of one user and finding joined into one line: first and last day, days, samples,
    flow readings, the permit's dates and the rule."""
    if days.empty:
        return pd.DataFrame(
            columns=[
                "user_id",
                "name",
                "finding",
                "first_day",
                "last_day",
                "days",
                "samples",
                "flow_readings",
                "permit_no",
                "permit_effective",
                "permit_expires",
                "rule",
            ]
        )
    d = days.sort_values(["user_id", "finding", "day"]).copy()
    day = pd.to_datetime(d["day"])
    new = (
        (d["user_id"] != d["user_id"].shift())
        | (d["finding"] != d["finding"].shift())
        | (day.diff() != pd.Timedelta(days=1))
    )
    d["_spell"] = new.cumsum()
    agg = d.groupby("_spell").agg(
        user_id=("user_id", "first"),
        name=("name", "first"),
        finding=("finding", "first"),
        first_day=("day", "min"),
        last_day=("day", "max"),
        days=("day", "count"),
        samples=("samples", "sum"),
        flow_readings=("flow_readings", "sum"),
        permit_no=("permit_no", "first"),
        permit_effective=("permit_effective", "first"),
        permit_expires=("permit_expires", "first"),
        rule=("rule", "first"),
    )
    return agg.reset_index(drop=True)


def permit_parts(view: SewerView) -> list[str]:
    """The days each user discharged without a permit in effect, joined into spells, and the users whose
    permit term is not on file; the rules cited in full at the end."""
    data = view.data
    parts: list[str] = []
    if data.without_permit is None and data.permit_dates_missing is None:
        return parts
    rules = RuleNotes("rule-permits")
    parts.append(_permit_spells_table(data, rules))
    missing = _frame(data.permit_dates_missing)
    if not missing.empty:
        parts.append(
            "<h4>Permit term not on file (not judged)</h4>" + _permit_term_missing_table(missing, rules)
        )
    parts.append(rules.notes())
    return parts


def _permit_spells_table(data: SewerData, rules: RuleNotes) -> str:
    """The spells of days each user discharged without a permit in effect (or why there are none)."""
    spells = permit_spells(_frame(data.without_permit))
    if spells.empty:
        return judged_nothing(
            data.judged,
            "permits",
            "discharges_without_permit",
            data.present,
            "No sample or flow reading above 0 on a day its user's permit was not in effect.",
            what="samples or flow readings on days a permit was not in effect",
        )
    return table(spells, _permit_spell_cols(rules), row_class=lambda r: "row-bad")


def _permit_spell_cols(rules: RuleNotes) -> list[Col]:
    """The columns of the spells without a permit."""
    return [
        Col(
            "user_id",
            "User",
            width="22%",
            html=lambda r: named(r["user_id"], short_name(r["name"]), f"#user-{slug(r['user_id'])}"),
        ),
        Col("finding", "When", fmt=lambda v: PERMIT_FINDING_LABELS.get(v, v)),
        Col("first_day", "From", fmt=fmt_date, nowrap=True),
        Col("last_day", "To", fmt=fmt_date, nowrap=True),
        Col("days", "Days", num=True, fmt=fmt_num),
        Col("samples", "Samples", num=True, fmt=fmt_num),
        Col(
            "flow_readings",
            "Flow readings above 0",
            num=True,
            fmt=fmt_num,
            title="readings of flow above 0 (a probe's pH or temperature readings, and zero "
            "flow, are not a discharge)",
        ),
        Col(
            "permit_no",
            "Permit",
            html=lambda r: esc(
                f"{r['permit_no'] or ''} ({fmt_date(r['permit_effective']) or '…'}"
                f" to {fmt_date(r['permit_expires']) or '…'})"
            ),
        ),
        rules.col("rule", "Rule (section)"),
    ]


def _permit_term_missing_table(missing: pd.DataFrame, rules: RuleNotes) -> str:
    """The users whose permit term is not on file, so their days were not judged."""
    return table(
        missing,
        [
            Col("user_id", "User", html=lambda r: named(r["user_id"], r.get("name"))),
            Col("first_day", "Samples or readings from", fmt=fmt_date, nowrap=True),
            Col("last_day", "To", fmt=fmt_date, nowrap=True),
            Col("samples", "Samples", num=True, fmt=fmt_num),
            Col("flow_readings", "Flow readings above 0", num=True, fmt=fmt_num),
            Col("reason", "What to do"),
            rules.col("rule", "Reading"),
        ],
    )
