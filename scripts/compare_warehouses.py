"""Compare every table of two warehouses (a run before a change and one after), row for row.

    .venv/bin/python scripts/compare_warehouses.py BEFORE.duckdb AFTER.duckdb

Every table of BEFORE is compared with the table of the same name in AFTER, on BEFORE's columns, as
multisets of rows (the order rows were written in does not count). Columns that hold the wall clock of
a run (when a file was loaded, a row set aside, a document recorded, a run started, how long a step took)
and the folders a run was given are left out: two runs of the same inputs differ there and nowhere else.
The columns that name the rules file a run read (its version and SHA-256, and the hashes chained
from them) and those of the schema (its DDL's digest, an input row's hash over its table's columns) are
left out too, and said so: a changed rules file or an added column changes them whatever the results.
Tables and columns AFTER adds are listed, not compared. Exit 0 when every table is equal, 1 otherwise,
naming each table that differs and how many rows differ each way.
"""

from __future__ import annotations

import re
import sys

import duckdb

#: Columns of the wall clock, of a run's own folders and files' times.
WALL_CLOCK = re.compile(
    r"^(loaded_at|superseded_at|quarantined_at|recorded_at|run_at|file_stamp|"
    r"data_dir|dashboards_dir|exports_dir)$"
)
#: Columns of one table that hold the wall clock: a printed PDF carries the moment it was printed, so its
#: bytes' sha256 and the chain made of them differ from run to run (the HTML's sha256 does not).
WALL_CLOCK_OF = {"documents_issued": {"sha256", "prev_sha256", "chain_sha256"}}
#: Columns that record which rules file a run read (its version and the SHA-256 of its bytes, and the
#: hashes a billing run or the slug detection chains from them): they differ whenever the file does,
#: whatever the results. Left out, and listed apart.
RULES_IDENTITY = {
    "billing_runs": {"rules_version", "rules_sha256", "inputs_sha256", "previous_run_hash", "run_hash"},
    "slug_state": {"fingerprint"},
    "outfall_run": {"rules_versions"},
    "discharge_limit_defaults": {"rules_version"},
    # the schema's identity: the digest of the DDL, and an input row's hash over its table's columns
    # (a column added to an input table changes both, whatever the rows hold)
    "_outfall_schema": {"digest"},
}
SCHEMA_IDENTITY = re.compile(r"^row_hash$")


def tables(con: duckdb.DuckDBPyConnection, db: str) -> dict[str, list[str]]:
    rows = con.execute(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_catalog = ? AND table_schema = 'main' ORDER BY table_name, ordinal_position",
        [db],
    ).fetchall()
    out: dict[str, list[str]] = {}
    for table, column in rows:
        out.setdefault(table, []).append(column)
    return out


def compare(before: str, after: str) -> int:
    con = duckdb.connect()
    con.execute(f"ATTACH '{before}' AS a (READ_ONLY)")
    con.execute(f"ATTACH '{after}' AS b (READ_ONLY)")
    old, new = tables(con, "a"), tables(con, "b")
    differing = 0
    for table, columns in sorted(old.items()):
        if table not in new:
            print(f"{table}: missing after")
            differing += 1
            continue
        missing = [c for c in columns if c not in new[table]]
        if missing:
            print(f"{table}: columns missing after: {', '.join(missing)}")
            differing += 1
            continue
        kept = [
            c
            for c in columns
            if not WALL_CLOCK.match(c)
            and c not in WALL_CLOCK_OF.get(table, ())
            and c not in RULES_IDENTITY.get(table, ())
            and not SCHEMA_IDENTITY.match(c)
        ]
        cols = ", ".join(f'"{c}"' for c in kept) or "1 AS row_present"
        only_a = con.execute(
            f'SELECT count(*) FROM (SELECT {cols} FROM a.main."{table}" EXCEPT ALL '
            f'SELECT {cols} FROM b.main."{table}")'
        ).fetchall()[0][0]
        only_b = con.execute(
            f'SELECT count(*) FROM (SELECT {cols} FROM b.main."{table}" EXCEPT ALL '
            f'SELECT {cols} FROM a.main."{table}")'
        ).fetchall()[0][0]
        rows = con.execute(f'SELECT count(*) FROM a.main."{table}"').fetchall()[0][0]
        left_out = sorted(set(columns) - set(kept))
        if only_a or only_b:
            differing += 1
            print(f"{table}: DIFFERS ({only_a} rows only before, {only_b} only after, of {rows})")
        else:
            note = f" (left out: {', '.join(left_out)})" if left_out else ""
            print(f"{table}: equal, {rows} rows{note}")
        extra = [c for c in new[table] if c not in columns]
        if extra:
            print(f"  columns added after: {', '.join(extra)}")
    for table in sorted(set(new) - set(old)):
        print(f"{table}: added after")
    print(f"{len(old)} tables compared, {differing} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(compare(sys.argv[1], sys.argv[2]))
