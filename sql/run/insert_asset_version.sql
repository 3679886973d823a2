-- Record the version a table (or one of its partitions) was made with, over the one recorded before.
INSERT OR REPLACE INTO _asset_versions (asset, partition_key, version, recorded_at)
VALUES ($asset, $partition_key, $version, $recorded_at);
