"""Assets of the sewer administrator's enforcement: what the law says must follow a
violation, and by when.

- ingestion of the enforcement input folders (docs/inputs-sewer.md): ``reports``,
  ``accidental_discharges``, ``grease_traps``, ``pumpouts``;
- ``sewer_notices``: a notice of violation per sample result that breaks a
  per-sample limit (the sewer use law's enforcement: certified mail, the nature of
  the violation, the period to correct and the penalty in effect on its day), with its
  follow-up as of --as-of and a printable letter in
  ``<dashboards>/letters/sewer/``;
- ``obligations``: the deadlines engine (periodic reports, accidental-discharge
  statements, 24-hour notices and 30-day resampling after a violation the
  user's own sampling found, 5-day slug reports, expiring permits), each with the
  law it rests on (``law``) and whether the town's notices may count it
  (``adopted``: a duty of the town's own code, or of another law the rules adopt;
  the federal duties the demo's rules do not adopt stay on the user's record);
  a period the user must act within that ends on a weekend or holiday ends on
  the next business day (General Construction Law § 25-a, ``deadline_extension``);
- ``snc_determinations`` (+ ``snc_evaluations``): significant noncompliance per
  40 CFR 403.8(f)(2)(viii) over six-month periods;
- ``snc_publication``: the annual list for newspaper publication (+ HTML page);
- the surcharges of wastes stronger than the limits are in ``surcharges.py``;
- ``grease_trap_status`` (+ ``grease_orders`` and their letters).

Numbers and citations come from the town's rules file (sections notices, snc,
surcharge, penalties.sewer_use, sewer_enforcement, grease_interceptors and the
named readings in readings_enforcement), each in the version in effect on the
day it applies to: the violation's day for a notice, the day that starts a
deadline, the period for significant noncompliance, the month for a surcharge,
the day judged for a grease order. What no version covers is written to
``not_judged``, never guessed. The arithmetic is ``outfall/law/enforcement.py``
(production: no SQL re-implements it).
"""

# The assets live in a module each; their names stay importable from here.
from assets.sewer.dated import (
    IMPLEMENTED_READINGS,
    Dated,
    enforcement_rules,
    letters_folder,
    obligation_period_end,
)
from assets.sewer.deadlines import OBLIGATIONS, build_obligations, obligations
from assets.sewer.grease import build_grease, grease_order, grease_recipient, grease_trap_status, own_traps
from assets.sewer.publication import criteria_statements, snc_publication
from assets.sewer.snc import (
    build_snc,
    check_validity_snc_determinations_pct,
    choose_basis,
    snc_determinations,
    statistic_counts,
)
from assets.sewer.violations import check_completeness_sewer_notices_violation, sewer_notices

__all__ = [
    "IMPLEMENTED_READINGS",
    "OBLIGATIONS",
    "Dated",
    "build_grease",
    "build_obligations",
    "build_snc",
    "check_completeness_sewer_notices_violation",
    "check_validity_snc_determinations_pct",
    "choose_basis",
    "criteria_statements",
    "enforcement_rules",
    "grease_order",
    "grease_recipient",
    "grease_trap_status",
    "letters_folder",
    "obligation_period_end",
    "obligations",
    "own_traps",
    "sewer_notices",
    "snc_determinations",
    "snc_publication",
    "statistic_counts",
]
