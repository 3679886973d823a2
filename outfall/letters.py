"""Letters as printable HTML: Jinja2 templates a town can edit, one base layout
with the town's letterhead.

- Templates: ``templates/letters/*.html`` (``base.html`` is the layout: the
  letterhead, the date and reference, the recipient's address, the signature;
  every letter ``{% extends "base.html" %}``). A town may override any of them
  by putting a file of the same name in ``<data folder>/letter_templates/``.
- Values are escaped (autoescape): text from the input files (names,
  addresses, notes) can never become markup. A value the template names and
  the context does not give is an error (StrictUndefined), so a letter is
  never written with a hole in it.
- Filters: ``date`` ("June 30, 2026"), ``money`` ("$1,234.50"), ``number``
  (a measurement without trailing zeros), ``lines`` (one line per line of a
  text, or per item of a list, ``<br>`` between), ``and_list`` ("BOD, TSS
  and pH"), ``css_string`` (text for the page's printed header and footer).
- The letterhead: ``<data folder>/letterhead.yaml`` (``Letterhead``, a small
  typed file: per jurisdiction its name, mailing address, telephone and the
  signatory of each kind of letter). Without it a letter still renders, says
  plainly that the letterhead is not configured, and is not ready to mail.

``LetterWriter(data_dir).render(template, context, jurisdiction=, area=,
missing=)`` returns a ``Letter``: its HTML and whether it is ready to mail
(with the reasons when not). ``write_letter`` writes one atomically;
``letter_is_ready`` reads the flag back from a written file (for printing).
See docs/letters.md.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

import jinja2
import yaml
from markupsafe import Markup, escape
from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError, field_validator

from outfall.atomic import sweep_stale, write_atomic
from outfall.paths import TEMPLATES_DIR as _TEMPLATES
from outfall.rules import Rules, jurisdictions as rules_jurisdictions, load_all

TEMPLATES_DIR = _TEMPLATES / "letters"
LETTERHEAD_FILE = "letterhead.yaml"
OVERRIDE_FOLDER = "letter_templates"
READY_META = "outfall-ready-to-mail"

AREAS = ("sewer", "stormwater")
ZIP_CODE = re.compile(r"^\d{5}(-?\d{4})?$")  # five digits, or nine (12345-6789)
STATE_CODE = re.compile(r"^[A-Za-z]{2}$")
_LAST_LINE = re.compile(r"^(?P<city>.*?),?\s+(?P<state>[A-Za-z]{2})\.?\s+(?P<zip>\d{5}(?:-?\d{4})?)$")
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")
_READY = re.compile(r'<meta name="' + READY_META + r'" content="(yes|no)"')


class LetterError(ValueError):
    """A letter that cannot be written: unknown template, missing value, unknown filter."""


# --------------------------------------------------------------------------- the recipient's address


@dataclass(frozen=True)
class Recipient:
    """Who a letter goes to and where: the one address rule of every letter (contract 6.5)."""

    name: str | None
    street: str | None
    city: str | None = None
    state: str | None = None
    zip: str | None = None

    def lines(self) -> list[str]:
        """The address as printed: the street, then 'City, ST 12345'."""
        place = ", ".join(x for x in (_text(self.city), _text(self.state)) if x)
        last = " ".join(x for x in (place, _text(self.zip)) if x)
        return [line for line in (_text(self.street), last) if line]


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def parse_address_block(text: Any) -> tuple[str | None, str | None, str | None, str | None]:
    """(street, city, state, zip) of an address written as text: its last line 'City, ST 12345' (or one
    line 'street, City, ST 12345'); what cannot be read stays in the street and the rest is None."""
    lines = [line.strip() for line in _text(text).replace(";", "\n").splitlines() if line.strip()]
    if not lines:
        return None, None, None, None
    last = _LAST_LINE.match(lines[-1])
    if last and len(lines) > 1:
        return ", ".join(lines[:-1]), last["city"].strip() or None, last["state"].upper(), last["zip"]
    if last and "," in last["city"]:
        street, city = last["city"].rsplit(",", 1)
        return street.strip(), city.strip() or None, last["state"].upper(), last["zip"]
    return ", ".join(lines), None, None, None


def address_problems(recipient: Recipient | None, fix: str) -> list[str]:
    """Why a letter cannot be mailed to ``recipient`` as the records stand, in plain words (empty: it
    can). A letter is ready to mail only when its recipient has a name, a street address, a city, a
    state and a five- or nine-digit ZIP code. ``fix`` says where to add what is missing (e.g. 'the
    industrial users' file')."""
    if recipient is None:
        return [
            f"the recipient is not on file, so there is no name or mailing address to send it to (add it to "
            f"{fix})"
        ]
    lacks = [
        label
        for label, value in (
            ("the name", recipient.name),
            ("the street address", recipient.street),
            ("the city", recipient.city),
            ("the state", recipient.state),
            ("the ZIP code", recipient.zip),
        )
        if not _text(value)
    ]
    out = []
    if lacks:
        listed = lacks[0] if len(lacks) == 1 else ", ".join(lacks[:-1]) + " and " + lacks[-1]
        out.append(f"the mailing address on file lacks {listed} (add it to {fix})")
    state, zip_code = _text(recipient.state), _text(recipient.zip)
    if state and not STATE_CODE.match(state):
        out.append(f"the state '{state}' is not a two-letter postal abbreviation (for example NY)")
    if zip_code and not ZIP_CODE.match(zip_code):
        out.append(f"the ZIP code '{zip_code}' is not five digits (or five and four)")
    return out


# --------------------------------------------------------------------------- the letterhead


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class Signatory(_Strict):
    """Who signs a kind of letter."""

    name: str = Field(min_length=1)
    title: str = Field(min_length=1)
    phone: str = Field(min_length=1)
    email: str | None = None


class Issuer(_Strict):
    """One jurisdiction's letterhead: the municipality, its mailing address and its signatories."""

    name: str = Field(min_length=1, description="e.g. Town of ...")
    address: list[str] = Field(min_length=2, description="mailing address, one line per item")
    phone: str | None = None
    email: str | None = None
    website: str | None = None
    signatories: dict[Literal["sewer", "stormwater"], Signatory] = Field(min_length=1)

    @field_validator("address")
    @classmethod
    def _no_blank_lines(cls, lines: list[str]) -> list[str]:
        lines = [str(line).strip() for line in lines]
        if any(not line for line in lines):
            raise ValueError("a line of the address is blank")
        return lines


class Letterhead(RootModel[dict[str, Issuer]]):
    """The file ``letterhead.yaml``: one entry per jurisdiction that issues letters, keyed by the
    jurisdiction's name as its rules file is named (``rules/<jurisdiction>.yaml``)."""

    def issuer(self, jurisdiction: str) -> Issuer | None:
        return self.root.get(jurisdiction)

    def jurisdictions(self) -> tuple[str, ...]:
        return tuple(self.root)


@dataclass(frozen=True)
class LetterheadStatus:
    """The letterhead as read from the data folder: the file's content, or why there is none."""

    letterhead: Letterhead | None
    problem: str | None  # plain words; None when the file was read
    source: Path | None = None


def _plain_errors(error: ValidationError) -> str:
    parts = []
    for e in error.errors():
        where = " > ".join(str(p) for p in e.get("loc", ())) or "the file"
        kind = e.get("type", "")
        if kind == "missing":
            what = "is missing"
        elif kind == "extra_forbidden":
            what = "is not a known entry (check its spelling)"
        elif kind in ("too_short", "string_too_short"):
            what = "is blank or too short"
        else:
            what = str(e.get("msg", "is not valid")).replace("Value error, ", "")
        parts.append(f"{where} {what}")
    return "; ".join(parts)


def read_letterhead(
    data_dir: Path | str | None, jurisdictions: Iterable[str] | None = None
) -> LetterheadStatus:
    """``<data_dir>/letterhead.yaml`` (only the data folder is read, as for the inputs). ``jurisdictions``:
    those
    of the rules files found (default: the rules folder's, OUTFALL_RULES_DIR or the project's); an entry for
    any other is a mistake, named."""
    if not data_dir:
        return LetterheadStatus(None, "the letterhead is not configured (no data folder)")
    path = Path(data_dir) / LETTERHEAD_FILE
    if not path.is_file():
        return LetterheadStatus(
            None,
            f"the letterhead is not configured: add {LETTERHEAD_FILE} to the data "
            f"folder (see docs/letters.md)",
            path,
        )
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return LetterheadStatus(None, f"the letterhead file {LETTERHEAD_FILE} cannot be read ({first})", path)
    known = tuple(jurisdictions) if jurisdictions is not None else rules_jurisdictions()
    if not isinstance(raw, dict):
        return LetterheadStatus(
            None,
            f"the letterhead file {LETTERHEAD_FILE} must list the jurisdictions "
            f"({', '.join(f'{j}:' for j in known)})",
            path,
        )
    unknown = [str(k) for k in raw if str(k) not in known]
    if unknown:
        return LetterheadStatus(
            None,
            f"the letterhead file {LETTERHEAD_FILE} is not usable: {unknown[0]} is not a "
            f"jurisdiction of the rules files found ({', '.join(f'{j}.yaml' for j in known)})",
            path,
        )
    try:
        return LetterheadStatus(Letterhead.model_validate(raw), None, path)
    except ValidationError as exc:
        return LetterheadStatus(
            None, f"the letterhead file {LETTERHEAD_FILE} is not usable: {_plain_errors(exc)}", path
        )


# --------------------------------------------------------------------------- filters


def format_date(value: Any) -> str:
    """June 30, 2026. A blank date is an error: a letter never shows a hole."""
    if value is None or value == "" or isinstance(value, jinja2.Undefined):
        raise LetterError("a date the letter needs is blank")
    if isinstance(value, dt.datetime):
        value = value.date()
    if not isinstance(value, dt.date):
        try:
            value = dt.date.fromisoformat(str(value)[:10])
        except ValueError:
            raise LetterError(f"'{value}' is not a date") from None
    return f"{value:%B} {value.day}, {value.year}"


def format_money(value: Any) -> str:
    """$1,234.50 (negative: -$1,234.50). A blank amount is an error."""
    if value is None or value == "" or isinstance(value, jinja2.Undefined):
        raise LetterError("an amount the letter needs is blank")
    try:
        amount = Decimal(str(value)).quantize(Decimal("0.01"))
    except InvalidOperation:
        raise LetterError(f"'{value}' is not an amount of money") from None
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"


def format_number(value: Any, digits: int = 4) -> str:
    """A measurement without trailing zeros: 240, 5.49, 0.012, 1,600."""
    if value is None or value == "":
        raise LetterError("a number the letter needs is blank")
    text = f"{float(value):,.{digits}f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _lines(value: Any) -> Markup:
    if value is None:
        return Markup("")
    items = value.splitlines() if isinstance(value, str) else [str(v) for v in value]
    return Markup("<br>\n").join(escape(line) for line in items if str(line).strip())


def _sentence(value: Any) -> str:
    """The text with its first letter capitalized (the rest left as it is)."""
    text = str(value)
    return text[:1].upper() + text[1:]


def _and_list(value: Iterable[Any], last: str = "and") -> str:
    items = [str(v) for v in value]
    if len(items) <= 2:
        return f" {last} ".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def css_string(value: Any) -> Markup:
    """A quoted CSS string of any text (for ``content:`` in the page's margin boxes):
    every character other than letters, digits, blanks and plain punctuation as a CSS escape."""
    out = []
    for ch in str(value):
        if ch.isascii() and (ch.isalnum() or ch in " .,:;-_()/#'&"):
            out.append(ch)
        else:
            out.append(f"\\{ord(ch):06x} ")
    return Markup('"' + "".join(out) + '"')


def environment(templates_dir: Path | None = None, override_dir: Path | None = None) -> jinja2.Environment:
    """The Jinja2 environment of the letters: the town's overrides first, then the bundled templates."""
    folders = [str(p) for p in (override_dir,) if p is not None and Path(p).is_dir()]
    folders.append(str(templates_dir or TEMPLATES_DIR))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders),
        autoescape=jinja2.select_autoescape(
            enabled_extensions=("html", "htm", "j2"), default_for_string=True
        ),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(
        date=format_date,
        money=format_money,
        number=format_number,
        lines=_lines,
        and_list=_and_list,
        css_string=css_string,
        sentence=_sentence,
    )
    return env


# --------------------------------------------------------------------------- letters


@dataclass(frozen=True)
class Letter:
    """One rendered letter: its HTML and whether it may be mailed as it is."""

    html: str
    template: str
    jurisdiction: str
    area: str
    not_ready: tuple[str, ...] = ()

    @property
    def ready_to_mail(self) -> bool:
        return not self.not_ready


class LetterWriter:
    """Renders letters with one environment and the letterhead read once from the data folder."""

    def __init__(
        self,
        data_dir: Path | str | None = None,
        rules: Mapping[str, Rules] | None = None,
        *,
        templates_dir: Path | None = None,
        letterhead: LetterheadStatus | None = None,
    ):
        self.rules = dict(rules) if rules is not None else load_all()
        self.letterhead = (
            letterhead if letterhead is not None else read_letterhead(data_dir, tuple(self.rules))
        )
        override = Path(data_dir) / OVERRIDE_FOLDER if data_dir else None
        self.env = environment(templates_dir, override)

    def render(
        self,
        template: str,
        context: Mapping[str, Any],
        *,
        jurisdiction: str,
        area: str,
        missing: Iterable[str] = (),
    ) -> Letter:
        """The letter ``template`` filled from ``context``, on ``jurisdiction``'s letterhead,
        signed by its ``area`` signatory. ``missing``: what the caller knows the letter lacks
        (plain words, e.g. "the recipient's mailing address is not on file"); any of them, or
        a letterhead that is not configured, makes the letter not ready to mail."""
        if area not in AREAS:
            raise LetterError(f"unknown kind of letter '{area}' (one of {', '.join(AREAS)})")
        if not _SAFE_NAME.match(template) or template.startswith("."):
            raise LetterError(f"letter template name '{template}' is not a plain file name")
        reasons = [str(m) for m in missing if m]
        issuer = signatory = None
        law = self.rules.get(jurisdiction)
        town = law.name if law is not None else jurisdiction
        if self.letterhead.letterhead is None:
            reasons.insert(0, self.letterhead.problem or "the letterhead is not configured")
        else:
            issuer = self.letterhead.letterhead.issuer(jurisdiction)
            if issuer is None:
                reasons.insert(0, f"the letterhead file ({LETTERHEAD_FILE}) has no entry for {town}")
            else:
                signatory = issuer.signatories.get(area)  # type: ignore[call-overload]
                if signatory is None:
                    reasons.insert(
                        0,
                        f"the letterhead file ({LETTERHEAD_FILE}) names no signatory for {area} "
                        f"letters of the {town}",
                    )
        # the names of the jurisdiction's laws as of the letter's day (``law.sewer_use.name``, ...); a
        # law the rules do not name keeps the letter from the mail, with the reason on it
        names = _LawNames(
            {name: ln.model_dump() for name, ln in law.laws(_letter_day(context)).items()}
            if law is not None
            else {}
        )
        values = {
            "law": names,
            "town_name": law.name if law is not None else "",
            # the municipality's kind as its sentences name it ("Town", "City", "Village"; contract 8.7)
            "municipality": law.municipality if law is not None else "municipality",
            **context,
            "letterhead": issuer.model_dump() if issuer is not None else None,
            "signatory": signatory.model_dump() if signatory is not None else None,
        }
        try:
            html_text = self.env.get_template(template).render(
                values, not_ready=reasons, ready_to_mail=not reasons
            )
            if names.missing:
                reasons += [
                    f"the rules of the {town} do not name the {m.replace('_', ' ')} law this letter cites"
                    for m in sorted(names.missing)
                ]
                html_text = self.env.get_template(template).render(
                    values, not_ready=reasons, ready_to_mail=False
                )
        except jinja2.TemplateNotFound as exc:
            raise LetterError(f"no letter template '{exc.name}'") from None
        except jinja2.UndefinedError as exc:
            raise LetterError(
                f"letter template {template} needs a value the context does not give: {exc.message}"
            ) from None
        except jinja2.TemplateSyntaxError as exc:
            raise LetterError(
                f"letter template {exc.name or template}, line {exc.lineno}: {exc.message}"
            ) from None
        return Letter(html_text, template, jurisdiction, area, tuple(reasons))


class _LawNames(dict):
    """The law names a letter may cite; one the rules lack reads as a placeholder and is noted."""

    def __init__(self, names: Mapping[str, Any]):
        super().__init__(names)
        self.missing: set[str] = set()

    def __missing__(self, key: str) -> dict[str, str]:
        self.missing.add(key)
        return {"name": "[law not named]", "short": "[law not named]", "citation": "[law not named]"}


def _letter_day(context: Mapping[str, Any]) -> dt.date | None:
    """The day a letter speaks as of: its issued_on, else its as_of (None: today)."""
    for key in ("issued_on", "as_of"):
        value = context.get(key)
        if isinstance(value, dt.datetime):
            return value.date()
        if isinstance(value, dt.date):
            return value
    return None


def render_letter(
    template_name: str,
    context: Mapping[str, Any],
    *,
    jurisdiction: str,
    area: str = "sewer",
    data_dir: Path | str | None = None,
    templates_dir: Path | None = None,
    rules: Mapping[str, Rules] | None = None,
) -> str:
    """The HTML of one letter (a one-off ``LetterWriter``; use a writer for many)."""
    writer = LetterWriter(data_dir, rules, templates_dir=templates_dir)
    return writer.render(template_name, context, jurisdiction=jurisdiction, area=area).html


def letter_is_ready(html_text: str) -> bool:
    """Whether a written letter says it is ready to mail (the base layout's meta flag)."""
    m = _READY.search(html_text[:4000])
    return bool(m and m.group(1) == "yes")


def safe_file_name(text: str) -> str:
    """A file name made of letters, digits, '.', '_' and '-' only."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._")
    return name or "letter"


def write_letter(folder: Path, file_name: str, letter: Letter | str) -> Path:
    """Write one letter atomically (a temporary file renamed into place); an
    unchanged letter is left untouched."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / safe_file_name(file_name)
    data = (letter.html if isinstance(letter, Letter) else letter).encode("utf-8")
    if path.exists() and path.read_bytes() == data:
        sweep_stale(path)  # what a run killed while writing it left beside it
        return path
    return write_atomic(path, data, durable=False)
