"""replace_rows writes exactly the table's columns or refuses: a column missing from the rows or one the
table does not have raises, instead of being NULL-filled or dropped without a word."""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest

from assets.common import schema_ddl
from outfall.rules import local_timezone
from outfall.warehouse import ColumnMismatch, replace_rows, transaction


@pytest.fixture()
def con():
    c = duckdb.connect()
    c.execute("CREATE TABLE t (a INTEGER, b VARCHAR)").fetchall()
    c.execute("INSERT INTO t VALUES (1, 'old')").fetchall()
    yield c
    c.close()


def rows(con):
    return con.execute("SELECT a, b FROM t ORDER BY a").fetchall()


def test_the_same_columns_in_any_order_replace_every_row(con):
    with transaction(con):
        assert replace_rows(con, "t", pd.DataFrame({"b": ["x", "y"], "a": [2, 3]})) == 2
    assert rows(con) == [(2, "x"), (3, "y")]


def test_nothing_found_empties_the_table(con):
    with transaction(con):
        assert replace_rows(con, "t", pd.DataFrame()) == 0
    assert rows(con) == []


@pytest.mark.parametrize(
    "frame, words",
    [
        (pd.DataFrame({"a": [2]}), "lack column(s) ['b']"),
        (pd.DataFrame({"a": [2], "b": ["x"], "c": [1.0]}), "have column(s) ['c']"),
        (pd.DataFrame({"a": pd.Series([], dtype=int)}), "lack column(s) ['b']"),
    ],
)
def test_a_column_mismatch_raises_and_keeps_the_table(con, frame, words):
    with pytest.raises(ColumnMismatch, match=r"table t: ") as raised:
        with transaction(con):
            replace_rows(con, "t", frame)
    assert words in str(raised.value)
    assert rows(con) == [(1, "old")]


def test_a_warehouse_of_an_older_outfall_gets_the_columns_of_this_one(tmp_path):
    # A table made before a column was added (swppp_notices without issuer) and with one since removed:
    # the next connection adds the one and drops the other, so the assets write it again.
    from outfall.warehouse import configure, ensure_schema, upgrade_tables

    con = configure(duckdb.connect(str(tmp_path / "w.duckdb")), timezone=local_timezone())
    try:
        ensure_schema(con, schema_ddl())
        con.execute("ALTER TABLE swppp_notices DROP COLUMN issuer").fetchall()
        con.execute("ALTER TABLE quarantine ADD COLUMN judged_by VARCHAR").fetchall()
        con.execute(
            "INSERT INTO quarantine (dataset, source_file, row_number, reason) "
            "VALUES ('parcels', 'p.csv', 3, 'kept')"
        ).fetchall()
        con.execute("DELETE FROM _outfall_schema").fetchall()  # as an older version left it
        ensure_schema(con, schema_ddl())

        def names(t):
            return [
                r[0]
                for r in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [t]
                ).fetchall()
            ]

        assert "issuer" in names("swppp_notices") and "judged_by" not in names("quarantine")
        assert con.execute("SELECT reason FROM quarantine").fetchall() == [("kept",)]
        assert upgrade_tables(con, schema_ddl()) == []  # nothing more to do
    finally:
        con.close()


def test_row_hashes_stored_as_text_by_an_older_outfall_become_numbers(tmp_path):
    # An older Outfall stored each row's hash as hexadecimal text; the upgrade converts it to the
    # number itself, so a stored row and the same row read again still compare equal: re-sending a
    # changed file whose rows are partly unchanged supersedes only the changed ones.
    from outfall.warehouse import configure, ensure_schema
    from tests.ingesting import load

    data = tmp_path / "data"
    (data / "flow").mkdir(parents=True)
    body = "user_id,timestamp,value,unit\nIU-1,2026-03-01T00:00:00Z,5,gpm\nIU-1,2026-03-01T00:01:00Z,6,gpm\n"
    (data / "flow" / "f.csv").write_text(body)
    con = configure(duckdb.connect(str(tmp_path / "w.duckdb")), timezone=local_timezone())
    try:
        ensure_schema(con, schema_ddl())
        load(con, data, "flow")
        for table in ("flow", "flow_history"):  # as an older Outfall stored them
            con.execute(
                f"ALTER TABLE {table} ALTER COLUMN row_hash SET DATA TYPE VARCHAR USING to_hex(row_hash)"
            ).fetchall()
        con.execute("DELETE FROM _outfall_schema").fetchall()
        ensure_schema(con, schema_ddl())
        kinds = con.execute(
            "SELECT DISTINCT data_type FROM information_schema.columns "
            "WHERE column_name = 'row_hash' AND table_name IN ('flow', 'flow_history')"
        ).fetchall()
        assert kinds == [("UBIGINT",)]
        (data / "flow" / "f.csv").write_text(body.replace(",6,gpm", ",7,gpm"))
        report = load(con, data, "flow")
        assert (report.files[0].rows_new, report.files[0].rows_superseded) == (1, 1)
        assert con.execute("SELECT value FROM flow ORDER BY ts").fetchall() == [(5.0,), (7.0,)]
        assert con.execute("SELECT value FROM flow_history").fetchall() == [(6.0,)]
    finally:
        con.close()
