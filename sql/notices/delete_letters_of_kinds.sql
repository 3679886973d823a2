-- The letters of some kinds ($kinds), before the asset that writes them writes this run's.
DELETE FROM letters WHERE list_contains($kinds, letter_kind)
