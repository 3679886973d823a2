"""The town running Outfall and the jurisdictions it works with, found in a folder of rules files.

Any town is a rules file: a folder of ``<jurisdiction>.yaml`` files (the project's ``rules/`` unless
OUTFALL_RULES_DIR names another) holds every jurisdiction Outfall knows, discovered by their names. The
town running Outfall is the one jurisdiction whose file has the sewer rules (its industrial users, parcels
and bills are the town's); when several files have them, the setting OUTFALL_TOWN names it, and a folder
that leaves it open is a one-line error before anything runs. Construction sites may be in any of the
jurisdictions (a village inside the town), each judged by its own file.

The town's ``timezone`` is the local time of the run: the day of a reading, a time written without an
offset, today. ``local_timezone()`` answers it for code that shows times outside the assets' own
arguments (the pages, the exports); the rules resource sets it for the length of a run.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo

from outfall.rules.dated import RulesError
from outfall.rules.loader import display_path, files_found, load_all, rules_folder
from outfall.rules.models import Rules

RULES_DIR_VARIABLE = "OUTFALL_RULES_DIR"
TOWN_VARIABLE = "OUTFALL_TOWN"


def default_rules_dir() -> str:
    """The rules folder of a run that names none: OUTFALL_RULES_DIR, else '' (the project's ``rules/``)."""
    return os.environ.get(RULES_DIR_VARIABLE, "")


def default_town() -> str:
    """The town of a run that names none: OUTFALL_TOWN, else '' (the one jurisdiction with sewer rules)."""
    return os.environ.get(TOWN_VARIABLE, "")


def has_sewer_rules(rules: Rules) -> bool:
    return rules.discharge_limits is not None


@dataclass(frozen=True)
class TownRules:
    """The rules of a run: every jurisdiction's, by name, and which of them is the town running Outfall."""

    jurisdiction: str
    """The town running Outfall (its rules file's name)."""
    rules: Mapping[str, Rules] = field(repr=False)
    folder: Path

    @property
    def town(self) -> Rules:
        """The rules of the town running Outfall."""
        return self.rules[self.jurisdiction]

    @property
    def timezone(self) -> str:
        """The town's local time zone (``timezone:`` of its rules file)."""
        return self.town.timezone

    @property
    def jurisdictions(self) -> tuple[str, ...]:
        return tuple(self.rules)

    def of(self, jurisdiction: str) -> Rules:
        """The rules of ``jurisdiction``; RulesError naming the rules files found when there is none."""
        try:
            return self.rules[jurisdiction]
        except KeyError:
            raise RulesError(
                f"no rules for jurisdiction '{jurisdiction}': {files_found(self.folder)}"
            ) from None

    def names(self, *jurisdictions: str) -> str:
        """Whom pages and letters are about, from the rules files' names: "Town of A and Village of B"
        (default: the town, then every other jurisdiction)."""
        chosen = jurisdictions or (self.jurisdiction, *(j for j in self.rules if j != self.jurisdiction))
        names = [self.rules[j].name for j in chosen if j in self.rules]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""

    def today(self) -> dt.date:
        """Today in the town's time zone."""
        return dt.datetime.now(ZoneInfo(self.timezone)).date()

    def files_found(self) -> str:
        return files_found(self.folder)


def choose_town(rules: Mapping[str, Rules], town: str, folder: Path) -> str:
    """The jurisdiction running Outfall: ``town`` when given (it must be one of the files); else the one
    file with the sewer rules; else the only file. RulesError, one line, when that leaves it open."""
    where = files_found(folder)
    if town:
        if town not in rules:
            raise RulesError(f"{TOWN_VARIABLE}={town}: no rules file {town}.yaml ({where})")
        return town
    sewer = [j for j, r in rules.items() if has_sewer_rules(r)]
    if len(sewer) == 1:
        return sewer[0]
    if not sewer and len(rules) == 1:
        return next(iter(rules))
    which = (
        f"{len(sewer)} rules files have sewer rules ({', '.join(f'{j}.yaml' for j in sewer)})"
        if sewer
        else f"none of the rules files has sewer rules ({where})"
    )
    raise RulesError(
        f"{display_path(folder)}: {which}: say which town runs Outfall with {TOWN_VARIABLE}=<jurisdiction>"
    )


def load_town(rules_dir: Path | str | None = None, town: str = "") -> TownRules:
    """The rules of every jurisdiction of the folder and the town running Outfall; RulesError (one
    line naming the file and what is wrong) when a file is not usable or the town is not clear."""
    folder = rules_folder(rules_dir)
    rules = load_all(folder)
    return TownRules(choose_town(rules, town, folder), rules, folder)


# ------------------------------------------------------------------ the local time zone of a run

_IN_USE: list[str] = []


def local_timezone() -> str:
    """The local time zone: the town's of the run under way, else that of the town of the default
    rules folder (OUTFALL_RULES_DIR, OUTFALL_TOWN; the project's ``rules/``)."""
    if _IN_USE:
        return _IN_USE[-1]
    return load_town(default_rules_dir() or None, default_town()).timezone


@contextlib.contextmanager
def timezone_in_use(timezone: str) -> Iterator[None]:
    """``local_timezone()`` is ``timezone`` inside the block."""
    enter_timezone(timezone)
    try:
        yield
    finally:
        leave_timezone()


def enter_timezone(timezone: str) -> None:
    _IN_USE.append(timezone)


def leave_timezone() -> None:
    if _IN_USE:
        _IN_USE.pop()
