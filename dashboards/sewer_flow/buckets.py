"""Shaping the flow the page reads (pure, used by the asset): the hours a point stands for, the points a
user gets."""

from __future__ import annotations

# ----------------------------------------------------------------------- shaping (pure, used by the asset)

BUCKET_HOURS = (1, 2, 3, 4, 6, 8, 12, 24, 48, 168)


def choose_bucket_hours(span_hours: float, max_points: int = 1500) -> int:
    """The finest of 1, 2, 3, 4, 6, 8, 12, 24, 48 or 168 hours giving at most ``max_points`` means.

    A month of readings gets hourly means; a year gets 6-hour means (1,460 points)."""
    for hours in BUCKET_HOURS:
        if span_hours / hours <= max_points:
            return hours
    return BUCKET_HOURS[-1]


def flow_points_per_user(budget: int, users: int) -> int:
    """Each charted user's share of the page's ``budget`` of flow points: the budget divided evenly among
    the ``users`` (rounded down), at least one point each; the whole budget when no user is charted."""
    if budget < 1:
        raise ValueError(f"a budget of flow points is at least 1 (got {budget})")
    if users < 0:
        raise ValueError(f"a number of users is at least 0 (got {users})")
    return budget if users == 0 else max(1, budget // users)
