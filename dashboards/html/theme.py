"""What every page shares of its look: the pages of the menu, the palette and the font."""

from __future__ import annotations

PLOTLY_JS = "plotly.min.js"  # written once beside the pages (include_plotlyjs="directory" layout)

PAGES = (  # (file, menu label: a person's page is named for its person, role_name)
    ("index.html", "Overview"),
    ("sewer.html", "superintendent"),
    ("stormwater.html", "stormwater_officer"),
    ("billing.html", "clerk"),
    ("quarantine.html", "Quarantined rows"),
)

# One palette for every page.
COLORS = {
    "result": "#2563eb",
    "nondetect": "#6b7280",
    "violation": "#dc2626",
    "inconclusive": "#d97706",
    "limit": "#991b1b",
    "trend": "#94a3b8",
    "flow": "#2563eb",
    "slug": "#dc2626",
    "slug_fill": "rgba(220,38,38,0.13)",
    "gap_fill": "rgba(107,114,128,0.14)",
    "baseline": "#047857",
    "threshold": "#b45309",
    "rain": "#93c5fd",
    "storm": "#1d4ed8",
    "late": "#d97706",
    "overdue": "#dc2626",
    "inspection": "#047857",
    "active_fill": "rgba(16,185,129,0.07)",
    "bond": "#1e3a8a",
    "om": "#3b82f6",
    "street_lateral": "#10b981",
    "house_lateral": "#f59e0b",
    "previous": "#cbd5e1",
    "current": "#2563eb",
}

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif"
