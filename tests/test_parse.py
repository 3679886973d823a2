"""Parsers of input cells (SQL run by DuckDB): each value and each reason."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import duckdb
import pandas as pd
import pytest

from outfall import vocab
from outfall.ingest import parse
from outfall.ingest.compile import create_lookups
from outfall.ingest.datasets import DISTRICT_VOCAB, Context
from outfall.ingest.registry import all_datasets
from outfall.rules import load_town

TOWN = load_town()
TZ = TOWN.timezone


@pytest.fixture(scope="module")
def con():
    c = duckdb.connect()
    c.execute(f"SET TimeZone = '{TZ}'")
    create_lookups(c, all_datasets().values(), Context(timezone=TZ, jurisdictions=TOWN.jurisdictions))
    yield c
    c.close()


def run(con, fn, values, *args, src_type="VARCHAR"):
    """[(value, reason)] of ``fn`` applied to a column of ``values``."""
    value_sql, reason_sql, *_ = fn('"v"', "col", src_type, *args) if args == () else fn('"v"', "col", *args)
    frame = pd.DataFrame({"v": values, "i": range(len(values))})
    con.register("_cells", frame)
    try:
        params = {"tz": TZ} if "$tz" in value_sql + reason_sql else {}
        return [
            tuple(r)
            for r in con.execute(
                f"SELECT {value_sql}, {reason_sql} FROM _cells ORDER BY i", params
            ).fetchall()
        ]
    finally:
        con.unregister("_cells")


def one(con, fn, value, src_type="VARCHAR"):
    value_sql, reason_sql, *_ = fn('"v"', "col", src_type)
    params = {"tz": TZ} if "$tz" in value_sql + reason_sql else {}
    con.execute(f"CREATE OR REPLACE TEMP TABLE _one AS SELECT CAST(? AS {src_type}) AS v", [value])
    got, why = con.execute(f"SELECT {value_sql}, {reason_sql} FROM _one", params).fetchall()[0]
    return got, why or ""


def utc(text: str) -> dt.datetime:
    return pd.Timestamp(text).to_pydatetime()


@pytest.mark.parametrize(
    "text,instant",
    [
        ("2026-03-01", "2026-03-01T05:00:00+00:00"),  # a date is local midnight
        ("2026-07-01T08:30", "2026-07-01T12:30:00+00:00"),  # local daylight time
        ("2026-01-01 08:30:00", "2026-01-01T13:30:00+00:00"),  # local standard time
        ("2026-07-01T08:30:00-05:00", "2026-07-01T13:30:00+00:00"),  # an offset is that instant
        ("2026-07-01T12:30Z", "2026-07-01T12:30:00+00:00"),
        ("2026-07-01T12:30:00+0530", "2026-07-01T07:00:00+00:00"),
        ("7/1/2026 08:30", "2026-07-01T12:30:00+00:00"),
        ("7/1/2026", "2026-07-01T04:00:00+00:00"),
    ],
)
def test_timestamps_are_utc_instants(con, text, instant):
    value, reason = one(con, parse.parse_timestamp, text)
    assert reason == ""
    assert value == utc(instant)


def test_spring_forward_hour_is_refused_and_fall_back_hour_is_flagged(con):
    value_sql, reason_sql, amb_sql = parse.parse_timestamp('"v"', "t")
    rows = con.execute(
        f"SELECT epoch({value_sql}), {reason_sql}, {amb_sql} FROM (VALUES ('2026-03-08T02:30'), "
        "('2026-11-01T01:30'), ('2026-11-01T00:30')) t(v)",
        {"tz": TZ},
    ).fetchall()
    assert rows[0][0] is None and "does not exist" in rows[0][1] and "'2026-03-08T02:30'" in rows[0][1]
    # the repeated hour is read as daylight time (first occurrence) and flagged for the engine
    assert rows[1][0] == utc("2026-11-01T05:30:00+00:00").timestamp() and rows[1][2] is True
    assert rows[2][2] is False


@pytest.mark.parametrize(
    "src_type,value,expected",
    [
        ("TIMESTAMP", dt.datetime(2026, 7, 1, 8, 30), "2026-07-01T12:30:00+00:00"),  # naive Parquet: local
        ("DATE", dt.date(2026, 3, 1), "2026-03-01T05:00:00+00:00"),
    ],
)
def test_native_timestamps(con, src_type, value, expected):
    assert one(con, parse.parse_timestamp, value, src_type) == (utc(expected), "")


@pytest.mark.parametrize(
    "text,value,ok",
    [
        ("1", 1.0, True),
        ("2.50", 2.5, True),
        ("1,000", 1000.0, True),
        ("12,345.6", 12345.6, True),
        ("$1,234.50", 1234.5, True),
        ("-3", -3.0, True),
        (".5", 0.5, True),
        ("1e3", 1000.0, True),
        ("abc", None, False),
        ("inf", None, False),
        ("NaN", None, False),
        ("-inf", None, False),
        ("1e999", None, False),
        ("", None, True),
        ("2,5", None, False),
        ("245,5", None, False),
        ("1,00", None, False),
    ],
)
def test_numbers(con, text, value, ok):
    got, reason = one(con, parse.parse_number, text)
    assert (reason == "") == ok, reason
    assert got == value


@pytest.mark.parametrize("text", ["2,5", "245,5", "1.234,5"])
def test_a_decimal_comma_is_ambiguous_and_named(con, text):
    _, reason = one(con, parse.parse_number, text)
    assert reason.startswith(f"'{text}' in column 'col' is ambiguous")
    assert "1,234" in reason


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_parquet_floats_that_are_not_finite(con, value):
    got, reason = one(con, parse.parse_number, value, "DOUBLE")
    assert got is None and "is not a finite number" in reason


def test_integers_refuse_fractions(con):
    got, reason = one(con, parse.parse_integer, "2.5")
    assert "'2.5' in column 'col' is not a whole number" == reason and got is None


@pytest.mark.parametrize(
    "text,value",
    [
        ("2026-02-28", dt.date(2026, 2, 28)),
        ("2/28/2026", dt.date(2026, 2, 28)),
        ("2026-02-28T23:30", dt.date(2026, 2, 28)),
    ],
)
def test_dates(con, text, value):
    assert one(con, parse.parse_date, text) == (value, "")


def test_bad_date_reason(con):
    assert (
        one(con, parse.parse_date, "2026-02-30")[1]
        == "'2026-02-30' in column 'col' is not a date (expected YYYY-MM-DD)"
    )


@pytest.mark.parametrize(
    "text,value", [("true", True), ("Yes", True), ("1", True), ("n", False), ("FALSE", False)]
)
def test_bools(con, text, value):
    assert one(con, parse.parse_bool, text) == (value, "")


def test_long_values_are_shortened_in_reasons(con):
    _, reason = one(con, parse.parse_number, "x" * 200_000)
    assert len(reason) < 200 and "..." in reason


@pytest.mark.parametrize(
    "text,canonical",
    [
        ("District 1", "district_1"),
        ("Sewer District #1", "district_1"),
        ("  CONSOLIDATED ", "consolidated"),
        ("csd", "consolidated"),
    ],
)
def test_enum_uses_synonyms(con, text, canonical):
    t = parse.clean('"v"')
    sql = (
        f"SELECT (SELECT canonical FROM _vocab x WHERE x.vocabulary = 'district' "
        f"AND x.key = {parse.norm_key(t)}) FROM (SELECT ? AS v)"
    )
    assert con.execute(sql, [text]).fetchall()[0][0] == canonical


def test_the_district_vocabulary_is_the_towns_rules():
    codes = TOWN.town.vocabulary
    assert DISTRICT_VOCAB.for_context(Context(timezone=TZ)) == codes.lookup("districts")
    assert codes.lookup("districts")["sewer district #1"] == "district_1"


@pytest.mark.parametrize(
    "name,canonical",
    [
        ("BOD5", "BOD"),
        ("Biochemical Oxygen Demand", "BOD"),
        ("ss", "TSS"),
        ("Total Suspended Solids", "TSS"),
        ("O&G", "FOG"),
        ("HEM", "FOG"),
        ("Oil and Grease", "FOG"),
        ("chlorine demand", "chlorine_demand"),
        ("PH", "pH"),
        ("copper", "copper"),
    ],
)
def test_parameter_synonyms(con, name, canonical):
    from outfall.ingest.datasets import parameter_sql

    assert vocab.canonical_parameter(name) == canonical
    assert (
        con.execute(f"SELECT {parameter_sql('v')} FROM (SELECT ? AS v)", [name]).fetchall()[0][0] == canonical
    )


@pytest.mark.parametrize(
    "unit,kind,canonical",
    [
        ("mg/l", "concentration", "mg/L"),
        ("ppm", "concentration", "mg/L"),
        ("g/m3", "concentration", "mg/L"),
        ("µg/L", "concentration", "ug/L"),
        ("ppb", "concentration", "ug/L"),
        ("SU", "ph", "s.u."),
        ("°F", "temperature", "degF"),
        ("C", "temperature", "degC"),
        ("MGD", "flow", "mgd"),
        ("l/s", "flow", "L/s"),
    ],
)
def test_unit_synonyms(con, unit, kind, canonical):
    assert vocab.canonical_unit(unit, kind) == canonical
    got = con.execute(
        "SELECT unit_canonical FROM _unit_vocab WHERE kind = ? AND key = "
        "regexp_replace(lower(trim(?)), '\\s+', ' ', 'g')",
        [kind, unit],
    ).fetchall()
    assert got == [(canonical,)]


@pytest.mark.parametrize(
    "unit,value,expected",
    [
        ("ug/L", 1000.0, 1.0),
        ("degC", 65.5, 149.9),
        ("degC", 65.56, 150.008),
        ("gpd", 1440.0, 1.0),
        ("mgd", 1.44, 1000.0),
        ("L/s", 1.0, 15.850323),
        ("m3/d", 1440.0, 264.172052),
    ],
)
def test_unit_conversions(con, unit, value, expected):
    scale, offset = vocab.LINEAR[unit]
    assert value * scale + offset == pytest.approx(expected, rel=1e-6)
    got = con.execute(
        "SELECT ? * scale + off FROM _unit_vocab WHERE unit_canonical = ? LIMIT 1", [value, unit]
    ).fetchall()[0][0]
    assert got == pytest.approx(expected, rel=1e-6)


def test_a_cell_is_cleaned_as_trim_of_its_blanks_however_the_cleaning_is_written():
    """Text read row by row is trimmed only when its first or last character is a blank (the edge
    test by code point); a Parquet column stored as a dictionary is trimmed outright, once per
    distinct value (parse.DICTIONARY_TEXT). Both give nullif(trim(cell, blanks), '') on every blank
    at either end (the vertical tab too), in the middle, alone, next to letters outside ASCII and
    before a combining accent."""
    import duckdb

    from outfall.ingest import parse

    whole = f"nullif(trim(x, {parse._BLANKS}), '')"
    blanks = [" ", "\t", "\n", "\x0b", "\x0c", "\r", "\xa0", "\u202f", "\ufeff", "\u2003"]
    cells = ["", "a", "é", "日本", "a b", "x \u0301", "\u0301x"]
    cells += [c for b in blanks for c in (b, b + "a", "a" + b, "é" + b, b + "日", "a" + b + "b", b + b)]
    con = duckdb.connect()
    con.execute("CREATE TABLE t (i INTEGER, x VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?)", list(enumerate(cells)))
    for form in ("VARCHAR", parse.DICTIONARY_TEXT):
        rows = con.execute(
            f"SELECT i, {parse.clean('x', form)} IS NOT DISTINCT FROM {whole} FROM t ORDER BY i"
        ).fetchall()
        assert [cells[i] for i, same in rows if not same] == [], form
    assert con.execute(f"SELECT {parse.clean('x')} FROM (SELECT ' a' || chr(160) AS x)").fetchall() == [
        ("a",)
    ]
    assert con.execute(f"SELECT {parse.clean('x')} FROM (SELECT chr(11) || 'a' AS x)").fetchall() == [("a",)]
    assert con.execute(f"SELECT {parse.clean('x')} FROM (SELECT 'a' || chr(8195) AS x)").fetchall() == [
        ("a\u2003",)
    ]  # an em space is not one of the blanks


def _clock_changes(first_year: int, last_year: int):
    """Every change of America/New_York's offset from first_year to last_year (the zone database's):
    (the last local time before it, the change's size in hours, positive = clocks forward)."""
    zone = ZoneInfo(TZ)
    out = []
    t = dt.datetime(first_year, 1, 1, tzinfo=dt.UTC)
    end = dt.datetime(last_year + 1, 1, 1, tzinfo=dt.UTC)
    before = t.astimezone(zone).utcoffset()
    while t < end:
        t += dt.timedelta(hours=1)
        now = t.astimezone(zone).utcoffset()
        if now != before:
            out.append(
                (
                    (t - dt.timedelta(hours=1)).astimezone(zone).replace(tzinfo=None),
                    (now - before).total_seconds() / 3600,
                )
            )
            before = now
    return out


def test_every_clock_change_since_1970_is_known(con):
    """Regression: the careful test of local times ran only in March and November (the rule since
    2007), so a time of an April spring-forward hour before 2007 was shifted without a word. Every
    change the zone database knows since 1970 (April and October before 2007; January 1974 and
    February 1975): the hour skipped is refused, the hour repeated flagged."""
    changes = _clock_changes(1970, 2030)
    assert len(changes) == 2 * 61  # one forward and one back each year
    value_sql, reason_sql, amb_sql = parse.parse_timestamp('"v"', "t")
    texts = []
    for last_before, forward in changes:
        # 30 minutes into the hour skipped (02:00-02:59) or repeated (01:00-01:59)
        inside = last_before + dt.timedelta(minutes=90 if forward > 0 else 30)
        texts.append((inside.strftime("%Y-%m-%dT%H:%M"), forward > 0))
    rows = con.execute(
        f"SELECT v, {value_sql}, {reason_sql}, {amb_sql} FROM (SELECT unnest($texts) AS v)",
        {"tz": TZ, "texts": [t for t, _ in texts]},
    ).fetchall()
    got = {r[0]: r for r in rows}
    for text, forward in texts:
        _, value, reason, ambiguous = got[text]
        if forward:
            assert value is None and "does not exist" in reason, (text, reason)
        else:
            assert not reason and value is not None and ambiguous is True, (text, value, reason, ambiguous)
    assert {t[:4] for t, f in texts if f and t[5:7] == "04"} >= {"1987", "2006"}
