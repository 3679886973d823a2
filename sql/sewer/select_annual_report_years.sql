-- The years of the annual pretreatment report, newest first (for the index page's links).
SELECT DISTINCT year FROM pretreatment_annual_report ORDER BY year DESC;
