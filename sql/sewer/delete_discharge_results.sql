-- Forget the last judgement of every lab result against the per-sample limits (written again next).
DELETE FROM discharge_evaluations;
DELETE FROM discharge_violations;
DELETE FROM inconclusive_results;
DELETE FROM unlimited_results;
