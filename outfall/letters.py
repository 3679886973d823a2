"""Letters as printable HTML: notices of violation, stop-work orders, later the
sewer notices.

``render_letter(template_name, context)`` fills a template file of
``templates/letters/`` with values from ``context``. Every value is escaped
with ``html.escape``: text from the inputs (names, addresses, notes) can never
become markup. A template names its values with placeholders:

- ``{{ key }}``: the value as text (None -> empty);
- ``{{ key|lines }}``: one escaped line per line of the value (``<br>`` between);
- ``{{ key|list }}``: a sequence as ``<li>`` items (each escaped);
- ``{{ key|date }}``: a date as "June 30, 2026";
- ``{{ key|money }}``: a number as "$1,234.50";
- ``{{ include:file.css }}``: the text of another file of the templates folder
  (trusted, inserted as is; for the shared print style).

A placeholder whose key is missing from the context is an error, so a letter
is never sent with a hole in it.
"""

from __future__ import annotations

import datetime as dt
import html
import os
import re
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any, Mapping

from outfall.paths import TEMPLATES_DIR as _TEMPLATES

TEMPLATES_DIR = _TEMPLATES / "letters"

_PLACEHOLDER = re.compile(r"\{\{\s*(include:[A-Za-z0-9_.\-]+|[A-Za-z_][A-Za-z0-9_]*)\s*(?:\|\s*([a-z]+)\s*)?\}\}")
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")


class LetterError(ValueError):
    """A template that cannot be filled: unknown template, key or filter."""


def _template_path(name: str, templates_dir: Path | None) -> Path:
    if not _SAFE_NAME.match(name) or name.startswith("."):
        raise LetterError(f"letter template name '{name}' is not a plain file name")
    path = Path(templates_dir or TEMPLATES_DIR) / name
    if not path.is_file():
        raise LetterError(f"no letter template '{name}' in {path.parent}")
    return path


def format_date(value: Any) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, dt.datetime):
        value = value.date()
    if not isinstance(value, dt.date):
        value = dt.date.fromisoformat(str(value))
    return f"{value:%B} {value.day}, {value.year}"


def format_money(value: Any) -> str:
    if value is None or value == "":
        return ""
    return f"${Decimal(str(value)):,.2f}"


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value != value:  # NaN
        return ""
    return str(value)


def _fill(name: str, flt: str | None, context: Mapping[str, Any], templates_dir: Path | None) -> str:
    if name.startswith("include:"):
        return _template_path(name.split(":", 1)[1], templates_dir).read_text(encoding="utf-8")
    if name not in context:
        raise LetterError(f"letter template needs '{name}', which the context does not give")
    value = context[name]
    if flt is None:
        return html.escape(_text(value))
    if flt == "lines":
        return "<br>\n".join(html.escape(line) for line in _text(value).splitlines())
    if flt == "list":
        items = [] if value is None else list(value)
        return "\n".join(f"<li>{html.escape(_text(item))}</li>" for item in items)
    if flt == "date":
        return html.escape(format_date(value))
    if flt == "money":
        return html.escape(format_money(value))
    raise LetterError(f"unknown letter filter '{flt}' (for '{name}')")


def render_letter(template_name: str, context: Mapping[str, Any], templates_dir: Path | None = None) -> str:
    """The HTML of one letter: ``templates/letters/<template_name>`` filled from ``context``."""
    template = _template_path(template_name, templates_dir).read_text(encoding="utf-8")
    return _PLACEHOLDER.sub(lambda m: _fill(m.group(1), m.group(2), context, templates_dir), template)


def safe_file_name(text: str) -> str:
    """A file name made of letters, digits, '.', '_' and '-' only."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._")
    return name or "letter"


def write_letter(folder: Path, file_name: str, html_text: str) -> Path:
    """Write one letter atomically (a temporary file renamed into place); an
    unchanged letter is left untouched."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / safe_file_name(file_name)
    data = html_text.encode("utf-8")
    if path.exists() and path.read_bytes() == data:
        return path
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".html")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path
