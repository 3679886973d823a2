-- How many tables the warehouse's own schema holds (none: a new warehouse, nothing to upgrade).
SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main' AND database_name = current_database();
