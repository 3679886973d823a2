"""Checking a folder of rules files as ``outfall run`` reads it: every problem at once, in file order.

``check_folder`` reads every ``<jurisdiction>.yaml`` of the folder, each problem of each file one line
(the file, the line, the entry and what is wrong), in the order of the files and of their lines; then
what a run of each file will need that it lacks (``needs``: a name its letters print, the law a duty rests
on), each a problem too; once every file is usable, it chooses the town running Outfall as a run does
(OUTFALL_TOWN, else the one file with sewer rules). ``outfall rules check`` (and ``python -m outfall.rules
check``) prints what it finds, and ``outfall run`` refuses to start on the same problems: a folder one
accepts, the other accepts, and a run of a folder that checks clean never stops for a missing rules
value. What a run will leave not judged for want of a part the file does not state is listed apart
(``unjudged``): not a problem, said before the run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from outfall.rules.dated import RulesError
from outfall.rules.loader import display_path, jurisdictions, load_rules, rules_folder
from outfall.rules.models import LawNames, Rules
from outfall.rules.town import TownRules, choose_town

#: The duties of ``notices``, each of which may rest on a law of ``law_names`` other than the sewer use law.
NOTICE_DUTIES = (
    "accidental_statement",
    "periodic_report",
    "self_monitoring",
    "slug_report",
    "permit_expiry_warning",
)
#: What a sewer notice of violation needs the rules to state (each part, in words).
SEWER_NOTICE_PARTS = {
    "notices.sewer_correction": "the period to correct",
    "penalties.sewer_use": "the penalty",
    "sewer_enforcement": "who issues notices and how",
}


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
            f" (and {more} more problem{'s' if more > 1 else ''}: outfall rules check "
            f"--rules {display_path(self.folder)} lists them all)"
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
            continue
        checked.problems.extend(needs(checked.rules[jurisdiction]))
    if not checked.problems:
        try:
            chosen = choose_town(checked.rules, town, folder)
            checked.town = TownRules(chosen, checked.rules, folder)
        except RulesError as exc:
            checked.problems.extend(exc.problems)
    return checked


def _line(rules: Rules, key: str) -> str:
    """', line N' of the top-level ``key`` in the rules' file ('' when it is not written)."""
    try:
        text = rules.source.read_text(encoding="utf-8")
    except OSError:
        return ""
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith(f"{key}:"):
            return f", line {n}"
    return ""


def _lacks(rules: Rules, name: str, why: str) -> str | None:
    """A problem line when ``law_names`` lacks ``name``, which a run of the rules prints because ``why``."""
    if rules.has_law(name):
        return None
    doc = (
        (LawNames.model_fields[name].description or "").split(":")[0] if name in LawNames.model_fields else ""
    )
    where = f"{display_path(rules.source)}{_line(rules, 'law_names')}"
    return (
        f"{where}: law_names: missing '{name}': {why}; write its name as letters print it (name, short, "
        f"citation, effective_from){f' ({doc})' if doc else ''}"
    )


def needs(rules: Rules) -> list[str]:
    """What a run of ``rules`` will need that the file lacks, one problem line each: the law a duty rests on
    (``law_names.<law>``), and the names the letters the rules draft print (the sewer district a notice,
    order or published list comes from, the penalty section a notice cites). A file that lacks none of them
    never stops a run, nor prints '[law not named]' in a letter, for a missing name."""
    out: list[str | None] = []
    notices = rules.notices
    for duty in NOTICE_DUTIES:
        for version in getattr(notices, duty, None) or () if notices is not None else ():
            if version.law and version.law != "sewer_use":
                out.append(_lacks(rules, version.law, f"notices.{duty} rests on the law '{version.law}'"))
    drafts_notices = rules.discharge_limits is not None and all(rules.part(p) for p in SEWER_NOTICE_PARTS)
    if drafts_notices:
        why = (
            "sewer notices are drafted (the rules state the period to correct, the penalty and who issues "
            "them)"
        )
        out.append(_lacks(rules, "sewer_penalty", f"{why}, and each cites the penalty section by this name"))
        out.append(_lacks(rules, "sewer_district", f"{why}, and each names the district it comes from"))
    if rules.snc is not None:
        out.append(
            _lacks(
                rules,
                "sewer_district",
                "the yearly list of significant noncompliance is drafted (snc), and names "
                "the district it comes from",
            )
        )
    if rules.grease_interceptors is not None:
        out.append(
            _lacks(
                rules,
                "sewer_district",
                "grease interceptor orders are drafted (grease_interceptors), and name "
                "the district they come from",
            )
        )
        out.append(
            _lacks(rules, "sewer_use", "grease interceptor orders cite the sewer use law by this name")
        )
    return list(dict.fromkeys(line for line in out if line))


def unjudged(rules: Rules) -> list[str]:
    """What a run of ``rules`` will leave not judged for want of a part the file does not state, in words (not
    a problem: the run says so in its tables and pages)."""
    out = []
    if rules.discharge_limits is not None:
        lacking = [words for path, words in SEWER_NOTICE_PARTS.items() if not rules.part(path)]
        if lacking:
            out.append(
                f"sewer notices of violation are not drafted: the rules do not state {'; '.join(lacking)}"
            )
    sc = rules.surcharge
    if sc is not None and (sc.method or sc.per_volume or sc.per_strength or sc.per_flow):
        readings = rules.readings_enforcement
        lacking = [
            f"readings_enforcement.{n}"
            for n in ("surcharge_flow", "surcharge_concentration")
            if readings is None or getattr(readings, n) is None
        ]
        if lacking:
            out.append(
                f"surcharges are not judged: the rules do not say how a month's volume and concentration are "
                f"formed ({', '.join(lacking)})"
            )
    for path, words in (
        ("notices.accidental_statement", "the written statement after an accidental discharge"),
        ("notices.periodic_report", "periodic reports"),
        ("notices.self_monitoring", "the notice and repeat sampling after a user's own violation"),
        ("notices.slug_report", "the written report of a slug"),
        ("slug", "slug discharges"),
        ("snc", "significant noncompliance"),
    ):
        if rules.discharge_limits is not None and not rules.part(path):
            out.append(f"{words}: not judged ({path} not stated)")
    return out


def load_checked(rules_dir: Path | str | None = None, town: str = "") -> TownRules:
    """The rules of a run; RulesError (the first problem, every one in ``.problems``) when the folder is not
    usable as ``outfall rules check`` says."""
    checked = check_folder(rules_dir, town)
    if checked.problems or checked.town is None:
        raise checked.error()
    return checked.town
