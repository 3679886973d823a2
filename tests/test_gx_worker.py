"""Great Expectations in a second process during `outfall run` (outfall.gx_worker): nothing is
started outside a run, a worker's summary is the one the step would have computed, and a worker
that fails leaves the step to validate by itself."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path

import pandas as pd
import pytest

from outfall import gx_worker
from outfall.gx_adapter import validate_frame
from outfall.paths import EXPECTATIONS_DIR
from tests.conftest import REPO

SUITE = EXPECTATIONS_DIR / "rainfall.json"


def _frame() -> pd.DataFrame:
    days = pd.to_datetime(["2026-05-01", "2026-05-02", "2026-05-03"]).date
    return pd.DataFrame({"gauge_id": ["G-1", "G-1", "G-1"], "date": days, "precip_in": [0.2, 0.5, -1.0]})


def test_nothing_is_started_outside_a_run():
    assert not gx_worker.active()
    gx_worker.start()
    gx_worker.submit(("run", "w.duckdb", "rainfall"), _frame(), SUITE)
    assert gx_worker._state["pool"] is None
    assert gx_worker.take(("run", "w.duckdb", "rainfall")) is None


def test_a_failed_worker_leaves_the_check_to_validate_in_its_step():
    with gx_worker.background():
        failed: Future = Future()
        failed.set_exception(RuntimeError("the worker died"))
        gx_worker._state["pending"][("run", "w.duckdb", "rainfall")] = failed
        assert gx_worker.take(("run", "w.duckdb", "rainfall")) is None
        assert gx_worker.take(("run", "w.duckdb", "rainfall")) is None  # taken once
    assert gx_worker._state["pending"] == {} and not gx_worker.active()


def test_the_worker_ends_without_tearing_down_its_modules(monkeypatch):
    registered = []
    monkeypatch.setattr(gx_worker.atexit, "register", lambda f, *args: registered.append((f, args)))
    gx_worker._end_at_once()
    assert registered == [(os._exit, (0,))]


@pytest.mark.slow
def test_the_worker_gives_the_summary_the_step_would_compute():
    frame = _frame()
    with gx_worker.background():
        gx_worker.start()
        gx_worker.submit(("run-1", "w.duckdb", "rainfall"), frame, SUITE)
        from_worker = gx_worker.take(("run-1", "w.duckdb", "rainfall"))
        assert gx_worker.take(("run-2", "w.duckdb", "rainfall")) is None  # another run's key: nothing
        workers = list(gx_worker._state["pool"]._processes.values())
    assert gx_worker._state["pool"] is None
    assert [w.exitcode for w in workers] == [0]  # ended at once (_end_at_once), and as a success
    here = validate_frame(frame, SUITE)
    assert from_worker is not None
    assert (from_worker.success, from_worker.evaluated, from_worker.element_count) == (
        here.success,
        here.evaluated,
        here.element_count,
    )
    assert from_worker.failed == here.failed
    assert not here.success  # the planted negative rainfall is found, in both


@pytest.mark.slow
def test_the_worker_of_a_killed_run_does_not_outlive_it(tmp_path):
    """kill -9 of the run leaves no Great Expectations process behind (regression: the worker of a
    killed run waited forever for work, holding its memory)."""
    script = (
        "import time\n"
        "from outfall import gx_worker\n"
        "with gx_worker.background():\n"
        "    gx_worker.start()\n"
        "    print(list(gx_worker._state['pool']._processes), flush=True)\n"
        "    time.sleep(60)\n"
    )
    run = subprocess.Popen([sys.executable, "-c", script], cwd=REPO, stdout=subprocess.PIPE, text=True)
    worker = int(run.stdout.readline().strip("[]\n"))
    assert _alive(worker)
    run.send_signal(signal.SIGKILL)
    run.wait()
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(worker)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_suite_that_cannot_be_read_never_fails_the_ingestion(tmp_path, monkeypatch):
    """Handing a table to the worker is a side errand of its ingestion asset: a suite that cannot be
    read leaves the check step to validate (and report the problem), the ingestion goes on."""
    import duckdb
    from dagster_duckdb import DuckDBResource

    from assets import checks

    db = tmp_path / "w.duckdb"
    con = duckdb.connect(str(db))
    con.execute(
        "CREATE TABLE rainfall AS SELECT 'G-1' AS gauge_id, DATE '2026-05-01' AS date, 0.2 AS precip_in"
    )

    def unreadable(path):
        raise ValueError(f"{path} is not JSON")

    monkeypatch.setattr(checks, "suite_columns", unreadable)
    with gx_worker.background():
        checks.validate_in_background("run", DuckDBResource(database=str(db)), con, "rainfall")
        assert gx_worker._state["pending"] == {} and gx_worker._state["pool"] is None
    con.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    "work",
    [
        "",
        "    gx_worker.submit(('r', 'w', 'rainfall'), _frame(), SUITE)\n"
        "    assert gx_worker.take(('r', 'w', 'rainfall')) is not None\n",
    ],
    ids=["ends while the worker imports", "ends with the worker idle"],
)
def test_a_run_ends_with_nothing_on_stderr_from_its_worker(work):
    """Regressions: a run that ended while its worker was busy printed a traceback from the pool's
    manager thread at exit ("Bad file descriptor"); a worker terminated while idle left a semaphore,
    and Python warned of it ("leaked semaphore objects") on the run's stderr."""
    script = (
        "from tests.test_gx_worker import SUITE, _frame\n"
        "from outfall import gx_worker\n"
        "with gx_worker.background():\n"
        "    gx_worker.start()\n" + work + "print('done', flush=True)\n"
    )
    for _ in range(2):
        run = subprocess.run(
            [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120
        )
        assert run.returncode == 0 and run.stdout == "done\n", run.stderr
        assert run.stderr == ""


@pytest.mark.slow
@pytest.mark.parametrize("after_s", [0.0, 1.0], ids=["as-the-worker-starts", "while-it-imports-gx"])
def test_ctrl_c_is_answered_by_the_run_not_by_its_worker(after_s):
    """Ctrl-C reaches every process of the terminal's group; the worker ignores it and the run, which
    answers it, closes the pool: nothing from the worker on stderr (regression: its traceback, while
    it imported GX; and, at once, in the moment it started, before its first task could set Ctrl-C
    aside: it is now started ignoring Ctrl-C, from its first instruction)."""
    script = (
        "import time\nfrom outfall import gx_worker\ntry:\n    with gx_worker.background():\n        "
        "gx_worker.start()\n        pid = list(gx_worker._state['pool']._processes)[0]\n        ignored = "
        "int(next(l for l in open(f'/proc/{pid}/status') if l.startswith('SigIgn:')).split()[1], "
        "16)\n        print(pid, bool(ignored & (1 << (signal.SIGINT - 1))), flush=True)\n        for _ in "
        "range(600):\n            time.sleep(0.1)   # Ctrl-C taken by another thread is answered within 0.1 "
        "s\nexcept KeyboardInterrupt:\n    print('interrupted', flush=True)\n"
    ).replace("import time", "import signal, time")
    # Ctrl-C answered as at a terminal, however the suite was started (a shell's background job
    # starts with Ctrl-C ignored, and a Python started so never sees it)
    run = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    first = run.stdout.readline().split()
    time.sleep(after_s)
    os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=90)
    assert first[1:] == ["True"], (first, err)
    assert out == "interrupted\n" and run.returncode == 0, (out, err)
    assert err == ""
