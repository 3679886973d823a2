"""``sewer_notices``: the follow-up of each violation from the monthly notice that lists it, and the
check that every violation has exactly one."""

import datetime as dt

from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    MaterializeResult,
    MetadataValue,
)
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_SEWER, table_asset, table_check, table_result, warehouse
from assets.run import replace_judged
from assets.sewer.dated import (
    Dated,
    _counts,
    _date_text,
    _num,
    _on_record,
    _remove_stale,
    enforcement_rules,
    letters_folder,
)
from outfall.law import enforcement as law, notices as notice_law
from outfall.letters import safe_file_name
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules.words import DESCRIBE
from outfall.vocab import parameter_label
from outfall.warehouse import records, sql, transaction

NOTICE_PREFIX = "sewer_nov_"


def _notice_id(v: dict) -> str:
    parts = [v["user_id"], v["sample_id"], v["parameter"], v["limit_type"]]
    return "NOV-" + safe_file_name("-".join(str(p) for p in parts))


def _follow_up_text(
    fu: law.FollowUp, v: dict, correct_by: dt.date, as_of: dt.date, penalty_section: str
) -> str:
    """The follow-up in words; ``penalty_section``: where the law says what the administrator may do next."""
    nxt = fu.next_result
    label = parameter_label(v["parameter"])
    if fu.status == law.PENDING:
        return f"No later analysis of {label} yet; the period to correct runs to {_date_text(correct_by)}."
    if fu.status == law.OVERDUE:
        return (
            f"No later analysis of {label} by {_date_text(as_of)}; the period to correct ended "
            f"{_date_text(correct_by)}. The administrator may take action under {penalty_section}."
        )
    assert nxt is not None
    where = (
        f"sample {nxt.sample_id} collected {_date_text(nxt.collected_date)} ({_num(nxt.value)} {v['unit']})"
    )
    if fu.status == law.CORRECTED:
        return f"The next analysis, {where}, complied with the limit within the period to correct."
    if fu.status == law.CORRECTED_LATE:
        return (
            f"No analysis within the period to correct (to {_date_text(correct_by)}); the next, {where}, "
            f"complied."
        )
    return (
        f"The next analysis, {where}, again broke the limit: the violation was not corrected. The "
        f"administrator may take action under {penalty_section}."
    )


@table_asset(
    GROUP_SEWER,
    deps=["discharge_violations", "industrial_users", "user_permits", "notices"],
    description=DESCRIBE.sewer_notices(),
)
def sewer_notices(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> MaterializeResult:
    """The follow-up of each violation from the monthly notice that lists it (table ``notices``): dated
    the notice's mailing day; a draft sets no deadline and accrues no penalty."""
    town = enforcement_rules(rules)
    as_of = settings.as_of_date()
    on = Dated(town)
    folder = letters_folder(duckdb, settings)
    with warehouse(duckdb, as_of=as_of) as con:
        monthly = {
            (n["recipient_id"], n["period"]): n
            for n in records(con, "select_notices_of_kind", {"kind": "sewer"})
        }
        rows = []
        for v in records(con, "select_sewer_notice_violations", {"as_of": as_of}):
            row = _notice_row(
                v, monthly.get((v["user_id"], notice_law.period_of(v["collected_date"]))), on, as_of
            )
            if row is not None:
                rows.append(row)
        with transaction(con):
            replace_judged(con, on.missing, sewer_notices=rows)
        # One letter per notice now (assets/notices.py): the one-per-sample letters of old go.
        removed = _remove_stale(folder, NOTICE_PREFIX, _on_record(con))
        return table_result(
            con,
            "sewer_notices",
            as_of=str(as_of),
            not_judged=len(on.missing),
            old_letters_removed=removed,
            by_status=MetadataValue.json(_counts(rows, "status")),
            by_parameter=MetadataValue.json(_counts(rows, "parameter")),
        )


def _follow_up(v: dict, correct_by: dt.date | None, as_of: dt.date) -> tuple[law.FollowUp, str, bool | None]:
    """(follow-up, status, corrected in time) of a violation: by its period to correct once its notice is
    mailed; a draft's: no period to correct has started."""
    nxt = (
        law.LaterResult(v["next_sample_id"], v["next_collected_date"], v["next_outcome"], v["next_value"])
        if v["next_sample_id"] is not None
        else None
    )
    if correct_by is not None:
        fu = law.follow_up(correct_by, nxt, v["first_compliant_on"], as_of)
        return fu, fu.status, fu.corrected_in_time
    seen_next = nxt if nxt is not None and nxt.collected_date <= as_of else None
    fu = law.FollowUp(notice_law.DRAFT, None, seen_next, law.seen(v["first_compliant_on"], as_of))
    return fu, notice_law.DRAFT, None


def _notice_row(v: dict, n: dict | None, on: Dated, as_of: dt.date) -> dict | None:
    """The sewer_notices row of violation ``v`` listed by the monthly notice ``n`` (None: no notice yet),
    worded and priced by the rules of the notice's mailing day, a draft's by today's (None: no rules)."""
    issued_on = n["issued_on"] if n is not None else None
    day = issued_on or as_of
    subject = f"notice of violation: sample {v['sample_id']} of {v['user_id']}, {v['parameter']}"
    parts = on.each(("notices.sewer_correction", "penalties.sewer_use", "sewer_enforcement"), day, subject)
    if parts is None:
        return None
    _correction, penalty, enforcement = parts
    mailed = n if issued_on is not None else None
    correct_by = mailed["correct_by"] if mailed is not None else None
    fu, status, in_time = _follow_up(v, correct_by, as_of)
    vdays = notice_law.penalty_days(correct_by, fu.corrected_on, as_of)
    fine, civil = penalty.fine_max_usd, penalty.civil_max_usd
    nxt = fu.next_result
    return {
        "notice_id": _notice_id(v),
        **{k: v[k] for k in _VIOLATION_COLUMNS},
        "violation_rule": v["rule"],
        "issued_on": issued_on,
        "mailing": enforcement.mailing,
        "correction_days": mailed["correct_within_days"] if mailed is not None else None,
        "correct_by": correct_by,
        "next_sample_id": nxt.sample_id if nxt else None,
        "next_collected_date": nxt.collected_date if nxt else None,
        "next_value": nxt.value if nxt else None,
        "next_outcome": nxt.outcome if nxt else None,
        "corrected_on": fu.corrected_on,
        "status": status,
        "corrected_in_time": in_time,
        "violation_days": vdays,
        "fine_max_usd": fine,
        "civil_penalty_max_usd": civil,
        "max_penalty_usd": law.max_penalty(vdays, fine, civil),
        "as_of": as_of,
        "letter_file": n["letter"] if n is not None else None,
        "rule": enforcement.citation,
        "penalty_rule": penalty.citation,
        "notice_period": n["period"] if n is not None else None,
        "notice_status": n["status"] if n is not None else None,
        "follow_up": _follow_up_text(fu, v, correct_by, as_of, on.rules.law("sewer_penalty", day).short)
        if correct_by is not None
        else (
            "The notice listing this violation is a draft, not mailed: no period to correct has started and "
            "no penalty accrues."
        ),
    }


#: The columns of a violation a notice row repeats as they are.
_VIOLATION_COLUMNS = (
    "user_id",
    "name",
    "address",
    "permit_no",
    "sample_id",
    "parameter",
    "collected_at",
    "collected_date",
    "sample_type",
    "value",
    "unit",
    "limit_value",
    "limit_type",
    "limit_source",
)


@table_check(
    asset=sewer_notices,
    description="Every violation collected by the day judged has exactly one notice "
    "of violation (or is listed as not judged for want of a rule of its day), and every notice's period "
    "to correct is within the maximum in effect on the violation's day.",
)
def check_completeness_sewer_notices_violation(
    duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource
) -> AssetCheckResult:
    as_of = settings.as_of_date()
    versions = Dated(enforcement_rules(rules)).versions("notices.sewer_correction")
    with warehouse(duckdb, as_of=as_of) as con:
        violations, notices, distinct, not_judged = con.execute(
            sql("select_sewer_notice_completeness"), {"as_of": as_of}
        ).fetchall()[0]
        periods = con.execute(sql("select_sewer_notice_periods")).fetchall()
    too_long = sum(
        1
        for issued_on, days, correct_by in periods
        if versions.get(issued_on) is None
        or (versions.get(issued_on).max_days is not None and days > versions.get(issued_on).max_days)
        or correct_by > law.add_days(issued_on, days)
    )
    passed = violations == notices + not_judged and notices == distinct and too_long == 0
    return AssetCheckResult(
        passed=bool(passed),
        severity=AssetCheckSeverity.WARN,
        metadata={
            "violations": int(violations),
            "notices": int(notices),
            "not_judged": int(not_judged),
            "distinct_notice_ids": int(distinct),
            "periods_over_maximum": int(too_long),
        },
    )
