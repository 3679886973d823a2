-- Rows of a table per value of one of its columns, for an asset's metadata. The
-- table and column are identifiers from a constant in the calling code, never input.
SELECT CAST("{column}" AS VARCHAR), count(*) FROM "{table}" GROUP BY 1 ORDER BY 1
