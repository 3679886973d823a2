"""The billing area's input folder ``sewer_budget`` (issue 4), declared for the
common ingestion engine: year*, district*, component*, amount* (USD)."""

from __future__ import annotations

from outfall import vocab
from outfall.ingest.datasets import BY_HAND, COMPONENT_VOCAB, DISTRICT_VOCAB, Column, Dataset, Step, register

# Keep the amount as exact decimal text (DECIMAL(12,2) in the table), not a float:
# a whole number of cents below 10,000,000,000.
_EXACT = ("TRY_CAST(replace(replace(replace(trim(_raw_amount), ',', ''), '$', ''), ' ', '') AS DECIMAL(38,10))")
_OK = f"({_EXACT} = round({_EXACT}, 2) AND abs({_EXACT}) < 10000000000)"

SEWER_BUDGET = register(Dataset(
    "sewer_budget",
    (Column("year", "integer", required=True),
     Column("district", "enum", required=True, vocabulary=DISTRICT_VOCAB, allowed=", ".join(vocab.DISTRICTS)),
     Column("component", "enum", required=True, vocabulary=COMPONENT_VOCAB, allowed=", ".join(vocab.COMPONENTS)),
     Column("amount", "number", required=True, nonnegative=True, sql_type="DECIMAL(12,2)")),
    key=("year", "district", "component"), extensions=BY_HAND,
    finish=(Step(columns=(("amount", f"CASE WHEN amount IS NOT NULL AND {_OK} THEN CAST({_EXACT} AS DECIMAL(12,2)) END"),),
                 reasons=(f"CASE WHEN amount IS NOT NULL AND NOT coalesce({_OK}, false) THEN 'amount ''' || "
                          "trim(_raw_amount) || ''' is not a whole number of cents below 10,000,000,000' END",)),),
    group="billing",
    description="A district's budget (USD) for one component and year; a rate not adopted in "
                "sewer_rates is this budget divided by the component's total units in the district.",
))
