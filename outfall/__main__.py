"""`python -m outfall ...` is `outfall ...` (the command line lives with the Definitions, in
pipelines/cli.py)."""

import sys

from pipelines.cli import main

sys.exit(main())
