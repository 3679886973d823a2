"""The demo town generator (outfall.demo.generate): determinism, contract shape, nothing
dated after the as-of date, and planted cases."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from outfall.demo import generate as gen
from outfall.demo.generate import DATASETS, INJECTED_EXCEEDANCES, NOT_IN_DEMO, generate
from outfall.ingest.registry import CONTRACT_DATASETS, all_datasets
from outfall.ingest.stormwater import chapter_number

AS_OF = date(2026, 11, 30)  # the demo's (pipelines/cli.py DEMO_AS_OF)
TZ = "America/New_York"
#: The areas' own folders, every registered one besides the contract's: their columns are their specs'
#: (docs/inputs-sewer.md, inputs-stormwater.md, inputs-billing.md); the contract's are checked against
#: the contract's words below, not against the specs.
AREA_SPECS = {name: ds for name, ds in all_datasets().items() if name not in CONTRACT_DATASETS}
#: Dates that are schedules, not observations: a permit in force expires after the as-of date.
SCHEDULED = {("industrial_users", "permit_expires")}

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
    # + the optional mailing fields of notices (contract 5.1: a full mailing address; docs/inputs.md)
    "industrial_users": {
        "address",
        "permit_no",
        "permit_effective",
        "permit_expires",
        "normal_avg_flow_gpd",
        "mailing_name",
        "mailing_address",
        "city",
        "state",
        "zip",
    },
    "permit_limits": {"basis", "effective_from", "effective_to"},
    "lab_results": {"mdl", "lab", "method", "sampled_by"},  # sampled_by: contract 7.1
    "flow": {"constituent"},
    "infiltration_tests": set(),
    "parcels": {
        "acres",
        "living_units",
        "bathrooms",
        "washing_machines",
        "people",
        "seats",
        "moratorium",
        "owner",
        "address",
        "city",
        "state",
        "zip",
    },
    "sewer_rates": set(),
    "sites": {
        "name",
        "address",
        "applicant",
        "impaired_water",
        "single_family",
        "agricultural",
        "exempt",
        "final_stabilization",
        "mailing_name",
        "mailing_address",
        "city",
        "state",
        "zip",
        # the landowner (contract 7.4)
        "owner_name",
        "owner_address",
        "owner_city",
        "owner_state",
        "owner_zip",
    },
    "inspections": {"kind", "sediment_capacity_lost_pct", "notes"},
    "rainfall": set(),
}
PROPERTY_CLASSES = {
    "single_family",
    "two_family",
    "three_family",
    "apartment",
    "trailer_park",
    "motel",
    "commercial",
    "laundromat",
    "large_establishment",
    "senior_high_school",
    "elementary_school",
    "restaurant",
    "exempt",
    "approved_lot",
    "vacant",
}
PARAMETER = {
    "bod": "BOD",
    "bod5": "BOD",
    "cod": "COD",
    "tss": "TSS",
    "total suspended solids": "TSS",
    "fog": "FOG",
    "o&g": "FOG",
    "ph": "pH",
    "temperature": "temperature",
    "chlorine_demand": "chlorine_demand",
}
UNIT = {
    "mg/l": "mg/L",
    "ppm": "mg/L",
    "ug/l": "ug/L",
    "µg/l": "ug/L",
    "ppb": "ug/L",
    "s.u.": "s.u.",
    "su": "s.u.",
    "ph units": "s.u.",
    "degf": "degF",
    "°f": "degF",
    "degc": "degC",
}
PART2 = {
    ("BOD", "max"): 240,
    ("COD", "max"): 600,
    ("TSS", "max"): 300,
    ("FOG", "max"): 100,
    ("chlorine_demand", "max"): 25,
    ("temperature", "max"): 150,
    ("pH", "min"): 5.5,
    ("pH", "max"): 9.5,
}


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


@pytest.mark.slow  # generates the demo town three times
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


def unwritten(registered, written, not_in_demo) -> dict[str, str]:
    """What is wrong with the demo's cover of the registered folders: a folder neither written nor named in
    NOT_IN_DEMO, or named there but written, or named in either and not registered; by folder."""
    registered, written = set(registered), set(written)
    out = {
        n: "neither written by the demo nor in NOT_IN_DEMO" for n in registered - written - set(not_in_demo)
    }
    out.update({n: "written by the demo and in NOT_IN_DEMO" for n in written & set(not_in_demo)})
    out.update({n: "not a registered input folder" for n in (written | set(not_in_demo)) - registered})
    out.update({n: "in NOT_IN_DEMO without why" for n, why in not_in_demo.items() if not str(why).strip()})
    return out


def test_the_demo_writes_every_registered_folder_or_says_why_not():
    """Every input folder of the registry is written by the demo town (outfall/demo/generate.py, DATASETS) or
    named in NOT_IN_DEMO with why; a new dataset spec fails here until it is one or the other."""
    assert unwritten(all_datasets(), DATASETS, NOT_IN_DEMO) == {}, (
        "add each folder to outfall/demo/generate.py: written (DATASETS, appended) or NOT_IN_DEMO with why"
    )
    assert set(REQUIRED) == set(OPTIONAL) == set(CONTRACT_DATASETS)
    # the check itself: a registered folder the demo leaves out, and one it names wrongly
    assert unwritten({"a", "b", "c"}, ("a",), {"b": "kept by hand"}) == {
        "c": "neither written by the demo nor in NOT_IN_DEMO"
    }
    assert unwritten({"a"}, ("a", "z"), {"a": ""}) == {
        "a": "in NOT_IN_DEMO without why",
        "z": "not a registered input folder",
    }


def test_every_dataset_with_the_contract_columns(town):
    root, counts = town
    assert list(counts) == list(DATASETS)
    for name in DATASETS:
        if name in AREA_SPECS:
            spec = AREA_SPECS[name].columns
            required = {c.name for c in spec if c.required}
            allowed = {c.name for c in spec} | {a for c in spec for a in c.aliases}
        else:
            required, allowed = REQUIRED[name], REQUIRED[name] | OPTIONAL[name]
        files = sorted((root / name).iterdir())
        assert files, name
        rows = 0
        for path in files:
            assert path.suffix in (".csv", ".parquet", ".xlsx"), path
            assert path.suffix != ".xlsx" or name == "lab_results"
            assert path.suffix != ".parquet" or name == "flow"
            df = _read(path)
            columns = {c.strip().lower() for c in df.columns}
            assert required <= columns, (path, required - columns)
            assert columns <= allowed, (path, columns - allowed)
            assert len(df) > 0, path
            rows += len(df)
        assert rows == counts[name], name


def _local_dates(values: pd.Series) -> pd.Series:
    """ISO dates and timestamps as local dates: with an offset, that instant in New York;
    without, local time already (contract section 2)."""
    if isinstance(values.dtype, pd.DatetimeTZDtype):
        return values.dt.tz_convert(TZ).dt.date
    if pd.api.types.is_datetime64_any_dtype(values):
        return values.dt.date
    text = values.dropna().astype(str).str.strip()
    text = text[text != ""]
    aware = text.str.contains(r"(?:[+-]\d\d:?\d\d|Z)$", regex=True) & text.str.contains("T")
    out = pd.Series(index=text.index, dtype=object)
    if aware.any():
        out[aware] = pd.to_datetime(text[aware], utc=True, format="ISO8601").dt.tz_convert(TZ).dt.date
    if (~aware).any():
        out[~aware] = pd.to_datetime(text[~aware], format="ISO8601").dt.date
    return out


def test_nothing_dated_after_the_as_of_date(town):
    """Every date and timestamp column of every dataset (by its ingestion spec), on or before
    the as-of date, save the schedules in SCHEDULED; the meters and the rain gauge cover the
    365 days to it."""
    root, _ = town
    checked = 0
    for name, spec in all_datasets().items():
        if name in NOT_IN_DEMO:  # a folder the demo town does not write, and why
            continue
        dated = [c.name for c in spec.columns if c.kind in ("date", "timestamp")]
        for path in sorted((root / name).iterdir()):
            df = _read(path)
            df.columns = [c.strip().lower() for c in df.columns]
            for column in dated:
                if column not in df or (name, column) in SCHEDULED:
                    continue
                days = _local_dates(df[column])
                if len(days):
                    checked += 1
                    assert max(days) <= AS_OF, (path.name, column, max(days))
    assert checked >= 25
    flow = pd.read_parquet(root / "flow" / "IU-004_flow_2025-12-01_2026-11-30.parquet", columns=["timestamp"])
    local = flow["timestamp"].dt.tz_convert(TZ)
    assert local.min() == pd.Timestamp("2025-12-01 00:00", tz=TZ)
    assert local.max() == pd.Timestamp("2026-11-30 23:45", tz=TZ)
    # the schedules that do lie ahead: the permits still in force
    expires = pd.to_datetime(_dataset(root, "industrial_users")["permit_expires"]).dt.date
    assert (expires > AS_OF).any()


def test_as_of_must_leave_the_planted_cases_in_the_data(tmp_path):
    with pytest.raises(ValueError, match="as_of"):
        generate(tmp_path, scale=0.1, as_of=date(2026, 6, 30))
    counts = generate(tmp_path, scale=0.1, as_of=date(2026, 12, 31))
    rain = _dataset(tmp_path, "rainfall")
    assert rain.loc[rain["gauge_id"] == "ALB-1", "date"].max() == "2026-12-31" and counts["flow"] > 0


def test_scale_one_sizes(town):
    _, counts = town
    assert counts["industrial_users"] == 21  # 20 permitted, and one that never held a permit (6.5)
    assert counts["parcels"] == 3000
    assert 600_000 <= counts["flow"] <= 750_000
    assert 10 <= counts["infiltration_tests"] <= 14
    assert 14 <= counts["sites"] <= 16
    assert counts["sewer_rates"] == 16
    assert 40 <= counts["milestones"] <= 90 and 20 <= counts["contractor_certifications"] <= 40
    assert counts["swppp_approvals"] == 3 and counts["convictions"] == 3
    assert 150 <= counts["report_deliveries"] <= 300
    assert 45 <= counts["reports"] <= 60 and counts["accidental_discharges"] == 4
    assert counts["grease_traps"] == 5 and 15 <= counts["pumpouts"] <= 35
    assert counts["sewer_budget"] == 8


def test_users_and_special_agreements(town):
    root, _ = town
    users = _dataset(root, "industrial_users")
    assert set(users["district"]) == {"consolidated", "district_1"}
    assert users["user_id"].is_unique
    assert sorted(users.loc[users["normal_avg_flow_gpd"].isna(), "user_id"]) == [
        "IU-007",
        "IU-019",
        gen.UNPERMITTED_USER,
    ]
    # contract 6.5: a user on file that never held a permit (permit columns blank)
    never = users[users["user_id"] == gen.UNPERMITTED_USER].iloc[0]
    assert (
        pd.isna(never["permit_no"])
        and pd.isna(never["permit_effective"])
        and pd.isna(never["permit_expires"])
    )
    expires = pd.to_datetime(users["permit_expires"])
    year_end = pd.Timestamp("2026-12-31")
    assert ((expires - year_end).abs() <= pd.Timedelta(days=90)).sum() == 2
    assert (expires < pd.Timestamp("2026-11-30")).sum() == 1
    limits = _dataset(root, "permit_limits")
    assert 2 <= limits["basis"].nunique() <= 4 and set(limits["user_id"]) <= set(users["user_id"])
    assert limits["effective_to"].notna().sum() == 1
    # one monthly-average limit (contract 5.2), under Part 2's 240 mg/L per sample
    average = limits[limits["limit_type"] == "monthly_avg"]
    assert average[["user_id", "parameter", "value"]].values.tolist() == [["IU-017", "BOD", "150"]]
    # a permit that took effect during the year: samples before it are discharges without a permit
    effective = dict(zip(users["user_id"], users["permit_effective"]))
    assert effective[gen.NEW_PERMIT_USER] == "2026-02-01"


def _canonical_results(root: Path) -> pd.DataFrame:
    files = sorted((root / "lab_results").iterdir())
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
    assert ((df["p"] == "pH") & (df["x"] == 15)).sum() == 1 and (
        (df["p"] == "BOD") & (df["x"] < 0)
    ).sum() == 1

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
    town_sample = {(gen.UNPERMITTED_USER, 6, "BOD")}  # the Town's sample of the unpermitted business
    assert found == planted | chronic | town_sample
    assert set(df.loc[df["sampled_by"].notna(), "sampled_by"]) == {"town"}


def test_the_treatment_plant_record_is_not_judged_as_a_users_samples(town):
    # issue 45: the real UCI record is a treatment plant's own influent record, not samples of an industrial
    # user's discharge: no user's lab results carry it; IU-020, the neighbouring village's metered sewers,
    # has its flow and no samples
    root, _ = town
    assert not [p.name for p in (root / "lab_results").iterdir() if "uci" in p.name.lower()]
    lab = _canonical_results(root)
    assert not lab["sample_id"].astype(str).str.startswith("UCI-").any()
    assert gen.INTERMUNICIPAL_USER not in set(lab["user_id"])
    assert any(p.name.startswith(f"{gen.INTERMUNICIPAL_USER}_flow") for p in (root / "flow").iterdir())


def test_flow_files(town):
    root, _ = town
    flow_dir = root / "flow"
    name = "IU-001_flow_2025-12-01_2026-11-30.parquet"
    schema = pq.read_schema(flow_dir / name)
    assert str(schema.field("timestamp").type) == "timestamp[us, tz=UTC]"
    one = pd.read_parquet(flow_dir / name)
    assert len(one) == 365 * 96 and one["timestamp"].is_monotonic_increasing
    assert one["timestamp"].diff().dropna().eq(pd.Timedelta(minutes=15)).all()
    local = one["timestamp"].dt.tz_convert("America/New_York")
    assert local.iloc[0] == pd.Timestamp("2025-12-01 00:00", tz="America/New_York")
    units = {
        p.name: pd.read_parquet(p, columns=["unit"])["unit"].iloc[0]
        for p in flow_dir.glob("*_flow_*.parquet")
    }
    assert set(units.values()) == {"gpm", "gpd"}
    probe = pd.read_parquet(flow_dir / "IU-006_ph_probe_2026-06.parquet")
    assert set(probe["constituent"]) == {"pH"} and probe["value"].between(0, 14).all()
    real = pd.read_csv(flow_dir / "IU-019_flow_monitor_2008_real.csv")
    assert len(real) == 7195 and real["timestamp"].str.endswith("+00:00").all()


def test_flow_slugs_and_spikes(town):
    """High = above 5 x the permit average; runs of 3-6 readings are slugs, single readings are not."""
    root, _ = town
    runs = []
    for _, _, high, run in _high_runs(root):
        runs += run[high].value_counts().tolist()
    assert sum(1 for r in runs if r >= 3) >= 5  # slugs of 45-90 minutes
    assert sum(1 for r in runs if r == 1) >= 5  # lone 15-minute spikes
    assert all(r == 1 or 3 <= r <= 6 for r in runs)


def _high_runs(root: Path):
    """Per meter of a user with a permit average: (user_id, readings, high, run), where high marks the
    readings above 5 x the permit average and run numbers the stretches of equal ``high``."""
    users = _dataset(root, "industrial_users").set_index("user_id")
    for path in sorted((root / "flow").glob("IU-0*_flow_2025-12-01_2026-11-30.parquet")):
        df = pd.read_parquet(path)
        uid = df["user_id"].iloc[0]
        avg = users.loc[uid, "normal_avg_flow_gpd"]
        if pd.isna(avg):
            continue
        gpd = df["value"] * (1440 if df["unit"].iloc[0] == "gpm" else 1)
        high = gpd > 5 * float(avg)
        yield uid, df, high, (high != high.shift()).cumsum()


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
    assert len(_dataset(tmp_path, "industrial_users")) == 6 + 1  # and the one never permitted


def test_infiltration_rates_and_rainfall(town):
    root, _ = town
    tests = _dataset(root, "infiltration_tests").astype(
        {"diameter_in": int, "length_ft": int, "measured_gpd": int}
    )
    assert tests["diameter_in"].between(8, 24).all() and tests["length_ft"].between(200, 3000).all()
    allowable = 200 * tests["diameter_in"] * tests["length_ft"] / 5280
    assert 2 <= (tests["measured_gpd"] > allowable).sum() <= 3
    assert (tests["measured_gpd"] == allowable).sum() == 1  # exactly at the limit: passes
    rates = _dataset(root, "sewer_rates")
    assert set(rates["year"]) == {"2025", "2026"} and set(rates["district"]) == {"consolidated", "district_1"}
    assert set(rates["component"]) == {"bond", "om", "street_lateral", "house_lateral"}
    assert "112.345" in set(rates["rate_per_unit"])
    rain = _dataset(root, "rainfall")
    alb = rain[rain["gauge_id"] == "ALB-1"]
    assert len(alb) == 365 and alb["date"].min() == "2025-12-01" and alb["date"].max() == "2026-11-30"


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


# ------------------------------------------------------- the areas' own folders


def test_stormwater_milestones_certifications_approvals_convictions(town):
    root, _ = town
    sites = _dataset(root, "sites").set_index("site_id")
    start = pd.to_datetime(sites["construction_start"]).dt.date

    m = _dataset(root, "milestones")
    assert (
        set(m["site_id"]) <= set(sites.index)
        and not m.duplicated(["site_id", "milestone", "occurs_on"]).any()
    )
    occurs = pd.to_datetime(m["occurs_at"].fillna(m["occurs_on"] + "T00:00:00")).dt.tz_localize(TZ)
    notified = pd.to_datetime(m["notified_at"]).dt.tz_localize(TZ)
    hours = (occurs - notified).dt.total_seconds() / 3600
    short = m[hours < 48]
    assert list(zip(short["site_id"], short["milestone"])) == [gen.MILESTONE_24H]
    assert hours[hours < 48].tolist() == [24.0]
    firsts = m[m["milestone"] == "start_of_construction"]
    assert (
        pd.to_datetime(firsts["occurs_on"]).dt.date.to_numpy() == start[firsts["site_id"]].to_numpy()
    ).all()

    c = _dataset(root, "contractor_certifications")
    assert not c.duplicated(["site_id", "contractor"]).any() and c["signed_on"].notna().all()
    late = c[pd.to_datetime(c["signed_on"]) > pd.to_datetime(c["first_work_on"])]
    assert list(zip(late["site_id"], late["contractor"])) == [gen.LATE_SIGNER]

    a = _dataset(root, "swppp_approvals").set_index("site_id")
    big = sites[sites["disturbed_acres"].astype(float) > 5].index
    assert set(a.index) == set(big)
    assert (pd.to_datetime(a["approved_on"]).dt.date <= start[a.index]).all()
    allows = a["approved_max_disturbed_acres"].astype(float)
    short_of = allows < sites.loc[a.index, "disturbed_acres"].astype(float)
    assert {k: allows[k] for k in allows[short_of].index} == {gen.SHORT_APPROVAL[0]: gen.SHORT_APPROVAL[1]}
    assert sites.loc[gen.SHORT_APPROVAL[0], "disturbed_acres"] == "12.0"

    v = _dataset(root, "convictions")
    chapters = {"woodbury": "267", "bellport": "21"}
    by_applicant = sites.reset_index().set_index("applicant")
    counting = [
        r.applicant
        for r in v.itertuples()
        if r.applicant in by_applicant.index
        and chapter_number(r.chapter) == chapters[by_applicant.loc[r.applicant, "jurisdiction"]]
        and date.fromisoformat(r.convicted_on) >= AS_OF.replace(year=AS_OF.year - 5)
    ]
    assert counting == [gen.PRIOR_CONVICTION]
    assert len(v) > 1  # and some that do not count: too old, or of no applicant this year


def test_report_deliveries_cover_every_woodbury_inspection(town):
    root, _ = town
    sites = _dataset(root, "sites").set_index("site_id")
    insp = _dataset(root, "inspections")
    woodbury = insp[insp["site_id"].map(sites["jurisdiction"]).eq("woodbury") & (insp["kind"] != "officer")]
    reports = set(zip(woodbury["site_id"], woodbury["inspected_at"].str[:10]))
    d = _dataset(root, "report_deliveries")
    assert set(zip(d["site_id"], d["report_date"])) == reports and len(d) == len(reports)
    assert set(d["site_id"].map(sites["jurisdiction"])) == {"woodbury"}
    lag = (pd.to_datetime(d["delivered_on"]) - pd.to_datetime(d["report_date"])).dt.days
    assert lag.min() >= 0 and (lag > 7).sum() == gen.LATE_DELIVERIES and (lag <= 6).mean() > 0.95


def _planted_slug_days(root: Path) -> dict[str, set[date]]:
    """Local days of the runs of 3 or more readings above 5 x the permit average (the slugs)."""
    out: dict[str, set[date]] = {}
    for uid, df, high, run in _high_runs(root):
        sizes = run[high].value_counts()
        starts = df.loc[high & run.isin(sizes[sizes >= 3].index), "timestamp"].groupby(run).min()
        if len(starts):
            out[uid] = set(starts.dt.tz_convert(TZ).dt.date)
    return out


def test_reports_periodic_and_slug(town):
    root, _ = town
    users = set(_dataset(root, "industrial_users")["user_id"]) - {
        gen.UNPERMITTED_USER
    }  # no permit, no reports
    r = _dataset(root, "reports")
    assert set(r["report_type"]) == {"periodic", "slug"} and r["received_on"].notna().all()
    periodic = r[r["report_type"] == "periodic"]
    assert periodic.groupby("user_id").size().to_dict() == {u: 2 for u in users}
    assert set(zip(periodic["period_start"], periodic["period_end"])) == {
        ("2025-07-01", "2025-12-31"),
        ("2026-01-01", "2026-06-30"),
    }
    late = (pd.to_datetime(r["received_on"]) - pd.to_datetime(r["due_date"])).dt.days
    over45 = r[late > 45]
    assert (
        over45[["user_id", "report_type", "due_date"]].values.tolist()
        == [[gen.LATE_PERIODIC_USER, "periodic", "2026-01-30"]]
        and late.max() == 50
    )

    slug = r[r["report_type"] == "slug"]
    covered = {
        (u, d)
        for u, a, b in zip(slug["user_id"], slug["period_start"], slug["period_end"])
        for d in pd.date_range(a, b).date
    }
    planted = _planted_slug_days(root)
    assert len(planted) >= 4 and gen.SLUG_REPORT_MISSING in planted
    for uid, days in planted.items():
        for d in days:
            assert ((uid, d) in covered) == (uid != gen.SLUG_REPORT_MISSING), (uid, d)
    assert gen.REAL_METER_USER in set(slug["user_id"])  # the real meter's slugs too
    assert slug.loc[late[slug.index] > 0, "user_id"].tolist() == [gen.SLUG_REPORT_LATE]


def test_accidental_discharges_and_grease_traps(town):
    root, _ = town
    acc = _dataset(root, "accidental_discharges")
    occurred, notified = pd.to_datetime(acc["occurred_at"]), pd.to_datetime(acc["notified_at"])
    assert (notified >= occurred).all()
    statement = (pd.to_datetime(acc["statement_received_on"]) - notified.dt.normalize()).dt.days
    assert statement[statement > 15].tolist() == [20]
    assert acc["statement_received_on"].isna().sum() == 1  # not received yet, not yet due

    users = _dataset(root, "industrial_users").set_index("user_id")
    traps = _dataset(root, "grease_traps").set_index("trap_id")
    assert set(traps["user_id"]) == {"IU-001", "IU-002", "IU-003", "IU-009", "IU-014"}
    assert (traps["establishment"] == users.loc[traps["user_id"], "name"].to_numpy()).all()
    pumps = _dataset(root, "pumpouts")
    assert set(pumps["trap_id"]) == set(traps.index) and pumps["invoice_no"].isna().sum() == 1
    overdue = []
    for trap_id, t in traps.iterrows():
        days = sorted(pd.to_datetime(pumps.loc[pumps["trap_id"] == trap_id, "pumped_on"]).dt.date)
        interval = timedelta(days=int(t["pumpout_interval_days"]))
        previous = [date.fromisoformat(t["set_on"])] + days[:-1]
        assert all(d <= p + interval for d, p in zip(days, previous)), trap_id  # each on time
        if days[-1] + interval < AS_OF:
            overdue.append(t["user_id"])
    assert overdue == [gen.OVERDUE_TRAP_USER]


def test_sewer_budget_for_the_next_year_only(town):
    root, _ = town
    budget = _dataset(root, "sewer_budget")
    rates = _dataset(root, "sewer_rates")
    assert set(budget["year"]) == {"2027"} and not set(budget["year"]) & set(rates["year"])
    assert set(zip(budget["district"], budget["component"])) == set(
        zip(rates["district"], rates["component"])
    )
    assert (budget["amount"].astype(float) > 0).all()


def test_illicit_discharges_practices_and_connection_permits(town):
    """Contract section 5: the illicit discharge cases in their states, a case abated by the Town and paid
    in part, practices with a missing as-built plan and an early guarantee release, permits for fees."""
    root, counts = town
    cases = _dataset(root, "illicit_discharges").set_index("case_id")
    assert counts["illicit_discharges"] == 8
    town_case = cases.loc[gen.TOWN_ABATED_CASE]
    assert town_case["abated_by"] == "town" and float(town_case["abatement_cost_usd"]) == 6240.0
    payments = _dataset(root, "illicit_payments")
    paid = payments.loc[payments["case_id"] == gen.TOWN_ABATED_CASE, "amount_usd"].astype(float).sum()
    assert 0 < paid < 6240.0  # paid in part
    assert cases["hazardous"].eq("true").sum() == 1
    assert cases.loc[gen.PRE_CHAPTER_CASE, "discovered_on"] < "2007-05-03"  # before ch. 185: set aside
    assert date.fromisoformat(cases.loc["ID-2026-04", "discovered_on"]) == date(
        2026, 11, 25
    )  # before Thanksgiving
    # contract 6.5: an appeal pending on the as-of day, received on the Monday after its 15th day, a Saturday
    pending = cases.loc[gen.PENDING_APPEAL_CASE]
    fifteenth = date.fromisoformat(pending["nov_on"]) + timedelta(days=15)
    received = date.fromisoformat(pending["appeal_received_on"])
    assert fifteenth.weekday() == 5 and received == fifteenth + timedelta(days=2) <= AS_OF
    assert pd.isna(pending["appeal_decided_on"]) and pd.isna(pending["appeal_outcome"])
    assert date.fromisoformat(pending["abatement_due"]) < AS_OF  # suspended, else overdue
    # contract 7.4: an appeal received the day after its 15th day (a weekday): late, suspends nothing
    late = cases.loc[gen.LATE_APPEAL_CASE]
    fifteenth = date.fromisoformat(late["nov_on"]) + timedelta(days=15)
    assert fifteenth.weekday() < 5 and date.fromisoformat(late["appeal_received_on"]) > fifteenth
    # and one the decision vacated
    vacated = cases.loc[gen.VACATED_CASE]
    assert (
        vacated["appeal_outcome"] == "vacated" and date.fromisoformat(vacated["appeal_decided_on"]) <= AS_OF
    )
    assert set(cases["appeal_outcome"].dropna()) <= {"upheld", "modified", "vacated"}
    practices = _dataset(root, "smp_practices")
    sites = _dataset(root, "sites").set_index("site_id")
    assert set(practices["site_id"]) <= set(sites.index)
    stabilized = practices["site_id"].map(sites["final_stabilization"]).notna()
    assert (practices["as_built_received_on"].isna() & stabilized).sum() >= 1  # a missing as-built plan
    early = practices[practices["guarantee_released_on"].notna()]
    assert len(early) == 1 and early["one_year_inspection_on"].isna().all()  # released before inspection
    permits = _dataset(root, "connection_permits")
    assert set(permits["use"]) == {"single_family", "commercial", "residential"}  # one is neither word
    assert permits.loc[permits["use"] == "commercial", "in_mall_or_business_park"].eq("true").sum() == 1
    assert set(permits["parcel_id"]) <= set(_dataset(root, "parcels")["parcel_id"])


def test_required_testing_most_met_and_a_missed_month(town, tmp_path):
    """Contract 6.3 on the demo, as of its day: the requirements ingested and judged in process. The hotel
    stopped sampling after August: its September and October testing is missed, November (the current
    month) open; every other period is met."""
    from assets.ingest import ingest_asset
    from assets.sewer.testing import required_testing
    from tests.conftest import materialize_town, query_warehouse

    root, counts = town
    req = _dataset(root, "monitoring_requirements")
    assert counts["monitoring_requirements"] == len(req) and not req.duplicated().any()
    users = set(_dataset(root, "industrial_users")["user_id"])
    # most users (not the one never permitted: the administrator specifies testing in a permit)
    assert set(req["user_id"]) == users - {gen.REAL_METER_USER, gen.INTERMUNICIPAL_USER, gen.UNPERMITTED_USER}
    assert {"monthly", "quarterly", "semiannual", "annual"} == set(req["frequency"])
    assert req["sample_type"].isna().any() and {"composite", "grab"} <= set(req["sample_type"].dropna())
    user, month = gen.STOPPED_SAMPLING
    lab = _canonical_results(root)
    last = pd.to_datetime(lab.loc[lab["user_id"] == user, "collected_at"]).max()
    assert (last.year, last.month) == (2026, month)

    wh = tmp_path / "w.duckdb"
    materialize_town(
        [ingest_asset(n) for n in ("industrial_users", "lab_results", "monitoring_requirements")]
        + [required_testing],
        root,
        wh,
        AS_OF.isoformat(),
    )
    status = dict(query_warehouse(wh, "SELECT status, count(*) FROM required_testing GROUP BY ALL"))
    assert status["met"] > 20 * (status["missed"] + status["open"])
    assert query_warehouse(
        wh,
        "SELECT user_id, parameter, period_start, status FROM required_testing "
        "WHERE status <> 'met' ORDER BY ALL",
    ) == [
        (user, "BOD", date(2026, 9, 1), "missed"),
        (user, "BOD", date(2026, 10, 1), "missed"),
        (user, "BOD", date(2026, 11, 1), "open"),
        (user, "TSS", date(2026, 9, 1), "missed"),
        (user, "TSS", date(2026, 10, 1), "missed"),
        (user, "TSS", date(2026, 11, 1), "open"),
    ]
