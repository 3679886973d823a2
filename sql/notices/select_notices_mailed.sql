-- Every recorded mailing of a notice or order (input notices_mailed) and every draft withdrawn (a row with
-- withdrawn_reason and no mailed_on), for the documents' helper to match to its document. A run as of D
-- reads no mailing dated after D (contract 8.1).
SELECT kind, recipient_id, period, mailed_on, certified_mail_no, correct_within_days, withdrawn_reason
FROM notices_mailed
WHERE mailed_on IS NULL OR mailed_on <= $as_of
ORDER BY kind, recipient_id, period, mailed_on NULLS LAST, certified_mail_no
