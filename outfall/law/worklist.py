"""The worklist's arithmetic (contract 6.4), as pure functions: an action's status on the day judged.

``overdue``: due before the day judged; ``due``: due on it or within the next ``window_days`` days (the
rules' ``worklist.due_within_days``); ``upcoming``: later, or with no due date (the law sets none). The
list is read overdue first, then due, then upcoming; within each, by due date, the undated last.
"""

from __future__ import annotations

import datetime as dt

SUPERINTENDENT, STORMWATER_OFFICER, CLERK = "superintendent", "stormwater_officer", "clerk"
PERSONS = (SUPERINTENDENT, STORMWATER_OFFICER, CLERK)
OVERDUE, DUE, UPCOMING = "overdue", "due", "upcoming"
STATUSES = (OVERDUE, DUE, UPCOMING)


def status(due: dt.date | None, as_of: dt.date, window_days: int) -> str:
    if due is None:
        return UPCOMING
    if due < as_of:
        return OVERDUE
    if due <= as_of + dt.timedelta(days=window_days):
        return DUE
    return UPCOMING


def sort_key(person: str, state: str, due: dt.date | None, *rest: str) -> tuple:
    """The order the list is read in: by person, then overdue, due, upcoming, then by due date (undated
    last)."""
    return (
        PERSONS.index(person) if person in PERSONS else len(PERSONS),
        STATUSES.index(state),
        due is None,
        due or dt.date.min,
        *rest,
    )
