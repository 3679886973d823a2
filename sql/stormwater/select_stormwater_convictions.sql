-- Prior convictions: applicant (matched without regard to case and blanks), date, chapter number.
SELECT lower(regexp_replace(trim(applicant), '\s+', ' ', 'g')) AS applicant_key, site_id, convicted_on,
       chapter_number, jurisdiction
FROM convictions
WHERE convicted_on IS NOT NULL AND chapter_number IS NOT NULL
ORDER BY applicant_key, convicted_on;
