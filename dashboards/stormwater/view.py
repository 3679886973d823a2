"""The stormwater page's view: the data read once into what every panel uses (``StormwaterView``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from dashboards.html import (
    Chart,
    Col,
    as_frame,
    frames,
    is_missing,
    months_words,
    named,
    short_name,
    slug,
)
from dashboards.stormwater.data import StormwaterData
from dashboards.stormwater.sites import site_status

# --------------------------------------------------------------------------- page: a list of panels

UPCOMING_WORDS = {
    "overdue": ("Overdue", "bad"),
    "due_today": ("Due today", "warn"),
    "due_tomorrow": ("Due tomorrow", "warn"),
    "upcoming": ("Upcoming", "info"),
}
REQUIREMENT_WORDS = {
    "weekly": "weekly inspection",
    "storm": "inspection after a storm",
    "milestone": "milestone inspection",
}


@dataclass
class StormwaterView:
    """What the panels share, worked out once: the frames, each site's status and name, the months the
    findings cover, the jurisdictions' names and the charts drawn so far."""

    data: StormwaterData
    status: pd.DataFrame
    findings: pd.DataFrame
    other: pd.DataFrame
    upcoming: pd.DataFrame
    insp: pd.DataFrame
    rain: pd.DataFrame
    names: dict[Any, Any]
    charts: list[Chart] = field(default_factory=list)

    @property
    def as_of(self) -> pd.Timestamp:
        return pd.Timestamp(self.data.as_of)

    @property
    def week_end(self) -> pd.Timestamp:
        return self.as_of + pd.Timedelta(days=self.data.week_days)

    @property
    def period(self) -> str:
        """The months of the inspections' due days: 'March 2026 to November 2026'."""
        if self.findings.empty:
            return "no finding yet"
        days = pd.to_datetime(self.findings["due_by"]).dropna()
        return months_words(days.min(), days.max()) if len(days) else "no finding yet"

    def week(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The upcoming inspections due by the week's end (overdue ones too), and the later ones."""
        up = self.upcoming
        if up.empty:
            return up, up
        up = up.assign(due_by=pd.to_datetime(up["due_by"]))
        return (
            up[up["due_by"] <= self.week_end].sort_values(["due_by", "site_id"]),
            up[up["due_by"] > self.week_end],
        )

    def jurisdiction(self, value: Any) -> str:
        """The jurisdiction's name as its rules file gives it ("Village of ...")."""
        rules = self.data.rules.get(str(value)) if not is_missing(value) else None
        return rules.name if rules is not None and rules.name else str(value or "").title()

    def site(self, width: str = "24%") -> Col:
        return Col(
            "site_id",
            "Site",
            width=width,
            html=lambda r: named(
                r["site_id"], short_name(self.names.get(r["site_id"])), f"#site-{slug(r['site_id'])}"
            ),
        )


def stormwater_view(data: StormwaterData) -> StormwaterView:
    status = site_status(data)
    findings, other, upcoming, insp, rain = frames(
        data, "findings", "other", "upcoming", "inspections", "rain"
    )
    names: dict[Any, Any] = {}
    for frame, column in ((as_frame(data.sites), "name"), (status, "name"), (upcoming, "site_name")):
        if not frame.empty and column in frame:
            names.update({s: n for s, n in zip(frame["site_id"], frame[column]) if not is_missing(n)})
    return StormwaterView(data, status, findings, other, upcoming, insp, rain, names)
