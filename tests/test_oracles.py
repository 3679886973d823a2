"""The SQL of production against its independent oracle, the pure functions of outfall.law, on
inputs hypothesis draws at the law's boundaries, with rules that change from a date.

Production runs one implementation of each rule. Where that is SQL (per-sample discharge limits,
daily-maximum and monthly-average limits, slugs, infiltration), a plain-Python reading states the same
rule and these tests run both on the same inputs: the very functions the assets run
(assets.sewer.compliance.judge_*, run_slug_detection) against outfall.law.discharge,
tests/oracles/infiltration.py and outfall/demo/slugs.py. Each test's rules change from 2027-01-01 (a BOD
limit, the infiltration
allowance, the slug ratio), and the drawn days fall on both sides of the change.
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections import defaultdict
from zoneinfo import ZoneInfo

import duckdb
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from assets.common import schema_ddl
from assets.sewer import compliance
from outfall.demo import slugs as s
from outfall.law import discharge as d
from outfall.paths import RULES_DIR
from outfall.rules import load_rules, local_timezone
from outfall.warehouse import configure, ensure_schema, sql
from tests.oracles import infiltration as inf

D = dt.date
NY = ZoneInfo("America/New_York")
UTC = dt.UTC
CHANGE = D(2027, 1, 1)
DAYS = [D(2026, 12, 30), D(2026, 12, 31), CHANGE, D(2027, 1, 2)]
EXAMPLES = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# The shipped rules with three changes from 2027-01-01, made as CONTRIBUTING.md's recipes make them.
CHANGES = [
    (
        '(a): BOD in excess of 240 mg/l"\n    effective_from: null\n',
        "    effective_to: 2026-12-31\n  - {parameter: BOD, limit_type: max, value: 200, unit: mg/L, "
        'citation: "Local Law No. 3 of 2027 (test): BOD", effective_from: 2027-01-01}\n',
    ),
    (
        'of sewer per day"\n    effective_from: null\n',
        "    effective_to: 2026-12-31\n  - gal_per_inch_diameter_per_mile_per_day: 150\n    feet_per_mile: "
        "5280\n"
        '    citation: "Local Law No. 4 of 2027 (test): infiltration"\n    effective_from: 2027-01-01\n',
    ),
    (
        'the daily means of the 30 days before"\n    effective_from: null\n',
        "    effective_to: 2026-12-31\n  - {ratio: 4, min_duration_min: 15, baseline_days: 30, "
        "min_baseline_days: 7, "
        'gap_factor: 1.5, citation: "Local Law No. 2 of 2027 (test): SLUG", effective_from: 2027-01-01}\n',
    ),
]


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    folder = tmp_path_factory.mktemp("oracle") / "rules"
    shutil.copytree(RULES_DIR, folder)
    path = folder / "woodbury.yaml"
    text = path.read_text()
    for after, insert in CHANGES:
        assert text.count(after) == 1, after
        text = text.replace(after, after + insert)
    path.write_text(text)
    return load_rules("woodbury", folder)


@pytest.fixture(scope="module")
def con():
    connection = configure(duckdb.connect(), timezone=local_timezone())
    ensure_schema(connection, schema_ddl())
    yield connection
    connection.close()


def load(con: duckdb.DuckDBPyConnection, table: str, rows: list[dict]) -> None:
    con.execute(f'DELETE FROM "{table}"').fetchall()
    if rows:
        con.register("_oracle_rows", pd.DataFrame(rows))
        try:
            con.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM _oracle_rows').fetchall()
        finally:
            con.unregister("_oracle_rows")


def lab(sample_id, user_id, day, parameter, value, nondetect=False, sample_type="composite", hour=9):
    unit = {"pH": "s.u.", "temperature": "degF"}.get(parameter, "mg/L")
    return {
        "sample_id": sample_id,
        "user_id": user_id,
        "collected_at": dt.datetime.combine(day, dt.time(hour), NY),
        "collected_date": day,
        "sample_type": sample_type,
        "parameter": parameter,
        "result": value,
        "nondetect": nondetect,
        "qualifier": "<" if nondetect else None,
        "unit": unit,
    }


def rules_limits(rules) -> list[d.Limit]:
    """Every dated entry of the rules' per-sample and statistic limits, as the oracle's Limits."""
    entries = list(rules.discharge_limits) + list(rules.table_7_1.limits)
    return [
        d.Limit(
            e.parameter, e.limit_type, e.value, e.citation, "Part 2", None, e.effective_from, e.effective_to
        )
        for e in entries
    ]


# ------------------------------------------------------------------- per-sample discharge limits

VALUES = {
    "BOD": [150.0, 200.0, 200.01, 240.0, 240.01, 400.0, 400.01],
    "pH": [5.49, 5.5, 7.0, 9.5, 9.51],
    "COD": [599.99, 600.0, 600.01],
    "copper": [0.1],
}
results = st.lists(
    st.tuples(
        st.sampled_from(["IU-1", "IU-2"]),
        st.sampled_from(DAYS),
        st.sampled_from(sorted(VALUES)),
        st.integers(0, 6),
        st.booleans(),
    ),
    min_size=1,
    max_size=14,
)
permits = st.one_of(
    st.none(),
    st.tuples(
        st.sampled_from([None, *DAYS]),
        st.sampled_from([None, *DAYS]),
        st.sampled_from([None, "Special agreement 9"]),
    ),
)


@EXAMPLES
@given(drawn=results, permit=permits)
def test_discharge_sql_equals_the_oracle(con, rules, drawn, permit):
    rows = [
        lab(f"S-{i}", user, day, p, VALUES[p][k % len(VALUES[p])], nd)
        for i, (user, day, p, k, nd) in enumerate(drawn)
    ]
    permit_rows = (
        []
        if permit is None
        else [
            {
                "user_id": "IU-2",
                "parameter": "BOD",
                "limit_type": "max",
                "value": 400.0,
                "unit": "mg/L",
                "basis": permit[2],
                "effective_from": permit[0],
                "effective_to": permit[1],
            }
        ]
    )
    load(con, "lab_results", rows)
    load(con, "permit_limits", permit_rows)
    load(
        con,
        "industrial_users",
        [
            {
                "user_id": "IU-2",
                "name": "Blue",
                "district": "consolidated",
                "permit_no": "P-2",
                "permit_effective": D(2020, 1, 1),
            }
        ],
    )
    # each user's permits (contract 8.2), whose number a permit limit's rule names
    con.execute(sql("insert_user_permits"), {"as_of": CHANGE, "rule": ""}).fetchall()
    compliance.judge_discharges(con, rules)

    limits = rules_limits(rules)
    for p in permit_rows:
        text = rules.sewer_compliance.at(CHANGE).permit_limit_citation
        limits.append(
            d.Limit(
                p["parameter"],
                p["limit_type"],
                p["value"],
                d.permit_rule(p["basis"], "P-2", text),
                "permit",
                p["user_id"],
                p["effective_from"],
                p["effective_to"],
            )
        )
    expected = set()
    for r in rows:
        for limit_type in d.PER_SAMPLE_TYPES:
            lim = d.limit_in_effect(limits, r["user_id"], r["parameter"], limit_type, r["collected_date"])
            if lim is not None:
                expected.add(
                    (
                        r["sample_id"],
                        limit_type,
                        lim.value,
                        lim.rule,
                        d.evaluate(r["result"], lim.value, limit_type, r["nondetect"]),
                    )
                )
    got = set(
        con.execute(
            "SELECT sample_id, limit_type, limit_value, rule, outcome FROM discharge_evaluations"
        ).fetchall()
    )
    assert got == expected
    unlimited = {r[0] for r in con.execute("SELECT sample_id FROM unlimited_results").fetchall()}
    assert unlimited == {r["sample_id"] for r in rows if r["parameter"] == "copper"}


# ---------------------------------------------------- daily-maximum and monthly-average limits

statistic_results = st.lists(
    st.tuples(
        st.sampled_from(["COD", "TSS"]),
        st.sampled_from(DAYS + [D(2027, 2, 1)]),
        st.sampled_from([180.0, 200.0, 200.01, 450.0, 500.0, 500.01, 800.0]),
        st.booleans(),
        st.sampled_from(["composite", "grab"]),
    ),
    min_size=1,
    max_size=12,
)


@EXAMPLES
@given(drawn=statistic_results)
def test_statistic_sql_equals_the_oracle(con, rules, drawn):
    rows = [
        lab(f"S-{i}", "IU-1", day, p, v, nd, kind, hour=8 + i % 8)
        for i, (p, day, v, nd, kind) in enumerate(drawn)
    ]
    permit_rows = [
        {
            "user_id": "IU-1",
            "parameter": "COD",
            "limit_type": "daily_max",
            "value": 500.0,
            "unit": "mg/L",
            "basis": "agreement 1",
            "effective_from": None,
            "effective_to": None,
        },
        {
            "user_id": "IU-1",
            "parameter": "TSS",
            "limit_type": "monthly_avg",
            "value": 200.0,
            "unit": "mg/L",
            "basis": "agreement 2",
            "effective_from": None,
            "effective_to": None,
        },
    ]
    load(con, "lab_results", rows)
    load(con, "permit_limits", permit_rows)
    load(con, "industrial_users", [])
    compliance.judge_statistics(con, rules)

    def result(r):
        return d.Result(r["result"], r["nondetect"], r["sample_type"])

    def policy(day):  # the non-detect policy in effect on the day (one version across these days)
        return rules.nondetect_averaging.at(day).default

    expected = {}
    by_day, by_month = defaultdict(list), defaultdict(list)
    for r in rows:
        if r["parameter"] == "COD":
            by_day[r["collected_date"]].append(r)
        else:
            by_month[r["collected_date"].replace(day=1)].append(r)
    for day, items in by_day.items():
        value, n = d.daily_value([result(r) for r in items], policy(day))
        expected[("COD", "daily_max", day)] = (value, n, not d.statistic_breaks(value, 500.0))
    for month, items in by_month.items():
        value, n = d.monthly_average([result(r) for r in items], policy(month))
        expected[("TSS", "monthly_avg", month)] = (value, n, not d.statistic_breaks(value, 200.0))
    got = {
        (p, stat, start): (value, n, passes)
        for p, stat, start, value, n, passes in con.execute(
            "SELECT parameter, statistic, period_start, value, samples, passes FROM statistic_results"
        ).fetchall()
    }
    assert set(got) == set(expected)
    for key, (value, n, passes) in expected.items():
        assert got[key][1:] == (n, passes), key
        assert got[key][0] == pytest.approx(value), key


# ------------------------------------------------------------------------------- infiltration

tests_drawn = st.lists(
    st.tuples(
        st.sampled_from(DAYS),
        st.sampled_from([6.0, 8.0, 12.0]),
        st.sampled_from([100.0, 2640.0, 5280.0]),
        st.sampled_from([-0.01, 0.0, 0.01, 250.0]),
    ),
    min_size=1,
    max_size=8,
)


@EXAMPLES
@given(drawn=tests_drawn)
def test_infiltration_sql_equals_the_oracle(con, rules, drawn):
    rows = []
    for i, (day, diameter, length, delta) in enumerate(drawn):
        v = rules.infiltration.at(day)
        allowed = inf.allowable_gpd(
            diameter, length, v.gal_per_inch_diameter_per_mile_per_day, v.feet_per_mile
        )
        rows.append(
            {
                "section_id": f"MH-{i}",
                "test_date": day,
                "diameter_in": diameter,
                "length_ft": length,
                "measured_gpd": allowed + delta,
            }
        )  # exactly at, just under and just over the allowance
    load(con, "infiltration_tests", rows)
    compliance.judge_infiltration(con, rules)
    got = {
        r[0]: r[1:]
        for r in con.execute(
            "SELECT section_id, allowable_gpd, gpimd, passes, rule FROM infiltration_results"
        ).fetchall()
    }
    for r in rows:
        v = rules.infiltration.at(r["test_date"])
        want = inf.evaluate(
            r["section_id"],
            r["test_date"],
            r["diameter_in"],
            r["length_ft"],
            r["measured_gpd"],
            v.gal_per_inch_diameter_per_mile_per_day,
            v.feet_per_mile,
        )
        allowable, gpimd, passes, rule = got[r["section_id"]]
        assert (allowable, passes, rule) == (want.allowable_gpd, want.passes, v.citation)
        assert gpimd == pytest.approx(want.gpimd)


# ------------------------------------------------------------------------------------- slugs

START = dt.datetime(2026, 12, 30, 12, 0, tzinfo=NY)  # three days across the ratio's change (5 -> 4)
spikes = st.lists(
    st.tuples(st.integers(0, 260), st.integers(1, 6), st.sampled_from([3.9, 4.1, 4.9, 5.1, 8.0])), max_size=6
)


def series(user: str, step_min: int, n: int, base: float, drawn) -> list[dict]:
    rows = []
    start = START.astimezone(UTC)
    for i in range(n):
        value = base * (1 + (i * 37 % 11) / 1000)
        for at, length, factor in drawn:
            if at <= i < at + length:
                value = base * factor
        rows.append(
            {
                "user_id": user,
                "constituent": "flow",
                "ts": start + dt.timedelta(minutes=i * step_min),
                "value": value,
                "unit": "gpm",
            }
        )
    return rows


@EXAMPLES
@given(permit_spikes=spikes, history_spikes=spikes)
def test_slug_sql_equals_the_oracle(con, rules, permit_spikes, history_spikes):
    # IU-1: a permit baseline (100 gpm), 15-minute readings; IU-2: no permit, hourly readings for ten days
    # before and the same three days, so its baseline is the median of the days before.
    users = [
        {
            "user_id": "IU-1",
            "name": "A",
            "district": "consolidated",
            "permit_no": "P-1",
            "permit_effective": D(2026, 1, 1),
            "normal_avg_flow_gpd": 144000.0,
        },
        {
            "user_id": "IU-2",
            "name": "B",
            "district": "consolidated",
            "permit_no": "P-2",
            "permit_effective": D(2026, 1, 1),
            "normal_avg_flow_gpd": None,
        },
    ]
    history = [dict(r, ts=r["ts"] - dt.timedelta(days=10)) for r in series("IU-2", 60, 240, 50.0, [])]
    rows = (
        series("IU-1", 15, 288, 100.0, permit_spikes)
        + history
        + series("IU-2", 15, 288, 50.0, history_spikes)
    )
    load(con, "industrial_users", users)
    load(con, "flow", rows)
    for table in ("slug_daily_stats", "slug_intervals", "slug_events", "slug_baseline_gaps", "slug_state"):
        con.execute(f'DELETE FROM "{table}"').fetchall()
    con.execute(sql("create_slug_views")).fetchall()
    compliance.run_slug_detection(con, rules, None)

    expected, lacking = set(), {}
    gpd = {u["user_id"]: u["normal_avg_flow_gpd"] for u in users}
    for user in ("IU-1", "IU-2"):
        readings = [(r["ts"], r["value"]) for r in rows if r["user_id"] == user]
        events, days = s.detect(
            readings, s.params_on(rules.slug), rules.timezone, s.baseline_from_permit(gpd[user])
        )
        expected |= {
            (user, e.start_at, e.end_at, e.duration_min, e.readings, round(e.peak_ratio, 9)) for e in events
        }
        if days:
            lacking[user] = len(days)
    got = {
        (u, a.astimezone(UTC), b.astimezone(UTC), m, n, round(p, 9))
        for u, a, b, m, n, p in con.execute(
            "SELECT user_id, start_at, end_at, duration_min, readings, peak_ratio FROM slug_events"
        ).fetchall()
    }
    assert got == expected
    gaps = {
        u: n
        for u, n in con.execute(
            "SELECT user_id, sum(days_lacking)::INTEGER FROM slug_baseline_gaps GROUP BY 1"
        ).fetchall()
    }
    assert gaps == lacking
