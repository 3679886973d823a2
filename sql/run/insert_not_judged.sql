-- One thing an asset could not judge for want of a rule in effect on its day.
-- Parameters: $asset, $subject, $day, $section, $reason.
INSERT INTO not_judged (asset, subject, day, section, reason)
VALUES ($asset, $subject, $day, $section, $reason)
