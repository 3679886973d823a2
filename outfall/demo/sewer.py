"""The sewer administrator's folders (docs/inputs-sewer.md): ``infiltration_tests``, ``reports`` (periodic
and slug), ``accidental_discharges``, ``grease_traps`` and ``pumpouts``, and the testing required of each user
(``monitoring_requirements``, contract 6.3)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import numpy as np
import pandas as pd

from outfall.demo.common import scaled, weekday, window
from outfall.demo.flow import Slug
from outfall.demo.users import INTERMUNICIPAL_USER, NEW_PERMIT_USER, REAL_METER_USER, User

# --------------------------------------------------------- infiltration tests


def infiltration_tests(scale: float, year: int, rng: np.random.Generator) -> pd.DataFrame:
    n = scaled(12, scale, 12)
    diameters = np.array([8, 10, 12, 15, 18, 21, 24])
    diam = rng.choice(diameters, size=n)
    length = np.round(rng.uniform(200, 3000, size=n), -1)
    factor = rng.uniform(0.2, 0.92, size=n)
    fail = rng.choice(np.arange(1, n), size=3, replace=False)
    factor[fail] = rng.uniform(1.15, 1.9, size=3)
    diam[0], length[0], factor[0] = 8, 2640.0, 1.0  # exactly at the limit: 800 gpd passes
    allowable = 200 * diam * length / 5280
    measured = np.round(allowable * factor, 0)
    days = np.sort(rng.integers(90, 300, size=n))
    dates = [weekday(date(year, 1, 1) + timedelta(days=int(d))).isoformat() for d in days]
    return pd.DataFrame(
        {
            "section_id": [f"MH{101 + 2 * i:03d}-MH{102 + 2 * i:03d}" for i in range(n)],
            "test_date": dates,
            "diameter_in": diam.astype(int),
            "length_ft": length.astype(int),
            "measured_gpd": measured.astype(int),
        }
    )


# ------------------------------------------ the sewer administrator's folders

#: The user whose periodic report for the second half of the year before came in 50 days late.
LATE_PERIODIC_USER = "IU-007"
LATE_PERIODIC_DAYS = 50
#: Periodic reports are due this many days after their six-month period ends.
PERIODIC_DUE_DAYS = 30
#: The planted slug whose written report is late (received 9 days after) and the one with none.
SLUG_REPORT_LATE = "IU-005"  # its last slug
SLUG_REPORT_MISSING = "IU-006"  # its only slug
SLUG_REPORT_DAYS = 5
#: (user_id, occurred local time, minutes to the phone call, days to the written statement, description)
ACCIDENTAL_DISCHARGES = (
    ("IU-004", (3, 10, 14, 20), 45, 9, "Whey storage tank overflowed to a floor drain during a pump failure"),
    (
        "IU-006",
        (6, 9, 10, 0),
        90,
        20,
        "Acid rinse tank valve failed open; rinse water reached the sanitary sewer "
        "before the pH neutralization system",
    ),
    ("IU-011", (9, 2, 7, 40), 95, 10, "Oil-water separator bypassed while its pump was replaced"),
    (
        "IU-005",
        (11, 20, 16, 10),
        50,
        None,
        "Spent grain slurry washed to a floor drain during a clean-in-place cycle",
    ),
)
#: The restaurant whose grease trap is overdue for pumping.
OVERDUE_TRAP_USER = "IU-003"
#: The owners of the restaurants' premises, to whom an order directing compliance goes (contract 8.4: the
#: owner the inputs name; invented names and addresses). A trap without one gets an order that is not ready.
TRAP_OWNERS = {
    OVERDUE_TRAP_USER: ("Harbor Road Realty LLC", "PO Box 412", "Central Valley", "NY", "10917"),
}
OWNER_COLUMNS = ("owner_name", "owner_address", "owner_city", "owner_state", "owner_zip")
HAULERS = ("A-1 Grease Trap Service", "Nassau Suffolk Liquid Waste Inc.", "Island Environmental Pumping")


def reports(
    users: list[User], slugs: list[Slug], year: int, as_of: date, rng: np.random.Generator
) -> pd.DataFrame:
    """Periodic reports of every user for the two six-month periods due by ``as_of``
    (:data:`LATE_PERIODIC_USER`'s first one 50 days late), and a slug report for each
    slug of the plan, grouped by run of days (one late, one missing)."""
    rows = []
    periods = [(date(year - 1, 7, 1), date(year - 1, 12, 31)), (date(year, 1, 1), date(year, 6, 30))]
    for u in users:
        for i, (ps, pe) in enumerate(periods):
            due = pe + timedelta(days=PERIODIC_DUE_DAYS)
            received = due - timedelta(days=int(rng.integers(0, 21)))
            if u.user_id == LATE_PERIODIC_USER and i == 0:
                received = due + timedelta(days=LATE_PERIODIC_DAYS)
            if due <= as_of:
                rows.append(
                    {
                        "user_id": u.user_id,
                        "report_type": "periodic",
                        "period_start": ps.isoformat(),
                        "period_end": pe.isoformat(),
                        "due_date": due.isoformat(),
                        "received_on": min(received, as_of).isoformat(),
                    }
                )
    late_slug = max((e for e in slugs if e.user_id == SLUG_REPORT_LATE), key=lambda e: e.start, default=None)
    by_user: dict[str, list[date]] = {}
    for e in slugs:
        if e.user_id == SLUG_REPORT_MISSING:
            continue
        by_user.setdefault(e.user_id, []).append(e.local_day)
    for uid in sorted(by_user):
        days = sorted(set(by_user[uid]))
        groups: list[list[date]] = []
        for d in days:  # slugs on consecutive days are one incident and one report
            if groups and (d - groups[-1][-1]).days <= 1:
                groups[-1].append(d)
            else:
                groups.append([d])
        for g in groups:
            lag = int(rng.integers(1, 5))
            if late_slug is not None and late_slug.user_id == uid and late_slug.local_day in g:
                lag = SLUG_REPORT_DAYS + 4
            rows.append(
                {
                    "user_id": uid,
                    "report_type": "slug",
                    "period_start": g[0].isoformat(),
                    "period_end": g[-1].isoformat(),
                    "due_date": (g[0] + timedelta(days=SLUG_REPORT_DAYS)).isoformat(),
                    "received_on": min(g[-1] + timedelta(days=lag), as_of).isoformat(),
                }
            )
    return pd.DataFrame(
        rows, columns=["user_id", "report_type", "period_start", "period_end", "due_date", "received_on"]
    )


def accidental_discharges(user_ids: set[str], year: int, as_of: date) -> pd.DataFrame:
    rows = []
    for uid, (month, day, hour, minute), call_min, statement_days, text in ACCIDENTAL_DISCHARGES:
        if uid not in user_ids:
            continue
        occurred = datetime(year, month, day, hour, minute)
        notified = occurred + timedelta(minutes=call_min)
        statement = notified.date() + timedelta(days=statement_days) if statement_days is not None else None
        if occurred.date() > as_of:
            continue
        rows.append(
            {
                "user_id": uid,
                "occurred_at": occurred.strftime("%Y-%m-%dT%H:%M:%S"),
                "notified_at": notified.strftime("%Y-%m-%dT%H:%M:%S"),
                "statement_received_on": statement.isoformat() if statement and statement <= as_of else None,
                "description": text,
            }
        )
    return pd.DataFrame(
        rows, columns=["user_id", "occurred_at", "notified_at", "statement_received_on", "description"]
    )


def grease(users: list[User], as_of: date, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A grease trap for every restaurant among the users, its pump-out frequency set
    before the window, and pump-outs on time through ``as_of``; :data:`OVERDUE_TRAP_USER`'s
    stopped in the summer, and one pump-out has no invoice on file."""
    first, _ = window(as_of)
    traps, pumps = [], []
    invoice = 4100
    restaurants = [u for u in users if u.kind == "restaurant" or u.strength == "restaurant"]
    for n, u in enumerate(restaurants):
        trap_id = f"GT-{u.user_id[3:]}"
        interval = 60 if u.avg_gpd >= 5000 else 90
        set_on = first - timedelta(days=int(rng.integers(5, 40)))
        traps.append(
            {
                "trap_id": trap_id,
                "user_id": u.user_id,
                "parcel_id": None,
                "establishment": u.name,
                "address": u.address,
                "pumpout_interval_days": interval,
                "set_on": set_on.isoformat(),
                **dict(zip(OWNER_COLUMNS, TRAP_OWNERS.get(u.user_id, (None,) * 5))),
            }
        )
        stop = as_of - timedelta(days=interval + 35) if u.user_id == OVERDUE_TRAP_USER else as_of
        hauler = HAULERS[n % len(HAULERS)]
        last = set_on
        k = 0
        while True:
            nxt = last + timedelta(days=interval - int(rng.integers(0, 10)))
            if nxt > stop:
                break
            invoice += int(rng.integers(3, 40))
            k += 1
            missing = n == 0 and k == 2  # the first restaurant's second pump-out: no invoice on file
            pumps.append(
                {
                    "trap_id": trap_id,
                    "pumped_on": nxt.isoformat(),
                    "hauler": hauler,
                    "invoice_no": None if missing else f"INV-{nxt.year}-{invoice:05d}",
                }
            )
            last = nxt
    trap_df = pd.DataFrame(
        traps,
        columns=[
            "trap_id",
            "user_id",
            "parcel_id",
            "establishment",
            "address",
            "pumpout_interval_days",
            "set_on",
            *OWNER_COLUMNS,
        ],
    )
    pump_df = pd.DataFrame(pumps, columns=["trap_id", "pumped_on", "hauler", "invoice_no"])
    return trap_df, pump_df


#: Required testing beyond the monthly BOD and TSS composites of every user: (user_id, parameter as the
#: clerk writes it, frequency, sample type (blank: either)).
EXTRA_TESTING = (
    ("IU-006", "copper", "quarterly", "composite"),
    ("IU-006", "pH", "monthly", "grab"),
    ("IU-008", "temperature", "semiannual", "grab"),
    ("IU-010", "chlorine demand", "annual", "composite"),
    ("IU-011", "pH", "monthly", "grab"),
)
#: Its permit expired on 30 September: its requirements end with it.
EXPIRED_PERMIT_USER = "IU-013"


def monitoring_requirements(users: list[User], year: int) -> pd.DataFrame:
    """The testing the administrator requires (contract 6.3), from the schedule letter that took effect on
    1 December of the year before: monthly BOD5 and TSS composites of every user (not the industrial park's
    master meter nor the neighbouring village's sewers, which report under their own agreements), oil and
    grease every quarter of the restaurants (any sample), and :data:`EXTRA_TESTING`. The new permit's
    requirements have no start date (they run from its permit); the expired permit's end with it."""
    letter = f"Superintendent's monitoring schedule letter of {year - 1}-11-14"
    rows = []
    for u in users:
        if u.user_id in (REAL_METER_USER, INTERMUNICIPAL_USER):
            continue
        tests = [("BOD5", "monthly", "composite"), ("TSS", "monthly", "composite")]
        if u.strength == "restaurant":
            tests.append(("oil and grease", "quarterly", ""))
        tests += [t[1:] for t in EXTRA_TESTING if t[0] == u.user_id]
        start = "" if u.user_id == NEW_PERMIT_USER else date(year - 1, 12, 1).isoformat()
        end = date(year, 9, 30).isoformat() if u.user_id == EXPIRED_PERMIT_USER else ""
        rows += [(u.user_id, p, f, t, start, end, letter) for p, f, t in tests]
    return pd.DataFrame(
        rows,
        columns=[
            "user_id",
            "parameter",
            "frequency",
            "sample_type",
            "effective_from",
            "effective_to",
            "basis",
        ],
    ).replace("", None)
