"""Run one command and report its own wall time, CPU time and peak RSS (for benchmarks/ingest.py).

    python -I benchmarks/peak_rss.py FD COMMAND [ARG ...]

Writes one JSON object to the open file descriptor FD once COMMAND has ended: its exit code, wall
seconds, CPU seconds and ``ru_maxrss`` (KiB, from ``wait4``: the command and the children it waited
for). COMMAND's own output goes where this process's does.

Why a process between: on Linux, ``exec`` writes the replaced address space's high-water RSS into the
new program's ``ru_maxrss``. A command started straight from a large benchmark process (by ``fork``, or
by the ``vfork`` that Python's subprocess uses, which shares the parent's memory until the ``exec``)
is therefore reported at least as large as that process: its current size after a ``fork``, its
largest ever after a ``vfork``. This launcher is a small new program, so what the command inherits is
its size only (about 10 MB, the floor of every figure).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    fd, cmd = int(argv[0]), argv[1:]
    t = time.perf_counter()
    proc = subprocess.Popen(cmd)
    # Ctrl-C reaches the command too (the same process group): wait for it and report.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    with os.fdopen(fd, "w") as out:
        json.dump(
            {
                "returncode": proc.returncode,
                "seconds": seconds,
                "cpu_s": usage.ru_utime + usage.ru_stime,
                "maxrss_kib": usage.ru_maxrss,
            },
            out,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
