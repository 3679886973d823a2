"""The stormwater page's post-construction practices (contract 5.4): each practice and when it is due."""

from __future__ import annotations

from dashboards.html import (
    Col,
    RuleNotes,
    as_frame,
    badge,
    day_words,
    esc,
    fmt_date,
    is_missing,
    law_cited,
    named,
    no_data,
    none_note,
    section,
    short_name,
    slug,
    table,
)
from dashboards.stormwater.illicit import DEADLINE_ORDER, SMP_LABELS, _status_badge
from dashboards.stormwater.view import StormwaterView


def practice_due(r: dict) -> str:
    """The due day in words; an early release of a guarantee has happened: its day is the earliest the law
    allowed it, not a deadline."""
    if r.get("finding") == "guarantee_release" and not is_missing(r.get("due")):
        return f"released early; could not be released before {day_words(r['due'])}"
    return fmt_date(r.get("due"))


def practice_status(r: dict) -> str:
    if r.get("finding") == "guarantee_release":
        return badge("Released too early", "bad")
    return _status_badge(r["status"])


def practices_section(view: StormwaterView) -> str:
    data = view.data
    findings = as_frame(data.smp_findings)
    rules = RuleNotes("rule-practices")
    if not data.judged.judged("practices"):
        p_html = none_note(data.judged, "practices", "No finding on a permanent practice.")
    elif data.smp_findings is None or findings.empty:
        p_html = no_data(
            "smp_findings",
            data.present.get("smp_findings"),
            "findings on permanent stormwater management practices",
        )
    else:
        f = findings.assign(_o=findings["status"].map(DEADLINE_ORDER).fillna(9))
        p_html = (
            table(
                f.sort_values(["_o", "site_id", "practice_id", "due"]),
                _practice_cols(view, rules),
                row_class=lambda r: {"overdue": "row-bad", "late": "row-warn"}.get(str(r["status"]), ""),
            )
            + rules.notes()
        )
    return section(
        "Permanent stormwater management practices",
        p_html,
        sid="practices",
        lead="After construction: as-built plans, the maintenance agreement, the one-year inspection "
        f"and the construction completion guarantee ({esc(law_cited(data.laws, 'stormwater'))}). "
        "Requirements met on time are not listed.",
    )


def _practice_site_cell(view: StormwaterView, r: dict) -> str:
    """A practice's site: its id (a link to its section) and name, its town on a second line."""
    town = (
        f"<br><small>{esc(view.jurisdiction(r.get('jurisdiction')))}</small>"
        if not is_missing(r.get("jurisdiction"))
        else ""
    )
    return named(r["site_id"], short_name(view.names.get(r["site_id"])), f"#site-{slug(r['site_id'])}") + town


def _practice_cell(r: dict) -> str:
    """A practice's id, its type on a second line."""
    kind = (
        f"<br><small>{esc(r.get('practice_type'))}</small>" if not is_missing(r.get("practice_type")) else ""
    )
    return esc(r["practice_id"]) + kind


def _practice_cols(view: StormwaterView, rules: RuleNotes) -> list[Col]:
    """The columns of the findings on permanent practices."""
    return [
        Col("site_id", "Site", width="22%", html=lambda r: _practice_site_cell(view, r)),
        Col("practice_id", "Practice", html=_practice_cell),
        Col("finding", "Requirement", fmt=lambda v: SMP_LABELS.get(v, v)),
        Col("due", "Due", html=lambda r: esc(practice_due(r))),
        Col("status", "Status", html=practice_status),
        rules.col("rule", "Rule (section)", limit=45),
    ]
