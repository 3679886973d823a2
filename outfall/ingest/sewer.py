"""The sewer administrator's enforcement input folders (docs/inputs-sewer.md),
declared for the ingestion engine: reports, accidental_discharges,
grease_traps and pumpouts; and monitoring_requirements (contract 6.3), the
testing the administrator specified for each user.

Registered on import (``outfall.ingest.datasets.register``: every folder is optional); their
ingestion assets are built by ``assets.ingest.build_ingest_asset``, their tables by
``sql/sewer/create_enforcement_tables.sql``.
"""

from __future__ import annotations

from outfall import vocab
from outfall.ingest.datasets import (
    BY_HAND,
    PARAMETER_CHOICES,
    Column,
    Dataset,
    LaterFact,
    Step,
    lower_in,
    parameter_steps,
    register,
    synonym_vocabulary,
)

# Report types, with the spellings a clerk may use. `periodic` is the sewer use
# law's periodic report (at the intervals its rules set); `slug` the written
# report after a slug discharge (40 CFR 403.8(f)(2)(vi)); `violation_notice`
# the user's notice of a violation its own sampling found (40 CFR 403.12(g)(2));
# the others are 40 CFR 403.12 reports that count for SNC when late.
REPORT_TYPES: dict[str, tuple[str, ...]] = {
    "periodic": (
        "periodic report",
        "semiannual",
        "semi annual",
        "semiannual report",
        "six month",
        "six month report",
        "periodic compliance report",
        "pcr",
        "self monitoring report",
        "smr",
    ),
    "slug": ("slug report", "slug discharge", "slug discharge report", "slug notice"),
    "violation_notice": (
        "violation notice",
        "24 hour notice",
        "24h notice",
        "noncompliance notice",
        "noncompliance notification",
        "notice of noncompliance",
    ),
    "baseline": ("baseline monitoring report", "bmr", "baseline report"),
    "compliance_90_day": ("90 day compliance report", "90 day report", "90 day", "final compliance report"),
    "compliance_schedule": ("compliance schedule", "compliance schedule report", "progress report"),
    "other": ("other report",),
}


# canonical_report_type: 'Semi-annual', 'PCR', 'periodic' -> 'periodic'; 'Slug report' -> 'slug'.
canonical_report_type, REPORT_VOCAB = synonym_vocabulary("report_type", REPORT_TYPES)


def _sewer_dataset(
    name: str,
    columns: tuple[Column, ...],
    key: tuple[str, ...],
    description: str,
    reasons: tuple[str, ...] = (),
    **kwargs,
) -> Dataset:
    """A registered dataset of the sewer administrator; ``reasons``: SQL giving why a row is set aside."""
    finish = (Step(reasons=reasons),) if reasons else ()
    return register(
        Dataset(
            name,
            columns,
            key=key,
            finish=finish,
            extensions=BY_HAND,
            group="sewer",
            description=description,
            **kwargs,
        )
    )


ENFORCEMENT_DATASETS: tuple[Dataset, ...] = (
    _sewer_dataset(
        "reports",
        (
            Column("user_id", required=True),
            Column(
                "report_type",
                "enum",
                required=True,
                vocabulary=REPORT_VOCAB,
                allowed=", ".join(REPORT_TYPES),
                doc="also the other spellings of the table below",
            ),
            Column("period_start", "date"),
            Column("period_end", "date"),
            Column("due_date", "date", doc="required for `periodic`"),
            Column("received_on", "date", doc="blank: not received"),
        ),
        ("user_id", "report_type", "period_start", "period_end", "due_date"),
        "Reports due from industrial users and when they came in: periodic reports (the sewer use law, "
        "at the intervals its rules set), slug reports (40 CFR 403.8(f)(2)(vi)), "
        "24-hour violation notices (40 CFR 403.12(g)(2)) and other 40 CFR 403.12 reports.",
        (
            "CASE WHEN period_end < period_start THEN 'period_end is before period_start' END",
            "CASE WHEN report_type = 'periodic' AND due_date IS NULL THEN 'a periodic report needs its "
            "due_date (the day the sewer use law''s periodic report was due)' END",
        ),
        later_facts=(LaterFact("received_on"),),
    ),
    _sewer_dataset(
        "accidental_discharges",
        (
            Column("user_id", required=True),
            Column("occurred_at", "timestamp", required=True),
            Column("notified_at", "timestamp", doc="blank: no notification recorded"),
            Column("statement_received_on", "date", doc="blank: no written statement yet"),
            Column("description"),
        ),
        ("user_id", "occurred_at"),
        "Accidental discharges, the user's notification and its written statement "
        "(the sewer use law: a detailed written statement within the days its rules set).",
        ("CASE WHEN notified_at < occurred_at THEN 'notified_at is before occurred_at' END",),
        timestamp_groups=("user_id",),
        own_day="occurred_at",
        later_facts=(LaterFact("notified_at"), LaterFact("statement_received_on")),
    ),
    _sewer_dataset(
        "grease_traps",
        (
            Column("trap_id", required=True),
            Column("user_id", doc="this or parcel_id is required"),
            Column("parcel_id", doc="this or user_id is required"),
            Column("establishment", required=True),
            Column("address"),
            Column("pumpout_interval_days", "integer", required=True, nonnegative=True, doc="at least 1"),
            Column(
                "set_on",
                "date",
                required=True,
                doc="the day the administrator set the frequency and notified the owner",
            ),
            # the owner an order directing compliance is addressed to (contract 8.4); blank: the owner of
            # the trap's parcel (parcels: owner and mailing address), when parcel_id is given
            Column(
                "owner_name",
                doc="the owner an order directing compliance goes to (blank: the owner of the trap's parcel, "
                "when parcel_id is given)",
            ),
            Column("owner_address", doc="the owner's street line"),
            Column("owner_city", doc="of the owner's mailing address"),
            Column("owner_state", doc="of the owner's mailing address: two letters, e.g. `NY`"),
            Column("owner_zip", doc="of the owner's mailing address: `12345` or `12345-6789`"),
        ),
        ("trap_id", "set_on"),
        "Grease interceptors and the cleaning and pumping frequency the administrator set for each "
        "establishment (the sewer use law on grease, oil and sand interceptors); a new set_on row changes "
        "the frequency from that day.",
        (
            "CASE WHEN user_id IS NULL AND parcel_id IS NULL THEN "
            "'a grease trap needs user_id or parcel_id (whose premises it serves)' END",
            "CASE WHEN pumpout_interval_days < 1 THEN 'pumpout_interval_days must be at least 1' END",
        ),
        own_day="set_on",
    ),
    _sewer_dataset(
        "pumpouts",
        (
            Column("trap_id", required=True),
            Column("pumped_on", "date", required=True),
            Column("hauler"),
            Column("invoice_no", doc="the scavenger's receipted invoice; blank: none on file"),
        ),
        ("trap_id", "pumped_on"),
        "Grease trap pump-outs from the scavengers' receipted invoices (the sewer use law).",
        own_day="pumped_on",
    ),
)

ENFORCEMENT_DATASET_NAMES = tuple(ds.name for ds in ENFORCEMENT_DATASETS)


# How often a parameter must be sampled (calendar periods, outfall/law/testing.py), with the spellings a
# clerk may use.
FREQUENCIES = vocab.TESTING_FREQUENCIES
FREQUENCY_SPELLINGS: dict[str, tuple[str, ...]] = {
    "monthly": ("month", "once a month", "every month"),
    "quarterly": ("quarter", "once a quarter", "every quarter"),
    "semiannual": ("semi annual", "semiannually", "semi annually", "half yearly", "half year"),
    "annual": ("annually", "yearly", "year", "once a year", "every year"),
}
assert tuple(FREQUENCY_SPELLINGS) == FREQUENCIES
canonical_frequency, FREQUENCY_VOCAB = synonym_vocabulary("frequency", FREQUENCY_SPELLINGS)

MONITORING_REQUIREMENTS = register(
    Dataset(
        "monitoring_requirements",
        (
            Column("user_id", required=True),
            Column(
                "parameter",
                required=True,
                choices=PARAMETER_CHOICES,
                doc="the spellings lab results accept (`BOD5` is BOD, `oil and grease` is FOG); any other "
                "name, such as copper, is kept as given",
            ),
            Column(
                "frequency",
                "enum",
                required=True,
                vocabulary=FREQUENCY_VOCAB,
                allowed=", ".join(FREQUENCIES) + " (calendar months, quarters, half-years, years)",
                doc="of local dates, half-years January-June and July-December; also month, quarter, "
                "semi-annual, half-yearly, yearly, annually",
            ),
            Column(
                "sample_type",
                "enum",
                vocabulary=lower_in("sample_type", vocab.SAMPLE_TYPES),
                allowed=", ".join(vocab.SAMPLE_TYPES) + " (or blank for either)",
            ),
            Column(
                "effective_from",
                "date",
                doc="blank: from the day the user's permit took effect, else from its first sample",
            ),
            Column("effective_to", "date", doc="blank: no end; both days included"),
            Column("basis", doc="the permit condition or letter that set it"),
        ),
        key=("user_id", "parameter", "frequency", "sample_type", "effective_from"),
        extensions=BY_HAND,
        finish=(
            *parameter_steps("parameter", "parameter"),  # BOD5 -> BOD; a name not in the vocabulary is kept
            Step(
                reasons=(
                    "CASE WHEN effective_to < effective_from THEN 'effective_to ' || "
                    "strftime(effective_to, '%Y-%m-%d') || ' is before effective_from ' || "
                    "strftime(effective_from, '%Y-%m-%d') || ': the requirement would never be in effect; "
                    "correct one of the two dates' END",
                )
            ),
        ),
        own_day="effective_from",
        group="sewer",
        description="The testing the administrator specified for each industrial user (the sewer use law: "
        "the types and frequency of testing are specified by the administrator): which parameter, how often "
        "(monthly, quarterly, semiannual or annual calendar periods), of which sample type, from when to "
        "when.",
    )
)


# Permits with a history (contract 8.2): a user holds a permit on a day when any of its permits, here or in
# industrial_users' permit columns, is in effect that day and not withdrawn. A renewal is a new row; a row
# with a withdrawn_reason removes the permit of that number (assets/sewer/permits.py).
PERMITS = register(
    Dataset(
        "permits",
        (
            Column("user_id", required=True),
            Column("permit_no", required=True),
            Column("effective_on", "date", required=True, doc="the permit's first day"),
            Column("expires_on", "date", required=True, doc="its last day (both days are in effect)"),
            Column("issued_on", "date", doc="the day the administrator issued it (blank: not on file)"),
            Column(
                "withdrawn_reason",
                doc="why the permit of this number is withdrawn (given: the permit, here or in the "
                "industrial users file, is removed and covers no day; blank: in force)",
            ),
        ),
        key=("user_id", "permit_no"),
        extensions=BY_HAND,
        finish=(
            Step(
                reasons=(
                    "CASE WHEN expires_on < effective_on THEN 'expires_on ' "
                    "|| strftime(expires_on, '%Y-%m-%d') || ' is before effective_on ' "
                    "|| strftime(effective_on, '%Y-%m-%d') || ': the permit would never be in effect; "
                    "correct one of the two dates' END",
                )
            ),
        ),
        # a permit is a fact from its first day (contract 8.1: "a permit's effective day"); one issued after
        # the day judged is not yet one either (sql/sewer/insert_user_permits.sql)
        own_day="effective_on",
        group="sewer",
        description="Industrial users' permits, each with its term (the sewer use law's permits): a renewal "
        "adds a row and never shortens another permit; a row with a withdrawn_reason removes the permit of "
        "its number, wherever it was given.",
        answers=("permit_no", "effective_on", "expires_on", "issued_on", "withdrawn_reason"),
    )
)
