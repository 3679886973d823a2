"""Vectorised parsers for input columns: each returns (values, reasons).

``reasons`` is a Series of str, "" where the value is fine, otherwise a reason a
clerk can act on ("'abc' in column 'result' is not a number"). Blank input is
not an error here (it is NaN/NaT/None); required-ness is checked separately.
No Python loops over rows.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

LOCAL_TZ = "America/New_York"

_OFFSET_RE = r"(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(?:Z|z|[+-]\d{2}(?::?\d{2})?)$"
_TRUE = {"true", "t", "yes", "y", "1", "x"}
_FALSE = {"false", "f", "no", "n", "0"}


def blank(series: pd.Series) -> pd.Series:
    """True where the cell is empty or only blanks."""
    if series.dtype == object or pd.api.types.is_string_dtype(series):
        return series.isna() | (series.astype(str).str.strip() == "")
    return series.isna()


def _text(series: pd.Series) -> pd.Series:
    return series.astype(str).str.strip()


def _fail(mask: pd.Series, message: pd.Series | str) -> pd.Series:
    out = pd.Series("", index=mask.index, dtype=object)
    if mask.any():
        out[mask] = message[mask] if isinstance(message, pd.Series) else message
    return out


def parse_number(series: pd.Series, column: str) -> tuple[pd.Series, pd.Series]:
    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
        values = series.astype(float)
        return values, _fail(pd.Series(False, index=series.index), "")
    text = _text(series).str.replace(",", "", regex=False).str.replace(r"^\$\s*", "", regex=True)
    values = pd.to_numeric(text, errors="coerce")
    bad = values.isna() & ~blank(series)
    bad |= np.isinf(values.fillna(0))
    values = values.where(~bad)
    return values.astype(float), _fail(bad, "'" + _text(series) + f"' in column '{column}' is not a number")


def parse_integer(series: pd.Series, column: str) -> tuple[pd.Series, pd.Series]:
    values, reasons = parse_number(series, column)
    frac = values.notna() & (values != np.floor(values.fillna(0)))
    reasons = reasons.where(~frac, "'" + _text(series) + f"' in column '{column}' is not a whole number")
    return values.where(~frac).astype("Int64"), reasons


def parse_date(series: pd.Series, column: str) -> tuple[pd.Series, pd.Series]:
    """Local calendar dates (YYYY-MM-DD; a time part, if any, is dropped)."""
    if pd.api.types.is_datetime64_any_dtype(series):
        ts = series.dt.tz_convert(LOCAL_TZ) if series.dt.tz is not None else series
        return ts.dt.date.astype(object).where(ts.notna(), None), _fail(pd.Series(False, index=series.index), "")
    text = _text(series)
    parsed = pd.to_datetime(text.str.slice(0, 10), format="%Y-%m-%d", errors="coerce")
    # Accept US-style M/D/YYYY, which spreadsheets love to produce.
    us = parsed.isna() & text.str.match(r"^\d{1,2}/\d{1,2}/\d{4}$")
    if us.any():
        parsed[us] = pd.to_datetime(text[us], format="%m/%d/%Y", errors="coerce")
    bad = parsed.isna() & ~blank(series)
    dates = parsed.dt.date.astype(object).where(parsed.notna(), None)
    return dates, _fail(bad, "'" + text + f"' in column '{column}' is not a date (expected YYYY-MM-DD)")


def parse_timestamp(series: pd.Series, column: str, groups: pd.Series | None = None) -> tuple[pd.Series, pd.Series]:
    """UTC instants. With an offset (or Z) the text is that instant; without one
    it is local America/New_York time. A local time that does not exist (the
    spring-forward hour) is an error; one that occurs twice (fall-back) is read
    as daylight time the first time it appears within its group and standard
    time after that, which is how a meter logging local clock time writes it."""
    index = series.index
    ok = pd.Series(False, index=index)
    if pd.api.types.is_datetime64_any_dtype(series):
        if series.dt.tz is not None:
            return series.dt.tz_convert("UTC"), _fail(ok, "")
        naive = series
        text = series.astype(str)
    else:
        text = _text(series)
        naive = pd.Series(pd.NaT, index=index, dtype="datetime64[ns]")
    result = pd.Series(pd.NaT, index=index, dtype="datetime64[ns, UTC]")
    if not pd.api.types.is_datetime64_any_dtype(series):
        has_offset = text.str.contains(_OFFSET_RE, regex=True)
        if has_offset.any():
            result[has_offset] = pd.to_datetime(text[has_offset], utc=True, format="ISO8601", errors="coerce")
        local_text = text[~has_offset & ~blank(series)]
        if len(local_text):
            naive = naive.copy()
            naive[local_text.index] = pd.to_datetime(local_text, format="ISO8601", errors="coerce")
            still = naive[local_text.index].isna()
            if still.any():  # US-style dates from spreadsheets: 3/1/2026 08:30
                idx = still[still].index
                naive[idx] = pd.to_datetime(text[idx], format="mixed", errors="coerce", dayfirst=False)
    need_local = naive.notna()
    nonexistent = pd.Series(False, index=index)
    if need_local.any():
        local = naive[need_local]
        key = local.astype("int64").astype(str)
        if groups is not None:
            key = groups[need_local].astype(str) + "|" + key
        first = (key.groupby(key).cumcount() == 0).to_numpy()
        localized = local.dt.tz_localize(LOCAL_TZ, ambiguous=first, nonexistent="NaT")
        flags = nonexistent.to_numpy(dtype=bool).copy()
        flags[need_local.to_numpy(dtype=bool)] = localized.isna().to_numpy(dtype=bool)
        nonexistent = pd.Series(flags, index=index)
        result[need_local] = localized.dt.tz_convert("UTC")
    bad = result.isna() & ~blank(series) & ~nonexistent
    reasons = _fail(bad, "'" + text + f"' in column '{column}' is not a date or time (expected ISO 8601, e.g. 2026-03-01T08:30)")
    reasons = reasons.where(~nonexistent, "local time '" + text + f"' in column '{column}' does not exist "
                            "(clocks spring forward that night); give the time with its UTC offset")
    return result, reasons


def parse_bool(series: pd.Series, column: str) -> tuple[pd.Series, pd.Series]:
    if pd.api.types.is_bool_dtype(series):
        return series.astype(object), _fail(pd.Series(False, index=series.index), "")
    text = _text(series).str.lower()
    values = pd.Series(None, index=series.index, dtype=object)
    values[text.isin(_TRUE)] = True
    values[text.isin(_FALSE)] = False
    bad = values.isna() & ~blank(series)
    return values, _fail(bad, "'" + _text(series) + f"' in column '{column}' is not true or false")


def parse_enum(series: pd.Series, column: str, canonical, allowed: str) -> tuple[pd.Series, pd.Series]:
    """``canonical`` maps a text to its canonical value or None."""
    text = _text(series)
    mapping = {v: canonical(v) for v in pd.unique(text[~blank(series)])}
    values = text.map(mapping)
    values = values.where(values.notna(), None)
    bad = values.isna() & ~blank(series)
    return values, _fail(bad, f"{column} '" + text + f"' is not one of {allowed}")


def parse_text(series: pd.Series) -> pd.Series:
    text = _text(series)
    return text.where(~blank(series), None)


def join_reasons(*parts: pd.Series) -> pd.Series:
    """Combine per-column reasons into one '; '-separated reason per row
    (only rows with some reason are joined: most rows have none)."""
    index = parts[0].index if parts else pd.RangeIndex(0)
    out = pd.Series("", index=index, dtype=object)
    if not parts:
        return out
    frame = pd.concat([p.fillna("").astype(str) for p in parts], axis=1)
    flagged = (frame != "").any(axis=1)
    if flagged.any():
        rows = frame[flagged]
        out[flagged] = [
            "; ".join(piece.strip("; ").strip() for piece in row if piece.strip("; ").strip())
            for row in rows.itertuples(index=False, name=None)
        ]
    return out


def clean_header(name: object) -> str:
    """Column names are matched case-insensitively, surrounding blanks ignored."""
    return re.sub(r"\s+", "_", str(name).strip().lower()).lstrip("\ufeff")
