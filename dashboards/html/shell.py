"""The page shell: the <html>, head, menu, header and footer around every page's panels."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from dashboards.html.charts import TEMPLATE
from dashboards.html.style import CSS, JS, PRINT_CSS, PRINT_WIDTH_PX
from dashboards.html.text import ROLES, esc, role_name, script_json
from dashboards.html.theme import FONT, PAGES, PLOTLY_JS
from outfall.letters import css_string
from outfall.rules import local_timezone


@dataclass
class PageMeta:
    """What a builder reports besides the HTML (for the asset's metadata and tests)."""

    charts: int = 0
    empty_sections: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def print_header_css(town: str, title: str, as_of: dt.date | None) -> str:
    """On each printed page: the town and the page's title at the top left, the as-of day at the top right."""
    left = " · ".join(t for t in (town, title) if t)
    right = f"as of {as_of:%B} {as_of.day}, {as_of.year}" if as_of else ""
    return (
        "@page{"
        f"@top-left{{content:{css_string(left)};font:10px {FONT};color:#000}}"
        f"@top-right{{content:{css_string(right)};font:10px {FONT};color:#000}}}}"
    )


def page(
    *,
    file: str,
    title: str,
    subtitle: str,
    body: str,
    as_of: dt.date | None,
    generated_at: dt.datetime | None = None,
    has_charts: bool = True,
    footer_note: str = "",
    extra_css: str = "",
    town: str = "",
    laws: dict[str, str] | None = None,
) -> str:
    """A complete, self-standing HTML page (plotly.min.js beside it when it has charts).

    ``town``: who the page is about (the rules files' names, e.g. "Town of ..."), printed atop every paper
    page with the title and the as-of day; ``laws``: the rules' names (``law_names``), which name each
    person's page in the menu."""
    menu = "".join(
        f'<a href="{f}"{" class=on" if f == file else ""}>'
        f"{esc(role_name(laws, label) if label in ROLES else label)}</a>"
        for f, label in PAGES
    )
    scripts = ""
    if has_charts:
        scripts = (
            f'<script src="{PLOTLY_JS}" charset="utf-8"></script>'
            f'<script type="application/json" id="outfall-template">{script_json(TEMPLATE)}</script>'
            f"<script>{JS}</script>"
        )
    gen = f" · page written {esc(generated_at.strftime('%Y-%m-%d %H:%M'))}" if generated_at else ""
    brand = f"{esc(town) if town else 'Outfall'} · sewer &amp; stormwater compliance"
    as_of_text = f"as of {esc(as_of.isoformat())}" if as_of else ""
    foot = (
        f"<footer>Outfall · {as_of_text}{gen} · times in {esc(local_timezone())}. "
        f"Opens without a server or internet; charts use {PLOTLY_JS} beside this page.{footer_note}</footer>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"'
        + f' data-print-width="{PRINT_WIDTH_PX}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)} · Outfall</title><style>{CSS}{PRINT_CSS}{print_header_css(town, title, as_of)}"
        f"{extra_css}</style></head><body>"
        f'<header class="top"><div class="brand">{brand}</div>'
        f'<h1>{esc(title)}</h1><div class="sub">{subtitle}</div><nav class="menu">{menu}</nav></header>'
        f"<main>{body}</main>{foot}{scripts}</body></html>\n"
    )
