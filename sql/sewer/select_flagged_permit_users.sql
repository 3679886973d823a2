-- Users whose permit the compliance summary flags as expiring or expired.
SELECT DISTINCT user_id FROM compliance_summary WHERE permit_expiry_flag ORDER BY 1
