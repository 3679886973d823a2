-- Every column of every table (not view) of the warehouse's own schema, in order (for upgrading
-- the tables of a warehouse made by an older Outfall).
SELECT c.table_name, c.column_name, c.data_type
FROM information_schema.columns c
JOIN information_schema.tables t
  ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
WHERE c.table_schema = 'main' AND c.table_name NOT LIKE '\_%' ESCAPE '\'
ORDER BY c.table_name, c.ordinal_position;
