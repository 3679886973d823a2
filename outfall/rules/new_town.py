"""A starting rules file for another town (``outfall new-town NAME --out rules/NAME.yaml``).

The file is a short rules file, written from the models of ``outfall.rules`` (not from any town's rules):
the sections a sewer use ordinance usually has (``SHORT``: the law's names, the discharge limits and those
left to someone else, the slug definition, the surcharge with its thresholds, the period to correct, the
penalty and who issues notices), in the models' order, each value ``""`` and each key explained by a
comment above it (its description, the words it takes). The charge model (``--charges``: units, volume,
both or none) decides which billing sections are written. Every other section a rules file may have
(stormwater, illicit discharges, fee schedules, significant noncompliance, business days ...) is in
docs/rules.md, to add where the town's code has it; none of it names any state's law.

A value left ``""`` is one the town's law does not state: it is left out when the file is read, and an
entry or a section left all ``""`` is not stated at all (``outfall rules check`` lists what the
file leaves unstated). So the person filling the file in writes the values the ordinance states, with
their sections, and leaves the rest ``""``; a section half filled names each required value still empty,
every one at once. ``effective_from: null`` is a date the code does not state.

Lists of entries get one entry to copy; a mapping of codes (the vocabulary, the unit schedule's classes)
is ``""`` with an example in its comment, since its keys are the town's own.
"""

from __future__ import annotations

import io
import re
import textwrap
import types
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from outfall.rules.dated import _DatedList
from outfall.rules.generate import field_doc
from outfall.rules.models import Rules
from outfall.rules.types import JURISDICTION_PATTERN

CHARGE_MODELS = ("units", "volume", "both", "none")
#: The sections each charge model writes; the others are left out.
CHARGE_SECTIONS = {
    "units": ("sewer_units", "billing"),
    "volume": ("volume_charges",),
}
#: Keys the file writes itself, before the sections.
HEAD = ("jurisdiction", "name", "kind", "version", "timezone", "charge_model")
#: Mappings whose keys are the town's own codes: "" and an example, not a structure.
EXAMPLES = {
    "districts": "{north: [north sewer district, nsd]}",
    "property_classes": "{single_family: [single family], restaurant: []}",
    "components": "{om: [o&m]}",
    "classes": '{single_family: {method: fixed, units: 1, label: "Single-family residence"}} (methods: '
    "acreage, fixed, per_count, tiers, acreage_only; docs/rules.md shows each)",
    "names": '{north: "North Sewer District"}',
    "by_parameter": "{BOD: dl}",
    "trc_factor_by_parameter": "{BOD: 1.4}",
}
WIDTH = 100
#: The sections a sewer use ordinance usually has, and the parts of each written (None: the whole section).
SHORT: dict[str, tuple[str, ...] | None] = {
    "discharge_limits": None,
    "limits_set_elsewhere": None,
    "sewer_compliance": None,
    "slug": None,
    "readings_enforcement": ("surcharge_concentration", "surcharge_flow"),
    "penalties": ("sewer_use",),
    "notices": ("sewer_correction",),
    "surcharge": ("method", "thresholds", "rates"),
    "sewer_enforcement": None,
    "law_names": ("sewer_use", "sewer_rates", "sewer_penalty", "sewer_district"),
}


class NewTownError(Exception):
    """Why no file was written: one line."""


def _strip(annotation: Any) -> Any:
    """The type inside Annotated[...] and X | None."""
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            args = [a for a in get_args(annotation) if a is not type(None)]
            if len(args) != 1:
                return annotation
            annotation = args[0]
        else:
            return annotation


def _words(annotation: Any) -> str:
    """What a value of the type looks like, for the comment: 'one of a, b', 'a date', 'true or false'."""
    inner = _strip(annotation)
    if get_origin(inner) is Literal:
        return "one of " + ", ".join(str(a) for a in get_args(inner))
    if inner is bool:
        return "true or false"
    return ""


CITATION = "The law (code, chapter, section) or the adopted act this entry comes from."


def _explain(model: type[BaseModel], name: str, annotation: Any) -> str:
    doc = " ".join((field_doc(model, name) or (CITATION if name == "citation" else "")).split())
    words = _words(annotation)
    if name in EXAMPLES:
        words = f"e.g. {EXAMPLES[name]}"
    return " ".join(part for part in (doc, f"({words})" if words else "") if part)


def _empty() -> Any:
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    return DoubleQuotedScalarString("")


def _skeleton(annotation: Any, name: str, indent: int) -> Any:
    """The empty value of a field: "", a list of one empty entry, or a mapping of empty keys."""
    from ruamel.yaml.comments import CommentedSeq

    if name in EXAMPLES:
        return _empty()
    inner = _strip(annotation)
    origin = get_origin(inner)
    if isinstance(origin, type) and issubclass(origin, _DatedList) or origin is list:
        (item,) = get_args(inner) or (Any,)
        entry = _skeleton(item, "", indent + 2)
        seq = CommentedSeq([entry])
        if not isinstance(entry, dict):
            seq.fa.set_flow_style()
        return seq
    if isinstance(inner, type) and issubclass(inner, BaseModel):
        return _mapping(inner, indent=indent + 2)
    return _empty()


#: Keys the short file leaves out (a rules file may add them: docs/rules.md explains each): an entry's last
#: day, and what only some codes have (a limit barred on a finding, a pH time rule, the limits once set).
OMIT = ("effective_to", "source", "applies_when", "excursion_minutes", "limits", "enacted_by")
#: Keys every entry has, explained once in the file's header rather than above each entry.
COMMON = ("citation", "effective_from")


def _mapping(model: type[BaseModel], only: Any = None, indent: int = 0) -> Any:
    """Every field of ``model`` (or ``only`` those: a tuple of names, or a mapping of a name to the names
    of its own section to write, None for all), empty, each explained by a comment above it."""
    from ruamel.yaml.comments import CommentedMap

    out = CommentedMap()
    for name, field in model.model_fields.items():
        if (only is not None and name not in only) or (indent and name in OMIT):
            continue
        inner = only.get(name) if isinstance(only, dict) else None
        section = _strip(field.annotation)
        if inner is not None and isinstance(section, type) and issubclass(section, BaseModel):
            out[name] = _mapping(section, inner, indent=indent + 2)
        else:
            out[name] = _skeleton(field.annotation, name, indent)
        text = "" if name in COMMON else _explain(model, name, field.annotation)
        if text:
            lines = textwrap.wrap(text, WIDTH - indent)
            out.yaml_set_comment_before_after_key(name, before="\n".join(lines), indent=indent)
    return out


def sections(charges: str) -> dict[str, tuple[str, ...] | None]:
    """The sections of a new town's file (and the parts of each written), in the models' order, for its
    charge model."""
    kept = set(CHARGE_SECTIONS.get(charges, ())) | (
        set(CHARGE_SECTIONS["units"]) | set(CHARGE_SECTIONS["volume"]) if charges == "both" else set()
    )
    return {n: SHORT.get(n) for n in Rules.model_fields if n in SHORT or n in kept}


def new_town_text(name: str, charges: str) -> tuple[str, int]:
    """(the starting rules file of town ``name`` charging by ``charges``, how many values it leaves
    to fill in)."""
    from ruamel.yaml import YAML  # round-trip YAML (comments kept): only for this command

    if not re.fullmatch(JURISDICTION_PATTERN, name):
        raise NewTownError(
            f"'{name}' is not a jurisdiction's name: lower-case letters, digits and _, starting "
            f"with a letter (the file is NAME.yaml)"
        )
    if charges not in CHARGE_MODELS:
        raise NewTownError(f"--charges {charges}: not one of {', '.join(CHARGE_MODELS)}")
    from ruamel.yaml.comments import CommentedMap

    data = CommentedMap()
    data["jurisdiction"] = name
    data["name"] = _empty()
    data.yaml_add_eol_comment("the town's name as letters and pages print it", "name")
    data["kind"] = _empty()
    data.yaml_add_eol_comment(
        'Town, City, Village: what a sentence calls it ("the City\'s record"); "" says "municipality"', "kind"
    )
    data["version"] = "0.1"
    data.yaml_add_eol_comment("bump it with every change", "version")
    data["timezone"] = _empty()
    data.yaml_add_eol_comment("the town's time zone, e.g. America/Chicago", "timezone")
    if charges != "none":
        data["charge_model"] = charges
    body = _mapping(Rules, sections(charges))
    for key in body:
        data[key] = body[key]
    comments = body.ca.items
    for key in body:
        if key in comments:
            data.ca.items[key] = comments[key]
    yaml = YAML()
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump(data, out)
    text = out.getvalue()
    count = len(re.findall(r': ""$|- ""|\[""\]', text, flags=re.M))
    return HEADER.format(name=name, charges=charges) + text, count


HEADER = """\
# yaml-language-server: $schema=schema.json
# Rules of {name}, to fill in from the town's ordinances (written by `outfall new-town`, charge model:
# {charges}). The sections a sewer use ordinance usually has are here, each key explained by the comment
# above it; every other section (stormwater, fee schedules, significant noncompliance ...) is explained in
# docs/rules.md, to add where the town's code has it.
#
# - Write each value the ordinance states, with the section it comes from in the entry's `citation`.
# - Leave "" what it does not state: a value left "" is not applied, and an entry or a section left
#   all "" is not stated at all (Outfall reports what it could not judge for want of it). Never copy
#   another town's number.
# - Each entry's `citation` is the section (code, chapter, section) or adopted act it comes from, and
#   `effective_from` the first day it is in effect (YYYY-MM-DD); a date the code does not state is
#   `effective_from: null`. A rule that changes from a day gets a second entry, the first closed with
#   `effective_to` (docs/adopt.md, "When the law changes").
# - An amount the code leaves to another document (an appendix, a resolution) is {{set_by: "..."}}.
# - A list of entries has one to copy; a mapping of the town's own codes is "" with an example.
#
# Check it as `outfall run` will read it, every problem at once, in the order of the file, and what a
# run will need and lack:
#     outfall rules check --rules <this folder>
# The guide from an ordinance to a first run: docs/adopt.md; every key: docs/rules.md.

"""


def write_new_town(name: str, out: Path, charges: str) -> tuple[Path, int]:
    """Write the starting rules file of ``name`` to ``out``; NewTownError (one line) when ``out`` exists or
    cannot be written. Returns (the file, how many values it leaves to fill in)."""
    if out.exists() or out.is_symlink():
        raise NewTownError(f"{out} exists already; a rules file is never overwritten: give a new file")
    text, count = new_town_text(name, charges)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "x", encoding="utf-8") as handle:
            handle.write(text)
    except FileExistsError:
        raise NewTownError(
            f"{out} exists already; a rules file is never overwritten: give a new file"
        ) from None
    except OSError as exc:
        raise NewTownError(f"cannot write {out}: {exc.strerror or exc}") from None
    return out, count
