-- The flow rows loaded after $loaded_at: how many, and the earliest reading among them.
-- Parameters: $loaded_at.
SELECT count(*), min(ts) FROM flow WHERE loaded_at > $loaded_at
