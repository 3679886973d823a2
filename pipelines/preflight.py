"""What the `outfall` command checks before it starts: its arguments, the data folder, the rules, and one
command per warehouse at a time (its lock), with the run log open for the length of the command. Light:
DuckDB and pydantic are imported by the checks that need them."""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import os
import re
from collections.abc import Iterator
from pathlib import Path

from outfall.ingest.registry import all_datasets
from outfall.runlog import close_log, log_path, open_log
from pipelines.parser import UsageError


def check_data_dir(value: str) -> Path:
    path = Path(value)
    if not path.exists():
        raise UsageError(f"no such data folder: {value}")
    if not path.is_dir():
        raise UsageError(f"the data folder is not a folder: {value}")
    if not os.access(path, os.R_OK | os.X_OK):
        raise UsageError(f"the data folder cannot be read (permission denied): {value}")
    return path.resolve()


def check_warehouse(value: str, must_exist: bool = False) -> Path:
    path = Path(value)
    if path.exists() and path.is_dir():
        raise UsageError(f"the warehouse is a folder, not a file: {value}")
    if must_exist:
        if not path.exists():
            raise UsageError(f"no such warehouse file: {value}")
        return path.resolve()
    parent = path.parent if str(path.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the warehouse folder {parent}: {exc.strerror}") from None
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"the warehouse file is not writable: {value}")
    return path.resolve()


def check_as_of(value: str) -> str:
    if not value:
        return ""
    try:
        return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        raise UsageError(f"--as-of '{value}' is not a date (YYYY-MM-DD)") from None


def check_year(value: str) -> int:
    if not value:
        return 0
    if not value.isdigit() or not 1900 <= int(value) <= 2200:
        raise UsageError(f"--year '{value}' is not a year (YYYY)")
    return int(value)


# What a data folder may hold besides the input folders (docs/letters.md).
DATA_DIR_EXTRAS = ("letterhead.yaml", "letter_templates")


def folder_warnings(data_dir: Path) -> list[str]:
    """Plain warnings about a data folder that is likely not what the user meant: it holds
    none of the input folders, or folders whose names Outfall does not read (a typo?)."""
    import difflib

    known = list(all_datasets())
    entries = sorted(p.name for p in data_dir.iterdir() if p.is_dir() and not p.name.startswith("."))
    unknown = [n for n in entries if n not in known and n not in DATA_DIR_EXTRAS]
    lines = []
    for name in unknown:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        lines.append(f"'{name}' in {data_dir} is not an input folder Outfall reads{hint}; it is left alone")
    if not any(n in known for n in entries):
        lines.append(
            f"{data_dir} holds none of the input folders ({', '.join(known[:4])}, ...: "
            "see docs/inputs.md); the run finds no data and its tables stay empty"
        )
    return lines


CURRENT_LOG: list[Path] = []


@contextlib.contextmanager
def run_log(warehouse: Path) -> Iterator[None]:
    """The run log (outfall.log beside the warehouse) for the length of a command."""
    logger = open_log(warehouse)
    if logger is not None:
        CURRENT_LOG.append(log_path(warehouse))
    try:
        yield
    except Exception:
        if logger is not None:
            logger.exception("outfall stopped on an unexpected error")
        raise
    finally:
        close_log()


@contextlib.contextmanager
def warehouse_lock(path: Path, check_free: bool = True) -> Iterator[None]:
    """One `outfall run` per warehouse at a time: a second one fails at once. ``check_free``: and no other
    program holds the DuckDB file (not for a run that waits in Dagster's queue: the daemon's step may)."""
    lock_path = path.with_name(path.name + ".lock")
    try:
        handle = open(lock_path, "a+")
    except OSError as exc:
        raise UsageError(f"the warehouse file is not writable: {path} ({exc.strerror})") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise UsageError(
            f"the warehouse {path} is in use by another outfall run; wait for it to finish"
        ) from None
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        if check_free:
            _check_duckdb_free(path)
        yield
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


def _check_duckdb_free(path: Path) -> None:
    import duckdb

    try:
        duckdb.connect(str(path)).close()
    except duckdb.IOException as exc:
        text = str(exc).splitlines()[0]
        if "lock" in text.lower():
            raise UsageError(
                f"the warehouse {path} is open in another program (DuckDB lock); close it and retry"
            ) from None
        raise UsageError(f"cannot open the warehouse {path}: {text}") from None
    except duckdb.Error as exc:
        raise UsageError(f"{path} is not a DuckDB warehouse: {str(exc).splitlines()[0]}") from None


def check_partition(value: str) -> str:
    if not value:
        return ""
    if re.fullmatch(r"\d{4}", value) or (re.fullmatch(r"\d{4}-\d{2}", value) and 1 <= int(value[5:]) <= 12):
        return value
    raise UsageError(f"--partition '{value}' is neither a month (YYYY-MM) nor a billing year (YYYY)")


def check_rules(rules: str = ""):
    """Every rules file and the town running Outfall, before any asset starts, as ``python -m outfall.rules
    check`` checks them: a bad file, or a folder that leaves the town open, is a one-line exit 2 (the first
    problem; the check lists them all). ``rules``: the folder --rules names (it becomes the run's
    OUTFALL_RULES_DIR, so that every part of the run reads the same rules)."""
    from outfall.rules import RulesError  # pydantic and the rules' models: not for a usage error
    from outfall.rules.check import load_checked
    from outfall.rules.town import RULES_DIR_VARIABLE, default_rules_dir, default_town

    if rules:
        if not Path(rules).is_dir():
            raise UsageError(f"no such rules folder: {rules}")
        os.environ[RULES_DIR_VARIABLE] = str(Path(rules).resolve())
    try:
        return load_checked(default_rules_dir() or None, default_town())
    except RulesError as exc:
        raise UsageError(str(exc)) from None
