"""A Parquet or CSV file loaded on its own is judged straight into its table (outfall.ingest.straight,
load_straight): the kept rows are inserted as they are judged, then checked. What lands in every
table (the dataset, its history, quarantine, the ledger) and each file's counts are exactly those
of the careful way (a scratch copy of the judged rows, then repeats, quarantine and merge), whatever
the files hold; where the check finds something only the careful way handles (repeated keys, keys
already stored, a local time that occurs twice), the rows just written are taken out again."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import outfall.ingest.batch as batch
import outfall.ingest.engine as engine
import outfall.ingest.single as single
import outfall.ingest.straight as straight
from assets.common import schema_ddl
from outfall.rules import local_timezone
from tests.ingesting import con, load  # noqa: F401 - a fixture
from tests.test_ingest_batch import _readings, _scenario_first, _write, two_loads


def _scenario_more(data: Path) -> None:
    flow = data / "flow"
    # local times without a zone, across the fall-back hour of 2026-11-01: 01:30 occurs twice
    naive = pd.DataFrame(
        {
            "user_id": ["IU-9"] * 4,
            "timestamp": pd.to_datetime(
                ["2026-11-01 00:30", "2026-11-01 01:30", "2026-11-01 01:30", "2026-11-01 02:30"]
            ),
            "value": [1.0, 2.0, 3.0, 4.0],
            "unit": ["gpm"] * 4,
            "constituent": ["flow"] * 4,
        }
    )
    _write(flow, "l_iu9_fall_back.parquet", naive)
    only_bad = _readings("IU-10", "2026-03-01", 3)
    only_bad["value"] = [float("inf"), -1.0, float("nan")]
    _write(flow, "m_iu10_all_bad.parquet", only_bad)
    some_bad = _readings("IU-11", "2026-03-01", 6)
    some_bad.loc[2, "unit"] = "furlongs"
    _write(flow, "n_iu11_some_bad.parquet", some_bad)
    head = "user_id,timestamp,value,unit\n"
    # CSV: a clean file with local times; one with rows to quarantine and a blank line; one with a
    # line that is not a row (too many fields); one across the fall-back hour
    (flow / "o_iu12.csv").write_text(
        head + "".join(f"IU-12,2026-03-02 08:{m:02d},{m},gpm\n" for m in range(30))
    )
    (flow / "p_iu13.csv").write_text(
        head + "IU-13,2026-03-02 08:00,1,gpm\n\nIU-13,2026-03-02 08:01,2,2,gpm\n"
        "IU-13,2026-03-02 08:02,x,gpm\nIU-13,2026-03-02 08:03,4,gpm\n"
    )
    (flow / "q_iu14.csv").write_text(
        head + "IU-14,2026-03-02 08:00,1,gpm\n\nIU-14,2026-03-02 08:02,x,gpm\n"
        "IU-14,,4,gpm\nIU-14,2026-03-02 08:03,5,furlongs\nIU-14,2026-03-02 08:04,6,gpm\n"
    )
    (flow / "r_iu15.csv").write_text(
        head + "IU-15,2026-11-01 01:30,1,gpm\nIU-15,2026-11-01 01:30,2,gpm\nIU-15,2026-11-01 02:30,3,gpm\n"
    )


def test_straight_in_lands_exactly_as_the_careful_way(tmp_path: Path, monkeypatch):
    data = tmp_path / "data"
    _scenario_first(data)
    _scenario_more(data)
    outcomes: list[tuple[str, bool]] = []
    real = straight.load_straight

    def spy(con, ds, ctx, source, present, params, rel, now, rows):
        done = real(con, ds, ctx, source, present, params, rel, now, rows)
        outcomes.append((rel, done is not None))
        return done

    monkeypatch.setattr(batch, "BATCH_MAX_ROWS", 0)  # every Parquet file on its own
    results = {}
    for mode in ("careful", "straight"):
        monkeypatch.setattr(straight, "load_straight", spy if mode == "straight" else (lambda *a, **k: None))
        results[mode] = two_loads(tmp_path / mode, data)
    assert results["straight"] == results["careful"]
    done = dict(outcomes)
    # straight in: new keys, with or without rows to quarantine
    assert done["a_iu1.parquet"] and done["h_iu1_april.parquet"] and done["j_iu8.parquet"]
    assert done["m_iu10_all_bad.parquet"] and done["n_iu11_some_bad.parquet"]
    # taken out again and loaded the careful way: a repeat and a conflict within the file, keys
    # already stored (a corrected re-send)
    assert not done["b_iu2.parquet"] and not done["i_iu3_again.parquet"] and not done["k_iu8_too.parquet"]
    # a local time that occurs twice stays straight: the rows left out are judged again alone (a
    # year of local times always has the fall-back night; the whole file went the careful way)
    assert done["l_iu9_fall_back.parquet"] and done["r_iu15.csv"]
    assert done["o_iu12.csv"] and done["q_iu14.csv"]
    assert "p_iu13.csv" not in done  # an unreadable line: its rows are numbered the careful way
    first, second, tables = results["straight"]
    n = next(f for f in first if f[0] == "n_iu11_some_bad.parquet")
    assert n[1:5] == (6, 5, 1, 5)
    assert [r[2:4] for r in tables["quarantine"] if r[1] == "n_iu11_some_bad.parquet"] == [
        (3, "unit 'furlongs' is not a flow unit (gpm, gpd, mgd, L/s, m3/d) for flow")
    ]
    m = next(f for f in first if f[0] == "m_iu10_all_bad.parquet")
    assert m[1:5] == (3, 0, 3, 0)
    q = next(f for f in first if f[0] == "q_iu14.csv")
    assert q[1:5] == (5, 2, 3, 2)
    assert [r[2] for r in tables["quarantine"] if r[1] == "q_iu14.csv"] == [2, 3, 4]
    assert [r[2] for r in tables["quarantine"] if r[1] == "p_iu13.csv"] == [2, 3]
    assert len([r for r in tables["flow"] if r[0] == "IU-15"]) == 3
    fall = [r for r in tables["flow"] if r[0] == "IU-9"]
    assert len(fall) == 4  # 01:30 daylight time, then 01:30 standard time: two readings an hour apart


def test_a_file_changed_and_loaded_again_at_the_same_time_keeps_its_history(tmp_path: Path, con):  # noqa: F811
    # Regression: the straight way tells its new rows by file and load time; when the older rows of
    # the file carry that same load time (two loads in one clock tick), it must not take them for new
    # ones (it deleted them, and the history of the changed reading was lost).
    flow = tmp_path / "flow"
    _write(flow, "m.parquet", _readings("IU-1", "2026-03-01", 4))
    load(con, tmp_path, "flow")
    _write(flow, "m.parquet", _readings("IU-1", "2026-03-01", 4).assign(value=[100.0, 101.0, 7.0, 103.0]))
    report = load(con, tmp_path, "flow")
    assert (report.files[0].rows_new, report.files[0].rows_superseded) == (1, 1)
    assert con.execute("SELECT list(value ORDER BY ts) FROM flow").fetchall() == [
        ([100.0, 101.0, 7.0, 103.0],)
    ]
    assert con.execute("SELECT value FROM flow_history").fetchall() == [(102.0,)]


def _load_at(con, data: Path, hour: int):
    """A load of flow at its own time (each run of Outfall loads at the time it runs)."""
    import datetime as dt

    from outfall.warehouse import transaction
    from tests.ingesting import CTX, DATASETS

    with transaction(con):
        return engine.ingest_dataset(
            con, DATASETS["flow"], data, CTX, dt.datetime(2026, 7, 1, hour, tzinfo=dt.UTC)
        )


def _summaries(con) -> tuple[list, list]:
    return (
        con.execute(
            "SELECT user_id, constituent, h, readings, first_us, last_us, unit, round(value_sum, 6), "
            "valued FROM _flow_hours ORDER BY ALL"
        ).fetchall(),
        con.execute("SELECT * FROM _flow_hour_steps ORDER BY ALL").fetchall(),
    )


def _rebuilt(con) -> tuple[list, list]:
    from outfall.flow_hours import ensure_flow_hours

    kept = _summaries(con)
    con.execute("DELETE FROM _flow_hours_state").fetchall()
    assert ensure_flow_hours(con) == "rebuilt"
    return kept, _summaries(con)


def test_straight_loads_keep_the_hourly_summaries_of_flow_exact(tmp_path: Path, con, monkeypatch):  # noqa: F811
    """Each file loaded straight adds the hourly summaries of its readings, made by its check: after
    such a load the summaries are current (nothing to make again) and equal to summaries made from
    flow anew. A file whose readings share an hour with summarised ones, or a corrected re-send,
    leaves them to be made again for the hours it touched, as before."""
    from outfall.flow_hours import ensure_flow_hours

    monkeypatch.setattr(batch, "BATCH_MAX_ROWS", 0)  # small files, each on its own (batches keep none)
    flow = tmp_path / "flow"
    _write(flow, "a.parquet", _readings("IU-1", "2026-03-01", 40))
    _write(flow, "b.parquet", _readings("IU-2", "2026-03-01", 40))
    gap = _readings("IU-1", "2026-03-03", 30)
    _write(flow, "c.parquet", gap.drop(index=[5, 6, 7, 20]))  # a gap of an hour, a repeat-free file
    (flow / "d.csv").write_text(
        "user_id,timestamp,value,unit\n"
        + "".join(f"IU-3,2026-03-02 08:{m:02d},{m},gpm\n" for m in range(0, 60, 7))
    )
    report = _load_at(con, tmp_path, 1)
    assert [(f.source_file, f.straight) for f in report.files] == [
        (n, True) for n in ("a.parquet", "b.parquet", "c.parquet", "d.csv")
    ]
    assert report.summaries is True
    assert ensure_flow_hours(con) == "current"
    kept, anew = _rebuilt(con)
    assert kept == anew and len(kept[0]) > 20 and any(s[3] == 3_600_000_000 for s in kept[1]) is False
    # readings in an hour summarised already (IU-1, 2026-03-01 02:00 UTC, other minutes)
    _write(flow, "e.parquet", _readings("IU-1", "2026-03-01 02:05", 2))
    report = _load_at(con, tmp_path, 2)
    assert [f.straight for f in report.files if not f.skipped] == [True] and report.summaries is False
    assert ensure_flow_hours(con) == "touched"
    kept, anew = _rebuilt(con)
    assert kept == anew
    # a corrected re-send: loaded the careful way, the summaries are made again where it touched
    _write(flow, "a.parquet", _readings("IU-1", "2026-03-01", 40).assign(value=7.0))
    report = _load_at(con, tmp_path, 3)
    assert report.summaries is False
    assert ensure_flow_hours(con) == "touched"
    kept, anew = _rebuilt(con)
    assert kept == anew


def test_a_parquet_column_stored_as_a_dictionary_is_cleaned_as_one_stored_plainly(tmp_path: Path):
    """The same readings, their text with blanks at the edges (a vertical tab, a no-break space, a
    byte-order mark) and a blank cell, written once with dictionary pages and once without: the
    first is cleaned by trim() once per distinct value, the second by the edge test cell by cell;
    what is stored and quarantined is the same."""
    import duckdb
    import pyarrow as pa
    import pyarrow.parquet as pq

    from outfall.warehouse import configure, ensure_schema

    frame = _readings("IU-1", "2026-03-01", 8)
    frame["user_id"] = [" IU-1", "IU-1\x0b", "\ufeffIU-1", "IU-1\xa0", "IU-1", "\x0bIU-1 ", "   ", "IU-1"]
    frame["unit"] = [" gpm", "gpm ", "GPM", "gpm\t", "gpm", "gpm", "gpm", "\u202fgpm"]
    table = pa.Table.from_pandas(frame, preserve_index=False)
    seen, stored = {}, {}
    for name, encoded in (("dictionary", True), ("plain", False)):
        data = tmp_path / name
        (data / "flow").mkdir(parents=True)
        path = data / "flow" / "readings.parquet"
        pq.write_table(table, path, use_dictionary=encoded)
        with configure(duckdb.connect(str(tmp_path / f"{name}.duckdb")), timezone=local_timezone()) as con:
            ensure_schema(con, schema_ddl())
            seen[name] = single._dictionary_columns(path)
            report = load(con, data, "flow")
            assert report.files[0].straight
            stored[name] = (
                con.execute(
                    "SELECT source_row, user_id, unit, value FROM flow ORDER BY source_row"
                ).fetchall(),
                con.execute("SELECT row_number, reason FROM quarantine").fetchall(),
            )
    assert {"user_id", "unit"} <= seen["dictionary"] and not seen["plain"] & {"user_id", "unit"}
    assert stored["dictionary"] == stored["plain"]
    rows, reasons = stored["dictionary"]
    assert [r[:3] for r in rows] == [(r, "IU-1", "gpm") for r in (1, 2, 3, 4, 5, 6, 8)]
    assert reasons == [(7, "missing required value for 'user_id'")]


def test_a_footer_that_cannot_be_read_for_its_encodings_leaves_the_load_going(tmp_path: Path, con):  # noqa: F811
    """The page statistics are read on a connection of their own: a file they cannot be read from
    gives no dictionary columns, and the load's transaction goes on."""
    bad = tmp_path / "not.parquet"
    bad.write_bytes(b"PAR1 not really")
    con.execute("BEGIN TRANSACTION")
    assert single._dictionary_columns(bad) == set()
    assert con.execute("SELECT count(*) FROM flow").fetchall() == [(0,)]
    con.execute("ROLLBACK")


def test_times_in_the_meters_plain_form_are_read_as_every_other_text_would_be(tmp_path: Path, monkeypatch):
    """A time written 2026-03-01T08:30:00 (or with a space) is read by a strict format first, which
    spares the test for a UTC offset; everything then is as the general reading gives it: the
    spring-forward hour refused, the fall-back hour's repeat moved to standard time, offsets,
    other forms, leading zeros left out, impossible dates."""
    import duckdb

    from outfall.ingest import parse
    from outfall.warehouse import configure, ensure_schema

    times = [
        "2025-03-09T02:30:00",
        "2025-03-09 02:30:00",
        "2025-03-09T01:59:59",
        "2025-03-09T03:00:00",
        "2025-11-02T01:30:00",
        "2025-11-02T01:30:00",
        "2025-11-02 00:59:59",
        "2025-11-02T02:00:00",
        "2025-01-01T00:00:00",
        "2025-1-1T0:0:0",
        "2025-01-01 00:00",
        "2025-01-01T00:00:00Z",
        "2025-01-01T00:00:00-05:00",
        "2025-07-01T00:00:00+02:00",
        "2025-01-01T00:00:00.5",
        "01/02/2025 3:04 PM",
        "2025-02-30T00:00:00",
        " 2025-06-01T12:00:00 ",
        "garbage",
        "2024-02-29T12:00:00",
        "2025-12-31T23:59:59",
        "2025-01-01T24:00:00",
        "2025-01-01T00:00:00x",
        "25-01-01T00:00:00",
        "2025-01-01T1:2:3",
        "2025-01-01  00:00:00",
        "2025-01-01T00:00:0",
        "12025-01-01T00:00:00",
        "2025-01-01T000:00:00",
    ]
    text = "user_id,timestamp,value,unit\n" + "".join(f"IU-1,{t},{i},gpm\n" for i, t in enumerate(times))
    stored = {}
    for mode, formats in (("plain first", parse.PLAIN_FORMATS), ("general only", ())):
        monkeypatch.setattr(parse, "PLAIN_FORMATS", formats)
        data = tmp_path / mode
        (data / "flow").mkdir(parents=True)
        (data / "flow" / "readings.csv").write_text(text)
        with configure(duckdb.connect(str(tmp_path / f"{mode}.duckdb")), timezone=local_timezone()) as con:
            ensure_schema(con, schema_ddl())
            load(con, data, "flow")
            stored[mode] = (
                con.execute("SELECT source_row, ts, value FROM flow ORDER BY source_row").fetchall(),
                con.execute("SELECT row_number, reason FROM quarantine ORDER BY row_number").fetchall(),
            )
    assert stored["plain first"] == stored["general only"]
    rows, reasons = stored["plain first"]
    assert len(rows) + len(reasons) == len(times) and len(reasons) >= 4  # spring-forward, bad dates, garbage
