"""The rules of each jurisdiction (``rules/<jurisdiction>.yaml``), typed and dated.

Every limit, schedule, deadline and penalty the pipeline applies comes from
these files, one per jurisdiction, found by name in the rules folder
(``load_town(rules_dir)``: every jurisdiction, and the town running Outfall;
``outfall.rules.town``). ``load_rules(jurisdiction)`` reads and checks a file once and
returns a typed ``Rules`` (models in ``outfall.rules.models``); a bad file
raises ``RulesError`` with one line naming the file, the line, the entry's path
and what is wrong::

    rules/<town>.yaml, line 331: penalties.sewer_use[0].fine_max_usd: 'five hundred' is not an amount of money

A rule that can change by local law is a list of dated versions; ask for the
version in effect on the day of the violation, inspection or bill::

    town = load_town()                  # the town running Outfall and every jurisdiction
    town.of(site_jurisdiction).penalties.stormwater.at(violation_day).tier(offense).max_usd   # Decimal
    town.town.slug.at(reading_day).ratio

``.at(day)`` on a day no version covers raises RulesError naming the file, the
section and the day.

Commands (``python -m outfall.rules ...``): ``check`` (validate every file),
``schema`` (regenerate ``rules/schema.json``), ``docs`` (regenerate
``docs/rules.md``).

Where SQL applies a rule across many days (slugs, infiltration, statistic
limits), the asset writes the rule's dated versions as a small table and the
SQL joins each row to the version in effect on its day (``outfall.rules.tables``).
What no version covers is not judged, and said so (table ``not_judged``).

The old untyped access (``rules.raw``, ``.section(name)``, ``.has(name)``,
``.reading(name)``, ``_parse_limits``, ``raw_at``) is gone: it answered with
the version in effect today, which is wrong for a past violation. Its
replacements: ``rules.<section>.at(day).<key>`` (``.get(day)`` for None
instead of an error), ``rules.require(name)``, ``rules.<name> is not None``,
``rules.reading_at(group, name, day)``, ``rules.table_7_1.limits``,
``rules.discharge_limits.at(day)`` and ``rules.adopted_limit_groups()`` (the
limits left to a body), ``rules.surcharge.rate(parameter, day)``,
``rules.timezone``.

Money (penalties) is ``Decimal`` with at most 2 places; a surcharge rate is
``Decimal`` with at most 4. Dates are ``datetime.date``.
"""

from __future__ import annotations

from outfall.rules.dated import Dated, Entries, RulesError, Versions
from outfall.rules.loader import files_found, jurisdictions, load_all, load_rules, parse_rules
from outfall.rules.models import DischargeLimit, Rules, TownBoardLimit
from outfall.rules.town import TownRules, load_town, local_timezone, timezone_in_use

__all__ = [
    "Dated",
    "DischargeLimit",
    "Entries",
    "Rules",
    "RulesError",
    "TownBoardLimit",
    "TownRules",
    "Versions",
    "files_found",
    "jurisdictions",
    "load_all",
    "load_rules",
    "load_town",
    "local_timezone",
    "parse_rules",
    "timezone_in_use",
]
