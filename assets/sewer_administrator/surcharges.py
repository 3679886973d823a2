"""The surcharges of wastes stronger than the limits, per industrial user, month and parameter.

- ``surcharges`` (+ ``surcharge_samples``): the pounds above the limit of each surcharged parameter in a
  month, and the amount at the rate per pound adopted for it (none adopted: the pounds, and no amount).

Numbers and citations come from the town's rules (section ``surcharge`` and the readings
``surcharge_*`` of ``readings_enforcement``), each in the version in effect on the month's first day;
the arithmetic is ``outfall/law/surcharges.py``. What no version covers is written to ``not_judged``.
"""

import datetime as dt
from collections import defaultdict
from decimal import Decimal

import duckdb
from dagster import MaterializeResult, MetadataValue
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, table_asset, table_result
from assets.sewer_administrator.enforcement import Dated, _built, _counts, _records
from outfall.law import enforcement as law, surcharges as sur
from outfall.law.discharge import nondetect_value
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.rules.tables import NotJudged, not_in_effect
from outfall.rules.words import DESCRIBE


def _part2_limit(rules: Rules, parameter: str, day: dt.date) -> float | None:
    found = [
        lim
        for lim in (rules.discharge_limits.at(day) if rules.discharge_limits else ())
        if lim.parameter.lower() == parameter.lower() and lim.limit_type == "max"
    ]
    return min(lim.value for lim in found) if found else None


NO_RATE_ADOPTED = (
    "no rate per pound adopted by the Town Board (the sewer use law leaves it to the Board): "
    "pounds reported, no amount charged"
)


def _policy(on: Dated, parameter: str, day: dt.date) -> str | None:
    """The non-detect averaging policy of ``parameter`` in effect on ``day`` (None: none is)."""
    version = on.versions("nondetect_averaging").get(day)
    return None if version is None else version.by_parameter.get(parameter, version.default)


def build_surcharges(
    con: duckdb.DuckDBPyConnection, on: Dated, as_of: dt.date
) -> tuple[list[dict], list[dict]]:
    """Surcharge pounds per user, month and parameter, each month by the rules in effect on its first day
    (method, Part 2 limit, adopted rate) and each result by the non-detect policy of its own day."""
    rules = on.rules
    methods = on.versions("surcharge.method")
    surcharged = sorted(
        {p for m in methods for p in m.parameters}
    )  # the results worth reading, every version
    users = {u["user_id"]: u for u in _records(con, "select_surcharge_users")}
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in _records(con, "select_surcharge_results", {"parameters": surcharged, "as_of": as_of}):
        groups[(r["user_id"], r["month"], r["parameter"])].append(r)
    # Flow is read only for the users and months that have results worth a surcharge (one scan).
    wanted = sorted({(user_id, month) for user_id, month, _ in groups})
    flows = (
        {
            (f["user_id"], f["month"]): f
            for f in _records(
                con,
                "select_monthly_flow",
                {"as_of": as_of, "user_ids": [u for u, _ in wanted], "months": [m for _, m in wanted]},
            )
        }
        if wanted
        else {}
    )
    surcharges, samples = [], []
    for (user_id, month, parameter), results in sorted(groups.items()):
        period_start, period_end = law.month_bounds(month)
        subject = f"{parameter} surcharge of {user_id} for {period_start:%B %Y}"
        found = on.each(
            (
                "surcharge.method",
                "readings_enforcement.surcharge_flow",
                "readings_enforcement.surcharge_concentration",
            ),
            period_start,
            subject,
        )
        if found is None or parameter not in found[0].parameters:
            continue
        method, flow_reading, conc_reading = found
        limit = _part2_limit(rules, parameter, period_start)
        if limit is None:
            on.missing.append(
                NotJudged(
                    subject,
                    period_start,
                    "discharge_limits",
                    not_in_effect(
                        f"Part 2 maximum limit of {parameter}", period_start, rules.discharge_limits or ()
                    ),
                )
            )
            continue
        # The Town Board's rate in effect in the month; none adopted: pounds without an amount.
        adopted = rules.surcharge.rate(parameter, period_start)
        policies = [_policy(on, parameter, r["collected_date"]) for r in results]
        conc, used = sur.month_concentration(
            [(r["sample_type"], r["value"], bool(r["nondetect"]), p) for r, p in zip(results, policies)]
        )
        if conc is None and any(bool(results[i]["nondetect"]) and policies[i] is None for i in used):
            on.get("nondetect_averaging", min(results[i]["collected_date"] for i in used), subject)
        f = flows.get((user_id, month))
        user = users.get(user_id) or {}
        mean_gpm, readings = None, 0
        if f is not None:
            readings = int(f["readings"])
            mean_gpm = (f["integral_gpm_s"] / f["covered_s"]) if f["covered_s"] else f["mean_gpm"]
            flow_mg, source = (
                sur.meter_volume_mg(mean_gpm, law.month_minutes(period_start, rules.timezone)),
                "meter",
            )
        elif user.get("normal_avg_flow_gpd") is not None:
            flow_mg = sur.permit_volume_mg(user["normal_avg_flow_gpd"], (period_end - period_start).days + 1)
            source = "permit"
        else:
            flow_mg, source = None, "none"
        pounds = sur.surcharge_pounds(flow_mg, conc, limit, method.lbs_per_mg_per_mgl)
        used_rows = [(results[i], policies[i]) for i in used]
        rule = (
            f"{method.citation}; pounds = flow (MG) x {method.lbs_per_mg_per_mgl} x (concentration - limit); "
            f"{flow_reading.citation}"
        )
        surcharges.append(
            {
                "user_id": user_id,
                "name": user.get("name"),
                "period_start": period_start,
                "period_end": period_end,
                "parameter": parameter,
                "samples": len(used_rows),
                "nondetects": sum(1 for r, _ in used_rows if r["nondetect"]),
                "sample_type": ", ".join(sorted({str(r["sample_type"]) for r, _ in used_rows})),
                "concentration_mgl": conc,
                "limit_mgl": limit,
                "excess_mgl": None if conc is None else max(0.0, conc - limit),
                "flow_mg": flow_mg,
                "flow_source": source,
                "flow_readings": readings,
                "flow_mean_gpm": mean_gpm,
                "pounds": pounds,
                "rate_usd_per_lb": adopted.usd_per_lb if adopted else None,
                "amount_usd": sur.surcharge_amount(pounds, adopted.usd_per_lb) if adopted else None,
                "period_closed": period_end < as_of,
                "rule": f"{rule}; rate per pound adopted by {adopted.adopted_by}"
                if adopted
                else f"{rule}; {NO_RATE_ADOPTED}",
            }
        )
        for r, policy in used_rows:
            value_used = r["value"]
            if r["nondetect"] and r["value"] is not None:
                value_used = nondetect_value(r["value"], policy) if policy is not None else None
            samples.append(
                {
                    "user_id": user_id,
                    "period_start": period_start,
                    "parameter": parameter,
                    "sample_id": r["sample_id"],
                    "collected_at": r["collected_at"],
                    "collected_date": r["collected_date"],
                    "sample_type": r["sample_type"],
                    "value": r["value"],
                    "nondetect": bool(r["nondetect"]),
                    "value_used": value_used,
                    "unit": r["unit"],
                    "rule": conc_reading.citation,
                }
            )
    return surcharges, samples


@table_asset(GROUP_SEWER, deps=["lab_results", "flow", "industrial_users"], description=DESCRIBE.surcharges())
def surcharges(duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource) -> MaterializeResult:
    with _built(duckdb, settings, rules, build_surcharges, "surcharges", "surcharge_samples") as (
        con,
        as_of,
        built,
    ):
        rows, samples = built
        total = sum((r["amount_usd"] for r in rows if r["amount_usd"] is not None), Decimal("0"))
        return table_result(
            con,
            "surcharges",
            as_of=str(as_of),
            total_usd=float(total),
            by_flow_source=MetadataValue.json(_counts(rows, "flow_source")),
            samples_used=len(samples),
        )
