"""Discharging without a permit (Woodbury ch. 253 Part 2) materialized in process: samples and
flow readings on days a user's permit had expired or had not yet taken effect, and users whose permit term
is not on file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from assets.ingest import ingest_asset
from assets.sewer_administrator import compliance, permits
from tests.conftest import materialize_town, own_checks, query_warehouse as rows, write

D = dt.date

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
