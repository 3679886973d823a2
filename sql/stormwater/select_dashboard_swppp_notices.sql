-- The SWPPP notices of violation as the stormwater page lists them, with their letter's file.
SELECT notice_id, site_id, finding, status, trigger_date, letter_file
FROM swppp_notices;
