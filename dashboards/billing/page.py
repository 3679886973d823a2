"""The billing page, top to bottom: its panels in order and the page built from them."""

from __future__ import annotations

from dashboards.billing.changes import changes_panel, runs_panel
from dashboards.billing.charges import (
    fees_section,
    sampling_fees_section,
    surcharges_section,
    user_bills_section,
    volume_section,
)
from dashboards.billing.data import BillingData
from dashboards.billing.year import (
    _Year,
    addresses_panel,
    classes_panel,
    districts_panel,
    kpi_panel,
    largest_panel,
)
from dashboards.html import (
    Chart,
    PageMeta,
    as_frame,
    esc,
    join,
    law_cited,
    no_data,
    page_of,
    role_name,
    section,
)
from dashboards.worklist import worklist_panel


def charges_sections(data: BillingData) -> list[str]:
    """What the page shows beside the unit schedule's roll: the charges by volume, the industrial users'
    bills and their surcharges, the fees of the town's samples and the inspection fees."""
    return [
        volume_section(data),
        user_bills_section(data),
        surcharges_section(data),
        sampling_fees_section(data),
        fees_section(data) if data.inspection_fee_law else "",
    ]


def build_billing_page(data: BillingData) -> tuple[str, PageMeta]:
    meta = PageMeta()
    if as_frame(data.totals).empty or data.year is None:
        roll = section("Sewer roll", no_data("sewer_bills", data.present.get("sewer_bills"), "bills"))
        body = [
            worklist_panel(data.worklist, "clerk", data.as_of, data.laws),
            roll if data.unit_schedule else "",
            *charges_sections(data),
        ]
        what = "sewer units" if data.unit_schedule else "sewer charges"
        return page_of(
            data,
            file="billing.html",
            title=f"{role_name(data.laws, 'clerk')}: "
            + ("the annual sewer roll" if data.unit_schedule else "sewer charges and fees"),
            subtitle=esc(f"{law_cited(data.laws, 'sewer_rates')} {what} · as of {data.as_of.isoformat()}"),
            body=join(body),
            has_charts=False,
        ), meta
    y = _Year.of(data)
    charts: list[Chart] = []
    body = [
        worklist_panel(data.worklist, "clerk", data.as_of, data.laws),
        kpi_panel(y, data),
        addresses_panel(y, data),
        districts_panel(y, data, charts),
        classes_panel(y, charts),
        largest_panel(y, data),
        changes_panel(y, data),
        runs_panel(y, data),
        *charges_sections(data),
    ]
    meta.charts = len(charts)
    meta.counts = {"year": y.year, "parcels": y.parcels_now, "fee_years": len(as_frame(data.fees))}
    subtitle = (
        f"{law_cited(data.laws, 'sewer_rates')} sewer units and rates · billing year {y.year}"
        + (f" compared with billing year {y.prev}" if y.prev else "")
        + f" · as of {data.as_of.isoformat()}"
    )
    return page_of(
        data,
        file="billing.html",
        title=f"{role_name(data.laws, 'clerk')}: the sewer roll of billing year {y.year}",
        subtitle=esc(subtitle),
        body=join(body),
        has_charts=True,
    ), meta
