"""Great Expectations in a second process while `outfall run` goes on.

Importing Great Expectations and validating a town's nine human-entered tables take seconds, all in
one Python thread; the run's other steps are single-threaded too, and these
machines have two cores. So during `outfall run` (``background()``, opened by the CLI) GX runs in
one worker process: it is started as soon as the run sees an input GX will validate, imports GX
while the run goes on, and validates each table's kept rows as soon as its ingestion asset has
committed them (``submit``). The check step then takes the summary (``take``) instead of
validating in its own step.

What is validated is exactly what the step would validate: the same columns of the same kept
rows, read from the warehouse after the ingestion asset's transaction, by the same
``gx_adapter.validate_frame``; only input tables are read, and nothing but their ingestion asset
writes them. Results are keyed by the Dagster run, the warehouse and the dataset, so a result is
only ever used by the run that asked for it. The ingestion step opens ``background()`` itself in a
run of a real instance (the daemon's, the UI's), so the UI's path validates as fast as the command
line's; in the tests' ``materialize`` (an ephemeral instance) nothing is started and every check
validates in its step, as does a check whose worker failed for any reason.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from outfall.paths import EXPECTATIONS_DIR

if TYPE_CHECKING:
    import pandas as pd

    from outfall.gx_adapter import ValidationSummary

Key = tuple[str, str, str]  # (Dagster run id, warehouse database, dataset)

PARENT_POLL_S = 0.5  # how often the worker looks whether the run that started it is still there

_state: dict = {"active": False, "pool": None, "pending": {}}


def _warm(parent: int) -> None:
    """The worker's first task: watch its parent (the run), import GX and build its ephemeral context.
    Ctrl-C reaches the whole process group: the run answers it and closes the pool; the worker, which
    would only print a traceback, ignores it (it is started ignoring it: _ctrl_c_set_aside_for_the_worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent(parent)
    from outfall import gx_adapter  # Great Expectations: imported by the worker, never by the run

    gx_adapter._batch_definition()
    _end_at_once()


def _end_at_once() -> None:
    """When the pool closes, the worker ends without tearing down its modules: Python's exit steps
    (atexit) start with this one, which ends the process there. By then multiprocessing has flushed its
    queues and the worker's output (its own exit steps run before Python's); what is skipped is only
    the teardown of GX, pandas and SciPy, which took the worker 0.8 s, and the run waited for it at
    its end (``_stop``)."""
    atexit.register(os._exit, 0)


def _exit_with_parent(parent: int) -> None:
    """A run killed outright (kill -9) cannot stop its worker: the worker stops itself within half
    a second of its parent's end, instead of waiting forever for work (and holding its memory)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(0)

    threading.Thread(target=watch, name="outfall-parent-watch", daemon=True).start()


def _validate(frame: pd.DataFrame, suite_path: str, parameters: dict | None = None) -> ValidationSummary:
    from outfall.gx_adapter import (
        validate_frame,
    )  # Great Expectations: imported by the worker, never by the run

    return validate_frame(frame, Path(suite_path), parameters)


def worth_starting(data_dir: Path) -> bool:
    """Whether an input folder that Great Expectations validates (one with a suite under
    expectations/) holds a file: only then is a worker process worth starting."""
    for suite in EXPECTATIONS_DIR.glob("*.json"):
        folder = data_dir / suite.stem
        try:
            if folder.is_dir() and any(entry.is_file() for entry in os.scandir(folder)):
                return True
        except OSError:
            continue
    return False


def active() -> bool:
    """Whether validations are taken up by a worker process (inside ``background()``)."""
    return bool(_state["active"])


def _only_thread() -> bool:
    """Whether this process runs one thread only (Linux: its tasks), this one."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


@contextlib.contextmanager
def _ctrl_c_set_aside_for_the_worker() -> Iterator[None]:
    """The worker started ignoring Ctrl-C, from its first instruction: a process started while Ctrl-C
    is ignored ignores it too, and Python then never turns it into KeyboardInterrupt. Without this, a
    Ctrl-C in the moment Python and multiprocessing started up in the worker, before ``_warm`` could
    set it aside, printed the worker's traceback.

    Meanwhile this process holds Ctrl-C back (blocked, not lost: it is answered as soon as the worker
    is started). A blocked signal stays pending only if no other thread could take it, so this is
    done only while this is the process's one thread, as when a run starts its worker; otherwise
    (and on the first submit of a pool already started, or outside the main thread) nothing changes."""
    pool = _state["pool"]
    starting = pool is None or not getattr(pool, "_processes", None)
    if (
        not starting
        or threading.current_thread() is not threading.main_thread()
        or not hasattr(signal, "pthread_sigmask")
        or not _only_thread()
    ):
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _pool() -> ProcessPoolExecutor:
    if _state["pool"] is None:
        # spawn, not fork: the parent holds DuckDB and Dagster threads that must not be copied.
        _state["pool"] = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_warm,
            initargs=(os.getpid(),),
        )
    return _state["pool"]


def start() -> None:
    """Start the worker now (it imports GX while the caller goes on); nothing outside ``background()``."""
    if active():
        with _ctrl_c_set_aside_for_the_worker():
            _pool().submit(int, 0)


def submit(key: Key, frame: pd.DataFrame, suite_path: Path, parameters: dict | None = None) -> None:
    """Validate ``frame`` against ``suite_path`` (with the suite's ``parameters``) in the worker;
    ``take(key)`` gives the summary."""
    if not active():
        return
    try:
        with _ctrl_c_set_aside_for_the_worker():
            _state["pending"][key] = _pool().submit(_validate, frame, str(suite_path), parameters)
    except Exception:  # noqa: BLE001 - a worker that cannot start: the check validates in its step
        _state["pending"].pop(key, None)


def take(key: Key) -> ValidationSummary | None:
    """The summary submitted under ``key`` (waiting for it), or None: the caller validates itself."""
    future: Future | None = _state["pending"].pop(key, None)
    if future is None:
        return None
    try:
        return future.result()
    except Exception:  # noqa: BLE001 - a broken worker or a failed validation: done again in the step
        return None


@contextlib.contextmanager
def background() -> Iterator[None]:
    """Validations of this block may run in a worker process; it is stopped when the block ends."""
    _state["active"] = True
    try:
        yield
    finally:
        _state["active"] = False
        _state["pending"].clear()
        pool, _state["pool"] = _state["pool"], None
        if pool is not None:
            _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what the worker has not started, let it finish what it is doing (by the end of a run it
    is normally idle: the check step took every result) and wait for the pool to close. Not sooner:
    a manager thread left running raced the interpreter's exit and printed a traceback ("Bad file
    descriptor"); a worker terminated while waiting for work left a semaphore behind, and Python
    warned of it on the run's stderr."""
    pool.shutdown(wait=True, cancel_futures=True)
