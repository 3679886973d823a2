"""The page shell: the <html>, head, menu, header and footer around every page's panels."""

from __future__ import annotations

import datetime as dt
import functools
import html
from dataclasses import dataclass, field

import jinja2
from markupsafe import Markup

from dashboards.html.charts import TEMPLATE
from dashboards.html.style import CSS, JS, PRINT_CSS, PRINT_WIDTH_PX
from dashboards.html.text import ROLES, PageData, role_name, script_json
from dashboards.html.theme import FONT, PAGES, PLOTLY_JS
from outfall.letters import css_string
from outfall.paths import TEMPLATES_DIR
from outfall.rules import local_timezone
from outfall.words import day_words


@dataclass
class PageMeta:
    """What a builder reports besides the HTML (for the asset's metadata and tests)."""

    charts: int = 0
    empty_sections: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def print_header_css(town: str, title: str, as_of: dt.date | None) -> str:
    """On each printed page: the town and the page's title at the top left, the as-of day at the top right."""
    left = " · ".join(t for t in (town, title) if t)
    right = f"as of {day_words(as_of)}" if as_of else ""
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
    menu = [
        {"file": f, "on": f == file, "label": role_name(laws, label) if label in ROLES else label}
        for f, label in PAGES
    ]
    return _shell().render(
        print_width=PRINT_WIDTH_PX,
        title=title,
        style=Markup(CSS + PRINT_CSS + print_header_css(town, title, as_of) + extra_css),
        town=town,
        subtitle=Markup(subtitle),
        menu=menu,
        body=Markup(body),
        as_of=as_of.isoformat() if as_of else "",
        written=generated_at.strftime("%Y-%m-%d %H:%M") if generated_at else "",
        timezone=local_timezone(),
        plotly_js=PLOTLY_JS,
        footer_note=Markup(footer_note),
        has_charts=has_charts,
        template_json=Markup(script_json(TEMPLATE)),
        js=Markup(JS),
    )


def page_of(
    data: PageData,
    *,
    file: str,
    title: str,
    subtitle: str,
    body: str,
    has_charts: bool = True,
    footer_note: str = "",
    extra_css: str = "",
) -> str:
    """``page`` of a page's data: its as-of day, when it was made, its town and the rules' names."""
    return page(
        file=file,
        title=title,
        subtitle=subtitle,
        body=body,
        as_of=data.as_of,
        generated_at=data.generated_at,
        has_charts=has_charts,
        footer_note=footer_note,
        extra_css=extra_css,
        town=data.town,
        laws=data.laws,
    )


@functools.cache
def _shell() -> jinja2.Template:
    """The page shell's template (templates/pages/page.html), autoescaped: text given to it is escaped, HTML
    is given as ``Markup``."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR / "pages")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        finalize=_as_esc,
    )
    return env.get_template("page.html")


def _as_esc(value: object) -> object:
    """Text escaped as ``esc`` escapes the page's other text (quotes as &quot; and &#x27;), so that the shell
    and its panels write the same bytes for the same words."""
    return (
        Markup(html.escape(value, quote=True))
        if isinstance(value, str) and not isinstance(value, Markup)
        else value
    )
