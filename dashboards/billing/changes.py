"""The billing page's changes from the year before, and the billing runs."""

from __future__ import annotations

from dashboards.billing.data import COMPONENT_LABEL, COMPONENTS, BillingData, class_label, district_label
from dashboards.billing.year import _by, _Year
from dashboards.html import (
    Col,
    as_frame,
    badge,
    details,
    esc,
    fmt_datetime,
    fmt_num,
    fmt_signed_usd,
    fmt_usd,
    is_missing,
    no_data,
    note,
    section,
    table,
)
from outfall.billing_words import change_word, rate_source_word


def what_changed(r: dict, names: dict[str, str]) -> str:
    """What moved a parcel's bill besides its amount, in words: class, district, units (the total is said
    once, in its own column)."""
    parts = []
    for label, before, after, word in (
        ("property class", "class_before", "class_after", class_label),
        ("district", "district_before", "district_after", lambda v: district_label(v, names)),
    ):
        b, a = r.get(before), r.get(after)
        if not is_missing(b) and not is_missing(a) and b != a:
            parts.append(f"{label} {word(b)} → {word(a)}")
    for c in COMPONENTS:
        d = r.get(f"units_{c}_change")
        if not is_missing(d) and int(d) != 0:
            parts.append(f"{COMPONENT_LABEL[c]} units {int(d):+d}")
    return "; ".join(parts) or (
        "the rate per unit" if r.get("change") in ("amount_up", "amount_down") else ""
    )


def _bill_move(r: dict) -> str:
    """'$32,394.50 → $33,522.00 (+$1,127.50)': the change, said once."""
    before, after = r.get("total_before"), r.get("total_after")
    text = f"{fmt_usd(before) or 'no bill'} → {fmt_usd(after) or 'no bill'}"
    return text + (
        f" ({fmt_signed_usd(r.get('total_change'))})" if not is_missing(r.get("total_change")) else ""
    )


def changes_panel(y: _Year, data: BillingData) -> str:
    changes = as_frame(data.changes)
    title = f"Biggest changes from {_by(y.prev)} to {y.year}" if y.prev else "Changes"
    if y.prev is None:
        return section(
            title,
            note(f"No earlier billed year to compare billing year {y.year} with.", "info"),
            sid="changes",
        )
    if changes.empty:
        body = (
            no_data("bill_changes", data.present.get("bill_changes"), f"changes from billing year {y.prev}")
            if not data.present.get("bill_changes")
            else note(f"No bill changed from billing year {y.prev}.", "info")
        )
        return section(title, body, sid="changes")
    counts = as_frame(data.change_counts)
    summary = (
        ""
        if counts.empty
        else note(
            esc(
                f"Changes from billing year {y.prev} to {y.year}: "
                + ", ".join(
                    f"{change_word(r['change']).lower()}: {int(r['parcels']):,} parcels"
                    for r in counts.to_dict("records")
                )
                + "."
            ),
            "info",
        )
    )
    c_html = summary + table(
        changes,
        [
            Col("parcel_id", "Parcel", nowrap=True),
            Col("owner", "Owner"),
            Col(
                "change",
                "Change",
                html=lambda r: badge(
                    change_word(r.get("change")), "warn" if (r.get("total_change") or 0) > 0 else "info"
                ),
            ),
            Col("what", "What changed", html=lambda r: esc(what_changed(r, y.names))),
            Col(
                "total_change", f"Bill, {_by(y.prev)} → {y.year}", num=True, html=lambda r: esc(_bill_move(r))
            ),
        ],
    )
    shown = (
        f"The {len(changes):,} biggest"
        + (f" of {y.changed:,} changes" if y.changed else "")
        + f"; every change is in bill_changes_{y.year}.csv in the billing folder of the exports. The parcels "
        "whose bill moved most, up or down: reclassed, units changed, added or removed parcels come first "
        "when they are the largest."
    )
    return section(title, c_html, sid="changes", lead=esc(shown))


def runs_panel(y: _Year, data: BillingData) -> str:
    runs = as_frame(data.runs)
    if runs.empty:
        return ""
    shown = table(
        runs,
        [
            Col("year", "Billing year", num=True),
            Col("run_id", "Billing run", num=True),
            Col("run_at", "Run at (local time)", fmt=fmt_datetime, nowrap=True),
            Col("rules_version", "Rules version"),
            Col("rate_source", "Rates per unit from", fmt=lambda v: rate_source_word(v, data.rates_by)),
            Col("parcels_billed", "Parcels", num=True, fmt=fmt_num),
            Col("total_usd", "Total billed", num=True, fmt=fmt_usd),
        ],
    )
    auditor = details(
        "For the auditor: each run's fingerprint",
        table(
            runs,
            [
                Col("run_id", "Billing run", num=True),
                Col(
                    "run_hash",
                    "sha256 of the run's record and of the run before it",
                    html=lambda r: f"<code>{esc(r.get('run_hash'))}</code>",
                ),
            ],
        ),
    )
    return section(
        "Billing runs",
        shown + auditor,
        sid="runs",
        lead="Each run that changed a billing year's register. Each run's record is chained to the one "
        "before it, so a changed record shows.",
    )
