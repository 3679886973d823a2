-- Every recorded mailing of a notice (input notices_mailed), for the notices asset to pick the one
-- that counts (the earliest mailed_on) per kind, recipient and period, and the drafts withdrawn (a row
-- with withdrawn_reason and no mailed_on).
SELECT kind, recipient_id, period, mailed_on, certified_mail_no, correct_within_days, withdrawn_reason
FROM notices_mailed
ORDER BY kind, recipient_id, period, mailed_on NULLS LAST, certified_mail_no
