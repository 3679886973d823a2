"""The industrial users (``industrial_users``) and their special agreements (``permit_limits``): the demo's
roster of users, the ones its planted cases hang on, and the business that never held a permit."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

import numpy as np
import pandas as pd

from outfall.demo.common import STREETS, mailing, scaled
from outfall.demo.echo import LIMIT_COLUMNS

REAL_METER_USER = "IU-019"
#: The neighbouring village's sewers, metered into the Town's under an inter-municipal agreement: its flow
#: only. (It once carried the real UCI treatment plant record as its samples; that record is a plant's
#: influent, not a user's discharge, and is no longer judged as one: issue 45.)
INTERMUNICIPAL_USER = "IU-020"
PH_PROBE_USER = "IU-006"
#: The user whose mailing address lacks its ZIP code: its notices are not ready to send, and its May
#: notice, recorded as mailed, is held back from the batch to print until the ZIP code is added.
NO_MAILING_ADDRESS_USER = "IU-017"


#: Its permit took effect on 1 February of the demo year: the samples and flow before it are
#: discharges without a permit (ch. 253 Part 2), as are IU-013's after its permit expired on 30 September.
NEW_PERMIT_USER = "IU-016"
#: A business that never held a permit (contract 6.5): on file with its permit columns blank, its meter
#: read above zero on May 20 and the Town's sample of June 9 (sampled_by town: a violation of Part 2's BOD
#: limit, with no 24-hour notice or repeat sampling asked of the user, contract 7.1).
UNPERMITTED_USER = "IU-021"


@dataclass(frozen=True)
class User:
    user_id: str
    name: str
    district: str
    address: str
    kind: str  # diurnal profile: restaurant, day_shift, two_shift, institution
    avg_gpd: float  # design average flow (written as normal_avg_flow_gpd unless hidden)
    write_avg: bool = True
    flow_unit: str = "gpm"
    lab: str = "A"
    strength: str = "general"
    slugs: int = 0
    spikes: int = 0
    metals: bool = False


ROSTER: tuple[User, ...] = (
    User(
        "IU-001",
        "Main Street Diner",
        "consolidated",
        "112 Main St",
        "restaurant",
        4200,
        lab="A",
        strength="restaurant",
        spikes=1,
    ),
    User(
        "IU-002",
        "Golden Wok Restaurant",
        "consolidated",
        "27 Jericho Tpke",
        "restaurant",
        3600,
        lab="B",
        strength="restaurant",
        spikes=2,
    ),
    User(
        "IU-003",
        "Harbor Lights Seafood House",
        "district_1",
        "4 Harbor Rd",
        "restaurant",
        5200,
        lab="C",
        strength="restaurant",
    ),
    User(
        "IU-004",
        "Woodbury Creamery (dairy)",
        "consolidated",
        "350 Woodbury Rd",
        "two_shift",
        38000,
        lab="A",
        strength="dairy",
        slugs=2,
    ),
    User(
        "IU-005",
        "Old Mill Brewing Company",
        "district_1",
        "19 Mill Pond Rd",
        "two_shift",
        22000,
        flow_unit="gpd",
        lab="B",
        strength="brewery",
        slugs=2,
        spikes=1,
    ),
    User(
        "IU-006",
        "Precision Plating & Finishing",
        "consolidated",
        "88 Hillside Ave",
        "day_shift",
        9500,
        lab="A",
        strength="plating",
        slugs=1,
        metals=True,
    ),
    User(
        "IU-007",
        "Sunrise Laundry & Linen Service",
        "district_1",
        "210 South Country Rd",
        "day_shift",
        16000,
        write_avg=False,
        lab="C",
        slugs=1,
        spikes=1,
    ),
    User(
        "IU-008",
        "Woodbury General Hospital",
        "consolidated",
        "1 Crestview Ln",
        "institution",
        95000,
        flow_unit="gpd",
        lab="B",
    ),
    User(
        "IU-009",
        "Bellport Bagel Bakery",
        "district_1",
        "61 Station Rd",
        "two_shift",
        2800,
        lab="C",
        strength="restaurant",
        spikes=1,
    ),
    User(
        "IU-010",
        "Crestview Nursing & Rehabilitation",
        "consolidated",
        "45 Crestview Ln",
        "institution",
        18000,
        lab="A",
    ),
    User(
        "IU-011",
        "Quick Clean Car Wash",
        "consolidated",
        "500 Jericho Tpke",
        "day_shift",
        7500,
        lab="B",
        spikes=2,
    ),
    User(
        "IU-012",
        "Valley Meat Processing",
        "consolidated",
        "14 Park Ave",
        "two_shift",
        26000,
        flow_unit="gpd",
        lab="A",
        strength="meat",
        slugs=1,
    ),
    User("IU-013", "Northside Auto Body", "district_1", "302 Beaver Dam Rd", "day_shift", 1500, lab="C"),
    User(
        "IU-014",
        "Woodbury Country Club Kitchen",
        "consolidated",
        "9 Orchard Ln",
        "restaurant",
        6400,
        lab="B",
        strength="restaurant",
    ),
    User(
        "IU-015",
        "Bellport Fitness & Aquatic Center",
        "district_1",
        "77 Academy Ln",
        "institution",
        12000,
        lab="A",
    ),
    User(
        "IU-016",
        "Atlas Printing Company",
        "consolidated",
        "230 Sycamore Ct",
        "day_shift",
        2100,
        lab="C",
        strength="dilute",
    ),
    User(
        "IU-017",
        "Green Valley Pickle Works",
        "consolidated",
        "18 Elm Dr",
        "two_shift",
        14000,
        lab="A",
        strength="food",
        spikes=1,
    ),
    User(
        "IU-018",
        "Harborview Hotel & Conference Center",
        "district_1",
        "150 Bayview Ave",
        "institution",
        30000,
        flow_unit="gpd",
        lab="B",
    ),
    User(
        REAL_METER_USER,
        "Bellport Industrial Park (master meter)",
        "district_1",
        "1 Osprey Ln",
        "institution",
        1_300_000,
        write_avg=False,
        lab="C",
    ),
    User(
        INTERMUNICIPAL_USER,
        "Village of Eastbrook sewers (inter-municipal agreement, master meter)",
        "consolidated",
        "600 Mill Pond Rd",
        "institution",
        250_000,
        flow_unit="gpd",
        lab="A",
        slugs=1,
    ),
)
#: Users kept at any scale: the ones that the special agreements, the pH probe,
#: the data-derived baselines and the real records hang on.
ESSENTIAL = ("IU-004", "IU-005", "IU-006", "IU-007", REAL_METER_USER, INTERMUNICIPAL_USER)


def roster(scale: float, rng: np.random.Generator) -> list[User]:
    n = scaled(len(ROSTER), scale, len(ESSENTIAL))
    if n <= len(ROSTER):
        keep = [u for u in ROSTER if u.user_id in ESSENTIAL]
        keep += [u for u in ROSTER if u.user_id not in ESSENTIAL][: n - len(keep)]
        return sorted(keep, key=lambda u: u.user_id)
    users = list(ROSTER)
    templates = [u for u in ROSTER if u.user_id not in (REAL_METER_USER, INTERMUNICIPAL_USER)]
    for k in range(len(ROSTER), n):
        t = templates[k % len(templates)]
        district = "consolidated" if rng.random() < 0.6 else "district_1"
        street = STREETS[district][int(rng.integers(len(STREETS[district])))]
        users.append(
            replace(
                t,
                user_id=f"IU-{k + 1:03d}",
                name=f"{t.name} #{k // len(templates) + 1}",
                district=district,
                address=f"{int(rng.integers(1, 900))} {street}",
                avg_gpd=float(round(t.avg_gpd * rng.uniform(0.7, 1.3), -1)),
                write_avg=True,
            )
        )
    return users


def industrial_users(users: list[User], year: int, rng: np.random.Generator) -> pd.DataFrame:
    rows = []
    for i, u in enumerate(users):
        eff = date(year - int(rng.integers(1, 5)), int(rng.integers(4, 13)), int(rng.integers(1, 29)))
        if u.user_id == "IU-003":
            eff = date(year - 5, 12, 16)
        elif u.user_id == "IU-010":
            eff = date(year - 4, 2, 21)
        elif u.user_id == "IU-013":
            eff = date(year - 5, 10, 1)
        elif u.user_id == NEW_PERMIT_USER:
            eff = date(year, 2, 1)  # a new permit: its December and January samples came before it
        expires = date(eff.year + 5, eff.month, eff.day) - timedelta(days=1)
        rows.append(
            {
                "user_id": u.user_id,
                "name": u.name,
                "district": u.district,
                "address": u.address,
                "permit_no": f"SIU-{eff.year}-{i + 1:03d}",
                "permit_effective": eff.isoformat(),
                "permit_expires": expires.isoformat(),
                "normal_avg_flow_gpd": int(u.avg_gpd) if u.write_avg else None,
                **mailing(u.district, u.user_id == NO_MAILING_ADDRESS_USER),
            }
        )
    df = pd.DataFrame(rows)
    df["normal_avg_flow_gpd"] = df["normal_avg_flow_gpd"].astype("Int64")
    return df


def unpermitted(year: int) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    """:data:`UNPERMITTED_USER`: its industrial user row (no permit), its portable meter's readings of
    May 20 and the Town's sample of June 9."""
    user = {
        "user_id": UNPERMITTED_USER,
        "name": "Route 32 Quick Lube",
        "district": "consolidated",
        "address": "310 Route 32",
        **mailing("consolidated"),
    }
    start = datetime(year, 5, 20, 10, 0)
    flow = pd.DataFrame(
        {
            "user_id": UNPERMITTED_USER,
            "timestamp": [
                (start + timedelta(minutes=15 * k)).strftime("%Y-%m-%dT%H:%M:%S") for k in range(8)
            ],
            "value": [12.0, 18.5, 22.0, 20.5, 19.0, 16.5, 9.0, 4.5],
            "unit": "gpm",
            "constituent": "flow",
        }
    )
    lab = pd.DataFrame(
        [
            {
                "sample_id": f"{UNPERMITTED_USER}-{year}0609-T",
                "user_id": UNPERMITTED_USER,
                "collected_at": f"{year}-06-09T10:30:00",
                "sample_type": "grab",
                "parameter": "BOD",
                "result": "310",
                "unit": "mg/L",
                "mdl": None,
                "lab": "Suffolk Environmental Laboratories",
                "method": "SM 5210 B",
                "sampled_by": "town",
            }
        ]
    )
    return user, flow, lab


#: The special agreements of the Town Board (ch. 253 Part 2): (user_id, parameter, limit type, value, unit,
#: basis, effective from, effective to); the basis names its resolution of the demo year (``{year}``) or the
#: year before (``{last_year}``), the days are (month, day) of the demo year.
SPECIAL_AGREEMENTS = (
    (
        "IU-005",
        "BOD",
        "max",
        400,
        "mg/L",
        "Special agreement with Old Mill Brewing Co., Town Board resolution {year}-41 "
        "(Woodbury Code ch. 253 Part 2, discharges requiring Town Board approval (a)); "
        "brewery surcharge paid",
        (4, 1),
        None,
    ),
    (
        "IU-006",
        "copper",
        "max",
        1.0,
        "mg/L",
        "Pretreatment agreement with Precision Plating & Finishing, resolution {last_year}-77 "
        "(ch. 253 Part 2, Town Board limits on metals)",
        (1, 1),
        None,
    ),
    (
        "IU-006",
        "zinc",
        "max",
        2.0,
        "mg/L",
        "Pretreatment agreement with Precision Plating & Finishing, resolution {last_year}-77 "
        "(ch. 253 Part 2, Town Board limits on metals)",
        (1, 1),
        None,
    ),
    (
        "IU-004",
        "TSS",
        "max",
        450,
        "mg/L",
        "Temporary agreement with Woodbury Creamery while its DAF unit is rebuilt, resolution "
        "{last_year}-102 (ch. 253 Part 2 (d))",
        (1, 1),
        (6, 30),
    ),
    # a monthly-average limit under Part 2's 240 per sample: significant noncompliance on the
    # monthly averages while every single sample stays under 240 (contract 5.2)
    (
        "IU-017",
        "BOD",
        "monthly_avg",
        150,
        "mg/L",
        "Pretreatment agreement with Green Valley Pickle Works, resolution {last_year}-88: monthly "
        "average (ch. 253 Part 2, special agreements)",
        (1, 1),
        None,
    ),
)


def special_agreements(user_ids: set[str], year: int) -> pd.DataFrame:
    """The special agreements (``permit_limits``) of the users in ``user_ids``, dated in ``year``."""
    rows = [
        (
            uid,
            parameter,
            kind,
            value,
            unit,
            basis.format(year=year, last_year=year - 1),
            date(year, *start),
            date(year, *end) if end else None,
        )
        for uid, parameter, kind, value, unit, basis, start, end in SPECIAL_AGREEMENTS
    ]
    df = pd.DataFrame(rows, columns=LIMIT_COLUMNS)
    df = df[df["user_id"].isin(user_ids)].reset_index(drop=True)
    df["value"] = [f"{v:g}" for v in df["value"]]
    for col in ("effective_from", "effective_to"):
        df[col] = [d.isoformat() if d else None for d in df[col]]
    return df
