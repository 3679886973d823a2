"""Where the project's data files live, relative to the repository root."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SQL_DIR = REPO_ROOT / "sql"
RULES_DIR = REPO_ROOT / "rules"
EXPECTATIONS_DIR = REPO_ROOT / "expectations"
REAL_DATA_DIR = REPO_ROOT / "data" / "real"
DEFAULT_WAREHOUSE = REPO_ROOT / "warehouse" / "outfall.duckdb"
