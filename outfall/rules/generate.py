"""What is generated from the rules: ``rules/schema.json`` (from the models) and
``docs/rules.md`` (from the rules files), both checked in and both checked by a
test that fails when they are stale. Regenerate with
``python -m outfall.rules schema`` and ``python -m outfall.rules docs``.
"""

from __future__ import annotations

import ast
import datetime as dt
import inspect
import json
import sys
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, get_args

from pydantic import BaseModel

from outfall.rules.dated import Dated, Entries, Versions, period_text
from outfall.rules.models import Rules, TiersRule


def rules_models() -> dict[str, type[BaseModel]]:
    """Every model a rules file is made of, by class name: ``Rules`` and the models of its fields, and of
    theirs, and the classes they inherit from; only those of ``outfall.rules``."""
    out: dict[str, type[BaseModel]] = {}

    def visit(annotation: Any) -> None:
        for arg in get_args(annotation):
            visit(arg)
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return
        for cls in annotation.__mro__:
            if (
                isinstance(cls, type)
                and issubclass(cls, BaseModel)
                and cls.__name__ not in out
                and cls.__module__.split(".")[:2] == ["outfall", "rules"]
            ):
                out[cls.__name__] = cls
                for field in cls.model_fields.values():
                    visit(field.annotation)

    visit(Rules)
    return out


@lru_cache(maxsize=1)
def field_docs() -> dict[str, dict[str, str]]:
    """The attribute docstrings of the rules' models, {class name: {field: docstring}}, read from the
    source of every module that defines one (the fields' descriptions in the schema and the docs)."""
    modules = sorted({sys.modules[cls.__module__].__file__ for cls in rules_models().values()})
    out: dict[str, dict[str, str]] = {}
    for module in modules:
        for node in ast.parse(Path(module).read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.ClassDef):
                continue
            docs = out.setdefault(node.name, {})
            for stmt, following in zip(node.body, node.body[1:]):
                if (
                    isinstance(stmt, ast.AnnAssign)
                    and isinstance(stmt.target, ast.Name)
                    and isinstance(following, ast.Expr)
                    and isinstance(following.value, ast.Constant)
                    and isinstance(following.value.value, str)
                ):
                    docs[stmt.target.id] = inspect.cleandoc(following.value.value)
    return out


def field_doc(model: type[BaseModel], name: str) -> str | None:
    """The docstring of field ``name`` of ``model`` (or of the class it inherits it from)."""
    for cls in model.__mro__:
        doc = field_docs().get(cls.__name__, {}).get(name)
        if doc:
            return doc
    return model.model_fields[name].description if name in model.model_fields else None


def _describe(node: dict[str, Any], model: type[BaseModel]) -> None:
    for name, prop in (node.get("properties") or {}).items():
        doc = field_doc(model, name)
        if doc:  # the field's own words first, then its type's (e.g. "US dollars, at most 2 decimal places")
            kind = prop.get("description")
            prop["description"] = doc if not kind or kind == doc else f"{doc} {kind}"


def _optional_is_absent(node: Any) -> None:
    """An optional key is one that may be left out, not one that may be null: drop the null
    alternative (so an editor flags the wrong value itself, not the whole section)."""
    if isinstance(node, dict):
        required = set(node.get("required", ()))
        for name, prop in (node.get("properties") or {}).items():
            options = prop.get("anyOf")
            if name not in required and options and {"type": "null"} in options and len(options) == 2:
                inner = next(o for o in options if o != {"type": "null"})
                del prop["anyOf"]
                if prop.get("default", 0) is None:
                    del prop["default"]
                prop.update({k: v for k, v in inner.items() if k not in prop})
        for value in node.values():
            _optional_is_absent(value)
    elif isinstance(node, list):
        for value in node:
            _optional_is_absent(value)


def schema() -> dict[str, Any]:
    """The JSON Schema of a rules file, generated from the models."""
    out: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    out.update(Rules.model_json_schema(mode="validation"))
    # A null that means something is a value of its type (types.FlagOrNull: "type": ["boolean", "null"]),
    # which _optional_is_absent leaves alone.
    classes = rules_models()
    _optional_is_absent({k: v for k, v in out.items() if k != "$defs"})
    _describe(out, Rules)
    for name, definition in out.get("$defs", {}).items():
        if name in classes:
            _optional_is_absent(definition)
            _describe(definition, classes[name])
    out["title"] = "Outfall rules file (rules/<jurisdiction>.yaml)"
    out["description"] = (
        "The rules of one jurisdiction: every limit, schedule, deadline and penalty, each entry "
        "with its citation and effective dates. Generated from the models of outfall/rules/ by "
        "`python -m outfall.rules schema`; do not edit by hand."
    )
    return out


def schema_text() -> str:
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


# ============================================================ docs/rules.md

TITLES = {
    "discharge_limits": "Discharge limits (each sample)",
    "table_7_1": "Limits left to a body (the model town's shape)",
    "nondetect_averaging": "Non-detects in daily and monthly averages",
    "readings": "Readings of ambiguous law",
    "readings_sewer_compliance": "Readings of the sewer use law (compliance)",
    "readings_enforcement": "Readings of the enforcement law",
    "slug": "Slug discharges",
    "infiltration": "Infiltration",
    "sewer_units": "Sewer units (the billing schedule)",
    "billing": "Bill arithmetic",
    "swppp": "Stormwater inspections and notices (SWPPP)",
    "penalties": "Penalties",
    "notices": "Sewer notices and reports: deadlines",
    "snc": "Significant noncompliance",
    "surcharge": "Surcharges",
    "charge_model": "How sewer use is charged",
    "vocabulary": "The codes of the input files",
    "volume_charges": "Sewer charges by volume",
    "fee_schedules": "Fee schedules",
    "sewer_compliance": "Rule texts of the compliance findings",
    "sewer_enforcement": "Sewer enforcement letters",
    "grease_interceptors": "Grease interceptors",
    "business_days": "Business days and public holidays",
    "deadline_extension": "Deadlines that end on a weekend or holiday",
    "illicit_discharges": "Illicit discharges",
    "post_construction": "Post-construction stormwater practices",
    "inspection_fees": "Water and sewer inspection fees",
    "required_testing": "Required testing (monitoring requirements)",
    "worklist": "What to do next: the week of actions due",
    "own_names": "The municipality's own names (it serves itself no notice)",
}

INTRO = """\
# The rules, as the pipeline applies them

Generated from the rules files in `rules/` by `python -m outfall.rules docs`: do not edit
this page by hand (a test fails when it is stale). To change a rule, follow the recipes in
[CONTRIBUTING.md](CONTRIBUTING.md#recipes).

How to read it. Each rule shows its values, where they come from (the citation) and the days it is in effect,
both days included; "with no end date" means it is still in effect. When a rule changes by local law, the file
keeps the old version (closed with its last day) and adds the new one, so a violation, an inspection or a bill
is judged by the version in effect on its own day. A value the law leaves to the Town and that no one has
adopted is shown as "none adopted": the pipeline then reports what it can and says so, it never uses a guess.

The rules files are checked when they are read: `outfall run` stops before doing anything, with one line
naming the file, the line, the entry and what is wrong, when a file has a mistake. Editors that understand
the YAML language server check a file as it is typed, against `rules/schema.json`.
"""


def _words(text: str | None) -> str:
    return " ".join((text or "").split())


def _description(model: type[BaseModel], name: str) -> str:
    return _words(field_doc(model, name)).rstrip(".") or name.replace("_", " ")


def _value(value: Any, name: str = "usd") -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal) and "usd" not in name:  # a rate, a factor: not money
        return str(value)
    if isinstance(value, Decimal):
        return f"${value:,.2f}" if value == value.quantize(Decimal("0.01")) else f"${value}"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_value(v)}" for k, v in value.items()) if value else "none"
    if isinstance(value, BaseModel):
        return "; ".join(f"{k}: {_value(v, k)}" for k, v in value if v is not None and k != "citation")
    return str(value)


def _cell(text: str) -> str:
    return _words(text).replace("|", "\\|")


def _fields(model: BaseModel, indent: str = "") -> list[str]:
    """Bullets: one per value of ``model`` other than its dates and citation."""
    lines = []
    for name in type(model).model_fields:
        if name in ("citation", "effective_from", "effective_to"):
            continue
        value = getattr(model, name)
        if value is None:
            continue
        label = _description(type(model), name)
        if isinstance(value, BaseModel):
            lines.append(f"{indent}- {label} (`{name}`):")
            lines += _fields(value, indent + "  ")
            if "citation" in type(value).model_fields:
                lines.append(f"{indent}  - Citation: {_words(value.citation)}")
        elif isinstance(value, (list, tuple)) and value and isinstance(value[0], BaseModel):
            lines.append(f"{indent}- {label} (`{name}`):")
            lines += [f"{indent}  - {_value(item)}" for item in value]
        elif isinstance(value, str) and len(value) > 100:
            lines.append(f'{indent}- {label} (`{name}`): "{_words(value)}"')
        else:
            lines.append(f"{indent}- {label} (`{name}`): **{_value(value, name)}**")
    return lines


def _version(item: Dated, where: str) -> list[str]:
    return [f"*In effect {period_text(item)}* ({_words(item.citation)})", "", *_fields(item), ""]


def _versions(versions: Versions, where: str) -> list[str]:
    lines = []
    for item in versions:
        lines += _version(item, where)
    return lines


def _limits(entries: Entries, empty: str) -> list[str]:
    if not entries:
        return [empty, ""]
    lines = ["| parameter | limit | value | in effect | citation |", "|---|---|---|---|---|"]
    for lim in entries:
        value, unit = lim.as_written
        kind = {
            "max": "at most",
            "min": "at least",
            "daily_max": "daily maximum",
            "monthly_avg": "monthly average",
        }
        adopted = f" (adopted by {lim.adopted_by})" if getattr(lim, "adopted_by", None) else ""
        lines.append(
            f"| {lim.parameter} | {kind.get(lim.limit_type, lim.limit_type)} | {_value(value)} {unit} | "
            f"{lim.period_text()} | {_cell(lim.citation)}{_cell(adopted)} |"
        )
    return [*lines, ""]


def _readings(group: BaseModel) -> list[str]:
    lines = ["| reading | value | in effect | citation |", "|---|---|---|---|"]
    for name, versions in group:
        if versions is None:
            continue
        for item in versions:
            lines.append(
                f"| `{name}`: {_cell(_description(type(group), name))} | {_cell(_value(item.value))} | "
                f"{item.period_text()} | {_cell(item.citation)} |"
            )
    return [*lines, ""]


def _units(versions: Versions) -> list[str]:
    lines = []
    for units in versions:
        lines += [f"*In effect {units.period_text()}* ({_words(units.citation)})", ""]
        lines.append(f"- Components billed: **{_value(units.components)}**")
        if units.districts is not None:
            names = "; ".join(f"{code}: {name}" for code, name in units.districts.names.items())
            lines.append(f"- Districts: **{_cell(names)}** ({_words(units.districts.citation)})")
        lines.append(
            f"- Property without service (sewer moratorium) is not charged: "
            f"**{_value(units.moratorium.zero_components)}** ({_words(units.moratorium.citation)})"
        )
        lines += ["", "| property class | rule | numbers |", "|---|---|---|"]
        for name, rule in units.classes.items():
            numbers = []
            for field in type(rule).model_fields:
                value = getattr(rule, field)
                if field in ("label", "method") or value is None or value == []:
                    continue
                if isinstance(rule, TiersRule) and field == "tiers":
                    value = ", ".join(
                        f"up to {t.max}: {t.units}" if t.max is not None else f"more: {t.units}"
                        for t in rule.tiers
                    )
                numbers.append(f"{field}: {_value(value)}")
            lines.append(f"| {name} | {_cell(rule.label)} ({rule.method}) | {_cell('; '.join(numbers))} |")
        lines.append("")
    return lines


def _section(rules: Rules, name: str) -> list[str]:
    value = getattr(rules, name)
    lines = [f"### {TITLES.get(name, name)} (`{name}`)", ""]
    doc = _words(field_doc(Rules, name))
    if isinstance(value, str):  # a word the code reads (charge_model)
        lines += [doc, "", f"**{value}**", ""]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):  # names (own_names)
        lines += [doc, ""] + [f"- {v}" for v in value] + ([] if value else ["None."]) + [""]
    elif name == "discharge_limits":
        lines += [doc.rstrip(".") + ". A result above an upper limit (or below a lower one) breaks it.", ""]
        lines += _limits(value, "None.")
    elif name == "table_7_1":
        lines += [
            _words(type(value).__doc__),
            "",
            f"*Provision in effect {value.period_text()}* ({_words(value.citation)})",
            "",
        ]
        by = f" by {value.set_by}" if value.set_by else ""
        lines += _limits(
            value.limits,
            f"**None adopted{by}.** A limit takes effect when an entry "
            "naming the act that adopted it (`adopted_by`) is added under "
            "`table_7_1.limits`.",
        )
    elif name.startswith("readings"):
        lines += [_words(type(value).__doc__), ""] + _readings(value)
    elif name == "sewer_units":
        lines += [_words(value[0].__doc__), ""] + _units(value)
    elif name == "surcharge":
        lines += [
            _words(type(value).__doc__),
            "",
            "#### How the pounds are computed (`surcharge.method`)",
            "",
        ]
        lines += _versions(value.method, "surcharge.method") if value.method else ["None.", ""]
        lines += ["#### Rates per pound (`surcharge.rates`)", ""]
        if not value.rates:
            by = f" by {value.rates_set_by}" if value.rates_set_by else ""
            lines += [
                f"**None adopted{by}.** The surcharges table reports the pounds and says that "
                "no rate is adopted; no amount is charged. A rate takes effect when an entry naming the act "
                "that adopted it (`adopted_by`) is added under `surcharge.rates`.",
                "",
            ]
        for rate in value.rates:
            usd = rate.usd_per_lb
            said = usd.words() if hasattr(usd, "set_by") else f"{_value(usd)} per pound"
            adopted = f", adopted by {rate.adopted_by}" if rate.adopted_by else ""
            when = f"in effect {rate.period_text()} ({_words(rate.citation)})"
            lines += [f"- {rate.parameter}: **{said}**{adopted}, {when}"]
        lines += [""] if value.rates else []
        for part in ("thresholds", "per_volume", "per_strength", "per_flow", "multipliers", "permit"):
            if getattr(value, part):
                label = _words(field_doc(type(value), part)).rstrip(".")
                lines += [f"#### {label} (`surcharge.{part}`)", ""] + _versions(
                    getattr(value, part), f"surcharge.{part}"
                )
    elif isinstance(value, Versions):
        lines += [_words(doc or value[0].__doc__), ""] + _versions(value, name)
    elif not any(isinstance(getattr(value, f), Versions) for f in type(value).model_fields):  # one mapping
        citation = getattr(value, "citation", None)
        lines += [_words(doc or type(value).__doc__), ""]
        lines += [f"*{_words(citation)}*", ""] if citation else []
        lines += [*_fields(value), ""]
    else:  # a section of named parts
        lines += [_words(type(value).__doc__), ""]
        for part in type(value).model_fields:
            versions = getattr(value, part)
            if versions is None:
                continue
            label = _words(field_doc(type(value), part)) or _words(versions[0].__doc__)
            lines += [f"#### {label.rstrip('.')} (`{name}.{part}`)", ""] + _versions(
                versions, f"{name}.{part}"
            )
    return lines


# ============================================================ every key, for any town

REFERENCE = """\
## Every key of a rules file, and the words it takes

What follows is written from the models, not from any town's file: each section a rules file may have, in
the order of the file, and each of its keys with what it means and the values or words it takes. A section
or a key a town's code does not state is left out of its file (or written `""`): whatever needs it is then
not judged, and says so. An entry of a dated list has a `citation` (the section of the law or the adopted
act it comes from) and `effective_from` (its first day; `null` where the code does not state it), and may
have `effective_to` (its last day). An amount (dollars) may be written `{set_by: "..."}` where the code sets
it in another document (an appendix, a resolution): it is then shown as set there, never as 0.
"""


def _takes(model: type[BaseModel], name: str) -> str:
    """The values or words a key takes, in words: 'one of a, b', 'true or false', 'a list of entries' ..."""
    from typing import Literal, Union, get_origin

    field = model.model_fields[name]
    for meta in field.metadata:
        schema = getattr(meta, "json_schema", None)
        if isinstance(schema, dict) and schema.get("enum"):
            return "the word " + ", or ".join(
                f"`{str(w).lower() if isinstance(w, bool) else w}`" for w in schema["enum"]
            )
    annotation = field.annotation
    while True:
        origin = get_origin(annotation)
        args = [a for a in get_args(annotation) if a is not type(None)]
        if origin is Annotated and args:
            meta = getattr(annotation, "__metadata__", ())
            for m in meta:
                schema = getattr(m, "json_schema", None)
                if isinstance(schema, dict) and schema.get("enum"):
                    return "the word " + ", or ".join(f"`{w}`" for w in schema["enum"])
            annotation = args[0]
            continue
        if origin in (Union, UnionType) and len(args) == 1:
            annotation = args[0]
            continue
        break
    origin = get_origin(annotation)
    args = [a for a in get_args(annotation) if a is not type(None)]
    if origin is Literal:
        return "one of " + ", ".join(f"`{a}`" for a in args)
    if origin in (Union, UnionType) and any(
        getattr(a, "__name__", "") == "SetElsewhere" for a in _flat(args)
    ):
        return "an amount in dollars, or `{set_by: ...}`"
    if annotation is bool:
        return "true or false"
    if isinstance(origin, type) and issubclass(origin, (Versions, Entries)):
        return "a list of dated entries"
    if origin is list:
        return "a list"
    if origin is dict:
        return "a mapping"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "a section of keys"
    if origin in (Union, UnionType):
        return "one of several shapes (see the keys below)"
    return {str: "text", float: "a number", int: "a whole number", dt.date: "a date (YYYY-MM-DD)"}.get(
        annotation, "a value"
    )


def _flat(args: Any) -> list:
    out = []
    for a in args:
        inner = get_args(a)
        out += _flat(inner) if inner and getattr(a, "__metadata__", None) is not None else [a]
    return out


def _item_model(model: type[BaseModel], name: str) -> type[BaseModel] | None:
    """The model of the key's entries or section, when it has keys of its own."""
    stack = [model.model_fields[name].annotation]
    while stack:
        annotation = stack.pop()
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return annotation
        stack += list(get_args(annotation))
    return None


def _reference_keys(model: type[BaseModel], path: str, depth: int, seen: set) -> list[str]:
    lines = []
    indent = "  " * depth
    for name in model.model_fields:
        if name in ("citation", "effective_from", "effective_to") and depth:
            continue
        doc = _words(field_doc(model, name)) or (
            "The section of the law (code, chapter, section) or the adopted act it comes from."
            if name == "citation"
            else name.replace("_", " ")
        )
        lines.append(f"{indent}- `{name}` ({_takes(model, name)}): {doc}")
        inner = _item_model(model, name)
        if (
            inner is not None
            and inner.__name__ not in seen
            and depth < 3
            and inner.__name__ != "SetElsewhere"
        ):
            lines += _reference_keys(inner, f"{path}.{name}", depth + 1, seen | {inner.__name__})
    return lines


def reference_text() -> str:
    """Every section and key of a rules file, from the models: what each means and the words it takes."""
    lines = [REFERENCE]
    for name in Rules.model_fields:
        if name in ("jurisdiction", "name", "version", "timezone"):
            continue
        doc = _words(field_doc(Rules, name))
        lines += [f"### `{name}`: {TITLES.get(name, name.replace('_', ' '))}", ""]
        inner = _item_model(Rules, name)
        lines += [doc or _words(inner.__doc__ if inner is not None else ""), ""]
        lines += [f"Takes {_takes(Rules, name)}.", ""]
        if inner is not None:
            lines += _reference_keys(inner, name, 0, {inner.__name__}) + [""]
    return "\n".join(lines)


def docs_text(rules_by_jurisdiction: dict[str, Rules]) -> str:
    lines = [INTRO]
    for rules in rules_by_jurisdiction.values():
        lines += [f"## {rules.name} (its rules file, version {rules.version})", ""]
        lines += [f"Dates and days are local to {rules.timezone}.", ""]
        for name in type(rules).model_fields:
            if name in ("jurisdiction", "name", "version", "timezone") or getattr(rules, name) is None:
                continue
            lines += _section(rules, name)
    lines += [reference_text()]
    text = "\n".join(lines).rstrip("\n") + "\n"
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text
