"""What each table of the warehouse was made from: Dagster's data versions, and the warehouse's record
of them.

Every asset has one code version (``code_version``: Outfall's own files, the rules files and the
libraries that run them), every input folder a data version, its files' content (the ledger's names
and SHA-256s: ``sql/run/select_folder_versions.sql``), and the run's settings one too (the row of
``outfall_run``: the day judged by, the folders). A table made from others is as new as what it was
made from: its version is the hash of the code version, its partition and the versions of the tables
it reads (of each partition of a partitioned table that an unpartitioned one reads), which is what
Dagster's logical data version is. A table whose version is the one recorded when it was last made
needs no run (``plan``); what reads a table that runs, runs after it (Dagster's ``eager``).

The warehouse keeps the record (``_asset_versions``), because `outfall run` without DAGSTER_HOME has a
Dagster instance for one run only and the warehouse is what outlives it. ``_last_run`` holds the
fingerprint of the last run that left every table current (``run_fingerprint``: the files' names, sizes
and times, the code version, the day and the folders): a run with the same fingerprint has nothing to
do, and the command says so without starting Dagster at all.

Light on purpose (hashlib and a DuckDB connection, no Dagster or pandas): the command's nothing-new
answer imports this and little else.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from outfall.paths import EXPECTATIONS_DIR, RULES_DIR, SQL_DIR, TEMPLATES_DIR, sql_path

RUN_SETTINGS = "outfall_run"  # the asset of the run's settings: what reads the day judged by reads it
QUARANTINE = "quarantine"
# The libraries whose version is part of the code version (what they compute is part of every table).
LIBRARIES = ("dagster", "duckdb", "pandas", "great-expectations", "plotly")
# Outfall's own code: its packages (beside one another in a checkout and in an installation) and data.
PACKAGES = ("assets", "dashboards", "outfall", "pipelines")
CODE_SUFFIXES = (".py", ".sql", ".json", ".html", ".css", ".js", ".j2", ".txt", ".yaml", ".yml", ".md")
UNPARTITIONED = ""  # the partition key recorded for a table without partitions


def digest(*parts: object) -> str:
    """A short stable hash of ``parts`` (JSON: the same on every machine and every run)."""
    text = json.dumps(parts, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _tree_files(root: Path) -> list[Path]:
    if not root.is_dir():
        return []
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        found += [Path(folder) / f for f in sorted(files) if f.endswith(CODE_SUFFIXES)]
    return found


@lru_cache(maxsize=4)
def code_version(rules_dir: str = "") -> str:
    """One code version for every asset: the content of Outfall's code, SQL, templates and suites, of the
    rules files of ``rules_dir`` (default: the project's), and the versions of the libraries that run
    them. Any change to one of them is a change to what every table is made by."""
    here = Path(__file__).resolve().parents[1]
    sha = hashlib.sha256()
    roots = [here / p for p in PACKAGES] + [SQL_DIR, TEMPLATES_DIR, EXPECTATIONS_DIR]
    for root in roots:
        for path in _tree_files(root):
            sha.update(path.relative_to(root.parent).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    rules = Path(rules_dir) if rules_dir else RULES_DIR
    for path in sorted(rules.glob("*.yaml")) if rules.is_dir() else ():
        sha.update(b"rules/" + path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    for name in LIBRARIES:
        try:
            sha.update(f"{name}=={metadata.version(name)}\0".encode())
        except metadata.PackageNotFoundError:
            continue
    return sha.hexdigest()[:16]


def data_fingerprint(data_dir: Path) -> str:
    """Every file under the data folder (the input folders, the letterhead and the letters' templates)
    by name, size and modification time: what changes when a file is added, replaced or edited."""
    lines = []
    for folder, dirs, files in os.walk(data_dir):
        dirs.sort()
        for name in sorted(files):
            path = Path(folder) / name
            try:
                stat = path.stat()
            except OSError:
                continue
            lines.append(f"{path.relative_to(data_dir).as_posix()}:{stat.st_size}:{stat.st_mtime_ns}")
    return digest(lines)


def run_fingerprint(data_dir: Path, rules_dir: str, **settings: object) -> str:
    """What a run's outcome depends on: its data folder's files, the code version and its ``settings``
    (the day judged by, the billing year, the folders it reads and writes)."""
    return digest(str(data_dir), data_fingerprint(data_dir), code_version(rules_dir), settings)


# ---------------------------------------------------------------------------
# the warehouse's record


def _sql(name: str) -> str:
    return sql_path(name).read_text(encoding="utf-8")


def recorded_versions(con) -> dict[tuple[str, str], str]:
    """Each table's (and partition's) version when it was last made, as the warehouse recorded it."""
    return {(a, p): v for a, p, v in con.execute(_sql("select_asset_versions")).fetchall()}


def record_versions(con, versions: Mapping[tuple[str, str], str]) -> None:
    """Record these versions (asset, partition -> version), replacing what was recorded of them. Call
    inside a transaction (the ingestion step records its folders in its own)."""
    now = dt.datetime.now(dt.UTC)
    for (asset, partition), version in sorted(versions.items()):
        con.execute(
            _sql("insert_asset_version"),
            {"asset": asset, "partition_key": partition, "version": version, "recorded_at": now},
        ).fetchall()


def last_run_fingerprint(con) -> str | None:
    """The fingerprint of the last run that left every table current, or None."""
    rows = con.execute(_sql("select_last_run")).fetchall()
    return rows[0][0] if rows else None


def set_last_run(con, fingerprint: str | None) -> None:
    """Record (or, None, forget) the fingerprint of a run that left every table current."""
    con.execute(_sql("delete_last_run")).fetchall()
    if fingerprint is not None:
        con.execute(
            _sql("insert_last_run"), {"fingerprint": fingerprint, "finished_at": dt.datetime.now(dt.UTC)}
        ).fetchall()


def folder_versions(con) -> dict[str, str]:
    """Each input folder's data version, from the ledger: the names and SHA-256s of every file loaded
    from it (a folder none was loaded from has none)."""
    return {dataset: version for dataset, version in con.execute(_sql("select_folder_versions")).fetchall()}


# ---------------------------------------------------------------------------
# which tables are current


@dataclass(frozen=True)
class Node:
    """An asset of the graph: its key, the keys it reads and its partitions definition's name (None:
    not partitioned)."""

    key: str
    deps: tuple[str, ...]
    partitions: str | None = None


Versions = dict[tuple[str, str], str]


def _inputs_of(
    node: Node, partition: str, nodes: Mapping[str, Node], partitions: Mapping[str, Sequence[str]]
) -> list[tuple[str, str]]:
    """The (asset, partition) pairs ``node``'s ``partition`` is made from: an unpartitioned table, a
    partition of the same definition, or every partition of another."""
    pairs = []
    for dep in node.deps:
        of = nodes[dep].partitions
        if of is None:
            pairs.append((dep, UNPARTITIONED))
        elif of == node.partitions:
            pairs.append((dep, partition))
        else:
            pairs += [(dep, key) for key in partitions.get(of, ())]
    return pairs


def _order(nodes: Mapping[str, Node]) -> list[str]:
    """The keys, each after the keys it reads."""
    done: dict[str, None] = {}

    def visit(key: str, path: tuple[str, ...] = ()) -> None:
        if key in done:
            return
        if key in path:
            raise ValueError(f"the assets read one another: {' -> '.join((*path, key))}")
        for dep in nodes[key].deps:
            visit(dep, (*path, key))
        done[key] = None

    for key in sorted(nodes):
        visit(key)
    return list(done)


def pairs_of(node: Node, partitions: Mapping[str, Sequence[str]]) -> list[tuple[str, str]]:
    """The (asset, partition) pairs of ``node``: one, or one per partition of its definition."""
    if node.partitions is None:
        return [(node.key, UNPARTITIONED)]
    return [(node.key, key) for key in partitions.get(node.partitions, ())]


def expected_versions(
    nodes: Mapping[str, Node],
    sources: Versions,
    partitions: Mapping[str, Sequence[str]],
    code: str,
    source_keys: Iterable[str] = (),
) -> Versions:
    """The version each table (and partition) has once made from what there is now. The tables of
    ``source_keys`` (the ingestion step's: the input folders, the quarantine, the run's settings) have
    the versions that step recorded (``sources``; none yet: empty); every other is the hash of ``code``,
    its partition and its inputs' versions."""
    given = set(source_keys)
    versions: Versions = {}
    for key in _order(nodes):
        node = nodes[key]
        for pair in pairs_of(node, partitions):
            if key in given:
                versions[pair] = sources.get(pair, "")
                continue
            inputs = _inputs_of(node, pair[1], nodes, partitions)
            versions[pair] = digest(code, key, pair[1], [(a, p, versions.get((a, p), "")) for a, p in inputs])
    return versions


def children(nodes: Mapping[str, Node]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {k: set() for k in nodes}
    for node in nodes.values():
        for dep in node.deps:
            found[dep].add(node.key)
    return found


def plan(
    nodes: Mapping[str, Node],
    recorded: Versions,
    expected: Versions,
    partitions: Mapping[str, Sequence[str]],
    forced: Iterable[tuple[str, str]] = (),
) -> set[tuple[str, str]]:
    """The tables (and partitions) to make: those whose recorded version is not the one they would have
    (new, or made from other inputs, code or settings), those ``forced``, and everything that reads one
    of them, directly or not."""
    todo = {pair for pair, version in expected.items() if recorded.get(pair) != version} | set(forced)
    readers = children(nodes)
    queue = list(todo)
    while queue:
        key, partition = queue.pop()
        for child in readers[key]:
            of = nodes[child].partitions
            if of is None:
                reached = [(child, UNPARTITIONED)]
            elif of == nodes[key].partitions:
                reached = [(child, partition)]
            else:
                reached = pairs_of(nodes[child], partitions)
            for pair in reached:
                if pair not in todo:
                    todo.add(pair)
                    queue.append(pair)
    return todo


def current_after(
    nodes: Mapping[str, Node],
    recorded: Versions,
    expected: Versions,
    made: Iterable[tuple[str, str]],
    partitions: Mapping[str, Sequence[str]],
) -> Versions:
    """The versions to record after a run that made ``made``: each made from inputs that are current (a
    page written after a step failed was made from a table that is not, and is made again next time)."""
    now = dict(recorded)
    made = set(made)
    new: Versions = {}
    for key in _order(nodes):
        for pair in pairs_of(nodes[key], partitions):
            if pair not in made or pair not in expected:
                continue
            inputs = _inputs_of(nodes[key], pair[1], nodes, partitions)
            if all(now.get(i) == expected.get(i) for i in inputs):
                now[pair] = new[pair] = expected[pair]
    return new


def all_current(recorded: Versions, expected: Versions) -> bool:
    return all(recorded.get(pair) == version for pair, version in expected.items())
