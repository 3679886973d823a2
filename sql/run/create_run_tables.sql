-- The settings of the latest run (one row): the day it judged by (fixed once
-- when the run started, read by every asset and page of the run) and where it
-- wrote. Nothing here changes when the same folder is run again with the same
-- settings, so a re-run leaves the warehouse as it was.
CREATE TABLE IF NOT EXISTS outfall_run (
    as_of           DATE NOT NULL,
    billing_year    INTEGER,            -- null: every year that has rates
    data_dir        VARCHAR,
    dashboards_dir  VARCHAR,            -- null: nothing written (in-memory warehouse)
    exports_dir     VARCHAR,
    rules_versions  VARCHAR             -- each rules file and its version, e.g. "a 2026.11.2, b 2026.11.2"
);

-- The input rows the latest run did not judge because they are dated after the
-- day it judged by (contract 8.1: a sample collected, a mailing, a payment after
-- it is not yet a fact), per input folder; and the rows it judged with a later
-- fact left blank (a final stabilization, an appeal decided after the day), and
-- the rows ingestion refused whose own day is after it (not listed either).
-- The rows stay loaded: a run as of a later day judges them
-- (outfall/ingest/as_of.py). Written with outfall_run.
CREATE TABLE IF NOT EXISTS held_back (
    dataset             VARCHAR,
    rows_after          BIGINT,     -- rows whose own day is after the day judged
    later_facts_after   BIGINT,     -- rows judged whose later facts are after it, left blank
    quarantined_after   BIGINT      -- rows refused (quarantine) whose own day is after it: not listed
);

-- What an asset could not judge for want of a rule in effect on the day it
-- applies to (a sample taken before the rules' first version of a section, a
-- site that started before its chapter): one row per thing not judged (a
-- subject and a day, not an input row), with the rules section and the reason
-- in words; what is missing is a version of the rules, not a correction of a
-- file. Input rows an asset could not judge are in `set_aside`, rows ingestion
-- refused in `quarantine`. Each asset replaces its own rows (asset = its name),
-- in its own transaction (assets/run.py: record_not_judged).
CREATE TABLE IF NOT EXISTS not_judged (
    asset       VARCHAR,
    subject     VARCHAR,
    day         DATE,
    section     VARCHAR,
    reason      VARCHAR
);

-- The version each table (and partition: '' for a table without) had when it was last made: the
-- hash of what it was made from (outfall/versions.py). An input folder's is its files' content,
-- recorded by the ingestion step; every other is recorded by the run that made it. A run makes only
-- the tables whose version would change, and what reads them.
CREATE TABLE IF NOT EXISTS _asset_versions (
    asset           VARCHAR NOT NULL,
    partition_key   VARCHAR NOT NULL,
    version         VARCHAR NOT NULL,
    recorded_at     TIMESTAMPTZ,
    PRIMARY KEY (asset, partition_key)
);

-- The fingerprint of the last run that left every table current (its files, code, day and folders):
-- a run with the same one has nothing to do. At most one row.
CREATE TABLE IF NOT EXISTS _last_run (
    fingerprint     VARCHAR NOT NULL,
    finished_at     TIMESTAMPTZ
);
