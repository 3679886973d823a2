-- Forget the days without a baseline (listed again from every day's statistics).
DELETE FROM slug_baseline_gaps
