-- Approved SWPPPs allowing more than five acres disturbed at one time.
SELECT site_id, approved_max_disturbed_acres, approved_on
FROM swppp_approvals
WHERE site_id IS NOT NULL
ORDER BY site_id, approved_on;
