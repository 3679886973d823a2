-- Forget what an asset could not judge on its previous run (it writes its rows again).
-- Parameters: $asset.
DELETE FROM not_judged WHERE asset = $asset
