-- Forget the rows an asset set aside on its previous run ($judged_by: the asset's name).
DELETE FROM set_aside WHERE judged_by = $judged_by;
