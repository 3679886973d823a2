"""Progress on stderr: a live line on a terminal after two seconds; nothing
on a pipe or with --quiet."""

from __future__ import annotations

import io
import time

import pytest

from outfall import progress
from tests.conftest import run_cli


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:  # rich draws live output only on a terminal
        return True


def test_a_pipe_or_quiet_shows_nothing():
    assert not progress.wanted(False, io.StringIO())
    assert not progress.wanted(True, FakeTerminal())
    assert progress.wanted(False, FakeTerminal())
    with progress.shown(quiet=False, stream=io.StringIO()) as display:
        assert display is None
        progress.asset("flow")  # no display: costs nothing, fails nothing
        progress.reading("flow", "a.csv")


def test_a_terminal_sees_the_asset_the_file_and_the_rows(monkeypatch):
    monkeypatch.setattr(progress, "DELAY_S", 0.05)
    terminal = FakeTerminal()
    with progress.shown(quiet=False, stream=terminal) as display:
        assert display is not None
        progress.asset("lab_results")
        progress.reading("lab_results", "q1.csv")
        progress.rows("lab_results", 1200)
        time.sleep(0.8)
        assert "reading lab_results/q1.csv" in display.text and display.rows == 1200
    assert "outfall" in terminal.getvalue() and "1,200 rows read" in terminal.getvalue()


def test_a_short_run_draws_nothing():
    terminal = FakeTerminal()
    with progress.shown(quiet=False, stream=terminal):
        progress.asset("flow")
    assert terminal.getvalue() == ""


@pytest.mark.slow  # the whole run end to end
def test_outfall_run_to_a_pipe_keeps_stderr_empty(tmp_path):
    data = tmp_path / "data"
    (data / "lab_results").mkdir(parents=True)  # an input folder, empty: nothing to warn about either
    started = time.perf_counter()
    result = run_cli(
        "run", "--data", str(data), "--warehouse", str(tmp_path / "w.duckdb"), "--as-of", "2026-06-30"
    )
    elapsed = time.perf_counter() - started
    assert result.returncode == 0 and result.stderr == "", result.stderr
    print(f"outfall run on an empty folder: {elapsed:.1f} s")
