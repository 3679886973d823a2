"""`outfall run | demo | export | verify | templates | new-town | rules check` (contract section 1).

Exit status: 0 when every asset materialized (whatever violations were found
and however many rows were quarantined); 1 when an asset failed, naming it and
why on stderr; 2 for unusable arguments, with a one-line message. Never a bare
traceback.

The arguments are ``pipelines.parser``'s, checked by ``pipelines.preflight``; `outfall run` is here, what
it says when it ends ``pipelines.report``'s, the other commands ``pipelines.commands``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DAGSTER_DISABLE_TELEMETRY", "1")

# Only light modules here: Dagster, DuckDB, pandas and pydantic are imported by the commands that
# use them, so that a usage error, `outfall -h` or `outfall templates` answers at once.
from outfall.runlog import explain  # noqa: E402
from pipelines.commands import (  # noqa: E402, F401 - DEMO_*: the tests and benchmarks reach them here
    DEMO_AS_OF,
    DEMO_SEED,
    cmd_demo,
    cmd_export,
    cmd_new_town,
    cmd_rules,
    cmd_templates,
    cmd_verify,
)
from pipelines.parser import UsageError, build_parser  # noqa: E402
from pipelines.preflight import (  # noqa: E402, F401 - folder_warnings: the tests reach it here
    CURRENT_LOG,
    check_as_of,
    check_data_dir,
    check_partition,
    check_rules,
    check_warehouse,
    check_year,
    folder_warnings,
    run_log,
    warehouse_lock,
)
from pipelines.report import report as _report  # noqa: E402
from pipelines.runs import (  # noqa: E402, F401 - the tests reach these through the command's module
    FULL_PASS_EVERY,
    RunOutcome,
    _startup_objects_set_apart,
    _warm_for_letters,
    run_pipeline,
    today_in,
)


def cmd_run(args) -> int:
    data_dir = check_data_dir(args.data)
    warehouse = check_warehouse(args.warehouse)
    as_of = check_as_of(args.as_of)
    year = check_year(args.year)
    partition = check_partition(args.partition)
    town = check_rules(args.rules)
    from outfall.rules.town import default_rules_dir
    from pipelines.queue import server_of

    queued = server_of(os.environ.get("DAGSTER_HOME"))  # its web server answers: its queue runs them
    with warehouse_lock(warehouse, check_free=queued is None), run_log(warehouse):
        for line in folder_warnings(data_dir):
            print(f"outfall: warning: {line}", file=sys.stderr)
        # "Today" is read once, here: the run's fingerprint and every asset judge by the same day.
        outcome = run_pipeline(
            data_dir,
            warehouse,
            as_of or today_in(town),
            year,
            args.dashboards,
            quiet=args.quiet,
            partition=partition,
            rules_dir=default_rules_dir(),
            queued=queued,
        )
        return _report(outcome, warehouse, quiet=args.quiet, verbose=args.verbose)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        handler = {
            "run": cmd_run,
            "demo": cmd_demo,
            "export": cmd_export,
            "verify": cmd_verify,
            "templates": cmd_templates,
            "new-town": cmd_new_town,
            "rules": cmd_rules,
        }[args.command]
        return handler(args)
    except UsageError as exc:
        if exc.usage:
            print(exc.usage.rstrip(), file=sys.stderr)
        print(f"outfall: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("outfall: interrupted; every table is as it was before the interrupted asset", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - never a bare traceback
        where = f" (the details are in {CURRENT_LOG[-1]})" if CURRENT_LOG else ""
        print(
            f"outfall: stopped on an error Outfall did not expect: {explain(exc).why}{where}", file=sys.stderr
        )
        if os.environ.get("OUTFALL_DEBUG") or "--verbose" in (argv if argv is not None else sys.argv):
            raise
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
