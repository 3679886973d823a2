-- Forget the last judgement of the daily-maximum and monthly-average limits (written again next).
DELETE FROM statistic_results;
DELETE FROM statistic_violations;
