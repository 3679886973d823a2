-- The annual pretreatment report (contract 5.6, 40 CFR 403.12(i)), created if missing: one row
-- per industrial user and local calendar year with a lab sample, a flow reading or a mailed
-- notice; exactly the contract's columns.
CREATE TABLE IF NOT EXISTS pretreatment_annual_report (
    user_id VARCHAR, year INTEGER, samples INTEGER, violations INTEGER, statistic_violations INTEGER,
    slugs INTEGER, snc BOOLEAN, notices_mailed INTEGER
);
