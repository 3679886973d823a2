"""outfall/warehouse.py's statements: run_script runs a SQL script a statement at a time through DuckDB's
own parser (a ";" or a "$name" inside a string literal or a comment neither splits a statement nor asks
for a parameter); records gives a statement's rows as dicts."""

from __future__ import annotations

import duckdb
import pytest

from outfall.warehouse import records, run_script


@pytest.fixture()
def con():
    c = duckdb.connect()
    c.execute("CREATE TABLE t (n INTEGER, note VARCHAR)").fetchall()
    yield c
    c.close()


def test_a_semicolon_in_a_literal_or_a_comment_does_not_split_a_statement(con):
    script = """
        -- two rows; the second's note holds a ";" and a "--"
        INSERT INTO t VALUES ($n, 'one; two');  -- trailing; comment
        /* a block; comment naming $missing */
        INSERT INTO t VALUES ($n + 1, 'x -- not a comment; $missing');
        -- a last comment; with nothing after it
    """
    run_script(con, script, {"n": 1, "unused": "left alone"})
    assert con.execute("SELECT n, note FROM t ORDER BY n").fetchall() == [
        (1, "one; two"),
        (2, "x -- not a comment; $missing"),
    ]


def test_each_statement_binds_only_the_parameters_it_names(con):
    run_script(
        con,
        "INSERT INTO t VALUES ($a, 'a'); INSERT INTO t VALUES ($b, 'b'); DELETE FROM t WHERE n = 0",
        {"a": 1, "b": 2},
    )
    assert con.execute("SELECT n FROM t ORDER BY n").fetchall() == [(1,), (2,)]


def test_a_script_of_comments_only_runs_nothing(con):
    run_script(con, "-- nothing; at all\n/* nor here; */\n", {"n": 1})
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(0,)]


def test_records_are_the_rows_of_a_named_statement_as_dicts_in_its_order(con):
    con.execute(
        "CREATE TABLE ingested_files AS SELECT * FROM (VALUES ('flow', 'b.csv', 'h2', 's2', "
        "TIMESTAMPTZ '2026-03-02 00:00+00'), ('flow', 'a.csv', 'h1', NULL, TIMESTAMPTZ "
        "'2026-03-01 00:00+00'), ('lab_results', 'c.csv', 'h3', NULL, NULL)) "
        "AS t(dataset, source_file, sha256, file_stamp, loaded_at)"
    ).fetchall()
    rows = records(con, "select_ingested_ledger", {"dataset": "flow"})
    assert sorted(rows, key=lambda r: r["source_file"]) == [
        {"source_file": "a.csv", "sha256": "h1", "file_stamp": None},
        {"source_file": "b.csv", "sha256": "h2", "file_stamp": "s2"},
    ]
    assert records(con, "select_ingested_ledger", {"dataset": "rainfall"}) == []


def test_records_come_in_the_statements_order_with_its_column_names(con):
    con.execute("CREATE TABLE later (b DATE, a VARCHAR, c DOUBLE)").fetchall()
    assert records(con, "select_table_columns", {"table": "later", "schema": None}) == [
        {"column_name": "b", "data_type": "DATE"},
        {"column_name": "a", "data_type": "VARCHAR"},
        {"column_name": "c", "data_type": "DOUBLE"},
    ]
