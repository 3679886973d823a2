"""Pure parsers of input cells: each value and each reason."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from outfall import vocab
from outfall.ingest import parse


def one(fn, value, *args):
    values, reasons = fn(pd.Series([value]), "col", *args)
    return values.iloc[0], reasons.iloc[0]


@pytest.mark.parametrize("text,instant", [
    ("2026-03-01", "2026-03-01T05:00:00+00:00"),               # a date is local midnight
    ("2026-07-01T08:30", "2026-07-01T12:30:00+00:00"),         # local daylight time
    ("2026-01-01 08:30:00", "2026-01-01T13:30:00+00:00"),      # local standard time
    ("2026-07-01T08:30:00-05:00", "2026-07-01T13:30:00+00:00"),  # an offset is that instant
    ("2026-07-01T12:30Z", "2026-07-01T12:30:00+00:00"),
    ("7/1/2026 08:30", "2026-07-01T12:30:00+00:00"),
])
def test_timestamps_are_utc_instants(text, instant):
    value, reason = one(parse.parse_timestamp, text)
    assert reason == ""
    assert value == pd.Timestamp(instant)


def test_spring_forward_hour_is_refused_and_fall_back_hour_is_ordered():
    values, reasons = parse.parse_timestamp(pd.Series(["2026-03-08T02:30", "2026-11-01T01:30", "2026-11-01T01:30"]), "t")
    assert "does not exist" in reasons[0]
    assert values[1] == pd.Timestamp("2026-11-01T05:30:00+00:00")  # EDT, first
    assert values[2] == pd.Timestamp("2026-11-01T06:30:00+00:00")  # EST, second


def test_fall_back_is_per_group():
    values, _ = parse.parse_timestamp(pd.Series(["2026-11-01T01:30", "2026-11-01T01:30"]), "t",
                                      pd.Series(["meter A", "meter B"]))
    assert values[0] == values[1]


@pytest.mark.parametrize("text,value,ok", [("1", 1.0, True), ("2.50", 2.5, True), ("1,000", 1000.0, True),
                                           ("abc", None, False), ("inf", None, False), ("", None, True)])
def test_numbers(text, value, ok):
    got, reason = one(parse.parse_number, text)
    assert (reason == "") == ok
    assert (pd.isna(got) if value is None else got == value)


def test_integers_refuse_fractions():
    got, reason = one(parse.parse_integer, "2.5")
    assert "is not a whole number" in reason and pd.isna(got)


@pytest.mark.parametrize("text,value", [("2026-02-28", dt.date(2026, 2, 28)), ("2/28/2026", dt.date(2026, 2, 28))])
def test_dates(text, value):
    assert one(parse.parse_date, text) == (value, "")


def test_bad_date_reason():
    assert one(parse.parse_date, "2026-02-30")[1] == "'2026-02-30' in column 'col' is not a date (expected YYYY-MM-DD)"


@pytest.mark.parametrize("text,value", [("true", True), ("Yes", True), ("1", True), ("n", False), ("FALSE", False)])
def test_bools(text, value):
    assert one(parse.parse_bool, text) == (value, "")


def test_enum_uses_synonyms():
    assert one(parse.parse_enum, "District 1", vocab.canonical_district, "x") == ("district_1", "")
    assert one(parse.parse_enum, "Sewer District #1", vocab.canonical_district, "x") == ("district_1", "")


def test_join_reasons_only_non_empty():
    joined = parse.join_reasons(pd.Series(["", "a", ""]), pd.Series(["", "b", "c"]))
    assert list(joined) == ["", "a; b", "c"]


@pytest.mark.parametrize("name,canonical", [("BOD5", "BOD"), ("Biochemical Oxygen Demand", "BOD"), ("ss", "TSS"),
                                            ("Total Suspended Solids", "TSS"), ("O&G", "FOG"), ("HEM", "FOG"),
                                            ("Oil and Grease", "FOG"), ("chlorine demand", "chlorine_demand"),
                                            ("PH", "pH"), ("copper", "copper")])
def test_parameter_synonyms(name, canonical):
    assert vocab.canonical_parameter(name) == canonical


@pytest.mark.parametrize("unit,kind,canonical", [("mg/l", "concentration", "mg/L"), ("ppm", "concentration", "mg/L"),
                                                 ("g/m3", "concentration", "mg/L"), ("µg/L", "concentration", "ug/L"),
                                                 ("ppb", "concentration", "ug/L"), ("SU", "ph", "s.u."),
                                                 ("°F", "temperature", "degF"), ("C", "temperature", "degC"),
                                                 ("MGD", "flow", "mgd"), ("l/s", "flow", "L/s")])
def test_unit_synonyms(unit, kind, canonical):
    assert vocab.canonical_unit(unit, kind) == canonical


@pytest.mark.parametrize("unit,value,expected", [("ug/L", 1000.0, 1.0), ("degC", 65.5, 149.9), ("degC", 65.56, 150.008),
                                                 ("gpd", 1440.0, 1.0), ("mgd", 1.44, 1000.0),
                                                 ("L/s", 1.0, 15.850323), ("m3/d", 1440.0, 264.172052)])
def test_unit_conversions(unit, value, expected):
    scale, offset = vocab.LINEAR[unit]
    assert value * scale + offset == pytest.approx(expected, rel=1e-6)
