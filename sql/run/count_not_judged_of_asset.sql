-- How many things an asset could not judge (table not_judged).
-- Parameters: $asset.
SELECT count(*) FROM not_judged WHERE asset = $asset
