"""The worklist's arithmetic (contracts 6.4 and 7.5), as pure functions: an action's status on the day judged,
and the order the list is read in.

``overdue``: due before the day judged; ``due``: due on it or within the next ``window_days`` days (the
Town's setting ``worklist.due_within_days``); ``undated``: an action the law gives no date (a draft notice
to mail or withdraw, an address to complete); ``upcoming``: due later. The list is read overdue first, then
due, then undated, then upcoming; the dated by due date, the undated oldest first by the day their first
item was found. A row of the to-record workbook filled against the sheet's rules comes before all of them
(``first``): until it is corrected, what was recorded in it is not.
"""

from __future__ import annotations

import datetime as dt

SUPERINTENDENT, STORMWATER_OFFICER, CLERK = "superintendent", "stormwater_officer", "clerk"
PERSONS = (SUPERINTENDENT, STORMWATER_OFFICER, CLERK)
OVERDUE, DUE, UNDATED, UPCOMING = "overdue", "due", "undated", "upcoming"
STATUSES = (OVERDUE, DUE, UNDATED, UPCOMING)


def status(due: dt.date | None, as_of: dt.date, window_days: int | None) -> str:
    """An action's status on ``as_of``; ``window_days`` None (the Town set no week) lists nothing as due."""
    if due is None:
        return UNDATED
    if due < as_of:
        return OVERDUE
    if window_days is not None and due <= as_of + dt.timedelta(days=window_days):
        return DUE
    return UPCOMING


def sort_key(
    person: str,
    state: str,
    due: dt.date | None,
    *rest: str,
    found_on: dt.date | None = None,
    first: bool = False,
) -> tuple:
    """The order the list is read in: by person; the rows to correct first; then overdue, due, undated,
    upcoming; the dated by due date, the undated by the day their first item was found (unknown last)."""
    day = due if due is not None else found_on
    return (
        PERSONS.index(person) if person in PERSONS else len(PERSONS),
        not first,
        STATUSES.index(state),
        day is None,
        day or dt.date.min,
        *rest,
    )
