-- The report is rebuilt whole on every run.
DELETE FROM pretreatment_annual_report;
