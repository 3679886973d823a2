"""The page readers keep their SQL in sql/<area>/ files: no statement written inline in
assets/pages.py or assets/<area>/page.py (one home per area), so a page's
query is found, reviewed and changed in one place."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from outfall.paths import REPO_ROOT
from outfall.warehouse import sql

PAGE_READERS = sorted([REPO_ROOT / "assets" / "pages.py", *(REPO_ROOT / "assets").glob("*/page.py")])

# A string that reads as a statement: SELECT ... FROM, INSERT INTO, DELETE FROM, UPDATE ... SET in
# capitals anywhere, or one that starts with a lower-case select ... from. Prose ("Select the rows
# shown from ...") is not SQL.
STATEMENT = re.compile(
    r"\b(SELECT\b[\s\S]*\bFROM|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\S+\s+SET)\b"
    r"|^\s*(with|select)\s[\s\S]*\sfrom\s"
)

# The statements built in code because what varies is an identifier (a table or column name,
# which a bind parameter cannot carry), never a value: (file, function) -> why.
STRUCTURAL = {
    ("assets/pages.py", "Reader.table"): "every row of a table named by the caller",
    ("assets/pages.py", "_ranges"): "first and last date of each dataset, its column from DATE_COLUMNS",
}


def _text(node: ast.AST) -> str | None:
    """The literal text of a string constant or f-string (its fixed parts), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    return None


def inline_statements(source: str) -> list[tuple[str, int, str]]:
    """(enclosing function, line, text) of every string literal in ``source`` that reads as SQL;
    docstrings are prose and not counted."""
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, scope: list[str]) -> None:
        body = getattr(node, "body", None)
        docstring = None
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and body
            and isinstance(body[0], ast.Expr)
            and _text(body[0].value) is not None
        ):
            docstring = body[0].value
        for child in ast.iter_child_nodes(node):
            if child is docstring or (isinstance(child, ast.Expr) and child.value is docstring):
                continue
            text = _text(child)
            if text is not None:
                if STATEMENT.search(text):
                    found.append((".".join(scope), child.lineno, text))
                continue  # an f-string's parts are part of the text already counted
            inner = (
                scope + [child.name]
                if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                else scope
            )
            visit(child, inner)

    visit(ast.parse(source), [])
    return found


def test_the_scan_finds_inline_sql_and_skips_docstrings_and_names():
    source = '''
def read(r):
    """Reads the SELECT of the page from the table."""
    a = r.table("x", "SELECT a, b "
                     "FROM x WHERE c")
    b = r.named("x", "select_dashboard_x")
    c = con.execute(f'select * from "{t}" where d = {v}')
    d = "Select the rows shown from the list."
    e = con.execute("DELETE FROM x WHERE y = ?", [1])
    return a, b, c, d, e
'''
    found = inline_statements(source)
    assert [(scope, line) for scope, line, _ in found] == [("read", 4), ("read", 7), ("read", 9)]


@pytest.mark.parametrize("path", PAGE_READERS, ids=lambda p: p.relative_to(REPO_ROOT).as_posix())
def test_page_readers_hold_no_inline_sql(path: Path):
    rel = path.relative_to(REPO_ROOT).as_posix()
    inline = [
        (scope, line, " ".join(text.split()))
        for scope, line, text in inline_statements(path.read_text("utf-8"))
        if (rel, scope) not in STRUCTURAL
    ]
    assert not inline, (
        f"{rel} writes SQL inline; put each statement in sql/<area>/<verb>_<object>.sql and read "
        f"it with outfall.warehouse.sql(name): {inline}"
    )


def test_the_structural_exceptions_still_exist():
    """An exception that no longer matches anything is removed from STRUCTURAL, not kept as a loophole."""
    for (rel, scope), why in STRUCTURAL.items():
        found = [s for s, _, _ in inline_statements((REPO_ROOT / rel).read_text("utf-8"))]
        assert scope in found, f"{rel} {scope} ({why}) no longer builds SQL; drop it from STRUCTURAL"


def test_every_statement_a_page_reader_names_exists():
    """Each name a page reader hands to r.named(...), sql(...) or query(...) is a file under sql/."""
    for path in PAGE_READERS:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if name in ("sql", "query") and args:
                assert sql(args[0]).strip(), (path.name, args[0])
            elif name in ("named", "_counts") and len(args) >= 2:
                assert sql(args[1]).strip(), (path.name, args[1])
