-- Violations collected by $as_of, notices written, distinct notice ids and notices not written for want
-- of a rule in effect on the violation's day (not_judged), for the asset check of the notices.
-- Parameters: $as_of.
SELECT (SELECT count(*) FROM discharge_evaluations WHERE outcome = 'violation' AND collected_date <= $as_of),
       (SELECT count(*) FROM sewer_notices),
       (SELECT count(DISTINCT notice_id) FROM sewer_notices),
       (SELECT count(*) FROM not_judged WHERE asset = 'sewer_notices')
