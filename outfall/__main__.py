"""`python -m outfall ...` is `outfall ...`."""

import sys

from outfall.cli import main

sys.exit(main())
