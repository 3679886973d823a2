"""Where the project's data files live: ``sql/``, ``rules/``, ``templates/``, ``expectations/``.

From a checkout (an editable install, or tests) they are the repository's own
folders. A wheel (``pip install .``) carries them as package data under
``outfall/_data/<name>`` (see ``[tool.setuptools.package-dir]`` in
pyproject.toml), so an installed Outfall runs outside the checkout too.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
_INSTALLED = Path(__file__).resolve().parent / "_data"


def data_dir(name: str, in_repo: str | None = None) -> Path:
    """The folder ``name`` (sql, rules, templates, expectations, real) of this
    installation: the wheel's package data, else the checkout's ``in_repo`` (default ``name``)."""
    installed = _INSTALLED / name
    if installed.is_dir():
        return installed
    return REPO_ROOT / (in_repo or name)


SQL_DIR = data_dir("sql")
RULES_DIR = data_dir("rules")
TEMPLATES_DIR = data_dir("templates")
EXPECTATIONS_DIR = data_dir("expectations")
REAL_DATA_DIR = data_dir("real", "data/real")


@lru_cache(maxsize=1)
def _sql_index() -> dict[str, Path]:
    """Every ``sql/**/<name>.sql`` by name; a name used twice is an error."""
    index: dict[str, Path] = {}
    for path in sorted(SQL_DIR.rglob("*.sql")):
        stem = path.stem
        if stem in index:
            raise RuntimeError(f"two SQL files are named {stem}.sql: {index[stem]} and {path}")
        index[stem] = path
    return index


def sql_path(name: str) -> Path:
    """The file of SQL statement ``name`` (``"merge_into_dataset"`` or ``"ingest/merge_into_dataset"``)."""
    if "/" in name:
        path = SQL_DIR / f"{name}.sql"
        if not path.is_file():
            raise FileNotFoundError(f"no SQL file {path}")
        return path
    try:
        return _sql_index()[name]
    except KeyError:
        raise FileNotFoundError(f"no SQL file named {name}.sql under {SQL_DIR}") from None
