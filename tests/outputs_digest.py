"""A digest of a run's outputs (every table and every letter's text), to compare a run with the same run
before a change: ``tests/test_sample_outputs.py`` compares the sample towns' runs with the digests of
their runs before contract 8.8 (``tests/golden/sample_outputs.json``).

Each table's digest is its row count and the SHA-256 of its rows, sorted, over the columns it had before
(a column added since is not in the digest: new columns are welcome); the columns that differ from one
run of the same inputs to the next (load times, run times, file stamps) are left out, as is any column
the golden file lists as changed on purpose, with why. A letter's digest is the SHA-256 of its text
(tags dropped, blanks collapsed).

Write the golden file from warehouses made before a change (two runs of each, to find what varies)::

    python -m tests.outputs_digest --write tests/golden/sample_outputs.json \
        demo=/tmp/before/demo/outfall.duckdb:/tmp/before2/demo/outfall.duckdb ...
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import sys
from pathlib import Path

#: Tables that are bookkeeping of a run, not its findings: never compared.
BOOKKEEPING = ("_outfall_schema", "ingested_files", "_flow_gap_state", "_flow_hours_state", "slug_state")

#: Columns contract 8.8 changes on purpose in the sample towns' outputs, each with why: left out of the
#: digests (every other column of every table must equal its value before).
RENAMED_WORD = "the model town's rules file renames a reading's word (code_limit, not part2_limit)"
CHANGED_BY_8_8 = {
    ("billing_runs", "rules_version"): f"{RENAMED_WORD}: its version is 2026.12.12",
    ("billing_runs", "rules_sha256"): "the same change of the rules file",
    ("billing_runs", "inputs_sha256"): "a billing run's record of its inputs includes the rules file's hash",
    ("billing_runs", "previous_run_hash"): "each run's hash chains the one before, with the rules' hash",
    ("billing_runs", "run_hash"): "the same chain",
    ("discharge_limit_defaults", "rules_version"): "the rules file's version",
    ("outfall_run", "rules_versions"): "the rules files' versions",
    ("industrial_users", "row_hash"): "the input table has a new column, parcel_id (a user linked to "
    "premises, whose bill adds its surcharges), and a row's hash covers every column",
}
#: Columns that name where a run was made (the folders it was given): another checkout, another path; never
#: compared.
WHERE_RUN = {("outfall_run", "data_dir"), ("outfall_run", "dashboards_dir"), ("outfall_run", "exports_dir")}
#: The same, of one town's outputs only: (town, table, column).
CHANGED_IN_TOWN = {
    ("chagrin_falls", "not_judged", "section"): "911.99(a)'s reasonable time to correct is now expressed "
    "(notices.sewer_correction, set per notice): the 4 sewer notices not drafted now lack only who issues "
    "them (sewer_enforcement)",
    ("chagrin_falls", "not_judged", "reason"): "the same 4 rows",
}


def _text(value: object) -> str:
    return "" if value is None else str(value)


def tables(warehouse: Path) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every table of the warehouse: (its columns, its rows)."""
    import duckdb

    with duckdb.connect(str(warehouse), read_only=True) as con:
        names = [
            r[0]
            for r in con.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1"
            ).fetchall()
        ]
        out = {}
        for name in names:
            if name in BOOKKEEPING:
                continue
            cursor = con.execute(f'SELECT * FROM "{name}"')
            out[name] = ([d[0] for d in cursor.description], cursor.fetchall())
    return out


def table_digest(columns: list[str], rows: list[tuple], keep: list[str]) -> dict:
    """The row count and the SHA-256 of the rows, sorted, over the columns ``keep``."""
    where = [columns.index(c) for c in keep if c in columns]
    lines = sorted("\t".join(_text(row[i]) for i in where) for row in rows)
    return {"rows": len(rows), "sha256": hashlib.sha256("\n".join(lines).encode()).hexdigest()}


def letter_texts(warehouse: Path) -> dict[str, str]:
    """Every letter beside the warehouse (dashboards/letters), its text: tags dropped, blanks collapsed."""
    folder = warehouse.parent / "dashboards" / "letters"
    out = {}
    for path in sorted(folder.rglob("*.html")) if folder.is_dir() else []:
        text = re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))
        out[str(path.relative_to(folder))] = re.sub(r"\s+", " ", html.unescape(text)).strip()
    return out


def varying_columns(a: dict, b: dict) -> dict[str, list[str]]:
    """The columns of each table whose values differ between two runs of the same inputs (``tables`` of
    each)."""
    out = {}
    for name, (columns, rows) in a.items():
        other = b.get(name)
        if other is None:
            continue
        out[name] = [
            c
            for i, c in enumerate(columns)
            if sorted(_text(r[i]) for r in rows)
            != sorted(_text(r[other[0].index(c)]) for r in other[1] if c in other[0])
        ]
    return out


def golden_of(first: Path, second: Path, town: str = "") -> dict:
    """The golden digest of a town from two runs of it before a change."""
    a, b = tables(first), tables(second)
    varying = varying_columns(a, b)
    out: dict = {"tables": {}, "letters": {}}
    for name, (columns, rows) in a.items():
        keep = [
            c
            for c in columns
            if c not in varying.get(name, [])
            and (name, c) not in CHANGED_BY_8_8
            and (name, c) not in WHERE_RUN
            and (town, name, c) not in CHANGED_IN_TOWN
        ]
        out["tables"][name] = {"columns": keep, **table_digest(columns, rows, keep)}
    out["letters"] = {k: hashlib.sha256(v.encode()).hexdigest() for k, v in letter_texts(first).items()}
    return out


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[0] != "--write":
        print(__doc__)
        return 2
    golden = {}
    for spec in argv[2:]:
        town, paths = spec.split("=", 1)
        first, second = paths.split(":")
        golden[town] = golden_of(Path(first), Path(second), town)
    Path(argv[1]).write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{argv[1]}: written ({', '.join(golden)})")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
