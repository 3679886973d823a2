"""The sewer page's view: the data read once into what every panel uses (``SewerView``), and the words
the panels share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from dashboards.html import (
    Chart,
    Col,
    badge,
    fmt_datetime,
    is_missing,
    local_naive,
    months_words,
    named,
    short_name,
    slug,
    to_date_words,
)
from dashboards.sewer.data import SewerData, _frame
from dashboards.sewer.summary import user_summary

# ----------------------------------------------------------------------- page: a list of panels

STATISTIC_WORDS = {"daily_max": "daily maximum", "monthly_avg": "monthly average"}
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


SNC_BASIS_LABELS = {
    "sample": "single samples",
    "daily_max": "daily maximums",
    "monthly_avg": "monthly averages",
}
