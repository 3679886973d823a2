"""What a dataset spec is: the input datasets' columns, natural keys and the dataset-specific steps
that turn raw cells into canonical rows, as SQL; the vocabularies they read; and the registry.

A dataset spec is data: ``outfall.ingest.compile`` turns its columns into one
typed expression and one reason expression each, then applies the dataset's
``finish`` steps (SQL over the typed columns: unit conversion, non-detects,
ranges, derived columns), and the engine stores the kept rows under the
natural key. Every dataset registers itself with ``register``: the contract's
(section 2) in ``contract_sewer.py``, ``contract_billing.py`` and
``contract_stormwater.py``, the areas' own in ``sewer.py``, ``stormwater.py``,
``billing.py`` and ``notices.py``; their input tables are created from the spec
(``outfall.ingest.compile.create_table_sql``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

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
    # The work a run cannot do without the folder, in the README's words ("the sewer work"): the README's
    # table of folders marks it required for that (a blank: a folder a town fills where it has the data).
    required_for: str = ""
    # A run as of a day D judges the rows as they stood at the end of D (contract 8.1,
    # ``outfall/ingest/as_of.py``): ``own_day`` is the column (a date, or a time judged by its local day)
    # that makes a row a fact, a sample's collection or a mailing: a row whose own day is after D is not
    # yet a fact (a blank own day: a fact on every day); ``later_facts`` are the columns of a row that
    # stands whose own days may come after it, blank as of a day before theirs.
    own_day: str = ""
    later_facts: tuple[LaterFact, ...] = ()

    @property
    def keeper(self) -> str:
        """The person who keeps the folder (fills it, fixes its rows that could not be read): its area's."""
        return KEEPERS[self.group]

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


# Who keeps the input folders of each area (a spec's group): the worklist's person values (contract 4).
KEEPERS = {
    "sewer": "superintendent",
    "stormwater": "stormwater_officer",
    "billing": "clerk",
    "notices": "clerk",  # the mailings, recorded by the clerk who mails them
}

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


def enum_column(name: str, vocabulary_: Vocabulary, allowed: str, required: bool = False) -> Column:
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
# the registry

DATASETS: dict[str, Dataset] = {}


def register(ds: Dataset) -> Dataset:
    """Adds ``ds`` to ``DATASETS`` (the modules declaring datasets call it on import). Every registered
    folder is optional: an absent folder means "no such data" and its table stays empty. Its group is one of
    the areas (``KEEPERS``): the person who keeps the folder follows from it."""
    if ds.group not in KEEPERS:
        raise ValueError(f"{ds.name}: group {ds.group!r} is not one of {', '.join(KEEPERS)}")
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


def district_column(required: bool = True) -> Column:
    return enum_column("district", DISTRICT_VOCAB, TOWN_CODES.format(kind="sewer districts"), required)
