"""SQL for input cells: for each column kind, one typed expression and one reason expression.

Every function returns DuckDB SQL text built from a column reference (a quoted
identifier of our own making) and the column's name from the dataset spec
(never from the input file); values travel through the query, never into its
text. A reason expression yields NULL where the value is fine, otherwise a
reason a clerk can act on ("'abc' in column 'result' is not a number"). Blank
input is not an error here (it is NULL); required-ness is checked separately.

Text sources (CSV, XLSX) give VARCHAR cells; Parquet gives native types, and
the expressions follow the source type (a DOUBLE is checked to be finite, a
TIMESTAMP WITH TIME ZONE is already an instant, a naive TIMESTAMP is local).

A value that the typed and reason expressions both use (a cell's number, date, naive local time,
whether it has a UTC offset) is given to ``hoist(name, expr)``, which returns what to write in
its place: by default the expression itself; the judging query (``outfall.ingest.compile``)
computes it once in a stage of its own and gets back the column's name. Written out inline, a
timestamp's expressions repeat the parse some thirty times and DuckDB spends more time planning
the query than running it on a small file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Hoist = Callable[[str, str], str]  # (a column name of our own, its expression) -> what stands for it


def inline(name: str, expr: str) -> str:
    """The default ``hoist``: the expression itself, in parentheses."""
    del name
    return f"({expr})"


TRUE_WORDS = ("true", "t", "yes", "y", "1", "x")
FALSE_WORDS = ("false", "f", "no", "n", "0")
SHOWN_MAX = 80  # characters of a value echoed into a reason

# Whitespace stripped around every cell (Python's str.strip() set, for the
# characters spreadsheets and CSV writers produce).
_BLANKS = "' ' || chr(9) || chr(10) || chr(13) || chr(11) || chr(12) || chr(160) || chr(8239) || chr(65279)"

# A cell needs trimming when its first or last character is one of these, the characters of
# _BLANKS by code point: space, tab, line feed, vertical tab, form feed, carriage return, no-break
# space, narrow no-break space and the byte-order mark. The first character's code is ascii(cell),
# the last's ascii(substr(cell, -1)) (a third faster than right(cell, 1)); the pair is faster than a
# regular expression on every cell of a file. The two sets are the same, so that clean() is exactly
# nullif(trim(cell, _BLANKS), '') however it is written.
_EDGE_CODES = "(32, 9, 10, 11, 12, 13, 160, 8239, 65279)"

# Numbers: plain decimals, scientific notation, or proper thousands grouping
# (1,234 / 12,345.6); an optional leading $ and sign.
NUMBER_RE = r"[+-]?\$?\s*(\d{1,3}(,\d{3})+(\.\d*)?|\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)"
_NONFINITE = ("nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity")


def lit(text: str) -> str:
    """A SQL string literal of a name from our own specs (quotes doubled)."""
    return "'" + str(text).replace("'", "''") + "'"


def ident(name: str) -> str:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"not a plain identifier: {name!r}")
    return f'"{name}"'


CLEANED = "CLEANED"  # a source type: text already through clean() (trimmed, NULL when blank)
# A source type: a Parquet text column stored as a dictionary on every page. DuckDB reads such a
# column as a dictionary of its distinct values, and a plain function of the cell (not a CASE) is
# then computed once per distinct value: its cleaning is trim() itself, cheaper there than the edge
# test. On text read row by row trim() with a set of characters is the slow
# part, and the edge test spares it.
DICTIONARY_TEXT = "VARCHAR (dictionary)"


def is_text(src_type: str) -> bool:
    return src_type.upper() in (
        "VARCHAR",
        "TEXT",
        "STRING",
        "NULL",
        '"NULL"',
        CLEANED,
        DICTIONARY_TEXT.upper(),
    )


def is_numeric(src_type: str) -> bool:
    t = src_type.upper()
    return t in (
        "DOUBLE",
        "FLOAT",
        "REAL",
        "TINYINT",
        "SMALLINT",
        "INTEGER",
        "BIGINT",
        "HUGEINT",
        "UTINYINT",
        "USMALLINT",
        "UINTEGER",
        "UBIGINT",
        "UHUGEINT",
    ) or t.startswith("DECIMAL")


def clean(ref: str, src_type: str = "VARCHAR") -> str:
    """The cell as trimmed text, NULL when blank."""
    if src_type == CLEANED:
        return ref
    if src_type == DICTIONARY_TEXT:
        return f"nullif(trim({ref}, {_BLANKS}), '')"
    text = ref if is_text(src_type) else f"CAST({ref} AS VARCHAR)"
    # trim() with a set of characters is slow; most cells need no trimming at all
    return (
        f"CASE WHEN {text} = '' THEN NULL WHEN ascii({text}) IN {_EDGE_CODES} OR ascii(substr({text}, -1)) "
        f"IN {_EDGE_CODES} THEN nullif(trim({text}, {_BLANKS}), '') ELSE {text} END"
    )


def shown(text_sql: str) -> str:
    """A value as echoed into a reason: at most SHOWN_MAX characters."""
    return (
        f"CASE WHEN length({text_sql}) > {SHOWN_MAX} THEN left({text_sql}, {SHOWN_MAX - 3}) || '...' "
        f"ELSE {text_sql} END"
    )


def _quoted(text_sql: str) -> str:
    """An opening quote and the value (the message that follows closes the quote)."""
    return f"'''' || {shown(text_sql)}"


# ---------------------------------------------------------------------------
# numbers


def number_text(t: str) -> tuple[str, str]:
    """(DOUBLE value, kind of problem) of cleaned text ``t``: the problem is
    NULL, 'ambiguous' (a comma that is not thousands grouping), 'nonfinite' or 'bad'."""
    ok = f"regexp_full_match({t}, '{NUMBER_RE}')"
    plain = f"replace(replace(ltrim({t}, '+'), '$', ''), ',', '')"
    # a leading sign before the $ ("-$5") is kept by ltrim of '+' only
    cast = f"TRY_CAST(replace({plain}, ' ', '') AS DOUBLE)"
    # Fast path: a cell with neither comma nor $ that DuckDB reads as a finite number
    # (most cells of a meter's file); the regular expression only for the others.
    simple = f"(NOT contains({t}, ',') AND NOT contains({t}, '$') AND isfinite(TRY_CAST({t} AS DOUBLE)))"
    value = (
        f"CASE WHEN {t} IS NULL THEN NULL WHEN {simple} THEN TRY_CAST({t} AS DOUBLE) "
        f"WHEN {ok} AND isfinite({cast}) THEN {cast} END"
    )
    problem = (
        f"CASE WHEN {t} IS NULL THEN NULL WHEN {simple} THEN NULL "
        f"WHEN lower({t}) IN ({', '.join(lit(w) for w in _NONFINITE)}) THEN 'nonfinite' "
        f"WHEN {ok} THEN CASE WHEN isfinite(TRY_CAST(replace({plain}, ' ', '') AS DOUBLE)) THEN NULL "
        f"ELSE 'nonfinite' END "
        f"WHEN contains({t}, ',') AND regexp_full_match({t}, '[+-]?\\$?\\s*[0-9.,]*[0-9][0-9.,]*') "
        f"THEN 'ambiguous' ELSE 'bad' END"
    )
    return value, problem


def number_reason(problem: str, t: str, column: str, subject: str | None = None) -> str:
    """Reason text for a number problem of ``number_text``."""
    where = f" in column '{column}'" if subject is None else ""
    lead = "" if subject is None else f"{subject} "
    q = _quoted(t) + " || ''''"
    ambiguous = (
        " is ambiguous: a comma is read only as a thousands separator (1,234 or 12,345.6); write a decimal "
        "with a point (2.5), or the number without the comma"
    )
    return (
        f"CASE {problem} WHEN 'ambiguous' THEN {lit(lead)} || {q} || "
        f"{lit(where + ambiguous)} "
        f"WHEN 'nonfinite' THEN {lit(lead)} || {q} || {lit(where + ' is not a finite number')} WHEN 'bad' "
        f"THEN {lit(lead)} || {q} || {lit(where + ' is not a number')} END"
    )


def parse_number(ref: str, column: str, src_type: str = "VARCHAR", hoist: Hoist = inline) -> tuple[str, str]:
    if is_numeric(src_type):
        v = f"CAST({ref} AS DOUBLE)"
        return (
            f"CASE WHEN isfinite({v}) THEN {v} END",
            f"CASE WHEN {v} IS NOT NULL AND NOT isfinite({v}) THEN '''' || CAST({v} AS VARCHAR) || "
            f"{lit(chr(39) + ' in column ' + chr(39) + column + chr(39) + ' is not a finite number')} END",
        )
    t = clean(ref, src_type)
    value, problem = number_text(t)
    value, problem = hoist(f"_v_{column}", value), hoist(f"_p_{column}", problem)
    return value, number_reason(problem, t, column)


def parse_integer(ref: str, column: str, src_type: str = "VARCHAR", hoist: Hoist = inline) -> tuple[str, str]:
    value, reason = parse_number(ref, column, src_type, hoist)
    t = clean(ref, src_type)
    frac = f"({value} IS NOT NULL AND {value} <> floor({value}))"
    big = f"({value} IS NOT NULL AND abs({value}) > 2147483647)"
    return (
        f"CASE WHEN NOT {frac} AND NOT {big} THEN CAST({value} AS INTEGER) END",
        f"coalesce({reason}, CASE WHEN {frac} THEN {_quoted(t)} || "
        f"{lit(chr(39) + ' in column ' + chr(39) + column + chr(39) + ' is not a whole number')} WHEN {big} "
        f"THEN {_quoted(t)} || "
        f"{lit(chr(39) + ' in column ' + chr(39) + column + chr(39) + ' is too large')} END)",
    )


# ---------------------------------------------------------------------------
# dates and times


def parse_date(ref: str, column: str, src_type: str = "VARCHAR", hoist: Hoist = inline) -> tuple[str, str]:
    """Local calendar dates (YYYY-MM-DD, a time part dropped; US M/D/YYYY accepted)."""
    st = src_type.upper()
    if st == "DATE":
        return ref, "NULL"
    if st.startswith("TIMESTAMP WITH TIME ZONE") or st == "TIMESTAMPTZ":
        return f"CAST(timezone($tz, {ref}) AS DATE)", "NULL"
    if st.startswith("TIMESTAMP"):
        return f"CAST({ref} AS DATE)", "NULL"
    t = clean(ref, src_type)
    value = hoist(
        f"_d_{column}",
        f"coalesce(TRY_CAST(left({t}, 10) AS DATE), "
        f"CASE WHEN regexp_full_match({t}, '\\d{{1,2}}/\\d{{1,2}}/\\d{{4}}') "
        f"THEN CAST(try_strptime({t}, '%m/%d/%Y') AS DATE) END)",
    )
    in_column = chr(39) + " in column " + chr(39) + column + chr(39)
    reason = (
        f"CASE WHEN {t} IS NOT NULL AND {value} IS NULL THEN {_quoted(t)} || "
        f"{lit(in_column + ' is not a date (expected YYYY-MM-DD)')} "
        "END"
    )
    return value, reason


# Times without offset in the form meters export (read first, by a strict format: nothing may
# follow the seconds, so no offset either).
PLAIN_FORMATS = ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S")
US_FORMATS = ("%m/%d/%Y %H:%M", "%m/%d/%Y %H:%M:%S", "%m/%d/%Y %I:%M %p", "%m/%d/%Y %I:%M:%S %p", "%m/%d/%Y")


def has_offset(t: str) -> str:
    """The text ends with a UTC offset or Z after a time of day."""
    return (
        f"(right({t}, 1) IN ('Z', 'z') OR (contains({t}, ':') AND "
        f"(substr({t}, -6, 1) IN ('+', '-') OR substr({t}, -5, 1) IN ('+', '-') "
        f"OR substr({t}, -3, 1) IN ('+', '-'))))"
    )


def local_instant(naive: str) -> tuple[str, str, str]:
    """(instant, ambiguous flag, nonexistent flag) of a naive local TIMESTAMP.

    Only the hours around a clock change need the careful test (00:00-03:59 of
    a day in March or November since 2007, when the United States' present
    rule began; of any day before, when the changes fell in other months:
    April and October, and January 1974 and February 1975); every other time
    is its local instant.
    An ambiguous time (fall-back) is its first, daylight-time instant here;
    the engine moves later repeats within a group to standard time."""
    c = f"timezone($tz, {naive})"
    near = f"(hour({naive}) BETWEEN 0 AND 3 AND (month({naive}) IN (3, 11) OR year({naive}) < 2007))"
    valid = lambda x: f"(timezone($tz, {x}) = {naive})"  # noqa: E731
    early = f"({c} - INTERVAL 1 HOUR)"
    late = f"({c} + INTERVAL 1 HOUR)"
    instant = (
        f"CASE WHEN NOT {near} THEN {c} WHEN {valid(early)} THEN {early} WHEN {valid(c)} THEN {c} "
        f"WHEN {valid(late)} THEN {late} END"
    )
    # Each flag is a CASE, so the careful test runs only for the hours near a clock change.
    ambiguous = (
        f"CASE WHEN {naive} IS NULL OR NOT {near} THEN false "
        f"ELSE coalesce(({valid(early)} AND {valid(c)}) OR ({valid(c)} AND {valid(late)}), false) END"
    )
    nonexistent = (
        f"CASE WHEN {naive} IS NULL OR NOT {near} THEN false "
        f"ELSE NOT ({valid(early)} OR {valid(c)} OR {valid(late)}) END"
    )
    return instant, ambiguous, nonexistent


def parse_timestamp(
    ref: str, column: str, src_type: str = "VARCHAR", hoist: Hoist = inline
) -> tuple[str, str, str]:
    """(UTC instant, reason, ambiguous flag). With an offset (or Z) the text is
    that instant; without one it is local time in the town's time zone ($tz, the
    rules' timezone). A local time
    that does not exist (the spring-forward hour) is refused."""
    st = src_type.upper()
    if st.startswith("TIMESTAMP WITH TIME ZONE") or st == "TIMESTAMPTZ":
        return ref, "NULL", "false"
    in_column = chr(39) + " in column " + chr(39) + column + chr(39)
    does_not_exist = in_column + (
        " does not exist (clocks spring forward that night); give the time with its UTC offset"
    )
    if st == "DATE" or st.startswith("TIMESTAMP"):
        naive = hoist(f"_n_{column}", f"CAST({ref} AS TIMESTAMP)")
        instant, amb, nonexistent = local_instant(naive)
        reason = (
            f"CASE WHEN {nonexistent} THEN 'local time ''' || CAST({naive} AS VARCHAR) || "
            f"{lit(does_not_exist)} "
            "END"
        )
        return instant, reason, amb
    t = clean(ref, src_type)
    # A meter's export writes one plain form, 2026-03-01T08:30:00 (or with a space): read by a
    # strict format, which is a time without offset, and spares the offset test of every other text
    # (a sixth of the time of judging a 1-minute CSV). Where the format reads a text at all, it reads
    # the same time as the general cast. Any other text goes the general way.
    plain = hoist(
        f"_i_{column}",
        f"try_strptime({t}, [{', '.join(lit(f) for f in PLAIN_FORMATS)}])"
        if PLAIN_FORMATS
        else "CAST(NULL AS TIMESTAMP)",
    )
    offset = hoist(f"_o_{column}", f"CASE WHEN {plain} IS NOT NULL THEN false ELSE {has_offset(t)} END")
    naive = hoist(
        f"_n_{column}",
        f"CASE WHEN {plain} IS NOT NULL THEN {plain} "
        f"WHEN {t} IS NOT NULL AND NOT {offset} THEN coalesce(TRY_CAST({t} AS TIMESTAMP), "
        f"try_strptime({t}, [{', '.join(lit(f) for f in US_FORMATS)}])) END",
    )
    instant, amb, nonexistent = local_instant(naive)
    value = f"CASE WHEN {offset} THEN TRY_CAST({t} AS TIMESTAMPTZ) ELSE {instant} END"
    bad = (
        f"{_quoted(t)} || "
        f"{lit(in_column + ' is not a date or time (expected ISO 8601, e.g. 2026-03-01T08:30)')}"
    )
    # The reason does not recompute the instant: a failure is a text that casts to nothing.
    reason = (
        f"CASE WHEN {t} IS NULL THEN NULL "
        f"WHEN {offset} THEN CASE WHEN TRY_CAST({t} AS TIMESTAMPTZ) IS NULL THEN {bad} END "
        f"WHEN {naive} IS NULL THEN {bad} "
        f"WHEN {nonexistent} THEN 'local time ' || {_quoted(t)} || "
        f"{lit(does_not_exist)} "
        f"END"
    )
    return value, reason, f"CASE WHEN {t} IS NULL OR {offset} THEN false ELSE {amb} END"


# ---------------------------------------------------------------------------
# booleans, vocabularies, text


def parse_bool(ref: str, column: str, src_type: str = "VARCHAR") -> tuple[str, str]:
    if src_type.upper() == "BOOLEAN":
        return ref, "NULL"
    t = clean(ref, src_type)
    low = f"lower({t})"
    value = (
        f"CASE WHEN {low} IN ({', '.join(lit(w) for w in TRUE_WORDS)}) THEN true "
        f"WHEN {low} IN ({', '.join(lit(w) for w in FALSE_WORDS)}) THEN false END"
    )
    reason = (
        f"CASE WHEN {t} IS NOT NULL AND {value} IS NULL THEN {_quoted(t)} || "
        f"{lit(chr(39) + ' in column ' + chr(39) + column + chr(39) + ' is not true or false')} END"
    )
    return value, reason


def norm_key(t: str, style: str = "norm") -> str:
    """The lookup key of a vocabulary cell, as ``outfall.vocab`` normalizes it:
    'norm' = lower case, runs of blanks as one space; 'key' = also '_' and '-' as
    spaces and surrounding '() .' dropped (the areas' own vocabularies)."""
    if style == "norm":
        return squeeze(t)
    return f"trim(regexp_replace(lower({t}), '[\\s_\\-]+', ' ', 'g'), '() .')"


def squeeze(t: str) -> str:
    """lower(t) with runs of blanks as one space; the regular expression runs only
    for the rare cell that has such a run (most cells are one word)."""
    odd = " OR ".join(f"contains({t}, {c})" for c in ("'  '", "chr(9)", "chr(10)", "chr(13)", "chr(160)"))
    return f"CASE WHEN {odd} THEN regexp_replace(lower({t}), '\\s+', ' ', 'g') ELSE lower({t}) END"


def enum_reason(t: str, value: str, column: str, allowed: str) -> str:
    return (
        f"CASE WHEN {t} IS NOT NULL AND {value} IS NULL THEN {lit(column + ' ')} || {_quoted(t)} || "
        f"{lit(chr(39) + ' is not one of ' + allowed)} END"
    )


def clean_header(name: object) -> str:
    """Column names are matched case-insensitively, surrounding blanks ignored."""
    return re.sub(r"\s+", "_", str(name if name is not None else "").strip().lower()).lstrip("\ufeff")
