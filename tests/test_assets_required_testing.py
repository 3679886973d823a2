"""Required testing (contract 6.3) materialized in process on a small fixture: monitoring requirements,
users and lab results as CSV files, judged as of 2026-11-30.

Boundaries: a sample at 22:30 on September 30 in New York (02:30 UTC on October 1) counts in September;
a grab does not meet a composite requirement; a requirement from August 15 covers August, one to August 15
does not cover the third quarter; a blank effective_from starts at the permit, else the first sample, else
covers only the period holding the as-of day; a sample dated after the as-of day does not count."""

from __future__ import annotations

import datetime as dt
import re
import shutil

from dagster_duckdb import DuckDBResource

from assets.ingest import ingest_asset
from assets.sewer import testing
from outfall.paths import RULES_DIR
from outfall.resources import OutfallSettings
from tests.conftest import materialize, materialize_town, query_warehouse as rows, write

D = dt.date
AS_OF = "2026-11-30"
RULE = "Woodbury Code ch. 253 Part 2, industrial wastes, periodic reports (b)"

USERS = """
user_id,name,district,permit_effective,permit_expires
U-1,Term Works,consolidated,2026-02-10,2031-02-09
U-2,No Dates Works,consolidated,,
"""
LAB = """
sample_id,user_id,collected_at,sample_type,parameter,result,unit
A-1,U-1,2026-08-03T09:00,composite,BOD5,100,mg/L
A-1,U-1,2026-08-03T09:00,composite,TSS,100,mg/L
A-2,U-1,2026-08-20T09:00,composite,BOD,120,mg/L
A-3,U-1,2026-10-01T02:30:00+00:00,composite,BOD,110,mg/L
A-4,U-1,2026-10-14T10:00,grab,BOD,90,mg/L
F-1,U-1,2026-03-02T10:00,grab,oil and grease,20,mg/L
C-1,U-1,2026-11-03T10:00,grab,copper,0.3,mg/L
B-1,U-2,2026-05-05T09:00,composite,TSS,80,mg/L
B-2,U-2,2026-12-02T09:00,composite,TSS,80,mg/L
"""
REQUIREMENTS = """
user_id,parameter,frequency,sample_type,effective_from,effective_to,basis
U-1,BOD,monthly,composite,2026-08-15,,Permit condition C.1
U-1,FOG,quarterly,,,2026-08-15,Letter of 2026-02-01
U-1,Copper,monthly,grab,2026-11-01,,
U-2,TSS,semiannual,composite,,,
U-9,pH,annual,grab,,,
"""


def _data(tmp_path):
    data = tmp_path / "data"
    write(data, "industrial_users/u.csv", USERS)
    write(data, "lab_results/r.csv", LAB)
    write(data, "monitoring_requirements/m.csv", REQUIREMENTS)
    return data


ASSETS = [ingest_asset(n) for n in ("industrial_users", "lab_results", "monitoring_requirements")] + [
    testing.required_testing,
    testing.check_validity_required_testing_status,
]


def test_periods_samples_and_status(tmp_path):
    wh = tmp_path / "w.duckdb"
    result = materialize_town(ASSETS, _data(tmp_path), wh, AS_OF)
    assert all(c.passed for c in result.get_asset_check_evaluations())
    got = rows(
        wh,
        "SELECT user_id, parameter, sample_type, period_start, period_end, samples, status, frequency "
        "FROM required_testing ORDER BY user_id, parameter, period_start",
    )
    assert got == [
        # August 15 is in August: August counts (two samples); 22:30 on September 30 is September's;
        # October had only a grab (a composite is required); November ends on the as-of day: open
        ("U-1", "BOD", "composite", D(2026, 8, 1), D(2026, 8, 31), 2, "met", "monthly"),
        ("U-1", "BOD", "composite", D(2026, 9, 1), D(2026, 9, 30), 1, "met", "monthly"),
        ("U-1", "BOD", "composite", D(2026, 10, 1), D(2026, 10, 31), 0, "missed", "monthly"),
        ("U-1", "BOD", "composite", D(2026, 11, 1), D(2026, 11, 30), 0, "open", "monthly"),
        # a name outside the vocabulary, kept as given and matched without regard to case
        ("U-1", "Copper", "grab", D(2026, 11, 1), D(2026, 11, 30), 1, "met", "monthly"),
        # blank effective_from: from the permit (February 10), so Q1 counts; ends August 15, so Q3 does not
        ("U-1", "FOG", None, D(2026, 1, 1), D(2026, 3, 31), 1, "met", "quarterly"),
        ("U-1", "FOG", None, D(2026, 4, 1), D(2026, 6, 30), 0, "missed", "quarterly"),
        # no permit date: from the first sample (May 5); the sample of December 2 is after the as-of day
        ("U-2", "TSS", "composite", D(2026, 1, 1), D(2026, 6, 30), 1, "met", "semiannual"),
        ("U-2", "TSS", "composite", D(2026, 7, 1), D(2026, 12, 31), 0, "open", "semiannual"),
        # no permit date and no sample: only the period holding the as-of day
        ("U-9", "pH", "grab", D(2026, 1, 1), D(2026, 12, 31), 0, "open", "annual"),
    ]
    names = dict(rows(wh, "SELECT DISTINCT user_id, name FROM required_testing"))
    assert names == {"U-1": "Term Works", "U-2": "No Dates Works", "U-9": None}
    assert rows(wh, "SELECT DISTINCT basis FROM required_testing WHERE parameter = 'BOD'") == [
        ("Permit condition C.1",)
    ]
    ((rule,),) = rows(wh, "SELECT DISTINCT rule FROM required_testing")
    assert rule.startswith(RULE) and "frequency of testing" in rule
    assert rows(wh, "SELECT DISTINCT as_of FROM required_testing") == [(D(2026, 11, 30),)]
    assert rows(
        wh,
        "SELECT data_type FROM information_schema.columns WHERE table_name = 'required_testing' "
        "AND column_name IN ('period_start', 'period_end', 'samples') ORDER BY column_name",
    ) == [("DATE",), ("DATE",), ("INTEGER",)]

    # what the notices read: each missed period, in the month of its period_end
    from outfall.warehouse import sql

    missed = rows(wh, sql("select_missed_testing"))
    assert [(m[0], m[2], m[5], m[7]) for m in missed] == [
        ("U-1", "FOG", D(2026, 4, 1), "2026-06"),
        ("U-1", "BOD", D(2026, 10, 1), "2026-10"),
    ]

    # a rerun changes nothing
    before = rows(wh, "SELECT * FROM required_testing ORDER BY ALL")
    materialize_town(ASSETS, tmp_path / "data", wh, AS_OF)
    assert rows(wh, "SELECT * FROM required_testing ORDER BY ALL") == before


def test_period_end_on_the_as_of_day_is_open_and_missed_the_day_after(tmp_path):
    data = _data(tmp_path)
    for as_of, status in (("2026-10-31", "open"), ("2026-11-01", "missed")):
        wh = tmp_path / f"{as_of}.duckdb"
        materialize_town(ASSETS, data, wh, as_of)
        assert rows(
            wh,
            "SELECT status FROM required_testing WHERE parameter = 'BOD' "
            "AND period_start = DATE '2026-10-01'",
        ) == [(status,)]


def test_the_check_finds_a_status_that_disagrees(tmp_path):
    wh = tmp_path / "w.duckdb"
    materialize_town(ASSETS, _data(tmp_path), wh, AS_OF)
    import duckdb

    con = duckdb.connect(str(wh))
    con.execute("UPDATE required_testing SET status = 'met' WHERE status = 'missed'").fetchall()
    con.close()
    check = testing.check_validity_required_testing_status(DuckDBResource(database=str(wh)))
    assert not check.passed and check.metadata["invalid_rows"].value == 2


def test_empty_without_inputs_and_not_judged_without_a_rule(tmp_path):
    wh = tmp_path / "w.duckdb"
    materialize_town([testing.required_testing], tmp_path / "none", wh, AS_OF)
    cols = [
        r[0]
        for r in rows(
            wh,
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = 'required_testing' ORDER BY ordinal_position",
        )
    ]
    assert cols == [
        "user_id",
        "parameter",
        "sample_type",
        "period_start",
        "period_end",
        "samples",
        "status",
        "name",
        "frequency",
        "basis",
        "rule",
        "as_of",
    ]
    assert rows(wh, "SELECT count(*) FROM required_testing") == [(0,)]

    # rules without the section: nothing judged, each period listed in not_judged
    rules_dir = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules_dir)
    woodbury = rules_dir / "woodbury.yaml"
    text = woodbury.read_text()
    start = text.index("\nrequired_testing:")
    end = re.search(r"\n[a-z_]+:", text[start + 1 :])  # the next section
    woodbury.write_text(text[:start] + (text[start + 1 + end.start() :] if end else "\n"))
    wh2 = tmp_path / "w2.duckdb"
    result = materialize(
        ASSETS[:-1],
        resources={
            "duckdb": DuckDBResource(database=str(wh2)),
            "settings": OutfallSettings(data_dir=str(_data(tmp_path)), as_of=AS_OF, rules_dir=str(rules_dir)),
        },
    )
    assert result.success
    assert rows(wh2, "SELECT count(*) FROM required_testing") == [(0,)]
    reasons = rows(
        wh2, "SELECT subject, reason FROM not_judged WHERE asset = 'required_testing' ORDER BY day, subject"
    )
    assert len(reasons) == 10
    assert reasons[0][0] == "quarterly FOG testing of U-1 from 2026-01-01"
    assert reasons[0][1] == "not judged: woodbury.yaml has no required_testing section"


def test_a_town_sample_does_not_meet_the_users_required_testing(tmp_path):
    """Contract 7.1: the testing Part 2 asks of "each such person" is met only by the user's own samples
    (lab_results.sampled_by user or blank); a Town sample of the same parameter and month meets none."""
    data = _data(tmp_path)
    write(
        data,
        "lab_results/town.csv",
        "sample_id,user_id,collected_at,sample_type,parameter,result,unit,sampled_by\n"
        "T-1,U-1,2026-10-20T09:00,composite,BOD,100,mg/L,town\n"
        "T-2,U-1,2026-09-10T09:00,composite,BOD,100,mg/L,USER\n",
    )
    wh = tmp_path / "w.duckdb"
    materialize_town(ASSETS, data, wh, AS_OF)
    got = rows(
        wh,
        "SELECT period_start, samples, status FROM required_testing WHERE user_id = 'U-1' "
        "AND parameter = 'BOD' AND period_start IN (DATE '2026-09-01', DATE '2026-10-01') ORDER BY 1",
    )
    # September: A-3 and the user's T-2 ("USER": any case); October: only the Town's T-1, so missed
    assert got == [(D(2026, 9, 1), 2, "met"), (D(2026, 10, 1), 0, "missed")]
