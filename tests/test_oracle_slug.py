"""Slug discharges (Woodbury ch. 253 Part 2, definition of SLUG) at the law's
boundaries: the plain-Python reading of outfall.demo.slugs, the oracle of the slug SQL."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from outfall.demo import slugs as s
from outfall.rules import load_rules

NY = ZoneInfo("America/New_York")
UTC = dt.UTC
RULES = load_rules("woodbury")
P = s.SlugParams.of(RULES.slug.at(dt.date(2026, 5, 1)))  # the definition in effect in 2026
TZ = RULES.timezone
BASE = 100.0  # gpm: a permit of 144,000 gpd


def local(*args) -> dt.datetime:
    return dt.datetime(*args, tzinfo=NY)


def series(start: dt.datetime, values, step_min: float = 1.0):
    return [(start + dt.timedelta(minutes=i * step_min), v) for i, v in enumerate(values)]


def spike(
    n_high: int,
    high: float = 5.01 * BASE,
    before: int = 30,
    after: int = 30,
    step_min: float = 1.0,
    start: dt.datetime = local(2026, 5, 1, 10, 0),
):
    return series(start, [BASE] * before + [high] * n_high + [BASE] * after, step_min)


def test_rules_numbers():
    assert (P.ratio, P.min_duration_min, P.baseline_days, P.min_baseline_days, P.gap_factor) == (
        5,
        15,
        30,
        7,
        1.5,
    )


def test_small_rules():
    assert (
        not s.is_high(500, 100, P.ratio) and s.is_high(501, 100, P.ratio) and s.is_high(500.01, 100, P.ratio)
    )
    assert not s.is_high(1e9, None, P.ratio)
    m = P.min_duration_min
    assert not s.is_slug(15 * 60, m) and s.is_slug(15 * 60 + 1, m) and s.is_slug(16 * 60, m)
    assert not s.splits(90, 60, P.gap_factor) and s.splits(90.001, 60, P.gap_factor)
    assert s.run_duration_s(local(2026, 1, 1, 0, 0), local(2026, 1, 1, 0, 15), 60) == 16 * 60
    assert s.duration_minutes(16 * 60) == 16 and s.duration_minutes(15 * 60 + 1) == 16
    assert s.baseline_from_permit(144000) == 100.0
    assert s.baseline_from_permit(None) is None and s.baseline_from_permit(0) is None


@pytest.mark.parametrize("n_high,slugs", [(15, 0), (16, 1)])
def test_15_minutes_is_not_a_slug_16_is(n_high, slugs):
    events, lacking = s.detect(spike(n_high), P, TZ, fixed_baseline=BASE)
    assert len(events) == slugs and lacking == []
    if slugs:
        assert events[0].duration_min == 16 and events[0].readings == 16
        assert events[0].start_at == local(2026, 5, 1, 10, 30)
        assert events[0].peak_ratio == pytest.approx(5.01)


@pytest.mark.parametrize("factor,slugs", [(5.0, 0), (5.01, 1)])
def test_exactly_five_times_is_not_high(factor, slugs):
    events, _ = s.detect(spike(30, high=factor * BASE), P, TZ, fixed_baseline=BASE)
    assert len(events) == slugs


def test_15_minute_meter_two_readings_make_a_slug():
    one, _ = s.detect(spike(1, step_min=15, before=8, after=8), P, TZ, fixed_baseline=BASE)
    two, _ = s.detect(spike(2, step_min=15, before=8, after=8), P, TZ, fixed_baseline=BASE)
    assert one == [] and len(two) == 1 and two[0].duration_min == 30


def test_a_gap_longer_than_one_and_a_half_intervals_splits_a_run():
    rows = spike(20)
    # drop 2 of the high readings in the middle: a 3-minute gap > 1.5 x 1 minute
    gapped = [r for i, r in enumerate(rows) if i not in (40, 41)]
    assert s.detect(gapped, P, TZ, fixed_baseline=BASE)[0] == []  # 10 + 8 readings: two short runs
    longer = spike(40)
    gapped = [r for i, r in enumerate(longer) if i not in (40,)]  # a 2-minute gap still splits (> 1.5)
    events, _ = s.detect(gapped, P, TZ, fixed_baseline=BASE)
    assert [e.readings for e in events] == [29]  # 10 before the gap, 29 after
    # on a 15-minute meter a missing reading (30-minute gap) splits too
    rows = spike(6, step_min=15, before=8, after=8)
    gapped = [r for i, r in enumerate(rows) if i != 10]
    assert [e.readings for e in s.detect(gapped, P, TZ, fixed_baseline=BASE)[0]] == [2, 3]


def test_a_non_high_reading_inside_a_run_splits_it():
    rows = spike(31)
    rows[45] = (rows[45][0], 5.0 * BASE)  # exactly 5x: not high
    events, _ = s.detect(rows, P, TZ, fixed_baseline=BASE)
    assert events == []  # 15 + 15 readings: neither lasts longer than 15 minutes
    rows = spike(40)
    rows[50] = (rows[50][0], BASE)
    assert [e.readings for e in s.detect(rows, P, TZ, fixed_baseline=BASE)[0]] == [20, 19]


def test_a_run_across_midnight_is_one_slug_with_each_days_baseline():
    start = local(2026, 5, 1, 23, 0)
    rows = series(start, [BASE] * 50 + [5.01 * BASE] * 20 + [BASE] * 30)
    events, _ = s.detect(rows, P, TZ, fixed_baseline=BASE)
    assert len(events) == 1
    assert events[0].start_at == local(2026, 5, 1, 23, 50) and events[0].end_at == local(2026, 5, 2, 0, 9)
    assert events[0].duration_min == 20


def test_runs_across_daylight_saving_changes():
    # spring forward 2026-03-08: 01:50 EST .. 03:09 EDT is 20 real minutes
    start = dt.datetime(2026, 3, 8, 6, 30, tzinfo=UTC)  # 01:30 EST
    rows = series(start, [BASE] * 20 + [5.01 * BASE] * 20 + [BASE] * 20)
    events, _ = s.detect(rows, P, TZ, fixed_baseline=BASE)
    assert len(events) == 1 and events[0].duration_min == 20
    assert events[0].start_at.astimezone(NY).hour == 1 and events[0].end_at.astimezone(NY).hour == 3
    # fall back 2026-11-01: 01:50 EDT .. 01:09 EST (the repeated hour) is 20 real minutes
    start = dt.datetime(2026, 11, 1, 5, 30, tzinfo=UTC)  # 01:30 EDT
    rows = series(start, [BASE] * 20 + [5.01 * BASE] * 20 + [BASE] * 20)
    events, _ = s.detect(rows, P, TZ, fixed_baseline=BASE)
    assert len(events) == 1 and events[0].duration_min == 20 and events[0].readings == 20
    assert events[0].end_at.astimezone(NY).strftime("%H:%M %Z") == "01:09 EST"


def daily_history(days: int, per_day: list[float], end: dt.date, step_min: int = 60):
    """Readings on each of `days` local days before `end` with the given daily pattern."""
    rows = []
    for k in range(days, 0, -1):
        day = end - dt.timedelta(days=k)
        rows += series(dt.datetime.combine(day, dt.time(0), tzinfo=NY), per_day, step_min)
    return rows


def test_baseline_needs_seven_days_of_the_thirty_before():
    day = dt.date(2026, 5, 10)
    hourly = [10.0] * 24
    test = series(dt.datetime.combine(day, dt.time(10), tzinfo=NY), [10.0] * 5 + [51.0] * 20 + [10.0] * 5, 1)
    six, lacking = s.detect(daily_history(6, hourly, day) + test, P, TZ)
    assert six == [] and day in lacking
    seven, lacking = s.detect(daily_history(7, hourly, day) + test, P, TZ)
    assert len(seven) == 1 and day not in lacking
    assert seven[0].baseline == 10.0 and seven[0].peak_ratio == pytest.approx(5.1)


def test_baseline_is_the_median_of_daily_means_of_the_30_days_before():
    day = dt.date(2026, 5, 10)
    rows = []
    for k in range(1, 41):  # 40 days before; only the 30 nearest count
        d = day - dt.timedelta(days=k)
        mean = 10.0 if k <= 30 else 1000.0
        if k in (1, 2, 3):
            mean = 500.0  # a few high days move the median but little
        rows += series(dt.datetime.combine(d, dt.time(0), tzinfo=NY), [mean] * 24, 60)
    baselines = s.daily_baselines(rows + [(dt.datetime.combine(day, dt.time(12), tzinfo=NY), 1.0)], P, TZ)
    assert baselines[day] == 10.0


def test_usual_interval():
    rows = spike(30)
    assert s.usual_interval_s([t for t, _ in rows], TZ) == 60.0
    fifteen = series(local(2026, 3, 1), [1.0] * 96 * 3, 15)
    fifteen = [r for i, r in enumerate(fifteen) if not 40 <= i < 46]  # a gap on the first day
    assert s.usual_interval_s([t for t, _ in fifteen], TZ) == 900.0
    assert s.usual_interval_s([local(2026, 1, 1)], TZ) is None
