"""The project installs and runs outside its checkout: sql/, rules/, templates/,
expectations/ and data/real/ travel in the wheel as package data."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import duckdb
import pytest

from outfall.paths import REPO_ROOT

pytestmark = pytest.mark.slow  # builds a wheel and installs it into a fresh venv

DATA_FOLDERS = {
    "sql": "sql",
    "rules": "rules",
    "templates": "templates",
    "expectations": "expectations",
    "real": "data/real",
}


def _pyproject() -> dict:
    return tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_python_package_is_listed_for_the_wheel():
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(REPO_ROOT).parts)
        for top in ("outfall", "assets", "pipelines", "dashboards", "benchmarks")
        for p in (REPO_ROOT / top).rglob("__init__.py")
    }
    assert found - listed == set(), "add these packages to [tool.setuptools] packages in pyproject.toml"


def test_every_data_folder_is_mapped_into_the_wheel():
    mapped = _pyproject()["tool"]["setuptools"]["package-dir"]
    assert {k.rsplit(".", 1)[1]: v for k, v in mapped.items()} == DATA_FOLDERS


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "-w",
            str(out),
            str(REPO_ROOT),
        ],
        check=True,
        capture_output=True,
        cwd=out,
    )
    (path,) = out.glob("outfall-*.whl")
    return path


def test_the_wheel_carries_every_sql_rules_template_and_real_data_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for name, folder in DATA_FOLDERS.items():
        pattern = {
            "sql": "*.sql",
            "rules": "*.yaml",
            "templates": "*.html",
            "expectations": "*.json",
            "real": "*.csv",
        }[name]
        for path in (REPO_ROOT / folder).rglob(pattern):
            inside = f"outfall/_data/{name}/{path.relative_to(REPO_ROOT / folder).as_posix()}"
            assert inside in names, f"{inside} is missing from the wheel"


@pytest.mark.slow
def test_pip_install_into_a_fresh_venv_outside_the_checkout_runs_the_demo(wheel, tmp_path):
    """`pip install` of the wheel into a new virtual environment, then `outfall demo` from
    a folder far from the checkout. The new venv borrows the project's installed dependencies
    through a .pth line (no network), but not the project itself."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = Path(
        subprocess.run(
            [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (site / "borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(venv / "bin" / "python"),
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("OUTFALL_")}
    env["PYTHONPATH"] = ""
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import outfall; print(outfall.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(REPO_ROOT) not in where, "the fresh venv must not import the checkout"
    # a quarter-size town: the point is that the installed package finds its files, not the town
    proc = subprocess.run(
        [str(venv / "bin" / "outfall"), "demo", "--out", "town", "--scale", "0.25"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    con = duckdb.connect(str(work / "town" / "outfall.duckdb"), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM discharge_violations").fetchall()[0][0] > 0
        assert con.execute("SELECT count(*) FROM sewer_bills").fetchall()[0][0] > 0
    finally:
        con.close()
    assert (work / "town" / "dashboards" / "index.html").is_file()
