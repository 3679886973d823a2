"""Reading a rules file: YAML to the typed ``Rules``, or one line saying what is wrong.

A bad file raises ``RulesError`` with one line: the file, the line, the entry's
path and what is wrong, in words for the person who edits the file, e.g.

    rules/<town>.yaml, line 331: penalties.sewer_use[0].fine_max_usd: 'five hundred' is not an amount of money

When a file has several problems, the first in the file is named and the count
of the others follows; the error's ``problems`` lists every one, in the order of
the file (``outfall rules check`` prints them all).

A value written as ``""`` is one the law does not state: it is left out, as if
the key were not written. An optional key left out is simply not applied; an
entry or a section whose every value is ``""`` is not stated at all (the section
is absent, and each asset that needs it says so in its output); a required key
left ``""`` in an entry that states other values is a problem, "is empty". The
paths left out are the rules' ``not_stated``.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from outfall.paths import RULES_DIR
from outfall.rules.dated import RulesError, _DatedList
from outfall.rules.implemented import OLD_WORDS
from outfall.rules.models import Rules
from outfall.rules.types import show

# ----------------------------------------------------------------- YAML

_TIMESTAMP = "tag:yaml.org,2002:timestamp"


class _DuplicateKey(yaml.constructor.ConstructorError):
    pass


_BASE = getattr(
    yaml, "CSafeLoader", yaml.SafeLoader
)  # libyaml's parser when present: far faster, and every run reads the rules


class _Loader(_BASE):  # type: ignore[misc, valid-type]
    """Safe YAML that keeps dates as text (the models read them) and refuses a key given twice."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                raise _DuplicateKey(
                    None,
                    None,
                    f"key '{key}' is given twice (first on line {seen[key]}); keep one",
                    key_node.start_mark,
                )
            seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _lines(node: yaml.Node, path: tuple = (), out: dict | None = None) -> dict[tuple, int]:
    """The line (1-based) of every path of the document: (key, index, ...) -> line."""
    out = {} if out is None else out
    out.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            here = path + (key_node.value,)
            out[here] = key_node.start_mark.line + 1
            _lines(value_node, here, out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out[path + (i,)] = item.start_mark.line + 1
            _lines(item, path + (i,), out)
    return out


def read_yaml(text: str, where: str) -> tuple[Any, dict[tuple, int]]:
    """(data, line of each path); RulesError when the text is not YAML."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise RulesError(f"{where}: the file is empty")
        data = loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f", line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if isinstance(exc, _DuplicateKey):
            raise RulesError(f"{where}{line}: {problem}") from None
        raise RulesError(
            f"{where}{line}: not valid YAML: {problem} (check the quotes, brackets and indentation "
            f"of this line and the one before)"
        ) from None
    finally:
        loader.dispose()
    return data, _lines(node)


# ------------------------------------------------------------ messages


def _walk(data: Any, loc: tuple) -> tuple[tuple, Any, Any]:
    """Follow pydantic's ``loc`` through the data, dropping the parts that are not in the file
    (a union's tag, '[key]'). Returns (the file path, the value there, its parent)."""
    path: list = []
    node, parent = data, None
    for part in loc:
        if isinstance(node, dict) and part in node:
            parent, node = node, node[part]
            path.append(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            parent, node = node, node[part]
            path.append(part)
    return tuple(path), node, parent


def path_text(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping (key: value lines)"
    if isinstance(value, list):
        return "a list"
    return show(value)


def _message(error: dict, value: Any) -> str:
    """One pydantic error, in words for the person who edits the file."""
    kind, ctx = error["type"], error.get("ctx") or {}
    given = show(error.get("input"))
    if kind == "rules":
        return error["msg"]
    if kind == "missing":
        return f"missing '{error['loc'][-1]}'"
    if kind == "extra_forbidden":
        return f"unknown key '{error['loc'][-1]}'"
    if kind == "literal_error":
        if error["loc"] and error["loc"][-1] == "[key]":
            return f"{given} is not one of {ctx.get('expected')}"
        return f"{given} is not one of {ctx.get('expected')}"
    if kind == "union_tag_invalid":
        return (
            f"{ctx.get('discriminator', '').strip(chr(39))} {show(ctx.get('tag'))} is not one of "
            f"{ctx.get('expected_tags')}"
        )
    if kind == "union_tag_not_found":
        return f"missing '{ctx.get('discriminator', '').strip(chr(39))}'"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"expected key: value lines here, not {_kind(error.get('input'))}"
    if kind == "list_type":
        return f"expected a list (lines starting with '- '), not {_kind(error.get('input'))}"
    if kind in ("too_short",):
        return (
            "needs at least one entry"
            if ctx.get("min_length") == 1
            else f"needs at least {ctx.get('min_length')} entries"
        )
    if kind in ("string_type",):
        return f"{given} is not text (put it in quotes)"
    if kind in ("bool_type",):
        return f"{given} is not true or false"
    if kind.startswith("int_"):
        return f"{given} is not a whole number"
    if kind.startswith("float_") or kind.startswith("decimal_"):
        return f"{given} is not a number"
    if kind.startswith("date_"):
        return f"{given} is not a date (YYYY-MM-DD, e.g. 2027-01-01)"
    if kind in ("bool_parsing",):
        return f"{given} is not true or false"
    bounds = {
        "greater_than_equal": ("ge", "less than"),
        "greater_than": ("gt", "not more than"),
        "less_than_equal": ("le", "more than"),
        "less_than": ("lt", "not less than"),
    }
    if kind in bounds:
        key, words = bounds[kind]
        return f"{given} is {words} {show(ctx.get(key))}"
    if kind == "string_too_short":
        return "is empty; write the text"
    return str(error.get("msg", "is not valid")).replace("Value error, ", "")


def _problems(
    exc: ValidationError, data: Any, lines: dict[tuple, int], where: str, emptied: set[tuple]
) -> list[tuple[int, tuple, str]]:
    """Every problem of a validation error as (line, path, text), in the order of the file, each once."""
    found = []
    for error in exc.errors(include_url=False):
        path, value, _ = _walk(data, tuple(error["loc"]))
        ctx = error.get("ctx") or {}
        if "index" in ctx:  # an overlap: point at the later entry
            path = path + (ctx["index"],)
        if "sub" in ctx:  # a check of a whole section that names one entry of it
            path = path + tuple(ctx["sub"])
        text = _message(error, value)
        if "key_name" in ctx:  # an unknown key: point at it
            path = path + (ctx["key_name"],)
            line = lines.get(path)
            path = path[:-1]
        elif error["type"] == "missing" and path + (error["loc"][-1],) in emptied:
            # a required key written "": point at it, and say what to do
            line = lines.get(path + (error["loc"][-1],))
            path = path + (error["loc"][-1],)
            if len(path) == 1:
                text = "is empty: fill it in"
            elif path + ("set_by",) in emptied:  # {set_by: ""}: an amount set elsewhere, but where?
                text = 'is empty: write where the law sets the amount (e.g. set_by: "Appendix A")'
            else:
                text = (
                    'is empty: write the law\'s value, or leave every value of this entry "" where the '
                    "law states none"
                )
        else:
            line = lines.get(path) if path else None  # the whole file: no one line to point at
        found.append((line or 0, path, text))
    out, seen = [], set()
    for line, path, text in sorted(found, key=lambda f: f[0]):
        if (path, text) not in seen:
            seen.add((path, text))
            out.append((line, path, text))
    return out


def problem_line(where: str, line: int, path: tuple, text: str) -> str:
    """One problem as a person reads it: "file, line 12: entry.path: what is wrong"."""
    at = f", line {line}" if line else ""
    entry = f"{path_text(path)}: " if path else ""
    return f"{where}{at}: {entry}{text}"


def error_of(problems: list[str]) -> RulesError:
    """The error of a file's problems: the first named, the others counted (``.problems``: all)."""
    more = len(problems) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more > 0 else ""
    return RulesError(problems[0] + tail, problems)


# ---------------------------------------------------------------- loading


def _bind(model: BaseModel, source: str, path: str = "") -> None:
    """Tell every dated list where it is, so that ``.at(day)`` can name it."""
    for name in type(model).model_fields:
        value = getattr(model, name)
        here = f"{path}.{name}" if path else name
        if isinstance(value, _DatedList):
            value.bind(source, here)
            for item in value:
                _bind(item, source, f"{here}[?]")
        elif isinstance(value, BaseModel):
            _bind(value, source, here)


def display_path(path: Path) -> str:
    """The file as a person would type it: relative to the current folder when inside it."""
    try:
        return os.path.relpath(path) if not os.path.relpath(path).startswith("..") else str(path)
    except ValueError:
        return str(path)


def prune_not_stated(data: Any, path: tuple = ()) -> tuple[Any, set[tuple]]:
    """``data`` without the values written ``""`` (what the law does not state), and the paths left out.

    A mapping or list left empty by this is left out too (an entry or a section the law states nothing of);
    one written empty (``rates: []``) stays."""
    emptied: set[tuple] = set()

    def walk(node: Any, here: tuple) -> Any:
        if isinstance(node, dict):
            out = {}
            for key, value in node.items():
                kept = walk(value, here + (key,))
                if kept is _GONE:
                    emptied.add(here + (key,))
                else:
                    out[key] = kept
            return _GONE if node and not out else out
        if isinstance(node, list):
            items = [walk(value, here + (i,)) for i, value in enumerate(node)]
            kept_items = [v for v in items if v is not _GONE]
            return _GONE if node and not kept_items else kept_items
        return _GONE if node == "" else node

    pruned = walk(data, path)
    return ({} if pruned is _GONE else pruned), emptied


_GONE = object()


def parse_rules(text: str, source: Path) -> Rules:
    """Parse and check one rules file's text; RulesError (its first problem, the others counted and listed
    in ``problems``) when it is not usable."""
    where = display_path(source)
    data, lines = read_yaml(text, where)
    if not isinstance(data, dict):
        raise RulesError(f"{where}: expected key: value lines at the top of the file, not {_kind(data)}")
    stated, emptied = prune_not_stated(data)
    try:
        rules = Rules.model_validate(stated)
    except ValidationError as exc:
        found = _problems(exc, stated, lines, where, emptied)
        raise error_of([problem_line(where, *p) for p in found]) from None
    rules._source = source
    rules._sha256 = hashlib.sha256(text.encode()).hexdigest()
    # the outermost paths left out: a section, an entry or a key the law does not state
    rules._not_stated = tuple(
        path_text(p) for p in sorted(emptied, key=lambda p: lines.get(p, 0)) if not _inside(p, emptied)
    )
    rules._notes = tuple(_old_words(stated, lines, where))
    _bind(rules, source.name)
    return rules


def _old_words(data: dict, lines: dict[tuple, int], where: str) -> list[str]:
    """A line for each renamed old word the file still uses (read as the new word)."""
    out = []
    for (group, name), words in OLD_WORDS.items():
        for i, version in enumerate((data.get(group) or {}).get(name) or ()):
            value = version.get("value") if isinstance(version, dict) else None
            if value in words:
                path = (group, name, i, "value")
                out.append(
                    problem_line(
                        where,
                        lines.get(path, 0),
                        path,
                        f"{value!r} is the old word for {words[value]!r}; it is read as {words[value]!r} "
                        f"(write {words[value]!r})",
                    )
                )
    return out


def _inside(path: tuple, paths: set[tuple]) -> bool:
    return any(path[:n] in paths for n in range(1, len(path)))


@lru_cache(maxsize=8)
def _load_cached(path: Path, mtime_ns: int, size: int) -> Rules:
    return parse_rules(path.read_text(encoding="utf-8"), path)


def load_rules(jurisdiction: str, rules_dir: Path | str | None = None) -> Rules:
    """The typed rules of ``jurisdiction`` from ``<rules_dir>/<jurisdiction>.yaml`` (default:
    OUTFALL_RULES_DIR, else the project's ``rules/``). RulesError, one line naming the file, the entry and
    what is wrong, when the file is not usable."""
    path = rules_folder(rules_dir) / f"{jurisdiction}.yaml"
    if not path.is_file():
        raise RulesError(f"no rules file for jurisdiction '{jurisdiction}' at {display_path(path)}")
    stat = path.stat()
    try:
        rules = _load_cached(path.resolve(), stat.st_mtime_ns, stat.st_size)
    except UnicodeDecodeError:
        raise RulesError(f"{display_path(path)}: not a text file (UTF-8)") from None
    if rules.jurisdiction != jurisdiction:
        line = next(
            (
                n
                for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("jurisdiction:")
            ),
            0,
        )
        raise RulesError(
            f"{display_path(path)}, line {line}: jurisdiction: says '{rules.jurisdiction}', but the "
            f"file is the rules of '{jurisdiction}' (its name without .yaml)"
        )
    return rules


def rules_folder(rules_dir: Path | str | None = None) -> Path:
    """The folder of the rules files: ``rules_dir``, else OUTFALL_RULES_DIR, else the project's ``rules/``."""
    return Path(rules_dir or os.environ.get("OUTFALL_RULES_DIR") or RULES_DIR)


def jurisdictions(rules_dir: Path | str | None = None) -> tuple[str, ...]:
    """The jurisdictions of a rules folder: one per ``<jurisdiction>.yaml`` file in it, by name."""
    folder = rules_folder(rules_dir)
    return tuple(sorted(p.stem for p in folder.glob("*.yaml") if p.is_file()))


def files_found(rules_dir: Path | str | None = None) -> str:
    """The rules files of a folder, as a message names them: "a.yaml, b.yaml in rules"."""
    folder = rules_folder(rules_dir)
    names = [f"{j}.yaml" for j in jurisdictions(folder)]
    return f"{', '.join(names) if names else 'no rules file (*.yaml)'} in {display_path(folder)}"


def load_all(rules_dir: Path | str | None = None) -> dict[str, Rules]:
    """The rules of every jurisdiction of the folder (each ``<jurisdiction>.yaml``, by name); RulesError
    when there is none, or when a file is not usable."""
    found = jurisdictions(rules_dir)
    if not found:
        folder = rules_folder(rules_dir)
        where = "no such folder" if not folder.is_dir() else "no rules file (*.yaml) in it"
        raise RulesError(
            f"{display_path(folder)}: {where}; a town's rules are <jurisdiction>.yaml "
            f"(outfall new-town NAME --out {display_path(folder / 'NAME.yaml')} starts one)"
        )
    loaded, problems = {}, []
    for j in found:
        try:
            loaded[j] = load_rules(j, rules_dir)
        except RulesError as exc:
            problems.extend(exc.problems)
    if problems:
        raise error_of(problems)
    return loaded
