"""The clerk's sewer charges by the volume of water used (rules ``volume_charges``).

- ``volume_charges``: one row per premises and billing period of the input folder ``water_use``: the
  volume used in the unit the rates are per, times the rate in effect on the period's first day for
  premises inside or outside the corporate limits (or the period's least charge when that is more); a
  flat charge for unmetered premises; plus each fixed charge by water meter size (a capital charge) in
  effect then. Each row explains its lines and cites their sections.

A period no rate covers, a metered period without a volume, a meter size the schedules need and the
parcels do not give: not charged by guess, listed in ``not_judged`` with the reason. The arithmetic is
``outfall/law/charges.py``.
"""

import datetime as dt
from decimal import Decimal
from typing import Any

import duckdb
from dagster import MaterializeResult
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_BILLING, table_asset, table_result, warehouse
from assets.run import replace_judged
from outfall.law import charges as law
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import Rules
from outfall.rules.tables import NotJudged, not_in_effect
from outfall.warehouse import sql, transaction


class Unbilled(Exception):
    """A period that cannot be charged as the data stand: the reason, in words."""

    def __init__(self, section: str, reason: str):
        super().__init__(reason)
        self.section, self.reason = section, reason


def _premises(outside: bool) -> str:
    return "premises outside the corporate limits" if outside else "premises inside the corporate limits"


def _metered(vc: Any, use: dict, day: dt.date) -> tuple[dict, list[str], list[str]]:
    rate = vc.rate(day, use["outside_limits"])
    if rate is None:
        what = f"rate per volume for {_premises(use['outside_limits'])}"
        raise Unbilled("volume_charges.rates", not_in_effect(what, day, vc.rates))
    if use["volume"] is None:
        raise Unbilled(
            "water_use", "not charged: the period has no volume read, and the premises are metered"
        )
    minimum, minimum_words = rate.minimum_usd, ""
    if rate.minimum_by_meter:
        minimum, minimum_words = law.meter_amount(rate.minimum_by_meter, use["meter_size_in"])
        if minimum is None:
            raise Unbilled(
                "parcels", f"not charged: the least charge goes by meter size, and {minimum_words}"
            )
    c = law.volume_charge(use["volume"], use["unit"], vc.unit, rate.usd_per_unit, minimum)
    said = f"{law.volume_words(c.billed_volume, vc.unit)} x ${rate.usd_per_unit} = ${c.volume_usd}"
    if c.minimum_applied:
        by_meter = f" ({minimum_words})" if minimum_words else ""
        said += f", less than the least charge of the period, ${c.minimum_usd}{by_meter}"
    row = {
        "billed_volume": float(c.billed_volume),
        "usd_per_unit": rate.usd_per_unit,
        "volume_usd": c.volume_usd,
        "minimum_usd": c.minimum_usd,
        "minimum_applied": c.minimum_applied,
        "charge": c.charge_usd,
    }
    return row, [said], [rate.citation]


def _unmetered(vc: Any, use: dict, day: dt.date) -> tuple[dict, list[str], list[str]]:
    flat = vc.flat(day, use["outside_limits"])
    if flat is None:
        what = f"flat charge for unmetered {_premises(use['outside_limits'])}"
        raise Unbilled("volume_charges.unmetered", not_in_effect(what, day, vc.unmetered or ()))
    return {"flat_usd": flat.usd, "charge": Decimal(flat.usd)}, [f"unmetered: ${flat.usd}"], [flat.citation]


def _fixed(vc: Any, use: dict, day: dt.date) -> tuple[Decimal, list[str], list[str]]:
    total, said, cited = Decimal("0.00"), [], []
    for charge in vc.fixed_charges(day, use["outside_limits"]):
        amount, words = law.meter_amount(charge.by_meter_size, use["meter_size_in"])
        if amount is None:
            raise Unbilled("parcels", f"not charged: the {charge.name} goes by meter size, and {words}")
        total += amount
        said.append(f"{charge.name}, {words}: ${law.cents(amount)}")
        cited.append(charge.citation)
    return law.cents(total), said, cited


def charge_row(rules: Rules, use: dict) -> dict:
    """The charges of one premises' billing period; Unbilled when it cannot be charged as the data stand."""
    vc, day = rules.volume_charges, use["period_start"]
    part = _metered if use["metered"] else _unmetered
    row, said, cited = part(vc, use, day)
    fixed, fixed_said, fixed_cited = _fixed(vc, use, day)
    charge = row.pop("charge")
    return {
        **dict.fromkeys(
            ("billed_volume", "usd_per_unit", "volume_usd", "minimum_usd", "minimum_applied", "flat_usd")
        ),
        **{k: use[k] for k in ("parcel_id", "period_start", "period_end", "outside_limits", "metered")},
        **{k: use[k] for k in ("meter_size_in", "volume", "unit")},
        **row,
        "rate_unit": vc.unit,
        "fixed_usd": fixed,
        "total_usd": law.cents(charge + fixed),
        "explanation": "; ".join([*said, *fixed_said]),
        "rule": "; ".join(dict.fromkeys([vc.citation, *cited, *fixed_cited])),
    }


def build_volume_charges(con: duckdb.DuckDBPyConnection, rules: Rules) -> tuple[list[dict], list[NotJudged]]:
    cursor = con.execute(sql("select_water_use_charged"))
    cursor_names = [d[0] for d in cursor.description]
    uses = cursor.fetchall()
    rows, not_judged = [], []
    for values in uses:
        use = dict(zip(cursor_names, values))
        subject = f"sewer charge of {use['parcel_id']} for {use['period_start']} to {use['period_end']}"
        if rules.volume_charges is None:
            reason = "not charged: the rules state no charge by the volume of water used"
            return [], [NotJudged("every period of water use", use["period_start"], "volume_charges", reason)]
        if not use["parcel_known"]:
            not_judged.append(
                NotJudged(
                    subject, use["period_start"], "parcels", "not charged: the parcel is not in parcels"
                )
            )
            continue
        try:
            rows.append(charge_row(rules, use))
        except Unbilled as why:
            not_judged.append(NotJudged(subject, use["period_start"], why.section, why.reason))
    return rows, not_judged


@table_asset(
    GROUP_BILLING,
    deps=["water_use", "parcels"],
    description="Sewer charges by the volume of water used (rules volume_charges): per premises and billing "
    "period, the volume in the rates' unit x the rate in effect on the period's first day for premises "
    "inside or outside the corporate limits (the period's least charge when more), or the flat charge of "
    "unmetered premises, plus the fixed charges by water meter size; rounded half-up to the cent.",
)
def volume_charges(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    town = rules.town_rules()
    with warehouse(duckdb, as_of=settings.as_of_date()) as con:
        rows, not_judged = build_volume_charges(con, town)
        with transaction(con):
            replace_judged(con, not_judged, volume_charges=rows)
        total = sum((r["total_usd"] for r in rows), Decimal("0.00"))
        return table_result(
            con, "volume_charges", total_usd=float(total), periods_not_charged=len(not_judged)
        )


# ---------------------------------------------------------------- fees of the town's samples


def sample_fee_rows(
    rules: Rules, user_id: str, sample_id: str, day: dt.date, tested: list[str]
) -> list[dict]:
    """The fees of one sample the town took, by every schedule pricing such samples in effect on its day."""
    rows = []
    found = {p.lower(): p for p in tested}
    for schedule in (s for s in rules.fee_schedules or () if s.prices == "samples_taken_by_town"):
        if not schedule.in_effect(day):
            continue
        for item in schedule.items:
            listed = [found[p.lower()] for p in item.parameters if p.lower() in found]
            if item.per == "sampling":
                charged = [None]
            elif item.per == "test":
                charged = listed
            else:
                charged = [None] if listed else []
            rows += [
                {
                    "user_id": user_id,
                    "sample_id": sample_id,
                    "collected_date": day,
                    "schedule": schedule.name,
                    "item": item.item,
                    "parameter": parameter,
                    "usd": item.usd,
                    "rule": f"{schedule.citation}: {item.item}, ${item.usd} per {item.per}",
                }
                for parameter in charged
            ]
    return rows


def build_sampling_fees(con: duckdb.DuckDBPyConnection, rules: Rules) -> list[dict]:
    samples: dict[tuple, list[str]] = {}
    for user_id, sample_id, day, parameter in con.execute(sql("select_town_samples")).fetchall():
        samples.setdefault((user_id, sample_id, day), []).append(parameter)
    rows = []
    for (user_id, sample_id, day), tested in samples.items():
        rows += sample_fee_rows(rules, user_id, sample_id, day, tested)
    return rows


@table_asset(
    GROUP_BILLING,
    deps=["lab_results"],
    description="The fees of the samples the town took (lab results sampled_by town), by the rules' fee "
    "schedules that price them (fee_schedules): a fee per sampling, per test of each parameter listed, "
    "per sample with any parameter listed; each row cites its schedule.",
)
def sampling_fees(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    town = rules.town_rules()
    with warehouse(duckdb, as_of=settings.as_of_date()) as con:
        rows = build_sampling_fees(con, town)
        with transaction(con):
            replace_judged(con, [], sampling_fees=rows)
        total = sum((Decimal(str(r["usd"])) for r in rows), Decimal("0.00"))
        return table_result(con, "sampling_fees", total_usd=float(total))
