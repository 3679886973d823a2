"""The worklist on the pages: what each person must do next, and by when (table ``worklist``, contract 7.5).

Each person's page opens with their list (``worklist_panel``), whole (the page scrolls; the list is no box
of its own): the rows of the to-record workbook to correct first, then overdue, due within the week,
undated (the law gives no date: draft notices, oldest first) and upcoming. Within each, the lines of one
subject are one row, with how many: a user's draft notices are one line with each month's letter linked;
its other actions one line each. Every action is one its person does and records; it closes when that
record arrives. The index shows the three lists' counts and the most urgent actions
(``worklist_summary``).
"""

from __future__ import annotations

import datetime as dt
import re

import pandas as pd

from dashboards.html import (
    ROLES,
    Col,
    badge,
    day_words,
    esc,
    fmt_date,
    is_missing,
    note,
    role_name,
    section,
    slug,
    table,
    units_in_words,
)

STATUS_WORDS = {
    "overdue": ("Overdue", "bad"),
    "due": ("Due this week", "warn"),
    "undated": ("No date set by law", ""),
    "upcoming": ("Upcoming", ""),
}
# "Mail the notice of violation for July 2026 (2 violations) by certified mail ..." (assets/worklist.py;
# served as the rules of its jurisdiction say, if they say)
DRAFT = re.compile(
    r"^Mail the notice of violation for (?P<month>[A-Z][a-z]+ \d{4}) \((?P<n>\d+) violations?\)"
    r"(?: by (?P<by>.+?))? and record"
)
DRAFT_HEAD = (
    "Mail each notice of violation (its violations in brackets){by} and record the mailing, or withdraw it:"
)


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def _groups(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per subject within its place in the list (to correct first, then by status), in the order
    the list is read: its actions (a dict each), how many, the first and last due dates."""
    rows = rows.assign(_order=range(len(rows)), due=pd.to_datetime(rows["due"]))
    rows["first"] = rows["first"].fillna(False).astype(bool) if "first" in rows else False
    keys = ["person", "first", "status", "subject_id"]
    out = (
        rows.groupby(keys, sort=False, dropna=False)
        .agg(
            items=("action", lambda s: rows.loc[s.index].to_dict("records")),
            count=("action", "size"),
            first_due=("due", "min"),
            last_due=("due", "max"),
            days_left=("days_left", "min"),
            subject_name=("subject_name", "first"),
            order=("_order", "min"),
        )
        .reset_index()
    )
    return out.sort_values("order", kind="stable")


def _due_text(r: dict) -> str:
    first, last = r.get("first_due"), r.get("last_due")
    if is_missing(first):
        return ""
    if r.get("count", 1) > 1 and last != first and not is_missing(last):
        return f"{fmt_date(first)} to {fmt_date(last)}"
    return fmt_date(first)


def _days_text(r: dict) -> str:
    days = r.get("days_left")
    if is_missing(days):
        return ""
    days = int(days)
    if days < 0:
        return f"{-days} day{'s' if days != -1 else ''} late"
    return "today" if days == 0 else f"{days} day{'s' if days != 1 else ''} left"


def action_words(r: dict) -> str:
    """The action as the list shows it: without a trailing 'from <the subject's name>', nor the subject's
    name and id after 'own site' (a finding at the municipality's own site), which its column says."""
    text = str(r["action"])
    name = r.get("subject_name")
    if not is_missing(name) and text.endswith(f" from {name}"):
        text = text[: -len(f" from {name}")]
    if not is_missing(name):
        text = text.replace(f" own site {name} ({r.get('subject_id')}):", " own site:", 1)
    return units_in_words(text)


def _linked(text: str, link) -> str:
    return f'<a href="{esc(link)}">{text}</a>' if not is_missing(link) else text


def _drafts_html(drafts: list[dict]) -> str:
    """A subject's draft notices as one line: each month's letter linked, with its count of violations."""
    months = []
    for d in drafts:
        m = DRAFT.match(str(d["action"]))
        label = f"{m['month']} ({m['n']})" if m else action_words(d)
        months.append(_linked(esc(label), d.get("link")))
    reasons = sorted({str(d["detail"]) for d in drafts if not is_missing(d.get("detail"))})
    why = "".join(f'<br><span class="muted">{esc(units_in_words(x))}</span>' for x in reasons)
    served = {m["by"] for m in (DRAFT.match(str(d["action"])) for d in drafts) if m and m["by"]}
    by = f" by {served.pop()}" if len(served) == 1 else ""
    return f"{esc(DRAFT_HEAD.format(by=by))} {', '.join(months)}{why}"


def _action_html(r: dict, said: set[str] | None = None) -> str:
    """One action, linked, with its detail below it unless an earlier action of its subject said the same
    (``said``: the details said so far)."""
    text = _linked(esc(action_words(r)), r.get("link"))
    detail = r.get("detail")
    if not is_missing(detail) and (said is None or detail not in said):
        text += f'<br><span class="muted">{esc(units_in_words(detail))}</span>'
        if said is not None:
            said.add(detail)
    return text


#: The actions of one subject shown on screen before "and N more" (every one prints).
FIRST_ACTIONS = 1


def _actions_html(g: dict) -> str:
    """The subject's actions: its draft notices in one line, each other action on a line of its own; on
    screen the first ``FIRST_ACTIONS`` and how many more (a click shows them), on paper every one."""
    items = g["items"]
    drafts = [i for i in items if i.get("source") == "notices" and DRAFT.match(str(i["action"]))]
    lines = [_drafts_html(drafts)] if len(drafts) > 1 else []
    said: set[str] = set()
    lines += [_action_html(i, said) for i in items if not (len(drafts) > 1 and i in drafts)]
    rest = lines[FIRST_ACTIONS:]
    if not rest:
        return "".join(f'<div class="act">{line}</div>' for line in lines)
    toggle = "act-" + slug(f"{g.get('person')}-{g.get('first')}-{g.get('status')}-{g.get('subject_id')}")
    more = (  # on the last line shown, after its words
        f' <label class="act-more no-print" for="{toggle}" title="all of them print">and '
        f"{_plural(len(rest), 'more action')}</label>"
    )
    shown = lines[:FIRST_ACTIONS]
    return (
        f'<input type="checkbox" class="act-toggle" id="{toggle}">'
        + "".join(
            f'<div class="act">{line}{more if n == len(shown) - 1 else ""}</div>'
            for n, line in enumerate(shown)
        )
        + "".join(f'<div class="act act-rest">{line}</div>' for line in rest)
    )


def _subject_html(g: dict) -> str:
    ident, name = g["subject_id"], g.get("subject_name")
    who = f'{esc(name)} <span class="muted">({esc(ident)})</span>' if not is_missing(name) else esc(ident)
    count = int(g.get("count", 1))
    return who + (f'<br><span class="muted">{_plural(count, "action")}</span>' if count > 1 else "")


def _status_html(r: dict) -> str:
    if r.get("first"):
        return badge("To correct", "bad")
    words = STATUS_WORDS.get(r["status"], (str(r["status"]).replace("_", " ").capitalize(), ""))
    return badge(*words)


def worklist_table(rows: pd.DataFrame) -> str:
    cols = [
        Col("status", "When", html=_status_html, nowrap=True),
        Col("first_due", "Due", html=lambda r: esc(_due_text(r)), nowrap=True),
        Col("days_left", "Days", html=lambda r: esc(_days_text(r)), nowrap=True),
        Col("subject_id", "Who or what", html=_subject_html, width="20%"),
        Col("items", "What to do", html=_actions_html, width="58%"),
    ]
    return table(_groups(rows), cols, empty="Nothing to do.", table_class="worklist", whole=True)


def _counts_text(rows: pd.DataFrame) -> str:
    counts = rows["status"].value_counts()
    parts = [
        f"{int(counts.get('overdue', 0))} overdue",
        f"{int(counts.get('due', 0))} due within the week",
        f"{int(counts.get('undated', 0))} with no date set by law",
        f"{int(counts.get('upcoming', 0))} upcoming",
    ]
    return ", ".join(parts)


def worklist_panel(
    frame: pd.DataFrame | None, person: str, as_of: dt.date | None, laws: dict[str, str] | None = None
) -> str:
    """The section that opens a person's page: their actions, most urgent first, the whole list."""
    title = role_name(laws, person)
    if frame is None:
        return section(
            "What to do next", note("The list is made at the end of each run.", "empty"), sid="worklist"
        )
    rows = frame[frame["person"] == person] if len(frame) else frame
    day = day_words(as_of) if as_of else "the day judged"
    if rows.empty:
        return section(
            "What to do next",
            note(esc(f"Nothing is open for the {title} as of {day}."), "info"),
            sid="worklist",
        )
    lead = esc(
        f"As of {day}: {_plural(len(rows), 'action')} for the {title}: {_counts_text(rows)}. Each leaves "
        "the list when its record arrives; draft notices oldest first."
    )
    return section("What to do next", worklist_table(rows), sid="worklist", lead=lead)


def worklist_summary(
    frame: pd.DataFrame | None, laws: dict[str, str] | None = None, most_urgent: int = 4
) -> str:
    """For the index: each person's counts, a line each linked to their page (where the list is, whole),
    and each person's ``most_urgent`` rows to correct, overdue or due this week."""
    if frame is None:
        return note("The list of what to do is made at the end of each run.", "empty")
    people = []
    for person, (page_file, _law) in ROLES.items():
        rows = frame[frame["person"] == person] if len(frame) else frame
        counts = rows["status"].value_counts() if len(rows) else pd.Series(dtype=int)
        people.append(
            {
                "person": role_name(laws, person),
                "link": f"{page_file}#worklist",
                "actions": len(rows),
                "overdue": int(counts.get("overdue", 0)),
                "due": int(counts.get("due", 0)),
            }
        )
    whose = table(
        pd.DataFrame(people),
        [
            Col("person", "Whose list", html=lambda r: f'<a href="{esc(r["link"])}">{esc(r["person"])}</a>'),
            Col("actions", "Actions", num=True, fmt=lambda v: f"{int(v):,}"),
            Col("overdue", "Overdue", num=True, fmt=lambda v: f"{int(v):,}"),
            Col("due", "Due this week", num=True, fmt=lambda v: f"{int(v):,}"),
        ],
        row_class=lambda r: "row-bad" if r["overdue"] else "",
        whole=True,
    )
    first = frame["first"].fillna(False).astype(bool) if "first" in frame and len(frame) else False
    urgent = frame[frame["status"].isin(["overdue", "due"]) | first] if len(frame) else frame
    lines = _groups(urgent) if len(urgent) else urgent
    top = pd.concat([lines[lines["person"] == p].head(most_urgent) for p in ROLES]) if len(lines) else lines
    cols = [
        Col("person", "Whose", html=lambda r: esc(role_name(laws, str(r.get("person"))))),
        Col("status", "When", html=_status_html, nowrap=True),
        Col("first_due", "Due", html=lambda r: esc(_due_text(r)), nowrap=True),
        Col("subject_id", "Who or what", html=_subject_html),
        Col("items", "What to do", html=_actions_html),
    ]
    lead = (
        note(
            esc(
                f"Each person's most urgent: {len(top)} of the {len(lines)} rows to correct, overdue or due "
                "this week; each person's page lists all of them."
            ),
            "info",
        )
        if len(urgent)
        else ""
    )
    return whose + lead + table(top, cols, empty="Nothing overdue or due this week.", whole=True)
