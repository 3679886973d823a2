"""Failing well: one plain line per failure on the terminal, the whole story in a log.

Every ``outfall`` command that has a warehouse keeps a log beside it,
``outfall.log`` (rotated: at most 2 MB, with three older files
``outfall.log.1`` .. ``.3``). A failed asset is reported on stderr as one line:
what failed, why in plain words and what to do, naming the log; the full
Python trace goes only to the log (``--verbose`` prints it on the terminal
too). No class names, no stack traces on the terminal.

``explain`` turns an error (a Dagster ``SerializableErrorInfo`` chain or an
exception) into that line. It knows the failures a town meets: a full disk or
a file-size limit, a file or folder it may not read or write, DuckDB running
out of memory; anything else keeps its own message, stripped of class names.
"""

from __future__ import annotations

import errno
import logging
import logging.handlers
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

LOG_NAME = "outfall.log"
LOG_MAX_BYTES = 2_000_000
LOG_BACKUPS = 3

_LOGGER = "outfall.run"
# "dagster._core.definitions.events.Failure: ", "duckdb.duckdb.IOException: ", "OSError: " ...
_CLASS_PREFIX = re.compile(
    r"^(?:(?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Failure|Interrupt|Exit)?"
    r"|[A-Z][A-Za-z]*(?: [A-Za-z]+){0,3} Error):\s+"
)  # + DuckDB's "IO Error: ", "Binder Error: "
_DISK_FULL = (
    "no space left on device",
    "file too large",
    "disk quota exceeded",
    "errno 28",
    "errno 27",
    "errno 122",
    "could not write all bytes",
    "not enough space",
)
_NO_MEMORY = ("out of memory", "could not allocate", "memory_limit")
_DENIED = ("permission denied", "errno 13", "read-only file system", "errno 30")
# Ctrl-C (or another stop signal) during a step: Dagster raises DagsterExecutionInterruptedError in
# it, DuckDB an InterruptException when the signal lands inside a statement
_INTERRUPTED = (
    "dagsterexecutioninterruptederror",
    "keyboardinterrupt",
    "interruptexception",
    "interrupt error",
    "query interrupted",
)


def log_path(warehouse: Path) -> Path:
    return Path(warehouse).resolve().parent / LOG_NAME


def open_log(warehouse: Path) -> logging.Logger | None:
    """The run log beside ``warehouse`` (None when it cannot be written: the terminal line says so)."""
    logger = logging.getLogger(_LOGGER)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    try:
        handler = logging.handlers.RotatingFileHandler(
            log_path(warehouse), maxBytes=LOG_MAX_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8"
        )
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    return logger


def close_log() -> None:
    logger = logging.getLogger(_LOGGER)
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()


def run_logger() -> logging.Logger:
    return logging.getLogger(_LOGGER)


# ---------------------------------------------------------------------------
# explaining an error


def _messages(error) -> list[str]:
    """The messages of an error chain, outermost first (SerializableErrorInfo, exception, or a
    message already taken from one)."""
    if isinstance(error, str):
        return [error]
    out: list[str] = []
    seen = 0
    while error is not None and seen < 20:
        seen += 1
        if isinstance(error, BaseException):
            out.append(f"{type(error).__name__}: {error}")
            error = error.__cause__ or error.__context__
        else:
            cls = getattr(error, "cls_name", "") or ""
            message = (getattr(error, "message", "") or "").strip()
            out.append(message if message.startswith(cls) or not cls else f"{cls}: {message}")
            error = getattr(error, "cause", None) or getattr(error, "context", None)
    return out


def plain(message: str) -> str:
    """A message's first meaningful line without class names ("dagster...Failure: x" -> "x")."""
    lines = [ln.strip() for ln in str(message).splitlines() if ln.strip()]
    text = lines[0] if lines else ""
    for _ in range(4):
        stripped = _CLASS_PREFIX.sub("", text)
        if stripped == text:
            break
        text = stripped
    return text.rstrip(".")


def _errno_of(error) -> int | None:
    while error is not None:
        if isinstance(error, OSError) and error.errno:
            return error.errno
        error = getattr(error, "__cause__", None) or getattr(error, "__context__", None)
    return None


def _mb(n: int) -> str:
    return f"{n / 1_000_000:,.0f} MB" if n >= 10_000_000 else f"{n / 1_000_000:,.1f} MB"


def disk_full_line(warehouse: Path) -> str:
    folder = Path(warehouse).resolve().parent
    try:
        free = shutil.disk_usage(folder).free
        free_text = f"{_mb(free)} free"
    except OSError:
        free_text = "free space unknown"
    size = sum(p.stat().st_size for p in folder.glob(Path(warehouse).name + "*") if p.is_file())
    return (
        f"the disk is full (or a file-size limit stopped the write): {free_text} on the disk of the "
        f"warehouse {Path(warehouse).resolve()} ({_mb(size)} with its journal); free some space and run "
        "again, every table is as it was before this step"
    )


@dataclass(frozen=True)
class Explained:
    why: str
    kind: str  # interrupted | disk_full | no_memory | denied | other


def explain(error, warehouse: Path | None = None) -> Explained:
    """Why ``error`` happened, in plain words, with what to do when we know it."""
    messages = _messages(error)
    low = " | ".join(messages).lower()
    code = _errno_of(error) if isinstance(error, BaseException) else None
    if any(k in low for k in _INTERRUPTED):
        return Explained(
            "the run was interrupted (Ctrl-C or a stop signal) while it was running; the tables "
            "are as they were before it, and run again to finish",
            "interrupted",
        )
    if code in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT) or any(k in low for k in _DISK_FULL):
        return Explained(
            disk_full_line(warehouse)
            if warehouse
            else "the disk is full (or a file-size limit stopped the write); free some space and run again",
            "disk_full",
        )
    # Outfall's own errors already say what happened and what to do ("... and run again").
    own = [m for m in messages if "run again" in m.lower() and "the disk is full" not in m.lower()]
    if own and not any(k in low for k in _DISK_FULL):
        return Explained(plain(own[-1]), "denied" if any(k in low for k in _DENIED) else "other")
    if any(k in low for k in _NO_MEMORY):
        return Explained(
            "DuckDB ran out of memory; give it more with the environment variable "
            "OUTFALL_MEMORY_LIMIT (e.g. 2GB) or close other programs, and run again",
            "no_memory",
        )
    if code in (errno.EACCES, errno.EPERM, errno.EROFS) or any(k in low for k in _DENIED):
        where = re.search(r"'(/[^']+)'", " ".join(messages))
        target = f" {where.group(1)}" if where else ""
        return Explained(
            f"permission denied on{target}: Outfall may not read or write it; give the user running "
            "Outfall access to it (or choose another folder) and run again",
            "denied",
        )
    # The most specific message: the innermost one that says something beyond a wrapper.
    wrappers = (
        "error occurred while executing",
        "execution of step",
        "error in asset",
        "error occurred during",
    )
    specific = [m for m in messages if m and not any(w in m.lower() for w in wrappers)]
    return Explained(
        plain(specific[0] if specific else (messages[0] if messages else "unknown error")), "other"
    )


def group_failures(
    failures: Iterable[tuple[str, object]], warehouse: Path | None, most_lines: int = 3
) -> list[tuple[list[str], object]]:
    """One line per failed asset; when there are more than ``most_lines`` (a full disk fails every asset
    that writes after it), failures with the same explanation share a line naming each asset."""
    failures = list(failures)
    if len(failures) <= most_lines:
        return [([step], error) for step, error in failures]
    groups: dict[str, tuple[list[str], object]] = {}
    for step, error in failures:
        why = explain(error, warehouse).why
        groups.setdefault(why, ([], error))[0].append(step)
    return list(groups.values())


def failure_line(steps: str | list[str], error, warehouse: Path | None, log: Path | None) -> str:
    names = [steps] if isinstance(steps, str) else list(steps)
    explained = explain(error, warehouse)
    why = explained.why
    tail = f" (the details are in {log})" if log is not None else ""
    if explained.kind == "interrupted":
        if len(names) == 1:
            return (
                f"outfall: interrupted while the asset {names[0]} was running: its tables are as they were "
                f"before it; run again to finish{tail}"
            )
        return (
            f"outfall: interrupted while the assets {', '.join(names)} were running: their tables are as "
            f"they were before them; run again to finish{tail}"
        )
    if len(names) == 1:
        return f"outfall: asset {names[0]} failed: {why}{tail}"
    return f"outfall: assets {', '.join(names)} failed: {why}{tail}"


def trace_text(error) -> str:
    """The full trace of an error, for the log (and --verbose)."""
    to_string = getattr(error, "to_string", None)
    if callable(to_string):
        return to_string()
    import traceback

    return "".join(traceback.format_exception(error))


def log_step(entry) -> None:
    """A Dagster event of the run (its log record: ``pipelines.runs.run_events``): each step's start and
    end as one INFO line of the run log, so the log shows how far a run got; a killed run's last
    "started" line without its "finished" names the step it was in. Only in the log, never on the
    terminal."""
    event = getattr(entry, "dagster_event", None)
    logger = run_logger()
    if event is None or not logger.handlers:
        return
    if event.is_step_start:
        logger.info("step %s started", event.step_key)
    elif event.is_step_success:
        logger.info("step %s finished", event.step_key)


def log_failures(failures: Iterable[tuple[str, object]]) -> None:
    logger = run_logger()
    for step, error in failures:
        logger.error("asset %s failed:\n%s", step, trace_text(error))
