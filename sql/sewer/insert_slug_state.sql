-- What this slug detection saw: flow rows, newest reading, newest load time,
-- fingerprint of the rules and permits, mode and first day judged.
INSERT INTO slug_state VALUES (?, ?, ?, ?, ?, ?)
