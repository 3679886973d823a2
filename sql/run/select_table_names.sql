-- The tables of the warehouse (its own schema).
SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_name;
