-- Asset check check_completeness_notice_contents: Every notice carries the six contents the law
-- requires; a notice without the applicant's name or the site's address is not ready to send (WARN).
SELECT notice_id, missing_contents
FROM swppp_notices
WHERE NOT contents_complete
   OR nature_of_violation IS NULL
   OR remedial_measures IS NULL
   OR penalty_statement IS NULL
   OR appeal_statement IS NULL
ORDER BY notice_id;
