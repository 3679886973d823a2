"""The billing area's input folder ``sewer_budget`` (issue 4), declared for the
common ingestion engine: year*, district*, component*, amount* (USD)."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd

from outfall import vocab
from outfall.ingest.datasets import Column, Dataset, map_unique, register

_CENT = Decimal("0.01")
_MAX_MONEY = Decimal("10000000000")  # DECIMAL(12,2)


def _budget_amount_text(text: str) -> str:
    """'1,234.5' -> '1234.50'; '' when not a whole number of cents or too large."""
    try:
        value = Decimal(str(text).strip().replace(",", "").lstrip("$"))
    except ArithmeticError:
        return ""
    if not value.is_finite() or value != value.quantize(_CENT) or abs(value) >= _MAX_MONEY:
        return ""
    return str(value.quantize(_CENT))


def _finish_sewer_budget(frame: pd.DataFrame, raw: pd.DataFrame, ctx) -> tuple[pd.DataFrame, pd.Series]:
    # Keep the amount as exact decimal text (DECIMAL(12,2) in the table), not a float.
    parsed = frame["amount"].notna()
    text = map_unique(raw["amount"].astype(str), _budget_amount_text)
    bad = parsed & (text == "")
    reasons = pd.Series("", index=frame.index, dtype=object)
    reasons[bad] = ("amount '" + raw["amount"].astype(str).str.strip()
                    + "' is not a whole number of cents below 10,000,000,000")[bad]
    frame["amount"] = text.where(parsed & ~bad, None)
    return frame, reasons


SEWER_BUDGET = register(Dataset(
    "sewer_budget",
    (Column("year", "integer", required=True),
     Column("district", "enum", required=True, canonical=vocab.canonical_district,
            allowed=", ".join(vocab.DISTRICTS)),
     Column("component", "enum", required=True, canonical=vocab.canonical_component,
            allowed=", ".join(vocab.COMPONENTS)),
     Column("amount", "number", required=True, nonnegative=True)),
    key=("year", "district", "component"), finish=_finish_sewer_budget, group="billing",
    description="A district's budget (USD) for one component and billing year; a rate not adopted in "
                "sewer_rates is this budget divided by the component's total units in the district.",
))

