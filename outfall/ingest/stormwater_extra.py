"""The stormwater officer's own input folders (docs/inputs-stormwater.md),
declared for the ingestion engine: milestones, contractor_certifications,
swppp_approvals, convictions and report_deliveries.

Registered on import (``outfall.ingest.datasets.register``: every folder is optional); their
ingestion assets are built by ``assets.ingest.build_ingest_asset``, their tables by
``sql/stormwater/create_stormwater_tables.sql``.
"""

from __future__ import annotations

import re

from outfall import vocab
from outfall.ingest.datasets import (BY_HAND, Column, Dataset, Step, name_key, register, synonym_vocabulary,
                                     vocabulary)

# The eight milestones before which the applicant must give 48 hours' notice
# (Woodbury ch. 267 inspections (1)(a)-(h); Bellport ch. 21 inspections (1)-(8)),
# with the spellings a clerk may use: the law's words, its letter or number.
MILESTONES: dict[str, tuple[str, ...]] = {
    "start_of_construction": ("start of construction", "construction start", "start", "a", "1"),
    "erosion_controls_installed": ("installation of sediment and erosion control measures",
                                   "erosion control installation", "erosion controls installed",
                                   "sediment and erosion controls installed", "erosion controls",
                                   "sediment and erosion control measures", "b", "2"),
    "site_clearing_completed": ("completion of site clearing", "site clearing complete", "clearing complete",
                                "site clearing", "clearing", "c", "3"),
    "rough_grading_completed": ("completion of rough grading", "rough grading complete", "rough grading", "d", "4"),
    "final_grading_completed": ("completion of final grading", "final grading complete", "final grading", "e", "5"),
    "construction_season_closed": ("close of the construction season", "close of construction season",
                                   "end of construction season", "construction season close", "f", "6"),
    "final_landscaping_completed": ("completion of final landscaping", "final landscaping complete",
                                    "final landscaping", "g", "7"),
    "public_landscaping_established": ("successful establishment of landscaping in public areas",
                                       "public landscaping established", "landscaping in public areas",
                                       "h", "8"),
}


# canonical_milestone: 'Completion of rough grading', '(d)', '4', 'rough_grading_completed'
# -> 'rough_grading_completed'.
canonical_milestone, MILESTONE_VOCAB = synonym_vocabulary("milestone", MILESTONES)


def _canonical_jurisdiction(text: object) -> str | None:
    key = name_key(text)
    key = re.sub(r"^(town|village) of ", "", key)
    return key if key in vocab.JURISDICTIONS else None


def chapter_number(text: object) -> str | None:
    """'ch. 267', 'Chapter 267', '267' -> '267' (the first number, without leading zeros)."""
    m = re.search(r"\d+", str(text))
    return (m.group(0).lstrip("0") or "0") if m else None


JURISDICTION_VOCAB = vocabulary("jurisdiction_named", _canonical_jurisdiction,
                                [f"{p}{j}" for j in vocab.JURISDICTIONS for p in ("", "town of ", "village of ")],
                                style="key")

# chapter_number in SQL: the first run of digits without leading zeros.
CHAPTER_NUMBER_SQL = ("CASE WHEN regexp_matches(chapter, '[0-9]') THEN "
                      "coalesce(nullif(ltrim(regexp_extract(chapter, '[0-9]+'), '0'), ''), '0') END")
CHAPTER_REASON_SQL = ("CASE WHEN chapter IS NOT NULL AND NOT regexp_matches(chapter, '[0-9]') THEN "
                      "'chapter ''' || chapter || ''' names no chapter number (e.g. 267)' END")


MILESTONE_NAMES = ", ".join(MILESTONES)

STORMWATER_DATASETS: tuple[Dataset, ...] = (
    register(Dataset(
        "milestones",
        (Column("site_id", required=True),
         Column("milestone", "enum", required=True, vocabulary=MILESTONE_VOCAB, allowed=MILESTONE_NAMES),
         Column("occurs_on", "date", required=True),
         Column("notified_at", "timestamp"), Column("occurs_at", "timestamp"),
         Column("notified_by"), Column("notes")),
        key=("site_id", "milestone", "occurs_on"), extensions=BY_HAND, group="stormwater_officer",
        description="Construction milestones and when the applicant notified the enforcement official "
                    "(ch. 267 / ch. 21: at least 48 hours before each of eight milestones).",
    )),
    register(Dataset(
        "contractor_certifications",
        (Column("site_id", required=True), Column("contractor", required=True),
         Column("first_work_on", "date", required=True), Column("title"), Column("signed_on", "date"),
         Column("signer_name"), Column("firm_address"), Column("firm_phone")),
        key=("site_id", "contractor"), extensions=BY_HAND, group="stormwater_officer",
        description="Contractors' SWPPP certification statements: signed before undertaking any land "
                    "development activity.",
    )),
    register(Dataset(
        "swppp_approvals",
        (Column("site_id", required=True),
         Column("approved_max_disturbed_acres", "number", required=True, nonnegative=True),
         Column("approved_on", "date", required=True), Column("reference")),
        key=("site_id", "approved_on"), extensions=BY_HAND, group="stormwater_officer",
        description="Approved SWPPPs allowing more than five acres disturbed at one time.",
    )),
    register(Dataset(
        "convictions",
        (Column("applicant", required=True), Column("convicted_on", "date", required=True),
         Column("chapter", required=True), Column("site_id"),
         Column("jurisdiction", "enum", vocabulary=JURISDICTION_VOCAB, allowed="woodbury, bellport"),
         Column("court"), Column("docket")),
        key=("applicant", "convicted_on", "chapter_number"),
        finish=(Step(columns=(("chapter_number", CHAPTER_NUMBER_SQL),), reasons=(CHAPTER_REASON_SQL,)),),
        extra_columns=(("chapter_number", "VARCHAR"),),
        extensions=BY_HAND, group="stormwater_officer",
        description="Prior convictions of applicants, for the escalating penalties (offenses within five years).",
    )),
    register(Dataset(
        "report_deliveries",
        (Column("site_id", required=True), Column("report_date", "date", required=True),
         Column("delivered_on", "date", required=True), Column("method")),
        key=("site_id", "report_date", "delivered_on"), extensions=BY_HAND, group="stormwater_officer",
        description="Inspection reports delivered to the Stormwater Management Officer (Woodbury ch. 267: weekly).",
    )),
)

STORMWATER_DATASET_NAMES = tuple(ds.name for ds in STORMWATER_DATASETS)
