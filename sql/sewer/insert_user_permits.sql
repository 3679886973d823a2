-- Every permit of every industrial user (contract 8.2; table user_permits). A permit is known by its user
-- and number (a user's numberless permit columns are one permit). The permits folder's row of a number is
-- preferred to the industrial_users columns of the same number; a permit only industrial_users_history
-- still holds (an earlier load of a users file since edited in place) is given_by earlier_load, with the
-- last values loaded. A permits row with a withdrawn_reason withdraws its permit. A permit whose first day
-- (contract 8.1: the permits folder is read as of the day, outfall/ingest/as_of.py) or day of issue is
-- after $as_of is not yet a fact. is_current prefers a permit in effect on $as_of. Parameters: $as_of,
-- $rule.
INSERT INTO user_permits BY NAME
WITH folder AS (
    SELECT user_id, permit_no, effective_on, expires_on, issued_on,
           nullif(trim(withdrawn_reason), '') AS withdrawn_reason, 'permits' AS given_by,
           source_file, source_row, 1 AS preference
    FROM permits
),

users AS (
    SELECT user_id, nullif(trim(permit_no), '') AS permit_no, permit_effective AS effective_on,
           permit_expires AS expires_on, CAST(NULL AS DATE) AS issued_on,
           CAST(NULL AS VARCHAR) AS withdrawn_reason, 'industrial_users' AS given_by,
           source_file, source_row, 2 AS preference
    FROM industrial_users
    WHERE nullif(trim(permit_no), '') IS NOT NULL OR permit_effective IS NOT NULL
          OR permit_expires IS NOT NULL
),

given AS (
    SELECT user_id, coalesce(permit_no, '') AS permit_key,
           arg_min(permit_no, preference) AS permit_no,
           arg_min(effective_on, preference) AS effective_on,
           arg_min(expires_on, preference) AS expires_on,
           arg_min(issued_on, preference) AS issued_on,
           max(withdrawn_reason) AS withdrawn_reason,
           arg_min(given_by, preference) AS given_by,
           arg_min(source_file, preference) AS source_file,
           arg_min(source_row, preference) AS source_row,
           TRUE AS in_inputs
    FROM (SELECT * FROM folder UNION ALL SELECT * FROM users)
    GROUP BY user_id, coalesce(permit_no, '')
),

earlier AS (
    SELECT h.user_id, coalesce(nullif(trim(h.permit_no), ''), '') AS permit_key,
           arg_max(nullif(trim(h.permit_no), ''), h.superseded_at) AS permit_no,
           arg_max(h.permit_effective, h.superseded_at) AS effective_on,
           arg_max(h.permit_expires, h.superseded_at) AS expires_on,
           CAST(NULL AS DATE) AS issued_on, CAST(NULL AS VARCHAR) AS withdrawn_reason,
           'earlier_load' AS given_by,
           arg_max(h.source_file, h.superseded_at) AS source_file,
           arg_max(h.source_row, h.superseded_at) AS source_row,
           FALSE AS in_inputs
    FROM industrial_users_history AS h
    WHERE (nullif(trim(h.permit_no), '') IS NOT NULL OR h.permit_effective IS NOT NULL
           OR h.permit_expires IS NOT NULL)
          AND NOT EXISTS (
              SELECT 1 FROM given AS g
              WHERE g.user_id = h.user_id AND g.permit_key = coalesce(nullif(trim(h.permit_no), ''), '')
          )
    GROUP BY h.user_id, coalesce(nullif(trim(h.permit_no), ''), '')
),

known AS (
    SELECT * FROM given
    UNION ALL
    SELECT * FROM earlier
),

judged AS (
    SELECT *, CASE WHEN withdrawn_reason IS NULL THEN 'in_force' ELSE 'withdrawn' END AS status
    FROM known
    WHERE coalesce(issued_on, effective_on, DATE '0001-01-01') <= CAST($as_of AS DATE)
),

names AS (SELECT user_id, any_value(name) AS name FROM industrial_users GROUP BY user_id)

SELECT j.user_id, n.name, j.permit_no, j.effective_on, j.expires_on, j.issued_on, j.status,
       j.withdrawn_reason, j.given_by, j.in_inputs,
       j.status = 'in_force'
       AND row_number() OVER (
           PARTITION BY j.user_id, j.status = 'in_force'
           ORDER BY coalesce(j.effective_on > CAST($as_of AS DATE), FALSE),
                    j.effective_on IS NULL AND j.expires_on IS NULL,
                    coalesce(j.expires_on, DATE '9999-12-31') DESC,
                    coalesce(j.effective_on, DATE '0001-01-01') DESC, j.permit_key
       ) = 1 AS is_current,
       j.source_file, j.source_row, CAST($as_of AS DATE) AS as_of, $rule AS rule
FROM judged AS j LEFT JOIN names AS n USING (user_id)
ORDER BY j.user_id, j.effective_on NULLS FIRST, j.permit_no;
