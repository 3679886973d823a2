"""The command line refuses what it cannot read and warns about a folder that is likely a mistake."""

from __future__ import annotations

import pytest

from pipelines.cli import folder_warnings, main
from tests.conftest import run_cli


def test_a_missing_command_prints_the_usage_and_exits_2(capsys):
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: outfall")
    assert "{run,demo,export,verify,templates,new-town,rules}" in err


def test_an_abbreviated_option_is_refused_not_guessed(tmp_path, capsys):
    assert main(["run", "--dat", str(tmp_path), "--warehouse", str(tmp_path / "w.duckdb")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--data" in err[0] and "outfall run -h" in err[0]
    assert not (tmp_path / "w.duckdb").exists()


@pytest.mark.parametrize(
    ("args", "code"), [(["--help"], 0), (["run", "-h"], 0), (["run"], 2), (["new-town"], 2)]
)
def test_the_command_from_a_shell_exits_with_its_status(args, code):
    # Regression: the command ends without tearing down its modules (pipelines/console.py), and at first
    # answered `outfall --help` with 1: argparse ends -h with SystemExit(0), which it did not record.
    done = run_cli(*args, timeout=120)
    assert done.returncode == code, done.stderr
    assert ("usage: outfall" in done.stdout) == (code == 0)


def test_a_folder_of_none_of_the_input_folders_is_warned_about(tmp_path):
    (tmp_path / "lab_result").mkdir()
    (tmp_path / "letterhead.yaml").write_text("")
    lines = folder_warnings(tmp_path)
    assert any("'lab_result'" in line and "did you mean lab_results?" in line for line in lines)
    assert any("holds none of the input folders" in line for line in lines)
    assert not any("letterhead.yaml" in line for line in lines)


def test_a_folder_with_input_folders_gets_no_warning(tmp_path):
    for name in ("lab_results", "flow", "letter_templates"):
        (tmp_path / name).mkdir()
    assert folder_warnings(tmp_path) == []


@pytest.mark.slow
def test_run_on_an_empty_folder_succeeds_with_a_warning(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    proc = run_cli(
        "run",
        "--data",
        str(data),
        "--warehouse",
        str(tmp_path / "w.duckdb"),
        "--as-of",
        "2026-06-30",
        "--quiet",
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "warning:" in proc.stderr and "holds none of the input folders" in proc.stderr
