"""The rules are read by the law, never the reverse: outfall.rules (the models, the loader, the
generated schema and docs) imports nothing of outfall.law, whose pure functions take the rules' models."""

from __future__ import annotations

import ast
from pathlib import Path

import outfall.rules

RULES_PACKAGE = Path(outfall.rules.__file__).parent


def _imports(path: Path, root: Path = RULES_PACKAGE) -> list[tuple[int, str]]:
    """(line, module) of every import of a module of outfall.rules (``root``), anywhere in it (inside
    functions too), relative imports made absolute."""
    package = ["outfall", "rules", *path.relative_to(root).parent.parts]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found += [(node.lineno, module)]
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def test_the_rules_import_nothing_of_the_law():
    modules = sorted(RULES_PACKAGE.rglob("*.py"))
    assert {p.name for p in modules} >= {
        "__init__.py",
        "models.py",
        "dated.py",
        "calendar.py",
        "fees.py",
        "illicit.py",
        "practices.py",
    }
    law = [
        f"{p.relative_to(RULES_PACKAGE.parent.parent)}:{line}: {name}"
        for p in modules
        for line, name in _imports(p)
        if name == "outfall.law" or name.startswith("outfall.law.")
    ]
    assert law == [], "outfall.rules imports the law:\n" + "\n".join(law)


def test_the_import_walk_sees_every_kind_of_import(tmp_path):
    # the check above would pass vacuously if the walk missed a kind of import
    (tmp_path / "sub").mkdir()
    source = (
        "import outfall.law.fees\nfrom outfall.law import illicit\nfrom ...law.calendar import x\n"
        "def f():\n    from ..dated import y\n"
    )
    (tmp_path / "sub" / "m.py").write_text(source)
    names = {name for _, name in _imports(tmp_path / "sub" / "m.py", tmp_path)}
    assert {
        "outfall.law.fees",
        "outfall.law.illicit",
        "outfall.law.calendar.x",
        "outfall.rules.dated.y",
    } <= names
