-- The columns of one table (of the warehouse, or a temporary one of this connection), in order,
-- with their types. duckdb_columns() rather than information_schema.columns: the same rows, sooner,
-- and this runs for every table an asset writes.
SELECT column_name, data_type
FROM duckdb_columns()
WHERE table_name = $table AND NOT internal
  AND ($schema IS NULL OR (schema_name = $schema AND database_name = current_database()))
ORDER BY column_index;
