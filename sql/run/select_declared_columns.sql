-- Every column of every table of the warehouse's own schema, in order (for upgrading the
-- tables of a warehouse made by an older Outfall).
SELECT table_name, column_name, data_type
FROM information_schema.columns
WHERE table_schema = 'main' AND table_name NOT LIKE '\_%' ESCAPE '\'
ORDER BY table_name, ordinal_position;
