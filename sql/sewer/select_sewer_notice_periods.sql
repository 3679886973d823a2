-- Each mailed notice's day, period to correct and last day to correct (a draft has none).
SELECT issued_on, correction_days, correct_by FROM sewer_notices WHERE issued_on IS NOT NULL
