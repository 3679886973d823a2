"""Values as a page writes them: escaped, formatted, measured, named; what every page's data carries."""

from __future__ import annotations

import datetime as dt
import html
import json
import math
import re
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from outfall.rules import local_timezone
from outfall.rules.judged import Judged
from outfall.words import (
    is_missing,
    usd as fmt_usd,
)

# --------------------------------------------------------------------------- text


@dataclass(kw_only=True)
class PageData:
    """What every page's data carries (keyword arguments): the day judged, when the page was made, whom it
    is about (printed atop each paper page) and which tables exist (``present``)."""

    as_of: dt.date
    generated_at: dt.datetime | None = None
    town: str = ""
    laws: dict[str, str] = field(default_factory=dict)
    present: dict[str, bool] = field(default_factory=dict)
    # what the rules judge: every statement of "none" goes through it (contract 8.6; Judged(): everything)
    judged: Judged = field(default_factory=Judged)
    municipality: str = "municipality"  # the kind of the page's municipality ("Town", "City": its rules)


#: How a page names a law the rules do not name (``law_names`` of the rules files).
LAW_WORDS = {
    "sewer_use": "the sewer use law",
    "sewer_rates": "the sewer rate schedule",
    "sewer_penalty": "the penalty section of the sewer use law",
    "sewer_district": "the sewer district",
    "stormwater": "the stormwater law",
    "illicit_discharges": "the illicit discharge law",
    "inspection_fees": "the inspection fee law",
}


def law_cited(laws: dict[str, str] | None, name: str) -> str:
    """How a page cites the law ``name``: the rules' short name (``law_names``), else plain words."""
    return (laws or {}).get(name) or LAW_WORDS.get(name, name.replace("_", " "))


#: Each person's page, and the name of the official in ``law_names`` whose title names the person.
ROLES = {
    "superintendent": ("sewer.html", "sewer_administrator"),
    "stormwater_officer": ("stormwater.html", "stormwater_officer"),
    "clerk": ("billing.html", None),
}
#: A person's name where the rules name no official (a new town's rules before they are filled in).
ROLE_WORDS = {
    "superintendent": "Sewer use administrator",
    "stormwater_officer": "Stormwater officer",
    "clerk": "Clerk",
}


def role_name(laws: dict[str, str] | None, person: str) -> str:
    """The one name of a person on every page: the official the rules name (``law_names``), else plain
    words."""
    law = ROLES.get(person, ("", None))[1]
    return (laws or {}).get(law or "") or ROLE_WORDS.get(person, person.replace("_", " ").capitalize())


def as_frame(value: pd.DataFrame | None) -> pd.DataFrame:
    """The frame a page was given, or an empty one where it was given none."""
    return value if value is not None else pd.DataFrame()


def frames(data: Any, *names: str) -> list[pd.DataFrame]:
    """``as_frame`` of each named field of a page's data, in order."""
    return [as_frame(getattr(data, name)) for name in names]


def esc(value: Any) -> str:
    """HTML-escaped text of a value; blank for None/NaN/NaT."""
    if is_missing(value):
        return ""
    return html.escape(str(value), quote=True)


def fmt_date(value: Any) -> str:
    if is_missing(value):
        return ""
    if isinstance(value, str):
        return value[:10]
    if isinstance(value, (pd.Timestamp, dt.datetime)):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def fmt_datetime(value: Any) -> str:
    """Local wall-clock time, minutes (timestamps are shown in the town's time zone)."""
    if is_missing(value):
        return ""
    if isinstance(value, dt.datetime) and not getattr(value, "nanosecond", 0):
        # a datetime or Timestamp (whole microseconds, as the warehouse keeps them) converted as a
        # Python datetime: a tenth of the time of a Timestamp's conversion
        plain = value.to_pydatetime() if isinstance(value, pd.Timestamp) else value
        if plain.tzinfo is not None:
            plain = plain.astimezone(zoneinfo.ZoneInfo(local_timezone()))
        return plain.strftime("%Y-%m-%d %H:%M")
    ts = pd.Timestamp(value)
    if ts.tzinfo is not None:
        ts = ts.tz_convert(local_timezone())
    return ts.strftime("%Y-%m-%d %H:%M")


def fmt_signed_usd(value: Any) -> str:
    if is_missing(value):
        return ""
    number = float(value)
    return ("+" if number > 0 else "") + fmt_usd(number)


def fmt_pct(value: Any, digits: int = 1) -> str:
    if is_missing(value):
        return ""
    number = float(value)
    return ("+" if number > 0 else "") + f"{number:.{digits}f}%"


def short_rule(rule: Any, limit: int = 70) -> str:
    """A short label of a citation for chart annotations (the full text goes in hovers).

    "<Town> Code ch. 12 § 4, discharges ..., (a): BOD in excess of 200 mg/l"
    -> "<Town> ch. 12 § 4, discharges ..., (a)".
    """
    if is_missing(rule):
        return ""
    text = str(rule).strip().replace(" Code ", " ", 1)
    head = text.split(":", 1)[0].strip()
    if len(head) > limit:
        parts = head.split(", ")
        short = f"{parts[0]}, …, {parts[-1]}" if len(parts) >= 3 else ""
        if short and len(short) <= limit:
            return short
        cut = head[: limit - 1]
        if " " in cut and not head[limit - 1].isspace():  # at a word's end, not inside one
            cut = cut[: cut.rindex(" ")]
        head = cut.rstrip(" ,;") + "…"
    return head


UNIT_WORDS = {"degF": "°F", "degC": "°C", "s.u.": "s.u.", "SU": "s.u."}


def unit_text(unit: Any) -> str:
    """A unit as a reader writes it: °F for degF, °C for degC; others as they are."""
    if is_missing(unit):
        return ""
    return UNIT_WORDS.get(str(unit), str(unit))


def units_in_words(text: Any) -> str:
    """A sentence built elsewhere with its units and roundings as a reader writes them: '160 degF' ->
    '160 °F', 'peaking at 65.177 gpm (9.8795 x baseline)' -> 'peaking at 65.2 gpm (9.9 × baseline)'."""
    if is_missing(text):
        return ""
    out = re.sub(r"(\d) deg([FC])\b", lambda m: f"{m.group(1)} °{m.group(2)}", str(text))
    out = re.sub(r"\b(\d+\.\d+) (gpm|gpd|mgd)\b", lambda m: fmt_measure(m.group(1), m.group(2)), out)
    return re.sub(r"\b(\d+(?:\.\d+)?) x baseline\b", lambda m: f"{float(m.group(1)):.1f} × baseline", out)


def fmt_measure(value: Any, unit: Any = "", *, exact: bool = False) -> str:
    """A value with its unit, rounded as a reader wants it: '8,257 gpm', '26.4 gpm', '5.49 s.u.', '150 °F'.

    ``exact``: a lab result as reported (up to three decimals, never rounded to a whole number, so a result
    of 240.01 stays above its limit of 240); otherwise a computed value (a peak, a baseline, an average)
    keeps three significant figures, and whole numbers from 100 up."""
    if is_missing(value):
        return ""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return f"{value} {unit_text(unit)}".strip()
    size = abs(number)
    if exact:
        digits = 3
    elif size >= 100 or number == 0:
        digits = 0
    else:
        digits = max(0, 2 - int(math.floor(math.log10(size))))
    text = f"{number:,.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return f"{text} {unit_text(unit)}".strip()


def named(ident: Any, name: Any, href: str = "") -> str:
    """An id with its name beside it (HTML): 'IU-020 · Eastbrook Regional Treatment Plant'; the id a link
    when ``href`` is given."""
    head = f'<a href="{esc(href)}">{esc(ident)}</a>' if href else esc(ident)
    return head + (f' <span class="who">{esc(name)}</span>' if not is_missing(name) and str(name) else "")


def short_name(name: Any, width: int = 36) -> str:
    """A name short enough for a long table's column: a long name's closing remark in brackets left off,
    then cut with '…' (the whole name is in the page's summary and the subject's own section)."""
    if is_missing(name):
        return ""
    text = str(name)
    if len(text) > width and text.endswith(")") and " (" in text:
        text = text[: text.rindex(" (")]
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def slug(value: Any) -> str:
    """An HTML id fragment: letters, digits, '-' and '_' only."""
    out = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in str(value))
    return out.strip("-") or "x"


def _json_default(value: Any) -> Any:
    if isinstance(value, (pd.Timestamp, dt.datetime)):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, dt.date):
        return value.isoformat()
    if hasattr(value, "item"):  # numpy scalars
        item = value.item()
        if isinstance(item, float) and not math.isfinite(item):
            return None
        return item
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


def script_json(obj: Any) -> str:
    """JSON text safe inside a <script> element (no '</script>', no '<!--'); NaN is refused
    (JSON.parse would fail on it): figures carry None for gaps."""
    text = (
        obj
        if isinstance(obj, str)
        else json.dumps(
            obj, separators=(",", ":"), default=_json_default, allow_nan=False, ensure_ascii=False
        )
    )
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def join(parts: Iterable[str]) -> str:
    return "".join(p for p in parts if p)


def finite(value: Any) -> bool:
    try:
        return not is_missing(value) and math.isfinite(float(value))
    except (TypeError, ValueError):
        return False
