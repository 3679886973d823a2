"""Construction sites (``sites``), their inspection logs (``inspections``) and the rain gauges whose storms
call for inspections (``rainfall``: the real NOAA Albany record and the real 2008 gauge)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

import numpy as np
import pandas as pd

from outfall.demo import real
from outfall.demo.common import LAST, STREETS, bools, mailing, scaled, window

NOAA_GAUGE = "ALB-1"
RG_GAUGE = "RG-2008"


@dataclass(frozen=True)
class Site:
    site_id: str
    jurisdiction: str
    acres: float
    start: tuple[int, int]
    gauge: str
    name: str
    address: str
    applicant: str
    impaired: bool = False
    single_family: bool = False
    agricultural: bool = False
    exempt: bool = False
    final: tuple[int, int] | None = None
    behaviour: str = "good"  # good, sloppy, stops, few, none
    stop: tuple[int, int] | None = None


SITES = (
    Site(
        "S-W01",
        "woodbury",
        12.0,
        (3, 16),
        NOAA_GAUGE,
        "Woodbury Commons retail center",
        "400 Jericho Tpke",
        "Commons Development LLC",
        impaired=True,
        final=(10, 20),
    ),
    Site(
        "S-W02",
        "woodbury",
        1.0,
        (4, 6),
        NOAA_GAUGE,
        "Rivera residence addition",
        "17 Elm Dr",
        "M. Rivera",
        single_family=True,
        final=(8, 28),
    ),
    Site(
        "S-W03",
        "woodbury",
        0.5,
        (5, 4),
        NOAA_GAUGE,
        "Garage and driveway",
        "8 Sycamore Ct",
        "D. Kowalski",
        single_family=True,
        behaviour="few",
    ),
    # the Town's own site (its public works department is the applicant and landowner; rules own_names): no
    # notice of violation or order, its findings a line each of the officer's list (contract 8.4)
    Site(
        "S-W04",
        "woodbury",
        4.9,
        (3, 2),
        RG_GAUGE,
        "Crestview Ln water main and road",
        "Crestview Ln",
        "Town of Woodbury DPW",
        behaviour="sloppy",
    ),
    Site(
        "S-W05",
        "woodbury",
        5.0,
        (6, 1),
        NOAA_GAUGE,
        "Orchard Ridge subdivision, phase 1",
        "Orchard Ln",
        "Orchard Ridge Homes Inc.",
        behaviour="stops",
        stop=(8, 20),
    ),
    Site(
        "S-W06",
        "woodbury",
        7.5,
        (4, 20),
        NOAA_GAUGE,
        "Hillside farm equipment barn",
        "300 Hillside Ave",
        "Hillside Farms",
        agricultural=True,
        behaviour="sloppy",
    ),
    Site(
        "S-W07",
        "woodbury",
        2.3,
        (5, 11),
        NOAA_GAUGE,
        "Town Hall parking lot resurfacing",
        "1 Main St",
        "Town of Woodbury",
        exempt=True,
        behaviour="none",
    ),
    Site(
        "S-W08",
        "woodbury",
        3.2,
        (7, 6),
        NOAA_GAUGE,
        "Park Ave medical office",
        "61 Park Ave",
        "Park Ave Medical Partners",
        final=(9, 30),
    ),
    Site(
        "S-B01",
        "bellport",
        0.5,
        (4, 13),
        NOAA_GAUGE,
        "Bayview Ave bulkhead and outfall",
        "22 Bayview Ave",
        "Bayview Marina Corp.",
        impaired=True,
    ),
    Site(
        "S-B02",
        "bellport",
        4.9,
        (5, 18),
        NOAA_GAUGE,
        "Haddad house",
        "5 Osprey Ln",
        "S. Haddad",
        single_family=True,
        behaviour="none",
    ),
    Site(
        "S-B03",
        "bellport",
        4.9,
        (3, 23),
        NOAA_GAUGE,
        "Station Rd self storage",
        "90 Station Rd",
        "Station Storage LLC",
        behaviour="sloppy",
    ),
    Site(
        "S-B04",
        "bellport",
        5.0,
        (6, 15),
        NOAA_GAUGE,
        "Academy Ln estate",
        "12 Academy Ln",
        "J. and K. Lindqvist",
        single_family=True,
        final=(10, 30),
    ),
    Site(
        "S-B05",
        "bellport",
        1.0,
        (4, 27),
        NOAA_GAUGE,
        "Beaver Dam orchard irrigation pond",
        "410 Beaver Dam Rd",
        "Beaver Dam Orchards",
        agricultural=True,
        behaviour="none",
    ),
    Site(
        "S-B06",
        "bellport",
        12.0,
        (7, 20),
        NOAA_GAUGE,
        "South Country Rd school campus",
        "700 South Country Rd",
        "South Country CSD",
        behaviour="stops",
        stop=(10, 1),
    ),
    Site(
        "S-B07",
        "bellport",
        2.0,
        (8, 3),
        NOAA_GAUGE,
        "Harbor Rd fuel dock and store",
        "3 Harbor Rd",
        "Harbor Fuel Inc.",
        final=(11, 10),
    ),
)
INSPECTORS = {
    "woodbury": (
        "R. Okafor, Woodbury Engineering",
        "L. Brennan, Woodbury Engineering",
        "M. Duarte, contractor's qualified inspector",
    ),
    "bellport": ("T. Nguyen, Bellport DPW", "K. Schaefer, CPESC"),
}
OFFICERS = {
    "woodbury": "J. Alvarez, Stormwater Management Officer",
    "bellport": "P. Whitcomb, Village Engineer",
}
STORM_ODDS = {"good": (0.05, 0.10), "sloppy": (0.30, 0.25), "stops": (0.10, 0.10), "few": (0.0, 0.0)}


def site_list(scale: float, rng: np.random.Generator) -> list[Site]:
    sites = list(SITES)
    for k in range(len(SITES), scaled(len(SITES), scale, len(SITES))):
        juris = "woodbury" if rng.random() < 0.5 else "bellport"
        district = "consolidated" if juris == "woodbury" else "district_1"
        street = STREETS[district][int(rng.integers(len(STREETS[district])))]
        sites.append(
            Site(
                f"S-X{k + 1:02d}",
                juris,
                float(np.round(rng.uniform(0.5, 12), 1)),
                (int(rng.integers(3, 9)), int(rng.integers(1, 29))),
                NOAA_GAUGE,
                f"{street} development #{k + 1}",
                f"{int(rng.integers(1, 900))} {street}",
                f"{LAST[int(rng.integers(len(LAST)))]} Builders LLC",
                impaired=bool(rng.random() < 0.2),
                behaviour=("good", "sloppy")[int(rng.random() < 0.3)],
            )
        )
    return sites


#: Landowners who are not the applicant (contract 7.4: a stormwater notice goes to the landowner, the
#: applicant copied): site_id -> (landowner, street, post office; the applicant's office street).
LANDOWNERS = {
    "S-W01": ("Jericho Turnpike Realty Trust", "210 Route 32", "woodbury", "400 Jericho Tpke"),
    "S-W05": ("Orchard Hill Land Holdings LLC", "1 Orchard Hill Rd", "woodbury", "85 Smith Clove Rd"),
}


def _owner(s: Site) -> dict:
    """The site's landowner and mailing address: :data:`LANDOWNERS`, else the applicant at the site's
    address."""
    name, street, place, _office = LANDOWNERS.get(s.site_id, (s.applicant, s.address, s.jurisdiction, None))
    city, state, zip_code = mailing(place).values()
    return {
        "owner_name": name,
        "owner_address": street,
        "owner_city": city,
        "owner_state": state,
        "owner_zip": zip_code,
    }


def sites_frame(sites: list[Site], year: int) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "site_id": [s.site_id for s in sites],
            "jurisdiction": [s.jurisdiction for s in sites],
            "disturbed_acres": [s.acres for s in sites],
            "construction_start": [date(year, *s.start).isoformat() for s in sites],
            "rain_gauge_id": [s.gauge for s in sites],
            "name": [s.name for s in sites],
            "address": [s.address for s in sites],
            "applicant": [s.applicant for s in sites],
            "impaired_water": bools(s.impaired for s in sites),
            "single_family": bools(s.single_family for s in sites),
            "agricultural": bools(s.agricultural for s in sites),
            "exempt": bools(s.exempt for s in sites),
            "final_stabilization": [date(year, *s.final).isoformat() if s.final else None for s in sites],
            # the applicant's mailing address (for the copy of a notice): its office where it is not the
            # landowner, else the site's address
            "mailing_address": [LANDOWNERS.get(s.site_id, (None,) * 4)[3] for s in sites],
            **{k: [mailing(s.jurisdiction)[k] for s in sites] for k in ("city", "state", "zip")},
            **{k: [_owner(s)[k] for s in sites] for k in _owner(sites[0])},
        }
    )


def _site_inspections(
    site: Site, storms: list[date], year: int, as_of: date, rng: np.random.Generator
) -> list[dict]:
    if site.behaviour == "none" or site.exempt:
        return []
    start = date(year, *site.start)
    end = min(date(year, *site.final) if site.final else as_of, as_of)
    last_logged = date(year, *site.stop) if site.stop else end
    visits = _visits(site, storms, start, end, year, rng)
    # one record per day (storm beats routine on the same day), none after the log stops
    by_day: dict[date, str] = {}
    rank = {"routine": 0, "storm": 1, "officer": 2, "milestone": 3}
    for day, kind in sorted(visits, key=lambda v: (v[0], rank[v[1]])):
        if day <= min(end, last_logged):
            by_day[day] = kind
    return _log(site, by_day, year, rng)


def _visits(
    site: Site, storms: list[date], start: date, end: date, year: int, rng: np.random.Generator
) -> list[tuple[date, str]]:
    """The site's visits (day, kind) from ``start`` to ``end``: routine ones at the gaps its behaviour
    keeps, after storms (some missed or late, by its :data:`STORM_ODDS`), the officer's, the milestones."""
    visits: list[tuple[date, str]] = [(start + timedelta(days=int(rng.integers(0, 3))), "milestone")]
    d = visits[0][0]
    while True:
        if site.behaviour == "few":
            gap = int(rng.integers(20, 35))
        elif site.behaviour == "sloppy" and rng.random() < 0.2:
            gap = int(rng.integers(8, 11))
        else:
            gap = int(rng.integers(5, 8))
        d += timedelta(days=gap)
        if d > end:
            break
        visits.append((d, "routine"))
    miss, late = STORM_ODDS[site.behaviour]
    for day in storms:
        if not (start <= day <= end) or site.behaviour == "few":
            continue
        u = rng.random()
        if u < miss:
            continue
        lag = int(rng.integers(2, 4)) if u < miss + late else int(rng.integers(0, 2))
        visits.append((day + timedelta(days=lag), "storm"))
    for _ in range(int(rng.integers(1, 3))):
        visits.append((start + timedelta(days=int(rng.integers(10, max(11, (end - start).days)))), "officer"))
    if site.final:
        visits.append((date(year, *site.final), "milestone"))
    return visits


def _log(site: Site, by_day: dict[date, str], year: int, rng: np.random.Generator) -> list[dict]:
    """The inspection log's rows, one a day: the sediment trap fills with each visit (more after a storm)
    and is cleaned out once half full."""
    rows = []
    lost = float(rng.uniform(0, 10))
    inspectors = INSPECTORS[site.jurisdiction]
    for day in sorted(by_day):
        kind = by_day[day]
        lost += float(rng.uniform(12, 25)) if kind == "storm" else float(rng.uniform(2, 10))
        lost = min(lost, 95.0)
        pct = int(round(lost))
        note, cleaned = _note(site, kind, pct, day, year, rng)
        inspector = (
            OFFICERS[site.jurisdiction]
            if kind == "officer"
            else inspectors[int(rng.integers(len(inspectors)))]
        )
        if site.jurisdiction == "bellport":
            stamp = day.isoformat()
        else:
            stamp = datetime(
                day.year, day.month, day.day, 8 + int(rng.integers(0, 8)), 5 * int(rng.integers(0, 12))
            ).strftime("%Y-%m-%dT%H:%M:%S")
        rows.append(
            {
                "site_id": site.site_id,
                "inspected_at": stamp,
                "inspector": inspector,
                "kind": kind,
                "sediment_capacity_lost_pct": pct,
                "notes": note,
            }
        )
        if cleaned:
            lost = float(rng.uniform(0, 8))
    return rows


def _note(
    site: Site, kind: str, pct: int, day: date, year: int, rng: np.random.Generator
) -> tuple[str, bool]:
    """The inspector's note of a visit, and whether it orders the sediment trap cleaned out."""
    if pct >= 50:
        return f"Sediment trap {pct}% full: cleanout ordered within 48 hours", True
    if kind == "storm":
        return "Post-storm check: silt fence holding, minor sediment at inlet protection", False
    if kind == "milestone":
        final = site.final and day == date(year, *site.final)
        return (
            "Final stabilization walk-through"
            if final
            else "Pre-construction meeting; perimeter controls installed"
        ), False
    return (
        "Controls in place",
        "Construction entrance needs stone",
        "Silt fence repaired",
        "Stockpile covered",
        "Inlet protection cleaned",
    )[int(rng.integers(5))], False


# ------------------------------------------------------------------ rainfall


def rainfall(year: int, as_of: date) -> dict[str, pd.DataFrame]:
    """The real NOAA Albany days of the window (source year chosen for the demo year's
    February) and the real 2008 gauge (February-May of the demo year)."""
    source = real.noaa_source_year(year)
    first, last = window(as_of)
    return {
        NOAA_GAUGE: real.noaa_rainfall(None, NOAA_GAUGE, first, last, year - source),
        RG_GAUGE: real.rain_gauge_daily(None, RG_GAUGE, year),
    }


def inspections_frame(
    sites: list[Site], rain: dict[str, pd.DataFrame], year: int, as_of: date, rng: np.random.Generator
) -> pd.DataFrame:
    """Every site's inspection log up to ``as_of``, its storm inspections after the days of its gauge with
    half an inch of rain or more."""
    storm_days = {
        gauge: sorted(date.fromisoformat(d) for d in frame.loc[frame["precip_in"] >= 0.5, "date"])
        for gauge, frame in rain.items()
    }
    rows: list[dict] = []
    for site in sites:
        rows.extend(_site_inspections(site, storm_days[site.gauge], year, as_of, rng))
    return pd.DataFrame(
        rows, columns=["site_id", "inspected_at", "inspector", "kind", "sediment_capacity_lost_pct", "notes"]
    )
