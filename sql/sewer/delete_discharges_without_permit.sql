-- The findings of discharging without a permit are rebuilt whole on every run.
DELETE FROM discharges_without_permit;
