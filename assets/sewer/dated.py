"""The rules of a day and the scaffolding the sewer enforcement assets share: ``Dated`` (the versions
in effect on a day, with what no version covers as not judged), the enforcement rules checked once, the
letters folder, the build-and-replace transaction of a table asset, and the words of numbers and dates
their rows use. The assets are ``violations``, ``deadlines``, ``snc``, ``publication`` and ``grease``;
``enforcement`` names them all.
"""

import contextlib
import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from dagster_duckdb import DuckDBResource

from assets.common import letters_dir, warehouse
from assets.run import replace_judged
from outfall.law import enforcement as law
from outfall.law.calendar import BusinessCalendar, extended_due
from outfall.records import files_on_record
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules, Versions
from outfall.rules.implemented import IMPLEMENTED
from outfall.rules.tables import NotJudged, check_implemented, not_in_effect
from outfall.warehouse import transaction

# Readings of the enforcement law this code implements (rules section
# readings_enforcement); a rules file asking for another fails loudly.
IMPLEMENTED_READINGS: dict[str, Any] = IMPLEMENTED["readings_enforcement"]


def enforcement_rules(resource: RulesResource) -> Rules:
    """The town's rules, once checked to ask only for readings this code implements."""
    rules = resource.town_rules()
    check_implemented(rules, "readings_enforcement", IMPLEMENTED_READINGS)
    return rules


class Dated:
    """The rules of one day, asked by name (``on.get("snc")``, ``on.get("notices.slug_report")``,
    ``on.get("readings_enforcement.surcharge_flow")``); a part with no version in effect on the day is
    None, and ``missing`` lists it as something not judged, with the section and why."""

    WORDS = {
        "notices.sewer_correction": "period to correct a sewer violation",
        "penalties.sewer_use": "sewer use penalty",
        "sewer_enforcement": "sewer enforcement texts",
        "notices.periodic_report": "periodic report interval",
        "notices.accidental_statement": "accidental discharge statement period",
        "notices.self_monitoring": "self-monitoring notice and resampling periods",
        "notices.slug_report": "slug report period",
        "notices.permit_expiry_warning": "permit expiry policy",
        "snc": "significant noncompliance criteria",
        "surcharge.method": "surcharge method",
        "nondetect_averaging": "non-detect averaging policy",
        "grease_interceptors": "grease interceptor rules",
    }

    def __init__(self, rules: Rules):
        self.rules = rules
        self.missing: list[NotJudged] = []

    def versions(self, section: str) -> Any:
        value: Any = self.rules
        for name in section.split("."):
            value = getattr(value, name, None) if value is not None else None
        return Versions(()) if value is None else value  # a section the rules do not state: no version

    def get(self, section: str, day: dt.date, subject: str = "") -> Any:
        versions = self.versions(section)
        found = versions.get(day)
        if found is None and subject:
            what = self.WORDS.get(section, section.rsplit(".", 1)[-1].replace("_", " "))
            self.missing.append(NotJudged(subject, day, section, not_in_effect(what, day, versions)))
        return found

    def each(self, sections: tuple[str, ...], day: dt.date, subject: str) -> list[Any] | None:
        """The versions of ``sections`` in effect on ``day``; None (one thing not judged, for the first
        section missing) when any has none."""
        found = []
        for section in sections:
            version = self.get(section, day, subject)
            if version is None:
                return None
            found.append(version)
        return found


def letters_folder(duckdb: DuckDBResource, settings: OutfallSettings) -> Path | None:
    """``<dashboards>/letters/sewer`` (None for an in-memory warehouse)."""
    return letters_dir(duckdb, settings, "sewer")


@contextlib.contextmanager
def _built(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource, build: Callable, *tables: str
) -> Iterator[tuple]:
    """(connection, as-of day, what ``build(con, on, as_of)`` returned) once its rows (one list per table, the
    asset's own table first) have replaced the tables' rows, with what was not judged, in one transaction."""
    on = Dated(enforcement_rules(rules))
    as_of = settings.as_of_date()
    with warehouse(duckdb, as_of=as_of) as con:
        built = build(con, on, as_of)
        with transaction(con):
            replace_judged(con, on.missing, **dict(zip(tables, built if len(tables) > 1 else (built,))))
        yield con, as_of, built


def _on_record(con) -> set[str]:
    """The names of the files of the record, whatever day this run judges by (``files_on_record``)."""
    return {Path(f).name for f in files_on_record(con)}


def _remove_stale(folder: Path | None, prefix: str, keep: Iterable[str]) -> int:
    if folder is None or not folder.is_dir():
        return 0
    keep = set(keep)
    removed = 0
    for stale in folder.glob(f"{prefix}*.html"):
        if stale.name not in keep:
            stale.unlink()
            removed += 1
    return removed


def _num(value: float | None) -> str:
    if value is None:
        return "(no value)"
    text = f"{float(value):,.4f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _ratio(value: float | None) -> str:
    """A peak over its baseline as a reader writes it: one decimal ('9.9')."""
    return "(no value)" if value is None else f"{float(value):.1f}"


def _date_text(day: dt.date | None) -> str:
    return "" if day is None else f"{day:%B} {day.day}, {day.year}"


def _counts(rows: list[dict], key: str) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for r in rows:
        out[str(r.get(key))] += 1
    return dict(sorted(out.items()))


def obligation_period_end(rules: Rules, obligation: str, table: str = "obligations") -> law.PeriodEnd | None:
    """General Construction Law § 25-a for one kind of obligation (``table.obligation`` of the rules'
    deadline_extension periods), as the rules give it: a period that would end on a weekend or holiday ends
    on the next business day (None: the rules extend no such period)."""
    if rules.business_days is None or rules.deadline_extension is None:
        return None
    calendar = BusinessCalendar(rules.business_days)
    period = f"{table}.{obligation}"

    def end(day: dt.date) -> dt.date:
        if calendar.starts is None or day < calendar.starts:
            return day  # before the holiday rules begin, nothing is moved
        return extended_due(day, period, calendar, rules.deadline_extension)[0]  # type: ignore[arg-type]

    return end
