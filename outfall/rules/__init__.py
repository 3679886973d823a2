"""The rules of each jurisdiction (``rules/<jurisdiction>.yaml``), typed and dated.

Every limit, schedule, deadline and penalty the pipeline applies comes from
these files. ``load_rules("woodbury")`` reads and checks a file once and
returns a typed ``Rules`` (models in ``outfall.rules.models``); a bad file
raises ``RulesError`` with one line naming the file, the line, the entry's path
and what is wrong::

    rules/bellport.yaml, line 108: penalties.stormwater[0].tiers[0].max_usd: 'five hundred' is not an amount of money

A rule that can change by local law is a list of dated versions; ask for the
version in effect on the day of the violation, inspection or bill::

    rules = load_rules("bellport")
    rules.penalties.stormwater.at(violation_day).tier(offense).max_usd   # Decimal
    load_rules("woodbury").slug.at(reading_day).ratio

``.at(day)`` on a day no version covers raises RulesError naming the file, the
section and the day.

Commands (``python -m outfall.rules ...``): ``check`` (validate every file),
``schema`` (regenerate ``rules/schema.json``), ``docs`` (regenerate
``docs/rules.md``).

Migration from the deprecated untyped access
--------------------------------------------
``Rules.raw``, ``Rules.section(name)``, ``Rules.has(name)``, ``Rules.reading(name)``
and ``outfall.rules._parse_limits`` still answer in the old shape, each
section in its version in effect *today* (``outfall.rules.legacy``). Replace
them with the typed access, passing the day the rule is applied to:

=====================================================================  ===============================================================
old access                                                             typed access
=====================================================================  ===============================================================
``rules.discharge_limits`` (every entry)                               ``rules.discharge_limits`` (the same ``DischargeLimit`` entries);
                                                                       in effect: ``rules.discharge_limits.at(day)``
``_parse_limits(rules.raw["table_7_1"]["limits"], where)``             ``rules.table_7_1.limits`` (checked at load); Part 2 and
                                                                       Table 7-1 together: ``rules.limits_at(day)``
``rules.section("slug")[k]``                                           ``rules.slug.at(day).k``
``rules.section("infiltration")[k]``                                   ``rules.infiltration.at(day).k``
``rules.section("sewer_units")["classes"][c]["method"]``               ``rules.sewer_units.at(day).classes[c].method``
``rules.section("billing")[k]``                                        ``rules.billing.at(day).k``
``rules.section("snc")[k]``                                            ``rules.snc.at(day).k``
``rules.section("nondetect_averaging")[k]``                            ``rules.nondetect_averaging.at(day).k``
``rules.raw.get("sewer_compliance")[k]``                               ``rules.sewer_compliance.at(day).k``
``rules.section("sewer_enforcement")["section_text"]["grease"]``       ``rules.sewer_enforcement.at(day).section_text.grease``
``rules.section("grease_interceptors")[k]``                            ``rules.grease_interceptors.at(day).k``
``notices["sewer_correction_max_days"]``, ``["sewer_correction_days"]``  ``rules.notices.sewer_correction.at(day).max_days``, ``.days``
``notices["citation_sewer_correction"]``                               ``rules.notices.sewer_correction.at(day).citation``
``notices["accidental_discharge_statement_days"]``                     ``rules.notices.accidental_statement.at(day).days``
``notices["periodic_report_max_months"]``                              ``rules.notices.periodic_report.at(day).max_months``
``notices["self_monitoring_notice_hours"]``, ``["resample_days"]``     ``rules.notices.self_monitoring.at(day).notice_hours``, ``.resample_days``
``notices["slug_report_days"]``                                        ``rules.notices.slug_report.at(day).days``
``notices["permit_expiry_warning_days"]``                              ``rules.notices.permit_expiry_warning.at(day).days``
``notices["citation_<x>"]``                                            ``.citation`` of the part above
``rules.raw["penalties"]["stormwater"]``                               ``rules.penalties.stormwater.at(day)`` (``.tier(offense)``, ``.per``)
``rules.section("penalties")["sewer_use"]``                            ``rules.penalties.sewer_use.at(day)``
``surcharge["lbs_per_mg_per_mgl"]``, ``["parameters"]``                ``rules.surcharge.method.at(day).lbs_per_mg_per_mgl``, ``.parameters``
``surcharge["rate_usd_per_lb"][p]``                                    ``rules.surcharge.rate(p, day)``: ``.usd_per_lb``, ``.adopted_by``;
                                                                       None = no rate adopted
``swppp["applicability"]``                                             ``rules.swppp.applicability.at(day)`` (``.rule``)
``swppp["weekly_interval_days"]``, ``["inspector"]``,                  ``rules.swppp.weekly_inspection.at(day).interval_days``,
``["reports_delivered_weekly"]``, ``["citation_weekly"]``              ``.inspector``, ``.reports_delivered_weekly``, ``.citation``
``swppp["storm_threshold_in"]``, ``["storm_window_days"]``,            ``rules.swppp.storm_inspection.at(day).threshold_in``,
``["citation_storm"]``                                                 ``.window_days``, ``.citation``
``swppp["max_disturbed_acres_without_swppp_approval"]``                ``rules.swppp.disturbance_limit.at(day).max_acres_without_approval``
``swppp["sediment_cleanout_pct"]``                                     ``rules.swppp.sediment_cleanout.at(day).capacity_lost_pct``
``swppp["milestone_notice_hours"]``                                    ``rules.swppp.milestone_notice.at(day).hours``
``swppp["appeal_days"]``                                               ``rules.swppp.appeal.at(day).days``
``swppp["citation_disturbance" | "citation_sediment" |                 ``.citation`` of the part above
"citation_milestone" | "citation_appeal"]``
``swppp[part]`` for land_development_activity, conditions,             ``rules.swppp.<part>.at(day)`` (``conditions`` and
exemptions, report_delivery, milestones, contractor_certification,     ``report_delivery`` are None where the jurisdiction has none)
notice_of_violation, stop_work_order, convictions, remedial_days,
section_text
``rules.reading(name)``, ``raw["readings"][name]["value"]``            ``rules.readings.<name>.at(day).value`` or
                                                                       ``rules.reading_at("readings", name, day)``
``raw["readings_enforcement"][name]["value" | "citation"]``            ``rules.readings_enforcement.<name>.at(day).value`` / ``.citation``
``raw["readings_sewer_compliance"][name]["value"]``                    ``rules.readings_sewer_compliance.<name>.at(day).value``
``rules.raw.get("timezone")``                                          ``rules.timezone``
``rules.has(name)``                                                    ``rules.<name> is not None``
``rules.section(name)`` raising when absent                            ``rules.require(name)``
=====================================================================  ===============================================================

Money (penalties) is ``Decimal`` with at most 2 places; a surcharge rate is
``Decimal`` with at most 4. Dates are ``datetime.date``.
"""

from __future__ import annotations

from outfall.rules.dated import Dated, Entries, RulesError, Versions
from outfall.rules.loader import load_all, load_rules, parse_rules
from outfall.rules.models import DischargeLimit, Rules, TownBoardLimit

__all__ = ["Dated", "DischargeLimit", "Entries", "Rules", "RulesError", "TownBoardLimit", "Versions",
           "load_all", "load_rules", "parse_rules"]


def _parse_limits(raw: list, where: str) -> tuple[DischargeLimit, ...]:
    """Deprecated: limits from the old dictionaries (``rules.raw["table_7_1"]["limits"]``).

    Typed: ``rules.table_7_1.limits`` (checked when the file is loaded)."""
    from pydantic import TypeAdapter, ValidationError

    from outfall.rules.loader import _first_error

    try:
        return tuple(TypeAdapter(list[TownBoardLimit]).validate_python(list(raw or [])))
    except ValidationError as exc:
        raise _first_error(exc, list(raw or []), {}, where) from None
