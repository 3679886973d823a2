-- The version each table (and partition) had when it was last made.
SELECT asset, partition_key, version
FROM _asset_versions;
