"""The billing run: bills of every class through the warehouse, the run record and
its hash chain, reproducibility, changes, budget rates, a missing rate, exports,
and the Dagster assets materialized in process."""

from __future__ import annotations

import datetime as dt
import hashlib
import zipfile
from decimal import Decimal
from pathlib import Path
from xml.etree import ElementTree

import duckdb
import openpyxl
import pytest
from dagster_duckdb import DuckDBResource

from assets.billing.billing import (
    BillingError,
    bill,
    billing_exports,
    sewer_billing,
    verify_run_chain,
)
from assets.billing.checks import (
    check_completeness_parcel_id,
    check_integrity_run_hash,
    check_uniqueness_parcel_id,
    check_validity_total_usd,
)
from assets.common import schema_ddl
from assets.ingest import ingest_asset, ingest_assets
from outfall.register_export import bills_csv_bytes, export_register
from outfall.rules import load_rules, local_timezone
from outfall.warehouse import configure, count, ensure_schema, transaction
from tests.conftest import materialize, own_checks, write
from tests.ingesting import con  # noqa: F401 - a fixture: a warehouse with every table

RULES = load_rules("woodbury")
# The shipped rules adopt no method deriving a rate from a budget (contract 7.2); a test's own adoption:
BUDGET_METHOD = """    rate_sources: [sewer_rates, sewer_budget]
    budget_rate_rounding: half_up_cent
    citation_budget_rate: "Town Board Resolution T-1 (test): budget / units"
    budget_rate_adopted_by: "Town Board Resolution T-1 (test)"
"""


def budget_rules_dir(tmp_path: Path) -> Path:
    """A copy of the rules whose Town adopted the budget method (a test's)."""
    import shutil

    from outfall.paths import RULES_DIR

    folder = tmp_path / "budget_rules"
    shutil.copytree(RULES_DIR, folder)
    path = folder / "woodbury.yaml"
    text = path.read_text()
    assert text.count("    rate_sources: [sewer_rates]\n") == 1
    path.write_text(text.replace("    rate_sources: [sewer_rates]\n", BUDGET_METHOD))
    return folder


T0 = dt.datetime(2026, 7, 1, 12, tzinfo=dt.UTC)
INGEST = list(ingest_assets)  # one step loads every folder present
sewer_budget = ingest_asset("sewer_budget")
BILLING = [sewer_budget, sewer_billing, billing_exports]
CHECKS = [
    check_validity_total_usd,
    check_uniqueness_parcel_id,
    check_completeness_parcel_id,
    check_integrity_run_hash,
]

RATES_2026 = {
    ("consolidated", "bond"): "100.00",
    ("consolidated", "om"): "50.005",
    ("consolidated", "street_lateral"): "10",
    ("consolidated", "house_lateral"): "5",
    ("district_1", "bond"): "120",
    ("district_1", "om"): "60",
    ("district_1", "street_lateral"): "12",
    ("district_1", "house_lateral"): "6",
}

# (parcel_id, district, class, acres, living_units, bathrooms, washing_machines, people, seats, moratorium)
# -> expected (bond, om, street_lateral, house_lateral): every class at its boundaries.
CASES = [
    (("SF-3.00", "consolidated", "single_family", 3.0, None, None, None, None, None, False), (1, 1, 1, 1)),
    (("SF-3.01", "consolidated", "single_family", 3.01, None, None, None, None, None, False), (2, 1, 1, 1)),
    (("SF-74", "consolidated", "single_family", 74.0, None, None, None, None, None, False), (37, 1, 1, 1)),
    (("SF-75", "consolidated", "single_family", 75.0, None, None, None, None, None, False), (37, 1, 1, 1)),
    (("SF-76", "consolidated", "single_family", 76.0, None, None, None, None, None, False), (38, 1, 1, 1)),
    (("SF-M", "district_1", "single_family", 1.0, None, None, None, None, None, True), (1, 0, 1, 1)),
    (("TWO", "consolidated", "two_family", None, None, None, None, None, None, False), (2, 2, 2, 2)),
    (("THREE", "consolidated", "three_family", None, None, None, None, None, None, False), (3, 3, 3, 3)),
    (("APT", "consolidated", "apartment", None, 12, None, None, None, None, False), (12, 12, 12, 12)),
    (("TRL", "district_1", "trailer_park", None, 40, None, None, None, None, False), (40, 40, 40, 40)),
    (("MOT", "district_1", "motel", None, 0, None, None, None, None, False), (0, 0, 0, 0)),
    (("COM-0", "consolidated", "commercial", None, None, 0, None, None, None, False), (1, 1, 1, 1)),
    (("COM-3", "consolidated", "commercial", None, None, 3, None, None, None, False), (3, 3, 3, 3)),
    (("LAU-10", "consolidated", "laundromat", None, None, 1, 10, None, None, False), (2, 2, 2, 2)),
    (("LAU-11", "consolidated", "laundromat", None, None, 1, 11, None, None, False), (3, 3, 3, 3)),
    (("LE-15", "consolidated", "large_establishment", None, None, None, None, 15, None, False), (1, 1, 1, 1)),
    (("LE-16", "consolidated", "large_establishment", None, None, None, None, 16, None, False), (2, 2, 2, 2)),
    (("ES-15", "district_1", "elementary_school", None, None, None, None, 15, None, False), (1, 1, 1, 1)),
    (("ES-16", "district_1", "elementary_school", None, None, None, None, 16, None, False), (2, 2, 2, 2)),
    (("HS-16", "district_1", "senior_high_school", None, None, None, None, 16, None, False), (2, 2, 2, 0)),
    (("R-50", "consolidated", "restaurant", None, None, None, None, None, 50, False), (3, 3, 3, 3)),
    (("R-51", "consolidated", "restaurant", None, None, None, None, None, 51, False), (5, 5, 5, 5)),
    (("R-100", "consolidated", "restaurant", None, None, None, None, None, 100, False), (5, 5, 5, 5)),
    (("R-101", "consolidated", "restaurant", None, None, None, None, None, 101, True), (10, 0, 10, 10)),
    (("EX", "district_1", "exempt", None, None, None, None, None, None, False), (1, 1, 1, 1)),
    (("LOT", "district_1", "approved_lot", None, None, None, None, None, None, True), (1, 0, 1, 0)),
    (("V-75", "consolidated", "vacant", 75.0, None, None, None, None, None, False), (0, 0, 0, 0)),
    (("V-80.01", "consolidated", "vacant", 80.01, None, None, None, None, None, False), (11, 0, 0, 0)),
]


# ---------------------------------------------------------------------------
# helpers


def put_parcels(con, rows) -> None:
    con.execute("DELETE FROM parcels")
    for r in rows:
        con.execute(
            "INSERT INTO parcels (parcel_id, district, property_class, acres, living_units, bathrooms, "
            "washing_machines, people, seats, moratorium) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            list(r),
        )


def put_rates(con, year: int, rates: dict, skip: tuple = ()) -> None:
    for (district, component), rate in rates.items():
        if (district, component) not in skip:
            con.execute(
                "INSERT INTO sewer_rates (year, district, component, rate_per_unit, source_file, source_row) "
                "VALUES (?, ?, ?, ?, 'test', 1)",
                [year, district, component, rate],
            )


def run(con, year: int = 0, now: dt.datetime = T0):
    with transaction(con):
        return bill(con, RULES, year, now)


def bills(con, year: int) -> dict[str, dict]:
    cursor = con.execute("SELECT * FROM sewer_bills WHERE year = ? ORDER BY parcel_id", [year])
    names = [d[0] for d in cursor.description]
    return {row[1]: dict(zip(names, row)) for row in cursor.fetchall()}


def table_bytes(con, table: str) -> list[tuple]:
    return con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()


# ---------------------------------------------------------------------------
# bills through the warehouse


def test_every_class_at_its_boundaries(con):
    put_parcels(con, [p for p, _ in CASES])
    put_rates(con, 2026, RATES_2026)
    [result] = run(con)
    assert result.year == 2026 and result.rows == len(CASES) and result.new_run
    got = bills(con, 2026)
    for parcel, expected in CASES:
        b = got[parcel[0]]
        assert (
            b["units_bond"],
            b["units_om"],
            b["units_street_lateral"],
            b["units_house_lateral"],
        ) == expected, parcel[0]
        rates = {
            c: Decimal(RATES_2026[(parcel[1], c)]) for c in ("bond", "om", "street_lateral", "house_lateral")
        }
        amounts = [b[f"amount_{c}"] for c in rates]
        assert amounts == [
            (n * rates[c]).quantize(Decimal("0.01"), "ROUND_HALF_UP") for n, c in zip(expected, rates)
        ], parcel[0]
        assert b["total_usd"] == sum(amounts)
        assert b["explanation"].endswith("(ch. 253 Part 3)") and b["rule"].startswith(
            "Woodbury Code ch. 253 Part 3"
        )
    # A vacant parcel of 75 acres still has its row, with zero units and amounts.
    assert got["V-75"]["total_usd"] == Decimal("0.00")
    # Half-up at x.xx5: one O&M unit at 50.005 is 50.01; five are 250.025 -> 250.03.
    assert got["SF-3.00"]["amount_om"] == Decimal("50.01")
    assert got["R-51"]["amount_om"] == Decimal("250.03")
    assert got["R-51"]["explanation"] == "restaurant, 51 seats: 51-100 seats = 5 full units (ch. 253 Part 3)"
    assert "moratorium" in got["R-101"]["explanation"] and "moratorium" in got["R-101"]["rule"]


def test_column_types_follow_the_contract(con):
    types = dict(
        con.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'sewer_bills'"
        ).fetchall()
    )
    assert types["units_bond"] == "INTEGER" and types["year"] == "INTEGER"
    assert all(types[c] == "DECIMAL(12,2)" for c in types if c.startswith("amount_") or c == "total_usd")


def test_run_record_and_summary(con):
    put_parcels(con, [p for p, _ in CASES])
    put_rates(con, 2026, RATES_2026)
    [result] = run(con)
    run_row = con.execute(
        "SELECT run_id, year, rules_version, rules_sha256, rate_source, register_sha256, "
        "parcels_billed, total_usd, previous_run_hash, totals_json, rates_json FROM billing_runs"
    ).fetchall()
    assert len(run_row) == 1
    run_id, year, version, rules_sha, source, reg_sha, parcels, total, prev, totals_json, rates_json = (
        run_row[0]
    )
    assert (run_id, year, version, rules_sha, source) == (1, 2026, RULES.version, RULES.sha256, "sewer_rates")
    assert reg_sha == hashlib.sha256(bills_csv_bytes(con, 2026)).hexdigest() == result.register_sha256
    assert parcels == len(CASES) and prev == "0" * 64
    assert '"rate_per_unit":"50.005000"' in rates_json and '"component":"house_lateral"' in totals_json
    totals = con.execute(
        "SELECT district, component, units, rate_per_unit, rate_source, amount_usd "
        "FROM billing_run_totals WHERE run_id = 1"
    ).fetchall()
    assert len(totals) == 8 and {t[4] for t in totals} == {"sewer_rates"}
    assert sum(t[5] for t in totals) == total
    summary = con.execute(
        "SELECT sum(parcels), sum(total_usd) FROM billing_summary WHERE year = 2026"
    ).fetchall()[0]
    assert summary == (len(CASES), total)
    assert con.execute(
        "SELECT parcels FROM billing_summary WHERE district = 'consolidated' "
        "AND property_class = 'restaurant'"
    ).fetchall() == [(4,)]
    assert verify_run_chain(con) == []


def test_same_inputs_same_register_and_no_new_run(con, tmp_path):
    put_parcels(con, [p for p, _ in CASES])
    put_rates(con, 2026, RATES_2026)
    [first] = run(con, now=T0)
    register = bills_csv_bytes(con, 2026)
    tables = {
        t: table_bytes(con, t)
        for t in ("sewer_bills", "billing_runs", "billing_run_totals", "bill_changes", "billing_summary")
    }
    [again] = run(con, now=T0 + dt.timedelta(days=30))
    assert not again.new_run and again.run_id == first.run_id
    assert again.register_sha256 == first.register_sha256
    assert bills_csv_bytes(con, 2026) == register
    assert {t: table_bytes(con, t) for t in tables} == tables

    # A second warehouse with the same inputs, billed at another time: the same register bytes.
    other = configure(duckdb.connect(str(tmp_path / "other.duckdb")), timezone=local_timezone())
    ensure_schema(other, schema_ddl())
    put_parcels(other, reversed([p for p, _ in CASES]))
    put_rates(other, 2026, RATES_2026)
    with transaction(other):
        [elsewhere] = bill(other, RULES, 2026, T0 + dt.timedelta(days=400))
    assert elsewhere.register_sha256 == first.register_sha256
    assert bills_csv_bytes(other, 2026) == register
    # The same history gives the same chain of run hashes (run_at is not hashed).
    hashes = "SELECT run_hash FROM billing_runs ORDER BY run_id"
    assert other.execute(hashes).fetchall() == con.execute(hashes).fetchall()
    other.close()


def test_changed_input_gives_a_new_chained_run_with_changes(con):
    base = [p for p, _ in CASES]
    put_parcels(con, base)
    put_rates(con, 2026, RATES_2026)
    run(con)
    changed = [p for p in base if p[0] != "TWO"]  # removed
    changed = [(*p[:8], 120, p[9]) if p[0] == "R-51" else p for p in changed]  # 5 -> 10 units
    changed = [
        (p[0], p[1], "commercial", None, None, 2, None, None, None, False) if p[0] == "THREE" else p
        for p in changed
    ]  # re-classed
    changed.append(("NEW", "district_1", "two_family", None, None, None, None, None, None, False))
    put_parcels(con, changed)
    [second] = run(con, now=T0 + dt.timedelta(hours=1))
    assert second.new_run and second.run_id == 2 and second.changes_vs_previous_run == 4
    kinds = dict(
        con.execute(
            "SELECT parcel_id, change FROM bill_changes WHERE run_id = 2 AND compared_to = 'previous_run'"
        ).fetchall()
    )
    assert kinds == {"TWO": "removed", "R-51": "units_up", "THREE": "reclassed", "NEW": "added"}
    detail = con.execute("SELECT detail, total_change FROM bill_changes WHERE parcel_id = 'R-51'").fetchall()[
        0
    ]
    assert "bond units +5" in detail[0] and detail[1] == Decimal("825.02")  # 825.03 -> 1650.05
    runs = con.execute(
        "SELECT run_id, previous_run_id, previous_run_hash, run_hash FROM billing_runs ORDER BY run_id"
    ).fetchall()
    assert runs[1][1] == 1 and runs[1][2] == runs[0][3]
    assert verify_run_chain(con) == []
    # Tampering with a run breaks the chain.
    con.execute("UPDATE billing_runs SET total_usd = total_usd + 1 WHERE run_id = 1")
    assert any("run 1" in p for p in verify_run_chain(con))


def test_previous_year_comparison_and_year_setting(con):
    put_parcels(con, [p for p, _ in CASES])
    put_rates(con, 2025, {k: "1.00" for k in RATES_2026})
    put_rates(con, 2026, RATES_2026)
    results = run(con, year=2026)
    assert [r.year for r in results] == [2026]  # --year bills that year only
    assert count(con, "bill_changes") == 0  # no earlier register yet
    results = run(con, year=0)  # every year that has rates
    assert [r.year for r in results] == [2025, 2026]
    r2026 = results[1]
    assert r2026.new_run is False  # 2026's inputs did not change
    con.execute(
        "DELETE FROM sewer_rates WHERE year = 2026 AND component = 'bond' AND district = 'district_1'"
    )
    put_rates(con, 2026, {("district_1", "bond"): "121"})
    results = run(con, year=0)
    assert [r.new_run for r in results] == [False, True]
    r = results[1]
    assert r.changes_vs_previous_year > 0 and r.changes_vs_previous_run > 0
    row = con.execute(
        "SELECT compared_year, changes_vs_previous_year FROM billing_runs WHERE run_id = ?", [r.run_id]
    ).fetchall()[0]
    assert row == (2025, r.changes_vs_previous_year)
    ups = con.execute(
        "SELECT DISTINCT change FROM bill_changes WHERE run_id = ? AND compared_to = 'previous_run'",
        [r.run_id],
    ).fetchall()
    assert ups == [("amount_up",)]


def test_a_budget_is_no_rate_unless_the_rules_adopt_the_method(con):
    # contract 7.2: the shipped rules adopt no budget method: a budget alone bills nothing, and a year with
    # only a budget is no billing year (the demo bills the years it has adopted rates for)
    from assets.billing.billing import billing_years

    put_parcels(con, [p for p, _ in CASES])
    put_rates(con, 2026, RATES_2026, skip=(("district_1", "house_lateral"),))
    con.execute(
        "INSERT INTO sewer_budget (year, district, component, amount) VALUES (2026, 'district_1', "
        "'house_lateral', 1000.01), (2027, 'district_1', 'bond', 500)"
    )
    assert billing_years(con, 0, RULES) == [2026]
    with pytest.raises(BillingError, match="no sewer rate for 2026, district_1, house_lateral"):
        run(con)
    with pytest.raises(Exception, match="rate_sources lists sewer_budget"):
        from outfall.rules import parse_rules

        text = (
            (Path(RULES.source))
            .read_text()
            .replace("    rate_sources: [sewer_rates]\n", "    rate_sources: [sewer_rates, sewer_budget]\n")
        )
        parse_rules(text, Path("woodbury.yaml"))


def test_budget_derived_rate(con, tmp_path):
    put_parcels(con, [p for p, _ in CASES])
    put_rates(con, 2026, RATES_2026, skip=(("district_1", "house_lateral"),))
    con.execute(
        "INSERT INTO sewer_budget (year, district, component, amount) VALUES (2026, 'district_1', "
        "'house_lateral', 1000.01)"
    )
    adopted = load_rules("woodbury", budget_rules_dir(tmp_path))
    with transaction(con):
        [result] = bill(con, adopted, 0, T0)
    units = con.execute(
        "SELECT sum(units_house_lateral) FROM sewer_bills WHERE district = 'district_1'"
    ).fetchall()[0][0]
    expected = (Decimal("1000.01") / units).quantize(Decimal("0.01"), "ROUND_HALF_UP")
    row = con.execute(
        "SELECT rate_per_unit, rate_source, budget_usd, units FROM billing_run_totals "
        "WHERE district = 'district_1' AND component = 'house_lateral'"
    ).fetchall()[0]
    assert row == (expected, "sewer_budget", Decimal("1000.01"), units)
    assert result.rate_source == "sewer_rates+sewer_budget"
    # An adopted rate wins over the budget (rules billing.rate_sources).
    put_rates(con, 2026, {("district_1", "house_lateral"): "6"})
    with transaction(con):
        [again] = bill(con, adopted, 0, T0)
    assert again.new_run and again.rate_source == "sewer_rates"


def test_missing_rate_fails_and_leaves_the_previous_register(con):
    put_parcels(con, [p for p, _ in CASES])
    put_rates(con, 2026, RATES_2026)
    [first] = run(con)
    before = {
        t: table_bytes(con, t) for t in ("sewer_bills", "billing_runs", "billing_summary", "bill_changes")
    }
    put_rates(con, 2027, RATES_2026, skip=(("district_1", "house_lateral"),))
    with pytest.raises(
        BillingError, match="no sewer rate for 2027, district_1, house_lateral: add it to sewer_rates"
    ):
        run(con, year=0)
    assert {t: table_bytes(con, t) for t in before} == before
    with pytest.raises(BillingError, match="no sewer rate for 2028, consolidated, bond"):
        run(con, year=2028)
    assert bills_csv_bytes(con, 2026) and bills(con, 2026)


def test_unbillable_parcel_is_not_billed_by_guess(con):
    put_parcels(con, [("R-X", "consolidated", "restaurant", None, None, None, None, None, None, False)])
    put_rates(con, 2026, RATES_2026)
    with pytest.raises(BillingError, match="R-X: restaurant needs seats"):
        run(con)
    put_parcels(con, [("P", "consolidated", "two_family", None, None, None, None, None, None, False)] * 2)
    with pytest.raises(BillingError, match="appears 2 times"):
        run(con)
    assert count(con, "sewer_bills") == 0


def test_empty_inputs(con):
    assert run(con) == []
    assert count(con, "sewer_bills") == 0 and count(con, "billing_runs") == 0
    put_rates(con, 2026, RATES_2026)
    [result] = run(con)  # a year with rates and no parcels: an empty register
    assert result.rows == 0 and count(con, "sewer_bills") == 0


# ---------------------------------------------------------------------------
# exports


def test_exports(con, tmp_path):
    odd = ("A&B <1>", "consolidated", "two_family", None, None, None, None, None, None, False)
    put_parcels(con, [p for p, _ in CASES] + [odd])
    put_rates(con, 2026, RATES_2026)
    [result] = run(con)
    out = tmp_path / "exports"
    files = export_register(con, out)
    names = {p.name for p in files}
    assert {
        "sewer_register_2026.csv",
        "sewer_bills_2026.csv",
        "sewer_register_2026.xlsx",
        "bill_changes_2026.csv",
        "billing_summary.csv",
        "billing_runs.csv",
    } <= names
    csv_bytes = (out / "sewer_bills_2026.csv").read_bytes()  # the bills as billed: the hashed file
    assert hashlib.sha256(csv_bytes).hexdigest() == result.register_sha256
    xlsx = (out / "sewer_register_2026.xlsx").read_bytes()
    export_register(con, out)
    assert (out / "sewer_register_2026.xlsx").read_bytes() == xlsx  # same register, same workbook bytes

    with zipfile.ZipFile(out / "sewer_register_2026.xlsx") as package:  # every part is well-formed XML
        for name in package.namelist():
            ElementTree.fromstring(package.read(name))
        assert "xl/sharedStrings.xml" in package.namelist()
    wb = openpyxl.load_workbook(out / "sewer_register_2026.xlsx")
    assert wb.sheetnames == [
        "Consolidated Sewer District",
        "Sewer District #1",
        "Totals",
        "Summary",
        "Addresses to complete",
        "Inspection fees",
        "Changes",
        "About",
    ]
    ws = wb["Consolidated Sewer District"]
    assert ws.freeze_panes == "A2"
    header = [c.value for c in ws[1]]
    assert header[:4] == ["Parcel", "Owner", "Mailing address", "Property class"] and header[-1] == "Law"
    n_cons = sum(1 for p, _ in CASES if p[1] == "consolidated") + 1
    rows = {r[0]: r for r in ws.iter_rows(min_row=2, max_row=n_cons + 1, values_only=True)}
    assert len(rows) == n_cons
    assert rows["A&B <1>"][header.index("Total")] == pytest.approx(330.01)
    assert "O&M" in rows["SF-76"][header.index("How the units were counted")]
    assert rows["R-51"][header.index("O&M")] == pytest.approx(250.03)
    assert rows["R-51"][header.index("How the units were counted")].startswith("restaurant, 51 seats")
    assert rows["R-51"][header.index("Property class")] == "Restaurant"
    assert rows["SF-76"][header.index("Property class")] == "Single-family"
    money = ws.cell(row=2, column=header.index("Total") + 1)
    assert money.number_format == '"$"#,##0.00'
    assert ws.cell(row=n_cons + 2, column=1).value == f"Total, {n_cons} parcels"  # the totals row
    assert wb["Sewer District #1"].max_row == len(CASES) + 1 - n_cons + 1 + 1
    totals = [r for r in wb["Totals"].iter_rows(min_row=2, values_only=True)]
    assert ("Sewer District #1", "House lateral") in {(r[0], r[1]) for r in totals}
    assert totals[-1][0] == "All districts" and totals[-1][-1] == "=SUBTOTAL(9,H2:H9)"
    cached = openpyxl.load_workbook(out / "sewer_register_2026.xlsx", data_only=True)
    assert [r for r in cached["Totals"].iter_rows(min_row=2, values_only=True)][-1][-1] == pytest.approx(
        float(result.total_usd)
    )
    about = {r[0]: r[1] for r in wb["About"].iter_rows(min_row=2, values_only=True)}
    assert about["Rates from"] == "the rate the Town Board adopted"
    assert (
        about[
            "sha256 of sewer_bills_2026.csv, the bills as billed (the file as written, byte-order mark "
            "included)"
        ]
        == result.register_sha256
    )


def test_export_on_a_read_only_connection(con, tmp_path):
    put_parcels(con, [p for p, _ in CASES[:5]])
    put_rates(con, 2026, RATES_2026)
    run(con)
    path = con.execute(
        "SELECT path FROM duckdb_databases() WHERE database_name = current_database()"
    ).fetchall()[0][0]
    con.close()
    ro = duckdb.connect(path, read_only=True)
    try:
        files = export_register(ro, tmp_path / "ro")
    finally:
        ro.close()
    assert any(p.name == "sewer_register_2026.xlsx" for p in files)


# ---------------------------------------------------------------------------
# the Dagster assets


def resources(tmp_path: Path, data: Path, year: int = 0, rules_dir: str = "") -> dict:
    from outfall.resources import OutfallSettings

    return {
        "duckdb": DuckDBResource(database=str(tmp_path / "w.duckdb")),
        "settings": OutfallSettings(data_dir=str(data), as_of="2026-06-30", year=year, rules_dir=rules_dir),
    }


def step_errors(result) -> str:
    texts = []
    for event in result.get_step_failure_events():
        error = event.step_failure_data.error
        while error is not None:
            texts.append(error.message)
            error = error.cause
    return "\n".join(texts)


@pytest.mark.slow  # every billing asset end to end
def test_assets_end_to_end(tmp_path, town):
    write(
        town,
        "sewer_budget/budget.csv",
        """
        year,district,component,amount
        2027,district_1,bond,1000.01
        2027,district_1,plumbing,5
        2027,district_1,om,-3
        2027,district_1,street_lateral,1.005
        """,
    )
    write(
        town,
        "sewer_rates/rates_2027.csv",
        "year,district,component,rate_per_unit\n"
        + "".join(
            f"2027,{d},{c},{r}\n" for (d, c), r in RATES_2026.items() if (d, c) != ("district_1", "bond")
        ),
    )
    res = resources(
        tmp_path, town, rules_dir=str(budget_rules_dir(tmp_path))
    )  # the method adopted (a test's)
    result = materialize([*INGEST, *BILLING, *CHECKS], resources=res)
    assert result.success
    checks = {e.check_name: e.passed for e in own_checks(result)}
    assert checks == {
        "check_validity_total_usd": True,
        "check_uniqueness_parcel_id": True,
        "check_completeness_parcel_id": True,
        "check_integrity_run_hash": True,
    }
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    try:
        got = {
            r[0]: r[1:]
            for r in con.execute(
                "SELECT parcel_id, units_bond, units_om, units_street_lateral, units_house_lateral, "
                "amount_om, total_usd FROM sewer_bills WHERE year = 2026"
            ).fetchall()
        }
        # P-4 (restaurant with no seats) was quarantined by the parcels ingestion: never billed.
        assert set(got) == {"P-1", "P-2", "P-3"}
        assert got["P-1"] == (1, 1, 1, 1, Decimal("50.01"), Decimal("165.01"))
        assert got["P-2"] == (5, 5, 5, 5, Decimal("250.03"), Decimal("825.03"))
        assert got["P-3"] == (2, 0, 1, 1, Decimal("0.00"), Decimal("258.00"))
        budget_q = con.execute(
            "SELECT row_number, reason FROM quarantine WHERE dataset = 'sewer_budget' ORDER BY row_number"
        ).fetchall()
        assert [r[0] for r in budget_q] == [2, 3, 4]
        assert "plumbing" in budget_q[0][1] and "negative" in budget_q[1][1] and "cents" in budget_q[2][1]
        read, kept, quarantined = con.execute(
            "SELECT rows_read, rows_kept, rows_quarantined FROM ingested_files WHERE dataset = 'sewer_budget'"
        ).fetchall()[0]
        assert (read, kept, quarantined) == (4, 1, 3)
        # 2027's district_1 bond rate comes from the budget: 1000.01
        # over P-3's 2 bond units = 500.005 -> 500.01.
        assert con.execute(
            "SELECT rate_per_unit, rate_source FROM billing_run_totals WHERE year = 2027 "
            "AND district = 'district_1' AND component = 'bond'"
        ).fetchall() == [(Decimal("500.010000"), "sewer_budget")]
        assert con.execute(
            "SELECT amount_bond FROM sewer_bills WHERE year = 2027 AND parcel_id = 'P-3'"
        ).fetchall() == [(Decimal("1000.02"),)]
        runs = con.execute(
            "SELECT year, rate_source, compared_year FROM billing_runs ORDER BY run_id"
        ).fetchall()
    finally:
        con.close()
    assert runs == [(2026, "sewer_rates", None), (2027, "sewer_rates+sewer_budget", 2026)]
    out = tmp_path / "exports" / "billing"
    assert (out / "sewer_register_2026.xlsx").exists() and (out / "sewer_register_2026.csv").exists()

    # Same inputs again: no new run, same register bytes.
    csv_before = (out / "sewer_register_2026.csv").read_bytes()
    again = materialize([*INGEST, *BILLING], resources=res)
    assert again.success
    assert (out / "sewer_register_2026.csv").read_bytes() == csv_before
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM billing_runs").fetchall()[0][0] == len(runs)
    finally:
        con.close()


def test_asset_fails_on_a_missing_rate_and_keeps_the_register(tmp_path, town):
    res = resources(tmp_path, town)
    assert materialize([*INGEST, *BILLING], resources=res).success
    con = duckdb.connect(str(tmp_path / "w.duckdb"))
    before = con.execute("SELECT * FROM sewer_bills ORDER BY parcel_id").fetchall()
    runs = con.execute("SELECT count(*) FROM billing_runs").fetchall()[0][0]
    con.execute("DELETE FROM sewer_rates WHERE district = 'district_1' AND component = 'house_lateral'")
    con.close()
    result = materialize([sewer_billing], resources=res, raise_on_error=False)
    assert not result.success
    assert "no sewer rate for 2026, district_1, house_lateral: add it to sewer_rates" in step_errors(result)
    con = duckdb.connect(str(tmp_path / "w.duckdb"))  # same configuration as the failed step's (still cached)
    try:
        assert con.execute("SELECT * FROM sewer_bills ORDER BY parcel_id").fetchall() == before
        assert con.execute("SELECT count(*) FROM billing_runs").fetchall()[0][0] == runs
    finally:
        con.close()


def test_assets_with_no_input_folders(tmp_path):
    res = resources(tmp_path, tmp_path / "nothing")
    result = materialize([*INGEST, *BILLING, *CHECKS], resources=res)
    assert result.success
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    try:
        for table in (
            "sewer_bills",
            "billing_runs",
            "billing_run_totals",
            "bill_changes",
            "billing_summary",
            "sewer_budget",
        ):
            assert con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0] == 0
    finally:
        con.close()
