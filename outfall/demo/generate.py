"""A deterministic, plausible town: the demo's sample input data, in the contract's format.

:func:`generate` writes one folder per input dataset under ``out_dir`` (the
contract's ten and the areas' own: docs/inputs-stormwater.md,
docs/inputs-sewer.md, ``sewer_budget``) and returns the rows written per
dataset. Everything random comes from numpy Generators seeded from ``seed``
(one independent stream per dataset, so changing one dataset's recipe does not
move another's numbers); nothing reads the clock, and every loop runs over
ordered lists, so the same ``seed``, ``scale`` and ``as_of`` give
byte-identical files (the one ``.xlsx`` is written with fixed zip and document
timestamps).

Nothing is dated after ``as_of`` (default 30 November of ``year``, the demo's
as-of date): the meters, the labs and the rain gauge cover the 365 days
``as_of - 364 days`` .. ``as_of`` (1 Dec 2025 .. 30 Nov 2026 for the demo).
The only later dates are schedules, not observations: ``permit_expires`` of
the permits still in force, and the ``sewer_budget`` of the next billing year.

What is in it, at ``scale=1.0`` (``scale`` multiplies the number of industrial
users, parcels, sites and tests; it never changes the 15-minute cadence):

- ``industrial_users``: 20 users in both districts. ``IU-007`` (a laundry) and
  ``IU-019`` (the real 2008 flow meter) have no ``normal_avg_flow_gpd``, so
  their slug baseline must come from the data. Permits: ``IU-003`` expires on
  15 Dec and ``IU-010`` on 20 Feb of the next year (within 90 days of the year
  end); ``IU-013`` expired on 30 Sep.
- ``permit_limits``: special agreements for the brewery (BOD max 400 from
  1 Apr), the plating shop (copper 1.0, zinc 2.0 mg/L), the dairy (TSS max
  450 until 30 Jun) and the pickle works (BOD monthly average 150 mg/L).
  Permits: ``IU-016``'s took effect on 1 February (its December and January
  samples and flow came before it).
- ``lab_results``: monthly composites and grabs of every user for the 12 whole
  months up to ``as_of`` (but the hotel's after August: :data:`STOPPED_SAMPLING`),
  quarterly files (Q3 as ``.xlsx``), and five bad clerk rows in the last
  quarter's file. The real UCI water treatment plant record (1990-91, in
  ``data/real/``) is a treatment plant's daily record of its own influent, not
  samples of an industrial user's discharge, so the demo does not judge it as
  a user's: ``IU-020``, the neighbouring village's sewers metered into the
  Town's under an inter-municipal agreement, has its meter's flow and no
  samples (:data:`INTERMUNICIPAL_USER`).
  Exceedances put there on purpose: see :data:`INJECTED_EXCEEDANCES`;
  ``IU-012`` is chronic and TRC for BOD in H1.
- ``flow``: 15-minute flow of every user for the 365 days to ``as_of``, one
  ``.parquet`` per user with ``timestamp`` as a timezone-aware UTC timestamp
  column (``timestamp[us, tz=UTC]``), a few 45-90 minute slugs and some single
  15-minute spikes, a month of a continuous pH probe for the plating shop, and
  the real 2008 meter for ``IU-019`` as CSV (ISO text with ``+00:00``).
- ``infiltration_tests``, ``parcels`` (every property class, boundary cases,
  four bad rows), ``sewer_rates`` (two years), ``sites`` and ``inspections``
  (logs up to ``as_of``), ``rainfall`` (the real NOAA Albany record as
  ``ALB-1`` and the real 2008 gauge as ``RG-2008``).
- The stormwater officer's folders: ``milestones`` (one notified only 24 hours
  ahead: :data:`MILESTONE_24H`), ``contractor_certifications`` (one contractor
  who began before signing: :data:`LATE_SIGNER`), ``swppp_approvals`` (one
  approval for 8 of 12 acres: :data:`SHORT_APPROVAL`), ``convictions`` (one
  within five years: :data:`PRIOR_CONVICTION`) and ``report_deliveries`` (a
  row for every Woodbury inspection report, a few delivered late).
- The sewer administrator's folders: ``reports`` (a periodic report of every
  user every six months, one 50 days late: :data:`LATE_PERIODIC_USER`; a slug
  report for the planted slugs and the real meter's, one late and one
  missing: :data:`SLUG_REPORT_LATE`, :data:`SLUG_REPORT_MISSING`),
  ``accidental_discharges`` (one written statement 20 days after the
  notification), ``grease_traps`` and ``pumpouts`` (the restaurants among the
  users; one trap overdue: :data:`OVERDUE_TRAP_USER`).
- ``sewer_budget``: the districts' budgets for ``year + 1``, adopted in
  November, which the rates of the next billing year are derived from (no rate
  is adopted for it in ``sewer_rates``).
- Contract section 5: ``illicit_discharges`` (seven cases: one abated by the
  Town, its cost noticed and paid in part (:data:`TOWN_ABATED_CASE`), one
  notified late and never confirmed, a hazardous one appealed and upheld, one
  discovered the day before Thanksgiving with no notice yet, one from before
  ch. 185 took effect (:data:`PRE_CHAPTER_CASE`), set aside; contract 6.5: one
  whose appeal is pending, its abatement suspended, the appeal received on the
  Monday after its 15th day, a Saturday (:data:`PENDING_APPEAL_CASE`), one
  whose appeal vacated the notice (:data:`VACATED_CASE`), and one whose appeal
  came a business day late, no appeal (:data:`LATE_APPEAL_CASE`); each case's
  description says only what was known when it was written) and
  ``illicit_payments``;
  ``smp_practices`` (six practices of the stabilized sites: as-built plans
  missing, late or uncertified, a maintenance agreement recorded after
  approval, a guarantee released early); ``connection_permits`` (single
  family, commercial, one in a shopping mall, one of last year, one whose use
  is neither word).
- Contract section 6.3: ``monitoring_requirements`` (monthly BOD and TSS
  composites of every user, oil and grease every quarter of the restaurants, a
  few more); the hotel stopped sampling after August
  (:data:`STOPPED_SAMPLING`): its September and October testing is missed,
  November's open.
"""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from outfall.demo import real, slugs as slug_law
from outfall.letters import LETTERHEAD_FILE
from outfall.rules import load_rules

#: Every folder written, contract datasets first. The order also numbers the
#: random streams: append, never reorder.
DATASETS = (
    "industrial_users",
    "permit_limits",
    "lab_results",
    "flow",
    "infiltration_tests",
    "parcels",
    "sewer_rates",
    "sites",
    "inspections",
    "rainfall",
    # the stormwater officer's (docs/inputs-stormwater.md)
    "milestones",
    "contractor_certifications",
    "swppp_approvals",
    "convictions",
    "report_deliveries",
    # the sewer administrator's (docs/inputs-sewer.md) and billing's
    "reports",
    "accidental_discharges",
    "grease_traps",
    "pumpouts",
    "sewer_budget",
    # contract section 5: illicit discharges and post-construction practices (stormwater), fees (clerk)
    "illicit_discharges",
    "illicit_payments",
    "smp_practices",
    "connection_permits",
    # contract section 5.1: the clerk's record of the notices of violation mailed
    "notices_mailed",
    # contract section 6.3: the testing the administrator requires of each user
    "monitoring_requirements",
)
#: Registered input folders the demo town does not write, each with why (tests/test_demo_generate.py:
#: every folder of outfall.ingest's registry is in DATASETS or here). A new folder goes in one of the two.
NOT_IN_DEMO: dict[str, str] = {
    "water_use": "the demo town charges by its unit schedule, not by the volume of water used "
    "(examples/towns/chagrin_falls/data has a town that does)",
    "permits": "the demo's permits are all in its users file; IU-013's, expired on September 30, is the one "
    "to renew: the Superintendent's list asks for it, and it is recorded on the permits sheet of "
    "exports/to_record.xlsx (README, 'Recording what happened'; tests/test_demo_town.py)",
}
LOCAL_TZ = "America/New_York"
#: The default as-of day (month, day) of the demo year: the data ends on it.
AS_OF_MONTH_DAY = (11, 30)

NOAA_GAUGE = "ALB-1"
RG_GAUGE = "RG-2008"
REAL_METER_USER = "IU-019"
#: The neighbouring village's sewers, metered into the Town's under an inter-municipal agreement: its flow
#: only. (It once carried the real UCI treatment plant record as its samples; that record is a plant's
#: influent, not a user's discharge, and is no longer judged as one: issue 45.)
INTERMUNICIPAL_USER = "IU-020"
PH_PROBE_USER = "IU-006"
#: The user whose mailing address lacks its ZIP code: its notices are not ready to send, and its May
#: notice, recorded as mailed, is held back from the batch to print until the ZIP code is added.
NO_MAILING_ADDRESS_USER = "IU-017"
#: A draft withdrawn by the administrator (contract 6.4): the hospital's November notice, whose one
#: violation (the temperature result of :data:`INJECTED_EXCEEDANCES`) the administrator chose to take up at
#: the inspection of its boiler plant instead.
WITHDRAWN_NOTICE = (
    "sewer",
    "IU-008",
    "{year}-11",
    "taken up at the inspection of the hospital's boiler plant instead: the result is kept on its record",
)
#: The post office of each district or village, for the mailing addresses (invented ZIP codes are
#: not used: these are the real offices of the places the demo is named after).
POST_OFFICES = {
    "consolidated": ("Central Valley", "NY", "10917"),
    "district_1": ("Highland Mills", "NY", "10930"),
    "woodbury": ("Central Valley", "NY", "10917"),
    "bellport": ("Bellport", "NY", "11713"),
}

#: (user_id, month, parameter, result, unit): exceedances written on purpose.
INJECTED_EXCEEDANCES = (
    ("IU-002", 3, "BOD", "300", "mg/L"),
    ("IU-017", 5, "COD", "900", "mg/L"),
    ("IU-011", 8, "TSS", "450", "mg/L"),
    ("IU-006", 2, "pH", "5.1", "s.u."),
    ("IU-007", 10, "pH", "10.2", "s.u."),
    ("IU-008", 11, "temperature", "160", "°F"),
    ("IU-005", 10, "BOD", "420", "mg/L"),  # above the brewery's special 400
    ("IU-004", 8, "TSS", "340", "mg/L"),  # after the dairy's agreement ended
    ("IU-006", 7, "copper", "1400", "ug/L"),  # 1.4 mg/L > special 1.0
    ("IU-006", 10, "zinc", "2600", "µg/L"),  # 2.6 mg/L > special 2.0
)
#: Its permit took effect on 1 February of the demo year: the samples and flow before it are
#: discharges without a permit (ch. 253 Part 2), as are IU-013's after its permit expired on 30 September.
NEW_PERMIT_USER = "IU-016"
#: A business that never held a permit (contract 6.5): on file with its permit columns blank, its meter
#: read above zero on May 20 and the Town's sample of June 9 (sampled_by town: a violation of Part 2's BOD
#: limit, with no 24-hour notice or repeat sampling asked of the user, contract 7.1).
UNPERMITTED_USER = "IU-021"
#: (user_id, month): the user who stopped sampling after that month of the demo year (the hotel), so that
#: its required testing of September and October is missed and November's is open (contract 6.3).
STOPPED_SAMPLING = ("IU-018", 8)
#: IU-012 (meat processing) BOD, January-June: 5 of 6 above 240 (chronic),
#: 2 of 6 at or above 336 = 240 x 1.4 (TRC).
CHRONIC_BOD_H1 = ("IU-012", (310, 280, 360, 220, 345, 260))


# ------------------------------------------------------------------ helpers


def _rng(seed: int, dataset: str, part: int = 0) -> np.random.Generator:
    """An independent stream per dataset (and per ``part`` of one dataset's recipe)."""
    return np.random.default_rng([seed, DATASETS.index(dataset), part])


def _write_csv(df: pd.DataFrame, path: Path) -> int:
    return real.write_csv(df, path)


def _bool(values) -> list[str]:
    return ["true" if bool(v) else "false" for v in values]


def _scaled(base: int, scale: float, minimum: int) -> int:
    return max(minimum, int(round(base * scale)))


def _weekday(d: date) -> date:
    """Move a Saturday back to Friday and a Sunday on to Monday."""
    if d.weekday() == 5:
        return d - timedelta(days=1)
    if d.weekday() == 6:
        return d + timedelta(days=1)
    return d


def _write_xlsx(rows: list[list], header: list[str], path: Path, year: int) -> None:
    """An .xlsx whose bytes depend only on ``rows`` (fixed zip and core timestamps)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "results"
    ws.append(header)
    for row in rows:
        ws.append(row)
    stamp = datetime(year, 1, 1)
    wb.properties.created = stamp
    wb.properties.creator = "outfall demo generator"
    buf = io.BytesIO()
    wb.save(buf)  # openpyxl stamps 'modified' with the clock; rewritten below
    iso = stamp.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                data = re.sub(
                    rb"(<dcterms:(?:modified|created)[^>]*>)[^<]*(</dcterms:)",
                    rb"\g<1>" + iso + rb"\g<2>",
                    data,
                )
            fixed = zipfile.ZipInfo(info.filename, date_time=(year, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            dst.writestr(fixed, data)


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


# --------------------------------------------------------- industrial users


@dataclass(frozen=True)
class _User:
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


ROSTER: tuple[_User, ...] = (
    _User(
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
    _User(
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
    _User(
        "IU-003",
        "Harbor Lights Seafood House",
        "district_1",
        "4 Harbor Rd",
        "restaurant",
        5200,
        lab="C",
        strength="restaurant",
    ),
    _User(
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
    _User(
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
    _User(
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
    _User(
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
    _User(
        "IU-008",
        "Woodbury General Hospital",
        "consolidated",
        "1 Crestview Ln",
        "institution",
        95000,
        flow_unit="gpd",
        lab="B",
    ),
    _User(
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
    _User(
        "IU-010",
        "Crestview Nursing & Rehabilitation",
        "consolidated",
        "45 Crestview Ln",
        "institution",
        18000,
        lab="A",
    ),
    _User(
        "IU-011",
        "Quick Clean Car Wash",
        "consolidated",
        "500 Jericho Tpke",
        "day_shift",
        7500,
        lab="B",
        spikes=2,
    ),
    _User(
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
    _User("IU-013", "Northside Auto Body", "district_1", "302 Beaver Dam Rd", "day_shift", 1500, lab="C"),
    _User(
        "IU-014",
        "Woodbury Country Club Kitchen",
        "consolidated",
        "9 Orchard Ln",
        "restaurant",
        6400,
        lab="B",
        strength="restaurant",
    ),
    _User(
        "IU-015",
        "Bellport Fitness & Aquatic Center",
        "district_1",
        "77 Academy Ln",
        "institution",
        12000,
        lab="A",
    ),
    _User(
        "IU-016",
        "Atlas Printing Company",
        "consolidated",
        "230 Sycamore Ct",
        "day_shift",
        2100,
        lab="C",
        strength="dilute",
    ),
    _User(
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
    _User(
        "IU-018",
        "Harborview Hotel & Conference Center",
        "district_1",
        "150 Bayview Ave",
        "institution",
        30000,
        flow_unit="gpd",
        lab="B",
    ),
    _User(
        REAL_METER_USER,
        "Bellport Industrial Park (master meter)",
        "district_1",
        "1 Osprey Ln",
        "institution",
        1_300_000,
        write_avg=False,
        lab="C",
    ),
    _User(
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


def _users(scale: float, rng: np.random.Generator) -> list[_User]:
    n = _scaled(len(ROSTER), scale, len(ESSENTIAL))
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


def _industrial_users(users: list[_User], year: int, rng: np.random.Generator) -> pd.DataFrame:
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
                **_mailing(u.district, u.user_id == NO_MAILING_ADDRESS_USER),
            }
        )
    df = pd.DataFrame(rows)
    df["normal_avg_flow_gpd"] = df["normal_avg_flow_gpd"].astype("Int64")
    return df


def _unpermitted(year: int) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    """:data:`UNPERMITTED_USER`: its industrial user row (no permit), its portable meter's readings of
    May 20 and the Town's sample of June 9."""
    user = {
        "user_id": UNPERMITTED_USER,
        "name": "Route 32 Quick Lube",
        "district": "consolidated",
        "address": "310 Route 32",
        **_mailing("consolidated"),
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


def _special_agreements(user_ids: set[str], year: int) -> pd.DataFrame:
    rows = [
        (
            "IU-005",
            "BOD",
            "max",
            400,
            "mg/L",
            f"Special agreement with Old Mill Brewing Co., Town Board resolution {year}-41 "
            "(Woodbury Code ch. 253 Part 2, discharges requiring Town Board approval (a)); "
            "brewery surcharge paid",
            date(year, 4, 1),
            None,
        ),
        (
            "IU-006",
            "copper",
            "max",
            1.0,
            "mg/L",
            f"Pretreatment agreement with Precision Plating & Finishing, resolution {year - 1}-77 "
            "(ch. 253 Part 2, Town Board limits on metals)",
            date(year, 1, 1),
            None,
        ),
        (
            "IU-006",
            "zinc",
            "max",
            2.0,
            "mg/L",
            f"Pretreatment agreement with Precision Plating & Finishing, resolution {year - 1}-77 "
            "(ch. 253 Part 2, Town Board limits on metals)",
            date(year, 1, 1),
            None,
        ),
        (
            "IU-004",
            "TSS",
            "max",
            450,
            "mg/L",
            f"Temporary agreement with Woodbury Creamery while its DAF unit is rebuilt, resolution "
            f"{year - 1}-102 (ch. 253 Part 2 (d))",
            date(year, 1, 1),
            date(year, 6, 30),
        ),
        # a monthly-average limit under Part 2's 240 per sample: significant noncompliance on the
        # monthly averages while every single sample stays under 240 (contract 5.2)
        (
            "IU-017",
            "BOD",
            "monthly_avg",
            150,
            "mg/L",
            f"Pretreatment agreement with Green Valley Pickle Works, resolution {year - 1}-88: monthly "
            "average (ch. 253 Part 2, special agreements)",
            date(year, 1, 1),
            None,
        ),
    ]
    df = pd.DataFrame(
        rows,
        columns=[
            "user_id",
            "parameter",
            "limit_type",
            "value",
            "unit",
            "basis",
            "effective_from",
            "effective_to",
        ],
    )
    df = df[df["user_id"].isin(user_ids)].reset_index(drop=True)
    df["value"] = [f"{v:g}" for v in df["value"]]
    for col in ("effective_from", "effective_to"):
        df[col] = [d.isoformat() if d else None for d in df[col]]
    return df


# -------------------------------------------------------------------- flow

_HOURLY = {
    "restaurant": [0.15] * 7 + [0.6] * 4 + [1.8] * 4 + [1.0] * 2 + [2.0] * 5 + [0.6] * 2,
    "day_shift": [0.2] * 6 + [0.8] + [1.8] * 10 + [0.8] * 2 + [0.25] * 5,
    "two_shift": [0.5] * 5 + [1.4] * 17 + [0.8] * 2,
    "institution": [0.6] * 6 + [1.4] * 4 + [1.2] * 12 + [0.8] * 2,
}
_WEEKLY = {  # Monday .. Sunday
    "restaurant": [0.8, 0.85, 0.9, 1.0, 1.2, 1.3, 1.0],
    "day_shift": [1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.2],
    "two_shift": [1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.5],
    "institution": [1.0] * 7,
}


def _window(as_of: date) -> tuple[date, date]:
    """The 365 local days of the meters and the rain gauge: ``as_of - 364 days`` .. ``as_of``."""
    return as_of - timedelta(days=364), as_of


def _window_grid(as_of: date) -> pd.DatetimeIndex:
    """Every 15 minutes from local midnight of the window's first day to local midnight after ``as_of``, in
    UTC."""
    first, last = _window(as_of)
    start = pd.Timestamp(first, tz=LOCAL_TZ).tz_convert("UTC")
    end = pd.Timestamp(last + timedelta(days=1), tz=LOCAL_TZ).tz_convert("UTC")
    return pd.date_range(start, end, freq="15min", inclusive="left").as_unit("us")


#: Slugs and spikes fall at least this many days inside the window: a slug has
#: a data-derived baseline (7 days needed) and its 5-day report is due by as-of.
EVENT_MARGIN_DAYS = 10


def _event_days(rng: np.random.Generator, n_days: int, count: int) -> np.ndarray:
    days = np.arange(EVENT_MARGIN_DAYS, n_days - EVENT_MARGIN_DAYS)
    return np.sort(rng.choice(days, size=count, replace=False))


@dataclass(frozen=True)
class _Slug:
    """A slug the generator planted (or, for the real meter, that the record holds)."""

    user_id: str
    start: pd.Timestamp  # UTC instant of the first high reading
    readings: int

    @property
    def local_day(self) -> date:
        return self.start.tz_convert(LOCAL_TZ).date()


def _synthetic_flow(
    u: _User, grid: pd.DatetimeIndex, rng: np.random.Generator
) -> tuple[pd.DataFrame, list[_Slug]]:
    local = grid.tz_convert(LOCAL_TZ)
    hourly = np.asarray(_HOURLY[u.kind])
    weekly = np.asarray(_WEEKLY[u.kind])
    shape = hourly[local.hour.to_numpy()] * weekly[local.dayofweek.to_numpy()]
    shape /= hourly.mean() * weekly.mean()
    doy = local.dayofyear.to_numpy()
    season = 1.0 + 0.08 * np.sin(2 * np.pi * (doy - 100) / 365.0)
    noise = np.clip(rng.lognormal(0.0, 0.08, size=len(grid)), 0.75, 1.3)
    level = u.avg_gpd * rng.uniform(0.8, 0.95)
    gpd = np.maximum(level * shape * season * noise, 0.02 * u.avg_gpd)

    # Slugs (45-90 min at 6.5-10x the design average) and lone 15-minute spikes,
    # each on its own day, in working hours.
    n_days = len(grid) // 96
    days = _event_days(rng, n_days, u.slugs + u.spikes)
    kinds = rng.permutation(np.array([True] * u.slugs + [False] * u.spikes, dtype=bool))
    slugs: list[_Slug] = []
    for day, is_slug in zip(days, kinds):
        first = int(day) * 96 + int(rng.integers(8 * 4, 16 * 4))
        length = int(rng.integers(3, 7)) if is_slug else 1
        gpd[first : first + length] = u.avg_gpd * rng.uniform(6.5, 10.0, size=length)
        if is_slug:
            slugs.append(_Slug(u.user_id, grid[first], length))

    keep = np.ones(len(grid), dtype=bool)
    if u.user_id == "IU-011":  # a meter outage of six hours in May
        first_day = grid[0].tz_convert(LOCAL_TZ).date()
        may_12 = date(local[-1].year, 5, 12)
        start = (may_12 - first_day).days * 96 + 40
        keep[start : start + 24] = False

    if u.flow_unit == "gpm":
        value = np.round(gpd / 1440.0, 3)
    else:
        value = np.round(gpd, 1)
    return pd.DataFrame(
        {
            "user_id": u.user_id,
            "timestamp": grid[keep],
            "value": value[keep],
            "unit": u.flow_unit,
            "constituent": "flow",
        }
    ), slugs


def _ph_probe(u: _User, grid: pd.DatetimeIndex, year: int, rng: np.random.Generator) -> pd.DataFrame:
    """June of a continuous pH probe: near-neutral with a diurnal swing and two excursions."""
    local = grid.tz_convert(LOCAL_TZ)
    june = local.month == 6
    ts = grid[june]
    hours = local[june].hour.to_numpy() + local[june].minute.to_numpy() / 60.0
    ph = 7.1 + 0.35 * np.sin(2 * np.pi * (hours - 9) / 24) + rng.normal(0, 0.08, size=len(ts))
    day_start = (date(year, 6, 9) - date(year, 6, 1)).days * 96 + 10 * 4
    ph[day_start : day_start + 3] = [5.6, 4.9, 5.3]  # acid rinse dump, 45 minutes
    day_start = (date(year, 6, 23) - date(year, 6, 1)).days * 96 + 14 * 4
    ph[day_start : day_start + 2] = [10.1, 9.8]  # caustic cleaner, 30 minutes
    return pd.DataFrame(
        {
            "user_id": u.user_id,
            "timestamp": ts,
            "value": np.round(np.clip(ph, 0, 14), 2),
            "unit": "s.u.",
            "constituent": "pH",
        }
    )


def _write_parquet(df: pd.DataFrame, path: Path) -> int:
    table = pa.Table.from_pandas(df, preserve_index=False)
    pq.write_table(table, path, compression="snappy")
    return len(df)


def _real_meter_slugs(frame: pd.DataFrame) -> list[_Slug]:
    """The slugs in the real meter's record, found by the project's reference reading
    of the law (outfall.demo.slugs; data-derived baseline: the meter has no permit flow).
    A repeated instant (the 2008 spring-forward hour) keeps its first reading, as the
    ingestion does."""
    rules = load_rules("woodbury")  # each reading judged by the slug definition of its day
    ts = pd.to_datetime(frame["timestamp"], utc=True)
    first = ~ts.duplicated(keep="first")
    readings = list(zip((t.to_pydatetime() for t in ts[first]), frame.loc[first, "value"].astype(float)))
    events, _ = slug_law.detect(readings, slug_law.params_on(rules.slug), rules.timezone)
    return [
        _Slug(str(frame["user_id"].iloc[0]), pd.Timestamp(e.start_at).tz_convert("UTC"), e.readings)
        for e in events
    ]


def _flow(
    users: list[_User], out: Path, year: int, as_of: date, rng: np.random.Generator
) -> tuple[int, list[_Slug]]:
    """Write the flow files; return the rows written and the slugs in them (the plan)."""
    grid = _window_grid(as_of)
    first, last = _window(as_of)
    span = f"{first:%Y-%m-%d}_{last:%Y-%m-%d}"
    rows = 0
    slugs: list[_Slug] = []
    for u in users:
        if u.user_id == REAL_METER_USER:
            frame = real.flow_monitor(None, u.user_id, year)
            rows += _write_csv(frame, out / f"{u.user_id}_flow_monitor_2008_real.csv")
            slugs += _real_meter_slugs(frame)
            continue
        frame, planted = _synthetic_flow(u, grid, rng)
        rows += _write_parquet(frame, out / f"{u.user_id}_flow_{span}.parquet")
        slugs += planted
        if u.user_id == PH_PROBE_USER:
            rows += _write_parquet(
                _ph_probe(u, grid, year, rng), out / f"{u.user_id}_ph_probe_{year}-06.parquet"
            )
    return rows, sorted(slugs, key=lambda e: (e.user_id, e.start))


# ------------------------------------------------------------- lab results

LABS = {
    "A": {
        "lab": "Suffolk Environmental Laboratories",
        "names": {},
        "mg": ("mg/L",),
        "ph": "s.u.",
        "temp": "degF",
        "metal": ("ug/L",),
    },
    "B": {
        "lab": "Pace Analytical Services, Melville NY",
        "names": {"BOD": "BOD5", "FOG": "O&G", "TSS": "Total Suspended Solids"},
        "mg": ("mg/l",),
        "ph": "SU",
        "temp": "°F",
        "metal": ("µg/L",),
    },
    "C": {
        "lab": "EnviroTest Laboratories",
        "names": {},
        "mg": ("ppm", "mg/L"),
        "ph": "pH units",
        "temp": "degC",
        "metal": ("ppb",),
    },
}
METHODS = {
    "BOD": "SM 5210 B",
    "COD": "EPA 410.4",
    "TSS": "SM 2540 D",
    "FOG": "EPA 1664A",
    "chlorine_demand": "SM 2350 B",
    "pH": "SM 4500-H+ B",
    "temperature": "SM 2550 B",
    "copper": "EPA 200.7",
    "zinc": "EPA 200.7",
    "nickel": "EPA 200.7",
}
#: mg/L ranges (low, high) of the composite parameters by user strength.
STRENGTH = {
    "general": {"BOD": (40, 180), "TSS": (40, 220), "FOG": (5, 60), "chlorine_demand": (2, 15)},
    "restaurant": {"BOD": (120, 225), "TSS": (100, 250), "FOG": (30, 90), "chlorine_demand": (5, 15)},
    "dairy": {"BOD": (150, 230), "TSS": (180, 280), "FOG": (40, 90), "chlorine_demand": (4, 12)},
    "brewery": {"BOD": (170, 230), "TSS": (80, 200), "FOG": (5, 30), "chlorine_demand": (3, 10)},
    "plating": {"BOD": (20, 60), "TSS": (30, 120), "FOG": (2, 20), "chlorine_demand": (2, 8)},
    "meat": {"BOD": (150, 230), "TSS": (120, 260), "FOG": (50, 95), "chlorine_demand": (6, 18)},
    "food": {"BOD": (120, 220), "TSS": (90, 240), "FOG": (10, 40), "chlorine_demand": (3, 12)},
    "dilute": {"BOD": (2, 40), "TSS": (10, 60), "FOG": (1, 15), "chlorine_demand": (1, 6)},
}
LAB_HEADER = real.LAB_COLUMNS


def _lab_months(as_of: date) -> list[tuple[int, int]]:
    """The 12 whole calendar months that end on or before ``as_of``, oldest first
    (December of the year before .. November, for an as-of of 30 November)."""
    last = as_of + timedelta(days=1)
    y, m = (last.year, last.month)  # the month after the last whole month
    months = []
    for _ in range(12):
        y, m = (y, m - 1) if m > 1 else (y - 1, 12)
        months.append((y, m))
    return months[::-1]


def _lab_rows_for_user(u: _User, year: int, as_of: date, rng: np.random.Generator) -> list[dict]:
    style = LABS[u.lab]
    ranges = STRENGTH[u.strength]
    injected = {(m, p): (r, unit) for uid, m, p, r, unit in INJECTED_EXCEEDANCES if uid == u.user_id}
    rows: list[dict] = []

    def add(sample_id, collected, stype, parameter, result, unit, mdl=None):
        rows.append(
            {
                "sample_id": sample_id,
                "user_id": u.user_id,
                "collected_at": collected,
                "sample_type": stype,
                "parameter": style["names"].get(parameter, parameter),
                "result": result,
                "unit": unit,
                "mdl": mdl,
                "lab": style["lab"],
                "method": METHODS[parameter],
            }
        )

    for sample_year, month in _lab_months(as_of):
        this_year = sample_year == year  # the planted cases are all in the demo year
        day = _weekday(date(sample_year, month, int(rng.integers(4, 25))))
        composite_at = datetime(sample_year, month, day.day, 8, 0)
        grab_at = datetime(
            sample_year, month, day.day, 9 + int(rng.integers(0, 4)), 5 * int(rng.integers(0, 12))
        )
        cid = f"{u.user_id}-{day:%Y%m%d}-C"
        gid = f"{u.user_id}-{day:%Y%m%d}-G"
        mg_unit = style["mg"][int(rng.integers(len(style["mg"])))]

        bod = float(rng.uniform(*ranges["BOD"]))
        if u.strength == "brewery" and this_year and month >= 4:
            bod = float(rng.uniform(260, 390))  # allowed by the special agreement
        if u.user_id == CHRONIC_BOD_H1[0] and this_year and month <= 6:
            bod = float(CHRONIC_BOD_H1[1][month - 1])
        cod_ratio = rng.uniform(1.4, 1.5) if u.strength == "brewery" else rng.uniform(1.8, 2.3)
        cod = min(bod * cod_ratio, 585.0)
        tss = float(rng.uniform(*ranges["TSS"]))
        if u.strength == "dairy" and this_year and month <= 6:
            tss = float(rng.uniform(320, 430))  # allowed until 30 June
        values = {
            "BOD": f"{bod:.0f}",
            "COD": f"{cod:.0f}",
            "TSS": f"{tss:.0f}",
            "FOG": f"{rng.uniform(*ranges['FOG']):.1f}",
            "chlorine_demand": f"{rng.uniform(*ranges['chlorine_demand']):.1f}",
        }
        mdls: dict[str, float | None] = {p: None for p in values}
        if u.strength == "dilute" and month in (2, 6, 9):
            values["BOD"], mdls["BOD"] = "<2", 2.0
        if u.user_id in ("IU-008", "IU-010", "IU-015") and month % 4 == 1:
            values["FOG"], mdls["FOG"] = "ND", 1.4
        if u.user_id == "IU-003" and this_year and month == 11:
            values["FOG"], mdls["FOG"] = "<150", 150.0  # diluted sample: inconclusive
        injected_now = injected if this_year else {}
        for parameter in ("BOD", "COD", "TSS", "FOG", "chlorine_demand"):
            result, unit = values[parameter], mg_unit
            if (month, parameter) in injected_now:
                result, unit = injected_now[(month, parameter)]
            add(cid, composite_at, "composite", parameter, result, unit, mdls[parameter])
        if u.metals:
            for metal, (lo, hi) in (("copper", (300, 900)), ("zinc", (500, 1600)), ("nickel", (100, 600))):
                result, unit = f"{rng.uniform(lo, hi):.0f}", style["metal"][0]
                if (month, metal) in injected_now:
                    result, unit = injected_now[(month, metal)]
                add(cid, composite_at, "composite", metal, result, unit)

        ph = f"{np.clip(rng.normal(7.3, 0.45), 6.0, 8.9):.1f}"
        ph_unit = style["ph"]
        if (month, "pH") in injected_now:
            ph, ph_unit = injected_now[(month, "pH")]
        add(gid, grab_at, "grab", "pH", ph, ph_unit)
        temp_f = float(rng.uniform(55, 95))
        if style["temp"] == "degC":
            temp, temp_unit = f"{(temp_f - 32) / 1.8:.1f}", "degC"
        else:
            temp, temp_unit = f"{temp_f:.0f}", style["temp"]
        if (month, "temperature") in injected_now:
            temp, temp_unit = injected_now[(month, "temperature")]
        add(gid, grab_at, "grab", "temperature", temp, temp_unit)
    return rows


def _bad_lab_rows(year: int) -> list[dict]:
    """What a clerk keys in on a bad day: each must be quarantined, the rest of the file kept.
    All dated October-November of ``year``, before the as-of date."""
    lab = LABS["A"]["lab"]
    base = {"sample_type": "composite", "mdl": None, "lab": lab}
    return [
        {
            **base,
            "sample_id": f"IU-003-{year}1021-X",
            "user_id": "IU-003",
            "collected_at": datetime(year, 10, 21, 8),
            "parameter": "BOD",
            "result": "150",
            "unit": "furlongs",
            "method": "SM 5210 B",
        },
        {
            **base,
            "sample_id": f"IU-009-{year}1104-X",
            "user_id": "IU-009",
            "collected_at": datetime(year, 11, 4, 8),
            "parameter": "TSS",
            "result": "abc",
            "unit": "mg/L",
            "method": "SM 2540 D",
        },
        {
            **base,
            "sample_id": f"IU-013-{year}1112-X",
            "user_id": "IU-013",
            "collected_at": datetime(year, 11, 12, 10, 30),
            "sample_type": "grab",
            "parameter": "pH",
            "result": "15",
            "unit": "s.u.",
            "method": "SM 4500-H+ B",
        },
        {
            **base,
            "sample_id": f"IU-014-{year}1117-X",
            "user_id": "IU-014",
            "collected_at": datetime(year, 11, 17, 8),
            "parameter": "BOD",
            "result": "-12",
            "unit": "mg/L",
            "method": "SM 5210 B",
        },
        {
            **base,
            "sample_id": None,
            "user_id": "IU-016",
            "collected_at": datetime(year, 11, 19, 8),
            "parameter": "COD",
            "result": "210",
            "unit": "mg/L",
            "method": "EPA 410.4",
        },
    ]


def _stop_sampling(rows: list[dict], year: int) -> list[dict]:
    """``rows`` without the samples of :data:`STOPPED_SAMPLING`'s user after its last month (taken out after
    they were drawn, so that every other user's numbers stay as they were)."""
    user, month = STOPPED_SAMPLING
    first_missing = datetime(year, month + 1, 1)
    return [r for r in rows if r["user_id"] != user or r["collected_at"] < first_missing]


def _lab_results(users: list[_User], out: Path, year: int, as_of: date, rng: np.random.Generator) -> int:
    rows: list[dict] = []
    for u in users:
        if u.user_id != INTERMUNICIPAL_USER:  # a village's sewers: metered, sampled under its own agreement
            rows.extend(_lab_rows_for_user(u, year, as_of, rng))
    rows = _stop_sampling(rows, year)
    rows.extend(_bad_lab_rows(year))  # all dated in Q4: they land in the Q4 file
    df = pd.DataFrame(rows, columns=LAB_HEADER)
    when = pd.to_datetime(df["collected_at"])
    quarter = list(zip(when.dt.year, (when.dt.month - 1) // 3 + 1))
    written = 0
    for y, q in sorted(set(quarter)):
        part = df[[k == (y, q) for k in quarter]].sort_values(
            ["collected_at", "user_id", "sample_type"], kind="stable"
        )
        if (y, q) == (year, 3):
            records = [
                [_xlsx_cell(k, v) for k, v in zip(LAB_HEADER, r)] for r in part.itertuples(index=False)
            ]
            _write_xlsx(records, LAB_HEADER, out / f"lab_results_{y}_Q3.xlsx", year)
            written += len(part)
        else:
            text = part.copy()
            text["collected_at"] = pd.to_datetime(text["collected_at"]).dt.strftime("%Y-%m-%dT%H:%M:%S")
            written += _write_csv(text, out / f"lab_results_{y}_Q{q}.csv")
    return written


def _xlsx_cell(column: str, value):
    """A spreadsheet cell as a lab's export has it: real datetimes, numbers as numbers."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return value.to_pydatetime()
    if column == "result":
        try:
            return float(value)
        except ValueError:
            return value  # "<2", "ND"
    return value


# --------------------------------------------------------- infiltration tests


def _infiltration_tests(scale: float, year: int, rng: np.random.Generator) -> pd.DataFrame:
    n = _scaled(12, scale, 12)
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
    dates = [_weekday(date(year, 1, 1) + timedelta(days=int(d))).isoformat() for d in days]
    return pd.DataFrame(
        {
            "section_id": [f"MH{101 + 2 * i:03d}-MH{102 + 2 * i:03d}" for i in range(n)],
            "test_date": dates,
            "diameter_in": diam.astype(int),
            "length_ft": length.astype(int),
            "measured_gpd": measured.astype(int),
        }
    )


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


def _parcels(scale: float, rng: np.random.Generator) -> pd.DataFrame:
    n_total = _scaled(3000, scale, len(SPECIAL_PARCELS) + 50)
    n = n_total - len(SPECIAL_PARCELS)
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

    random_part = pd.DataFrame(
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
    df["moratorium"] = _bool(df["moratorium"])
    first = np.array(FIRST)[rng.integers(len(FIRST), size=m)]
    last = np.array(LAST)[rng.integers(len(LAST), size=m)]
    owners = pd.Series([f"{b}, {a}" for a, b in zip(first, last)])
    business = ~df["property_class"].isin(
        ["single_family", "two_family", "three_family", "vacant", "approved_lot"]
    )
    owners[business] = [f"{b} Holdings LLC" for b in last[business.to_numpy()]]
    owners[df["property_class"].str.contains("school")] = "Woodbury Union Free School District"
    owners[df["property_class"] == "exempt"] = "Town of Woodbury"
    df["owner"] = owners
    numbers = rng.integers(1, 999, size=m)
    street_pick = rng.random(m)
    df["address"] = [
        f"{num} {STREETS[d if d in STREETS else _C][int(p * len(STREETS[d if d in STREETS else _C]))]}"
        for num, d, p in zip(numbers, df["district"], street_pick)
    ]
    _mailing_places(df)
    return df[PARCEL_COLUMNS]


def _mailing_places(df: pd.DataFrame) -> None:
    """The owner's city, state and ZIP code for the register's mail merge: the post office of the parcel's
    district (the street line is the parcel's address); the first few single-family parcels have none."""
    office = df["district"].map(POST_OFFICES)
    for i, key in enumerate(("city", "state", "zip")):
        df[key] = [o[i] if isinstance(o, tuple) else None for o in office]
    without = df.index[df["property_class"] == "single_family"][:PARCELS_WITHOUT_MAILING_PLACE]
    df.loc[without, ["city", "state", "zip"]] = None


# -------------------------------------------------------------- sewer rates


def _sewer_rates(year: int) -> pd.DataFrame:
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


# -------------------------------------------------------- sites + inspections


@dataclass(frozen=True)
class _Site:
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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
    _Site(
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


def _sites(scale: float, rng: np.random.Generator) -> list[_Site]:
    sites = list(SITES)
    for k in range(len(SITES), _scaled(len(SITES), scale, len(SITES))):
        juris = "woodbury" if rng.random() < 0.5 else "bellport"
        district = _C if juris == "woodbury" else _D1
        street = STREETS[district][int(rng.integers(len(STREETS[district])))]
        sites.append(
            _Site(
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


def _owner(s: _Site) -> dict:
    """The site's landowner and mailing address: :data:`LANDOWNERS`, else the applicant at the site's
    address."""
    name, street, place, _office = LANDOWNERS.get(s.site_id, (s.applicant, s.address, s.jurisdiction, None))
    city, state, zip_code = _mailing(place).values()
    return {
        "owner_name": name,
        "owner_address": street,
        "owner_city": city,
        "owner_state": state,
        "owner_zip": zip_code,
    }


def _sites_frame(sites: list[_Site], year: int) -> pd.DataFrame:
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
            "impaired_water": _bool(s.impaired for s in sites),
            "single_family": _bool(s.single_family for s in sites),
            "agricultural": _bool(s.agricultural for s in sites),
            "exempt": _bool(s.exempt for s in sites),
            "final_stabilization": [date(year, *s.final).isoformat() if s.final else None for s in sites],
            # the applicant's mailing address (for the copy of a notice): its office where it is not the
            # landowner, else the site's address
            "mailing_address": [LANDOWNERS.get(s.site_id, (None,) * 4)[3] for s in sites],
            **{k: [_mailing(s.jurisdiction)[k] for s in sites] for k in ("city", "state", "zip")},
            **{k: [_owner(s)[k] for s in sites] for k in _owner(sites[0])},
        }
    )


def _mailing(place: str, missing: bool = False) -> dict:
    """city, state and ZIP code of a recipient's mailing address (the ZIP code blank for the one without)."""
    city, state, zip_code = POST_OFFICES.get(place, POST_OFFICES["consolidated"])
    return {"city": city, "state": state, "zip": None if missing else zip_code}


#: A stormwater notice whose mailing was recorded without its days to correct (contract 8.3): the mailing
#: is a record all the same (mailed, in documents_issued, no last day to correct), and the officer's list
#: asks for the days the notice gave.
HELD_STORMWATER_NOTICE = ("S-B03", "10")
#: The grease-trap order mailed (contracts 7.3, 8.4): the overdue trap's, for its pump-out missed in October,
#: to its owner (:data:`TRAP_OWNERS`), with the 14 days the administrator gave.
MAILED_GREASE_ORDER = ("GT-003", "10", (11, 4), 14)
#: The stop-work order mailed (contract 7.3): S-W05's, resting on its September notice (mailed October 2,
#: to be corrected by October 13), numbered by the month it was first warranted, October.
MAILED_STOP_WORK = ("S-W05", "10", (10, 20))


def _notices_mailed(year: int) -> pd.DataFrame:
    """The clerk's record of notices and orders mailed (contract 5.1, 6.4, 7.3): a few sewer and stormwater
    notices, one recorded twice (the earlier mailing counts, with its blank days: the most the law allows),
    one whose last day to correct is a public holiday (S-W05: October 12 is Columbus Day, so it ends on the
    13th, General Construction Law § 25-a), one whose letter lacks a ZIP code (IU-017: recorded all the
    same, not ready), one draft withdrawn, a stormwater notice recorded without its days to correct (a
    record all the same, for review: :data:`HELD_STORMWATER_NOTICE`), a grease-trap order with its days and
    a stop-work order; the rest left as drafts. IU-002's March notice is recorded as mailed on two days:
    two mailings of one notice, its period from the first (contract 8.3). A row for a month with no
    violation makes no notice."""
    rows = [
        ("sewer", "IU-002", f"{year}-03", date(year, 4, 8), "7019 0140 0000 1111 0001", None, None),
        ("sewer", "IU-002", f"{year}-03", date(year, 4, 15), "7019 0140 0000 1111 0002", 14, None),
        ("sewer", "IU-011", f"{year}-08", date(year, 9, 3), "7019 0140 0000 1111 0003", 21, None),
        (
            "sewer",
            NO_MAILING_ADDRESS_USER,
            f"{year}-05",
            date(year, 6, 10),
            "7019 0140 0000 1111 0006",
            30,
            None,
        ),
        ("stormwater", "S-W05", f"{year}-09", date(year, 10, 2), "7019 0140 0000 1111 0004", 10, None),
        ("stormwater", "S-B06", f"{year}-10", date(year, 11, 3), "7019 0140 0000 1111 0005", 14, None),
        (*WITHDRAWN_NOTICE[:2], WITHDRAWN_NOTICE[2].format(year=year), None, None, None, WITHDRAWN_NOTICE[3]),
        (
            "stormwater",
            HELD_STORMWATER_NOTICE[0],
            f"{year}-{HELD_STORMWATER_NOTICE[1]}",
            date(year, 11, 16),
            "7019 0140 0000 1111 0007",
            None,
            None,
        ),
        (
            "grease_order",
            MAILED_GREASE_ORDER[0],
            f"{year}-{MAILED_GREASE_ORDER[1]}",
            date(year, *MAILED_GREASE_ORDER[2]),
            "7019 0140 0000 1111 0008",
            MAILED_GREASE_ORDER[3],
            None,
        ),
        (
            "stop_work",
            MAILED_STOP_WORK[0],
            f"{year}-{MAILED_STOP_WORK[1]}",
            date(year, *MAILED_STOP_WORK[2]),
            "7019 0140 0000 1111 0009",
            None,
            None,
        ),
    ]
    return pd.DataFrame(
        [
            {
                "kind": k,
                "recipient_id": r,
                "period": p,
                "mailed_on": m.isoformat() if m else None,
                "certified_mail_no": c,
                "correct_within_days": d,
                "withdrawn_reason": w,
            }
            for k, r, p, m, c, d, w in rows
        ]
    ).astype({"correct_within_days": "Int64"})


def _site_inspections(
    site: _Site, storms: list[date], year: int, as_of: date, rng: np.random.Generator
) -> list[dict]:
    if site.behaviour == "none" or site.exempt:
        return []
    start = date(year, *site.start)
    end = min(date(year, *site.final) if site.final else as_of, as_of)
    last_logged = date(year, *site.stop) if site.stop else end
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

    # one record per day (storm beats routine on the same day), none after the log stops
    by_day: dict[date, str] = {}
    rank = {"routine": 0, "storm": 1, "officer": 2, "milestone": 3}
    for day, kind in sorted(visits, key=lambda v: (v[0], rank[v[1]])):
        if day <= min(end, last_logged):
            by_day[day] = kind
    rows = []
    lost = float(rng.uniform(0, 10))
    inspectors = INSPECTORS[site.jurisdiction]
    for day in sorted(by_day):
        kind = by_day[day]
        lost += float(rng.uniform(12, 25)) if kind == "storm" else float(rng.uniform(2, 10))
        lost = min(lost, 95.0)
        pct = int(round(lost))
        if pct >= 50:
            note = f"Sediment trap {pct}% full: cleanout ordered within 48 hours"
            cleaned = True
        elif kind == "storm":
            note = "Post-storm check: silt fence holding, minor sediment at inlet protection"
            cleaned = False
        elif kind == "milestone":
            note = (
                "Final stabilization walk-through"
                if site.final and day == date(year, *site.final)
                else "Pre-construction meeting; perimeter controls installed"
            )
            cleaned = False
        else:
            note = (
                "Controls in place",
                "Construction entrance needs stone",
                "Silt fence repaired",
                "Stockpile covered",
                "Inlet protection cleaned",
            )[int(rng.integers(5))]
            cleaned = False
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


# ------------------------------------------------------------------ rainfall


def _rainfall(year: int, as_of: date) -> dict[str, pd.DataFrame]:
    """The real NOAA Albany days of the window (source year chosen for the demo year's
    February) and the real 2008 gauge (February-May of the demo year)."""
    source = real.noaa_source_year(year)
    first, last = _window(as_of)
    return {
        NOAA_GAUGE: real.noaa_rainfall(None, NOAA_GAUGE, first, last, year - source),
        RG_GAUGE: real.rain_gauge_daily(None, RG_GAUGE, year),
    }


# ------------------------------------------- the stormwater officer's folders

#: (site_id, milestone): notified only 24 hours before (ch. 267 / ch. 21 require 48).
MILESTONE_24H = ("S-W05", "rough_grading_completed")
#: (site_id, contractor): began work six days before signing the SWPPP certification.
LATE_SIGNER = ("S-W06", "Brookside Excavating Corp.")
#: (site_id, approved acres): the approved SWPPP allows 8 of the site's 12 disturbed acres.
SHORT_APPROVAL = ("S-W01", 8.0)
#: The applicant with a prior conviction under ch. 267 within five years.
PRIOR_CONVICTION = "Hillside Farms"
#: Woodbury inspection reports delivered late: this many, from the sloppy sites.
LATE_DELIVERIES = 3

GENERAL_CONTRACTORS = (
    ("Tri-County Site Development Inc.", "1450 Old Country Rd, Plainview NY", "516-555-0142"),
    ("Meadowbrook Builders LLC", "77 Jericho Tpke, Syosset NY", "516-555-0178"),
    ("South Shore Construction Co.", "310 Montauk Hwy, Patchogue NY", "631-555-0119"),
    ("Harbor Hill Contracting Corp.", "25 Station Rd, Bellport NY", "631-555-0163"),
)
EXCAVATORS = (
    ("Brookside Excavating Corp.", "9 Brookside Dr, Huntington NY", "631-555-0191"),
    ("North Fork Earthworks Inc.", "400 Middle Country Rd, Coram NY", "631-555-0127"),
    ("Long Island Site Work LLC", "62 Cantiague Rock Rd, Hicksville NY", "516-555-0136"),
)
LANDSCAPERS = (
    ("Greenway Landscape Services", "18 Nursery Ln, Woodbury NY", "516-555-0155"),
    ("Bayside Lawn & Land Inc.", "5 Bay Ave, East Patchogue NY", "631-555-0104"),
)


def _person(rng: np.random.Generator) -> str:
    return f"{FIRST[int(rng.integers(len(FIRST)))]} {LAST[int(rng.integers(len(LAST)))]}"


def _stamp(day: date, rng: np.random.Generator) -> str:
    """A local office-hours time on ``day`` (ISO 8601 without offset = local time)."""
    return datetime(
        day.year, day.month, day.day, 8 + int(rng.integers(0, 9)), 5 * int(rng.integers(0, 12))
    ).strftime("%Y-%m-%dT%H:%M:%S")


def _tracked(site: _Site) -> bool:
    """Sites with an applicant at work and a log: the ones with inspections."""
    return site.behaviour != "none" and not site.exempt


def _milestones(sites: list[_Site], year: int, as_of: date, rng: np.random.Generator) -> pd.DataFrame:
    """The milestones each active site reached by ``as_of``, notified 3-7 days ahead,
    except :data:`MILESTONE_24H` (24 hours ahead, with its time of day)."""
    rows = []
    for site in sites:
        if not _tracked(site):
            continue
        start = date(year, *site.start)
        final = date(year, *site.final) if site.final else None
        end = min(final or as_of, as_of)
        draws = [
            int(rng.integers(1, 4)),
            int(rng.integers(8, 21)),
            int(rng.integers(25, 51)),
            int(rng.integers(20, 36)),
            int(rng.integers(1, 7)),
            int(rng.integers(0, 6)),
        ]
        plan = [
            ("start_of_construction", start),
            ("erosion_controls_installed", start + timedelta(days=draws[0])),
            ("site_clearing_completed", start + timedelta(days=draws[1])),
            ("rough_grading_completed", start + timedelta(days=draws[2])),
        ]
        if final:
            plan += [
                ("final_grading_completed", final - timedelta(days=draws[3])),
                ("final_landscaping_completed", final - timedelta(days=draws[4])),
            ]
        else:
            plan.append(("construction_season_closed", date(year, 11, 20) + timedelta(days=draws[5])))
        rep = f"{_person(rng)} for {site.applicant}"
        last = None
        for milestone, day in plan:
            notified_at = _stamp(day - timedelta(days=int(rng.integers(3, 8))), rng)
            if day > end or (last is not None and day <= last):
                continue
            last = day
            row = {
                "site_id": site.site_id,
                "milestone": milestone,
                "occurs_on": day.isoformat(),
                "notified_at": notified_at,
                "occurs_at": None,
                "notified_by": rep,
                "notes": None,
            }
            if (site.site_id, milestone) == MILESTONE_24H:
                row["occurs_at"] = f"{day.isoformat()}T07:00:00"
                row["notified_at"] = f"{(day - timedelta(days=1)).isoformat()}T07:00:00"
                row["notes"] = "Phoned in the morning before; grading crew already mobilized"
            rows.append(row)
    return pd.DataFrame(
        rows,
        columns=["site_id", "milestone", "occurs_on", "notified_at", "occurs_at", "notified_by", "notes"],
    )


def _contractor_certifications(
    sites: list[_Site], year: int, as_of: date, rng: np.random.Generator
) -> pd.DataFrame:
    """A general contractor and an excavation subcontractor on every active site, a
    landscaper where the site reached final stabilization; each signed the SWPPP
    certification before starting, except :data:`LATE_SIGNER`."""
    rows = []

    def add(site, firm, title, first_work_on, signed_on):
        name, address, phone = firm
        rows.append(
            {
                "site_id": site.site_id,
                "contractor": name,
                "first_work_on": first_work_on.isoformat(),
                "title": title,
                "signed_on": signed_on.isoformat() if signed_on else None,
                "signer_name": _person(rng),
                "firm_address": address,
                "firm_phone": phone,
            }
        )

    for site in sites:
        if not _tracked(site):
            continue
        start = date(year, *site.start)
        gc = GENERAL_CONTRACTORS[int(rng.integers(len(GENERAL_CONTRACTORS)))]
        add(site, gc, "General contractor", start, start - timedelta(days=int(rng.integers(3, 15))))
        excavator = EXCAVATORS[int(rng.integers(len(EXCAVATORS)))]
        if site.site_id == LATE_SIGNER[0]:
            excavator = next(e for e in EXCAVATORS if e[0] == LATE_SIGNER[1])
        first = start + timedelta(days=int(rng.integers(0, 3)))
        signed = first - timedelta(days=int(rng.integers(0, 6)))  # the same day counts as before
        if (site.site_id, excavator[0]) == LATE_SIGNER:
            signed = first + timedelta(days=6)
        add(site, excavator, "Excavation subcontractor", first, signed)
        if site.final:
            final = date(year, *site.final)
            first = max(start + timedelta(days=1), final - timedelta(days=int(rng.integers(10, 26))))
            landscaper = LANDSCAPERS[int(rng.integers(len(LANDSCAPERS)))]
            add(
                site,
                landscaper,
                "Landscaping subcontractor",
                first,
                first - timedelta(days=int(rng.integers(0, 6))),
            )
    df = pd.DataFrame(
        rows,
        columns=[
            "site_id",
            "contractor",
            "first_work_on",
            "title",
            "signed_on",
            "signer_name",
            "firm_address",
            "firm_phone",
        ],
    )
    return df[pd.to_datetime(df["first_work_on"]).dt.date <= as_of].reset_index(drop=True)


def _swppp_approvals(sites: list[_Site], year: int, rng: np.random.Generator) -> pd.DataFrame:
    """An approved SWPPP, dated before construction start, for every site disturbing
    more than five acres; :data:`SHORT_APPROVAL` allows less than the site disturbs."""
    rows = []
    for site in sites:
        if site.acres <= 5.0:
            continue
        start = date(year, *site.start)
        allowed = SHORT_APPROVAL[1] if site.site_id == SHORT_APPROVAL[0] else site.acres
        approved = start - timedelta(days=int(rng.integers(14, 60)))
        town = "WB" if site.jurisdiction == "woodbury" else "BP"
        rows.append(
            {
                "site_id": site.site_id,
                "approved_max_disturbed_acres": allowed,
                "approved_on": approved.isoformat(),
                "reference": f"SWPPP-{town}-{approved.year}-{int(rng.integers(100, 999))}",
            }
        )
    return pd.DataFrame(rows, columns=["site_id", "approved_max_disturbed_acres", "approved_on", "reference"])


def _convictions(sites: list[_Site], year: int) -> pd.DataFrame:
    """The court's list, with the day of each offense (the five years count offenses committed, contract
    7.4): :data:`PRIOR_CONVICTION` within five years under ch. 267; one conviction more than five years old;
    one of an applicant with no site this year, whose offense's day is not on file."""
    applicants = {s.applicant: s for s in sites}
    rows = []
    if PRIOR_CONVICTION in applicants:
        site = applicants[PRIOR_CONVICTION]
        rows.append(
            {
                "applicant": PRIOR_CONVICTION,
                "convicted_on": date(year - 3, 9, 14).isoformat(),
                "offense_on": date(year - 3, 6, 2).isoformat(),
                "chapter": "ch. 267",
                "site_id": None,
                "jurisdiction": f"Town of {site.jurisdiction.title()}",
                "court": "Woodbury Town Justice Court",
                "docket": f"TJ-{year - 3}-0412",
            }
        )
    if "Commons Development LLC" in applicants:
        rows.append(
            {
                "applicant": "Commons Development LLC",
                "convicted_on": date(year - 7, 5, 2).isoformat(),
                "offense_on": date(year - 8, 10, 19).isoformat(),
                "chapter": "Chapter 267",
                "site_id": None,
                "jurisdiction": "woodbury",
                "court": "Woodbury Town Justice Court",
                "docket": f"TJ-{year - 7}-0088",
            }
        )
    rows.append(
        {
            "applicant": "Crestline Excavating Corp.",
            "convicted_on": date(year - 2, 3, 27).isoformat(),
            "offense_on": None,  # not on file: the conviction's day counts
            "chapter": "21",
            "site_id": None,
            "jurisdiction": "Village of Bellport",
            "court": "Bellport Village Justice Court",
            "docket": f"VJ-{year - 2}-0031",
        }
    )
    return pd.DataFrame(
        rows,
        columns=[
            "applicant",
            "convicted_on",
            "offense_on",
            "chapter",
            "site_id",
            "jurisdiction",
            "court",
            "docket",
        ],
    )


def _report_deliveries(
    inspections: pd.DataFrame, sites: list[_Site], as_of: date, rng: np.random.Generator
) -> pd.DataFrame:
    """A delivery row for every Woodbury inspection report (every kind but the officer's
    own, which is no applicant's report): within the week, except :data:`LATE_DELIVERIES`
    reports of the sloppy sites, delivered 9-14 days after the inspection."""
    woodbury = {s.site_id for s in sites if s.jurisdiction == "woodbury"}
    sloppy = {s.site_id for s in sites if s.behaviour == "sloppy"}
    mine = inspections[inspections["site_id"].isin(woodbury) & (inspections["kind"] != "officer")]
    days = [date.fromisoformat(t[:10]) for t in mine["inspected_at"]]
    candidates = [
        i
        for i, (sid, d) in enumerate(zip(mine["site_id"], days))
        if sid in sloppy and d <= as_of - timedelta(days=30)
    ]
    late = (
        set(rng.choice(candidates, size=min(LATE_DELIVERIES, len(candidates)), replace=False).tolist())
        if candidates
        else set()
    )
    methods = ("email", "email", "hand delivered", "online portal")
    rows = []
    for i, (sid, day) in enumerate(zip(mine["site_id"], days)):
        lag = int(rng.integers(9, 15)) if i in late else int(rng.integers(0, 7))
        rows.append(
            {
                "site_id": sid,
                "report_date": day.isoformat(),
                "delivered_on": min(day + timedelta(days=lag), as_of).isoformat(),
                "method": methods[int(rng.integers(len(methods)))],
            }
        )
    return pd.DataFrame(rows, columns=["site_id", "report_date", "delivered_on", "method"])


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


def _reports(
    users: list[_User], slugs: list[_Slug], year: int, as_of: date, rng: np.random.Generator
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


def _accidental_discharges(user_ids: set[str], year: int, as_of: date) -> pd.DataFrame:
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


def _grease(users: list[_User], as_of: date, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A grease trap for every restaurant among the users, its pump-out frequency set
    before the window, and pump-outs on time through ``as_of``; :data:`OVERDUE_TRAP_USER`'s
    stopped in the summer, and one pump-out has no invoice on file."""
    first, _ = _window(as_of)
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


# -------------------------------------------------------------- sewer budget

#: The districts' budgets (USD) for the year after the demo year, at scale 1 (about
#: 3.5% above that year's adopted rates x units). No rate is adopted for that year, so
#: its rates come from these (rules billing.rate_sources: sewer_rates, then sewer_budget).
NEXT_YEAR_BUDGET = {
    _C: {"bond": 661_000, "om": 995_000, "street_lateral": 132_500, "house_lateral": 98_000},
    _D1: {"bond": 276_000, "om": 511_500, "street_lateral": 84_500, "house_lateral": 59_250},
}


def _sewer_budget(year: int, n_parcels: int) -> pd.DataFrame:
    """The next year's budget, scaled with the number of parcels (to the $10)."""
    factor = n_parcels / 3000
    rows = [
        {"year": year + 1, "district": d, "component": c, "amount": f"{round(v * factor, -1):.2f}"}
        for d, comps in NEXT_YEAR_BUDGET.items()
        for c, v in comps.items()
    ]
    return pd.DataFrame(rows, columns=["year", "district", "component", "amount"])


# -------------------------------------------------------------------- main


# The demo's letterhead (docs/letters.md). Demo values for a town to replace: the signatories are
# invented and the telephone numbers are from the 555-01xx range, which is never assigned.
DEMO_LETTERHEAD = """\
# The letterhead of the letters Outfall writes (docs/letters.md).
# Demo values: the signatories and telephone numbers are invented; replace every value with your own.
woodbury:
  name: Town of Woodbury
  address:
    - Town Hall, 511 Route 32
    - Highland Mills, NY 10930
  phone: (845) 555-0100
  signatories:
    sewer:
      name: Dana Whitfield
      title: Administrator, Consolidated Sewer District
      phone: (845) 555-0131
    stormwater:
      name: Morgan Ellery
      title: Stormwater Management Officer
      phone: (845) 555-0142
bellport:
  name: Village of Bellport
  address:
    - Village Hall, 29 Bellport Lane
    - Bellport, NY 11713
  phone: (631) 555-0170
  signatories:
    stormwater:
      name: Riley Okafor
      title: Stormwater Management Officer
      phone: (631) 555-0188
"""


# ------------------------------------------------------- contract section 5

#: The illicit discharge abated by the Town and paid in part (Woodbury ch. 185).
TOWN_ABATED_CASE = "ID-2026-01"
#: A case from the paper files, discovered before ch. 185 took effect: set aside with the reason.
PRE_CHAPTER_CASE = "ID-2006-01"
#: An appeal received and not decided on the demo's as-of day (the abatement suspended); its 15th day was a
#: Saturday, so the appeal received on the Monday is in time (General Construction Law § 25-a).
PENDING_APPEAL_CASE = "ID-2026-05"
#: An appeal that vacated the notice of violation: the case ends (no abatement).
VACATED_CASE = "ID-2026-06"
#: An appeal received after its 15 days: no appeal (contract 8.5): no hearing, nothing suspended.
LATE_APPEAL_CASE = "ID-2026-07"
ILLICIT_COLUMNS = [
    "case_id",
    "premises",
    "discovered_on",
    "hazardous",
    "notified_on",
    "written_confirmation_on",
    "nov_on",
    "abatement_due",
    "appeal_received_on",
    "appeal_decided_on",
    "abated_on",
    "abated_by",
    "abatement_cost_usd",
    "cost_notice_on",
    "protest_received_on",
    "responsible_party",
    "mailing_address",
    "description",
    "nov_requires",
    "hearing_on",
    "appeal_outcome",
]


def _first_parcel(parcels: pd.DataFrame, property_class: str, skip: int = 0) -> pd.Series:
    """The ``skip``-th parcel of a class in a real district, by parcel id (deterministic)."""
    ok = parcels[(parcels["property_class"] == property_class) & parcels["district"].isin([_C, _D1])]
    ok = ok[pd.to_numeric(ok["acres"], errors="coerce").notna()].sort_values("parcel_id")
    return ok.iloc[skip]


def _illicit_discharges(parcels: pd.DataFrame, year: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Eight cases in the states ch. 185 knows, and the payments toward the Town's abatement."""
    yard = _first_parcel(parcels, "commercial")
    d = lambda m, day: date(year, m, day).isoformat()  # noqa: E731
    cases = [
        # Friday before Memorial Day: notice due Tuesday; abated by the Town after the notice's deadline,
        # its cost noticed, paid in part
        {
            "case_id": TOWN_ABATED_CASE,
            "premises": yard["parcel_id"],
            "discovered_on": d(5, 22),
            "hazardous": "false",
            "notified_on": d(5, 26),
            "written_confirmation_on": d(5, 28),
            "nov_on": d(6, 3),
            "abatement_due": d(6, 30),
            "abated_on": d(7, 21),
            "abated_by": "town",
            "abatement_cost_usd": "6240.00",
            "cost_notice_on": d(8, 14),
            "description": "Wash water and degreaser from a service bay floor drain connected to the storm "
            "sewer",
            "nov_requires": "2, 3, 4",
        },
        # notified a business day late (Saturday July 4 is not moved to Friday), never confirmed in writing
        {
            "case_id": "ID-2026-02",
            "premises": "27 Jericho Tpke",
            "discovered_on": d(7, 2),
            "hazardous": "false",
            "notified_on": d(7, 6),
            "nov_on": d(7, 9),
            "responsible_party": "Golden Wok Restaurant",
            "mailing_address": "27 Jericho Tpke\nWoodbury, NY 11797",
            "description": "Kitchen grease washed into the curb inlet in front of the restaurant",
            "nov_requires": "2, 3",
        },
        # hazardous: straight to emergency services; appealed, the
        # hearing held late, abated by the owner in time
        {
            "case_id": "ID-2026-03",
            "premises": "Orchard Ln",
            "discovered_on": d(9, 14),
            "hazardous": "true",
            "nov_on": d(9, 16),
            "abatement_due": d(10, 16),
            "appeal_received_on": d(9, 28),
            "appeal_decided_on": d(10, 20),
            "appeal_outcome": "upheld",
            "abated_on": d(11, 2),
            "abated_by": "owner",
            "responsible_party": "Orchard Ridge Homes Inc.",
            "mailing_address": "Orchard Ln\nWoodbury, NY 11797",
            "description": "Hydraulic oil from a ruptured excavator line reaching a catch basin",
            "nov_requires": "1, 2, 4, 6",
        },
        # the day before Thanksgiving: notice due Friday; none yet; no one known to write to
        {
            "case_id": "ID-2026-04",
            "premises": "Storm drain at 40 Bayview Ave",
            "discovered_on": d(11, 25),
            "hazardous": "false",
            "description": "Milky discharge from an unknown connection",
        },
        {
            "case_id": PRE_CHAPTER_CASE,
            "premises": "Mill Pond Rd culvert",
            "discovered_on": f"{year - 20}-08-10",
            "hazardous": "false",
            "description": "Entered from the paper files",
        },
        # notice of violation Friday October 30: its 15th day is Saturday November 14, so the
        # appeal received Monday November 16 is in time (GCL § 25-a); not decided yet: the
        # abatement (due November 20) is suspended
        {
            "case_id": PENDING_APPEAL_CASE,
            "premises": "112 Harbor Rd",
            "discovered_on": d(10, 26),
            "hazardous": "false",
            "notified_on": d(10, 27),
            "written_confirmation_on": d(10, 29),
            "nov_on": d(10, 30),
            "abatement_due": d(11, 20),
            "appeal_received_on": d(11, 16),
            "responsible_party": "Harbor Boat Works LLC",
            "mailing_address": "112 Harbor Rd\nWoodbury, NY 11797",
            "description": "Hull wash water with antifouling paint hosed into a storm drain",
            "nov_requires": "2, 3, 4",
        },
        # heard and decided in time; the decision vacated the
        # notice: no abatement, no penalty after the notice
        {
            "case_id": VACATED_CASE,
            "premises": "9 Woodbury Rd",
            "discovered_on": d(8, 10),
            "hazardous": "false",
            "notified_on": d(8, 10),
            "written_confirmation_on": d(8, 12),
            "nov_on": d(8, 13),
            "abatement_due": d(9, 14),
            "appeal_received_on": d(8, 21),
            "hearing_on": d(9, 1),
            "appeal_decided_on": d(9, 3),
            "appeal_outcome": "vacated",
            "responsible_party": "Woodbury Auto Spa",
            "mailing_address": "9 Woodbury Rd\nWoodbury, NY 11797",
            # what was known when the notice was written, August 13 (the appeal's outcome is its own column)
            "description": "Rinse water running to a catch basin",
            "nov_requires": "2, 3",
        },
        # notice of violation Thursday October 1: its 15th day is Friday October 16, so the appeal received
        # Monday October 19 is late: no appeal (contract 8.5), no hearing; the abatement stays due November 6
        {
            "case_id": LATE_APPEAL_CASE,
            "premises": "55 Smith Clove Rd",
            "discovered_on": d(9, 28),
            "hazardous": "false",
            "notified_on": d(9, 28),
            "written_confirmation_on": d(9, 30),
            "nov_on": d(10, 1),
            "abatement_due": d(11, 6),
            "appeal_received_on": d(10, 19),
            "responsible_party": "Smith Clove Car Wash Inc.",
            "mailing_address": "55 Smith Clove Rd\nCentral Valley, NY 10917",
            "description": "Car wash bay drain discharging soapy wash water to the road ditch",
            "nov_requires": "2, 3, 4",
        },
    ]
    payments = [
        {
            "case_id": TOWN_ABATED_CASE,
            "paid_on": d(9, 15),
            "amount_usd": "520.00",
            "receipt_no": f"R-{year}-0917",
        },
        {
            "case_id": TOWN_ABATED_CASE,
            "paid_on": d(10, 15),
            "amount_usd": "520.00",
            "receipt_no": f"R-{year}-1022",
        },
    ]
    return (
        pd.DataFrame(cases, columns=ILLICIT_COLUMNS),
        pd.DataFrame(payments, columns=["case_id", "paid_on", "amount_usd", "receipt_no"]),
    )


SMP_COLUMNS = [
    "practice_id",
    "site_id",
    "practice_type",
    "as_built_received_on",
    "as_built_pe_certified",
    "final_plan_approved_on",
    "maintenance_agreement_recorded_on",
    "final_acceptance_on",
    "one_year_inspection_on",
    "guarantee_released_on",
]


def _smp_practices(sites: list[_Site], year: int) -> pd.DataFrame:
    """Permanent practices of the stabilized sites: one as-built plan missing, one received late, one
    without an engineer's certification, an agreement recorded after approval, a guarantee released early."""
    d = lambda m, day: date(year, m, day).isoformat()  # noqa: E731
    rows = [
        ("SMP-W01-1", "S-W01", "wet detention pond", d(11, 2), "true", d(2, 20), d(2, 18), None, None, None),
        ("SMP-W01-2", "S-W01", "bioretention area", None, None, d(2, 20), d(2, 18), None, None, None),
        ("SMP-W02-1", "S-W02", "dry well", d(9, 2), "true", d(3, 25), d(3, 20), d(9, 10), None, d(11, 16)),
        ("SMP-W08-1", "S-W08", "infiltration trench", d(10, 5), "false", d(6, 20), d(7, 1), None, None, None),
        ("SMP-B04-1", "S-B04", "dry well", d(10, 30), "true", d(6, 1), d(5, 28), None, None, None),
        ("SMP-B07-1", "S-B07", "oil-water separator", None, None, d(7, 15), d(7, 10), None, None, None),
    ]
    known = {s.site_id for s in sites}
    return pd.DataFrame([r for r in rows if r[1] in known], columns=SMP_COLUMNS)


def _connection_permits(parcels: pd.DataFrame, year: int) -> pd.DataFrame:
    """Building permits with water and sewer inspections (ch. 301): single family, commercial, one in a
    shopping mall (not in the schedule), one of last year, and a use that is neither word."""
    sf = [_first_parcel(parcels, "single_family", k)["parcel_id"] for k in range(3)]
    com = [_first_parcel(parcels, "commercial", k)["parcel_id"] for k in range(1, 4)]
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


def write_letterhead(out_dir: Path) -> Path:
    """The demo town's ``letterhead.yaml`` in the data folder (read by outfall.letters)."""
    path = Path(out_dir) / LETTERHEAD_FILE
    path.write_text(DEMO_LETTERHEAD, encoding="utf-8")
    return path


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


def _monitoring_requirements(users: list[_User], year: int) -> pd.DataFrame:
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


def generate(
    out_dir: Path, *, seed: int = 20261130, scale: float = 1.0, year: int = 2026, as_of: date | None = None
) -> dict[str, int]:
    """Write the demo town's input data under ``out_dir/<dataset>/``; return rows written per dataset.

    ``as_of`` (default 30 November of ``year``) is the day the demo judges on:
    nothing observed is dated after it, and the meters, labs and rain gauge
    cover the 365 days up to it. It must fall in 30 November .. 31 December of
    ``year``, so that the cases planted in ``year`` (February to November) lie
    in the data. Each dataset folder is emptied first, so a smaller second run
    leaves no stale files behind. Rows written include the deliberately bad rows.
    """
    if scale <= 0:
        raise ValueError(f"scale must be positive, not {scale}")
    as_of = date(year, *AS_OF_MONTH_DAY) if as_of is None else as_of
    if not date(year, *AS_OF_MONTH_DAY) <= as_of <= date(year, 12, 31):
        raise ValueError(
            f"as_of {as_of.isoformat()} must fall between {date(year, *AS_OF_MONTH_DAY).isoformat()} "
            f"and {date(year, 12, 31).isoformat()}: the planted cases are dated up to November {year}"
        )
    out_dir = Path(out_dir)
    folders = {}
    for name in DATASETS:
        folder = out_dir / name
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        folders[name] = folder
    counts: dict[str, int] = {}

    users = _users(scale, _rng(seed, "industrial_users", part=1))
    user_ids = {u.user_id for u in users}
    unpermitted, unpermitted_flow, town_sample = _unpermitted(year)
    counts["industrial_users"] = _write_csv(
        pd.concat(
            [_industrial_users(users, year, _rng(seed, "industrial_users")), pd.DataFrame([unpermitted])],
            ignore_index=True,
        ),
        folders["industrial_users"] / "users.csv",
    )
    counts["permit_limits"] = _write_csv(
        _special_agreements(user_ids, year), folders["permit_limits"] / "special_agreements.csv"
    )
    counts["lab_results"] = _lab_results(
        users, folders["lab_results"], year, as_of, _rng(seed, "lab_results")
    )
    counts["flow"], slugs = _flow(users, folders["flow"], year, as_of, _rng(seed, "flow"))
    counts["flow"] += _write_csv(unpermitted_flow, folders["flow"] / f"{UNPERMITTED_USER}_portable_meter.csv")
    counts["lab_results"] += _write_csv(
        town_sample, folders["lab_results"] / f"{UNPERMITTED_USER}_town_sample.csv"
    )
    counts["infiltration_tests"] = _write_csv(
        _infiltration_tests(scale, year, _rng(seed, "infiltration_tests")),
        folders["infiltration_tests"] / "tests.csv",
    )
    parcels = _parcels(scale, _rng(seed, "parcels"))
    counts["parcels"] = _write_csv(parcels, folders["parcels"] / "parcels.csv")
    counts["sewer_rates"] = _write_csv(_sewer_rates(year), folders["sewer_rates"] / "rates.csv")

    rain = _rainfall(year, as_of)
    counts["rainfall"] = 0
    for gauge, frame in rain.items():
        counts["rainfall"] += _write_csv(frame, folders["rainfall"] / f"{gauge}_daily.csv")

    sites = _sites(scale, _rng(seed, "sites"))
    counts["sites"] = _write_csv(_sites_frame(sites, year), folders["sites"] / "sites.csv")
    storm_days = {
        gauge: sorted(date.fromisoformat(d) for d in frame.loc[frame["precip_in"] >= 0.5, "date"])
        for gauge, frame in rain.items()
    }
    rng = _rng(seed, "inspections")
    rows: list[dict] = []
    for site in sites:
        rows.extend(_site_inspections(site, storm_days[site.gauge], year, as_of, rng))
    inspections = pd.DataFrame(
        rows, columns=["site_id", "inspected_at", "inspector", "kind", "sediment_capacity_lost_pct", "notes"]
    )
    counts["inspections"] = _write_csv(inspections, folders["inspections"] / "inspections.csv")

    # the stormwater officer's folders
    counts["milestones"] = _write_csv(
        _milestones(sites, year, as_of, _rng(seed, "milestones")), folders["milestones"] / "milestones.csv"
    )
    counts["contractor_certifications"] = _write_csv(
        _contractor_certifications(sites, year, as_of, _rng(seed, "contractor_certifications")),
        folders["contractor_certifications"] / "certifications.csv",
    )
    counts["swppp_approvals"] = _write_csv(
        _swppp_approvals(sites, year, _rng(seed, "swppp_approvals")),
        folders["swppp_approvals"] / "approvals.csv",
    )
    counts["convictions"] = _write_csv(_convictions(sites, year), folders["convictions"] / "convictions.csv")
    counts["report_deliveries"] = _write_csv(
        _report_deliveries(inspections, sites, as_of, _rng(seed, "report_deliveries")),
        folders["report_deliveries"] / "deliveries.csv",
    )

    # the sewer administrator's folders, and billing's
    counts["reports"] = _write_csv(
        _reports(users, slugs, year, as_of, _rng(seed, "reports")), folders["reports"] / "reports.csv"
    )
    counts["accidental_discharges"] = _write_csv(
        _accidental_discharges(user_ids, year, as_of),
        folders["accidental_discharges"] / "accidental_discharges.csv",
    )
    traps, pumpouts = _grease(users, as_of, _rng(seed, "grease_traps"))
    counts["grease_traps"] = _write_csv(traps, folders["grease_traps"] / "grease_traps.csv")
    counts["pumpouts"] = _write_csv(pumpouts, folders["pumpouts"] / "pumpouts.csv")
    counts["sewer_budget"] = _write_csv(
        _sewer_budget(year, len(parcels)), folders["sewer_budget"] / f"budget_{year + 1}.csv"
    )
    # contract section 5
    cases, payments = _illicit_discharges(parcels, year)
    counts["illicit_discharges"] = _write_csv(cases, folders["illicit_discharges"] / "cases.csv")
    counts["illicit_payments"] = _write_csv(payments, folders["illicit_payments"] / "payments.csv")
    counts["smp_practices"] = _write_csv(
        _smp_practices(sites, year), folders["smp_practices"] / "practices.csv"
    )
    counts["connection_permits"] = _write_csv(
        _connection_permits(parcels, year), folders["connection_permits"] / "connection_permits.csv"
    )
    counts["notices_mailed"] = _write_csv(_notices_mailed(year), folders["notices_mailed"] / "mailed.csv")
    counts["monitoring_requirements"] = _write_csv(
        _monitoring_requirements(users, year), folders["monitoring_requirements"] / "requirements.csv"
    )
    write_letterhead(out_dir)
    return {name: counts[name] for name in DATASETS}
