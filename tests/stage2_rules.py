"""A rules folder with the sections of contract section 5 (business_days, illicit_discharges,
post_construction, inspection_fees), for the tests of the stage-2 assets.

When rules/woodbury.yaml and rules/bellport.yaml already carry those sections, the folder is a
copy of rules/ as it is. Until they do, the draft entries (docs/rules-stage2-draft.yaml, the
entries the models of these sections were written against) are appended to the copies, so the
assets are tested against the same typed rules either way.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from outfall.paths import REPO_ROOT, RULES_DIR
from outfall.rules import load_rules

DRAFT = REPO_ROOT / "docs" / "rules-stage2-draft.yaml"
SECTIONS = {"woodbury": ("business_days", "illicit_discharges", "post_construction", "inspection_fees"),
            "bellport": ("post_construction",)}


def _draft_blocks() -> dict[str, str]:
    """The draft's text under each top-level jurisdiction key, dedented one level."""
    blocks: dict[str, list[str]] = {}
    current = None
    for line in DRAFT.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith((" ", "#")) and line.endswith(":"):
            current = line[:-1]
            blocks[current] = []
        elif current is not None:
            blocks[current].append(line)
    return {j: textwrap.dedent("\n".join(lines)) for j, lines in blocks.items()}


def stage2_rules_dir(folder: Path) -> Path:
    """``folder`` filled with rules files that have every stage-2 section; returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in RULES_DIR.glob("*.yaml"):
        shutil.copy(path, folder / path.name)
    blocks = None
    for jurisdiction, sections in SECTIONS.items():
        rules = load_rules(jurisdiction, folder)
        if all(getattr(rules, s) is not None for s in sections):
            continue
        blocks = blocks or _draft_blocks()
        target = folder / f"{jurisdiction}.yaml"
        target.write_text(target.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + blocks[jurisdiction] + "\n",
                          encoding="utf-8")
        assert all(getattr(load_rules(jurisdiction, folder), s) is not None for s in sections)
    return folder
