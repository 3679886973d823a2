-- The superseded rows of a dataset table ({table} is an identifier from our own specs).
CREATE TABLE IF NOT EXISTS "{table}_history" AS
SELECT *, NULL::TIMESTAMPTZ AS superseded_at, NULL::VARCHAR AS superseded_by FROM "{table}" LIMIT 0;
