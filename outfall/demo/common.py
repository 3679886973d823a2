"""What the demo town's datasets share: its time zone and post offices, the names and streets its people and
addresses are drawn from, the 365 days of its meters and rain gauges, and small helpers."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

LOCAL_TZ = "America/New_York"


#: The post office of each district or village, for the mailing addresses (invented ZIP codes are
#: not used: these are the real offices of the places the demo is named after).
POST_OFFICES = {
    "consolidated": ("Central Valley", "NY", "10917"),
    "district_1": ("Highland Mills", "NY", "10930"),
    "woodbury": ("Central Valley", "NY", "10917"),
    "bellport": ("Bellport", "NY", "11713"),
}


def bools(values) -> list[str]:
    return ["true" if bool(v) else "false" for v in values]


def scaled(base: int, scale: float, minimum: int) -> int:
    return max(minimum, int(round(base * scale)))


def weekday(d: date) -> date:
    """Move a Saturday back to Friday and a Sunday on to Monday."""
    if d.weekday() == 5:
        return d - timedelta(days=1)
    if d.weekday() == 6:
        return d + timedelta(days=1)
    return d


FIRST = (
    "James",
    "Maria",
    "Robert",
    "Linda",
    "Michael",
    "Patricia",
    "David",
    "Jennifer",
    "William",
    "Elizabeth",
    "Joseph",
    "Susan",
    "Thomas",
    "Karen",
    "Daniel",
    "Nancy",
    "Anthony",
    "Lisa",
    "Kevin",
    "Angela",
    "Brian",
    "Rosa",
    "Samuel",
    "Grace",
    "Wei",
    "Priya",
    "Tomasz",
    "Aisha",
    "Diego",
    "Mei",
)
LAST = (
    "Smith",
    "Johnson",
    "Rivera",
    "Brown",
    "O'Connor",
    "Garcia",
    "Miller",
    "Davis",
    "Kowalski",
    "Nguyen",
    "Patel",
    "Murphy",
    "Schmidt",
    "Rossi",
    "Cohen",
    "Walsh",
    "Kim",
    "Lopez",
    "Baker",
    "Fitzgerald",
    "Chen",
    "Novak",
    "Hughes",
    "Santos",
    "Morrison",
    "Greenberg",
    "Dubois",
    "Okafor",
    "Lindqvist",
    "Haddad",
)
STREETS = {
    "consolidated": (
        "Main St",
        "Jericho Tpke",
        "Woodbury Rd",
        "Elm Dr",
        "Crestview Ln",
        "Park Ave",
        "Sycamore Ct",
        "Hillside Ave",
        "Orchard Ln",
        "Mill Pond Rd",
    ),
    "district_1": (
        "Harbor Rd",
        "Bayview Ave",
        "South Country Rd",
        "Station Rd",
        "Beaver Dam Rd",
        "Osprey Ln",
        "Bellport Ln",
        "Academy Ln",
    ),
}


def mailing(place: str, missing: bool = False) -> dict:
    """city, state and ZIP code of a recipient's mailing address (the ZIP code blank for the one without)."""
    city, state, zip_code = POST_OFFICES.get(place, POST_OFFICES["consolidated"])
    return {"city": city, "state": state, "zip": None if missing else zip_code}


def window(as_of: date) -> tuple[date, date]:
    """The 365 local days of the meters and the rain gauge: ``as_of - 364 days`` .. ``as_of``."""
    return as_of - timedelta(days=364), as_of


def day_of(year: int) -> Callable[[int, int], str]:
    """``(month, day)`` of ``year`` as its ISO date."""
    return lambda month, day: date(year, month, day).isoformat()
