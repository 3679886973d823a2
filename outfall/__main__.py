"""`python -m outfall ...` is `outfall ...` (the command line lives with the Definitions, in
pipelines/cli.py; pipelines/console.py starts it as a shell does)."""

import sys

from pipelines.console import main

sys.exit(main())
