"""The input folders of contract section 5 (stage 2), declared for the ingestion engine:

- ``illicit_discharges`` and ``illicit_payments`` (5.3, Woodbury ch. 185), for the
  stormwater management officer;
- ``smp_practices`` (5.4, post-construction stormwater management practices);
- ``connection_permits`` (5.5, Woodbury ch. 301 inspection fees), for the clerk.

Importing this module registers the datasets in ``outfall.ingest.datasets.DATASETS``
(``outfall/ingest/registry.py`` imports it); ``assets/ingest.py`` builds one
ingestion asset per dataset. Their tables are created from the specs
(``outfall.ingest.compile.create_table_sql``). Every folder is optional: an
absent folder means "no such data" and its table stays empty. Columns, meanings and
quarantine reasons: docs/inputs-stormwater.md and docs/inputs-billing.md.

The specs are plain column declarations with no finish step: whatever needs the
rules (a case before ch. 185 took effect, a practice on a site that is not in
``sites``) is judged by the assets that read these tables, which set such rows
aside with a reason (table ``set_aside``, marked with the asset that judged them;
the rows stay kept).
The three word lists (``abated_by``, ``appeal_outcome``, ``use``) are enums: any other word is
quarantined here, as the contract says.
"""

from __future__ import annotations

import re

from outfall.ingest.datasets import BY_HAND, Column, Dataset, register, vocabulary

ABATED_BY = ("owner", "town")
APPEAL_OUTCOMES = ("upheld", "modified", "vacated")   # contract 6.5; blank while the appeal is pending
CONNECTION_USES = ("single_family", "commercial")


def _word(options: tuple[str, ...]):
    """A case-insensitive lookup of ``options``, blanks, hyphens and underscores alike
    ('Single family', 'single-family' -> 'single_family')."""
    table = {re.sub(r"[\s_\-]+", "_", o.lower()): o for o in options}
    return lambda text: table.get(re.sub(r"[\s_\-]+", "_", str(text).strip().lower()))


canonical_abated_by = _word(ABATED_BY)
canonical_appeal_outcome = _word(APPEAL_OUTCOMES)
canonical_use = _word(CONNECTION_USES)
# The same lookups as vocabularies of the SQL judging (cells normalized with blanks, '-' and '_' alike).
ABATED_BY_VOCAB = vocabulary("abated_by", canonical_abated_by, ABATED_BY, style="key")
APPEAL_OUTCOME_VOCAB = vocabulary("appeal_outcome", canonical_appeal_outcome, APPEAL_OUTCOMES, style="key")
USE_VOCAB = vocabulary("connection_use", canonical_use,
                       [*CONNECTION_USES, *(u.replace("_", "-") for u in CONNECTION_USES)], style="key")

_DATES = ("notified_on", "written_confirmation_on", "nov_on", "abatement_due", "appeal_received_on",
          "appeal_decided_on", "abated_on")

ILLICIT_DISCHARGES = register(Dataset(
    "illicit_discharges",
    (Column("case_id", required=True), Column("premises", required=True),
     Column("discovered_on", "date", required=True), Column("hazardous", "bool"),
     *(Column(name, "date") for name in _DATES),
     Column("abated_by", "enum", vocabulary=ABATED_BY_VOCAB, allowed=", ".join(ABATED_BY)),
     Column("abatement_cost_usd", "number", nonnegative=True),
     Column("cost_notice_on", "date"), Column("protest_received_on", "date"),
     # the appeal's hearing and outcome (contract 6.5)
     Column("hearing_on", "date"),
     Column("appeal_outcome", "enum", vocabulary=APPEAL_OUTCOME_VOCAB, allowed=", ".join(APPEAL_OUTCOMES)),
     # optional, for the letters: who is responsible and where to write, what was found,
     # which of the six measures of ch. 185 the notice of violation requires
     Column("responsible_party"), Column("mailing_address"), Column("description"),
     Column("nov_requires")),
    key=("case_id",), extensions=BY_HAND, group="stormwater_officer",
    description="Illicit discharges to the storm drain system (Woodbury Code ch. 185): discovery, the "
                "responsible person's notice to the Town, the notice of violation, appeal, abatement and "
                "the cost of an abatement done by the Town.",
))

ILLICIT_PAYMENTS = register(Dataset(
    "illicit_payments",
    (Column("case_id", required=True), Column("paid_on", "date", required=True),
     Column("amount_usd", "number", required=True, nonnegative=True), Column("receipt_no")),
    key=("case_id", "paid_on", "amount_usd", "receipt_no"), extensions=BY_HAND, group="stormwater_officer",
    description="Payments toward the cost of an abatement done by the Town (Woodbury Code ch. 185: in not more "
                "than 12 equal payments, 18% a year on the balance).",
))

SMP_PRACTICES = register(Dataset(
    "smp_practices",
    (Column("practice_id", required=True), Column("site_id", required=True), Column("practice_type"),
     Column("as_built_received_on", "date"), Column("as_built_pe_certified", "bool"),
     Column("final_plan_approved_on", "date"), Column("maintenance_agreement_recorded_on", "date"),
     Column("final_acceptance_on", "date"), Column("one_year_inspection_on", "date"),
     Column("guarantee_released_on", "date")),
    key=("practice_id",), extensions=BY_HAND, group="stormwater_officer",
    description="Permanent stormwater management practices of the construction sites: as-built plans, the "
                "maintenance agreement, final acceptance, the one-year inspection and the release of the "
                "construction completion guarantee.",
))

CONNECTION_PERMITS = register(Dataset(
    "connection_permits",
    (Column("permit_id", required=True), Column("parcel_id", required=True),
     Column("use", "enum", required=True, vocabulary=USE_VOCAB, allowed=", ".join(CONNECTION_USES)),
     Column("in_mall_or_business_park", "bool"), Column("water", "bool"), Column("sewer", "bool"),
     Column("applied_on", "date", required=True)),
    key=("permit_id",), extensions=BY_HAND, group="billing",
    description="Building permits asking for a water service or sewer lateral inspection (Woodbury Code "
                "ch. 301 inspection fees).",
))

STAGE2_DATASETS: tuple[Dataset, ...] = (ILLICIT_DISCHARGES, ILLICIT_PAYMENTS, SMP_PRACTICES, CONNECTION_PERMITS)
STAGE2_DATASET_NAMES = tuple(ds.name for ds in STAGE2_DATASETS)
