-- Asset check check_validity_worklist_status: rows whose status disagrees with their due date and the day
-- judged ($as_of; a row due within $window days of it is due; $window NULL: the Town set no week), and the
-- rows in all.
SELECT
    count(*) FILTER (
        WHERE status <> CASE
            WHEN due IS NULL THEN 'undated'
            WHEN due < CAST($as_of AS DATE) THEN 'overdue'
            WHEN due <= CAST($as_of AS DATE) + CAST($window AS INTEGER) THEN 'due'
            ELSE 'upcoming'
        END
    ) AS bad,
    count(*) AS total
FROM worklist
