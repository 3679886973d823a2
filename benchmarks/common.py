"""What the benchmarks share: the `outfall` command in its own process, as a town runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def outfall_env(**extra: str) -> dict[str, str]:
    """The environment of an `outfall` process: this one's, with no analytics and no telemetry."""
    return dict(os.environ, GX_ANALYTICS_ENABLED="false", DAGSTER_DISABLE_TELEMETRY="1", **extra)


def outfall_command(*args: str) -> list[str]:
    """`outfall ARGS` as this interpreter runs it (`python -m outfall`)."""
    return [sys.executable, "-m", "outfall", *args]


def run_command(data: Path, warehouse: Path, as_of: str, *extra: str) -> list[str]:
    """`outfall run` on ``data`` into ``warehouse`` as of ``as_of``, with ``extra`` arguments."""
    return outfall_command(
        "run", "--data", str(data), "--warehouse", str(warehouse), "--as-of", as_of, *extra
    )


def run_outfall(
    cmd: list[str], env: dict[str, str] | None = None, cwd: Path = REPO, timeout: float | None = None
) -> subprocess.CompletedProcess:
    """``cmd`` (an `outfall` command line) to the end, its output captured as text."""
    return subprocess.run(
        cmd,
        cwd=cwd,
        env=outfall_env() if env is None else env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
