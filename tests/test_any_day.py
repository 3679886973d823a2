"""A run judged on any day (issue 37, item 9): the real 1990-91 treatment-plant records of data/real/, judged
as of 1991-12-31, write every page. A setting that is not law (the worklist's week) carries no effective
dates, so no day lacks it; a law value missing for the day marks what depends on it as not judged, with the
reason, and the rest runs."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from outfall.demo import real
from outfall.rules import load_all
from outfall.rules.dated import Dated
from tests.conftest import query_warehouse, run_cli

PAGES = ("index.html", "sewer.html", "stormwater.html", "billing.html", "quarantine.html")


def test_the_worklists_week_is_a_setting_without_dates():
    for rules in load_all().values():
        assert rules.worklist is not None and not isinstance(rules.worklist, Dated)
        assert rules.worklist.due_within_days == 7


def plant_records(root: Path, year: int) -> Path:
    """The UCI plant's influent record, on its own days (1990-91 when ``year`` is 1991), as one user's."""
    data = root / "data"
    (data / "lab_results").mkdir(parents=True)
    (data / "industrial_users").mkdir()
    real.uci_lab_results(None, "IU-020", target_year=year).to_csv(
        data / "lab_results" / "uci.csv", index=False
    )
    (data / "industrial_users" / "users.csv").write_text(
        "user_id,name,district,address,permit_no,permit_effective,permit_expires\n"
        f"IU-020,Eastbrook Regional Treatment Plant,consolidated,1 Plant Rd,P-1,{year - 3}-01-01,"
        f"{year + 3}-12-31\n",
        encoding="utf-8",
    )
    return data


@pytest.mark.slow  # `outfall run` in a new process
@pytest.mark.parametrize("year, as_of", [(1991, "1991-12-31"), (1986, "1986-12-31")])
def test_a_run_judged_on_any_day_writes_every_page(tmp_path, year, as_of):
    data = plant_records(tmp_path, year)
    if year == 1986:
        for folder, text in {
            "sites": "site_id,jurisdiction,disturbed_acres,construction_start,rain_gauge_id,name\n"
            "S-1,woodbury,4,1986-06-02,G-1,Plant Road grading\n",
            "rainfall": "gauge_id,date,precip_in\nG-1,1986-06-10,0.8\n",
        }.items():
            (data / folder).mkdir()
            (data / folder / f"{folder}.csv").write_text(text, encoding="utf-8")
    db = tmp_path / "w.duckdb"
    done = run_cli("run", "--data", str(data), "--warehouse", str(db), "--as-of", as_of, "--quiet")
    assert done.returncode == 0, done.stderr
    for page in PAGES:
        assert (tmp_path / "dashboards" / page).is_file(), page
    statuses = query_warehouse(db, "SELECT DISTINCT status FROM worklist")
    assert {s for (s,) in statuses} <= {"overdue", "due", "undated", "upcoming"}
    assert query_warehouse(
        db, "SELECT count(*) FROM worklist WHERE as_of = ?", [dt.date.fromisoformat(as_of)]
    )
    if year == 1986:
        # The sewer use limits' first day is not stated in the code (null in the rules): in effect, so the
        # plant's samples are judged. The stormwater law took effect 2007-05-03: a site built in 1986 is not
        # judged, with the reason, and the rest runs.
        assert query_warehouse(db, "SELECT count(*) FROM discharge_violations")[0][0] > 0
        reasons = query_warehouse(db, "SELECT DISTINCT reason FROM not_judged")
        assert reasons and all("not judged: the rules give no" in r for (r,) in reasons)
        quarantine = (tmp_path / "dashboards" / "quarantine.html").read_text(encoding="utf-8")
        assert "Not judged: no rule in effect on the day" in quarantine
