-- Who a notice goes to and where (contract 5.1, 7.4): industrial users (sewer) and construction sites
-- (stormwater), each with the name and address to write to. An industrial user: mailing_name /
-- mailing_address when given, else its name and address; city, state and zip as given. A site: its
-- landowner (owner_name, owner_address, owner_city, owner_state, owner_zip: the stormwater law serves
-- the landowner), with the applicant, who may be copied (mailing_name, else applicant; mailing_address,
-- city, state, zip). An industrial user is in the jurisdiction of the town running Outfall ($town); a
-- site, in its own.
WITH users AS (
    SELECT user_id,
           arg_max(name, coalesce(permit_effective, DATE '0001-01-01')) AS name,
           arg_max(address, coalesce(permit_effective, DATE '0001-01-01')) AS address,
           arg_max(mailing_name, coalesce(permit_effective, DATE '0001-01-01')) AS mailing_name,
           arg_max(mailing_address, coalesce(permit_effective, DATE '0001-01-01')) AS mailing_address,
           arg_max(city, coalesce(permit_effective, DATE '0001-01-01')) AS city,
           arg_max(state, coalesce(permit_effective, DATE '0001-01-01')) AS state,
           arg_max(zip, coalesce(permit_effective, DATE '0001-01-01')) AS zip
    FROM industrial_users GROUP BY user_id
),

current_permits AS (
    -- the user's current permit (user_permits, contract 8.2: the latest to expire of those in force)
    SELECT user_id, permit_no FROM user_permits WHERE is_current
)
SELECT 'sewer' AS kind, user_id AS recipient_id, CAST($town AS VARCHAR) AS jurisdiction,
       coalesce(nullif(trim(mailing_name), ''), name) AS recipient_name,
       coalesce(nullif(trim(mailing_address), ''), address) AS street,
       city, state, zip, name AS record_name, address AS premises, permit_no,
       CAST(NULL AS VARCHAR) AS applicant_name, CAST(NULL AS VARCHAR) AS applicant_street,
       CAST(NULL AS VARCHAR) AS applicant_city, CAST(NULL AS VARCHAR) AS applicant_state,
       CAST(NULL AS VARCHAR) AS applicant_zip
FROM users LEFT JOIN current_permits USING (user_id)
UNION ALL
SELECT 'stormwater', site_id, jurisdiction,
       nullif(trim(owner_name), ''), nullif(trim(owner_address), ''),
       owner_city, owner_state, owner_zip, name, address, NULL,
       coalesce(nullif(trim(mailing_name), ''), applicant), nullif(trim(mailing_address), ''),
       city, state, zip
FROM sites
ORDER BY 1, 2
