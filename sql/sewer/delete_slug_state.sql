-- Forget what the last slug detection saw (written again at once).
DELETE FROM slug_state
