"""Every input dataset Outfall reads: the contract's and each area's own folders.

Importing this module registers the areas' datasets (their specs live beside
the engine, one module per area: ``billing.py``, ``notices.py``, ``sewer.py``,
``stormwater.py``); ``assets/ingest.py`` builds one ingestion asset per dataset
from it, so an area adds a folder by adding a spec, nothing more.
"""

from __future__ import annotations

from outfall.ingest import billing, notices, sewer, stormwater  # noqa: F401 - importing them registers their folders
from outfall.ingest.datasets import DATASETS, Dataset

CONTRACT_DATASETS = (
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
)


def all_datasets() -> dict[str, Dataset]:
    """Contract datasets first, then the areas' in name order."""
    extra = sorted(n for n in DATASETS if n not in CONTRACT_DATASETS)
    return {name: DATASETS[name] for name in (*CONTRACT_DATASETS, *extra)}
