"""The `outfall` command as a shell starts it (the console script, `python -m outfall`).

It runs ``pipelines.cli.main`` and then ends the process as soon as Python's exit steps are done (atexit:
the loggers closed, temporary folders removed, child processes joined), without tearing down every
module the run imported: Dagster, DuckDB, pandas and pydantic, about 1,700 modules, took 0.7 s to tear
down at the end of every command on this machine, after its work was done and its output written.
Code that calls ``pipelines.cli.main`` itself (the tests) keeps its process as it is.
"""

from __future__ import annotations

import atexit
import os
import sys

_exit_code = [1]  # what the command returned; 1 if it raised


def _end_without_teardown() -> None:
    """Python's last exit step (registered before any other, so it runs after them): the output
    flushed, the process ended with the command's status."""
    if "logging" in sys.modules:  # its own exit step ran if it was imported after ours; again is harmless
        sys.modules["logging"].shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more can be written to it
            pass
    os._exit(_exit_code[0])


def main() -> int:
    atexit.register(_end_without_teardown)
    from pipelines.cli import main as command  # after the registration: its exit steps run first

    try:
        _exit_code[0] = command()
    except SystemExit as stop:  # `-h` and `--help` end this way, with 0
        _exit_code[0] = 0 if stop.code is None else stop.code if isinstance(stop.code, int) else 1
        raise
    return _exit_code[0]
