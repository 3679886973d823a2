"""``lab_results``: monthly composites and grabs of every user for the 12 whole months to the as-of day, as
each of three labs reports them, in quarterly files (Q3 as ``.xlsx``), with the exceedances planted on purpose
and a clerk's bad rows."""

from __future__ import annotations

import io
import re
import zipfile
from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd

from outfall.demo import real
from outfall.demo.common import weekday
from outfall.demo.real import write_csv
from outfall.demo.users import INTERMUNICIPAL_USER, User

#: (user_id, month, parameter, result, unit): exceedances written on purpose.
INJECTED_EXCEEDANCES = (
    ("IU-002", 3, "BOD", "300", "mg/L"),
    ("IU-017", 5, "COD", "900", "mg/L"),
    ("IU-011", 8, "TSS", "450", "mg/L"),
    ("IU-006", 2, "pH", "5.1", "s.u."),
    ("IU-007", 10, "pH", "10.2", "s.u."),
    ("IU-008", 11, "temperature", "160", "°F"),
    ("IU-005", 10, "BOD", "420", "mg/L"),  # above the brewery's special 400
    ("IU-004", 8, "TSS", "340", "mg/L"),  # after the dairy's agreement ended
    ("IU-006", 7, "copper", "1400", "ug/L"),  # 1.4 mg/L > special 1.0
    ("IU-006", 10, "zinc", "2600", "µg/L"),  # 2.6 mg/L > special 2.0
)


#: (user_id, month): the user who stopped sampling after that month of the demo year (the hotel), so that
#: its required testing of September and October is missed and November's is open (contract 6.3).
STOPPED_SAMPLING = ("IU-018", 8)
#: IU-012 (meat processing) BOD, January-June: 5 of 6 above 240 (chronic),
#: 2 of 6 at or above 336 = 240 x 1.4 (TRC).
CHRONIC_BOD_H1 = ("IU-012", (310, 280, 360, 220, 345, 260))


def _write_xlsx(rows: list[list], header: list[str], path: Path, year: int) -> None:
    """An .xlsx whose bytes depend only on ``rows`` (fixed zip and core timestamps)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "results"
    ws.append(header)
    for row in rows:
        ws.append(row)
    stamp = datetime(year, 1, 1)
    wb.properties.created = stamp
    wb.properties.creator = "outfall demo generator"
    buf = io.BytesIO()
    wb.save(buf)  # openpyxl stamps 'modified' with the clock; rewritten below
    iso = stamp.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                data = re.sub(
                    rb"(<dcterms:(?:modified|created)[^>]*>)[^<]*(</dcterms:)",
                    rb"\g<1>" + iso + rb"\g<2>",
                    data,
                )
            fixed = zipfile.ZipInfo(info.filename, date_time=(year, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            dst.writestr(fixed, data)


LABS = {
    "A": {
        "lab": "Suffolk Environmental Laboratories",
        "names": {},
        "mg": ("mg/L",),
        "ph": "s.u.",
        "temp": "degF",
        "metal": ("ug/L",),
    },
    "B": {
        "lab": "Pace Analytical Services, Melville NY",
        "names": {"BOD": "BOD5", "FOG": "O&G", "TSS": "Total Suspended Solids"},
        "mg": ("mg/l",),
        "ph": "SU",
        "temp": "°F",
        "metal": ("µg/L",),
    },
    "C": {
        "lab": "EnviroTest Laboratories",
        "names": {},
        "mg": ("ppm", "mg/L"),
        "ph": "pH units",
        "temp": "degC",
        "metal": ("ppb",),
    },
}
METHODS = {
    "BOD": "SM 5210 B",
    "COD": "EPA 410.4",
    "TSS": "SM 2540 D",
    "FOG": "EPA 1664A",
    "chlorine_demand": "SM 2350 B",
    "pH": "SM 4500-H+ B",
    "temperature": "SM 2550 B",
    "copper": "EPA 200.7",
    "zinc": "EPA 200.7",
    "nickel": "EPA 200.7",
}
#: mg/L ranges (low, high) of the composite parameters by user strength.
STRENGTH = {
    "general": {"BOD": (40, 180), "TSS": (40, 220), "FOG": (5, 60), "chlorine_demand": (2, 15)},
    "restaurant": {"BOD": (120, 225), "TSS": (100, 250), "FOG": (30, 90), "chlorine_demand": (5, 15)},
    "dairy": {"BOD": (150, 230), "TSS": (180, 280), "FOG": (40, 90), "chlorine_demand": (4, 12)},
    "brewery": {"BOD": (170, 230), "TSS": (80, 200), "FOG": (5, 30), "chlorine_demand": (3, 10)},
    "plating": {"BOD": (20, 60), "TSS": (30, 120), "FOG": (2, 20), "chlorine_demand": (2, 8)},
    "meat": {"BOD": (150, 230), "TSS": (120, 260), "FOG": (50, 95), "chlorine_demand": (6, 18)},
    "food": {"BOD": (120, 220), "TSS": (90, 240), "FOG": (10, 40), "chlorine_demand": (3, 12)},
    "dilute": {"BOD": (2, 40), "TSS": (10, 60), "FOG": (1, 15), "chlorine_demand": (1, 6)},
}
LAB_HEADER = real.LAB_COLUMNS


def _lab_months(as_of: date) -> list[tuple[int, int]]:
    """The 12 whole calendar months that end on or before ``as_of``, oldest first
    (December of the year before .. November, for an as-of of 30 November)."""
    last = as_of + timedelta(days=1)
    y, m = (last.year, last.month)  # the month after the last whole month
    months = []
    for _ in range(12):
        y, m = (y, m - 1) if m > 1 else (y - 1, 12)
        months.append((y, m))
    return months[::-1]


def _lab_rows_for_user(u: User, year: int, as_of: date, rng: np.random.Generator) -> list[dict]:
    style = LABS[u.lab]
    injected = {(m, p): (r, unit) for uid, m, p, r, unit in INJECTED_EXCEEDANCES if uid == u.user_id}
    rows: list[dict] = []

    def add(sample_id, collected, stype, parameter, result, unit, mdl=None):
        rows.append(
            {
                "sample_id": sample_id,
                "user_id": u.user_id,
                "collected_at": collected,
                "sample_type": stype,
                "parameter": style["names"].get(parameter, parameter),
                "result": result,
                "unit": unit,
                "mdl": mdl,
                "lab": style["lab"],
                "method": METHODS[parameter],
            }
        )

    for sample_year, month in _lab_months(as_of):
        this_year = sample_year == year  # the planted cases are all in the demo year
        day = weekday(date(sample_year, month, int(rng.integers(4, 25))))
        composite_at = datetime(sample_year, month, day.day, 8, 0)
        grab_at = datetime(
            sample_year, month, day.day, 9 + int(rng.integers(0, 4)), 5 * int(rng.integers(0, 12))
        )
        cid = f"{u.user_id}-{day:%Y%m%d}-C"
        gid = f"{u.user_id}-{day:%Y%m%d}-G"
        mg_unit = style["mg"][int(rng.integers(len(style["mg"])))]
        values, mdls = _composite_values(u, month, this_year, rng)
        injected_now = injected if this_year else {}
        for parameter in ("BOD", "COD", "TSS", "FOG", "chlorine_demand"):
            result, unit = values[parameter], mg_unit
            if (month, parameter) in injected_now:
                result, unit = injected_now[(month, parameter)]
            add(cid, composite_at, "composite", parameter, result, unit, mdls[parameter])
        if u.metals:
            for metal, (lo, hi) in (("copper", (300, 900)), ("zinc", (500, 1600)), ("nickel", (100, 600))):
                result, unit = f"{rng.uniform(lo, hi):.0f}", style["metal"][0]
                if (month, metal) in injected_now:
                    result, unit = injected_now[(month, metal)]
                add(cid, composite_at, "composite", metal, result, unit)
        for parameter, result, unit in _grab_values(style, month, injected_now, rng):
            add(gid, grab_at, "grab", parameter, result, unit)
    return rows


def _composite_values(
    u: User, month: int, this_year: bool, rng: np.random.Generator
) -> tuple[dict[str, str], dict[str, float | None]]:
    """A month's composite results (as the lab writes them) and their detection limits, by the user's
    strength and the cases planted in the demo year (``this_year``)."""
    ranges = STRENGTH[u.strength]
    bod = float(rng.uniform(*ranges["BOD"]))
    if u.strength == "brewery" and this_year and month >= 4:
        bod = float(rng.uniform(260, 390))  # allowed by the special agreement
    if u.user_id == CHRONIC_BOD_H1[0] and this_year and month <= 6:
        bod = float(CHRONIC_BOD_H1[1][month - 1])
    cod_ratio = rng.uniform(1.4, 1.5) if u.strength == "brewery" else rng.uniform(1.8, 2.3)
    cod = min(bod * cod_ratio, 585.0)
    tss = float(rng.uniform(*ranges["TSS"]))
    if u.strength == "dairy" and this_year and month <= 6:
        tss = float(rng.uniform(320, 430))  # allowed until 30 June
    values = {
        "BOD": f"{bod:.0f}",
        "COD": f"{cod:.0f}",
        "TSS": f"{tss:.0f}",
        "FOG": f"{rng.uniform(*ranges['FOG']):.1f}",
        "chlorine_demand": f"{rng.uniform(*ranges['chlorine_demand']):.1f}",
    }
    mdls: dict[str, float | None] = {p: None for p in values}
    if u.strength == "dilute" and month in (2, 6, 9):
        values["BOD"], mdls["BOD"] = "<2", 2.0
    if u.user_id in ("IU-008", "IU-010", "IU-015") and month % 4 == 1:
        values["FOG"], mdls["FOG"] = "ND", 1.4
    if u.user_id == "IU-003" and this_year and month == 11:
        values["FOG"], mdls["FOG"] = "<150", 150.0  # diluted sample: inconclusive
    return values, mdls


def _grab_values(
    style: dict, month: int, injected: dict, rng: np.random.Generator
) -> list[tuple[str, str, str]]:
    """A month's grab results (parameter, result, unit): pH and temperature, in the lab's units, or the
    exceedance ``injected`` for the month."""
    ph = f"{np.clip(rng.normal(7.3, 0.45), 6.0, 8.9):.1f}"
    ph_unit = style["ph"]
    if (month, "pH") in injected:
        ph, ph_unit = injected[(month, "pH")]
    temp_f = float(rng.uniform(55, 95))
    if style["temp"] == "degC":
        temp, temp_unit = f"{(temp_f - 32) / 1.8:.1f}", "degC"
    else:
        temp, temp_unit = f"{temp_f:.0f}", style["temp"]
    if (month, "temperature") in injected:
        temp, temp_unit = injected[(month, "temperature")]
    return [("pH", ph, ph_unit), ("temperature", temp, temp_unit)]


def _bad_lab_rows(year: int) -> list[dict]:
    """What a clerk keys in on a bad day: each must be quarantined, the rest of the file kept.
    All dated October-November of ``year``, before the as-of date."""
    lab = LABS["A"]["lab"]
    base = {"sample_type": "composite", "mdl": None, "lab": lab}
    return [
        {
            **base,
            "sample_id": f"IU-003-{year}1021-X",
            "user_id": "IU-003",
            "collected_at": datetime(year, 10, 21, 8),
            "parameter": "BOD",
            "result": "150",
            "unit": "furlongs",
            "method": "SM 5210 B",
        },
        {
            **base,
            "sample_id": f"IU-009-{year}1104-X",
            "user_id": "IU-009",
            "collected_at": datetime(year, 11, 4, 8),
            "parameter": "TSS",
            "result": "abc",
            "unit": "mg/L",
            "method": "SM 2540 D",
        },
        {
            **base,
            "sample_id": f"IU-013-{year}1112-X",
            "user_id": "IU-013",
            "collected_at": datetime(year, 11, 12, 10, 30),
            "sample_type": "grab",
            "parameter": "pH",
            "result": "15",
            "unit": "s.u.",
            "method": "SM 4500-H+ B",
        },
        {
            **base,
            "sample_id": f"IU-014-{year}1117-X",
            "user_id": "IU-014",
            "collected_at": datetime(year, 11, 17, 8),
            "parameter": "BOD",
            "result": "-12",
            "unit": "mg/L",
            "method": "SM 5210 B",
        },
        {
            **base,
            "sample_id": None,
            "user_id": "IU-016",
            "collected_at": datetime(year, 11, 19, 8),
            "parameter": "COD",
            "result": "210",
            "unit": "mg/L",
            "method": "EPA 410.4",
        },
    ]


def _stop_sampling(rows: list[dict], year: int) -> list[dict]:
    """``rows`` without the samples of :data:`STOPPED_SAMPLING`'s user after its last month (taken out after
    they were drawn, so that every other user's numbers stay as they were)."""
    user, month = STOPPED_SAMPLING
    first_missing = datetime(year, month + 1, 1)
    return [r for r in rows if r["user_id"] != user or r["collected_at"] < first_missing]


def write_lab_results(users: list[User], out: Path, year: int, as_of: date, rng: np.random.Generator) -> int:
    rows: list[dict] = []
    for u in users:
        if u.user_id != INTERMUNICIPAL_USER:  # a village's sewers: metered, sampled under its own agreement
            rows.extend(_lab_rows_for_user(u, year, as_of, rng))
    rows = _stop_sampling(rows, year)
    rows.extend(_bad_lab_rows(year))  # all dated in Q4: they land in the Q4 file
    df = pd.DataFrame(rows, columns=LAB_HEADER)
    when = pd.to_datetime(df["collected_at"])
    quarter = list(zip(when.dt.year, (when.dt.month - 1) // 3 + 1))
    written = 0
    for y, q in sorted(set(quarter)):
        part = df[[k == (y, q) for k in quarter]].sort_values(
            ["collected_at", "user_id", "sample_type"], kind="stable"
        )
        if (y, q) == (year, 3):
            records = [
                [_xlsx_cell(k, v) for k, v in zip(LAB_HEADER, r)] for r in part.itertuples(index=False)
            ]
            _write_xlsx(records, LAB_HEADER, out / f"lab_results_{y}_Q3.xlsx", year)
            written += len(part)
        else:
            text = part.copy()
            text["collected_at"] = pd.to_datetime(text["collected_at"]).dt.strftime("%Y-%m-%dT%H:%M:%S")
            written += write_csv(text, out / f"lab_results_{y}_Q{q}.csv")
    return written


def _xlsx_cell(column: str, value):
    """A spreadsheet cell as a lab's export has it: real datetimes, numbers as numbers."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return value.to_pydatetime()
    if column == "result":
        try:
            return float(value)
        except ValueError:
            return value  # "<2", "ND"
    return value
