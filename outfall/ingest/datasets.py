"""The input datasets of the contract (section 2): columns, natural keys and the
dataset-specific steps that turn raw cells into canonical rows, as SQL.

A dataset spec is data: ``outfall.ingest.compile`` turns its columns into one
typed expression and one reason expression each, then applies the dataset's
``finish`` steps (SQL over the typed columns: unit conversion, non-detects,
ranges, derived columns), and the engine stores the kept rows under the
natural key. Extra datasets (areas' own input folders) register themselves
with ``register``; their input tables are created from the spec
(``outfall.ingest.compile.create_table_sql``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from outfall import vocab
from outfall.ingest.parse import lit, squeeze

# SQL type of each column kind in the input table.
KIND_TYPES = {
    "text": "VARCHAR",
    "number": "DOUBLE",
    "integer": "INTEGER",
    "date": "DATE",
    "timestamp": "TIMESTAMPTZ",
    "bool": "BOOLEAN",
    "enum": "VARCHAR",
}


@dataclass(frozen=True)
class Vocabulary:
    """Accepted spellings of a vocabulary: normalized key -> canonical value.
    ``style`` says how a cell is normalized before the lookup (parse.norm_key)."""

    name: str
    mapping: Mapping[str, str]
    style: str = "norm"
    # The spellings of one jurisdiction, for a vocabulary of the jurisdictions the run's rules files name
    # (Context.jurisdictions): its mapping is made per run (``for_context``), ``mapping`` stays empty.
    jurisdiction_spellings: Callable[[str], tuple[str, ...]] | None = None
    # The codes of the town's rules (their section ``vocabulary``): 'districts', 'property_classes' or
    # 'components'; the mapping is made per run from the rules (Context.codes), ``mapping`` stays empty.
    rules_codes: str = ""

    def for_jurisdictions(self, jurisdictions: tuple[str, ...]) -> Mapping[str, str]:
        """The mapping: its own, or that of the jurisdictions given."""
        if self.jurisdiction_spellings is None:
            return self.mapping
        return {
            _py_key(variant, self.style): j
            for j in jurisdictions
            for c in self.jurisdiction_spellings(j)
            for variant in {c, c.replace("_", " "), c.replace(" ", "_")}
        }

    def for_context(self, ctx: Context) -> Mapping[str, str]:
        if self.rules_codes:
            return ctx.codes.get(self.rules_codes, {})
        return self.for_jurisdictions(ctx.jurisdictions)


def rules_codes(name: str, kind: str) -> Vocabulary:
    """The codes of the town's rules of ``kind`` (districts, property_classes, components), with their
    spellings. A town whose rules list none takes the column as written and does not require it."""
    return Vocabulary(name, {}, "norm", rules_codes=kind)


def default_codes() -> dict[str, dict[str, str]]:
    """The codes of the town of the default rules folder (OUTFALL_RULES_DIR, else the project's rules/), by
    kind: every spelling (matched as ``outfall.rules.codes.norm`` makes it) and its code."""
    from outfall.rules import load_town  # the rules' models (pydantic): only when a context is made
    from outfall.rules.codes import KINDS

    codes = load_town().town.vocabulary
    return {kind: codes.lookup(kind) if codes is not None else {} for kind in KINDS}


def jurisdiction_vocabulary(
    name: str, spellings: Callable[[str], tuple[str, ...]] = lambda j: (j,), style: str = "norm"
) -> Vocabulary:
    """The jurisdictions of the run's rules files (one per ``<jurisdiction>.yaml``), each with
    ``spellings``."""
    return Vocabulary(name, {}, style, spellings)


@dataclass(frozen=True)
class Column:
    name: str
    kind: str = "text"  # text | number | integer | date | timestamp | bool | enum
    required: bool = False
    nonnegative: bool = False
    vocabulary: Vocabulary | None = None  # for enum
    allowed: str = ""  # for enum messages
    aliases: tuple[str, ...] = ()
    sql_type: str = ""  # the table's type when not the kind's (e.g. DECIMAL)
    # The words a workbook offers in a list for a text column whose words a finish step judges
    # (units, parameters): other spellings are read too (outfall/workbooks.py).
    choices: tuple[str, ...] = ()
    example: str = ""  # a value a workbook's header note shows, when the kind alone does not say it
    # What the column holds, for the person who fills it, where its kind and list do not say it all
    # (docs/inputs*.md, generated: python -m outfall.ingest docs).
    doc: str = ""

    @property
    def table_type(self) -> str:
        return self.sql_type or KIND_TYPES[self.kind]


@dataclass(frozen=True)
class Step:
    """One stage of a dataset's finish, evaluated over the previous stage's
    columns: ``columns`` adds or replaces columns (name, SQL), ``reasons`` are
    SQL expressions giving a reason text or NULL. SQL may use $tz (the local
    time zone) and the lookup tables of ``outfall.ingest.compile``."""

    columns: tuple[tuple[str, str], ...] = ()
    reasons: tuple[str, ...] = ()
    joins: tuple[tuple[str, str, str], ...] = ()  # (alias, lookup table, ON condition over s.*): LEFT JOINs


@dataclass(frozen=True)
class Context:
    """What a finish step may need besides the rows: the rules."""

    unit_schedule: dict = field(default_factory=dict)
    # The town's local time zone (its rules' timezone): a time written without an offset is local time.
    timezone: str = ""
    # The jurisdictions of the rules files found (a site's jurisdiction is one), and those files in words.
    jurisdictions: tuple[str, ...] = ()
    rules_files: str = ""
    # The codes of the town's rules by kind (districts, property_classes, components): every spelling
    # and the code it stands for (default: the default rules folder's town's).
    codes: Mapping[str, Mapping[str, str]] = field(default_factory=default_codes)

    def allowed_jurisdictions(self) -> str:
        """What a quarantined jurisdiction is told: the rules files found."""
        return f"the jurisdictions of the rules files found ({self.rules_files or 'none'})"


@dataclass(frozen=True)
class LaterFact:
    """A column of a row that already stands whose day may come after the row's own (a site's final
    stabilization, an appeal's decision): in a run as of a day before its day it is blank, and so are the
    columns that go with it (``goes_with``: what that day brought, e.g. the appeal's outcome). Contract
    8.1; ``outfall/ingest/as_of.py`` applies it."""

    column: str
    goes_with: tuple[str, ...] = ()


@dataclass(frozen=True)
class Dataset:
    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    extensions: tuple[str, ...] = (".csv",)
    finish: tuple[Step, ...] = ()
    extra_columns: tuple[tuple[str, str], ...] = ()  # (name, SQL type) added by finish steps, table order
    timestamp_groups: tuple[str, ...] = ()  # columns grouping repeated local times (DST fall-back)
    renames: tuple[tuple[str, str], ...] = ()  # column -> table column
    group: str = "ingestion"
    description: str = ""
    context_steps: Callable[[Context], tuple[Step, ...]] | None = None  # finish steps from the rules
    order: tuple[str, ...] = ()  # the table's column order, when not columns then extra_columns
    hourly_summaries: bool = False  # flow: kept up to date by its loads (outfall/flow_hours.py)
    # The columns a person fills in to answer a row Outfall prefilled (exports/to_record.xlsx: every
    # column the sheet does not prefill): a row marked in the hidden column PREFILLED_COLUMN whose answers
    # are all blank was left blank and records nothing (contract 7.5); one with any answer is judged.
    answers: tuple[str, ...] = ()
    key_doc: str = ""  # the natural key in words, when it is made of columns the finish steps derive
    # A run as of a day D judges the rows as they stood at the end of D (contract 8.1,
    # ``outfall/ingest/as_of.py``): ``own_day`` is the column (a date, or a time judged by its local day)
    # that makes a row a fact, a sample's collection or a mailing: a row whose own day is after D is not
    # yet a fact (a blank own day: a fact on every day); ``later_facts`` are the columns of a row that
    # stands whose own days may come after it, blank as of a day before theirs.
    own_day: str = ""
    later_facts: tuple[LaterFact, ...] = ()

    @property
    def required(self) -> list[str]:
        return [c.name for c in self.columns if c.required]

    def steps(self, ctx: Context) -> tuple[Step, ...]:
        extra = self.context_steps(ctx) if self.context_steps else ()
        return (*self.finish, *extra)

    def table_columns(self) -> list[tuple[str, str]]:
        """(name, SQL type) of the input table's value columns, in order."""
        renamed = dict(self.renames)
        cols = [(renamed.get(c.name, c.name), c.table_type) for c in self.columns]
        order = {name: i for i, (name, _) in enumerate(cols)}
        out = list(cols)
        for name, sql_type in self.extra_columns:
            if name in order:
                out[order[name]] = (name, sql_type)
            else:
                out.append((name, sql_type))
        if self.order:
            rank = {name: i for i, name in enumerate(self.order)}
            if set(rank) != {name for name, _ in out}:
                raise ValueError(
                    f"{self.name}: order names {sorted(set(rank) ^ {n for n, _ in out})} wrongly"
                )
            out.sort(key=lambda c: rank[c[0]])
        return out


# The files of a folder people fill by hand: CSV, and Excel workbooks (outfall/ingest/xlsx.py). Folders
# of instruments' readings (flow, rainfall), which may be far larger than a workbook holds, take CSV
# (and Parquet for flow) only.
BY_HAND = (".csv", ".xlsx")

# The hidden column of a sheet Outfall prefills for a person to answer (exports/to_record.xlsx): "yes"
# in each row it wrote. Read with the spec's columns when the dataset has answers; never stored.
PREFILLED_COLUMN = "prefilled by Outfall"
PREFILLED_KEY = "prefilled_by_outfall"  # as its header is matched (parse.clean_header)


# ---------------------------------------------------------------------------
# vocabularies


def vocabulary(name: str, fn: Callable[[str], str | None], candidates, style: str = "norm") -> Vocabulary:
    """A lookup built by applying ``fn`` to every spelling it accepts (with '_'
    and ' ' swapped), so that SQL and ``fn`` agree (tests check it)."""
    mapping: dict[str, str] = {}
    for c in candidates:
        for variant in {c, c.replace("_", " "), c.replace(" ", "_")}:
            value = fn(variant)
            if value is not None:
                mapping[_py_key(variant, style)] = value
    return Vocabulary(name, mapping, style)


def _py_key(text: str, style: str) -> str:
    import re

    if style == "norm":
        return re.sub(r"\s+", " ", str(text).strip().lower())
    return re.sub(r"[\s_\-]+", " ", str(text).strip().lower()).strip("() .")


def name_key(text: object) -> str:
    """How a name and its synonyms are matched: 'Semi-Annual' -> 'semi annual', '(d)' -> 'd'."""
    return _py_key(str(text), "key")


def synonym_vocabulary(
    name: str, synonyms: dict[str, tuple[str, ...]]
) -> tuple[Callable[[object], str | None], Vocabulary]:
    """For names each with the spellings a clerk may use: the function giving the name a spelling stands
    for (None for an unknown one), and the vocabulary of every spelling, names included."""
    lookup = {name_key(n): n for n in synonyms}
    lookup.update({name_key(s): n for n, syns in synonyms.items() for s in syns})

    def canonical(text: object) -> str | None:
        return lookup.get(name_key(text))

    spellings = [*synonyms, *(s for syns in synonyms.values() for s in syns)]
    return canonical, vocabulary(name, canonical, spellings, style="key")


def lower_in(name: str, options) -> Vocabulary:
    return Vocabulary(name, {o.lower(): o for o in options})


def key_vocabulary(name: str, options: tuple[str, ...], spellings=()) -> Vocabulary:
    """The words ``options`` in any case, blanks, hyphens and underscores alike ('Single family',
    'single-family' -> 'single_family'); ``spellings``: more forms the SQL judging is to know."""
    table = {re.sub(r"[\s_\-]+", "_", o.lower()): o for o in options}
    return vocabulary(
        name,
        lambda text: table.get(re.sub(r"[\s_\-]+", "_", str(text).strip().lower())),
        [*options, *spellings],
        style="key",
    )


DISTRICT_VOCAB = rules_codes("district", "districts")
PROPERTY_CLASS_VOCAB = rules_codes("property_class", "property_classes")
COMPONENT_VOCAB = rules_codes("component", "components")
#: What a column of the town's codes accepts, as the documentation of the input folders says it.
TOWN_CODES = (
    "one of the town's {kind} as its rules file lists them, or a spelling it gives (required where the "
    "rules list some; taken as written where they list none)"
)


# The words a workbook offers for a parameter and for the units of each kind of reading.
PARAMETER_CHOICES = tuple(vocab.PARAMETERS)
LAB_UNIT_CHOICES = (*vocab.CONCENTRATION_UNITS, *vocab.PH_UNITS, *vocab.TEMPERATURE_UNITS)
FLOW_UNIT_CHOICES = (*vocab.FLOW_UNITS, *LAB_UNIT_CHOICES)


def _enum(name: str, vocabulary_: Vocabulary, allowed: str, required: bool = False) -> Column:
    return Column(name, "enum", required=required, vocabulary=vocabulary_, allowed=allowed)


# ---------------------------------------------------------------------------
# SQL pieces of the finish steps (lookups: _param_vocab, _unit_vocab; see compile.py)


def parameter_steps(x: str, target: str, flow: bool = False) -> tuple[Step, ...]:
    """Canonical parameter name of column ``x`` into ``target`` (BOD5 -> BOD; other names
    kept as given; for a flow file's constituent, blank or 'flow' is flow), by a join
    with the lookup table _param_vocab."""
    value = f"coalesce(pv.canonical, s.{x})"
    if flow:
        value = f"CASE WHEN s.{x} IS NULL OR lower(s.{x}) = 'flow' THEN 'flow' ELSE {value} END"
    return (
        Step(columns=((f"_pkey_{target}", squeeze(x)),)),
        Step(joins=(("pv", "_param_vocab", f"pv.key = s._pkey_{target}"),), columns=((target, value),)),
    )


def parameter_sql(x: str) -> str:
    """Canonical parameter name (BOD5 -> BOD, 'chlorine_demand' too); other names kept as given.
    (_param_vocab holds every synonym with '_' as well as ' ', see compile.lookup_rows.)"""
    return f"coalesce((SELECT canonical FROM _param_vocab p WHERE p.key = {squeeze(x)}), {x})"


def kind_sql(parameter: str) -> str:
    """Unit kind of a canonical parameter (vocab.PARAMETER_KIND; others are concentrations)."""
    whens = " ".join(f"WHEN {lit(p)} THEN {lit(k)}" for p, k in vocab.PARAMETER_KIND.items())
    return f"CASE {parameter} {whens} ELSE 'concentration' END"


UNIT_LABELS = {
    "concentration": "concentration unit (mg/L, ug/L)",
    "ph": "pH unit (s.u.)",
    "temperature": "temperature unit (degF, degC)",
    "flow": "flow unit (gpm, gpd, mgd, L/s, m3/d)",
}


def unit_steps(
    value_cols: tuple[str, ...], subject: str, kind: str, reported: tuple[tuple[str, str], ...] = ()
) -> tuple[Step, ...]:
    """Canonical unit per row from its kind; converts ``value_cols``; keeps
    unit_reported (and the given reported copies of values)."""

    labels = " ".join(f"WHEN {lit(k)} THEN {lit(v)}" for k, v in UNIT_LABELS.items())
    return (
        Step(columns=(("_kind", kind), ("_ukey", squeeze("unit")), *reported)),
        Step(
            joins=(("uv", "_unit_vocab", "uv.kind = s._kind AND uv.key = s._ukey"),),
            columns=(
                ("_unit", "uv.unit_canonical"),
                ("_scale", "uv.scale"),
                ("_offset", "uv.off"),
                ("_unit_to", "uv.converts_to"),
            ),
        ),
        Step(
            columns=(
                ("unit_reported", "unit"),
                ("unit", "_unit_to"),
                *((c, f"{c} * _scale + _offset") for c in value_cols),
            ),
            reasons=(
                f"CASE WHEN _unit IS NULL AND unit IS NOT NULL THEN 'unit ''' || unit || "
                f"''' is not a ' || CASE _kind {labels} END || ' for ' || {subject} END",
            ),
        ),
    )


def range_reasons(value: str, parameter: str) -> tuple[str, ...]:
    """pH within 0-14; flows and concentrations not negative."""
    return (
        f"CASE WHEN {parameter} = 'pH' AND ({value} < 0 OR {value} > 14) THEN 'pH ' || CAST({value} AS "
        "VARCHAR) || ' is outside 0-14' END",
        f"CASE WHEN {parameter} NOT IN ('pH', 'temperature') AND {value} < 0 THEN 'negative value ' || "
        f"CAST({value} AS VARCHAR) || ' for ' || {parameter} || ' (flows and concentrations cannot be "
        "negative)' END",
    )


# ---------------------------------------------------------------------------
# the contract's datasets

DATASETS: dict[str, Dataset] = {}


def register(ds: Dataset) -> Dataset:
    """Adds ``ds`` to ``DATASETS`` (the modules declaring datasets call it on import). Every registered
    folder is optional: an absent folder means "no such data" and its table stays empty."""
    DATASETS[ds.name] = ds
    return ds


# Optional mailing fields of a notice's recipient (contract 5.1: a notice needs a full mailing
# address): the name and street line to write to (blank: the record's name or applicant and its
# address), the city, the state and the ZIP code.
MAILING_COLUMNS = (
    Column(
        "mailing_name",
        doc="the name a letter is addressed to (blank: the record's name, or a site's applicant)",
    ),
    Column("mailing_address", doc="the street line a letter is mailed to (blank: address)"),
    Column("city", doc="of the mailing address"),
    Column("state", doc="of the mailing address: two letters, e.g. `NY`"),
    Column("zip", doc="of the mailing address: `12345` or `12345-6789`"),
)


def _district(required: bool = True) -> Column:
    return _enum("district", DISTRICT_VOCAB, TOWN_CODES.format(kind="sewer districts"), required)


register(
    Dataset(
        "industrial_users",
        (
            Column("user_id", required=True),
            Column("name", required=True),
            _district(),
            Column("address"),
            Column("permit_no"),
            Column("permit_effective", "date"),
            Column("permit_expires", "date"),
            Column(
                "normal_avg_flow_gpd",
                "number",
                nonnegative=True,
                doc="gallons a day: the permit's average 24-hour flow in normal operation (the slug baseline "
                "of its flow, when given)",
            ),
            *MAILING_COLUMNS,
            Column(
                "outside_limits",
                "bool",
                doc="yes when the user's service location is outside the town's corporate limits (where "
                "the rules charge such users otherwise; blank: inside)",
            ),
            Column(
                "permit_sets_surcharge",
                "bool",
                doc="yes when the user's permit allows discharge above the limits for a surcharge (where "
                "the rules surcharge only such users; blank: no)",
            ),
            Column(
                "parcel_id",
                doc="the premises (parcels) whose sewer charges the user's surcharges are billed with: its "
                "bill adds them to the premises' charges (blank: its surcharges are listed, not billed)",
            ),
        ),
        key=("user_id",),
        extensions=BY_HAND,
        # a permit that takes effect after the day judged is not yet the user's permit
        later_facts=(LaterFact("permit_effective", ("permit_no", "permit_expires")),),
        group="sewer_administrator",
        description="Permitted industrial users (the sewer use law's permits).",
    )
)

register(
    Dataset(
        "permit_limits",
        (
            Column("user_id", required=True),
            Column("parameter", required=True, choices=PARAMETER_CHOICES),
            _enum(
                "limit_type", lower_in("limit_type", vocab.LIMIT_TYPES), ", ".join(vocab.LIMIT_TYPES), True
            ),
            Column("value", "number", required=True, doc="in the row's unit"),
            Column("unit", required=True, choices=LAB_UNIT_CHOICES),
            Column("basis", doc="the permit condition or agreement that set it"),
            Column("effective_from", "date", doc="blank: no start"),
            Column("effective_to", "date", doc="blank: no end"),
        ),
        key=("user_id", "parameter", "limit_type", "effective_from"),
        extensions=BY_HAND,
        finish=(
            *parameter_steps("parameter", "parameter"),
            *unit_steps(("value",), "parameter", kind_sql("parameter"), (("value_reported", "value"),)),
            Step(
                reasons=(
                    *range_reasons("value", "parameter"),
                    "CASE WHEN effective_to < effective_from THEN 'effective_to is before effective_from' "
                    "END",
                )
            ),
        ),
        extra_columns=(("unit_reported", "VARCHAR"), ("value_reported", "DOUBLE")),
        order=(
            "user_id",
            "parameter",
            "limit_type",
            "value",
            "unit",
            "unit_reported",
            "value_reported",
            "basis",
            "effective_from",
            "effective_to",
        ),
        own_day="effective_from",
        group="sewer_administrator",
        description="Permit-specific limits (the sewer use law's special agreements) replacing the "
        "jurisdiction's limit "
        "while in effect.",
    )
)

#: Who took a sample: the user (its own monitoring) or the Town; blank is the user (contract 7.1).
SAMPLED_BY = ("user", "town")
_ND_WORDS = ("nd", "n.d.", "non-detect", "nondetect", "not detected", "bdl", "<mdl", "<dl")
_LT_RE = r"<\s*=?\s*([0-9]*\.?[0-9]+(?:[eE][+-]?\d+)?)"

register(
    Dataset(
        "lab_results",
        (
            Column("sample_id", required=True),
            Column("user_id", required=True),
            Column("collected_at", "timestamp", required=True),
            _enum("sample_type", lower_in("sample_type", vocab.SAMPLE_TYPES), "composite, grab", True),
            Column("parameter", required=True, choices=PARAMETER_CHOICES),
            Column("result", "text", required=True, doc="a number, `<X` (a non-detect below X) or `ND`"),
            Column("unit", required=True, choices=LAB_UNIT_CHOICES),
            Column(
                "mdl", "number", nonnegative=True, doc="the method detection limit: an `ND` result's value"
            ),
            Column("lab"),
            Column("method"),
            Column(
                "sampled_by",
                "enum",
                vocabulary=lower_in("sampled_by", SAMPLED_BY),
                allowed=", ".join(SAMPLED_BY),
                doc="who took the sample: `user` (the user's own monitoring) or `town`; blank: the user. "
                "Only the user's own samples call for its 24-hour notice and repeat sampling (40 CFR "
                "403.12(g)(2)) and meet the testing the administrator requires of it",
            ),
        ),
        key=("sample_id", "parameter"),
        extensions=BY_HAND,
        answers=("sample_id", "collected_at", "result", "unit", "mdl", "lab", "method"),
        finish=(
            Step(
                columns=(
                    ("_lt", f"TRY_CAST(regexp_extract(result, '^{_LT_RE}$', 1) AS DOUBLE)"),
                    ("_nd", f"lower(result) IN ({', '.join(lit(w) for w in _ND_WORDS)})"),
                    (
                        "_num",
                        "TRY_CAST(CASE WHEN regexp_full_match(result, '"
                        + r"[+-]?(\d{1,3}(,\d{3})+(\.\d*)?|\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)"
                        + "') THEN replace(result, ',', '') END AS DOUBLE)",
                    ),
                    ("result_reported", "result"),
                    ("parameter_reported", "parameter"),
                )
            ),
            *parameter_steps("parameter", "parameter"),
            Step(
                columns=(
                    ("nondetect", "CASE WHEN result IS NULL THEN NULL ELSE _lt IS NOT NULL OR _nd END"),
                    ("qualifier", "CASE WHEN _lt IS NOT NULL THEN '<' WHEN _nd THEN 'ND' END"),
                    (
                        "result",
                        "CASE WHEN _lt IS NOT NULL THEN _lt WHEN _nd THEN mdl "
                        "WHEN isfinite(_num) THEN _num END",
                    ),
                ),
                reasons=(
                    "CASE WHEN result_reported IS NOT NULL AND _lt IS NULL AND NOT _nd AND (_num IS NULL OR "
                    "NOT isfinite(_num)) THEN CASE WHEN lower(result_reported) IN ('nan', 'inf', '+inf', "
                    "'-inf', 'infinity', '-infinity')      OR (_num IS NOT NULL AND NOT isfinite(_num)) "
                    "THEN 'result ''' || result_reported || ''' is not a finite number' WHEN "
                    "contains(result_reported, ',') AND regexp_full_match(result_reported, "
                    "'[<=\\s]*[+-]?[0-9.,]*[0-9][0-9.,]*') THEN 'result ''' || result_reported || ''' is "
                    "ambiguous: a comma is read only as a thousands separator (1,234 or 12,345.6); write a "
                    "decimal with a point (2.5), or the number without the comma' ELSE 'result ''' || CASE "
                    "WHEN length(result_reported) > 80 THEN left(result_reported, 77) || '...' ELSE "
                    "result_reported END || ''' is not a number, ''<X'' or ''ND''' END END",
                ),
            ),
            *unit_steps(("result", "mdl"), "parameter", kind_sql("parameter")),
            Step(
                columns=(("collected_date", "CAST(timezone($tz, collected_at) AS DATE)"),),
                reasons=range_reasons("result", "parameter"),
            ),
        ),
        extra_columns=(
            ("collected_date", "DATE"),
            ("parameter_reported", "VARCHAR"),
            ("nondetect", "BOOLEAN"),
            ("qualifier", "VARCHAR"),
            ("result_reported", "VARCHAR"),
            ("unit_reported", "VARCHAR"),
            ("result", "DOUBLE"),
        ),
        order=(
            "sample_id",
            "user_id",
            "collected_at",
            "collected_date",
            "sample_type",
            "parameter",
            "parameter_reported",
            "result",
            "nondetect",
            "qualifier",
            "result_reported",
            "unit",
            "unit_reported",
            "mdl",
            "lab",
            "method",
            "sampled_by",
        ),
        own_day="collected_at",
        group="sewer_administrator",
        description="Laboratory results of industrial users' samples (composites and grabs).",
    )
)

register(
    Dataset(
        "flow",
        (
            Column("user_id", required=True),
            Column("timestamp", "timestamp", required=True),
            Column("value", "number", required=True),
            Column("unit", required=True, choices=FLOW_UNIT_CHOICES),
            Column(
                "constituent",
                choices=("flow", *PARAMETER_CHOICES),
                doc="blank: `flow`; a probe's `pH`, `temperature` or another parameter",
            ),
        ),
        key=("user_id", "constituent", "ts"),
        extensions=(".csv", ".parquet"),
        finish=(
            *parameter_steps("constituent", "constituent", flow=True),
            *unit_steps(
                ("value",),
                "constituent",
                f"CASE WHEN constituent = 'flow' THEN 'flow' ELSE {kind_sql('constituent')} END",
                (("value_reported", "value"),),
            ),
            Step(reasons=range_reasons("value", "constituent")),
        ),
        extra_columns=(("unit_reported", "VARCHAR"), ("value_reported", "DOUBLE")),
        order=("user_id", "constituent", "ts", "value", "unit", "unit_reported", "value_reported"),
        timestamp_groups=("user_id", "constituent"),
        renames=(("timestamp", "ts"),),
        hourly_summaries=True,
        own_day="ts",
        group="sewer_administrator",
        description="Flow-meter and continuous-probe readings.",
    )
)

register(
    Dataset(
        "infiltration_tests",
        (
            Column("section_id", required=True),
            Column("test_date", "date", required=True),
            Column(
                "diameter_in", "number", required=True, nonnegative=True, doc="the pipe's diameter in inches"
            ),
            Column(
                "length_ft", "number", required=True, nonnegative=True, doc="the section's length in feet"
            ),
            Column(
                "measured_gpd",
                "number",
                required=True,
                nonnegative=True,
                doc="the infiltration measured, gallons a day",
            ),
        ),
        key=("section_id", "test_date"),
        extensions=BY_HAND,
        finish=(
            Step(
                reasons=(
                    "CASE WHEN diameter_in <= 0 OR length_ft <= 0 THEN "
                    "'diameter_in and length_ft must be greater than zero' END",
                )
            ),
        ),
        own_day="test_date",
        group="sewer_administrator",
        description="Infiltration tests of sewer sections (judged against the sewer use law's infiltration "
        "limit in the rules).",
    )
)

_PARCEL_COUNTS = ("acres", "living_units", "bathrooms", "washing_machines", "people", "seats")


def _parcel_steps(ctx: Context) -> tuple[Step, ...]:
    """Each property class's required counts (the rules' unit schedule), as reasons; the classes,
    columns and the schedule's short citation come from the lookup table
    _parcel_requires(property_class, column_name, position, citation) that the engine fills."""
    missing = " ".join(f"WHEN {lit(c)} THEN s.{c} IS NULL" for c in _PARCEL_COUNTS)
    return (
        Step(
            reasons=(
                "(SELECT string_agg(r.property_class || ' parcel has no ' || r.column_name || '; its sewer "
                "units depend on it (' || r.citation || '): fill in ' || r.column_name, '; ' "
                "ORDER BY r.position) "
                "FROM _parcel_requires r WHERE r.property_class = s.property_class AND CASE r.column_name "
                f"{missing} ELSE false END)",
            )
        ),
    )


register(
    Dataset(
        "parcels",
        (
            Column("parcel_id", required=True),
            _district(),
            _enum("property_class", PROPERTY_CLASS_VOCAB, TOWN_CODES.format(kind="property classes"), True),
            Column("acres", "number", nonnegative=True),
            Column("living_units", "integer", nonnegative=True),
            Column("bathrooms", "integer", nonnegative=True),
            Column("washing_machines", "integer", nonnegative=True),
            Column("people", "integer", nonnegative=True),
            Column("seats", "integer", nonnegative=True),
            Column("moratorium", "bool"),
            # what a charge by the volume of water used reads (rules volume_charges)
            Column("meter_size_in", "number", nonnegative=True, doc="the water meter's size, in inches"),
            Column(
                "outside_limits",
                "bool",
                doc="yes when the premises are outside the town's corporate limits (blank: inside)",
            ),
            Column("metered", "bool", doc="no when the premises have no water meter (blank: metered)"),
            Column("owner"),
            Column("address"),
            # the owner's mailing address for the sewer register's mail merge: the street line (blank:
            # address), city, state, ZIP; all optional, left blank in the register when absent
            replace(
                MAILING_COLUMNS[1],
                doc="the owner's street line for the sewer register's mail merge (blank: address)",
            ),
            *MAILING_COLUMNS[2:],
        ),
        key=("parcel_id",),
        extensions=BY_HAND,
        context_steps=_parcel_steps,
        group="billing",
        description="Tax parcels of the sewer districts with the counts the unit schedule needs.",
    )
)

register(
    Dataset(
        "sewer_rates",
        (
            Column("year", "integer", required=True),
            _district(),
            _enum("component", COMPONENT_VOCAB, TOWN_CODES.format(kind="bill components"), True),
            Column(
                "rate_per_unit",
                "number",
                required=True,
                nonnegative=True,
                sql_type="DECIMAL(18,6)",
                doc="USD",
            ),
        ),
        key=("year", "district", "component"),
        extensions=BY_HAND,
        # Keep the rate as exact decimal text (DECIMAL in the table), not a float.
        finish=(
            Step(
                columns=(
                    (
                        "rate_per_unit",
                        "CASE WHEN rate_per_unit IS NOT NULL THEN "
                        "TRY_CAST(replace(replace(replace(trim(_raw_rate_per_unit), ',', ''), '$', ''), ' "
                        "', '') AS DECIMAL(18,6)) END",
                    ),
                )
            ),
        ),
        group="billing",
        description="USD per unit by billing year, district and component.",
    )
)

register(
    Dataset(
        "sites",
        (
            Column("site_id", required=True),
            Column(
                "jurisdiction",
                "enum",
                required=True,
                vocabulary=jurisdiction_vocabulary("jurisdiction"),
                allowed="a jurisdiction of the rules files",
                doc="the town or village the site is in: the name of its rules file, without `.yaml`",
            ),
            Column("disturbed_acres", "number", required=True, nonnegative=True),
            Column("construction_start", "date", required=True),
            Column(
                "rain_gauge_id",
                required=True,
                doc="the `gauge_id` of the rainfall folder whose storms the site's inspections follow",
            ),
            Column("name"),
            Column("address"),
            Column("applicant"),
            Column("impaired_water", "bool"),
            Column("single_family", "bool"),
            Column("agricultural", "bool"),
            Column("exempt", "bool"),
            Column("final_stabilization", "date"),
            # the applicant's mailing address: a notice's copy to the applicant (contract 7.4)
            replace(MAILING_COLUMNS[0], doc="the applicant's name as a copy is addressed (blank: applicant)"),
            replace(MAILING_COLUMNS[1], doc="the applicant's street line, for the copy of a notice"),
            *(replace(c, doc=f"{c.doc} (the applicant's)") for c in MAILING_COLUMNS[2:]),
            # the landowner, to whom notices of violation and stop-work orders are addressed (contract 7.4)
            Column("owner_name", doc="the landowner, to whom notices of violation and stop-work orders go"),
            Column("owner_address", doc="the landowner's street line"),
            Column("owner_city", doc="of the landowner's mailing address"),
            Column("owner_state", doc="of the landowner's mailing address: two letters, e.g. `NY`"),
            Column("owner_zip", doc="of the landowner's mailing address: `12345` or `12345-6789`"),
        ),
        key=("site_id",),
        extensions=BY_HAND,
        # its construction start is the plan's day (a site not started yet is listed as such); its final
        # stabilization a fact of its own day
        later_facts=(LaterFact("final_stabilization"),),
        group="stormwater_officer",
        description="Construction sites under a SWPPP.",
    )
)

register(
    Dataset(
        "inspections",
        (
            Column("site_id", required=True),
            Column("inspected_at", "timestamp", required=True),
            Column("inspector", required=True),
            _enum("kind", lower_in("kind", vocab.INSPECTION_KINDS), ", ".join(vocab.INSPECTION_KINDS)),
            Column(
                "sediment_capacity_lost_pct",
                "number",
                doc="0-100: the share of the sediment traps' design capacity lost",
            ),
            Column("notes"),
        ),
        key=("site_id", "inspected_at", "inspector"),
        extensions=BY_HAND,
        answers=("inspected_at", "inspector", "sediment_capacity_lost_pct", "notes"),
        finish=(
            Step(
                columns=(("inspected_on", "CAST(timezone($tz, inspected_at) AS DATE)"),),
                reasons=(
                    "CASE WHEN sediment_capacity_lost_pct < 0 OR sediment_capacity_lost_pct > 100 THEN "
                    "'sediment_capacity_lost_pct ' || CAST(sediment_capacity_lost_pct AS VARCHAR) || "
                    "' is outside 0-100' END",
                ),
            ),
        ),
        extra_columns=(("inspected_on", "DATE"),),
        order=(
            "site_id",
            "inspected_at",
            "inspected_on",
            "inspector",
            "kind",
            "sediment_capacity_lost_pct",
            "notes",
        ),
        own_day="inspected_at",
        group="stormwater_officer",
        description="SWPPP inspection reports.",
    )
)

register(
    Dataset(
        "rainfall",
        (
            Column("gauge_id", required=True),
            Column(
                "date",
                "timestamp",
                required=True,
                doc="a date for a daily total; a time for sub-daily readings, summed to local days",
            ),
            Column("precip_in", "number", required=True, nonnegative=True, doc="inches"),
        ),
        key=("gauge_id", "observed_at"),
        key_doc="gauge_id + date (the day, or the time of a sub-daily reading)",
        # `date` is a daily total's local date; a timestamp (sub-daily gauge data)
        # is kept as observed_at and summed to its local day downstream.
        finish=(Step(columns=(("observed_at", "date"), ("date", "CAST(timezone($tz, date) AS DATE)"))),),
        extra_columns=(("date", "DATE"), ("observed_at", "TIMESTAMPTZ")),
        timestamp_groups=("gauge_id",),
        own_day="date",
        group="stormwater_officer",
        description="Rain-gauge totals (daily, or sub-daily summed to local days).",
    )
)
