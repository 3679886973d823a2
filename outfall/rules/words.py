"""The law's numbers in words, from the rules files: the one source of the assets'
descriptions (what the Dagster UI shows) and of the pages' labels.

Nothing here states a number of the law: every number is read from the rules,
in the version in effect today (a description says what the asset applies now;
each finding applies the version of its own day, and says which). When the
rules change, the descriptions change with them.

    from outfall.rules.words import DESCRIBE
    @asset(description=DESCRIBE.slug_events())
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from functools import cached_property
from typing import Any

from outfall.rules.dated import RulesError
from outfall.rules.town import TownRules, load_town


def num(value: Any) -> str:
    """240 -> '240', 5.5 -> '5.5', Decimal('350.00') -> '350', 1.4 -> '1.4'."""
    if isinstance(value, Decimal):
        value = float(value)
    return f"{float(value):g}" if isinstance(value, (int, float)) else str(value)


def usd(value: Any) -> str:
    """Decimal('1000.00') -> '$1,000'; Decimal('0.35') -> '$0.35'."""
    d = Decimal(str(value))
    return f"${d:,.0f}" if d == d.to_integral_value() else f"${d:,.2f}"


def acres(value: Any) -> str:
    """1 -> '1 acre', 5 -> '5 acres'."""
    return "? acres" if value is None else f"{num(value)} acre{'' if num(value) == '1' else 's'}"


def penalty_words(pen: Any) -> str:
    """A sewer use penalty in the words of the parts its section has: 'a fine up to $250 plus a civil
    penalty up to $250 per violation, each day a separate violation'."""
    parts = []
    if pen.fine_max_usd is not None:
        parts.append(f"a fine up to {usd(pen.fine_max_usd)}")
    jail = pen.imprisonment_max_days or getattr(pen, "imprisonment_max_months", None)
    if jail is not None:
        unit = "days" if pen.imprisonment_max_days is not None else "months"
        parts.append(f"imprisonment up to {jail} {unit}")
    if pen.civil_max_usd is not None:
        parts.append(f"a civil penalty up to {usd(pen.civil_max_usd)}")
    each = f", each {pen.per} a separate violation" if pen.per else ""
    return f"{' plus '.join(parts)} per violation{each}"


def current(versions: Iterable[Any], day: dt.date | None = None) -> Any:
    """The version in effect on ``day`` (today), else the latest that began before it, else the first:
    for words about the rules, never for judging (judging asks ``.at(day)`` of the day judged). None when
    the rules state no version (a part a code leaves out)."""
    if not versions:
        return None
    items = sorted(versions, key=lambda v: v.starts)
    day = day or dt.date.today()
    for v in items:
        if v.in_effect(day):
            return v
    started = [v for v in items if v.starts <= day]
    return (started or items)[-1]


def parameter_words(parameter: str) -> str:
    return {"TSS": "TSS", "FOG": "FOG", "BOD": "BOD", "COD": "COD", "pH": "pH"}.get(
        parameter, parameter.replace("_", " ")
    )


def limits_words(limits: Iterable[Any]) -> str:
    """'BOD > 240 mg/L, ..., pH < 5.5 or > 9.5 s.u.' (per-sample limits, strict, in the file's order)."""
    by_parameter: dict[str, list[Any]] = {}
    for lim in limits:
        by_parameter.setdefault(lim.parameter, []).append(lim)
    parts = []
    for parameter, items in by_parameter.items():
        sides = [
            f"{'>' if lim.limit_type == 'max' else '<'} {num(lim.as_written[0])}"
            for lim in sorted(items, key=lambda lim: lim.limit_type != "min")
        ]
        parts.append(f"{parameter_words(parameter)} {' or '.join(sides)} {items[0].as_written[1]}")
    return ", ".join(parts)


def tiers_words(penalty: Any) -> str:
    """'$250-500 / $500-1,000 / $1,000-5,000 per day' (up to $350 when a tier starts at $0)."""
    tiers = []
    for t in sorted(penalty.tiers, key=lambda t: t.offense):
        tiers.append(f"up to {usd(t.max_usd)}" if t.min_usd == 0 else f"{usd(t.min_usd)}-{usd(t.max_usd)}")
    return " / ".join(tiers) + f" per {penalty.per}"


_ORDINALS = {1: "a first", 2: "a second", 3: "a third"}


def stormwater_penalty_words(penalty: Any, imprisonment_max_months: int | None) -> str:
    """The stormwater penalties stated whole, as the section states them (contract 7.4): each offense's
    fine and imprisonment, the look-back of prior offenses, and each day's (week's) continued violation a
    separate violation. ``penalty``: a version of ``penalties.stormwater``; ``imprisonment_max_months``:
    ``swppp.convictions``' (None: the section sets none)."""
    jail = (
        f" or imprisonment for a period not to exceed {imprisonment_max_months} "
        f"month{'s' if imprisonment_max_months != 1 else ''}, or both"
        if imprisonment_max_months
        else ""
    )
    tiers = sorted(penalty.tiers, key=lambda t: t.offense)
    parts = []
    for t in tiers:
        fine = (
            f"a fine not exceeding {usd(t.max_usd)}"
            if t.min_usd == 0
            else f"a fine of not less than {usd(t.min_usd)} nor more than {usd(t.max_usd)}"
        )
        which = _ORDINALS.get(t.offense, f"a {t.offense}th")
        if t.offense == len(tiers) and t.offense > 1:
            which += " or subsequent"
        within = (
            f", {'both' if t.offense == 2 else 'all'} committed within {penalty.lookback_years} years"
            if t.offense > 1
            else ""
        )
        parts.append(f"on conviction of {which} offense{within}, {fine}{jail}")
    each = "day's" if penalty.per == "day" else "week's"
    return (
        "; ".join(parts)[:1].upper()
        + "; ".join(parts)[1:]
        + (f". Each {each} continued violation is a separate additional violation.")
    )


class Describe:
    """Descriptions of the assets, from the shipped rules (loaded once, when first asked)."""

    @cached_property
    def loaded(self) -> TownRules | None:
        try:
            return load_town()
        except RulesError:  # a broken rules file stops `outfall run` with its own message; words say so
            return None

    @property
    def rules(self) -> dict[str, Any]:
        return dict(self.loaded.rules) if self.loaded is not None else {}

    @property
    def town(self) -> str:
        """The town running Outfall (its rules file's name)."""
        return self.loaded.jurisdiction if self.loaded is not None else ""

    def law(self, name: str, jurisdiction: str | None = None, fallback: str = "") -> str:
        """How a description cites the law ``name`` of the town (or of ``jurisdiction``): its short name."""
        rules = self.rules.get(jurisdiction or self.town)
        try:
            return rules.law(name).short if rules is not None else fallback
        except RulesError:
            return fallback

    def _get(self, jurisdiction: str, *path: str) -> Any:
        value: Any = self.rules.get(jurisdiction)
        for name in path:
            value = getattr(value, name, None) if value is not None else None
        return value

    def municipality(self) -> str:
        """The town's kind as a sentence names it ("Town", "City": its rules' ``kind``)."""
        rules = self.rules.get(self.town)
        return rules.municipality if rules is not None else "municipality"

    def mailing(self) -> str:
        """How the town's law has sewer notices served ("certified mail"), else "mail"."""
        enforcement = self._get(self.town, "sewer_enforcement")
        return current(enforcement).mailing if enforcement else "mail"

    def extension(self) -> str:
        """' (a period that ends on a weekend or holiday ends on the next business day, <the law>)' as the
        town's rules name the law that moves it, else "" (none moves)."""
        versions = self._get(self.town, "deadline_extension")
        version = current(versions) if versions else None
        if version is None:
            return ""
        law = version.citation.split(":", 1)[0].strip()
        return f" (a period that ends on a weekend or holiday ends on the next business day, {law})"

    # ------------------------------------------------------------- sewer

    def discharge_violations(self) -> str:
        limits = self._get(self.town, "discharge_limits")
        now = limits.at(dt.date.today()) if limits is not None else ()
        return (
            "Sample results that break a per-sample limit of "
            f"{self.law('sewer_use', fallback='the sewer use law')} "
            f"({limits_words(now) or 'no limits in the rules'}; the limits the law leaves to a body, as "
            "that body adopts them), each result against the limits in effect on its own day, permit limits "
            "(special agreements) replacing the default while in effect. Also writes discharge_evaluations, "
            "inconclusive_results (non-detects above a limit) and unlimited_results (no limit in effect)."
        )

    def statistic_violations(self) -> str:
        nd = self._get(self.town, "nondetect_averaging")
        policy = current(nd).default.replace("_", " ") if nd else "(no policy in the rules)"
        return (
            "Daily-maximum (the day's composite, else the mean of its grabs) and monthly-average (mean of "
            "the month's results) permit limits, strictly exceeded "
            f"({self.law('sewer_use', fallback='the sewer use law')}, special agreements); non-detects "
            f"enter the averages as the rules' non-detect policy of their day says (now: {policy}). Also "
            "writes statistic_results (every period judged)."
        )

    def slug_events(self) -> str:
        slug = self._get(self.town, "slug")
        if not slug:
            return "Slug discharges: no slug definition in the rules."
        s = current(slug)
        return (
            f"Slug discharges ({self.law('sewer_use', fallback='the sewer use law')}, definitions: SLUG): "
            f"per user and constituent, runs of readings above {num(s.ratio)} x the baseline (the permit's "
            f"normal daily flow / 1,440, else the median of the daily means of the {s.baseline_days} local "
            f"days before, at least {s.min_baseline_days} days needed) lasting longer than "
            f"{num(s.min_duration_min)} minutes, each reading by the slug definition in effect on its day. "
            "Days without a baseline are listed in slug_baseline_gaps. Appended readings are judged "
            "incrementally."
        )

    def infiltration_results(self) -> str:
        inf = self._get(self.town, "infiltration")
        allowed = (
            f"{num(current(inf).gal_per_inch_diameter_per_mile_per_day)} gallons per inch of diameter per "
            "mile per day"
            if inf
            else "no limit in the rules"
        )
        return (
            f"Infiltration tests against {self.law('sewer_use', fallback='the sewer use law')} (allowable: "
            f"{allowed}, the rule in effect on each test's day); a failing section is also a finding "
            "(infiltration_findings)."
        )

    def compliance_summary(self) -> str:
        notices = self._get(self.town, "notices")
        days = (
            current(notices.permit_expiry_warning).days if notices and notices.permit_expiry_warning else None
        )
        within = f"within {days} days" if days is not None else "as the rules say"
        return (
            "Per industrial user and month: samples taken, parameters evaluated, violations, slugs, days of "
            "discharge without a permit in effect, worst exceedance ratio, and the permit's expiry with "
            f"days left as of the day judged (flagged {within}, by the {self.municipality()}'s policy in "
            "effect on that day)."
        )

    def sewer_notices(self) -> str:
        notices, penalties = self._get(self.town, "notices"), self._get(self.town, "penalties")
        correction = current(notices.sewer_correction) if notices and notices.sewer_correction else None
        days = (correction.max_days if correction.max_days is not None else "?") if correction else "?"
        pen = current(penalties.sewer_use) if penalties and penalties.sewer_use else None
        penalty = penalty_words(pen) if pen else "no penalty in the rules"
        return (
            "The follow-up of every sample result that breaks a per-sample limit "
            f"({self.law('sewer_use', fallback='the sewer use law')}, enforcement) from the monthly notice "
            f"that lists it (table notices): sent by {self.mailing()}, with a period to correct of at most "
            f"{days} days from the mailing and the penalty of "
            f"{self.law('sewer_penalty', fallback='the sewer use law')} ({penalty}) for each day after it, "
            "until the next result of the same user and parameter complies. A notice not yet mailed is a "
            "draft: no period to correct, no penalty."
        )

    def obligations(self) -> str:
        n = self._get(self.town, "notices")
        if n is None:
            return "The deadlines engine: no notices section in the rules."
        periodic, accidental = current(n.periodic_report), current(n.accidental_statement)
        sm, slug, warn = current(n.self_monitoring), current(n.slug_report), current(n.permit_expiry_warning)
        if None in (periodic, accidental, sm, slug, warn):
            return self._some_obligations(periodic, accidental, sm, slug, warn)
        return (
            "The deadlines engine (status met / late / open / overdue as of the day judged, calendar days), "
            "each deadline by the rules in effect on the day that starts it: periodic reports at intervals "
            f"not exceeding {periodic.max_months} months and the written statement within {accidental.days} "
            f"days of an accidental discharge ({self.law('sewer_use', fallback='the sewer use law')}); for "
            f"a violation the user's own sampling found, notice within {num(sm.notice_hours)} hours and a "
            f"repeat result within {sm.resample_days} days (40 CFR 403.12(g)(2)); a written slug report "
            f"within {slug.days} days (40 CFR 403.8(f)(2)(vi)); permits expiring within {warn.days} days."
        )

    def _some_obligations(self, periodic: Any, accidental: Any, sm: Any, slug: Any, warn: Any) -> str:
        """The deadlines engine's description where the rules state only some of the duties."""
        law = self.law("sewer_use", fallback="the sewer use law")
        said = [
            f"periodic reports at intervals not exceeding {periodic.max_months} months ({law})"
            if periodic
            else "",
            f"the written statement within {accidental.days} days of an accidental discharge ({law})"
            if accidental
            else "",
            f"for a violation the user's own sampling found, notice within {num(sm.notice_hours)} hours and "
            f"a repeat result within {sm.resample_days} days"
            if sm
            else "",
            f"a written slug report within {slug.days} days" if slug else "",
            f"permits expiring within {warn.days} days" if warn else "",
        ]
        stated = "; ".join(p for p in said if p) or "none"
        return (
            "The deadlines engine (status met / late / open / overdue as of the day judged, calendar days), "
            f"each deadline by the rules in effect on the day that starts it: {stated}. A duty the rules do "
            "not state is not judged."
        )

    def snc_determinations(self) -> str:
        snc = self._get(self.town, "snc")
        if not snc:
            return "Significant noncompliance: no criteria in the rules."
        s = current(snc)
        factors: dict[str, list[str]] = {}
        for p, f in s.trc_factor_by_parameter.items():
            factors.setdefault(num(f), []).append(parameter_words(p))
        by = "; ".join(f"x {f} for {', '.join(ps)}" for f, ps in factors.items())
        excluded = ", ".join(parameter_words(p) for p in s.trc_excluded_parameters)
        return (
            "Significant noncompliance (40 CFR 403.8(f)(2)(viii)) per user, parameter and "
            f"{s.period_months}-month period: chronic ({num(s.chronic_pct)}% or more of the measurements "
            f"break the limit), technical review criteria ({num(s.trc_pct)}% or more at or above the limit "
            f"{by}, x {num(s.trc_factor_default)} for others; never {excluded or 'none'}; non-detects "
            f"never) and reports more than {s.late_report_days} days late, each period by the criteria in "
            "effect on its last day; compared in exact arithmetic. Per-sample results, judged daily "
            "maximums and judged monthly averages are three sets of measurements, each judged on its own; "
            "basis names the set a criterion was met in (the highest share; a tie: per sample, then daily "
            "maximums, then monthly averages). Also writes snc_evaluations (every period's counts per set)."
        )

    def surcharges(self) -> str:
        sc = self._get(self.town, "surcharge")
        if sc is None:
            return "Surcharges: the rules state none."
        parts = []
        if sc.method:
            m = current(sc.method)
            params = ", ".join(parameter_words(p) for p in m.parameters)
            volume = (
                "flow (million gallons)"
                if m.unit == "million_gallons"
                else f"volume ({m.unit.replace('_', ' ')})"
            )
            above = "the surcharge threshold (else the limit)" if sc.thresholds else "limit"
            parts.append(
                f"by the pound ({params}): pounds = {volume} x {num(m.factor)} x "
                f"(concentration - {above}), negatives as zero, x the rate per pound adopted for the month, "
                "when one is"
            )
        if sc.per_strength:
            parts.append("per volume for each mg/L above a strength")
        if sc.per_volume:
            parts.append("per volume of discharge")
        if sc.per_flow:
            parts.append("by flow, for a month averaging more than so many gallons a day")
        if sc.multipliers:
            parts.append("with a factor for users outside the corporate limits")
        if sc.permit:
            parts.append("only for users whose permit sets a surcharge, where the rules say so")
        return (
            "Surcharges for wastes stronger than the limits "
            f"({self.law('sewer_use', fallback='the sewer use law')}), per user, calendar month and "
            f"parameter, each month by the rules in effect on its first day: {'; '.join(parts) or 'none'}. "
            "Flow: the month's time-weighted mean meter flow x its minutes, else the permit's normal daily "
            "flow x its days. Also writes surcharge_samples."
        )

    # -------------------------------------------------------- stormwater

    def _swppp(self, part: str, field: str) -> dict[str, Any]:
        out = {}
        for j in self.rules:
            versions = self._get(j, "swppp", part)
            value = getattr(current(versions), field, None) if versions else None
            if value is not None:
                out[j] = value
        return out

    def _both(self, part: str, field: str, unit: str = "") -> str:
        """The value in every jurisdiction ('7 days'), or each's ('1 acre (Town of A) / 5 acres (Village of
        B)')."""
        values = self._swppp(part, field)

        def unit_of(v: Any) -> str:  # ' days' -> ' day' for 1
            return unit[:-1] if unit.endswith("s") and num(v) == "1" else unit

        distinct = {num(v) for v in values.values()}
        if len(distinct) == 1:
            v = next(iter(values.values()))
            return f"{num(v)}{unit_of(v)}"
        return " / ".join(f"{num(v)}{unit_of(v)} ({self.rules[j].name})" for j, v in values.items())

    def _storm_rain(self, lead: str = "", tail: str = " of rain") -> str:
        """The storm threshold as each jurisdiction counts it: '0.5 in of rain or more' where every one
        counts at least the amount; else each's, 'more than 0.5 in of rain (Village of A)'."""
        counts = {
            j: getattr(current(v), "counts", "at_least")
            for j in self.rules
            if (v := self._get(j, "swppp", "storm_inspection"))
        }
        if all(c == "at_least" for c in counts.values()):
            return f"{lead}{self._both('storm_inspection', 'threshold_in', ' in')}{tail} or more"
        values = self._swppp("storm_inspection", "threshold_in")
        said = {
            j: (f"more than {num(v)} in" if counts.get(j) == "more_than" else f"{num(v)} in or more")
            for j, v in values.items()
        }
        if len(set(said.values())) == 1:
            return f"{lead}{next(iter(said.values()))}{tail}"
        return " / ".join(f"{lead}{w}{tail} ({self.rules[j].name})" for j, w in said.items())

    def _counts_more_than(self) -> bool:
        """Whether some jurisdiction counts a storm only above its threshold."""
        return any(
            getattr(current(v), "counts", "at_least") == "more_than"
            for j in self.rules
            if (v := self._get(j, "swppp", "storm_inspection"))
        )

    def site_classification(self) -> str:
        lda = (
            f" ({self._both('land_development_activity', 'min_disturbed_acres', ' acres')} or more)"
            if self._swppp("land_development_activity", "min_disturbed_acres")
            else " (where the rules define one)"
        )
        return (
            f"Per site and jurisdiction: land development activity or not{lda}, "
            "exemption, Conditions A/B/C, whether SWPPP inspections are required and who must make them "
            f"({self._applicability_words()}), by the rules in effect when construction started, with "
            "the sections cited."
        )

    def _stormwater_laws(self, separator: str = " / ") -> str:
        """Each jurisdiction's stormwater law, short ("A Code ch. 1 / B Code ch. 2")."""
        return (
            separator.join(self.law("stormwater", j) for j in self._swppp_jurisdictions())
            or "the stormwater law"
        )

    def _swppp_jurisdictions(self) -> list[str]:
        """The jurisdictions with stormwater rules, the town first."""
        return sorted((j for j, r in self.rules.items() if r.swppp is not None), key=lambda j: j != self.town)

    def _applicability_words(self) -> str:
        """Per jurisdiction, which sites need inspections: 'A Code ch. 1: every site of 1 acre or more;
        ...'."""
        parts = []
        for j in self._swppp_jurisdictions():
            versions = self._get(j, "swppp", "applicability")
            rule = current(versions) if versions else None
            if rule is None:
                continue
            if rule.rule == "min_disturbed_acres":
                parts.append(
                    f"{self.law('stormwater', j, j)}: every site of {acres(rule.min_disturbed_acres)} or more"
                )
            else:
                parts.append(f"{self.law('stormwater', j, j)}: Conditions A/B/C only")
        return "; ".join(parts) or "as the rules say"

    def swppp_inspection_findings(self) -> str:
        return (
            "Contract table: SWPPP inspections due and not made in time, as of the day judged. weekly: "
            f"every {self._both('weekly_inspection', 'interval_days', ' days')} from construction start, "
            "then from each inspection; storm: within "
            f"{self._both('storm_inspection', 'window_days', ' days')} after any day with "
            f"{self._storm_rain()} at the site's gauge "
            f"({self._stormwater_laws('; ')}, maintenance and inspection during construction), each "
            "requirement by the rules of the day that starts it. late: made after due_by; overdue: none by "
            "the day judged."
        )

    def swppp_other_findings(self) -> str:
        duties = []  # each duty some rules state (one no rules state is not judged, and not listed here)
        if self._swppp("disturbance_limit", "max_acres_without_approval"):
            duties.append(
                f"more than {self._both('disturbance_limit', 'max_acres_without_approval', ' acres')} "
                "disturbed at one time without an approved SWPPP allowing it"
            )
        if self._swppp("sediment_cleanout", "capacity_lost_pct"):
            duties.append(
                f"sediment traps at or above {self._both('sediment_cleanout', 'capacity_lost_pct', '%')} of "
                "capacity lost at one inspection and still at the next"
            )
        if self._swppp("milestone_notice", "hours"):
            duties.append(f"milestones without {self._both('milestone_notice', 'hours', ' hours')}' notice")
        if any(self._get(j, "swppp", "contractor_certification") for j in self.rules):
            duties.append("contractors working before signing the SWPPP certification")
        duties.append(
            "inspection reports not delivered to the officer within the week (where the rules ask for it)"
        )
        return (
            "Further SWPPP violations as of the day judged: "
            + "; ".join(duties)
            + ". Each row names its rule and quotes the section."
        )

    def swppp_notices(self) -> str:
        fines = []
        for j in self._swppp_jurisdictions():
            penalty = self._get(j, "penalties", "stormwater")
            if penalty:
                fines.append(f"{self.law('stormwater', j, j)}: {tiers_words(current(penalty))}")
        return (
            "One notice of violation per stormwater finding, with the six contents the law requires (names "
            "and addresses; the site; the nature of the violation; remedial measures and schedule; "
            f"penalties; the {self._both('appeal', 'days', '-day')} appeal and where to file it) and the "
            "fine range by prior convictions ("
            + "; ".join(fines)
            + "), priced by the penalty in effect on the violation's day. A missed inspection is noticed in "
            "its site's monthly notice (table notices) and runs from its mailing; each other finding has a "
            "printable HTML letter of its own."
        )

    def swppp_upcoming(self) -> str:
        return (
            "The officer's week: per active site needing inspections, the next weekly inspection due "
            f"({self._both('weekly_inspection', 'interval_days', ' days')} after the previous one), every "
            f"storm inspection due soon ({self._storm_rain('rain of ', '')}, not yet inspected), and "
            "construction milestones of the coming week with whether the "
            f"{self._both('milestone_notice', 'hours', '-hour')} notice was given."
        )

    def stormwater_dashboard(self) -> str:
        threshold = (
            self._storm_rain(tail="")
            if self._counts_more_than()
            else self._both("storm_inspection", "threshold_in", " in")
        )
        return (
            "The stormwater officer's page (stormwater.html): the week's upcoming inspections, sites by "
            "status, and per site a timeline of inspections against daily rainfall with the storm threshold "
            f"({threshold}, "
            f"{self._stormwater_laws()}) and the "
            "late and overdue findings; illicit discharge cases with their deadlines, charges and letters "
            f"({self._illicit_law()}); findings on permanent stormwater management practices."
        )

    # ------------------------------------------------------- illicit discharges

    def _illicit_law(self) -> str:
        return self.law("illicit_discharges", fallback="the illicit discharge law")

    def _illicit(self) -> Any:
        versions = self._get(self.town, "illicit_discharges")
        return current(versions) if versions else None

    def illicit_discharge_deadlines(self) -> str:
        t = self._illicit()
        if t is None:
            return "Illicit discharges: no deadlines in the rules."
        notify = (
            "the next business day"
            if t.notify_business_days == 1
            else f"{t.notify_business_days} business days"
        )
        return (
            f"Per illicit discharge case, each obligation of {self._illicit_law()} whose trigger exists: "
            f"notice to the {self.municipality()} by {notify} and its written confirmation within "
            f"{t.confirmation_business_days} business days, unless hazardous; the {t.appeal_days}-day "
            "appeal and the hearing (none for an appeal received late, which is no appeal); abatement by the "
            f"notice's deadline or {t.abatement_after_decision_days} days after an appeal's decision "
            "(suspended while an appeal received in time is pending, none once it vacates the notice); "
            f"the {self.municipality()}'s notice of the cost within "
            f"{t.cost_notice_days} days of its abatement; the {t.protest_days}-day protest; each with its "
            f"due day{self.extension()}, the day it was met and its status (met, late, open, overdue, "
            "suspended) on the day judged."
        )

    def illicit_discharge_charges(self) -> str:
        t = self._illicit()
        if t is None:
            return "Illicit discharges: no charges in the rules."
        return (
            f"Per case with a cost of abatement, under {self._illicit_law()}: the {t.installments} equal "
            f"payments (the last takes the rounding), simple interest at {num(t.interest_rate * 100)}% a "
            f"year on the unpaid principal from the {t.interest_start_days}th day after discovery through "
            "the day judged, the payments, the balance, and the largest criminal penalty "
            f"({usd(t.penalty_per_day_usd)} for each day from discovery through abatement, the days an "
            "appeal was pending included, and none after the notice of violation once an appeal vacates it)."
        )

    def illicit_discharge_letters(self) -> str:
        t = self._illicit()
        appeal = f"within {t.appeal_days} days" if t is not None else "as the illicit discharge law allows"
        court = f" to {t.appeal_filed_with}" if t is not None and t.appeal_filed_with else ""
        payments = f"{t.installments} payments" if t is not None else "payments"
        protest = f"the {t.protest_days}-day protest" if t is not None else "the protest"
        return (
            "The letters of the illicit discharge cases: a notice of violation (the measures "
            f"{self._illicit_law()} lets it require, the abatement deadline and what follows if it passes, "
            f"the appeal{court} {appeal}) and, for an abatement done by the {self.municipality()}, the "
            f"notice of its cost ({payments}, interest, {protest}, the lien)."
        )

    # ------------------------------------------------------- the rest of the law

    def inspection_fees(self) -> str:
        sched = self._get(self.town, "inspection_fees")
        if sched is None:
            return "Water and sewer inspection fees: no fee schedule in the rules."
        today = dt.date.today()
        entries = [e for e in sched.entries if e.in_effect(today)] or list(sched.entries)
        fees = "; ".join(
            f"{e.use.replace('_', ' ')}"
            f"{' not within a shopping mall or business park' if e.in_mall_or_business_park is False else ''}"
            f"{' within a shopping mall or business park' if e.in_mall_or_business_park else ''}: "
            f"{usd(e.water_usd)} water, {usd(e.sewer_usd)} sewer"
            for e in entries
        )
        return (
            "The water and sewer inspection fees of each connection permit "
            f"({self.law('inspection_fees', fallback='the inspection fee law')}: {fees}; only the "
            "inspections asked for). A use and place the schedule does not cover gets no fee, and the rule "
            "says so."
        )


DESCRIBE = Describe()
