"""The worklist on the pages: what each person must do next, and by when (table ``worklist``).

Each person's page opens with their list (``worklist_panel``): overdue, then due within the week, then
upcoming, each action in plain words with its subject's name, its due date and days left, and a link to
the letter or record it concerns. Actions alike are one line, so the list stays readable and prints whole:
a user's many overdue follow-ups of its own violations are one line with their count and dates; a
recipient's draft notices are one line with their months; the same report expected from many users on one
day is one line naming them. The index shows the three lists' counts and the most urgent actions
(``worklist_summary``).
"""

from __future__ import annotations

import datetime as dt
import re

import pandas as pd

from dashboards.html import (
    Col,
    Kpi,
    badge,
    day_words,
    esc,
    fmt_date,
    is_missing,
    kpis,
    note,
    section,
    table,
    units_in_words,
)

PEOPLE = {
    "superintendent": ("Superintendent of Sewage", "sewer.html"),
    "stormwater_officer": ("Stormwater Management Officer", "stormwater.html"),
    "clerk": ("Clerk", "billing.html"),
}
STATUS_WORDS = {"overdue": ("Overdue", "bad"), "due": ("Due this week", "warn"), "upcoming": ("Upcoming", "")}
# "Mail the notice of violation for July 2026 (2 violations) by certified mail ..." (assets/worklist.py)
DRAFT = re.compile(
    r"^Mail the notice of violation for (?P<month>[A-Z][a-z]+ \d{4}) \((?P<n>\d+) violations?\)"
)
# The same report expected from this many users or more on one day is one line naming them.
MANY_SUBJECTS = 3


def _kind(rows: pd.DataFrame) -> pd.Series:
    """What an action is, apart from its subject and dates: a draft notice to mail; an obligation of a
    kind (its ref's first word); otherwise the action's own words."""
    action = rows["action"].astype(str)
    kind = action.copy()
    drafts = (rows["source"] == "notices") & action.str.match(DRAFT.pattern)
    kind[drafts] = "mail a draft notice"
    obligations = rows["source"] == "obligations"
    kind[obligations] = (
        "obligation "
        + rows.loc[obligations, "ref"].astype(str).str.split(" ").str[0]
        + " "
        + action[obligations].str.split(" ").str[0]
    )
    return kind


def _draft_action(actions: list[str]) -> str:
    """One line for a recipient's draft notices: their months and violations."""
    found = [DRAFT.match(a) for a in actions]
    months = [m["month"] for m in found if m]
    total = sum(int(m["n"]) for m in found if m)
    order = sorted(months, key=lambda m: pd.Timestamp(f"1 {m}"))
    listed = ", ".join(order)
    return (
        f"Mail the {len(actions)} draft notices of violation ({listed}; {total} violations) by certified "
        f"mail and record each mailing, or withdraw them"
    )


def _grouped(rows: pd.DataFrame) -> pd.DataFrame:
    """One line per status, kind of action and subject: how many, the first and last due dates."""
    rows = rows.assign(_order=range(len(rows)), _kind=_kind(rows))
    keys = ["person", "status", "_kind", "subject_id"]
    out = rows.groupby(keys, sort=False, dropna=False).agg(
        action=("action", "first"),
        actions=("action", list),
        source=("source", "first"),
        count=("ref", "size"),
        first_due=("due", "min"),
        last_due=("due", "max"),
        days_left=("days_left", "min"),
        subject_name=("subject_name", "first"),
        link=("link", "first"),
        detail=("detail", "first"),
        order=("_order", "min"),
    )
    out = out.reset_index()
    drafts = out["_kind"] == "mail a draft notice"
    out.loc[drafts, "action"] = [_draft_action(a) if len(a) > 1 else a[0] for a in out.loc[drafts, "actions"]]
    out["subjects"] = [[(s, n)] for s, n in zip(out["subject_id"], out["subject_name"])]
    out = _merge_subjects(out)
    return out.sort_values("order", kind="stable").drop(columns=["actions"])


def _merge_subjects(out: pd.DataFrame) -> pd.DataFrame:
    """The same obligation due the same day from many subjects, once each: one line naming them."""
    single = out["_kind"].str.startswith("obligation ") & (out["count"] == 1) & out["first_due"].notna()
    merged, used = [], set()
    for _key, group in out[single].groupby(["person", "status", "_kind", "first_due"], sort=False):
        if len(group) < MANY_SUBJECTS:
            continue
        first = group.iloc[0].to_dict()
        head = str(first["action"]).rsplit(" from ", 1)[0]
        first.update(
            action=f"{head} from each of these {len(group)} users",
            subject_id="",
            subject_name=None,
            subjects=[s for subjects in group["subjects"] for s in subjects],
            link=None,
            detail=None,
            count=1,
        )
        merged.append(first)
        used.update(group.index)
    if not merged:
        return out
    return pd.concat([out.drop(index=list(used)), pd.DataFrame(merged)], ignore_index=True)


def _due_text(r: dict) -> str:
    first, last = r.get("first_due"), r.get("last_due")
    if is_missing(first):
        return "no date set by law"
    if r.get("count", 1) > 1 and last != first:
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
    """The action as the list shows it: without what its other columns say (a leading 'Overdue:', a trailing
    'from <the subject's name>')."""
    text = str(r["action"])
    if text.startswith("Overdue: "):
        text = text[len("Overdue: ") :]
        text = text[:1].upper() + text[1:]
    name = r.get("subject_name")
    if not is_missing(name) and text.endswith(f" from {name}"):
        text = text[: -len(f" from {name}")]
    return units_in_words(text)


def _action_html(r: dict) -> str:
    text = esc(action_words(r))
    if r.get("count", 1) > 1 and r.get("_kind") != "mail a draft notice":
        text += f' <span class="muted">({int(r["count"])} times)</span>'
    if not is_missing(r.get("link")):
        text = f'<a href="{esc(r["link"])}">{text}</a>'
    if not is_missing(r.get("detail")) and r.get("count", 1) == 1:
        text += f'<br><span class="muted">{esc(units_in_words(r["detail"]))}</span>'
    return text


def _subject_html(r: dict) -> str:
    parts = []
    for ident, name in r.get("subjects") or [(r["subject_id"], r.get("subject_name"))]:
        parts.append(
            f'{esc(name)} <span class="muted">({esc(ident)})</span>' if not is_missing(name) else esc(ident)
        )
    return "; ".join(parts)


def _status_html(r: dict) -> str:
    return badge(*STATUS_WORDS.get(r["status"], (str(r["status"]).replace("_", " ").capitalize(), "")))


def worklist_table(rows: pd.DataFrame) -> str:
    cols = [
        Col("status", "When", html=_status_html, nowrap=True),
        Col("first_due", "Due", html=lambda r: esc(_due_text(r)), width="10%"),
        Col("days_left", "Days", html=lambda r: esc(_days_text(r)), nowrap=True),
        Col("subject_id", "Who or what", html=_subject_html, width="22%"),
        Col("action", "What to do", html=_action_html, width="52%"),
    ]
    return table(_grouped(rows), cols, empty="Nothing to do.", table_class="worklist")


def worklist_panel(frame: pd.DataFrame | None, person: str, as_of: dt.date | None) -> str:
    """The section that opens a person's page: their actions, most urgent first."""
    title, _page = PEOPLE[person]
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
    counts = rows["status"].value_counts()
    lead = esc(
        f"As of {day}: {len(rows)} actions for the {title}, {int(counts.get('overdue', 0))} overdue, "
        f"{int(counts.get('due', 0))} due within the week, {int(counts.get('upcoming', 0))} upcoming or "
        f"with no date set by law. Actions alike are one line, with how many: a user's or site's follow-ups "
        f"of one kind, a recipient's draft notices, one report expected from many users on one day."
    )
    return section("What to do next", worklist_table(rows), sid="worklist", lead=lead)


def worklist_summary(frame: pd.DataFrame | None, most_urgent: int = 4) -> str:
    """For the index: each person's counts, and each person's ``most_urgent`` lines overdue or due this
    week."""
    if frame is None:
        return note("The list of what to do is made at the end of each run.", "empty")
    cards = []
    for person, (title, page_file) in PEOPLE.items():
        rows = frame[frame["person"] == person] if len(frame) else frame
        counts = rows["status"].value_counts() if len(rows) else pd.Series(dtype=int)
        overdue = int(counts.get("overdue", 0))
        cards.append(
            Kpi(
                f"actions for the {title}",
                f"{len(rows):,}",
                f"{overdue} overdue, {int(counts.get('due', 0))} due this week",
                "bad" if overdue else "",
                f"{page_file}#worklist",
            )
        )
    urgent = frame[frame["status"].isin(["overdue", "due"])] if len(frame) else frame
    lines = _grouped(urgent) if len(urgent) else urgent
    top = pd.concat([lines[lines["person"] == p].head(most_urgent) for p in PEOPLE]) if len(lines) else lines
    rest = "each person's page lists all of them" if len(urgent) else ""
    cols = [
        Col("person", "Whose", html=lambda r: esc(PEOPLE.get(r.get("person"), (r.get("person"), ""))[0])),
        Col("status", "When", html=_status_html, nowrap=True),
        Col("first_due", "Due", html=lambda r: esc(_due_text(r)), nowrap=True),
        Col("subject_id", "Who or what", html=_subject_html),
        Col("action", "What to do", html=_action_html),
    ]
    lead = (
        note(
            esc(
                f"Each person's most urgent: {len(top)} of the {len(lines)} lines overdue or due this week; "
                + rest
                + "."
            ),
            "info",
        )
        if len(urgent)
        else ""
    )
    return kpis(cards) + lead + table(top, cols, empty="Nothing overdue or due this week.")
