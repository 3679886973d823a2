"""The worklist on the pages: what each person must do next, and by when (table ``worklist``).

Each person's page opens with their list (``worklist_panel``): overdue, then due within the week, then
upcoming, each action in plain words with its subject's name, its due date and days left, and a link to
the letter or record it concerns. Actions alike for one subject (a user's many overdue notices of its own
violations) are one line with their count and dates, so the list stays readable and prints whole. The
index shows the three lists' counts and the most urgent actions (``worklist_summary``).
"""

from __future__ import annotations

import datetime as dt

import pandas as pd

from dashboards.html import Col, Kpi, badge, esc, fmt_date, is_missing, kpis, note, section, table

PEOPLE = {"superintendent": ("Superintendent of Sewage", "sewer.html"),
          "stormwater_officer": ("Stormwater Management Officer", "stormwater.html"),
          "clerk": ("Clerk", "billing.html")}
STATUS_WORDS = {"overdue": ("Overdue", "bad"), "due": ("Due this week", "warn"), "upcoming": ("Upcoming", "")}


def _grouped(rows: pd.DataFrame) -> pd.DataFrame:
    """One line per status, action and subject: how many, the first and last due dates."""
    keys = ["status", "action", "subject_id"]
    rows = rows.assign(_order=range(len(rows)))
    out = rows.groupby(keys, sort=False, dropna=False).agg(
        count=("ref", "size"), first_due=("due", "min"), last_due=("due", "max"), days_left=("days_left", "min"),
        subject_name=("subject_name", "first"), link=("link", "first"), detail=("detail", "first"),
        order=("_order", "min"))
    return out.reset_index().sort_values("order", kind="stable")


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


def _action_html(r: dict) -> str:
    text = esc(r["action"])
    if r.get("count", 1) > 1:
        text += f" <span class=\"muted\">({int(r['count'])} times)</span>"
    if not is_missing(r.get("link")):
        text = f'<a href="{esc(r["link"])}">{text}</a>'
    if not is_missing(r.get("detail")) and r.get("count", 1) == 1:
        text += f'<br><span class="muted">{esc(r["detail"])}</span>'
    return text


def _subject_html(r: dict) -> str:
    name = r.get("subject_name")
    ident = esc(r["subject_id"])
    return f"{esc(name)} <span class=\"muted\">({ident})</span>" if not is_missing(name) else ident


def worklist_table(rows: pd.DataFrame) -> str:
    cols = [Col("status", "When", html=lambda r: badge(*STATUS_WORDS.get(r["status"], (r["status"], "")))),
            Col("first_due", "Due", html=lambda r: esc(_due_text(r)), nowrap=True),
            Col("days_left", "Days", html=lambda r: esc(_days_text(r)), nowrap=True),
            Col("subject_id", "Who or what", html=_subject_html),
            Col("action", "What to do", html=_action_html)]
    return table(_grouped(rows), cols, empty="Nothing to do.", table_class="worklist")


def worklist_panel(frame: pd.DataFrame | None, person: str, as_of: dt.date | None) -> str:
    """The section that opens a person's page: their actions, most urgent first."""
    title, _page = PEOPLE[person]
    if frame is None:
        return section("What to do next", note("The list is made at the end of each run.", "empty"), sid="worklist")
    rows = frame[frame["person"] == person] if len(frame) else frame
    day = f"{as_of:%B} {as_of.day}, {as_of.year}" if as_of else "the day judged"
    if rows.empty:
        return section("What to do next", note(esc(f"Nothing is open for the {title} as of {day}."), "info"),
                       sid="worklist")
    counts = rows["status"].value_counts()
    lead = esc(f"As of {day}: {int(counts.get('overdue', 0))} overdue, {int(counts.get('due', 0))} due within the "
               f"week, {int(counts.get('upcoming', 0))} upcoming or with no date set by law. Actions alike for one "
               f"user, site or file are one line, with how many.")
    return section("What to do next", worklist_table(rows), sid="worklist", lead=lead)


def worklist_summary(frame: pd.DataFrame | None, most_urgent: int = 8) -> str:
    """For the index: each person's counts, and the most urgent actions of all."""
    if frame is None:
        return note("The list of what to do is made at the end of each run.", "empty")
    cards = []
    for person, (title, page_file) in PEOPLE.items():
        rows = frame[frame["person"] == person] if len(frame) else frame
        counts = rows["status"].value_counts() if len(rows) else pd.Series(dtype=int)
        overdue = int(counts.get("overdue", 0))
        cards.append(Kpi(title, f"{len(rows):,}", f"{overdue} overdue, {int(counts.get('due', 0))} due this week",
                         "bad" if overdue else "", f"{page_file}#worklist"))
    urgent = frame[frame["status"].isin(["overdue", "due"])] if len(frame) else frame
    top = _grouped(urgent).head(most_urgent) if len(urgent) else urgent
    rest = "each person's page lists all of them" if len(urgent) else ""
    cols = [Col("status", "When", html=lambda r: badge(*STATUS_WORDS.get(r["status"], (r["status"], "")))),
            Col("first_due", "Due", html=lambda r: esc(_due_text(r)), nowrap=True),
            Col("subject_id", "Who or what", html=_subject_html),
            Col("action", "What to do", html=_action_html)]
    lead = note(esc("The most urgent actions; " + rest + "."), "info") if len(urgent) else ""
    return kpis(cards) + lead + table(top, cols, empty="Nothing overdue or due this week.")
