-- Each input folder's data version: the hash of the names and SHA-256s of every file loaded from it
-- (a file replaced by another of the same name adds its own line). A folder none was loaded from has
-- no row.
SELECT
    dataset,
    left(sha256(string_agg(source_file || ':' || sha256, '|' ORDER BY source_file, sha256)), 32) AS version
FROM ingested_files
GROUP BY dataset;
