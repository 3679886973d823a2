-- The mailings of the documents of some kinds ($kinds), before the asset that writes them writes this run's.
DELETE FROM letter_mailings WHERE list_contains($kinds, letter_kind)
