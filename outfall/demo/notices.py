"""The clerk's record of the notices and orders mailed (``notices_mailed``, contract 5.1) and the demo town's
letterhead (docs/letters.md)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pandas as pd

from outfall.demo.users import NO_MAILING_ADDRESS_USER
from outfall.letters import LETTERHEAD_FILE

#: A draft withdrawn by the administrator (contract 6.4): the hospital's November notice, whose one
#: violation (the temperature result of :data:`INJECTED_EXCEEDANCES`) the administrator chose to take up at
#: the inspection of its boiler plant instead.
WITHDRAWN_NOTICE = (
    "sewer",
    "IU-008",
    "{year}-11",
    "taken up at the inspection of the hospital's boiler plant instead: the result is kept on its record",
)


#: A stormwater notice whose mailing was recorded without its days to correct (contract 8.3): the mailing
#: is a record all the same (mailed, in documents_issued, no last day to correct), and the officer's list
#: asks for the days the notice gave.
HELD_STORMWATER_NOTICE = ("S-B03", "10")
#: The grease-trap order mailed (contracts 7.3, 8.4): the overdue trap's, for its pump-out missed in October,
#: to its owner (:data:`TRAP_OWNERS`), with the 14 days the administrator gave.
MAILED_GREASE_ORDER = ("GT-003", "10", (11, 4), 14)
#: The stop-work order mailed (contract 7.3): S-W05's, resting on its September notice (mailed October 2,
#: to be corrected by October 13), numbered by the month it was first warranted, October.
MAILED_STOP_WORK = ("S-W05", "10", (10, 20))


def notices_mailed(year: int) -> pd.DataFrame:
    """The clerk's record of notices and orders mailed (contract 5.1, 6.4, 7.3): a few sewer and stormwater
    notices, one recorded twice (the earlier mailing counts, with its blank days: the most the law allows),
    one whose last day to correct is a public holiday (S-W05: October 12 is Columbus Day, so it ends on the
    13th, General Construction Law § 25-a), one whose letter lacks a ZIP code (IU-017: recorded all the
    same, not ready), one draft withdrawn, a stormwater notice recorded without its days to correct (a
    record all the same, for review: :data:`HELD_STORMWATER_NOTICE`), a grease-trap order with its days and
    a stop-work order; the rest left as drafts. IU-002's March notice is recorded as mailed on two days:
    two mailings of one notice, its period from the first (contract 8.3). A row for a month with no
    violation makes no notice."""
    return pd.DataFrame(
        [
            {
                "kind": k,
                "recipient_id": r,
                "period": p,
                "mailed_on": m.isoformat() if m else None,
                "certified_mail_no": c,
                "correct_within_days": d,
                "withdrawn_reason": w,
            }
            for k, r, p, m, c, d, w in _mailings(year)
        ]
    ).astype({"correct_within_days": "Int64"})


def _mailings(year: int) -> list[tuple]:
    """(kind, recipient, period, mailed on, certified mail number, days to correct, why withdrawn)."""
    return [
        ("sewer", "IU-002", f"{year}-03", date(year, 4, 8), "7019 0140 0000 1111 0001", None, None),
        ("sewer", "IU-002", f"{year}-03", date(year, 4, 15), "7019 0140 0000 1111 0002", 14, None),
        ("sewer", "IU-011", f"{year}-08", date(year, 9, 3), "7019 0140 0000 1111 0003", 21, None),
        (
            "sewer",
            NO_MAILING_ADDRESS_USER,
            f"{year}-05",
            date(year, 6, 10),
            "7019 0140 0000 1111 0006",
            30,
            None,
        ),
        ("stormwater", "S-W05", f"{year}-09", date(year, 10, 2), "7019 0140 0000 1111 0004", 10, None),
        ("stormwater", "S-B06", f"{year}-10", date(year, 11, 3), "7019 0140 0000 1111 0005", 14, None),
        (*WITHDRAWN_NOTICE[:2], WITHDRAWN_NOTICE[2].format(year=year), None, None, None, WITHDRAWN_NOTICE[3]),
        (
            "stormwater",
            HELD_STORMWATER_NOTICE[0],
            f"{year}-{HELD_STORMWATER_NOTICE[1]}",
            date(year, 11, 16),
            "7019 0140 0000 1111 0007",
            None,
            None,
        ),
        (
            "grease_order",
            MAILED_GREASE_ORDER[0],
            f"{year}-{MAILED_GREASE_ORDER[1]}",
            date(year, *MAILED_GREASE_ORDER[2]),
            "7019 0140 0000 1111 0008",
            MAILED_GREASE_ORDER[3],
            None,
        ),
        (
            "stop_work",
            MAILED_STOP_WORK[0],
            f"{year}-{MAILED_STOP_WORK[1]}",
            date(year, *MAILED_STOP_WORK[2]),
            "7019 0140 0000 1111 0009",
            None,
            None,
        ),
    ]


# ------------------------------------------------------------------ letterhead


# The demo's letterhead (docs/letters.md). Demo values for a town to replace: the signatories are
# invented and the telephone numbers are from the 555-01xx range, which is never assigned.
DEMO_LETTERHEAD = """\
# The letterhead of the letters Outfall writes (docs/letters.md).
# Demo values: the signatories and telephone numbers are invented; replace every value with your own.
woodbury:
  name: Town of Woodbury
  address:
    - Town Hall, 511 Route 32
    - Highland Mills, NY 10930
  phone: (845) 555-0100
  signatories:
    sewer:
      name: Dana Whitfield
      title: Administrator, Consolidated Sewer District
      phone: (845) 555-0131
    stormwater:
      name: Morgan Ellery
      title: Stormwater Management Officer
      phone: (845) 555-0142
bellport:
  name: Village of Bellport
  address:
    - Village Hall, 29 Bellport Lane
    - Bellport, NY 11713
  phone: (631) 555-0170
  signatories:
    stormwater:
      name: Riley Okafor
      title: Stormwater Management Officer
      phone: (631) 555-0188
"""


def write_letterhead(out_dir: Path) -> Path:
    """The demo town's ``letterhead.yaml`` in the data folder (read by outfall.letters)."""
    path = Path(out_dir) / LETTERHEAD_FILE
    path.write_text(DEMO_LETTERHEAD, encoding="utf-8")
    return path
