-- Prior convictions: applicant (matched without regard to case and blanks), the day of the offense
-- (offense_on; convicted_on when blank: the five years of the stormwater laws count the days
-- the offenses were committed), the conviction's date and its chapter number.
SELECT lower(regexp_replace(trim(applicant), '\s+', ' ', 'g')) AS applicant_key, site_id, convicted_on,
       coalesce(offense_on, convicted_on) AS offense_on, chapter_number, jurisdiction
FROM convictions
WHERE convicted_on IS NOT NULL AND chapter_number IS NOT NULL
ORDER BY applicant_key, convicted_on;
