-- Merge one file's kept rows (the view _incoming) into a dataset table.
-- {table}, {key_match} and {t_filter} are identifiers and predicates built from the
-- project's own dataset specs (outfall/ingest/spec.py), never input values;
-- values are bind parameters:
--   $source_file  the file the rows come from
--   $now          when this load happened
--   $loN, $hiN    the range of the incoming rows' N-th key column ({t_filter} uses
--                 them so that only the table's rows in that range are scanned)
-- A row whose natural key exists with different values supersedes it; the old
-- row is kept in {table}_history with when and by which file. A row identical
-- to the stored one changes nothing.

INSERT INTO "{table}_history" BY NAME
SELECT t.*, $now AS superseded_at, $source_file AS superseded_by
FROM "{table}" AS t JOIN _incoming AS i ON {key_match}
WHERE {t_filter} AND t.row_hash <> i.row_hash;

DELETE FROM "{table}" AS t
USING _incoming AS i
WHERE {key_match} AND {t_filter} AND t.row_hash <> i.row_hash;

INSERT INTO "{table}" BY NAME
SELECT i.* FROM _incoming AS i
WHERE NOT EXISTS (SELECT 1 FROM "{table}" AS t WHERE {key_match} AND {t_filter});
