"""Progress of an `outfall run` on stderr, for a person watching a terminal.

A run longer than two seconds shows, on one live line drawn by rich, the
asset being materialized, the dataset and file being read and the rows read
so far. `--quiet` silences it, and so does output that is not a terminal
(a pipe, a file, a test): there the run prints nothing extra, so logs and
error messages stay as they are.

Other modules report through the module functions (``asset``, ``reading``,
``rows``); they cost nothing when no display is active.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator

DELAY_S = 2.0  # nothing is drawn for runs shorter than this

_lock = threading.Lock()
_state: dict = {}
_active: Display | None = None


class Display:
    """A rich live line on stderr, started DELAY_S after the run began."""

    def __init__(self, stream=None):
        from rich.console import Console

        self.console = Console(file=stream or sys.stderr, stderr=stream is None)
        self.started = time.monotonic()
        self.live = None
        self.rows = 0
        self.text = "starting"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="outfall-progress", daemon=True)

    def start(self) -> Display:
        self._thread.start()
        return self

    def _loop(self) -> None:
        if self._stop.wait(DELAY_S):
            return
        from rich.live import Live

        with Live(self._render(), console=self.console, refresh_per_second=4, transient=True) as live:
            self.live = live
            while not self._stop.wait(0.25):
                live.update(self._render())

    def _render(self):
        from rich.text import Text

        elapsed = time.monotonic() - self.started
        line = Text(f"outfall {elapsed:5.0f} s  ", style="bold")
        line.append(self.text)
        if self.rows:
            line.append(f"  {self.rows:,} rows read", style="cyan")
        return line

    def update(self, text: str | None = None, rows: int | None = None) -> None:
        if text is not None:
            self.text = text
        if rows is not None:
            self.rows += rows

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)


def wanted(quiet: bool, stream=None) -> bool:
    stream = stream or sys.stderr
    return not quiet and hasattr(stream, "isatty") and stream.isatty()


@contextlib.contextmanager
def shown(quiet: bool = False, stream=None) -> Iterator[Display | None]:
    """Show progress for the duration of the block (when stderr is a terminal and not quiet)."""
    global _active
    if not wanted(quiet, stream):
        yield None
        return
    display = Display(stream).start()
    _active = display
    try:
        yield display
    finally:
        _active = None
        display.stop()


def asset(name: str) -> None:
    if _active is not None:
        _active.update(f"materializing {name}")


def reading(dataset: str, file: str) -> None:
    if _active is not None:
        _active.update(f"reading {dataset}/{file}")


def rows(dataset: str, count: int) -> None:
    if _active is not None:
        _active.update(rows=count)


def listen(entry) -> None:
    """A Dagster event log entry of the run: shows the step (asset or check) starting."""
    if _active is None:
        return
    event = getattr(entry, "dagster_event", None)
    if event is not None and event.is_step_start:
        asset(event.step_key or "")
