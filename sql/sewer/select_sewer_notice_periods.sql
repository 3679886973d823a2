-- Each notice's day, period to correct and last day to correct.
SELECT issued_on, correction_days, correct_by FROM sewer_notices
