"""A starting rules file for another town (``outfall new-town NAME --out rules/NAME.yaml``).

The model is the rules file of the town running Outfall (the project's ``rules/``): the new file has
its sections and keys, in its order, with its comments. The jurisdiction is the new town's; its name
and time zone are left to fill in, and so is every limit, number and citation of the law: each is
emptied (``""``) and commented with the model's value and the model's citation, e.g.

    value: ""    # model: 240 (the sewer use law, ...: BOD in excess of 240 mg/l) - replace with your town's

Such a file does not load until it is filled in: the loader names the first value still empty, with
its line. Kept as they are: the names the code reads (methods, kinds, parameters, units, components,
the readings' words), the effective dates and the calendar's positions (month, day, n), which the
person filling the file checks against the town's own law.
"""

from __future__ import annotations

import io
import re
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from outfall.rules.town import load_town
from outfall.rules.types import JURISDICTION_PATTERN

#: Keys whose values are not the law's numbers or words but names the code reads, dates, or positions.
KEPT = {
    "effective_from",
    "effective_to",
    "method",
    "kind",
    "rule",
    "per",
    "unit",
    "parameter",
    "limit_type",
    "components",
    "zero_components",
    "requires",
    "count",
    "rounding",
    "budget_rate_rounding",
    "rate_sources",
    "month",
    "day",
    "n",
    "weekday",
    "anchor_weekday",
    "anchor_n",
    "sunday_observed_next_day",
    "flag",
    "excluded_flags",
    "business_weekdays",
    "periods",
    "use",
    "in_mall_or_business_park",
    "required",
    "leap_day_year_later",
    "start_when_blank",
    "for_findings",
    "when_status",
    "value",
    "default",
    "by_parameter",
    "trc_excluded_parameters",
    "parameters",
    "mailing",
    "chapter",
    "label",
    "paragraph",
    "name_of_item",
}
#: Keys kept only where their value is a word the code reads (a reading's value); numbers are emptied.
WORD_KEYS = {"value", "default"}


class NewTownError(Exception):
    """Why no file was written: one line."""


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, str):
        try:
            Decimal(value.strip())
        except InvalidOperation:
            return False
        return bool(value.strip())
    return False


def _citation_key(key: str) -> bool:
    return key == "citation" or key.startswith("citation_") or key.endswith("_citation")


class _Emptier:
    """Empties the law's values of a round-trip YAML document, commenting each with the model's."""

    def __init__(self, town_words: tuple[str, ...]):
        self.town_words = town_words
        self.count = 0
        self.first: list[str] = []

    def _names_town(self, text: str) -> bool:
        return any(re.search(rf"\b{re.escape(w)}\b", text) for w in self.town_words)

    def _should_empty(self, key: str, value: Any) -> bool:
        if isinstance(value, bool) or value is None:
            return False
        if key in KEPT and not (key in WORD_KEYS and _is_number(value)):
            return False
        if _citation_key(key):
            return True
        if _is_number(value):
            return True
        return isinstance(value, str) and self._names_town(value)

    def walk(self, node: Any, citation: str | None = None) -> None:
        from ruamel.yaml.comments import CommentedMap, CommentedSeq

        if isinstance(node, CommentedMap):
            here = node.get("citation") if isinstance(node.get("citation"), str) else citation
            emptied = []
            for key in list(node.keys()):
                value = node[key]
                if isinstance(value, (CommentedMap, CommentedSeq)):
                    self.walk(value, here)
                    continue
                if isinstance(value, list) or not self._should_empty(str(key), value):
                    continue
                emptied.append((key, value))
            if emptied and getattr(node, "fa", None) is not None and node.fa.flow_style():
                node.fa.set_block_style()
            for key, value in emptied:
                node[key] = ""
                if _citation_key(str(key)):
                    words = f"model: {value} - replace with your town's section"
                else:
                    source = f" ({here})" if here and here != value else ""
                    words = f"model: {value}{source} - replace with your town's"
                node.yaml_add_eol_comment(words, key)
                self.count += 1
        elif isinstance(node, CommentedSeq):
            for item in node:
                self.walk(item, citation)


def new_town_text(name: str, rules_dir: Path | str | None = None) -> tuple[str, int]:
    """(the starting rules file of town ``name``, how many values it leaves to fill in)."""
    from ruamel.yaml import YAML  # round-trip YAML (comments kept): only for this command

    if not re.fullmatch(JURISDICTION_PATTERN, name):
        raise NewTownError(
            f"'{name}' is not a jurisdiction's name: lower-case letters, digits and _, starting "
            f"with a letter (the file is NAME.yaml)"
        )
    town = load_town(rules_dir or None)
    model = town.town
    text = model.source.read_text(encoding="utf-8")
    body = "\n".join(line for line in _without_header(text.splitlines()))
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    data = yaml.load(body)
    words = tuple(w for w in {model.jurisdiction.title(), *model.name.split()[-1:]} if w)
    emptier = _Emptier(words)
    emptier.walk(data)
    data["jurisdiction"] = name
    for key, words_ in (
        ("name", f"fill in: the town's name as letters print it (model: {model.name})"),
        ("timezone", f"fill in: the town's time zone, e.g. America/Chicago (model: {model.timezone})"),
    ):
        data[key] = ""
        data.yaml_add_eol_comment(words_, key)
        emptier.count += 1
    data["version"] = "0.1"
    out = io.StringIO()
    yaml.dump(data, out)
    header = [
        "# yaml-language-server: $schema=schema.json",
        f"# Rules of {name}, to fill in. Written by `outfall new-town` from the rules of {model.name}",
        f'# ({model.source.name}, version {model.version}): the same sections and keys. Every value left ""',
        "# is yours to fill in: the comment beside it gives the model town's value and citation. Check the",
        "# effective dates too (the model's are kept), and delete a section your town does not apply only",
        "# where the loader allows it (the sewer sections go together). Until every value is filled in, the",
        "# file does not load: `python -m outfall.rules check --rules-dir <this folder>` names the first",
        '# value still empty. The recipe: docs/CONTRIBUTING.md, "Adopt Outfall in another town".',
        "",
    ]
    return "\n".join(header) + out.getvalue(), emptier.count


def _without_header(lines: list[str]) -> list[str]:
    """The lines after the model's opening comment block."""
    for i, line in enumerate(lines):
        if line.strip() and not line.lstrip().startswith("#"):
            return lines[i:]
    return []


def write_new_town(name: str, out: Path, rules_dir: Path | str | None = None) -> tuple[Path, int]:
    """Write the starting rules file of ``name`` to ``out``; NewTownError (one line) when ``out`` exists or
    cannot be written. Returns (the file, how many values it leaves to fill in)."""
    if out.exists() or out.is_symlink():
        raise NewTownError(f"{out} exists already; a rules file is never overwritten: give a new file")
    text, count = new_town_text(name, rules_dir)
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
