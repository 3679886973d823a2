-- The index page's sewer card: industrial users whose permit is expiring or has expired
-- (the compliance summary's flag, set by the permit expiry warning of the rules).
SELECT count(DISTINCT user_id) AS users FROM compliance_summary WHERE permit_expiry_flag;
