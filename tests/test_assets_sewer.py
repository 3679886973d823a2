"""The sewer administrator's assets materialized in process on small fixtures,
cross-checked against the pure functions of outfall.law."""

import datetime as dt
import json
import math
from pathlib import Path
from zoneinfo import ZoneInfo

import duckdb
import pandas as pd
import pytest
from dagster_duckdb import DuckDBResource

from assets.common import schema_ddl
from assets.sewer import compliance as sewer, permits
from outfall.demo import slugs as s
from outfall.law import discharge as d
from outfall.resources import OutfallSettings
from outfall.rules import load_rules, local_timezone
from outfall.warehouse import configure, ensure_schema
from tests.conftest import materialize

NY = ZoneInfo("America/New_York")
UTC = dt.UTC
RULES = load_rules("woodbury")
DAY = dt.date(2026, 6, 30)  # the fixtures' rules: those in effect in 2026
SEWER_ASSETS = [
    permits.user_permits,  # each user's permits (contract 8.2): a permit limit's rule names its permit
    sewer.discharge_violations,
    sewer.statistic_violations,
    sewer.slug_events,
    sewer.infiltration_results,
    sewer.compliance_summary,
]


# ------------------------------------------------------------------ helpers


def new_warehouse(tmp_path: Path, name: str = "w.duckdb") -> Path:
    path = tmp_path / name
    with duckdb.connect(str(path)) as con:
        configure(con, timezone=local_timezone())
        ensure_schema(con, schema_ddl())
    return path


def insert(db: Path, table: str, rows: list[dict]) -> None:
    if not rows:
        return
    with duckdb.connect(str(db)) as con:
        configure(con, timezone=local_timezone())
        con.register("_rows", pd.DataFrame(rows))
        con.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM _rows')


def run(db: Path, tmp_path: Path, assets=None, as_of: str = "2026-06-30"):
    result = materialize(
        assets or SEWER_ASSETS,
        resources={
            "duckdb": DuckDBResource(database=str(db)),
            "settings": OutfallSettings(data_dir=str(tmp_path / "data"), as_of=as_of),
        },
    )
    assert result.success
    return result


def query(db: Path, sql: str, params=None) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        configure(con, timezone=local_timezone())
        return con.execute(sql, params or []).fetchall()


def lab(sample_id, user_id, day, parameter, value, unit, sample_type="composite", nondetect=False, hour=9):
    at = dt.datetime.combine(day, dt.time(hour), tzinfo=NY)
    return {
        "sample_id": sample_id,
        "user_id": user_id,
        "collected_at": at,
        "collected_date": day,
        "sample_type": sample_type,
        "parameter": parameter,
        "parameter_reported": parameter,
        "result": value,
        "nondetect": nondetect,
        "qualifier": "<" if nondetect else None,
        "unit": unit,
        "unit_reported": unit,
    }


USERS = [
    {
        "user_id": "IU-1",
        "name": "Acme Plating",
        "district": "consolidated",
        "permit_no": "P-1",
        "permit_effective": dt.date(2025, 1, 1),
        "permit_expires": dt.date(2027, 1, 1),
        "normal_avg_flow_gpd": 144000.0,
    },
    {
        "user_id": "IU-2",
        "name": "Blue Brewery",
        "district": "district_1",
        "permit_no": "P-2",
        "permit_effective": dt.date(2025, 1, 1),
        "permit_expires": dt.date(2026, 8, 1),
        "normal_avg_flow_gpd": None,
    },
]
PERMIT_LIMITS = [
    {
        "user_id": "IU-2",
        "parameter": "BOD",
        "limit_type": "max",
        "value": 400.0,
        "unit": "mg/L",
        "basis": "Special agreement 2026-1",
        "effective_from": dt.date(2026, 3, 1),
        "effective_to": dt.date(2026, 5, 31),
    },
    {
        "user_id": "IU-2",
        "parameter": "TSS",
        "limit_type": "monthly_avg",
        "value": 200.0,
        "unit": "mg/L",
        "basis": "Special agreement 2026-2",
        "effective_from": dt.date(2026, 1, 1),
        "effective_to": None,
    },
    {
        "user_id": "IU-2",
        "parameter": "COD",
        "limit_type": "daily_max",
        "value": 500.0,
        "unit": "mg/L",
        "basis": None,
        "effective_from": None,
        "effective_to": None,
    },
]
FEB3 = dt.date(2026, 2, 3)
LAB = [
    lab("S-1", "IU-1", FEB3, "BOD", 240.0, "mg/L"),
    lab("S-2", "IU-1", FEB3, "BOD", 240.01, "mg/L"),
    lab("S-3", "IU-1", FEB3, "pH", 5.5, "s.u.", "grab"),
    lab("S-4", "IU-1", FEB3, "pH", 5.49, "s.u.", "grab"),
    lab("S-5", "IU-1", FEB3, "pH", 9.5, "s.u.", "grab"),
    lab("S-6", "IU-1", FEB3, "pH", 9.51, "s.u.", "grab"),
    lab("S-7", "IU-1", FEB3, "temperature", d.to_canonical(65.5, "degC", "temperature")[0], "degF", "grab"),
    lab("S-8", "IU-1", FEB3, "temperature", d.to_canonical(65.6, "degC", "temperature")[0], "degF", "grab"),
    lab("S-9", "IU-1", FEB3, "BOD", 240.0, "mg/L", nondetect=True),
    lab("S-10", "IU-1", FEB3, "BOD", 250.0, "mg/L", nondetect=True),
    lab("S-11", "IU-1", FEB3, "copper", d.to_canonical(250, "ug/L", "copper")[0], "mg/L"),
    lab("S-12", "IU-1", FEB3, "BOD", d.to_canonical(240010, "ug/L", "BOD")[0], "mg/L"),
    lab("S-13", "IU-1", FEB3, "chlorine_demand", 25.01, "mg/L"),
    lab("S-14", "IU-1", FEB3, "FOG", 100.0, "mg/L"),
    # IU-2's special agreement on BOD: 400 mg/L from 2026-03-01 to 2026-05-31
    lab("S-20", "IU-2", dt.date(2026, 2, 28), "BOD", 350.0, "mg/L"),
    lab("S-21", "IU-2", dt.date(2026, 3, 1), "BOD", 350.0, "mg/L"),
    lab("S-22", "IU-2", dt.date(2026, 4, 1), "BOD", 410.0, "mg/L"),
    lab("S-23", "IU-2", dt.date(2026, 5, 31), "BOD", 400.0, "mg/L"),
    lab("S-24", "IU-2", dt.date(2026, 6, 1), "BOD", 350.0, "mg/L"),
    # monthly average TSS 200: April (150 + 250 + <100 as 50) / 3 = 150; May (300 + 250) / 2 = 275
    lab("S-30", "IU-2", dt.date(2026, 4, 2), "TSS", 150.0, "mg/L"),
    lab("S-31", "IU-2", dt.date(2026, 4, 9), "TSS", 250.0, "mg/L"),
    lab("S-32", "IU-2", dt.date(2026, 4, 16), "TSS", 100.0, "mg/L", nondetect=True),
    lab("S-33", "IU-2", dt.date(2026, 5, 5), "TSS", 300.0, "mg/L"),
    lab("S-34", "IU-2", dt.date(2026, 5, 12), "TSS", 250.0, "mg/L"),
    # daily maximum COD 500: the composite decides on 04-10; the grabs' mean (525) on 04-11
    lab("S-40", "IU-2", dt.date(2026, 4, 10), "COD", 450.0, "mg/L", "composite"),
    lab("S-41", "IU-2", dt.date(2026, 4, 10), "COD", 700.0, "mg/L", "grab", hour=10),
    lab("S-42", "IU-2", dt.date(2026, 4, 10), "COD", 800.0, "mg/L", "grab", hour=11),
    lab("S-43", "IU-2", dt.date(2026, 4, 11), "COD", 450.0, "mg/L", "grab"),
    lab("S-44", "IU-2", dt.date(2026, 4, 11), "COD", 600.0, "mg/L", "grab", hour=10),
]


def python_limits() -> list[d.Limit]:
    out = [
        d.Limit(
            lim.parameter,
            lim.limit_type,
            lim.value,
            lim.citation,
            "Part 2",
            None,
            lim.effective_from,
            lim.effective_to,
        )
        for lim in RULES.discharge_limits
    ]
    for p in PERMIT_LIMITS:
        rule = d.permit_rule(p["basis"], "P-2", RULES.sewer_compliance.at(DAY).permit_limit_citation)
        out.append(
            d.Limit(
                p["parameter"],
                p["limit_type"],
                p["value"],
                rule,
                "permit",
                p["user_id"],
                p["effective_from"],
                p["effective_to"],
            )
        )
    return out


@pytest.fixture
def discharge_db(tmp_path: Path) -> Path:
    db = new_warehouse(tmp_path)
    insert(db, "industrial_users", USERS)
    insert(db, "permit_limits", PERMIT_LIMITS)
    insert(db, "lab_results", LAB)
    insert(
        db,
        "infiltration_tests",
        [
            {
                "section_id": "MH1-MH2",
                "test_date": dt.date(2026, 5, 1),
                "diameter_in": 8.0,
                "length_ft": 5280.0,
                "measured_gpd": 1600.0,
            },
            {
                "section_id": "MH2-MH3",
                "test_date": dt.date(2026, 5, 1),
                "diameter_in": 8.0,
                "length_ft": 5280.0,
                "measured_gpd": 1600.01,
            },
        ],
    )
    run(db, tmp_path)
    return db


# ------------------------------------------------------ discharge violations


def test_sql_evaluations_equal_the_pure_functions(discharge_db: Path):
    limits = python_limits()
    expected = set()
    for row in LAB:
        for limit_type in d.PER_SAMPLE_TYPES:
            lim = d.limit_in_effect(
                limits, row["user_id"], row["parameter"], limit_type, row["collected_date"]
            )
            if lim is not None:
                expected.add(
                    (
                        row["sample_id"],
                        limit_type,
                        lim.value,
                        lim.rule,
                        d.evaluate(row["result"], lim.value, limit_type, row["nondetect"]),
                    )
                )
    got = set(
        query(
            discharge_db,
            "SELECT sample_id, limit_type, limit_value, rule, outcome FROM discharge_evaluations",
        )
    )
    assert got == expected


def test_violations_at_the_boundaries(discharge_db: Path):
    rows = query(
        discharge_db,
        "SELECT sample_id, parameter, limit_type, limit_value, unit, rule "
        "FROM discharge_violations ORDER BY sample_id",
    )
    by_sample = {r[0]: r for r in rows}
    assert set(by_sample) == {
        "S-2",
        "S-4",
        "S-6",
        "S-8",
        "S-12",
        "S-13",
        "S-20",
        "S-22",
        "S-24",
        "S-41",
        "S-42",
    }
    assert by_sample["S-4"][2:4] == ("min", 5.5) and "lower than 5.5" in by_sample["S-4"][5]
    assert by_sample["S-6"][2:4] == ("max", 9.5)
    assert by_sample["S-8"][1:5] == ("temperature", "max", 150.0, "degF")
    assert by_sample["S-2"][5].startswith("Woodbury Code ch. 253 Part 2") and "(a)" in by_sample["S-2"][5]
    assert by_sample["S-22"][3:] == (400.0, "mg/L", "Special agreement 2026-1 (permit P-2)")
    assert by_sample["S-20"][3] == 240.0 and by_sample["S-24"][3] == 240.0  # before / after the agreement
    ratio = query(discharge_db, "SELECT exceedance_ratio FROM discharge_violations WHERE sample_id = 'S-4'")[
        0
    ][0]
    assert ratio == pytest.approx(5.5 / 5.49)


def test_nondetects_and_unlimited_parameters_are_reported_apart(discharge_db: Path):
    assert query(
        discharge_db, "SELECT sample_id, detection_value, limit_value, limit_type FROM inconclusive_results"
    ) == [("S-10", 250.0, 240.0, "max")]
    assert query(discharge_db, "SELECT sample_id, parameter, value, reason FROM unlimited_results") == [
        ("S-11", "copper", 0.25, "no limit defined")
    ]
    # S-9 (<240 against 240) is simply compliant
    assert query(discharge_db, "SELECT outcome FROM discharge_evaluations WHERE sample_id = 'S-9'") == [
        ("compliant",)
    ]
    # every result is judged somewhere, none dropped
    assert query(
        discharge_db,
        """
        SELECT count(*) FROM lab_results r
        WHERE NOT EXISTS (SELECT 1 FROM discharge_evaluations e WHERE e.sample_id = r.sample_id)
        AND NOT EXISTS (SELECT 1 FROM unlimited_results u WHERE u.sample_id = r.sample_id)""",
    ) == [(0,)]


def test_statistic_limits(discharge_db: Path):
    rows = query(
        discharge_db,
        "SELECT parameter, statistic, period_start, period_end, value, limit_value, samples, "
        "nondetects, passes FROM statistic_results ORDER BY statistic, period_start",
    )
    policy = RULES.nondetect_averaging.at(DAY).default
    april = d.monthly_average([d.Result(150.0), d.Result(250.0), d.Result(100.0, nondetect=True)], policy)
    assert rows == [
        ("COD", "daily_max", dt.date(2026, 4, 10), dt.date(2026, 4, 10), 450.0, 500.0, 1, 0, True),
        ("COD", "daily_max", dt.date(2026, 4, 11), dt.date(2026, 4, 11), 525.0, 500.0, 2, 0, False),
        ("TSS", "monthly_avg", dt.date(2026, 4, 1), dt.date(2026, 4, 30), april[0], 200.0, 3, 1, True),
        ("TSS", "monthly_avg", dt.date(2026, 5, 1), dt.date(2026, 5, 31), 275.0, 200.0, 2, 0, False),
    ]
    assert april[0] == 150.0  # half the detection value under half_dl
    violations = query(
        discharge_db, "SELECT parameter, statistic, value, rule FROM statistic_violations ORDER BY 1"
    )
    assert violations == [
        ("COD", "daily_max", 525.0, RULES.sewer_compliance.at(DAY).statistic_citation + " (permit P-2)"),
        ("TSS", "monthly_avg", 275.0, "Special agreement 2026-2 (permit P-2)"),
    ]


def test_infiltration(discharge_db: Path):
    rows = query(
        discharge_db,
        "SELECT section_id, allowable_gpd, measured_gpd, gpimd, passes, rule "
        "FROM infiltration_results ORDER BY section_id",
    )
    assert [r[:5] for r in rows] == [
        ("MH1-MH2", 1600.0, 1600.0, 200.0, True),
        ("MH2-MH3", 1600.0, 1600.01, 1600.01 / 8, False),
    ]
    assert all("200 gallons per inch of pipe diameter per mile" in r[5] for r in rows)
    findings = query(discharge_db, "SELECT section_id, excess_gpd, rule FROM infiltration_findings")
    assert len(findings) == 1 and findings[0][0] == "MH2-MH3" and findings[0][1] == pytest.approx(0.01)
    assert "ch. 253 Part 2" in findings[0][2]


def test_compliance_summary(discharge_db: Path):
    rows = {
        (r[0], r[1]): r
        for r in query(
            discharge_db,
            """
        SELECT user_id, month, samples_taken, parameters_evaluated, violations, statistic_violations,
               inconclusive, unlimited_results, slugs, worst_exceedance_ratio, worst_parameter,
               permit_expires, days_left, permit_expiry_flag, permit_status
        FROM compliance_summary""",
        )
    }
    feb = rows[("IU-1", dt.date(2026, 2, 1))]
    # BOD, pH, temperature, chlorine_demand, FOG evaluated (copper has no limit)
    assert feb[2:9] == (14, 5, 6, 0, 1, 1, 0)
    assert feb[9:11] == (pytest.approx(5.5 / 5.49), "pH")  # the worst: pH 5.49 against 5.5
    assert feb[11:] == (dt.date(2027, 1, 1), 185, False, "in effect")
    april = rows[("IU-2", dt.date(2026, 4, 1))]
    assert april[4:6] == (3, 1)  # S-22 BOD, S-41 and S-42 COD; the COD daily maximum of 04-11
    assert april[12:] == (32, True, "expires within 90 days")
    # every user and month appears once
    assert len(rows) == len(query(discharge_db, "SELECT * FROM compliance_summary"))


def test_assets_write_empty_tables_on_empty_inputs(tmp_path: Path):
    db = new_warehouse(tmp_path)
    run(db, tmp_path)
    for table in (
        "discharge_violations",
        "discharge_evaluations",
        "inconclusive_results",
        "unlimited_results",
        "statistic_results",
        "statistic_violations",
        "slug_events",
        "slug_baseline_gaps",
        "infiltration_results",
        "infiltration_findings",
        "compliance_summary",
    ):
        assert query(db, f"SELECT count(*) FROM {table}") == [(0,)], table


def test_rerun_gives_identical_tables(discharge_db: Path, tmp_path: Path):
    tables = (
        "discharge_evaluations",
        "discharge_violations",
        "statistic_results",
        "compliance_summary",
        "infiltration_results",
    )
    before = {t: sorted(query(discharge_db, f"SELECT * FROM {t}"), key=repr) for t in tables}
    run(discharge_db, tmp_path)
    assert before == {t: sorted(query(discharge_db, f"SELECT * FROM {t}"), key=repr) for t in tables}


# -------------------------------------------------------------------- slugs


def flow_rows(
    user: str,
    start: dt.datetime,
    days: int,
    step_min: int,
    seed: int,
    spikes,
    loaded_at=None,
    constituent: str = "flow",
) -> list[dict]:
    """Deterministic readings with spikes: (start offset in minutes, length in readings, factor)."""
    n = days * 1440 // step_min
    rows = []
    start = start.astimezone(UTC)  # step in real time (aware arithmetic in a zone is wall-clock)
    for i in range(n):
        ts = start + dt.timedelta(minutes=i * step_min)
        value = (
            100.0
            * (1 + 0.3 * math.sin(i * step_min * 2 * math.pi / 1440))
            * (1 + ((i * 7919 + seed) % 97) / 970)
        )
        for offset, length, factor in spikes:
            if offset <= i * step_min < offset + length * step_min:
                value *= factor
        rows.append(
            {
                "user_id": user,
                "constituent": constituent,
                "ts": ts.astimezone(UTC),
                "value": value,
                "unit": "gpm",
                "loaded_at": loaded_at,
            }
        )
    return rows


START = dt.datetime(2026, 2, 20, 0, 0, tzinfo=NY)  # 18 days, across the 2026-03-08 spring-forward
DST_MIN = int((dt.datetime(2026, 3, 8, 1, 45, tzinfo=NY) - START).total_seconds() // 60)
MIDNIGHT_MIN = int((dt.datetime(2026, 3, 4, 23, 50, tzinfo=NY) - START).total_seconds() // 60)
SPIKES = {
    # user: (step, spikes)
    "IU-1": (
        1,
        [
            (DST_MIN, 30, 8.0),
            (DST_MIN + 600, 15, 9.0),
            (MIDNIGHT_MIN, 20, 7.0),
            (MIDNIGHT_MIN + 2000, 16, 9.0),
            (MIDNIGHT_MIN + 4000, 40, 8.0),
        ],
    ),
    "IU-2": (15, [(MIDNIGHT_MIN, 3, 9.0), (MIDNIGHT_MIN + 3000, 1, 9.0), (DST_MIN, 4, 9.0)]),
    "IU-3": (5, [(DST_MIN - 20, 10, 8.0), (MIDNIGHT_MIN - 900, 2, 8.0)]),
}


def all_flow(days=18, loaded_at=None):
    rows = []
    for seed, (user, (step, spikes)) in enumerate(SPIKES.items()):
        rows += flow_rows(user, START, days, step, seed, spikes, loaded_at)
    # a pH probe on IU-3 (5 x its pH is never reached: no slugs, but judged)
    rows += flow_rows("IU-3", START, 3, 60, 9, [], loaded_at, constituent="pH")
    return rows


def reference_events(rows, users=USERS):
    gpd = {u["user_id"]: u["normal_avg_flow_gpd"] for u in users}
    out, lacking = set(), {}
    keys = sorted({(r["user_id"], r["constituent"]) for r in rows})
    for user, constituent in keys:
        series_ = [
            (r["ts"], r["value"]) for r in rows if (r["user_id"], r["constituent"]) == (user, constituent)
        ]
        fixed = s.baseline_from_permit(gpd.get(user)) if constituent == "flow" else None
        events, days = s.detect(series_, s.params_on(RULES.slug), RULES.timezone, fixed)
        for e in events:
            out.add(
                (
                    user,
                    constituent,
                    e.start_at,
                    e.end_at,
                    e.duration_min,
                    e.readings,
                    round(e.baseline, 9),
                    round(e.peak_value, 9),
                )
            )
        if days:
            lacking[(user, constituent)] = len(days)
    return out, lacking


def sql_events(db: Path):
    got = query(
        db,
        "SELECT user_id, constituent, start_at, end_at, duration_min, readings, baseline, peak_value "
        "FROM slug_events",
    )
    return {
        (u, c, a.astimezone(UTC), b.astimezone(UTC), m, n, round(bl, 9), round(p, 9))
        for u, c, a, b, m, n, bl, p in got
    }


@pytest.fixture
def slug_db(tmp_path: Path) -> Path:
    db = new_warehouse(tmp_path)
    insert(db, "industrial_users", USERS)
    insert(db, "flow", all_flow())
    run(db, tmp_path, [sewer.slug_events])
    return db


def test_sql_slugs_equal_the_reference(slug_db: Path):
    expected, lacking = reference_events(all_flow())
    got = sql_events(slug_db)
    assert got == expected
    # the fixture's boundaries: IU-1 (permit baseline) 30 readings across the DST change, 20 across
    # midnight, 16 (16 min: a slug), 15 (15 min: not); IU-2 (15-minute meter) 3 readings across
    # midnight and 4 across the DST change; a single 15-minute reading is not a slug
    by_user = {}
    for e in got:
        by_user.setdefault(e[0], []).append(e[4])
    assert sorted(by_user["IU-1"]) == [16, 20, 30, 40]
    assert sorted(by_user["IU-2"]) == [45, 60]
    assert sorted(by_user["IU-3"]) == [50]
    gaps = {
        (u, c): n
        for u, c, n in query(slug_db, "SELECT user_id, constituent, days_lacking FROM slug_baseline_gaps")
    }
    assert gaps == lacking
    assert ("IU-1", "flow") not in gaps  # the permit baseline judges every day
    assert gaps[("IU-2", "flow")] == 7  # the first 7 days have fewer than 7 days before them


def test_slug_rows_name_the_rule_and_units(slug_db: Path):
    rows = query(slug_db, "SELECT DISTINCT unit, rule FROM slug_events")
    assert rows == [("gpm", RULES.slug.at(START.date()).citation)]
    assert query(slug_db, "SELECT count(*) FROM slug_events WHERE peak_ratio <= 5 OR duration_min <= 15") == [
        (0,)
    ]
    dst = query(
        slug_db,
        "SELECT start_at, end_at, duration_min, baseline FROM slug_events "
        "WHERE user_id = 'IU-1' AND duration_min = 30",
    )[0]
    assert dst[0].astimezone(NY).strftime("%H:%M %Z") == "01:45 EST"
    assert dst[1].astimezone(NY).strftime("%H:%M %Z") == "03:14 EDT"
    assert dst[3] == 100.0  # 144,000 gpd / 1440


KEPT_BESIDE_SLUGS = (
    "SELECT user_id, constituent, start_at, end_at, ts, value, inside FROM _slug_event_readings ORDER BY ALL"
)
BESIDE_SLUGS = """
SELECT s.user_id, s.constituent, s.start_at, s.end_at, f.ts, f.value, f.ts BETWEEN s.start_at AND s.end_at
FROM flow f JOIN slug_events s ON f.user_id = s.user_id AND f.constituent = s.constituent
 AND f.ts BETWEEN s.start_at - INTERVAL 1 HOUR AND s.end_at + INTERVAL 1 HOUR
WHERE f.value IS NOT NULL ORDER BY ALL"""


@pytest.mark.parametrize("cut_minute", [0, 7])
def test_appended_days_are_judged_incrementally_and_equal_a_full_run(tmp_path: Path, cut_minute: int):
    t1, t2 = dt.datetime(2026, 3, 10, tzinfo=UTC), dt.datetime(2026, 3, 11, tzinfo=UTC)
    rows = all_flow(loaded_at=t1)
    # mid-run: IU-1's 23:50 spike straddles the cut; at 00:07 its first 17 minutes are already a
    # slug (stored by the first run, then replaced by the whole 20-minute one)
    cut = dt.datetime(2026, 3, 5, 0, cut_minute, tzinfo=NY)
    first = [r for r in rows if r["ts"] < cut]
    second = [dict(r, loaded_at=t2) for r in rows if r["ts"] >= cut]
    inc = new_warehouse(tmp_path, "inc.duckdb")
    insert(inc, "industrial_users", USERS)
    insert(inc, "flow", first)
    run(inc, tmp_path, [sewer.slug_events])
    assert query(inc, "SELECT mode FROM slug_state") == [("full",)]
    stored = {e[4] for e in sql_events(inc) if e[0] == "IU-1"}
    assert (17 in stored) is (cut_minute == 7)
    insert(inc, "flow", second)
    run(inc, tmp_path, [sewer.slug_events])
    assert query(inc, "SELECT mode, detected_from FROM slug_state") == [("incremental", dt.date(2026, 3, 4))]
    full = new_warehouse(tmp_path, "full.duckdb")
    insert(full, "industrial_users", USERS)
    insert(full, "flow", rows)
    run(full, tmp_path, [sewer.slug_events])
    assert sql_events(inc) == sql_events(full)
    assert query(inc, "SELECT * FROM slug_baseline_gaps ORDER BY ALL") == query(
        full, "SELECT * FROM slug_baseline_gaps ORDER BY ALL"
    )
    # the readings kept beside the slugs for the page: only the slugs judged again are read, and
    # they are those of a full run, and of every reading within an hour of every slug
    assert query(inc, KEPT_BESIDE_SLUGS) == query(full, KEPT_BESIDE_SLUGS) == query(full, BESIDE_SLUGS)
    assert len(query(full, KEPT_BESIDE_SLUGS)) > 100
    # nothing new: nothing to do, nothing changes (not even the state)
    run(inc, tmp_path, [sewer.slug_events])
    assert query(inc, "SELECT mode FROM slug_state") == [("incremental",)]
    assert sql_events(inc) == sql_events(full)
    # a late reading for an old day: judged in full again
    insert(
        inc,
        "flow",
        [
            dict(
                first[0],
                ts=first[0]["ts"] - dt.timedelta(minutes=1),
                loaded_at=dt.datetime(2026, 3, 12, tzinfo=UTC),
            )
        ],
    )
    run(inc, tmp_path, [sewer.slug_events])
    assert query(inc, "SELECT mode FROM slug_state") == [("full",)]


def test_readings_appended_beside_an_unchanged_slug_are_kept_with_it(tmp_path: Path):
    """A slug ending in the last half hour of the readings stored is judged again, the same, when the
    next day is appended: the appended readings within an hour of it are read and kept with it."""
    day = dt.datetime(2026, 3, 3, tzinfo=NY)
    t1, t2 = dt.datetime(2026, 3, 10, tzinfo=UTC), dt.datetime(2026, 3, 11, tzinfo=UTC)

    def minutes(first: int, last: int, loaded_at) -> list[dict]:  # IU-1's permit baseline: 100 gpm
        return [
            {
                "user_id": "IU-1",
                "constituent": "flow",
                "ts": day + dt.timedelta(minutes=i),
                "unit": "gpm",
                "value": 1000.0 if 23 * 60 <= i < 23 * 60 + 30 else 50.0,
                "loaded_at": loaded_at,
            }
            for i in range(first, last)
        ]

    db = new_warehouse(tmp_path)
    insert(db, "industrial_users", USERS)
    insert(db, "flow", minutes(0, 24 * 60, t1))
    run(db, tmp_path, [sewer.slug_events])
    assert len(query(db, KEPT_BESIDE_SLUGS)) == 120  # 22:00 to 23:59: the readings stop there
    insert(db, "flow", minutes(24 * 60, 26 * 60, t2))
    run(db, tmp_path, [sewer.slug_events])
    assert query(db, "SELECT mode FROM slug_state") == [("incremental",)]
    assert query(db, "SELECT count(*) FROM slug_events") == [(1,)]
    assert query(db, KEPT_BESIDE_SLUGS) == query(db, BESIDE_SLUGS)
    assert len(query(db, KEPT_BESIDE_SLUGS)) == 150  # 22:00 to 00:29


@pytest.mark.slow  # the whole run end to end
def test_benchmark_smoke(tmp_path: Path, capsys):
    from benchmarks import slugs

    assert (
        slugs.main(["--meters", "3", "--days", "10", "--dir", str(tmp_path / "bench"), "--verify", "--json"])
        == 0
    )
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["readings"] > 3 * 10 * 1400
    assert figures["append_mode"] == "incremental" and figures["incremental_equals_full"] is True
    assert figures["slug_detection_s"] > 0 and figures["reference_s"] > 0


def test_asset_checks_pass(tmp_path: Path):
    db = new_warehouse(tmp_path)
    insert(db, "industrial_users", USERS)
    insert(db, "permit_limits", PERMIT_LIMITS)
    insert(db, "lab_results", LAB)
    insert(db, "flow", all_flow(days=9))
    checks = [
        sewer.check_validity_discharge_violations_limit,
        sewer.check_completeness_lab_results_parameter,
        sewer.check_validity_slug_events_duration,
    ]
    result = materialize(
        SEWER_ASSETS + checks,
        resources={
            "duckdb": DuckDBResource(database=str(db)),
            "settings": OutfallSettings(data_dir=str(tmp_path / "data"), as_of="2026-06-30"),
        },
    )
    evaluations = result.get_asset_check_evaluations()
    assert len(evaluations) == 3 and all(e.passed for e in evaluations)
