"""What the browser tests share: the headless Chromium they print with (a clear failure, not a skip,
when it is missing: `make test` installs it)."""

from __future__ import annotations

import pytest

from outfall.pdf import CHROMIUM_HINT, find_browser


@pytest.fixture(scope="module")
def chromium():
    """The path of the Chromium the tests print with."""
    browser = find_browser()
    if browser is None:
        pytest.fail(f"Chromium is not installed: {CHROMIUM_HINT}", pytrace=False)
    return browser
