"""`python -m outfall ...` is `outfall ...` (the command line lives with the Definitions, in pipelines/cli.py)."""

import sys


def _main() -> int:
    from pipelines.cli import main

    return main()


sys.exit(_main())
