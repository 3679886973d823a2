"""Dataset specs compiled into SQL: input tables' DDL, lookup tables, and the
query that judges one file's rows.

The judging query reads a source relation (``source_row``, ``_source_reason``
and one ``r_<column>`` per column found in the file, VARCHAR for text files or
native Parquet types) and yields, per row: the table's typed, canonical
columns, ``reason`` (NULL when the row is kept; otherwise every reason,
'; '-separated, in column order then the finish steps' order), ``row_hash`` of
the canonical values, ``raw`` (the row's cells as JSON, for quarantined rows)
and ``_amb_<column>`` flags of local times that occur twice (DST fall-back).
Identifiers in the SQL come from the specs, never from the file.
"""

from __future__ import annotations

from dataclasses import replace

from outfall import vocab
from outfall.ingest import parse
from outfall.ingest.datasets import PREFILLED_KEY, Column, Context, Dataset, Step
from outfall.ingest.parse import ident, lit

PROVENANCE = (
    ("source_file", "VARCHAR"),
    ("source_row", "INTEGER"),
    ("loaded_at", "TIMESTAMPTZ"),
    ("row_hash", "UBIGINT"),
)
RAW_CELL_MAX = 1000  # characters of a cell kept in quarantine.raw


# ---------------------------------------------------------------------------
# DDL


def create_table_sql(ds: Dataset) -> str:
    cols = [*ds.table_columns(), *PROVENANCE]
    body = ", ".join(f"{ident(n)} {t}" for n, t in cols)
    history = ", ".join(
        f"{ident(n)} {t}" for n, t in [*cols, ("superseded_at", "TIMESTAMPTZ"), ("superseded_by", "VARCHAR")]
    )
    return (
        f"CREATE TABLE IF NOT EXISTS {ident(ds.name)} ({body});\n"
        f"CREATE TABLE IF NOT EXISTS {ident(ds.name + '_history')} ({history});\n"
    )


def expected_columns(ds: Dataset) -> list[tuple[str, str]]:
    return [*ds.table_columns(), *PROVENANCE]


# ---------------------------------------------------------------------------
# lookup tables (vocabularies and the rules' parcel requirements)


def lookup_rows(datasets, ctx: Context) -> dict[str, list[tuple]]:
    """Rows of the temporary lookup tables every judging query may use."""
    params = {}
    for canon, syns in vocab.PARAMETERS.items():
        for s in (canon, *syns):
            for v in {s, s.replace("_", " "), s.replace(" ", "_")}:
                if vocab.canonical_parameter(v) == canon:
                    params[" ".join(v.strip().lower().split())] = canon
    units = []
    for kind, table in vocab.UNITS.items():
        for canon, unit in table.items():
            scale, off = unit.scale, unit.offset
            for s in {canon.lower(), *unit.synonyms}:
                units.append(
                    (kind, " ".join(s.strip().lower().split()), canon, scale, off, vocab.CANONICAL_OF[canon])
                )
    vocabs = {}
    for ds in datasets:
        for col in ds.columns:
            if col.vocabulary is not None:
                for key, value in col.vocabulary.for_context(ctx).items():
                    vocabs[(col.vocabulary.name, key)] = value
    requires = []
    schedule = ctx.unit_schedule or {}
    citation = schedule.get("short_citation") or schedule.get("citation") or "the unit schedule"
    for cls, spec in schedule.get("classes", {}).items():
        for i, col in enumerate((spec or {}).get("requires", []) or []):
            requires.append((str(cls), str(col), i, str(citation)))
    return {
        "_param_vocab": sorted(params.items()),
        "_unit_vocab": sorted(set(units)),
        "_vocab": sorted((n, k, v) for (n, k), v in vocabs.items()),
        "_parcel_requires": requires,
    }


LOOKUP_DDL = {
    "_param_vocab": "key VARCHAR, canonical VARCHAR",
    "_unit_vocab": "kind VARCHAR, key VARCHAR, unit_canonical VARCHAR, scale DOUBLE, off DOUBLE, "
    "converts_to VARCHAR",
    "_vocab": "vocabulary VARCHAR, key VARCHAR, canonical VARCHAR",
    "_parcel_requires": "property_class VARCHAR, column_name VARCHAR, position INTEGER, citation VARCHAR",
}


def create_lookups(con, datasets, ctx: Context) -> None:
    for name, rows in lookup_rows(datasets, ctx).items():
        con.execute(f"CREATE OR REPLACE TEMP TABLE {ident(name)} ({LOOKUP_DDL[name]})").fetchall()
        if rows:
            marks = ", ".join("?" for _ in rows[0])
            con.executemany(f"INSERT INTO {ident(name)} VALUES ({marks})", [list(r) for r in rows])


# ---------------------------------------------------------------------------
# the judging query


def for_town(ds: Dataset, ctx: Context) -> Dataset:
    """``ds`` with its columns of the town's codes as this run's rules have them (town_codes_column)."""
    columns = tuple(town_codes_column(c, ctx) for c in ds.columns)
    return ds if columns == ds.columns else replace(ds, columns=columns)


def town_codes_column(col: Column, ctx: Context) -> Column:
    """A column of the town's codes (districts, property classes, components) as this run's rules have
    them: one of the codes listed, or, where the rules list none, the text as written and not required."""
    if col.vocabulary is None or not col.vocabulary.rules_codes:
        return col
    lookup = col.vocabulary.for_context(ctx)
    if not lookup:
        return replace(col, kind="text", vocabulary=None, required=False, allowed="")
    return replace(col, allowed=", ".join(dict.fromkeys(lookup.values())))


def _typed(
    col: Column, ref: str | None, src_type: str, hoist: parse.Hoist = parse.inline
) -> tuple[str, list[str], str | None, str]:
    """(value SQL, reason SQLs, ambiguous-flag SQL or None, cleaned text SQL) of one column."""
    name = col.name
    if ref is None:  # optional column absent from the file
        return (
            f"CAST(NULL AS {col.table_type if not col.sql_type else 'VARCHAR'})",
            [],
            None,
            "CAST(NULL AS VARCHAR)",
        )
    t = parse.clean(ref, src_type)
    reasons: list[str] = []
    if col.required:
        blank = f"{t} IS NULL" if parse.is_text(src_type) else f"{ref} IS NULL"
        reasons.append(
            f"CASE WHEN {blank} THEN {lit(f'missing required value for {chr(39)}{name}{chr(39)}')} END"
        )
    amb = None
    if col.kind == "number":
        value, why = parse.parse_number(ref, name, src_type, hoist)
    elif col.kind == "integer":
        value, why = parse.parse_integer(ref, name, src_type, hoist)
    elif col.kind == "date":
        value, why = parse.parse_date(ref, name, src_type, hoist)
    elif col.kind == "timestamp":
        value, why, amb = parse.parse_timestamp(ref, name, src_type, hoist)
    elif col.kind == "bool":
        value, why = parse.parse_bool(ref, name, src_type)
    elif col.kind == "enum":
        v = col.vocabulary
        value = hoist(
            f"_e_{name}",
            f"(SELECT canonical FROM _vocab v WHERE v.vocabulary = {lit(v.name)} "
            f"AND v.key = {parse.norm_key(t, v.style)})",
        )
        why = parse.enum_reason(t, value, name, col.allowed)
    else:
        value, why = t, "NULL"
    reasons.append(why)
    if col.nonnegative and col.kind in ("number", "integer"):
        reasons.append(
            f"CASE WHEN {value} < 0 THEN {lit(f'negative value in column {chr(39)}{name}{chr(39)} (')} "
            f"|| {parse.shown(t)} || ')' END"
        )
    return value, reasons, amb, t


def judge_sql(
    ds: Dataset, ctx: Context, source: str, present: dict[str, str], carry: tuple[str, ...] = ()
) -> str:
    """The query judging every row of ``source`` (a SQL relation) for dataset
    ``ds``; ``present`` maps each spec column found in the file to its source type;
    ``carry`` names columns of the source passed through as they are (a row's file)."""
    if not ctx.timezone:
        raise ValueError("the ingestion context names no time zone (the town's rules' timezone)")
    cols: list[str] = []
    reasons: list[str] = []
    select = ["source_row", "_source_reason", *(ident(c) for c in carry)]
    flags: list[str] = [*carry]
    # Text cells are cleaned once, in their own stage (an expression that uses a cell
    # many times, as a timestamp's does, would otherwise clean it each time).
    cleaned = [
        f"{parse.clean(ident('r_' + c), t)} AS {ident('_t_' + c)}"
        for c, t in present.items()
        if parse.is_text(t)
    ]
    # Values a column's expressions use more than once, computed once in the stages p1, p2, ...
    # (parse.Hoist): a value that uses another hoisted value is computed a stage after it.
    hoisted: list[tuple[int, str]] = []
    level: dict[str, int] = {}

    def hoist(name: str, expr: str) -> str:
        level[ident(name)] = 1 + max((level[n] for n in level if n in expr), default=0)
        hoisted.append((level[ident(name)], f"{expr} AS {ident(name)}"))
        return ident(name)

    for col in ds.columns:
        _judge_column(col, ctx, present, hoist, select, cols, reasons, flags)
    unanswered = _unanswered_sql(ds, present)
    if unanswered:
        select.append(f"{unanswered} AS _unanswered")
    ctes = [f"c AS (SELECT *{''.join(', ' + x for x in cleaned)} FROM ({source}) AS src)"]
    stages = max((n for n, _ in hoisted), default=0)
    for n in range(1, stages + 1):
        ctes.append(
            f"p{n} AS (SELECT *{''.join(', ' + x for k, x in hoisted if k == n)} "
            f"FROM {'c' if n == 1 else f'p{n - 1}'})"
        )
    ctes.append(f"s0 AS (SELECT {', '.join(select)} FROM {f'p{stages}' if stages else 'c'})")
    known = (
        set(cols)
        | {"_raw_" + c for c in cols}
        | set(reasons)
        | set(flags)
        | {"source_row", "_source_reason", "_unanswered"}
    )
    steps = ds.steps(ctx)
    for i, step in enumerate(steps, start=1):
        ctes.append(f"s{i} AS ({_step_sql(step, known, reasons, f's{i - 1}')})")
    final = _judged_select(ds, present, known, cols, reasons, flags, f"s{len(steps)}", bool(unanswered))
    # The town's time zone is the run's constant, written into the query rather than bound: a
    # bound time zone is looked up again for every row.
    return ("WITH " + ",\n".join(ctes) + "\n" + final).replace("$tz", lit(ctx.timezone))


def _judge_column(
    col: Column,
    ctx: Context,
    present: dict[str, str],
    hoist: parse.Hoist,
    select: list[str],
    cols: list[str],
    reasons: list[str],
    flags: list[str],
) -> None:
    """One spec column's expressions, added to the first stage's ``select``: its typed value, its raw
    cell, each of its reasons (``reasons``, named _w0, _w1, ...) and its flag of a local time that may
    occur twice (``flags``)."""
    if col.vocabulary is not None and col.vocabulary.jurisdiction_spellings is not None:
        col = replace(col, allowed=ctx.allowed_jurisdictions())
    col = town_codes_column(col, ctx)
    src_type = present.get(col.name, "VARCHAR")
    if col.name in present and parse.is_text(src_type):
        ref, src_type = ident("_t_" + col.name), parse.CLEANED
    else:
        ref = ident("r_" + col.name) if col.name in present else None
    value, why, amb, text = _typed(col, ref, src_type, hoist)
    select.append(f"{value} AS {ident(col.name)}")
    raw_ref = ident("r_" + col.name) if col.name in present else "CAST(NULL AS VARCHAR)"
    select.append(f"{raw_ref} AS {ident('_raw_' + col.name)}")
    cols.append(col.name)
    for w in why:
        if w != "NULL":
            reasons.append(f"_w{len(reasons)}")
            select.append(f"{w} AS {reasons[-1]}")
    if amb is not None:
        flags.append("_amb_" + col.name)
        select.append(f"{amb} AS {ident('_amb_' + col.name)}")


def _judged_select(
    ds: Dataset,
    present: dict[str, str],
    known: set[str],
    cols: list[str],
    reasons: list[str],
    flags: list[str],
    last: str,
    unanswered: bool,
) -> str:
    """The last SELECT of the judging: the table's columns typed, the row's number, its reasons as one
    text, its flags, its hash, and its raw cells (as JSON) when it has a reason."""
    renamed = dict(ds.renames)
    table_cols = ds.table_columns()
    by_table = {renamed.get(c, c): c for c in known if not c.startswith("_")}
    out = [f"CAST({ident(by_table.get(n, n))} AS {t}) AS {ident(n)}" for n, t in table_cols]
    value_cols = [ident(n) for n, _ in table_cols]
    reason = f"nullif(concat_ws('; ', _source_reason, {', '.join(reasons) or 'NULL'}), '')"
    raw = ", ".join(
        f"{lit(c)}, left({parse.clean(ident('_raw_' + c), present[c])}, {RAW_CELL_MAX})"
        for c in cols
        if c in present
    )
    raw_sql = f"CASE WHEN reason IS NOT NULL THEN CAST(json_object({raw}) AS VARCHAR) END" if raw else "NULL"
    raws = [ident("_raw_" + c) for c in cols if c in present]
    star = f"* EXCLUDE ({', '.join(raws)})" if raws else "*"
    return (
        f"SELECT {star}, hash({', '.join(value_cols)}) AS row_hash, {raw_sql} AS raw "
        f"FROM (SELECT {', '.join(out)}, CAST(source_row AS INTEGER) AS source_row, {reason} AS reason"
        f"{''.join(', ' + ident(f) for f in flags)}, "
        f"{', '.join(raws) or 'NULL AS _no_raw'} FROM {last}"
        # a prefilled row left blank records nothing: like a blank line, it is not a row (left_blank_sql)
        f"{' WHERE NOT _unanswered' if unanswered else ''})"
    )


def _unanswered_sql(ds: Dataset, present: dict[str, str]) -> str | None:
    """A row Outfall prefilled (its hidden marker cell not blank) whose answers are all blank; None when
    the file has no marker column or the dataset no answers. Only the marker and the answers decide:
    a row without the marker, or with any answer given, is judged as every row is. Such a row records
    nothing (contract 7.5): the judging leaves it out, as a blank line, and the ledger counts it as left
    blank (``left_blank_sql``)."""
    if PREFILLED_KEY not in present or not ds.answers:
        return None
    marked = f"{ident('_t_' + PREFILLED_KEY)} IS NOT NULL"
    blanks = [f"{ident('_t_' + a)} IS NULL" for a in ds.answers if a in present]
    return "coalesce(" + " AND ".join([marked, *blanks]) + ", FALSE)"


def left_blank_sql(ds: Dataset, source: str, present: dict[str, str]) -> str | None:
    """The count of the rows of ``source`` that Outfall prefilled and a person left blank (none answered),
    which ``judge_sql`` leaves out; None when the file can have none."""
    unanswered = _unanswered_sql(ds, present)
    if unanswered is None:
        return None
    cells = [c for c in (PREFILLED_KEY, *ds.answers) if c in present]
    cleaned = ", ".join(f"{parse.clean(ident('r_' + c), present[c])} AS {ident('_t_' + c)}" for c in cells)
    return f"SELECT count(*) FROM (SELECT {cleaned} FROM ({source}) AS src) WHERE {unanswered}"


def _step_sql(step: Step, known: set[str], reasons: list[str], prev: str) -> str:
    replace, new = [], []
    for name, expr in step.columns:
        (replace if name in known else new).append(f"({expr}) AS {ident(name)}")
    for name, _ in step.columns:
        known.add(name)
    for expr in step.reasons:
        reasons.append(f"_w{len(reasons)}")
        known.add(reasons[-1])
        new.append(f"({expr}) AS {reasons[-1]}")
    star = f"s.* REPLACE ({', '.join(replace)})" if replace else "s.*"
    joins = "".join(f" LEFT JOIN {ident(table)} AS {alias} ON {on}" for alias, table, on in step.joins)
    return f"SELECT {', '.join([star, *new])} FROM {prev} AS s{joins}"


def hash_sql(ds: Dataset) -> str:
    return f"hash({', '.join(ident(n) for n, _ in ds.table_columns())})"
