-- Infiltration tests no infiltration rule covers (insert_infiltration_results left them unjudged).
-- Parameters: $asset.
INSERT INTO not_judged (asset, subject, day, section, reason)
SELECT $asset, 'infiltration test of section ' || section_id, test_date, 'infiltration', rule
FROM infiltration_results
WHERE passes IS NULL AND allowable_gpd IS NULL
ORDER BY test_date, section_id
