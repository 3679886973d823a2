"""The sewer page's users: one section per industrial user with findings (its control and flow charts),
the others in one list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from dashboards.html import (
    Col,
    badge,
    esc,
    fmt_date,
    fmt_num,
    is_missing,
    join,
    local_naive,
    no_data,
    note,
    nothing_found,
    noun,
    section,
    short_name,
    slug,
    table,
)
from dashboards.sewer.data import _frame
from dashboards.sewer.view import SewerView, _first_rows, _status_badge
from dashboards.sewer_control import control_chart, param_label, parameter_order
from dashboards.sewer_flow import FlowInputs, draw_flow_chart, flow_inputs, flow_points_per_user, slug_words


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
