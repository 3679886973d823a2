-- Each recipient's name and ZIP code as every input file gives it, to find a recipient whose ZIP code differs
-- between two files (address_conflicts). address_text: an address written as text, whose ZIP code is read
-- from its last line.
SELECT 'the industrial users'' file' AS source, user_id AS recipient_id, name, zip, NULL AS address_text
FROM industrial_users
UNION ALL
SELECT 'the industrial users'' file', user_id, mailing_name, zip, NULL FROM industrial_users
WHERE nullif(trim(mailing_name), '') IS NOT NULL
UNION ALL
SELECT 'the construction sites'' file', site_id, coalesce(nullif(trim(mailing_name), ''), applicant), zip,
       NULL
FROM sites
UNION ALL
SELECT 'the construction sites'' file', site_id, owner_name, owner_zip, NULL
FROM sites
WHERE nullif(trim(owner_name), '') IS NOT NULL
UNION ALL
SELECT 'the illicit discharges file', case_id, responsible_party, NULL, mailing_address
FROM illicit_discharges
WHERE nullif(trim(responsible_party), '') IS NOT NULL
ORDER BY 1, 2
