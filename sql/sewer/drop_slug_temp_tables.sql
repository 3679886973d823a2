-- The temporary tables of one slug detection.
DROP TABLE IF EXISTS slug_candidates;
DROP TABLE IF EXISTS slug_scan_hours;
DROP TABLE IF EXISTS slug_tz_hours;
DROP TABLE IF EXISTS slug_hours;
