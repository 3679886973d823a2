"""The demo town generator (outfall.demo.generate): determinism, contract shape, and planted cases."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from outfall.demo.generate import DATASETS, INJECTED_EXCEEDANCES, generate

#: Contract section 2: required columns (*) and the optional ones, per dataset folder.
REQUIRED = {
    "industrial_users": {"user_id", "name", "district"},
    "permit_limits": {"user_id", "parameter", "limit_type", "value", "unit"},
    "lab_results": {"sample_id", "user_id", "collected_at", "sample_type", "parameter", "result", "unit"},
    "flow": {"user_id", "timestamp", "value", "unit"},
    "infiltration_tests": {"section_id", "test_date", "diameter_in", "length_ft", "measured_gpd"},
    "parcels": {"parcel_id", "district", "property_class"},
    "sewer_rates": {"year", "district", "component", "rate_per_unit"},
    "sites": {"site_id", "jurisdiction", "disturbed_acres", "construction_start", "rain_gauge_id"},
    "inspections": {"site_id", "inspected_at", "inspector"},
    "rainfall": {"gauge_id", "date", "precip_in"},
}
OPTIONAL = {
    "industrial_users": {"address", "permit_no", "permit_effective", "permit_expires", "normal_avg_flow_gpd"},
    "permit_limits": {"basis", "effective_from", "effective_to"},
    "lab_results": {"mdl", "lab", "method"},
    "flow": {"constituent"},
    "infiltration_tests": set(),
    "parcels": {"acres", "living_units", "bathrooms", "washing_machines", "people", "seats",
                "moratorium", "owner", "address"},
    "sewer_rates": set(),
    "sites": {"name", "address", "applicant", "impaired_water", "single_family", "agricultural",
              "exempt", "final_stabilization"},
    "inspections": {"kind", "sediment_capacity_lost_pct", "notes"},
    "rainfall": set(),
}
PROPERTY_CLASSES = {
    "single_family", "two_family", "three_family", "apartment", "trailer_park", "motel", "commercial",
    "laundromat", "large_establishment", "senior_high_school", "elementary_school", "restaurant",
    "exempt", "approved_lot", "vacant",
}
PARAMETER = {"bod": "BOD", "bod5": "BOD", "cod": "COD", "tss": "TSS", "total suspended solids": "TSS",
             "fog": "FOG", "o&g": "FOG", "ph": "pH", "temperature": "temperature",
             "chlorine_demand": "chlorine_demand"}
UNIT = {"mg/l": "mg/L", "ppm": "mg/L", "ug/l": "ug/L", "µg/l": "ug/L", "ppb": "ug/L", "s.u.": "s.u.",
        "su": "s.u.", "ph units": "s.u.", "degf": "degF", "°f": "degF", "degc": "degC"}
PART2 = {("BOD", "max"): 240, ("COD", "max"): 600, ("TSS", "max"): 300, ("FOG", "max"): 100,
         ("chlorine_demand", "max"): 25, ("temperature", "max"): 150, ("pH", "min"): 5.5,
         ("pH", "max"): 9.5}


def _read(path: Path) -> pd.DataFrame:
    if path.suffix == ".parquet":
        return pd.read_parquet(path)
    if path.suffix == ".xlsx":
        return pd.read_excel(path, dtype={"result": str})
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""])


def _dataset(root: Path, name: str) -> pd.DataFrame:
    return pd.concat([_read(p) for p in sorted((root / name).iterdir())], ignore_index=True)


@pytest.fixture(scope="module")
def town(tmp_path_factory) -> tuple[Path, dict[str, int]]:
    out = tmp_path_factory.mktemp("town")
    return out, generate(out, scale=1.0)


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    assert generate(a, scale=0.1) == generate(b, scale=0.1)
    files_a, files_b = _files(a), _files(b)
    assert files_a.keys() == files_b.keys()
    assert [k for k in files_a if files_a[k] != files_b[k]] == []
    generate(c, scale=0.1, seed=7)
    files_c = _files(c)
    assert files_c["parcels/parcels.csv"] != files_a["parcels/parcels.csv"]
    # a second run into the same folder leaves nothing stale behind
    generate(a, scale=0.1)
    assert _files(a) == files_b


def test_every_dataset_with_the_contract_columns(town):
    root, counts = town
    assert list(counts) == list(DATASETS)
    for name in DATASETS:
        files = sorted((root / name).iterdir())
        assert files, name
        rows = 0
        for path in files:
            assert path.suffix in (".csv", ".parquet", ".xlsx"), path
            assert path.suffix != ".xlsx" or name == "lab_results"
            assert path.suffix != ".parquet" or name == "flow"
            df = _read(path)
            columns = {c.strip().lower() for c in df.columns}
            assert REQUIRED[name] <= columns, (path, REQUIRED[name] - columns)
            assert columns <= REQUIRED[name] | OPTIONAL[name], (path, columns)
            rows += len(df)
        assert rows == counts[name], name


def test_scale_one_sizes(town):
    _, counts = town
    assert counts["industrial_users"] == 20
    assert counts["parcels"] == 3000
    assert 600_000 <= counts["flow"] <= 750_000
    assert 10 <= counts["infiltration_tests"] <= 14
    assert 14 <= counts["sites"] <= 16
    assert counts["sewer_rates"] == 16


def test_users_and_special_agreements(town):
    root, _ = town
    users = _dataset(root, "industrial_users")
    assert set(users["district"]) == {"consolidated", "district_1"}
    assert users["user_id"].is_unique
    assert sorted(users.loc[users["normal_avg_flow_gpd"].isna(), "user_id"]) == ["IU-007", "IU-019"]
    expires = pd.to_datetime(users["permit_expires"])
    year_end = pd.Timestamp("2026-12-31")
    assert ((expires - year_end).abs() <= pd.Timedelta(days=90)).sum() == 2
    assert (expires < pd.Timestamp("2026-11-30")).sum() == 1
    limits = _dataset(root, "permit_limits")
    assert 2 <= limits["basis"].nunique() <= 3 and set(limits["user_id"]) <= set(users["user_id"])
    assert limits["effective_to"].notna().sum() == 1


def _canonical_results(root: Path) -> pd.DataFrame:
    files = [p for p in sorted((root / "lab_results").iterdir()) if "uci" not in p.name]
    df = pd.concat([_read(p) for p in files], ignore_index=True)
    df["p"] = df["parameter"].str.lower().map(PARAMETER).fillna(df["parameter"])
    df["u"] = df["unit"].str.lower().map(UNIT)
    df["x"] = pd.to_numeric(df["result"], errors="coerce")
    return df


def test_lab_results_exceedances_are_exactly_the_planted_ones(town):
    root, _ = town
    df = _canonical_results(root)
    assert {"mg/l", "ppm", "ug/L", "µg/L", "°F", "degC", "SU"} <= set(df["unit"])
    assert {"<2", "ND"} <= set(df["result"]) and df.loc[df["result"].isin(["<2", "ND"]), "mdl"].notna().all()
    assert any(p.suffix == ".xlsx" for p in (root / "lab_results").iterdir())
    # the clerk's bad rows are there (and would be quarantined)
    assert {"furlongs"} <= set(df["unit"]) and "abc" in set(df["result"])
    assert df["sample_id"].isna().sum() == 1
    assert ((df["p"] == "pH") & (df["x"] == 15)).sum() == 1 and ((df["p"] == "BOD") & (df["x"] < 0)).sum() == 1

    ok = df[df["u"].notna() & df["x"].notna() & (df["x"] >= 0) & ~((df["p"] == "pH") & (df["x"] > 14))].copy()
    ok.loc[ok["u"] == "degC", "x"] = ok["x"] * 1.8 + 32
    ok.loc[ok["u"] == "ug/L", "x"] = ok["x"] / 1000
    when = pd.to_datetime(ok["collected_at"])
    special = {  # the agreements in permit_limits/special_agreements.csv
        ("IU-005", "BOD"): (400, when >= "2026-04-01"),
        ("IU-004", "TSS"): (450, when < "2026-07-01"),
        ("IU-006", "copper"): (1.0, when.notna()),
        ("IU-006", "zinc"): (2.0, when.notna()),
    }
    broken = pd.Series(False, index=ok.index)
    for (param, kind), limit in PART2.items():
        lim = pd.Series(float(limit), index=ok.index)
        for (uid, sp), (value, active) in special.items():
            if sp == param and kind == "max":
                lim[(ok["user_id"] == uid) & active] = value
        mine = ok["p"] == param
        broken |= mine & ((ok["x"] > lim) if kind == "max" else (ok["x"] < lim))
    for (uid, sp), (value, active) in special.items():
        if sp in ("copper", "zinc"):
            broken |= (ok["user_id"] == uid) & (ok["p"] == sp) & active & (ok["x"] > value)
    found = {(r.user_id, pd.Timestamp(r.collected_at).month, r.p) for r in ok[broken].itertuples()}
    planted = {(u, m, PARAMETER.get(p.lower(), p)) for u, m, p, _, _ in INJECTED_EXCEEDANCES}
    chronic = {("IU-012", m, "BOD") for m in (1, 2, 3, 5, 6)}
    assert found == planted | chronic


def test_uci_record_for_iu_020(town):
    root, _ = town
    uci = _read(root / "lab_results" / "IU-020_uci_plant_record.csv")
    assert len(uci) == 2078 and set(uci["user_id"]) == {"IU-020"}


def test_flow_files(town):
    root, _ = town
    flow_dir = root / "flow"
    schema = pq.read_schema(flow_dir / "IU-001_flow_2026.parquet")
    assert str(schema.field("timestamp").type) == "timestamp[us, tz=UTC]"
    one = pd.read_parquet(flow_dir / "IU-001_flow_2026.parquet")
    assert len(one) == 365 * 96 and one["timestamp"].is_monotonic_increasing
    assert one["timestamp"].diff().dropna().eq(pd.Timedelta(minutes=15)).all()
    local = one["timestamp"].dt.tz_convert("America/New_York")
    assert local.iloc[0] == pd.Timestamp("2026-01-01 00:00", tz="America/New_York")
    units = {p.name: pd.read_parquet(p, columns=["unit"])["unit"].iloc[0] for p in flow_dir.glob("*_flow_*.parquet")}
    assert set(units.values()) == {"gpm", "gpd"}
    probe = pd.read_parquet(flow_dir / "IU-006_ph_probe_2026-06.parquet")
    assert set(probe["constituent"]) == {"pH"} and probe["value"].between(0, 14).all()
    real = pd.read_csv(flow_dir / "IU-019_flow_monitor_2008_real.csv")
    assert len(real) == 7195 and real["timestamp"].str.endswith("+00:00").all()


def test_flow_slugs_and_spikes(town):
    """High = above 5 x the permit average; runs of 3-6 readings are slugs, single readings are not."""
    root, _ = town
    users = _dataset(root, "industrial_users").set_index("user_id")
    runs = []
    for path in sorted((root / "flow").glob("IU-0*_flow_2026.parquet")):
        df = pd.read_parquet(path)
        uid = df["user_id"].iloc[0]
        avg = users.loc[uid, "normal_avg_flow_gpd"]
        if pd.isna(avg):
            continue
        gpd = df["value"] * (1440 if df["unit"].iloc[0] == "gpm" else 1)
        high = gpd > 5 * float(avg)
        runs += (high != high.shift()).cumsum()[high].value_counts().tolist()
    assert sum(1 for r in runs if r >= 3) >= 5          # slugs of 45-90 minutes
    assert sum(1 for r in runs if r == 1) >= 5          # lone 15-minute spikes
    assert all(r == 1 or 3 <= r <= 6 for r in runs)


def test_parcels_every_class_and_the_bad_rows(town):
    root, _ = town
    parcels = _dataset(root, "parcels")
    assert parcels["parcel_id"].is_unique
    assert PROPERTY_CLASSES <= set(parcels["property_class"])
    assert set(parcels["property_class"]) - PROPERTY_CLASSES == {"castle"}
    assert set(parcels["district"]) == {"consolidated", "district_1", "district_9"}
    rest = parcels[parcels["property_class"] == "restaurant"]
    assert {"40", "50", "51", "100", "101", "150"} <= set(rest["seats"].dropna())
    assert rest["seats"].isna().sum() == 1
    acres = pd.to_numeric(parcels["acres"], errors="coerce")
    sf = parcels["property_class"] == "single_family"
    assert {74.0, 75.0, 76.0, 120.0} <= set(acres[sf]) and (acres[sf] > 3).sum() > 10
    vacant = acres[parcels["property_class"] == "vacant"]
    assert (vacant > 75).any() and (vacant <= 75).any()
    assert parcels["moratorium"].eq("true").sum() > 10
    assert parcels["acres"].eq("two").sum() == 1


def test_scaled_parcels_keep_every_class(tmp_path):
    generate(tmp_path, scale=0.1)
    parcels = _dataset(tmp_path, "parcels")
    assert len(parcels) == 300 and PROPERTY_CLASSES <= set(parcels["property_class"])
    assert len(_dataset(tmp_path, "industrial_users")) == 6


def test_infiltration_rates_and_rainfall(town):
    root, _ = town
    tests = _dataset(root, "infiltration_tests").astype({"diameter_in": int, "length_ft": int, "measured_gpd": int})
    assert tests["diameter_in"].between(8, 24).all() and tests["length_ft"].between(200, 3000).all()
    allowable = 200 * tests["diameter_in"] * tests["length_ft"] / 5280
    assert 2 <= (tests["measured_gpd"] > allowable).sum() <= 3
    assert (tests["measured_gpd"] == allowable).sum() == 1   # exactly at the limit: passes
    rates = _dataset(root, "sewer_rates")
    assert set(rates["year"]) == {"2025", "2026"} and set(rates["district"]) == {"consolidated", "district_1"}
    assert set(rates["component"]) == {"bond", "om", "street_lateral", "house_lateral"}
    assert "112.345" in set(rates["rate_per_unit"])
    rain = _dataset(root, "rainfall")
    alb = rain[rain["gauge_id"] == "ALB-1"]
    assert len(alb) == 365 and alb["date"].min() == "2026-01-01" and alb["date"].max() == "2026-12-31"


def test_sites_and_inspections(town):
    root, _ = town
    sites = _dataset(root, "sites")
    rain = _dataset(root, "rainfall")
    assert set(sites["jurisdiction"]) == {"woodbury", "bellport"}
    assert {"1.0", "4.9", "5.0"} <= set(sites["disturbed_acres"])
    acres = sites["disturbed_acres"].astype(float)
    assert acres.min() == 0.5 and acres.max() == 12.0
    assert set(sites["rain_gauge_id"]) <= set(rain["gauge_id"])
    for flag in ("impaired_water", "single_family", "agricultural", "exempt"):
        assert set(sites[flag]) == {"true", "false"}
    assert sites["final_stabilization"].notna().sum() >= 3
    starts = pd.to_datetime(sites["construction_start"])
    assert starts.dt.month.between(3, 8).all()

    insp = _dataset(root, "inspections")
    assert set(insp["site_id"]) <= set(sites["site_id"])
    assert set(insp["kind"]) == {"routine", "storm", "milestone", "officer"}
    pct = insp["sediment_capacity_lost_pct"].astype(int)
    assert pct.between(0, 100).all() and (pct >= 50).sum() >= 3
    # weekly cadence with some late gaps, and a site whose log stops while it is still active
    day = pd.to_datetime(insp["inspected_at"].str[:10])
    gaps = day.groupby(insp["site_id"]).diff().dt.days.dropna()
    assert (gaps.between(8, 10)).sum() >= 3
    last = day.groupby(insp["site_id"]).max()
    active = sites.set_index("site_id")["final_stabilization"].isna()
    assert (last[active.reindex(last.index)] < pd.Timestamp("2026-11-01")).any()
    # storms: some answered on the day or the next, some late or missed
    storms = rain[rain["precip_in"].astype(float) >= 0.5]
    answered, unanswered = 0, 0
    for site in sites.itertuples():
        if site.site_id not in set(insp["site_id"]):
            continue
        mine = set(day[insp["site_id"] == site.site_id].dt.date)
        first, final = min(mine), max(mine)
        for d in pd.to_datetime(storms.loc[storms["gauge_id"] == site.rain_gauge_id, "date"]).dt.date:
            if first < d < final:
                hit = d in mine or date.fromordinal(d.toordinal() + 1) in mine
                answered += hit
                unanswered += not hit
    assert answered > 20 and unanswered >= 3
