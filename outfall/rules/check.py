"""Checking a folder of rules files as ``outfall run`` reads it: every problem at once, in file order.

``check_folder`` reads every ``<jurisdiction>.yaml`` of the folder, each problem of each file one line
(the file, the line, the entry and what is wrong), in the order of the files and of their lines; once
every file is usable, it chooses the town running Outfall as a run does (OUTFALL_TOWN, else the one file
with sewer rules). ``python -m outfall.rules check`` prints what it finds, and ``outfall run`` refuses to
start on the same problems: a folder one accepts, the other accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from outfall.rules.dated import RulesError
from outfall.rules.loader import display_path, jurisdictions, load_rules, rules_folder
from outfall.rules.models import Rules
from outfall.rules.town import TownRules, choose_town


@dataclass
class Checked:
    """What checking a folder found: the rules read, the town chosen, every problem in order."""

    folder: Path
    rules: dict[str, Rules] = field(default_factory=dict)
    town: TownRules | None = None
    problems: list[str] = field(default_factory=list)

    def error(self) -> RulesError:
        """The problems as one error: the first named, the others counted (``.problems``: all)."""
        more = len(self.problems) - 1
        tail = (
            f" (and {more} more problem{'s' if more > 1 else ''}: python -m outfall.rules check "
            f"--rules-dir {display_path(self.folder)} lists them all)"
            if more > 0
            else ""
        )
        return RulesError(self.problems[0] + tail, self.problems)


def check_folder(rules_dir: Path | str | None = None, town: str = "") -> Checked:
    """Every rules file of the folder read and checked, and the town running Outfall chosen as a run
    chooses it."""
    folder = rules_folder(rules_dir)
    checked = Checked(folder)
    found = jurisdictions(folder)
    if not found:
        where = "no such folder" if not folder.is_dir() else "no rules file (*.yaml) in it"
        checked.problems.append(
            f"{display_path(folder)}: {where}; a town's rules are <jurisdiction>.yaml "
            f"(outfall new-town NAME --out {display_path(folder / 'NAME.yaml')} starts one)"
        )
        return checked
    for jurisdiction in found:
        try:
            checked.rules[jurisdiction] = load_rules(jurisdiction, folder)
        except RulesError as exc:
            checked.problems.extend(exc.problems)
    if not checked.problems:
        try:
            chosen = choose_town(checked.rules, town, folder)
            checked.town = TownRules(chosen, checked.rules, folder)
        except RulesError as exc:
            checked.problems.extend(exc.problems)
    return checked


def load_checked(rules_dir: Path | str | None = None, town: str = "") -> TownRules:
    """The rules of a run; RulesError (the first problem, every one in ``.problems``) when the folder is not
    usable as ``python -m outfall.rules check`` says."""
    checked = check_folder(rules_dir, town)
    if checked.problems or checked.town is None:
        raise checked.error()
    return checked.town
