-- Input files with rows that could not be read, per dataset and file: how many, the most frequent
-- reason (of reasons as frequent, the one of the earliest row, so that a rerun names the same one),
-- the first row and the day they were set aside; a sheet Outfall prefilled (to_record.xlsx:
-- quarantine.prefilled) row by row, with its reason, listed first (contract 7.5).
WITH q AS (
    SELECT
        * REPLACE (coalesce(prefilled, FALSE) AS prefilled),
        CASE WHEN coalesce(prefilled, FALSE) THEN "row_number" END AS row_key
    FROM quarantine
),

reasons AS (
    SELECT
        dataset, source_file, prefilled, row_key, reason,
        count(*) AS n, min("row_number") AS first_of
    FROM q
    GROUP BY dataset, source_file, prefilled, row_key, reason
    QUALIFY row_number() OVER (
        PARTITION BY dataset, source_file, prefilled, row_key
        ORDER BY n DESC, first_of ASC, reason ASC
    ) = 1
),

files AS (
    SELECT
        dataset, source_file, prefilled, row_key,
        count(*) AS rows, min("row_number") AS first_row,
        CAST(min(quarantined_at) AS DATE) AS found_on
    FROM q
    GROUP BY dataset, source_file, prefilled, row_key
)

SELECT
    f.dataset, f.source_file, f.prefilled, f.row_key, f.rows, r.reason, f.first_row, f.found_on
FROM files AS f
INNER JOIN reasons AS r
    ON
        f.dataset IS NOT DISTINCT FROM r.dataset
        AND f.source_file IS NOT DISTINCT FROM r.source_file
        AND f.prefilled = r.prefilled
        AND f.row_key IS NOT DISTINCT FROM r.row_key
ORDER BY NOT f.prefilled, f.dataset, f.source_file, f.row_key
