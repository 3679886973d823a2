-- Each recipient's name and ZIP code as every input file gives it, to find a recipient whose ZIP code differs
-- between two files (address_conflicts). address_text: an address written as text, whose ZIP code is read
-- from its last line. known_on: the first day the file gave it (an illicit discharge case's, the day it was
-- discovered; NULL: a standing record), so that a letter dated earlier is not held by a later one (8.1).
SELECT 'the industrial users'' file' AS source, user_id AS recipient_id, name, zip, NULL AS address_text,
       CAST(NULL AS DATE) AS known_on
FROM industrial_users
UNION ALL
SELECT 'the industrial users'' file', user_id, mailing_name, zip, NULL, NULL FROM industrial_users
WHERE nullif(trim(mailing_name), '') IS NOT NULL
UNION ALL
SELECT 'the construction sites'' file', site_id, coalesce(nullif(trim(mailing_name), ''), applicant), zip,
       NULL, NULL
FROM sites
UNION ALL
SELECT 'the construction sites'' file', site_id, owner_name, owner_zip, NULL, NULL
FROM sites
WHERE nullif(trim(owner_name), '') IS NOT NULL
UNION ALL
SELECT 'the illicit discharges file', case_id, responsible_party, NULL, mailing_address, discovered_on
FROM illicit_discharges
WHERE nullif(trim(responsible_party), '') IS NOT NULL
ORDER BY 1, 2
