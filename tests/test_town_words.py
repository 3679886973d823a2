"""The law's words come only from the rules (issue 39, item 4): no name of a town whose rules the project
ships (the demo's towns, the examples), none of their chapter numbers, sections or sewer districts, and no
board of theirs, in the code, the SQL, the templates, the suites or the pages' code. The names are read from
the rules files themselves, so a town added to ``examples/towns/`` is checked too.

Outside the scan, on purpose: ``rules/`` and ``examples/`` (the towns' own law), ``outfall/demo/`` (the
demo's made-up records of the demo towns), ``tests/``, and the documentation (``docs/``, README), which
explains the demo town's case by its own law.
"""

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("assets", "dashboards", "expectations", "outfall", "pipelines", "sql", "templates", "benchmarks")
NOT_SCANNED = (ROOT / "outfall" / "demo",)
SUFFIXES = {".py", ".sql", ".html", ".json", ".yaml", ".yml", ".j2", ".txt", ".css", ".js", ".md"}
PREFIX = re.compile(r"^(town|village|city|county|borough|township) of\s+", re.IGNORECASE)


def _rules_files() -> list[Path]:
    return sorted((ROOT / "rules").glob("*.yaml")) + sorted(
        (ROOT / "examples" / "towns").glob("*/rules/*.yaml")
    )


def _town_words() -> list[tuple[str, re.Pattern]]:
    """(what, pattern) for each shipped town: its name, the chapter numbers its laws' short names cite (as
    "ch. N", "chapter N" and "§ N-"), its sewer district's name, and its board."""
    found: list[tuple[str, re.Pattern]] = []
    for path in _rules_files():
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        name = PREFIX.sub("", str(data.get("name") or "")).strip()
        if name:
            found.append((f"{path.name}: the name {name!r}", re.compile(rf"\b{re.escape(name)}\b", re.I)))
        for law, versions in (data.get("law_names") or {}).items():
            for version in versions or []:
                short = str((version or {}).get("short") or "")
                for number in re.findall(r"ch\.\s*([\d.]+\d)", short):
                    n = re.escape(number)
                    found.append(
                        (
                            f"{path.name}: chapter {number}",
                            re.compile(rf"(\bch\.\s*{n}\b|\bchapter\s+{n}\b|§\s*{n}-)", re.I),
                        )
                    )
                if law == "sewer_district" and short:
                    found.append((f"{path.name}: the district {short!r}", re.compile(re.escape(short), re.I)))
    found.append(("a town's board", re.compile(r"\b(town|village) board\b", re.I)))
    return found


def _scanned_files() -> list[Path]:
    files = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and not any(p in path.parents for p in NOT_SCANNED):
                files.append(path)
    return files


def test_the_scan_knows_the_shipped_towns():
    """The test can fail: it finds every shipped town's name and a chapter of each seed."""
    what = " | ".join(w for w, _ in _town_words())
    for expected in ("'Woodbury'", "'Bellport'", "'Chagrin Falls'", "'St. Charles'", "'Snohomish'", "253"):
        assert expected in what
    assert any(p.search("see Woodbury Code ch. 253 Part 2, § 253-55 A") for _, p in _town_words())
    assert len(_scanned_files()) > 100


@pytest.mark.parametrize("top", SCANNED)
def test_no_town_words_outside_the_rules(top):
    words = _town_words()
    hits = []
    for path in _scanned_files():
        if path.relative_to(ROOT).parts[0] != top:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            hits += [
                f"{path.relative_to(ROOT)}:{number}: {what}: {line.strip()[:120]}"
                for what, p in words
                if p.search(line)
            ]
    assert not hits, "town words outside rules/ and examples/:\n" + "\n".join(hits)
