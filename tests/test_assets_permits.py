"""Permits and discharging without a permit (Woodbury ch. 253 Part 2) materialized in process: samples and
flow readings on days a user's permit had expired or had not yet taken effect, users whose permit term is
not on file, and permits with a history (contract 8.2): renewals, a permit dropped from the users file,
a withdrawn permit."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from assets.ingest import ingest_asset
from assets.sewer import compliance, permits
from tests.conftest import materialize_town, own_checks, query_warehouse as rows, write

D = dt.date
# The permits folder and the union of each user's permits, which discharges_without_permit reads.
PERMITS = [ingest_asset("permits"), permits.user_permits]

USERS = """
user_id,name,district,address,permit_no,permit_effective,permit_expires,normal_avg_flow_gpd
U-1,Term Works,consolidated,1 A St,P-1,2026-02-01,2026-09-30,
U-2,No Dates Works,consolidated,2 B St,P-2,,,
U-3,Open End Works,consolidated,3 C St,P-3,2026-01-15,,
"""
LAB = """
sample_id,user_id,collected_at,sample_type,parameter,result,unit
S-1,U-1,2026-01-20T09:00,composite,BOD,100,mg/L
S-2,U-1,2026-02-01T09:00,composite,BOD,100,mg/L
S-3,U-1,2026-09-30T09:00,composite,BOD,100,mg/L
S-4,U-1,2026-10-01T09:00,composite,BOD,100,mg/L
S-5,U-2,2026-03-03T09:00,composite,BOD,100,mg/L
S-6,U-3,2026-01-10T09:00,composite,BOD,100,mg/L
S-7,U-9,2026-04-04T09:00,composite,BOD,100,mg/L
"""
# 2026-10-02T03:30Z is 23:30 on October 1 in New York; December 5 is after --as-of.
FLOW = """
user_id,timestamp,value,unit
U-1,2026-10-01T10:00,12,gpm
U-1,2026-10-02T03:30:00+00:00,11,gpm
U-1,2026-12-05T10:00,10,gpm
"""


def run(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    write(data, "industrial_users/u.csv", USERS)
    write(data, "lab_results/r.csv", LAB)
    write(data, "flow/f.csv", FLOW)
    wh = tmp_path / "w.duckdb"
    result = materialize_town(
        [ingest_asset(n) for n in ("industrial_users", "lab_results", "flow")]
        + PERMITS
        + [
            permits.discharges_without_permit,
            compliance.compliance_summary,
            permits.check_validity_permit_day,
        ],
        data,
        wh,
        "2026-11-30",
    )
    assert all(c.passed for c in own_checks(result))
    return wh


def test_days_outside_the_permit(tmp_path):
    wh = run(tmp_path)
    assert rows(
        wh,
        "SELECT user_id, day, finding, samples, flow_readings, days_outside FROM "
        "discharges_without_permit ORDER BY user_id, day",
    ) == [
        ("U-1", D(2026, 1, 20), "permit_not_yet_effective", 1, 0, 12),  # 12 days before February 1
        ("U-1", D(2026, 10, 1), "permit_expired", 1, 2, 1),  # the day after September 30
        ("U-3", D(2026, 1, 10), "permit_not_yet_effective", 1, 0, 5),  # no expiry: only the start is judged
    ]
    (rule,) = {r[0] for r in rows(wh, "SELECT rule FROM discharges_without_permit")}
    assert rule.startswith("Woodbury Code ch. 253 Part 2") and "permit" in rule
    missing = rows(wh, "SELECT user_id, first_day, samples, reason FROM permit_dates_missing ORDER BY 1")
    assert [m[:3] for m in missing] == [("U-2", D(2026, 3, 3), 1), ("U-9", D(2026, 4, 4), 1)]
    assert (
        "permit number is on file but neither the date the permit took effect nor the date" in missing[0][3]
    )
    assert "not among the industrial users" in missing[1][3]
    assert rows(
        wh,
        "SELECT month, days_without_permit FROM compliance_summary WHERE user_id = 'U-1' "
        "AND days_without_permit > 0 ORDER BY month",
    ) == [(D(2026, 1, 1), 1), (D(2026, 10, 1), 1)]


# Contract 6.5: a discharge is a sample, or a reading of constituent flow above 0. U-4's term is February 1
# to September 30, 2026; outside it, October 5 has only probe readings (pH, temperature), October 6 only a
# flow of 0, October 7 a flow of 0 and one of 3 gpm. U-5, U-6 and U-7 have no permit dates: only a pH
# reading, only a flow of 0, and a flow of 0.5 gpm.
PROBE_USERS = """
user_id,name,district,address,permit_no,permit_effective,permit_expires,normal_avg_flow_gpd
U-4,Probe Works,consolidated,4 D St,P-4,2026-02-01,2026-09-30,
U-5,Probe Only Works,consolidated,5 E St,P-5,,,
U-6,Zero Flow Works,consolidated,6 F St,P-6,,,
U-7,Trickle Works,consolidated,7 G St,P-7,,,
"""
PROBE_FLOW = """
user_id,timestamp,value,unit,constituent
U-4,2026-06-01T10:00,5,gpm,flow
U-4,2026-10-05T10:00,7.1,s.u.,pH
U-4,2026-10-05T10:00,68,degF,temperature
U-4,2026-10-06T10:00,0,gpm,flow
U-4,2026-10-07T10:00,0,gpm,flow
U-4,2026-10-07T10:15,3,gpm,
U-5,2026-03-03T09:00,7.0,s.u.,pH
U-6,2026-03-03T09:00,0,gpm,flow
U-7,2026-03-04T09:00,0.5,gpm,flow
U-7,2026-03-04T09:15,0,gpm,flow
"""


def test_probe_readings_and_zero_flow_are_not_discharges(tmp_path):
    data = tmp_path / "data"
    write(data, "industrial_users/u.csv", PROBE_USERS)
    write(data, "flow/f.csv", PROBE_FLOW)
    wh = tmp_path / "w.duckdb"
    result = materialize_town(
        [ingest_asset(n) for n in ("industrial_users", "lab_results", "flow")]
        + PERMITS
        + [permits.discharges_without_permit, permits.check_validity_permit_day],
        data,
        wh,
        "2026-11-30",
    )
    assert all(c.passed for c in own_checks(result))
    assert rows(wh, "SELECT count(*) FROM quarantine") == [(0,)]
    # only October 7, with its one reading above 0 (a blank constituent is flow)
    assert rows(
        wh, "SELECT user_id, day, finding, samples, flow_readings FROM discharges_without_permit"
    ) == [("U-4", D(2026, 10, 7), "permit_expired", 0, 1)]
    # the users without dates: only U-7, which discharged
    assert rows(
        wh, "SELECT user_id, first_day, last_day, days, samples, flow_readings FROM permit_dates_missing"
    ) == [("U-7", D(2026, 3, 4), D(2026, 3, 4), 1, 0, 1)]


# Contract 6.5 and the reading permit_term_unknown: a user on file that never held a permit (no permit number,
# neither date) and discharged (flow above 0 on May 20, a BOD sample on June 9) discharged without a permit
# on each of those days, and the notice of each month lists it; a permit number without dates is a gap in
# the records, not judged.
NEVER_USERS = """
user_id,name,district,address,permit_no,permit_effective,permit_expires,normal_avg_flow_gpd,city,state,zip
U-8,Never Permitted Lube,consolidated,8 H St,,,,,Central Valley,NY,10917
U-9,Number Only Works,consolidated,9 I St,P-9,,,,Central Valley,NY,10917
"""
NEVER_FLOW = """
user_id,timestamp,value,unit,constituent
U-8,2026-05-20T10:00,12,gpm,flow
U-8,2026-05-20T10:15,0,gpm,flow
U-9,2026-05-20T10:00,12,gpm,flow
"""
NEVER_LAB = """
sample_id,user_id,collected_at,sample_type,parameter,result,unit
N-1,U-8,2026-06-09T09:00,grab,BOD,100,mg/L
"""


def test_a_user_that_never_held_a_permit_discharges_without_one(tmp_path):
    from assets.notices import notices

    data = tmp_path / "data"
    write(data, "industrial_users/u.csv", NEVER_USERS)
    write(data, "flow/f.csv", NEVER_FLOW)
    write(data, "lab_results/r.csv", NEVER_LAB)
    wh = tmp_path / "w.duckdb"
    result = materialize_town(
        [ingest_asset(n) for n in ("industrial_users", "lab_results", "flow", "notices_mailed")]
        + PERMITS
        + [permits.discharges_without_permit, permits.check_validity_permit_day, notices],
        data,
        wh,
        "2026-11-30",
    )
    assert all(c.passed for c in result.get_asset_check_evaluations())
    assert rows(
        wh,
        "SELECT user_id, day, finding, samples, flow_readings, days_outside FROM discharges_without_permit",
    ) == [
        ("U-8", D(2026, 5, 20), "never_permitted", 0, 1, None),
        ("U-8", D(2026, 6, 9), "never_permitted", 1, 0, None),
    ]
    assert rows(wh, "SELECT user_id FROM permit_dates_missing") == [("U-9",)]
    assert rows(wh, "SELECT recipient_id, period, item, law FROM notice_items ORDER BY period") == [
        ("U-8", "2026-05", "no_permit", "Woodbury Code ch. 253 Part 2"),
        ("U-8", "2026-06", "no_permit", "Woodbury Code ch. 253 Part 2"),
    ]
    letter = (wh.parent / "dashboards" / "letters" / "sewer" / "notice_U-8_2026-05.html").read_text()
    assert "Discharging without a permit" in letter and "no permit issued to you" in letter


# ------------------------------------------------------------------ permits with a history (contract 8.2)

# R-1's permit P-1 ends June 30, 2026, and is renewed by P-1B from July 1 (the day after: no gap); R-2's
# P-2 ends June 30 and P-2B begins July 2 (one day, July 1, without a permit). Each discharged on June 30,
# July 1 and July 2.
HISTORY_USERS = """
user_id,name,district,address,permit_no,permit_effective,permit_expires
R-1,Renewed Works,consolidated,1 R St,P-1,2021-07-01,2026-06-30
R-2,Gap Works,consolidated,2 R St,P-2,2021-07-01,2026-06-30
"""
RENEWALS = """
user_id,permit_no,effective_on,expires_on,issued_on,withdrawn_reason
R-1,P-1B,2026-07-01,2031-06-30,2026-06-15,
R-2,P-2B,2026-07-02,2031-07-01,2026-07-02,
"""
HISTORY_LAB = """
sample_id,user_id,collected_at,sample_type,parameter,result,unit
H-1,R-1,2026-06-30T09:00,composite,BOD,100,mg/L
H-2,R-1,2026-07-01T09:00,composite,BOD,100,mg/L
H-3,R-1,2026-07-02T09:00,composite,BOD,100,mg/L
H-4,R-2,2026-06-30T09:00,composite,BOD,100,mg/L
H-5,R-2,2026-07-01T09:00,composite,BOD,100,mg/L
H-6,R-2,2026-07-02T09:00,composite,BOD,100,mg/L
"""
HISTORY_ASSETS = [ingest_asset(n) for n in ("industrial_users", "lab_results", "flow")] + [
    *PERMITS,
    permits.discharges_without_permit,
    permits.check_validity_permit_day,
]


def _history_run(data: Path, wh: Path, as_of: str, more: list | None = None):
    result = materialize_town(HISTORY_ASSETS + (more or []), data, wh, as_of)
    assert all(c.passed for c in own_checks(result))
    return result


def test_a_renewal_the_day_after_leaves_no_day_without_a_permit(tmp_path):
    from assets.sewer import enforcement

    data, wh = tmp_path / "data", tmp_path / "w.duckdb"
    write(data, "industrial_users/u.csv", HISTORY_USERS)
    write(data, "permits/renewals.csv", RENEWALS)
    write(data, "lab_results/r.csv", HISTORY_LAB)
    _history_run(data, wh, "2026-11-30", [enforcement.obligations])
    # June 30 under P-1, July 1 and 2 under P-1B: no day without a permit. R-2: July 1 only.
    assert rows(
        wh, "SELECT user_id, day, finding, permit_no, days_outside FROM discharges_without_permit"
    ) == [("R-2", D(2026, 7, 1), "permit_expired", "P-2", 1)]
    assert rows(
        wh,
        "SELECT user_id, permit_no, given_by, status, in_inputs, is_current FROM user_permits "
        "ORDER BY user_id, effective_on",
    ) == [
        ("R-1", "P-1", "industrial_users", "in_force", True, False),
        ("R-1", "P-1B", "permits", "in_force", True, True),
        ("R-2", "P-2", "industrial_users", "in_force", True, False),
        ("R-2", "P-2B", "permits", "in_force", True, True),
    ]
    # each expiring permit was renewed: the renewal line is closed (met on the day of issue, or late)
    assert rows(
        wh,
        "SELECT user_id, reference, due, satisfied_on, status, law FROM obligations "
        "WHERE obligation = 'permit_renewal' ORDER BY user_id",
    ) == [
        ("R-1", "P-1", D(2026, 6, 30), D(2026, 6, 15), "met", "Town practice: permit renewal reminder"),
        ("R-2", "P-2", D(2026, 6, 30), D(2026, 7, 2), "late", "Town practice: permit renewal reminder"),
    ]


def test_a_permit_not_yet_issued_on_the_day_judged_is_not_yet_a_fact(tmp_path):
    data, wh = tmp_path / "data", tmp_path / "w.duckdb"
    write(data, "industrial_users/u.csv", HISTORY_USERS)
    write(data, "permits/renewals.csv", RENEWALS)
    write(data, "lab_results/r.csv", HISTORY_LAB)
    _history_run(data, wh, "2026-07-01")
    # as of July 1, R-2's P-2B (issued and effective July 2) is not yet a permit of the run (contract 8.1);
    # R-1's P-1B, issued June 15 and in effect from July 1, is; it is the one a page names
    assert rows(wh, "SELECT permit_no, is_current FROM user_permits WHERE user_id = 'R-2'") == [("P-2", True)]
    assert rows(
        wh, "SELECT permit_no, is_current FROM user_permits WHERE user_id = 'R-1' ORDER BY permit_no"
    ) == [("P-1", False), ("P-1B", True)]
    # as of June 20 P-1B is issued but its first day, July 1, is after the day: not yet a fact (contract
    # 8.1 names a permit's effective day); P-1 is the one permit of the run
    _history_run(data, wh, "2026-06-20")
    assert rows(
        wh, "SELECT permit_no, is_current FROM user_permits WHERE user_id = 'R-1' ORDER BY permit_no"
    ) == [("P-1", True)]


# D-1's users file first gives permit P-9 (October 1, 2021 to September 30, 2026); it is then edited in
# place to the new permit P-9B, effective December 10, 2026. The old permit stays in force for its own
# days and is listed to confirm; a permits row with its number and a withdrawn_reason removes it.
DROPPED_BEFORE = """
user_id,name,district,address,permit_no,permit_effective,permit_expires
D-1,Edited Works,consolidated,1 D St,P-9,2021-10-01,2026-09-30
"""
DROPPED_AFTER = """
user_id,name,district,address,permit_no,permit_effective,permit_expires
D-1,Edited Works,consolidated,1 D St,P-9B,2026-12-10,2031-12-09
"""
DROPPED_LAB = """
sample_id,user_id,collected_at,sample_type,parameter,result,unit
E-1,D-1,2026-03-03T09:00,composite,BOD,100,mg/L
E-2,D-1,2026-10-05T09:00,composite,BOD,100,mg/L
"""


def test_a_permit_dropped_from_the_users_file_stays_in_force_until_withdrawn(tmp_path):
    from assets.worklist import worklist

    data, wh = tmp_path / "data", tmp_path / "w.duckdb"
    write(data, "industrial_users/u.csv", DROPPED_BEFORE)
    write(data, "lab_results/r.csv", DROPPED_LAB)
    _history_run(data, wh, "2026-11-30")
    assert rows(wh, "SELECT user_id, day FROM discharges_without_permit") == [("D-1", D(2026, 10, 5))]

    write(data, "industrial_users/u.csv", DROPPED_AFTER)  # edited in place
    _history_run(data, wh, "2026-12-14", [worklist])
    # March 3 was under P-9, which no input gives any longer: still in force for its own days
    assert rows(wh, "SELECT user_id, day, permit_no FROM discharges_without_permit") == [
        ("D-1", D(2026, 10, 5), "P-9")
    ]
    assert rows(
        wh,
        "SELECT permit_no, effective_on, expires_on, given_by, in_inputs FROM user_permits "
        "ORDER BY effective_on",
    ) == [
        ("P-9", D(2021, 10, 1), D(2026, 9, 30), "earlier_load", False),
        ("P-9B", D(2026, 12, 10), D(2031, 12, 9), "industrial_users", True),
    ]
    (line,) = rows(wh, "SELECT person, action, due, status FROM worklist WHERE source = 'user_permits'")
    assert line[0] == "superintendent" and line[2:] == (None, "undated")
    assert "permit P-9 is no longer in the inputs" in line[1]
    assert "October 1, 2021 to September 30, 2026" in line[1]

    # withdrawn by a permits row of its number: removed, and the confirm line closes
    write(
        data,
        "permits/withdrawn.csv",
        """
        user_id,permit_no,effective_on,expires_on,withdrawn_reason
        D-1,P-9,2021-10-01,2026-09-30,issued in error: superseded by P-9B
        """,
    )
    _history_run(data, wh, "2026-12-14", [worklist])
    assert rows(wh, "SELECT permit_no, status FROM user_permits ORDER BY effective_on") == [
        ("P-9", "withdrawn"),
        ("P-9B", "in_force"),
    ]
    assert rows(wh, "SELECT day, finding, permit_no FROM discharges_without_permit ORDER BY day") == [
        (D(2026, 3, 3), "permit_not_yet_effective", "P-9B"),
        (D(2026, 10, 5), "permit_not_yet_effective", "P-9B"),
    ]
    assert rows(wh, "SELECT count(*) FROM worklist WHERE source = 'user_permits'") == [(0,)]


def test_a_permits_row_that_confirms_a_dropped_permit_closes_its_line(tmp_path):
    from assets.worklist import worklist

    data, wh = tmp_path / "data", tmp_path / "w.duckdb"
    write(data, "industrial_users/u.csv", DROPPED_BEFORE)
    _history_run(data, wh, "2026-11-30")
    write(data, "industrial_users/u.csv", DROPPED_AFTER)
    write(
        data,
        "permits/kept.csv",
        """
        user_id,permit_no,effective_on,expires_on,issued_on
        D-1,P-9,2021-10-01,2026-09-30,2021-09-20
        """,
    )
    _history_run(data, wh, "2026-12-14", [worklist])
    assert rows(wh, "SELECT permit_no, given_by, in_inputs FROM user_permits ORDER BY effective_on") == [
        ("P-9", "permits", True),
        ("P-9B", "industrial_users", True),
    ]
    assert rows(wh, "SELECT count(*) FROM worklist WHERE source = 'user_permits'") == [(0,)]
