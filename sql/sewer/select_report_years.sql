-- The years of the annual pretreatment report.
SELECT DISTINCT year FROM pretreatment_annual_report ORDER BY year;
