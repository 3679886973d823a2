"""The stormwater officer's folders (docs/inputs-stormwater.md): ``milestones``,
``contractor_certifications``, ``swppp_approvals``, ``convictions``, ``report_deliveries``, and the
post-construction practices of the stabilized sites (``smp_practices``, contract section 5)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import numpy as np
import pandas as pd

from outfall.demo.common import FIRST, LAST, day_of
from outfall.demo.sites import Site

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


def tracked(site: Site) -> bool:
    """Sites with an applicant at work and a log: the ones with inspections."""
    return site.behaviour != "none" and not site.exempt


def milestones(sites: list[Site], year: int, as_of: date, rng: np.random.Generator) -> pd.DataFrame:
    """The milestones each active site reached by ``as_of``, notified 3-7 days ahead,
    except :data:`MILESTONE_24H` (24 hours ahead, with its time of day)."""
    rows = []
    for site in sites:
        if not tracked(site):
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


CERTIFICATION_COLUMNS = [
    "site_id",
    "contractor",
    "first_work_on",
    "title",
    "signed_on",
    "signer_name",
    "firm_address",
    "firm_phone",
]


def contractor_certifications(
    sites: list[Site], year: int, as_of: date, rng: np.random.Generator
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
        if not tracked(site):
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
    df = pd.DataFrame(rows, columns=CERTIFICATION_COLUMNS)
    return df[pd.to_datetime(df["first_work_on"]).dt.date <= as_of].reset_index(drop=True)


def swppp_approvals(sites: list[Site], year: int, rng: np.random.Generator) -> pd.DataFrame:
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


def convictions(sites: list[Site], year: int) -> pd.DataFrame:
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


def report_deliveries(
    inspections: pd.DataFrame, sites: list[Site], as_of: date, rng: np.random.Generator
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


def smp_practices(sites: list[Site], year: int) -> pd.DataFrame:
    """Permanent practices of the stabilized sites: one as-built plan missing, one received late, one
    without an engineer's certification, an agreement recorded after approval, a guarantee released early."""
    d = day_of(year)
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
