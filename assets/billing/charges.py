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
from outfall.rules.amounts import amount as stated, set_by as set_elsewhere, shown
from outfall.rules.tables import NotJudged, not_in_effect
from outfall.warehouse import records, sql, transaction


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
    per_unit, least = stated(rate.usd_per_unit), stated(minimum)
    if per_unit is None or (minimum is not None and least is None):
        # an amount the law sets in another document: the volume is shown, the charge is not computed
        billed = law.convert(use["volume"], use["unit"], vc.unit)
        said = f"{law.volume_words(billed, vc.unit)} x rate {shown(rate.usd_per_unit)}"
        if minimum is not None:
            by_meter = f" ({minimum_words})" if minimum_words else ""
            said += f", or the least charge of the period, {shown(minimum)}{by_meter}, when that is more"
        row = {"billed_volume": float(billed), "usd_per_unit": per_unit, "minimum_usd": least, "charge": None}
        set_by = [s.words() for s in (set_elsewhere(rate.usd_per_unit), set_elsewhere(minimum)) if s]
        return {**row, "set_by": set_by}, [said], [rate.citation]
    c = law.volume_charge(use["volume"], use["unit"], vc.unit, per_unit, least)
    said = f"{law.volume_words(c.billed_volume, vc.unit)} x ${per_unit} = ${c.volume_usd}"
    if c.minimum_applied:
        by_meter = f" ({minimum_words})" if minimum_words else ""
        said += f", less than the least charge of the period, ${c.minimum_usd}{by_meter}"
    row = {
        "billed_volume": float(c.billed_volume),
        "usd_per_unit": per_unit,
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
    usd = stated(flat.usd)
    if usd is None:
        return (
            {"flat_usd": None, "charge": None, "set_by": [flat.usd.words()]},
            [f"unmetered: {shown(flat.usd)}"],
            [flat.citation],
        )
    return {"flat_usd": usd, "charge": Decimal(usd)}, [f"unmetered: ${usd}"], [flat.citation]


def _fixed(vc: Any, use: dict, day: dt.date) -> tuple[Decimal | None, list[str], list[str], list[str]]:
    total, said, cited, set_by = Decimal("0.00"), [], [], []
    for charge in vc.fixed_charges(day, use["outside_limits"]):
        amount, words = law.meter_amount(charge.by_meter_size, use["meter_size_in"])
        if amount is None:
            raise Unbilled("parcels", f"not charged: the {charge.name} goes by meter size, and {words}")
        cited.append(charge.citation)
        if stated(amount) is None:
            said.append(f"{charge.name}, {words}: {shown(amount)}")
            set_by.append(amount.words())
            continue
        total += amount
        said.append(f"{charge.name}, {words}: ${law.cents(amount)}")
    return (law.cents(total) if not set_by else None), said, cited, set_by


def charge_row(rules: Rules, use: dict) -> dict:
    """The charges of one premises' billing period; Unbilled when it cannot be charged as the data stand. An
    amount the law sets in another document is shown as set there: the period's total is then not
    computed (never 0), and ``amounts_set_by`` says where."""
    vc, day = rules.volume_charges, use["period_start"]
    part = _metered if use["metered"] else _unmetered
    row, said, cited = part(vc, use, day)
    fixed, fixed_said, fixed_cited, fixed_set_by = _fixed(vc, use, day)
    charge = row.pop("charge")
    set_by = [*row.pop("set_by", []), *fixed_set_by]
    return {
        **dict.fromkeys(
            ("billed_volume", "usd_per_unit", "volume_usd", "minimum_usd", "minimum_applied", "flat_usd")
        ),
        **{k: use[k] for k in ("parcel_id", "period_start", "period_end", "outside_limits", "metered")},
        **{k: use[k] for k in ("meter_size_in", "volume", "unit")},
        **row,
        "rate_unit": vc.unit,
        "fixed_usd": fixed,
        "total_usd": law.cents(charge + fixed) if charge is not None and fixed is not None else None,
        "amounts_set_by": "; ".join(dict.fromkeys(set_by)) or None,
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
        total = sum((r["total_usd"] for r in rows if r["total_usd"] is not None), Decimal("0.00"))
        return table_result(
            con, "volume_charges", total_usd=float(total), periods_not_charged=len(not_judged)
        )


# ---------------------------------------------------------------- users' bills: charges and surcharges


def _surcharge_words(r: dict) -> str:
    what = {"pounds": f"{r['parameter']} by the pound", "strength": f"{r['parameter']} by strength"}.get(
        r["kind"], {"volume": "per volume", "flow": "by flow"}.get(r["kind"], r["kind"])
    )
    month = f"{r['period_start']:%B %Y}"
    if r["amount_usd"] is not None:
        return f"surcharge {what}, {month}: ${r['amount_usd']}"
    if r["amount_set_by"]:
        return f"surcharge {what}, {month}: amount {r['amount_set_by']}"
    return f"surcharge {what}, {month}: no rate adopted, not billed"


def bill_row(period: dict, surcharges: list[dict]) -> dict:
    """A user's bill for one billing period of its premises: the fixed charges, the volume (or least, or
    flat) charge and the surcharges of the months the period holds, each shown; the total is their sum, or
    None while a surcharge's amount is set in another document."""
    fixed = Decimal(period["fixed_usd"] or 0)
    volume = Decimal(period["total_usd"]) - fixed if period["total_usd"] is not None else None
    amounts = [Decimal(r["amount_usd"]) for r in surcharges if r["amount_usd"] is not None]
    elsewhere = list(dict.fromkeys(r["amount_set_by"] for r in surcharges if r["amount_set_by"]))
    surcharged = law.cents(sum(amounts, Decimal(0)))
    if period["total_usd"] is None:
        own = period.get("amounts_set_by") or "set elsewhere"
        elsewhere.insert(0, f"the charges of premises {period['parcel_id']}: {own}")
    total = None if elsewhere or volume is None else law.cents(fixed + volume + surcharged)
    said = [f"charges of premises {period['parcel_id']}: {period['explanation']}"]
    said += [_surcharge_words(r) for r in surcharges]
    if elsewhere:
        said.append("total not computed: a surcharge's amount is set elsewhere")
    return {
        "user_id": period["user_id"],
        "name": period["name"],
        "parcel_id": period["parcel_id"],
        "period_start": period["period_start"],
        "period_end": period["period_end"],
        "fixed_usd": law.cents(fixed),
        "volume_usd": law.cents(volume) if volume is not None else None,
        "surcharges_usd": surcharged,
        "surcharges": len(surcharges),
        "surcharges_set_by": "; ".join(elsewhere) or None,
        "total_usd": total,
        "explanation": "; ".join(said),
        "rule": "; ".join(dict.fromkeys([period["rule"], *(r["rule"] for r in surcharges)])),
    }


def build_user_bills(con: duckdb.DuckDBPyConnection) -> tuple[list[dict], list[NotJudged]]:
    """The bills of the industrial users linked to premises (industrial_users.parcel_id), per billing period
    of the premises' sewer charges; a surcharge of a month no period covers is not billed, and said so."""
    periods = records(con, "select_user_bill_periods")
    surcharges = records(con, "select_user_bill_surcharges")
    rows, billed = [], set()
    for period in periods:
        held = [
            r
            for r in surcharges
            if r["user_id"] == period["user_id"]
            and period["period_start"] <= r["period_start"] <= period["period_end"]
        ]
        billed |= {id(r) for r in held}
        rows.append(bill_row(period, held))
    not_judged = [
        NotJudged(
            f"{r['kind']} surcharge of {r['user_id']} for {r['period_start']:%B %Y}",
            r["period_start"],
            "volume_charges",
            "not billed: no billing period of the sewer charges of the user's premises holds the month",
        )
        for r in surcharges
        if id(r) not in billed
    ]
    return rows, not_judged


@table_asset(
    GROUP_BILLING,
    deps=["volume_charges", "surcharges", "industrial_users"],
    description="The bills of industrial users linked to premises (industrial_users.parcel_id): per billing "
    "period of the premises' sewer charges, the fixed charges, the volume charge and the user's surcharges "
    "of the months it holds, each shown, and their total (not computed while a surcharge's amount is set "
    "in another document).",
)
def user_bills(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    with warehouse(duckdb, as_of=settings.as_of_date()) as con:
        rows, not_judged = build_user_bills(con)
        with transaction(con):
            replace_judged(con, not_judged, user_bills=rows)
        total = sum((r["total_usd"] for r in rows if r["total_usd"] is not None), Decimal("0.00"))
        return table_result(con, "user_bills", total_usd=float(total))


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
                    "usd": stated(item.usd),
                    "rule": f"{schedule.citation}: {item.item}, {shown(item.usd)} per {item.per}",
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
        total = sum((Decimal(str(r["usd"])) for r in rows if r["usd"] is not None), Decimal("0.00"))
        return table_result(con, "sampling_fees", total_usd=float(total))
