-- The permits an earlier load of the industrial users file gave that no input gives any longer (a users
-- file edited in place: user_permits in force, in_inputs false): each stays in force for its own days and
-- is listed for the Superintendent to confirm (a permits row of its number) or withdraw (one with a
-- withdrawn_reason), contract 8.2.
SELECT user_id, name, permit_no, effective_on, expires_on, source_file
FROM user_permits
WHERE status = 'in_force' AND NOT in_inputs
ORDER BY user_id, effective_on, permit_no
