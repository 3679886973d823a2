#!/bin/sh
# Headless Chromium for the dashboard browser test (tests/test_browser.py).
# Idempotent: does nothing when /usr/bin/chromium is already there.
# Installs Debian's packages: chromium, chromium-driver (for Selenium) and a
# font so that chart text renders in screenshots. Needs root (or sudo).
set -eu

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    echo "install-chromium: $(/usr/bin/chromium --version 2>/dev/null || echo chromium) already installed"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "install-chromium: run this script as root (apt-get needs it)" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y chromium chromium-driver fonts-dejavu-core
echo "install-chromium: $(/usr/bin/chromium --version)"
