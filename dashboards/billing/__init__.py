"""The clerk's billing page: units and revenue by district, component and
property class; the change from the previous billed year; the largest bills
and the biggest changes; the billing runs; the inspection fees.

Pure: ``build_billing_page(BillingData) -> (html, PageMeta)``, a list of panel
functions. The asset sums the register in DuckDB, so the page's inputs stay
small at any number of parcels. Everything shown is in words: districts by
their names in the rules, classes, changes and rate sources by
:mod:`outfall.billing_words`; money with "$" and thousands separators; every
figure with its billing year; each parcel with its owner; a rule as its short
citation, the full text one click away; the runs' fingerprints only in a block
for the auditor.
"""

from __future__ import annotations

from dashboards.billing.changes import changes_panel, runs_panel, what_changed
from dashboards.billing.charges import (
    fees_section,
    sampling_fees_section,
    surcharges_section,
    user_bills_section,
    volume_section,
)
from dashboards.billing.charts import (
    by_component,
    class_change_chart,
    class_table,
    district_component_table,
    revenue_chart,
    units_chart,
)
from dashboards.billing.data import COMPONENT_LABEL, COMPONENTS, BillingData, class_label, district_label
from dashboards.billing.page import build_billing_page, charges_sections
from dashboards.billing.year import (
    addresses_panel,
    classes_panel,
    districts_panel,
    kpi_panel,
    largest_panel,
)

__all__ = [
    "BillingData",
    "COMPONENTS",
    "COMPONENT_LABEL",
    "addresses_panel",
    "build_billing_page",
    "by_component",
    "changes_panel",
    "charges_sections",
    "class_change_chart",
    "class_label",
    "class_table",
    "classes_panel",
    "district_component_table",
    "district_label",
    "districts_panel",
    "fees_section",
    "kpi_panel",
    "largest_panel",
    "revenue_chart",
    "runs_panel",
    "sampling_fees_section",
    "surcharges_section",
    "units_chart",
    "user_bills_section",
    "volume_section",
    "what_changed",
]
