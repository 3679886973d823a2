-- The post-construction stormwater management practices' table (contract 5.4), created if missing;
-- written by assets/stormwater/practices.py. The input folder smp_practices has its table
-- made from its spec (outfall/ingest/stormwater.py; outfall.ingest.compile).

-- Practice findings, met rows left out. Every row names its rule.
CREATE TABLE IF NOT EXISTS smp_findings (
    practice_id VARCHAR, site_id VARCHAR, finding VARCHAR, rule VARCHAR, due DATE,
    status VARCHAR,                 -- late, open, overdue
    jurisdiction VARCHAR, practice_type VARCHAR, as_of DATE
);
