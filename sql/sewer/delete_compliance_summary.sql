-- Forget the last compliance summary (written again next).
DELETE FROM compliance_summary
