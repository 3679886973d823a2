"""The surcharges of wastes stronger than normal sewage, per industrial user, month and parameter.

- ``surcharges`` (+ ``surcharge_samples``): the pounds above the surcharge threshold (or, where the rules
  state none, the limit) of each surcharged parameter in a month, and the amount at the rate per pound
  adopted for it (none adopted: the pounds, and no amount; set elsewhere: the pounds, and where the rate
  is set); per volume, per strength and by flow (gallons a day over a threshold) where the rules say so.
  Each amount is rounded to the cent once, after the factor of a user's attribute.

Numbers and citations come from the town's rules (section ``surcharge`` and the readings
``surcharge_*`` of ``readings_enforcement``), each in the version in effect on the month's first day;
the arithmetic is ``outfall/law/surcharges.py``. What no version covers is written to ``not_judged``.
"""

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from typing import Any

import duckdb
from dagster import MaterializeResult, MetadataValue
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, table_asset, table_result
from assets.sewer.dated import Dated, _built, _counts
from outfall.law import enforcement as law, surcharges as sur
from outfall.law.discharge import nondetect_value
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.rules.amounts import SetElsewhere, amount as stated_amount
from outfall.rules.tables import NotJudged, not_in_effect
from outfall.rules.words import DESCRIBE
from outfall.warehouse import records


def _limit(rules: Rules, parameter: str, day: dt.date) -> float | None:
    """The jurisdiction's maximum limit of ``parameter`` in effect on ``day`` (the strictest of several)."""
    found = [
        lim
        for lim in (rules.discharge_limits.at(day) if rules.discharge_limits else ())
        if lim.parameter.lower() == parameter.lower() and lim.limit_type == "max"
    ]
    return min(lim.value for lim in found) if found else None


def _threshold(rules: Rules, parameter: str, day: dt.date) -> tuple[float | None, str]:
    """(the concentration a surcharge by the pound counts from, what it is): the surcharge threshold the
    rules state for ``parameter`` on ``day`` ("surcharge threshold"), else its maximum limit ("limit")."""
    stated = rules.surcharge.threshold(parameter, day) if rules.surcharge is not None else None
    if stated is not None:
        return stated.value, "surcharge threshold"
    return _limit(rules, parameter, day), "limit"


def _rate_words(usd: Any) -> str:
    """'$0.49', or 'set by Appendix B, Table F' (a rate the law sets in another document)."""
    return usd.words() if isinstance(usd, SetElsewhere) else f"${usd}"


#: What a surcharge by the pound says where no rate is adopted, when the rules do not say it themselves.
NO_RATE_ADOPTED = "no rate per pound adopted: pounds reported, no amount charged"
FLOW_PARTS = ("readings_enforcement.surcharge_flow", "readings_enforcement.surcharge_concentration")


def _policy(on: Dated, parameter: str, day: dt.date) -> str | None:
    """The non-detect averaging policy of ``parameter`` in effect on ``day`` (None: none is)."""
    version = on.versions("nondetect_averaging").get(day)
    return None if version is None else version.by_parameter.get(parameter, version.default)


class _Month:
    """What the surcharges of one user and month read: the volume and where it comes from."""

    def __init__(self, flow: dict | None, user: dict, start: dt.date, end: dt.date, tz: str):
        self.readings, self.mean_gpm = 0, None
        if flow is not None:
            self.readings = int(flow["readings"])
            covered = flow["covered_s"]
            self.mean_gpm = (flow["integral_gpm_s"] / covered) if covered else flow["mean_gpm"]
            self.flow_mg = sur.meter_volume_mg(self.mean_gpm, law.month_minutes(start, tz))
            self.source = "meter"
        elif user.get("normal_avg_flow_gpd") is not None:
            self.flow_mg = sur.permit_volume_mg(user["normal_avg_flow_gpd"], (end - start).days + 1)
            self.source = "permit"
        else:
            self.flow_mg, self.source = None, "none"

    def columns(self) -> dict:
        return {
            "flow_mg": self.flow_mg,
            "flow_source": self.source,
            "flow_readings": self.readings,
            "flow_mean_gpm": self.mean_gpm,
        }


#: Every column of a surcharges row a kind of surcharge may leave empty.
_EMPTY = dict.fromkeys(
    (
        "parameter",
        "samples",
        "nondetects",
        "sample_type",
        "concentration_mgl",
        "limit_mgl",
        "excess_mgl",
        "pounds",
        "rate_usd_per_lb",
        "base_amount_usd",
        "multiplier",
        "threshold_kind",
        "amount_set_by",
        "average_gpd",
        "gallons_charged",
    )
)


def _base_row(user_id: str, user: dict, start: dt.date, end: dt.date, as_of: dt.date) -> dict:
    return {
        **_EMPTY,
        "user_id": user_id,
        "name": user.get("name"),
        "period_start": start,
        "period_end": end,
        "period_closed": end < as_of,
        "outside_limits": user.get("outside_limits"),
    }


def _sample_rows(user_id: str, start: dt.date, parameter: str, used: list, citation: str) -> list[dict]:
    out = []
    for r, policy in used:
        value_used = r["value"]
        if r["nondetect"] and r["value"] is not None:
            value_used = nondetect_value(r["value"], policy) if policy is not None else None
        out.append(
            {
                "user_id": user_id,
                "period_start": start,
                "parameter": parameter,
                "sample_id": r["sample_id"],
                "collected_at": r["collected_at"],
                "collected_date": r["collected_date"],
                "sample_type": r["sample_type"],
                "value": r["value"],
                "nondetect": bool(r["nondetect"]),
                "value_used": value_used,
                "unit": r["unit"],
                "rule": citation,
            }
        )
    return out


class _Build:
    """The surcharges of a run: every user, month and parameter, by the rules of the month's first day."""

    def __init__(self, con: duckdb.DuckDBPyConnection, on: Dated, as_of: dt.date):
        self.con, self.on, self.as_of = con, on, as_of
        self.rules = on.rules
        self.sc = self.rules.surcharge
        self.users = {u["user_id"]: u for u in records(con, "select_surcharge_users")}
        self.rows: list[dict] = []
        self.samples: list[dict] = []
        self.unpermitted: set[str] = set()

    def permitted(self, user_id: str, day: dt.date) -> bool:
        """False for a user the rules surcharge only where its permit sets it, whose permit does not."""
        if self.sc is None or self.sc.needs_permit(day) is None:
            return True
        if (self.users.get(user_id) or {}).get("permit_sets_surcharge"):
            return True
        self.unpermitted.add(user_id)
        return False

    def flows(self, wanted: set[tuple[str, dt.date]]) -> dict:
        """Flow is read only for the users and months asked for (one scan)."""
        if not wanted:
            return {}
        pairs = sorted(wanted)
        params = {"as_of": self.as_of, "user_ids": [u for u, _ in pairs], "months": [m for _, m in pairs]}
        return {(f["user_id"], f["month"]): f for f in records(self.con, "select_monthly_flow", params)}

    def month(self, flows: dict, user_id: str, month: dt.date) -> tuple[_Month, dt.date, dt.date]:
        start, end = law.month_bounds(month)
        user = self.users.get(user_id) or {}
        return _Month(flows.get((user_id, month)), user, start, end, self.rules.timezone), start, end

    def concentration(self, results: list[dict], parameter: str, subject: str) -> tuple:
        policies = [_policy(self.on, parameter, r["collected_date"]) for r in results]
        conc, used = sur.month_concentration(
            [(r["sample_type"], r["value"], bool(r["nondetect"]), p) for r, p in zip(results, policies)]
        )
        if conc is None and any(bool(results[i]["nondetect"]) and policies[i] is None for i in used):
            self.on.get("nondetect_averaging", min(results[i]["collected_date"] for i in used), subject)
        return conc, [(results[i], policies[i]) for i in used]

    def run(self) -> tuple[list[dict], list[dict]]:
        if self.sc is None:
            return [], []
        methods = self.on.versions("surcharge.method")
        by_pound = {p.lower() for m in methods for p in m.parameters}
        by_strength = {e.parameter.lower() for e in self.sc.per_strength or ()}
        groups: dict[tuple, list[dict]] = defaultdict(list)
        params = {"parameters": sorted(by_pound | by_strength), "as_of": self.as_of}
        for r in records(self.con, "select_surcharge_results", params):
            groups[(r["user_id"], r["month"], r["parameter"])].append(r)
        volume_months = self.volume_months()
        flow_months = self.flow_months()
        flows = self.flows({(u, m) for u, m, _ in groups} | volume_months | flow_months)
        for (user_id, month, parameter), results in sorted(groups.items()):
            if self.permitted(user_id, month):
                self.pounds(flows, user_id, month, parameter, results)
                self.strength(flows, user_id, month, parameter, results)
        self.volume(flows, volume_months)
        self.flow(flows, flow_months)
        for row in self.rows:
            self.multiply(row)
        return self.rows, self.samples

    def pounds(self, flows: dict, user_id: str, month: dt.date, parameter: str, results: list[dict]) -> None:
        """The pounds above the threshold (or limit) of one parameter in one month, at the rate adopted
        for it (or set elsewhere)."""
        m, start, end = self.month(flows, user_id, month)
        subject = f"{parameter} surcharge of {user_id} for {start:%B %Y}"
        found = self.on.each(("surcharge.method", *FLOW_PARTS), start, subject)
        if found is None or parameter.lower() not in {p.lower() for p in found[0].parameters}:
            return
        method, flow_reading, conc_reading = found
        threshold, kind = _threshold(self.rules, parameter, start)
        if threshold is None:
            stated = self.sc.thresholds is not None
            what = f"{'surcharge threshold or ' if stated else ''}maximum limit of {parameter}"
            entries = (
                self.rules.discharge_limits
                if not stated
                else (*self.sc.thresholds, *(self.rules.discharge_limits or ()))
            )
            self.on.missing.append(
                NotJudged(subject, start, "discharge_limits", not_in_effect(what, start, entries))
            )
            return
        adopted = self.sc.rate(parameter, start)  # none adopted: pounds without an amount
        conc, used = self.concentration(results, parameter, subject)
        volume = sur.volume_in(m.flow_mg, method.unit)
        pounds = sur.surcharge_pounds(volume, conc, threshold, method.factor)
        volume_words = (
            "flow (MG)" if method.unit == "million_gallons" else f"volume ({method.unit.replace('_', ' ')})"
        )
        rule = (
            f"{method.citation}; pounds = {volume_words} x {method.factor:g} x (concentration - {kind}); "
            f"{flow_reading.citation}"
        )
        usd = stated_amount(adopted.usd_per_lb) if adopted else None
        if adopted is None:
            rule += f"; {self.sc.no_rate or NO_RATE_ADOPTED}"
        elif usd is None:
            rule += (
                f"; rate per pound {_rate_words(adopted.usd_per_lb)}: pounds reported, amount not computed"
            )
        else:
            rule += f"; rate per pound adopted by {adopted.adopted_by}"
        self.rows.append(
            {
                **_base_row(user_id, self.users.get(user_id) or {}, start, end, self.as_of),
                **_concentration_columns(parameter, used, conc, threshold),
                **m.columns(),
                "kind": "pounds",
                "pounds": pounds,
                "threshold_kind": kind,
                "rate_usd_per_lb": usd,
                "amount_set_by": adopted.usd_per_lb.words() if adopted and usd is None else None,
                "_exact": sur.pounds_amount_exact(pounds, usd) if usd is not None else None,
                "rule": rule,
            }
        )
        self.samples += _sample_rows(user_id, start, parameter, used, conc_reading.citation)

    def strength(
        self, flows: dict, user_id: str, month: dt.date, parameter: str, results: list[dict]
    ) -> None:
        """A surcharge per volume for each mg/L of one parameter above a strength, in one month."""
        m, start, end = self.month(flows, user_id, month)
        entry = self.sc.per_strength.find(start, parameter) if self.sc.per_strength else None
        subject = f"{parameter} strength surcharge of {user_id} for {start:%B %Y}"
        found = self.on.each(FLOW_PARTS, start, subject) if entry is not None else None
        if found is None:
            return
        conc, used = self.concentration(results, parameter, subject)
        steps = f"(concentration - {entry.above_mgl:g}) / {entry.per_mgl:g} mg/L"
        adopted = f"; rate adopted by {entry.adopted_by}" if entry.adopted_by else ""
        usd = stated_amount(entry.usd)
        self.rows.append(
            {
                **_base_row(user_id, self.users.get(user_id) or {}, start, end, self.as_of),
                **_concentration_columns(parameter, used, conc, entry.above_mgl),
                **m.columns(),
                "kind": "strength",
                "amount_set_by": entry.usd.words() if usd is None else None,
                "_exact": None
                if usd is None
                else sur.strength_surcharge_exact(
                    m.flow_mg, conc, entry.above_mgl, usd, entry.per_gallons, entry.per_mgl
                ),
                "rule": f"{entry.citation}; amount = volume / {entry.per_gallons:g} gallons x {steps} x "
                f"{_rate_words(entry.usd)}{adopted}; {found[0].citation}",
            }
        )
        if parameter.lower() not in {
            p.lower() for v in self.on.versions("surcharge.method") for p in v.parameters
        }:
            self.samples += _sample_rows(user_id, start, parameter, used, found[1].citation)

    def volume_months(self) -> set[tuple[str, dt.date]]:
        """The users and months with flow readings a surcharge per volume is charged for; a version that
        does not say whose discharge it is charged on is not charged, and said once."""
        if self.sc is None or not self.sc.per_volume:
            return set()
        out, unsaid = set(), {}
        for user_id, month in (
            (r["user_id"], r["month"]) for r in records(self.con, "select_flow_months", {"as_of": self.as_of})
        ):
            version = self.sc.per_volume.get(month)
            if version is None:
                continue
            if version.applies_to is None:
                unsaid.setdefault(version.starts, (version, month))
            else:
                out.add((user_id, month))
        for version, month in unsaid.values():
            self.on.missing.append(
                NotJudged(
                    "the surcharge per volume of discharge",
                    month,
                    "surcharge.per_volume",
                    f"not charged: the rules give its rate ({version.citation}) but not whose discharge it "
                    "is charged on (the law they were written from does not say)",
                )
            )
        return out

    def flow_months(self) -> set[tuple[str, dt.date]]:
        """The users and months with flow readings, or with a permit flow, a flow surcharge is judged for."""
        if self.sc is None or not self.sc.per_flow:
            return set()
        metered = {
            (r["user_id"], r["month"]) for r in records(self.con, "select_flow_months", {"as_of": self.as_of})
        }
        return {(u, m) for u, m in metered if self.sc.per_flow.get(m) is not None}

    def volume(self, flows: dict, months: set[tuple[str, dt.date]]) -> None:
        """A surcharge per volume of discharge, per user and month."""
        charged = {(r["user_id"], r["period_start"]) for r in self.rows if r.get("_exact")}
        for user_id, month in sorted(months):
            m, start, end = self.month(flows, user_id, month)
            version = self.sc.per_volume.at(start)
            if version.applies_to == "surcharged_users" and (user_id, start) not in charged:
                continue
            if not self.permitted(user_id, start):
                continue
            adopted = f"; rate adopted by {version.adopted_by}" if version.adopted_by else ""
            usd = stated_amount(version.usd)
            self.rows.append(
                {
                    **_base_row(user_id, self.users.get(user_id) or {}, start, end, self.as_of),
                    **m.columns(),
                    "kind": "volume",
                    "amount_set_by": version.usd.words() if usd is None else None,
                    "_exact": None
                    if usd is None
                    else sur.volume_surcharge_exact(m.flow_mg, usd, version.per_gallons),
                    "rule": f"{version.citation}; amount = volume / {version.per_gallons:g} gallons x "
                    f"{_rate_words(version.usd)}{adopted}",
                }
            )

    def flow(self, flows: dict, months: set[tuple[str, dt.date]]) -> None:
        """A surcharge of the users whose month averages more than so many gallons a day."""
        for user_id, month in sorted(months):
            m, start, end = self.month(flows, user_id, month)
            version = self.sc.per_flow.get(start) if self.sc.per_flow else None
            subject = f"flow surcharge of {user_id} for {start:%B %Y}"
            if version is None or self.on.each(FLOW_PARTS[:1], start, subject) is None:
                continue
            if not self.permitted(user_id, start):
                continue
            days = (end - start).days + 1
            average, gallons = sur.flow_gallons_charged(
                m.flow_mg, days, version.above_gpd, version.charged_on
            )
            if average is None:
                self.on.missing.append(
                    NotJudged(
                        subject,
                        start,
                        "surcharge.per_flow",
                        "not judged: the month has no flow reading and the permit gives no normal flow",
                    )
                )
                continue
            if not gallons:
                continue  # at or under the threshold: no flow surcharge
            usd = stated_amount(version.usd)
            on = (
                "the gallons over" if version.charged_on == "gallons_over" else "every gallon of a month over"
            )
            adopted = f"; rate adopted by {version.adopted_by}" if version.adopted_by else ""
            self.rows.append(
                {
                    **_base_row(user_id, self.users.get(user_id) or {}, start, end, self.as_of),
                    **m.columns(),
                    "kind": "flow",
                    "average_gpd": average,
                    "gallons_charged": gallons,
                    "amount_set_by": version.usd.words() if usd is None else None,
                    "_exact": None
                    if usd is None
                    else sur.flow_surcharge_exact(gallons, usd, version.per_gallons),
                    "rule": f"{version.citation}; charged on {on} {version.above_gpd:g} gallons a day "
                    f"(average {average:,.0f} gallons a day over {days} days): amount = gallons / "
                    f"{version.per_gallons:g} x {_rate_words(version.usd)}{adopted}",
                }
            )

    def multiply(self, row: dict) -> None:
        """The amount, rounded to the cent once: after the factor of the user's attribute (outside the
        corporate limits) where one applies, never before it and again after it."""
        exact = row.pop("_exact", None)
        row["amount_usd"] = sur.multiplied(exact, None)
        factor = self.sc.multiplier(row.get("outside_limits"), row["period_start"])
        if factor is None or exact is None:
            return
        row["base_amount_usd"] = sur.cents(exact)
        row["multiplier"] = factor.factor
        row["amount_usd"] = sur.multiplied(exact, factor.factor)
        row["rule"] += f"; x {factor.factor} ({factor.citation})"


def _concentration_columns(parameter: str, used: list, conc: float | None, limit: float) -> dict:
    return {
        "parameter": parameter,
        "samples": len(used),
        "nondetects": sum(1 for r, _ in used if r["nondetect"]),
        "sample_type": ", ".join(sorted({str(r["sample_type"]) for r, _ in used})),
        "concentration_mgl": conc,
        "limit_mgl": limit,
        "excess_mgl": None if conc is None else max(0.0, conc - limit),
    }


def build_surcharges(
    con: duckdb.DuckDBPyConnection, on: Dated, as_of: dt.date
) -> tuple[list[dict], list[dict]]:
    """Surcharges per user, month and parameter (by the pound, per strength) and per volume, each month by
    the rules in effect on its first day and each result by the non-detect policy of its own day."""
    return _Build(con, on, as_of).run()


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
