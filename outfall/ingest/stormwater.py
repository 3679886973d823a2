"""The stormwater management officer's own input folders (docs/inputs-stormwater.md), declared
for the ingestion engine:

- for the SWPPP tracking (``SWPPP_DATASETS``): milestones, contractor_certifications,
  swppp_approvals, convictions and report_deliveries;
- illicit_discharges and illicit_payments (contract section 5.3, the illicit discharge law);
- smp_practices (contract section 5.4, post-construction stormwater management practices).

Registered on import (``outfall.ingest.datasets.register``: every folder is optional; an absent
folder means "no such data" and its table stays empty); their ingestion assets are built by
``assets.ingest.build_ingest_asset``, their tables from the specs
(``outfall.ingest.compile.create_table_sql``).

The specs of the last three are plain column declarations with no finish step: whatever needs the
rules (a case before the illicit discharge law took effect, a practice on a site that is not in
``sites``) is judged by the assets that read these tables, which list such rows in table
``set_aside`` with a reason (the rows stay kept). Their word lists (``abated_by``,
``appeal_outcome``) are enums: any other word is quarantined here, as the contract says.
"""

from __future__ import annotations

import re

from outfall.ingest.datasets import (
    BY_HAND,
    Column,
    Dataset,
    LaterFact,
    Step,
    jurisdiction_vocabulary,
    key_vocabulary,
    register,
    synonym_vocabulary,
)

# The eight milestones before which the applicant must give 48 hours' notice
# (the stormwater laws' inspections: the model town's (1)(a)-(h), the village's (1)-(8)),
# with the spellings a clerk may use: the law's words, its letter or number.
MILESTONES: dict[str, tuple[str, ...]] = {
    "start_of_construction": ("start of construction", "construction start", "start", "a", "1"),
    "erosion_controls_installed": (
        "installation of sediment and erosion control measures",
        "erosion control installation",
        "erosion controls installed",
        "sediment and erosion controls installed",
        "erosion controls",
        "sediment and erosion control measures",
        "b",
        "2",
    ),
    "site_clearing_completed": (
        "completion of site clearing",
        "site clearing complete",
        "clearing complete",
        "site clearing",
        "clearing",
        "c",
        "3",
    ),
    "rough_grading_completed": (
        "completion of rough grading",
        "rough grading complete",
        "rough grading",
        "d",
        "4",
    ),
    "final_grading_completed": (
        "completion of final grading",
        "final grading complete",
        "final grading",
        "e",
        "5",
    ),
    "construction_season_closed": (
        "close of the construction season",
        "close of construction season",
        "end of construction season",
        "construction season close",
        "f",
        "6",
    ),
    "final_landscaping_completed": (
        "completion of final landscaping",
        "final landscaping complete",
        "final landscaping",
        "g",
        "7",
    ),
    "public_landscaping_established": (
        "successful establishment of landscaping in public areas",
        "public landscaping established",
        "landscaping in public areas",
        "h",
        "8",
    ),
}


# canonical_milestone: 'Completion of rough grading', '(d)', '4', 'rough_grading_completed'
# -> 'rough_grading_completed'.
canonical_milestone, MILESTONE_VOCAB = synonym_vocabulary("milestone", MILESTONES)


def chapter_number(text: object) -> str | None:
    """'ch. 12', 'Chapter 12', '012' -> '12' (the first number, without leading zeros)."""
    m = re.search(r"\d+", str(text))
    return (m.group(0).lstrip("0") or "0") if m else None


# A jurisdiction as a court record may name it: 'springfield', 'Town of Springfield', 'Village of ...'.
JURISDICTION_VOCAB = jurisdiction_vocabulary(
    "jurisdiction_named",
    lambda j: tuple(f"{p}{j}" for p in ("", "town of ", "village of ", "city of ")),
    style="key",
)

# chapter_number in SQL: the first run of digits without leading zeros.
CHAPTER_NUMBER_SQL = (
    "CASE WHEN regexp_matches(chapter, '[0-9]') THEN "
    "coalesce(nullif(ltrim(regexp_extract(chapter, '[0-9]+'), '0'), ''), '0') END"
)
CHAPTER_REASON_SQL = (
    "CASE WHEN chapter IS NOT NULL AND NOT regexp_matches(chapter, '[0-9]') THEN "
    "'chapter ''' || chapter || ''' names no chapter number (e.g. 12)' END"
)


MILESTONE_NAMES = ", ".join(MILESTONES)

SWPPP_DATASETS: tuple[Dataset, ...] = (
    register(
        Dataset(
            "milestones",
            (
                Column("site_id", required=True),
                Column(
                    "milestone",
                    "enum",
                    required=True,
                    vocabulary=MILESTONE_VOCAB,
                    allowed=MILESTONE_NAMES,
                    doc="also the law's words, its letter or its number (the table below)",
                ),
                Column("occurs_on", "date", required=True),
                Column(
                    "notified_at",
                    "timestamp",
                    doc="when the applicant notified the enforcement official; blank: no notice given",
                ),
                Column("occurs_at", "timestamp", doc="the milestone's time, when known"),
                Column("notified_by"),
                Column("notes"),
            ),
            key=("site_id", "milestone", "occurs_on"),
            extensions=BY_HAND,
            # a milestone is the SWPPP's plan (an inspection to come); its notice a fact of its own day
            later_facts=(LaterFact("notified_at", ("notified_by",)),),
            group="stormwater",
            description="Construction milestones and when the applicant notified the enforcement official "
            "(the stormwater law of the site's jurisdiction: notice the hours it sets before each "
            "milestone).",
        )
    ),
    register(
        Dataset(
            "contractor_certifications",
            (
                Column("site_id", required=True),
                Column("contractor", required=True),
                Column(
                    "first_work_on",
                    "date",
                    required=True,
                    doc="the day the contractor first undertook land development activity on the site",
                ),
                Column("title"),
                Column(
                    "signed_on", "date", doc="the day the SWPPP certification was signed; blank: not signed"
                ),
                Column("signer_name"),
                Column("firm_address"),
                Column("firm_phone"),
            ),
            key=("site_id", "contractor"),
            extensions=BY_HAND,
            own_day="first_work_on",
            later_facts=(LaterFact("signed_on", ("title", "signer_name")),),
            group="stormwater",
            description="Contractors' SWPPP certification statements: signed before undertaking any land "
            "development activity.",
        )
    ),
    register(
        Dataset(
            "swppp_approvals",
            (
                Column("site_id", required=True),
                Column(
                    "approved_max_disturbed_acres",
                    "number",
                    required=True,
                    nonnegative=True,
                    doc="the area the approved SWPPP allows disturbed at one time",
                ),
                Column("approved_on", "date", required=True),
                Column("reference"),
            ),
            key=("site_id", "approved_on"),
            extensions=BY_HAND,
            own_day="approved_on",
            group="stormwater",
            description="Approved SWPPPs allowing more than five acres disturbed at one time.",
        )
    ),
    register(
        Dataset(
            "convictions",
            (
                Column("applicant", required=True),
                Column("convicted_on", "date", required=True),
                Column(
                    "offense_on",
                    "date",
                    doc="the day the offense was committed (blank: convicted_on); the five years of a "
                    "second or third offense count the days the offenses were committed",
                ),
                Column(
                    "chapter",
                    required=True,
                    doc="the number of the chapter the conviction was under: `12`, `ch. 12`, `Chapter 12`...",
                ),
                Column("site_id"),
                Column(
                    "jurisdiction",
                    "enum",
                    vocabulary=JURISDICTION_VOCAB,
                    allowed="a jurisdiction of the rules files",
                    doc="the name of the town's or village's rules file, without `.yaml`; also written "
                    "`Town of ...`, `Village of ...` or `City of ...`",
                ),
                Column("court"),
                Column("docket"),
            ),
            key=("applicant", "convicted_on", "chapter_number"),
            key_doc="applicant + convicted_on + chapter number",
            finish=(
                Step(columns=(("chapter_number", CHAPTER_NUMBER_SQL),), reasons=(CHAPTER_REASON_SQL,)),
                Step(
                    reasons=(
                        "CASE WHEN offense_on > convicted_on THEN 'offense_on ' || strftime(offense_on, "
                        "'%Y-%m-%d') || ' is after the conviction on ' || strftime(convicted_on, '%Y-%m-%d') "
                        "|| ': an offense is committed before its conviction' END",
                    )
                ),
            ),
            extra_columns=(("chapter_number", "VARCHAR"),),
            extensions=BY_HAND,
            own_day="convicted_on",
            group="stormwater",
            description="Prior convictions of applicants, for the escalating penalties (offenses within "
            "five years).",
        )
    ),
    register(
        Dataset(
            "report_deliveries",
            (
                Column("site_id", required=True),
                Column(
                    "report_date", "date", required=True, doc="the day of the inspection the report covers"
                ),
                Column(
                    "delivered_on",
                    "date",
                    required=True,
                    doc="the day the Stormwater Management Officer received it",
                ),
                Column("method"),
            ),
            key=("site_id", "report_date", "delivered_on"),
            extensions=BY_HAND,
            own_day="delivered_on",
            group="stormwater",
            answers=("delivered_on", "method"),
            description="Inspection reports delivered to the Stormwater Management Officer (where the rules "
            "ask for it: weekly).",
        )
    ),
)


# ---------------------------------------------------------------------------
# illicit discharges (the illicit discharge law) and permanent practices

ABATED_BY = ("owner", "town")
APPEAL_OUTCOMES = ("upheld", "modified", "vacated")  # contract 6.5; blank while the appeal is pending
ABATED_BY_VOCAB = key_vocabulary("abated_by", ABATED_BY)
APPEAL_OUTCOME_VOCAB = key_vocabulary("appeal_outcome", APPEAL_OUTCOMES)

_DATES = {
    "notified_on": "the responsible person's notice to the Town",
    "written_confirmation_on": "",
    "nov_on": "the notice of violation",
    "abatement_due": "the deadline the notice set",
    "appeal_received_on": "",
    "appeal_decided_on": "",
    "abated_on": "",
}

ILLICIT_DISCHARGES = register(
    Dataset(
        "illicit_discharges",
        (
            Column("case_id", required=True),
            Column("premises", required=True, doc="an address or a parcel_id"),
            Column("discovered_on", "date", required=True),
            Column("hazardous", "bool", doc="blank: not known to be hazardous"),
            *(Column(name, "date", doc=doc) for name, doc in _DATES.items()),
            Column("abated_by", "enum", vocabulary=ABATED_BY_VOCAB, allowed=", ".join(ABATED_BY)),
            Column("abatement_cost_usd", "number", nonnegative=True),
            Column("cost_notice_on", "date"),
            Column("protest_received_on", "date"),
            # the appeal's hearing and outcome (contract 6.5)
            Column("hearing_on", "date", doc="the day the appeal was heard"),
            Column(
                "appeal_outcome",
                "enum",
                vocabulary=APPEAL_OUTCOME_VOCAB,
                allowed=", ".join(APPEAL_OUTCOMES),
                doc="blank while the appeal is pending",
            ),
            # optional, for the letters: who is responsible and where to write, what was found,
            # which of the measures of the illicit discharge law the notice of violation requires
            Column("responsible_party", doc="for the letters"),
            Column("mailing_address", doc="for the letters"),
            Column("description", doc="what was found, for the letters"),
            Column(
                "nov_requires",
                doc="which of the six measures of the law the notice requires: their numbers "
                "1-6, e.g. `2, 3, 4`, or `all`",
            ),
        ),
        key=("case_id",),
        extensions=BY_HAND,
        own_day="discovered_on",
        later_facts=(
            LaterFact("notified_on"),
            LaterFact("written_confirmation_on"),
            LaterFact("nov_on", ("abatement_due", "nov_requires")),
            LaterFact("appeal_received_on"),
            LaterFact("hearing_on"),
            LaterFact("appeal_decided_on", ("appeal_outcome",)),
            LaterFact("abated_on", ("abated_by", "abatement_cost_usd")),
            LaterFact("cost_notice_on"),
            LaterFact("protest_received_on"),
        ),
        group="stormwater",
        description="Illicit discharges to the storm drain system (the illicit discharge law): discovery, "
        "the responsible person's notice to the Town, the notice of violation, appeal, abatement and the "
        "cost of an abatement done by the Town.",
    )
)

ILLICIT_PAYMENTS = register(
    Dataset(
        "illicit_payments",
        (
            Column("case_id", required=True),
            Column("paid_on", "date", required=True),
            Column("amount_usd", "number", required=True, nonnegative=True),
            Column(
                "receipt_no",
                doc="two payments of the same amount on the same day need different receipt numbers",
            ),
        ),
        key=("case_id", "paid_on", "amount_usd", "receipt_no"),
        extensions=BY_HAND,
        own_day="paid_on",
        group="stormwater",
        description="Payments toward the cost of an abatement done by the Town (the illicit discharge law: "
        "in not more than 12 equal payments, 18% a year on the balance).",
    )
)

SMP_PRACTICES = register(
    Dataset(
        "smp_practices",
        (
            Column("practice_id", required=True),
            Column("site_id", required=True, doc="a site of `sites`"),
            Column("practice_type"),
            Column("as_built_received_on", "date"),
            Column("as_built_pe_certified", "bool"),
            Column("final_plan_approved_on", "date"),
            Column("maintenance_agreement_recorded_on", "date"),
            Column("final_acceptance_on", "date"),
            Column("one_year_inspection_on", "date"),
            Column("guarantee_released_on", "date"),
        ),
        key=("practice_id",),
        extensions=BY_HAND,
        later_facts=(
            LaterFact("as_built_received_on", ("as_built_pe_certified",)),
            *(
                LaterFact(c)
                for c in (
                    "final_plan_approved_on",
                    "maintenance_agreement_recorded_on",
                    "final_acceptance_on",
                    "one_year_inspection_on",
                    "guarantee_released_on",
                )
            ),
        ),
        group="stormwater",
        description="Permanent stormwater management practices of the construction sites: as-built plans, "
        "the maintenance agreement, final acceptance, the one-year inspection and the release of the "
        "construction completion guarantee.",
    )
)
