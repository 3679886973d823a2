"""Outfall's packages import one another one way: no module imports, even through others, a module
that imports it back; and every module of ``outfall`` has its place in the layers of pyproject.toml
(checked by ``make lint``, import-linter). Read from the source with ``ast``, imports inside
functions included, so this fails fast in ``make test-fast`` too."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from outfall.paths import REPO_ROOT

PACKAGES = ("outfall", "assets", "pipelines", "dashboards", "benchmarks")


def project_modules(root: Path = REPO_ROOT) -> dict[str, Path]:
    """Dotted name -> file of every module of the packages (a package is its ``__init__``)."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _module_of(name: str, modules: dict[str, Path]) -> str | None:
    """The project module ``name`` is, or is in (``outfall.rules.load_rules`` -> ``outfall.rules``)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules ``module`` imports, anywhere in it; ``from p import x`` is module
    ``p.x`` when there is one, else ``p``."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            names = [
                f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                for alias in node.names
            ]
        else:
            continue
        found |= {m for m in (_module_of(n, modules) for n in names) if m and m != module}
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_through_others():
    modules = project_modules()
    graph = {m: imports_of(m, p, modules) for m, p in modules.items()}
    found = cycles(graph)
    assert found == [], "import cycles (make the arrows run one way): " + "; ".join(
        " <-> ".join(c) for c in found
    )


def test_the_cycle_finder_finds_a_cycle(tmp_path):
    (tmp_path / "outfall").mkdir()
    (tmp_path / "outfall" / "__init__.py").write_text("")
    (tmp_path / "outfall" / "a.py").write_text("def f():\n    from outfall import b\n")
    (tmp_path / "outfall" / "b.py").write_text("from outfall.a import f\n")
    (tmp_path / "outfall" / "c.py").write_text("from . import b\n")
    modules = project_modules(tmp_path)
    graph = {m: imports_of(m, p, modules) for m, p in modules.items()}
    assert graph["outfall.c"] == {"outfall.b"}
    assert cycles(graph) == [["outfall.a", "outfall.b"]]


def test_every_module_of_outfall_has_a_layer():
    """A new module of ``outfall`` (or package in it) is placed in a layer of the contract, so that
    ``lint-imports`` checks its imports too."""
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    named = {name for layer in contract["layers"] for name in re.split(r"[|:]", layer)}
    named = {name.strip() for name in named}
    children = {f"outfall.{p.stem}" for p in (REPO_ROOT / "outfall").glob("*.py") if p.stem != "__init__"}
    children |= {f"outfall.{p.parent.name}" for p in (REPO_ROOT / "outfall").glob("*/__init__.py")}
    assert children - named == set(), "place these in a layer of [tool.importlinter] in pyproject.toml"


# What reached into Dagster's private parts, and was replaced (issue 47): a check definition's function,
# the in-memory event log's connection, the instance's listeners, Python's salted hash as a run key.
PRIVATE_DAGSTER = (
    "from dagster._",
    "import dagster._",
    "decorated_fn",
    ".compute_fn",
    "._subscribers",
    "._held_conn",
    "._db_lock",
    "abs(hash(",
)


def test_the_project_uses_dagsters_public_api_only():
    """No module of the project imports Dagster's private modules or reaches into private attributes of
    its objects (each breaks on the next release): ``from dagster import ...`` and the GraphQL API."""
    found = []
    for package in ("pipelines", "assets", "outfall", "dashboards"):
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            found += [f"{path.relative_to(REPO_ROOT)}: {p}" for p in PRIVATE_DAGSTER if p in text]
    assert found == []
