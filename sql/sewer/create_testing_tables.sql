-- Required testing (contract 6.3; the sewer use law: the types and frequency of testing are
-- specified by the administrator), created if missing; filled by assets/sewer/testing.py.

-- One row per monitoring requirement (input monitoring_requirements) and calendar period whose last day
-- is in effect and whose first day is on or before --as-of. samples: the distinct sample_ids of the
-- parameter (and of the sample type, when one is required) collected on a local day of the period, on or
-- before --as-of. status: met (samples >= 1), open (none, period_end on or after as_of) or missed (none,
-- period_end before as_of; a violation, noticed in the month of period_end).
CREATE TABLE IF NOT EXISTS required_testing (
    user_id VARCHAR, parameter VARCHAR,
    sample_type VARCHAR,            -- composite | grab | NULL (either)
    period_start DATE, period_end DATE,
    samples INTEGER,
    status VARCHAR,                 -- met | open | missed
    name VARCHAR,                   -- the user's name (industrial_users)
    frequency VARCHAR,              -- monthly | quarterly | semiannual | annual
    basis VARCHAR,                  -- the requirement's basis as given (permit, letter)
    rule VARCHAR,                   -- citation (rules required_testing, the version in effect on period_end)
    as_of DATE
);
