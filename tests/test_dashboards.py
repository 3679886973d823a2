"""Dashboards: the pure page builders on small frames. The dashboard assets materialized on small
warehouses are tests/test_dashboard_assets.py; the browser test is tests/test_browser.py."""

from __future__ import annotations

import datetime as dt
import json
import re
import warnings
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from dashboards.billing import BillingData, build_billing_page
from dashboards.html import PLOTLY_JS, Chart, esc, script_json, short_rule
from dashboards.index import IndexData, PageCard, build_index_page, build_quarantine_page
from dashboards.output import ensure_plotly_js, write_atomic
from dashboards.sewer import SewerData, build_sewer_page, user_summary
from dashboards.sewer_control import label_results, limit_steps
from dashboards.sewer_flow import choose_bucket_hours, slug_words
from dashboards.stormwater import StormwaterData, build_stormwater_page, site_status
from outfall.paths import REPO_ROOT
from outfall.rules import load_rules, local_timezone

warnings.filterwarnings("ignore")

AS_OF = dt.date(2026, 6, 30)
EVIL = '<img src=x onerror="console.error(\'xss\')"> & "Sons" Metal'
PAGES = ("index.html", "sewer.html", "stormwater.html", "billing.html", "quarantine.html")


def figure_specs(page_html: str) -> dict[str, dict]:
    """Every figure embedded in a page, parsed as the browser will parse it."""
    specs = {}
    for fid, text in re.findall(
        r'<script type="application/json" id="(fig-[^"]+)">(.*?)</script>', page_html, re.S
    ):
        specs[fid] = json.loads(text)
    return specs


# --------------------------------------------------------------------------- small frames


def ts(text: str) -> pd.Timestamp:
    return pd.Timestamp(text, tz="America/New_York")


def sewer_frames() -> SewerData:
    users = pd.DataFrame(
        [
            {
                "user_id": "IU-1",
                "name": "Acme Plating",
                "district": "consolidated",
                "address": "1 Main St",
                "permit_no": "P-1",
                "permit_expires": pd.Timestamp("2026-08-01"),
                "normal_flow_gpd": 14400.0,
            },
            {
                "user_id": "IU-2",
                "name": EVIL,
                "district": "district_1",
                "address": "<b>2 Mill</b>",
                "permit_no": "P-2",
                "permit_expires": pd.Timestamp("2028-01-01"),
                "normal_flow_gpd": None,
            },
        ]
    )
    rule_bod = (
        "Woodbury Code ch. 253 Part 2, discharges requiring Town Board approval, (a): BOD in excess of 240 "
        "mg/l"
    )
    rule_ph = "Woodbury Code ch. 253 Part 2, prohibited discharges, C: pH lower than 5.5"
    lab = pd.DataFrame(
        [
            {
                "user_id": "IU-1",
                "sample_id": "S-1",
                "parameter": "BOD",
                "collected_at": ts("2026-02-02 09:00"),
                "value": 240.0,
                "nondetect": False,
                "qualifier": None,
                "unit": "mg/L",
                "sample_type": "composite",
            },
            {
                "user_id": "IU-1",
                "sample_id": "S-2",
                "parameter": "BOD",
                "collected_at": ts("2026-03-03 09:00"),
                "value": 300.0,
                "nondetect": False,
                "qualifier": None,
                "unit": "mg/L",
                "sample_type": "composite",
            },
            {
                "user_id": "IU-1",
                "sample_id": "S-3",
                "parameter": "BOD",
                "collected_at": ts("2026-04-03 09:00"),
                "value": 5.0,
                "nondetect": True,
                "qualifier": "<",
                "unit": "mg/L",
                "sample_type": "composite",
            },
            {
                "user_id": "IU-1",
                "sample_id": "S-4",
                "parameter": "BOD",
                "collected_at": ts("2026-05-03 09:00"),
                "value": 250.0,
                "nondetect": True,
                "qualifier": "<",
                "unit": "mg/L",
                "sample_type": "composite",
            },
            {
                "user_id": "IU-1",
                "sample_id": "S-5",
                "parameter": "pH",
                "collected_at": ts("2026-02-02 10:00"),
                "value": 5.4,
                "nondetect": False,
                "qualifier": None,
                "unit": "s.u.",
                "sample_type": "grab",
            },
            {
                "user_id": "IU-1",
                "sample_id": "S-6",
                "parameter": "copper",
                "collected_at": ts("2026-02-02 10:00"),
                "value": 0.2,
                "nondetect": False,
                "qualifier": None,
                "unit": "mg/L",
                "sample_type": "grab",
            },
            {
                "user_id": "IU-2",
                "sample_id": "S-7",
                "parameter": "BOD",
                "collected_at": ts("2026-02-05 09:00"),
                "value": 100.0,
                "nondetect": False,
                "qualifier": None,
                "unit": "mg/L",
                "sample_type": "composite",
            },
        ]
    )
    evals = []
    for _, r in lab.iterrows():
        if r["parameter"] == "BOD":
            outcome = (
                "violation"
                if r["value"] > 240 and not r["nondetect"]
                else "inconclusive"
                if r["nondetect"] and r["value"] > 240
                else "compliant"
            )
            evals.append(
                {
                    **r,
                    "limit_type": "max",
                    "limit_value": 240.0,
                    "rule": rule_bod,
                    "limit_source": "Part 2",
                    "outcome": outcome,
                    "exceedance_ratio": r["value"] / 240,
                }
            )
        if r["parameter"] == "pH":
            evals.append(
                {
                    **r,
                    "limit_type": "min",
                    "limit_value": 5.5,
                    "rule": rule_ph,
                    "limit_source": "Part 2",
                    "outcome": "violation",
                    "exceedance_ratio": 5.5 / 5.4,
                }
            )
            evals.append(
                {
                    **r,
                    "limit_type": "max",
                    "limit_value": 9.5,
                    "rule": "ch. 253 Part 2: pH over 9.5",
                    "limit_source": "Part 2",
                    "outcome": "compliant",
                    "exceedance_ratio": 5.4 / 9.5,
                }
            )
    evals = pd.DataFrame(evals)
    violations = evals[evals["outcome"] == "violation"].assign(unit=lambda f: f["unit"])
    inconclusive = pd.DataFrame(
        [
            {
                "user_id": "IU-1",
                "sample_id": "S-4",
                "parameter": "BOD",
                "collected_at": ts("2026-05-03 09:00"),
                "detection_value": 250.0,
                "qualifier": "<",
                "unit": "mg/L",
                "limit_value": 240.0,
                "limit_type": "max",
                "reason": "non-detect above the limit",
                "rule": "Contract section 4",
            }
        ]
    )
    summary = pd.DataFrame(
        [
            {
                "user_id": "IU-1",
                "name": "Acme Plating",
                "month": pd.Timestamp("2026-03-01"),
                "samples_taken": 1,
                "violations": 1,
                "statistic_violations": 0,
                "inconclusive": 0,
                "slugs": 1,
                "worst_exceedance_ratio": 1.25,
                "worst_parameter": "BOD",
                "permit_no": "P-1",
                "permit_expires": pd.Timestamp("2026-08-01"),
                "days_left": 32,
                "permit_expiry_flag": True,
                "permit_status": "expires soon",
            },
            {
                "user_id": "IU-2",
                "name": EVIL,
                "month": pd.Timestamp("2026-02-01"),
                "samples_taken": 1,
                "violations": 0,
                "statistic_violations": 0,
                "inconclusive": 0,
                "slugs": 0,
                "worst_exceedance_ratio": None,
                "worst_parameter": None,
                "permit_no": "P-2",
                "permit_expires": pd.Timestamp("2028-01-01"),
                "days_left": 550,
                "permit_expiry_flag": False,
                "permit_status": "in effect",
            },
        ]
    )
    t = pd.date_range("2026-05-01", periods=48, freq="1h")
    flow = pd.DataFrame(
        {
            "user_id": "IU-1",
            "constituent": "flow",
            "ts": t,
            "value": 10.0,
            "unit": "gpm",
            "kind": "mean",
            "bucket_hours": 1,
        }
    )
    flow = flow.drop(index=[5, 6])  # a gap in the means
    raw = pd.DataFrame(
        {
            "user_id": "IU-1",
            "constituent": "flow",
            "ts": pd.date_range("2026-05-02 10:00", periods=6, freq="15min"),
            "value": [10, 60, 61, 62, 10, 10],
            "unit": "gpm",
            "kind": "slug",
            "bucket_hours": 1,
        }
    )
    slugs = pd.DataFrame(
        [
            {
                "user_id": "IU-1",
                "constituent": "flow",
                "start_at": ts("2026-05-02 10:15"),
                "end_at": ts("2026-05-02 10:45"),
                "duration_min": 45,
                "baseline": 10.0,
                "peak_value": 62.0,
                "peak_ratio": 6.2,
                "unit": "gpm",
                "rule": "ch. 253 Part 2, SLUG",
            }
        ]
    )
    baselines = pd.DataFrame(
        {
            "user_id": "IU-1",
            "constituent": "flow",
            "local_day": pd.to_datetime(["2026-05-01", "2026-05-02"]),
            "baseline": [10.0, 10.0],
            "threshold": [50.0, 50.0],
            "baseline_source": "the permit's normal average flow",
        }
    )
    results = label_results(lab, evals)
    return SewerData(
        as_of=AS_OF,
        users=users,
        results=results,
        limits=evals,
        violations=violations,
        statistic_violations=pd.DataFrame(),
        inconclusive=inconclusive,
        summary=summary,
        flow=pd.concat([flow, raw], ignore_index=True),
        slugs=slugs,
        baselines=baselines,
        gaps=pd.DataFrame(),
        permit_warn_days=90,
        slug_rules=pd.DataFrame(
            [
                {
                    "effective_from": dt.date(1986, 11, 20),
                    "effective_to": dt.date(9999, 12, 31),
                    "ratio": 5.0,
                    "min_duration_min": 15.0,
                    "rule": "Woodbury Code ch. 253 Part 2, definitions: SLUG",
                }
            ]
        ),
        present={
            t: True
            for t in (
                "industrial_users",
                "lab_results",
                "flow",
                "discharge_violations",
                "statistic_violations",
                "inconclusive_results",
                "slug_events",
                "compliance_summary",
                "discharge_evaluations",
            )
        },
    )


def test_sewer_page_charts_limits_nondetects_and_escaping():
    html_text, meta = build_sewer_page(sewer_frames())
    specs = figure_specs(html_text)
    assert meta.charts == len(specs) == 3  # heat map, IU-1 control + flow; IU-2 has no finding: not charted
    assert {"fig-violations-heatmap", "fig-control-IU-1", "fig-flow-IU-1"} <= set(specs)
    quiet = html_text[html_text.index('id="users-without-findings"') :]
    assert 'id="user-IU-2"' in quiet and esc(EVIL) in quiet  # one table of the users without findings
    # names from input files are escaped in the HTML and never open a tag
    assert EVIL not in html_text and "<img" not in html_text
    assert esc(EVIL) in html_text and "&lt;b&gt;2 Mill&lt;/b&gt;" in html_text
    # chart labels too (Plotly reads some tags in text): the heat map's row of IU-2
    assert any(
        label.startswith("IU-2 · &lt;img") for label in specs["fig-violations-heatmap"]["data"][0]["y"]
    )
    control = specs["fig-control-IU-1"]
    # the limit is drawn and labelled with its value and section
    labels = [a["text"] for a in control["layout"]["annotations"]]
    assert any(lab.startswith("max 240 mg/L · Woodbury ch. 253 Part 2") for lab in labels)
    assert any(
        lab.startswith("min 5.5 s.u. · Woodbury ch. 253 Part 2, prohibited discharges, C") for lab in labels
    )
    # points: a violation (300), a non-detect as an open circle, an inconclusive non-detect as an open diamond
    bod = next(t for t in control["data"] if t.get("name") == "BOD")
    symbols = dict(zip(bod["x"], bod["marker"]["symbol"]))
    assert symbols["2026-03-03 09:00"] == "circle" and bod["marker"]["color"][1] == 3  # violation
    assert symbols["2026-04-03 09:00"] == "circle-open"
    assert symbols["2026-05-03 09:00"] == "diamond-open"
    assert "non-detect &lt;5 mg/L" in bod["text"][2]
    # the unlimited parameter is named, not charted
    assert "no limit defined: copper" in html_text
    # the flow: regular means as x0/dx with a gap, slug window shaded, baseline and threshold drawn
    flow = specs["fig-flow-IU-1"]
    means = next(t for t in flow["data"] if t.get("name") == "hourly mean")
    assert means["x0"] == "2026-05-01 00:30" and means["dx"] == 3_600_000 and means["y"]["dtype"] == "f4"
    assert any(s["type"] == "rect" and s["x0"] == "2026-05-02 10:15" for s in flow["layout"]["shapes"])
    names = {t.get("name") for t in flow["data"]}
    assert {"every reading near a slug", "slug event (peak, × baseline)"} <= names
    assert any(n and n.startswith("baseline") for n in names)
    # permits expiring soon are listed
    assert "Permits expiring within 90 days" in html_text and "expires in 32 days" in html_text


def test_sewer_page_without_any_table_says_no_data_yet():
    html_text, meta = build_sewer_page(SewerData(as_of=AS_OF, present={"industrial_users": False}))
    assert "No data yet" in html_text and "has not run yet" in html_text
    assert meta.charts == 0 and "plotly.min.js" not in html_text.split("<footer>")[0]


def test_sewer_page_with_empty_tables():
    empty = pd.DataFrame()
    data = SewerData(
        as_of=AS_OF,
        users=empty,
        results=empty,
        limits=empty,
        violations=empty,
        summary=empty,
        flow=empty,
        slugs=empty,
        present={"industrial_users": True, "discharge_violations": True},
    )
    html_text, _ = build_sewer_page(data)
    assert "No data yet" in html_text and "none in the data so far" in html_text


def test_user_summary_counts_the_year_to_the_as_of_month():
    data = sewer_frames()
    s = user_summary(data).set_index("user_id")
    assert int(s.loc["IU-1", "violations"]) == 1 and bool(s.loc["IU-1", "permit_expiry_flag"])
    assert not bool(s.loc["IU-2", "permit_expiry_flag"])
    # without compliance_summary: days left from industrial_users; the flag is the compliance summary's
    # only (the page judges no permit itself, so none is flagged until the summary exists)
    data.summary = None
    s = user_summary(data).set_index("user_id")
    assert int(s.loc["IU-1", "days_left"]) == 32 and not bool(s.loc["IU-1", "permit_expiry_flag"])


@pytest.mark.parametrize(
    "span,expected", [(0, 1), (1500, 1), (1500.5, 2), (3000, 2), (8760, 6), (17520, 12), (10**7, 168)]
)
def test_choose_bucket_hours(span, expected):
    assert choose_bucket_hours(span, 1500) == expected


@pytest.mark.parametrize(
    "budget, users, share",
    [
        (500_000, 0, 500_000),  # nobody charted: the whole budget
        (500_000, 1, 500_000),
        (500_000, 2, 250_000),
        (500_000, 3, 166_666),  # rounded down: never more than the budget in all
        (500_000, 2000, 250),
        (500_000, 499_999, 1),
        (500_000, 500_000, 1),
        (500_000, 500_001, 1),  # at least one point each
        (1, 1, 1),
    ],
)
def test_flow_points_per_user_at_its_boundaries(budget, users, share):
    from dashboards.sewer_flow import flow_points_per_user

    assert flow_points_per_user(budget, users) == share
    assert share * max(users, 1) <= budget or share == 1


@pytest.mark.parametrize("budget, users", [(0, 1), (-1, 1), (10, -1)])
def test_flow_points_per_user_refuses_no_budget_or_fewer_than_no_users(budget, users):
    from dashboards.sewer_flow import flow_points_per_user

    with pytest.raises(ValueError):
        flow_points_per_user(budget, users)


def test_long_sections_are_laid_out_when_near_the_screen_and_all_printed():
    """A long page's sections are drawn only as they near the screen (content-visibility: auto, with a
    guessed height until then); on paper every section is laid out whole, so every row prints."""
    from dashboards.html import CSS, PRINT_CSS

    assert "main>section{content-visibility:auto;contain-intrinsic-size:auto 900px}" in CSS
    printed = PRINT_CSS[PRINT_CSS.index("@media print{") :]
    assert "main>section{content-visibility:visible;contain-intrinsic-size:none}" in printed


def test_label_results_prefers_evaluations_then_violation_tables():
    data = sewer_frames()
    lab = data.results.drop(columns=["outcome", "limit_value", "limit_type", "exceedance_ratio", "rule"])
    out = label_results(lab, data.limits).set_index("sample_id")
    assert out.loc["S-2", "outcome"] == "violation" and out.loc["S-2", "limit_value"] == 240
    assert out.loc["S-4", "outcome"] == "inconclusive" and pd.isna(out.loc["S-4", "limit_value"])
    assert out.loc["S-5", "outcome"] == "violation" and out.loc["S-5", "limit_type"] == "min"
    assert pd.isna(out.loc["S-6", "outcome"])  # no limit
    fallback = label_results(lab, None, data.violations, data.inconclusive).set_index("sample_id")
    assert fallback.loc["S-2", "outcome"] == "violation" and fallback.loc["S-4", "outcome"] == "inconclusive"
    assert pd.isna(fallback.loc["S-1", "outcome"])


def test_slug_labels_say_each_version_of_the_definition():
    one = sewer_frames().slug_rules
    assert slug_words(one) == (
        "readings more than 5 × the baseline for longer than 15 minutes",
        "Woodbury Code ch. 253 Part 2, definitions: SLUG",
    )
    two = pd.concat(
        [
            one.assign(effective_to=dt.date(2027, 2, 28)),
            one.assign(effective_from=dt.date(2027, 3, 1), ratio=4.0, rule="Local Law No. 2 of 2027"),
        ]
    )
    words, citation = slug_words(two)
    assert "from" in words and "more than 4 × the baseline" in words and "more than 5 ×" in words
    assert "Local Law No. 2 of 2027" in citation
    assert (
        slug_words(None)[0] == "readings above the slug threshold of their day"
    )  # no slug rules applied yet


def test_limit_steps_keep_the_corners():
    lim = pd.DataFrame(
        {
            "t": pd.date_range("2026-01-01", periods=5, freq="D"),
            "limit_value": [240, 240, 400, 400, 240],
            "rule": ["a", "a", "b", "b", "a"],
        }
    )
    assert list(limit_steps(lim)["limit_value"]) == [240, 400, 240]


def test_the_pages_baselines_are_the_corners_of_each_step_line():
    """sql/sewer/select_dashboard_slug_baselines.sql: the first and last day of each meter, and every
    day whose baseline or threshold is not the day before's; a day without a threshold is kept."""
    from dashboards import query

    con = duckdb.connect()
    days = pd.DataFrame(
        {
            "user_id": ["U"] * 6 + ["V"] * 2,
            "constituent": "flow",
            "local_day": list(pd.date_range("2026-01-01", periods=6).date)
            + list(pd.date_range("2026-01-01", periods=2).date),
            "baseline": [1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 5.0, 5.0],
            "threshold": [5.0, 5.0, 10.0, None, None, 10.0, 25.0, 25.0],
            "baseline_source": "trailing",
        }
    )
    con.register("days", days)
    con.execute("CREATE TABLE slug_daily_stats AS SELECT * FROM days")
    con.execute("INSERT INTO slug_daily_stats VALUES ('U', 'flow', DATE '2026-01-07', NULL, NULL, 'none')")
    out = con.execute(query("select_dashboard_slug_baselines")).df()
    assert [(u, d.day, b) for u, d, b in zip(out["user_id"], out["local_day"], out["baseline"])] == [
        ("U", 1, 1.0),
        ("U", 3, 2.0),
        ("U", 4, 2.0),
        ("U", 5, 2.0),
        ("U", 6, 2.0),
        ("V", 1, 5.0),
        ("V", 2, 5.0),
    ]


def test_script_json_cannot_close_the_script_element():
    text = script_json({"name": "</script><script>alert(1)</script><!--", "n": 1})
    assert "</script" not in text and "<!--" not in text
    assert json.loads(text)["name"].startswith("</script>")
    with pytest.raises(ValueError):
        script_json({"y": float("nan")})


def test_short_rule_keeps_chapter_and_subsection():
    rule = (
        "Woodbury Code ch. 253 Part 2, discharges requiring Town Board approval, (a): BOD in excess of 240 "
        "mg/l"
    )
    assert short_rule(rule) == "Woodbury ch. 253 Part 2, discharges requiring Town Board approval, (a)"
    assert short_rule(rule, 40) == "Woodbury ch. 253 Part 2, …, (a)"


def storm_frames() -> StormwaterData:
    sites = pd.DataFrame(
        [
            {
                "site_id": "W-1",
                "jurisdiction": "woodbury",
                "name": "Oak <Ridge>",
                "applicant": "Builder & Co",
                "address": "5 Oak",
                "disturbed_acres": 2.0,
                "construction_start": pd.Timestamp("2026-05-01"),
                "final_stabilization": pd.NaT,
                "rain_gauge_id": " G1 ",
                "exempt": False,
            },
            {
                "site_id": "B-1",
                "jurisdiction": "bellport",
                "name": "Single home",
                "applicant": "Owner",
                "address": "6 Oak",
                "disturbed_acres": 2.0,
                "construction_start": pd.Timestamp("2026-05-01"),
                "final_stabilization": pd.NaT,
                "rain_gauge_id": "G1",
                "exempt": False,
            },
        ]
    )
    classification = pd.DataFrame(
        [
            {
                "site_id": "W-1",
                "conditions": None,
                "inspections_required": True,
                "active": True,
                "reason": "1+ acre",
            },
            {
                "site_id": "B-1",
                "conditions": None,
                "inspections_required": False,
                "active": True,
                "reason": "single family",
            },
        ]
    )
    findings = pd.DataFrame(
        [
            {
                "site_id": "W-1",
                "requirement": "weekly",
                "trigger_date": pd.Timestamp("2026-05-08"),
                "due_by": pd.Timestamp("2026-05-15"),
                "satisfied_on": pd.Timestamp("2026-05-16"),
                "status": "late",
                "days_late": 1,
                "rule": "Woodbury Code ch. 267, construction inspection: every seven days",
            },
            {
                "site_id": "W-1",
                "requirement": "storm",
                "trigger_date": pd.Timestamp("2026-06-20"),
                "due_by": pd.Timestamp("2026-06-21"),
                "satisfied_on": pd.NaT,
                "status": "overdue",
                "days_late": 9,
                "rule": "Woodbury Code ch. 267, construction inspection: within 24 hours",
            },
        ]
    )
    upcoming = pd.DataFrame(
        [
            {
                "site_id": "W-1",
                "site_name": "Oak <Ridge>",
                "requirement": "weekly",
                "due_by": pd.Timestamp("2026-07-02"),
                "days_until_due": 2,
                "status": "upcoming",
                "inspector": "J. Smith",
                "detail": "7 days after",
                "rule": "r",
            },
            {
                "site_id": "W-1",
                "site_name": "Oak <Ridge>",
                "requirement": "weekly",
                "due_by": pd.Timestamp("2026-07-20"),
                "days_until_due": 20,
                "status": "upcoming",
                "inspector": "J. Smith",
                "detail": "later",
                "rule": "r",
            },
        ]
    )
    inspections = pd.DataFrame(
        [
            {
                "site_id": "W-1",
                "inspected_on": pd.Timestamp("2026-05-08"),
                "inspector": "J. Smith",
                "kind": "routine",
                "sediment_capacity_lost_pct": 10.0,
                "notes": "<script>alert('x')</script> silt fence ok",
            },
            {
                "site_id": "W-1",
                "inspected_on": pd.Timestamp("2026-05-16"),
                "inspector": "J. Smith",
                "kind": "storm",
                "sediment_capacity_lost_pct": None,
                "notes": None,
            },
        ]
    )
    rain = pd.DataFrame(
        {
            "gauge_key": "g1",
            "date": pd.to_datetime(["2026-05-10", "2026-05-12", "2026-06-20"]),
            "precip_in": [0.49, 0.5, 1.2],
        }
    )
    return StormwaterData(
        as_of=AS_OF,
        sites=sites,
        classification=classification,
        findings=findings,
        other=pd.DataFrame(),
        notices=pd.DataFrame(),
        upcoming=upcoming,
        inspections=inspections,
        rain=rain,
        rules={"woodbury": load_rules("woodbury")},
        present={"swppp_upcoming": True},
    )


def test_stormwater_page_timeline_threshold_findings_and_week():
    html_text, meta = build_stormwater_page(storm_frames())
    specs = figure_specs(html_text)
    assert meta.charts == 2 and set(specs) == {"fig-site-W-1", "fig-site-B-1"}
    w1 = specs["fig-site-W-1"]
    labels = [a["text"] for a in w1["layout"]["annotations"]]
    assert any(
        lab.startswith("0.5 in storm threshold · Woodbury ch. 267, construction inspection") for lab in labels
    )
    assert any(s.get("y0") == 0.5 and s["type"] == "line" for s in w1["layout"]["shapes"])
    names = [t.get("name") or "" for t in w1["data"]]
    assert any(n.startswith("storm day") for n in names) and any(n.startswith("late") for n in names)
    assert any(n.startswith("overdue") for n in names) and "routine inspection" in names
    # the gauge id is matched without case or blanks; 0.49 in is not a storm day, 0.50 is
    storm = next(t for t in w1["data"] if (t.get("name") or "").startswith("storm day"))
    assert storm["x"] == ["2026-05-12", "2026-06-20"]
    # notes and names escaped; this week's inspection first, then every later one (on paper too)
    assert "<script>alert" not in html_text and "Oak &lt;Ridge&gt;" in html_text
    assert "2026-07-02" in html_text and "Due after Tuesday July 7 (1)</h3>" in html_text
    assert html_text.index("2026-07-02") < html_text.index("Due after") < html_text.index("2026-07-20")
    status = site_status(storm_frames()).set_index("site_id")["status"].to_dict()
    assert status == {"W-1": "overdue", "B-1": "not required"}


def test_a_site_whose_construction_starts_after_the_day_is_not_started():
    """Contract 8.1: its start is the plan's day; the page says when it starts, not that it is active."""
    data = storm_frames()
    data.as_of, data.findings = dt.date(2026, 4, 1), data.findings.iloc[0:0]  # nothing found before it
    status = site_status(data).set_index("site_id")
    assert status.loc["W-1", "status"] == "not started" and not status.loc["W-1", "started"]
    assert status.loc["B-1", "status"] == "not required" and not status.loc["B-1", "started"]
    html_text, _ = build_stormwater_page(data)
    for site in ("W-1", "B-1"):
        assert f"starts {pd.Timestamp(status.loc[site, 'construction_start']):%Y-%m-%d}" in html_text
    assert "0 needing inspections" in html_text


def test_stormwater_page_without_tables():
    html_text, meta = build_stormwater_page(StormwaterData(as_of=AS_OF, present={"sites": False}))
    assert meta.charts == 0 and "No data yet" in html_text


def billing_frames(prev: bool = True) -> BillingData:
    rows = []
    for year in [2025, 2026] if prev else [2026]:
        for district, cls, parcels, units in (
            ("consolidated", "single_family", 2, 2),
            ("district_1", "restaurant", 1, 5),
        ):
            rate = 100 if year == 2025 else 110
            rows.append(
                {
                    "year": year,
                    "district": district,
                    "property_class": cls,
                    "parcels": parcels,
                    **{f"units_{c}": units for c in ("bond", "om", "street_lateral", "house_lateral")},
                    **{
                        f"amount_{c}": units * rate for c in ("bond", "om", "street_lateral", "house_lateral")
                    },
                    "total_usd": 4 * units * rate,
                }
            )
    largest = pd.DataFrame(
        [
            {
                "parcel_id": "P-2",
                "district": "district_1",
                "property_class": "restaurant",
                "units_bond": 5,
                "units_om": 5,
                "units_street_lateral": 5,
                "units_house_lateral": 5,
                "total_usd": 2200.0,
                "explanation": "restaurant, 51 seats",
                "owner": "Diner <LLC>",
                "address": "2 Elm",
            }
        ]
    )
    changes = pd.DataFrame(
        [
            {
                "parcel_id": "P-2",
                "change": "amount_up",
                "class_before": "restaurant",
                "class_after": "restaurant",
                "district_before": "district_1",
                "district_after": "district_1",
                "units_bond_change": 0,
                "units_om_change": 0,
                "units_street_lateral_change": 0,
                "units_house_lateral_change": 0,
                "total_before": 32394.5,
                "total_after": 33522.0,
                "total_change": 1127.5,
                "detail": "total 32394.50 -> 33522.00 USD (+1127.50)",
                "owner": "Diner <LLC>",
                "address": "2 Elm",
            },
            {
                "parcel_id": "P-1",
                "change": "reclassed",
                "class_before": "single_family",
                "class_after": "two_family",
                "district_before": "consolidated",
                "district_after": "consolidated",
                "units_bond_change": 1,
                "units_om_change": 1,
                "units_street_lateral_change": 1,
                "units_house_lateral_change": 1,
                "total_before": 440.0,
                "total_after": 880.0,
                "total_change": 440.0,
                "detail": "class single_family -> two_family; total 440.00 -> 880.00 USD (+440.00)",
                "owner": "Muñoz, Ana",
                "address": "1 Elm",
            },
        ]
    )
    rates = pd.DataFrame(
        [
            {"year": y, "district": d, "component": c, "rate_per_unit": r, "rate_source": src}
            for y, r in ((2025, 100.0), (2026, 110.0))
            for d in ("consolidated", "district_1")
            for c, src in (
                ("bond", "sewer_rates"),
                ("om", "sewer_budget"),
                ("street_lateral", "sewer_rates"),
                ("house_lateral", "sewer_rates"),
            )
        ]
    )
    runs = pd.DataFrame(
        [
            {
                "year": 2026,
                "run_id": 2,
                "run_at": pd.Timestamp("2026-01-02 08:00", tz="UTC"),
                "rules_version": "2026.12.5",
                "rate_source": "sewer_rates+sewer_budget",
                "parcels_billed": 3,
                "total_usd": 3080.0,
                "run_hash": "ab" * 32,
            }
        ]
    )
    return BillingData(
        as_of=AS_OF,
        year=2026,
        previous_year=2025 if prev else None,
        totals=pd.DataFrame(rows),
        largest=largest,
        changes=changes if prev else None,
        rates=rates,
        rates_by="the Town Board",  # who adopts the rates (the rules' billing rule)
        runs=runs,
        change_counts=pd.DataFrame([{"change": "amount_up", "parcels": 3, "total_change": 280.0}]),
        rule="Woodbury Code ch. 253 Part 3, Sewer Use Rate Schedule (L.L. No. 2-1986)",
        rule_short="ch. 253 Part 3",
        bill_rule="Woodbury Code ch. 253 Part 3: units times the rate",
        district_names=NAMES,
        billed_years=[2025, 2026],
        present={"sewer_bills": True, "bill_changes": True},
    )


NAMES = {"consolidated": "Consolidated Sewer District", "district_1": "Sewer District #1"}


def test_billing_page_totals_changes_and_escaping():
    html_text, meta = build_billing_page(billing_frames())
    specs = figure_specs(html_text)
    assert meta.charts == 3 and set(specs) == {
        "fig-billing-revenue",
        "fig-billing-units",
        "fig-billing-classes",
    }
    rev = specs["fig-billing-revenue"]
    assert rev["data"][0]["x"] == [
        [
            "Consolidated Sewer District",
            "Consolidated Sewer District",
            "Sewer District #1",
            "Sewer District #1",
        ],
        ["2025", "2026", "2025", "2026"],
    ]
    assert rev["data"][0]["y"] == [200, 220, 500, 550]  # bond: units x rate
    assert "$3,080" in html_text  # 2026 total: 4 x (2 + 5) x 110
    assert "+10.0%" in html_text and "Diner &lt;LLC&gt;" in html_text and "Diner <LLC>" not in html_text
    html_one, _ = build_billing_page(billing_frames(prev=False))
    assert "No earlier billed year" in html_one


def test_billing_page_in_plain_words():
    """The clerk's page: no code word, each change said once, money with "$" and separators, every figure
    with its billing year, each parcel with its owner, rules one click from their short citation, the
    runs' fingerprints only in the auditor's block."""
    from tests.test_print import BILLING_FORBIDDEN, figure_strings, hits, visible_text

    html_text, _ = build_billing_page(billing_frames())
    text = visible_text(html_text)
    assert hits(text, BILLING_FORBIDDEN) == {} and hits(figure_strings(html_text), BILLING_FORBIDDEN) == {}
    for code in ("single_family", "two_family", "consolidated ", "rate_source", "sewer_rates", "run_hash"):
        assert code not in text, code
    assert text.count("$32,394.50 → $33,522.00 (+$1,127.50)") == 1
    assert "32394.50" not in text and " -> " not in text and "USD (" not in text  # said once, in words
    assert "property class single-family → two-family; bond units +1" in text
    assert "Higher amount, same units" in text and "Property class changed" in text
    assert "the district's budget divided by its units" in text and "the rate the Town Board adopted" in text
    assert "billed, billing year 2026" in text and "change from billing year 2025" in text
    assert "P-2 Diner <LLC>" in text  # the owner beside the parcel
    # The rule: its short citation, the full text in a <details> one click away.
    assert re.search(
        r'<details class="rule"><summary>ch\. 253 Part 3</summary><span class="full">Woodbury Code '
        r"ch\. 253 Part 3: units times the rate; Woodbury Code ch\. 253 Part 3, Sewer Use Rate",
        html_text,
    )
    # The fingerprint only inside the auditor's block.
    auditor = re.search(r"<details class=\"more\"><summary>For the auditor.*?</details>", html_text, re.S)
    assert auditor and "ab" * 32 in auditor.group(0) and html_text.count("ab" * 32) == 1
    # Where each year's inspection fees are listed is true for every year.
    fees = pd.DataFrame(
        [
            {
                "year": y,
                "permits": 1,
                "water_inspections": 1,
                "sewer_inspections": 0,
                "water_fees_usd": 300.0,
                "sewer_fees_usd": 0.0,
                "total_usd": 300.0,
                "not_in_schedule": 0,
            }
            for y in (2024, 2026)
        ]
    )
    data = billing_frames()
    data.fees = fees
    text = visible_text(build_billing_page(data)[0])
    assert "sewer_register_2026.xlsx, sheet Inspection fees" in text and "sewer_register_2024" not in text
    assert "no register for 2024 (the year was not billed)" in text


@pytest.mark.parametrize(
    "module",
    sorted((REPO_ROOT / "dashboards").rglob("*.py")),
    ids=lambda p: str(p.relative_to(REPO_ROOT / "dashboards")),
)
def test_page_functions_are_short(module):
    """A page is a list of panels, and a chart a list of named steps: no function of dashboards/ is longer
    than about 60 lines, and no module longer than 500."""
    import ast

    tree = ast.parse(module.read_text(encoding="utf-8"))
    long = {
        f.name: f.end_lineno - f.lineno + 1
        for f in ast.walk(tree)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.end_lineno - f.lineno + 1 > 60
    }
    assert long == {}, f"{module.relative_to(REPO_ROOT)}: split these into named steps: {long}"
    lines = len(module.read_text(encoding="utf-8").splitlines())
    assert lines <= 500, f"{module.relative_to(REPO_ROOT)}: {lines} lines; split it along its sections"


def test_billing_page_without_bills():
    html_text, meta = build_billing_page(BillingData(as_of=AS_OF, present={"sewer_bills": False}))
    assert meta.charts == 0 and "No data yet" in html_text and "sewer_bills" in html_text


def test_index_and_quarantine_pages_show_bad_rows():
    q = pd.DataFrame(
        [
            {
                "dataset": "lab_results",
                "source_file": "q1.csv",
                "row_number": 9,
                "reason": "unit 'furlongs' is not a concentration unit",
                "raw": '{"unit": "<furlongs>"}',
                "quarantined_at": ts("2026-06-01 10:00"),
            }
        ]
    )
    data = IndexData(
        as_of=AS_OF,
        cards=[
            PageCard(
                "sewer.html",
                "Industrial users",
                "Superintendent",
                "charts",
                True,
                [("3", "violations", "bad")],
            ),
            PageCard("billing.html", "Sewer roll", "Clerk", "bills", False),
        ],
        ingested=pd.DataFrame(
            [
                {
                    "dataset": "lab_results",
                    "files": 1,
                    "rows_read": 10,
                    "rows_kept": 9,
                    "rows_quarantined": 1,
                    "last_loaded": ts("2026-06-01 10:00"),
                }
            ]
        ),
        ranges=pd.DataFrame(
            [
                {
                    "dataset": "lab_results",
                    "what": "samples collected",
                    "first": dt.date(2026, 2, 2),
                    "last": dt.date(2026, 7, 2),
                    "observed": True,
                }
            ]
        ),
        quarantine_counts=pd.DataFrame([{"dataset": "lab_results", "reason": "unit", "rows": 1}]),
        quarantine=q,
        quarantine_total=1,
        held_back=pd.DataFrame(
            [
                {"dataset": "lab_results", "rows_after": 2, "later_facts_after": 0, "quarantined_after": 1},
                {"dataset": "sites", "rows_after": 0, "later_facts_after": 1, "quarantined_after": 0},
            ]
        ),
    )
    index_html, _ = build_index_page(data)
    assert 'href="quarantine.html#q-lab_results"' in index_html and 'href="sewer.html"' in index_html
    assert "Not written yet" in index_html  # billing page not there
    assert "2026-02-02 to 2026-07-02" in index_html
    # contract 8.1: the index says how many rows dated after the day the run did not judge, per folder
    assert "2 input rows dated after June 30, 2026 were not judged</strong> (lab_results 2)" in index_html
    assert "1 row was judged as it stood on June 30, 2026" in index_html and "sites 1" in index_html
    assert "1 row that could not be read and is dated after June 30, 2026 is not listed" in index_html
    q_html, meta = build_quarantine_page(data)
    assert 'id="q-lab_results"' in q_html and "&lt;furlongs&gt;" in q_html and "<furlongs>" not in q_html
    assert meta.counts == {"quarantined": 1, "shown": 1, "set_aside": 0, "not_judged": 0}
    none_html, _ = build_quarantine_page(IndexData(as_of=AS_OF, quarantine=q.iloc[0:0], quarantine_total=0))
    assert "No input row was rejected" in none_html and 'id="not-judged"' not in none_html


NOT_JUDGED = pd.DataFrame(
    [
        {
            "asset": "required_testing",
            "section": "required_testing",
            "reason": "not judged: no required_testing rule of the rules is in effect on 1999-03-31",
            "items": 7,
            "first_day": dt.date(1999, 1, 31),
            "last_day": dt.date(1999, 7, 31),
            "examples": ["IU-1 BOD monthly <1999-01>", "IU-1 BOD monthly 1999-02"],
        }
    ]
)


def test_quarantine_page_lists_what_no_rule_could_judge():
    """The panel not_judged: frame in, HTML out; each asset, section and reason on a line with its days,
    its count and the first things by name; no section when there is nothing to list."""
    from tests.test_print import visible_text

    html_text, meta = build_quarantine_page(
        IndexData(as_of=AS_OF, quarantine=pd.DataFrame(), quarantine_total=0, not_judged=NOT_JUDGED)
    )
    text = visible_text(html_text)
    assert "Not judged: no rule in effect on the day" in text
    assert (
        "required_testing required_testing not judged: no required_testing rule of the rules is in effect on "
        "1999-03-31 7 1999-01-31 to 1999-07-31 IU-1 BOD monthly <1999-01>; IU-1 BOD monthly 1999-02; "
        "and 5 more"
    ) in text
    assert "&lt;1999-01&gt;" in html_text and meta.counts["not_judged"] == 7
    assert (
        'id="not-judged"'
        not in build_quarantine_page(IndexData(as_of=AS_OF, not_judged=NOT_JUDGED.iloc[0:0]))[0]
    )


def test_the_quarantine_pages_reader_groups_what_was_not_judged(tmp_path):
    """sql/run/select_dashboard_not_judged.sql through the index's reader: one line per asset, section and
    reason, the first few things by name, in order."""
    from assets.common import schema_ddl
    from assets.pages import NOT_JUDGED_EXAMPLES, read_index_data
    from assets.run import record_not_judged
    from outfall.resources import OutfallSettings, RulesResource
    from outfall.rules.tables import NotJudged
    from outfall.warehouse import configure, ensure_schema
    from tests.test_print import visible_text

    con = configure(duckdb.connect(str(tmp_path / "w.duckdb")), timezone=local_timezone())
    ensure_schema(con, schema_ddl())
    why = "not judged: no slug rule of the rules is in effect on the day"
    record_not_judged(
        con,
        "slug_events",
        [NotJudged(f"IU-{n:02d} flow readings", dt.date(1999, 1, n), "slug", why) for n in range(9, 0, -1)],
    )
    settings = OutfallSettings(data_dir=str(tmp_path), as_of="2026-11-30")
    rules = RulesResource(rules_dir=settings.rules_dir, town=settings.town)
    data = read_index_data(con, settings, rules, tmp_path / "dash")
    con.close()
    rows = data.not_judged.to_dict("records")
    assert len(rows) == 1 and data.present["not_judged"]
    row = rows[0]
    assert (row["asset"], row["section"], row["reason"], row["items"]) == ("slug_events", "slug", why, 9)
    assert (row["first_day"], row["last_day"]) == (pd.Timestamp(1999, 1, 1), pd.Timestamp(1999, 1, 9))
    assert list(row["examples"]) == [f"IU-{n:02d} flow readings" for n in range(1, NOT_JUDGED_EXAMPLES + 1)]
    text = visible_text(build_quarantine_page(data)[0])
    assert "IU-01 flow readings; IU-02 flow readings" in text and "; and 4 more" in text


def test_chart_html_is_lazy_and_pages_share_plotly(tmp_path: Path):
    chart = Chart(
        "x<1>", {"data": [{"type": "bar", "x": ["a"], "y": [1]}], "layout": {}}, title="T & U", height=300
    )
    text = chart.html()
    assert 'data-fig="fig-x-1"' in text and "T &amp; U" in text
    js = ensure_plotly_js(tmp_path)
    mtime = js.stat().st_mtime_ns
    assert js.name == PLOTLY_JS and js.stat().st_size > 1_000_000
    assert ensure_plotly_js(tmp_path).stat().st_mtime_ns == mtime  # written once
    good = js.read_bytes()
    js.write_bytes(good[:-1] + b"!")  # the same size, another last byte (a damaged copy): written again
    assert ensure_plotly_js(tmp_path).read_bytes() == good
    write_atomic(tmp_path / "p.html", "one")
    write_atomic(tmp_path / "p.html", "two")
    assert (tmp_path / "p.html").read_text() == "two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.html", PLOTLY_JS]  # no temp files left


# ---------------------------------------------------------------------------
# plain words, periods, panels (issue 28)


def test_values_carry_their_units_and_counts_their_period():
    from dashboards.html import fmt_measure, months_words, to_date_words, units_in_words

    assert fmt_measure(8256.944, "gpm") == "8,257 gpm" and fmt_measure(26.388889, "gpm") == "26.4 gpm"
    assert fmt_measure(769.184, "gpm") == "769 gpm" and fmt_measure(150, "degF") == "150 °F"
    assert (
        fmt_measure(240.01, "mg/L", exact=True) == "240.01 mg/L"
    )  # a result is never rounded onto its limit
    assert (
        fmt_measure(5.49, "s.u.", exact=True) == "5.49 s.u." and fmt_measure(0.01234, "mg/L") == "0.0123 mg/L"
    )
    assert fmt_measure(None, "gpm") == "" and fmt_measure(0, "gpm") == "0 gpm"
    assert months_words(dt.date(2025, 1, 1), dt.date(2026, 11, 23)) == "January 2025 to November 2026"
    assert months_words("2026-03-02", "2026-03-30") == "March 2026"
    assert to_date_words(dt.date(2026, 11, 30)) == "2026 to date (January 1 to November 30)"
    assert units_in_words("temperature 160 degF in sample S-1") == "temperature 160 °F in sample S-1"
    assert (
        units_in_words("flow slug peaking at 8256.944 gpm (9.8795 x baseline)")
        == "flow slug peaking at 8,257 gpm (9.9 × baseline)"
    )


def test_a_rule_is_cited_short_and_its_text_listed_once():
    from dashboards.html import RuleNotes

    notes = RuleNotes("r")
    head = "40 CFR 403.8(f)(2)(viii) as published 2005-10-14 (70 FR 60134): significant noncompliance"
    chronic, trc = (
        f"{head}; no earlier criteria: chronic, 66%",
        f"{head}; no earlier criteria: technical review, 33%",
    )
    bod = (
        "Woodbury Code ch. 253 Part 2, discharges requiring Town Board approval, (a): BOD in excess of 240 "
        "mg/l"
    )
    cells = [notes.cite(chronic, 26), notes.cite(bod, 32), notes.cite(chronic, 26), notes.cite(trc, 26)]
    assert cells[0] == cells[2] and "40 CFR 403.8(f)(2)(viii)…" in cells[0] and 'href="#r-1">[1]' in cells[0]
    assert "Woodbury ch. 253 Part 2, …, (a)" in cells[1] and "in excess" not in "".join(cells)
    listed = notes.notes()
    assert listed.count("no earlier criteria") == 1 and listed.count("BOD in excess of 240 mg/l") == 1
    assert (
        'id="r-1" value="1">chronic, 66%' in listed and 'id="r-3" value="3">technical review, 33%' in listed
    )
    assert RuleNotes("empty").notes() == ""


def test_a_table_keeps_a_long_sentence_on_a_second_line():
    from dashboards.html import Col, table

    frame = pd.DataFrame({"id": ["S-1", "S-2"], "why": ["a long sentence", ""]})
    out = table(
        frame,
        [Col("id", "Sample", width="20%"), Col("why", "Why", screen_only=True)],
        detail=lambda r: esc(r["why"]),
    )
    assert '<th style="width:20%">Sample</th>' in out and '<th class="no-print">Why</th>' in out
    assert out.count('<tbody class="pair">') == 2 and '<td colspan="2">a long sentence</td>' in out
    assert out.count('class="detail"') == 1  # no empty second line


def test_the_sewer_page_opens_with_the_worklist_and_counts_with_periods():
    data = sewer_frames()
    data.worklist = pd.DataFrame(
        [
            {
                "person": "superintendent",
                "action": "Renew the permit of Acme Plating (P-1)",
                "subject_id": "IU-1",
                "due": dt.date(2026, 8, 1),
                "status": "upcoming",
                "source": "obligations",
                "ref": "permit_renewal P-1",
                "subject_name": "Acme Plating",
                "days_left": 32,
                "link": "sewer.html#user-IU-1",
                "detail": None,
            }
        ]
    )
    data.snc = pd.DataFrame(
        [
            {
                "user_id": "IU-1",
                "period_start": dt.date(2026, 1, 1),
                "period_end": dt.date(2026, 6, 30),
                "parameter": "BOD",
                "criterion": "trc",
                "measurements": 3,
                "count": 1,
                "pct": 33.3,
                "basis": "sample",
                "rule": "40 CFR 403.8(f)(2)(viii): technical review criteria",
            }
        ]
    )
    data.statistic_violations = pd.DataFrame(
        [
            {
                "user_id": "IU-1",
                "parameter": "BOD",
                "statistic": "monthly_avg",
                "period_start": dt.date(2026, 3, 1),
                "period_end": dt.date(2026, 3, 31),
                "value": 181.25,
                "limit_value": 150.0,
                "unit": "mg/L",
                "samples": 2,
                "rule": "Permit P-1: monthly average",
            }
        ]
    )
    data.other_items = pd.DataFrame(
        [
            {
                "kind": "sewer",
                "user_id": "IU-1",
                "period": "2026-04",
                "item": "late_report",
                "ref": "2026-04-15",
                "item_on": dt.date(2026, 4, 15),
                "description": "required: the periodic report of 2026-H1; not received",
                "rule": "Woodbury Code ch. 253 Part 2, reports",
                "notice_status": "draft",
                "issued_on": None,
                "notice_id": "NOV-SE-IU-1-2026-04",
            }
        ]
    )
    html_text, _ = build_sewer_page(data)
    main = html_text.split("<main>", 1)[1]
    assert main.index('id="worklist"') < main.index('class="kpis"') < main.index('id="summary"')
    assert "Renew the permit of Acme Plating (P-1)" in main
    # each count with its period; the year to date is the annual report's count, not a card here (one count,
    # one meaning: the violations are the items of the notices)
    assert "violations, February 2026 to May 2026" in main
    assert "limits broken, 2026 to date" not in main.split('id="summary"')[0]
    # one count, one meaning (contract 7.5): the items of the notices, the length of the violations list
    assert (
        '>4</div><div class="kpi-label">violations, February 2026 to May 2026' in main
    )  # 2 samples + 1 average + 1 report late
    assert "4 violations, February 2026 to May 2026" in main  # the user's chip: the same number
    findings = main[main.index('id="findings"') :]
    assert "the periodic report of 2026-H1" in findings and "April 2026, draft" in findings
    # words, units and names, not codes
    assert "technical review criteria" in main and "monthly average" in main and ">trc<" not in main
    assert "150 mg/L" in main and "181 mg/L" in main and "62 gpm" in main and "10 gpm" in main
    assert '<a href="#user-IU-1">IU-1</a> <span class="who">Acme Plating</span>' in main
    assert "max 240 mg/L" in main and "[1]" in main and "The rules cited, in full" in main


def test_the_follow_up_lists_the_violations_on_mailed_notices_and_counts_the_rest():
    from dashboards.notices import sewer_follow_up

    base = {
        "user_id": "IU-1",
        "parameter": "BOD",
        "collected_date": dt.date(2026, 3, 3),
        "correction_days": 30,
        "violation_days": 0,
        "max_penalty_usd": 0,
    }
    frame = pd.DataFrame(
        [
            {
                **base,
                "sample_id": "S-1",
                "notice_period": "2026-03",
                "notice_status": "mailed",
                "status": "corrected",
                "issued_on": dt.date(2026, 4, 2),
                "correct_by": dt.date(2026, 5, 2),
                "follow_up": "The next analysis complied with the limit within the period to correct.",
            },
            *(
                {
                    **base,
                    "sample_id": f"S-{i}",
                    "notice_period": "2026-04",
                    "notice_status": "draft",
                    "status": "draft",
                    "follow_up": "The notice listing this violation is a draft",
                }
                for i in (2, 3)
            ),
        ]
    )
    out = sewer_follow_up(frame, {"IU-1": "Acme Plating"})
    assert "S-1" in out and "S-2" not in out and "Acme Plating" in out
    assert "2 of the 3 violations are on notices not mailed (2 on 1 draft notice)" in out
    assert (
        '<tr class="detail"><td colspan="12">The next analysis complied' in out and "corrected in time" in out
    )


def test_the_stormwater_page_says_its_codes_in_words():
    data = storm_frames()
    data.rules["bellport"] = load_rules("bellport")
    data.classification = data.classification.assign(conditions=["A, B", None])
    data.smp_findings = pd.DataFrame(
        [
            {
                "practice_id": "SMP-1",
                "site_id": "W-1",
                "finding": "guarantee_release",
                "rule": "Woodbury Code ch. 267, performance guarantee A: not before a year",
                "due": dt.date(2027, 9, 10),
                "status": "overdue",
                "jurisdiction": "woodbury",
                "practice_type": "dry well",
            }
        ]
    )
    data.follow_up = pd.DataFrame(
        [
            {
                "site_id": "W-1",
                "finding": "report_not_delivered",
                "due_by": dt.date(2026, 6, 1),
                "status": "late",
                "notice_period": "2026-06",
                "issued_on": dt.date(2026, 6, 5),
                "remedial_due_by": dt.date(2026, 6, 12),
                "violation_periods": 2,
                "penalty_per": "week",
                "total_fine_max_usd": 700,
            }
        ]
    )
    html_text, _ = build_stormwater_page(data)
    text = re.sub(r"<[^>]+>", " ", html_text)
    assert "Town of Woodbury" in text and "Village of Bellport" in text and " woodbury " not in text
    assert "Conditions A and B" in html_text and "<dt>Condition A</dt>" in html_text
    assert "Discharge of a pollutant of concern" in html_text  # the legend, in the rules' own words
    assert "released early; could not be released before September 10, 2027" in html_text
    assert (
        "Released too early" in html_text and ">Overdue<" not in html_text.split('id="practices"')[1][:3000]
    )
    assert "inspection report not delivered in time" in html_text and "2 weeks" in html_text
    assert "Penalty periods" not in html_text and "Days (or weeks) of penalty" in html_text


def test_a_slugs_shown_end_is_its_start_plus_its_minutes():
    """Contract 4's duration is last reading minus first plus one interval: a slug of 5-minute readings from
    10:00 to 10:30 lasted 35 minutes, and its shown end is 10:35, so that From, To and Minutes agree."""
    import datetime as dt

    from dashboards.html import slug_end_text

    start = dt.datetime(2026, 7, 12, 14, 0, tzinfo=dt.UTC)  # 10:00 in New York
    last = dt.datetime(2026, 7, 12, 14, 30, tzinfo=dt.UTC)
    assert slug_end_text(start, 35, last) == "2026-07-12 10:35"
    assert slug_end_text(start, None, last) == "2026-07-12 10:30"  # no duration: the last reading


def test_the_page_shell_escapes_text_and_keeps_html():
    """The shell (templates/pages/page.html, autoescaped) escapes the title and the town as ``esc`` does the
    panels' text, and writes the subtitle, body and footer note, which are HTML, as they are."""
    from dashboards.html import esc, page

    title, town = 'O\'Brien <Pump> & "Sons"', "Town of O'Hara"
    text = page(
        file="sewer.html",
        title=title,
        subtitle="<b>sub</b>",
        body="<p>body</p>",
        as_of=dt.date(2026, 11, 30),
        generated_at=dt.datetime(2026, 12, 1, 9, 5),
        has_charts=False,
        footer_note=" <a href='x'>note</a>",
        town=town,
    )
    assert text.startswith('<!DOCTYPE html>\n<html lang="en" data-print-width=') and text.endswith(
        "</html>\n"
    )
    assert f"<title>{esc(title)} · Outfall</title>" in text and f"<h1>{esc(title)}</h1>" in text
    assert f'<div class="brand">{esc(town)} · sewer &amp; stormwater compliance</div>' in text
    assert '<div class="sub"><b>sub</b></div>' in text and "<main><p>body</p></main>" in text
    assert "as of 2026-11-30 · page written 2026-12-01 09:05 · times in" in text
    assert "beside this page. <a href='x'>note</a></footer></body></html>" in text
    assert '<a href="sewer.html" class=on>' in text and "<script" not in text
