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

import shutil
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from outfall.demo.billing import connection_permits, parcels_frame, sewer_budget, sewer_rates
from outfall.demo.flow import Slug, write_flow
from outfall.demo.illicit import (
    LATE_APPEAL_CASE,
    PENDING_APPEAL_CASE,
    PRE_CHAPTER_CASE,
    TOWN_ABATED_CASE,
    VACATED_CASE,
    illicit_discharges,
)
from outfall.demo.labs import INJECTED_EXCEEDANCES, STOPPED_SAMPLING, write_lab_results
from outfall.demo.notices import notices_mailed, write_letterhead
from outfall.demo.real import write_csv
from outfall.demo.sewer import (
    LATE_PERIODIC_USER,
    OVERDUE_TRAP_USER,
    SLUG_REPORT_LATE,
    SLUG_REPORT_MISSING,
    accidental_discharges,
    grease,
    infiltration_tests,
    monitoring_requirements,
    reports,
)
from outfall.demo.sites import Site, inspections_frame, rainfall, site_list, sites_frame
from outfall.demo.stormwater import (
    LATE_DELIVERIES,
    LATE_SIGNER,
    MILESTONE_24H,
    PRIOR_CONVICTION,
    SHORT_APPROVAL,
    contractor_certifications,
    convictions,
    milestones,
    report_deliveries,
    smp_practices,
    swppp_approvals,
)
from outfall.demo.users import (
    INTERMUNICIPAL_USER,
    NEW_PERMIT_USER,
    REAL_METER_USER,
    UNPERMITTED_USER,
    User,
    industrial_users,
    roster,
    special_agreements,
    unpermitted,
)

#: What other code reads of the demo town (the tests name its planted cases through this module).
__all__ = [
    "AS_OF_MONTH_DAY",
    "DATASETS",
    "INJECTED_EXCEEDANCES",
    "INTERMUNICIPAL_USER",
    "LATE_APPEAL_CASE",
    "LATE_DELIVERIES",
    "LATE_PERIODIC_USER",
    "LATE_SIGNER",
    "MILESTONE_24H",
    "NEW_PERMIT_USER",
    "NOT_IN_DEMO",
    "OVERDUE_TRAP_USER",
    "PENDING_APPEAL_CASE",
    "PRE_CHAPTER_CASE",
    "PRIOR_CONVICTION",
    "REAL_METER_USER",
    "SHORT_APPROVAL",
    "SLUG_REPORT_LATE",
    "SLUG_REPORT_MISSING",
    "STOPPED_SAMPLING",
    "TOWN_ABATED_CASE",
    "UNPERMITTED_USER",
    "VACATED_CASE",
    "generate",
    "write_letterhead",
]

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
#: The default as-of day (month, day) of the demo year: the data ends on it.
AS_OF_MONTH_DAY = (11, 30)


@dataclass
class _Run:
    """One run of the generator: where each dataset's folder is, its random streams, the rows written."""

    out_dir: Path
    seed: int
    scale: float
    year: int
    as_of: date
    counts: dict[str, int] = field(default_factory=dict)

    def rng(self, dataset: str, part: int = 0) -> np.random.Generator:
        """An independent stream per dataset (and per ``part`` of one dataset's recipe)."""
        return np.random.default_rng([self.seed, DATASETS.index(dataset), part])

    def folder(self, dataset: str) -> Path:
        return self.out_dir / dataset

    def count(self, dataset: str, rows: int) -> None:
        self.counts[dataset] = self.counts.get(dataset, 0) + rows

    def write(self, dataset: str, frame: pd.DataFrame, name: str) -> None:
        """``frame`` as ``<dataset>/<name>`` (CSV), its rows counted."""
        self.count(dataset, write_csv(frame, self.folder(dataset) / name))


def _as_of(scale: float, year: int, as_of: date | None) -> date:
    """The day judged on (30 November of ``year`` unless given), checked with ``scale``."""
    if scale <= 0:
        raise ValueError(f"scale must be positive, not {scale}")
    as_of = date(year, *AS_OF_MONTH_DAY) if as_of is None else as_of
    if not date(year, *AS_OF_MONTH_DAY) <= as_of <= date(year, 12, 31):
        raise ValueError(
            f"as_of {as_of.isoformat()} must fall between {date(year, *AS_OF_MONTH_DAY).isoformat()} "
            f"and {date(year, 12, 31).isoformat()}: the planted cases are dated up to November {year}"
        )
    return as_of


def _empty_folders(out_dir: Path) -> None:
    """A new, empty folder per dataset (a smaller second run leaves no stale files behind)."""
    for name in DATASETS:
        folder = out_dir / name
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)


def _write_users(run: _Run) -> tuple[list[User], list[Slug]]:
    """The industrial users, their special agreements, samples and meters (and the unpermitted business's);
    return the users and the slugs in their flow."""
    year, as_of = run.year, run.as_of
    users = roster(run.scale, run.rng("industrial_users", part=1))
    town_user, town_flow, town_sample = unpermitted(year)
    permitted = industrial_users(users, year, run.rng("industrial_users"))
    run.write(
        "industrial_users", pd.concat([permitted, pd.DataFrame([town_user])], ignore_index=True), "users.csv"
    )
    user_ids = {u.user_id for u in users}
    run.write("permit_limits", special_agreements(user_ids, year), "special_agreements.csv")
    run.count(
        "lab_results",
        write_lab_results(users, run.folder("lab_results"), year, as_of, run.rng("lab_results")),
    )
    rows, slugs = write_flow(users, run.folder("flow"), year, as_of, run.rng("flow"))
    run.count("flow", rows)
    run.write("flow", town_flow, f"{UNPERMITTED_USER}_portable_meter.csv")
    run.write("lab_results", town_sample, f"{UNPERMITTED_USER}_town_sample.csv")
    return users, slugs


def _write_sites(run: _Run) -> tuple[list[Site], pd.DataFrame]:
    """The rain gauges, the construction sites and their inspections; return the sites and inspections."""
    rain = rainfall(run.year, run.as_of)
    run.count("rainfall", 0)
    for gauge, frame in rain.items():
        run.write("rainfall", frame, f"{gauge}_daily.csv")
    sites = site_list(run.scale, run.rng("sites"))
    run.write("sites", sites_frame(sites, run.year), "sites.csv")
    inspections = inspections_frame(sites, rain, run.year, run.as_of, run.rng("inspections"))
    run.write("inspections", inspections, "inspections.csv")
    return sites, inspections


def _write_stormwater(run: _Run, sites: list[Site], inspections: pd.DataFrame) -> None:
    """The stormwater officer's folders."""
    year, as_of = run.year, run.as_of
    run.write("milestones", milestones(sites, year, as_of, run.rng("milestones")), "milestones.csv")
    certifications = contractor_certifications(sites, year, as_of, run.rng("contractor_certifications"))
    run.write("contractor_certifications", certifications, "certifications.csv")
    run.write("swppp_approvals", swppp_approvals(sites, year, run.rng("swppp_approvals")), "approvals.csv")
    run.write("convictions", convictions(sites, year), "convictions.csv")
    deliveries = report_deliveries(inspections, sites, as_of, run.rng("report_deliveries"))
    run.write("report_deliveries", deliveries, "deliveries.csv")


def _write_sewer(run: _Run, users: list[User], slugs: list[Slug]) -> None:
    """The sewer administrator's folders."""
    year, as_of = run.year, run.as_of
    run.write("reports", reports(users, slugs, year, as_of, run.rng("reports")), "reports.csv")
    user_ids = {u.user_id for u in users}
    run.write(
        "accidental_discharges", accidental_discharges(user_ids, year, as_of), "accidental_discharges.csv"
    )
    traps, pumpouts = grease(users, as_of, run.rng("grease_traps"))
    run.write("grease_traps", traps, "grease_traps.csv")
    run.write("pumpouts", pumpouts, "pumpouts.csv")


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
    run = _Run(Path(out_dir), seed, scale, year, _as_of(scale, year, as_of))
    _empty_folders(run.out_dir)
    users, slugs = _write_users(run)
    run.write(
        "infiltration_tests", infiltration_tests(scale, year, run.rng("infiltration_tests")), "tests.csv"
    )
    parcels = parcels_frame(scale, run.rng("parcels"))
    run.write("parcels", parcels, "parcels.csv")
    run.write("sewer_rates", sewer_rates(year), "rates.csv")
    sites, inspections = _write_sites(run)
    _write_stormwater(run, sites, inspections)
    _write_sewer(run, users, slugs)
    run.write("sewer_budget", sewer_budget(year, len(parcels)), f"budget_{year + 1}.csv")
    # contract section 5
    cases, payments = illicit_discharges(parcels, year)
    run.write("illicit_discharges", cases, "cases.csv")
    run.write("illicit_payments", payments, "payments.csv")
    run.write("smp_practices", smp_practices(sites, year), "practices.csv")
    run.write("connection_permits", connection_permits(parcels, year), "connection_permits.csv")
    run.write("notices_mailed", notices_mailed(year), "mailed.csv")
    run.write("monitoring_requirements", monitoring_requirements(users, year), "requirements.csv")
    write_letterhead(run.out_dir)
    return {name: run.counts[name] for name in DATASETS}
