"""The sample towns' outputs equal their outputs before contract 8.8 (tables and letters' text), but for the
columns 8.8 changes on purpose (``tests.outputs_digest.CHANGED_BY_8_8``, each with why) and the columns and
tables it adds: the model town and its village (the demo), and the three example towns.

What 8.8 changes beside those columns is on the pages, not in the tables or letters: the billing page lists
the surcharges, and the slug tables show a slug's end as its start plus its minutes (so that they agree).
``tests/golden/sample_outputs.json`` holds the digests of the runs before; ``python -m tests.outputs_digest``
says how to write it again.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.outputs_digest import letter_texts, table_digest, tables
from tests.test_example_towns import run_town

GOLDEN = json.loads((REPO / "tests" / "golden" / "sample_outputs.json").read_text(encoding="utf-8"))

pytestmark = pytest.mark.slow  # `outfall demo` and `outfall run` end to end


def differences(town: str, warehouse: Path) -> list[str]:
    """What differs from the town's digest before: a table or letter gone, a digest changed."""
    golden, now = GOLDEN[town], tables(warehouse)
    out = []
    for name, before in golden["tables"].items():
        if name not in now:
            out.append(f"{town}: table {name} is gone")
            continue
        columns, rows = now[name]
        lacking = [c for c in before["columns"] if c not in columns]
        if lacking:
            out.append(f"{town}: {name} lost columns {lacking}")
            continue
        digest = table_digest(columns, rows, before["columns"])
        if digest != {"rows": before["rows"], "sha256": before["sha256"]}:
            out.append(f"{town}: {name} differs ({before['rows']} rows before, {digest['rows']} now)")
    texts = letter_texts(warehouse)
    for name, sha in golden["letters"].items():
        if name not in texts:
            out.append(f"{town}: letter {name} is gone")
        elif hashlib.sha256(texts[name].encode()).hexdigest() != sha:
            out.append(f"{town}: letter {name} says something else")
    out += [f"{town}: a new letter {name}" for name in texts if name not in golden["letters"]]
    return out


def test_the_model_town_and_its_village_are_judged_as_before(demo_town):
    assert differences("demo", demo_town / "outfall.duckdb") == []


@pytest.mark.parametrize("town", ["st_charles", "chagrin_falls", "snohomish", "seymour"])
def test_each_example_town_is_judged_as_before(town, tmp_path):
    assert differences(town, run_town(town, tmp_path)) == []
