"""The ingestion benchmark's peak RSS is each measured command's own, not the benchmark's.

On Linux a command started straight from a process inherits, at its ``exec``, that process's
high-water RSS as its own ``ru_maxrss``: every run of the layouts benchmark was once reported as
1,704 MB, the benchmark's own peak. Here the test's process plays the large benchmark."""

from __future__ import annotations

import subprocess
import sys

import pytest

from benchmarks.ingest import REPO, _child

MB = 1 << 20


def test_each_command_is_measured_alone_beside_a_large_parent():
    ballast = b"\x01" * (300 * MB)  # written, so resident: the parent is at least 300 MB
    try:
        trivial = _child([sys.executable, "-c", "pass"])
        large = _child([sys.executable, "-c", f"held = b'\\x01' * {200 * MB}"])
    finally:
        del ballast
    assert trivial["peak_rss_mb"] < 100, trivial
    assert large["peak_rss_mb"] >= 200, large
    assert large["peak_rss_mb"] < 300, large
    assert trivial["seconds"] > 0 and large["cpu_s"] > 0


def test_a_failing_command_stops_the_benchmark_with_its_error():
    with pytest.raises(SystemExit, match="failed \\(3\\)"):
        _child([sys.executable, "-c", "import sys; sys.exit(3)"])
    with pytest.raises(SystemExit, match="could not be measured"):
        _child(["/nonexistent/command"])


def test_the_slug_benchmark_phases_measure_their_own_peak_beside_a_large_parent():
    # each phase reports its own peak from within; the parent here plays the benchmark that generated
    ballast = b"\x01" * (300 * MB)
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from benchmarks.slugs import _rss_mb; print(_rss_mb())"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        )
    finally:
        del ballast
    assert float(done.stdout) < 100, done.stdout
