"""What the SWPPP assets share: the warehouse rows they read, the not-judged reason of a rules gap,
the counts of their metadata and the status of a duty by its day."""

import datetime as dt
import re
from collections import defaultdict
from typing import Any

import pandas as pd

from outfall.resources import RulesResource
from outfall.rules import Rules, RulesError
from outfall.rules.tables import NotJudged, not_in_effect
from outfall.warehouse import records


def _not_judged(subject: str, day: dt.date, exc: RulesError) -> NotJudged:
    """A site or finding no version of the stormwater rules covers (the RulesError names the part and day),
    with the reason in words: 'not judged: the rules give no stormwater rule of weekly inspection in effect
    on 1986-06-02 (they give one from 2007-05-03)'."""
    section = getattr(exc, "section", None)
    if section is None:
        message = str(exc).split(": ", 1)[-1]
        return NotJudged(subject, day, message.split(":", 1)[0], f"not judged: {message}")
    what = "stormwater rule of " + section.rsplit(".", 1)[-1].replace("_", " ")
    return NotJudged(subject, day, section, not_in_effect(what, exc.day, exc.entries))


def _rules(resource: RulesResource) -> dict[str, Rules]:
    """Every jurisdiction's rules, by name (a site is judged by its own jurisdiction's)."""
    return resource.all_rules()


def _gauge_key(gauge: Any) -> str:
    return str(gauge or "").strip().lower()


def _person_key(name: Any) -> str:
    return re.sub(r"\s+", " ", str(name or "").strip().lower())


def _daily_rain(con) -> dict[str, dict[dt.date, float]]:
    rain: dict[str, dict[dt.date, float]] = defaultdict(dict)
    for r in records(con, "select_gauge_daily_rainfall"):
        rain[r["gauge_key"]][r["date"]] = float(r["precip_in"])
    return rain


def _inspections(con) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = defaultdict(list)
    for r in records(con, "select_swppp_inspections"):
        out[r["site_id"]].append(r)
    return out


def _classified_sites(con) -> list[dict]:
    return records(con, "select_site_classification")


def _subject_to_chapter(site: dict) -> bool:
    """A land development activity (or a site needing inspections) that is not exempt."""
    return bool((site["land_development_activity"] or site["inspections_required"]) and not site["exempt"])


def _counts(frame: pd.DataFrame, *cols: str) -> dict[str, int]:
    if frame.empty:
        return {}
    grouped = frame.groupby(list(cols), dropna=False).size()
    return {
        " / ".join(str(k) for k in (key if isinstance(key, tuple) else (key,))): int(n)
        for key, n in grouped.items()
    }


def _upcoming_status(due: dt.date, as_of: dt.date) -> str:
    if due < as_of:
        return "overdue"
    if due == as_of:
        return "due_today"
    if due == as_of + dt.timedelta(days=1):
        return "due_tomorrow"
    return "upcoming"
