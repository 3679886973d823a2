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
    rules_versions  VARCHAR             -- e.g. "woodbury 2026.11.2, bellport 2026.11.2"
);
