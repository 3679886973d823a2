# The README's two commands are `make demo` and `make test`; CI runs `make test`.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
export PYTHONDONTWRITEBYTECODE :=
export GX_ANALYTICS_ENABLED := false

.PHONY: setup browser demo lint test test-fast bench dev check-defs clean

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.lock
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@mkdir -p .dagster_home && cp -n pipelines/dagster.yaml .dagster_home/dagster.yaml 2>/dev/null || true
	touch $(STAMP)

setup: $(STAMP)

# The demo prints its letters to PDF with headless Chromium: installed first, as for the tests.
# Without it (no root to install it) the demo still runs and says the letters are HTML only.
demo: $(STAMP)
	-sh scripts/install-chromium.sh
	$(VENV)/bin/outfall demo --out demo_output

# Headless Chromium (Debian's package) for the browser tests and the letters' PDFs.
browser:
	sh scripts/install-chromium.sh

# Tests run in parallel (pytest-xdist, one worker per core; each test module stays on one
# worker so that its module-scoped fixtures are built once), the longest modules handed out first
# (tests/conftest.py: pytest_collection_modifyitems).
PYTEST := $(VENV)/bin/python -m pytest -q -p no:cacheprovider -n auto --dist loadfile --no-loadscope-reorder

# Static checks, one command a line: the Python formatted and checked by ruff ([tool.ruff] of
# pyproject.toml), the SQL by sqlfluff (.sqlfluff), and lint-imports: each layer of pyproject.toml's
# contract imports only from the layers below it. `ruff format .`, `ruff check --fix .` and
# `sqlfluff fix sql` fix most of what they report.
lint: $(STAMP)
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/sqlfluff lint sql
	$(VENV)/bin/lint-imports --no-cache

# The whole suite (what CI runs): the static checks, the law, the assets, `outfall run` end to end,
# the browser.
test: $(STAMP) browser lint
	$(PYTEST)

# The quick loop while editing: no end-to-end runs (`slow`), no headless Chromium (`browser`).
test-fast: $(STAMP)
	$(PYTEST) -m "not slow and not browser"

# Figures, not pass/fail: slug detection on 190 meters x a year of 1-minute
# readings (~100M) against a bare DuckDB scan; `outfall run` end to end on the
# same year as Parquet and 25M rows as CSV against a bare DuckDB load; then
# billing 100,000 parcels; then `outfall run` on the demo with nothing new, one
# new file and a new day.
bench: $(STAMP)
	$(VENV)/bin/python -m benchmarks.slugs --verify
	$(VENV)/bin/python -m benchmarks.ingest
	$(VENV)/bin/python -m benchmarks.billing --parcels 100000
	$(VENV)/bin/python -m benchmarks.runs

# The web server and the daemon on the code location `outfall` ([tool.dg] of pyproject.toml), at
# http://127.0.0.1:3000, with the instance in .dagster_home (docs/operating.md). Only these two targets
# set DAGSTER_HOME: `outfall run` records its runs there when it is set, and the tests must not.
# `make check-defs`: the Definitions load, with no warning.
DG := DAGSTER_HOME=$(CURDIR)/.dagster_home VIRTUAL_ENV=$(CURDIR)/$(VENV) PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(VENV)/bin/dg

dev: $(STAMP)
	$(DG) dev

check-defs: $(STAMP)
	$(DG) check defs

clean:
	rm -rf $(VENV) demo_output .dagster_home
