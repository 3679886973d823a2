-- Forget the last judgement of the infiltration tests (written again next).
DELETE FROM infiltration_results;
DELETE FROM infiltration_findings;
