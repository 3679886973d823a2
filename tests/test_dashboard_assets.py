"""The dashboard assets materialized on small warehouses: the full pipeline (a session's town shared with
the browser and print tests), empty and missing area tables, a killed write. The pure page builders on
small frames are tests/test_dashboards.py."""

from __future__ import annotations

import csv
import datetime as dt
import warnings
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from dashboards.html import PLOTLY_JS, esc
from dashboards.output import ensure_plotly_js, write_atomic
from outfall.demo.generate import write_letterhead
from outfall.rules import local_timezone
from tests.conftest import small_town, write
from tests.test_dashboards import EVIL, PAGES, figure_specs

warnings.filterwarnings("ignore")


def dashboard_town(root: Path) -> Path:
    """The conftest's small town plus what the dashboards show: a hostile user name, months of lab
    results with non-detects, 40 days of 15-minute flow with a slug, rain, a previous billing year,
    and the demo's letterhead (so that the letters are ready to mail and printed)."""
    small_town(root)
    write_letterhead(root)
    with open(root / "industrial_users" / "more.csv", "w", newline="", encoding="utf-8") as handle:
        w = csv.writer(handle)
        w.writerow(
            [
                "user_id",
                "name",
                "district",
                "address",
                "permit_no",
                "permit_effective",
                "permit_expires",
                "normal_avg_flow_gpd",
            ]
        )
        w.writerow(
            ["IU-3", EVIL, "consolidated", "<b>3 Forge Ln</b>", "P-3", "2025-01-01", "2026-07-15", "7200"]
        )
    lab = ["sample_id,user_id,collected_at,sample_type,parameter,result,unit,mdl,lab,method"]
    for month, bod, fog in (
        (1, "180", "40"),
        (3, "260", "<5"),
        (4, "<250", "ND"),
        (5, "230", "120"),
        (6, "250", "60"),
    ):
        lab.append(f"T-{month},IU-3,2026-{month:02d}-10T09:00,composite,BOD,{bod},mg/L,,LabA,")
        lab.append(f"T-{month},IU-3,2026-{month:02d}-10T09:00,composite,FOG,{fog},mg/L,,LabA,")
        lab.append(f"G-{month},IU-3,2026-{month:02d}-10T10:00,grab,pH,{6 + month / 10:.1f},s.u.,,LabA,")
    write(root, "lab_results/iu3.csv", "\n".join(lab) + "\n")
    flow = ["user_id,timestamp,value,unit,constituent"]
    start = dt.datetime(2026, 5, 2)
    for i in range(40 * 96):
        t = start + dt.timedelta(minutes=15 * i)
        value = 5.0 + (2.0 if 8 <= t.hour < 18 else 0.0)
        if t.date() == dt.date(2026, 6, 5) and dt.time(13, 0) <= t.time() < dt.time(13, 45):
            value = 40.0  # 8 x the permit's 5 gpm for 45 minutes: a slug
        flow.append(f"IU-3,{t:%Y-%m-%dT%H:%M}:00,{value},gpm,flow")
    write(root, "flow/iu3.csv", "\n".join(flow) + "\n")
    rain = ["gauge_id,date,precip_in"] + [
        f"G1,2026-{d:%m-%d},{p}"
        for d, p in (
            (dt.date(2026, 5, 3), 0.2),
            (dt.date(2026, 5, 20), 0.8),
            (dt.date(2026, 6, 2), 0.1),
            (dt.date(2026, 6, 15), 1.1),
        )
    ]
    write(root, "rainfall/more.csv", "\n".join(rain) + "\n")
    write(
        root,
        "inspections/more.csv",
        """
        site_id,inspected_at,inspector,kind,sediment_capacity_lost_pct,notes
        W-1,2026-05-21T09:00,J. Smith,storm,30,"<script>alert('notes')</script> fence repaired"
        W-1,2026-05-28T09:00,J. Smith,routine,10,ok
        """,
    )
    # a site whose landowner (the notice's recipient, contract 7.4) has a full mailing address and whose
    # May notice was mailed: a letter printed and on record
    write(
        root,
        "sites/w1_mailing.csv",
        """
        site_id,jurisdiction,disturbed_acres,construction_start,rain_gauge_id,name,address,applicant,impaired_water,single_family,agricultural,exempt,final_stabilization,city,state,zip,owner_name,owner_address,owner_city,owner_state,owner_zip
        W-1,woodbury,2.0,2026-05-01,G1,Oak Ridge,5 Oak,Builder Co,false,false,false,false,,\
Central Valley,NY,10917,Oak Ridge Land LLC,12 Elm St,Central Valley,NY,10917
        """,
    )
    write(
        root,
        "notices_mailed/mailed.csv",
        """
        kind,recipient_id,period,mailed_on,certified_mail_no,correct_within_days
        stormwater,W-1,2026-05,2026-06-01,7019 0001,14
        """,
    )
    write(
        root,
        "sewer_rates/rates2025.csv",
        """
        year,district,component,rate_per_unit
        2025,consolidated,bond,95.00
        2025,consolidated,om,48
        2025,consolidated,street_lateral,10
        2025,consolidated,house_lateral,5
        2025,district_1,bond,115
        2025,district_1,om,55
        2025,district_1,street_lateral,12
        2025,district_1,house_lateral,6
        """,
    )
    return root


def run_everything(data_dir: Path, warehouse: Path, as_of: str = "2026-06-30", dashboards_dir: str = ""):
    """Every asset of the project, in process (as `outfall run` does)."""
    from pipelines.definitions import all_assets, build_resources
    from tests.conftest import materialize

    resources = build_resources(
        str(warehouse), data_dir=str(data_dir), as_of=as_of, dashboards_dir=dashboards_dir
    )
    return materialize(all_assets, resources=resources, raise_on_error=True)


@pytest.fixture(scope="session")
def built_town(tmp_path_factory) -> Path:
    """A small but complete warehouse with every asset materialized; pages in <root>/dashboards."""
    root = tmp_path_factory.mktemp("dash_town")
    dashboard_town(root / "data")
    result = run_everything(root / "data", root / "w.duckdb")
    assert result.success
    return root


def _metadata(result, key: str) -> dict:
    for event in result.get_asset_materialization_events():
        if event.asset_key.to_user_string() == key:
            return {k: getattr(v, "value", v) for k, v in event.materialization.metadata.items()}
    raise AssertionError(f"{key} not materialized")


@pytest.mark.slow  # the whole job on the small town
def test_assets_write_every_page_from_the_full_pipeline(built_town: Path):
    folder = built_town / "dashboards"
    names = sorted(p.name for p in folder.iterdir() if p.is_file())
    assert set(PAGES) | {PLOTLY_JS} <= set(names)
    assert not [n for n in names if n.endswith(".tmp")]
    for name in PAGES:
        text = (folder / name).read_text(encoding="utf-8")
        assert len(text.encode()) < 2_000_000, name
        assert "cdn" not in text.lower() and "https://" not in text
        assert (
            text.count(f'src="{PLOTLY_JS}"') <= 1 and "plotly.js v" not in text
        )  # the library is not embedded
        for fid, spec in figure_specs(text).items():
            assert spec["data"], fid
    sewer = (folder / "sewer.html").read_text(encoding="utf-8")
    specs = figure_specs(sewer)
    assert {"fig-violations-heatmap", "fig-control-IU-3", "fig-flow-IU-3", "fig-control-IU-1"} <= set(specs)
    assert "<img" not in sewer and esc(EVIL) in sewer
    flow = specs["fig-flow-IU-3"]
    assert any(s["type"] == "rect" and s["x0"].startswith("2026-06-05 13:") for s in flow["layout"]["shapes"])
    storm = (folder / "stormwater.html").read_text(encoding="utf-8")
    assert "fig-site-W-1" in figure_specs(storm) and "<script>alert(" not in storm
    billing = (folder / "billing.html").read_text(encoding="utf-8")
    assert "2025 and 2026" in billing and "fig-billing-revenue" in billing
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert 'href="quarantine.html#q-' in index
    quarantine = (folder / "quarantine.html").read_text(encoding="utf-8")
    assert "furlongs" in quarantine


@pytest.mark.slow  # the whole job on the small town
def test_stormwater_page_links_the_letters_where_they_are_written(built_town: Path):
    """Regression: the page looked for letters in its own copy of the letters
    folder rule, which stopped matching assets/stormwater/swppp.py; links vanished."""
    import duckdb

    con = duckdb.connect(str(built_town / "w.duckdb"), read_only=True)
    files = [
        r[0]
        for r in con.execute("SELECT letter_file FROM swppp_notices WHERE letter_file IS NOT NULL").fetchall()
    ]
    con.close()
    assert files, "the fixture town should produce stormwater notices"
    storm = (built_town / "dashboards" / "stormwater.html").read_text(encoding="utf-8")
    for name in files:
        # a missed inspection's letter is its site's monthly notice, named relative to the dashboards folder
        path = name if name.startswith("letters/") else f"letters/stormwater/{name}"
        assert (built_town / "dashboards" / path).is_file()
        assert f'href="{path}"' in storm, name


def _ingest_only(data_dir: Path, warehouse: Path, **settings):
    from dagster_duckdb import DuckDBResource

    from assets.billing.page import billing_dashboard
    from assets.ingest import ingest_assets
    from assets.pages import dashboard_index
    from assets.sewer.page import sewer_dashboard
    from assets.stormwater.page import stormwater_dashboard
    from outfall.resources import OutfallSettings
    from tests.conftest import materialize

    return materialize(
        [
            *ingest_assets,
            sewer_dashboard,
            stormwater_dashboard,
            billing_dashboard,
            dashboard_index,
        ],
        resources={
            "duckdb": DuckDBResource(database=str(warehouse)),
            "settings": OutfallSettings(data_dir=str(data_dir), as_of="2026-06-30", **settings),
        },
        raise_on_error=True,
    )


def test_assets_render_when_area_tables_are_empty(tmp_path: Path):
    """Inputs loaded but no compliance, stormwater or billing asset run: pages say so, and still draw."""
    data = small_town(tmp_path / "data")
    out = tmp_path / "elsewhere" / "pages"
    result = _ingest_only(data, tmp_path / "w.duckdb", dashboards_dir=str(out))
    assert result.success
    md = _metadata(result, "sewer_dashboard")
    assert md["page"] == str(out / "sewer.html") and md["open_in_browser"] == (out / "sewer.html").as_uri()
    assert md["charts"] >= 1 and md["page_kb"] > 0
    sewer = (out / "sewer.html").read_text(encoding="utf-8")
    assert "No data yet" in sewer and "compliance_summary" in sewer
    # limits are drawn only as the compliance SQL applied them (the page applies no rule itself): none yet
    assert "fig-control-IU-1" not in figure_specs(sewer) and "discharge_evaluations" in sewer
    billing = (out / "billing.html").read_text(encoding="utf-8")
    assert "No data yet" in billing
    assert (out / PLOTLY_JS).exists() and not (tmp_path / "dashboards").exists()
    assert _metadata(result, "dashboard_index")["rows_quarantined"] >= 1


def test_assets_render_when_area_tables_do_not_exist(tmp_path: Path):
    """A warehouse with only the contract's tables (other areas not installed): 'has not run yet'."""
    from dagster_duckdb import DuckDBResource

    from assets.billing.page import billing_dashboard
    from assets.pages import dashboard_index
    from assets.sewer.page import sewer_dashboard
    from assets.stormwater.page import stormwater_dashboard
    from outfall.resources import OutfallSettings
    from outfall.warehouse import configure
    from tests.conftest import materialize
    from tests.ingesting import contract_ddl

    wh = tmp_path / "w.duckdb"
    con = duckdb.connect(str(wh))
    configure(con, timezone=local_timezone())
    con.execute(contract_ddl())
    con.execute(
        "INSERT INTO lab_results (sample_id, user_id, collected_at, collected_date, parameter, result, "
        "nondetect, unit) VALUES ('S', 'IU-9', TIMESTAMPTZ '2026-02-02 09:00:00-05', DATE '2026-02-02', "
        "'BOD', 300, false, 'mg/L')"
    ).fetchall()
    con.close()
    result = materialize(
        [sewer_dashboard, stormwater_dashboard, billing_dashboard, dashboard_index],
        resources={
            "duckdb": DuckDBResource(database=str(wh)),
            "settings": OutfallSettings(data_dir=str(tmp_path), as_of="2026-06-30"),
        },
        raise_on_error=True,
    )
    assert result.success
    folder = tmp_path / "dashboards"
    sewer = (folder / "sewer.html").read_text(encoding="utf-8")
    assert "has not run yet" in sewer and "fig-control-IU-9" not in figure_specs(
        sewer
    )  # no limits applied yet
    storm = (folder / "stormwater.html").read_text(encoding="utf-8")
    assert "No data yet" in storm
    assert (folder / "index.html").exists() and (folder / "quarantine.html").exists()


def test_definitions_have_the_dashboard_group():
    from pipelines.definitions import defs

    graph = defs.resolve_asset_graph()
    group = {
        k.to_user_string() for k in graph.get_all_asset_keys() if graph.get(k).group_name == "dashboards"
    }
    assert {"sewer_dashboard", "stormwater_dashboard", "billing_dashboard", "dashboard_index"} <= group
    deps = {
        k.to_user_string()
        for k in graph.get(
            next(k for k in graph.get_all_asset_keys() if k.to_user_string() == "dashboard_index")
        ).parent_keys
    }
    assert {"sewer_dashboard", "stormwater_dashboard", "billing_dashboard", "quarantine"} <= deps


def test_a_table_of_whole_numbers_shows_them_whole():
    """Regression: each row was read as a Series, which makes every number of a row of numbers only a
    float: the billing page's inspection fees read 'Year applied 2026.0'."""
    from dashboards.html import Col, table

    frame = pd.DataFrame({"year": [2026, 2025], "permits": [5, 1], "fees": [1100.0, 300.5]})
    out = table(
        frame,
        [
            Col("year", "Year applied"),
            Col("permits", "Permits", num=True),
            Col("fees", "Fees", num=True, fmt=lambda v: f"${v:,.2f}"),
        ],
    )
    assert "<td>2026</td>" in out and "2026.0" not in out and ">5</td>" in out
    assert ">$1,100.00</td>" in out and ">$300.50</td>" in out


def test_times_shown_local_as_pandas_converts_them():
    """fmt_datetime converts a datetime or Timestamp as a Python datetime (ten times faster for the
    tables of a loaded year): the same local minute as pandas' conversion, across both clock changes,
    for every kind of value a page's frames hold."""
    import zoneinfo

    from dashboards.html import fmt_datetime, is_missing

    def by_pandas(value):
        ts = pd.Timestamp(value)
        return (ts.tz_convert("America/New_York") if ts.tzinfo is not None else ts).strftime("%Y-%m-%d %H:%M")

    instants = pd.date_range("2025-03-09 05:00", "2025-03-09 09:00", freq="20min", tz="UTC").append(
        pd.date_range("2025-11-02 04:30", "2025-11-02 07:30", freq="15min", tz="UTC")
    )
    values = list(instants) + [t.to_pydatetime() for t in instants]
    values += [t.tz_convert("Europe/Berlin") for t in instants[:4]]
    values += [t.to_pydatetime().astimezone(zoneinfo.ZoneInfo("Asia/Tokyo")) for t in instants[:4]]
    values += [
        pd.Timestamp("2026-01-05 08:30:00.000000500", tz="UTC"),
        pd.Timestamp("2026-01-05 08:30"),
        dt.datetime(2026, 1, 5, 8, 30),
        "2026-01-05T08:30:00Z",
        np.datetime64("2026-01-05T08:30"),
    ]
    for value in values:
        assert fmt_datetime(value) == by_pandas(value), value
    assert fmt_datetime(pd.Timestamp("2025-11-02 05:30", tz="UTC")) == "2025-11-02 01:30"  # EDT
    assert fmt_datetime(pd.Timestamp("2025-11-02 06:30", tz="UTC")) == "2025-11-02 01:30"  # EST
    for missing in (None, pd.NaT, float("nan"), np.float64("nan"), pd.NA, np.datetime64("NaT")):
        assert is_missing(missing) and fmt_datetime(missing) == ""
    for present in ("", "nan", 0.0, float("inf"), np.float64(2.5), 0, dt.date(2026, 1, 1)):
        assert not is_missing(present)


def test_what_a_killed_write_left_is_gone_after_the_next_write(tmp_path):
    """Regression (the fault drill, a kill -9 while billing.html was written): the temporary file of
    the killed write stayed in the dashboards folder after the next run, which wrote the page again
    beside it. The next write of a file removes what killed writes of it left; one whose content is
    unchanged (a letter, plotly.js) too. Other files' temporary files are not touched."""
    from outfall.letters import write_letter

    page = tmp_path / "billing.html"
    stale = [tmp_path / ".billing.html.4qan4d4i.tmp", tmp_path / ".billing.html.x.tmp"]
    other = tmp_path / ".sewer.html.abc.tmp"
    for f in (*stale, other):
        f.write_text("half a page")
    write_atomic(page, "<p>the page</p>")
    assert page.read_text() == "<p>the page</p>"
    assert not any(f.exists() for f in stale) and other.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".sewer.html.abc.tmp", "billing.html"]

    letters = tmp_path / "letters"
    first = write_letter(letters, "NOV_IU-1_2026-11.html", "<p>a letter</p>")
    (letters / f".{first.name}.k1ll3d.tmp").write_text("half a letter")
    assert write_letter(letters, "NOV_IU-1_2026-11.html", "<p>a letter</p>") == first  # unchanged
    assert [p.name for p in letters.iterdir()] == [first.name]

    js = ensure_plotly_js(tmp_path)
    (tmp_path / f".{js.name}.k1ll3d.tmp").write_text("half of plotly")
    ensure_plotly_js(tmp_path)  # unchanged: not written again
    assert not list(tmp_path.glob(f".{js.name}.*.tmp"))
