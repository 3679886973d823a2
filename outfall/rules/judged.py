"""Whether the rules judge a duty, and the one helper every statement of "none" goes through (contract 8.6).

A page, report, letter or export says "none", "no violation", "no testing missed" or a count of 0 only of a
duty the rules judge. Where the rules state none of it, the same place says why instead: "not judged: the
rules of City of X state no definition of a slug discharge". Each such duty is an entry of ``DUTIES``: the
parts of the rules that judge it (``Rules.judged`` of each), and whose rules they are (the town's for the
sewer use law, every jurisdiction's for construction sites). ``Judged.of(town, others)`` asks the rules
once; ``Judged.none(duty, words)`` is the helper::

    judged = Judged.of(rules.town_rules(), rules.all_rules().values())
    judged.none("slugs", "No slug discharge detected.")
    # "No slug discharge detected." where the rules define a slug, else
    # "not judged: the rules of City of X state no definition of a slug discharge"

``Judged()`` (no rules asked) judges every duty: what a page built without rules assumes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from outfall.rules.dated import Versions
from outfall.rules.models import STORMWATER_NOTICE_PARTS, Rules

SEWER, STORMWATER = "sewer", "stormwater"
NOT_JUDGED = "not judged: the rules of "


@dataclass(frozen=True)
class Duty:
    """A duty pages, reports, letters and exports may say "none" of."""

    name: str
    parts: tuple[str, ...]
    """The parts of the rules that judge it (paths, ``Rules.part``): judged where any of them is stated
    (``all_of``: where every one is)."""
    words: str
    """What the rules state none of, in words: "not judged: the rules of X state no <words>"."""
    area: str = SEWER
    """Whose rules judge it: the town's (``sewer``) or every jurisdiction's with construction sites
    (``stormwater``: judged where any jurisdiction's rules judge it)."""
    all_of: bool = False


DUTIES: dict[str, Duty] = {
    d.name: d
    for d in (
        Duty(
            "limits",
            ("discharge_limits", "table_7_1.limits", "limits_set_elsewhere.limits"),
            "discharge limits",
        ),
        Duty("slugs", ("slug",), "definition of a slug discharge"),
        Duty("snc", ("snc",), "criteria of significant noncompliance"),
        Duty(
            "reports",
            ("notices.periodic_report", "notices.accidental_statement", "notices.slug_report"),
            "deadline of any report",
        ),
        Duty("testing", ("required_testing",), "rule of required testing"),
        Duty(
            "permits",
            ("sewer_compliance.without_permit_citation",),
            "rule against discharging without a permit",
        ),
        Duty("permit_expiry", ("notices.permit_expiry_warning",), "notice of an expiring permit"),
        Duty(
            "sewer_notices",
            ("sewer_enforcement", "penalties.sewer_use"),
            "issuer and penalty of a sewer notice of violation",
            all_of=True,
        ),
        Duty("sewer_correction", ("notices.sewer_correction",), "period to correct a violation"),
        Duty("grease", ("grease_interceptors",), "rules for grease interceptors"),
        Duty(
            "inspections",
            ("swppp.weekly_inspection", "swppp.storm_inspection"),
            "construction stormwater inspections",
            STORMWATER,
        ),
        Duty(
            "site_findings",
            (
                "swppp.weekly_inspection",
                "swppp.storm_inspection",
                "swppp.disturbance_limit",
                "swppp.sediment_cleanout",
                "swppp.milestone_notice",
                "swppp.contractor_certification",
                "swppp.report_delivery",
            ),
            "duty of a construction site",
            STORMWATER,
        ),
        Duty(
            "stormwater_notices",
            tuple(STORMWATER_NOTICE_PARTS),
            "issuer, appeal and penalty of a stormwater notice of violation",
            STORMWATER,
            all_of=True,
        ),
        Duty("stop_work", ("swppp.stop_work_order",), "stop-work order", STORMWATER),
        Duty("illicit", ("illicit_discharges",), "illicit discharge rules", STORMWATER),
        Duty("practices", ("post_construction",), "post-construction practices", STORMWATER),
    )
}


def _stated(rules: Rules, path: str) -> bool:
    """Whether the rules state the part at ``path``; a list of entries on the way (limits_set_elsewhere)
    states it where any of its entries does."""
    head, _, rest = path.partition(".")
    value: Any = getattr(rules, head, None) if head in type(rules).model_fields else None
    if rest and isinstance(value, list) and not isinstance(value, Versions):
        return any(_stated_in(entry, rest) for entry in value)
    return bool(rules.judged(path))


def _stated_in(entry: Any, path: str) -> bool:
    value = entry
    for name in path.split("."):
        value = getattr(value, name, None)
        if value is None:
            return False
    return not (isinstance(value, (list, tuple)) and not value)


def judged_by(rules: Rules, duty: Duty) -> bool:
    """Whether these rules judge ``duty``."""
    stated = [_stated(rules, p) for p in duty.parts]
    return all(stated) if duty.all_of else any(stated)


def _names(names: list[str], last: str = "and") -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {last} " + names[-1]


class Judged:
    """For each duty of ``DUTIES``, whether the rules judge it, and why not in words where they do not."""

    def __init__(self, reasons: Mapping[str, str] | None = None):
        unknown = set(reasons or {}) - set(DUTIES)
        if unknown:
            raise KeyError(f"no such duty: {', '.join(sorted(unknown))}")
        self._reasons = {k: v for k, v in (reasons or {}).items() if v}

    @classmethod
    def of(cls, town: Rules | None, others: Iterable[Rules] = ()) -> Judged:
        """What ``town``'s rules judge of the sewer use law, and every jurisdiction's (``town`` and
        ``others``) of construction sites. No rules at all: nothing is judged."""
        every = list(
            {r.jurisdiction: r for r in ([town] if town is not None else []) + list(others)}.values()
        )
        reasons = {}
        for duty in DUTIES.values():
            asked = [town] if duty.area == SEWER and town is not None else every
            if not any(judged_by(r, duty) for r in asked):
                names = _names([r.name for r in asked]) if asked else "this town"
                reasons[duty.name] = f"{NOT_JUDGED}{names} state no {duty.words}"
        return cls(reasons)

    def judged(self, duty: str) -> bool:
        """Whether the rules judge ``duty`` (a name of ``DUTIES``)."""
        if duty not in DUTIES:
            raise KeyError(f"no such duty: {duty}")
        return duty not in self._reasons

    def reason(self, duty: str) -> str:
        """Why ``duty`` is not judged, in words ("" where it is)."""
        return "" if self.judged(duty) else self._reasons[duty]

    def none(self, duty: str, words: str) -> str:
        """The one helper of a statement of "none", "no" or 0 (contract 8.6): ``words`` where the rules judge
        ``duty``, else why they do not ("not judged: the rules of X state no ...")."""
        return words if self.judged(duty) else self.reason(duty)

    def count(self, duty: str, n: int | float | None, shown: str | None = None) -> str:
        """A count as a page shows it: ``shown`` (else the number) where it is more than 0 or the rules judge
        ``duty``; "not judged" in place of a 0 they do not judge."""
        if n is None or (not n and not self.judged(duty)):
            return "not judged"
        return shown if shown is not None else f"{n:,}"

    def reasons(self, duties: Iterable[str]) -> str:
        """Why the ``duties`` not judged are not, in one sentence ("" when all are): "not judged: the rules of
        X state no discharge limits or definition of a slug discharge"."""
        said: dict[str, list[str]] = {}
        for duty in dict.fromkeys(duties):
            if self.judged(duty):
                continue
            whose, _, what = self.reason(duty).removeprefix(NOT_JUDGED).partition(" state no ")
            said.setdefault(whose, []).append(what)
        return "; ".join(
            f"{NOT_JUDGED}{whose} state no {_names(whats, 'or')}" for whose, whats in said.items()
        )

    def unjudged(self) -> dict[str, str]:
        """Every duty not judged, with its reason."""
        return dict(self._reasons)

    def __repr__(self) -> str:
        return f"Judged({self._reasons!r})"
