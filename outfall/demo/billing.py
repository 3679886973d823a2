"""The clerk's folders: ``parcels`` (every property class, the boundary cases of Part 3, four bad rows),
``sewer_rates`` (two years), ``sewer_budget`` (the next billing year's) and ``connection_permits``
(ch. 301)."""

from __future__ import annotations

from datetime import date

import numpy as np
import pandas as pd

from outfall.demo.common import FIRST, LAST, POST_OFFICES, STREETS, bools, scaled

# ------------------------------------------------------------------ parcels

CLASS_WEIGHTS = {
    "single_family": 0.74,
    "two_family": 0.06,
    "three_family": 0.02,
    "apartment": 0.025,
    "trailer_park": 0.003,
    "motel": 0.004,
    "commercial": 0.05,
    "laundromat": 0.004,
    "large_establishment": 0.006,
    "senior_high_school": 0.001,
    "elementary_school": 0.002,
    "restaurant": 0.012,
    "exempt": 0.02,
    "approved_lot": 0.02,
    "vacant": 0.035,
}
PARCEL_COLUMNS = [
    "parcel_id",
    "district",
    "property_class",
    "acres",
    "living_units",
    "bathrooms",
    "washing_machines",
    "people",
    "seats",
    "moratorium",
    "owner",
    "address",
    "city",
    "state",
    "zip",
]
#: How many parcels' owners have no city, state or ZIP code on file: the sewer register and the billing
#: page warn of them, and the clerk's list asks for each (contract 6.5's address rule).
PARCELS_WITHOUT_MAILING_PLACE = 3
_C, _D1 = "consolidated", "district_1"
#: Boundary cases of Part 3 that every demo must bill, plus four bad rows.
SPECIAL_PARCELS = (
    {"district": _C, "property_class": "single_family", "acres": 3.0},
    {"district": _C, "property_class": "single_family", "acres": 3.01},
    {"district": _D1, "property_class": "single_family", "acres": 5.5},
    {"district": _C, "property_class": "single_family", "acres": 74.0},
    {"district": _C, "property_class": "single_family", "acres": 75.0},
    {"district": _D1, "property_class": "single_family", "acres": 76.0},
    {"district": _C, "property_class": "single_family", "acres": 120.0},
    {"district": _D1, "property_class": "single_family", "acres": 0.5, "moratorium": True},
    {"district": _C, "property_class": "two_family", "acres": 0.3},
    {"district": _D1, "property_class": "three_family", "acres": 0.4},
    {"district": _C, "property_class": "apartment", "acres": 2.1, "living_units": 24},
    {"district": _D1, "property_class": "trailer_park", "acres": 9.5, "living_units": 55},
    {"district": _C, "property_class": "motel", "acres": 3.2, "living_units": 32, "moratorium": True},
    {"district": _C, "property_class": "commercial", "acres": 0.6, "bathrooms": 0},
    {"district": _D1, "property_class": "commercial", "acres": 1.1, "bathrooms": 3},
    {"district": _C, "property_class": "laundromat", "acres": 0.3, "bathrooms": 1, "washing_machines": 10},
    {"district": _D1, "property_class": "laundromat", "acres": 0.4, "bathrooms": 2, "washing_machines": 11},
    {"district": _C, "property_class": "large_establishment", "acres": 4.0, "people": 15},
    {"district": _C, "property_class": "large_establishment", "acres": 6.0, "people": 16},
    {"district": _D1, "property_class": "large_establishment", "acres": 2.5, "people": 301},
    {"district": _C, "property_class": "senior_high_school", "acres": 38.0, "people": 1210},
    {"district": _D1, "property_class": "elementary_school", "acres": 12.0, "people": 455},
    {"district": _C, "property_class": "elementary_school", "acres": 1.5, "people": 14},
    {"district": _C, "property_class": "restaurant", "acres": 0.4, "seats": 40},
    {"district": _C, "property_class": "restaurant", "acres": 0.5, "seats": 50},
    {"district": _D1, "property_class": "restaurant", "acres": 0.5, "seats": 51},
    {"district": _C, "property_class": "restaurant", "acres": 0.8, "seats": 100},
    {"district": _D1, "property_class": "restaurant", "acres": 0.9, "seats": 101},
    {"district": _C, "property_class": "restaurant", "acres": 1.2, "seats": 150},
    {"district": _C, "property_class": "exempt", "acres": 2.0},
    {"district": _D1, "property_class": "approved_lot", "acres": 0.5},
    {"district": _C, "property_class": "vacant", "acres": 12.0},
    {"district": _C, "property_class": "vacant", "acres": 75.0},
    {"district": _D1, "property_class": "vacant", "acres": 75.01},
    {"district": _C, "property_class": "vacant", "acres": 160.0},
    # bad rows
    {"district": _C, "property_class": "castle", "acres": 1.0},
    {"district": _D1, "property_class": "restaurant", "acres": 0.5},  # no seats
    {"district": "district_9", "property_class": "single_family", "acres": 0.3},
    {"district": _C, "property_class": "single_family", "acres": "two"},  # unparseable
)


def parcels_frame(scale: float, rng: np.random.Generator) -> pd.DataFrame:
    """The parcels: :data:`SPECIAL_PARCELS` among ``3000 x scale`` drawn by :data:`CLASS_WEIGHTS`, shuffled,
    numbered by tax map, with owners, addresses and mailing places."""
    n_total = scaled(3000, scale, len(SPECIAL_PARCELS) + 50)
    n = n_total - len(SPECIAL_PARCELS)
    random_part = _random_parcels(n, rng)
    special = pd.DataFrame(list(SPECIAL_PARCELS))
    special["moratorium"] = special["moratorium"].eq(True)
    for col in ("living_units", "bathrooms", "washing_machines", "people", "seats"):
        special[col] = special.get(col, pd.Series(dtype="float")).astype("Int64")
    df = pd.concat([special, random_part], ignore_index=True)
    df = df.iloc[rng.permutation(len(df))].reset_index(drop=True)
    m = len(df)
    idx = np.arange(m)
    df.insert(
        0, "parcel_id", [f"{100 + i // 250:03d}.00-{(i // 25) % 10 + 1:02d}-{i % 25 + 1:03d}" for i in idx]
    )
    df["moratorium"] = bools(df["moratorium"])
    df["owner"] = _owners(df, rng)
    df["address"] = _addresses(df, rng)
    _mailing_places(df)
    return df[PARCEL_COLUMNS]


def _random_parcels(n: int, rng: np.random.Generator) -> pd.DataFrame:
    """``n`` parcels of the classes of :data:`CLASS_WEIGHTS`, each with the measures its class bills by."""
    classes = np.array(list(CLASS_WEIGHTS))
    weights = np.array(list(CLASS_WEIGHTS.values()))
    cls = rng.choice(classes, size=n, p=weights / weights.sum())
    district = np.where(rng.random(n) < 0.7, _C, _D1)
    acres = np.round(np.clip(rng.lognormal(np.log(0.35), 0.6, n), 0.1, 2.95), 2)
    big = (cls == "single_family") & (rng.random(n) < 0.03)
    acres[big] = np.round(rng.uniform(3.05, 20, big.sum()), 2)
    vac = cls == "vacant"
    acres[vac] = np.round(rng.uniform(0.5, 60, vac.sum()), 2)

    def ints(mask, lo, hi):
        col = pd.array([pd.NA] * n, dtype="Int64")
        col[mask] = rng.integers(lo, hi + 1, size=int(mask.sum()))
        return col

    living = ints(np.isin(cls, ["apartment"]), 4, 60)
    living[cls == "trailer_park"] = rng.integers(20, 81, size=int((cls == "trailer_park").sum()))
    living[cls == "motel"] = rng.integers(12, 61, size=int((cls == "motel").sum()))
    baths = ints(cls == "commercial", 1, 6)
    baths[cls == "laundromat"] = rng.integers(1, 3, size=int((cls == "laundromat").sum()))
    machines = ints(cls == "laundromat", 8, 40)
    people = ints(cls == "large_establishment", 20, 400)
    people[cls == "senior_high_school"] = rng.integers(
        600, 1501, size=int((cls == "senior_high_school").sum())
    )
    people[cls == "elementary_school"] = rng.integers(250, 701, size=int((cls == "elementary_school").sum()))
    seats = ints(cls == "restaurant", 20, 160)
    moratorium = rng.random(n) < 0.02

    return pd.DataFrame(
        {
            "district": district,
            "property_class": cls,
            "acres": acres.astype(object),
            "living_units": living,
            "bathrooms": baths,
            "washing_machines": machines,
            "people": people,
            "seats": seats,
            "moratorium": moratorium,
        }
    )


def _owners(df: pd.DataFrame, rng: np.random.Generator) -> pd.Series:
    """An owner of each parcel: a person, a business's holding company, the school district or the Town."""
    m = len(df)
    first = np.array(FIRST)[rng.integers(len(FIRST), size=m)]
    last = np.array(LAST)[rng.integers(len(LAST), size=m)]
    owners = pd.Series([f"{b}, {a}" for a, b in zip(first, last)])
    business = ~df["property_class"].isin(
        ["single_family", "two_family", "three_family", "vacant", "approved_lot"]
    )
    owners[business] = [f"{b} Holdings LLC" for b in last[business.to_numpy()]]
    owners[df["property_class"].str.contains("school")] = "Woodbury Union Free School District"
    owners[df["property_class"] == "exempt"] = "Town of Woodbury"
    return owners


def _addresses(df: pd.DataFrame, rng: np.random.Generator) -> list[str]:
    """A street address of each parcel, on a street of its district."""
    m = len(df)
    numbers = rng.integers(1, 999, size=m)
    street_pick = rng.random(m)
    return [
        f"{num} {STREETS[d if d in STREETS else _C][int(p * len(STREETS[d if d in STREETS else _C]))]}"
        for num, d, p in zip(numbers, df["district"], street_pick)
    ]


def _mailing_places(df: pd.DataFrame) -> None:
    """The owner's city, state and ZIP code for the register's mail merge: the post office of the parcel's
    district (the street line is the parcel's address); the first few single-family parcels have none."""
    office = df["district"].map(POST_OFFICES)
    for i, key in enumerate(("city", "state", "zip")):
        df[key] = [o[i] if isinstance(o, tuple) else None for o in office]
    without = df.index[df["property_class"] == "single_family"][:PARCELS_WITHOUT_MAILING_PLACE]
    df.loc[without, ["city", "state", "zip"]] = None


# -------------------------------------------------------------- sewer rates


def sewer_rates(year: int) -> pd.DataFrame:
    current = {
        _C: {"bond": 112.345, "om": 187.50, "street_lateral": 24.10, "house_lateral": 18.75},
        _D1: {"bond": 96.80, "om": 201.25, "street_lateral": 31.40, "house_lateral": 22.60},
    }
    previous = {
        _C: {"bond": 108.97, "om": 181.90, "street_lateral": 23.40, "house_lateral": 18.20},
        _D1: {"bond": 94.15, "om": 195.35, "street_lateral": 30.45, "house_lateral": 21.95},
    }
    rows = [
        {"year": y, "district": d, "component": c, "rate_per_unit": v}
        for y, table in ((year - 1, previous), (year, current))
        for d, comps in table.items()
        for c, v in comps.items()
    ]
    return pd.DataFrame(rows)


# -------------------------------------------------------------- sewer budget

#: The districts' budgets (USD) for the year after the demo year, at scale 1 (about
#: 3.5% above that year's adopted rates x units). No rate is adopted for that year, so
#: its rates come from these (rules billing.rate_sources: sewer_rates, then sewer_budget).
NEXT_YEAR_BUDGET = {
    _C: {"bond": 661_000, "om": 995_000, "street_lateral": 132_500, "house_lateral": 98_000},
    _D1: {"bond": 276_000, "om": 511_500, "street_lateral": 84_500, "house_lateral": 59_250},
}


def sewer_budget(year: int, n_parcels: int) -> pd.DataFrame:
    """The next year's budget, scaled with the number of parcels (to the $10)."""
    factor = n_parcels / 3000
    rows = [
        {"year": year + 1, "district": d, "component": c, "amount": f"{round(v * factor, -1):.2f}"}
        for d, comps in NEXT_YEAR_BUDGET.items()
        for c, v in comps.items()
    ]
    return pd.DataFrame(rows, columns=["year", "district", "component", "amount"])


def first_parcel(parcels: pd.DataFrame, property_class: str, skip: int = 0) -> pd.Series:
    """The ``skip``-th parcel of a class in a real district, by parcel id (deterministic)."""
    ok = parcels[(parcels["property_class"] == property_class) & parcels["district"].isin([_C, _D1])]
    ok = ok[pd.to_numeric(ok["acres"], errors="coerce").notna()].sort_values("parcel_id")
    return ok.iloc[skip]


def connection_permits(parcels: pd.DataFrame, year: int) -> pd.DataFrame:
    """Building permits with water and sewer inspections (ch. 301): single family, commercial, one in a
    shopping mall (not in the schedule), one of last year, and a use that is neither word."""
    sf = [first_parcel(parcels, "single_family", k)["parcel_id"] for k in range(3)]
    com = [first_parcel(parcels, "commercial", k)["parcel_id"] for k in range(1, 4)]
    rows = [
        (f"CP-{year}-001", sf[0], "single_family", None, "true", "true", date(year, 3, 9)),
        (f"CP-{year}-002", sf[1], "single_family", None, "false", "true", date(year, 4, 14)),
        (f"CP-{year}-003", com[0], "commercial", "false", "true", "true", date(year, 5, 20)),
        (f"CP-{year}-004", com[1], "commercial", "true", "true", "true", date(year, 6, 11)),  # in a mall
        (f"CP-{year}-005", com[2], "commercial", "false", "true", "false", date(year, 9, 2)),
        (f"CP-{year}-006", sf[2], "residential", None, "true", "true", date(year, 10, 5)),  # neither word
        (f"CP-{year - 1}-014", sf[2], "single_family", None, "true", "true", date(year - 1, 10, 6)),
    ]
    df = pd.DataFrame(
        rows,
        columns=["permit_id", "parcel_id", "use", "in_mall_or_business_park", "water", "sewer", "applied_on"],
    )
    df["applied_on"] = [x.isoformat() for x in df["applied_on"]]
    return df
