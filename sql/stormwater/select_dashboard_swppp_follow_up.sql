-- The follow-up of each SWPPP violation from its notice (the notices that have a notice period).
SELECT site_id, finding, due_by, status, notice_period, issued_on,
       remedial_due_by, violation_periods, penalty_per, total_fine_max_usd
FROM swppp_notices
WHERE notice_period IS NOT NULL;
