"""Great Expectations 1.x, the small way: validate a pandas frame against a suite file.

``validate_frame(frame, suite_path)`` loads ``expectations/<dataset>.json`` (GX 1.x
suite JSON), validates the frame in an ephemeral GX context and returns a
``ValidationSummary`` of plain Python values: success, how many expectations
were evaluated and which failed, with counts a person can read.

- ``great_expectations`` is imported inside the functions that need it (its
  import takes seconds), with ``GX_ANALYTICS_ENABLED=false`` set first.
- One ephemeral context, data source, asset and batch definition per process
  (module-level cache), progress bars off, no data docs, no stores on disk:
  nothing is written anywhere.
- Suites are parsed once per file version (path + modification time).

Functions that only read the JSON (``suite_columns``, ``suite_info``) never import GX.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

SEVERITIES = ("ERROR", "WARN")
_FROM_GX_SEVERITY = {"critical": "ERROR", "warning": "WARN", "info": "WARN"}
EXAMPLES = 5  # unexpected values kept per failed expectation

_lock = threading.Lock()
_state: dict[str, Any] = {}  # context, batch_definition, suites: {(path, mtime): ExpectationSuite}


@dataclass(frozen=True)
class ValidationSummary:
    suite: str
    success: bool
    evaluated: int
    failed: list[dict] = field(default_factory=list)
    element_count: int = 0
    seconds: float = 0.0

    @property
    def failed_count(self) -> int:
        return len(self.failed)

    @property
    def worst_severity(self) -> str | None:
        """ERROR if any failed expectation is ERROR, WARN if only WARNs failed, None if none failed."""
        if not self.failed:
            return None
        return "ERROR" if any(f["severity"] == "ERROR" for f in self.failed) else "WARN"

    def count_by_severity(self) -> dict[str, int]:
        return {s: sum(1 for f in self.failed if f["severity"] == s) for s in SEVERITIES}

    def markdown(self) -> str:
        return failures_markdown(self.failed)


# ---------------------------------------------------------------------------
# reading suite files (no GX import)


def read_suite_json(suite_path: Path) -> dict:
    return json.loads(Path(suite_path).read_text(encoding="utf-8"))


def _condition_columns(node: Any) -> set[str]:
    """Columns named in a serialized GX 1.x row condition (comparison, nullity, and/or)."""
    found: set[str] = set()
    if isinstance(node, dict):
        col = node.get("column")
        if isinstance(col, dict) and isinstance(col.get("name"), str):
            found.add(col["name"])
        for value in node.values():
            found |= _condition_columns(value)
    elif isinstance(node, list):
        for value in node:
            found |= _condition_columns(value)
    return found


def expectation_columns(kwargs: dict) -> list[str]:
    cols: list[str] = []
    for key in ("column", "column_A", "column_B"):
        if isinstance(kwargs.get(key), str):
            cols.append(kwargs[key])
    for key in ("column_list", "column_set"):
        if isinstance(kwargs.get(key), list):
            cols.extend(str(c) for c in kwargs[key])
    cols.extend(sorted(_condition_columns(kwargs.get("row_condition"))))
    return cols


def suite_columns(suite_path: Path) -> list[str]:
    """Every column a suite reads (kwargs and row conditions), in first-use order."""
    seen: dict[str, None] = {}
    for exp in read_suite_json(suite_path).get("expectations", []):
        for col in expectation_columns(exp.get("kwargs", {})):
            seen.setdefault(col, None)
    return list(seen)


def suite_info(suite_path: Path) -> dict:
    """Name, description and counts of a suite, for check descriptions."""
    data = read_suite_json(suite_path)
    exps = data.get("expectations", [])
    return {
        "name": data.get("name"),
        "description": (data.get("meta") or {}).get("description", ""),
        "expectations": len(exps),
        "error": sum(1 for e in exps if _severity(e) == "ERROR"),
        "warn": sum(1 for e in exps if _severity(e) == "WARN"),
        # expectations about the table rather than column values (row counts, column sets):
        # these can fail on an empty table, so an empty table is not skipped
        "table_expectations": sum(1 for e in exps if str(e.get("type", "")).startswith("expect_table_")),
    }


def _severity(exp: dict) -> str:
    meta = exp.get("meta") or {}
    sev = str(meta.get("severity") or "").upper()
    if sev in SEVERITIES:
        return sev
    return _FROM_GX_SEVERITY.get(str(exp.get("severity") or "critical").lower(), "ERROR")


# ---------------------------------------------------------------------------
# GX


def _gx():
    os.environ["GX_ANALYTICS_ENABLED"] = "false"
    import great_expectations as gx

    return gx


def _batch_definition():
    """The process's one ephemeral context and whole-dataframe batch definition."""
    if "batch_definition" not in _state:
        gx = _gx()
        from great_expectations.data_context.types.base import ProgressBarsConfig

        context = gx.get_context(mode="ephemeral")
        context.variables.progress_bars = ProgressBarsConfig(globally=False, metric_calculations=False)
        asset = context.data_sources.add_pandas("outfall_frames").add_dataframe_asset("frame")
        _state["context"] = context
        _state["batch_definition"] = asset.add_batch_definition_whole_dataframe("whole_frame")
    return _state["batch_definition"]


def load_suite(suite_path: Path):
    """The GX ExpectationSuite of a JSON file (cached per path and modification time)."""
    path = Path(suite_path).resolve()
    key = (str(path), path.stat().st_mtime_ns)
    cache = _state.setdefault("suites", {})
    if key not in cache:
        gx = _gx()
        cache[key] = gx.ExpectationSuite(**read_suite_json(path))
    return cache[key]


def validate_frame(
    frame: pd.DataFrame, suite_path: Path, parameters: dict | None = None
) -> ValidationSummary:
    """Validate a pandas DataFrame against the GX 1.x suite in ``suite_path``. ``parameters``: the values of
    the suite's ``{"$PARAMETER": name}`` entries (what only the run knows, e.g. the jurisdictions of the rules
    files found)."""
    started = time.perf_counter()
    with _lock:
        suite = load_suite(suite_path)
        batch = _batch_definition().get_batch(batch_parameters={"dataframe": frame})
        result = batch.validate(
            suite,
            result_format={"result_format": "SUMMARY", "partial_unexpected_count": 20},
            expectation_parameters=parameters or {},
        )
    failed = [_failure(r) for r in result.results if not r.success]
    failed.sort(key=lambda f: (f["severity"] != "ERROR", f["column"], f["expectation"]))
    return ValidationSummary(
        suite=str(suite.name),
        success=bool(result.success),
        evaluated=int(result.statistics.get("evaluated_expectations", len(result.results))),
        failed=failed,
        element_count=int(len(frame)),
        seconds=round(time.perf_counter() - started, 3),
    )


def _failure(r) -> dict:
    config = r.expectation_config
    kwargs = dict(config.kwargs)
    meta = dict(config.meta or {})
    exp = {"meta": meta, "severity": getattr(getattr(config, "severity", None), "value", None)}
    res = r.result or {}
    error = _exception_message(r.exception_info)
    count = res.get("unexpected_count")
    pct = res.get("unexpected_percent")
    examples = _examples(res)
    return {
        "expectation": config.type,
        "column": _column_label(kwargs),
        "condition": _condition_label(kwargs.get("row_condition")),
        "unexpected_count": int(count) if count is not None else None,
        "unexpected_percent": round(float(pct), 3) if pct is not None and not _nan(pct) else None,
        "element_count": res.get("element_count"),
        "unexpected_values": examples,
        "observed_value": _plain(res.get("observed_value")),
        "severity": _severity(exp),
        "description": meta.get("description", ""),
        "error": error,
    }


def _nan(value) -> bool:
    return isinstance(value, float) and math.isnan(value)


def _exception_message(info) -> str | None:
    if not info:
        return None
    items = [info] if "raised_exception" in info else list(info.values())
    for item in items:
        if isinstance(item, dict) and item.get("raised_exception"):
            return str(item.get("exception_message") or "exception while evaluating")
    return None


def _column_label(kwargs: dict) -> str:
    if "column" in kwargs:
        return str(kwargs["column"])
    if "column_list" in kwargs:
        return " + ".join(map(str, kwargs["column_list"]))
    if "column_A" in kwargs and "column_B" in kwargs:
        op = ">=" if kwargs.get("or_equal") else ">"
        return f"{kwargs['column_A']} {op} {kwargs['column_B']}"
    return ""


def _condition_label(cond) -> str:
    if cond is None:
        return ""
    if hasattr(cond, "to_dict") and not isinstance(cond, dict):
        try:
            cond = cond.to_dict()
        except Exception:  # noqa: BLE001
            return str(cond)
    if hasattr(cond, "dict") and not isinstance(cond, dict):
        cond = cond.dict()
    if isinstance(cond, dict):
        col = cond.get("column")
        name = col.get("name") if isinstance(col, dict) else col
        if cond.get("type") == "comparison" or "operator" in cond:
            op = str(cond.get("operator"))
            op = {"IN": "in", "NOT_IN": "not in"}.get(op, op)
            return f"{name} {op} {_plain(cond.get('parameter'))}"
        if "is_null" in cond:
            return f"{name} is {'' if cond['is_null'] else 'not '}null"
        for key, word in (("conditions", " and "),):
            if key in cond:
                return word.join(_condition_label(c) for c in cond[key])
    return str(cond)


def _plain(value):
    """JSON-friendly scalar or list (timestamps and numpy values as text/numbers)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) else value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    text = _time_text(value)
    if text is not None:
        return text
    if hasattr(value, "item"):
        try:
            return _plain(value.item())
        except (ValueError, TypeError):
            pass
    return str(value)


def _time_text(value) -> str | None:
    """Dates and times as ISO text (a midnight without zone as a date), else None."""
    import datetime as dt

    import numpy as np
    import pandas as pd

    if not isinstance(value, (dt.date, np.datetime64, pd.Timestamp)):
        return None
    stamp = pd.Timestamp(value)
    if pd.isna(stamp):
        return None
    if stamp.tzinfo is None and stamp == stamp.normalize():
        return stamp.date().isoformat()
    return stamp.isoformat()


def _examples(res: dict) -> list[str]:
    """A few unexpected values with their counts among the first unexpected rows."""
    counts = res.get("partial_unexpected_counts")
    out: list[str] = []
    if counts:
        for item in counts[:EXAMPLES]:
            out.append(f"{_value_text(item.get('value'))} ({item.get('count')})")
        return out
    for value in (res.get("partial_unexpected_list") or [])[:EXAMPLES]:
        out.append(_value_text(value))
    return out


def _value_text(value) -> str:
    value = _plain(value)
    if value is None:
        return "null"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_value_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " / ".join(_value_text(v) for v in value)
    return str(value)


def failures_markdown(failed: list[dict]) -> str:
    """A markdown table of failed expectations, for check metadata."""
    if not failed:
        return "_every expectation passed_"
    lines = [
        "| severity | column | expectation | where | unexpected rows | % | examples | why it matters |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for f in failed:
        count = f["unexpected_count"]
        examples = (
            "; ".join(f["unexpected_values"])
            if f["unexpected_values"]
            else (f"error: {f['error']}" if f.get("error") else _value_text(f.get("observed_value")) or "")
        )
        pct = "" if f["unexpected_percent"] is None else f"{f['unexpected_percent']:g}"
        row = [
            f["severity"],
            f["column"],
            f["expectation"].removeprefix("expect_"),
            f.get("condition") or "",
            "" if count is None else str(count),
            pct,
            examples,
            f["description"],
        ]
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")
